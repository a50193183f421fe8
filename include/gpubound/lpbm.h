/* lpbm.h - the Linear Performance-Breakdown Model (Chapa Martell, "A
 * Framework for Performance Analysis and Optimization for GPU Kernel
 * Programs using Linear Performance-Breakdown Model", 2014, chapter 4):
 * a kernel's time at each launch configuration as a non-negative
 * combination of the thesis's three predictors and two it did not have,
 *     t = a1*PUT + a2*G2ST + a3*S2PT + a4*ATOM + a5*SYNC   (a_j >= 0, no intercept)
 * fitted by non-negative least squares, and the breakdown of each
 * configuration's time into the terms.
 *
 * The predictors (docs/models.md, "LPBM"), with a warp as the thesis's
 * wavefront:
 *   WF_wg   = ceil(block_threads / warp_size)     warps per block
 *   WF_ndr  = grid_blocks * WF_wg                 warps in the launch
 *   WF_max  = active_warps_per_sm * sm_count      warps resident at once
 *             (the occupancy calculator)
 *   CL      = WF_ndr / WF_max                     the concurrency level (waves)
 *   PUT     = ops_per_thread * max(CL, 1)         Eq. 4.3: the operation count
 *             over the concurrency, read as warp-instruction slots per
 *             resident warp
 *   G2ST    = N * WF_wg / WG_size                 Eq. 4.5, N the global bytes
 *           = global_bytes_per_thread * WF_ndr    of the launch
 *   S2PT    = shared_accesses_per_thread * max(CL, 1)
 *             Eq. 4.6 (WG_total / WF_max) weighted by the block's shared
 *             accesses per warp
 *   ATOM    = atomics_per_thread * threads + atomics_per_block * blocks
 *             the launch's atomic operations, which the memory system
 *             serializes where they hit one address (a reduction's
 *             per-block total): not in the thesis, whose kernels had none
 *   SYNC    = barriers_per_thread
 *             the barrier-separated stages on a block's critical path, each
 *             a round of latency that no per-thread volume follows; counted
 *             once per launch, since blocks of later waves overlap their
 *             stages with other blocks' work: not in the thesis
 * Per-thread counts are those of the thread with the most work (a
 * block-strided loop runs ceil(B / blockDim.x) times in it; analyze.h).
 * The counters form puts measured counts in the same places:
 *   PUT  = smsp__inst_executed.sum / min(WF_ndr, WF_max)
 *   G2ST = 32 * (global load + store sectors)
 *   S2PT = shared-memory wavefronts / min(WF_ndr, WF_max)
 *   ATOM and SYNC as in the formula form (the analysis's counts)
 * The resources form (GB_LPBM_RESOURCES; the rows of gb_lpbm_term_info) puts
 * each measured count over the machine's measured roof, so that a term is a
 * time at the roof and its coefficient the inverse of the efficiency reached:
 *   DRAM   = 32 * DRAM sectors / DRAM roof (0 on a hot-cache run whose DRAM
 *            traffic fits in GB_HOT_L2_FITS of L2, gb_hot_in_l2)
 *   L2     = 32 * L2 sectors / L2 roof
 *   SHM    = shared wavefronts / fill / shared roof
 *   INST   = warp instructions / fill / (FP32 roof / 64)
 *   LAT    = global load instructions per warp * waves (round trips; ns each)
 *   DLAT   = LAT * the share of L2 sectors that went on to DRAM (0 on a hot
 *            run that fits in L2): the round trips that miss L2, ns extra each
 *   SLAT   = global load and store sectors per warp * waves (the sectors a
 *            warp's accesses touch, one after another in L1; ns each)
 *   ATOM   = the analysis's atomics / the one-address atomic roof
 *   LAUNCH = max(0, a + B / b - the largest of the terms above at coefficient 1)
 * (a count whose roof is unknown stands for itself: its coefficient is then
 * ns per unit) with B the grid's blocks, S = resident blocks per SM * SMs, waves =
 * ceil(B / S) and fill = B / (S * waves) (the small grid and the last wave).
 *
 * and, only when asked for (breakdown --intercept), a fixed time per launch:
 *   FIX  = 1   (a launch's latency floor: launch, the last wave's tail,
 *              dependent stages; a constant the thesis's model leaves out)
 *
 * Everything here is a pure computation except gb_lpbm_model_write and
 * gb_lpbm_model_load; nothing touches a GPU. A fit switches GSL's error
 * handler off while it runs (nnls.h), so fits are not thread-safe.
 */
