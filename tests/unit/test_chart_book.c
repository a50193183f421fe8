/* test_chart_book.c - chart specs stored with a run: charts.json written and
 * read back field for field, a run whose suite no build knows charted from its
 * own charts.json, malformed files refused, and the large-run rule. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <cmocka.h>

#include "gpubound/chart_spec.h"
#include "gpubound/report.h"
#include "gpubound/suite.h"
#include "test_runs.h"

/* A spec with every field set, so that a round trip checks each. */
static const struct gb_chart_spec full_spec = {
    .name = "all-fields", .title = "Every field", .kind = GB_CHART_SPEEDUP,
    .benches = "a,b*", .where = "x=1,b:y?=2", .split = "bench", .primary = "*",
    .x = "n", .series = "bench", .series_label = "{} B", .x_categories = 1,
    .y = "median_ns", .ys = "m=bw_gbs;d=metric:doc", .relative_to = "copy:kind=vec",
    .refs = "peak=device:mem_peak_gbs", .x_label = "n", .y_label = "time (ns)", .log_x = 1,
    .log_y = 1, .row = "rows", .col = "cols", .flag = "metric:f", .flag_label = "flagged",
    .pair = "variant=original/revised", .ref_speedups = "paper=a:2.5", .table = 1,
};

static void assert_str_eq_or_null(const char *a, const char *b)
{
    if (!a || !b)
        assert_ptr_equal(a, b);
    else
        assert_string_equal(a, b);
}

static char *make_tmpdir(void)
{
    char tmpl[] = "/tmp/gb-test-book-XXXXXX";
    assert_non_null(mkdtemp(tmpl));
    return strdup(tmpl);
}

static void test_round_trip(void **state)
{
    (void)state;
    char *dir = make_tmpdir();
    struct gb_chart_set set = {"mysuite", "what it measures", &full_spec, 1, NULL};
    struct gb_chart_book out, in;
    int found = -1;
    gb_chart_book_init(&out);
    assert_int_equal(gb_chart_book_add(&out, &set), GB_OK);
    assert_int_equal(gb_chart_book_write(&out, dir), GB_OK);
    assert_int_equal(gb_chart_book_load(dir, &in, &found), GB_OK);
    assert_int_equal(found, 1);
    assert_int_equal(in.n, 1);
    const struct gb_chart_set *s = gb_chart_book_find(&in, "mysuite");
    assert_non_null(s);
    assert_string_equal(s->help, "what it measures");
    assert_int_equal(s->n_charts, 1);
    const struct gb_chart_spec *a = &full_spec, *b = &s->charts[0];
    assert_int_equal(a->kind, b->kind);
    const char *const sa[] = {a->name, a->title, a->benches, a->where, a->split, a->primary, a->x,
                              a->series, a->series_label, a->y, a->ys, a->relative_to, a->refs,
                              a->x_label, a->y_label, a->row, a->col, a->flag, a->flag_label,
                              a->pair, a->ref_speedups};
    const char *const sb[] = {b->name, b->title, b->benches, b->where, b->split, b->primary, b->x,
                              b->series, b->series_label, b->y, b->ys, b->relative_to, b->refs,
                              b->x_label, b->y_label, b->row, b->col, b->flag, b->flag_label,
                              b->pair, b->ref_speedups};
    for (size_t i = 0; i < sizeof sa / sizeof sa[0]; i++)
        assert_str_eq_or_null(sa[i], sb[i]);
    assert_int_equal(b->x_categories, 1);
    assert_int_equal(b->log_x, 1);
    assert_int_equal(b->log_y, 1);
    assert_int_equal(b->table, 1);
    assert_null(gb_chart_book_find(&in, "other"));
    gb_chart_book_release(&in);
    gb_chart_book_release(&out);

    /* A run directory without the file: found 0, an empty book, no error. */
    char path[512];
    snprintf(path, sizeof path, "%s/charts.json", dir);
    unlink(path);
    assert_int_equal(gb_chart_book_load(dir, &in, &found), GB_OK);
    assert_int_equal(found, 0);
    assert_int_equal(in.n, 0);
    gb_chart_book_release(&in);
    rmdir(dir);
    free(dir);
}

