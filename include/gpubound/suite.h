/* suite.h - how benchmarks are declared.
 *
 * A suite is a static table of benchmarks; a benchmark is a row: its name,
 * axes (as data), and callbacks. The harness (measure.h) expands the axes
 * into points, calls setup, verifies one poisoned run, times `launch`, and
 * calls teardown. A suite never formats output and never times anything.
 */
#ifndef GPUBOUND_SUITE_H
#define GPUBOUND_SUITE_H

#include <stddef.h>

#include "gpubound/gpu.h"
#include "gpubound/report.h"
#include "gpubound/results.h"
#include "gpubound/status.h"

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

/* One combination of axis values being measured. */
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
    CUmodule module;             /* the bench's kernel_file compiled with kernel_opts */
    /* Set by setup or verify: extra values recorded with the point. */
    int n_metrics;
    struct gb_metric metrics[GB_MAX_METRICS];
    /* The state the bench's share_setup (struct gb_bench_extra) made for
     * this point's share_by values, reused by consecutive points (NULL for
     * benches without one). */
    void *shared;
};

/* Integer / string value of an axis of the point (0 / "" if absent). */
long gb_point_int(const struct gb_point *p, const char *axis);
const char *gb_point_str(const struct gb_point *p, const char *axis);
/* Records an extra value with the point (ignored when full). */
void gb_point_metric(struct gb_point *p, const char *name, double value);

#define GB_OPT_LEN 64

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
    double warmup_s;         /* and at least this long (default 20 ms) */
    double chunk_s;          /* samples enqueued per host synchronisation, in time (10 ms) */
    double batch_target_ns;  /* a graph-batched sample lasts about this long */
};

struct gb_bench {
    const char *name;
    const char *help;
    /* The embedded kernel source the harness compiles for each point before
     * setup (NULL: the bench compiles nothing), and the NVRTC options
     * (-D defines) of a point. kernel_opts must not need a GPU (p->gpu may
     * be NULL): the nvrtc test tier calls it for every planned point. */
    const char *kernel_file;
    int (*kernel_opts)(const struct gb_point *p, char opts[][GB_OPT_LEN], int max);
    const struct gb_axis_def *axes;
    int n_axes;
    enum gb_cache_mode cache;    /* the question this benchmark asks by default */
    /* Allocates buffers, fills inputs with fresh non-zero data, compiles.
     * Return GB_ERR_UNSUPPORTED (with a message) to skip the point. */
    enum gb_status (*setup)(struct gb_point *p);
    /* Poisons the outputs before the verification run. */
    enum gb_status (*poison)(struct gb_point *p);
    /* The timed work: enqueue on p->gpu->stream, do not synchronize. */
    enum gb_status (*launch)(struct gb_point *p);
    /* Checks the outputs of one launch after poison. Returns GB_ERR_VERIFY
     * with what was wrong (first bad index, expected, got). */
    enum gb_status (*verify)(struct gb_point *p);
    /* Frees what setup took; must cope with a partial setup. */
    void (*teardown)(struct gb_point *p);
};

/* What a bench may add to its row, declared apart so that the bench table
 * keeps its layout: a suite lists its extras in a table ending with a zero
 * row, and registry.c lists the tables (gb_bench_extra finds them). */
struct gb_bench_extra {
    const struct gb_bench *bench;
    /* Sampling that differs from the harness's defaults (NULL: none). */
    const struct gb_sample_policy *sampling;
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
    enum gb_status (*share_setup)(struct gb_point *p, void **shared);
    void (*share_teardown)(struct gb_gpu *g, void *shared);
    /* Which combinations of axis values are points at all (e.g. a block of
     * rows x cols threads must fit the hardware's limit): returns 1 to keep
     * the point, 0 to leave it out of the plan with the reason in `why`.
     * Called without a GPU (p->gpu is NULL). A bench whose every
     * combination is left out is a usage error carrying the first reason.
     * NULL: every combination is a point. */
    int (*admit)(const struct gb_point *p, char *why, size_t n);
};

/* The extras of bench `b`, or NULL when it has none (registry.c). */
const struct gb_bench_extra *gb_bench_extra(const struct gb_bench *b);

struct gb_suite {
    const char *name;
    const char *help;
    const struct gb_bench *benches;
    int n_benches;
    const struct gb_chart_spec *charts;
    int n_charts;
};

/* The suite table (registry.c). */
const struct gb_suite *const *gb_suites(int *n);
const struct gb_suite *gb_suite_find(const char *name);
const struct gb_bench *gb_bench_find(const struct gb_suite *s, const char *name);

/* Expands an axis value list ("4,8,16", "1:64", "1K:1G:*2") into `out`
 * (malloc'ed strings, caller frees each and the array). Checks integers
 * against the axis range and strings against its choices; GB_ERR_USAGE with
 * the axis, the bad value and what is allowed. */
enum gb_status gb_axis_expand(const struct gb_axis_def *a, const char *list, char ***out,
                              int *n);

/* Parses one integer axis value with optional K/M/G suffix. */
enum gb_status gb_axis_parse_int(const char *s, long *out);

#endif
