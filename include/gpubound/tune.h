/* tune.h - searching a kernel's tuning space for its fastest configuration
 * in fewer measurements than the sweep (src/models/tune/; the method and
 * why: docs/tuning.md).
 *
 * A space is the configurations a spec allows (its restrictions applied),
 * each a vector of axis values. A tuner proposes configurations through a
 * strategy, is told what each measured, and stops at its budget. The
 * strategies are the rows of gb_tune_strategies[] (name, init, next,
 * observe): a new strategy is a row. A strategy's state is a function of
 * the seed and the observations in the order they came, so a tuning run cut
 * short is resumed by observing its recorded points again.
 *
 * The `model` strategy reads a surrogate through struct gb_tune_surrogate
 * (fit on measured points, predict a mean and an interval at any
 * configuration): the breakdown (lpbm.h) where it explains its data, else
 * a Gaussian process over the axes' normalized levels (the documented
 * fallback), and the tuner says which it used.
 *
 * Pure computations: nothing here touches a GPU, prints or exits; not
 * thread-safe (the breakdown's fit switches GSL's error handler).
 */
#ifndef GPUBOUND_TUNE_H
#define GPUBOUND_TUNE_H

#include "gpubound/api.h"

#include <stddef.h>

#include "gpubound/lpbm.h"
#include "gpubound/status.h"

#define GB_TUNE_MAX_AXES 16

/* The configurations searched. level[i * n_axes + a] is the rank of
 * configuration i's value of axis a among that axis's distinct values
 * (numeric order when every value is a number, else first-seen order);
 * u[] is the same rank scaled to [0, 1]. */
struct gb_tune_space {
    size_t n;
    int n_axes;
    char axis[GB_TUNE_MAX_AXES][32];
    int n_levels[GB_TUNE_MAX_AXES];
    int *level;                  /* n * n_axes */
    double *u;                   /* n * n_axes */
};

/* Builds the space of n configurations from their values: values[i][a] is
 * configuration i's value of axis `axes[a]` (strings; "16", "float4").
 * GB_ERR_USAGE for n == 0, more than GB_TUNE_MAX_AXES axes or a name too
 * long; GB_ERR_NOMEM. Release with gb_tune_space_release. */
GB_API enum gb_status gb_tune_space_init(struct gb_tune_space *s, const char *const *axes, int n_axes,
                                         const char *const *const *values, size_t n);
GB_API void gb_tune_space_release(struct gb_tune_space *s);

/* The squared distance of configurations i and j over u[]. */
GB_API double gb_tune_space_dist2(const struct gb_tune_space *s, size_t i, size_t j);

/* One measured configuration. time_ns: the median (ns), with its 95%
 * interval lo_ns..hi_ns; ok 0 for a point that failed verification or
 * could not be timed (a strategy treats it as measured and never best).
 * samples: the kept samples (may be NULL), not owned. */
struct gb_tune_obs {
    size_t idx;
    int ok;
    double time_ns, lo_ns, hi_ns;
    const double *samples;
    int n_samples;
};

/* ---- surrogates ---- */

/* A model of time over the space, fitted on the measured points. fit
 * returns GB_OK, or GB_ERR_NUMERIC / GB_ERR_UNSUPPORTED with `why` (one
 * line) when it cannot fit or will not (the breakdown's honesty rule);
 * predict gives the mean time at configuration idx and its 95% interval. */
struct gb_tune_surrogate {
    const char *name;
    enum gb_status (*fit)(void *ctx, const struct gb_tune_space *s, const struct gb_tune_obs *obs, size_t n,
                          char *why, size_t why_n);
    void (*predict)(void *ctx, const struct gb_tune_space *s, size_t idx, double *mean_ns, double *lo_ns,
                    double *hi_ns);
    void (*release)(void *ctx);
    void *ctx;
};

