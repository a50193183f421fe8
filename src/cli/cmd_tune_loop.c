/* cmd_tune_loop.c - `gpubound tune`'s search (cmd_tune_loop.h). */
#include <jansson.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "cli/cli.h"
#include "cli/cli_spec.h"
#include "cli/cmd_tune_loop.h"
#include "cli/cmd_tune_bd.h"
#include "cli/run_charts.h"
#include "gpubound/counter_names.h"
#include "gpubound/lpbm_input.h"
#include "gpubound/results.h"
#include "gpubound/session.h"
#include "util/fs.h"
#include "util/stage.h"

/* What a search carries between the loop's hooks. */
struct tune_ctx {
    const struct gb_tune_args *a;
    const struct gb_plan *space_plan;  /* every configuration, the space's order */
    const struct gb_tune_space *space;
    struct gb_tune *t;
    struct gb_plan *plan;              /* what the run measures: grown by `more` */
    size_t *idx;                       /* the configuration of each item of plan */
    enum gb_status st;                 /* the first failure inside a hook */
    int unmeasured;                    /* nothing measured: a replay, or no device opened */
};

static void gb_tune_on_signal(int sig)
{
    (void)sig;
    gb_measure_interrupted = 1;
}

/* The configuration a record measured, or space->n. */
static size_t gb_tune_index_of(const struct gb_plan *space_plan, const struct gb_record *r)
{
    for (size_t i = 0; i < space_plan->n; i++) {
        const struct gb_plan_item *it = &space_plan->items[i];
        int a = 0;
        if (strcmp(r->bench, it->bench->name) != 0)
            continue;
        for (; a < it->n_axes; a++) {
            const char *v = gb_record_axis(r, it->axis_name[a]);
            if (!v || strcmp(v, it->axis_value[a]) != 0)
                break;
        }
        if (a == it->n_axes)
            return i;
    }
    return space_plan->n;
}

static struct gb_tune_obs gb_tune_obs_of(size_t idx, const struct gb_record *r)
{
    struct gb_tune_obs o = {.idx = idx, .ok = r->status == GB_REC_OK, .time_ns = r->time_ns.median,
                            .lo_ns = r->time_ns.ci_lo, .hi_ns = r->time_ns.ci_hi, .samples = r->sample_ns,
                            .n_samples = r->n_sample_ns};
    return o;
}

/* Appends configuration idx to c->plan (its items have room for the whole space). */
static enum gb_status gb_tune_append(struct tune_ctx *c, size_t idx)
{
    const struct gb_plan_item *src = &c->space_plan->items[idx];
    struct gb_plan_item *it = &c->plan->items[c->plan->n];
    *it = *src;
    for (int a = 0; a < src->n_axes; a++)
        if (!(it->axis_value[a] = strdup(src->axis_value[a]))) {
            it->n_axes = a;
            return gb_error_set(GB_ERR_NOMEM, "out of host memory planning the next configurations");
        }
    c->idx[c->plan->n++] = idx;
    return GB_OK;
}

/* Asks the strategy for its next batch and plans it; how many were added. */
static size_t gb_tune_more(void *ctx, size_t done)
{
    struct tune_ctx *c = ctx;
    size_t want[1024], n = 0;
    (void)done;
    if (c->st != GB_OK || (c->st = gb_tune_next(c->t, (size_t)c->a->batch, want, &n)) != GB_OK)
        return 0;
    for (size_t i = 0; i < n; i++)
        if ((c->st = gb_tune_append(c, want[i])) != GB_OK)
            return i;
    return n;
}

/* Tells the strategy what each point measured, as it is recorded. */
static void gb_tune_point(void *ctx, size_t done, size_t total, const struct gb_plan_item *item,
                          const struct gb_record *rec)
{
    struct tune_ctx *c = ctx;
    (void)item;
    (void)total;
    if (!rec || c->st != GB_OK)
        return;
    struct gb_tune_obs o = gb_tune_obs_of(c->idx[done - 1], rec);
    if ((c->st = gb_tune_observe(c->t, &o)) != GB_OK)
        return;
    fprintf(stderr, "[%zu/%zu] %s: %s %.4g us\n", gb_tune_n_obs(c->t), gb_tune_budget(c->t), rec->bench,
            gb_record_status_name(rec->status), rec->time_ns.median / 1e3);
}

