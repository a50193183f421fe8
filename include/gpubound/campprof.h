/* campprof.h - CampProf: a performance band that bounds the effect of
 * partition camping on a memory-bound kernel (Aji, Daga and Feng, "Bounding
 * the Effect of Partition Camping in GPU Kernels", CF'11).
 *
 * The model. Four linear equations are fitted to the camping suite's
 * micro-benchmarks, one per operation (reads, writes) and access pattern
 * (spread over every partition, camped on one):
 *     t = a1*w + a2*b2 + a3*b4 + a4*b8 + b
 * t is a benchmark's median time per launch in ns, w its active warps per
 * SM, and b2, b4, b8 the 0/1 dummies of the access width in bytes per
 * thread, the widest width measured (16) being the reference level, as the
 * paper's 8-byte word was on its GPU. Dummies exist for the widths the run
 * measured. Each equation goes through backward elimination.
 *
 * Normalisation. A benchmark's launch at w warps per SM executes
 * n(w, width) warp-level global memory instructions (its records carry the
 * count: metrics ld_req_<width>, st_req_<width>), and every warp executes
 * the same number, so n = k(width) * w. The model keeps k per equation and
 * width, and the time of one instruction at w warps per SM is
 *     tau(w, width) = t(w, width) / (k(width) * w).
 * A kernel that executes N_ld(width) loads and N_st(width) stores per
 * launch is then predicted, at w warps per SM, to take
 *     best(w)  = sum N_ld * tau_read,spread  + sum N_st * tau_write,spread
 *     worst(w) = sum N_ld * tau_read,camped  + sum N_st * tau_write,camped
 * (the paper's sum of predicted read and write times). A width the suite
 * did not measure is timed as the narrowest measured width not smaller
 * than it (1-byte accesses as 2-byte ones).
 *
 * The application line. Given one measured time T at w0 warps, the kernel's
 * camping degree is d = (T - best(w0)) / (worst(w0) - best(w0)) (0 at the
 * best bound, 1 at the worst), and the line best(w) + d*(worst(w) - best(w))
 * extrapolates T to every other configuration in constant proportion within
 * the band.
 *
 * Everything here is a pure computation except the model's JSON reader and
 * writer; nothing touches a GPU. Thread-safe on distinct objects (a fit
 * switches GSL's error handler off while it runs, see regress.h).
 */
#ifndef GPUBOUND_CAMPPROF_H
#define GPUBOUND_CAMPPROF_H

#include "gpubound/api.h"

#include <stddef.h>

#include "gpubound/camp_counts.h"
#include "gpubound/device.h"
#include "gpubound/ncu.h"
#include "gpubound/results.h"
#include "gpubound/roofline.h"
#include "gpubound/status.h"

#define GB_CAMP_MAX_TERMS 12

/* The suite whose records the model reads, and the benches it needs. */
#define GB_CAMP_SUITE "camping"

/* The format tag of a model file. */
#define GB_CAMP_MODEL_FORMAT "gpubound-campprof/1"

/* The p-value above which backward elimination drops a term: SAS's default
 * for PROC REG's backward selection (SLSTAY = 0.10), the paper's tool. */
#define GB_CAMP_P_REMOVE 0.10

enum gb_camp_op { GB_CAMP_READ = 0, GB_CAMP_WRITE = 1 };

/* The form of the four equations (docs/models.md, CampProf, "Model forms").
 * PAPER: t = a1*w + a2*b2 + ... + b, the paper's equation 1, with backward
 * elimination; INTERACTIONS: PAPER plus a slope per width (w:b<W>).
 * The latency-throughput forms give each width W a latency term L_W (ns)
 * and a knee w*_W (active warps per SM where the throughput term
 * L_W * w / w*_W reaches the latency term), combined by a smooth maximum
 * of sharpness p (Little's law: the time of a fixed amount of work is
 * set by the larger of its latency and its transfer time):
 *     t = L_W * (1 + (w / w*_W)^p)^(1/p)
 * SUM: p = 1 (latency plus transfer time); SMAX2, SMAX4: p = 2, 4; MAX:
 * p -> infinity, t = max(L_W, L_W * w / w*_W) (piecewise in w). L_W > 0
 * and w*_W > 0, so these forms are positive for every w > 0 by
 * construction. */
enum gb_camp_form {
    GB_CAMP_FORM_PAPER = 0,
    GB_CAMP_FORM_INTERACTIONS,
    GB_CAMP_FORM_SUM,
    GB_CAMP_FORM_SMAX2,
    GB_CAMP_FORM_SMAX4,
    GB_CAMP_FORM_MAX,
    GB_CAMP_N_FORMS
};

/* The form `camp fit` uses unless told otherwise: the one with the lowest
 * held-out error on the committed H200 camping run (docs/models.md). */
#define GB_CAMP_FORM_DEFAULT GB_CAMP_FORM_SMAX4

/* The form's name as `--form` and the model file spell it ("paper",
 * "interactions", "sum", "smax2", "smax4", "max"). */
GB_API const char *gb_camp_form_name(enum gb_camp_form form);

/* The form named `name`; -1 when none is. */
GB_API int gb_camp_form_parse(const char *name);

/* 1 for the latency-throughput forms (SUM, SMAX2, SMAX4, MAX). */
GB_API int gb_camp_form_lt(enum gb_camp_form form);

/* The smooth maximum h_p(x) = (1 + x^p)^(1/p) of the latency-throughput
 * form `form` (max(1, x) for MAX), x >= 0; NaN for a linear form. */
GB_API double gb_camp_form_h(enum gb_camp_form form, double x);

/* The level of the memory system the camped benchmarks camp on: the
 * records' camp_pitch axis, 0 (or absent) for one L2 slice, > 0 for DRAM
 * column order (one DRAM partition). */
