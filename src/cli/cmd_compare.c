/* cmd_compare.c - `gpubound compare BASE NEW`: parses, loads the runs of
 * each side, calls the comparison (models/compare/compare.c) and prints its table,
 * summary and chart (report/compare.c). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "util/fs.h"
#include "util/stage.h"
#include "cli/cli.h"
#include "gpubound/compare_report.h"
#include "gpubound/results.h"

#define GB_CMP_MAX_RUNS 16
#define GB_CMP_MAX_PAIRS 16

struct gb_cmp_args {
    struct gb_cmp_opts o;
    struct gb_cmp_pair pairs[GB_CMP_MAX_PAIRS];
    const char *side[2];         /* BASE and NEW as given */
    const char *anchor[2];       /* --anchor-base, --anchor-new */
    const char *chart_dir;
    long chart_points;
    int fail_on_regression;
    enum gb_format fmt;
};

/* The loaded runs of both sides. */
struct gb_cmp_runs {
    struct gb_run *run[2][GB_CMP_MAX_RUNS];
    int n[2];
};

static int gb_cmp_parse_pair(struct gb_cmp_args *a, const char *s)
{
    const char *eq = strchr(s, '=');
    struct gb_cmp_pair *p = &a->pairs[a->o.n_pairs];
    if (a->o.n_pairs >= GB_CMP_MAX_PAIRS)
        return gb_cli_usage("compare", "at most %d --pair options", GB_CMP_MAX_PAIRS);
    if (!eq || eq == s || !eq[1] || !memchr(s, '/', (size_t)(eq - s)) || !strchr(eq + 1, '/') ||
        (size_t)(eq - s) >= sizeof p->base || strlen(eq + 1) >= sizeof p->new_)
        return gb_cli_usage("compare", "--pair: '%s' is not SUITE/BENCH=SUITE/BENCH", s);
    snprintf(p->base, sizeof p->base, "%.*s", (int)(eq - s), s);
    snprintf(p->new_, sizeof p->new_, "%s", eq + 1);
    a->o.n_pairs++;
    return GB_EXIT_OK;
}

/* A number in (lo, hi) from `s` (a trailing '%' allowed when pct); NAN when not one. */
static double gb_cmp_parse_num(const char *s, double lo, double hi, int pct)
{
    char *end;
    double v = strtod(s, &end);
    if (pct && *end == '%')
        end++;
    return end != s && !*end && isfinite(v) && v > lo && v < hi ? v : NAN;
}

static int gb_cmp_option(int c, const char *arg, struct gb_cmp_args *a)
{
    switch (c) {
    case 'a':
        if (isnan(a->o.alpha = gb_cmp_parse_num(arg, 0, 0.5, 0)))
            return gb_cli_usage("compare", "--alpha needs a number between 0 and 0.5, not '%s'", arg);
        return GB_EXIT_OK;
    case 't':
        if (isnan(a->o.threshold = gb_cmp_parse_num(arg, -1e-300, 100, 1) / 100))
            return gb_cli_usage("compare", "--threshold needs a percentage from 0 to 100, not '%s'", arg);
        return GB_EXIT_OK;
    case 'f':
        return gb_format_parse(arg, &a->fmt) == GB_OK ? GB_EXIT_OK
                                                       : gb_cli_usage("compare", "--format: %s", gb_error_message());
    case 'F': a->fail_on_regression = 1; return GB_EXIT_OK;
    case 'p': return gb_cmp_parse_pair(a, arg);
    case 'A': a->anchor[0] = arg; return GB_EXIT_OK;
    case 'N': a->anchor[1] = arg; return GB_EXIT_OK;
    case 'c': a->chart_dir = arg; return GB_EXIT_OK;
    case 'n':
        return (a->chart_points = gb_cli_parse_long("compare", "--chart-points", arg, 1, 10000)) < 0 ? GB_EXIT_USAGE
                                                                                                    : GB_EXIT_OK;
    default: return GB_EXIT_USAGE;
    }
}

