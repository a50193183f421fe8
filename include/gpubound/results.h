/* results.h - run directories: what a measured point leaves, and the
 * metadata that says where and how it was measured.
 *
 * A run directory holds
 *   run.json      the run's metadata (struct gb_run_info), rewritten
 *                 atomically when the run ends;
 *   results.json  a JSON array of records, one record per line, appended and
 *                 flushed as each point completes;
 *   results.csv   the same records as a tidy table, one row per point.
 * A run killed at any moment keeps every completed point: the loader reads a
 * results.json whose closing bracket or last line is missing and says so in
 * gb_run.truncated.
 */
#ifndef GPUBOUND_RESULTS_H
#define GPUBOUND_RESULTS_H

#include "gpubound/api.h"

#include <stddef.h>
#include <stdio.h>

#include "gpubound/counters.h"
#include "gpubound/device.h"
#include "gpubound/status.h"

/* Bounds of a point while it is measured (struct gb_point, plans): not of
 * records, whose axes and metrics grow as needed (struct gb_record). */
#define GB_MAX_AXES 12
#define GB_MAX_METRICS 24

enum gb_record_status {
    GB_REC_OK = 0,       /* measured and verified */
    GB_REC_FAILED,       /* output failed verification: not timed */
    GB_REC_SKIPPED,      /* not run on this device (reason says why) */
    GB_REC_ERROR,        /* a driver or compile error stopped the point */
};

enum gb_cache_mode {
    GB_CACHE_HOT = 0,    /* back-to-back samples, caches warm */
    GB_CACHE_COLD,       /* L2 flushed before each sample */
};

struct gb_kv {
    char name[32];
    char value[48];      /* axis values are kept as the user wrote them */
};

struct gb_metric {
    char name[32];       /* with its unit in the name: "occupancy", "regs" */
    double value;
};

/* Where a point's or a run's wall time went, in seconds. The parts are
 * taken on the host's clock around each step; timed kernel work is the
 * record's (or run's) timed_s, inside `sampling_s`; `flush_s` is the GPU
 * time of the cold mode's L2 flushes (CUPTI clock only; 0 otherwise). */
struct gb_wall_parts {
    double start_s;              /* once a process: the GPU's start (driver, context, utility kernels), opening the profiler clock */
    double compile_s;            /* NVRTC, or loading the cubin from the disk cache */
    double setup_s;              /* buffers, fresh inputs, shared state */
    double verify_s;             /* the poisoned launch and its check */
    double warmup_s;             /* warm-up launches and graph capture */
    double sampling_s;           /* the timed samples, with what lies between them */
    double flush_s;              /* cold mode: the L2 flushes' GPU time */
    double teardown_s;           /* freeing what set-up took */
};

/* Adds every part of `b` to `a`. */
GB_API void gb_wall_parts_add(struct gb_wall_parts *a, const struct gb_wall_parts *b);

/* The statistics of a point's timed samples, per launch in ns (results.json's
 * time_ns and batch_time_ns objects, under these names). GB_TIME_STATS(X)
 * lists them in their order of writing. */
#define GB_TIME_STATS(X) X(min) X(median) X(mean) X(stddev) X(ci_lo) X(ci_hi)
struct gb_time_stats {
    double min, median, mean, stddev;
    double ci_lo, ci_hi;         /* 95% confidence interval of the median */
};

/* Sets every statistic of `t` to NAN (a point not timed, or not batched). */
GB_API void gb_time_stats_clear(struct gb_time_stats *t);

/* The fields of a record that results.json and results.csv carry: one row
 * each, in the order they are written (src/results/schema.h reads the
 * table; docs/results-format.md describes the fields).
 *
 *   X(member, ctype, dim, key, kind, check, opt, csv)
 *
 * member  the struct gb_record member, declared from the row as `ctype
 *         member dim` (rows of kind CUSTOM declare none: their members are
 *         written out in struct gb_record below)
 * key     its JSON key, and its CSV column
 * kind    STR (a char array), INT, BOOL (an int written true/false), REAL
 *         (a double, null when not finite), ENUM (an enum written by name),
 *         TIMES (struct gb_time_stats: an object of six numbers, six CSV
 *         columns named <prefix><stat>_ns), CUSTOM (a handler of its own)
 * check   what loading accepts: a GB_RANGE_* of src/results/validate.h
 *         (INT, BOOL, REAL, TIMES), the names of an ENUM, the handler of a
 *         CUSTOM field; 0 for STR (at most the member's size)
 * opt     REQUIRED (a record without it is refused), OPTIONAL (always
 *         written; absent on loading reads as 0, NAN or ""), NULLABLE
 *         (written null when empty; null loads as empty), OMIT (left out
 *         when empty, 0 or NULL), BATCHED (null unless batch > 1)
 * csv     its place among the CSV columns: 0 none; 1-9 before the axis
 *         columns, 10-99 before the metric columns, 100 and on after them
 *         (a new column takes the next number at the end, so that the
 *         columns before it keep their places)
 *
 * A new field is one row here and its use (what fills it). */