#ifndef GPUBOUND_LPBM_H
#define GPUBOUND_LPBM_H

#include "gpubound/api.h"

#include <stddef.h>

#include "gpubound/status.h"

#define GB_LPBM_TERMS 16
#define GB_LPBM_MODEL_FORMAT "gpubound-lpbm/1"
#define GB_LPBM_MODEL_FILE "lpbm-model.json"
/* Residual-bootstrap replicates behind each coefficient's interval, and the
 * seed that makes a fit reproducible. */
#define GB_LPBM_BOOT 2000
#define GB_LPBM_SEED 20140301u
/* Configurations a fit needs at least: more than the coefficients. */
#define GB_LPBM_MIN_POINTS 4

enum gb_lpbm_term {
    GB_LPBM_PUT = 0, GB_LPBM_G2ST = 1, GB_LPBM_S2PT = 2, GB_LPBM_ATOM = 3, GB_LPBM_SYNC = 4,
    GB_LPBM_FIX = 5,
    /* the resources form's terms (docs/models.md, "The resources form") */
    GB_LPBM_DRAM = 6, GB_LPBM_L2 = 7, GB_LPBM_SHM = 8, GB_LPBM_INST = 9, GB_LPBM_LAT = 10,
    GB_LPBM_LAUNCH = 11, GB_LPBM_PIPE = 12, GB_LPBM_ILAT = 13, GB_LPBM_DLAT = 14,
    GB_LPBM_SLAT = 15
};
/* The resources form's pipes (counters smsp__inst_executed_pipe_*). */
enum gb_lpbm_pipe { GB_LPBM_P_FMA = 0, GB_LPBM_P_ALU, GB_LPBM_P_FP64, GB_LPBM_P_XU, GB_LPBM_P_LSU,
                    GB_LPBM_PIPES };
/* The overlap exponents the resources form chooses from (docs/models.md). */
#define GB_LPBM_OVERLAPS {1.0, 1.5, 2.0, 3.0, 4.0, 6.0}
enum gb_lpbm_form { GB_LPBM_FORMULA = 0, GB_LPBM_COUNTERS = 1, GB_LPBM_RESOURCES = 2 };

/* One term of the model: a row of the table every printer, chart and file
 * reads (gb_lpbm_term_info). */
struct gb_lpbm_term_row {
    const char *name;      /* "DRAM" */
    const char *label;     /* the chart's legend: "DRAM: bytes over the DRAM roof" */
    const char *unit;      /* the predictor's unit: "ns at the roof", "round trips" */
    const char *x;         /* how x is computed from a point, in words */
    const char *roof;      /* the roof that divides it ("" none) */
    const char *meaning;   /* what it means when it dominates, and what helps */
    unsigned forms;        /* bit f set: form f fits the term */
};

/* The row of term t (NULL out of range). */
GB_API const struct gb_lpbm_term_row *gb_lpbm_term_info(enum gb_lpbm_term t);
/* 1 when form `form` fits term t (FIX only with --intercept: gb_lpbm_model_has). */
GB_API int gb_lpbm_form_has(enum gb_lpbm_form form, enum gb_lpbm_term t);
/* The terms of `form` whose x is work over a measured roof (bit t set):
 * DRAM, L2, SHM, INST and PIPE in the resources form, none in the others.
 * One with no work at any fitted point is predicted at its roof. */
