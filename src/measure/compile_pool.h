/* compile_pool.h - compiling a plan's kernels on host threads ahead of the
 * thread that drives the GPU.
 *
 * A sweep compiles one module per distinct (source, options) set of its
 * points. The pool takes those sets from the plan (gb_bench.kernel_opts
 * needs no GPU), in the plan's order, and compiles them on a few threads
 * with NVRTC (thread-safe for separate programs), writing each cubin to the
 * disk cache and keeping it until the GPU thread takes it. The GPU thread
 * asks the pool first (struct gb_compile_ahead, gpu.h): a module compiled
 * ahead is loaded at once; one being compiled is waited for (the wait is
 * counted); one the pool has not started is taken from the queue and
 * compiled by the GPU thread itself, so the order in which the two meet
 * never matters; one already in the disk cache is left to the caller.
 */
#ifndef GB_MEASURE_COMPILE_POOL_H
#define GB_MEASURE_COMPILE_POOL_H

#include "gpubound/gpu.h"
#include "gpubound/measure.h"

struct gb_compile_pool;

/* What a pool did, for run.json. */
struct gb_compile_pool_stats {
    int jobs;                    /* distinct modules of the plan */
    int compiled;                /* compiled by the pool's threads */
    int cached;                  /* found in the disk cache */
    int failed;                  /* failed to compile (the log kept for the point) */
    int taken_inline;            /* claimed by the GPU thread before a pool thread reached them */
    double cpu_s;                /* CPU seconds the pool's threads spent in NVRTC */
    double wait_s;               /* seconds the GPU thread waited for a module being compiled */
    int threads;
};

/* The number of compiling threads gpubound uses by default: the host's
 * cores less one for the GPU thread, 1 to 8; GPUBOUND_COMPILE_THREADS (0
 * to 64) overrides it, 0 meaning no pool (every module compiled by the GPU
 * thread when it needs it). */
int gb_compile_pool_threads(void);

/* Collects the distinct modules of `plan` for architecture `arch` and
 * starts `threads` threads compiling them in plan order. *out is NULL (and
 * GB_OK returned) when threads is 0 or the plan compiles nothing. NVRTC
 * must be loadable (its version is part of each module's key): without it
 * the status says why and nothing is started. */
enum gb_status gb_compile_pool_start(const struct gb_plan *plan, int quick, const char *arch, int threads,
                                     struct gb_compile_pool **out);

/* The pool as the GPU thread's source of modules (gpu.h); valid until
 * gb_compile_pool_stop. */
const struct gb_compile_ahead *gb_compile_pool_ahead(struct gb_compile_pool *pool);

/* Stops the threads (a job being compiled is finished first; those not
 * started are dropped), fills *stats (may be NULL) and frees the pool.
 * Safe with NULL. */
void gb_compile_pool_stop(struct gb_compile_pool *pool, struct gb_compile_pool_stats *stats);

#endif