enum gb_camp_level { GB_CAMP_LEVEL_UNKNOWN = -1, GB_CAMP_LEVEL_L2 = 0, GB_CAMP_LEVEL_DRAM = 1 };

/* "L2 slice", "DRAM partition", or "not recorded". */
GB_API const char *gb_camp_level_name(enum gb_camp_level level);
enum gb_camp_pattern { GB_CAMP_SPREAD = 0, GB_CAMP_CAMPED = 1 };

struct gb_camp_term {
    char name[16];          /* "(intercept)", "w", "b2", "b4", "b8", and "w:b2" ... with
                             * interactions; "L:b<W>" and "knee:b<W>" in the
                             * latency-throughput forms */
    double estimate, se, t, p;
    int at_edge;            /* a knee the data cannot place: it lies at an edge of the
                             * search (below the fewest warps measured: times in proportion
                             * to the warps, only L/knee determined; above the most: flat
                             * times, only L); 0 for every other term */
};

struct gb_camp_fitstats {
    size_t n_terms;
    struct gb_camp_term terms[GB_CAMP_MAX_TERMS];
    double r2, adj_r2;
    double rmse_ns;         /* residual standard deviation */
    double f, f_p;          /* overall F test */
    double df_resid;
};

struct gb_camp_equation {
    enum gb_camp_op op;
    enum gb_camp_pattern pattern;
    enum gb_camp_form form;           /* the model's form, for gb_camp_eq_time_ns */
    size_t n_obs;
    int n_widths;
    int widths[GB_CAMP_N_WIDTHS];     /* the widths measured, ascending */
    int ref_width;                    /* the reference level: the widest */
    double warps_min, warps_max;      /* the active warps per SM measured */
    struct gb_camp_fitstats full;     /* every term */
    struct gb_camp_fitstats fit;      /* after backward elimination: used to predict */
    size_t n_dropped;                 /* terms backward elimination removed, in order */
    char dropped[GB_CAMP_MAX_TERMS][16];
    double dropped_p[GB_CAMP_MAX_TERMS];
    /* Warp-level instructions per launch per active warp per SM, by width
     * class (0 where not measured), and the largest relative deviation of
     * one record's count from k * w. */
    double instr_per_warp[GB_CAMP_N_WIDTHS];
    double instr_dev[GB_CAMP_N_WIDTHS];
    /* 32-byte sectors per instruction (metric ld_sectors or st_sectors over
     * the instruction count), mean by width class; NaN when the records do
     * not carry the sector count. A coalesced access of W bytes per thread
     * moves W sectors, what --from-ncu assumes when it reads widths. */
    double sectors_per_instr[GB_CAMP_N_WIDTHS];
    /* Held-out error of the form on these samples: each warps value in
     * turn is left out, the equation refitted on the rest and the left-out
     * samples predicted; the geometric mean and the root mean square of
     * |predicted - measured| / measured over all of them (NaN when not
     * computed, as in a model file without them). */
    double cv_gm, cv_rms;
    size_t cv_folds;
};

struct gb_camp_model {
    struct gb_camp_equation eq[2][2];  /* [op][pattern] */
    double p_remove;
    int interactions;                  /* 1: the w:b<width> terms were offered to the fit */
    enum gb_camp_form form;            /* PAPER for a model file without a form */
    enum gb_camp_level level;          /* what the camped equations camp on */
    int has_device;                    /* the device of the run, from its run.json */
    struct gb_device_info device;
    /* Where the data came from (the run's run.json). */
    char run_started_utc[32];
    char run_host[128];
    char run_tool_version[32];
    char run_git_revision[48];
    char run_command_line[1024];
    /* The camping suite's warps at the knee of its spread reads times the
     * bytes a thread of it keeps in flight (gb_camp_model_inflight: the
     * median over the widths; warps x bytes); NaN until set, and where its
     * kernel's PTX cannot be read. Not in the model file. */
    double inflight_product;
};

GB_API const char *gb_camp_op_name(enum gb_camp_op op);                /* "read", "write" */
GB_API const char *gb_camp_pattern_name(enum gb_camp_pattern pattern); /* "spread", "camped" */

/* Fits the four equations to the ok records of suite "camping", benches
 * "read" and "write", axes "width" (bytes per thread), "warps" and
 * "pattern" ("spread" or "camped"); the response is the median time, w is
 * the record's metric active_warps (the warps axis when the metric is
 * absent). Backward elimination drops terms with p > p_remove (in (0, 1)).
 * Fills *m (its device from the run's run.json, when it has one).
 * GB_ERR_FORMAT, naming what is missing, when an equation has no records or
 * a record lacks its width, warps or pattern, or the instruction count
 * (metric ld_req_<width> or st_req_<width>) the normalisation needs;
 * GB_ERR_USAGE for a bad p_remove; GB_ERR_NUMERIC when a fit fails (too
 * few points, one warps value only). */
GB_API enum gb_status gb_camp_fit(const struct gb_run *run, double p_remove, struct gb_camp_model *m);

/* gb_camp_fit, with `interactions` = 1 adding a slope per width: the terms
 * w:b2, w:b4, w:b8 (w times each dummy), so that
 *     t = a1*w + a2*b2 + ... + c2*w*b2 + c4*w*b4 + c8*w*b8 + b
 * An extension of the paper's model, for GPUs on which the time per warp
 * depends on the width (it does whenever the bytes a warp moves bound the
 * time). Backward elimination treats every term alike. */
GB_API enum gb_status gb_camp_fit_ext(const struct gb_run *run, double p_remove, int interactions,
                               struct gb_camp_model *m);

