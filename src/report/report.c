/* report.c - the report of a run directory: its charts and report.md. */
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "util/fs.h"
#include "util/open_regular.h"
#include "util/replace.h"
#include "util/stage.h"

#include "gpubound/report.h"
#include "gpubound/report_html.h"
#include "report_internal.h"

static int gb_listed(char *const *list, size_t n, const char *name)
{
    for (size_t i = 0; i < n; i++)
        if (strcmp(list[i], name) == 0)
            return 1;
    return 0;
}

/* Markdown-safe inline text: characters that would start markup are escaped. */
static void gb_md_text(FILE *f, const char *s)
{
    for (; *s; s++) {
        if (strchr("\\`*_[]<>|#", *s))
            fputc('\\', f);
        fputc(*s == '\n' ? ' ' : *s, f);
    }
}

/* Inline code, with a fence longer than any run of backticks inside. */
static void gb_md_code(FILE *f, const char *s)
{
    int run = 0, longest = 0;
    size_t n = strlen(s);
    for (const char *p = s; *p; p++) {
        run = *p == '`' ? run + 1 : 0;
        if (run > longest)
            longest = run;
    }
    /* Blanks inside the fence only where a backtick would touch it. */
    const char *pad = n && (s[0] == '`' || s[n - 1] == '`') ? " " : "";
    for (int i = 0; i <= longest; i++)
        fputc('`', f);
    fprintf(f, "%s%s%s", pad, s, pad);
    for (int i = 0; i <= longest; i++)
        fputc('`', f);
}

static void gb_md_duration(char *buf, size_t n, double s)
{
    if (s >= 3600)
        snprintf(buf, n, "%.2f h", s / 3600);
    else if (s >= 120)
        snprintf(buf, n, "%.1f min", s / 60);
    else
        snprintf(buf, n, "%.1f s", s);
}

static void gb_md_device(FILE *f, const struct gb_run_info *in)
{
    const struct gb_device_info *d = &in->device;
    char num[64];
    if (!in->has_device) {
        fputs("| Device | not recorded |\n", f);
        return;
    }
    fputs("| Device | ", f);
    gb_md_text(f, d->name[0] ? d->name : "unknown");
    fprintf(f, " (compute capability %d.%d, %d SMs", d->cc_major, d->cc_minor, d->sm_count);
    if (d->total_mem_bytes > 0)
        fprintf(f, ", %.1f GiB", (double)d->total_mem_bytes / (1024.0 * 1024 * 1024));
    fprintf(f, ", ECC %s) |\n", d->ecc_enabled ? "on" : "off");
    if (d->mem_peak_gbs > 0) {
        gb_format_num(num, sizeof num, d->mem_peak_gbs, 4);
        fprintf(f, "| Peak memory bandwidth | %s GB/s (theoretical", num);
        if (d->mem_clock_max_mhz > 0 && d->mem_bus_width_bits > 0)
            fprintf(f, ": 2 \xc3\x97 %d MHz \xc3\x97 %d bit / 8", d->mem_clock_max_mhz,
                    d->mem_bus_width_bits);
        fputs(") |\n", f);
    }
    if (d->sm_clock_max_mhz > 0)
        fprintf(f, "| Max SM clock | %d MHz |\n", d->sm_clock_max_mhz);
    if (d->l2_bytes > 0)
        fprintf(f, "| L2 cache | %.0f MiB |\n", (double)d->l2_bytes / (1024.0 * 1024));
    if (d->uuid[0]) {
        fputs("| UUID | ", f);
        gb_md_text(f, d->uuid);
        fputs(" |\n", f);
    }
}

static void gb_md_row(FILE *f, const char *key, const char *value)
{
    if (!value || !value[0])
        return;
    fprintf(f, "| %s | ", key);
    gb_md_text(f, value);
    fputs(" |\n", f);
}

/* The warnings of the load-time checks (gb_run_check), one bullet each. */
static void gb_md_warnings(FILE *f, const struct gb_run *run)
{
    if (!run->n_warnings)
        return;
    fputs("> **Warnings** from the checks of the recorded data:\n>\n", f);
    for (size_t i = 0; i < run->n_warnings; i++) {
        fputs("> - ", f);
        gb_md_text(f, run->warnings[i]);
        fputc('\n', f);
    }
    if (run->n_warnings_total > run->n_warnings)
        fprintf(f, "> - %zu more warnings of the same kinds not shown\n",
                run->n_warnings_total - run->n_warnings);
    fputc('\n', f);
}

