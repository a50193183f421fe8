/* test_report.c - the report of a run: the summary table, the charts a suite
 * declares (drawn by gnuplot, checked as SVG and PNG), report.md, and what
 * happens without gnuplot or when it fails. Reads the synthetic fixture
 * tests/data/runs/bandwidth-fixture. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>
#include <jansson.h>

#include "gpubound/report.h"
#include "gpubound/suite.h"
#include "test_runs.h"

#define FIXTURE GB_TEST_DATA "/runs/bandwidth-fixture"

/* ---- helpers ---- */

static char *make_tmpdir(void)
{
    char *d = strdup("/tmp/gb-test-report-XXXXXX");
    assert_non_null(d);
    assert_non_null(mkdtemp(d));
    return d;
}

static void remove_tree(const char *dir)
{
    char cmd[4200];
    /* The directory is ours, from mkdtemp; its name has no quote. */
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    assert_int_equal(system(cmd), 0);
}

static char *path_in(const char *dir, const char *name)
{
    static char buf[4][4200];
    static int k;
    k = (k + 1) % 4;
    snprintf(buf[k], sizeof buf[k], "%s/%s", dir, name);
    return buf[k];
}

static int exists(const char *path)
{
    struct stat sb;
    return stat(path, &sb) == 0 && sb.st_size > 0;
}

/* An SVG document: an XML declaration or <svg> first, </svg> last, and
 * every given text somewhere in it. */
static void check_svg(const char *path, const char *const *texts, size_t n)
{
    char *s = slurp(path, NULL);
    if (!s)
        fail_msg("%s was not written", path);
    const char *p = s + strspn(s, " \t\r\n");
    assert_true(strncmp(p, "<?xml", 5) == 0 || strncmp(p, "<svg", 4) == 0);
    assert_non_null(strstr(p, "<svg"));
    char *end = strstr(p, "</svg>");
    assert_non_null(end);
    assert_int_equal(strspn(end + 6, " \t\r\n"), strlen(end + 6));
    for (size_t i = 0; i < n; i++)
        if (!strstr(s, texts[i]))
            fail_msg("%s does not show '%s'", path, texts[i]);
    free(s);
}

