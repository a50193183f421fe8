/* test_plot_axes.c - how the plot layer lays out axes and series:
 * gb_plot_time_axis picks a unit from the data (ticks read as plain numbers,
 * the unit in the label, reference lines in it too); category labels stand
 * slanted or on end when they would overlap; a series that a later one
 * would hide is drawn around it; bars of a ratio start at 1. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <jansson.h>

#include "gpubound/report.h"
#include "report/report_internal.h"
#include "test_runs.h"

static char g_dir[64];

static int setup(void **state)
{
    (void)state;
    snprintf(g_dir, sizeof g_dir, "/tmp/gb-axes-XXXXXX");
    return mkdtemp(g_dir) ? 0 : -1;
}

static int teardown(void **state)
{
    (void)state;
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", g_dir);
    return system(cmd) == 0 ? 0 : -1;
}

/* Draws p into g_dir and returns its script (free it); frees p. */
static char *script_of(struct gb_plot *p, const char *stem)
{
    struct gb_report_result res;
    char path[256];
    gb_report_result_init(&res);
    assert_int_equal(gb_plot_draw(p, g_dir, &res), GB_OK);
    gb_report_result_release(&res);
    gb_plot_free(p);
    snprintf(path, sizeof path, "%s/%s.gp", g_dir, stem);
    char *gp = slurp(path, NULL);
    assert_non_null(gp);
    return gp;
}

static void test_time_unit_linear(void **state)
{
    (void)state;
    int s;
    struct gb_plot *p = gb_plot_new(GB_CHART_LINE, "t_us", NULL);
    assert_int_equal(gb_plot_labels(p, "warps", "time per launch (ns)"), GB_OK);
    assert_int_equal(gb_plot_series(p, "a", &s), GB_OK);
    /* 15 µs to 127 µs: drawn in µs, not as 127000 ns. */
    assert_int_equal(gb_plot_point(p, s, 1, 15000, 14000, 16000), GB_OK);
    assert_int_equal(gb_plot_point(p, s, 2, 127000, NAN, NAN), GB_OK);
    assert_int_equal(gb_plot_ref(p, "floor", 20000, "ns"), GB_OK);
    assert_int_equal(gb_plot_time_axis(p), GB_OK);
    char *gp = script_of(p, "t_us");
    assert_non_null(strstr(gp, "set ylabel 'time per launch (µs)'"));
    assert_non_null(strstr(gp, "\n1 15 14 16\n2 127 127 127\n"));
    assert_non_null(strstr(gp, "first 20 to graph 1"));
    assert_non_null(strstr(gp, "title 'floor (20.00 µs)'"));
    assert_null(strstr(gp, "e+0"));
    free(gp);
}

