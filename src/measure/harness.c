/* harness.c - measuring one point.
 *
 * Order of work for a point: compile, setup, poison, one launch, verify
 * (a wrong output is recorded as failed and never timed), warm-up, then
 * timed samples with event pairs, enqueued a chunk at a time so that the
 * host synchronises once per chunk rather than once per sample. Launches
 * shorter than batch_below_ns are captured batch-fold into a CUDA graph and
 * one graph launch is one sample; cold samples flush the L2 outside the
 * timed region before each sample and are never batched.
 *
 * A bench may bring its own sampling policy (fewer samples for sweeps of
 * many short points) and state shared by consecutive points (buffers made
 * once per problem size rather than once per point).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "gpubound/measure.h"

volatile int gb_measure_interrupted;

#define GB_CHUNK_MAX 32

void gb_measure_opts_default(struct gb_measure_opts *o)
{
    memset(o, 0, sizeof *o);
    o->rel_ci = 0.005;
    o->max_time_s = 2.0;
    o->min_samples = 10;
    o->max_samples = 5000;
    o->batch_below_ns = 20000.0;
    o->batch_target_ns = 200000.0;
    o->warmup_launches = 3;
    o->warmup_s = 0.02;
    o->chunk_s = 0.01;
    o->cache = -1;
}

void gb_measure_opts_for(const struct gb_measure_opts *o, const struct gb_bench *b,
                         struct gb_measure_opts *out)
{
    const struct gb_sample_policy *sp = b ? &b->sampling : NULL;
    *out = *o;
    if (!sp)
        return;
    if (sp->rel_ci > 0 && !o->user_rel_ci)
        out->rel_ci = sp->rel_ci;
    if (sp->max_time_s > 0 && !o->user_max_time)
        out->max_time_s = sp->max_time_s;
    if (sp->min_samples > 0)
        out->min_samples = sp->min_samples;
    if (sp->max_samples > 0)
        out->max_samples = sp->max_samples;
    if (out->max_samples < out->min_samples)
        out->max_samples = out->min_samples;
    if (sp->warmup_launches > 0)
        out->warmup_launches = sp->warmup_launches;
    if (sp->warmup_s > 0)
        out->warmup_s = sp->warmup_s;
    if (sp->chunk_s > 0)
        out->chunk_s = sp->chunk_s;
    if (sp->batch_target_ns > 0)
        out->batch_target_ns = sp->batch_target_ns;
}

void gb_measure_share_release(struct gb_measure_share *s)
{
    const struct gb_bench *b = s->bench;
    if (s->state && b && b->share_teardown)
        b->share_teardown(s->gpu, b->ctx, s->state);
    memset(s, 0, sizeof *s);
}

/* The key of a point's shared state: the values of the bench's share_by axes. */
static void gb_share_key(const struct gb_point *p, const struct gb_bench *b, char *key, size_t n)
{
    const char *list = b->share_by;
    size_t len = 0;
    key[0] = '\0';
    while (list && *list && len < n) {
        char axis[64];
        size_t an = strcspn(list, ",");
        snprintf(axis, sizeof axis, "%.*s", (int)an, list);
        int w = snprintf(key + len, n - len, "%s=%s;", axis, gb_point_str(p, axis));
        len += w > 0 ? (size_t)w : 0;
        list += an;
        if (*list == ',')
            list++;
    }
}

/* Gives the point its shared state: the one held when it is the same
 * bench, device and key, otherwise a new one (the old one freed first). */
static enum gb_status gb_share_acquire(struct gb_gpu *g, struct gb_point *p,
                                       struct gb_measure_share *sh, void **own)
{
    const struct gb_bench *b = p->bench;
    char key[sizeof sh->key];
    enum gb_status st;
    *own = NULL;
    if (!b->share_setup) {
        /* Another bench's buffers are not kept while this one runs. */
        if (sh && sh->state)
            gb_measure_share_release(sh);
        return GB_OK;
    }
    gb_share_key(p, b, key, sizeof key);
    if (sh && sh->state && sh->bench == b && sh->gpu == g && strcmp(sh->key, key) == 0) {
        p->shared = sh->state;
        return GB_OK;
    }
    if (sh)
        gb_measure_share_release(sh);
    void *state = NULL;
    if ((st = b->share_setup(p, b->ctx, &state)) != GB_OK)
        return st;
    p->shared = state;
    if (sh) {
        sh->bench = b;
        sh->gpu = g;
        snprintf(sh->key, sizeof sh->key, "%s", key);
        sh->state = state;
    } else {
        *own = state;    /* nobody keeps it: freed with the point */
    }
    return GB_OK;
}

static double gb_now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

static void gb_rec_reason(struct gb_record *rec, enum gb_record_status st, const char *msg)
{
    rec->status = st;
    snprintf(rec->reason, sizeof rec->reason, "%s", msg);
}

struct gb_timer {
    CUevent ev[2 * GB_CHUNK_MAX];
    int n_ev;                  /* created so far, on demand */
    CUgraph graph;
    CUgraphExec exec;
};

