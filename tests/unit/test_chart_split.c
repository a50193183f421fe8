/* test_chart_split.c - declared charts with `split`: one chart per
 * combination of values (the uBench diagrams: one heat grid per bench, size
 * and carveout), their names, titles and selections, report.md listing each,
 * and specs without split unchanged. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <cmocka.h>

#include "gpubound/report.h"
#include "gpubound/suite.h"
#include "report/report_internal.h"
#include "test_runs.h"

static void rec(struct gb_record *r, const char *suite, const char *bench, const char *size,
                const char *cache, const char *rows, const char *cols, double ns)
{
    test_record(r, suite, bench, ns);
    if (size)
        gb_record_set_axis(r, "size", size);
    if (cache)
        gb_record_set_axis(r, "cache", cache);
    gb_record_set_axis(r, "rows", rows);
    gb_record_set_axis(r, "cols", cols);
    gb_record_set_metric(r, "max_occupancy", strcmp(rows, "4") == 0);
}

static const struct gb_chart_spec specs[] = {
    {.name = "grid",
     .title = "Time",
     .kind = GB_CHART_HEAT,
     .benches = "b*",
     .where = "cache=on",
     .split = "bench,size",
     .row = "rows",
     .col = "cols",
     .y = "median_ns",
     .flag = "metric:max_occupancy",
     .flag_label = "max occupancy"},
    {.name = "whole", .title = "All", .kind = GB_CHART_HEAT, .row = "rows", .col = "cols", .y = "median_ns"},
    {.name = "empty", .title = "None", .kind = GB_CHART_HEAT, .benches = "zzz", .split = "size",
     .row = "rows", .col = "cols", .y = "median_ns"},
};

static const struct gb_suite suite = {"synth", "test suite", NULL, 0, specs, 3, NULL};

static size_t fill(struct gb_record *r)
{
    static const char *const dims[] = {"1", "4", "32"};
    size_t n = 0;
    for (int b = 0; b < 2; b++)
        for (int s = 0; s < 2; s++)
            for (int i = 0; i < 3; i++)
                for (int j = 0; j < 3; j++)
                    rec(&r[n++], "synth", b ? "b/2" : "b1", s ? "large" : "small", "on", dims[i], dims[j],
                        100.0 + 10 * i + j + 50 * b);
    /* Left out of the split chart: another cache, no size axis, another suite. */
    rec(&r[n++], "synth", "b1", "small", "off", "1", "1", 1);
    rec(&r[n++], "synth", "b1", NULL, "on", "1", "1", 1);
    rec(&r[n++], "other", "b1", "small", "on", "1", "1", 1);
    return n;
}

static void test_instances(void **state)
{
    (void)state;
    struct gb_record r[64];
    struct gb_run run;
    memset(&run, 0, sizeof run);
    run.records = r;
    run.n_records = fill(r);
    struct gb_chart_inst *in = NULL;
    size_t n = 0;
    assert_int_equal(gb_chart_instances(&run, TEST_SET(&suite), &specs[0], &in, &n), GB_OK);
    assert_int_equal(n, 4);
    /* Order of first appearance; '/' is not allowed in a file stem. */
    assert_string_equal(in[0].spec.name, "grid-b1-small");
    assert_string_equal(in[1].spec.name, "grid-b1-large");
    assert_string_equal(in[2].spec.name, "grid-b_2-small");
    assert_string_equal(in[3].spec.name, "grid-b_2-large");
    assert_string_equal(in[3].spec.title, "Time (b/2, size=large)");
    assert_string_equal(in[1].spec.where, "cache=on,size=large");
    assert_string_equal(in[2].spec.benches, "b/2");
    assert_null(in[0].spec.split);
    assert_int_equal(in[0].spec.kind, GB_CHART_HEAT);
    assert_string_equal(in[0].spec.flag, "metric:max_occupancy");
    free(in);

    /* Without split: the spec itself. */
    assert_int_equal(gb_chart_instances(&run, TEST_SET(&suite), &specs[1], &in, &n), GB_OK);
    assert_int_equal(n, 1);
    assert_ptr_equal(in[0].spec.name, specs[1].name);
    assert_null(in[0].spec.where);
    free(in);

    /* Nothing selected: no instance. */
    assert_int_equal(gb_chart_instances(&run, TEST_SET(&suite), &specs[2], &in, &n), GB_OK);
    assert_int_equal(n, 0);
    free(in);
}