static enum gb_status gb_tune_started(void *ctx, const struct gb_run_info *info, size_t n_points)
{
    struct tune_ctx *c = ctx;
    (void)info;
    (void)n_points;
    enum gb_status st = gb_cli_save_charts(c->a->out, c->plan);
    return st == GB_OK ? gb_cli_spec_save(c->a->out, c->plan) : st;
}

/* The tuning run's options (and, at the end, its answer) as tune.json. */
static enum gb_status gb_tune_write_json(const struct gb_tune_args *a, const struct gb_plan *space_plan,
                                         const struct gb_tune_answer *ans)
{
    char path[GB_PATH_MAX];
    json_t *j = json_pack("{s:s, s:s, s:s, s:s, s:I, s:I, s:I, s:s?}", "format", GB_TUNE_FORMAT, "spec",
                          a->spec_paths, "bench", space_plan->items[0].bench->name, "strategy", a->strategy,
                          "budget", (json_int_t)a->budget, "seed", (json_int_t)a->seed, "batch",
                          (json_int_t)a->batch, "replay", a->replay);
    if (j && ans && ans->have_best)
        json_object_set_new(j, "answer",
                            json_pack("{s:I, s:f, s:f, s:f, s:b, s:f, s:s}", "best", (json_int_t)ans->best + 1,
                                      "best_ns", ans->best_ns, "best_lo_ns", ans->best_lo, "best_hi_ns", ans->best_hi,
                                      "differs_from_runner_up", ans->differ,
                                      "runner_up_ratio", isfinite(ans->ratio) ? ans->ratio : 0.0, "surrogate",
                                      ans->surrogate));
    /* Through a stage: a link planted at tune.json is replaced, never
     * followed, and a failure leaves the one before. */
    struct gb_stage stage;
    memset(&stage, 0, sizeof stage);
    enum gb_status st = j ? gb_stage_open(&stage, a->out) : gb_error_set(GB_ERR_NOMEM, "building %s", GB_TUNE_FILE);
    if (st == GB_OK && (st = gb_stage_path(&stage, GB_TUNE_FILE, path, sizeof path)) == GB_OK &&
        json_dump_file(j, path, JSON_INDENT(2) | JSON_SORT_KEYS) != 0)
        st = gb_error_set(GB_ERR_IO, "cannot write %s/%s", a->out, GB_TUNE_FILE);
    if (j && st == GB_OK)
        st = gb_stage_commit(&stage);
    else if (j)
        gb_stage_fail(&stage, st);
    json_decref(j);
    return st;
}

/* --resume: tune.json must say what the command line says. */
static int gb_tune_resume_check(const struct gb_tune_args *a)
{
    char path[GB_PATH_MAX];
    json_error_t e;
    snprintf(path, sizeof path, "%s/%s", a->out, GB_TUNE_FILE);
    json_t *j = json_load_file(path, 0, &e);
    const char *strategy = j ? json_string_value(json_object_get(j, "strategy")) : NULL;
    long seed = j ? (long)json_integer_value(json_object_get(j, "seed")) : -1;
    long batch = j ? (long)json_integer_value(json_object_get(j, "batch")) : -1;
    long budget = j ? (long)json_integer_value(json_object_get(j, "budget")) : -1;
    int rc = -1;
    if (!j)
        rc = gb_cli_usage("tune", "--resume: %s is not a tuning run (%s: %s)", a->out, GB_TUNE_FILE, e.text);
    else if (!strategy || strcmp(strategy, a->strategy) != 0 || seed != a->seed || batch != a->batch ||
             budget != a->budget)
        rc = gb_cli_usage("tune", "--resume: %s was tuned with --strategy %s --seed %ld --batch %ld --budget %ld: "
                          "give the same options", a->out, strategy ? strategy : "?", seed, batch, budget);
    json_decref(j);
    return rc;
}

