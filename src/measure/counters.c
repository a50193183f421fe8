/* counters.c - one launch of a point profiled for hardware counters
 * (measure.h: gb_counters_profile), after its timed samples so that the
 * profiler never touches them. By default (Nsight Compute's
 * --cache-control all) the launch runs once per pass (user replay), each
 * pass after the outputs are poisoned and the L2 is emptied as a cold
 * sample empties it (the empty flush, gpu.h; GPUBOUND_COUNTERS_FLUSH
 * names another for experiments), so every pass starts without the
 * kernel's lines in the L2. With o->counters_keep_cache (--cache-control none)
 * CUPTI replays the kernel itself with the memory it may write saved and
 * restored between passes, and the caches are as the previous pass left
 * them. Either way the outputs are checked after the first launch, which
 * shows that the passes left the work as one launch leaves it. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gpu/cupti_profiler.h"
#include "gpubound/counters.h"
#include "gpubound/measure.h"

static char gb_note[512];

void gb_counters_note_take(char *buf, size_t n)
{
    snprintf(buf, n, "%s", gb_note);
    gb_note[0] = '\0';
}

static void gb_counters_note(const char *fmt, const char *a, const char *b)
{
    if (!gb_note[0])
        snprintf(gb_note, sizeof gb_note, fmt, a, b);
}


/* Before each pass: the outputs poisoned (for the first launch, which is
 * verified), the L2 left with no line of the kernel's and none dirty. */
struct gb_counters_pass {
    struct gb_gpu *g;
    struct gb_point *p;
    int poison;
    int flush;   /* enum gb_flush_method: the run's (--flush), unless GPUBOUND_COUNTERS_FLUSH names one */
};

static enum gb_status gb_counters_before_pass(void *ctx)
{
    struct gb_counters_pass *c = ctx;
    enum gb_status st = GB_OK;
    if (c->poison && c->p->bench->poison)
        st = c->p->bench->poison(c->p, c->p->bench->ctx);
    const char *e = getenv("GPUBOUND_COUNTERS_FLUSH");
    int m = e ? gb_flush_method_parse(e) : c->flush;
    if (st == GB_OK)
        st = gb_gpu_flush_l2(c->g, (enum gb_flush_method)(m < 0 ? c->flush : m));
    return st == GB_OK ? gb_gpu_sync(c->g) : st;
}

static enum gb_status gb_profiled_launch(void *ctx)
{
    struct gb_counters_pass *c = ctx;
    return c->p->bench->launch(c->p, c->p->bench->ctx);
}

/* Poisons the outputs and runs the launches before the profiled one. */
static enum gb_status gb_counters_lead_in(struct gb_gpu *g, struct gb_point *p, int skip)
{
    enum gb_status st = p->bench->poison ? p->bench->poison(p, p->bench->ctx) : GB_OK;
    for (int i = 0; i < skip && st == GB_OK; i++)
        st = p->bench->launch(p, p->bench->ctx);
    return st == GB_OK ? gb_gpu_sync(g) : st;
}

/* The profiler over the launch: its value rows, decoded into `out`. */
static enum gb_status gb_counters_collect(struct gb_gpu *g, struct gb_point *p, char **req, size_t n_req,
                                          const struct gb_measure_opts *o, struct gb_counters *out)
{
    struct gb_counters_pass pass = {.g = g, .p = p, .poison = o->counter_launch == 0, .flush = o->flush};
    enum gb_profiler_replay replay = o->counters_keep_cache ? GB_PROFILER_KERNEL_REPLAY : GB_PROFILER_USER_REPLAY;
    struct gb_profiler *prof = NULL;
    double *values = NULL;
    size_t n_ranges = 0, n_kept, n_dropped;
    const char *const *kept, *const *dropped;
    enum gb_status st = gb_profiler_open(g, req, n_req, !o->counters_strict, replay, &prof);
    /* Kernel replay has one pass of the work: the hook runs once. */
    if (st == GB_OK)
        st = gb_profiler_collect(prof, gb_counters_before_pass, gb_profiled_launch, &pass, &values, &n_ranges);
    if (st == GB_OK) {
        n_kept = gb_profiler_metrics(prof, &kept);
        st = gb_counter_decode((char *const *)kept, n_kept, values, n_ranges, NULL, NULL, out);
        n_dropped = gb_profiler_dropped(prof, &dropped);
        if (n_dropped)
            gb_counters_note("metric %s is not known on this GPU and was left out%s", dropped[0],
                             n_dropped > 1 ? " (and others: see 'gpubound profile')" : "");
    }
    free(values);
    gb_profiler_close(prof);
    return st;
}

enum gb_status gb_counters_profile(struct gb_gpu *g, struct gb_point *p, const struct gb_measure_opts *o,
                                   struct gb_counters *out)
{
    char **req = NULL;
    size_t n_req = 0;
    struct gb_counters got = {0};
    enum gb_status st = gb_counter_request(o->counters, o->n_counters, &req, &n_req);
    if (st == GB_OK)
        st = gb_counters_lead_in(g, p, o->counter_launch);
    if (st == GB_OK)
        st = gb_counters_collect(g, p, req, n_req, o, &got);
    if (st == GB_OK && o->counter_launch == 0 && (st = p->bench->verify(p, p->bench->ctx)) != GB_OK)
        st = gb_error_set(GB_ERR_VERIFY, "the outputs did not verify after the profiled launch (a kernel "
                          "that changes its own inputs profiled with user replay? try --cache-control "
                          "none): %s", gb_error_message());
    for (int i = 0; st == GB_OK && i < got.n; i++) {
        const struct gb_counter *k = &got.v[i];
        st = gb_counters_set(out, k->name, k->value);
    }
    if (st == GB_ERR_UNSUPPORTED || st == GB_ERR_VERIFY)
        gb_counters_note("%s%s", gb_error_message(), "");
    gb_counters_release(&got);
    gb_counter_names_free(req, n_req);
    return st;
}