static void write_text(const char *dir, const char *text)
{
    char path[512];
    snprintf(path, sizeof path, "%s/charts.json", dir);
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fputs(text, f);
    fclose(f);
}

static void test_malformed(void **state)
{
    (void)state;
    char *dir = make_tmpdir();
    struct gb_chart_book b;
    int found;
    static const char *const bad[] = {
        "{",                                                                         /* not JSON */
        "{\"format\": \"other\", \"suites\": []}",                                   /* not ours */
        "{\"format\": \"gpubound-charts\", \"suites\": [{\"charts\": []}]}",        /* no name */
        "{\"format\": \"gpubound-charts\", \"suites\": [{\"name\": \"s\", \"charts\": "
        "[{\"name\": \"c\", \"kind\": \"pie\"}]}]}",                                 /* bad kind */
        "{\"format\": \"gpubound-charts\", \"suites\": [{\"name\": \"s\", \"charts\": "
        "[{\"name\": \"c\", \"kind\": \"bar\", \"log_y\": \"yes\"}]}]}",             /* bad flag */
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        write_text(dir, bad[i]);
        assert_int_equal(gb_chart_book_load(dir, &b, &found), GB_ERR_FORMAT);
        assert_non_null(strstr(gb_error_message(), "charts.json"));
        assert_int_equal(b.n, 0);
        gb_chart_book_release(&b);
    }
    char path[512];
    snprintf(path, sizeof path, "%s/charts.json", dir);
    unlink(path);
    rmdir(dir);
    free(dir);
}

static int exists_in(const char *dir, const char *name)
{
    char path[512];
    struct stat sb;
    snprintf(path, sizeof path, "%s/%s", dir, name);
    return stat(path, &sb) == 0;
}

/* A suite no build knows, with its charts in the run directory: charted. */
static void test_unknown_suite_charted(void **state)
{
    (void)state;
    static const struct gb_chart_spec specs[] = {
        {.name = "mine-time", .title = "Time by n", .kind = GB_CHART_LINE, .x = "n",
         .series = "bench", .y = "median_ns", .x_label = "n", .y_label = "time (ns)"},
        {.name = "mine-bars", .title = "Time by kernel", .kind = GB_CHART_BAR, .x = "bench",
         .y = "median_ns", .table = 1},
    };
    struct gb_chart_set set = {"a-spec-file-suite", "A kernel of the user's.", specs, 2, NULL};
    struct gb_record r[6];
    for (int i = 0; i < 6; i++) {
        char n[16];
        test_record(&r[i], "a-spec-file-suite", i < 3 ? "fast" : "slow", 1000.0 * (i + 1));
        snprintf(n, sizeof n, "%d", 1 << (10 + i % 3));
        gb_record_set_axis(&r[i], "n", n);
    }
    assert_null(gb_suite_find("a-spec-file-suite"));

    char *run_dir = make_tmpdir(), *out = make_tmpdir();
    struct gb_run run;
    memset(&run, 0, sizeof run);
    run.records = r;
    run.n_records = 6;
    run.info.complete = 1;
    snprintf(run.dir, sizeof run.dir, "%s", run_dir);

    struct gb_chart_book book;
    gb_chart_book_init(&book);
    assert_int_equal(gb_chart_book_add(&book, &set), GB_OK);
    assert_int_equal(gb_chart_book_write(&book, run_dir), GB_OK);
    gb_chart_book_release(&book);
    assert_false(gb_report_is_large(&run, NULL));

    /* gb_report_write reads the run's own charts.json. */
    struct gb_report_result res;
    gb_report_result_init(&res);
    assert_int_equal(gb_report_write(&run, out, &res), GB_OK);
    assert_int_equal(res.n_no_data, 0);
    assert_int_equal(res.n_left_out, 0);
    assert_true(exists_in(out, "mine-time.gp"));
    assert_true(exists_in(out, "mine-bars.gp"));
    char path[512];
    snprintf(path, sizeof path, "%s/report.md", out);
    char *md = slurp(path, NULL);
    assert_null(strstr(md, "does not know this suite"));
    assert_non_null(strstr(md, "A kernel of the user's."));
    assert_non_null(strstr(md, "### Time by n"));
    assert_non_null(strstr(md, "Values of the chart"));
    free(md);
    gb_report_result_release(&res);

    /* Without charts.json the same run has no charts: nothing else knows the suite. */
    snprintf(path, sizeof path, "%s/charts.json", run_dir);
    unlink(path);
    gb_report_result_init(&res);
    assert_int_equal(gb_report_write(&run, out, &res), GB_OK);
    snprintf(path, sizeof path, "%s/report.md", out);
    md = slurp(path, NULL);
    assert_non_null(strstr(md, "does not know this suite"));
    free(md);
    gb_report_result_release(&res);
    rmdir(run_dir);
    free(run_dir);
    free(out);
}