/* The recorded points of the run in a->out, observed again: the tuner is
 * where it was; pending gets what its last batch still owes. */
static int gb_tune_resume(struct tune_ctx *c, struct gb_run **run, size_t *pending, size_t *n_pending)
{
    int rc = gb_tune_resume_check(c->a);
    if (rc >= 0)
        return rc;
    if (gb_run_load(c->a->out, run) != GB_OK)
        return gb_cli_usage("tune", "--resume: %s", gb_error_message());
    if ((*run)->info.complete)
        return gb_cli_usage("tune", "--resume: %s holds a complete tuning run: there is nothing to resume", c->a->out);
    size_t n = (*run)->n_records;
    struct gb_tune_obs *obs = calloc(n ? n : 1, sizeof *obs);
    if (!obs)
        return gb_cli_fail(GB_ERR_NOMEM, "resuming", NULL);
    for (size_t i = 0; i < n && rc < 0; i++) {
        size_t idx = gb_tune_index_of(c->space_plan, &(*run)->records[i]);
        if (idx >= c->space->n)
            rc = gb_cli_usage("tune", "--resume: record %zu of %s is not a configuration of this space", i + 1,
                              c->a->out);
        obs[i] = gb_tune_obs_of(idx, &(*run)->records[i]);
    }
    if (rc < 0 && gb_tune_replay(c->t, (size_t)c->a->batch, obs, n, pending, n_pending) != GB_OK)
        rc = gb_cli_usage("tune", "--resume: %s", gb_error_message());
    for (size_t i = 0; i < n && rc < 0; i++)
        if (gb_tune_append(c, obs[i].idx) != GB_OK)
            rc = gb_cli_fail(GB_ERR_NOMEM, "resuming", NULL);
    free(obs);
    if (rc < 0)
        fprintf(stderr, "gpubound: going on with %s after its %zu recorded point(s)\n", c->a->out, n);
    return rc;
}


/* Each configuration's record in the replayed run (NULL: none). */
static const struct gb_record **gb_tune_replay_map(struct tune_ctx *c, const struct gb_run *src)
{
    const struct gb_record **map = calloc(c->space->n, sizeof *map);
    for (size_t i = 0; map && i < src->n_records; i++) {
        size_t idx = gb_tune_index_of(c->space_plan, &src->records[i]);
        if (idx < c->space->n && !map[idx])
            map[idx] = &src->records[i];
    }
    return map;
}

/* Takes configuration idx's record from the replayed run into the writer
 * and tells the strategy. */
static int gb_tune_replay_one(struct tune_ctx *c, const struct gb_record **map, struct gb_run_writer *w,
                              struct gb_run_info *info, size_t idx)
{
    struct gb_record r;
    char label[512] = "";
    if (!map[idx]) {
        for (int a = 0; a < c->space_plan->items[idx].n_axes; a++)
            snprintf(label + strlen(label), sizeof label - strlen(label), " %s=%s",
                     c->space_plan->items[idx].axis_name[a], c->space_plan->items[idx].axis_value[a]);
        return gb_cli_usage("tune", "--replay %s has no record of%s: replay an exhaustive run of the same space",
                            c->a->replay, label);
    }
    memset(&r, 0, sizeof r);
    struct gb_tune_obs o = gb_tune_obs_of(idx, map[idx]);
    if (gb_record_copy(&r, map[idx]) != GB_OK || gb_run_writer_add(w, &r) != GB_OK ||
        gb_tune_observe(c->t, &o) != GB_OK) {
        gb_record_release(&r);
        return gb_cli_fail(GB_ERR_IO, "writing the tuning run", NULL);
    }
    info->points_ok += r.status == GB_REC_OK;
    info->points_failed += r.status != GB_REC_OK && r.status != GB_REC_SKIPPED;
    gb_record_release(&r);
    return -1;
}