static int gb_cmp_options(int argc, char **argv, struct gb_cmp_args *a)
{
    static const struct option longopts[] = {
        {"alpha", required_argument, NULL, 'a'},       {"threshold", required_argument, NULL, 't'},
        {"format", required_argument, NULL, 'f'},      {"fail-on-regression", no_argument, NULL, 'F'},
        {"pair", required_argument, NULL, 'p'},        {"anchor-base", required_argument, NULL, 'A'},
        {"anchor-new", required_argument, NULL, 'N'},  {"chart", required_argument, NULL, 'c'},
        {"chart-points", required_argument, NULL, 'n'}, {NULL, 0, NULL, 0}};
    int c, rc;
    gb_cmp_opts_default(&a->o);
    a->o.pairs = a->pairs;
    a->chart_points = 60;
    if ((c = gb_cli_options_once("compare", argc, argv, ":", longopts, "--pair...")) >= 0)
        return c;
    gb_cli_getopt_reset();
    while ((c = getopt_long(argc, argv, ":", longopts, NULL)) != -1) {
        if (c == ':')
            return gb_cli_usage("compare", "%s needs a value", argv[optind - 1]);
        if (c == '?')
            return gb_cli_usage("compare", "unknown option '%s'", argv[optind - 1]);
        if ((rc = gb_cmp_option(c, optarg, a)) != GB_EXIT_OK)
            return rc;
    }
    if (argc - optind != 2)
        return gb_cli_usage("compare", "expected BASE and NEW (run directories), not %d argument(s)", argc - optind);
    a->side[0] = argv[optind];
    a->side[1] = argv[optind + 1];
    if (!a->side[0][0] || !a->side[1][0])
        return gb_cli_usage("compare", "an empty run directory name");
    return GB_EXIT_OK;
}

/* Loads the comma-separated run directories of side `k`. */
static int gb_cmp_load_side(const char *list, int k, struct gb_cmp_runs *R)
{
    char dir[4096];
    const char *s = list;
    while (*s) {
        size_t n = strcspn(s, ",");
        if (n == 0 || n >= sizeof dir)
            return gb_cli_usage("compare", "'%s' is not a list of run directories", list);
        if (R->n[k] >= GB_CMP_MAX_RUNS)
            return gb_cli_usage("compare", "at most %d runs on a side", GB_CMP_MAX_RUNS);
        snprintf(dir, sizeof dir, "%.*s", (int)n, s);
        enum gb_status st = gb_cli_load_run(dir, &R->run[k][R->n[k]]);
        if (st != GB_OK)
            return gb_cli_fail(st, "compare", "give run directories written by 'gpubound run'");
        R->n[k]++;
        s += n;
        if (*s == ',')
            s++;
    }
    return GB_EXIT_OK;
}

/* Whether runs a and b are one run: the same directory, or the same
 * identity in run.json (host, start and finish, command line and GPU: a
 * copied directory). */
static int gb_cmp_same_run(const struct gb_run *a, const struct gb_run *b, const char **how)
{
    struct stat sa, sb;
    const struct gb_run_info *x = &a->info, *y = &b->info;
    *how = "the same directory";
    if (stat(a->dir, &sa) == 0 && stat(b->dir, &sb) == 0 && sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino)
        return 1;
    *how = "the same run.json identity: host, start, finish, command line and GPU";
    return x->started_utc[0] && strcmp(x->started_utc, y->started_utc) == 0 && strcmp(x->host, y->host) == 0 &&
           strcmp(x->finished_utc, y->finished_utc) == 0 && strcmp(x->command_line, y->command_line) == 0 &&
           x->has_device == y->has_device && (!x->has_device || strcmp(x->device.uuid, y->device.uuid) == 0);
}

/* Refuses a side that gives one run twice: its samples would be pooled
 * with themselves, as if measured twice. */
static int gb_cmp_check_twice(const struct gb_cmp_runs *R, int k, const char *list)
{
    const char *how;
    for (int i = 0; i < R->n[k]; i++)
        for (int j = i + 1; j < R->n[k]; j++)
            if (gb_cmp_same_run(R->run[k][i], R->run[k][j], &how))
                return gb_cli_usage("compare", "%s '%s' gives one run twice (%s and %s: %s); give each run once",
                                    k ? "NEW" : "BASE", list, R->run[k][i]->dir, R->run[k][j]->dir, how);
    return GB_EXIT_OK;
}

