/* lpbm_internal.h - the spec the breakdown's adapter shares between its
 * files: lpbm_spec.c loads it through the spec parser (gpubound/spec.h),
 * lpbm_input.c reads each bench's fields as text. */
#ifndef GB_LPBM_INTERNAL_H
#define GB_LPBM_INTERNAL_H

#include <stddef.h>

#include "gpubound/lpbm.h"
#include "gpubound/spec.h"

#define GB_LPBM_PATH 4096

struct gb_lpbm_spec {
    char path[GB_LPBM_PATH], dir[GB_LPBM_PATH];
    struct gb_spec *spec;                 /* as the spec parser read it */
    struct gb_spec_bench_text *b;         /* its benches, every expression as text */
    size_t n;
};

/* The resources form's predictors of `p` (wf_ndr filled; wf_wg warps per
 * block): lpbm_terms.c. GB_ERR_FORMAT when a counter is missing. */
enum gb_status gb_lpbm_resources(struct gb_lpbm_point *p, double wf_wg);

/* The point of bench in->bench at the configuration `axes` (every axis of
 * the bench), not measured: its labels, its launch from the spec's
 * expressions, the analysis's counts; no time, no counters, no active warps
 * (NaN: the caller models them). lpbm_input.c. GB_ERR_FORMAT, GB_ERR_USAGE. */
struct gb_lpbm_input;
/* The most threads a block may have: CUDA's limit on every compute
 * capability the tool runs on (7.0 and later). */
#define GB_LPBM_MAX_BLOCK_THREADS 1024

struct gb_kv;
enum gb_status gb_lpbm_point_at(struct gb_lpbm_input *in, const struct gb_lpbm_spec *spec,
                                const struct gb_kv *axes, int n_axes, struct gb_lpbm_point *p);

/* The fit of the n points and, from `boot` residual-bootstrap replicates
 * seeded with `seed`, the 95% predictive interval of the time at `at`
 * (predictors filled): the coefficients' spread plus a resampled residual.
 * lpbm.c. */
enum gb_status gb_lpbm_interval_at(const struct gb_lpbm_point *pts, size_t n, enum gb_lpbm_weight weight,
                                   int boot, unsigned seed, const struct gb_lpbm_point *at,
                                   double *lo, double *hi);

/* 1 when one of the n points has the problem label `problem`. lpbm.c. */
int gb_lpbm_has_problem(const struct gb_lpbm_point *pts, size_t n, const char *problem);

/* The fit's own error across problems: each problem (point label) held out
 * in turn, predicted by a fit of the others; the 95th percentile of
 * |log(predicted / measured)| over their points. NaN with fewer than two
 * problems. What an interval at a problem not fitted is widened by
 * (exp(+-q)). lpbm.c. */
double gb_lpbm_across_problems(const struct gb_lpbm_point *pts, size_t n, enum gb_lpbm_weight weight);

/* The same intervals at at[0..m-1] from one set of replicates (lo, hi: m
 * values each; NaN with boot < 1). lpbm.c. */
enum gb_status gb_lpbm_intervals(const struct gb_lpbm_point *pts, size_t n, enum gb_lpbm_weight weight,
                                 int boot, unsigned seed, const struct gb_lpbm_point *at, size_t m,
                                 double *lo, double *hi);

#endif
