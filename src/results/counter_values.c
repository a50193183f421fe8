/* counter_values.c - values into and out of a counter set
 * (include/gpubound/counters.h): the profiler's value rows decoded into
 * named counters, and the spread of an instanced metric over its unit's
 * instances. Pure; no GPU. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gpubound/counters.h"

enum gb_status gb_counter_decode(char *const *req, size_t n_req, const double *values,
                                 size_t n_ranges, const double *const *inst, const int *inst_n,
                                 struct gb_counters *out)
{
    enum gb_status st = GB_OK;
    double *acc = NULL;
    if (n_ranges == 0)
        return gb_error_set(GB_ERR_FORMAT, "the profiler returned no range (no kernel ran in the "
                                           "profiled launch)");
    for (size_t i = 0; i < n_req && st == GB_OK; i++) {
        double sum = 0;
        for (size_t r = 0; r < n_ranges; r++) {
            double v = values[r * n_req + i];
            if (!isfinite(v))
                return gb_error_set(GB_ERR_FORMAT, "the profiler's value of %s in range %zu is not a "
                                                   "finite number", req[i], r);
            sum += v;
        }
        st = gb_counters_set(out, req[i], sum);
        if (st != GB_OK || !inst || !inst[i] || !inst_n || inst_n[i] <= 0)
            continue;
        /* Instance vectors of the ranges one after another: inst_n[i] per range. */
        int k = inst_n[i];
        if (!(acc = calloc((size_t)k, sizeof *acc)))
            return gb_error_set(GB_ERR_NOMEM, "out of host memory");
        for (size_t r = 0; r < n_ranges; r++)
            for (int j = 0; j < k; j++)
                acc[j] += inst[i][r * (size_t)k + (size_t)j];
        st = gb_counters_set_instances(out, req[i], acc, k);
        free(acc);
        acc = NULL;
    }
    return st;
}

/* The value of base.rollup in `c`, or NaN. */
static double gb_rollup(const struct gb_counters *c, const char *base, const char *rollup)
{
    char name[GB_COUNTER_NAME_MAX + 8];
    snprintf(name, sizeof name, "%s.%s", base, rollup);
    const struct gb_counter *k = gb_counters_find(c, name);
    return k ? k->value : NAN;
}

static void gb_spread_from_instances(const struct gb_counter *k, struct gb_counter_spread *s)
{
    s->sum = 0;
    s->max = -INFINITY;
    s->min = INFINITY;
    for (int i = 0; i < k->n_inst; i++) {
        s->sum += k->inst[i];
        s->max = fmax(s->max, k->inst[i]);
        s->min = fmin(s->min, k->inst[i]);
    }
    s->units = k->n_inst;
    /* The four largest, the first instance winning ties. */
    for (int t = 0; t < 4 && t < k->n_inst; t++) {
        int best = -1;
        for (int i = 0; i < k->n_inst; i++) {
            int taken = 0;
            for (int u = 0; u < t; u++)
                taken |= s->top[u] == i;
            if (!taken && (best < 0 || k->inst[i] > k->inst[best]))
                best = i;
        }
        s->top[t] = best;
    }
}

enum gb_status gb_counter_spread_of(const struct gb_counters *c, const char *base,
                                    struct gb_counter_spread *out)
{
    char name[GB_COUNTER_NAME_MAX + 8];
    struct gb_counter_spread s;
    memset(&s, 0, sizeof s);
    for (int t = 0; t < 4; t++)
        s.top[t] = -1;
    snprintf(name, sizeof name, "%s.sum", base);
    const struct gb_counter *k = gb_counters_find(c, name);
    if (k && k->n_inst > 0) {
        gb_spread_from_instances(k, &s);
    } else {
        double avg = gb_rollup(c, base, "avg");
        s.sum = gb_rollup(c, base, "sum");
        s.max = gb_rollup(c, base, "max");
        s.min = gb_rollup(c, base, "min");
        if (!isfinite(s.sum) || !isfinite(avg) || !isfinite(s.max) || !isfinite(s.min))
            return gb_error_set(GB_ERR_UNSUPPORTED, "no instances or rollups (.sum, .avg, .max, "
                                                    ".min) of %s were recorded", base);
        /* sum / avg is the instance count; with no traffic at all it is 0 / 0. */
        s.units = avg > 0 ? round(s.sum / avg) : NAN;
    }
    s.mean = s.units > 0 ? s.sum / s.units : NAN;
    s.max_mean = s.mean > 0 ? s.max / s.mean : NAN;
    s.max_min = s.min > 0 ? s.max / s.min : (s.max > 0 ? INFINITY : NAN);
    s.effective = s.max > 0 ? s.sum / s.max : NAN;
    *out = s;
    return GB_OK;
}
