/* cmd_roofline.c - `gpubound roofline RUN`: every point of a run under the
 * machine's roofs (include/gpubound/roofline.h), and `gpubound info
 * --ceilings RUN`: the roofs of a ceilings run. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/cli_roofs.h"
#include "cli/cmd_roofline.h"
#include "gpubound/report.h"
#include "gpubound/plot.h"
#include "gpubound/results.h"
#include "gpubound/roofline.h"
#include "gpubound/table.h"
#include "util/fs.h"
#include "util/open_regular.h"
#include "util/replace.h"
#include "util/stage.h"

#define CMD "roofline"
#define RL_TITLE "# Roofline of" /* report.md's first line: one roofline wrote it */

struct rl_opts {
    const char *run, *ceilings, *out;
    enum gb_format fmt;
    int pipe, no_chart, other_gpu, force;
};

static int rl_parse(int argc, char **argv, struct rl_opts *o)
{
    static const struct option longopts[] = {
        {"ceilings", required_argument, NULL, 'c'}, {"format", required_argument, NULL, 'f'},
        {"out", required_argument, NULL, 'o'},      {"pipe", required_argument, NULL, 'p'},
        {"no-chart", no_argument, NULL, 'n'},       {"other-gpu", no_argument, NULL, 'g'},
        {"force", no_argument, NULL, 'X'},          {NULL, 0, NULL, 0}};
    int c;
    memset(o, 0, sizeof *o);
    o->pipe = -1;
    if ((c = gb_cli_options_once(CMD, argc, argv, ":c:f:o:p:n", longopts, NULL)) >= 0)
        return c;
    gb_cli_getopt_reset();
    while ((c = getopt_long(argc, argv, ":c:f:o:p:n", longopts, NULL)) != -1) {
        switch (c) {
        case 'c': o->ceilings = optarg; break;
        case 'o': o->out = optarg; break;
        case 'n': o->no_chart = 1; break;
        case 'g': o->other_gpu = 1; break;
        case 'X': o->force = 1; break;
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
    int rc = gb_cli_out_outside(CMD, "--out", o->out, o->run);
    return rc >= 0 ? rc : gb_cli_out_outside(CMD, "--out", o->out, o->ceilings);
}

/* The notes a reader needs, each line prefixed. */
static void rl_notes(FILE *f, const char *pre, const struct gb_ceilings *c, const struct gb_roofline *rl)
{
    struct gb_findings notes;
    if (gb_report_roofline_notes(c, rl, 0, &notes) != GB_OK)
        return;
    for (size_t i = 0; i < notes.n; i++)
        fprintf(f, "%s%s\n", pre, notes.lines[i]);
    gb_findings_release(&notes);
}

/* The chart, drawn by gnuplot into `dir`. */
static enum gb_status rl_chart(const struct gb_ceilings *c, const struct gb_roofline *rl, const char *dir,
                               struct gb_report_result *res)
{
    struct gb_plot *p = NULL;
    enum gb_status st = gb_report_roofline_plot(c, rl, &p);
    if (st == GB_OK)
        st = gb_plot_draw(p, dir, res);
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
    fprintf(a.f, RL_TITLE " %s\n\n", o->run);
    rl_notes(a.f, "- ", c, rl);
    fputs(chart ? "\n![Hierarchical roofline](roofline.svg)\n\n" : "\n", a.f);
    if ((st = gb_table_print_markdown(t, a.f)) != GB_OK) {
        gb_atomic_abort(&a);
        return st;
    }
    return gb_atomic_commit(&a);
}

/* A report.md in --out that another command wrote (report's) is not
 * replaced unless --force: roofline's own (its first line "# Roofline of")
 * is. GB_ERR_UNSUPPORTED with the one line, as the replace guard's. */
static enum gb_status rl_guard(const struct rl_opts *o)
{
    char path[GB_PATH_MAX + 16], line[64] = "";
    snprintf(path, sizeof path, "%s/report.md", o->out);
    FILE *f = gb_fopen_regular(path);
    if (!f)
        return GB_OK;
    int ours = fgets(line, sizeof line, f) && strncmp(line, RL_TITLE, strlen(RL_TITLE)) == 0;
    fclose(f);
    if (ours || o->force)
        return GB_OK;
    return gb_error_set(GB_ERR_UNSUPPORTED, "%s is another command's report, not a roofline's; it is not "
                        "replaced (" GB_REPLACE_OUT_ELSEWHERE ")", path);
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
    if (o.out && (st = rl_guard(&o)) != GB_OK) {
        rc = gb_cli_fail(st, CMD, NULL);
        goto done;
    }
    if ((st = gb_cli_load_run(o.run, &run)) != GB_OK) {
        rc = gb_cli_fail(st, CMD, "give the directory of a recorded run");
        goto done;
    }
    if ((st = gb_cli_roofs(o.ceilings, o.other_gpu, run, c)) != GB_OK) {
        rc = gb_cli_fail(st, CMD, "give a ceilings run with --ceilings DIR");
        goto done;
    }
    if ((st = gb_roofline_fit_run(run, c, &ro, &rl)) != GB_OK || (st = gb_report_roofline_table(&rl, &t)) != GB_OK) {
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
