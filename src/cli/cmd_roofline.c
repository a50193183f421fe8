/* cmd_roofline.c - `gpubound roofline RUN`: every point of a run under the
 * machine's roofs (include/gpubound/roofline.h), and `gpubound info
 * --ceilings RUN`: the roofs of a ceilings run. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/cmd_roofline.h"
#include "gpubound/plot.h"
#include "gpubound/results.h"
#include "gpubound/roofline.h"
#include "gpubound/table.h"
#include "util/fs.h"
#include "util/stage.h"

#define CMD "roofline"
#define GB_CEILINGS_HINT                                                                            \
    "gpubound run ceilings bandwidth/read throughput/arith --set op=ffma,dfma,imul,__sinf "        \
    "--set mode=tput --out DIR"

struct rl_opts {
    const char *run, *ceilings, *out;
    enum gb_format fmt;
    int pipe, no_chart, other_gpu;
};

static int rl_parse(int argc, char **argv, struct rl_opts *o)
{
    static const struct option longopts[] = {
        {"ceilings", required_argument, NULL, 'c'}, {"format", required_argument, NULL, 'f'},
        {"out", required_argument, NULL, 'o'},      {"pipe", required_argument, NULL, 'p'},
        {"no-chart", no_argument, NULL, 'n'},       {"other-gpu", no_argument, NULL, 'g'},
        {NULL, 0, NULL, 0}};
    int c;
    memset(o, 0, sizeof *o);
    o->pipe = -1;
    gb_cli_getopt_reset();
    while ((c = getopt_long(argc, argv, ":c:f:o:p:n", longopts, NULL)) != -1) {
        switch (c) {
        case 'c': o->ceilings = optarg; break;
        case 'o': o->out = optarg; break;
        case 'n': o->no_chart = 1; break;
        case 'g': o->other_gpu = 1; break;
        case 'f':
            if (gb_format_parse(optarg, &o->fmt) != GB_OK)
                return gb_cli_usage(CMD, "--format takes table, csv or json, not '%s'", optarg);
            break;
        case 'p':
            o->pipe = gb_roof_find(optarg);
            if (o->pipe < 0 || gb_roof_info(o->pipe)->cls != GB_ROOF_COMPUTE)
                return gb_cli_usage(CMD, "--pipe takes fp32, fp64, fp16, bf16, tc_fp16, tc_bf16, tc_fp8, int or "
                                         "mufu, not '%s'", optarg);
            break;
        case ':': return gb_cli_usage(CMD, "%s needs a value", argv[optind - 1]);
        default: return gb_cli_usage(CMD, "unknown option '%s'", argv[optind - 1]);
        }
    }
    if (optind >= argc)
        return gb_cli_usage(CMD, "give the run directory to place under the roofs");
    if (optind + 1 < argc)
        return gb_cli_usage(CMD, "unexpected argument '%s'", argv[optind + 1]);
    o->run = argv[optind];
    return -1;
}

static void rl_cell_num(struct gb_table *t, double v, enum gb_status *st)
{
    if (*st == GB_OK)
        *st = isfinite(v) ? gb_table_cell_num(t, v, 4) : gb_table_cell_empty(t);
}

static void rl_cell_text(struct gb_table *t, const char *s, enum gb_status *st)
{
    if (*st == GB_OK)
        *st = gb_table_cell_text(t, s);
}

/* One row per point: bytes and intensity at each level, the binding roof. */
static enum gb_status rl_table(const struct gb_roofline *rl, struct gb_table **out)
{
    static const char *const cols[][2] = {
        {"point", NULL},        {"pipe", NULL},          {"time", "ns"},        {"ops", NULL},
        {"dram bytes", NULL},   {"l2 bytes", NULL},      {"l1 bytes", NULL},    {"ai dram", "ops/B"},
        {"ai l2", "ops/B"},     {"ai l1", "ops/B"},      {"achieved", "G/s"},   {"binding", NULL},
        {"fraction", NULL},     {"flag", NULL}};
    enum gb_status st = GB_OK;
    struct gb_table *t = gb_table_new();
    if (!t)
        return gb_error_set(GB_ERR_NOMEM, "out of memory");
    for (size_t c = 0; c < sizeof cols / sizeof cols[0] && st == GB_OK; c++)
        st = gb_table_column(t, cols[c][0], cols[c][1]);
    for (size_t i = 0; i < rl->n && st == GB_OK; i++) {
        const struct gb_roofline_point *p = &rl->pts[i];
        st = gb_table_row(t);
        rl_cell_text(t, p->label, &st);
        rl_cell_text(t, p->pipe >= 0 ? gb_roof_info(p->pipe)->name : "", &st);
        rl_cell_num(t, p->time_ns, &st);
        rl_cell_num(t, p->ops, &st);
        for (int l = 0; l < GB_N_LEVELS; l++)
            rl_cell_num(t, p->bytes[l], &st);
        for (int l = 0; l < GB_N_LEVELS; l++)
            rl_cell_num(t, p->intensity[l], &st);
        rl_cell_num(t, p->ops > 0 ? p->achieved : NAN, &st);
        rl_cell_text(t, p->binding >= 0 ? gb_roof_info(p->binding)->name : "", &st);
        rl_cell_num(t, p->fraction, &st);
        rl_cell_text(t, p->above ? "above measured roof" : "", &st);
    }
    if (st != GB_OK) {
        gb_table_free(t);
        return st;
    }
    *out = t;
    return GB_OK;
}

