/* harness.c - measuring one point.
 *
 * The steps of a point: prepare (compile, shared state, setup), verify
 * (poison, one launch, check: a wrong output is recorded as failed and never
 * timed; a verify_last bench poisons here and checks the outputs of its
 * last timed launch after the samples instead), warm up (which also tells
 * the launch's length and whether to batch it), sample until the stopping rule holds or a cap (sampling.c, through
 * the timer seam of timer.h), record. Samples are enqueued a chunk at a
 * time so that the host synchronises once per chunk rather than once per
 * sample. Launches shorter than batch_below_ns are captured batch-fold into
 * a CUDA graph and one graph launch is one sample; cold samples flush the
 * L2 outside the timed region before each sample and are never batched.
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
#include "measure/clocks.h"
#include "measure/sampling.h"
#include "measure/timer.h"

/* ---- the bench's callbacks: every call goes through one of these ---- */

static int gb_call_kernel_opts(const struct gb_point *p, char opts[][GB_OPT_LEN], int max)
{
    const struct gb_bench *b = p->bench;
    return b->kernel_opts ? b->kernel_opts(p, b->ctx, opts, max) : 0;
}

static enum gb_status gb_call_setup(struct gb_point *p)
{
    return p->bench->setup(p, p->bench->ctx);
}

static enum gb_status gb_call_poison(struct gb_point *p)
{
    return p->bench->poison ? p->bench->poison(p, p->bench->ctx) : GB_OK;
}

static enum gb_status gb_call_launch(struct gb_point *p)
{
    return p->bench->launch(p, p->bench->ctx);
}

static enum gb_status gb_call_verify(struct gb_point *p)
{
    return p->bench->verify(p, p->bench->ctx);
}

static void gb_call_teardown(struct gb_point *p)
{
    if (p->bench->teardown)
        p->bench->teardown(p, p->bench->ctx);
}

static enum gb_status gb_call_share_setup(const struct gb_bench *b, struct gb_point *p, void **state)
{
    return b->share_setup(p, b->ctx, state);
}

static void gb_call_share_teardown(const struct gb_bench *b, struct gb_gpu *g, void *state)
{
    if (state && b && b->share_teardown)
        b->share_teardown(g, b->ctx, state);
}

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
    o->warmup_s = GB_IDLE_WARMUP_S;
    o->chunk_s = 0.01;
    o->cache = -1;
    o->flush = GB_FLUSH_EMPTY;
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
    gb_call_share_teardown(s->bench, s->gpu, s->state);
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
    if ((st = gb_call_share_setup(b, p, &state)) != GB_OK)
        return st;
    g->share_gen++;
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

static void gb_rec_reason(struct gb_record *rec, enum gb_record_status st, const char *msg)
{
    rec->status = st;
    snprintf(rec->reason, sizeof rec->reason, "%s", msg);
}

double gb_bench_timeout_s(const struct gb_bench *b)
{
    return b && b->timeout_s > 0 ? b->timeout_s : GB_TIMEOUT_DEFAULT_S;
}

/* ---- one point, in steps ---- */

/* What the steps of one point share. */
struct gb_point_run {
    struct gb_gpu *g;
    struct gb_point *p;
    struct gb_record *rec;
    struct gb_measure_opts o;    /* the caller's options with the bench's policy applied */
    struct gb_timer timer;
    const struct gb_clock *clock; /* the timer's row in the table of clocks (clocks.h) */
    CUgraph graph;               /* `batch` launches captured, when batched */
    CUgraphExec exec;
    int set_up;                  /* setup was called: teardown must be */
    void *own_shared;            /* shared state nobody keeps: freed with the point */
    double est_ns;               /* the launch's length: the shortest warm-up launch, or verify_ns */
    double verify_ns;            /* the verification launch, host clock */
    double warm_for_s;           /* how long the GPU has been at work when the warm-up starts */
    unsigned long share_gen;     /* the generation of p->shared (0: none) */
    int batch;                   /* launches per sample */
    struct gb_sample_set samples;
};

/* The cold mode's flush, before each sample and outside its timed span. */
static enum gb_status gb_work_flush(void *ctx)
{
    struct gb_point_run *r = ctx;
    return gb_gpu_flush_l2(r->g, (enum gb_flush_method)r->o.flush);
}

/* --isolate: the GPU idle for isolate_s right before each sample's
 * launch (after a cold sample's flush), as under Nsight Compute, whose
 * launches run one at a time with its own host work before each. */
