/* session.c - a measuring session and the run loop (session.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "gpubound/session.h"
#include "measure/clocks.h"
#include "measure/compile_pool.h"
#include "measure/nvtx.h"
#include "measure/sampling.h"
#include "measure/session_loop.h"

enum gb_status gb_session_open(struct gb_session *s, int ordinal, const char *command_line, int quick)
{
    enum gb_status st;
    memset(s, 0, sizeof *s);
    s->t_start = gb_measure_now_s();
    if ((st = gb_gpu_open(ordinal, &s->gpu)) != GB_OK)
        return st;
    s->gpu_open = 1;
    char nvrtc[32] = "";
    if (gb_nvrtc_version(nvrtc, sizeof nvrtc) != GB_OK)
        nvrtc[0] = '\0';
    gb_run_info_init(&s->info, command_line, nvrtc);
    if ((st = gb_compiler_describe(s->info.compiler, sizeof s->info.compiler)) != GB_OK)
        return st;
    s->info.has_device = 1;
    s->info.device = s->gpu.info;
    snprintf(s->info.cuda_driver, sizeof s->info.cuda_driver, "%d.%d", s->gpu.info.driver_version / 1000,
             (s->gpu.info.driver_version % 1000) / 10);
    gb_gpu_driver_release(s->info.driver_release, sizeof s->info.driver_release);
    snprintf(s->info.mode, sizeof s->info.mode, "%s", quick ? "quick" : "full");
    s->info.parts.start_s = gb_measure_now_s() - s->t_start;
    return GB_OK;
}

void gb_session_finish(struct gb_session *s, int complete)
{
    s->info.wall_s = gb_measure_now_s() - s->t_start;
    s->info.modules_compiled = s->prior.modules_compiled + s->gpu.compiles;
    s->info.modules_cached = s->prior.modules_cached + s->gpu.disk_hits;
    s->info.compile_cpu_s = s->prior.compile_cpu_s + s->gpu.compile_cpu_s + s->pool_cpu_s;
    s->info.compile_wait_s = s->prior.compile_wait_s + s->gpu.compile_wait_s;
    s->info.compile_threads = s->pool_threads;
    s->info.spec_budget_bytes = (long long)s->gpu.spec_budget_bytes;
    s->info.spec_problems = s->gpu.spec_problems;
    s->info.spec_evictions = s->gpu.spec_evictions;
    gb_utc_now(s->info.finished_utc, sizeof s->info.finished_utc);
    s->info.complete = complete;
}

void gb_session_close(struct gb_session *s)
{
    if (s->gpu_open)
        gb_gpu_close(&s->gpu);
    s->gpu_open = 0;
}

/* ---- the run loop ---- */

/* What one session run holds while its points are measured. */
struct gb_session_run {
    struct gb_session s;
    struct gb_run_writer *w;
    struct gb_measure_opts mo;
    struct gb_measure_share share;
    const struct gb_session_hooks *hooks;
    struct gb_compile_pool *pool;
};

static void gb_point_record_init(const struct gb_plan_item *it, const struct gb_point *p, struct gb_record *rec)
{
    memset(rec, 0, sizeof *rec);
    snprintf(rec->suite, sizeof rec->suite, "%s", it->suite->name);
    snprintf(rec->bench, sizeof rec->bench, "%s", it->bench->name);
    for (int a = 0; a < p->n_axes; a++)
        gb_record_set_axis(rec, p->axis_name[a], p->axis_str[a]);
}

static void gb_hook_point(const struct gb_session_loop *l, size_t done, size_t total,
                          const struct gb_plan_item *it, const struct gb_record *rec)
{
    if (l->hooks && l->hooks->point)
        l->hooks->point(l->hooks->ctx, done, total, it, rec);
}

static void gb_count_record(struct gb_run_info *info, const struct gb_record *rec)
{
    info->timed_s += rec->timed_s;
    gb_wall_parts_add(&info->parts, &rec->parts);
    if (rec->status == GB_REC_OK)
        info->points_ok++;
    else if (rec->status != GB_REC_SKIPPED)
        info->points_failed++;
}

void gb_session_point_label(const struct gb_plan_item *it, char *buf, size_t n)
{
    int len = snprintf(buf, n, "%s/%s", it->suite->name, it->bench->name);
    for (int a = 0; a < it->n_axes && len > 0 && (size_t)len < n; a++)
        len += snprintf(buf + len, n - (size_t)len, " %s=%s", it->axis_name[a], it->axis_value[a]);
}