/* The notes a reader needs: where the roofs come from, what the records lack. */
static void rl_notes(FILE *f, const char *pre, const struct gb_ceilings *c, const struct gb_roofline *rl)
{
    if (c->measured)
        fprintf(f, "%sroofs: measured in %s (the largest rate of each roof's benches)\n", pre, c->run_dir);
    else
        fprintf(f, "%sroofs: guide figures, not measured (no --ceilings run): record one with '%s'\n", pre,
                GB_CEILINGS_HINT);
    if (rl->without_counters)
        fprintf(f, "%s%d points have no counters: placed from the spec's bytes and flops, with the DRAM "
                   "roof only\n", pre, rl->without_counters);
    if (rl->from_counters)
        fprintf(f, "%sbytes per level from counters (DRAM and L2 sectors x 32; L1/shared: global L1 sectors x "
                   "32 + shared wavefronts x 128); operations are the records' flops: the counters carry no "
                   "operation counts by type nor tensor-pipe instructions, so the pipe is FP64 when its pipe "
                   "ran more instructions than the FMA pipe, else FP32 (--pipe sets it)\n", pre);
    if (rl->skipped)
        fprintf(f, "%s%d records not ok or without a time are left out\n", pre, rl->skipped);
}

/* Roofs as lines (memory: bandwidth x intensity up to the highest pipe
 * roof drawn; pipes: horizontal), one marker per point and level. */
