/* measure.h - timing one point and the plan of points a run measures (the
 * statistics of its samples: numbers.h). The harness knows nothing of the
 * suite it runs: it calls a benchmark's callbacks and fills a gb_record. */
#ifndef GPUBOUND_MEASURE_H
#define GPUBOUND_MEASURE_H

#include "gpubound/api.h"

#include "gpubound/numbers.h"
#include "gpubound/results.h"
#include "gpubound/suite.h"

/* ---- the harness ---- */

struct gb_measure_opts {
    double rel_ci;          /* stopping rule: CI half-width / median (default 0.005) */
    double max_time_s;      /* time cap per point for sampling (default 2 s; quick 0.5 s) */
    int min_samples;        /* default 10 */
    int max_samples;        /* default 5000 */
    double batch_below_ns;  /* launches shorter than this are batched in a graph (20 us) */
    double batch_target_ns; /* a batched sample lasts about this long (200 us) */
    int warmup_launches;    /* warm-up: at least this many launches (3) */
    double warmup_s;        /* and at least this long (100 ms, the least) */
    double chunk_s;         /* samples enqueued per host synchronisation, in time (10 ms) */
    int cache;              /* -1: each bench's own mode; else GB_CACHE_HOT/COLD for all */
    int timer;              /* the clock of the samples: GB_TIMER_AUTO or a clock's choice */
    int flush;              /* enum gb_flush_method (gpu.h): how cold samples empty the L2 */
    double isolate_s;       /* the GPU idles this long right before each sample's launch (--isolate); 0: none */
    int quick;
    /* Set when the user gave rel_ci / max_time_s: a bench's own sampling
     * policy (struct gb_sample_policy) then keeps them. */
    int user_rel_ci, user_max_time;
    /* Where benches with share_by keep their shared state between points
     * (NULL: made and freed for every point). */
    struct gb_measure_share *share;
    /* Hardware counters (run --counters, profile): after a point's samples,
     * one launch is profiled for these Nsight Compute metric names (NULL:
     * none) into the record's counters (src/measure/counters.c). */
    char *const *counters;
    size_t n_counters;
    int counters_strict;    /* a metric the GPU lacks fails the point (else it is left out) */
    int counter_launch;     /* the launch profiled: 0 = the first after the outputs are poisoned */
    int counters_keep_cache; /* Nsight Compute's --cache-control none: CUPTI's kernel replay, the
                              * caches as the previous pass left them (0: every pass after an
                              * L2 clean, the launch replayed by gpubound: --cache-control all) */
    int profile_only;       /* no warm-up and no samples: set up, verify, profile */
};

/* Which clock times the samples (gb_measure_opts.timer): GB_TIMER_AUTO
 * tries the clocks in the order of their table (src/measure/clocks.c: the
 * profiler's gpu__time_duration, CUPTI's kernel timestamps, CUDA events),
 * each falling back to the next where it cannot be had, and the record
 * says which timed it; any other value is one clock only (a point fails
 * when it cannot be had): the value `gpubound run --timer NAME` gives, its
 * row's place in the table plus one. The clocks have no enum: a new clock
 * is a row of the table, not a value here. */
#define GB_TIMER_AUTO 0

GB_API void gb_measure_opts_default(struct gb_measure_opts *o);

/* The shared state of the bench measured last (see gb_bench.share_by).
 * Zero-initialise it, point gb_measure_opts.share at it, and release it
 * before the GPU is closed. */
struct gb_measure_share {
    const struct gb_bench *bench;
    struct gb_gpu *gpu;
    char key[256];
    void *state;
};

/* Frees the held state (share_teardown) and empties `s`; safe when empty. */
GB_API void gb_measure_share_release(struct gb_measure_share *s);

/* The options a point of `b` is measured with: `o` with the bench's
 * sampling policy applied (fields the user gave keep the user's value). */
GB_API void gb_measure_opts_for(const struct gb_measure_opts *o, const struct gb_bench *b,
                         struct gb_measure_opts *out);

/* Profiles launch o->counter_launch of the set-up point `p` (the outputs
 * poisoned first, the L2 cleaned before each pass: counters.c) for the
 * metrics o->counters (with the rollups gb_counter_request adds), and
 * checks the outputs after it when it is the first launch (the kernel
 * replay restored what the kernel reads). The decoded values are added
 * to `out`. GB_ERR_USAGE for a metric the GPU lacks under
 * counters_strict; GB_ERR_UNSUPPORTED when counters cannot be had here
 * (CUPTI missing, profiling not permitted), with the reason. */
GB_API enum gb_status gb_counters_profile(struct gb_gpu *g, struct gb_point *p, const struct gb_measure_opts *o,
                                   struct gb_counters *out);

/* The first reason counters were not collected, or metrics were left out,
 * since the last call of gb_counters_note_take ("" when none): copied to
 * `buf` and forgotten. For the CLI's one line. */
