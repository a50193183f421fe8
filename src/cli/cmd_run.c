/* cmd_run.c - `gpubound run`: measure suites into a run directory. */
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "cli/cli.h"
#include "cli/run_charts.h"
#include "gpubound/measure.h"
#include "gpubound/report.h"

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
            fprintf(stderr, "[%zu/%zu] %s: %.4g us%s%s\n", done, total, label, r->median_ns / 1e3,
                    r->converged ? "" : " (stopping rule not met)", r->throttled ? " (SM clock dropped)" : "");
        else
            fprintf(stderr, "[%zu/%zu] %s: %s: %s\n", done, total, label, gb_record_status_name(r->status),
                    r->reason);
    }
    fflush(stderr);
}

/* Loads the run back and prints its summary and report, as `gpubound
 * report` would: the numbers shown are the numbers stored. */
static int gb_run_finish(const char *dir, enum gb_format fmt, int report)
{
    struct gb_run *run = NULL;
    struct gb_table *t = NULL;
    struct gb_report_result res;
    int rc = GB_EXIT_OK;
    gb_report_result_init(&res);
    enum gb_status st = gb_run_load(dir, &run);
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
        st = gb_report_write(run, out_dir, &res);
        if (st != GB_OK)
            rc = gb_cli_fail(st, "report", "the measurements are saved; run 'gpubound report' on the run directory");
        else
            fprintf(stderr, "report: %s/report.md\n", out_dir);
        if (res.n_not_drawn)
            fprintf(stderr, "gpubound: %zu chart(s) not drawn: %s\n", res.n_not_drawn, res.note);
    }
    fprintf(stderr, "run: %s (wall %.1f s, %.1f%% of it in timed kernel work)\n", dir, run->info.wall_s,
            run->info.wall_s > 0 ? 100.0 * run->info.timed_s / run->info.wall_s : 0.0);
out:
    gb_report_result_release(&res);
    gb_table_free(t);
    gb_run_free(run);
    return rc;
}