static enum gb_status rl_chart(const struct gb_ceilings *c, const struct gb_roofline *rl, const char *dir,
                               struct gb_report_result *res)
{
    enum gb_status st = GB_OK;
    double xlo = INFINITY, xhi = 0, top = 0;
    int used[GB_N_ROOFS] = {0}, lvl[GB_N_LEVELS], above = -1;
    struct gb_plot *p = gb_plot_new(GB_CHART_LINE, "roofline", "Hierarchical roofline");
    if (!p)
        return gb_error_set(GB_ERR_NOMEM, "out of memory");
    for (size_t i = 0; i < rl->n; i++)
        for (int l = 0; l < GB_N_LEVELS; l++)
            if (isfinite(rl->pts[i].intensity[l]) && rl->pts[i].achieved > 0) {
                xlo = fmin(xlo, rl->pts[i].intensity[l]);
                xhi = fmax(xhi, rl->pts[i].intensity[l]);
                used[rl->pts[i].pipe] = 1;
            }
    if (!(xhi > 0)) {
        st = gb_error_set(GB_ERR_USAGE, "no point has operations and bytes to draw (every flops is 0)");
        goto out;
    }
    xlo /= 4;
    xhi *= 4;
    gb_plot_log(p, 1, 1);
    if ((st = gb_plot_subtitle(p, c->measured ? "roofs measured by a ceilings run"
                                              : "roofs: guide figures, not measured")) ||
        (st = gb_plot_labels(p, "arithmetic intensity (operations per byte)", "performance (G operations/s)")))
        goto out;
    for (int r = 0; r < GB_N_ROOFS && st == GB_OK; r++)
        if (used[r] && c->value[r] > 0) {
            top = fmax(top, c->value[r]);
            st = gb_plot_ref(p, gb_roof_info(r)->name, c->value[r], gb_roof_info(r)->unit);
        }
    for (int l = 0; l < GB_N_LEVELS && st == GB_OK; l++) {
        double bw = c->value[gb_roof_of_level((enum gb_roof_level)l)];
        char lab[96];
        int s;
        lvl[l] = -1;
        if (!(bw > 0))
            continue;
        snprintf(lab, sizeof lab, "%s roof (%.6g GB/s)", gb_roof_level_name((enum gb_roof_level)l), bw);
        double xk = top > 0 ? fmin(xhi, top / bw) : xhi;
        if ((st = gb_plot_series(p, lab, &s)) || (st = gb_plot_series_style(p, s, GB_PLOT_STYLE_LINES)) ||
            (st = gb_plot_point(p, s, xlo, bw * xlo, NAN, NAN)))
            break;
        if (xk > xlo)
            st = gb_plot_point(p, s, xk, bw * xk, NAN, NAN);
    }
    for (int l = 0; l < GB_N_LEVELS && st == GB_OK; l++)
        if ((st = gb_plot_series(p, gb_roof_level_name((enum gb_roof_level)l), &lvl[l])) == GB_OK)
            st = gb_plot_series_style(p, lvl[l], GB_PLOT_STYLE_POINTS);
    for (size_t i = 0; i < rl->n && st == GB_OK; i++)
        for (int l = 0; l < GB_N_LEVELS && st == GB_OK; l++) {
            const struct gb_roofline_point *pt = &rl->pts[i];
            if (!isfinite(pt->intensity[l]) || !(pt->achieved > 0))
                continue;
            st = gb_plot_point(p, lvl[l], pt->intensity[l], pt->achieved, NAN, NAN);
            /* Drawn where it was measured, and marked: never moved under a roof. */
            if (st == GB_OK && pt->above && above < 0 &&
                (st = gb_plot_series(p, "above a measured roof", &above)) == GB_OK)
                st = gb_plot_series_style(p, above, GB_PLOT_STYLE_POINTS);
            if (st == GB_OK && pt->above)
                st = gb_plot_point(p, above, pt->intensity[l], pt->achieved, NAN, NAN);
        }
    if (st == GB_OK)
        st = gb_plot_draw(p, dir, res);
out:
    gb_plot_free(p);
    return st;
}

/* report.md and roofline.csv in `dir` (the stage). */
static enum gb_status rl_write(const struct rl_opts *o, const struct gb_ceilings *c, const struct gb_roofline *rl,
                               const struct gb_table *t, int chart, const char *dir)
{
    struct gb_atomic_file a;
    char path[GB_PATH_MAX + 96];
    enum gb_status st;
    snprintf(path, sizeof path, "%s/roofline.csv", dir);
    if ((st = gb_atomic_open(&a, path, "w")) != GB_OK)
        return st;
    if ((st = gb_table_print(t, a.f, GB_FORMAT_CSV, 0)) != GB_OK) {
        gb_atomic_abort(&a);
        return st;
    }
    if ((st = gb_atomic_commit(&a)) != GB_OK)
        return st;
    snprintf(path, sizeof path, "%s/report.md", dir);
    if ((st = gb_atomic_open(&a, path, "w")) != GB_OK)
        return st;
    fprintf(a.f, "# Roofline of %s\n\n", o->run);
    rl_notes(a.f, "- ", c, rl);
    fputs(chart ? "\n![Hierarchical roofline](roofline.svg)\n\n" : "\n", a.f);
    if ((st = gb_table_print_markdown(t, a.f)) != GB_OK) {
        gb_atomic_abort(&a);
        return st;
    }
    return gb_atomic_commit(&a);
}