static void gb_md_header(FILE *f, const struct gb_run *run, char *const *suites, size_t n_suites)
{
    const struct gb_run_info *in = &run->info;
    char buf[256], wall[64], timed[64];

    fputs("# gpubound report:", f);
    for (size_t i = 0; i < n_suites; i++) {
        fputs(i ? ", " : " ", f);
        gb_md_text(f, suites[i]);
    }
    if (in->has_device && in->device.name[0]) {
        fputs(" on ", f);
        gb_md_text(f, in->device.name);
    }
    fputs("\n\n| | |\n| --- | --- |\n", f);
    gb_md_device(f, in);
    if (in->driver_release[0] && in->cuda_driver[0])
        snprintf(buf, sizeof buf, "%s (CUDA %s)", in->driver_release, in->cuda_driver);
    else if (in->cuda_driver[0])
        snprintf(buf, sizeof buf, "CUDA %s", in->cuda_driver);
    else
        snprintf(buf, sizeof buf, "%s", in->driver_release);
    gb_md_row(f, "Driver", buf);
    if (in->cuda_toolkit[0] || in->nvrtc[0]) {
        snprintf(buf, sizeof buf, "CUDA headers %s, NVRTC %s", in->cuda_toolkit[0] ?
                 in->cuda_toolkit : "?", in->nvrtc[0] ? in->nvrtc : "?");
        gb_md_row(f, "Toolkit", buf);
    }
    gb_md_row(f, "Started (UTC)", in->started_utc);
    gb_md_row(f, "Finished (UTC)", in->finished_utc[0] ? in->finished_utc : "did not finish");
    gb_md_row(f, "Host", in->host);
    snprintf(buf, sizeof buf, "gpubound %s, revision %s", in->tool_version[0] ? in->tool_version :
             "?", in->git_revision[0] ? in->git_revision : "?");
    gb_md_row(f, "Recorded by", buf);
    if (in->command_line[0]) {
        fputs("| Command | ", f);
        gb_md_code(f, in->command_line);
        fputs(" |\n", f);
    }
    gb_md_row(f, "Mode", in->mode);

    /* A run killed before its end has no totals in run.json: add the points up. */
    double wall_s = in->wall_s, timed_s = in->timed_s;
    const char *how = "";
    if (!(wall_s > 0)) {
        wall_s = timed_s = 0;
        for (size_t i = 0; i < run->n_records; i++) {
            wall_s += run->records[i].wall_s;
            timed_s += run->records[i].timed_s;
        }
        how = " (sum over the recorded points)";
    }
    if (wall_s > 0) {
        gb_md_duration(wall, sizeof wall, wall_s);
        gb_md_duration(timed, sizeof timed, timed_s);
        fprintf(f, "| Wall time | %s, of which %s (%.0f%%) in timed kernel work%s |\n", wall,
                timed, 100.0 * timed_s / wall_s, how);
    }
    size_t ok, bad, skipped;
    gb_run_count_status(run, &ok, &bad, &skipped);
    fprintf(f, "| Points | %zu measured, %zu failed, %zu skipped |\n\n", ok, bad, skipped);

    if (!in->complete || run->truncated)
        fprintf(f, "> **Incomplete run.** %s%s Only the points recorded before it stopped are "
                   "reported.\n\n",
                in->complete ? "" : "The run did not end normally (run.json says it is not "
                "complete).",
                run->truncated ? " results.json was cut in the middle of a record." : "");
    gb_md_warnings(f, run);
    if (bad)
        fprintf(f, "> **%zu point%s failed** (verification or a driver error): %s not timed; "
                   "the note column says why.\n\n", bad, bad == 1 ? "" : "s",
                bad == 1 ? "it was" : "they were");
}

/* A speedup chart's table, and how its interval was computed. */
static enum gb_status gb_md_speedup_table(FILE *f, const struct gb_run *run, const struct gb_chart_set *s,
                                          const struct gb_chart_spec *c)
{
    struct gb_table *t = NULL;
    enum gb_status st = gb_report_speedup_table(run, s, c, &t);
    if (st != GB_OK)
        return st;
    if (gb_table_n_rows(t) > 0) {
        st = gb_table_print_markdown(t, f);
        fputs("\nMedian times \xc2\xb1 the larger side of their 95% confidence intervals. The speedup "
              "is the first median over the second; its 95% interval combines the two medians' "
              "intervals on the log scale (docs/report.md, speedup charts).", f);
        if (c->ref_speedups)
            fputs(" The last columns are published speedups, quoted for comparison.", f);
        fputs("\n\n", f);
    }
    gb_table_free(t);
    return st;
}

