/* roofline.h - the machine's roofs and every point placed under them
 * (src/models/roofline/).
 *
 * A roof is a rate the machine cannot exceed: a memory level's bandwidth
 * (GB/s, 1e9 bytes/s), a pipe's operation rate (GFLOP/s or Gop/s), the rate
 * of an atomic pattern, or the fixed cost of a launch. A ceilings run
 * (`gpubound run ceilings bandwidth/read throughput/arith ...`,
 * docs/suites.md) measures them: a roof's value is the largest rate any of
 * its benches' ok points reached. Without one, the guide figures derived
 * from the device's properties stand in, labelled as such.
 *
 * A point of any run is placed under the roofs: its time cannot be below
 * its bytes at each memory level over that level's roof, nor below its
 * operations over its pipe's roof. The largest of those bounds binds; the
 * attained fraction is that bound over the measured time, and a point
 * whose fraction exceeds 1 is above a roof (flagged, never moved).
 *
 * Pure functions over records: nothing here touches the GPU, prints or exits.
 */
#ifndef GPUBOUND_ROOFLINE_H
#define GPUBOUND_ROOFLINE_H

#include "gpubound/api.h"

#include <stddef.h>

#include "gpubound/device.h"
#include "gpubound/results.h"
#include "gpubound/status.h"

enum gb_roof {
    GB_ROOF_DRAM = 0,            /* memory levels, GB/s */
    GB_ROOF_L2,
    GB_ROOF_L2_WRITE,            /* stores into a working set in the L2 */
    GB_ROOF_SMEM,                /* L1 / shared memory */
    GB_ROOF_FP32,                /* pipes, GFLOP/s (an FMA is 2) */
    GB_ROOF_FP64,
    GB_ROOF_FP16,                /* f16x2 FMA on the FMA pipe */
    GB_ROOF_BF16,
    GB_ROOF_TC_FP16,             /* tensor cores, mma.sync or wgmma, fp32 accumulate */
    GB_ROOF_TC_BF16,
    GB_ROOF_TC_FP8,
    GB_ROOF_INT,                 /* 32-bit IMAD, Gop/s */
    GB_ROOF_MUFU,                /* special functions (MUFU), Gop/s */
    GB_ROOF_ATOM_GLOBAL_ONE,     /* atomics, G atomic ops/s */
    GB_ROOF_ATOM_GLOBAL_FEW,
    GB_ROOF_ATOM_GLOBAL_DISTINCT,
    GB_ROOF_ATOM_SHARED_ONE,
    GB_ROOF_ATOM_SHARED_DISTINCT,
    GB_ROOF_LAUNCH,              /* fixed cost of a launch, ns (smaller is better) */
    GB_ROOF_LAT_L2,              /* a dependent load's round trip that hits L2, ns (smaller is better) */
    GB_ROOF_LAT_DRAM,            /* one that misses L2 and goes to DRAM, ns */
    GB_N_ROOFS
};

enum gb_roof_class { GB_ROOF_MEMORY = 0, GB_ROOF_COMPUTE, GB_ROOF_OTHER };

/* The memory levels of the hierarchical roofline, each with its roof. */
enum gb_roof_level { GB_LEVEL_DRAM = 0, GB_LEVEL_L2, GB_LEVEL_L1, GB_N_LEVELS };

struct gb_roof_info {
    const char *name;            /* "dram", "l2", "fp32", "tc_bf16", ... */
    const char *what;            /* one line for tables */
    const char *unit;            /* "GB/s", "GFLOP/s", "Gop/s", "Gatomic/s", "ns" */
    enum gb_roof_class cls;
    const char *measured_by;     /* the benches that measure it: "ceilings/l2_read,ceilings/l2_write" */
};

/* 1 for the roofs measured in ns, where smaller is better (the launch's
 * fixed cost, the latencies), 0 for the rates. */
GB_API int gb_roof_is_time(int roof);

/* The roof's description (static storage). NULL for an out-of-range id. */
GB_API const struct gb_roof_info *gb_roof_info(int roof);

/* The roof named `name` ("l2", "fp32", ...), or -1. */
GB_API int gb_roof_find(const char *name);