#define GB_RECORD_FIELDS(X)                                                                        \
    X(suite, char, [32], "suite", STR, 0, REQUIRED, 1)                                            \
    X(bench, char, [64], "bench", STR, 0, REQUIRED, 2)                                            \
    /* axes: a column each, after bench (n_axes, cap_axes, axes below) */                         \
    X(axes, , , "axes", CUSTOM, gb_field_axes, OPTIONAL, 0)                                       \
    X(status, enum gb_record_status, , "status", ENUM, gb_record_status_names, REQUIRED, 10)      \
    /* why failed/skipped/error; "" when ok */                                                    \
    X(reason, char, [256], "reason", STR, 0, OPTIONAL, 11)                                        \
    X(cache, enum gb_cache_mode, , "cache", ENUM, gb_cache_mode_names, OPTIONAL, 12)              \
    /* timed samples taken */                                                                     \
    X(samples, int, , "samples", INT, GB_RANGE_SAMPLES, OPTIONAL, 13)                             \
    /* 1 if the stopping rule held */                                                             \
    X(converged, int, , "converged", BOOL, GB_RANGE_FLAG, OPTIONAL, 14)                           \
    /* launches per timed sample (graph when > 1) */                                              \
    X(batch, int, , "batch", INT, GB_RANGE_BATCH, OPTIONAL, 15)                                   \
    /* where the times came from: the clock (gb_timer_source: "events", "events-graph",           \
     * "cupti", "profiler"); "" when the point was not timed */                                   \
    X(time_source, char, [24], "time_source", STR, 0, NULLABLE, 100)                              \
    /* cold samples: how the L2 was emptied ("read"); "" when hot */                              \
    X(cold_flush, char, [16], "cold_flush", STR, 0, OMIT, 102)                                    \
    /* the GPU's idle time right before each sample's launch (--isolate); 0: none */              \
    X(isolate_s, double, , "isolate_s", REAL, GB_RANGE_SECONDS, OMIT, 0)                          \
    /* the statistics of the samples; NAN when the point was not timed */                         \
    X(time_ns, struct gb_time_stats, , "time_ns", TIMES, GB_RANGE_TIME_NS, OPTIONAL, 16)          \
    /* the batch time per launch (a graph of `batch` back-to-back launches, divided by            \
     * batch), apart from the kernel's own time: NAN when the point was not batched */            \
    X(batch_time_ns, struct gb_time_stats, , "batch_time_ns", TIMES, GB_RANGE_TIME_NS, BATCHED, 101) \
    /* bytes moved per launch (reads + writes) */                                                 \
    X(bytes, double, , "bytes", REAL, GB_RANGE_BYTES, OPTIONAL, 17)                               \
    /* operations per launch */                                                                   \
    X(flops, double, , "flops", REAL, GB_RANGE_FLOPS, OPTIONAL, 18)                               \
    /* bytes / median time, 1e9 bytes per s */                                                    \
    X(bw_gbs, double, , "bw_gbs", REAL, GB_RANGE_GBS, OPTIONAL, 19)                               \
    /* flops / median time */                                                                     \
    X(gflops, double, , "gflops", REAL, GB_RANGE_GFLOPS, OPTIONAL, 20)                            \
    /* the SM clock before and after the point; 0 when not readable */                            \
    X(sm_mhz_before, double, , "sm_mhz_before", REAL, GB_RANGE_MHZ, OPTIONAL, 21)                 \
    X(sm_mhz_after, double, , "sm_mhz_after", REAL, GB_RANGE_MHZ, OPTIONAL, 22)                   \
    /* 1 if the SM clock dropped during the point */                                              \
    X(throttled, int, , "throttled", BOOL, GB_RANGE_FLAG, OPTIONAL, 23)                           \
    /* wall time spent on the point, set-up included */                                           \
    X(wall_s, double, , "wall_s", REAL, GB_RANGE_SECONDS, OPTIONAL, 24)                           \
    /* time inside timed kernel work */                                                           \
    X(timed_s, double, , "timed_s", REAL, GB_RANGE_SECONDS, OPTIONAL, 25)                         \
    /* metrics: a column each, before the tail columns (n_metrics ... below) */                   \
    X(metrics, , , "metrics", CUSTOM, gb_field_metrics, OPTIONAL, 0)                              \
    X(compile_log, , , "compile_log", CUSTOM, gb_field_compile_log, OMIT, 0)                      \
    X(counters, , , "counters", CUSTOM, gb_field_counters, OMIT, 0)                               \
    X(fleet, , , "fleet", CUSTOM, gb_field_fleet, OMIT, 0)                                        \
    /* the samples close the record's line (written as text: src/results/samples.c) */            \
    X(sample_ns, , , "sample_ns", CUSTOM, gb_field_samples, OMIT, 0)

