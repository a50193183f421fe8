/* cupti.h - the GPU's own timestamps of the work gpubound launches, read
 * through CUPTI's activity API. libcupti is opened at run time (like
 * NVRTC), so gpubound starts and its CPU commands work without it; where
 * it is missing or refused, callers fall back to CUDA events and say so.
 *
 * Every kernel, memory copy and memory set that runs on a stream while
 * collection is on leaves one operation: its start and end on the GPU's
 * clock, which is what Nsight Compute reports as gpu__time_duration.
 * Collection is process-wide; one thread at a time may take operations.
 */
#ifndef GB_GPU_CUPTI_H
#define GB_GPU_CUPTI_H

#include "gpubound/cuda_decls.h"
#include <stddef.h>
#include <stdint.h>

#include "gpubound/status.h"

/* One operation the GPU ran. */
struct gb_gpu_op {
    uint64_t start_ns, end_ns;   /* the GPU's timestamps */
    uint32_t stream;             /* CUPTI's stream id */
    char kind;                   /* 'k' kernel, 'c' copy, 's' set */
    char skipped;                /* a kernel whose name has the skip prefix (gb_cupti_start) */
};

/* Opens libcupti and starts collecting operations; kernels whose name
 * begins with `skip_prefix` (NULL: none) are marked skipped, so that
 * helper kernels (the cold mode's L2 flush) can be left out of a sample.
 * Idempotent. GB_ERR_UNSUPPORTED with the reason when libcupti is not
 * found, is older than the headers gpubound was built with, or refuses
 * (another profiler holds it, or the driver denies it). */
enum gb_status gb_cupti_start(const char *skip_prefix);

/* Whether collection is on. */
int gb_cupti_active(void);

/* CUPTI's id of `stream` in `ctx` (what gb_gpu_op.stream holds). */
enum gb_status gb_cupti_stream_id(CUcontext ctx, CUstream stream, uint32_t *id);

/* Flushes CUPTI's buffers and moves out every operation recorded on
 * `stream` since the last take, sorted by start, into a malloc'ed array
 * (*ops, *n; caller frees; NULL when none). The work must have completed
 * (synchronize first). *dropped counts records CUPTI lost since the last
 * take (buffers full): a sample that lost records must not be used. */
enum gb_status gb_cupti_take(uint32_t stream, struct gb_gpu_op **ops, size_t *n, size_t *dropped);

/* Drops every operation recorded so far (after a flush). */
enum gb_status gb_cupti_discard(void);

/* Opens libcupti (the versioned names, then the toolkit's folders under
 * $CUDA_HOME, $CUDA_PATH and /usr/local/cuda); NULL when not found. Every
 * call returns the same library (dlopen counts references). */
void *gb_cupti_dlopen(void);

/* Stops collecting and releases CUPTI's buffers. */
void gb_cupti_stop(void);

#endif
