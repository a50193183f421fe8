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
 *            passes, so every pass sees the inputs of the first);
 *   collect: cuptiRangeProfilerStart, the work, cuptiRangeProfilerStop
 *            (all passes submitted), cuCtxSynchronize,
 *            cuptiRangeProfilerDecodeData, cuptiRangeProfilerGetCounterDataInfo,
 *            cuptiProfilerHostEvaluateToGpuValues per range;
 *   close:   cuptiRangeProfilerDisable, cuptiProfilerHostDeinitialize.
 *
 * One profiler per context at a time; one thread.
 */
#ifndef GB_GPU_CUPTI_PROFILER_H
#define GB_GPU_CUPTI_PROFILER_H

#include <stddef.h>

#include "gpubound/gpu.h"
#include "gpubound/status.h"

struct gb_profiler;

/* Opens a profiler on g's context for the metrics `names` (Nsight Compute
 * names). A metric the device does not have is GB_ERR_USAGE naming it,
 * unless `drop_unknown`: then it is left out (gb_profiler_dropped lists
 * it). GB_ERR_UNSUPPORTED, with the reason and what to do, when CUPTI is
 * missing or too old, the device cannot be profiled, or profiling is not
 * permitted (CUPTI_ERROR_INSUFFICIENT_PRIVILEGES: ERR_NVGPUCTRPERM).
 * Release with gb_profiler_close (also after a failed open: *out may be
 * set). */
enum gb_status gb_profiler_open(struct gb_gpu *g, char *const *names, size_t n, int drop_unknown,
                                struct gb_profiler **out);

/* The metrics kept (the order of the value rows) and those left out. */
size_t gb_profiler_metrics(const struct gb_profiler *p, const char *const **names);
size_t gb_profiler_dropped(const struct gb_profiler *p, const char *const **names);

/* Passes the kernel replay needs for the metrics (from the config image). */
size_t gb_profiler_passes(const struct gb_profiler *p);

/* Profiles the kernels `work(ctx)` enqueues on g's stream (each kernel one
 * range, replayed once per pass with its memory restored): *values
 * (malloc'ed; caller frees) holds *n_ranges rows of one value per kept
 * metric. GB_ERR_UNSUPPORTED when CUPTI refuses; a failure of `work` is
 * returned as it is. */
enum gb_status gb_profiler_collect(struct gb_profiler *p, enum gb_status (*work)(void *ctx), void *ctx,
                                   double **values, size_t *n_ranges);

/* Disables profiling on the context and frees everything; NULL is safe. */
void gb_profiler_close(struct gb_profiler *p);

/* The CUPTI calls made since the process started (at most the last 64),
 * one line each with its result, into `buf` ("" when none). */
void gb_profiler_trace(char *buf, size_t n);

#endif