GB_API unsigned gb_lpbm_roof_terms(enum gb_lpbm_form form);

/* The most a DRAM round trip's extra latency (DLAT's coefficient) may be
 * in L2 round trips (LAT's): a fit beyond it is refitted without DLAT. The
 * dependent-load chase measures 1.9 to 2.0 (docs/models.md). */
#define GB_LPBM_DLAT_MAX 4.0
/* A roof term's largest plausible coefficient: a resource run at under
 * 1 / GB_LPBM_ROOF_MAX of its measured roof at every point stands in for
 * another resource's time, and is left out of the fit (then a floor at
 * its roof, gb_lpbm_fit.at_roof). docs/models.md says how it was chosen. */
#define GB_LPBM_ROOF_MAX 64.0
/* The launch term's largest plausible coefficient, in launch lines (the
 * ceilings run's empty-kernel launch time for the grid): a fit beyond it is
 * done again without the term, whose floor stays. Where the points set it,
 * it lies between 0.5 and 2.8, and 6.5 for a look-back scan whose blocks
 * wait on their predecessors (docs/models.md, "The launch term bounded"). */
#define GB_LPBM_LAUNCH_MAX 8.0
/* A dominant roof term whose coefficient exceeds this (under a quarter of
 * its roof) is named with a caution: the resource's rate is not what is
 * spent (gb_lpbm_dominant). */
#define GB_LPBM_FAR_FROM_ROOF 4.0
enum gb_lpbm_weight { GB_LPBM_RELATIVE = 0, GB_LPBM_PLAIN = 1 };

/* "PUT", "G2ST", "S2PT", "ATOM", "SYNC", "FIX". */
GB_API const char *gb_lpbm_term_name(enum gb_lpbm_term t);
/* "formula", "counters", "resources". */
GB_API const char *gb_lpbm_form_name(enum gb_lpbm_form f);