/* The fallback: a Gaussian process over u[] on log times (squared
 * exponential kernel, a length scale per axis chosen by marginal
 * likelihood from a fixed grid, noise from the measured intervals). Release with its
 * release. GB_ERR_NOMEM. */
GB_API enum gb_status gb_tune_surrogate_gp(struct gb_tune_surrogate *out);

/* The breakdown's inputs at configuration idx, into *p (predictors
 * filled, gb_lpbm_predictors); 0 when they are not known there. */
typedef int (*gb_tune_lpbm_fn)(void *ctx, size_t idx, struct gb_lpbm_point *p);

/* The breakdown as a surrogate: gb_lpbm_fit on the measured points, the
 * interval from the coefficients' bootstrap intervals widened by the
 * in-sample relative error. It refuses (GB_ERR_UNSUPPORTED, why) when some
 * configuration lacks its inputs, when fewer than GB_LPBM_MIN_POINTS + 1
 * points are measured, or when the fit does not explain its data: in-sample
 * median relative error above GB_TUNE_LPBM_MAX_REL or R^2 below
 * GB_TUNE_LPBM_MIN_R2 (the honesty rule: a model that does not explain
 * what it saw does not steer the search). */
#define GB_TUNE_LPBM_MAX_REL 0.10
#define GB_TUNE_LPBM_MIN_R2 0.90
GB_API enum gb_status gb_tune_surrogate_lpbm(gb_tune_lpbm_fn fn, void *fn_ctx, struct gb_tune_surrogate *out);

/* ---- the tuner ---- */

struct gb_tune;

/* A search method: one row. init makes the state (*state, may stay
 * NULL); next proposes up to k configurations not yet measured into out
 * (*n_out of them; 0 when it has none left); observe is told each
 * measurement in order. Everything random derives from t's seed and the
 * number of observations (gb_tune_rand). */
struct gb_tune_strategy {
    const char *name;
    const char *help;
    enum gb_status (*init)(struct gb_tune *t, void **state);
    enum gb_status (*next)(struct gb_tune *t, void *state, size_t k, size_t *out, size_t *n_out);
    void (*observe)(struct gb_tune *t, void *state, const struct gb_tune_obs *o);
    void (*release)(void *state);
};

/* The rows, ended by a row whose name is NULL. */
GB_API extern const struct gb_tune_strategy gb_tune_strategies[];
/* The row named `name`, or NULL. */
GB_API const struct gb_tune_strategy *gb_tune_strategy_find(const char *name);
/* "exhaustive, random, anneal, model" into buf. */
GB_API void gb_tune_strategy_names(char *buf, size_t n);

struct gb_tune_opts {
    const char *strategy;        /* a row's name */
    size_t budget;               /* measurements at most, 1..space->n */
    unsigned seed;
    /* model: the breakdown's inputs (NULL: only the fallback is used). */
    gb_tune_lpbm_fn lpbm;
    void *lpbm_ctx;
    /* model: a caller's breakdown surrogate, tried first in place of the
     * one over `lpbm` (NULL: none). The struct is copied; the tuner calls
     * its release (when set) when it is freed. The CLI's fits the breakdown
     * on the tuning run's records and predicts with gb_lpbm_predict_at. */
    const struct gb_tune_surrogate *breakdown;
};

/* A tuner over `space` (kept by pointer: it must outlive the tuner).
 * GB_ERR_USAGE naming the strategies for an unknown strategy, and for a
 * budget of 0 or above the space's size; GB_ERR_NOMEM. */
GB_API enum gb_status gb_tune_new(const struct gb_tune_space *space, const struct gb_tune_opts *o,
                                  struct gb_tune **out);
GB_API void gb_tune_free(struct gb_tune *t);

/* Up to k configurations to measure next (never one measured, never more
 * than the budget leaves) into out; *n_out 0 when the search is done. */
GB_API enum gb_status gb_tune_next(struct gb_tune *t, size_t k, size_t *out, size_t *n_out);

