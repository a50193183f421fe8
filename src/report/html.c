/* html.c - report.html: the run's data as one JSON document (provenance,
 * records, the plots of the charts report.md draws, tables, CampProf
 * models) embedded in a page with the chart library and the page script
 * (src/report/html/page.js, built into the binary), which draws it all in
 * the browser. */
#include <dirent.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gpubound/report_html.h"
#include "html_internal.h"
#include "report_internal.h"

int gb_html_library(char *buf, size_t n)
{
    const char *env = getenv("GB_CHARTJS");
    snprintf(buf, n, "%s", env && *env ? env : GB_HTML_CHARTJS);
    FILE *f = fopen(buf, "rb");
    if (!f)
        return 0;
    fclose(f);
    return 1;
}

enum gb_status gb_html_read_file(const char *path, char **out, size_t *n)
{
    enum gb_status st = GB_OK;
    char *buf = NULL;
    size_t cap = 0, len = 0;
    FILE *f = fopen(path, "rb");
    *out = NULL;
    if (!f)
        return gb_error_set(GB_ERR_IO, "cannot read %s: %s", path, strerror(errno));
    for (;;) {
        if (len + 65536 + 1 > cap) {
            size_t nc = cap ? 2 * cap : 262144;
            char *nb = realloc(buf, nc);
            if (!nb) {
                st = gb_error_set(GB_ERR_NOMEM, "out of memory reading %s", path);
                goto out;
            }
            buf = nb;
            cap = nc;
        }
        size_t got = fread(buf + len, 1, 65536, f);
        len += got;
        if (got < 65536)
            break;
    }
    if (ferror(f)) {
        st = gb_error_set(GB_ERR_IO, "cannot read %s", path);
        goto out;
    }
    buf[len] = '\0';
    *out = buf;
    *n = len;
    buf = NULL;
out:
    free(buf);
    fclose(f);
    return st;
}

/* A table as JSON: {"columns": [...], "rows": [[...], ...]}, each cell the
 * text the terminal table and report.md show (gb_table_shown: numbers to
 * their digits, a median with its interval as "481.9 ± 1.3"), null where
 * empty. NULL when out of memory. */
static json_t *gb_html_table(const struct gb_table *t)
{
    size_t n_cols = gb_table_n_cols(t), n_rows = gb_table_n_rows(t);
    json_t *cols = json_array(), *rows = json_array();
    for (size_t c = 0; cols && c < n_cols; c++)
        if (json_array_append_new(cols, json_string(gb_table_label(t, c))) != 0)
            goto fail;
    for (size_t r = 0; rows && r < n_rows; r++) {
        json_t *row = json_array();
        for (size_t c = 0; row && c < n_cols; c++) {
            char *text = gb_table_shown_dup(t, r, c);
            if (!text) {
                json_decref(row);
                goto fail;
            }
            /* A text that is not valid UTF-8 is kept as null rather than dropped. */
            json_t *v = text[0] ? json_string(text) : NULL;
            free(text);
            json_array_append_new(row, v ? v : json_null());
        }
        if (!row || json_array_append_new(rows, row) != 0)
            goto fail;
    }
    if (cols && rows)
        return json_pack("{s:o, s:o}", "columns", cols, "rows", rows);
fail:
    json_decref(cols);
    json_decref(rows);
    return NULL;
}

/* "median 481.9 ± 1.3 µs (95% CI 480.6 .. 483.2)" of a measured record,
 * the median to the digits its interval warrants (gb_format_ci, as the
 * summary table shows it); "" when it was not measured. */
static void gb_html_median_text(const struct gb_record *r, char *buf, size_t n)
{
    const struct gb_time_stats *t = &r->time_ns;
    char ci[64], lo[40], hi[40];
    if (!isfinite(t->median) || t->median <= 0)
        return;
    double half = t->ci_hi > t->ci_lo ? fmax(t->median - t->ci_lo, t->ci_hi - t->median) : NAN;
    gb_format_ci(ci, sizeof ci, t->median / 1e3, half / 1e3);
    if (!isfinite(half)) {
        snprintf(buf, n, "median %s µs", ci);
        return;
    }
    gb_format_num(lo, sizeof lo, t->ci_lo / 1e3,
                  gb_format_interval_sig(t->ci_lo, t->median, t->ci_lo, t->ci_hi, 5));
    gb_format_num(hi, sizeof hi, t->ci_hi / 1e3,
                  gb_format_interval_sig(t->ci_hi, t->median, t->ci_lo, t->ci_hi, 5));
    snprintf(buf, n, "median %s µs (95%% CI %s .. %s)", ci, lo, hi);
}

