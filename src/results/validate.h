/* validate.h - the one range table of every number gpubound reads from a
 * file (run.json, results.json, CampProf models, Nsight Compute exports)
 * and the checks that use it.
 *
 * Every numeric field read from outside has a named range (GB_RANGE_*
 * below: a type, a lowest and a highest value, and why). A value outside
 * its range, of the wrong type, or not finite is refused with one line
 * naming the file, the field (a JSON path or a CSV line and column), the
 * value and the allowed range:
 *
 *   run/results.json: $[3].samples = -5: allowed 0 to 1000000000 (timed samples of a point)
 *
 * Integers are read in 64 bits and checked before they are narrowed, so a
 * value too large for its field is refused, never wrapped (2^38+2048 does
 * not read as 2048). A value that passes its range can be used in int
 * arithmetic of the loaders' callers without overflow (docs/validation.md
 * lists the ranges and the products they keep in range).
 */
#ifndef GPUBOUND_RESULTS_VALIDATE_H
#define GPUBOUND_RESULTS_VALIDATE_H

#include <jansson.h>
#include <stddef.h>

#include "gpubound/status.h"

/* The ranges. Keep in step with gb_ranges[] in validate.c. */
enum gb_range_id {
    GB_RANGE_SAMPLES,          /* samples of a point */
    GB_RANGE_BATCH,            /* launches per timed sample */
    GB_RANGE_FLAG,             /* 0 or 1 (a JSON boolean is accepted) */
    GB_RANGE_TIME_NS,          /* a kernel time */
    GB_RANGE_BYTES,            /* bytes moved by a launch */
    GB_RANGE_FLOPS,            /* operations of a launch */
    GB_RANGE_GBS,              /* a bandwidth, 1e9 bytes/s */
    GB_RANGE_GFLOPS,           /* a throughput */
    GB_RANGE_MHZ,              /* a clock */
    GB_RANGE_SECONDS,          /* a wall or timed duration */
    GB_RANGE_METRIC,           /* a suite's extra metric: any finite number */
    GB_RANGE_POINTS,           /* points of a run */
    GB_RANGE_MODULES,          /* NVRTC modules of a run */
    GB_RANGE_ORDINAL,          /* a device ordinal */
    GB_RANGE_SM_COUNT,
    GB_RANGE_WARP_SIZE,
    GB_RANGE_THREADS_PER_BLOCK,
    GB_RANGE_THREADS_PER_SM,
    GB_RANGE_BLOCKS_PER_SM,
    GB_RANGE_REGS,             /* registers per SM or per block */
    GB_RANGE_REGS_PER_THREAD,
    GB_RANGE_REG_ALLOC_UNIT,
    GB_RANGE_SMEM,             /* shared memory per SM or block, bytes */
    GB_RANGE_SMEM_UNIT,
    GB_RANGE_BUS_BITS,
    GB_RANGE_DRIVER_VERSION,
    GB_RANGE_BLOCK_DIM,
    GB_RANGE_GRID_DIM,
    GB_RANGE_L2_BYTES,
    GB_RANGE_MEM_BYTES,
    GB_RANGE_CC,               /* a compute capability's major or minor number */
    GB_RANGE_COEF_NS,          /* a CampProf coefficient, ns per instruction */
    GB_RANGE_STAT,             /* a fit statistic: any finite number */
    GB_RANGE_PROB,             /* a probability */
    GB_RANGE_INSTR_PER_WARP,   /* instructions per warp of one width */
    GB_RANGE_WARPS,            /* warps per SM */
    GB_RANGE_N_OBS,            /* observations of a fit */
    GB_RANGE_LAUNCH_ID,        /* an Nsight Compute launch ID */
    GB_RANGE_NCU_BLOCK,        /* threads of a block, from an export */
    GB_RANGE_NCU_GRID,         /* blocks of a grid, from an export */
    GB_RANGE_NCU_REGS,         /* registers per thread, from an export */
    GB_RANGE_NCU_SMEM,         /* shared memory per block, from an export */
    GB_RANGE_COUNTER,          /* a hardware counter's value (counts, rollups) */
    GB_RANGE_NCU_TIME,         /* a launch's duration, from an export */
    GB_RANGE_NCU_COUNT,        /* requests or instructions of a launch, from an export */
    GB_RANGE_COUNT
};

/* A range: integer or real, inclusive bounds, and what the number is. */
struct gb_range {
    const char *name;
    int integer;
    double lo, hi;
    const char *what;
};

/* The range `id` (never NULL for a valid id). */
const struct gb_range *gb_range_get(enum gb_range_id id);

/* Whether `v` lies in range `id` (finite, inside the bounds, integral when
 * the range is of integers). */
int gb_range_ok(enum gb_range_id id, double v);

/* Formats the one-line violation "FILE: FIELD = VALUE: allowed LO to HI
 * (WHAT)" into `why`. `value` is the text of the value as read. */
void gb_range_why(char *why, size_t n, const char *file, const char *field, const char *value,
                  enum gb_range_id id);

/* Sets GB_ERR_FORMAT with the violation line of gb_range_why and returns it. */
enum gb_status gb_range_error(const char *file, const char *field, const char *value,
                              enum gb_range_id id);

/* Checks the number `v` read as `field` of `file`: GB_OK, or the violation
 * as GB_ERR_FORMAT. */
enum gb_status gb_range_check(const char *file, const char *field, double v, enum gb_range_id id);

/* Member `key` of JSON object `o`, checked against range `id`, into `out`.
 * Absent or null: `out` = `absent` and 0 (the caller decides whether the
 * field is required). Present: an integer range needs a JSON integer (or a
 * boolean for GB_RANGE_FLAG), a real range any JSON number. Returns 0 or
 * -1 with the violation in `why` (naming `file` and `path`.`key`). */
int gb_json_range_int(json_t *o, const char *key, enum gb_range_id id, long long absent,
                      long long *out, const char *file, const char *path, char *why, size_t n);
int gb_json_range_real(json_t *o, const char *key, enum gb_range_id id, double *out,
                       const char *file, const char *path, char *why, size_t n);

/* As gb_json_range_int for a value that is itself the JSON node `v`
 * (an array element), named `field` in full. */
int gb_json_value_int(json_t *v, enum gb_range_id id, long long *out, const char *file,
                      const char *field, char *why, size_t n);

/* A decimal integer in `text` (CSV field, command-line value): all of it a
 * number, no wrap (ERANGE is a violation), in range `id`. 0, or -1 with
 * the violation in `why`. */
int gb_text_range_int(const char *text, enum gb_range_id id, long long *out, const char *file,
                      const char *field, char *why, size_t n);

struct gb_ncu_launch;

/* The value of metric `name` of the Nsight Compute launch `l` (gpubound/ncu.h)
 * held to range `id`, in base units, into `out`. A launch without the
 * metric, or whose field is empty or "n/a" (what ncu writes where a metric
 * does not apply), gives NaN and GB_OK (the caller decides whether the
 * metric is required). A field that is not a number as ncu prints it, or
 * lies outside the range, is GB_ERR_FORMAT with the line "launch ID: NAME =
 * TEXT UNIT: allowed ..." (the caller names the file). */
enum gb_status gb_ncu_range(const struct gb_ncu_launch *l, const char *name, enum gb_range_id id,
                            double *out);

#endif