/* A row's member declaration: `ctype member dim;`, none for CUSTOM rows. */
#define GB_RECORD_MEMBER(m, ct, dm, k, kd, ck, op, cv) GB_RECORD_MEMBER_##kd(ct, m, dm)
#define GB_RECORD_MEMBER_DECL(ctype, member, dim) ctype member dim;
#define GB_RECORD_MEMBER_STR GB_RECORD_MEMBER_DECL
#define GB_RECORD_MEMBER_INT GB_RECORD_MEMBER_DECL
#define GB_RECORD_MEMBER_BOOL GB_RECORD_MEMBER_DECL
#define GB_RECORD_MEMBER_REAL GB_RECORD_MEMBER_DECL
#define GB_RECORD_MEMBER_ENUM GB_RECORD_MEMBER_DECL
#define GB_RECORD_MEMBER_TIMES GB_RECORD_MEMBER_DECL
#define GB_RECORD_MEMBER_CUSTOM(ctype, member, dim)

/* What one measured point leaves. Times are per launch of the benchmark's
 * work, in nanoseconds; bytes and flops are per launch too. The fields the
 * files carry are the rows of GB_RECORD_FIELDS, above; the members of its
 * CUSTOM rows, and what is not written, follow them.
 *
 * Axes and metrics grow as needed: they are heap arrays the record owns, so
 * a record read from a file or filled by a suite keeps every value, however
 * many there are (a fixed bound dropped those beyond it, and a generous one
 * would make every record of a run of thousands several kilobytes). Names
 * and values keep their fixed sizes above; one too long is an error, never
 * cut. Ownership:
 *   - start from a zeroed record (memset, `= {0}`): no axes, no metrics;
 *   - add values with gb_record_set_axis / gb_record_set_metric only;
 *   - gb_record_release frees the arrays and leaves the record zeroed;
 *     gb_record_copy makes an independent copy;
 *   - a plain struct assignment moves the arrays: release one of the two
 *     copies only. Lowering n_axes or n_metrics forgets the last values and
 *     keeps the storage. */
struct gb_record {
    GB_RECORD_FIELDS(GB_RECORD_MEMBER)
    int n_axes;
    int cap_axes;                /* entries allocated in axes */
    struct gb_kv *axes;          /* n_axes entries; NULL when none */
    /* The individual samples, per launch in ns, in the order taken: what
     * time_ns summarises (one value per kernel with the CUPTI clock, one per
     * graph launch divided by batch with events-graph). Owned like axes
     * (released and copied with the record); NULL and 0 when none were kept. */
    double *sample_ns;
    int n_sample_ns;
    struct gb_wall_parts parts;  /* where wall_s went (summed into run.json; not in records) */
    int n_metrics;
    int cap_metrics;             /* entries allocated in metrics */
    struct gb_metric *metrics;   /* n_metrics suite-specific extras; NULL when none */
    /* NVRTC's log when the point's kernel failed to compile (heap, owned
     * like axes and metrics; at most GB_COMPILE_LOG_MAX bytes); NULL otherwise. */
    char *compile_log;
    /* Hardware counters of one profiled launch (run --counters), by
     * Nsight Compute metric name; empty when the point was not profiled.
     * Owned like axes and metrics; read them with gb_record_counter. */
    struct gb_counters counters;
    /* Fleet runs (run --fleet, --all-devices; docs/fleet.md): which rank
     * measured the point, on which host and GPU. fleet = 0 in other runs,
     * and the three fields below are then unset and not written. */
    int fleet;
    int fleet_rank;              /* MPI rank, or the device's place in --all-devices */
    char fleet_host[128];
    char gpu_uuid[48];           /* "GPU-xxxxxxxx-...", as in run.json's device */
};