/* One configuration: what was measured and what the predictors are made of. */
struct gb_lpbm_point {
    char config[128];          /* the configuration's axes, "block_size_x=16" */
    char problem[128];         /* the problem-size axes, "n=1024" ("" when none) */
    size_t record;             /* its record's index in the run (0 for a point not measured) */
    double time_ns, ci_lo_ns, ci_hi_ns;
    double block_threads, grid_blocks;
    double active_warps_per_sm;
    int sm_count, warp_size;
    /* Formula form: per-thread counts (from the source analysis or the spec). */
    double ops, global_bytes, shared_accesses;
    /* Both forms: atomic operations in the launch and barriers per thread
     * (from the source analysis; 0 when the kernel has none or they could
     * not be counted). */
    double atomics, barriers;
    /* The same atomics as warp instructions, the unit of the profiler's
     * count: a thread's atomics over the warp size, one per one-thread
     * branch's (NaN: not analysed). The resources form's ATOM takes it
     * where no atomic counter was recorded. */
    double atomics_warp;
    /* 1 to fit a fixed time per launch (the FIX term, breakdown --intercept), else 0. */
    int intercept;
    /* 1 to average the resources form's fits the points cannot tell apart
     * (breakdown --average, docs/models.md "Averaging the fits"), else 0:
     * the one fit that fits best. Read from the first point of a fit. */
    int average;
    /* Counters form: totals per launch (NaN when not measured). */
    double c_inst, c_global_sectors, c_shared_wavefronts;
    /* Resources form: totals per launch (NaN when not measured): DRAM
     * sectors read and written, L2 sectors, global load warp-instructions;
     * the L2 sectors of stores (NaN when not recorded). */
    double c_dram_sectors, c_l2_sectors, c_global_ld_inst, c_l2_write_sectors;
    /* The busiest L2 slice's sectors over the mean slice's (lts__t_sectors
     * .max / .avg; NaN when not recorded). */
    double c_l2_slice_imbalance;
    /* The bench's L2 traffic camps (gb_lpbm_camped_ratio of its points at
     * GB_LPBM_CAMPED_MIN or more): the L2 term is the busiest slice's time,
     * the even share times c_l2_slice_imbalance. One decision for every
     * point of a fit and every point it predicts. */
    int l2_camped;
    /* Resources form: warp instructions per pipe (NaN when not recorded). */
    double c_pipe[GB_LPBM_PIPES];
    /* Resources form: global atomic and reduction warp instructions, shared
     * atomic wavefronts (NaN when not recorded: older runs). */
    double c_global_atom, c_shared_atom_wavefronts;
    /* Resources form: the global loads one thread keeps in flight together,
     * the largest group its kernel's PTX lets overlap (gpubound/ptx.h,
     * GB_LPBM_LOADS_IN_FLIGHT): a round trip of LAT and DLAT carries that
     * many load instructions. NaN when not read: each load is a round trip. */
    double c_loads_in_flight;
    int hot;                   /* 1: timed with warm caches */
    double l2_bytes;           /* the device's L2 (0: unknown) */
    double footprint_bytes;    /* the bytes of the kernel's buffers (the spec's counts x
                                * element sizes): what a hot run can keep in L2; NaN or 0 unknown */
    /* Resources form: the roofs, per ns (gb_lpbm_roofs_set): bytes at DRAM
     * and L2, shared wavefronts, warp instructions (the FP32 roof / 64),
     * atomics (the one-address roof); the launch line t = launch_a_ns +
     * blocks / launch_b. NaN or 0: no roof, the term is 0. */
    double roof_dram, roof_l2, roof_shared, roof_inst, roof_atom, launch_a_ns, launch_b;
    double roof_l2_write;      /* bytes per ns of stores into the L2 (NaN: none) */
    double roof_fp64, roof_mufu;   /* warp instructions per ns on the FP64 and XU pipes */
    /* Filled by gb_lpbm_predictors. */
    double wf_ndr, wf_max, cl;
    double waves, fill;        /* ceil(B / S) and B / (S * waves), S blocks resident at once */
    double fill_sm;            /* B / (SMs * ceil(B / SMs)): the busiest SM's share of the blocks */
    enum gb_lpbm_form form;    /* the form the predictors were made for */
    double x[GB_LPBM_TERMS];
};

/* Sets the resources form's roofs of `p` from roofs `c` (struct
 * gb_ceilings, roofline.h: measured or the guide's). */
struct gb_ceilings;
GB_API void gb_lpbm_roofs_set(struct gb_lpbm_point *p, const struct gb_ceilings *c);

/* The unit of the count a resources-form roof term stands for when the
 * point has no roof for it ("byte", "atomic", ...: its coefficient is then
 * ns per that unit, not a multiple of a time at the roof); NULL where the
 * roof is known or the term is not a roof term. */
GB_API const char *gb_lpbm_term_bare_unit(const struct gb_lpbm_point *p, enum gb_lpbm_term t);

/* Fills p->wf_ndr, wf_max, cl, waves, fill and x[] for `form`. GB_ERR_FORMAT, naming
 * the configuration and the missing value, when an input is missing
 * (NaN), or a count is negative, or nothing can be resident (WF_max 0). */
GB_API enum gb_status gb_lpbm_predictors(struct gb_lpbm_point *p, enum gb_lpbm_form form);

/* The resources form's predictions average the fits the points cannot
 * tell apart (docs/models.md, "Averaging the fits"): the fit at every
 * overlap exponent, and each with one of its fitted terms left out, each
 * weighted exp(-BIC / 2) (Bayesian model averaging). At most
 * GB_LPBM_ALTS of them. */
#define GB_LPBM_ALTS 112
struct gb_lpbm_alt {
    double coef[GB_LPBM_TERMS];        /* as gb_lpbm_fit's */
    unsigned at_roof;                  /* as gb_lpbm_fit's */
    double overlap;                    /* its p */
    int left_out;                      /* the fitted term left out of it, or -1: none */
    double weight;                     /* exp(-BIC / 2) over every alternative's: they sum to 1 */
};