static enum gb_status gb_work_isolate(void *ctx)
{
    struct gb_point_run *r = ctx;
    enum gb_status st = GB_OK;
    if ((r->rec->cache == GB_CACHE_COLD && (st = gb_work_flush(ctx)) != GB_OK) || (st = gb_gpu_sync(r->g)) != GB_OK)
        return st;
    struct timespec ts = {(time_t)r->o.isolate_s, (long)(fmod(r->o.isolate_s, 1.0) * 1e9)};
    while (nanosleep(&ts, &ts) != 0 && !gb_measure_interrupted)
        ;
    return GB_OK;
}

/* One sample's work: the graph of `batch` launches, or one launch. */
static enum gb_status gb_work_run(void *ctx)
{
    struct gb_point_run *r = ctx;
    enum gb_status st = GB_OK;
    if (!r->exec)
        return gb_call_launch(r->p);
    GB_CU_CHECK(st, gb_cu->cuGraphLaunch(r->exec, r->g->stream));
out:
    return st;
}

static void gb_point_work(struct gb_point_run *r, struct gb_sample_work *w)
{
    w->prepare = r->o.isolate_s > 0 ? gb_work_isolate : r->rec->cache == GB_CACHE_COLD ? gb_work_flush : NULL;
    w->run = gb_work_run;
    w->ctx = r;
    w->batch = r->batch;
    if (r->timer.set_batch)
        r->timer.set_batch(r->timer.self, r->batch);
}

static void gb_point_start(struct gb_point_run *r, struct gb_gpu *g, struct gb_point *p,
                           const struct gb_measure_opts *given, struct gb_record *rec)
{
    memset(r, 0, sizeof *r);
    r->g = g;
    r->p = p;
    r->rec = rec;
    r->batch = 1;
    gb_measure_opts_for(given, p->bench, &r->o);
    g->wait_limit_s = gb_bench_timeout_s(p->bench);
    rec->cache = r->o.cache >= 0 ? (enum gb_cache_mode)r->o.cache : p->bench->cache;
    gb_time_stats_clear(&rec->time_ns);
    gb_time_stats_clear(&rec->batch_time_ns);
    rec->bw_gbs = rec->gflops = NAN;
    rec->batch = 1;
    rec->time_source[0] = '\0';
}

/* Compiles the bench's kernel file with the point's options. */
static enum gb_status gb_point_compile(struct gb_point_run *r)
{
    char opts[16][GB_OPT_LEN];
    const char *optp[16];
    const struct gb_bench *b = r->p->bench;
    if (!b->kernel_file && !b->kernel_source)
        return GB_OK;
    int n = gb_call_kernel_opts(r->p, opts, 16);
    for (int i = 0; i < n; i++)
        optp[i] = opts[i];
    return gb_bench_module(r->g, b, optp, n, &r->p->module);
}

/* Step 1: compile, shared state, setup. */
static enum gb_status gb_point_prepare(struct gb_point_run *r)
{
    enum gb_status st;
    double t = gb_measure_now_s();
    st = gb_point_compile(r);
    /* The compile is its own part, not set-up's (gb_measure_point adds the whole step to setup_s). */
    double dt = gb_measure_now_s() - t;
    r->rec->parts.compile_s += dt;
    r->rec->parts.setup_s -= dt;
    if (st != GB_OK)
        return st;
    if ((st = gb_share_acquire(r->g, r->p, r->o.share, &r->own_shared)) != GB_OK)
        return st;
    r->share_gen = r->p->shared ? r->g->share_gen : 0;
    r->set_up = 1;
    if ((st = gb_call_setup(r->p)) != GB_OK)
        return st;
    r->rec->bytes = r->p->bytes;
    r->rec->flops = r->p->flops;
    return GB_OK;
}

/* Step 2: one launch on poisoned outputs, checked. The poison, the launch
 * and the check are work on the GPU: the launch is the first of the
 * warm-up (gb_warm_plan). */
static int gb_point_verify_last(const struct gb_point_run *r)
{
    return r->p->bench->verify_last && !r->o.profile_only;
}

