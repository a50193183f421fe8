# `make install` (cmake --install): the binary, libgpubound (static and shared),
# its public headers and gpubound.pc. The shared library links the system's
# shared GSL, jansson, zlib and libcrypto; gpubound.pc finds its prefix from its own place
# (${pcfiledir}), so it also works under a DESTDIR staging tree.
include(GNUInstallDirs)

find_library(GB_GSL_SO gsl)
find_library(GB_GSLCBLAS_SO gslcblas)
find_library(GB_JANSSON_SO jansson)
find_library(GB_Z_SO z)
find_library(GB_CRYPTO_SO crypto)
# libmatheval's static archive is not position-independent: the shared library links its .so.
find_library(GB_MATHEVAL_SO matheval)
add_library(gpubound_shared SHARED $<TARGET_OBJECTS:gpubound_obj>)
set_target_properties(gpubound_shared PROPERTIES OUTPUT_NAME gpubound
  VERSION ${PROJECT_VERSION} SOVERSION ${PROJECT_VERSION_MAJOR})
target_link_libraries(gpubound_shared PRIVATE ${GB_GSL_SO} ${GB_GSLCBLAS_SO} ${GB_JANSSON_SO}
  ${GB_Z_SO} ${GB_MATHEVAL_SO} ${GB_CRYPTO_SO} ${CMAKE_DL_LIBS} m pthread)

file(RELATIVE_PATH GB_PC_TO_PREFIX "${CMAKE_INSTALL_FULL_LIBDIR}/pkgconfig" "${CMAKE_INSTALL_PREFIX}")
string(REGEX REPLACE "/$" "" GB_PC_TO_PREFIX "${GB_PC_TO_PREFIX}")
# cuda.h's directory, unless the compiler searches it anyway.
set(GB_PC_CUDA_CFLAGS "")
if(NOT GB_CUDA_INCLUDE STREQUAL "/usr/include")
  set(GB_PC_CUDA_CFLAGS " -I\${cudaincludedir}")
endif()
configure_file(${CMAKE_SOURCE_DIR}/cmake/gpubound.pc.in ${CMAKE_BINARY_DIR}/gpubound.pc @ONLY)

install(TARGETS gpubound RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
install(TARGETS gpubound_lib gpubound_shared
  ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR}
  LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR})
install(DIRECTORY ${CMAKE_SOURCE_DIR}/include/gpubound DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}
  FILES_MATCHING PATTERN "*.h")
install(FILES ${CMAKE_BINARY_DIR}/gpubound.pc DESTINATION ${CMAKE_INSTALL_LIBDIR}/pkgconfig)