/* The chart, roofline.csv and report.md, staged and moved into --out
 * together (nothing written there when any of them fails). */
static enum gb_status rl_outputs(const struct rl_opts *o, const struct gb_ceilings *c,
                                 const struct gb_roofline *rl, const struct gb_table *t)
{
    enum gb_status st;
    struct gb_stage stage;
    struct gb_report_result res;
    char shown[GB_PATH_MAX + 96];
    int chart = 0;
    if ((st = gb_stage_open(&stage, o->out)) != GB_OK)
        return st;
    gb_report_result_init(&res);
    if (!o->no_chart) {
        st = rl_chart(c, rl, stage.tmp, &res);
        chart = st == GB_OK && res.n_files > 0;
        if (st == GB_ERR_USAGE) {
            fprintf(stderr, "roofline: no chart: %s\n", gb_error_message());
            st = GB_OK;
        }
    }
    if (st == GB_OK && (st = rl_write(o, c, rl, t, chart, stage.tmp)) == GB_OK)
        st = gb_stage_commit(&stage);
    if (st != GB_OK) {
        gb_report_result_release(&res);
        return gb_stage_fail(&stage, st);
    }
    for (size_t i = 0; i < res.n_files; i++)
        fprintf(stderr, "wrote %s\n", gb_stage_final(&stage, res.files[i], shown, sizeof shown));
    if (res.n_not_drawn)
        fprintf(stderr, "roofline: chart not drawn: %s\n", res.note);
    fprintf(stderr, "wrote %s/roofline.csv\nwrote %s/report.md\n", o->out, o->out);
    gb_report_result_release(&res);
    return GB_OK;
}

/* The roofs: a ceilings run, else the guide figures of the run's device. */
static enum gb_status rl_roofs(const char *ceil_dir, int other_gpu, const struct gb_run *run, struct gb_ceilings *c)
{
    enum gb_status st;
    struct gb_run *cr = NULL;
    if (!ceil_dir) {
        if (!run->info.has_device)
            return gb_error_set(GB_ERR_USAGE, "%s has no device in its run.json and no --ceilings run was given",
                                run->dir);
        gb_ceilings_guide(&run->info.device, c);
        return GB_OK;
    }
    if ((st = gb_cli_load_run(ceil_dir, &cr)) == GB_OK && run->info.has_device && cr->info.has_device &&
        strcmp(run->info.device.name, cr->info.device.name) != 0) {
        if (!other_gpu)
            st = gb_error_set(GB_ERR_USAGE, "%s was measured on %s and %s on %s: the roofs of one kind of GPU "
                              "do not bound another; record a ceilings run on that GPU (or give --other-gpu)",
                              ceil_dir, cr->info.device.name, run->dir, run->info.device.name);
        else
            fprintf(stderr, "roofline: roofs of another GPU (--other-gpu): %s, not %s\n", cr->info.device.name,
                    run->info.device.name);
    }
    if (st == GB_OK)
        st = gb_ceilings_from_run(cr, c);
    gb_run_free(cr);
    return st;
}