/* --chart never inside a run compared or an anchor: those are only read. */
static int gb_cmp_check_chart(const struct gb_cmp_args *a, const struct gb_cmp_runs *R)
{
    int rc = -1;
    for (int k = 0; k < 2 && rc < 0; k++) {
        for (int i = 0; i < R->n[k] && rc < 0; i++)
            rc = gb_cli_out_outside("compare", "--chart", a->chart_dir, R->run[k][i]->dir);
        if (rc < 0)
            rc = gb_cli_out_outside("compare", "--chart", a->chart_dir, a->anchor[k]);
    }
    return rc < 0 ? GB_EXIT_OK : rc;
}

/* The GPUs of a fleet run (distinct ranks of its records); 0 when the
 * run is not one. */
static int gb_cmp_fleet_size(const struct gb_run *run)
{
    int n = 0, max = -1;
    for (size_t i = 0; i < run->n_records; i++)
        if (run->records[i].fleet && run->records[i].fleet_rank > max) {
            max = run->records[i].fleet_rank;
            n++;
        }
    return n ? max + 1 : 0;
}

/* Fleet runs are compared GPU by GPU (ranks matched): both sides must be
 * fleet runs, or neither, else the fleet's GPUs would be pooled. */
static int gb_cmp_check_fleet(const struct gb_cmp_args *a, const struct gb_cmp_runs *R)
{
    int fleet[2][2] = {{0, 0}, {0, 0}}; /* [side][is fleet]: runs */
    for (int k = 0; k < 2; k++)
        for (int i = 0; i < R->n[k]; i++) {
            const struct gb_run *run = R->run[k][i];
            if (run->n_records == 0) /* neither a fleet run nor one GPU's: no data to compare */
                return gb_cli_fail(gb_error_set(GB_ERR_FORMAT, "%s run %s holds no record (%s is empty): nothing "
                                                "to compare; give a run that measured points", k ? "NEW" : "BASE",
                                                run->dir, run->records_file),
                                   "compare", NULL);
            fleet[k][gb_cmp_fleet_size(run) > 0]++;
        }
    for (int k = 0; k < 2; k++)
        if (fleet[k][1] && (fleet[k][0] || fleet[!k][0]))
            return gb_cli_usage("compare", "%s '%s' holds a fleet run (%d GPUs) and %s is not one: fleet runs are "
                                "compared GPU by GPU, rank with rank, only with fleet runs; give fleet runs on both "
                                "sides, or one GPU's run ('gpubound fleet' compares a fleet's GPUs)",
                                k ? "NEW" : "BASE", a->side[k], gb_cmp_fleet_size(R->run[k][0]),
                                fleet[k][0] ? "another of its runs" : k ? "BASE" : "NEW");
    return GB_EXIT_OK;
}

static void gb_cmp_runs_free(struct gb_cmp_runs *R)
{
    for (int k = 0; k < 2; k++)
        for (int i = 0; i < R->n[k]; i++)
            gb_run_free(R->run[k][i]);
}

static const char *gb_cmp_device(const struct gb_cmp_runs *R, int k)
{
    const struct gb_run *r = R->run[k][0];
    return r->info.has_device ? r->info.device.name : "";
}

/* The best bandwidth/copy GB/s of the run at `dir`: 0 and a message when none. */
static int gb_cmp_anchor_run(const char *dir, double *gbs)
{
    struct gb_run *run = NULL;
    enum gb_status st = gb_cli_load_run(dir, &run);
    if (st != GB_OK)
        return gb_cli_fail(st, "compare --anchor", "give a run of 'gpubound run bandwidth'");
    *gbs = 0;
    for (size_t i = 0; i < run->n_records; i++) {
        const struct gb_record *r = &run->records[i];
        if (r->status == GB_REC_OK && strcmp(r->suite, "bandwidth") == 0 && strcmp(r->bench, "copy") == 0 &&
            isfinite(r->bw_gbs) && r->bw_gbs > *gbs)
            *gbs = r->bw_gbs;
    }
    gb_run_free(run);
    if (*gbs > 0)
        return GB_EXIT_OK;
    fprintf(stderr, "gpubound compare: %s holds no measured bandwidth/copy point; record one with "
            "'gpubound run bandwidth/copy'\n", dir);
    return GB_EXIT_FAIL;
}