/* gb_camp_fit with the equations of form `form` (p_remove applies to the
 * linear forms' backward elimination), fitted to the records of camping
 * level `level` (GB_CAMP_LEVEL_UNKNOWN: the level gb_camp_records_level
 * picks). The latency-throughput forms fit each width's L_W by weighted
 * least squares through the regression module (weights 1/t^2: relative
 * errors, as the times span three decades), for every knee on a grid
 * from 0.05 to 8 x the widest warps measured (ratio 1.02), keeping the
 * knee of least weighted residual sum of squares. Every form also gets
 * its held-out error (cv_gm, cv_rms). GB_ERR_USAGE for a bad form. */
GB_API enum gb_status gb_camp_fit_form(const struct gb_run *run, double p_remove, enum gb_camp_form form,
                                enum gb_camp_level level, struct gb_camp_model *m);

/* The camping level of the run's micro-benchmarks: L2 when every camped
 * record has camp_pitch 0 (or none), DRAM when every one has camp_pitch >
 * 0; with both, the level whose camped reads are slower relative to the
 * spread ones (median ratio at equal width and warps): the level that
 * camps on this GPU. GB_CAMP_LEVEL_UNKNOWN when there are no records. */
GB_API enum gb_camp_level gb_camp_records_level(const struct gb_run *run);

/* The equation's predicted benchmark time (ns) at `warps` and width class
 * `wclass` (a class the equation measured). NaN for a class it did not. */
GB_API double gb_camp_eq_time_ns(const struct gb_camp_equation *eq, double warps, int wclass);

/* The latency-throughput forms' term `which` ("L" or "knee") of width
 * class `wclass` in `eq`; NaN where the equation has no such term. The
 * knee is the active warps per SM at which the benchmark's throughput
 * term reaches its latency term. */
GB_API double gb_camp_eq_lt_term(const struct gb_camp_equation *eq, const char *which, int wclass);

/* The measured width class that times instructions of class `wclass` in
 * `eq`: wclass itself when measured, else the narrowest measured class
 * above it; -1 when there is none. */
GB_API int gb_camp_eq_class_for(const struct gb_camp_equation *eq, int wclass);

/* 1 when every equation that times a non-zero count of `c` (spread and
 * camped, at the class gb_camp_eq_class_for picks) predicts a benchmark
 * time > 0 at `warps`; 0 where one gives <= 0 (or NaN): a linear form
 * (paper, interactions) extrapolated to fewer warps than it can describe,
 * where the model has no time to give. */
GB_API int gb_camp_in_range(const struct gb_camp_model *m, const struct gb_camp_counts *c, double warps);

/* Predicted best (no camping) and worst (all camped) times, ns, of a
 * kernel with counts `c` at `warps` active warps per SM (> 0). Each
 * instruction class's camped time is at least its spread time (camping
 * never speeds an access up: where the two fits cross, the band of that
 * class has no width), so best <= worst at every configuration. Where
 * gb_camp_in_range is 0 both are NaN (GB_OK): a time <= 0 is no time.
 * GB_ERR_USAGE when a count is negative or not finite, when every count is
 * zero, or when a width with a non-zero count has no class to time it. */
GB_API enum gb_status gb_camp_bounds(const struct gb_camp_model *m, const struct gb_camp_counts *c,
                              double warps, double *best_ns, double *worst_ns);

/* The camping degree of a time t within the band [best, worst]: 0 at best,
 * 1 at worst (outside [0, 1] when t is outside the band). NaN when the
 * band has no width (|worst - best| <= 1e-12 * |best|). */
GB_API double gb_camp_degree(double best_ns, double worst_ns, double t_ns);

/* The point at `degree` within the band: best + degree * (worst - best). */
GB_API double gb_camp_extrapolate(double best_ns, double worst_ns, double degree);

/* One configuration of a prediction. */
struct gb_camp_row {
    int warps;               /* active warps per SM */
    double best_ns, worst_ns;/* NaN where the model has no time (gb_camp_in_range 0) */
    double app_ns;           /* the application line; NaN without a measured time, where the
                              * bounds are NaN, or where the line falls to <= 0 */
};

/* Predicts rows[i] for warps[i], i < n. With a measured time (time_ns
 * finite and > 0, at_warps > 0) the application line and *degree are
 * filled (the degree at at_warps; the line through it, gb_camp_line_time);
 * otherwise app_ns and *degree are NaN.
 * A row outside the model's range (gb_camp_in_range 0) has NaN bounds and
 * line; at_warps outside it leaves *degree NaN.
 * GB_ERR_NUMERIC when the band has no width at at_warps. Errors of
 * gb_camp_bounds. */
GB_API enum gb_status gb_camp_predict(const struct gb_camp_model *m, const struct gb_camp_counts *c,
                               const int *warps, size_t n, double at_warps, double time_ns,
                               struct gb_camp_row *rows, double *degree);

/* What gb_camp_predict_band evaluates: the configurations labelled by
 * warps[i] (the occupancy limit), each evaluated at eval_warps[i] (the
 * warps the kernel really keeps resident there: the achieved warps per
 * SM; NULL: at warps[i]), the measured time and the warps it is evaluated
 * at, and the best bound from the measured roofs (gb_camp_roof_best of
 * the measured configuration; > 0 replaces the spread equations' best at
 * every configuration, the bytes a launch moves not changing with its
 * block shape; 0: the spread equations). */
struct gb_camp_band_in {
    const struct gb_camp_counts *counts;
    const int *warps;
    const double *eval_warps;
    size_t n;
    double at_warps;             /* the measured configuration's warps, as eval_warps gives them */
    double time_ns;              /* NaN: none measured */
    double roof_best_ns;
    double inflight_bytes;       /* the kernel's bytes in flight per thread (0 or NaN: not known) */
};

