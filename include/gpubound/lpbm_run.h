/* lpbm_run.h - the breakdown's driver: the Linear Performance-Breakdown
 * Model (lpbm.h) fitted to every bench of a recorded kernel-spec run in
 * one call, and its model file written, so that `gpubound breakdown`
 * parses, calls and prints.
 *
 * gb_lpbm_fit_run finds and reads the run's spec (lpbm_input.h), builds
 * each measured bench's input, and fits one model per bench and form: by
 * default the resources form when every configuration has the counters it
 * needs, else the formula form and the counters form where every
 * configuration has its counters; or the one form asked for. Reads files (the spec, the kernel source);
 * never prints; not thread-safe (libclang, GSL's error handler).
 */
#ifndef GPUBOUND_LPBM_RUN_H
#define GPUBOUND_LPBM_RUN_H

#include "gpubound/api.h"

#include <stddef.h>

#include "gpubound/lpbm.h"
#include "gpubound/lpbm_input.h"
#include "gpubound/results.h"
#include "gpubound/roofline.h"

struct gb_stage;

struct gb_lpbm_fit_opts {
    const char *spec;               /* the spec's path, or NULL: the run's own (gb_lpbm_spec_locate) */
    const char *bench;              /* the one bench to fit, or NULL: every bench the run measured */
    int form;                       /* -1: resources where every point has its counters, else
                                     * formula, and counters where every point has them;
                                     * else the one enum gb_lpbm_form */
    const struct gb_ceilings *ceilings; /* the resources form's roofs, or NULL: the guide's
                                     * figures for the run's device (gb_ceilings_guide) */
    enum gb_lpbm_weight weight;
    int intercept;                  /* fit the FIX term too */
    int average;                    /* average the resources form's fits (--average) */
    struct gb_lpbm_holdout holdout;
    /* Called, when set, after each bench's input is built and after each
     * model is fitted (in the order the models are kept), so that a caller
     * can show them as they come. */
    void (*on_input)(void *ctx, const struct gb_lpbm_input *in);
    void (*on_model)(void *ctx, const struct gb_lpbm_bench_model *m);
    void *ctx;
    /* The counts of each record (gb_lpbm_counter_fn) and its context; NULL:
     * the records' own counters (gb_lpbm_counters_get), whose points read no
     * loads in flight (GB_LPBM_LOADS_IN_FLIGHT: each load a round trip). */
    gb_lpbm_counter_fn counters;
    void *counters_ctx;
};

/* What a fit leaves; caller-owned, zeroed before the call, released with
 * gb_lpbm_fit_result_release. */
struct gb_lpbm_fit_result {
    struct gb_lpbm_spec *spec;          /* NULL when the spec was not found or could not be read */
    struct gb_lpbm_input *in;           /* one per bench fitted */
    struct gb_lpbm_bench_model *models; /* one per bench and form, in the order fitted */
    size_t n_in, n_models, cap_in, cap_models;
    size_t n_benches;                   /* the spec's benches */
    size_t n_unmeasured;                /* of them, with no record in the run (not fitted; 0 with opts->bench) */
    char unmeasured[1024];              /* their names, ", "-joined (cut when long) */
    char spec_path[4096];               /* the spec read */
    int spec_unchecked;                 /* 1: the run keeps no digest of its spec (recorded before they were kept) */
    struct gb_ceilings roofs;           /* the resources form's roofs (roofs.measured 0: the guide's) */
};

/* Fits the breakdown to `run` as `opts` says, into `out`. Errors: those of
 * gb_lpbm_spec_locate and gb_lpbm_spec_load (out->spec stays NULL: name
 * the spec); that of gb_lpbm_spec_check when the spec read is not the one
 * the run measured; GB_ERR_USAGE when the run has no record of the spec's suite or
 * the spec has no bench opts->bench; those of gb_lpbm_input_build and of
 * the fits, naming SUITE/BENCH. What was fitted before an error stays in
 * `out`. */
GB_API enum gb_status gb_lpbm_fit_run(const struct gb_run *run, const struct gb_lpbm_fit_opts *opts,
                               struct gb_lpbm_fit_result *out);

