/* git_rev.h - the source tree's git revision the binary was built from
 * ("1234abcd5678", with "-dirty" when tracked files had changes, or
 * "unknown"), written at every build by cmake/git_rev.cmake, so that it is
 * never the revision of an older configure. */
#ifndef GB_UTIL_GIT_REV_H
#define GB_UTIL_GIT_REV_H

extern const char gb_git_rev[];

#endif