/* The longest compile log a record keeps (a longer one is cut, marked so). */
#define GB_COMPILE_LOG_MAX 16384

/* The SHA-256 of a file a run compiled or read: its name in run.json's
 * "sha256" (the rows spec_sha256 and kernel_sha256 below say which) and its
 * digest, 64 lowercase hex digits. */
#define GB_RUN_MAX_HASHES 64
struct gb_file_hash {
    char name[128];
    char sha256[65];
};

/* The digests of a kind of file, in the order they were added. */
struct gb_file_hashes {
    int n;
    struct gb_file_hash h[GB_RUN_MAX_HASHES];
};

/* Adds the digest of `name` to `l`, or replaces it. GB_ERR_USAGE naming
 * the file when the name is too long (127 bytes at most), the digest is not
 * 64 lowercase hex digits or the list is full. */
GB_API enum gb_status gb_file_hashes_set(struct gb_file_hashes *l, const char *name, const char *sha256);

/* The digest of `name` in `l`, or NULL. */
GB_API const char *gb_file_hashes_get(const struct gb_file_hashes *l, const char *name);

/* The fields of run.json: one row each, in the order they are written
 * (src/results/schema.h reads the table; docs/results-format.md describes
 * the fields; docs/schema/run.schema.json gives their ranges).
 *
 *   X(member, ctype, dim, parent, key, kind, check, opt)
 *
 * member  the struct gb_run_info member, declared from the row as `ctype
 *         member dim` (kinds STR, INT, BOOL, REAL, HASHES); a PART row names a
 *         member of struct gb_wall_parts (gb_run_info.parts); rows of
 *         kinds CONST, DERIVED and CUSTOM declare none (the member column
 *         only names them)
 * parent  the object of run.json the key is in: "" the document itself,
 *         else the name of an object under it ("tool", "cuda", ...),
 *         made where its first row is written. A parent with a REQUIRED
 *         row is required; another one may be absent (its rows then read
 *         as absent)
 * key     its JSON key in the parent
 * kind    STR (a char array), INT, BOOL (an int written true/false), REAL
 *         (a double, null when not finite), PART (a REAL of parts), HASHES
 *         (struct gb_file_hashes: an object of digests by name), CONST
 *         (the text `check`, written; loading takes it or its absence and
 *         refuses another value, a file this build cannot read), DERIVED
 *         (the number `check`(info) returns, written, not read), CUSTOM (a handler of
 *         its own, `check`: struct gb_run_field_io of src/results/schema.h)
 * check   what loading accepts: a GB_RANGE_* of src/results/validate.h
 *         (INT, BOOL, REAL, PART); 0 for STR (at most the member's size)
 * opt     REQUIRED (a run.json without it is refused), OPTIONAL (always
 *         written; absent on loading reads as 0, NAN or ""), OMIT (left out
 *         when empty; absent is empty), ADDED (always written; absent, as
 *         in runs recorded before it, reads as 0)
 *
 * A new field is one row here and its use (what fills it). */