int gb_cmd_run(int argc, char **argv)
{
    static const struct option longopts[] = {
        {"device", required_argument, NULL, 'd'}, {"out", required_argument, NULL, 'o'},
        {"quick", no_argument, NULL, 'q'},        {"set", required_argument, NULL, 's'},
        {"cold", no_argument, NULL, 'C'},         {"hot", no_argument, NULL, 'H'},
        {"ci", required_argument, NULL, 'c'},     {"max-time", required_argument, NULL, 'm'},
        {"format", required_argument, NULL, 'f'}, {"no-report", no_argument, NULL, 'R'},
        {NULL, 0, NULL, 0}};
    long device = 0;
    const char *out = NULL;
    const char **sets = calloc((size_t)argc + 1, sizeof *sets);
    int n_sets = 0, quick = 0, report = 1, c, rc = GB_EXIT_OK;
    enum gb_format fmt = GB_FORMAT_TABLE;
    struct gb_measure_opts mo;
    struct gb_plan plan;
    struct gb_gpu gpu;
    struct gb_measure_share share;
    struct gb_run_writer *w = NULL;
    struct gb_run_info info;
    char default_out[128];
    enum gb_status st;
    int gpu_open = 0;
    memset(&plan, 0, sizeof plan);
    memset(&gpu, 0, sizeof gpu);
    memset(&share, 0, sizeof share);
    gb_measure_opts_default(&mo);
    mo.share = &share;
    if (!sets)
        return gb_cli_fail(gb_error_set(GB_ERR_NOMEM, "out of host memory"), NULL, NULL);
    gb_cli_getopt_reset();
    while ((c = getopt_long(argc, argv, ":d:o:qs:CHc:m:f:R", longopts, NULL)) != -1) {
        switch (c) {
        case 'd':
            if ((device = gb_cli_parse_long("run", "--device", optarg, 0, 1024)) < 0) {
                rc = GB_EXIT_USAGE;
                goto out;
            }
            break;
        case 'o': out = optarg; break;
        case 'q': quick = 1; break;
        case 's': sets[n_sets++] = optarg; break;
        case 'C': mo.cache = GB_CACHE_COLD; break;
        case 'H': mo.cache = GB_CACHE_HOT; break;
        case 'c': {
            char *end;
            double v = strtod(optarg, &end);
            if (*end || !(v > 0 && v < 100)) {
                rc = gb_cli_usage("run", "--ci needs a percentage between 0 and 100, not '%s'", optarg);
                goto out;
            }
            mo.rel_ci = v / 100.0;
            mo.user_rel_ci = 1;
            break;
        }
        case 'm': {
            char *end;
            double v = strtod(optarg, &end);
            if (*end || !(v > 0 && v <= 3600)) {
                rc = gb_cli_usage("run", "--max-time needs seconds between 0 and 3600, not '%s'", optarg);
                goto out;
            }
            mo.max_time_s = v;
            mo.user_max_time = 1;
            break;
        }
        case 'f':
            if (gb_format_parse(optarg, &fmt) != GB_OK) {
                rc = gb_cli_usage("run", "%s", gb_error_message());
                goto out;
            }
            break;
        case 'R': report = 0; break;
        case ':': rc = gb_cli_usage("run", "%s needs a value", argv[optind - 1]); goto out;
        default: rc = gb_cli_usage("run", "unknown option '%s'", argv[optind - 1]); goto out;
        }
    }
    if (quick && mo.max_time_s == 2.0)
        mo.max_time_s = 0.5;
    mo.quick = quick;

    /* Everything the user can get wrong is checked before any GPU work. */
    st = gb_plan_build((const char *const *)argv + optind, argc - optind, sets, n_sets, quick, &plan);
    if (st != GB_OK) {
        rc = gb_cli_usage("run", "%s", gb_error_message());
        goto out;
    }
    if (plan.n == 0) {
        rc = gb_cli_usage("run", "nothing to run");
        goto out;
    }
    if (!out) {
        char ts[32];
        gb_utc_now(ts, sizeof ts);
        snprintf(default_out, sizeof default_out, "runs/%.4s%.2s%.2sT%.2s%.2s%.2sZ", ts, ts + 5, ts + 8, ts + 11,
                 ts + 14, ts + 17);
        out = default_out;
    }
    if ((st = gb_run_dir_prepare(out)) != GB_OK) {
        rc = gb_cli_usage("run", "--out refused: %s", gb_error_message());
        goto out;
    }

    double t_start = gb_wall();
    if ((st = gb_gpu_open((int)device, &gpu)) != GB_OK) {
        rmdir(out); /* created for this run and still empty */
        rc = gb_cli_fail(st, NULL, st == GB_ERR_NO_GPU ? "gpubound run needs an NVIDIA GPU (compute capability 7.0+) and its driver"
                                                        : NULL);
        goto out;
    }
    gpu_open = 1;
    gb_run_info_init(&info, gb_cli_command_line());
    info.has_device = 1;
    info.device = gpu.info;
    snprintf(info.cuda_driver, sizeof info.cuda_driver, "%d.%d", gpu.info.driver_version / 1000,
             (gpu.info.driver_version % 1000) / 10);
    gb_gpu_driver_release(info.driver_release, sizeof info.driver_release);
    snprintf(info.mode, sizeof info.mode, "%s", quick ? "quick" : "full");
    if ((st = gb_run_writer_open(out, &info, plan.axes, plan.n_axes, &w)) != GB_OK ||
        (st = gb_cli_save_charts(out, &plan)) != GB_OK) {
        rc = gb_cli_fail(st, "writing the run", NULL);
        goto out;
    }
    fprintf(stderr, "gpubound: %zu point(s) on %s into %s\n", plan.n, gpu.info.name, out);

    srand((unsigned)time(NULL) ^ (unsigned)getpid());
    signal(SIGINT, gb_on_signal);
    signal(SIGTERM, gb_on_signal);
    int tty = isatty(STDERR_FILENO);
    for (size_t i = 0; i < plan.n; i++) {
        struct gb_point p;
        struct gb_record rec;
        char label[256];
        gb_plan_point(&plan.items[i], quick, &p);
        p.gpu = &gpu;
        memset(&rec, 0, sizeof rec);
        snprintf(rec.suite, sizeof rec.suite, "%s", plan.items[i].suite->name);
        snprintf(rec.bench, sizeof rec.bench, "%s", plan.items[i].bench->name);
        for (int a = 0; a < p.n_axes; a++)
            gb_record_set_axis(&rec, p.axis_name[a], p.axis_str[a]);
        gb_point_label(&plan.items[i], label, sizeof label);
        if (tty)
            gb_progress(tty, i, plan.n, gb_wall() - t_start, label, NULL);
        st = gb_measure_point(&gpu, &p, &mo, &rec);
        if (st == GB_ERR_INTERRUPTED)
            break;
        enum gb_status wst = gb_run_writer_add(w, &rec);
        if (wst != GB_OK) {
            rc = gb_cli_fail(wst, "writing the run", NULL);
            break;
        }
        info.timed_s += rec.timed_s;
        if (rec.status == GB_REC_OK)
            info.points_ok++;
        else if (rec.status != GB_REC_SKIPPED)
            info.points_failed++;
        gb_progress(tty, i + 1, plan.n, gb_wall() - t_start, label, &rec);
        if (st != GB_OK) /* the device faulted: nothing after this point can be trusted */
            break;
    }
    if (tty)
        fputc('\n', stderr);
    gb_measure_share_release(&share);
    info.wall_s = gb_wall() - t_start;
    info.modules_compiled = gpu.compiles;
    info.modules_cached = gpu.disk_hits;
    gb_utc_now(info.finished_utc, sizeof info.finished_utc);
    info.complete = st == GB_OK && rc == GB_EXIT_OK;
    enum gb_status cst = gb_run_writer_close(w, &info);
    w = NULL;
    if (cst != GB_OK) {
        rc = gb_cli_fail(cst, "finishing the run", NULL);
        goto out;
    }
    if (st == GB_ERR_INTERRUPTED) {
        fprintf(stderr, "gpubound: interrupted; the %d finished point(s) are kept in %s\n",
                info.points_ok + info.points_failed, out);
        rc = GB_EXIT_FAIL;
        goto out;
    }
    if (st != GB_OK) {
        rc = gb_cli_fail(st, "the device failed", "the points measured before it are kept in the run directory");
        goto out;
    }
    if (rc == GB_EXIT_OK)
        rc = gb_run_finish(out, fmt, report);
    if (rc == GB_EXIT_OK && info.points_failed) {
        fprintf(stderr, "gpubound: %d point(s) failed; see the status column and results.json\n", info.points_failed);
        rc = GB_EXIT_FAIL;
    }
out:
    if (w)
        gb_run_writer_close(w, &info);
    gb_measure_share_release(&share);
    if (gpu_open)
        gb_gpu_close(&gpu);
    gb_plan_release(&plan);
    free(sets);
    return rc;
}