/* The chart's values as a table under it, for charts that ask for one. */
static enum gb_status gb_md_chart_table(FILE *f, const struct gb_run *run, const struct gb_chart_set *s,
                                        const struct gb_chart_spec *c)
{
    struct gb_table *t = NULL;
    enum gb_status st = gb_report_chart_table(run, s, c, &t);
    if (st != GB_OK)
        return st;
    fputs("Values of the chart (", f);
    gb_md_text(f, c->y_label ? c->y_label : c->y);
    fputs("), one row per series, one column per ", f);
    gb_md_text(f, c->x_label ? c->x_label : c->x);
    fputs(":\n\n", f);
    st = gb_table_print_markdown(t, f);
    fputc('\n', f);
    gb_table_free(t);
    return st;
}

/* The image of a drawn chart: the PNG shows everywhere markdown is read, and
 * a click on it opens the SVG; with one format only, that image alone. */
static void gb_md_image(FILE *f, const struct gb_chart_spec *c, int formats)
{
    const char *only = formats == GB_PLOT_PNG ? "png" : formats == GB_PLOT_SVG ? "svg" : NULL;
    fputs(only ? "![" : "[![", f);
    gb_md_text(f, c->title ? c->title : c->name);
    if (only)
        fprintf(f, "](%s.%s)\n\n", c->name, only);
    else
        fprintf(f, "](%s.png)](%s.svg)\n\n", c->name, c->name);
}

static enum gb_status gb_md_chart(FILE *f, const struct gb_run *run, const struct gb_chart_set *s,
                                  const struct gb_chart_spec *c, const struct gb_report_result *res,
                                  const char *out_dir, int formats)
{
    char path[4096];
    struct stat sb;
    if (gb_listed(res->no_data, res->n_no_data, c->name)) {
        fputs("_No measured point of this chart in this run._\n\n", f);
        return GB_OK;
    }
    snprintf(path, sizeof path, "%s/%s.%s", out_dir, c->name, formats == GB_PLOT_SVG ? "svg" : "png");
    if (gb_listed(res->not_drawn, res->n_not_drawn, c->name)) {
        fprintf(f, "_Not drawn: gnuplot was not found. Install it (`apt-get install "
                   "gnuplot-nox`) and run `gpubound report %s` again; the script `%s.gp` is "
                   "ready._\n\n", run->dir, c->name);
    } else if (stat(path, &sb) != 0) {
        fputs("_Not drawn: drawing this chart failed._\n\n", f);
    } else {
        gb_md_image(f, c, formats);
    }
    return c->table ? gb_md_chart_table(f, run, s, c) : GB_OK;
}

/* One chart's section of report.md: its title, the speedup table of a
 * speedup chart, and the chart. */
static enum gb_status gb_md_section(FILE *f, const struct gb_run *run, const struct gb_chart_set *s,
                                    const struct gb_chart_spec *c,
                                    const struct gb_report_result *res, const char *out_dir,
                                    int formats)
{
    enum gb_status st;
    fputs("### ", f);
    gb_md_text(f, c->title ? c->title : c->name);
    fputs("\n\n", f);
    if (c->kind == GB_CHART_SPEEDUP && (st = gb_md_speedup_table(f, run, s, c)) != GB_OK)
        return st;
    return gb_md_chart(f, run, s, c, res, out_dir, formats);
}

/* The names of the suites of the run, in order of first appearance. */
static enum gb_status gb_run_suites(const struct gb_run *run, char ***suites, size_t *n)
{
    enum gb_status st = GB_OK;
    for (size_t i = 0; i < run->n_records && st == GB_OK; i++)
        if (!gb_listed(*suites, *n, run->records[i].suite))
            st = gb_result_add(suites, n, run->records[i].suite);
    return st;
}

/* Draws the charts of every suite of the run that the book has; a chart
 * that fails does not stop the others (the first failure is returned). */
static enum gb_status gb_draw_all(const struct gb_run *run, const struct gb_chart_book *book,
                                  const struct gb_report_opts *opts, int large, char *const *suites,
                                  size_t n_suites, const char *out_dir, struct gb_report_result *res)
{
    enum gb_status first = GB_OK;
    char msg[1024] = "";
    for (size_t i = 0; i < n_suites; i++) {
        const struct gb_chart_set *s = gb_chart_book_find(book, suites[i]);
        if (!s)
            continue;
        enum gb_status cst = gb_charts_draw(run, s, opts, large, out_dir, res);
        if (cst != GB_OK && first == GB_OK) {
            first = cst;
            snprintf(msg, sizeof msg, "%s", gb_error_message());
        }
    }
    return first == GB_OK ? GB_OK : gb_error_set(first, "%s", msg);
}

