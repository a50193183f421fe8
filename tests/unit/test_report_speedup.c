/* test_report_speedup.c - speedup charts (GB_CHART_SPEEDUP): pairing of
 * records, the table (read back as JSON), the chart and its CSV, the
 * bench-qualified `where`, the printed tables, and bad specs. Reads the
 * synthetic fixture tests/data/runs/patterns-fixture and made-up records. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <cmocka.h>
#include <jansson.h>

#include "gpubound/report.h"
#include "gpubound/speedup.h"
#include "gpubound/suite.h"
#include "test_runs.h"

#define FIXTURE GB_TEST_DATA "/runs/patterns-fixture"

static struct gb_run *load_fixture(void)
{
    struct gb_run *run = NULL;
    if (gb_run_load(FIXTURE, &run) != GB_OK)
        fail_msg("cannot load the fixture: %s", gb_error_message());
    return run;
}

static const struct gb_chart_spec *chart_named(const struct gb_suite *s, const char *name)
{
    for (int i = 0; i < s->n_charts; i++)
        if (strcmp(s->charts[i].name, name) == 0)
            return &s->charts[i];
    fail_msg("suite %s has no chart %s", s->name, name);
    return NULL;
}

/* The fixture's record of bench with the given axes ("k=v k=v"). */
static const struct gb_record *find(const struct gb_run *run, const char *bench, const char *axes)
{
    for (size_t i = 0; i < run->n_records; i++) {
        const struct gb_record *r = &run->records[i];
        if (strcmp(r->bench, bench) != 0)
            continue;
        char buf[256], *save = NULL;
        int ok = 1;
        snprintf(buf, sizeof buf, "%s", axes);
        for (char *kv = strtok_r(buf, " ", &save); kv && ok; kv = strtok_r(NULL, " ", &save)) {
            char *eq = strchr(kv, '=');
            *eq = '\0';
            const char *v = gb_record_axis(r, kv);
            ok = v && strcmp(v, eq + 1) == 0;
        }
        if (ok)
            return r;
    }
    fail_msg("no record %s %s", bench, axes);
    return NULL;
}

static void check_pair_row(json_t *row, const struct gb_record *b, const struct gb_record *i)
{
    struct gb_speedup sp;
    assert_int_equal(gb_speedup_ratio(b->time_ns.median, b->time_ns.ci_lo, b->time_ns.ci_hi, i->time_ns.median, i->time_ns.ci_lo,
                                      i->time_ns.ci_hi, &sp), GB_OK);
    assert_true(fabs(num(row, "original (\xc2\xb5s)") - b->time_ns.median / 1e3) < 1e-9 * b->time_ns.median);
    assert_true(fabs(num(row, "revised (\xc2\xb5s)") - i->time_ns.median / 1e3) < 1e-9 * i->time_ns.median);
    assert_true(fabs(num(row, "speedup") - b->time_ns.median / i->time_ns.median) < 1e-12 * sp.ratio);
    assert_true(fabs(num(row, "95% CI low") - sp.lo) < 1e-12 * sp.ratio);
    assert_true(fabs(num(row, "95% CI high") - sp.hi) < 1e-12 * sp.ratio);
}

