/* suite.h - how benchmarks are declared.
 *
 * A suite is a table of benchmarks; a benchmark is a row (struct gb_bench)
 * written with designated initializers: its name, kernel, axes (as data),
 * every option, and callbacks that each get the row's `ctx`. The harness
 * (measure.h) expands the axes into points, calls setup, verifies one
 * poisoned run, times `launch`, and calls teardown. A suite never formats
 * output and never times anything.
 *
 * Suites are found through a registry built at run time: the built-in
 * suites register themselves on first use, and gb_suite_register adds a
 * suite made at run time (a kernel spec file), whose rows carry their
 * parsed data in `ctx`. Nothing downstream can tell the two apart.
 */
#ifndef GPUBOUND_SUITE_H
#define GPUBOUND_SUITE_H

#include "gpubound/api.h"

#include <stddef.h>

#include "gpubound/gpu.h"
#include "gpubound/results.h"
#include "gpubound/status.h"

struct gb_chart_spec;   /* a chart of the suite (chart_spec.h) */
struct gb_findings_rule; /* how its findings compare its benches (chart_spec.h) */

/* An axis: a named parameter and the values it is swept over. Values are
 * written as a comma list; integer axes take decimal values, optionally
 * with a K/M/G suffix (powers of 1024), and ranges "lo:hi" (every integer)
 * or "lo:hi:*f" (geometric, times f). */
enum gb_axis_kind { GB_AXIS_INT = 0, GB_AXIS_STR };

struct gb_axis_def {
    const char *name;
    enum gb_axis_kind kind;
    const char *values;          /* default sweep, e.g. "4,8,16" */
    const char *quick;           /* sweep under --quick; NULL = same as values */
    long min, max;               /* integer axes: allowed range */
    const char *choices;         /* comma list of allowed values (NULL: any); on an integer
                                  * axis a range keeps the allowed values it spans */
    const char *help;
};

struct gb_bench;

/* An extra value recorded with a point (name owned by the point). */
struct gb_point_value {
    char *name;                  /* with its unit in the name: "occupancy", "regs" */
    double value;
};

/* One combination of axis values being measured. Made by gb_plan_point,
 * released with gb_point_release. */
struct gb_point {
    const struct gb_bench *bench;
    struct gb_gpu *gpu;
    int quick;                   /* --quick: smaller problem where it matters */
    int n_axes;
    const char *axis_name[GB_MAX_AXES];
    const char *axis_str[GB_MAX_AXES];
    long axis_int[GB_MAX_AXES];
    /* Set by setup: */
    double bytes;                /* bytes moved per launch (reads + writes) */
    double flops;                /* operations per launch */
    int no_graph;                /* launch cannot be captured in a CUDA graph */
    void *state;                 /* the benchmark's own buffers */
    CUmodule module;             /* the bench's kernel compiled with kernel_opts */
    /* Set by setup or verify through gb_point_metric: extra values recorded
     * with the point, as many as it records (heap, grown as needed). */
    int n_metrics;
    int cap_metrics;
    struct gb_point_value *metrics;
    /* The state the bench's share_setup made for this point's share_by
     * values, reused by consecutive points (NULL for benches without one). */
    void *shared;
};

/* Integer / string value of an axis of the point (0 / "" if absent). */
GB_API long gb_point_int(const struct gb_point *p, const char *axis);
GB_API const char *gb_point_str(const struct gb_point *p, const char *axis);

/* Records an extra value with the point, or replaces the value of that
 * name. The metrics grow as needed: nothing is dropped. GB_ERR_USAGE for an
 * empty name or one a record cannot hold (31 characters at most),
 * GB_ERR_NOMEM when the host is out of memory; the point is then unchanged. */
GB_API enum gb_status gb_point_metric(struct gb_point *p, const char *name, double value);

/* Frees the point's metrics; the axis values belong to the plan item and
 * are left alone. Safe on a point that recorded nothing. */
GB_API void gb_point_release(struct gb_point *p);

#define GB_OPT_LEN 64
/* Name expressions a bench's kernel_program may give, at most. */
#define GB_BENCH_MAX_EXPRS 8

/* How a benchmark's points are sampled where it differs from the harness's
 * defaults (struct gb_measure_opts); a zero field keeps the default. Meant
 * for sweeps of many short points. --ci and --max-time given on the
 * command line still win over rel_ci and max_time_s. */