/* The records: one array per record, the columns named in "columns". */
static json_t *gb_html_records(const struct gb_run *run)
{
    static const char *const status[] = {"ok", "failed", "skipped", "error"};
    json_t *rows = json_array();
    for (size_t i = 0; rows && i < run->n_records; i++) {
        const struct gb_record *r = &run->records[i];
        json_t *axes = json_object();
        for (int a = 0; axes && a < r->n_axes; a++)
            json_object_set_new(axes, r->axes[a].name, json_string(r->axes[a].value));
        int si = (int)r->status;
        char median[256] = "";
        gb_html_median_text(r, median, sizeof median);
        json_array_append_new(rows, json_pack("[s s o s o o o i o o s s s]", r->suite, r->bench,
                                              axes ? axes : json_object(),
                                              si >= 0 && si < 4 ? status[si] : "?",
                                              gb_html_num(r->time_ns.median), gb_html_num(r->time_ns.ci_lo),
                                              gb_html_num(r->time_ns.ci_hi), r->samples,
                                              gb_html_num(r->bw_gbs), gb_html_num(r->gflops),
                                              r->reason, r->cache == GB_CACHE_COLD ? "cold" : "hot",
                                              median));
    }
    return json_pack("{s:[sssssssssssss], s:o}", "columns", "suite", "bench", "axes", "status",
                     "median_ns", "ci_lo_ns", "ci_hi_ns", "samples", "bw_gbs", "gflops", "reason",
                     "cache", "median_text", "rows", rows ? rows : json_array());
}

json_t *gb_html_num(double v)
{
    return isfinite(v) ? json_real(v) : json_null();
}

/* One chart instance of report.md as data: its plot, or a speedup table. */
static enum gb_status gb_html_chart(const struct gb_run *run, const struct gb_chart_set *s,
                                    const struct gb_chart_spec *c, json_t *charts)
{
    enum gb_status st;
    if (c->kind == GB_CHART_SPEEDUP) {
        struct gb_table *t = NULL;
        if ((st = gb_report_speedup_table(run, s, c, &t)) != GB_OK)
            return st;
        json_t *tj = gb_html_table(t);
        gb_table_free(t);
        if (!tj)
            return gb_error_set(GB_ERR_NOMEM, "out of memory");
        json_array_append_new(charts, json_pack("{s:s, s:s, s:s, s:o}", "name", c->name, "kind",
                                                "speedup", "title", c->title ? c->title : c->name,
                                                "table", tj));
        return GB_OK;
    }
    struct gb_plot *p = NULL;
    int n_points = 0;
    if ((st = gb_chart_build(run, s, c, &p, &n_points)) != GB_OK)
        return st;
    json_t *pj = n_points > 0 ? gb_plot_json(p) : NULL;
    gb_plot_free(p);
    if (n_points > 0 && !pj)
        return gb_error_set(GB_ERR_NOMEM, "out of memory");
    if (pj)
        json_array_append_new(charts, pj);
    return GB_OK;
}

/* The charts of `s` that report.md draws (gb_chart_wanted), and the count left out. */
static enum gb_status gb_html_charts(const struct gb_run *run, const struct gb_chart_set *s,
                                     const struct gb_report_opts *opts, int large, json_t *charts,
                                     int *left_out)
{
    enum gb_status st = GB_OK;
    for (int i = 0; i < s->n_charts && st == GB_OK; i++) {
        const struct gb_chart_spec *c = &s->charts[i];
        struct gb_chart_inst *inst = NULL;
        size_t n_inst = 0;
        if ((st = gb_chart_instances(run, s, c, &inst, &n_inst)) != GB_OK)
            break;
        for (size_t k = 0; k < n_inst && st == GB_OK; k++) {
            if (gb_chart_wanted(opts, large, s, c, &inst[k], k))
                st = gb_html_chart(run, s, &inst[k].spec, charts);
            else
                (*left_out)++;
        }
        free(inst);
    }
    return st;
}