static enum gb_status gb_point_verify(struct gb_point_run *r)
{
    enum gb_status st;
    double t0 = gb_measure_now_s();
    if ((st = gb_call_poison(r->p)) != GB_OK || (st = gb_gpu_sync(r->g)) != GB_OK)
        return st;
    if (gb_point_verify_last(r)) {
        /* The samples' last launch is checked (gb_point_check). */
        gb_busy_mark(&r->g->busy_s, &r->g->spell_s, t0, gb_measure_now_s());
        return GB_OK;
    }
    double t = gb_measure_now_s();
    if ((st = gb_call_launch(r->p)) != GB_OK || (st = gb_gpu_sync(r->g)) != GB_OK)
        return st;
    r->verify_ns = (gb_measure_now_s() - t) * 1e9;
    st = gb_call_verify(r->p);
    gb_busy_mark(&r->g->busy_s, &r->g->spell_s, t0, gb_measure_now_s());
    return st;
}

static enum gb_status gb_point_capture(struct gb_point_run *r, int batch)
{
    enum gb_status st = GB_OK;
    GB_CU_CHECK(st, gb_cu->cuStreamBeginCapture(r->g->stream, CU_STREAM_CAPTURE_MODE_THREAD_LOCAL));
    for (int i = 0; i < batch && st == GB_OK; i++)
        st = gb_call_launch(r->p);
    {
        CUresult cr = gb_cu->cuStreamEndCapture(r->g->stream, &r->graph);
        if (st != GB_OK)
            goto out;
        if (cr != CUDA_SUCCESS) {
            st = gb_cuda_fail(cr, "cuStreamEndCapture", __FILE__, __LINE__);
            goto out;
        }
    }
    GB_CU_CHECK(st, gb_cu->cuGraphInstantiateWithFlags(&r->exec, r->graph, 0));
out:
    return st;
}

/* Launches too short for an event pair are batched in a CUDA graph of
 * about batch_target_ns, itself warmed with two samples. */
static enum gb_status gb_point_batch(struct gb_point_run *r)
{
    enum gb_status st;
    struct gb_sample_work w;
    struct gb_sample_set warm;
    const struct gb_measure_opts *o = &r->o;
    if (r->rec->cache == GB_CACHE_COLD || r->p->no_graph || !(r->clock->can & GB_CLOCK_BATCH) ||
        r->timer.one_launch || r->est_ns >= o->batch_below_ns)
        return GB_OK;
    int batch = (int)ceil(o->batch_target_ns / fmax(r->est_ns, 100.0));
    if (batch > 1000)
        batch = 1000;
    if ((st = gb_point_capture(r, batch)) != GB_OK)
        return st;
    r->batch = batch;
    gb_point_work(r, &w);
    memset(&warm, 0, sizeof warm);
    st = gb_sample_chunk(&r->timer, &w, 2, &warm);
    gb_sample_set_release(&warm);
    return st;
}

/* The clock: the one the options name, or auto's first and then the ones
 * after it (the table of clocks, clocks.h). */
static enum gb_status gb_point_timer(struct gb_point_run *r)
{
    const struct gb_clock_table *tab = gb_clocks();
    return gb_clock_open(tab, gb_clock_first(tab, r->o.timer), r->o.timer, 0, r->g, &r->timer, &r->clock);
}

/* Warm-up with the open clock, which also tells the launch's length, then
 * the batch. */
static enum gb_status gb_point_warm(struct gb_point_run *r, enum gb_warm_plan plan)
{
    enum gb_status st;
    struct gb_sample_work w;
    if (plan == GB_WARM_NONE) {
        r->est_ns = r->verify_ns;
        return GB_OK;
    }
    if (plan == GB_WARM_BURST)
        r->o.warmup_s = 0;
    else
        r->o.warmup_s = gb_warm_top_up(r->o.warmup_s, r->warm_for_s);
    gb_point_work(r, &w);
    if ((st = gb_sample_warm_up(&r->timer, &w, &r->o, &r->est_ns)) != GB_OK ||
        (st = gb_point_batch(r)) != GB_OK)
        return st;
    r->rec->batch = r->batch;
    return GB_OK;
}

/* The clock refused the point's launch (gb_clock_refused: the profiler, a
 * launch that runs no kernel): the clock after it (CUPTI's timestamps,
 * then events) times it instead, after a warm-up with that clock, opened
 * as a replacement (GB_CLOCK_REPLACES: one launch a sample). */
static enum gb_status gb_point_next_clock(struct gb_point_run *r)
{
    enum gb_status st;
    const struct gb_clock_table *tab = gb_clocks();
    r->timer.release(r->timer.self);
    r->timer.release = NULL;
    gb_sample_set_release(&r->samples);
    if ((st = gb_clock_open(tab, gb_clock_next(tab, r->clock), r->o.timer, GB_CLOCK_REPLACES, r->g, &r->timer,
                            &r->clock)) != GB_OK)
        return st;
    return gb_point_warm(r, GB_WARM_BURST);
}