struct gb_sample_policy {
    double rel_ci;           /* stopping rule: CI half-width / median */
    double max_time_s;       /* time cap per point for sampling */
    int min_samples;
    int max_samples;
    int warmup_launches;     /* at least this many warm-up launches (default 3) */
    double warmup_s;         /* and at least this long (default and least 100 ms) */
    double chunk_s;          /* samples enqueued per host synchronisation, in time (10 ms) */
    double batch_target_ns;  /* a graph-batched sample lasts about this long */
};

/* One benchmark. Write rows with designated initializers; a field left out
 * is zero, which always means "none" or "the default". Every callback gets
 * the row's `ctx` as its second argument. */
struct gb_bench {
    const char *name;
    const char *help;
    /* The kernel the harness compiles for each point before setup, named
     * either by an embedded source file (kernel_file, e.g. "bandwidth.cu")
     * or by source text (kernel_source, called kernel_name in messages and
     * the compile cache); both NULL: the bench compiles nothing.
     * kernel_opts gives the NVRTC options (-D defines) of a point into
     * `opts` (at most `max`) and returns how many; it must not need a GPU
     * (p->gpu may be NULL): the nvrtc test tier calls it for every planned
     * point. NULL: no options. */
    const char *kernel_file;
    const char *kernel_source;
    const char *kernel_name;
    int (*kernel_opts)(const struct gb_point *p, void *ctx, char opts[][GB_OPT_LEN], int max);
    /* Source-text benches that need more than the text (a kernel spec
     * file): fills *prog for a compile with `opts` (what kernel_opts gave):
     * the headers the source may #include, and the C++ name expressions to
     * lower, written into `exprs` (at most `max`). Must not need a GPU and
     * be thread-safe. gb_bench_module then compiles with
     * gb_gpu_module_program. NULL: the text alone. */
    enum gb_status (*kernel_program)(void *ctx, const char *const *opts, int n_opts,
                                     struct gb_nvrtc_program *prog, char exprs[][GB_KERNEL_NAME_LEN],
                                     int max);
    const struct gb_axis_def *axes;
    int n_axes;
    enum gb_cache_mode cache;    /* the question this benchmark asks by default */
    /* Allocates buffers, fills inputs with fresh non-zero data, compiles.
     * Return GB_ERR_UNSUPPORTED (with a message) to skip the point. */
    enum gb_status (*setup)(struct gb_point *p, void *ctx);
    /* Poisons the outputs before the verification run (NULL: nothing). */
    enum gb_status (*poison)(struct gb_point *p, void *ctx);
    /* The timed work: enqueue on p->gpu->stream, do not synchronize. */
    enum gb_status (*launch)(struct gb_point *p, void *ctx);
    /* Checks the outputs of one launch after poison. Returns GB_ERR_VERIFY
     * with what was wrong (first bad index, expected, got). */
    enum gb_status (*verify)(struct gb_point *p, void *ctx);
    /* 1 when any number of launches after poison leaves what one leaves
     * (every launch writes the same outputs from inputs it never changes):
     * the harness then poisons, takes the samples and checks the outputs of
     * the last timed launch, instead of a verification launch of its own;
     * a point that fails is recorded as failed and its samples dropped. */
    int verify_last;
    /* Frees what setup took; must cope with a partial setup. */
    void (*teardown)(struct gb_point *p, void *ctx);
    /* Sampling that differs from the harness's defaults (all zero: none). */
    struct gb_sample_policy sampling;
    double timeout_s;            /* per-point limit in seconds on every wait for the GPU (0: 10 s) */
    /* State shared by consecutive points: share_by is a comma list of axis
     * names; points of this bench measured one after another whose values
     * of those axes are equal get the same p->shared, made once by
     * share_setup (big buffers, inputs, a host reference) and freed by
     * share_teardown when the values change, another bench comes, or the
     * caller releases the harness's share (gb_measure_share_release).
     * share_setup must leave nothing allocated when it fails, and what it
     * makes must stay valid for every point that reuses it (no point may
     * change the shared inputs in a way the next point's check would
     * notice). NULL share_setup: nothing shared. */
    const char *share_by;
    enum gb_status (*share_setup)(struct gb_point *p, void *ctx, void **shared);
    void (*share_teardown)(struct gb_gpu *g, void *ctx, void *shared);
    /* Which combinations of axis values are points at all (e.g. a block of
     * rows x cols threads must fit the hardware's limit): returns 1 to keep
     * the point, 0 to leave it out of the plan with the reason in `why`
     * (`n` bytes). Called without a GPU (p->gpu is NULL). A bench whose every
     * combination is left out is a usage error carrying the first reason.
     * NULL: every combination is a point. */
    int (*admit)(const struct gb_point *p, void *ctx, char *why, size_t n);
    /* The bench's own data, handed to every callback above (NULL for the
     * built-in suites; a spec-file bench's parsed spec). Owned by whoever
     * owns the row: for a registered heap suite, its release function. */
    void *ctx;
};