/* A fitted model. */
struct gb_lpbm_fit {
    size_t n;                          /* configurations fitted */
    double coef[GB_LPBM_TERMS];        /* a_j >= 0, ns per predictor unit */
    double ci_lo[GB_LPBM_TERMS], ci_hi[GB_LPBM_TERMS]; /* 95% residual-bootstrap percentiles */
    int present[GB_LPBM_TERMS];        /* 0 when the predictor is 0 at every configuration */
    unsigned at_roof;                  /* bit j: term j is absent and a roof term
                                        * (gb_lpbm_roof_terms): its coefficient is 1 and a
                                        * point with such work takes at least that work at
                                        * the measured roof (a floor under the fitted time) */
    double floor[GB_LPBM_TERMS];       /* a roof term's floor: no fitted point ran it faster
                                        * than floor[j] x its roof time (at most 1, the roof;
                                        * 0: none), so a point takes at least floor[j] x_j */
    unsigned dropped;                  /* bit j: term j had work but was left out of the fit
                                        * as implausible (GB_LPBM_DLAT_MAX, GB_LPBM_LAUNCH_MAX,
                                        * GB_LPBM_ROOF_MAX) */
    double r2;                         /* 1 - SSE/SST on the times as measured (ns); NaN
                                        * (undefined) when every time is the same */
    double rmse_ns;                    /* sqrt(SSE / n) */
    double median_abs_rel;             /* in-sample median |predicted - measured| / measured */
    int boot;                          /* bootstrap replicates behind the intervals (0: none) */
    double overlap;                    /* p: t = (sum (a_j x_j)^p)^(1/p); 1 (or 0): the sum */
    int n_alt;                         /* the fits a prediction averages (0: this one alone) */
    struct gb_lpbm_alt alt[GB_LPBM_ALTS];
};

/* (sum t_j^p)^(1/p) over the n non-negative times t (the sum when p <= 1). */
GB_API double gb_lpbm_overlap(double p, const double *t, int n);

/* Fits the model to the n points (predictors filled) with weights
 * `weight` (GB_LPBM_RELATIVE: 1/t^2, minimizing relative error; PLAIN: 1)
 * and `boot` residual-bootstrap replicates seeded with `seed` (0: no
 * intervals, they are NaN). GB_ERR_USAGE when n < GB_LPBM_MIN_POINTS or a
 * time is not positive; GB_ERR_NUMERIC when NNLS fails. */
GB_API enum gb_status gb_lpbm_fit(const struct gb_lpbm_point *pts, size_t n, enum gb_lpbm_weight weight,
                           int boot, unsigned seed, struct gb_lpbm_fit *out);

/* The predicted time of `p` (predictors filled) and, in terms[] (may be
 * NULL), each term's share of it: with f->n_alt > 1 the weighted geometric
 * mean of the alternatives' times and the weighted mean of their shares,
 * else f's own terms a_j x_j (overlapped: gb_lpbm_predict_single). */
GB_API double gb_lpbm_predict(const struct gb_lpbm_fit *f, const struct gb_lpbm_point *p,
                       double terms[GB_LPBM_TERMS]);

/* The indices of f's alternatives, largest weight first, into order[]
 * (GB_LPBM_ALTS long); their number (f->n_alt). */
GB_API int gb_lpbm_average_order(const struct gb_lpbm_fit *f, int order[GB_LPBM_ALTS]);

/* The term f's own fit (the heaviest of those averaged) leaves out, or -1. */
GB_API int gb_lpbm_left_out(const struct gb_lpbm_fit *f);

/* f's own prediction, its alternatives left aside. */
GB_API double gb_lpbm_predict_single(const struct gb_lpbm_fit *f, const struct gb_lpbm_point *p,
                                     double terms[GB_LPBM_TERMS]);