static void gb_timer_release(struct gb_timer *t)
{
    for (int i = 0; i < t->n_ev; i++)
        gb_cu->cuEventDestroy(t->ev[i]);
    if (t->exec)
        gb_cu->cuGraphExecDestroy(t->exec);
    if (t->graph)
        gb_cu->cuGraphDestroy(t->graph);
    memset(t, 0, sizeof *t);
}

/* One unit of timed work: the graph of `batch` launches, or one launch. */
static enum gb_status gb_work(struct gb_gpu *g, struct gb_point *p, struct gb_timer *t)
{
    enum gb_status st = GB_OK;
    if (t->exec) {
        GB_CU_CHECK(st, gb_cu->cuGraphLaunch(t->exec, g->stream));
        return GB_OK;
    }
    return p->bench->launch(p, p->bench->ctx);
out:
    return st;
}

/* Enqueues `k` samples and returns their times in ns (per launch). */
static enum gb_status gb_sample_chunk(struct gb_gpu *g, struct gb_point *p, struct gb_timer *t, int k,
                                      int cold, int batch, double *out_ns)
{
    enum gb_status st = GB_OK;
    while (t->n_ev < 2 * k) {
        GB_CU_CHECK(st, gb_cu->cuEventCreate(&t->ev[t->n_ev], CU_EVENT_DEFAULT));
        t->n_ev++;
    }
    for (int i = 0; i < k; i++) {
        if (cold && (st = gb_gpu_flush_l2(g)) != GB_OK)
            goto out;
        GB_CU_CHECK(st, gb_cu->cuEventRecord(t->ev[2 * i], g->stream));
        if ((st = gb_work(g, p, t)) != GB_OK)
            goto out;
        GB_CU_CHECK(st, gb_cu->cuEventRecord(t->ev[2 * i + 1], g->stream));
    }
    GB_CU_CHECK(st, gb_cu->cuEventSynchronize(t->ev[2 * k - 1]));
    for (int i = 0; i < k; i++) {
        float ms = 0;
        GB_CU_CHECK(st, gb_cu->cuEventElapsedTime(&ms, t->ev[2 * i], t->ev[2 * i + 1]));
        out_ns[i] = ms * 1e6 / batch;
    }
out:
    return st;
}

static enum gb_status gb_capture(struct gb_gpu *g, struct gb_point *p, struct gb_timer *t, int batch)
{
    enum gb_status st = GB_OK;
    GB_CU_CHECK(st, gb_cu->cuStreamBeginCapture(g->stream, CU_STREAM_CAPTURE_MODE_THREAD_LOCAL));
    for (int i = 0; i < batch && st == GB_OK; i++)
        st = p->bench->launch(p, p->bench->ctx);
    {
        CUresult r = gb_cu->cuStreamEndCapture(g->stream, &t->graph);
        if (st != GB_OK)
            goto out;
        if (r != CUDA_SUCCESS) {
            st = gb_cuda_fail(r, "cuStreamEndCapture", __FILE__, __LINE__);
            goto out;
        }
    }
    GB_CU_CHECK(st, gb_cu->cuGraphInstantiateWithFlags(&t->exec, t->graph, 0));
out:
    return st;
}

static int gb_device_fault(enum gb_status st)
{
    /* After a kernel fault the context is unusable: the run cannot go on. */
    return st == GB_ERR_CUDA && (strstr(gb_error_message(), "illegal") || strstr(gb_error_message(), "misaligned") ||
                                 strstr(gb_error_message(), "launch failed") || strstr(gb_error_message(), "ECC"));
}

enum gb_status gb_measure_point(struct gb_gpu *g, struct gb_point *p, const struct gb_measure_opts *given,
                                struct gb_record *rec)
{
    enum gb_status st = GB_OK;
    struct gb_timer t;
    double *samples = NULL;
    const struct gb_bench *b = p->bench;
    double t0 = gb_now_s();
    int set_up = 0;
    void *own_shared = NULL;
    struct gb_measure_opts eff;
    const struct gb_measure_opts *o = &eff;
    memset(&t, 0, sizeof t);
    gb_measure_opts_for(given, b, &eff);

    rec->cache = o->cache >= 0 ? (enum gb_cache_mode)o->cache : b->cache;
    rec->min_ns = rec->median_ns = rec->mean_ns = rec->stddev_ns = rec->ci_lo_ns = rec->ci_hi_ns = NAN;
    rec->bw_gbs = rec->gflops = NAN;
    rec->batch = 1;

    if (b->kernel_file || b->kernel_source) {
        char opts[16][GB_OPT_LEN];
        const char *optp[16];
        int n = b->kernel_opts ? b->kernel_opts(p, b->ctx, opts, 16) : 0;
        for (int i = 0; i < n; i++)
            optp[i] = opts[i];
        if ((st = gb_bench_module(g, b, optp, n, &p->module)) != GB_OK)
            goto fail;
    }
    if ((st = gb_share_acquire(g, p, o->share, &own_shared)) != GB_OK)
        goto fail;
    set_up = 1;
    if ((st = b->setup(p, b->ctx)) != GB_OK)
        goto fail;
    rec->bytes = p->bytes;
    rec->flops = p->flops;