/* The kernel source of bench `b`: *name (for messages and the cache key)
 * and *source (NUL-terminated text), both NULL when the bench compiles
 * nothing. GB_ERR_USAGE when kernel_file names no embedded source. The
 * strings belong to the row or to the binary. */
GB_API enum gb_status gb_bench_kernel(const struct gb_bench *b, const char **name, const char **source);

/* Compiles (or loads from the caches) the kernel of bench `b` with `opts`
 * for g's device: gb_gpu_module_source on gb_bench_kernel's text. *out is
 * NULL when the bench compiles nothing. */
GB_API enum gb_status gb_bench_module(struct gb_gpu *g, const struct gb_bench *b, const char *const *opts,
                               int n_opts, CUmodule *out);

/* The PTX of bench `b`'s kernel at the point `axes` (n_axes name=value
 * pairs, as a record keeps them), compiled by NVRTC for the virtual
 * architecture of `arch` with the options kernel_opts gives there (no GPU
 * needed): *ptx malloc'ed; `entry` (when not NULL) the lowered name of the
 * kernel's first name expression, "" for a bench without one. */
GB_API enum gb_status gb_bench_ptx(const struct gb_bench *b, const struct gb_kv *axes, int n_axes, const char *arch,
                                   char **ptx, char *entry, size_t n_entry);

struct gb_suite {
    const char *name;
    const char *help;
    const struct gb_bench *benches;
    int n_benches;
    const struct gb_chart_spec *charts;   /* the charts it declares (chart_spec.h) */
    int n_charts;
    const struct gb_findings_rule *findings; /* how its findings compare its benches; NULL: the default */
};

/* ---- the registry ----
 * Built at run time and not thread-safe: register suites before measuring,
 * from one thread. The built-in suites are registered by the first call of
 * any function below (gb_suites_builtin_register). */

/* The registered suites in registration order (built-in ones first); *n is
 * set to their count. The array is valid until the next registration or
 * gb_suites_release. */
GB_API const struct gb_suite *const *gb_suites(int *n);

/* The registered suite named `name`, or NULL. */
GB_API const struct gb_suite *gb_suite_find(const char *name);

/* The bench of `s` named `name`, or NULL. */
GB_API const struct gb_bench *gb_bench_find(const struct gb_suite *s, const char *name);

/* Registers the built-in suites (once; later calls do nothing). Called by
 * the functions above; call it directly only to see its status. */
GB_API enum gb_status gb_suites_builtin_register(void);

/* Registers a suite whose storage outlives the registry (a static table):
 * the registry keeps the pointer and never frees it. GB_ERR_USAGE when a
 * suite of that name is registered already, GB_ERR_NOMEM. */
GB_API enum gb_status gb_suite_add(const struct gb_suite *s);

/* Registers a suite made at run time (heap-allocated, e.g. from a kernel
 * spec file). On GB_OK the registry owns `s`: gb_suites_release calls
 * release(s), which frees the suite, its benches and everything they point
 * to (their ctx included); NULL release: nothing is freed. On failure
 * (GB_ERR_USAGE: no name, or a suite of that name is registered already;
 * GB_ERR_NOMEM) the caller still owns `s`. */
GB_API enum gb_status gb_suite_register(struct gb_suite *s, void (*release)(struct gb_suite *s));

/* Releases every registered heap suite and empties the registry (the next
 * call registers the built-in suites again). Pointers into released suites
 * (plans, points) must not be used after it. */
GB_API void gb_suites_release(void);

/* Expands an axis value list ("4,8,16", "1:64", "1K:1G:*2") into `out`
 * (malloc'ed strings, caller frees each and the array). Checks integers
 * against the axis range and strings against its choices; GB_ERR_USAGE with
 * the axis, the bad value and what is allowed. */
GB_API enum gb_status gb_axis_expand(const struct gb_axis_def *a, const char *list, char ***out,
                              int *n);

/* Parses one integer axis value with an optional size suffix: K, M, G or KiB,
 * MiB, GiB (any case), all binary: 1K = 1KiB = 1024. GB_ERR_USAGE otherwise. */
GB_API enum gb_status gb_axis_parse_int(const char *s, long *out);

/* Whether one recorded value lies in axis `a`'s domain (its range and
 * choices). GB_OK, or GB_ERR_USAGE with the domain ("an integer from 1 to
 * 16", "one of hot,cold") as the message. */
GB_API enum gb_status gb_axis_check_value(const struct gb_axis_def *a, const char *value);

#endif