static void test_headline_table(void **state)
{
    (void)state;
    struct gb_run *run = load_fixture();
    const struct gb_suite *s = gb_suite_find("patterns");
    assert_non_null(s);
    struct gb_table *t = NULL;
    assert_int_equal(gb_report_speedup_table(run, TEST_SET(s), chart_named(s, "patterns-speedup"), &t), GB_OK);
    json_t *doc = table_json(t);
    /* One row per pattern, two where an axis the headline keeps has two
     * values (global_memory load, coalescing bytes, scattered_copy memory). */
    static const char *const benches[] = {"bank_conflict", "global_memory", "global_memory",
                                          "replication_copy", "coalescing", "coalescing",
                                          "scattered_copy", "scattered_copy", "register_imbalance",
                                          "barrier_wait", "branch_divergence"};
    static const char *const fermi[] = {"2.50", "1.20", "1.20", "1.03", "1.26", "1.26", "17.48", "17.48",
                                        "1.01", "1.36", "1.42"};
    static const char *const tesla[] = {"18.95", "2.53", "2.53", "1.01", "4.18", "4.18", "63.09", "63.09",
                                        "1.01", "2.89", "1.97"};
    assert_int_equal(json_array_size(doc), 11);
    for (size_t i = 0; i < 11; i++) {
        json_t *row = json_array_get(doc, i);
        assert_string_equal(str(row, "bench"), benches[i]);
        assert_true(fabs(num(row, "paper: Fermi GTX 480") - atof(fermi[i])) < 1e-12);
        assert_true(fabs(num(row, "paper: Tesla T10") - atof(tesla[i])) < 1e-12);
    }
    /* The headline's bank-conflict pair is the 32-way unpadded one. */
    json_t *row0 = json_array_get(doc, 0);
    assert_string_equal(str(row0, "point"), "");
    check_pair_row(row0, find(run, "bank_conflict", "ways=32 pad=0 variant=original"),
                   find(run, "bank_conflict", "ways=32 pad=0 variant=revised"));
    assert_string_equal(str(json_array_get(doc, 1), "point"), "load=ca");
    assert_string_equal(str(json_array_get(doc, 5), "point"), "bytes=512M");
    check_pair_row(json_array_get(doc, 7), find(run, "scattered_copy", "memory=pinned variant=original"),
                   find(run, "scattered_copy", "memory=pinned variant=revised"));
    /* The half widths of the times are the larger side of each CI. */
    const struct gb_record *b = find(run, "branch_divergence", "variant=original");
    assert_true(fabs(num(json_array_get(doc, 10), "original \xc2\xb1 (\xc2\xb5s)") -
                     fmax(b->time_ns.median - b->time_ns.ci_lo, b->time_ns.ci_hi - b->time_ns.median) / 1e3) < 1e-9);
    json_decref(doc);

    /* Printed on a terminal: the published numbers keep their digits. */
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    assert_int_equal(gb_table_print(t, f, GB_FORMAT_TABLE, 0), GB_OK);
    fclose(f);
    assert_non_null(strstr(buf, " 2.50 "));
    assert_non_null(strstr(buf, " 17.48 "));
    assert_non_null(strstr(buf, "1.20 "));
    free(buf);
    gb_table_free(t);
    gb_run_free(run);
}

static void test_all_pairs(void **state)
{
    (void)state;
    struct gb_run *run = load_fixture();
    const struct gb_suite *s = gb_suite_find("patterns");
    struct gb_table *t = NULL;
    assert_int_equal(gb_report_speedup_table(run, TEST_SET(s), chart_named(s, "patterns-speedup-all"), &t), GB_OK);
    json_t *doc = table_json(t);
    /* 24 pairs of points; ways=16 pad=1 lost its revised point (failed). */
    assert_int_equal(json_array_size(doc), 23);
    int seen_16_1 = 0;
    for (size_t i = 0; i < json_array_size(doc); i++) {
        json_t *row = json_array_get(doc, i);
        if (strcmp(str(row, "bench"), "bank_conflict") == 0)
            seen_16_1 |= strcmp(str(row, "point"), "ways=16 pad=1") == 0;
        assert_null(json_object_get(row, "paper: Fermi GTX 480"));
    }
    assert_false(seen_16_1);
    assert_string_equal(str(json_array_get(doc, 0), "point"), "ways=1 pad=0");
    check_pair_row(json_array_get(doc, 0), find(run, "bank_conflict", "ways=1 pad=0 variant=original"),
                   find(run, "bank_conflict", "ways=1 pad=0 variant=revised"));
    assert_string_equal(str(json_array_get(doc, 14), "point"), "width=4 bytes=16M");
    json_decref(doc);
    gb_table_free(t);
    gb_run_free(run);
}

