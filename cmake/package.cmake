# What a system expects of an installed gpubound beside the library and the
# program (install.cmake): the CMake package (find_package(gpubound), with the
# imported targets gpubound::gpubound and gpubound::gpubound_static), a man
# page for gpubound and one per command (made from `gpubound help --markdown`,
# the text of docs/cli.md, by scripts/man_pages.py), and bash completion.
include(GNUInstallDirs)
include(CMakePackageConfigHelpers)

set(GB_CMAKE_DIR ${CMAKE_INSTALL_LIBDIR}/cmake/gpubound)
file(RELATIVE_PATH GB_CONFIG_TO_PREFIX "${CMAKE_INSTALL_PREFIX}/${GB_CMAKE_DIR}" "${CMAKE_INSTALL_PREFIX}")
string(REGEX REPLACE "/$" "" GB_CONFIG_TO_PREFIX "${GB_CONFIG_TO_PREFIX}")
configure_file(${CMAKE_SOURCE_DIR}/cmake/gpubound-config.cmake.in
               ${CMAKE_BINARY_DIR}/cmake/gpubound-config.cmake @ONLY)
write_basic_package_version_file(${CMAKE_BINARY_DIR}/cmake/gpubound-config-version.cmake
  VERSION ${PROJECT_VERSION} COMPATIBILITY SameMajorVersion)
install(FILES ${CMAKE_BINARY_DIR}/cmake/gpubound-config.cmake
              ${CMAKE_BINARY_DIR}/cmake/gpubound-config-version.cmake
        DESTINATION ${GB_CMAKE_DIR})

install(FILES ${CMAKE_SOURCE_DIR}/scripts/completion/gpubound
        DESTINATION ${CMAKE_INSTALL_DATADIR}/bash-completion/completions)

find_package(Python3 COMPONENTS Interpreter)
if(Python3_Interpreter_FOUND)
  set(GB_MAN_DIR ${CMAKE_BINARY_DIR}/man)
  add_custom_command(OUTPUT ${GB_MAN_DIR}/gpubound.1
    COMMAND ${Python3_EXECUTABLE} ${CMAKE_SOURCE_DIR}/scripts/man_pages.py $<TARGET_FILE:gpubound> ${GB_MAN_DIR}
    DEPENDS gpubound ${CMAKE_SOURCE_DIR}/scripts/man_pages.py
    COMMENT "Writing the man pages" VERBATIM)
  add_custom_target(gpubound_man ALL DEPENDS ${GB_MAN_DIR}/gpubound.1)
  install(DIRECTORY ${GB_MAN_DIR}/ DESTINATION ${CMAKE_INSTALL_MANDIR}/man1 FILES_MATCHING PATTERN "*.1")
else()
  message(STATUS "python3 not found: the man pages are not made (make deps installs it)")
endif()