/* The sections of the drawn charts of one suite, and a line on those left out. */
static enum gb_status gb_md_charts(FILE *f, const struct gb_run *run, const struct gb_chart_set *s,
                                   const struct gb_report_opts *opts, int large,
                                   const struct gb_report_result *res, const char *out_dir)
{
    enum gb_status st = GB_OK;
    size_t left_out = 0;
    int formats = opts ? opts->formats : 0;
    for (int c = 0; c < s->n_charts && st == GB_OK; c++) {
        const struct gb_chart_spec *spec = &s->charts[c];
        struct gb_chart_inst *inst = NULL;
        size_t n_inst = 0;
        if ((st = gb_chart_instances(run, s, spec, &inst, &n_inst)) != GB_OK)
            return st;
        if (n_inst == 0) {   /* a split chart with nothing to split */
            if (gb_chart_wanted(opts, large, s, spec, NULL, 0))
                st = gb_md_section(f, run, s, spec, res, out_dir, formats);
            else
                left_out++;
        }
        for (size_t k = 0; k < n_inst && st == GB_OK; k++) {
            if (gb_chart_wanted(opts, large, s, spec, &inst[k], k))
                st = gb_md_section(f, run, s, &inst[k].spec, res, out_dir, formats);
            else
                left_out++;
        }
        free(inst);
    }
    if (left_out)
        fprintf(f, "_%zu more chart%s of this suite %s not drawn in this report: `gpubound report "
                   "RUN_DIR --all-charts` draws every one, `--charts PATTERN` those whose names "
                   "match._\n\n", left_out, left_out == 1 ? "" : "s", left_out == 1 ? "is" : "are");
    return st;
}

/* The summary of one suite: every point, or for a large run one row per
 * bench and where the table of every point is. */
static enum gb_status gb_md_summary(FILE *f, const struct gb_run *run, const char *suite, int large)
{
    struct gb_table *t = NULL;
    enum gb_status st = large ? gb_report_bench_table(run, suite, &t)
                              : gb_report_summary_table(run, suite, &t);
    if (st == GB_OK && large)
        fputs("One row per bench. `gpubound report` writes the table of every point to `summary.csv` "
              "beside this file, and `gpubound report RUN_DIR --format csv` prints it.\n\n", f);
    if (st == GB_OK)
        st = gb_table_print_markdown(t, f);
    gb_table_free(t);
    return st;
}

/* One suite's part of report.md: its name, help, summary and charts. */
static enum gb_status gb_md_suite(FILE *f, const struct gb_run *run, const char *suite,
                                  const struct gb_chart_set *s, const struct gb_report_opts *opts,
                                  int large, const struct gb_report_result *res, const char *out_dir)
{
    enum gb_status st;
    fputs("## ", f);
    gb_md_text(f, suite);
    fputs("\n\n", f);
    if (s && s->help) {
        gb_md_text(f, s->help);
        fputs("\n\n", f);
    }
    if ((st = gb_md_summary(f, run, suite, large)) != GB_OK)
        return st;
    fputc('\n', f);
    if (!s) {
        fputs("_This build of gpubound does not know this suite, so its charts are not "
              "drawn._\n\n", f);
        return GB_OK;
    }
    return gb_md_charts(f, run, s, opts, large, res, out_dir);
}

/* Whether the options carry a roofline to report: one with a point placed
 * from counters. */
static int gb_has_roofline(const struct gb_report_opts *opts)
{
    return opts && opts->roofs && opts->roofline && opts->roofline->from_counters > 0;
}

/* roofline.svg/.png in the stage; a roofline with nothing to draw is not an error. */
static enum gb_status gb_draw_roofline(const struct gb_report_opts *opts, const char *out_dir,
                                       struct gb_report_result *res)
{
    struct gb_plot *p = NULL;
    enum gb_status st = gb_report_roofline_plot(opts->roofs, opts->roofline, &p);
    if (st == GB_ERR_USAGE)
        return GB_OK;
    if (st == GB_OK) {
        gb_plot_formats(p, opts->formats);
        st = gb_plot_draw(p, out_dir, res);
    }
    gb_plot_free(p);
    return st;
}