    /* Verification run on poisoned outputs. */
    if (b->poison && (st = b->poison(p, b->ctx)) != GB_OK)
        goto fail;
    if ((st = b->launch(p, b->ctx)) != GB_OK || (st = gb_gpu_sync(g)) != GB_OK)
        goto fail;
    if ((st = b->verify(p, b->ctx)) != GB_OK)
        goto fail;

    /* Warm-up: at least 3 launches and 20 ms (or what the bench's policy
     * says), which also tells the launch's length. */
    int cold = rec->cache == GB_CACHE_COLD;
    double one[GB_CHUNK_MAX], warm_start = gb_now_s();
    int warm_n = 0;
    double est_ns = 0;
    do {
        if ((st = gb_sample_chunk(g, p, &t, 1, cold, 1, one)) != GB_OK)
            goto fail;
        est_ns = warm_n ? fmin(est_ns, one[0]) : one[0];
        warm_n++;
    } while ((warm_n < o->warmup_launches || gb_now_s() - warm_start < o->warmup_s) && warm_n < 1000);

    int batch = 1;
    if (!cold && !p->no_graph && est_ns < o->batch_below_ns) {
        batch = (int)ceil(o->batch_target_ns / fmax(est_ns, 100.0));
        if (batch > 1000)
            batch = 1000;
        if ((st = gb_capture(g, p, &t, batch)) != GB_OK)
            goto fail;
        /* Warm the graph too. */
        if ((st = gb_sample_chunk(g, p, &t, 2, 0, batch, one)) != GB_OK)
            goto fail;
    }
    rec->batch = batch;

    rec->sm_mhz_before = gb_gpu_sm_clock_mhz(g);
    samples = malloc((size_t)o->max_samples * sizeof *samples);
    if (!samples) {
        st = gb_error_set(GB_ERR_NOMEM, "out of host memory");
        goto fail;
    }
    int n = 0;
    struct gb_sample_stats s;
    memset(&s, 0, sizeof s);
    double sample_ns = est_ns * batch;
    double start = gb_now_s(), timed_ns = 0;
    for (;;) {
        if (gb_measure_interrupted) {
            st = gb_error_set(GB_ERR_INTERRUPTED, "interrupted");
            goto fail;
        }
        int k = (int)(o->chunk_s * 1e9 / fmax(sample_ns, 1.0)); /* about chunk_s of work per chunk */
        if (k < 1)
            k = 1;
        if (k > GB_CHUNK_MAX)
            k = GB_CHUNK_MAX;
        if (k > o->max_samples - n)
            k = o->max_samples - n;
        if ((st = gb_sample_chunk(g, p, &t, k, cold, batch, samples + n)) != GB_OK)
            goto fail;
        for (int i = 0; i < k; i++)
            timed_ns += samples[n + i] * batch;
        n += k;
        if (n >= o->min_samples) {
            if ((st = gb_stats_compute(samples, n, &s)) != GB_OK)
                goto fail;
            rec->converged = gb_stats_converged(&s, o->rel_ci);
            if (rec->converged || n >= o->max_samples || gb_now_s() - start > o->max_time_s)
                break;
        }
    }
    rec->sm_mhz_after = gb_gpu_sm_clock_mhz(g);
    if (rec->sm_mhz_before > 0 && rec->sm_mhz_after > 0 &&
        rec->sm_mhz_after < rec->sm_mhz_before - fmax(30.0, 0.03 * rec->sm_mhz_before))
        rec->throttled = 1;
    rec->samples = n;
    rec->min_ns = s.min;
    rec->median_ns = s.median;
    rec->mean_ns = s.mean;
    rec->stddev_ns = s.stddev;
    rec->ci_lo_ns = s.ci_lo;
    rec->ci_hi_ns = s.ci_hi;
    rec->timed_s = timed_ns * 1e-9;
    if (p->bytes > 0)
        rec->bw_gbs = p->bytes / s.median;
    if (p->flops > 0)
        rec->gflops = p->flops / s.median;
    rec->status = GB_REC_OK;
    st = GB_OK;
    goto out;

fail:
    if (st == GB_ERR_VERIFY)
        gb_rec_reason(rec, GB_REC_FAILED, gb_error_message());
    else if (st == GB_ERR_UNSUPPORTED)
        gb_rec_reason(rec, GB_REC_SKIPPED, gb_error_message());
    else
        gb_rec_reason(rec, GB_REC_ERROR, gb_error_message());
    /* Only an interruption or a faulted device stops the run; any other
     * failure is recorded with the point and the run goes on. */
    if (st != GB_ERR_INTERRUPTED && !gb_device_fault(st))
        st = GB_OK;
out:
    for (int i = 0; i < p->n_metrics; i++)
        gb_record_set_metric(rec, p->metrics[i].name, p->metrics[i].value);
    gb_timer_release(&t);
    free(samples);
    if (set_up && b->teardown)
        b->teardown(p, b->ctx);
    if (own_shared && b->share_teardown)
        b->share_teardown(g, b->ctx, own_shared);
    p->shared = NULL;
    rec->wall_s = gb_now_s() - t0;
    return st;
}