/* The launch that warmed this point, host clock (ns; 0: none): its
 * verification launch, or, for a verify_last bench timed one launch a
 * sample, the previous point's samples when they ran the same bench on the
 * same shared state (the same code and buffers, moments before). */
static double gb_point_warmed_ns(struct gb_point_run *r)
{
    const struct gb_gpu *g = r->g;
    if (!gb_point_verify_last(r))
        return r->verify_ns;
    if (r->share_gen == 0 || g->warm_bench != (const void *)r->p->bench || g->warm_share_gen != r->share_gen ||
        (!r->timer.one_launch && (r->clock->can & GB_CLOCK_BATCH)))
        return 0;
    r->verify_ns = g->warm_launch_ns; /* the launch's length until the samples tell it */
    return g->warm_launch_ns;
}

/* Step 3: the clock, then warm-up. */
static enum gb_status gb_point_warm_up(struct gb_point_run *r)
{
    enum gb_status st;
    int held = gb_clocks_hold(gb_clocks(), r->g);
    double t = gb_measure_now_s();
    st = gb_point_timer(r);
    if (!held && gb_clocks_hold(gb_clocks(), r->g)) {
        /* Opening what a clock keeps from point to point (the profiler) is
         * once a process, like the GPU's start. */
        double dt = gb_measure_now_s() - t;
        r->rec->parts.start_s += dt;
        r->rec->parts.warmup_s -= dt;
    }
    if (st != GB_OK)
        return st;
    /* The GPU has been at work for a while (the previous point's samples,
     * this one's verification): its clocks are up; a long verified launch
     * has warmed this point's caches and code, and one burst of launches
     * warms a short one's. A spell of work younger than the full warm-up
     * is topped up to it. */
    double now = gb_measure_now_s(), since = r->g->busy_s > 0 ? now - r->g->busy_s : -1;
    r->warm_for_s = since >= 0 && since < GB_STILL_WARM_S ? now - r->g->spell_s : 0;
    st = gb_point_warm(r, gb_warm_plan(since, r->warm_for_s, gb_point_warmed_ns(r)));
    return gb_clock_refused(gb_clocks(), r->clock, r->o.timer, st) ? gb_point_next_clock(r) : st;
}

/* The samples with the open clock, from its mark on. */
static enum gb_status gb_point_samples(struct gb_point_run *r)
{
    struct gb_sample_work w;
    gb_point_work(r, &w);
    if (r->timer.mark)
        r->timer.mark(r->timer.self);
    return gb_sample_until(&r->timer, &w, &r->o, r->est_ns * r->rec->batch, &r->samples);
}

/* Step 4: samples until the stopping rule holds or a cap, between two
 * readings of the SM clock. */
static enum gb_status gb_point_sample(struct gb_point_run *r)
{
    enum gb_status st;
    struct gb_record *rec = r->rec;
    double t = gb_measure_now_s();
    rec->sm_mhz_before = gb_gpu_sm_clock_mhz(r->g);
    st = gb_point_samples(r);
    if (gb_clock_refused(gb_clocks(), r->clock, r->o.timer, st) && (st = gb_point_next_clock(r)) == GB_OK)
        st = gb_point_samples(r);
    if (st != GB_OK)
        return st;
    gb_busy_mark(&r->g->busy_s, &r->g->spell_s, t, gb_measure_now_s());
    rec->sm_mhz_after = gb_gpu_sm_clock_mhz(r->g);
    if (rec->sm_mhz_before > 0 && rec->sm_mhz_after > 0 &&
        rec->sm_mhz_after < rec->sm_mhz_before - fmax(30.0, 0.03 * rec->sm_mhz_before))
        rec->throttled = 1;
    return GB_OK;
}

/* Step 4b (verify_last benches): the outputs of the last timed launch,
 * checked; the GPU's spell of work goes on, and the next point of the same
 * bench and shared state may count these samples as its warm-up. */
static enum gb_status gb_point_check(struct gb_point_run *r)
{
    enum gb_status st;
    double t0 = gb_measure_now_s();
    if (!gb_point_verify_last(r))
        return GB_OK;
    if ((st = gb_gpu_sync(r->g)) != GB_OK || (st = gb_call_verify(r->p)) != GB_OK)
        return st;
    gb_busy_mark(&r->g->busy_s, &r->g->spell_s, t0, gb_measure_now_s());
    r->g->warm_bench = r->p->bench;
    r->g->warm_share_gen = r->share_gen;
    r->g->warm_launch_ns = r->samples.stats.median;
    return GB_OK;
}