/* gb_camp_predict over `in`: rows[i].warps = in->warps[i], the bounds at
 * in->eval_warps[i] (with the roof best bound, and the worst at least the
 * best, as gb_camp_obs_bounds), the degree at in->at_warps. Errors as
 * gb_camp_predict. */
GB_API enum gb_status gb_camp_predict_band(const struct gb_camp_model *m, const struct gb_camp_band_in *in,
                                           struct gb_camp_row *rows, double *degree);

/* A kernel's launch as the CUDA Occupancy Calculator takes it. */
struct gb_camp_config {
    int threads;      /* threads per block, >= 1 */
    int regs;         /* registers per thread */
    int smem;         /* shared memory per block, bytes (static + dynamic) */
    long grid;        /* blocks in the grid; 0 = enough to fill every SM */
};

/* The active warps per SM the kernel can run at: for every block size
 * from one warp to the device's maximum, with the same registers per
 * thread and shared memory per block and (when grid > 0 and the device's
 * SM count is known) the same total number of threads, k * warps_per_block
 * for k = 1 .. the resident blocks the occupancy calculator allows (and
 * the grid fills). `warps` (max_threads_per_sm / warp_size entries) gets
 * the values ascending, *n their number, *config_warps the active warps of
 * the configuration as given (0 when it cannot run). Errors of
 * gb_occupancy_compute; GB_ERR_USAGE when no configuration can run. */
GB_API enum gb_status gb_camp_allowed_warps(const struct gb_device_info *dev,
                                     const struct gb_camp_config *cfg, int *warps, size_t *n,
                                     int *config_warps);

/* The most active warps per SM `dev` holds: max_threads_per_sm / warp_size
 * (a warp of 32 threads when the size is not known). */
GB_API int gb_camp_max_warps(const struct gb_device_info *dev);

/* The configurations of a prediction into warps[] (gb_camp_max_warps(dev)
 * entries, ascending), *n their number: every value 1 .. warps_max when
 * warps_max > 0 (*config_warps = warps_max), else those
 * gb_camp_allowed_warps gives the launch `cfg`. GB_ERR_USAGE when
 * warps_max exceeds gb_camp_max_warps(dev); errors of
 * gb_camp_allowed_warps. */
GB_API enum gb_status gb_camp_configurations(const struct gb_device_info *dev,
                                      const struct gb_camp_config *cfg, int warps_max,
                                      int *warps, size_t *n, int *config_warps);

/* What the rows of a band say about the range the model holds in. */
struct gb_camp_band_check {
    int nonpositive_warps;   /* the first configuration with a best or worst time <= 0; 0 if none */
    size_t n_inverted;       /* configurations whose worst time is below the best */
};
GB_API void gb_camp_band_check(const struct gb_camp_row *rows, size_t n, struct gb_camp_band_check *out);

/* Splits `requests` warp-level instructions that moved `sectors` 32-byte
 * sectors over the width classes the model measured (`eq`'s), keeping
 * both totals: a warp instruction of w bytes per thread moves w sectors
 * when coalesced, so an average of s = sectors/requests between two
 * measured widths wa < s < wb is split between them; below the narrowest
 * it is all of the narrowest class, above the widest it counts as
 * sectors/widest instructions of the widest (an uncoalesced access costs
 * its sectors). Adds to out[GB_CAMP_N_WIDTHS]. GB_ERR_USAGE for negative
 * or non-finite values, or sectors without requests. */
GB_API enum gb_status gb_camp_split_requests(const struct gb_camp_equation *eq, double requests,
                                      double sectors, double *out);

/* What an Nsight Compute launch supplies to a prediction. */
struct gb_camp_ncu_input {
    struct gb_camp_counts counts;
    double ld_requests, ld_sectors, st_requests, st_sectors;
    const char *ld_requests_metric;    /* the metric names that supplied them */
    const char *st_requests_metric;
    long threads, grid;                /* -1 when absent */
    int regs, smem;                    /* -1 when absent */
    double time_ns;                    /* NaN when absent */
    /* The bytes each memory level moved (the GB_NCU_DRAM_* and GB_NCU_L2_*
     * sectors times 32) and the achieved warps per SM
     * (GB_CAMP_WARPS_ACTIVE); NaN when absent. */
    double dram_read_bytes, dram_write_bytes, l2_read_bytes, l2_write_bytes;
    double warps_active;
    int lacks;                         /* 1 when the error was metrics the export lacks (not
                                        * a value out of its range) */
};

/* The metrics read, in the order tried (requests: the l1tex request count,
 * then the SASS instruction count). */
#define GB_NCU_LD_REQUESTS "l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum"
#define GB_NCU_ST_REQUESTS "l1tex__t_requests_pipe_lsu_mem_global_op_st.sum"
#define GB_NCU_LD_INST "smsp__sass_inst_executed_op_global_ld.sum"
#define GB_NCU_ST_INST "smsp__sass_inst_executed_op_global_st.sum"
#define GB_NCU_LD_SECTORS "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum"
#define GB_NCU_ST_SECTORS "l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum"
#define GB_NCU_TIME "gpu__time_duration.sum"
#define GB_NCU_GRID "launch__grid_size"
#define GB_NCU_BLOCK "launch__block_size"
#define GB_NCU_REGS "launch__registers_per_thread"
#define GB_NCU_SMEM_STATIC "launch__shared_mem_per_block_static"
#define GB_NCU_SMEM_DYNAMIC "launch__shared_mem_per_block_dynamic"
/* The --metrics list that collects all of them. */
#define GB_NCU_METRICS_ARG                                                                    \
    GB_NCU_LD_REQUESTS "," GB_NCU_ST_REQUESTS "," GB_NCU_LD_SECTORS "," GB_NCU_ST_SECTORS "," \
    GB_NCU_TIME "," GB_NCU_GRID "," GB_NCU_BLOCK "," GB_NCU_REGS "," GB_NCU_SMEM_STATIC ","   \
    GB_NCU_SMEM_DYNAMIC

