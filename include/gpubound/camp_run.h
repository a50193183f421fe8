/* camp_run.h - CampProf's drivers: `camp fit`, `camp predict` and `camp
 * validate` each in one call (like gb_lpbm_fit_run in lpbm_run.h), so that
 * the command line parses, calls and prints.
 *
 * gb_camp_fit_run fits the model to a camping run and writes its file;
 * gb_camp_predict_run gives a kernel's band at every configuration it can
 * run at, with each configuration's achieved warps, and judges a measured
 * time against the domain of validity; gb_camp_validate_run validates the
 * model on every application of the runs given. They read and write files
 * as said; never print; not thread-safe (GSL's error handler).
 */
#ifndef GPUBOUND_CAMP_RUN_H
#define GPUBOUND_CAMP_RUN_H

#include "gpubound/api.h"

#include <stddef.h>

#include "gpubound/campprof.h"
#include "gpubound/roofline.h"

/* ---- fit ---- */

struct gb_camp_fit_opts {
    double p_remove;            /* paper, interactions: drop terms with p above it */
    enum gb_camp_form form;
    const char *out_dir;        /* the model goes to out_dir/campprof-model.json (made when missing) */
    const char *model_path;     /* or to this file, when set (its directory must exist) */
    int force;                  /* replace a model fitted on more observations */
};

/* Fits the model of `o->form` to `run` into `m` and writes it, staged and
 * moved into place only when whole (util/stage.h). Errors: those of
 * gb_camp_fit_form (GB_ERR_FORMAT: no camping records); GB_ERR_USAGE when
 * neither out_dir nor model_path is set; GB_ERR_UNSUPPORTED when the model
 * in place was fitted on more observations and o->force is 0; GB_ERR_IO.
 * `written` (may be NULL) receives the path written. */
GB_API enum gb_status gb_camp_fit_run(const struct gb_run *run, const struct gb_camp_fit_opts *o,
                                      struct gb_camp_model *m, char *written, size_t n);

/* ---- predict ---- */

/* A kernel to predict: its counts and launch, and a measured time. */
struct gb_camp_predict_in {
    struct gb_camp_counts counts;
    long threads, regs, smem, dyn_smem; /* the launch (-1: not given) */
    long grid;                          /* blocks in the grid (<= 0: enough to fill every SM) */
    long warps_max;                     /* > 0: the configurations 1..warps_max instead of the launch */
    long at;                            /* > 0: the warps the time was measured at (else the launch's) */
    double time_ns;                     /* NaN: none measured */
    /* The launch's bytes at each memory level (the profiler's counters;
     * NaN: not known) and whether it was timed hot (back to back), for the
     * best bound from the roofs; its measured achieved warps per SM
     * (sm__warps_active; NaN: not measured), used for the launch's own
     * configuration. */
    double dram_read_bytes, dram_write_bytes, l2_read_bytes, l2_write_bytes;
    int hot;
    double measured_warps;
    /* The kernel's bytes in flight per thread (gb_camp_point_inflight, or
     * given; 0 or NaN: not known): with the model's inflight_product, the
     * application line takes the kernel's own knee (gb_camp_line_factor). */
    double inflight_bytes;
};

struct gb_camp_predict_result {
    int *warps;                  /* the configurations: active warps per SM (occupancy limit) */
    double *achieved;            /* per configuration, its achieved warps per SM (the grid and the
                                  * tail of the last wave; equal to warps[i] without a grid; the
                                  * measured value at the launch's own configuration where given):
                                  * the warps the band is evaluated at */
    struct gb_camp_row *rows;    /* the band at each (rows[i].warps = warps[i]) */
    size_t n;
    int config_warps;            /* the launch's own active warps per SM (0: its block cannot run) */
    double at_warps, degree;     /* the measured configuration (occupancy limit) and its camping
                                  * degree (NaN: none, or outside the domain) */
    double achieved_warps;       /* the measured configuration's achieved warps (NaN: no time) */
    double grid_warps;           /* where the launch's measured warps replace them, the achieved
                                  * warps its grid gives (NaN otherwise) */
    struct gb_camp_domain domain;/* its judgement (GB_CAMP_DOMAIN_UNJUDGED without a time) */
    struct gb_camp_roof_bound roof; /* the best bound from the roofs (best_ns 0: the spread
                                  * equations' best bound) */
};

/* The band of `in` on `dev` with model `m`: the configurations (every
 * block size with the launch's registers, shared memory and total threads,
 * or 1..warps_max), each one's achieved warps, the band evaluated at
 * those achieved warps, and from a measured time the application line and
 * degree (at the measured configuration's achieved warps), judged under
 * the roofs `c` (may be NULL: nothing judged, no roof bound): outside the
 * domain of validity the degree and the application line are NaN and
 * out->domain says why. With the launch's level bytes and `c`, the best
 * bound is the roofs' (gb_camp_roof_best) at every configuration.
 * Errors (out->... set as far as computed): GB_ERR_USAGE when the
 * launch's block cannot run (config_warps 0) or the measured
 * configuration is not among the configurations; those of
 * gb_camp_configurations and gb_camp_predict; GB_ERR_NOMEM. */
GB_API enum gb_status gb_camp_predict_run(const struct gb_camp_model *m, const struct gb_device_info *dev,
                                          const struct gb_camp_predict_in *in, const struct gb_ceilings *c,
                                          struct gb_camp_predict_result *out);

GB_API void gb_camp_predict_result_release(struct gb_camp_predict_result *r);

/* ---- validate ---- */

struct gb_camp_validate_result {
    struct gb_camp_app *apps;            /* every application of every run, in order */
    size_t n_apps;
    struct gb_camp_validation *v;        /* one per application */
    struct gb_camp_domain **domain;      /* per application, one judgement per configuration */
    /* Kernel-spec configurations whose bytes in flight could not be read
     * (gb_camp_apps_inflight), so that their line keeps the camping suite's
     * knee, and why for the first; 0 when the model has no product to use. */
    size_t inflight_missing;
    char inflight_why[640];
};

/* A step on each run's applications before they are validated: fills
 * what the model reads but cannot compute itself (the kernel-spec points'
 * bytes in flight, gb_camp_apps_inflight); counts in *missing the
 * configurations it could not fill, and says why for the first in `why`. */
typedef void (*gb_camp_apps_hook)(const struct gb_run *run, struct gb_camp_app *apps, size_t n_apps,
                                  size_t *missing, char *why, size_t n);

/* Validates `m` on every application of `runs` (gb_camp_records_apps),
 * each configuration judged under the roofs `c` (may be NULL), the
 * application line with each kernel-spec configuration's own knee where
 * `inflight` (NULL: none) gave its bytes in flight and m->inflight_product
 * is set (gpubound/camp_inflight.h, which the caller runs). Errors:
 * those of gb_camp_records_apps; GB_ERR_FORMAT when no run holds an
 * application, or naming the application the model cannot time;
 * GB_ERR_NOMEM. What was validated before an error stays in `out`. */
GB_API enum gb_status gb_camp_validate_run(const struct gb_camp_model *m, const struct gb_ceilings *c,
                                           const struct gb_run *const *runs, size_t n_runs,
                                           gb_camp_apps_hook inflight, struct gb_camp_validate_result *out);

GB_API void gb_camp_validate_result_release(struct gb_camp_validate_result *r);

#endif