/* The held-out check. */
enum gb_lpbm_holdout_kind { GB_LPBM_LOO = 0, GB_LPBM_EVERY, GB_LPBM_SIZE };
struct gb_lpbm_holdout {
    enum gb_lpbm_holdout_kind kind;
    int every;                 /* GB_LPBM_EVERY: hold out points k-1, 2k-1, ... */
    char axis[32], value[48];  /* GB_LPBM_SIZE: hold out points whose problem has axis=value */
};

/* Parses "loo", "every:K" (K >= 2) or "size:AXIS=V". GB_ERR_USAGE. */
GB_API enum gb_status gb_lpbm_holdout_parse(const char *s, struct gb_lpbm_holdout *h);

struct gb_lpbm_holdout_result {
    size_t n_train, n_test;
    double median_abs_rel, max_abs_rel; /* |predicted - measured| / measured over the test points */
    size_t worst;                       /* index (in pts) of the worst test point */
    size_t n_interval, n_inside;        /* a split other than leave-one-out: test points given
                                         * the training fit's 95% interval, and how many of
                                         * their measured times lie inside it */
    size_t n_no_across;                 /* of those, at a problem the training points lack
                                         * while they hold one problem only: their interval
                                         * has no error across problems in it (none can be
                                         * measured from one) */
    double *rel;                        /* n values: the held-out relative error of each
                                         * test point, NaN for training points (malloc'ed) */
};

/* Fits on the training points of `h` and predicts the others:
 * leave-one-out refits once per point (no bootstrap); any other split also
 * gives each test point its 95% bootstrap interval from the training
 * points (out->n_interval, n_inside). GB_ERR_USAGE when a split
 * leaves fewer than GB_LPBM_MIN_POINTS to train on, or no point to test;
 * errors of gb_lpbm_fit. Free out->rel. */
GB_API enum gb_status gb_lpbm_holdout_run(const struct gb_lpbm_point *pts, size_t n,
                                   enum gb_lpbm_weight weight, const struct gb_lpbm_holdout *h,
                                   struct gb_lpbm_holdout_result *out);

/* Which term dominates the predicted time of point `p`, and one sentence
 * saying what that means for the kernel, into buf; when R^2 is undefined
 * (identical times) no term is named and buf says why (returns PUT). */
GB_API enum gb_lpbm_term gb_lpbm_dominant(const struct gb_lpbm_fit *f, const struct gb_lpbm_point *p,
                                   char *buf, size_t n);

/* ---- the honesty rule ---- */

/* A fit explains its data only when R^2 >= GB_LPBM_R2_MIN and the held-out
 * median |error| <= GB_LPBM_HELD_MAX (docs/models.md, "When the model does
 * not explain a kernel"). */
#define GB_LPBM_R2_MIN 0.90
#define GB_LPBM_HELD_MAX 0.20

enum gb_lpbm_why {
    GB_LPBM_WHY_NONE = 0,     /* the fit explains its data */
    GB_LPBM_WHY_NO_TERM,      /* every term is absent or fitted at zero */
    GB_LPBM_WHY_NOISE,        /* the misses are within the measured intervals' spread */
    GB_LPBM_WHY_REGIME,       /* the largest misses share one problem size and one sign */
    GB_LPBM_WHY_RESOURCE,     /* a cost the terms do not follow (a resource without a term) */
    GB_LPBM_WHY_CAMPED        /* the L2 traffic camped on a few slices (GB_LPBM_CAMPED_MIN) */
};

/* A bench whose busiest L2 slice carries at least this many times the mean
 * slice's sectors, the median over its points, camps: its L2 term is the
 * busiest slice's time, and a fit that does not explain its points names
 * L2 camping as the likely reason. Balanced kernels measure 1.0 to 1.1. */
#define GB_LPBM_CAMPED_MIN 1.5