#define GB_RUN_INFO_FIELDS(X)                                                                      \
    X(format, , , "", "format", CONST, "gpubound-run/1", OPTIONAL)                                \
    X(tool_name, , , "tool", "name", CONST, "gpubound", OPTIONAL)                                 \
    X(tool_version, char, [32], "tool", "version", STR, 0, REQUIRED)                              \
    X(git_revision, char, [48], "tool", "git_revision", STR, 0, OPTIONAL)                         \
    X(command_line, char, [1024], "", "command_line", STR, 0, OPTIONAL)                           \
    /* ISO 8601, "2026-11-21T12:00:00Z"; finished: "" while running or when killed */            \
    X(started_utc, char, [32], "", "started_utc", STR, 0, REQUIRED)                               \
    X(finished_utc, char, [32], "", "finished_utc", STR, 0, OPTIONAL)                             \
    X(host, char, [128], "", "host", STR, 0, OPTIONAL)                                            \
    /* "13.0"; the toolkit: the headers the tool was built with */                                \
    X(cuda_driver, char, [32], "cuda", "driver_api", STR, 0, OPTIONAL)                            \
    /* "580.159.04" from NVML, "" if unknown */                                                   \
    X(driver_release, char, [32], "cuda", "driver_release", STR, 0, OPTIONAL)                     \
    X(cuda_toolkit, char, [32], "cuda", "toolkit", STR, 0, OPTIONAL)                              \
    X(nvrtc, char, [32], "cuda", "nvrtc", STR, 0, OPTIONAL)                                       \
    /* what built the kernels: "nvrtc 13.0" or "nvcc 13.0.88" (run --compiler) */                \
    X(compiler, char, [48], "cuda", "compiler", STR, 0, OMIT)                                     \
    /* "full" or "quick" */                                                                       \
    X(mode, char, [16], "", "mode", STR, 0, OPTIONAL)                                             \
    /* the kernel spec file(s) run, as given ("" when none) */                                    \
    X(spec, char, [1024], "", "spec", STR, 0, OMIT)                                               \
    /* SHA-256 of what the run compiled and read: every kernel spec file, its sources and its     \
     * init and reference files, by "<suite>/<path inside the spec's directory>" (the spec        \
     * copy's path under DIR/spec/); each spec without what only models read (its "lpbm"        \
     * hints), by the spec file's name (gb_spec_measured_hash); the embedded kernel sources,    \
     * by file name */                                                                            \
    X(spec_sha256, struct gb_file_hashes, , "sha256", "spec", HASHES, 0, OMIT)                    \
    X(spec_measured_sha256, struct gb_file_hashes, , "sha256", "spec_measured", HASHES, 0, OMIT)  \
    X(kernel_sha256, struct gb_file_hashes, , "sha256", "kernels", HASHES, 0, OMIT)               \
    /* 1 when the run ended normally */                                                           \
    X(complete, int, , "", "complete", BOOL, GB_RANGE_FLAG, OPTIONAL)                             \
    X(points_ok, int, , "", "points_ok", INT, GB_RANGE_POINTS, OPTIONAL)                          \
    X(points_failed, int, , "", "points_failed", INT, GB_RANGE_POINTS, OPTIONAL)                  \
    /* times the run went on in a fresh process after a kernel fault */                           \
    X(restarts_after_fault, int, , "", "restarts_after_fault", INT, GB_RANGE_POINTS, OPTIONAL)    \
    /* the whole run, over every process it took; the sum of timed kernel work */                 \
    X(wall_s, double, , "", "wall_s", REAL, GB_RANGE_SECONDS, OPTIONAL)                           \
    X(timed_s, double, , "", "timed_s", REAL, GB_RANGE_SECONDS, OPTIONAL)                         \
    X(timed_share, , , "", "timed_share", DERIVED, gb_run_info_timed_share, OPTIONAL)             \
    /* where wall_s went: the points' parts, summed (struct gb_wall_parts) */                     \
    X(start_s, , , "wall_parts", "start_s", PART, GB_RANGE_SECONDS, ADDED)                        \
    X(compile_s, , , "wall_parts", "compile_s", PART, GB_RANGE_SECONDS, OPTIONAL)                 \
    X(setup_s, , , "wall_parts", "setup_s", PART, GB_RANGE_SECONDS, OPTIONAL)                     \
    X(verify_s, , , "wall_parts", "verify_s", PART, GB_RANGE_SECONDS, OPTIONAL)                   \
    X(warmup_s, , , "wall_parts", "warmup_s", PART, GB_RANGE_SECONDS, OPTIONAL)                   \
    X(sampling_s, , , "wall_parts", "sampling_s", PART, GB_RANGE_SECONDS, OPTIONAL)               \
    X(parts_timed_s, , , "wall_parts", "timed_s", DERIVED, gb_run_info_timed_s, OPTIONAL)         \
    X(flush_s, , , "wall_parts", "flush_s", PART, GB_RANGE_SECONDS, OPTIONAL)                     \
    X(teardown_s, , , "wall_parts", "teardown_s", PART, GB_RANGE_SECONDS, OPTIONAL)               \
    /* writing records, run.json and the report */                                                \
    X(write_s, double, , "wall_parts", "write_s", REAL, GB_RANGE_SECONDS, OPTIONAL)               \
    X(other_s, , , "wall_parts", "other_s", DERIVED, gb_run_info_other_s, OPTIONAL)               \
    /* NVRTC compilations during the run; modules loaded from the on-disk cache */                \
    X(modules_compiled, int, , "modules", "compiled", INT, GB_RANGE_MODULES, OPTIONAL)            \
    X(modules_cached, int, , "modules", "from_disk_cache", INT, GB_RANGE_MODULES, OPTIONAL)       \
    /* CPU seconds NVRTC took, over every thread */                                               \
    X(compile_cpu_s, double, , "modules", "compile_cpu_s", REAL, GB_RANGE_SECONDS, OPTIONAL)      \
    /* how long the GPU thread waited for a module being compiled */                              \
    X(compile_wait_s, double, , "modules", "gpu_wait_s", REAL, GB_RANGE_SECONDS, OPTIONAL)        \
    /* host threads compiling ahead of the GPU (0: none) */                                       \
    X(compile_threads, int, , "modules", "compile_threads", INT, GB_RANGE_MODULES, OPTIONAL)      \
    /* why the run stopped early ("" when complete or not known) */                               \
    /* Kernel spec problems kept on the device (inputs and references): the                       \
     * budget (half the device memory free when the first spec point ran),                         \
     * how many problems were made and evicted, in the run's last process;                          \
     * left out when no spec point ran. */                                                           \
    X(spec_budget_bytes, double, , "spec_data", "budget_bytes", REAL, GB_RANGE_MEM_BYTES, OMIT)   \
    X(spec_problems, int, , "spec_data", "problems_made", INT, GB_RANGE_POINTS, OMIT)             \
    X(spec_evictions, int, , "spec_data", "problems_evicted", INT, GB_RANGE_POINTS, OMIT)         \
    X(incomplete_reason, char, [256], "", "incomplete_reason", STR, 0, OMIT)                      \
    /* has_device and device, below */                                                            \
    X(device, , , "", "device", CUSTOM, gb_run_field_device, OMIT)