/* The anchors: the bandwidth runs given, else each GPU's peak when the
 * sides ran on different GPUs. */
static int gb_cmp_anchors(struct gb_cmp_args *a, const struct gb_cmp_runs *R, struct gb_cmp_context *ctx)
{
    int rc;
    ctx->anchored = 0;
    if (a->anchor[0] || a->anchor[1]) {
        if (!a->anchor[0] || !a->anchor[1])
            return gb_cli_usage("compare", "give both --anchor-base and --anchor-new");
        if ((rc = gb_cmp_anchor_run(a->anchor[0], &a->o.anchor_base_gbs)) != GB_EXIT_OK ||
            (rc = gb_cmp_anchor_run(a->anchor[1], &a->o.anchor_new_gbs)) != GB_EXIT_OK)
            return rc;
        ctx->anchor_what = "measured copy bandwidth (best bandwidth/copy point of the anchor runs)";
        ctx->anchored = 1;
        return GB_EXIT_OK;
    }
    if (strcmp(ctx->base_device, ctx->new_device) == 0)
        return GB_EXIT_OK;
    const struct gb_run *b = R->run[0][0], *n = R->run[1][0];
    if (b->info.has_device && n->info.has_device && b->info.device.mem_peak_gbs > 0 &&
        n->info.device.mem_peak_gbs > 0) {
        a->o.anchor_base_gbs = b->info.device.mem_peak_gbs;
        a->o.anchor_new_gbs = n->info.device.mem_peak_gbs;
        ctx->anchor_what = "peak memory bandwidth (run.json device.mem_peak_gbs)";
        ctx->anchored = 1;
    }
    return GB_EXIT_OK;
}

/* Whether the runs of side k ran on more than one kind of GPU. */
static int gb_cmp_mixed_devices(const struct gb_cmp_runs *R, int k)
{
    for (int i = 1; i < R->n[k]; i++)
        if (strcmp(R->run[k][i]->info.has_device ? R->run[k][i]->info.device.name : "", gb_cmp_device(R, k)))
            return 1;
    return 0;
}

/* The lines around the table: what was compared, how, and what to mind. */
static void gb_cmp_print_notes(FILE *f, const struct gb_cmp_args *a, const struct gb_cmp_runs *R,
                               const struct gb_cmp_context *ctx, const struct gb_cmp_result *r)
{
    for (int k = 0; k < 2; k++)
        fprintf(f, "%s: %s (%s, %d run%s)%s\n", k ? "new" : "base", a->side[k], k ? ctx->new_device : ctx->base_device,
                R->n[k], R->n[k] > 1 ? "s, samples pooled" : "",
                gb_cmp_mixed_devices(R, k) ? "; warning: its runs are on different GPUs" : "");
    if (r->n_summary < r->n_points)
        fprintf(f, "method: ratio new/base = exp(Hodges-Lehmann shift of log times) with its %g%% rank-sum "
                "interval (samples)\n", 100 * (1 - a->o.alpha));
    if (r->n_summary)
        fprintf(f, "method: ratio of medians with a %g%% interval from each side's stored 95%% interval of its "
                "median (summary)\n", 100 * (1 - a->o.alpha));
    fprintf(f, "verdict: the interval excludes 1 (alpha %g) and the ratio is beyond a %g%% change\n", a->o.alpha,
            100 * a->o.threshold);
    if (r->n_summary)
        fprintf(f, "note: %zu of %zu points compared on summary statistics only (median and its 95%% interval): "
                "a side has no kept samples (recorded before samples were kept)\n", r->n_summary, r->n_points);
    if (ctx->anchored)
        fprintf(f, "anchor: %s: base %.1f GB/s, new %.1f GB/s; anchored = ratio x %.4g (below 1: this kernel "
                "uses the new GPU better than its bandwidth explains)\n", ctx->anchor_what, a->o.anchor_base_gbs,
                a->o.anchor_new_gbs, a->o.anchor_new_gbs / a->o.anchor_base_gbs);
    if (r->n_throttled)
        fprintf(f, "warning: %zu points throttled on a side (SM clock dropped during the point)\n", r->n_throttled);
    if (r->n_clock)
        fprintf(f, "warning: %zu points ran at SM clocks more than 3%% apart (notes give them)\n", r->n_clock);
    if (r->n_converged)
        fprintf(f, "warning: %zu points met the stopping rule on one side only\n", r->n_converged);
}