/* The profiler's counters of the sectors each memory level moved (the
 * best bound from the roofs, campprof_roofs.c) and of the achieved warps. */
#define GB_NCU_DRAM_READ_SECTORS "dram__sectors_read.sum"
#define GB_NCU_DRAM_WRITE_SECTORS "dram__sectors_write.sum"
#define GB_NCU_L2_READ_SECTORS "lts__t_sectors_op_read.sum"
#define GB_NCU_L2_WRITE_SECTORS "lts__t_sectors_op_write.sum"

/* Maps launch `l` to the model's inputs: load and store requests and
 * sectors (split over the widths of the read and write equations by
 * gb_camp_split_requests), and, when present, the launch's block and grid
 * size, registers, shared memory and duration, the memory levels' bytes
 * and the achieved warps. GB_ERR_FORMAT naming the
 * missing metrics when the requests or sectors of loads or stores are not
 * in the export, and naming the launch, the metric and its field when a
 * metric it reads is not a number in its range (the duration above 0 and
 * at most a day, counts of requests or instructions at most 1e15: the one
 * table of src/results/validate.c); an empty or "n/a" field is absent. */
GB_API enum gb_status gb_camp_from_ncu(const struct gb_camp_model *m, const struct gb_ncu_launch *l,
                                struct gb_camp_ncu_input *out);

/* The one record of `run` that is BENCH ("suite/bench") with every pair of
 * AXES ("a=1,b=2"; "" matches any) in *hit, and how many match in
 * *n_hits (*hit is the first; set only when one matches). Never fails. */
GB_API void gb_camp_point_find(const struct gb_run *run, const char *bench, const char *axes,
                        const struct gb_record **hit, size_t *n_hits);

/* A point recorded with `run --counters` as a report of one launch, for
 * gb_camp_from_ncu: its counters (Nsight Compute metrics, by the same
 * names), its launch's shape from the spec contract's point metrics
 * (block_threads, grid_blocks, regs, smem_static_bytes,
 * smem_dynamic_bytes) where present, and its median time as the duration.
 * GB_ERR_FORMAT when the record has no counters, GB_ERR_NOMEM. Free with
 * gb_ncu_free. */
GB_API enum gb_status gb_camp_point_report(const struct gb_record *r, struct gb_ncu_report **out);

/* ---- validation ---- */

struct gb_camp_app;
struct gb_camp_domain;

/* One measured configuration of an application. */
struct gb_camp_obs {
    double warps;               /* the configuration: achieved warps per SM (kernel-spec
                                 * points: measured where the record has the counter, else
                                 * computed from the grid; camping records: active warps) */
    double time_ns;             /* measured (median) time */
    struct gb_camp_counts counts;   /* its instruction counts */
    /* Kernel-spec points (0 / NaN otherwise): the occupancy calculator's
     * active warps per SM, the achieved warps computed from the grid
     * (gb_occupancy_achieved), the measured GB_CAMP_WARPS_ACTIVE (NaN
     * without counters), the grid in blocks and the bytes the point moves. */
    double limit_warps, achieved_warps, measured_warps;
    double grid_blocks, bytes;
    /* The bytes each memory level moved per launch, from the profiler's
     * counters (dram__sectors_read/write.sum, lts__t_sectors_op_read/
     * write.sum, times 32); NaN without counters. hot: 1 when the time was
     * measured back to back (caches warm), so that up to the L2's capacity
     * of the data can already be in L2 at the start. */
    double dram_read_bytes, dram_write_bytes, l2_read_bytes, l2_write_bytes;
    int hot;
    /* The best bound from the memory levels' roofs (gb_camp_roof_best),
     * which replaces the spread equations' where it is > 0; 0 otherwise. */
    double roof_best_ns;
    /* Kernel-spec points: the bytes of global memory one thread keeps in
     * flight (gb_camp_apps_inflight: its PTX's largest group of independent
     * loads, times the measured sectors per request over a coalesced
     * access's); NaN where not known. `record`: the point's index in its
     * run's records (SIZE_MAX for none). */
    double inflight_bytes;
    size_t record;
};

/* The best bound of a configuration from the measured roofs: the largest,
 * over the memory levels, of the level's bytes over its roof.
 * - DRAM: read plus write bytes (one bus carries both) over the DRAM roof;
 *   in a hot run, each direction less the L2's capacity
 *   (c->device.l2_bytes), the most of it the L2 can hold from the sample
 *   before (the counters' replay starts from a flushed L2: they count
 *   every byte from DRAM).
 * - L2: the larger of the read and the write bytes over the L2 roof (the
 *   fastest of the ceilings run's L2 benches, so that each direction's
 *   time is at least this; reads and writes go through the L2 side by
 *   side, so their sum over one roof is not a bound).
 * dram_ns, l2_ns: each level's minimum time (NaN where not known);
 * best_ns their maximum, 0 when neither is known (no counters, no roof);
 * level: "DRAM", "L2" or "". */
struct gb_camp_roof_bound {
    double dram_ns, l2_ns, best_ns;
    const char *level;
};
GB_API void gb_camp_roof_best(const struct gb_ceilings *c, const struct gb_camp_obs *o,
                              struct gb_camp_roof_bound *out);

/* gb_camp_bounds at the configuration `o`, with the best bound o->roof_best_ns
 * where that is > 0 (and the worst at least the best). */
