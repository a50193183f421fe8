/* suites.h - the suite declarations the registry lists (src/suites only). */
#ifndef GB_SUITES_H
#define GB_SUITES_H

#include "gpubound/suite.h"

extern const struct gb_suite gb_suite_bandwidth;
extern const struct gb_suite gb_suite_ubench;
extern const struct gb_suite gb_suite_throughput;
extern const struct gb_suite gb_suite_patterns;
extern const struct gb_suite gb_suite_camping;
extern const struct gb_suite gb_suite_transpose;
extern const struct gb_suite gb_suite_ceilings;

#endif
