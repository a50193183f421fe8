/* test_chart_ys.c - charts with several y per record (gb_chart_spec.ys):
 * one series per y, a record without one of the metrics leaves a gap in
 * that series only, references take the first y, and a malformed list is
 * reported. Uses the charts of suite `throughput` and a synthetic suite. */
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
#include "test_runs.h"

static void rec(struct gb_record *r, const char *bench, const char *axis, const char *value)
{
    test_record(r, "throughput", bench, 1000);
    r->time_ns.ci_lo = r->time_ns.ci_hi = 1000;
    if (axis)
        gb_record_set_axis(r, axis, value);
}

static void test_throughput_charts(void **state)
{
    (void)state;
    if (!gb_plot_available(NULL, 0))
        fail_msg("gnuplot is not on PATH; 'make deps' installs gnuplot-nox, which these tests need");
    const struct gb_suite *s = gb_suite_find("throughput");
    assert_non_null(s);
    struct gb_record recs[16];
    size_t n = 0;
    /* ffma: measured and documented; fdiv: measured only. */
    rec(&recs[n], "arith", "op", "ffma");
    gb_record_set_axis(&recs[n], "mode", "tput");
    gb_record_set_metric(&recs[n], "ops_per_clk_sm", 125.5);
    gb_record_set_metric(&recs[n], "doc_ops_per_clk_sm", 128);
    n++;
    rec(&recs[n], "arith", "op", "fdiv");
    gb_record_set_axis(&recs[n], "mode", "tput");
    gb_record_set_metric(&recs[n], "ops_per_clk_sm", 9.75);
    n++;
    rec(&recs[n], "arith", "op", "ffma");
    gb_record_set_axis(&recs[n], "mode", "lat");
    gb_record_set_metric(&recs[n], "clk_per_op", 4.25);
    n++;
    const char *ways[] = {"1", "2", "4"};
    for (int w = 0; w < 3; w++) {
        rec(&recs[n], "smem", "ways", ways[w]);
        gb_record_set_metric(&recs[n], "bytes_per_clk_sm", 120.0 / atof(ways[w]));
        gb_record_set_metric(&recs[n], "doc_bytes_per_clk_sm", 128.0 / atof(ways[w]));
        n++;
    }
    rec(&recs[n], "smem_broadcast", NULL, NULL);
    gb_record_set_metric(&recs[n], "bytes_per_clk_sm", 126.5);
    n++;
    struct gb_run run;
    memset(&run, 0, sizeof run);
    run.records = recs;
    run.n_records = n;
    char dir[] = "/tmp/gb-test-ys-XXXXXX";
    assert_non_null(mkdtemp(dir));
    struct gb_report_result res;
    gb_report_result_init(&res);
    assert_int_equal(gb_report_charts(&run, TEST_SET(s), NULL, dir, &res), GB_OK);
    assert_int_equal(res.n_no_data, 0);

    char path[256];
    snprintf(path, sizeof path, "%s/throughput-arith.gp", dir);
    char *gp = slurp(path, NULL);
    assert_non_null(gp);
    assert_non_null(strstr(gp, "title 'measured'"));
    assert_non_null(strstr(gp, "title 'CUDA C++ Programming Guide'"));
    /* Both bars for ffma, the measured one alone for fdiv; the lat record
     * is not on this chart. */
    assert_non_null(strstr(gp, "\"ffma\" 125.5 125.5 125.5 128 128 128\n"));
    assert_non_null(strstr(gp, "\"fdiv\" 9.75 9.75 9.75 ? ? ?\n"));
    assert_null(strstr(gp, "4.25"));
    free(gp);

    snprintf(path, sizeof path, "%s/throughput-smem.gp", dir);
    gp = slurp(path, NULL);
    assert_non_null(gp);
    assert_non_null(strstr(gp, "title 'measured'"));
    assert_non_null(strstr(gp, "32 banks x 4 B / n"));
    assert_non_null(strstr(gp, "broadcast (all lanes one word) (126.5"));  /* reference from the first y */
    free(gp);

    snprintf(path, sizeof path, "%s/throughput-latency.gp", dir);
    gp = slurp(path, NULL);
    assert_non_null(gp);
    assert_non_null(strstr(gp, "\"ffma\" 4.25"));
    free(gp);
    gb_report_result_release(&res);

    /* A malformed list is one clear error. */
    static const struct gb_chart_spec bad[] = {
        {.name = "bad", .kind = GB_CHART_BAR, .x = "bench", .ys = "measured"},
        {.name = "bad2", .kind = GB_CHART_BAR, .x = "bench", .ys = "a=metric:x;b=bogus"},
    };
    const struct gb_suite bs = {"throughput", "", NULL, 0, bad, 2, NULL};
    gb_report_result_init(&res);
    assert_int_equal(gb_report_charts(&run, TEST_SET(&bs), NULL, dir, &res), GB_ERR_USAGE);
    assert_non_null(strstr(gb_error_message(), "not label=y"));
    gb_report_result_release(&res);
    char cmd[300];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    assert_int_equal(system(cmd), 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_throughput_charts),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