/* One suite: its help, summary table (per bench for a large run) and charts. */
static enum gb_status gb_html_suite(const struct gb_run *run, const struct gb_chart_book *book,
                                    const struct gb_report_opts *opts, int large, const char *suite,
                                    json_t *suites)
{
    enum gb_status st;
    struct gb_table *t = NULL;
    const struct gb_chart_set *s = gb_chart_book_find(book, suite);
    json_t *charts = json_array();
    int left_out = 0;
    if (!charts)
        return gb_error_set(GB_ERR_NOMEM, "out of memory");
    st = large ? gb_report_bench_table(run, suite, &t) : gb_report_summary_table(run, suite, &t);
    if (st == GB_OK && s)
        st = gb_html_charts(run, s, opts, large, charts, &left_out);
    json_t *tj = st == GB_OK ? gb_html_table(t) : NULL;
    gb_table_free(t);
    if (st == GB_OK && !tj)
        st = gb_error_set(GB_ERR_NOMEM, "out of memory");
    if (st != GB_OK) {
        json_decref(charts);
        json_decref(tj);
        return st;
    }
    json_array_append_new(suites, json_pack("{s:s, s:s?, s:o, s:s, s:o, s:i}", "name", suite, "help",
                                            s ? s->help : NULL, "summary", tj, "summary_kind",
                                            large ? "bench" : "point", "charts", charts, "left_out",
                                            left_out));
    return GB_OK;
}

/* Every campprof-model*.json of the run directory, by file name. */
static json_t *gb_html_camp_models(const char *dir)
{
    json_t *models = json_array();
    DIR *d = opendir(dir);
    struct dirent *e;
    while (models && d && (e = readdir(d))) {
        size_t len = strlen(e->d_name);
        char path[GB_PATH_MAX + 300];
        if (strncmp(e->d_name, "campprof-model", 14) != 0 || len < 5 ||
            strcmp(e->d_name + len - 5, ".json") != 0)
            continue;
        snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
        json_t *m = json_load_file(path, 0, NULL);
        if (m)
            json_array_append_new(models, json_pack("{s:s, s:o}", "file", e->d_name, "model", m));
    }
    if (d)
        closedir(d);
    /* The paper's form first: readdir's order is the file system's. */
    if (models && json_array_size(models) == 2 &&
        strlen(json_string_value(json_object_get(json_array_get(models, 0), "file"))) >
            strlen(json_string_value(json_object_get(json_array_get(models, 1), "file")))) {
        json_t *first = json_incref(json_array_get(models, 0));
        json_array_remove(models, 0);
        json_array_append_new(models, first);
    }
    return models;
}

/* The findings of `suite` (gb_report_findings, the lines of report.md's
 * "Findings" section) appended to `findings` as {"suite", "lines"}. */
static enum gb_status gb_html_findings(const struct gb_run *run, const struct gb_chart_book *book, const char *suite,
                                      json_t *findings)
{
    struct gb_findings fd;
    enum gb_status st = gb_report_findings(run, book, suite, &fd);
    if (st != GB_OK)
        return st;
    json_t *lines = json_array();
    for (size_t i = 0; lines && i < fd.n; i++) {
        json_t *line = json_string(fd.lines[i]);
        json_array_append_new(lines, line ? line : json_null());
    }
    gb_findings_release(&fd);
    if (!lines || json_array_append_new(findings, json_pack("{s:s, s:o}", "suite", suite, "lines", lines)) != 0)
        return gb_error_set(GB_ERR_NOMEM, "out of memory");
    return GB_OK;
}

/* The suites of the run, in order of first appearance, as JSON, and their findings. */
static enum gb_status gb_html_suites(const struct gb_run *run, const struct gb_chart_book *book,
                                     const struct gb_report_opts *opts, json_t *suites,
                                     json_t *findings)
{
    enum gb_status st = GB_OK;
    int large = gb_report_is_large(run, book);
    for (size_t i = 0; i < run->n_records && st == GB_OK; i++) {
        int seen = 0;
        for (size_t k = 0; k < i && !seen; k++)
            seen = strcmp(run->records[k].suite, run->records[i].suite) == 0;
        if (seen)
            continue;
        if ((st = gb_html_findings(run, book, run->records[i].suite, findings)) == GB_OK)
            st = gb_html_suite(run, book, opts, large, run->records[i].suite, suites);
    }
    return st;
}