/* report.md's "Roofline" section: the notes, the chart and the table. */
static enum gb_status gb_md_roofline(FILE *f, const struct gb_run *run, const struct gb_report_opts *opts,
                                     const struct gb_report_result *res, const char *out_dir)
{
    static const struct gb_chart_spec chart = {.name = "roofline", .title = "Hierarchical roofline"};
    struct gb_findings notes;
    struct gb_table *t = NULL;
    struct gb_plot *p = NULL;
    /* a run none of whose points has both operations and bytes places nothing
     * under the roofs (a bandwidth-only sweep): no section */
    enum gb_status st = gb_report_roofline_plot(opts->roofs, opts->roofline, &p);
    gb_plot_free(p);
    if (st == GB_ERR_USAGE) {
        gb_error_clear();
        return GB_OK;
    }
    if (st != GB_OK || (st = gb_report_roofline_notes(opts->roofs, opts->roofline, 1, &notes)) != GB_OK)
        return st;
    fputs("## Roofline\n\nEvery point under the machine's roofs (`gpubound roofline`): its arithmetic "
          "intensity at DRAM, L2 and L1/shared, the roof that binds and the attained fraction of it.\n\n", f);
    for (size_t i = 0; i < notes.n; i++) {
        fputs("- ", f);
        gb_md_text(f, notes.lines[i]);
        fputc('\n', f);
    }
    fputc('\n', f);
    gb_findings_release(&notes);
    if ((st = gb_md_chart(f, run, NULL, &chart, res, out_dir, opts->formats)) != GB_OK ||
        (st = gb_report_roofline_table(opts->roofline, &t)) != GB_OK)
        return st;
    st = gb_table_print_markdown(t, f);
    fputc('\n', f);
    gb_table_free(t);
    return st;
}

/* summary.csv: the table of every point of a large run. */
static enum gb_status gb_write_summary_csv(const struct gb_run *run, const char *out_dir,
                                           struct gb_report_result *res)
{
    struct gb_atomic_file a;
    struct gb_table *t = NULL;
    char path[GB_PATH_MAX + 128];
    enum gb_status st;
    snprintf(path, sizeof path, "%s/summary.csv", out_dir);
    if ((st = gb_report_summary_table(run, NULL, &t)) != GB_OK)
        return st;
    if ((st = gb_atomic_open(&a, path, "w")) == GB_OK) {
        if ((st = gb_table_print(t, a.f, GB_FORMAT_CSV, 0)) != GB_OK)
            gb_atomic_abort(&a);
        else
            st = gb_atomic_commit(&a);
    }
    gb_table_free(t);
    return st == GB_OK ? gb_result_add_file(res, out_dir, "summary.csv") : st;
}

/* report.md, written aside and renamed so that it is never half-written. */
static enum gb_status gb_write_md(const struct gb_run *run, const struct gb_chart_book *book,
                                  const struct gb_report_opts *opts, int large, char *const *suites,
                                  size_t n_suites, const char *out_dir, struct gb_report_result *res)
{
    struct gb_atomic_file a;
    char path[GB_PATH_MAX + 128];
    enum gb_status st;
    snprintf(path, sizeof path, "%s/report.md", out_dir);
    if ((st = gb_atomic_open(&a, path, "w")) != GB_OK)
        return st;
    gb_md_header(a.f, run, suites, n_suites);
    if (n_suites > 0)
        st = gb_md_findings(a.f, run, book, suites, n_suites);
    if (n_suites == 0)
        fputs("No point was recorded in this run.\n", a.f);
    for (size_t i = 0; i < n_suites && st == GB_OK; i++)
        st = gb_md_suite(a.f, run, suites[i], gb_chart_book_find(book, suites[i]), opts, large, res,
                         out_dir);
    if (st == GB_OK && gb_has_roofline(opts))
        st = gb_md_roofline(a.f, run, opts, res, out_dir);
    if (st != GB_OK) {
        gb_atomic_abort(&a);
        return st;
    }
    if (res->n_not_drawn)
        fprintf(a.f, "---\n\n%s.\n", res->note);
    if ((st = gb_atomic_commit(&a)) != GB_OK)
        return st;
    return gb_result_add_file(res, out_dir, "report.md");
}

static enum gb_status gb_report_write_staged(const struct gb_run *run, const struct gb_chart_book *book,
                                    const struct gb_report_opts *opts, const char *out_dir,
                                    struct gb_report_result *res)
{
    enum gb_status st, chart_st;
    char chart_msg[1024] = "";
    char **suites = NULL;
    size_t n_suites = 0;
    int large = gb_report_is_large(run, book);

