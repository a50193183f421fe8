/* sampling.h - the sampling loop: warm-up, then timed samples until the
 * stopping rule holds or a cap is reached. It knows nothing of CUDA: it
 * enqueues a sample's work through struct gb_sample_work and times it only
 * through a struct gb_timer (timer.h), so a unit test can drive it with a
 * fake clock and fake work (tests/unit/test_sampling.c).
 */
#ifndef GB_MEASURE_SAMPLING_H
#define GB_MEASURE_SAMPLING_H

#include "gpubound/measure.h"
#include "measure/timer.h"

/* One sample's work. */
struct gb_sample_work {
    /* Before each sample, outside the timed span (the cold mode's L2
     * flush); NULL: nothing. */
    enum gb_status (*prepare)(void *ctx);
    /* Enqueues one sample's work: `batch` launches. */
    enum gb_status (*run)(void *ctx);
    void *ctx;
    int batch;                   /* launches per sample, >= 1 */
};

/* The samples of a point. Zero-initialise; release with gb_sample_set_release. */
struct gb_sample_set {
    double *ns;                  /* per-launch durations in ns, n of them (owned) */
    int n, cap;
    double timed_ns;             /* the timed spans (or kernels) summed, in ns */
    struct gb_sample_stats stats; /* of ns[0..n), once n >= min_samples */
    int converged;               /* 1 if the stopping rule held */
};

void gb_sample_set_release(struct gb_sample_set *s);

/* Enqueues `k` samples of `w` (1 <= k <= t->max_pending), each bracketed by
 * t->begin / t->end with w->prepare before it, collects their durations and
 * appends them to `s` per launch: a per-sample duration divided by
 * w->batch, a per-kernel duration as it is. */
enum gb_status gb_sample_chunk(const struct gb_timer *t, const struct gb_sample_work *w, int k,
                               struct gb_sample_set *s);

/* Warm-up: bursts of o->warmup_launches launches of `w`, the last of each
 * timed, until o->warmup_s has passed (at least one burst; at most 1000
 * launches), none kept; *est_ns is the shortest timed launch. */
enum gb_status gb_sample_warm_up(const struct gb_timer *t, const struct gb_sample_work *w,
                                 const struct gb_measure_opts *o, double *est_ns);

/* How much warm-up a point needs (gb_warm_plan). */
enum gb_warm_plan {
    GB_WARM_FULL,                /* bursts for the whole warmup_s: the GPU may have idled */
    GB_WARM_BURST,               /* one burst of warmup_launches: clocks are up */
    GB_WARM_NONE,                /* none: the verification launch warmed it */
};

/* A point that starts more than GB_STILL_WARM_S after the GPU's last work
 * (since_busy_s; negative: no point has run yet) warms up in full. The
 * GPU's last work is the previous point's samples, or this point's own
 * verification (its poison, launch and comparison, all on the device):
 * the verification launch is the first launch of the warm-up, and a GPU
 * whose spell of work (gb_busy_mark) is younger than GB_IDLE_WARMUP_S
 * (warm_for_s) warms up in full too, topped up to the full duration from
 * the spell's start (gb_warm_top_up), not for the whole of it again. On a
 * GPU warm for longer, a point whose verification launch took at least
 * GB_VERIFIED_WARM_NS (verify_ns, host clock from launch to completion)
 * needs none: that launch ran the same kernel on the same buffers moments
 * before the samples, and its length sizes them; a shorter one warms up
 * with one burst. */
#define GB_STILL_WARM_S 0.25
#define GB_VERIFIED_WARM_NS 100000.0
/* A full warm-up lasts at least this long, whatever warmup_s says: for
 * its first few tens of milliseconds of work after an idle spell a GPU
 * runs short cold kernels faster than it does from then on (and than
 * Nsight Compute times them), so samples taken then are not the kernel's
 * steady time (docs/measurement.md, "The first milliseconds"). */
#define GB_IDLE_WARMUP_S 0.1
enum gb_warm_plan gb_warm_plan(double since_busy_s, double warm_for_s, double verify_ns);

/* Records work on the GPU from start_s to end_s (gb_measure_now_s): the
 * end in *busy_s, and in *spell_s the start of the spell of work it
 * belongs to (a new spell when the GPU idled GB_STILL_WARM_S or more
 * before it, or had done nothing). */
void gb_busy_mark(double *busy_s, double *spell_s, double start_s, double end_s);

/* How long a full warm-up still runs: its duration (warmup_s, at least
 * GB_IDLE_WARMUP_S) less the spell of work so far (warm_for_s); 0 when
 * the spell is that long already. */
double gb_warm_top_up(double warmup_s, double warm_for_s);

/* Samples `w` in chunks of about o->chunk_s of work (sample_ns: the
 * expected length of one sample) until, with at least o->min_samples,
 * the relative CI half-width of the median is at most o->rel_ci
 * (s->converged = 1), or o->max_samples were taken, or o->max_time_s has
 * passed (s->converged = 0). s->stats holds the samples' statistics.
 * GB_ERR_INTERRUPTED when gb_measure_interrupted is set between chunks. */
enum gb_status gb_sample_until(const struct gb_timer *t, const struct gb_sample_work *w,
                               const struct gb_measure_opts *o, double sample_ns,
                               struct gb_sample_set *s);

/* Seconds on the monotonic clock. */
double gb_measure_now_s(void);

#endif