/* Made-up records for the pairing rules. */
static void rec(struct gb_record *r, const char *bench, const char *x, const char *v, double ns)
{
    test_record(r, "synth", bench, ns);
    r->time_ns.ci_hi = ns * 1.02;
    gb_record_set_axis(r, "x", x);
    gb_record_set_axis(r, "v", v);
}

static void test_pairing_and_where(void **state)
{
    (void)state;
    struct gb_record recs[8];
    rec(&recs[0], "a", "1", "slow", 400);
    rec(&recs[1], "a", "1", "fast", 100);
    rec(&recs[2], "a", "2", "slow", 300);
    rec(&recs[3], "a", "2", "fast", 200);
    rec(&recs[4], "b", "1", "fast", 50);   /* its partner comes later in the run */
    rec(&recs[5], "b", "1", "slow", 150);
    rec(&recs[6], "b", "2", "slow", 90);   /* no partner: no row */
    rec(&recs[7], "c", "1", "slow", 10);
    gb_record_set_axis(&recs[7], "extra", "y");   /* different axes: not a partner of anything */
    struct gb_run run;
    memset(&run, 0, sizeof run);
    run.records = recs;
    run.n_records = 8;
    struct gb_chart_spec spec = {.name = "sp", .title = "speedups", .kind = GB_CHART_SPEEDUP,
                                 .pair = "v=slow/fast", .ref_speedups = "old=a:2,b:1.5e1"};
    struct gb_suite suite = {"synth", "", NULL, 0, &spec, 1, NULL};
    struct gb_table *t = NULL;
    assert_int_equal(gb_report_speedup_table(&run, TEST_SET(&suite), &spec, &t), GB_OK);
    json_t *doc = table_json(t);
    assert_int_equal(json_array_size(doc), 3);
    assert_string_equal(str(json_array_get(doc, 0), "point"), "x=1");
    assert_true(fabs(num(json_array_get(doc, 0), "speedup") - 4) < 1e-12);
    assert_true(fabs(num(json_array_get(doc, 1), "speedup") - 1.5) < 1e-12);
    /* b has one pair: no point text. */
    assert_string_equal(str(json_array_get(doc, 2), "bench"), "b");
    assert_string_equal(str(json_array_get(doc, 2), "point"), "");
    assert_true(fabs(num(json_array_get(doc, 2), "speedup") - 3) < 1e-12);
    assert_true(fabs(num(json_array_get(doc, 2), "old") - 15) < 1e-12);
    assert_true(fabs(num(json_array_get(doc, 0), "slow (\xc2\xb5s)") - 0.4) < 1e-12);
    json_decref(doc);
    gb_table_free(t);

    /* A where item with a bench binds only that bench's records. */
    spec.where = "a:x=2";
    assert_int_equal(gb_report_speedup_table(&run, TEST_SET(&suite), &spec, &t), GB_OK);
    doc = table_json(t);
    assert_int_equal(json_array_size(doc), 2);
    assert_string_equal(str(json_array_get(doc, 0), "bench"), "a");
    assert_true(fabs(num(json_array_get(doc, 0), "speedup") - 1.5) < 1e-12);
    assert_string_equal(str(json_array_get(doc, 1), "bench"), "b");
    /* One pair per bench now: the point column is left out. */
    assert_null(json_object_get(json_array_get(doc, 0), "point"));
    json_decref(doc);
    gb_table_free(t);
    /* A plain item binds every record; one that nothing has selects nothing. */
    spec.where = "x=1";
    assert_int_equal(gb_report_speedup_table(&run, TEST_SET(&suite), &spec, &t), GB_OK);
    assert_int_equal(gb_table_n_rows(t), 2);
    gb_table_free(t);
    spec.where = "b:x=7";
    assert_int_equal(gb_report_speedup_table(&run, TEST_SET(&suite), &spec, &t), GB_OK);
    assert_int_equal(gb_table_n_rows(t), 2);   /* a's two pairs */
    gb_table_free(t);

    /* A failed record pairs with nothing. */
    spec.where = NULL;
    recs[1].status = GB_REC_FAILED;
    assert_int_equal(gb_report_speedup_table(&run, TEST_SET(&suite), &spec, &t), GB_OK);
    assert_int_equal(gb_table_n_rows(t), 2);
    gb_table_free(t);
}