/* After item i ended with `st`: whether the loop goes on (GB_OK) or
 * stops (the status, with info->incomplete_reason saying why). After a
 * fault (a sticky error) the process cannot use CUDA again: the loop stops
 * unless nothing is left, and the run goes on in a new process. */
static enum gb_status gb_session_after(const struct gb_session_loop *l, size_t i, enum gb_status st)
{
    char label[200];
    const struct gb_plan_item *it = &l->plan->items[i];
    struct gb_run_info *info = l->info;
    gb_session_point_label(it, label, sizeof label);
    if (st == GB_ERR_DEVICE_LOST) {
        /* Its calls fail without harm on the lost context; nothing leaks past the process. */
        gb_measure_share_release(l->share);
        if (i + 1 == l->plan->n)
            return GB_OK;
        snprintf(info->incomplete_reason, sizeof info->incomplete_reason,
                 "%.160s faulted; the run goes on from point %zu of %zu in a new process", label, i + 2,
                 l->plan->n);
        return st;
    }
    if (st == GB_ERR_TIMEOUT) {
        /* Its kernel may still run: nothing of the device is touched again. */
        memset(l->share, 0, sizeof *l->share);
        snprintf(info->incomplete_reason, sizeof info->incomplete_reason,
                 "%.180s hung: the GPU did not finish within its limit of %g s", label,
                 gb_bench_timeout_s(it->bench));
    } else if (st == GB_ERR_INTERRUPTED) {
        snprintf(info->incomplete_reason, sizeof info->incomplete_reason, "interrupted before %.200s", label);
    }
    return st;
}

/* Whether the caller added items after the plan's last (hooks->more). */
static int gb_hook_more(const struct gb_session_loop *l, size_t done)
{
    return l->hooks && l->hooks->more && l->hooks->more(l->hooks->ctx, done) > 0 && done < l->plan->n;
}

enum gb_status gb_session_loop_run(const struct gb_session_loop *l, enum gb_status *measure_st, size_t *next)
{
    enum gb_status st = GB_OK;
    const struct gb_plan *plan = l->plan;
    size_t i;
    *measure_st = GB_OK;
    for (i = l->first; i < plan->n || gb_hook_more(l, i); i++) {
        struct gb_point p;
        struct gb_record rec;
        gb_plan_point(&plan->items[i], l->quick, &p);
        p.gpu = l->gpu;
        gb_point_record_init(&plan->items[i], &p, &rec);
        gb_hook_point(l, i, plan->n, &plan->items[i], NULL);
        char label[200];
        gb_session_point_label(&plan->items[i], label, sizeof label);
        gb_nvtx_push(label);   /* the point's work as one range, for nsys and ncu --nvtx */
        *measure_st = l->measure(l->ctx, l->gpu, &p, l->mo, &rec);
        gb_nvtx_pop();
        gb_point_release(&p);
        if (*measure_st == GB_ERR_INTERRUPTED) {
            gb_record_release(&rec);
            *measure_st = gb_session_after(l, i, *measure_st);
            break;
        }
        double t = gb_measure_now_s();
        st = gb_run_writer_add(l->w, &rec);
        l->info->write_s += gb_measure_now_s() - t;
        if (st == GB_OK) {
            gb_count_record(l->info, &rec);
            gb_hook_point(l, i + 1, plan->n, &plan->items[i], &rec);
        }
        gb_record_release(&rec);
        if (*measure_st != GB_OK)
            *measure_st = gb_session_after(l, i, *measure_st);
        if (st != GB_OK || *measure_st != GB_OK)
            break;
    }
    /* A faulted point is written: a new process goes on after it. */
    *next = i + (i < plan->n && st == GB_OK && *measure_st == GB_ERR_DEVICE_LOST);
    return st;
}

static enum gb_status gb_real_measure(void *ctx, struct gb_gpu *g, struct gb_point *p,
                                      const struct gb_measure_opts *o, struct gb_record *rec)
{
    (void)ctx;
    return gb_measure_point(g, p, o, rec);
}

/* Starts the compile pool over the plan (none when there is nothing to
 * compile or no thread to spare; a pool that cannot start only costs time). */
static void gb_session_pool(struct gb_session_run *r, const struct gb_plan *plan, int quick)
{
    int threads = gb_compile_pool_threads();
    if (gb_compile_pool_start(plan, quick, r->s.gpu.arch, threads, &r->pool) != GB_OK)
        r->pool = NULL;
    r->s.gpu.ahead = gb_compile_pool_ahead(r->pool);
}