/* The roof of memory level `level`. */
GB_API enum gb_roof gb_roof_of_level(enum gb_roof_level level);

/* The level's name: "DRAM", "L2", "L1/shared". */
GB_API const char *gb_roof_level_name(enum gb_roof_level level);

/* The guide figure of roof `r` on device `d`, in the roof's unit: the
 * device's theoretical memory bandwidth, or a per-SM, per-clock rate (the
 * CUDA C++ Programming Guide's arithmetic-instructions table, shared-memory
 * bandwidth, the tensor cores' dense datasheet rates) times the SM count
 * and the maximum SM clock. 0 when no figure is published for the roof or
 * the compute capability; *source (may be NULL) then names why. */
GB_API double gb_roof_guide(int r, const struct gb_device_info *d, const char **source);

/* Which roof record `r` measures, or -1 for a record of no roof bench
 * (or one not ok). */
GB_API int gb_roof_of_record(const struct gb_record *r);

/* The rate record `r` reached, in its roof's unit (GB/s, GFLOP/s, Gop/s,
 * Gatomic/s; for GB_ROOF_LAUNCH the median time in ns, for the latencies
 * the median time over the record's metric `loads`, ns per load); NAN when it has
 * none. `d` gives the SM count and clock for rates recorded per SM and
 * clock (suite throughput). */
GB_API double gb_roof_record_rate(const struct gb_record *r, const struct gb_device_info *d);

/* The roofs of one machine. */
struct gb_ceilings {
    int measured;                     /* 1: from a ceilings run; 0: guide figures only */
    char run_dir[4096];               /* the ceilings run ("" for guide figures) */
    struct gb_device_info device;
    double value[GB_N_ROOFS];         /* the roof used: measured, else the guide's; NAN none */
    int is_guide[GB_N_ROOFS];         /* 1 when value[] is the guide figure, not a measurement */
    double measured_value[GB_N_ROOFS];/* largest measured rate (NAN: not measured) */
    int points[GB_N_ROOFS];           /* ok records that measured it */
    char best[GB_N_ROOFS][160];       /* the record that set it: "suite/bench axis=v,..." */
    double guide[GB_N_ROOFS];         /* gb_roof_guide (0: none) */
    const char *guide_source[GB_N_ROOFS];
    /* Launch overhead: the least-squares line t(V) = a + V / b over the
     * launch bench's points (V blocks), the linear form of the rate model
     * V / t = V / (a + V / b). NAN when fewer than two points. */
    double launch_a_ns;               /* fixed cost of a launch */
    double launch_b_blocks_per_ns;    /* asymptotic block rate */
    int launch_n;
};

/* The guide figures of device `d` as the roofs (measured = 0). */
GB_API void gb_ceilings_guide(const struct gb_device_info *d, struct gb_ceilings *c);

/* The roofs measured by `run` (every ok record of a roof bench; the largest
 * rate per roof), with the guide figures where the run measured nothing.
 * GB_ERR_FORMAT (with what to record) when the run has no device or no
 * record of any roof bench: not the ceilings run it was given as. */
GB_API enum gb_status gb_ceilings_from_run(const struct gb_run *run, struct gb_ceilings *c);

/* Fits the launch overhead line through n points (blocks v[i], median
 * time t_ns[i]) by ordinary least squares (GSL's gsl_fit_linear). Sets *a_ns
 * and *b (blocks per ns; INFINITY for a flat line) ; GB_ERR_USAGE for
 * fewer than two distinct v. */
GB_API enum gb_status gb_ceilings_fit_launch(const double *v, const double *t_ns, size_t n, double *a_ns,
                                      double *b);

/* ---- points under the roofs ---- */