GB_API enum gb_status gb_camp_obs_bounds(const struct gb_camp_model *m, const struct gb_camp_obs *o,
                                         double *best_ns, double *worst_ns);

/* The latency shape of the application line at the configuration `o`:
 * with a roof best bound (o->roof_best_ns > 0, flat in warps), the camping
 * suite's spread bound at o->warps over its throughput asymptote (every
 * width's L_W / knee_W per instruction), so that below the suite's knee the
 * line rises as each access waits its latency; 1 without a roof best bound
 * (the suite's own bounds carry that shape) or where the model's form has
 * no knee. Where the kernel's bytes in flight per thread are known
 * (o->inflight_bytes) and the suite's product of knee and bytes in flight
 * (m->inflight_product), the shape is the kernel's own instead:
 * sqrt(1 + (K / w)^2) with K = inflight_product / inflight_bytes, the warps
 * at which this kernel's loads in flight equal the suite's at its knee
 * (docs/models.md, "The kernel's own knee"). The line at a configuration is
 * this factor times the band's point at the line's degree
 * (gb_camp_line_degree, gb_camp_line_time). */
GB_API double gb_camp_line_factor(const struct gb_camp_model *m, const struct gb_camp_obs *o);

/* The warps per SM at the kernel's own knee (the K above), or NaN where
 * either figure is not known. */
GB_API double gb_camp_kernel_knee(const struct gb_camp_model *m, const struct gb_camp_obs *o);

/* The application line's degree: that of the time t_ns over the start's
 * line factor f in the band best..worst. */
GB_API double gb_camp_line_degree(double best_ns, double worst_ns, double t_ns, double f);

/* The application line's time at a configuration with bounds best..worst
 * and line factor f, at the line's degree. */
GB_API double gb_camp_line_time(double best_ns, double worst_ns, double degree, double f);

/* Sets roof_best_ns of every configuration of `app` from the roofs `c`
 * (NULL: leaves them 0). */
struct gb_camp_app;
GB_API void gb_camp_app_roofs(const struct gb_ceilings *c, struct gb_camp_app *app);

/* The counter of measured achieved warps per SM (Nsight Compute's
 * "Achieved Active Warps Per SM"). */
#define GB_CAMP_WARPS_ACTIVE "sm__warps_active.avg.per_cycle_active"

struct gb_camp_validation {
    size_t n_points;
    /* Geometric means of |predicted - measured| / measured, as fractions:
     * the best and worst bounds over every (start, point) pair, and the
     * application line (the start's measured time and degree extrapolated)
     * over every pair with point != start (at the start it is exact by
     * construction). The band at a point uses that point's own counts,
     * which are the start's when the application's work does not change
     * with its launch configuration. An error of exactly 0 makes the mean
     * 0. NaN where there are no pairs. */
    double gm_best, gm_worst, gm_app;
    size_t n_pairs_bounds, n_pairs_app;
    /* The application line's error from the starts inside the band only
     * (NaN when none is), and how many points lie in their own band. Inside
     * means within the band widened by its own uncertainty:
     *     best * (1 - margin_best) <= measured <= worst * (1 + margin_worst)
     * the margins being the largest held-out error (cv_gm) of the model's
     * spread and camped equations, fitted on the camping suite alone (0
     * for a model file without them). */
    double gm_app_inside;
    size_t n_inside;
    double margin_best, margin_worst;
    /* The measured camping degree of each point (its own counts), median. */
    double degree_median, degree_min, degree_max;
    /* The achieved warps per SM and the measured times (ns) the points
     * span: configurations at one warp count share one band, and the line
     * can follow nothing else between them. */
    double warps_min, warps_max, time_min_ns, time_max_ns;
    /* The kernel's own knee (gb_camp_kernel_knee, warps per SM) and its
     * bytes in flight per thread, each the smallest and largest over the
     * configurations (NaN where none has them: the line then takes the
     * camping suite's shape). */
    double knee_min, knee_max, inflight_min, inflight_max;
    /* Set by gb_camp_validate_app: the configurations outside the domain of
     * validity (left out of everything above), the first one's reason, and
     * the configurations judged (all of them). */
    size_t n_out_domain, n_judged;
    char domain_reason[320];
};

/* 1 when the validated points run at one achieved warp count (within
 * GB_CAMP_SAME_WARPS of each other) while their times differ by more than
 * GB_CAMP_TIME_SPREAD: the band is one band there, so the application line
 * cannot follow what separates them (not occupancy; camping only where camp
 * detect finds it). */
#define GB_CAMP_SAME_WARPS 1.10
#define GB_CAMP_TIME_SPREAD 1.25
GB_API int gb_camp_same_warps(const struct gb_camp_validation *v);

/* Validates the model on n >= 1 measured configurations of one application
 * (the paper's procedure: every configuration in turn is the starting
 * point; with more than 1024, 1024 of them evenly spaced), in O(n) memory
 * and O(n) bounds evaluations. Errors of gb_camp_bounds; GB_ERR_FORMAT for
 * no configuration or a non-positive time or warps (bad recorded data);
 * GB_ERR_NUMERIC for a configuration outside the model's range
 * (gb_camp_in_range 0: leave it out, as gb_camp_validate_app does). */
GB_API enum gb_status gb_camp_validate(const struct gb_camp_model *m, const struct gb_camp_obs *obs,
                                size_t n, struct gb_camp_validation *out);

/* gb_camp_validate on the configurations of `app` inside the domain of
 * validity (gb_camp_domain_judge under roofs `c`; c may be NULL: only the
 * model's range judged); domain[app->n] (may be NULL) receives each one's
 * judgement.
 * When none is inside, *out has only n_out_domain, n_judged and
 * domain_reason set (n_points 0) and the call succeeds. Errors of
 * gb_camp_validate; GB_ERR_NOMEM. */