int gb_cmd_roofline(int argc, char **argv)
{
    struct rl_opts o;
    struct gb_run *run = NULL;
    struct gb_ceilings *c = calloc(1, sizeof *c);
    struct gb_roofline rl = {0};
    struct gb_table *t = NULL;
    struct gb_roofline_opts ro = {.pipe = -1};
    enum gb_status st;
    int rc = rl_parse(argc, argv, &o);
    if (rc >= 0 || !c)
        goto done;
    ro.pipe = o.pipe;
    rc = GB_EXIT_FAIL;
    if (o.out && gb_is_dir(o.out) && strcmp(o.out, o.run) == 0) {
        rc = gb_cli_usage(CMD, "--out must not be the run read (%s): name a new directory", o.run);
        goto done;
    }
    if ((st = gb_cli_load_run(o.run, &run)) != GB_OK) {
        rc = gb_cli_fail(st, CMD, "give the directory of a recorded run");
        goto done;
    }
    if ((st = rl_roofs(o.ceilings, o.other_gpu, run, c)) != GB_OK) {
        rc = gb_cli_fail(st, CMD, "give a ceilings run with --ceilings DIR");
        goto done;
    }
    if ((st = gb_roofline_fit_run(run, c, &ro, &rl)) != GB_OK || (st = rl_table(&rl, &t)) != GB_OK) {
        rc = gb_cli_fail(st, CMD, NULL);
        goto done;
    }
    rl_notes(stderr, "roofline: ", c, &rl);
    if ((st = gb_table_print(t, stdout, o.fmt, gb_term_width(stdout))) != GB_OK ||
        (o.out && (st = rl_outputs(&o, c, &rl, t)) != GB_OK)) {
        rc = gb_cli_fail(st, CMD, NULL);
        goto done;
    }
    rc = GB_EXIT_OK;
done:
    if (!c && rc < 0)
        rc = gb_cli_fail(gb_error_set(GB_ERR_NOMEM, "out of memory"), CMD, NULL);
    gb_table_free(t);
    gb_roofline_release(&rl);
    gb_run_free(run);
    free(c);
    return rc;
}

int gb_cli_ceilings_print(const char *dir)
{
    struct gb_run *run = NULL;
    struct gb_ceilings *c = calloc(1, sizeof *c);
    enum gb_status st = c ? gb_cli_load_run(dir, &run) : gb_error_set(GB_ERR_NOMEM, "out of memory");
    if (st == GB_OK)
        st = gb_ceilings_from_run(run, c);
    if (st != GB_OK) {
        gb_run_free(run);
        free(c);
        return gb_cli_fail(st, "info", "give a ceilings run (" GB_CEILINGS_HINT ")");
    }
    printf("roofs of %s (%s, %d SMs, %d MHz max)\n", dir, c->device.name, c->device.sm_count,
           c->device.sm_clock_max_mhz);
    printf("  %-22s %14s %-10s %14s %8s  %s\n", "roof", "measured", "unit", "guide", "ratio", "set by");
    for (int r = 0; r < GB_N_ROOFS; r++) {
        const struct gb_roof_info *i = gb_roof_info(r);
        double m = c->measured_value[r], g = c->guide[r];
        char mv[32] = "-";
        if (isfinite(m))
            snprintf(mv, sizeof mv, "%.6g", m);
        printf("  %-22s %14s %-10s %14s %8s  %s\n", i->name, mv, i->unit, "", "", isfinite(m) ? c->best[r] : "not measured");
        if (g > 0)
            printf("  %-22s %14s %-10s %14.6g %8s  guide: %s\n", "", "", "", g, "", c->guide_source[r]);
        if (g > 0 && isfinite(m))
            printf("  %-22s %14s %-10s %14s %8.3f  measured / guide\n", "", "", "", "", m / g);
    }
    if (isfinite(c->launch_a_ns))
        printf("  launch fit over %d grid sizes (OLS of t = a + V/b, V blocks): a = %.4g ns, b = %.4g blocks/ns\n",
               c->launch_n, c->launch_a_ns, c->launch_b_blocks_per_ns);
    gb_run_free(run);
    free(c);
    return GB_EXIT_OK;
}
