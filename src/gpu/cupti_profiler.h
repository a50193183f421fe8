/* cupti_profiler.h - hardware counters of the kernels one piece of work
 * runs, through CUPTI's range profiler (cupti_range_profiler.h) and its
 * profiler host API (cupti_profiler_host.h, which drives the Perfworks
 * host library libnvperf_host that ships with CUPTI). libcupti is opened
 * at run time (gpu/cupti.h); nothing links it.
 *
 * The sequence (every call checked, its status kept in a trace that
 * gb_profiler_trace returns):
 *   open:    cuptiProfilerInitialize (once), cuptiDeviceGetChipName,
 *            cuptiProfilerGetCounterAvailability (size, then image),
 *            cuptiProfilerHostInitialize (range profiler, chip, availability),
 *            cuptiProfilerHostConfigAddMetrics (each metric alone first, to
 *            name the one the chip does not know, then all together),
 *            cuptiProfilerHostGetConfigImageSize, ...GetConfigImage,
 *            cuptiProfilerHostGetNumOfPasses,
 *            cuptiRangeProfilerEnable (the context),
 *            cuptiRangeProfilerGetCounterDataSize,
 *            cuptiRangeProfilerCounterDataImageInitialize,
 *            cuptiRangeProfilerSetConfig (auto range: one range per kernel;
 *            kernel replay: CUPTI replays each kernel once per pass and
 *            saves and restores the device memory it may write between
 *            passes, so every pass sees the inputs of the first; user
 *            replay: the caller runs the work once per pass, after a hook
 *            that may restore inputs and clean the caches, as Nsight
 *            Compute's --cache-control all does before each of its passes);
 *   collect: per pass: the hook, cuptiRangeProfilerStart, the work,
 *            cuptiRangeProfilerStop (until all passes are submitted);
 *            then cuCtxSynchronize, cuptiRangeProfilerDecodeData,
 *            cuptiRangeProfilerGetCounterDataInfo,
 *            cuptiProfilerHostEvaluateToGpuValues per range, and a fresh
 *            counter data image (CounterDataImageInitialize, SetConfig)
 *            before the next start;
 *   close:   cuptiRangeProfilerDisable.
 * The host part of open (the probe of each metric, the host object, the
 * config image: the costly part, on the CPU) is kept for the process per
 * device, metric list and drop rule (four lists at most; a list no open
 * profiler uses is replaced, cuptiProfilerHostDeinitialize then), so that a
 * sweep that profiles every point with one list builds it once.
 *
 * One profiler per context at a time; one thread.
 */
#ifndef GB_GPU_CUPTI_PROFILER_H
#define GB_GPU_CUPTI_PROFILER_H

#include <stddef.h>

#include "gpubound/gpu.h"
#include "gpubound/status.h"

struct gb_profiler;

enum gb_profiler_replay {
    GB_PROFILER_KERNEL_REPLAY = 0, /* CUPTI replays each kernel, memory saved and restored */
    GB_PROFILER_USER_REPLAY,       /* the caller's work runs once per pass */
};

/* Opens a profiler on g's context for the metrics `names` (Nsight Compute
 * names). A metric the device does not have is GB_ERR_USAGE naming it,
 * unless `drop_unknown`: then it is left out (gb_profiler_dropped lists
 * it). GB_ERR_UNSUPPORTED, with the reason and what to do, when CUPTI is
 * missing or too old, the device cannot be profiled, or profiling is not
 * permitted (CUPTI_ERROR_INSUFFICIENT_PRIVILEGES: ERR_NVGPUCTRPERM).
 * Release with gb_profiler_close (also after a failed open: *out may be
 * set). */
enum gb_status gb_profiler_open(struct gb_gpu *g, char *const *names, size_t n, int drop_unknown,
                                enum gb_profiler_replay replay, struct gb_profiler **out);

/* The metrics kept (the order of the value rows) and those left out. */
size_t gb_profiler_metrics(const struct gb_profiler *p, const char *const **names);
size_t gb_profiler_dropped(const struct gb_profiler *p, const char *const **names);

/* Passes the kernel replay needs for the metrics (from the config image). */
size_t gb_profiler_passes(const struct gb_profiler *p);

/* Profiles the kernels `work(ctx)` enqueues on g's stream, each kernel one
 * range: with kernel replay, the work runs once and CUPTI replays each
 * kernel once per pass with its memory restored; with user replay, the
 * work runs once per pass. `before_pass(ctx)` (NULL: none) runs before each
 * pass's start, outside the profiled ranges. *values (malloc'ed; caller
 * frees) holds *n_ranges rows of one value per kept metric.
 * GB_ERR_UNSUPPORTED when CUPTI refuses; a failure of `work` or
 * `before_pass` is returned as it is. */
enum gb_status gb_profiler_collect(struct gb_profiler *p, enum gb_status (*before_pass)(void *ctx),
                                   enum gb_status (*work)(void *ctx), void *ctx, double **values,
                                   size_t *n_ranges);

/* The steps of a collection, for a caller that enqueues the work itself
 * (a timer: start before a sample's launch, stop after it, read after
 * the device finished): start profiles every kernel enqueued until stop
 * (which says whether all passes were submitted: always, for a
 * configuration of one pass under kernel replay); read waits for the
 * device and evaluates the ranges of every start/stop since the last read,
 * as gb_profiler_collect does. */
enum gb_status gb_profiler_start(struct gb_profiler *p);
enum gb_status gb_profiler_stop(struct gb_profiler *p, int *all_submitted);
enum gb_status gb_profiler_read(struct gb_profiler *p, double **values, size_t *n_ranges);

/* Disables profiling on the context and frees everything; NULL is safe. */
void gb_profiler_close(struct gb_profiler *p);

/* The CUPTI calls made since the process started (at most the last 64),
 * one line each with its result, into `buf` ("" when none). */
void gb_profiler_trace(char *buf, size_t n);

#endif
