/* tune_internal.h - the tuner's state, shared by the files of
 * src/models/tune/ only. */
#ifndef GB_MODELS_TUNE_INTERNAL_H
#define GB_MODELS_TUNE_INTERNAL_H

#include "gpubound/tune.h"

struct gb_tune {
    const struct gb_tune_space *space;
    const struct gb_tune_strategy *row;
    void *state;
    size_t budget;
    unsigned seed;
    struct gb_tune_obs *obs;     /* budget slots, n_obs used, in the order observed */
    size_t n_obs;
    unsigned char *seen;         /* per configuration: measured */
    struct gb_tune_surrogate sur[2]; /* model: the breakdown (when given), then the fallback */
    size_t n_sur;
    char sur_used[64];
    char sur_note[256];
};

/* The unmeasured configuration farthest (max of its least squared
 * distance) from every measured one and from out[0..n_out), ties broken
 * by the tuner's random draws; space->n when none is left. */
size_t gb_tune_farthest(struct gb_tune *t, const size_t *out, size_t n_out, unsigned salt);

/* Fits the model strategy's first surrogate that will and predicts
 * every configuration (mean, lo, hi: space->n each); 0 when none fits
 * (gb_tune_surrogate_note says why). */
int gb_tune_model_fit(struct gb_tune *t, double *mean, double *lo, double *hi);

/* The length scale of each of the n_axes axes (in units of its range)
 * that the Gaussian process sur (gb_tune_surrogate_gp) was last fitted
 * with: each axis's own, by marginal likelihood. */
void gb_tune_gp_scales(const struct gb_tune_surrogate *sur, double *ell, int n_axes);

/* The model strategy's acquisition: the lower confidence bound on the log
 * time, log(mean) - GB_TUNE_LCB_KAPPA standard deviations, the deviation
 * read from the 95% interval lo..hi as a normal's on the log scale (0
 * when the interval is empty); the unmeasured configuration with the least
 * is measured next. */
#define GB_TUNE_LCB_KAPPA 1.0
double gb_tune_model_lcb(double mean, double lo, double hi);

/* The model strategy's space-filling start in a space s searched with
 * budget measurements: 2 per axis of more than one level and 2 more, at
 * most a tenth of the space (but GB_TUNE_MIN_START: enough points for the
 * breakdown to be fitted after the start) and half the budget, at least 1. */
#define GB_TUNE_MIN_START (GB_LPBM_MIN_POINTS + 1)
size_t gb_tune_model_start(const struct gb_tune_space *s, size_t budget);

#endif
