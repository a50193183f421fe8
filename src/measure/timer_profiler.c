/* timer_profiler.c - the profiler timer (timer.h): each launch's duration
 * as the GPU's performance monitor counts it, gpu__time_duration.sum read
 * through CUPTI's range profiler (gpu/cupti_profiler.h), the very counter
 * Nsight Compute reports. Every kernel a sample runs is one range of a
 * one-pass configuration under user replay (one pass: nothing is
 * replayed or restored); a launch's duration is the sum of its kernels'. The profiler
 * serializes the kernels it measures: samples are one launch each, never a
 * graph batch. A chunk of samples is one profiling session (one Start,
 * the chunk's launches, one Stop, one decode), so the session's set-up and
 * decode are paid once a chunk, not once a sample, and nothing of the
 * profiler's own runs between the chunk's launches; a work with a
 * prepare step (a cold sample's flush) gets chunks of one (shared_session),
 * so that the flush is not counted. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gpu/cupti.h"
#include "gpu/cupti_profiler.h"
#include "measure/clocks.h"
#include "measure/sampling.h"
#include "measure/timer.h"

/* What the profiler clock keeps on a GPU from point to point, in its slot
 * of the GPU (gb_clock_state): the range profiler of gpu__time_duration
 * (opening one takes about 0.4 s; NULL: none open), and whether it could
 * not be opened on this GPU (CUPTI missing, profiling not permitted), not
 * tried again. */
struct gb_prof_gpu {
    struct gb_profiler *prof;
    int failed;
};

struct gb_prof_timer {
    struct gb_gpu *g;
    struct gb_profiler *prof;  /* the GPU's duration profiler (struct gb_prof_gpu) */
    int failed;                /* a step failed: the profiler is closed with the timer */
    int batch;     /* launches per sample (1: the harness does not batch this clock) */
    int pending;   /* samples started since the last collect */
    int started;   /* the chunk's session is open (Start called, Stop not yet) */
};

/* Samples of one chunk: well under the profiler's 128 ranges a session. */
#define GB_PROF_TIMER_CHUNK 32

static enum gb_status gb_prof_timer_begin(void *self)
{
    struct gb_prof_timer *t = self;
    enum gb_status st = GB_OK;
    if (!t->started) {
        st = gb_profiler_start(t->prof);
        t->started = st == GB_OK;
    }
    t->failed |= st != GB_OK;
    return st;
}

static enum gb_status gb_prof_timer_end(void *self)
{
    struct gb_prof_timer *t = self;
    t->pending++;
    return GB_OK;
}

/* Ends the chunk's session: every pass must have been submitted. */
static enum gb_status gb_prof_timer_stop(struct gb_prof_timer *t)
{
    int all = 0;
    enum gb_status st = GB_OK;
    if (!t->started)
        return GB_OK;
    t->started = 0;
    st = gb_profiler_stop(t->prof, &all);
    if (st == GB_OK && !all)
        st = gb_error_set(GB_ERR_UNSUPPORTED, "CUPTI needs more than one pass for gpu__time_duration; "
                          "use --timer cupti");
    return st;
}

enum gb_status gb_prof_timer_group(const double *range_ns, size_t n_ranges, int launches, double *ns, int cap)
{
    if (launches < 1 || n_ranges == 0 || n_ranges % (size_t)launches != 0 || launches > cap)
        return gb_error_set(GB_ERR_CUDA, "the profiler saw %zu kernels for %d launches; the samples "
                            "cannot be told apart", n_ranges, launches);
    size_t per = n_ranges / (size_t)launches;
    for (int l = 0; l < launches; l++) {
        double sum = 0;
        for (size_t k = 0; k < per; k++)
            sum += range_ns[(size_t)l * per + k];
        ns[l] = sum;
    }
    return GB_OK;
}

static enum gb_status gb_prof_timer_collect(void *self, double *ns, int cap, int *n)
{
    struct gb_prof_timer *t = self;
    double *values = NULL;
    size_t n_ranges = 0;
    int launches = t->pending * t->batch;
    *n = 0;
    t->pending = 0;
    enum gb_status st = gb_prof_timer_stop(t);
    if (launches == 0 || st != GB_OK) {
        t->failed |= st != GB_OK;
        return st;
    }
    st = gb_profiler_read(t->prof, &values, &n_ranges);
    if (st == GB_OK)
        st = gb_prof_timer_group(values, n_ranges, launches, ns, cap);
    if (st == GB_OK)
        *n = launches;
    free(values);
    t->failed |= st != GB_OK;
    return st;
}

static void gb_prof_timer_set_batch(void *self, int batch)
{
    struct gb_prof_timer *t = self;
    t->batch = batch > 0 ? batch : 1;
}

