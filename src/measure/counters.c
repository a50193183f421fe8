/* counters.c - one launch of a point profiled for hardware counters
 * (measure.h: gb_counters_profile), after its timed samples so that the
 * profiler never touches them. The launch is replayed by CUPTI once per
 * pass with the memory it may write saved and restored between passes
 * (gpu/cupti_profiler.h), so an in-place kernel sees the same inputs in
 * every pass; the outputs are poisoned before and checked after the
 * first launch, which shows that the replays left the work as one launch
 * leaves it. */
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

static enum gb_status gb_profiled_launch(void *ctx)
{
    struct gb_point *p = ctx;
    return p->bench->launch(p, p->bench->ctx);
}

/* Poisons the outputs and runs the launches before the profiled one. */
static enum gb_status gb_counters_lead_in(struct gb_gpu *g, struct gb_point *p, int skip)
{
    enum gb_status st = p->bench->poison ? p->bench->poison(p, p->bench->ctx) : GB_OK;
    for (int i = 0; i < skip && st == GB_OK; i++)
        st = p->bench->launch(p, p->bench->ctx);
    if (st == GB_OK)
        st = gb_gpu_flush_l2(g, GB_FLUSH_READ);
    return st == GB_OK ? gb_gpu_sync(g) : st;
}

/* The profiler over the launch: its value rows, decoded into `out`. */
static enum gb_status gb_counters_collect(struct gb_gpu *g, struct gb_point *p, char **req, size_t n_req,
                                          int strict, struct gb_counters *out)
{
    struct gb_profiler *prof = NULL;
    double *values = NULL;
    size_t n_ranges = 0, n_kept, n_dropped;
    const char *const *kept, *const *dropped;
    enum gb_status st = gb_profiler_open(g, req, n_req, !strict, &prof);
    if (st == GB_OK)
        st = gb_profiler_collect(prof, gb_profiled_launch, p, &values, &n_ranges);
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
        st = gb_counters_collect(g, p, req, n_req, o->counters_strict, &got);
    if (st == GB_OK && o->counter_launch == 0 && (st = p->bench->verify(p, p->bench->ctx)) != GB_OK)
        st = gb_error_set(GB_ERR_VERIFY, "the outputs did not verify after the profiled launch (the "
                          "kernel replay did not restore what the kernel reads?): %s", gb_error_message());
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