/* --replay: the records of the recorded sweep `src` instead of measurements. */
static int gb_tune_replay_run(struct tune_ctx *c, const struct gb_run *src, const struct gb_run *prev,
                              size_t *pending, size_t np)
{
    struct gb_run_writer *w = NULL;
    const struct gb_record **map = NULL;
    struct gb_run_info info;
    int rc = -1;
    info = prev ? prev->info : src->info;
    snprintf(info.command_line, sizeof info.command_line, "%s", gb_cli_command_line());
    if (!prev)
        gb_utc_now(info.started_utc, sizeof info.started_utc);
    info.complete = info.points_ok = info.points_failed = 0;
    if (!(map = gb_tune_replay_map(c, src)) ||
        gb_run_writer_open(c->a->out, &info, c->space_plan->axes, c->space_plan->n_axes, &w) != GB_OK) {
        rc = gb_cli_fail(GB_ERR_IO, "starting the tuning run", gb_error_message());
        goto out;
    }
    for (size_t i = 0; prev && i < prev->n_records && rc < 0; i++)
        if (gb_run_writer_add(w, &prev->records[i]) != GB_OK)
            rc = gb_cli_fail(GB_ERR_IO, "writing the tuning run", NULL);
        else
            info.points_ok += prev->records[i].status == GB_REC_OK;
    while (rc < 0) {
        if (np == 0 && gb_tune_next(c->t, (size_t)c->a->batch, pending, &np) != GB_OK)
            rc = gb_cli_fail(GB_ERR_NOMEM, "asking the strategy", NULL);
        if (np == 0)
            break;
        for (size_t i = 0; i < np && rc < 0; i++)
            rc = gb_tune_replay_one(c, map, w, &info, pending[i]);
        np = 0;
    }
    info.complete = rc < 0;
    gb_utc_now(info.finished_utc, sizeof info.finished_utc);
    if (gb_run_writer_close(w, &info) != GB_OK && rc < 0)
        rc = gb_cli_fail(GB_ERR_IO, "finishing the tuning run", NULL);
out:
    free(map);
    return rc;
}

/* Says why the session stopped; the exit code. Nothing measured (no
 * device) is the caller's to undo. */
static int gb_tune_stopped(enum gb_status st, const struct gb_session_result *res, const char *out)
{
    if (res->stage == GB_SESSION_DEVICE)
        return gb_cli_fail(st, NULL, st == GB_ERR_NO_GPU ? "gpubound tune needs an NVIDIA GPU (or --replay RUN)" : NULL);
    fprintf(stderr, "gpubound: tuning stopped (%s); its %d recorded point(s) are in %s: go on with --resume\n",
            res->info.incomplete_reason[0] ? res->info.incomplete_reason : gb_error_message(),
            res->info.points_ok + res->info.points_failed, out);
    return GB_EXIT_FAIL;
}

/* Measures through the run loop: the plan starts with what is recorded
 * and the batch owed, and the `more` hook grows it batch by batch. */