/* A PNG: the 8-byte signature, then IHDR with the size gb_plot_draw promises. */
static void check_png(const char *path)
{
    size_t n;
    unsigned char *s = (unsigned char *)slurp(path, &n);
    if (!s)
        fail_msg("%s was not written", path);
    static const unsigned char sig[8] = {0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n'};
    assert_true(n > 33);
    assert_memory_equal(s, sig, 8);
    assert_memory_equal(s + 12, "IHDR", 4);
    unsigned w = (unsigned)s[16] << 24 | (unsigned)s[17] << 16 | (unsigned)s[18] << 8 | s[19];
    unsigned h = (unsigned)s[20] << 24 | (unsigned)s[21] << 16 | (unsigned)s[22] << 8 | s[23];
    assert_int_equal(w, 1200);
    assert_int_equal(h, 750);
    free(s);
}

static int listed(char **list, size_t n, const char *name)
{
    for (size_t i = 0; i < n; i++)
        if (strcmp(list[i], name) == 0)
            return 1;
    return 0;
}

static void require_gnuplot(void)
{
    if (!gb_plot_available(NULL, 0))
        fail_msg("gnuplot is not on PATH; 'make deps' installs gnuplot-nox, which these tests need");
}

static struct gb_run *load_fixture(void)
{
    struct gb_run *run = NULL;
    if (gb_run_load(FIXTURE, &run) != GB_OK)
        fail_msg("cannot load the fixture: %s", gb_error_message());
    return run;
}

/* The legend text a chart spec gives the series value `v`. */
static void series_text(const struct gb_chart_spec *c, const char *v, char *buf, size_t n)
{
    const char *hole = c->series_label ? strstr(c->series_label, "{}") : NULL;
    if (hole)
        snprintf(buf, n, "%.*s%s%s", (int)(hole - c->series_label), c->series_label, v, hole + 2);
    else
        snprintf(buf, n, "%s = %s", c->series, v);
}

/* The labels of "label=source;..." reference lines, each followed by " (". */
static size_t ref_labels(const char *refs, char out[][128], size_t max)
{
    size_t n = 0;
    while (refs && *refs && n < max) {
        size_t len = strcspn(refs, "=");
        snprintf(out[n++], 128, "%.*s (", (int)len, refs);
        refs += strcspn(refs, ";");
        if (*refs == ';')
            refs++;
    }
    return n;
}

/* The summary as parsed JSON. */
static json_t *summary_json(const struct gb_run *run, const char *suite)
{
    struct gb_table *t = NULL;
    assert_int_equal(gb_report_summary_table(run, suite, &t), GB_OK);
    json_t *doc = table_json(t);
    gb_table_free(t);
    return doc;
}

/* ---- the summary table ---- */

static void test_summary_of_fixture(void **state)
{
    (void)state;
    struct gb_run *run = load_fixture();
    json_t *doc = summary_json(run, NULL);
    assert_int_equal(json_array_size(doc), run->n_records);
    for (size_t i = 0; i < run->n_records; i++) {
        const struct gb_record *r = &run->records[i];
        json_t *row = json_array_get(doc, i);
        assert_string_equal(str(row, "suite"), r->suite);
        assert_string_equal(str(row, "bench"), r->bench);
        assert_string_equal(str(row, "status"), gb_record_status_name(r->status));
        for (int a = 0; a < r->n_axes; a++)
            assert_string_equal(str(row, r->axes[a].name), r->axes[a].value);
        if (r->status != GB_REC_OK) {
            assert_true(isnan(num(row, "median (\xc2\xb5s)")));
            assert_true(isnan(num(row, "GB/s")));
            assert_non_null(strstr(str(row, "note"), r->reason));
            continue;
        }
        /* The numbers shown are the numbers stored, in the column's unit. */
        assert_true(num(row, "median (\xc2\xb5s)") == r->time_ns.median / 1e3);
        double half = fmax(r->time_ns.median - r->time_ns.ci_lo, r->time_ns.ci_hi - r->time_ns.median) / 1e3;
        assert_true(num(row, "median \xc2\xb1 (\xc2\xb5s)") == half);
        assert_int_equal((int)num(row, "samples"), r->samples);
        assert_true(num(row, "GB/s") == r->bw_gbs);
        assert_float_equal(num(row, "% peak"), 100 * r->bw_gbs / run->info.device.mem_peak_gbs,
                           1e-9);
    }
    json_decref(doc);

    /* One suite: no suite column. */
    doc = summary_json(run, "bandwidth");
    assert_null(json_object_get(json_array_get(doc, 0), "suite"));
    json_decref(doc);
    gb_run_free(run);
}

static void set_rec(struct gb_record *r, const char *suite, const char *bench, double median_ns,
                    double bytes)
{
    memset(r, 0, sizeof *r);
    snprintf(r->suite, sizeof r->suite, "%s", suite);
    snprintf(r->bench, sizeof r->bench, "%s", bench);
    r->status = GB_REC_OK;
    r->samples = 30;
    r->converged = 1;
    r->time_ns.median = median_ns;
    r->time_ns.ci_lo = median_ns * 0.995;
    r->time_ns.ci_hi = median_ns * 1.006;
    r->bytes = bytes;
    r->bw_gbs = bytes > 0 ? bytes / median_ns : NAN;
    r->gflops = NAN;
}

static void test_summary_units_and_columns(void **state)
{
    (void)state;
    struct gb_record recs[4];
    struct gb_run run;
    memset(&run, 0, sizeof run);
    set_rec(&recs[0], "compute", "fma", 20e6, 0);          /* 20 ms: the column is in ms */
    recs[0].flops = 4e12;
    recs[0].gflops = 4e12 / 20e6;
    gb_record_set_metric(&recs[0], "occupancy", 0.75);
    recs[0].throttled = 1;
    recs[0].sm_mhz_before = 1980;
    recs[0].sm_mhz_after = 1755;
    set_rec(&recs[1], "compute", "fma", 5e6, 0);
    recs[1].converged = 0;
    gb_record_set_axis(&recs[1], "ilp", "4");
    set_rec(&recs[2], "other", "x", 1e3, 1e6);
    set_rec(&recs[3], "compute", "skip", NAN, 0);
    recs[3].status = GB_REC_SKIPPED;
    snprintf(recs[3].reason, sizeof recs[3].reason, "needs cc 10.0");
    run.records = recs;
    run.n_records = 4;

    json_t *doc = summary_json(&run, "compute");
    assert_int_equal(json_array_size(doc), 3);
    json_t *r0 = json_array_get(doc, 0), *r1 = json_array_get(doc, 1), *r2 = json_array_get(doc, 2);
    assert_true(num(r0, "median (ms)") == 20.0);
    assert_true(num(r1, "median (ms)") == 5.0);
    assert_true(num(r0, "GFLOP/s") == 2e5);
    assert_true(num(r0, "occupancy") == 0.75);
    assert_true(isnan(num(r1, "occupancy")));
    assert_string_equal(str(r1, "ilp"), "4");
    assert_true(json_is_null(json_object_get(r0, "ilp")));
    assert_non_null(strstr(str(r0, "note"), "SM clock dropped 1980 -> 1755 MHz"));
    assert_non_null(strstr(str(r1, "note"), "stopping rule not met"));
    assert_string_equal(str(r2, "note"), "needs cc 10.0");
    assert_string_equal(str(r2, "status"), "skipped");
    /* No record of this suite moves bytes, and the run names no device. */
    assert_null(json_object_get(r0, "GB/s"));
    assert_null(json_object_get(r0, "% peak"));
    json_decref(doc);

    /* The other suite: GB/s but no % peak without a device peak. */
    doc = summary_json(&run, "other");
    assert_true(num(json_array_get(doc, 0), "GB/s") == 1e3);
    assert_true(num(json_array_get(doc, 0), "median (\xc2\xb5s)") == 1.0);
    assert_null(json_object_get(json_array_get(doc, 0), "% peak"));
    json_decref(doc);
}

/* ---- findings: each suite's rule is data of its chart set ---- */

/* The rule comes from the suite's set in the book, never from the suite's
 * name: the same records ranked by a pair rule with its own words and
 * source, by a metric with the rule's unit, and, without a rule, by time. */
static void test_findings_rule_of_set(void **state)
{
    (void)state;
    static const char *const variant[] = {"old", "new", "old", "new"}, *const n[] = {"1", "1", "2", "2"};
    static const double ns[] = {4e3, 1e3, 9e3, 3e3};
    static const struct gb_findings_rule pair = {.pair_axis = "variant", .pair_num = "old",
                                                 .pair_den = "new", .pair_what = "gain",
                                                 .source = "a made-up study"};
    static const struct gb_findings_rule metric = {.metrics = {"rate"}, .metric_units = {" widgets/s"}};
    struct gb_record recs[4];
    struct gb_run run;
    struct gb_chart_set set = {"made-up", NULL, NULL, 0, &pair};
    struct gb_chart_book book;
    struct gb_findings f;
    memset(&run, 0, sizeof run);
    for (int i = 0; i < 4; i++) {
        set_rec(&recs[i], "made-up", "k", ns[i], 0);
        gb_record_set_axis(&recs[i], "variant", variant[i]);
        gb_record_set_axis(&recs[i], "n", n[i]);
        gb_record_set_metric(&recs[i], "rate", 10.0 * (i + 1));
    }
    run.records = recs;
    run.n_records = 4;
    gb_chart_book_init(&book);
    assert_int_equal(gb_chart_book_add(&book, &set), GB_OK);

    assert_int_equal(gb_report_findings(&run, &book, "made-up", &f), GB_OK);
    assert_int_equal(f.n, 2);
    assert_non_null(strstr(f.lines[0], "k: gain from "));
    assert_non_null(strstr(f.lines[0], " (n=2) to "));   /* 9/3 at n=2, 4/1 at n=1 */
    assert_non_null(strstr(f.lines[0], " (n=1), over 2 configurations"));
    assert_string_equal(f.lines[1], "Source: a made-up study.");
    gb_findings_release(&f);

    book.sets[0].findings = &metric;
    assert_int_equal(gb_report_findings(&run, &book, "made-up", &f), GB_OK);
    assert_int_equal(f.n, 1);
    assert_non_null(strstr(f.lines[0], " widgets/s (variant=new n=2), worst "));
    gb_findings_release(&f);

    /* No rule (no book, or a suite the book does not have): by time. */
    assert_int_equal(gb_report_findings(&run, NULL, "made-up", &f), GB_OK);
    assert_int_equal(f.n, 1);
    assert_non_null(strstr(f.lines[0], " us (variant=new n=1), worst "));
    assert_null(strstr(f.lines[0], "widgets"));
    gb_findings_release(&f);

    gb_chart_book_release(&book);
    for (int i = 0; i < 4; i++)
        gb_record_release(&recs[i]);
}

/* A kernel spec's GEMM (no rule declared): ranked by GFLOP/s, not by the
 * GB/s its records also carry, and within each problem size: n sets the
 * problem (it alone changes the flops), block_size_x does not, so n=512 and
 * n=1024 each get a line and no size is ranked against the other. A rule
 * that compares all configurations as one set (ceilings') gets one line. */
static void test_findings_per_problem(void **state)
{
    (void)state;
    static const char *const bx[] = {"8", "16", "8", "16"}, *const n[] = {"512", "512", "1024", "1024"};
    static const double ns[] = {100e3, 50e3, 900e3, 300e3};
    static const struct gb_findings_rule one_set = {0};
    struct gb_record recs[4];
    struct gb_run run;
    struct gb_chart_set set = {"gemm", NULL, NULL, 0, &one_set};
    struct gb_chart_book book;
    struct gb_findings f;
    memset(&run, 0, sizeof run);
    for (int i = 0; i < 4; i++) {
        double size = atof(n[i]);
        set_rec(&recs[i], "gemm", "tiled", ns[i], 12 * size * size);
        recs[i].flops = 2 * size * size * size;
        recs[i].gflops = recs[i].flops / ns[i];
        gb_record_set_axis(&recs[i], "block_size_x", bx[i]);
        gb_record_set_axis(&recs[i], "n", n[i]);
    }
    run.records = recs;
    run.n_records = 4;
    assert_int_equal(gb_report_findings(&run, NULL, "gemm", &f), GB_OK);
    assert_int_equal(f.n, 2);
    assert_string_equal(f.lines[0], "tiled at n=512: best 5369 GFLOP/s (block_size_x=16), worst 2684 GFLOP/s "
                                    "(block_size_x=8): 2.00 x apart, over 2 configurations");
    assert_string_equal(f.lines[1], "tiled at n=1024: best 7158 GFLOP/s (block_size_x=16), worst 2386 GFLOP/s "
                                    "(block_size_x=8): 3.00 x apart, over 2 configurations");
    gb_findings_release(&f);

    gb_chart_book_init(&book);
    assert_int_equal(gb_chart_book_add(&book, &set), GB_OK);
    assert_int_equal(gb_report_findings(&run, &book, "gemm", &f), GB_OK);
    assert_int_equal(f.n, 1);
    assert_string_equal(f.lines[0], "tiled: best 7158 GFLOP/s (block_size_x=16 n=1024), worst 2386 GFLOP/s "
                                    "(block_size_x=8 n=1024): 3.00 x apart, over 4 configurations");
    gb_findings_release(&f);
    gb_chart_book_release(&book);
    for (int i = 0; i < 4; i++)
        gb_record_release(&recs[i]);
}

/* ---- the report of the fixture ---- */

static void test_report_of_fixture(void **state)
{
    (void)state;
    require_gnuplot();
    struct gb_run *run = load_fixture();
    const struct gb_suite *bw = gb_suite_find("bandwidth");
    assert_non_null(bw);
    assert_true(bw->n_charts > 0);
    char *dir = make_tmpdir();
    char *out = strdup(path_in(dir, "nested/report"));   /* parents are created */
    struct gb_report_result res;
    gb_report_result_init(&res);
    if (test_report_write(run, out, &res) != GB_OK)
        fail_msg("gb_report_write: %s", gb_error_message());
    assert_int_equal(res.n_not_drawn, 0);
    assert_true(res.n_files >= 1);
    assert_string_equal(res.files[res.n_files - 1], path_in(out, "report.md"));

    int drawn = 0;
    for (int c = 0; c < bw->n_charts; c++) {
        const struct gb_chart_spec *spec = &bw->charts[c];
        char name[256];
        /* The fixture follows the suite: every chart it declares has data. */
        if (listed(res.no_data, res.n_no_data, spec->name))
            fail_msg("chart %s has no data in the fixture; bring %s up to date with the "
                     "bandwidth suite's axes", spec->name, FIXTURE);
        drawn++;
        const char *texts[16];
        char labels[3][128], refs[8][128];
        size_t n = 0;
        static const char *const widths[3] = {"4", "8", "16"};
        if (spec->series && strcmp(spec->series, "width") == 0)
            for (int w = 0; w < 3; w++) {
                series_text(spec, widths[w], labels[w], sizeof labels[w]);
                texts[n++] = labels[w];
            }
        size_t nr = ref_labels(spec->refs, refs, 8);
        for (size_t i = 0; i < nr; i++)
            texts[n++] = refs[i];
        snprintf(name, sizeof name, "%s.svg", spec->name);
        check_svg(path_in(out, name), texts, n);
        snprintf(name, sizeof name, "%s.png", spec->name);
        check_png(path_in(out, name));
        assert_true(listed(res.files, res.n_files, path_in(out, name)));
        snprintf(name, sizeof name, "%s.gp", spec->name);
        assert_true(exists(path_in(out, name)));
    }
    assert_true(drawn > 0);

    char *md = slurp(path_in(out, "report.md"), NULL);
    assert_non_null(md);
    assert_non_null(strstr(md, run->info.device.name));
    assert_non_null(strstr(md, "3352 GB/s"));
    assert_non_null(strstr(md, "compute capability 9.0, 132 SMs"));
    assert_non_null(strstr(md, run->info.started_utc));
    assert_non_null(strstr(md, "gpubound 0.1.0, revision fixture"));
    assert_non_null(strstr(md, "gpubound run bandwidth"));
    assert_non_null(strstr(md, "**1 point failed**"));
    assert_non_null(strstr(md, "| read | 4 | stride | 256M | ok |"));
    assert_non_null(strstr(md, "Wall time | 12.0 s"));
    assert_null(strstr(md, "Incomplete run"));
    for (int c = 0; c < bw->n_charts; c++) {
        char img[256];
        snprintf(img, sizeof img, "](%s.png)](%s.svg)", bw->charts[c].name, bw->charts[c].name);
        if (!listed(res.no_data, res.n_no_data, bw->charts[c].name))
            assert_non_null(strstr(md, img));
    }
    free(md);
    gb_report_result_release(&res);
    remove_tree(dir);
    free(out);
    free(dir);
    gb_run_free(run);
}

/* The error bars are the record's CI converted to GB/s: the slow end of
 * the time interval is the low end of the bandwidth. */
static void test_error_bars_in_bandwidth(void **state)
{
    (void)state;
    require_gnuplot();
    struct gb_run *run = load_fixture();
    const struct gb_suite *bw = gb_suite_find("bandwidth");
    const struct gb_chart_spec *spec = NULL;
    for (int c = 0; c < bw->n_charts; c++)
        if (bw->charts[c].kind == GB_CHART_BAR && bw->charts[c].y &&
            strcmp(bw->charts[c].y, "bw_gbs") == 0 && bw->charts[c].x &&
            strcmp(bw->charts[c].x, "bench") == 0)
            spec = &bw->charts[c];
    assert_non_null(spec);
    char *dir = make_tmpdir();
    struct gb_report_result res;
    gb_report_result_init(&res);
    assert_int_equal(gb_report_charts(run, TEST_SET(bw), NULL, dir, &res), GB_OK);

    /* The record the first bar of the "read" group shows. */
    const struct gb_record *r = NULL;
    for (size_t i = 0; i < run->n_records && !r; i++) {
        const struct gb_record *c = &run->records[i];
        const char *w = gb_record_axis(c, "width");
        int where_ok = 1;
        if (spec->where) {
            const char *eq = strchr(spec->where, '=');
            char axis[32];
            snprintf(axis, sizeof axis, "%.*s", (int)(eq - spec->where), spec->where);
            const char *v = gb_record_axis(c, axis);
            where_ok = v && strcmp(v, eq + 1) == 0;
        }
        if (c->status == GB_REC_OK && strcmp(c->bench, "read") == 0 && w &&
            strcmp(w, "4") == 0 && where_ok)
            r = c;
    }
    assert_non_null(r);
    char name[256];
    snprintf(name, sizeof name, "%s.gp", spec->name);
    char *gp = slurp(path_in(dir, name), NULL);
    assert_non_null(gp);
    char *line = strstr(gp, "\n\"read\" ");
    assert_non_null(line);
    double y, lo, hi;
    assert_int_equal(sscanf(line + 8, "%lf %lf %lf", &y, &lo, &hi), 3);
    assert_float_equal(y, r->bw_gbs, 1e-9 * y);
    assert_float_equal(lo, r->bytes / r->time_ns.ci_hi, 1e-9 * y);
    assert_float_equal(hi, r->bytes / r->time_ns.ci_lo, 1e-9 * y);
    assert_true(lo < y && y < hi);
    free(gp);
    gb_report_result_release(&res);
    remove_tree(dir);
    free(dir);
    gb_run_free(run);
}

/* ---- without gnuplot, and when gnuplot fails ---- */

static void test_report_without_gnuplot(void **state)
{
    (void)state;
    struct gb_run *run = load_fixture();
    const struct gb_suite *bw = gb_suite_find("bandwidth");
    char *dir = make_tmpdir();
    char *empty = make_tmpdir();
    char *old_path = strdup(getenv("PATH") ? getenv("PATH") : "/usr/bin:/bin");
    struct gb_report_result res;
    gb_report_result_init(&res);
    setenv("PATH", empty, 1);
    assert_false(gb_plot_available(NULL, 0));
    enum gb_status st = test_report_write(run, dir, &res);
    setenv("PATH", old_path, 1);
    assert_int_equal(st, GB_OK);

    assert_true(res.n_not_drawn > 0);
    assert_int_equal(res.n_not_drawn + res.n_no_data, (size_t)bw->n_charts);
    assert_non_null(strstr(res.note, "gnuplot"));
    assert_non_null(strstr(res.note, "apt-get install gnuplot-nox"));
    assert_non_null(strstr(res.note, "gpubound report"));
    for (size_t i = 0; i < res.n_not_drawn; i++) {
        char name[256];
        snprintf(name, sizeof name, "%s.gp", res.not_drawn[i]);
        assert_true(exists(path_in(dir, name)));   /* the script waits for gnuplot */
        snprintf(name, sizeof name, "%s.svg", res.not_drawn[i]);
        assert_false(exists(path_in(dir, name)));
    }
    char *md = slurp(path_in(dir, "report.md"), NULL);
    assert_non_null(md);
    assert_non_null(strstr(md, "Not drawn: gnuplot was not found"));
    assert_non_null(strstr(md, "| read | 4 | stride | 256M | ok |"));
    free(md);
    gb_report_result_release(&res);
    remove_tree(dir);
    remove_tree(empty);
    free(dir);
    free(empty);
    free(old_path);
    gb_run_free(run);
}

static void test_gnuplot_failure_is_reported(void **state)
{
    (void)state;
    char *bin = make_tmpdir(), *dir = make_tmpdir();
    char *old_path = strdup(getenv("PATH"));
    FILE *f = fopen(path_in(bin, "gnuplot"), "w");
    assert_non_null(f);
    fputs("#!/bin/sh\necho 'gnuplot: \"x.gp\" line 7: boom' >&2\nexit 1\n", f);
    fclose(f);
    assert_int_equal(chmod(path_in(bin, "gnuplot"), 0755), 0);

    struct gb_plot *p = gb_plot_new(GB_CHART_BAR, "fails", "t");
    int s;
    assert_int_equal(gb_plot_series(p, "a", &s), GB_OK);
    assert_int_equal(gb_plot_bar(p, s, "g", 1, NAN, NAN), GB_OK);
    struct gb_report_result res;
    gb_report_result_init(&res);
    setenv("PATH", bin, 1);
    enum gb_status st = gb_plot_draw(p, dir, &res);
    setenv("PATH", old_path, 1);
    assert_int_equal(st, GB_ERR_IO);
    assert_non_null(strstr(gb_error_message(), "boom"));
    assert_non_null(strstr(gb_error_message(), "fails.gp"));
    assert_int_equal(res.n_not_drawn, 0);
    assert_false(exists(path_in(dir, "fails.svg")));
    assert_true(exists(path_in(dir, "fails.log")));         /* left to the stage's abort */
    /* The log goes with the command's stage: the message carries its last
     * line and names no file that will not be there. */
    assert_null(strstr(gb_error_message(), "fails.log"));
    gb_plot_free(p);
    gb_report_result_release(&res);
    remove_tree(bin);
    remove_tree(dir);
    free(bin);
    free(dir);
    free(old_path);
}

/* ---- charts declared as data: every kind, refs, filters, errors ---- */

static const struct gb_chart_spec synth_charts[] = {
    {.name = "scan",
     .title = "Bandwidth by buffer size",
     .kind = GB_CHART_LINE,
     .benches = "sc*",
     .x = "bytes",
     .series = "width",
     .series_label = "{} B",
     .y = "bw_gbs",
     .x_label = "buffer size (bytes)",
     .y_label = "bandwidth (GB/s)",
     .log_x = 1,
     .refs = "peak=device:mem_peak_gbs;best scan=bench:scan;floor=value:100"},
    {.name = "grid",
     .title = "Time by block size and registers",
     .kind = GB_CHART_HEAT,
     .benches = "occ",
     .row = "threads",
     .col = "regs",
     .y = "median_ns",
     .x_label = "registers per thread",
     .y_label = "threads per block",
     .flag = "metric:max_occ",
     .flag_label = "max occupancy"},
    {.name = "occupancy",
     .title = "Occupancy by kernel",
     .kind = GB_CHART_BAR,
     .benches = "occ",
     .where = "threads=256",
     .x = "regs",
     .y = "metric:occupancy",
     .x_label = "registers per thread",
     .y_label = "occupancy"},
    {.name = "nothing", .title = "No such bench", .kind = GB_CHART_BAR, .benches = "absent",
     .x = "bench", .y = "bw_gbs"},
    {.name = "broken", .title = "Bad y", .kind = GB_CHART_BAR, .x = "bench", .y = "bogus"},
};

static const struct gb_suite synth_suite = {
    "synth", "a suite made up for this test", NULL, 0, synth_charts,
    (int)(sizeof synth_charts / sizeof synth_charts[0]), NULL,
};

static void test_declared_charts(void **state)
{
    (void)state;
    require_gnuplot();
    static const char *const sizes[] = {"4K", "64K", "1M", "16M", "256M", "1G"};
    static const char *const widths[] = {"16", "4"};     /* sorted numerically on the chart */
    static const char *const threads[] = {"64", "128", "256", "512"};
    static const char *const regs[] = {"32", "64", "128"};
    struct gb_record recs[64];
    size_t n = 0;
    struct gb_run run;
    memset(&run, 0, sizeof run);
    run.info.has_device = 1;
    snprintf(run.info.device.name, sizeof run.info.device.name, "Test GPU");
    run.info.device.mem_peak_gbs = 3000;
    for (int w = 0; w < 2; w++)
        for (int s = 0; s < 6; s++) {
            long bytes;
            assert_int_equal(gb_axis_parse_int(sizes[s], &bytes), GB_OK);
            double bw = (w ? 2400.0 : 2700.0) * (double)bytes / ((double)bytes + 4e6);
            set_rec(&recs[n], "synth", "scan", (double)bytes / bw, (double)bytes);
            gb_record_set_axis(&recs[n], "width", widths[w]);
            gb_record_set_axis(&recs[n], "bytes", sizes[s]);
            n++;
        }
    for (int t = 0; t < 4; t++)
        for (int g = 0; g < 3; g++) {
            /* Best at 256 threads x 64 registers; 512 x 128 failed. */
            double ns = 1000 * (1 + 0.03 * abs(t - 2) * abs(t - 2) + 0.08 * abs(g - 1));
            set_rec(&recs[n], "synth", "occ", ns, 0);
            gb_record_set_axis(&recs[n], "threads", threads[t]);
            gb_record_set_axis(&recs[n], "regs", regs[g]);
            gb_record_set_metric(&recs[n], "occupancy", 1.0 / (1 + g));
            gb_record_set_metric(&recs[n], "max_occ", g == 0);
            if (t == 3 && g == 2) {
                recs[n].status = GB_REC_FAILED;
                recs[n].time_ns.median = NAN;
            }
            n++;
        }
    set_rec(&recs[n++], "elsewhere", "scan", 1, 1e9);    /* another suite: never drawn here */
    set_rec(&recs[n++], "synth", "scratch", 10, 1e4);    /* matches sc*, has no x: left out */
    run.records = recs;
    run.n_records = n;

    char *dir = make_tmpdir();
    struct gb_report_result res;
    gb_report_result_init(&res);
    /* The broken chart fails; the others are drawn all the same. */
    assert_int_equal(gb_report_charts(&run, TEST_SET(&synth_suite), NULL, dir, &res), GB_ERR_USAGE);
    assert_non_null(strstr(gb_error_message(), "bogus"));
    assert_int_equal(res.n_no_data, 1);
    assert_string_equal(res.no_data[0], "nothing");
    assert_false(exists(path_in(dir, "nothing.svg")));

    const char *line_texts[] = {"4 B", "16 B", "peak (3000 GB/s)", "floor (100.0 GB/s)",
                                "best scan (", "Test GPU", "Bandwidth by buffer size",
                                "buffer size (bytes)", "1G", "4K"};
    check_svg(path_in(dir, "scan.svg"), line_texts, sizeof line_texts / sizeof *line_texts);
    check_png(path_in(dir, "scan.png"));
    /* Each reference line keeps its own dashes in the SVG, on the plot and
     * in the legend. */
    char *svg = slurp(path_in(dir, "scan.svg"), NULL);
    static const char *const dashes[] = {"dasharray='10.0,6.0'", "dasharray='3.0,4.0'",
                                         "dasharray='16.0,5.0,3.0,5.0'"};
    for (int d = 0; d < 3; d++) {
        const char *at = strstr(svg, dashes[d]);
        assert_non_null(at);
        assert_non_null(strstr(at + 1, dashes[d]));
    }
    free(svg);
    char *gp = slurp(path_in(dir, "scan.gp"), NULL);
    assert_non_null(strstr(gp, "set logscale x 2"));   /* x stayed numeric */
    assert_null(strstr(gp, "title 'scratch'"));
    /* Series in numeric order of width: "4 B" is drawn first. */
    assert_true(strstr(gp, "title '4 B'") < strstr(gp, "title '16 B'"));
    assert_non_null(strstr(gp, "with yerrorlines"));
    free(gp);

    const char *heat_texts[] = {"best", "within 5% of best", "within 25% of best",
                                "max occupancy", "failed", "threads per block"};
    check_svg(path_in(dir, "grid.svg"), heat_texts, sizeof heat_texts / sizeof *heat_texts);
    check_png(path_in(dir, "grid.png"));
    gp = slurp(path_in(dir, "grid.gp"), NULL);
    /* Cells are "col row": the best is regs 64 (col 1), threads 256 (row 2). */
    assert_non_null(strstr(gp, "$best << EOD\n1 2\nEOD\n"));
    /* 128 and 512 threads at 64 registers are 3% slower: within 5%. */
    assert_non_null(strstr(gp, "$w5 << EOD\n1 1\n1 3\nEOD\n"));
    assert_non_null(strstr(gp, "$fail << EOD\n2 3\nEOD\n"));
    /* The 32-register column is flagged in every row. */
    assert_non_null(strstr(gp, "$flag << EOD\n0 0\n0 1\n0 2\n0 3\nEOD\n"));
    free(gp);

    const char *bar_texts[] = {"Occupancy by kernel", "32", "64", "128"};
    check_svg(path_in(dir, "occupancy.svg"), bar_texts, sizeof bar_texts / sizeof *bar_texts);
    gp = slurp(path_in(dir, "occupancy.gp"), NULL);
    assert_non_null(strstr(gp, "\"64\" 0.5 0.5 0.5\n"));   /* metrics have no error bars */
    assert_non_null(strstr(gp, "set key off"));            /* one series: no legend */
    free(gp);

    gb_report_result_release(&res);
    remove_tree(dir);
    free(dir);
}

/* Text from the data never reaches a shell or gnuplot's command substitution. */
static void test_no_injection(void **state)
{
    (void)state;
    require_gnuplot();
    char *dir = make_tmpdir();
    char marker[4200];
    snprintf(marker, sizeof marker, "%s/pwned", dir);
    char title[16384];
    snprintf(title, sizeof title, "it's `touch %s` \"`touch %s`\" '; system('touch %s'); '",
             marker, marker, marker);
    struct gb_plot *p = gb_plot_new(GB_CHART_LINE, "quoted", title);
    assert_non_null(p);
    int s;
    assert_int_equal(gb_plot_series(p, "a \"b\" `touch x` @c", &s), GB_OK);
    assert_int_equal(gb_plot_point(p, s, 1, 2, 1.5, 2.5), GB_OK);
    assert_int_equal(gb_plot_point(p, s, 2, 3, NAN, NAN), GB_OK);
    assert_int_equal(gb_plot_labels(p, "x\nwith a newline", "y"), GB_OK);
    struct gb_report_result res;
    gb_report_result_init(&res);
    if (gb_plot_draw(p, dir, &res) != GB_OK)
        fail_msg("gb_plot_draw: %s", gb_error_message());
    assert_false(exists(marker));
    struct stat sb;
    assert_int_not_equal(stat(marker, &sb), 0);
    const char *texts[] = {"it", "touch", "system("};
    check_svg(path_in(dir, "quoted.svg"), texts, 3);
    /* A title longer than a line is broken at a blank, with our own "\n". */
    char *gp = slurp(path_in(dir, "quoted.gp"), NULL);
    assert_true(strlen(title) > 80);
    assert_non_null(strstr(gp, "' . \"\\n\" . '"));
    free(gp);
    gb_plot_free(p);
    gb_report_result_release(&res);
    remove_tree(dir);
    free(dir);
}

static void test_plot_misuse(void **state)
{
    (void)state;
    int s;
    assert_null(gb_plot_new(GB_CHART_BAR, "../escape", NULL));
    assert_null(gb_plot_new(GB_CHART_BAR, "", NULL));
    assert_null(gb_plot_new(GB_CHART_BAR, "a b", NULL));
    struct gb_plot *p = gb_plot_new(GB_CHART_BAR, "ok-name_1.x", NULL);
    assert_non_null(p);
    assert_int_equal(gb_plot_series(p, "a", &s), GB_OK);
    assert_int_equal(gb_plot_point(p, s, 1, 1, NAN, NAN), GB_ERR_USAGE);     /* not a line */
    assert_int_equal(gb_plot_heat_cell(p, "r", "c", 1, 0), GB_ERR_USAGE);   /* not a heat grid */
    assert_int_equal(gb_plot_bar(p, 7, "g", 1, NAN, NAN), GB_ERR_USAGE);    /* no series 7 */
    assert_int_equal(gb_plot_ref(p, "r", NAN, NULL), GB_ERR_USAGE);
    char *dir = make_tmpdir();
    struct gb_report_result res;
    gb_report_result_init(&res);
    assert_int_equal(gb_plot_draw(p, dir, &res), GB_ERR_USAGE);             /* nothing to draw */
    /* and nothing half-written is left behind */
    assert_false(exists(path_in(dir, "ok-name_1.x.gp")));
    assert_false(exists(path_in(dir, ".ok-name_1.x.gp.tmp")));
    assert_int_equal(res.n_files, 0);
    gb_plot_free(p);
    p = gb_plot_new(GB_CHART_LINE, "mixed", NULL);
    assert_int_equal(gb_plot_series(p, "a", &s), GB_OK);
    assert_int_equal(gb_plot_point(p, s, 1, 1, NAN, NAN), GB_OK);
    assert_int_equal(gb_plot_point_cat(p, s, "x", 1, NAN, NAN), GB_ERR_USAGE);
    gb_plot_free(p);
    gb_plot_free(NULL);
    gb_report_result_release(&res);
    gb_report_result_release(NULL);
    remove_tree(dir);
    free(dir);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_summary_of_fixture),
        cmocka_unit_test(test_summary_units_and_columns),
        cmocka_unit_test(test_report_of_fixture),
        cmocka_unit_test(test_error_bars_in_bandwidth),
        cmocka_unit_test(test_report_without_gnuplot),
        cmocka_unit_test(test_gnuplot_failure_is_reported),
        cmocka_unit_test(test_declared_charts),
        cmocka_unit_test(test_no_injection),
        cmocka_unit_test(test_findings_rule_of_set),
        cmocka_unit_test(test_findings_per_problem),
        cmocka_unit_test(test_plot_misuse),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
