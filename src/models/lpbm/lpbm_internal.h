/* lpbm_internal.h - the spec the breakdown's adapter shares between its
 * files: lpbm_spec.c loads it through the spec parser (gpubound/spec.h),
 * lpbm_input.c reads each bench's fields as text. */
#ifndef GB_LPBM_INTERNAL_H
#define GB_LPBM_INTERNAL_H

#include <stddef.h>
#include <stdint.h>

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

/* ---- the source's preprocessed variants (lpbm_variants.c) ---- */

struct gb_lpbm_variants;

/* The -D defines of a configuration: its axes and the spec's defines. */
#define GB_LPBM_DEFINES (GB_MAX_AXES + GB_SPEC_MAX_DEFINES)
/* Variants of one source parsed apart at most (more: the first parse's counts). */
#define GB_LPBM_MAX_VARIANTS 64
#define GB_LPBM_VARIANT_KEY 512

/* How the source `text`'s preprocessor directives read the macro `name`:
 * bit 1 its presence (#ifdef, #ifndef, defined(name)), bit 2 its value
 * (#if or #elif outside defined(), or a #define's body); 0 not at all. */
int gb_lpbm_directive_reads(const char *text, const char *name);

/* The key of the configuration with the defines defs[nd] ("NAME=VALUE"):
 * those whose values the directives of `text` read (NULL: none), in order.
 * Configurations with one key preprocess to the same code. */
void gb_lpbm_variant_key(const char *text, char defs[][200], size_t nd, char *key, size_t n);

/* The source file of in->source, read once (NULL when it cannot be read:
 * then every configuration takes in->analysis). */
const char *gb_lpbm_variants_text(struct gb_lpbm_input *in);

/* The analysis of the configuration with defines defs[nd]: in->analysis
 * when its key is in->variant_key0's, else that key's own parse (made on
 * first use, include_dir on the include path); in->analysis when that
 * parse fails or GB_LPBM_MAX_VARIANTS are kept. Never fails. */
const struct gb_kernel_analysis *gb_lpbm_variant_get(struct gb_lpbm_input *in, const char *include_dir,
                                                     char defs[][200], size_t nd);
void gb_lpbm_variants_free(struct gb_lpbm_variants *vs);

enum gb_status gb_lpbm_point_at(struct gb_lpbm_input *in, const struct gb_lpbm_spec *spec,
                                const struct gb_kv *axes, int n_axes, struct gb_lpbm_point *p);

/* The fit of the n points and, from `boot` residual-bootstrap replicates
 * seeded with `seed`, the 95% predictive interval of the time at `at`
 * (predictors filled): the coefficients' spread plus a resampled residual.
 * lpbm.c. */
enum gb_status gb_lpbm_interval_at(const struct gb_lpbm_point *pts, size_t n, enum gb_lpbm_weight weight,
                                   int boot, unsigned seed, const struct gb_lpbm_point *at,
                                   double *lo, double *hi);

/* ---- one fit's pieces, and the average over fits (lpbm.c, lpbm_average.c) ---- */

/* The prediction of one fit given by its coefficients, floors, terms at
 * their roof and overlap (gb_lpbm_predict_single's). lpbm.c. */
double gb_lpbm_predict_with(const double coef[GB_LPBM_TERMS], const double floors[GB_LPBM_TERMS],
                            unsigned at_roof, double overlap, const struct gb_lpbm_point *p,
                            double terms[GB_LPBM_TERMS]);

/* The fit of the n points (weights w) at overlap p with the term left_out
 * (-1: none) out of it, under the fit's plausibility rules; its weighted
 * squared error in *sse. lpbm.c. */
enum gb_status gb_lpbm_fit_without(const struct gb_lpbm_point *pts, size_t n, const double *w, double p,
                                   int left_out, struct gb_lpbm_fit *out, double *sse);

/* Fills out->alt and out->n_alt: every overlap's fit and each with one of
 * its fitted terms left out, weighted exp(-BIC / 2). lpbm_average.c. */
enum gb_status gb_lpbm_average_fit(const struct gb_lpbm_point *pts, size_t n, const double *w,
                                   struct gb_lpbm_fit *out);

/* The averaged prediction (gb_lpbm_predict with alternatives). lpbm_average.c. */
double gb_lpbm_average_predict(const struct gb_lpbm_fit *f, const struct gb_lpbm_point *p,
                               double terms[GB_LPBM_TERMS]);

/* The alternative a draw from the generator *rs picks by weight (the
 * generator advanced only when there are two or more to pick from), or
 * NULL when f has none. lpbm_average.c. */
const struct gb_lpbm_alt *gb_lpbm_average_draw(const struct gb_lpbm_fit *f, uint64_t *rs);

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