/* Large: over 1000 records, or over 24 charts; primary charts by default. */
static void test_large_rule(void **state)
{
    (void)state;
    static const struct gb_chart_spec spec = {.name = "g", .kind = GB_CHART_LINE, .x = "n",
                                              .y = "median_ns", .split = "bench",
                                              .primary = "bench=b3"};
    struct gb_chart_set set = {"s", NULL, &spec, 1, NULL};
    struct gb_record r[30];
    for (int i = 0; i < 30; i++) {
        char b[16];
        snprintf(b, sizeof b, "b%d", i);
        test_record(&r[i], "s", b, 100.0 + i);
        gb_record_set_axis(&r[i], "n", "4");
    }
    struct gb_run run;
    memset(&run, 0, sizeof run);
    run.records = r;
    run.n_records = 24;
    struct gb_chart_book book;
    gb_chart_book_init(&book);
    assert_int_equal(gb_chart_book_add(&book, &set), GB_OK);
    assert_false(gb_report_is_large(&run, &book));   /* 24 charts */
    run.n_records = 25;
    assert_true(gb_report_is_large(&run, &book));    /* 25 charts */

    char *out = make_tmpdir();
    struct gb_report_result res;
    gb_report_result_init(&res);
    assert_int_equal(gb_report_write_book(&run, &book, NULL, out, &res), GB_OK);
    assert_true(exists_in(out, "g-b3.gp"));
    assert_false(exists_in(out, "g-b4.gp"));
    assert_int_equal(res.n_left_out, 24);
    assert_true(exists_in(out, "summary.csv"));
    gb_report_result_release(&res);

    const char *pat[] = {"g-b1?"};
    struct gb_report_opts o = {.patterns = pat, .n_patterns = 1};
    gb_report_result_init(&res);
    assert_int_equal(gb_report_check_patterns(&run, &book, &o), GB_OK);
    assert_int_equal(gb_report_write_book(&run, &book, &o, out, &res), GB_OK);
    assert_int_equal(res.n_left_out, 15);   /* b10 .. b19 drawn */
    gb_report_result_release(&res);
    const char *nopat[] = {"zz*"};
    struct gb_report_opts no = {.patterns = nopat, .n_patterns = 1};
    assert_int_equal(gb_report_check_patterns(&run, &book, &no), GB_ERR_USAGE);
    assert_non_null(strstr(gb_error_message(), "'zz*' matches none of the 25 charts"));
    gb_chart_book_release(&book);
    free(out);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_round_trip),
        cmocka_unit_test(test_malformed),
        cmocka_unit_test(test_unknown_suite_charted),
        cmocka_unit_test(test_large_rule),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