/* A row's member declaration: `ctype member dim;`, none for the other kinds. */
#define GB_RUN_MEMBER(m, ct, dm, par, k, kd, ck, op) GB_RUN_MEMBER_##kd(ct, m, dm)
#define GB_RUN_MEMBER_STR GB_RECORD_MEMBER_DECL
#define GB_RUN_MEMBER_INT GB_RECORD_MEMBER_DECL
#define GB_RUN_MEMBER_BOOL GB_RECORD_MEMBER_DECL
#define GB_RUN_MEMBER_REAL GB_RECORD_MEMBER_DECL
#define GB_RUN_MEMBER_HASHES GB_RECORD_MEMBER_DECL
#define GB_RUN_MEMBER_PART(ctype, member, dim)
#define GB_RUN_MEMBER_CONST(ctype, member, dim)
#define GB_RUN_MEMBER_DERIVED(ctype, member, dim)
#define GB_RUN_MEMBER_CUSTOM(ctype, member, dim)

/* Metadata of a run: where, when, with what. The fields run.json carries
 * are the rows of GB_RUN_INFO_FIELDS, above; the members of its PART and
 * CUSTOM rows follow them. */
struct gb_run_info {
    GB_RUN_INFO_FIELDS(GB_RUN_MEMBER)
    struct gb_wall_parts parts;  /* the points' parts, summed */
    int has_device;
    struct gb_device_info device;
};

/* The numbers of run.json's DERIVED rows: timed_s / wall_s (NAN without a
 * wall time), timed_s again (under wall_parts). */
GB_API double gb_run_info_timed_share(const struct gb_run_info *in);
GB_API double gb_run_info_timed_s(const struct gb_run_info *in);

/* The wall time of a run none of its parts names (planning, progress output). */
GB_API double gb_run_info_other_s(const struct gb_run_info *in);

/* A loaded run directory. It owns its records (and their axes and metrics). */
struct gb_run {
    char dir[4096];
    struct gb_run_info info;
    struct gb_record *records;
    size_t n_records;
    int truncated;               /* results.json was cut mid-write */
    char records_file[4200];     /* the records file read (results.json or .gz) */
    /* What the consistency checks found that does not stop the report:
     * one line each (file, field, value), printed by the CLI and written
     * into report.md. At most 20 are kept; n_warnings_total counts all. */
    char **warnings;
    size_t n_warnings, n_warnings_total;
};

