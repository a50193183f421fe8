/* counter_names.h - Nsight Compute metric names (src/numbers/counter_names.c,
 * the numbers floor): the default set `run --counters` records, the syntax
 * check, lists of names, and the rollups the profiler is asked for. Pure
 * data and lookups; thread-safe. Counter sets and their values:
 * counters.h. */
#ifndef GPUBOUND_COUNTER_NAMES_H
#define GPUBOUND_COUNTER_NAMES_H

#include "gpubound/api.h"

#include <stddef.h>

#include "gpubound/status.h"

/* A metric name is at most this many characters (Nsight Compute's longest
 * counter names are under 90). */
#define GB_COUNTER_NAME_MAX 95

/* The default set `run --counters` records: global load and store
 * instructions and sectors (in total and by access width: the CampProf
 * inputs), DRAM read and write sectors over the FBPAs, L2 sectors over the
 * slices, shared-memory wavefronts and bank conflicts, and instructions
 * executed by class. The instanced ones are given as .sum; the profiler
 * adds their .avg, .max and .min (gb_counter_request). Static strings;
 * *n is set to their count. */
GB_API const char *const *gb_counter_default_set(size_t *n);

/* Whether `name` is an Nsight Compute metric name gpubound can ask for:
 * "<unit>__<counter>[.<rollup>][.<submetric>]" in lower case, digits and
 * underscores, with a known hardware unit (dram, fbpa, lts, l1tex, smsp,
 * sm, gpu, ...), at most GB_COUNTER_NAME_MAX characters. 0 when it is;
 * -1 with the reason in `why` otherwise. Whether the device has the
 * metric is for the profiler to say (CUPTI_ERROR_INVALID_METRIC_NAME). */
GB_API int gb_counter_name_check(const char *name, char *why, size_t n);

/* Splits a comma list of metric names ("default" expands to the default
 * set) into a malloc'ed array of malloc'ed names without repeats, each
 * checked by gb_counter_name_check. GB_ERR_USAGE naming the first bad
 * name; free with gb_counter_names_free. */
GB_API enum gb_status gb_counter_names_parse(const char *list, char ***names, size_t *n);
GB_API void gb_counter_names_free(char **names, size_t n);

/* The metric names the profiler is asked for, for the names `names`: each
 * name, and for a .sum of an instanced unit (dram, fbpa, lts, ltc) also its
 * .avg, .max and .min, without repeats. Malloc'ed array of malloc'ed
 * strings (free with gb_counter_names_free). GB_ERR_NOMEM. */
GB_API enum gb_status gb_counter_request(char *const *names, size_t n, char ***req, size_t *n_req);

#endif