static void test_bad_specs(void **state)
{
    (void)state;
    struct gb_run run;
    memset(&run, 0, sizeof run);
    struct gb_table *t = NULL;
    static const char *const bad_pairs[] = {NULL, "", "variant", "variant=original", "=a/b", "v=/b", "v=a/"};
    for (size_t i = 0; i < sizeof bad_pairs / sizeof bad_pairs[0]; i++) {
        struct gb_chart_spec spec = {.name = "sp", .kind = GB_CHART_SPEEDUP, .pair = bad_pairs[i]};
        struct gb_suite suite = {"synth", "", NULL, 0, &spec, 1, NULL};
        assert_int_equal(gb_report_speedup_table(&run, TEST_SET(&suite), &spec, &t), GB_ERR_USAGE);
        assert_null(t);
        assert_non_null(strstr(gb_error_message(), "axis=base/improved"));
    }
    static const char *const bad_refs[] = {"old", "=a:1", "old=a", "old=a:x", "old=a:-1", "old=a:1,b:"};
    for (size_t i = 0; i < sizeof bad_refs / sizeof bad_refs[0]; i++) {
        struct gb_chart_spec spec = {.name = "sp", .kind = GB_CHART_SPEEDUP, .pair = "v=a/b",
                                     .ref_speedups = bad_refs[i]};
        struct gb_suite suite = {"synth", "", NULL, 0, &spec, 1, NULL};
        assert_int_equal(gb_report_speedup_table(&run, TEST_SET(&suite), &spec, &t), GB_ERR_USAGE);
        assert_non_null(strstr(gb_error_message(), "reference"));
    }
    struct gb_chart_spec bar = {.name = "bars", .kind = GB_CHART_BAR, .pair = "v=a/b"};
    struct gb_suite suite = {"synth", "", NULL, 0, &bar, 1, NULL};
    assert_int_equal(gb_report_speedup_table(&run, TEST_SET(&suite), &bar, &t), GB_ERR_USAGE);
    /* An empty run: a table without rows, and nothing printed. */
    struct gb_chart_spec ok = {.name = "sp", .kind = GB_CHART_SPEEDUP, .pair = "v=a/b"};
    struct gb_suite s2 = {"synth", "", NULL, 0, &ok, 1, NULL};
    assert_int_equal(gb_report_speedup_table(&run, TEST_SET(&s2), &ok, &t), GB_OK);
    assert_int_equal(gb_table_n_rows(t), 0);
    gb_table_free(t);
}