/* Records a measurement (copied; samples copied too). GB_ERR_USAGE when
 * idx is outside the space or already measured. */
GB_API enum gb_status gb_tune_observe(struct gb_tune *t, const struct gb_tune_obs *o);

/* Re-derives the state of a search cut short from its recorded points
 * (obs, n, in the order measured), asked for k at a time as it was: the
 * proposals are made again batch by batch and each recorded point must be
 * the next one proposed. The rest of the batch the last recorded point
 * belongs to (those proposed but not yet measured) goes into pending
 * (room for k), *n_pending of them. GB_ERR_FORMAT, naming the point, when
 * a recorded point is not what this strategy and seed propose there (the
 * run was made with other options). */
GB_API enum gb_status gb_tune_replay(struct gb_tune *t, size_t k, const struct gb_tune_obs *obs, size_t n,
                                     size_t *pending, size_t *n_pending);

/* What the tuner knows. */
GB_API const struct gb_tune_space *gb_tune_space(const struct gb_tune *t);
GB_API size_t gb_tune_n_obs(const struct gb_tune *t);
GB_API const struct gb_tune_obs *gb_tune_obs_at(const struct gb_tune *t, size_t i);
GB_API int gb_tune_measured(const struct gb_tune *t, size_t idx);
GB_API size_t gb_tune_budget(const struct gb_tune *t);
GB_API unsigned gb_tune_seed(const struct gb_tune *t);
/* A uniform double in [0, 1) from the seed, the observations so far and
 * `salt` and `draw`: the same arguments give the same number. */
GB_API double gb_tune_rand(const struct gb_tune *t, unsigned salt, size_t draw);
/* The surrogate the model strategy fits (the breakdown when opts gave its
 * inputs, else the fallback), or NULL for other strategies. */
GB_API struct gb_tune_surrogate *gb_tune_surrogates(struct gb_tune *t, size_t *n);
/* Which surrogate the last fit used and why the one before it was not
 * ("" when none has been fitted). */
GB_API const char *gb_tune_surrogate_used(const struct gb_tune *t);
GB_API const char *gb_tune_surrogate_note(const struct gb_tune *t);
/* Sets what gb_tune_surrogate_used and _note say (for the strategies). */
GB_API void gb_tune_surrogate_say(struct gb_tune *t, const char *used, const char *note);

/* Drives the search to its budget with `measure` (the simulated
 * measurement seam: the CLI measures through the run loop instead):
 * measure fills *o for configuration idx and returns GB_OK, or an error
 * that stops the search. k: configurations asked for at a time. */
typedef enum gb_status (*gb_tune_measure_fn)(void *ctx, size_t idx, struct gb_tune_obs *o);
GB_API enum gb_status gb_tune_drive(struct gb_tune *t, size_t k, gb_tune_measure_fn measure, void *ctx);

/* ---- the answer ---- */

struct gb_tune_answer {
    int have_best, have_runner;
    size_t best, runner;         /* configurations */
    double best_ns, best_lo, best_hi, runner_ns, runner_lo, runner_hi;
    /* runner / best: the compare method's ratio and its 1 - alpha interval
     * (gb_cmp_samples on the samples; the medians and the hull of the
     * stored intervals without samples), and whether they differ: the
     * interval excludes 1 and the ratio is beyond the threshold. */
    double ratio, ratio_lo, ratio_hi;
    int differ;
    int by_samples;              /* 1: from samples (rank method), 0: summaries */
    /* model: the best unmeasured configuration by predicted time (have_pred). */
    int have_pred;
    size_t pred;
    double pred_ns, pred_lo, pred_hi;
    char surrogate[64];
    char note[256];
};

/* The answer from what t measured: alpha and threshold as compare's
 * (0.01, 0.02). GB_ERR_USAGE when nothing measured is ok. */
GB_API enum gb_status gb_tune_answer(struct gb_tune *t, double alpha, double threshold, struct gb_tune_answer *a);

#endif
