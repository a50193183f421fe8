/* timer_cupti.c - the CUPTI timer (timer.h): each launch's duration from
 * the GPU's own timestamps of the kernels (and copies, sets) it ran, the
 * quantity Nsight Compute reports as gpu__time_duration. An event pair
 * around each sample still times its whole span, kept apart as the batch
 * time per launch of a graph-batched point. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "gpu/cupti.h"
#include "measure/clocks.h"
#include "measure/timer.h"

struct gb_cupti_timer {
    struct gb_timer events;      /* the span of each sample */
    uint32_t stream;             /* CUPTI's id of the GPU's stream */
    int batch;                   /* launches per sample */
    int pending;                 /* samples since the last collect */
    double *spans;               /* per-launch batch times since the last mark */
    double aside_ns;             /* GPU time of the operations left out (flushes) */
    int n_spans, cap_spans;
};

static enum gb_status gb_cupti_begin(void *self)
{
    struct gb_cupti_timer *c = self;
    return c->events.begin(c->events.self);
}

static enum gb_status gb_cupti_end(void *self)
{
    struct gb_cupti_timer *c = self;
    enum gb_status st = c->events.end(c->events.self);
    if (st == GB_OK)
        c->pending++;
    return st;
}

static enum gb_status gb_cupti_keep_spans(struct gb_cupti_timer *c, const double *ns, int n)
{
    if (c->n_spans + n > c->cap_spans) {
        int cap = c->cap_spans ? c->cap_spans : 256;
        while (cap < c->n_spans + n)
            cap *= 2;
        double *p = realloc(c->spans, (size_t)cap * sizeof *p);
        if (!p)
            return gb_error_set(GB_ERR_NOMEM, "out of host memory");
        c->spans = p;
        c->cap_spans = cap;
    }
    for (int i = 0; i < n; i++)
        c->spans[c->n_spans++] = ns[i] / c->batch;
    return GB_OK;
}

enum gb_status gb_cupti_group(const struct gb_gpu_op *ops, size_t n_ops, int launches, double *ns, int cap)
{
    size_t used = 0;
    for (size_t i = 0; i < n_ops; i++)
        used += !ops[i].skipped;
    if (launches < 1 || used == 0 || used % (size_t)launches != 0 || launches > cap)
        return gb_error_set(GB_ERR_CUDA,
                            "CUPTI saw %zu GPU operations for %d launches; the samples cannot be told apart",
                            used, launches);
    size_t per = used / (size_t)launches, k = 0;
    for (int l = 0; l < launches; l++) {
        double sum = 0;
        for (size_t j = 0; j < per; k++) {
            if (ops[k].skipped)
                continue;
            sum += (double)(ops[k].end_ns - ops[k].start_ns);
            j++;
        }
        ns[l] = sum;
    }
    return GB_OK;
}

static enum gb_status gb_cupti_collect(void *self, double *ns, int cap, int *n)
{
    struct gb_cupti_timer *c = self;
    double spans[64];
    int got = 0, samples = c->pending;
    struct gb_gpu_op *ops = NULL;
    size_t n_ops = 0, dropped = 0;
    *n = 0;
    c->pending = 0;
    /* The events' collect waits for the samples to finish. */
    enum gb_status st = c->events.collect(c->events.self, spans, 64, &got);
    if (st == GB_OK)
        st = gb_cupti_keep_spans(c, spans, got);
    if (st == GB_OK)
        st = gb_cupti_take(c->stream, &ops, &n_ops, &dropped);
    if (st == GB_OK && dropped)
        st = gb_error_set(GB_ERR_CUDA, "CUPTI dropped %zu activity records; retry with fewer samples (--max-time)",
                          dropped);
    for (size_t i = 0; st == GB_OK && i < n_ops; i++)
        if (ops[i].skipped)
            c->aside_ns += (double)(ops[i].end_ns - ops[i].start_ns);
    if (st == GB_OK && samples)
        st = gb_cupti_group(ops, n_ops, samples * c->batch, ns, cap);
    if (st == GB_OK)
        *n = samples * c->batch;
    free(ops);
    return st;
}

static void gb_cupti_set_batch(void *self, int batch)
{
    struct gb_cupti_timer *c = self;
    c->batch = batch > 0 ? batch : 1;
}

static void gb_cupti_mark(void *self)
{
    struct gb_cupti_timer *c = self;
    c->n_spans = 0;
}

static enum gb_status gb_cupti_batch_stats(void *self, struct gb_sample_stats *out)
{
    struct gb_cupti_timer *c = self;
    if (c->n_spans == 0)
        return gb_error_set(GB_ERR_UNSUPPORTED, "no batch time kept");
    return gb_stats_compute(c->spans, c->n_spans, out);
}

static double gb_cupti_aside_ns(void *self)
{
    const struct gb_cupti_timer *c = self;
    return c->aside_ns;
}

static void gb_cupti_release(void *self)
{
    struct gb_cupti_timer *c = self;
    if (!c)
        return;
    if (c->events.release)
        c->events.release(c->events.self);
    free(c->spans);
    free(c);
}

enum gb_status gb_timer_cupti_open(struct gb_gpu *g, unsigned flags, struct gb_timer *t)
{
    struct gb_cupti_timer *c = calloc(1, sizeof *c);
    enum gb_status st;
    memset(t, 0, sizeof *t);
    t->release = gb_cupti_release;
    t->self = c;
    if (!c)
        return gb_error_set(GB_ERR_NOMEM, "out of host memory");
    c->batch = 1;
    if ((st = gb_cupti_start("gb_flush")) != GB_OK ||
        (st = gb_cupti_stream_id(g->ctx, g->stream, &c->stream)) != GB_OK ||
        (st = gb_timer_events_open(g, 0, &c->events)) != GB_OK)
        return st;
    /* Whatever ran before this point (set-up, the verification launch) is
     * complete and not a sample. */
    if ((st = gb_gpu_sync(g)) != GB_OK || (st = gb_cupti_discard()) != GB_OK)
        return st;
    t->name = "cupti";
    t->span = GB_TIMER_PER_KERNEL;
    t->max_pending = c->events.max_pending < 64 ? c->events.max_pending : 64;
    t->begin = gb_cupti_begin;
    t->end = gb_cupti_end;
    t->collect = gb_cupti_collect;
    t->set_batch = gb_cupti_set_batch;
    t->mark = gb_cupti_mark;
    t->batch_stats = gb_cupti_batch_stats;
    t->aside_ns = gb_cupti_aside_ns;
    t->one_launch = (flags & GB_CLOCK_REPLACES) != 0;
    return GB_OK;
}