struct gb_roofline_point {
    char label[160];             /* "suite/bench axis=v,..." */
    double time_ns;              /* the record's median */
    double ops;                  /* operations per launch (the record's flops) */
    int pipe;                    /* compute roof of the operations, -1 none (ops = 0) */
    double bytes[GB_N_LEVELS];   /* per launch; NAN where unknown */
    /* Results of gb_roofline_place: */
    double intensity[GB_N_LEVELS];   /* ops / bytes; NAN where unknown */
    double attainable[GB_N_LEVELS];  /* min(pipe roof, level roof x intensity), ops per ns (G/s) */
    double achieved;             /* ops / time, G/s (0 when ops = 0) */
    double bound_ns;             /* the largest lower bound on the time */
    int binding;                 /* the roof giving bound_ns, -1 none */
    double fraction;             /* bound_ns / time_ns: attained fraction of the binding roof */
    int above;                   /* fraction > 1: faster than a roof allows */
    int partly_in_l2;            /* hot, and faster than its counted DRAM bytes allow: those bytes
                                  * less the L2's capacity stand for DRAM (gb_hot_dram_floor) */
};

/* Places one point: fills intensity, attainable, achieved, bound_ns,
 * binding, fraction and above from the inputs (label .. bytes) and the
 * roofs `c`. A level or pipe whose roof is NAN or not positive bounds
 * nothing. */
GB_API void gb_roofline_place(const struct gb_ceilings *c, struct gb_roofline_point *pt);

struct gb_roofline {
    struct gb_roofline_point *pts;
    size_t n;
    int from_counters;           /* points with hardware counters (the others: DRAM only) */
    int without_counters;
    int skipped;                 /* records not ok or without a time */
    int hot_in_l2;               /* hot points whose data stays in L2 (gb_hot_in_l2): DRAM bytes 0 */
    int partly_in_l2;            /* hot points partly served from L2 (gb_hot_dram_floor) */
    double l2_bytes;             /* the L2's capacity they were judged by */
};

/* Options of gb_roofline_fit_run. */
struct gb_roofline_opts {
    int pipe;                    /* the pipe of every point's operations; -1: from the counters
                                  * (FP64 when its pipe ran more instructions than FMA's), else FP32 */
};

/* The hot-cache rule of the roofline and the breakdown: a run timed with
 * warm caches (samples back to back, hot != 0) whose DRAM traffic, as the
 * counters' replay from an empty L2 recorded it, fits in GB_HOT_L2_FITS of
 * the L2 did not go to DRAM in its timed samples: 1 then, else 0. */
#define GB_HOT_L2_FITS 0.75
GB_API int gb_hot_in_l2(double dram_bytes, int hot, double l2_bytes);

/* The bytes the hot-cache rule weighs against the L2: the DRAM bytes the
 * counter pass saw, but no more than the kernel's buffers hold (their
 * bytes, `footprint`, where known: > 0), since a kernel that reads and
 * writes the same lines, or reads a line again after the flushed pass
 * evicted it, moves more than it keeps. */
GB_API double gb_hot_held_bytes(double dram_bytes, double footprint);

/* The least DRAM bytes a hot run moved, from the `dram_bytes` the counter
 * pass saw starting from an empty L2 (no more than the buffers' bytes,
 * gb_hot_held_bytes, where the caller knows them): a launch that starts
 * with the L2 full of the previous one's lines can be spared at most one
 * miss per line it holds, so at least dram_bytes - l2_bytes (not below 0).
 * The roofline takes it for a hot point whose time is under its counted
 * DRAM bytes at the roof, which the hot-cache rule left to DRAM: the
 * counted bytes do not bound its time. */
GB_API double gb_hot_dram_floor(double dram_bytes, double l2_bytes);

/* Places every ok record of `run` under roofs `c`. A record with counters
 * (docs/counters.md) gives its bytes at each level: DRAM sectors x 32 (0
 * on a hot run whose data stays in L2, gb_hot_in_l2), L2 sectors x 32,
 * and L1/shared as global L1 sectors x 32 plus shared-memory wavefronts x
 * 128; without counters its `bytes` stand for DRAM only. Operations are
 * the record's `flops`. Release with gb_roofline_release. */
GB_API enum gb_status gb_roofline_fit_run(const struct gb_run *run, const struct gb_ceilings *c,
                                   const struct gb_roofline_opts *o, struct gb_roofline *out);

GB_API void gb_roofline_release(struct gb_roofline *r);

#endif