/* The roofline section (report.h, struct gb_report_opts): its notes, plot
 * and table as {"notes", "chart", "table"}; json null when the options
 * carry no roofline placed from counters. */
static enum gb_status gb_html_roofline(const struct gb_report_opts *opts, json_t **out)
{
    struct gb_findings notes;
    struct gb_table *t = NULL;
    struct gb_plot *p = NULL;
    enum gb_status st;
    *out = json_null();
    if (!opts || !opts->roofs || !opts->roofline || opts->roofline->from_counters <= 0)
        return GB_OK;
    if ((st = gb_report_roofline_notes(opts->roofs, opts->roofline, 1, &notes)) != GB_OK)
        return st;
    json_t *lines = json_array();
    for (size_t i = 0; lines && i < notes.n; i++)
        json_array_append_new(lines, json_string(notes.lines[i]));
    gb_findings_release(&notes);
    st = gb_report_roofline_plot(opts->roofs, opts->roofline, &p);
    if (st == GB_ERR_USAGE)
        st = GB_OK;
    json_t *pj = p ? gb_plot_json(p) : json_null();
    gb_plot_free(p);
    if (st == GB_OK)
        st = gb_report_roofline_table(opts->roofline, &t);
    json_t *tj = st == GB_OK ? gb_html_table(t) : NULL;
    gb_table_free(t);
    if (st == GB_OK && (!lines || !pj || !tj))
        st = gb_error_set(GB_ERR_NOMEM, "out of memory");
    if (st == GB_OK)
        *out = json_pack("{s:o, s:o, s:o}", "notes", lines, "chart", pj, "table", tj);
    else {
        json_decref(lines);
        json_decref(pj);
        json_decref(tj);
    }
    return st == GB_OK && !*out ? gb_error_set(GB_ERR_NOMEM, "out of memory") : st;
}

static void gb_html_missing(struct gb_report_result *res, const char *lib)
{
    size_t len = strlen(res->note);
    gb_result_add(&res->not_drawn, &res->n_not_drawn, "report.html");
    snprintf(res->note + len, sizeof res->note - len,
             "%sreport.html needs the chart library %s: install it with 'make deps' or "
             "'apt-get install libjs-chart.js'", len ? "; " : "", lib);
}

enum gb_status gb_report_html_write(const struct gb_run *run, const struct gb_chart_book *book,
                                    const struct gb_report_opts *opts, const char *out_dir,
                                    struct gb_report_result *res)
{
    enum gb_status st;
    char lib[GB_PATH_MAX], path[GB_PATH_MAX + 32], title[GB_PATH_MAX + 32];
    if (!gb_html_library(lib, sizeof lib)) {
        gb_html_missing(res, lib);
        return GB_OK;
    }
    snprintf(path, sizeof path, "%s/run.json", run->dir);
    json_t *suites = json_array(), *findings = json_array();
    json_t *doc = json_pack("{s:s, s:o?, s:o?, s:o?, s:o?, s:o?, s:b, s:I}", "tool", "gpubound " GB_VERSION,
                            "run", json_load_file(path, 0, NULL), "records", gb_html_records(run),
                            "findings", findings, "suites", suites,
                            "camp_models", gb_html_camp_models(run->dir),
                            "large", gb_report_is_large(run, book), "n_records",
                            (json_int_t)run->n_records);
    if (!doc)
        return gb_error_set(GB_ERR_NOMEM, "out of memory");
    if (!suites || !findings) {
        json_decref(doc);
        return gb_error_set(GB_ERR_NOMEM, "out of memory");
    }
    json_t *roofline = NULL;
    if ((st = gb_html_roofline(opts, &roofline)) == GB_OK)
        json_object_set_new(doc, "roofline", roofline);
    if (st == GB_OK && (st = gb_html_suites(run, book, opts, suites, findings)) == GB_OK) {
        snprintf(title, sizeof title, "gpubound report: %s", run->dir);
        snprintf(path, sizeof path, "%s/report.html", out_dir);
        st = gb_html_page(path, title, doc, lib);
    }
    json_decref(doc);
    if (st == GB_OK)
        st = gb_result_add_file(res, out_dir, "report.html");
    return st;
}