static void test_time_unit_log(void **state)
{
    (void)state;
    int s;
    /* 0.1 ms to 15 ms on a log axis, a label without a unit: ms appended. */
    struct gb_plot *p = gb_plot_new(GB_CHART_LINE, "t_ms", NULL);
    assert_int_equal(gb_plot_labels(p, "warps", "time"), GB_OK);
    gb_plot_log(p, 0, 1);
    assert_int_equal(gb_plot_series(p, "a", &s), GB_OK);
    assert_int_equal(gb_plot_point(p, s, 1, 1.5e7, NAN, NAN), GB_OK);
    assert_int_equal(gb_plot_point(p, s, 2, 1.4e5, NAN, NAN), GB_OK);
    assert_int_equal(gb_plot_star(p, "here", 3, 2e6), GB_OK);
    assert_int_equal(gb_plot_time_axis(p), GB_OK);
    char *gp = script_of(p, "t_ms");
    assert_non_null(strstr(gp, "set ylabel 'time (ms)'"));
    assert_non_null(strstr(gp, "\n1 15 15 15\n2 0.14 0.14 0.14\n"));
    assert_non_null(strstr(gp, "$star0 << EOD\n3 2\nEOD"));
    free(gp);

    /* Six decades on a log axis: one unit down, so no tick reads 1e-05. */
    p = gb_plot_new(GB_CHART_LINE, "t_wide", NULL);
    assert_int_equal(gb_plot_labels(p, "n", "time (ns)"), GB_OK);
    gb_plot_log(p, 0, 1);
    assert_int_equal(gb_plot_series(p, "a", &s), GB_OK);
    assert_int_equal(gb_plot_point(p, s, 1, 50, NAN, NAN), GB_OK);
    assert_int_equal(gb_plot_point(p, s, 2, 2e7, NAN, NAN), GB_OK);
    assert_int_equal(gb_plot_time_axis(p), GB_OK);
    gp = script_of(p, "t_wide");
    assert_non_null(strstr(gp, "set ylabel 'time (µs)'"));
    free(gp);

    /* Under a microsecond stays in ns. */
    p = gb_plot_new(GB_CHART_BAR, "t_ns", NULL);
    assert_int_equal(gb_plot_labels(p, "op", "latency (ns)"), GB_OK);
    assert_int_equal(gb_plot_series(p, "a", &s), GB_OK);
    assert_int_equal(gb_plot_bar(p, s, "x", 640, NAN, NAN), GB_OK);
    assert_int_equal(gb_plot_time_axis(p), GB_OK);
    gp = script_of(p, "t_ns");
    assert_non_null(strstr(gp, "set ylabel 'latency (ns)'"));
    assert_non_null(strstr(gp, "\"x\" 640 640 640\n"));
    free(gp);
}

static void test_category_labels(void **state)
{
    (void)state;
    int s;
    char name[32];
    /* Three short groups: flat. */
    struct gb_plot *p = gb_plot_new(GB_CHART_BAR, "few", NULL);
    assert_int_equal(gb_plot_series(p, "a", &s), GB_OK);
    for (int i = 0; i < 3; i++) {
        snprintf(name, sizeof name, "op%d", i);
        assert_int_equal(gb_plot_bar(p, s, name, i + 1, NAN, NAN), GB_OK);
    }
    char *gp = script_of(p, "few");
    assert_non_null(strstr(gp, "set xtics nomirror scale 0\n"));
    free(gp);
    /* 24 groups of names up to 10 characters beside a wide legend: on end. */
    p = gb_plot_new(GB_CHART_BAR, "many", NULL);
    assert_int_equal(gb_plot_series(p, "measured", &s), GB_OK);
    assert_int_equal(gb_plot_series(p, "CUDA C++ Programming Guide", &s), GB_OK);
    for (int i = 0; i < 24; i++) {
        snprintf(name, sizeof name, "op_number%02d", i);
        assert_int_equal(gb_plot_bar(p, s, name, i + 1, NAN, NAN), GB_OK);
    }
    gp = script_of(p, "many");
    assert_non_null(strstr(gp, "set xtics nomirror scale 0 rotate by 90 right\n"));
    free(gp);
    /* Categories on a line chart: 24 slanted labels without a legend. */
    p = gb_plot_new(GB_CHART_LINE, "cats", NULL);
    assert_int_equal(gb_plot_series(p, "a", &s), GB_OK);
    for (int i = 0; i < 24; i++) {
        snprintf(name, sizeof name, "op%02d_x", i);
        assert_int_equal(gb_plot_point_cat(p, s, name, i + 1, NAN, NAN), GB_OK);
    }
    gp = script_of(p, "cats");
    assert_non_null(strstr(gp, "set xtics nomirror scale 0 rotate by 45 right ('op00_x' 0, "));
    free(gp);
}