/* Writes the models of `r`, fitted to `run`, as GB_LPBM_MODEL_FILE into the
 * open `stage`, unless the model file already in the stage's destination
 * was fitted on more configurations and `force` is 0 (the replace guard,
 * util/replace.h: GB_ERR_UNSUPPORTED). GB_ERR_IO. */
GB_API enum gb_status gb_lpbm_fit_write(const struct gb_lpbm_fit_result *r, const struct gb_run *run,
                                 const struct gb_stage *stage, int force);

/* Predicts, with each model of `r` as fitted, the same benches recorded in
 * `on` (a run of the same spec on another GPU, or the same one), that run's
 * points built as the fit's were (its counters, its launch) and put under
 * `roofs` (that GPU's; NULL: the guide's figures for its device), and
 * compares with its measured times: fills each model's `on`. The coefficients
 * are kept: the efficiencies of one GPU carried to another. GB_ERR_USAGE when
 * `on` has no record of a fitted bench; errors of gb_lpbm_input_build.
 * `counters` (with `ctx`) reads `on`'s counts as the fit's were read
 * (NULL: gb_lpbm_counters_get). */
GB_API enum gb_status gb_lpbm_predict_on(struct gb_lpbm_fit_result *r, const struct gb_run *on,
                                         const struct gb_ceilings *roofs, gb_lpbm_counter_fn counters,
                                         void *ctx);

/* The model's time at one configuration, measured or not. */
struct gb_lpbm_prediction {
    char config[128], problem[128];    /* as the model's points label them */
    double time_ns, lo_ns, hi_ns;      /* predicted, and its 95% interval */
    double terms[GB_LPBM_TERMS];       /* each term's ns (0 for the terms the form lacks) */
    int measured;                      /* 1: the configuration was measured (measured_ns) */
    double measured_ns;                /* NaN when not measured */
    int counts_modelled;               /* 1: its counters were predicted from the measured ones */
    double count_spread;               /* their largest RMS log residual (0: none modelled) */
    int new_problem;                   /* 1: a problem size no fitted point has */
    double across;                     /* then the fit's own |log| error across its problem
                                        * sizes (95th percentile), by which the interval is
                                        * widened (exp(+-across)); NaN: one size fitted */
    struct gb_lpbm_point point;        /* predictors filled */
};

/* The time model `model` of `r` predicts at the configuration `axes`
 * ("AXIS=V,AXIS=V": every axis the bench's records have), with its 95%
 * interval (GB_LPBM_BOOT residual-bootstrap replicates: the coefficients'
 * spread and one resampled residual) and its terms. An unmeasured
 * configuration takes its launch from the spec and its analysed counts
 * from the source; its active warps from the nearest measured
 * configuration of the same block size (else that configuration's resident
 * threads per SM in blocks of the new size); and, for the counters and
 * resources forms, each counter from a power law in the numeric axes
 * (log(count + 1) least squares over the measured configurations, the
 * axes that vary), the interval widened by exp(+-1.96 s) for the largest
 * RMS log residual s of those fits: less certain, and said so
 * (counts_modelled). At a problem size no fitted point has, the interval
 * is widened again by the fit's own error across its sizes, each predicted
 * from the others (new_problem, across). GB_ERR_USAGE naming a missing or unknown axis, or a
 * value that is not a number; GB_ERR_FORMAT for a launch the spec cannot
 * evaluate there. Not thread-safe (GSL's error handler). */
GB_API enum gb_status gb_lpbm_predict_at(struct gb_lpbm_fit_result *r, size_t model, const char *axes,
                                         struct gb_lpbm_prediction *out);

/* GB_ERR_USAGE, saying why, when `axes` is not "AXIS=V[,AXIS=V...]" with
 * each V a finite number: what gb_lpbm_predict_at checks before it looks
 * at a model, so that a command can refuse before fitting. */
GB_API enum gb_status gb_lpbm_predict_syntax(const char *axes);

GB_API void gb_lpbm_fit_result_release(struct gb_lpbm_fit_result *r);

#endif
