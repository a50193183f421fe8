/* numbers.h - the numbers floor: pure numerics every layer may use
 * (src/numbers/). The median, the comparator of doubles, the order
 * statistics that bound a median, the Harrell-Davis median, and the
 * statistics of timed samples with the stopping rule. No GPU, no files,
 * no records: nothing here includes a header of results/, models/,
 * measure/, suites/ or report/ (tests/cli/layers.sh). Thread-safe;
 * caller-owned storage.
 */
#ifndef GPUBOUND_NUMBERS_H
#define GPUBOUND_NUMBERS_H

#include "gpubound/api.h"

#include <stddef.h>

#include "gpubound/status.h"

/* ---- the median and the comparator ---- */

/* qsort's comparator of doubles, ascending: -1, 0 or 1 (0 for a NaN). */
GB_API int gb_stats_cmp_double(const void *a, const void *b);

/* The median of n values sorted ascending: the middle one, or the mean of
 * the middle two for even n; NaN when n is 0. */
GB_API double gb_stats_median_sorted(const double *sorted, size_t n);

/* The median of v[0..n) (sorted ascending in place); NaN when n is 0. */
GB_API double gb_stats_median(double *v, size_t n);

/* ---- order statistics ---- */

/* The Harrell-Davis estimate of the median of n >= 1 samples sorted
 * ascending: a Beta-weighted mean of all of them, which moves smoothly as
 * samples are added, unlike the middle one. */
GB_API double gb_stats_hd_median(const double *sorted, int n);

/* The 1-based ranks (lo, hi) of the order statistics that bound a 95%
 * confidence interval of the median of n samples (binomial, p = 1/2), or
 * 0 when n is too small. */
GB_API int gb_stats_median_ci_ranks(int n, int *lo, int *hi);

/* ---- statistics of timed samples (src/numbers/stats.c) ---- */

struct gb_sample_stats {
    int n;
    double min, median, mean, stddev; /* median: Harrell-Davis (gb_stats_compute) */
    double ci_lo, ci_hi;   /* distribution-free 95% CI of the median (order statistics) */
    int ci_exact;          /* 0 when n is too small for a 95% interval: [min, max] given */
};

/* Computes the statistics of `n` samples (not modified). n >= 1. The
 * median is the Harrell-Davis estimate (gb_stats_hd_median), held inside
 * its interval. */
GB_API enum gb_status gb_stats_compute(const double *x, int n, struct gb_sample_stats *out);

/* The same with the middle sample as the median (the mean of the middle
 * two for even n): cheaper, for the stopping rule between chunks. */
GB_API enum gb_status gb_stats_progress(const double *x, int n, struct gb_sample_stats *out);

/* 1 if the relative half-width of the median's CI is at most rel_ci. */
GB_API int gb_stats_converged(const struct gb_sample_stats *s, double rel_ci);

#endif