/* The median busiest-L2-slice ratio over the points that have one (NaN:
 * none, or out of memory). */
GB_API double gb_lpbm_camped_ratio(const struct gb_lpbm_point *pts, size_t n);

struct gb_lpbm_verdict {
    int explains;             /* 1: a term may be named and advice given */
    enum gb_lpbm_why why;
    size_t worst[3], n_worst; /* the configurations missed most (indexes into pts) */
    double camped;            /* GB_LPBM_WHY_CAMPED: the median busiest-slice ratio */
    char text[1024];          /* one paragraph saying so (empty when it explains) */
};

/* Judges fit `f` of the n points `pts` with its held-out result `h` (NULL:
 * in-sample errors only) by the honesty rule: not explained when every term
 * is absent or zero, R^2 < GB_LPBM_R2_MIN, the held-out median error >
 * GB_LPBM_HELD_MAX, or no fitted coefficient's interval excludes zero. When
 * R^2 is undefined (identical times) the fit is left to gb_lpbm_dominant
 * (explains = 1, no term named there). The reason is judged from the
 * measured intervals and the pattern of the misses. Pure. */
GB_API void gb_lpbm_judge(const struct gb_lpbm_fit *f, const struct gb_lpbm_holdout_result *h,
                          const struct gb_lpbm_point *pts, size_t n, struct gb_lpbm_verdict *v);

/* ---- the model file ---- */

/* One bench's model, as written to lpbm-model.json. */
struct gb_lpbm_bench_model {
    char suite[32], bench[64];
    enum gb_lpbm_form form;
    enum gb_lpbm_weight weight;
    int intercept;                        /* the FIX term fitted (--intercept) */
    int average;                          /* predictions averaged (--average) */
    struct gb_lpbm_fit fit;
    struct gb_lpbm_holdout holdout;
    struct gb_lpbm_holdout_result held;   /* rel not kept in the file */
    struct gb_lpbm_point *pts;            /* fit.n points (owned) */
    char dominant[1024];                  /* the dominant term, or the verdict of the honesty rule */
    struct gb_lpbm_verdict verdict;       /* the honesty rule (gb_lpbm_judge) */
    char sources[256];                    /* where the per-thread counts came from */
    char note[512];                       /* the spec's note on what the terms miss, or "" */
    /* The fit predicting another GPU's run of the same spec (gb_lpbm_predict_on,
     * breakdown --on): n 0 when not asked for. */
    struct gb_lpbm_on {
        size_t n;                         /* configurations predicted */
        double median_abs_rel, max_abs_rel;
        size_t worst;                     /* index into rel */
        char worst_config[256];
        char run[256], device[128];       /* the other run, and its GPU */
    } on;
};

/* The held-out prediction of point i (ns): by the fit without it, under
 * m's split (time x (1 + held-out relative error)); NaN where none. */
GB_API double gb_lpbm_heldout_ns(const struct gb_lpbm_bench_model *m, size_t i);

/* 1 when model m has term t: its form's, and FIX when fitted with it. */
GB_API int gb_lpbm_model_has(const struct gb_lpbm_bench_model *m, enum gb_lpbm_term t);

/* Writes the models (n of them) as one JSON file at `path`, atomically,
 * with the run they came from. GB_ERR_IO. */
GB_API enum gb_status gb_lpbm_model_write(const char *path, const char *run_dir,
                                   const struct gb_lpbm_bench_model *m, size_t n);

/* The configurations each model of the file at `path` was fitted on, summed
 * (the guard against replacing a model by one of fewer points), in *points.
 * `path` is read only when it is a regular file: a symbolic link at that name
 * is not followed and a FIFO not waited on (util/open_regular.h).
 * GB_ERR_IO (nothing, a link or not a regular file there), GB_ERR_FORMAT. */
GB_API enum gb_status gb_lpbm_model_points(const char *path, size_t *points);

#endif