static int gb_tune_gpu(struct tune_ctx *c, const struct gb_run *prev, const size_t *pending, size_t np)
{
    size_t first = c->plan->n;
    struct gb_session_resume rz;
    for (size_t i = 0; i < np; i++)
        if (gb_tune_append(c, pending[i]) != GB_OK)
            return gb_cli_fail(GB_ERR_NOMEM, "planning", NULL);
    if (c->plan->n == first && gb_tune_more(c, first) == 0)
        return c->st == GB_OK ? -1 : gb_cli_fail(c->st, "asking the strategy", NULL);
    struct gb_session_opts so = {.device = (int)c->a->device, .out_dir = c->a->out,
                                 .command_line = gb_cli_command_line(), .spec = c->a->spec_paths,
                                 .quick = c->a->quick};
    gb_measure_opts_default(&so.measure);
    so.measure.quick = c->a->quick;
    so.measure.max_time_s = c->a->max_time_s > 0 ? c->a->max_time_s : c->a->quick ? 0.5 : so.measure.max_time_s;
    so.measure.user_max_time = c->a->max_time_s > 0;
    if (c->a->ci_pct > 0) {
        so.measure.rel_ci = c->a->ci_pct / 100;
        so.measure.user_rel_ci = 1;
    }
    if (prev) {
        memset(&rz, 0, sizeof rz);
        rz.next = first;
        rz.restarts = prev->info.restarts_after_fault;
        struct timespec ts;
        clock_gettime(CLOCK_MONOTONIC, &ts);
        /* this process's time onwards, plus what the run spent before */
        rz.t_start = (double)ts.tv_sec + ts.tv_nsec * 1e-9 - prev->info.wall_s;
        snprintf(rz.started_utc, sizeof rz.started_utc, "%s", prev->info.started_utc);
        so.resume = &rz;
    }
    struct gb_session_hooks hooks = {.started = gb_tune_started, .point = gb_tune_point, .more = gb_tune_more,
                                     .ctx = c};
    struct gb_session_result res;
    char **counters = NULL;
    size_t n_counters = 0;
    /* model: each point's default counters, as run --counters records them,
     * for the breakdown's resources form */
    if (strcmp(c->a->strategy, "model") == 0 && gb_counter_names_parse("default", &counters, &n_counters) == GB_OK) {
        so.measure.counters = counters;
        so.measure.n_counters = n_counters;
    }
    signal(SIGINT, gb_tune_on_signal);
    signal(SIGTERM, gb_tune_on_signal);
    enum gb_status st = gb_session_run(c->plan, &so, &hooks, &res);
    gb_counter_names_free(counters, n_counters);
    c->unmeasured = st != GB_OK && res.stage == GB_SESSION_DEVICE;
    if (st != GB_OK)
        return gb_tune_stopped(st, &res, c->a->out);
    return c->st == GB_OK ? -1 : gb_cli_fail(c->st, "tuning", NULL);
}

/* Where the tuning run goes: --out, else runs/tune-<UTC time>; never
 * inside the run --replay reads. -1, or the usage error's exit code. */
static int gb_tune_out(struct gb_tune_args *a)
{
    if (!a->out) {
        char ts[32];
        gb_utc_now(ts, sizeof ts);
        snprintf(a->out_buf, sizeof a->out_buf, "runs/tune-%.4s%.2s%.2sT%.2s%.2s%.2sZ", ts, ts + 5, ts + 8, ts + 11,
                 ts + 14, ts + 17);
        a->out = a->out_buf;
    }
    return gb_cli_out_outside("tune", "--out", a->out, a->replay);
}

/* A new tuning run's directory, with its tune.json; the directories made
 * for it named in `made` (gb_stage_mkdir), taken away again on failure. */
static int gb_tune_prepare(const struct gb_tune_args *a, const struct gb_plan *space_plan, char *made, size_t n)
{
    int rc = -1;
    if ((!gb_is_dir(a->out) && gb_stage_mkdir(a->out, made, n) != GB_OK) || gb_run_dir_prepare(a->out) != GB_OK)
        rc = gb_cli_usage("tune", "--out refused: %s", gb_error_message());
    else if (gb_tune_write_json(a, space_plan, NULL) != GB_OK)
        rc = gb_cli_fail(GB_ERR_IO, gb_error_message(), NULL);
    if (rc >= 0)
        gb_stage_unmake(a->out, made);
    return rc;
}

/* Takes away a new tuning run that failed before measuring anything: the
 * files it wrote into its (new or empty) directory, then the directories
 * made for it while they are empty; a directory that was there stays. */
static void gb_tune_unmake(const char *out, const char *made)
{
    static const char *const files[] = {GB_TUNE_FILE, "run.json", "results.json", "results.csv"};
    char path[GB_PATH_MAX + 32];
    for (size_t i = 0; i < sizeof files / sizeof *files; i++) {
        snprintf(path, sizeof path, "%s/%s", out, files[i]);
        unlink(path);
    }
    gb_stage_unmake(out, made);
}

/* The search, once planned: into a new tuning run or the one resumed,
 * from the GPU or the replayed sweep `src`; the answer into tune.json. A
 * new run that fails before it measured (a replay, or no device) leaves
 * nothing behind. */