GB_API enum gb_status gb_camp_validate_app(const struct gb_camp_model *m, const struct gb_ceilings *c,
                                           const struct gb_camp_app *app, struct gb_camp_domain *domain,
                                           struct gb_camp_validation *out);

/* Geometric mean of n >= 1 non-negative values (0 when one is 0; NaN for
 * n == 0 or a negative or non-finite value). */
GB_API double gb_camp_geomean(const double *v, size_t n);

/* The paper's name of validation application `bench` ("GEM (n-body
 * electrostatics)" for "gem"), or NULL when `bench` is not one of the
 * validation applications (campprof_validate.c holds the list). */
GB_API const char *gb_camp_app_title(const char *bench);

/* The validation applications as "camping/gem, clique, ...", for messages. */
GB_API void gb_camp_app_list(char *buf, size_t n);

/* The largest relative difference between the counts of configuration 0
 * and those of any other (0 when every configuration has the same work). */
GB_API double gb_camp_counts_vary(const struct gb_camp_obs *obs, size_t n);

/* The chart of one application: the band at each configuration from that
 * configuration's own counts, and the application line from the middle
 * configuration inside the domain (domain[n], gb_camp_domain_judge; NULL:
 * every one inside; its degree in *degree, its index in *start), each
 * row's line from the start's line degree (gb_camp_line_degree,
 * gb_camp_line_time), as gb_camp_validate computes them. rows[n] and measured_ns[n] are the
 * caller's; a row outside the model's range has NaN bounds and line, a
 * line that falls to <= 0 is NaN. Errors of gb_camp_bounds. */
GB_API enum gb_status gb_camp_app_band(const struct gb_camp_model *m, const struct gb_camp_obs *obs,
                                size_t n, const struct gb_camp_domain *domain,
                                struct gb_camp_row *rows, double *measured_ns,
                                size_t *start, double *degree);

/* ---- the domain of validity ----
 * The band bounds a kernel whose time is set by its memory traffic. It does
 * not apply to a configuration that is
 *   too small: its bytes at the DRAM roof take less time than a launch's
 *     fixed cost (the ceilings run's launch line, launch_a_ns), so the launch,
 *     not the memory system, sets its time;
 *   latency-bound: it reaches less than GB_CAMP_DOMAIN_MIN_SHARE of the DRAM
 *     roof while its grid leaves SMs without a block (grid < SMs) or its
 *     achieved warps per SM are below the knee of the spread equation that
 *     times most of its bytes (the warps at which the camping suite's
 *     spread accesses of that width reach their throughput; for a form
 *     without a knee, the fewest warps the suite measured): too few
 *     requests in flight to load the memory system, so each one's latency,
 *     not bandwidth or camping, sets the time. A camped kernel with a full grid also reaches a small share
 *     of the roof, which is why the share alone is not the rule;
 *   outside the model's range: an equation that times its counts gives a
 *     time <= 0 at its achieved warps (gb_camp_in_range: a linear form
 *     extrapolated to fewer warps than it can describe), so the band has
 *     no bounds there. This rule is judged first, with or without roofs. */
#define GB_CAMP_DOMAIN_MIN_SHARE 0.25

enum gb_camp_domain_why {
    GB_CAMP_DOMAIN_IN = 0,          /* the band applies */
    GB_CAMP_DOMAIN_UNJUDGED = 1,    /* no bytes or no DRAM roof: taken as applying */
    GB_CAMP_DOMAIN_TOO_SMALL = 2,
    GB_CAMP_DOMAIN_LATENCY = 3,
    GB_CAMP_DOMAIN_RANGE = 4,       /* the model's bounds are <= 0 there (gb_camp_in_range) */
};

struct gb_camp_domain {
    enum gb_camp_domain_why why;
    double roof_ns;          /* the bytes at the DRAM roof; NaN when not judged */
    double share;            /* roof_ns / measured time */
    char reason[320];        /* one line: why the band does not apply ("" when it does) */
};

/* "applies", "not judged", "too small", "latency-bound", "outside the
 * model's range". */
GB_API const char *gb_camp_domain_name(enum gb_camp_domain_why why);

/* 1 when the band applies to a configuration judged `why`. */
GB_API int gb_camp_domain_applies(enum gb_camp_domain_why why);

/* Judges observation `o` (its counts, bytes, time, grid and achieved
 * warps) against the range of model `m` (may be NULL), then under roofs
 * `c` (DRAM roof; launch_a_ns may be NaN: that rule is then not applied;
 * NULL: not judged), `sm_count` SMs (0: unknown) and the warps range of
 * `m`. Never fails. */
GB_API void gb_camp_domain_judge(const struct gb_camp_model *m, const struct gb_ceilings *c,
                                 int sm_count, const struct gb_camp_obs *o, struct gb_camp_domain *out);

/* ---- reading records (campprof_records.c) ----
 * The one adapter between run records and the model: it names the suite,
 * benches, axes and metrics (gpubound/camp_counts.h) the model reads. */

/* One micro-benchmark record as an observation of an equation. */
struct gb_camp_sample {
    double time_ns;    /* median time per launch */
    double warps;      /* active warps per SM (metric active_warps, else axis warps) */
    int wclass;        /* width class of the accesses (axis width) */
    double instr;      /* warp-level instructions of that width per launch, > 0
                        * (metric ld_req_<width> for reads, st_req_<width> for writes) */
    double sectors;    /* 32-byte sectors per launch (ld_sectors, st_sectors); NaN when absent */
};