static int exists(const char *dir, const char *name)
{
    char path[4200];
    struct stat sb;
    snprintf(path, sizeof path, "%s/%s", dir, name);
    return stat(path, &sb) == 0 && sb.st_size > 0;
}

static char *slurp_in(const char *dir, const char *name)
{
    char path[4200];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    return slurp(path, NULL);
}

static void test_drawn(void **state)
{
    (void)state;
    if (!gb_plot_available(NULL, 0))
        fail_msg("gnuplot is not on PATH; 'make deps' installs gnuplot-nox, which these tests need");
    struct gb_record r[64];
    struct gb_run run;
    memset(&run, 0, sizeof run);
    run.records = r;
    run.n_records = fill(r);
    char dir[] = "/tmp/gb-test-split-XXXXXX";
    assert_non_null(mkdtemp(dir));
    struct gb_report_result res;
    gb_report_result_init(&res);
    assert_int_equal(gb_report_charts(&run, TEST_SET(&suite), NULL, dir, &res), GB_OK);
    assert_true(exists(dir, "grid-b1-small.svg"));
    assert_true(exists(dir, "grid-b_2-large.png"));
    assert_true(exists(dir, "whole.svg"));
    assert_false(exists(dir, "grid.svg"));
    assert_int_equal(res.n_no_data, 1);
    assert_string_equal(res.no_data[0], "empty");
    /* The b1/small grid holds only its own nine cells: the best is 1 x 1. */
    char *gp = slurp_in(dir, "grid-b1-small.gp");
    assert_non_null(strstr(gp, "$best << EOD\n0 0\nEOD\n"));
    assert_non_null(strstr(gp, "Time (b1, size=small)"));
    free(gp);
    gb_report_result_release(&res);
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    assert_int_equal(system(cmd), 0);
}

/* The ubench suite's own diagrams: one per bench, size and carveout, each
 * listed in report.md. */
static void test_ubench_report(void **state)
{
    (void)state;
    if (!gb_plot_available(NULL, 0))
        fail_msg("gnuplot is not on PATH; 'make deps' installs gnuplot-nox, which these tests need");
    static const char *const dims[] = {"1", "4", "256"};
    struct gb_record r[64];
    size_t n = 0;
    for (int b = 0; b < 2; b++)
        for (int c = 0; c < 2; c++)
            for (int i = 0; i < 3; i++)
                for (int j = 0; j < 3; j++) {
                    if (i == 2 && j == 2)
                        continue;   /* 256 x 256 is not a block */
                    rec(&r[n++], "ubench", b ? "cannon_direct" : "ubench1", "large", c ? "max" : "min", dims[i],
                        dims[j], 1000.0 + 100 * i + j);
                }
    struct gb_run run;
    memset(&run, 0, sizeof run);
    run.records = r;
    run.n_records = n;
    run.info.complete = 1;
    char dir[] = "/tmp/gb-test-split-XXXXXX";
    assert_non_null(mkdtemp(dir));
    struct gb_report_result res;
    gb_report_result_init(&res);
    assert_int_equal(test_report_write(&run, dir, &res), GB_OK);
    static const char *const stems[] = {"shape-ubench1-large-min", "shape-ubench1-large-max",
                                        "shape-cannon_direct-large-min", "shape-cannon_direct-large-max"};
    char *md = slurp_in(dir, "report.md");
    for (int k = 0; k < 4; k++) {
        char name[128];
        snprintf(name, sizeof name, "%s.svg", stems[k]);
        assert_true(exists(dir, name));
        snprintf(name, sizeof name, "](%s.png)", stems[k]);
        assert_non_null(strstr(md, name));
    }
    assert_non_null(strstr(md, "Time by block shape (ubench1, size=large, cache=min)"));
    free(md);
    char *gp = slurp_in(dir, "shape-ubench1-large-min.gp");
    assert_non_null(strstr(gp, "maximum occupancy"));
    free(gp);
    gb_report_result_release(&res);
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    assert_int_equal(system(cmd), 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_instances),
        cmocka_unit_test(test_drawn),
        cmocka_unit_test(test_ubench_report),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