/* ---- records ---- */

/* Value of axis `name` in `r`, or NULL. */
GB_API const char *gb_record_axis(const struct gb_record *r, const char *name);

/* Numeric value of axis `name`; returns `fallback` when absent or not a number. */
GB_API double gb_record_axis_num(const struct gb_record *r, const char *name, double fallback);

/* Adds or replaces an axis value, growing r->axes as needed. GB_ERR_USAGE
 * when the name or value is too long for struct gb_kv; GB_ERR_NOMEM. On
 * error the record is unchanged. */
GB_API enum gb_status gb_record_set_axis(struct gb_record *r, const char *name, const char *value);

/* Adds or replaces a metric, growing r->metrics as needed. GB_ERR_USAGE when
 * the name is too long for struct gb_metric; GB_ERR_NOMEM. On error the
 * record is unchanged. */
GB_API enum gb_status gb_record_set_metric(struct gb_record *r, const char *name, double value);

/* Keeps a copy of `log` as the record's compile_log (replacing any), cut
 * to GB_COMPILE_LOG_MAX bytes; NULL clears it. GB_ERR_NOMEM leaves the
 * record unchanged. */
GB_API enum gb_status gb_record_set_compile_log(struct gb_record *r, const char *log);

/* Frees the record's axes, metrics and compile log and zeroes the whole record, so that
 * it can be filled again. Safe on a zeroed record and on NULL. */
GB_API void gb_record_release(struct gb_record *r);

/* Makes `dst` an independent copy of `src` (its own arrays). `dst` is
 * overwritten, not released first. GB_ERR_NOMEM leaves `dst` zeroed. */
GB_API enum gb_status gb_record_copy(struct gb_record *dst, const struct gb_record *src);

/* Value of metric `name`, or `fallback`. */
GB_API double gb_record_metric(const struct gb_record *r, const char *name, double fallback);

GB_API const char *gb_record_status_name(enum gb_record_status st);

/* ---- a record's hardware counters (src/results/counters.c) ---- */

/* 1 when the point was profiled (run --counters) and has counters. */
GB_API int gb_record_has_counters(const struct gb_record *r);

/* The identity of a record's point as one string (malloc'ed; NULL when
 * out of memory): its suite and bench (or `bench_as` in their place, for
 * benches compared under one name), cache mode and axes sorted by name,
 * joined by bytes that names cannot hold. Equal points give equal keys. */
GB_API char *gb_record_point_key(const struct gb_record *r, const char *bench_as);

/* The value of counter `name` (an Nsight Compute metric name such as
 * "dram__sectors_read.sum"), or `fallback` when absent or unknown. */
GB_API double gb_record_counter(const struct gb_record *r, const char *name, double fallback);

/* The per-instance values of counter `name` (per FBPA, per L2 slice) in
 * *values (owned by the record) and their count; 0 and NULL when the
 * record has none (CUPTI gives rollups: see include/gpubound/counters.h). */
GB_API int gb_record_counter_instances(const struct gb_record *r, const char *name, const double **values);

/* Counts the run's records by status: ok, skipped, and every other
 * (failed verification or an error) as failed. */
GB_API void gb_run_count_status(const struct gb_run *run, size_t *ok, size_t *failed, size_t *skipped);
GB_API const char *gb_cache_mode_name(enum gb_cache_mode m);

/* ---- writing ---- */

struct gb_run_writer;

/* Checks that `dir` can take a new run: it does not exist (it is created,
 * parents too) or is an empty directory, and is writable. Nothing is
 * written but the directory itself. */
GB_API enum gb_status gb_run_dir_prepare(const char *dir);

/* Opens a run directory prepared by gb_run_dir_prepare and writes run.json
 * (complete = 0), an empty results.json array and the CSV header with one
 * column per name in `axes` (the union of the planned points' axes).
 * The writer owns nothing of `info` or `axes` after the call. */
GB_API enum gb_status gb_run_writer_open(const char *dir, const struct gb_run_info *info,
                                  const char *const *axes, int n_axes,
                                  struct gb_run_writer **out);

/* Appends one record to results.json and results.csv and flushes both, so
 * the record survives if the process is killed right after. The writer
 * keeps its own copy of `r` (for the final CSV): the caller still owns `r`
 * and releases it. */