static void test_chart_and_printed_tables(void **state)
{
    (void)state;
    if (!gb_plot_available(NULL, 0))
        fail_msg("gnuplot is not on PATH; 'make deps' installs gnuplot-nox, which these tests need");
    struct gb_run *run = load_fixture();
    const struct gb_suite *s = gb_suite_find("patterns");
    char dir[] = "/tmp/gb-test-speedup-XXXXXX", path[256], cmd[300];
    assert_non_null(mkdtemp(dir));
    struct gb_report_result res;
    gb_report_result_init(&res);
    if (gb_report_charts(run, TEST_SET(s), NULL, dir, &res) != GB_OK)
        fail_msg("gb_report_charts: %s", gb_error_message());
    assert_int_equal(res.n_no_data, 0);
    static const char *const exts[] = {"gp", "svg", "png", "csv"};
    for (int e = 0; e < 4; e++) {
        struct stat sb;
        snprintf(path, sizeof path, "%s/patterns-speedup.%s", dir, exts[e]);
        assert_int_equal(stat(path, &sb), 0);
        assert_true(sb.st_size > 0);
    }
    snprintf(path, sizeof path, "%s/patterns-speedup.gp", dir);
    char *gp = slurp(path, NULL);
    assert_non_null(strstr(gp, "set logscale y"));
    assert_non_null(strstr(gp, "title 'measured (95% CI)'"));
    assert_non_null(strstr(gp, "title 'paper: Fermi GTX 480'"));
    assert_non_null(strstr(gp, "title 'paper: Tesla T10'"));
    assert_non_null(strstr(gp, "errorbars"));
    /* Bars from 1 (no speedup), not from the log axis' bottom: a slowdown hangs below 1. */
    assert_null(strstr(gp, "set style data histograms"));
    assert_non_null(strstr(gp, "gb_lo(y) = y < 1 ? y : 1\n"));
    assert_non_null(strstr(gp, ":(gb_lo($2)):(gb_hi($2)) with boxxyerror lt 1 title 'measured (95% CI)'"));
    /* The bank-conflict group: ours with its interval, then 2.5 and 18.95. */
    const struct gb_record *b = NULL, *i = NULL;
    for (size_t k = 0; k < run->n_records; k++) {
        const struct gb_record *r = &run->records[k];
        const char *w = gb_record_axis(r, "ways"), *p = gb_record_axis(r, "pad"), *v = gb_record_axis(r, "variant");
        if (w && p && v && !strcmp(w, "32") && !strcmp(p, "0"))
            *(strcmp(v, "original") ? &i : &b) = r;
    }
    assert_non_null(b);
    assert_non_null(i);
    struct gb_speedup sp;
    assert_int_equal(gb_speedup_ratio(b->time_ns.median, b->time_ns.ci_lo, b->time_ns.ci_hi, i->time_ns.median, i->time_ns.ci_lo,
                                      i->time_ns.ci_hi, &sp), GB_OK);
    char *line = strstr(gp, "\"bank_conflict\" ");
    assert_non_null(line);
    double y, lo, hi, f1, f2, f3, t1, t2, t3;
    assert_int_equal(sscanf(line + strlen("\"bank_conflict\" "), "%lf %lf %lf %lf %lf %lf %lf %lf %lf", &y, &lo,
                            &hi, &f1, &f2, &f3, &t1, &t2, &t3), 9);
    assert_true(fabs(y - sp.ratio) < 1e-9 * y && fabs(lo - sp.lo) < 1e-9 * y && fabs(hi - sp.hi) < 1e-9 * y);
    assert_true(f1 == 2.5 && f2 == 2.5 && f3 == 2.5 && t1 == 18.95 && t3 == 18.95);
    free(gp);
    snprintf(path, sizeof path, "%s/patterns-speedup.csv", dir);
    char *csv = slurp(path, NULL);
    static const char header[] = "bench,point,original (\xc2\xb5s),original \xc2\xb1 (\xc2\xb5s),revised (\xc2\xb5s),"
                                 "revised \xc2\xb1 (\xc2\xb5s),speedup,95% CI low,95% CI high,"
                                 "paper: Fermi GTX 480,paper: Tesla T10\nbank_conflict,,";
    assert_true(strncmp(csv, header, strlen(header)) == 0);
    free(csv);

    /* The tables as `gpubound run` and `gpubound report` print them. */
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    struct gb_chart_book book;
    assert_int_equal(test_book(run, &book), GB_OK);
    assert_int_equal(gb_report_print_speedups_book(run, &book, f, GB_FORMAT_TABLE, 0), GB_OK);
    gb_chart_book_release(&book);
    fclose(f);
    const char *h1 = strstr(buf, "\nSpeedup of the revised kernel over the original, per pattern\n\nbench ");
    const char *h2 = strstr(buf, "\nSpeedup of the revised kernel at every measured point\n\nbench ");
    assert_non_null(h1);
    assert_non_null(h2);
    assert_true(h1 < h2);
    free(buf);

    gb_report_result_release(&res);
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    assert_int_equal(system(cmd), 0);
    gb_run_free(run);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_headline_table),
        cmocka_unit_test(test_all_pairs),
        cmocka_unit_test(test_pairing_and_where),
        cmocka_unit_test(test_bad_specs),
        cmocka_unit_test(test_chart_and_printed_tables),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