static int gb_tune_go(struct tune_ctx *c, const struct gb_run *src, struct gb_tune_answer *ans)
{
    const struct gb_tune_args *a = c->a;
    struct gb_run *prev = NULL;
    size_t pending[1024], np = 0;
    char made[GB_PATH_MAX] = "";
    int rc = a->resume ? gb_tune_resume(c, &prev, pending, &np) : gb_tune_prepare(a, c->space_plan, made, sizeof made);
    if (rc >= 0)
        return rc;
    c->unmeasured = 1;
    rc = a->replay ? gb_tune_replay_run(c, src, prev, pending, np) : gb_tune_gpu(c, prev, pending, np);
    if (rc < 0 && gb_tune_answer(c->t, 0.01, 0.02, ans) != GB_OK)
        rc = gb_cli_fail(GB_ERR_USAGE, "the answer", gb_error_message());
    if (rc < 0)
        rc = gb_tune_write_json(a, c->space_plan, ans) == GB_OK ? GB_EXIT_OK
                                                                : gb_cli_fail(GB_ERR_IO, gb_error_message(), NULL);
    if (rc != GB_EXIT_OK && !a->resume && c->unmeasured)
        gb_tune_unmake(a->out, made);
    gb_run_free(prev);
    return rc;
}

/* The model strategy's breakdown surrogate over the tuning run's records;
 * with --replay it reads the replayed sweep's spec. */
static enum gb_status gb_tune_bd_make(const struct gb_tune_args *a, const struct gb_plan *plan, struct gb_tune_bd *bd,
                                      struct gb_tune_surrogate *sur)
{
    struct gb_run *src = NULL;
    memset(bd, 0, sizeof *bd);
    bd->dir = &a->out;
    bd->bench = plan->items[0].bench->name;
    bd->plan = plan;
    if (a->replay && gb_run_load(a->replay, &src) == GB_OK &&
        gb_lpbm_spec_locate(src, NULL, bd->spec, sizeof bd->spec) != GB_OK)
        bd->spec[0] = '\0';
    gb_error_clear();
    gb_run_free(src);
    return gb_tune_bd_surrogate(bd, sur);
}

int gb_tune_search(struct gb_tune_args *a, const struct gb_plan *plan, const struct gb_tune_space *space,
                   struct gb_tune_answer *ans)
{
    struct gb_plan run_plan;
    struct gb_run *src = NULL;
    struct tune_ctx c = {.a = a, .space_plan = plan, .space = space, .plan = &run_plan};
    struct gb_tune_opts to = {.strategy = a->strategy, .budget = (size_t)a->budget, .seed = (unsigned)a->seed};
    struct gb_tune_bd bd;
    struct gb_tune_surrogate bd_sur;
    int rc;
    memset(&bd, 0, sizeof bd);
    memset(&run_plan, 0, sizeof run_plan);
    /* Everything the user can get wrong is checked before anything is made. */
    if (a->replay && gb_cli_load_run(a->replay, &src) != GB_OK)
        return gb_cli_usage("tune", "--replay: %s", gb_error_message());
    if ((rc = gb_tune_out(a)) >= 0)
        goto out;
    if (strcmp(a->strategy, "model") == 0) {
        if (gb_tune_bd_make(a, plan, &bd, &bd_sur) != GB_OK) {
            rc = gb_cli_fail(GB_ERR_NOMEM, "planning", NULL);
            goto out;
        }
        to.breakdown = &bd_sur;
    }
    memcpy(run_plan.axes, plan->axes, sizeof run_plan.axes);
    run_plan.n_axes = plan->n_axes;
    if (!(run_plan.items = calloc(space->n, sizeof *run_plan.items)) || !(c.idx = calloc(space->n, sizeof *c.idx))) {
        rc = gb_cli_fail(GB_ERR_NOMEM, "planning", NULL);
        goto out;
    }
    if (gb_tune_new(space, &to, &c.t) != GB_OK) {
        rc = gb_cli_usage("tune", "%s", gb_error_message());
        goto out;
    }
    rc = gb_tune_go(&c, src, ans);
out:
    gb_tune_free(c.t);
    gb_tune_bd_release(&bd);
    gb_plan_release(&run_plan);
    free(c.idx);
    gb_run_free(src);
    return rc;
}