GB_API enum gb_status gb_run_writer_add(struct gb_run_writer *w, const struct gb_record *r);

/* Closes results.json, rewrites results.csv with one column per metric
 * (while the run lasts, metrics share one "metrics" column), and rewrites
 * run.json atomically with `info` (which should now carry finished_utc,
 * complete, counts and times); frees `w`. Safe with w == NULL. */
GB_API enum gb_status gb_run_writer_close(struct gb_run_writer *w, const struct gb_run_info *info);

/* ---- reading ---- */

/* Loads a run directory: run.json and results.json (results.csv is not
 * read). A results.json cut mid-write (its last line ends the file in the
 * middle of a record) loads every complete record and sets truncated; a
 * damaged record anywhere else, or a last line that is complete but not a
 * record, is corruption. Every number is range-checked (src/results/
 * validate.h) and the run is checked for consistency (gb_run_check).
 * Returns GB_ERR_IO when the files cannot be read (a read error is never
 * taken for the end of the file; a records file that is not a regular file
 * is refused), GB_ERR_FORMAT with one line naming the file, the field, the
 * value and the allowed range when they are malformed. Lines are capped at
 * GB_RECORD_LINE_MAX bytes and decompressed records at GB_RECORDS_MAX_BYTES.
 * Free with gb_run_free. */
#define GB_RECORD_LINE_MAX (1 << 20)
#define GB_RECORDS_MAX_BYTES (1UL << 30)
GB_API enum gb_status gb_run_load(const char *dir, struct gb_run **out);
GB_API void gb_run_free(struct gb_run *run);

/* The consistency checks of a loaded run whose records came from `file`
 * (called by gb_run_load). Errors (GB_ERR_FORMAT, one line): a reversed
 * interval (ci_lo > ci_hi), min > median, a zero median with bytes or
 * operations (an infinite rate), the same point twice. Warnings (added to
 * run->warnings): a count of records that differs from run.json's
 * points_ok and points_failed, GB/s or GFLOP/s that do not follow from the
 * median, a median outside its interval. */
GB_API enum gb_status gb_run_check(struct gb_run *run, const char *file);

/* Adds a warning line to run->warnings (printf format), its control bytes
 * escaped ("\n") so that it stays one line. GB_ERR_NOMEM. */
GB_API enum gb_status gb_run_warn(struct gb_run *run, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

/* Whether axis `axis` = `value` of a record of suite/bench lies in the
 * suite's domain: 0 if so or when the suite, bench or axis is not known,
 * else nonzero with the domain in `why`. The CLI supplies it from the
 * suite table, which results/ does not know. */
typedef int (*gb_axis_domain_fn)(void *ctx, const char *suite, const char *bench,
                                 const char *axis, const char *value, char *why, size_t n);

/* Adds a warning for every axis value of the run outside its suite's
 * domain, as `fn` judges. GB_ERR_NOMEM. */
GB_API enum gb_status gb_run_check_axes(struct gb_run *run, gb_axis_domain_fn fn, void *ctx);

/* ---- JSON/CSV of single items, shared by writers of other outputs ---- */

/* Writes one record as a single-line JSON object (no newline). */
GB_API enum gb_status gb_record_write_json(FILE *f, const struct gb_record *r);

/* Writes run info as a pretty JSON document. */
GB_API enum gb_status gb_run_info_write_json(FILE *f, const struct gb_run_info *info);

/* Writes `n` records as CSV: a header, then one row per record, with one
 * column per name in `axes` and one per distinct metric (every one of them:
 * there is no bound). GB_ERR_NOMEM, GB_ERR_IO. */
GB_API enum gb_status gb_records_write_csv(FILE *f, const struct gb_record *recs, size_t n,
                                    const char *const *axes, int n_axes);

/* Fills the parts of `info` known without a GPU: tool version, git
 * revision, host, UTC start time, the toolkit version the tool was built
 * with, and `nvrtc_version` as the caller found it (gb_nvrtc_version; NULL
 * or "" when unknown), so that this module needs no GPU code. */
GB_API void gb_run_info_init(struct gb_run_info *info, const char *command_line,
                      const char *nvrtc_version);

/* The current UTC time as ISO 8601 ("2026-11-21T12:00:00Z"). */
GB_API void gb_utc_now(char *buf, size_t n);

#endif