/* The samples of equation (op, pattern): the ok records of suite camping,
 * bench "read" or "write", whose axis pattern is `pattern` and whose
 * camp_pitch is of `level` (any with GB_CAMP_LEVEL_UNKNOWN), in run order.
 * *out is malloc'ed (the caller frees it), *n >= 1. GB_ERR_FORMAT naming the
 * run directory and what is missing when a record of the bench lacks its
 * pattern, width, warps, instruction count or median time, or when there is
 * no such record; GB_ERR_NOMEM. */
GB_API enum gb_status gb_camp_records_samples(const struct gb_run *run, enum gb_camp_op op,
                                       enum gb_camp_pattern pattern, enum gb_camp_level level,
                                       struct gb_camp_sample **out, size_t *n);

/* One application record as a validation observation: warps (metric
 * active_warps, else axis warps), the median time, and the counts of every
 * width class from metrics ld_req_<width> and st_req_<width> (and the
 * sectors, NaN when absent). Every count of the classes the suite records
 * (GB_CAMP_RECORDED_CLASS_MIN and up) is required: a missing one is
 * GB_ERR_FORMAT naming the record and the metric, never a zero. */
GB_API enum gb_status gb_camp_record_obs(const struct gb_record *r, struct gb_camp_obs *o);

/* The measured configurations of one validation application. */
struct gb_camp_app {
    char bench[64];
    char label[160];             /* bench and its axes other than warps: "gem", "gem n=4096" */
    const char *title;           /* gb_camp_app_title(bench) */
    struct gb_camp_obs *obs;     /* n configurations, ascending warps */
    double *ci_lo_ns, *ci_hi_ns; /* the CI of each one's time */
    size_t n, cap;
    size_t from_bytes;           /* kernel-spec points counted from bytes, not counters */
    int sm_count;                /* the SMs of the run's device (0: not recorded) */
};

/* A kernel-spec point (a record of another suite with the spec contract's
 * metric active_warps_per_sm) as a validation observation: warps from
 * that metric, the median time, and the counts from the in-process
 * profiler's counters (l1tex__t_requests/sectors_pipe_lsu_mem_global_op_ld
 * and _st .sum by their Nsight Compute names, or the metrics ld_requests,
 * ld_sectors, st_requests, st_sectors; split over the widths 2..16 by
 * gb_camp_split_requests),
 * *from_counters = 1; without them, the record's bytes as 4-byte loads
 * (bytes / 128 warp instructions), *from_counters = 0. GB_ERR_FORMAT when
 * the warps, time, or both counters and bytes are missing. */
GB_API enum gb_status gb_camp_spec_obs(const struct gb_record *r, struct gb_camp_obs *o,
                                int *from_counters);

/* The achieved warps of kernel-spec observation `o` (from
 * gb_camp_spec_obs, whose warps are the occupancy limit) on `dev`:
 * o->achieved_warps from the grid (gb_occupancy_achieved, with
 * limit_warps / warps-per-block resident blocks), and o->warps set to
 * the measured GB_CAMP_WARPS_ACTIVE where present, else to that.
 * Leaves o->warps at the limit when the grid, the block size or the SM
 * count is not known. Never fails. */
GB_API void gb_camp_spec_achieved(const struct gb_device_info *dev, struct gb_camp_obs *o,
                                  double block_threads);

/* Groups the ok records of the validation applications in `run` by label
 * (the camping suite's applications by bench and axes other than warps;
 * kernel-spec points by suite/bench and axes other than block_size_*),
 * each group sorted by warps (stable). *apps is the caller's to free with
 * gb_camp_apps_free; *n may be 0. Errors of gb_camp_record_obs, prefixed
 * with the run directory; GB_ERR_NOMEM. */
GB_API enum gb_status gb_camp_records_apps(const struct gb_run *run, struct gb_camp_app **apps,
                                    size_t *n);
GB_API void gb_camp_apps_free(struct gb_camp_app *apps, size_t n);

/* ---- the model file ---- */

/* Writes the model as JSON (format GB_CAMP_MODEL_FORMAT) to `path`,
 * through a temporary file renamed into place, so that no half-written
 * model is ever left. GB_ERR_IO when it cannot be written. */
GB_API enum gb_status gb_camp_model_write(const struct gb_camp_model *m, const char *path);

/* Reads a model written by gb_camp_model_write. GB_ERR_IO when the file
 * cannot be read; GB_ERR_FORMAT, saying what is wrong, when it is not JSON,
 * not a CampProf model, or an equation, coefficient or count is missing or
 * malformed. */
GB_API enum gb_status gb_camp_model_load(const char *path, struct gb_camp_model *m);

/* gb_camp_model_load for a model that may already sit where a new one is to
 * be written (the guard that keeps a model fitted on more observations):
 * `path` is read only when it is a regular file, following no symbolic link
 * at that name and never waiting on a FIFO there (GB_ERR_IO otherwise). */
GB_API enum gb_status gb_camp_model_load_existing(const char *path, struct gb_camp_model *m);

/* As gb_camp_model_load, for a model file about to be replaced (the guard
 * that keeps a model fitted on more observations): `path` is read only when
 * it is a regular file, following no symbolic link at that name and never
 * waiting on a FIFO there (GB_ERR_IO otherwise). */
GB_API enum gb_status gb_camp_model_load_existing(const char *path, struct gb_camp_model *m);

/* The observations model `m` was fitted on: the sum over its equations. */
GB_API size_t gb_camp_model_points(const struct gb_camp_model *m);

/* The replace guard (util/replace.h) before `m` is written to `path`:
 * GB_ERR_UNSUPPORTED, one line, when the model already at `path` was
 * fitted on more observations (a cut run) and `force` is 0; a file there
 * that cannot be read is replaced. GB_ERR_NOMEM. */
GB_API enum gb_status gb_camp_model_guard(const char *path, const struct gb_camp_model *m, int force);

#endif
