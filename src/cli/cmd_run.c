/* cmd_run.c - `gpubound run`: measure suites into a run directory. */
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "cli/cli.h"
#include "cli/cmd_fleet.h"
#include "cli/cli_spec.h"
#include "util/fs.h"
#include "util/stage.h"
#include "cli/run_charts.h"
#include "cli/run_options.h"
#include "cli/run_resume.h"
#include "gpubound/gpu.h"
#include "gpubound/measure.h"
#include "gpubound/report.h"
#include "gpubound/session.h"

static void gb_on_signal(int sig)
{
    (void)sig;
    gb_measure_interrupted = 1;
}

static double gb_wall(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

static void gb_point_label(const struct gb_plan_item *it, char *buf, size_t n)
{
    int len = snprintf(buf, n, "%s/%s", it->suite->name, it->bench->name);
    for (int a = 0; a < it->n_axes && len > 0 && (size_t)len < n; a++)
        len += snprintf(buf + len, n - (size_t)len, " %s=%s", it->axis_name[a], it->axis_value[a]);
}

static void gb_fmt_eta(double s, char *buf, size_t n)
{
    if (!isfinite(s) || s < 0)
        snprintf(buf, n, "--:--");
    else if (s >= 3600)
        snprintf(buf, n, "%d:%02d:%02d", (int)s / 3600, ((int)s / 60) % 60, (int)s % 60);
    else
        snprintf(buf, n, "%d:%02d", (int)s / 60, (int)s % 60);
}

/* Progress on stderr: a bar that redraws itself on a terminal, plain lines
 * otherwise (logs and CI). */
static void gb_progress(int tty, size_t done, size_t total, double elapsed, const char *label,
                        const struct gb_record *r)
{
    char eta[32];
    gb_fmt_eta(done ? elapsed / (double)done * (double)(total - done) : NAN, eta, sizeof eta);
    if (tty) {
        int width = 24, fill = total ? (int)(width * done / total) : width;
        char bar[32];
        for (int i = 0; i < width; i++)
            bar[i] = i < fill ? '#' : '.';
        bar[width] = '\0';
        fprintf(stderr, "\r\033[K[%s] %zu/%zu ETA %s  %.60s", bar, done, total, eta, label);
        if (done == total)
            fputc('\n', stderr);
    } else if (r) {
        if (r->status == GB_REC_OK)
            fprintf(stderr, "[%zu/%zu] %s: %.4g us%s%s\n", done, total, label, r->time_ns.median / 1e3,
                    r->converged ? "" : " (stopping rule not met)", r->throttled ? " (SM clock dropped)" : "");
        else
            fprintf(stderr, "[%zu/%zu] %s: %s: %s\n", done, total, label, gb_record_status_name(r->status),
                    r->reason);
    }
    fflush(stderr);
}

/* The summary line: the run's wall time and where it went (run.json's wall_parts). */
static void gb_print_wall(const char *dir, const struct gb_run_info *in)
{
    const struct gb_wall_parts *w = &in->parts;
    double wall = in->wall_s > 0 ? in->wall_s : 1;
    double other = gb_run_info_other_s(in);
    fprintf(stderr, "run: %s (wall %.1f s, %.1f%% of it in timed kernel work", dir, in->wall_s,
            100.0 * in->timed_s / wall);
    if (w->sampling_s > 0)
        fprintf(stderr, "; start of the GPU and profiler %.0f%%, compile %.0f%%, set-up %.0f%%, verification %.0f%%, warm-up %.0f%%, "
                        "between timed kernels %.0f%% (L2 flushes %.0f%%), teardown %.0f%%, writing %.0f%%, "
                        "other %.0f%%",
                100 * w->start_s / wall, 100 * w->compile_s / wall, 100 * w->setup_s / wall, 100 * w->verify_s / wall,
                100 * w->warmup_s / wall, 100 * (w->sampling_s - in->timed_s) / wall, 100 * w->flush_s / wall,
                100 * w->teardown_s / wall, 100 * in->write_s / wall, 100 * other / wall);
    fputs(")\n", stderr);
}

/* Loads the run back and prints its summary and report, as `gpubound
 * report` would: the numbers shown are the numbers stored. */
/* The run's report: its charts.json, with the suites' findings rules. */
static enum gb_status gb_run_report(const struct gb_run *run, const char *out_dir,
                                    struct gb_report_result *res)
{
    struct gb_chart_book book;
    enum gb_status st = gb_cli_run_charts(run, &book);
    if (st == GB_OK)
        st = gb_report_write_book(run, &book, NULL, out_dir, res);
    gb_chart_book_release(&book);
    return st;
}

static int gb_run_finish(const char *dir, enum gb_format fmt, int report)
{
    struct gb_run *run = NULL;
    struct gb_table *t = NULL;
    struct gb_report_result res;
    int rc = GB_EXIT_OK;
    gb_report_result_init(&res);
    enum gb_status st = gb_cli_load_run(dir, &run);
    if (st != GB_OK) {
        rc = gb_cli_fail(st, "reading the run back", NULL);
        goto out;
    }
    if ((st = gb_report_summary_table(run, NULL, &t)) != GB_OK) {
        rc = gb_cli_fail(st, "summary", NULL);
        goto out;
    }
    gb_table_print(t, stdout, fmt, fmt == GB_FORMAT_TABLE && isatty(STDOUT_FILENO) ? gb_term_width(stdout) : 0);
    /* Suites that declare speedup charts: their tables follow the summary (terminal format only). */
    if (fmt == GB_FORMAT_TABLE &&
        (st = gb_report_print_speedups(run, stdout, fmt, isatty(STDOUT_FILENO) ? gb_term_width(stdout) : 0)) != GB_OK) {
        rc = gb_cli_fail(st, "speedup table", NULL);
        goto out;
    }
    if (report) {
        char out_dir[4200];
        snprintf(out_dir, sizeof out_dir, "%s/report", dir);
        st = gb_run_report(run, out_dir, &res);
        if (st != GB_OK)
            rc = gb_cli_fail(st, "report", "the measurements are saved; run 'gpubound report' on the run directory");
        else
            fprintf(stderr, "report: %s/report.md\n", out_dir);
        if (res.n_not_drawn)
            fprintf(stderr, "gpubound: %zu chart(s) not drawn: %s\n", res.n_not_drawn, res.note);
    }
    gb_print_wall(dir, &run->info);
out:
    gb_report_result_release(&res);
    gb_table_free(t);
    gb_run_free(run);
    return rc;
}

/* Returns -1 when the options are whole, else the exit code. a->sets is
 * allocated (freed by the caller, also on error). Each option is parsed
 * from its row (run_options.h); what they ask together is checked here. */
static int gb_run_args(int argc, char **argv, struct gb_run_args *a)
{
    int rc = gb_run_args_parse(argc, argv, a);
    if (rc >= 0)
        return rc;
    if (a->fleet && a->all_devices)
        return gb_cli_usage("run", "--fleet and --all-devices are two ways to run a fleet: give one of them");
    if (a->all_devices && a->device_set)
        return gb_cli_usage("run", "--all-devices runs on every GPU: leave out --device");
    if (a->quick && a->mo.max_time_s == 2.0)
        a->mo.max_time_s = 0.5;
    a->mo.quick = a->quick;
    return -1;
}

/* What the progress hooks need. */
struct run_progress {
    int tty, started;
    double t_start;
    const char *out;
    const struct gb_plan *plan;
    const struct gb_session_resume *resume; /* NULL: the run's first process */
};

/* The run's chart specs go with it (charts.json), then the progress starts. */
static enum gb_status gb_on_started(void *ctx, const struct gb_run_info *info, size_t n_points)
{
    struct run_progress *pr = ctx;
    enum gb_status st = gb_cli_save_charts(pr->out, pr->plan);
    if (st != GB_OK || (st = gb_cli_spec_save(pr->out, pr->plan)) != GB_OK)
        return st;
    pr->started = 1;
    if (pr->resume)
        fprintf(stderr, "gpubound: going on from point %zu of %zu on %s in %s (a new process after fault %d)\n",
                pr->resume->next + 1, n_points, info->device.name, pr->out, pr->resume->restarts);
    else
        fprintf(stderr, "gpubound: %zu point(s) on %s into %s\n", n_points, info->device.name, pr->out);
    return GB_OK;
}

static void gb_on_point(void *ctx, size_t done, size_t total, const struct gb_plan_item *it,
                        const struct gb_record *rec)
{
    struct run_progress *pr = ctx;
    char label[256];
    if (!rec && !pr->tty)
        return;
    gb_point_label(it, label, sizeof label);
    gb_progress(pr->tty, done, total, gb_wall() - pr->t_start, label, rec);
}

/* Says why a session stopped; returns the exit code. */
static int gb_run_stopped(enum gb_status st, const struct gb_session_result *res, const char *out)
{
    switch (res->stage) {
    case GB_SESSION_DEVICE:
        return gb_cli_fail(st, NULL, st == GB_ERR_NO_GPU ? "gpubound run needs an NVIDIA GPU (compute capability 7.0+) and its driver"
                                                          : NULL);
    case GB_SESSION_WRITE: return gb_cli_fail(st, "writing the run", NULL);
    case GB_SESSION_FINISH: return gb_cli_fail(st, "finishing the run", NULL);
    case GB_SESSION_MEASURE: break;
    }
    if (st == GB_ERR_TIMEOUT) {
        /* The hung kernel still runs and only the process's end stops it: the
         * driver's exit handlers could wait for it, so the process ends here,
         * its files written. */
        fprintf(stderr, "gpubound: %s; the run stopped, its %d finished point(s) and the hung one are recorded in %s; "
                        "give the kernel more time (the bench's timeout_s) or leave that configuration out (--set)\n",
                res->info.incomplete_reason, res->info.points_ok + res->info.points_failed - 1, out);
        fflush(NULL);
        _exit(GB_EXIT_FAIL);
    }
    if (st != GB_ERR_INTERRUPTED)
        return gb_cli_fail(st, "the device failed", "the points measured before it are kept in the run directory");
    fprintf(stderr, "gpubound: interrupted; the %d finished point(s) are kept in %s\n",
            res->info.points_ok + res->info.points_failed, out);
    return GB_EXIT_FAIL;
}

/* Plans the run; -1 when there is something to run, else the exit code.
 * A plan of more than GB_RUN_GPU_FIRST points is counted first and the GPU
 * looked for before it is built and checked: without a GPU, `run` says so
 * at once instead of after seconds of planning. */
#define GB_RUN_GPU_FIRST 10000
static int gb_run_plan(int argc, char **argv, const struct gb_run_args *a, struct gb_plan *plan)
{
    const char *const *sel = (const char *const *)argv + optind;
    size_t count = 0;
    int n_dev = 0;
    enum gb_status st = gb_plan_count(sel, argc - optind, a->sets, a->n_sets, a->quick, (size_t)a->max_points,
                                      &count);
    if (st != GB_OK)
        return gb_cli_usage("run", "%s", gb_error_message());
    if (count > GB_RUN_GPU_FIRST && !a->fleet && (st = gb_device_count(&n_dev)) != GB_OK)
        return gb_cli_fail(st, NULL, "gpubound run needs an NVIDIA GPU (compute capability 7.0+) and its driver");
    st = gb_plan_build_max(sel, argc - optind, a->sets, a->n_sets, a->quick, (size_t)a->max_points, plan);
    if (st != GB_OK)
        return gb_cli_usage("run", "%s", gb_error_message());
    if (plan->n == 0)
        return gb_cli_usage("run", "nothing to run");
    return gb_cli_spec_check(plan);
}

static void gb_default_out(char *buf, size_t n)
{
    char ts[32];
    gb_utc_now(ts, sizeof ts);
    snprintf(buf, n, "runs/%.4s%.2s%.2sT%.2s%.2s%.2sZ", ts, ts + 5, ts + 8, ts + 11, ts + 14, ts + 17);
}

/* Takes the resume marker of a run going on after a fault; without --out
 * its directory is the run's. -1 when the command goes on, else the exit code. */
static int gb_run_resume_args(struct gb_run_args *a)
{
    char why[600];
    int r = gb_run_resume_take(a->out, &a->resume, a->resume_dir, sizeof a->resume_dir, why, sizeof why);
    if (r < 0)
        return gb_cli_usage("run", "%s", why);
    a->resuming = r;
    if (r && (a->fleet || a->all_devices))
        return gb_cli_usage("run", "%s is for a run on one GPU, not --fleet or --all-devices", GB_RUN_RESUME_ENV);
    if (r && !a->out)
        a->out = a->resume_dir;
    return -1;
}

/* Measures the plan into a->out and shows the result. */
static int gb_run_session(const struct gb_run_args *a, const struct gb_plan *plan)
{
    struct gb_session_opts so = {.device = (int)a->device, .out_dir = a->out,
                                 .command_line = gb_cli_command_line(), .quick = a->quick, .measure = a->mo,
                                 .spec = a->spec_paths, .resume = a->resuming ? &a->resume : NULL};
    /* The run's time counts from its first process on. */
    struct run_progress pr = {.tty = isatty(STDERR_FILENO), .t_start = a->resuming ? a->resume.t_start : gb_wall(),
                              .out = a->out, .plan = plan, .resume = so.resume};
    struct gb_session_hooks hooks = {.started = gb_on_started, .point = gb_on_point, .ctx = &pr};
    struct gb_session_result res;
    signal(SIGINT, gb_on_signal);
    signal(SIGTERM, gb_on_signal);
    enum gb_status st = gb_session_run(plan, &so, &hooks, &res);
    if (pr.tty && pr.started)
        fputc('\n', stderr);
    if (st == GB_ERR_DEVICE_LOST && res.stage == GB_SESSION_MEASURE)
        return gb_run_restart(&res, a->out, so.resume, pr.t_start);
    if (st != GB_OK)
        return gb_run_stopped(st, &res, a->out);
    char note[512];
    gb_counters_note_take(note, sizeof note);
    if (note[0])
        fprintf(stderr, "gpubound run: counters: %s\n", note);
    int rc = gb_run_finish(a->out, a->fmt, a->report);
    if (rc == GB_EXIT_OK && res.info.points_failed) {
        fprintf(stderr, "gpubound: %d point(s) failed; see the status column and results.json\n",
                res.info.points_failed);
        rc = GB_EXIT_FAIL;
    }
    return rc;
}

int gb_cmd_run(int argc, char **argv)
{
    struct gb_run_args a;
    struct gb_plan plan;
    char default_out[128], made[GB_PATH_MAX] = "";
    int rc;
    memset(&plan, 0, sizeof plan);
    /* Everything the user can get wrong is checked before any GPU work. */
    if ((rc = gb_run_args(argc, argv, &a)) >= 0 ||
        (rc = gb_cli_spec_args(argc - optind, argv + optind, &a.spec_owned, a.spec_paths, sizeof a.spec_paths)) >= 0 ||
        (rc = gb_run_plan(argc, argv, &a, &plan)) >= 0)
        goto out;
    if ((rc = gb_run_resume_args(&a)) >= 0)
        goto out;
    if (a.fleet || a.all_devices) { /* cmd_fleet_run.c */
        struct gb_fleet_run_args fa = {.all_devices = a.all_devices, .device = a.device_set ? (int)a.device : -1,
                                       .out = a.out, .quick = a.quick, .report = a.report, .fmt = a.fmt, .mo = a.mo};
        rc = gb_cmd_run_fleet(&plan, &fa);
        goto out;
    }
    if (!a.out) {
        gb_default_out(default_out, sizeof default_out);
        a.out = default_out;
    }
    /* Directories made for --out are taken away again when the run leaves
     * them empty (no GPU); a directory that was there stays. A run that
     * goes on after a fault continues its own directory (checked by the
     * session against run.json). */
    if (a.resuming && !gb_is_dir(a.out)) {
        rc = gb_cli_usage("run", "%s names %s, which is not a directory", GB_RUN_RESUME_ENV, a.out);
        goto out;
    }
    if (!a.resuming && ((!gb_is_dir(a.out) && gb_stage_mkdir(a.out, made, sizeof made) != GB_OK) ||
                        gb_run_dir_prepare(a.out) != GB_OK)) {
        rc = gb_cli_usage("run", "--out refused: %s", gb_error_message());
        gb_stage_unmake(a.out, made);
        goto out;
    }
    rc = gb_run_session(&a, &plan);
    if (rc != GB_EXIT_OK)
        gb_stage_unmake(a.out, made);
out:
    gb_plan_release(&plan);
    gb_counter_names_free(a.counters, a.n_counters);
    gb_cli_spec_free(a.spec_owned);
    free(a.sets);
    return rc;
}
