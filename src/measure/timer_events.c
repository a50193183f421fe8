/* timer_events.c - the CUDA-event timer (timer.h): an event pair recorded
 * on the stream around each sample, read back after the chunk. Its
 * durations include the launch gaps inside the span, so for a graph of N
 * launches the harness records them as batch time ("events-graph"). */
#include <stdlib.h>
#include <string.h>

#include "measure/clocks.h"
#include "measure/timer.h"

#define GB_EVENTS_MAX 32 /* samples pending per collect */

struct gb_events {
    struct gb_gpu *gpu;
    CUevent ev[2 * GB_EVENTS_MAX];
    int n_ev;        /* created so far, on demand */
    int pending;     /* begin/end pairs recorded since the last collect */
    int open;        /* 1 between begin and end */
};

/* The event at `i`, created on first use. */
static enum gb_status gb_events_get(struct gb_events *e, int i, CUevent *out)
{
    enum gb_status st = GB_OK;
    while (e->n_ev <= i) {
        GB_CU_CHECK(st, gb_cu->cuEventCreate(&e->ev[e->n_ev], CU_EVENT_DEFAULT));
        e->n_ev++;
    }
    *out = e->ev[i];
out:
    return st;
}

static enum gb_status gb_events_record(struct gb_events *e, int i)
{
    enum gb_status st;
    CUevent ev;
    if ((st = gb_events_get(e, i, &ev)) != GB_OK)
        goto out;
    GB_CU_CHECK(st, gb_cu->cuEventRecord(ev, e->gpu->stream));
out:
    return st;
}

/* Both events of sample `i` are made before its first is recorded, so that
 * no host work falls between the two records of a timed span. */
static enum gb_status gb_events_begin_pair(struct gb_events *e, int i)
{
    CUevent ev;
    enum gb_status st = gb_events_get(e, 2 * i + 1, &ev);
    return st != GB_OK ? st : gb_events_record(e, 2 * i);
}

static enum gb_status gb_events_begin(void *self)
{
    struct gb_events *e = self;
    if (e->open || e->pending >= GB_EVENTS_MAX)
        return gb_error_set(GB_ERR_USAGE, "event timer: begin without end, or more than %d samples pending",
                            GB_EVENTS_MAX);
    e->open = 1;
    return gb_events_begin_pair(e, e->pending);
}

static enum gb_status gb_events_end(void *self)
{
    struct gb_events *e = self;
    if (!e->open)
        return gb_error_set(GB_ERR_USAGE, "event timer: end without begin");
    e->open = 0;
    return gb_events_record(e, 2 * e->pending++ + 1);
}

static enum gb_status gb_events_collect(void *self, double *ns, int cap, int *n)
{
    struct gb_events *e = self;
    enum gb_status st = GB_OK;
    int k = e->pending < cap ? e->pending : cap;
    *n = 0;
    if (k == 0)
        goto out;
    if ((st = gb_gpu_wait_event(e->gpu, e->ev[2 * e->pending - 1])) != GB_OK)
        goto out;
    for (int i = 0; i < k; i++) {
        float ms = 0;
        GB_CU_CHECK(st, gb_cu->cuEventElapsedTime(&ms, e->ev[2 * i], e->ev[2 * i + 1]));
        ns[i] = ms * 1e6;
    }
    *n = k;
out:
    e->pending = 0;
    e->open = 0;
    return st;
}

static void gb_events_release(void *self)
{
    struct gb_events *e = self;
    if (!e)
        return;
    for (int i = 0; i < e->n_ev; i++)
        gb_cu->cuEventDestroy(e->ev[i]);
    free(e);
}

enum gb_status gb_timer_events_open(struct gb_gpu *g, unsigned flags, struct gb_timer *t)
{
    struct gb_events *e = calloc(1, sizeof *e);
    memset(t, 0, sizeof *t);
    t->release = gb_events_release;
    if (!e)
        return gb_error_set(GB_ERR_NOMEM, "out of host memory");
    e->gpu = g;
    t->name = "events";
    t->span = GB_TIMER_PER_SAMPLE;
    t->max_pending = GB_EVENTS_MAX;
    t->self = e;
    t->begin = gb_events_begin;
    t->end = gb_events_end;
    t->collect = gb_events_collect;
    t->counters = NULL;
    t->one_launch = (flags & GB_CLOCK_REPLACES) != 0;
    return GB_OK;
}
