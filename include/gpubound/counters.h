/* counters.h - hardware counters of one profiled launch: Nsight Compute's
 * metric names and their values, the default set gpubound records, and
 * the decoding of the profiler's flat value arrays into named values.
 *
 * A counter set maps a metric name ("dram__sectors_read.sum") to its value
 * and, where a source gives them, its values per hardware instance (per
 * FBPA, per L2 slice) in the instances' order. CUPTI's range profiler
 * evaluates metrics to one value each (the rollup the name asks for:
 * .sum, .avg, .max or .min over the unit's instances); gpubound asks for
 * all four rollups of the instanced metrics of its default set, so that
 * every record says how many instances there are (sum / avg) and how
 * unevenly they were loaded (max / avg, max / min) without the
 * per-instance vectors, which the public CUPTI and Perfworks headers do
 * not expose. Per-instance arrays are kept when a source has them (an
 * Nsight Compute export printed with --print-metric-instances values).
 *
 * Everything here is pure data and lookups over caller-owned storage;
 * thread-safe on distinct sets.
 */
#ifndef GPUBOUND_COUNTERS_H
#define GPUBOUND_COUNTERS_H

#include "gpubound/api.h"

#include <stddef.h>

#include "gpubound/counter_names.h"
#include "gpubound/status.h"

struct gb_counter {
    char name[GB_COUNTER_NAME_MAX + 1];
    double value;                /* the metric's value (NaN: only instances known) */
    int n_inst;                  /* per-instance values; 0 when none */
    double *inst;                /* n_inst values, in the hardware's instance order */
};

/* A set of counters, caller-owned; zero-initialised is empty. */
struct gb_counters {
    int n, cap;
    struct gb_counter *v;
};

/* Adds or replaces metric `name` with `value` (instances kept).
 * GB_ERR_USAGE for a name longer than GB_COUNTER_NAME_MAX or empty,
 * GB_ERR_NOMEM; the set is then unchanged. */
GB_API enum gb_status gb_counters_set(struct gb_counters *c, const char *name, double value);

/* Sets the per-instance values of `name` (copied; the metric is added with
 * value NaN when absent). GB_ERR_USAGE, GB_ERR_NOMEM as above. */
GB_API enum gb_status gb_counters_set_instances(struct gb_counters *c, const char *name, const double *v,
                                         int n);

/* The counter `name`, or NULL. */
GB_API const struct gb_counter *gb_counters_find(const struct gb_counters *c, const char *name);

/* Frees everything and leaves the set empty; safe on an empty set and NULL. */
GB_API void gb_counters_release(struct gb_counters *c);

/* `dst` (overwritten, not released first) becomes an independent copy.
 * GB_ERR_NOMEM leaves `dst` empty. */
GB_API enum gb_status gb_counters_copy(struct gb_counters *dst, const struct gb_counters *src);

/* ---- decoding the profiler's values (src/results/counter_values.c) ---- */

/* Decodes the profiler's values: `values` holds n_ranges rows of n_req
 * doubles, row r the values of range r (one kernel of the launch) in the
 * order of `req`, as cuptiProfilerHostEvaluateToGpuValues writes them.
 * `inst` (NULL: none) gives per-instance vectors: inst[i] with inst_n[i]
 * values for req[i], summed over the ranges like the values. A launch of
 * one kernel decodes exactly; over several kernels .sum and .avg add up
 * exactly, while .max and .min are added (an upper and a lower bound).
 * Non-finite values are refused (GB_ERR_FORMAT naming the metric). The
 * decoded values are added to `out`. */
GB_API enum gb_status gb_counter_decode(char *const *req, size_t n_req, const double *values,
                                 size_t n_ranges, const double *const *inst, const int *inst_n,
                                 struct gb_counters *out);

/* ---- imbalance over a unit's instances ---- */

/* What the rollups (or instances) of one instanced metric say. */
struct gb_counter_spread {
    double sum;                  /* over every instance */
    double units;                /* instances: the array's length, else sum / avg rounded */
    double max, min, mean;
    double max_mean, max_min;    /* imbalance ratios (max_min inf when min is 0 and max > 0) */
    double effective;            /* sum / max: instances an even load would need to carry it */
    int top[4];                  /* the instances carrying the most, when instances are known (-1 else) */
};

/* The spread of metric `base` ("lts__t_sectors") in `c`, from its
 * instances when known, else from base.sum/.avg/.max/.min. GB_ERR_UNSUPPORTED
 * when `c` has neither. */
GB_API enum gb_status gb_counter_spread_of(const struct gb_counters *c, const char *base,
                                    struct gb_counter_spread *out);

#endif