static void gb_cmp_print_one_sided(FILE *f, const char *side, char **names, const enum gb_cmp_lost *why,
                                   size_t n)
{
    if (n)
        fprintf(f, "only in %s: %zu point%s%s\n", side, n, n > 1 ? "s" : "",
                why ? " (each fails --fail-on-regression)" : "");
    for (size_t i = 0; i < n && i < 20; i++)
        fprintf(f, "  %s%s%s\n", names[i], why ? ": " : "", why ? gb_cmp_lost_name(why[i]) : "");
    if (n > 20)
        fprintf(f, "  ... and %zu more\n", n - 20);
}

static int gb_cmp_print(const struct gb_cmp_args *a, const struct gb_cmp_runs *R, const struct gb_cmp_context *ctx,
                        const struct gb_cmp_result *r)
{
    enum gb_status st;
    char line[512];
    FILE *notes = a->fmt == GB_FORMAT_TABLE ? stdout : stderr;
    gb_cmp_print_notes(notes, a, R, ctx, r);
    if (a->fmt == GB_FORMAT_JSON) {
        st = gb_report_compare_json(r, ctx, stdout);
    } else {
        struct gb_table *t = NULL;
        if ((st = gb_report_compare_table(r, ctx, &t)) == GB_OK) {
            if (a->fmt == GB_FORMAT_TABLE)
                fputc('\n', stdout);
            st = gb_table_print(t, stdout, a->fmt, a->fmt == GB_FORMAT_TABLE ? gb_term_width(stdout) : 0);
        }
        gb_table_free(t);
    }
    if (st != GB_OK)
        return gb_cli_fail(st, "compare", NULL);
    if (a->fmt == GB_FORMAT_TABLE)
        fputc('\n', stdout);
    gb_cmp_print_one_sided(notes, "base", r->only_base, r->only_base_why, r->n_only_base);
    gb_cmp_print_one_sided(notes, "new", r->only_new, NULL, r->n_only_new);
    gb_report_compare_summary(r, ctx, line, sizeof line);
    fprintf(notes, "summary: %s\n", line);
    return GB_EXIT_OK;
}

static int gb_cmp_chart(const struct gb_cmp_args *a, const struct gb_cmp_context *ctx, const struct gb_cmp_result *r)
{
    struct gb_report_result res;
    struct gb_stage stage;
    struct stat sb;
    /* Made when missing, as every command's output directory is. */
    if (stat(a->chart_dir, &sb) == 0 && !S_ISDIR(sb.st_mode)) {
        fprintf(stderr, "gpubound compare: --chart %s is not a directory and cannot be made; give a directory\n",
                a->chart_dir);
        return GB_EXIT_USAGE;
    }
    gb_report_result_init(&res);
    /* Drawn in a stage and moved into the directory when every chart is. */
    enum gb_status st = gb_stage_open(&stage, a->chart_dir);
    if (st == GB_OK && (st = gb_report_compare_chart(r, ctx, stage.tmp, (size_t)a->chart_points, &res)) == GB_OK)
        st = gb_stage_commit(&stage);
    if (st != GB_OK)
        st = gb_stage_fail(&stage, st);
    if (st == GB_OK)
        gb_cli_print_written(&stage, &res);
    if (st == GB_OK && res.n_not_drawn)
        fprintf(stderr, "note: %s\n", res.note);
    gb_report_result_release(&res);
    return st == GB_OK ? GB_EXIT_OK : gb_cli_fail(st, "compare --chart", NULL);
}

