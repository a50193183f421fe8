/* timer.h - the seam between the harness and the clock that times a sample.
 *
 * The harness brackets each timed sample with begin() and end(), enqueues a
 * chunk of samples that way, and then asks collect() for their durations.
 * A backend is one file that fills a struct gb_timer: CUDA events
 * (timer_events.c) time the span between begin and end; a backend that
 * reads the GPU's own kernel timestamps returns one duration per kernel run
 * inside the span instead (span = GB_TIMER_PER_KERNEL), so a graph of N
 * launches yields N durations. The sampling loop (sampling.h) drives a timer
 * only through this struct, which is what lets a unit test drive it with a
 * fake clock.
 */
#ifndef GB_MEASURE_TIMER_H
#define GB_MEASURE_TIMER_H

#include "gpubound/gpu.h"
#include "gpubound/measure.h"
#include "gpubound/results.h"
#include "gpubound/status.h"

/* What one duration from collect() covers. */
enum gb_timer_span {
    GB_TIMER_PER_SAMPLE = 0, /* the whole span from begin to end (all its launches) */
    GB_TIMER_PER_KERNEL,     /* one kernel run between a begin and its end */
};

struct gb_timer {
    /* The clock's name, recorded in gb_record.time_source ("events"); a
     * per-sample clock around a graph of N launches is recorded as
     * "<name>-graph" (see gb_timer_source). */
    const char *name;
    enum gb_timer_span span;
    /* How many begin/end pairs may be pending before collect() must be
     * called (at least 1). */
    int max_pending;
    void *self;                /* the backend's state, passed to every call */
    /* Marks the start / end of one timed sample on the device's stream.
     * Asynchronous: nothing waits for the device. */
    enum gb_status (*begin)(void *self);
    enum gb_status (*end)(void *self);
    /* Waits for the pending samples and writes their durations in ns, in
     * order, into ns[0..cap); sets *n to how many were written (for a
     * per-sample clock, one per begin/end pair) and forgets them. */
    enum gb_status (*collect)(void *self, double *ns, int cap, int *n);
    /* Optional (NULL: none): adds the hardware counters read during the
     * samples to `rec` as metrics. */
    enum gb_status (*counters)(void *self, struct gb_record *rec);
    /* Optional (NULL: none). Launches per sample from now on: a per-kernel
     * clock needs it to tell one launch's kernels from the next's. */
    void (*set_batch)(void *self, int batch);
    /* Optional (NULL: none). A per-kernel clock that also times each
     * sample's whole span keeps those spans (divided by the batch: the
     * back-to-back "batch time" per launch) from the last `mark` on, and
     * gives their statistics; GB_ERR_UNSUPPORTED when it kept none. */
    void (*mark)(void *self);
    enum gb_status (*batch_stats)(void *self, struct gb_sample_stats *out);
    /* Optional (NULL: none). The GPU time, in ns, of the operations left
     * out of the samples so far (the cold mode's flushes). */
    double (*aside_ns)(void *self);
    /* Nonzero: every sample is one launch (the harness never captures a
     * graph batch for this clock). Set by the clock itself: a clock that
     * cannot batch (clocks.h, GB_CLOCK_BATCH), or one opened in place of a
     * clock that refused the point's launch (GB_CLOCK_REPLACES). */
    int one_launch;
    /* Nonzero: the samples of one chunk share one counting session, from
     * the first begin() to collect(), so whatever ran between them would
     * be counted too: a work with a prepare step (the cold mode's flush)
     * is sampled in chunks of one. */
    int shared_session;
    /* Frees what the backend holds; safe after a failed open. */
    void (*release)(void *self);
};

/* The clocks' open functions (a row of clocks.c each; `flags` as
 * gb_clock.open's, clocks.h: GB_CLOCK_REPLACES makes the timer's samples
 * one launch each). */

/* Opens the CUDA-event timer on `g`'s stream (timer_events.c). Events are
 * created on first use; release with t->release(t->self). */
enum gb_status gb_timer_events_open(struct gb_gpu *g, unsigned flags, struct gb_timer *t);

/* Opens the CUPTI timer on `g`'s stream (timer_cupti.c): the GPU's own
 * start and end of every kernel, copy and set each sample runs (one
 * duration per launch: a launch of several operations is their sum), with
 * the cold mode's flush kernels ("gb_flush*") left out, and the sample's
 * span timed by events for the batch time. GB_ERR_UNSUPPORTED with the
 * reason when CUPTI is missing or refused: the caller falls back to events. */
enum gb_status gb_timer_cupti_open(struct gb_gpu *g, unsigned flags, struct gb_timer *t);

/* Opens the profiler timer on `g` (timer_profiler.c): each launch's
 * gpu__time_duration.sum, the counter Nsight Compute reports, through
 * CUPTI's range profiler; one launch a sample, read before the next. The
 * range profiler stays open on `g` from point to point, in the profiler
 * clock's own slot of `g` (gb_clock_state), and CUPTI's activity records
 * are off while it counts. GB_ERR_UNSUPPORTED with the reason when the
 * profiler cannot be had (CUPTI missing, profiling not permitted; not
 * tried again on `g`). */
enum gb_status gb_timer_profiler_open(struct gb_gpu *g, unsigned flags, struct gb_timer *t);

/* Opens g's duration profiler and counts one session around the L2
 * flush kernel, read and thrown away: done before a run's first point
 * (session.c, through the profiler row's prime). Until a process has
 * completed a profiling session, the kernels of the buffers and modules
 * it made before run slower under the profiler than Nsight Compute
 * measures them, on an H100 a hot 8 MiB read 3.968 us
 * (data/h100/hot-order-2026-11-25) and a 4 GiB copy 3074 us
 * (truth-2026-11-23-b) against 3.584 and 3036 us after it
 * (truth-2026-11-25-b; docs/measurement.md). A failure is returned and
 * found again by the first point that opens the clock. */
enum gb_status gb_timer_profiler_prime(struct gb_gpu *g);

/* Closes g's duration profiler, if open (before counters take the
 * context's one range profiler; after a failed sample). Whether it could
 * be opened is remembered. */
void gb_timer_profiler_set_aside(struct gb_gpu *g);

/* Nonzero while g's duration profiler is open. */
int gb_timer_profiler_holds(const struct gb_gpu *g);

/* Frees the profiler clock's state on a GPU (its slot), closing its
 * profiler: when the GPU closes. */
void gb_timer_profiler_release_state(void *state);

/* The durations of `launches` launches from the profiler's ranges (one per
 * kernel, in launch order): each launch the sum of n_ranges / launches
 * consecutive ranges. GB_ERR_CUDA when the count does not divide, or
 * launches > cap. */
enum gb_status gb_prof_timer_group(const double *range_ns, size_t n_ranges, int launches, double *ns, int cap);

struct gb_gpu_op;
/* The durations of `launches` launches from the GPU operations their
 * samples ran (gpu/cupti.h), in stream order: skipped operations (the
 * flush) left out, the rest split evenly, `per` = used / launches
 * operations a launch (every launch of a bench runs the same work), each
 * launch's duration the sum of its operations'. GB_ERR_CUDA when the count
 * does not divide, or launches > cap. */
enum gb_status gb_cupti_group(const struct gb_gpu_op *ops, size_t n_ops, int launches, double *ns, int cap);

/* The time source a record names for samples of `batch` launches timed by
 * `t`: its name, with "-graph" added when a per-sample clock timed a batch
 * (the durations are then batch times divided by batch). */
void gb_timer_source(const struct gb_timer *t, int batch, char *buf, size_t n);

#endif
