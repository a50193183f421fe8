/* sampling.c - warm-up and the sampling loop (sampling.h), over any timer. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "measure/sampling.h"

volatile int gb_measure_interrupted;

#define GB_WARMUP_MAX 1000

double gb_measure_now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

void gb_timer_source(const struct gb_timer *t, int batch, char *buf, size_t n)
{
    snprintf(buf, n, "%s%s", t->name, t->span == GB_TIMER_PER_SAMPLE && batch > 1 ? "-graph" : "");
}

void gb_sample_set_release(struct gb_sample_set *s)
{
    free(s->ns);
    memset(s, 0, sizeof *s);
}

/* Durations one sample yields. */
static int gb_per_sample(const struct gb_timer *t, const struct gb_sample_work *w)
{
    return t->span == GB_TIMER_PER_KERNEL ? w->batch : 1;
}

static enum gb_status gb_sample_reserve(struct gb_sample_set *s, int more)
{
    if (s->n + more <= s->cap)
        return GB_OK;
    int cap = s->cap ? s->cap : 64;
    while (cap < s->n + more)
        cap *= 2;
    double *p = realloc(s->ns, (size_t)cap * sizeof *p);
    if (!p)
        return gb_error_set(GB_ERR_NOMEM, "out of host memory");
    s->ns = p;
    s->cap = cap;
    return GB_OK;
}

/* Enqueues k bracketed samples without waiting for the device. */
static enum gb_status gb_sample_enqueue(const struct gb_timer *t, const struct gb_sample_work *w, int k)
{
    enum gb_status st = GB_OK;
    for (int i = 0; i < k && st == GB_OK; i++) {
        if (w->prepare && (st = w->prepare(w->ctx)) != GB_OK)
            break;
        if ((st = t->begin(t->self)) != GB_OK || (st = w->run(w->ctx)) != GB_OK)
            break;
        st = t->end(t->self);
    }
    return st;
}

enum gb_status gb_sample_chunk(const struct gb_timer *t, const struct gb_sample_work *w, int k,
                               struct gb_sample_set *s)
{
    enum gb_status st;
    int got = 0, per = gb_per_sample(t, w);
    if ((st = gb_sample_reserve(s, k * per)) != GB_OK)
        return st;
    if ((st = gb_sample_enqueue(t, w, k)) != GB_OK)
        return st;
    if ((st = t->collect(t->self, s->ns + s->n, s->cap - s->n, &got)) != GB_OK)
        return st;
    if (got < 1)
        return gb_error_set(GB_ERR_CUDA, "the %s timer returned no duration for %d sample(s)", t->name, k);
    for (int i = s->n; i < s->n + got; i++) {
        s->timed_ns += s->ns[i];
        if (per == 1 && w->batch > 1)
            s->ns[i] /= w->batch;
    }
    s->n += got;
    return GB_OK;
}

/* Enqueues `n` launches of `w` without timing them. */
static enum gb_status gb_sample_untimed(const struct gb_sample_work *w, int n)
{
    enum gb_status st = GB_OK;
    for (int i = 0; i < n && st == GB_OK; i++)
        if (!w->prepare || (st = w->prepare(w->ctx)) == GB_OK)
            st = w->run(w->ctx);
    return st;
}

enum gb_warm_plan gb_warm_plan(double since_busy_s, double warm_for_s, double verify_ns)
{
    if (since_busy_s < 0 || since_busy_s >= GB_STILL_WARM_S || warm_for_s < GB_IDLE_WARMUP_S)
        return GB_WARM_FULL;
    return verify_ns >= GB_VERIFIED_WARM_NS ? GB_WARM_NONE : GB_WARM_BURST;
}

void gb_busy_mark(double *busy_s, double *spell_s, double start_s, double end_s)
{
    if (*busy_s <= 0 || start_s - *busy_s >= GB_STILL_WARM_S)
        *spell_s = start_s;
    *busy_s = end_s;
}

double gb_warm_top_up(double warmup_s, double warm_for_s)
{
    double full = warmup_s > GB_IDLE_WARMUP_S ? warmup_s : GB_IDLE_WARMUP_S;
    return warm_for_s < full ? full - fmax(warm_for_s, 0.0) : 0;
}

enum gb_status gb_sample_warm_up(const struct gb_timer *t, const struct gb_sample_work *w,
                                 const struct gb_measure_opts *o, double *est_ns)
{
    enum gb_status st = GB_OK;
    struct gb_sample_set s;
    double start = gb_measure_now_s();
    int launches = 0, burst = o->warmup_launches > 1 ? o->warmup_launches : 1;
    memset(&s, 0, sizeof s);
    *est_ns = 0;
    /* Bursts of launches, the last of each timed: one wait per burst, not
     * per launch, and the timed one tells the launch's length. */
    do {
        s.n = 0;
        if ((st = gb_sample_untimed(w, burst - 1)) != GB_OK || (st = gb_sample_chunk(t, w, 1, &s)) != GB_OK)
            goto out;
        for (int i = 0; i < s.n; i++)
            *est_ns = launches || i ? fmin(*est_ns, s.ns[i]) : s.ns[i];
        launches += burst;
    } while (gb_measure_now_s() - start < o->warmup_s && launches < GB_WARMUP_MAX);
out:
    gb_sample_set_release(&s);
    return st;
}

/* Samples for the next chunk: about chunk_s of work, and at least what is
 * left under min_samples, within the timer's pending limit and what is left
 * under max_samples. */
static int gb_chunk_size(const struct gb_timer *t, const struct gb_sample_work *w,
                         const struct gb_measure_opts *o, double sample_ns, int n)
{
    int per = gb_per_sample(t, w);
    int left = (o->max_samples - n + per - 1) / per;
    int k = (int)(o->chunk_s * 1e9 / fmax(sample_ns, 1.0));
    if (k < 1)
        k = 1;
    /* The samples below min_samples are taken whatever they show: one
     * chunk (one wait, one profiling session) rather than one each. */
    if (k < o->min_samples - n)
        k = o->min_samples - n;
    if (k > t->max_pending)
        k = t->max_pending;
    if (t->shared_session && w->prepare)
        k = 1;
    return k > left ? left : k;
}

enum gb_status gb_sample_until(const struct gb_timer *t, const struct gb_sample_work *w,
                               const struct gb_measure_opts *o, double sample_ns,
                               struct gb_sample_set *s)
{
    enum gb_status st = GB_OK;
    double start = gb_measure_now_s();
    for (;;) {
        if (gb_measure_interrupted)
            return gb_error_set(GB_ERR_INTERRUPTED, "interrupted");
        int k = gb_chunk_size(t, w, o, sample_ns, s->n);
        if (k < 1)
            k = 1; /* max_samples below min_samples: min_samples wins */
        if ((st = gb_sample_chunk(t, w, k, s)) != GB_OK)
            return st;
        if (s->n < o->min_samples)
            continue;
        if ((st = gb_stats_progress(s->ns, s->n, &s->stats)) != GB_OK)
            return st;
        s->converged = gb_stats_converged(&s->stats, o->rel_ci);
        if (s->converged || s->n >= o->max_samples || gb_measure_now_s() - start > o->max_time_s)
            return gb_stats_compute(s->ns, s->n, &s->stats); /* the reported median: Harrell-Davis */
    }
}