/* The samples' statistics as a record keeps them. */
static void gb_time_stats_set(struct gb_time_stats *t, const struct gb_sample_stats *s)
{
#define GB_TS_COPY(f) t->f = s->f;
    GB_TIME_STATS(GB_TS_COPY)
#undef GB_TS_COPY
}

/* Step 5: the samples' statistics into the record. */
static enum gb_status gb_point_record(struct gb_point_run *r)
{
    struct gb_record *rec = r->rec;
    const struct gb_sample_stats *s = &r->samples.stats;
    rec->samples = r->samples.n;
    rec->converged = r->samples.converged;
    gb_time_stats_set(&rec->time_ns, s);
    rec->timed_s = r->samples.timed_ns * 1e-9;
    /* The samples themselves go with the record (results.json's sample_ns). */
    rec->sample_ns = r->samples.ns;
    rec->n_sample_ns = r->samples.n;
    r->samples.ns = NULL;
    gb_timer_source(&r->timer, rec->batch, rec->time_source, sizeof rec->time_source);
    rec->isolate_s = r->o.isolate_s;
    if (r->timer.span == GB_TIMER_PER_SAMPLE && rec->batch > 1) /* batched samples are batch time */
        gb_time_stats_set(&rec->batch_time_ns, s);
    struct gb_sample_stats bs;
    if (rec->batch > 1 && r->timer.batch_stats && r->timer.batch_stats(r->timer.self, &bs) == GB_OK)
        gb_time_stats_set(&rec->batch_time_ns, &bs);
    if (r->timer.aside_ns)
        rec->parts.flush_s = r->timer.aside_ns(r->timer.self) * 1e-9;
    if (rec->cache == GB_CACHE_COLD)
        snprintf(rec->cold_flush, sizeof rec->cold_flush, "%s", gb_flush_method_name((enum gb_flush_method)r->o.flush));
    if (r->p->bytes > 0)
        rec->bw_gbs = r->p->bytes / s->median;
    if (r->p->flops > 0)
        rec->gflops = r->p->flops / s->median;
    rec->status = GB_REC_OK;
    return r->timer.counters ? r->timer.counters(r->timer.self, rec) : GB_OK;
}

/* After the samples: one launch profiled for counters. A metric the GPU
 * lacks (asked for by name) fails the point, and so does any failure when
 * counters are all the point is for; otherwise the point keeps its times
 * without counters and gb_counters_note_take says why. */
static enum gb_status gb_point_counters(struct gb_point_run *r)
{
    /* The samples are recorded: the clock goes first (the profiler timer
     * holds the context's one range profiler). */
    if (r->timer.release)
        r->timer.release(r->timer.self);
    r->timer.release = NULL;
    gb_clocks_set_aside(gb_clocks(), r->g);
    double t0 = gb_measure_now_s();
    enum gb_status st = gb_counters_profile(r->g, r->p, &r->o, &r->rec->counters);
    /* Its passes kept the GPU at work: the next point's spell goes on. */
    gb_busy_mark(&r->g->busy_s, &r->g->spell_s, t0, gb_measure_now_s());
    if (st == GB_OK || st == GB_ERR_USAGE || r->o.profile_only || st == GB_ERR_INTERRUPTED || st == GB_ERR_DEVICE_LOST || st == GB_ERR_TIMEOUT)
        return st;
    gb_counters_release(&r->rec->counters);
    return GB_OK;
}

/* profile: nothing timed; the record holds the counters. */
static enum gb_status gb_point_profile_only(struct gb_point_run *r)
{
    r->rec->status = GB_REC_OK;
    return gb_point_counters(r);
}

/* The reason of a point whose step failed with `st`, from the message. */
static void gb_failure_reason(const struct gb_point_run *r, enum gb_status st, char *buf, size_t n)
{
    const char *msg = gb_error_message();
    if (st == GB_ERR_TIMEOUT)
        snprintf(buf, n, "hung: the GPU did not finish within the point's limit of %g s (timeout_s); the run was stopped",
                 r->g->wait_limit_s);
    else if (st == GB_ERR_DEVICE_LOST)
        snprintf(buf, n, "faulted: the context is lost, the run goes on in a fresh process: %s", msg);
    else if (st == GB_ERR_CUDA && (strncmp(msg, "cuLaunchKernel failed", 21) == 0 ||
                                   strncmp(msg, "cuFuncSetAttribute failed", 25) == 0))
        snprintf(buf, n, "the driver refused the launch (block, registers or shared memory): %s", msg);
    else
        snprintf(buf, n, "%s", msg);
}