static void test_hidden_series(void **state)
{
    (void)state;
    int a, b;
    /* "measured" lies on the model line drawn after it: drawn around it. */
    struct gb_plot *p = gb_plot_new(GB_CHART_LINE, "on_line", NULL);
    gb_plot_log(p, 1, 1);
    assert_int_equal(gb_plot_series(p, "measured", &a), GB_OK);
    assert_int_equal(gb_plot_series(p, "128 / n", &b), GB_OK);
    for (int n = 1; n <= 32; n++) {
        assert_int_equal(gb_plot_point(p, a, n, 128.0 / n * 0.995, NAN, NAN), GB_OK);
        assert_int_equal(gb_plot_point(p, b, n, 128.0 / n, NAN, NAN), GB_OK);
    }
    char *gp = script_of(p, "on_line");
    assert_non_null(strstr(gp, "$s0 using 1:2:3:4 with linespoints lt 1 lw 6 pt 6 ps 2.6 title 'measured'"));
    assert_non_null(strstr(gp, "$s1 using 1:2:3:4 with linespoints lt 2 title '128 / n'"));
    free(gp);
    /* Apart: both as usual. */
    p = gb_plot_new(GB_CHART_LINE, "apart", NULL);
    assert_int_equal(gb_plot_series(p, "a", &a), GB_OK);
    assert_int_equal(gb_plot_series(p, "b", &b), GB_OK);
    for (int n = 1; n <= 8; n++) {
        assert_int_equal(gb_plot_point(p, a, n, n, NAN, NAN), GB_OK);
        assert_int_equal(gb_plot_point(p, b, n, 2 * n, NAN, NAN), GB_OK);
    }
    gp = script_of(p, "apart");
    assert_null(strstr(gp, "lw 6"));
    free(gp);
}

/* Bars of a ratio start at their base: a box from 1 to each value (down
 * for one below 1), its interval over it, the axis spanning 1 and the data
 * on a log axis and on a linear one (not from zero); the JSON of
 * report.html carries the base. */
static void test_bar_base(void **state)
{
    (void)state;
    int s;
    struct gb_plot *p = gb_plot_new(GB_CHART_BAR, "ratio_log", NULL);
    gb_plot_log(p, 0, 1);
    gb_plot_bar_base(p, 1.0);
    assert_int_equal(gb_plot_series(p, "measured", &s), GB_OK);
    assert_int_equal(gb_plot_bar(p, s, "gain", 1.08, 1.07, 1.09), GB_OK);
    assert_int_equal(gb_plot_bar(p, s, "loss", 0.92, 0.91, 0.93), GB_OK);
    char *gp = script_of(p, "ratio_log");
    assert_null(strstr(gp, "histograms"));
    assert_non_null(strstr(gp, "gb_lo(y) = y < 1 ? y : 1\ngb_hi(y) = y > 1 ? y : 1\n"));
    assert_non_null(strstr(gp, "$bars using ($0+0.000000):2:($0-0.184000):($0+0.184000):(gb_lo($2)):(gb_hi($2)) "
                               "with boxxyerror lt 1 title 'measured'"));
    assert_non_null(strstr(gp, "$bars using ($0+0.000000):2:3:4:2:(0.120000) with candlesticks whiskerbars 1 "));
    assert_non_null(strstr(gp, "set xtics nomirror scale 0 ('gain' 0, 'loss' 1)"));
    assert_non_null(strstr(gp, "set yrange [0.56875:1.962]"));
    free(gp);
    /* Linear: the axis spans 0.91 .. 1.09 (and 1), not 0 .. 1.09. */
    p = gb_plot_new(GB_CHART_BAR, "ratio_lin", NULL);
    gb_plot_bar_base(p, 1.0);
    assert_int_equal(gb_plot_series(p, "measured", &s), GB_OK);
    assert_int_equal(gb_plot_bar(p, s, "gain", 1.08, 1.07, 1.09), GB_OK);
    assert_int_equal(gb_plot_bar(p, s, "loss", 0.92, 0.91, 0.93), GB_OK);
    json_t *j = gb_plot_json(p);
    assert_true(json_real_value(json_object_get(j, "bar_base")) == 1.0);
    json_decref(j);
    gp = script_of(p, "ratio_lin");
    assert_non_null(strstr(gp, "set yrange [0.8956:1.1044]"));
    free(gp);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_time_unit_linear),
        cmocka_unit_test(test_time_unit_log),
        cmocka_unit_test(test_category_labels),
        cmocka_unit_test(test_hidden_series),
        cmocka_unit_test(test_bar_base),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