static void gb_prof_timer_release(void *self)
{
    struct gb_prof_timer *t = self;
    if (!t)
        return;
    if (t->started) { /* a chunk left unread: its ranges would be read with the next */
        gb_prof_timer_stop(t);
        t->failed = 1;
    }
    if (t->failed && t->g)
        gb_timer_profiler_set_aside(t->g);
    free(t);
}

/* The profiler clock's state on `g`; made when `create` (NULL when out of
 * memory), else NULL when there is none. */
static struct gb_prof_gpu *gb_prof_gpu_of(const struct gb_gpu *g, int create)
{
    void **slot = gb_clock_state((struct gb_gpu *)g, "profiler", create);
    if (slot && !*slot && create)
        *slot = calloc(1, sizeof(struct gb_prof_gpu));
    return slot ? *slot : NULL;
}

void gb_timer_profiler_set_aside(struct gb_gpu *g)
{
    struct gb_prof_gpu *pg = gb_prof_gpu_of(g, 0);
    if (!pg)
        return;
    gb_profiler_close(pg->prof);
    pg->prof = NULL;
}

int gb_timer_profiler_holds(const struct gb_gpu *g)
{
    const struct gb_prof_gpu *pg = gb_prof_gpu_of(g, 0);
    return pg && pg->prof;
}

void gb_timer_profiler_release_state(void *state)
{
    struct gb_prof_gpu *pg = state;
    if (!pg)
        return;
    gb_profiler_close(pg->prof);
    free(pg);
}

/* Opens g's duration profiler into *out, or says why it cannot be (once a
 * GPU: a failed open is not tried again). */
static enum gb_status gb_duration_profiler(struct gb_gpu *g, struct gb_profiler **out)
{
    static char metric[] = "gpu__time_duration.sum";
    static char why[512];
    char *names[] = {metric};
    enum gb_status st = GB_OK;
    struct gb_prof_gpu *pg = gb_prof_gpu_of(g, 1);
    if (!pg)
        return gb_error_set(GB_ERR_NOMEM, "out of host memory");
    *out = pg->prof;
    if (pg->prof)
        return GB_OK;
    if (pg->failed)
        return gb_error_set(GB_ERR_UNSUPPORTED, "%s", why);
    st = gb_profiler_open(g, names, 1, 0, GB_PROFILER_USER_REPLAY, &pg->prof);
    if (st == GB_OK && gb_profiler_passes(pg->prof) != 1)
        st = gb_error_set(GB_ERR_UNSUPPORTED, "CUPTI needs %zu passes for gpu__time_duration on this GPU; "
                          "use --timer cupti", gb_profiler_passes(pg->prof));
    if (st != GB_OK) {
        snprintf(why, sizeof why, "%s", gb_error_message());
        gb_timer_profiler_set_aside(g);
        pg->failed = 1;
    }
    *out = pg->prof;
    return st;
}

/* The priming session's work: one plain L2 flush (its first call also
 * makes the flush buffer). */
static enum gb_status gb_prime_flush(void *ctx)
{
    return gb_gpu_flush_l2(ctx, GB_FLUSH_READ);
}

enum gb_status gb_timer_profiler_prime(struct gb_gpu *g)
{
    struct gb_timer t;
    struct gb_sample_set s;
    struct gb_sample_work w = {.run = gb_prime_flush, .ctx = g, .batch = 1};
    memset(&s, 0, sizeof s);
    enum gb_status st = gb_timer_profiler_open(g, 0, &t);
    if (st == GB_OK)
        st = gb_sample_chunk(&t, &w, 1, &s);
    gb_sample_set_release(&s);
    if (t.release)
        t.release(t.self);
    return st;
}

enum gb_status gb_timer_profiler_open(struct gb_gpu *g, unsigned flags, struct gb_timer *out)
{
    struct gb_prof_timer *t = calloc(1, sizeof *t);
    enum gb_status st;
    memset(out, 0, sizeof *out);
    out->release = gb_prof_timer_release;
    out->self = t;
    if (!t)
        return gb_error_set(GB_ERR_NOMEM, "out of host memory");
    t->batch = 1;
    (void)flags; /* one launch a sample whatever it replaces */
    if ((st = gb_duration_profiler(g, &t->prof)) != GB_OK)
        return st;
    t->g = g;
    /* No activity records while the profiler counts: its samples are the
     * profiler's alone (the CUPTI clock enables them again). */
    gb_cupti_stop();
    /* Whatever ran before (set-up, the verification launch) is done. */
    if ((st = gb_gpu_sync(g)) != GB_OK)
        return st;
    out->name = "profiler";
    out->span = GB_TIMER_PER_KERNEL;
    out->max_pending = GB_PROF_TIMER_CHUNK;
    out->one_launch = 1;
    out->shared_session = 1;
    out->begin = gb_prof_timer_begin;
    out->end = gb_prof_timer_end;
    out->collect = gb_prof_timer_collect;
    out->set_batch = gb_prof_timer_set_batch;
    return GB_OK;
}