/* A step failed: the record says why; returns what the caller must see:
 * an interruption, a hung GPU (GB_ERR_TIMEOUT) and a lost context
 * (GB_ERR_DEVICE_LOST) go up; any other failure stays with the point. A
 * compile error keeps NVRTC's log in the record. */
static enum gb_status gb_point_failed(struct gb_point_run *r, enum gb_status st)
{
    struct gb_record *rec = r->rec;
    char why[sizeof rec->reason];
    gb_failure_reason(r, st, why, sizeof why);
    if (st == GB_ERR_VERIFY)
        gb_rec_reason(rec, GB_REC_FAILED, why);
    else if (st == GB_ERR_UNSUPPORTED)
        gb_rec_reason(rec, GB_REC_SKIPPED, why);
    else
        gb_rec_reason(rec, GB_REC_ERROR, why);
    if (st == GB_ERR_COMPILE && r->g->compile_log) {
        (void)gb_record_set_compile_log(rec, r->g->compile_log); /* no memory: the reason still says it */
        free(r->g->compile_log);
        r->g->compile_log = NULL;
    }
    return st == GB_ERR_INTERRUPTED || st == GB_ERR_TIMEOUT || st == GB_ERR_DEVICE_LOST ? st : GB_OK;
}

/* Frees what the steps took, in the reverse order. */
static void gb_point_finish(struct gb_point_run *r)
{
    struct gb_point *p = r->p;
    for (int i = 0; i < p->n_metrics; i++)
        gb_record_set_metric(r->rec, p->metrics[i].name, p->metrics[i].value);
    if (r->g->hung) {
        /* A kernel still runs: frees and destroys could wait for it. What
         * the point holds is left to the process's exit. */
        gb_sample_set_release(&r->samples);
        p->shared = NULL;
        return;
    }
    if (r->timer.release)
        r->timer.release(r->timer.self);
    if (r->exec)
        gb_cu->cuGraphExecDestroy(r->exec);
    if (r->graph)
        gb_cu->cuGraphDestroy(r->graph);
    gb_sample_set_release(&r->samples);
    if (r->set_up)
        gb_call_teardown(p);
    gb_call_share_teardown(p->bench, r->g, r->own_shared);
    p->shared = NULL;
}

/* Runs one step, adding its wall time to *part. */
static enum gb_status gb_point_step(struct gb_point_run *r, enum gb_status (*step)(struct gb_point_run *),
                                    double *part)
{
    double t = gb_measure_now_s();
    enum gb_status st = step(r);
    *part += gb_measure_now_s() - t;
    return st;
}

enum gb_status gb_measure_point(struct gb_gpu *g, struct gb_point *p, const struct gb_measure_opts *given,
                                struct gb_record *rec)
{
    struct gb_point_run r;
    double t0 = gb_measure_now_s();
    enum gb_status st;
    gb_point_start(&r, g, p, given, rec);
    struct gb_wall_parts *w = &rec->parts;
    if ((st = gb_point_step(&r, gb_point_prepare, &w->setup_s)) == GB_OK &&
        (st = gb_point_step(&r, gb_point_verify, &w->verify_s)) == GB_OK && r.o.profile_only)
        st = gb_point_step(&r, gb_point_profile_only, &w->verify_s);
    else if (st == GB_OK && (st = gb_point_step(&r, gb_point_warm_up, &w->warmup_s)) == GB_OK &&
             (st = gb_point_step(&r, gb_point_sample, &w->sampling_s)) == GB_OK &&
             (st = gb_point_step(&r, gb_point_check, &w->verify_s)) == GB_OK &&
             (st = gb_point_record(&r)) == GB_OK && r.o.n_counters)
        /* The profiling pass is verification-like work outside the samples. */
        st = gb_point_step(&r, gb_point_counters, &w->verify_s);
    if (st != GB_OK)
        st = gb_point_failed(&r, st);
    double t = gb_measure_now_s();
    gb_point_finish(&r);
    w->teardown_s += gb_measure_now_s() - t;
    /* A fault can surface after the point's last wait (in its teardown): the
     * point that ran the kernel owns it, not the next one. */
    if (st == GB_OK && !g->hung && (st = gb_gpu_check(g)) != GB_OK)
        st = gb_point_failed(&r, st);
    rec->wall_s = gb_measure_now_s() - t0;
    return st;
}