    if ((st = gb_report_check_patterns(run, book, opts)) != GB_OK ||
        (st = gb_run_suites(run, &suites, &n_suites)) != GB_OK)
        goto out;
    /* Charts first, so that report.md can say which were drawn. */
    chart_st = gb_draw_all(run, book, opts, large, suites, n_suites, out_dir, res);
    if (chart_st == GB_OK && gb_has_roofline(opts))
        chart_st = gb_draw_roofline(opts, out_dir, res);
    if (chart_st != GB_OK)
        snprintf(chart_msg, sizeof chart_msg, "%s", gb_error_message());
    if ((large && (st = gb_write_summary_csv(run, out_dir, res)) != GB_OK) ||
        (st = gb_report_html_write(run, book, opts, out_dir, res)) != GB_OK ||
        (st = gb_write_md(run, book, opts, large, suites, n_suites, out_dir, res)) != GB_OK)
        goto out;
    if (chart_st != GB_OK)
        st = gb_error_set(chart_st, "%s", chart_msg);
out:
    for (size_t i = 0; i < n_suites; i++)
        free(suites[i]);
    free(suites);
    return st;
}

/* The points a recorded report.md was made from ("| Points | A measured,
 * B failed, C skipped |"), or -1 when there is none or it does not say. */
static long gb_recorded_points(const char *out_dir)
{
    char path[GB_PATH_MAX + 16], line[512];
    long a, b, c, n = -1;
    snprintf(path, sizeof path, "%s/report.md", out_dir);
    FILE *f = gb_fopen_regular(path);
    if (!f)
        return -1;
    while (n < 0 && fgets(line, sizeof line, f))
        if (sscanf(line, "| Points | %ld measured, %ld failed, %ld skipped |", &a, &b, &c) == 3)
            n = a + b + c;
    fclose(f);
    return n;
}

/* The files of res->files from the stage named by their final names. */
static enum gb_status gb_result_rebase(struct gb_report_result *res, const struct gb_stage *stage)
{
    char final[GB_PATH_MAX + 320];
    for (size_t i = 0; i < res->n_files; i++) {
        gb_stage_final(stage, res->files[i], final, sizeof final);
        char *p = strdup(final);
        if (!p)
            return gb_error_set(GB_ERR_NOMEM, "out of memory");
        free(res->files[i]);
        res->files[i] = p;
    }
    return GB_OK;
}

enum gb_status gb_report_write_book(const struct gb_run *run, const struct gb_chart_book *book,
                                    const struct gb_report_opts *opts, const char *out_dir,
                                    struct gb_report_result *res)
{
    struct gb_stage stage;
    enum gb_status st;
    long before = gb_recorded_points(out_dir);
    char file[GB_PATH_MAX + 16], now[GB_PATH_MAX + 16];
    snprintf(file, sizeof file, "%s/report.md", out_dir);
    snprintf(now, sizeof now, "%s now holds", run->dir);
    const struct gb_replace_words words = {"was made from", "points", now, "--force replaces it"};
    if ((st = gb_replace_check(file, before > 0 ? (size_t)before : 0, run->n_records, opts && opts->force,
                               &words)) != GB_OK ||
        (st = gb_report_check_patterns(run, book, opts)) != GB_OK ||
        (st = gb_stage_open(&stage, out_dir)) != GB_OK)
        return st;
    /* Everything is drawn and written in the stage, then moved as a unit. */
    st = gb_report_write_staged(run, book, opts, stage.tmp, res);
    enum gb_status rst = gb_result_rebase(res, &stage);
    if (st == GB_OK)
        st = gb_stage_commit(&stage);
    else
        st = gb_stage_fail(&stage, st);
    if (st != GB_OK) { /* nothing was written */
        for (size_t i = 0; i < res->n_files; i++)
            free(res->files[i]);
        res->n_files = 0;
    }
    return st != GB_OK ? st : rst;
}

enum gb_status gb_report_write(const struct gb_run *run, const char *out_dir,
                               struct gb_report_result *res)
{
    struct gb_chart_book book;
    int found;
    enum gb_status st = gb_chart_book_load(run->dir, &book, &found);
    if (st == GB_OK)
        st = gb_report_write_book(run, &book, NULL, out_dir, res);
    gb_chart_book_release(&book);
    return st;
}