/* --fail-on-regression: fails (one line) when a point is significantly
 * slower, or when a point measured in BASE is failed, skipped or missing
 * in NEW (docs/cli.md, "compare"). */
static int gb_cmp_gate(const struct gb_cmp_args *a, const struct gb_cmp_result *r)
{
    char slow[96] = "", lost[160] = "";
    if (r->n_slower == 0 && r->n_only_base == 0)
        return GB_EXIT_OK;
    if (r->n_slower)
        snprintf(slow, sizeof slow, "%zu point%s significantly slower beyond %g%%", r->n_slower,
                 r->n_slower > 1 ? "s" : "", 100 * a->o.threshold);
    if (r->n_only_base)
        snprintf(lost, sizeof lost, "%s%zu point%s measured in base and not in new (%zu failed, %zu skipped, "
                 "%zu missing)", r->n_slower ? " and " : "", r->n_only_base, r->n_only_base > 1 ? "s" : "",
                 r->n_lost[GB_CMP_LOST_FAILED], r->n_lost[GB_CMP_LOST_SKIPPED], r->n_lost[GB_CMP_LOST_MISSING]);
    fprintf(stderr, "gpubound compare: %s%s: regression\n", slow, lost);
    return GB_EXIT_FAIL;
}

/* Compares, prints and charts the loaded runs; the exit code. */
static int gb_cmp_run(struct gb_cmp_args *a, const struct gb_cmp_runs *R)
{
    struct gb_cmp_context ctx = {.base_label = a->side[0], .new_label = a->side[1],
                                 .base_device = gb_cmp_device(R, 0), .new_device = gb_cmp_device(R, 1),
                                 .alpha = a->o.alpha, .threshold = a->o.threshold};
    struct gb_cmp_result r;
    int rc = gb_cmp_anchors(a, R, &ctx);
    if (rc != GB_EXIT_OK)
        return rc;
    enum gb_status st = gb_cmp_runs((const struct gb_run *const *)R->run[0], R->n[0],
                                    (const struct gb_run *const *)R->run[1], R->n[1], &a->o, &r);
    if (st != GB_OK)
        return gb_cli_fail(st, "compare", NULL);
    if (r.n_points == 0) {
        fprintf(stderr, "gpubound compare: no measured point of %s matches one of %s (%zu and %zu one-sided); "
                "compare runs of the same suites, or map benches with --pair\n", a->side[1], a->side[0],
                r.n_only_new, r.n_only_base);
        gb_cmp_result_release(&r);
        return GB_EXIT_FAIL;
    }
    rc = gb_cmp_print(a, R, &ctx, &r);
    if (rc == GB_EXIT_OK && a->chart_dir)
        rc = gb_cmp_chart(a, &ctx, &r);
    if (rc == GB_EXIT_OK && a->fail_on_regression)
        rc = gb_cmp_gate(a, &r);
    gb_cmp_result_release(&r);
    return rc;
}

int gb_cmd_compare(int argc, char **argv)
{
    struct gb_cmp_args a;
    struct gb_cmp_runs R;
    memset(&a, 0, sizeof a);
    memset(&R, 0, sizeof R);
    int rc = gb_cmp_options(argc, argv, &a);
    if (rc == GB_EXIT_OK && (rc = gb_cmp_load_side(a.side[0], 0, &R)) == GB_EXIT_OK &&
        (rc = gb_cmp_load_side(a.side[1], 1, &R)) == GB_EXIT_OK &&
        (rc = gb_cmp_check_twice(&R, 0, a.side[0])) == GB_EXIT_OK &&
        (rc = gb_cmp_check_twice(&R, 1, a.side[1])) == GB_EXIT_OK && (rc = gb_cmp_check_chart(&a, &R)) == GB_EXIT_OK &&
        (rc = gb_cmp_check_fleet(&a, &R)) == GB_EXIT_OK)
        rc = gb_cmp_run(&a, &R);
    gb_cmp_runs_free(&R);
    return rc;
}