/* Stops the pool and adds its work to run.json's counts. */
static void gb_session_pool_stop(struct gb_session_run *r)
{
    struct gb_compile_pool_stats ps;
    memset(&ps, 0, sizeof ps);
    r->s.gpu.ahead = NULL;
    gb_compile_pool_stop(r->pool, &ps);
    r->pool = NULL;
    r->s.pool_cpu_s += ps.cpu_s;
    r->s.pool_threads = ps.threads;
}

/* Before the first point of a run: the prime of the clock its points try
 * first, when that clock has one (the profiler's first session, counted
 * and thrown away: gb_timer_profiler_prime), part of the start. A failure
 * is the first point's to say. */
static void gb_session_prime(struct gb_session_run *r)
{
    const struct gb_clock *c = gb_clock_first(gb_clocks(), r->mo.timer);
    if (r->mo.profile_only || !c || !c->prime)
        return;
    double t = gb_measure_now_s();
    (void)c->prime(&r->s.gpu);
    r->s.info.parts.start_s += gb_measure_now_s() - t;
}

/* Measures and writes every point from `first` on; stops at an
 * interruption, a hung GPU, a fault (*measure_st; *next: where a new
 * process goes on) or a write error (returned). */
static enum gb_status gb_session_points(struct gb_session_run *r, const struct gb_plan *plan, size_t first,
                                        int quick, enum gb_status *measure_st, size_t *next)
{
    struct gb_session_loop l = {.plan = plan, .first = first, .quick = quick, .gpu = &r->s.gpu, .w = r->w,
                                .info = &r->s.info, .mo = &r->mo, .share = &r->share, .hooks = r->hooks,
                                .measure = gb_real_measure};
    gb_session_pool(r, plan, quick);
    gb_session_prime(r);
    enum gb_status st = gb_session_loop_run(&l, measure_st, next);
    gb_session_pool_stop(r);
    return st;
}

/* Opens the device and the run directory (a new one, or the run's own
 * when it goes on after a fault). */
static enum gb_status gb_session_start(struct gb_session_run *r, const struct gb_plan *plan,
                                       const struct gb_session_opts *o, enum gb_session_stage *stage)
{
    enum gb_status st;
    *stage = GB_SESSION_DEVICE;
    /* On failure the directory is left as it was: the caller knows whether it made it. */
    if ((st = gb_session_open(&r->s, o->device, o->command_line, o->quick)) != GB_OK)
        return st;
    snprintf(r->s.info.spec, sizeof r->s.info.spec, "%s", o->spec ? o->spec : "");
    /* What the run compiles and reads, by digest: nothing written yet. */
    if ((st = gb_plan_hashes(plan, &r->s.info)) != GB_OK)
        return st;
    *stage = GB_SESSION_WRITE;
    if (o->resume) {
        r->s.t_start = o->resume->t_start;
        st = gb_session_resume_open(o->out_dir, o->resume, plan, &r->s.info, &r->s.prior, &r->w);
    } else {
        st = gb_run_writer_open(o->out_dir, &r->s.info, plan->axes, plan->n_axes, &r->w);
    }
    if (st != GB_OK)
        return st;
    if (r->hooks && r->hooks->started)
        return r->hooks->started(r->hooks->ctx, &r->s.info, plan->n);
    return GB_OK;
}

enum gb_status gb_session_run(const struct gb_plan *plan, const struct gb_session_opts *o,
                              const struct gb_session_hooks *hooks, struct gb_session_result *res)
{
    struct gb_session_run r;
    enum gb_status st, measure_st = GB_OK, close_st;
    memset(&r, 0, sizeof r);
    memset(res, 0, sizeof *res);
    r.hooks = hooks;
    r.mo = o->measure;
    r.mo.share = &r.share;
    if ((st = gb_session_start(&r, plan, o, &res->stage)) != GB_OK)
        goto out;
    srand((unsigned)time(NULL) ^ (unsigned)getpid());
    st = gb_session_points(&r, plan, o->resume ? o->resume->next : 0, o->quick, &measure_st, &res->resume_next);
    if (!r.s.gpu.hung)
        gb_measure_share_release(&r.share);
    gb_session_finish(&r.s, measure_st == GB_OK && st == GB_OK);
    close_st = gb_run_writer_close(r.w, &r.s.info);
    r.w = NULL;
    if (st == GB_OK && close_st != GB_OK) {
        st = close_st;
        res->stage = GB_SESSION_FINISH;
    } else if (st == GB_OK && measure_st != GB_OK) {
        st = measure_st;
        res->stage = GB_SESSION_MEASURE;
    }
out:
    if (r.w)
        gb_run_writer_close(r.w, &r.s.info);
    if (!r.s.gpu.hung)
        gb_measure_share_release(&r.share);
    res->info = r.s.info;
    gb_session_close(&r.s);
    return st;
}