GB_API void gb_counters_note_take(char *buf, size_t n);

/* Set from a signal handler to stop a run between samples. */
extern volatile int gb_measure_interrupted;

/* The per-point limit when a bench sets none (gb_bench.timeout_s). */
#define GB_TIMEOUT_DEFAULT_S 10.0

/* Bench b's per-point limit in seconds: its timeout_s, else the default. */
GB_API double gb_bench_timeout_s(const struct gb_bench *b);

/* Measures one point: compile, setup, poison + launch + verify, warm-up,
 * timed samples until the stopping rule or the cap, teardown. Every wait
 * for the GPU is limited to the bench's timeout_s (g->wait_limit_s). The
 * record is filled whatever happens (status ok / failed / skipped / error,
 * with the reason; a compile error keeps NVRTC's log in compile_log); a
 * compile error or a launch the driver refuses stays inside the point
 * (GB_OK). Otherwise the caller must act: GB_ERR_INTERRUPTED (stop),
 * GB_ERR_DEVICE_LOST (a kernel faulted: the point's own state is released;
 * the context is lost for good, so the next point needs a new process:
 * gb_session_run says where to go on), GB_ERR_TIMEOUT (a kernel ran past the limit and may still
 * run: g->hung is set, nothing of the point was freed; stop the run without
 * touching the device). */
GB_API enum gb_status gb_measure_point(struct gb_gpu *g, struct gb_point *p, const struct gb_measure_opts *o,
                                struct gb_record *rec);

/* ---- the plan: which points a run measures ---- */

struct gb_plan_item {
    const struct gb_suite *suite;
    const struct gb_bench *bench;
    int n_axes;
    const char *axis_name[GB_MAX_AXES];
    char *axis_value[GB_MAX_AXES];   /* owned by the plan */
};

struct gb_plan {
    struct gb_plan_item *items;
    size_t n;
    const char *axes[GB_MAX_AXES * 8]; /* union of axis names, in first-seen order */
    int n_axes;
};

/* Expands selectors ("suite" or "suite/bench"; none = every suite) and
 * overrides ("axis=v1,v2", applied to every selected bench that has the
 * axis) into points, the cartesian product of each bench's axes (quick
 * sweeps under `quick`). GB_ERR_USAGE with one clear message for an unknown
 * suite or bench, an override no selected bench has, or a bad value. */
/* The most points a plan may hold unless raised (run --max-points), and
 * the most it may be raised to: a plan of that many points takes about
 * half a GiB of host memory and some seconds to build and check. */
#define GB_PLAN_MAX_POINTS 100000
#define GB_PLAN_MAX_POINTS_CAP 1000000

/* How many points gb_plan_build_max would plan at most (each bench's
 * product of its axes' value counts, before its restrictions), without
 * making them; the same refusals as gb_plan_build_max (an unknown suite, a
 * bad value, more than `max_points`). For deciding before a large plan is
 * built (run looks for the GPU first). */
GB_API enum gb_status gb_plan_count(const char *const *selectors, int n_sel, const char *const *sets, int n_sets,
                             int quick, size_t max_points, size_t *count);

/* As gb_plan_build with at most `max_points` points: a bench whose axes'
 * product would pass the cap is refused (GB_ERR_USAGE) before any point
 * is made, so no allocation grows with the product. */
GB_API enum gb_status gb_plan_build_max(const char *const *selectors, int n_sel, const char *const *sets,
                                 int n_sets, int quick, size_t max_points, struct gb_plan *plan);

/* gb_plan_build_max with GB_PLAN_MAX_POINTS. */
GB_API enum gb_status gb_plan_build(const char *const *selectors, int n_sel, const char *const *sets,
                             int n_sets, int quick, struct gb_plan *plan);
GB_API void gb_plan_release(struct gb_plan *plan);

/* Adds to info's spec_sha256, spec_measured_sha256 and kernel_sha256 the
 * SHA-256 of what measuring `plan` compiles and reads: each kernel spec
 * file of its suites, with its sources, init and reference files
 * (gb_spec_hashes) and what of it is measured (gb_spec_measured_hash), and each
 * embedded kernel source of its built-in benches, with the tool's own
 * (util.cu, flush_code.cu: the utility and L2-flush kernels), by file
 * name. Needs no GPU. GB_ERR_IO when a spec's data file cannot be read;
 * GB_ERR_USAGE when more files than run.json keeps. */
GB_API enum gb_status gb_plan_hashes(const struct gb_plan *plan, struct gb_run_info *info);

/* Fills a point for a plan item (axis values parsed); p->gpu is set by the
 * caller, who releases the point with gb_point_release (its metrics). */
GB_API void gb_plan_point(const struct gb_plan_item *it, int quick, struct gb_point *p);

#endif
