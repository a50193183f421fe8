/* test_plot_star.c - gb_plot_star: a marked point on a line chart. The
 * script must draw it last, as a star with its legend label, and include it
 * in the axis ranges; a chart of a star alone is drawable; misuse is refused. */
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

#include "gpubound/report.h"
#include "test_runs.h"

static void cleanup(const char *dir, const char *stem)
{
    static const char *const ext[] = {"gp", "svg", "png", "log"};
    char path[512];
    for (size_t i = 0; i < 4; i++) {
        snprintf(path, sizeof path, "%s/%s.%s", dir, stem, ext[i]);
        unlink(path);
    }
}

static void test_star_script(void **state)
{
    (void)state;
    char dir[] = "/tmp/gb-star-XXXXXX", path[512];
    struct gb_report_result res;
    int s;
    assert_non_null(mkdtemp(dir));
    gb_report_result_init(&res);

    struct gb_plot *p = gb_plot_new(GB_CHART_LINE, "band", "a band");
    assert_non_null(p);
    assert_int_equal(gb_plot_series(p, "best", &s), GB_OK);
    for (int x = 1; x <= 4; x++)
        assert_int_equal(gb_plot_point(p, s, x, 10.0 / x, NAN, NAN), GB_OK);
    /* Outside the series' ranges: the axes must reach it. */
    assert_int_equal(gb_plot_star(p, "measured (it's here)", 6, 25), GB_OK);
    assert_int_equal(gb_plot_draw(p, dir, &res), GB_OK);
    snprintf(path, sizeof path, "%s/band.gp", dir);
    char *gp = slurp(path, NULL);
    assert_non_null(strstr(gp, "$star0 << EOD\n6 25\nEOD\n"));
    const char *plot = strstr(gp, "\nplot ");
    assert_non_null(plot);
    const char *series = strstr(plot, "$s0 using"), *star = strstr(plot, "$star0 using 1:2 with points pt 3");
    assert_non_null(series);
    assert_non_null(star);
    assert_true(star > series); /* drawn over the lines */
    assert_non_null(strstr(star, "title 'measured (it''s here)'"));
    /* x reaches 6 (plus the margin), y reaches 25 (plus headroom). */
    assert_non_null(strstr(gp, "set xrange [0.8:6.2]"));
    assert_non_null(strstr(gp, "set yrange [0:27.5]"));
    free(gp);
    gb_plot_free(p);
    cleanup(dir, "band");

    /* A star alone is a chart. */
    p = gb_plot_new(GB_CHART_LINE, "alone", NULL);
    assert_int_equal(gb_plot_star(p, "only", 3, 4), GB_OK);
    assert_int_equal(gb_plot_draw(p, dir, &res), GB_OK);
    gb_plot_free(p);
    cleanup(dir, "alone");

    /* Misuse: a bar chart, categories, non-finite coordinates. */
    p = gb_plot_new(GB_CHART_BAR, "bars", NULL);
    assert_int_equal(gb_plot_star(p, "x", 1, 1), GB_ERR_USAGE);
    gb_plot_free(p);
    p = gb_plot_new(GB_CHART_LINE, "cats", NULL);
    assert_int_equal(gb_plot_series(p, "a", &s), GB_OK);
    assert_int_equal(gb_plot_point_cat(p, s, "one", 1, NAN, NAN), GB_OK);
    assert_int_equal(gb_plot_star(p, "x", 1, 1), GB_ERR_USAGE);
    gb_plot_free(p);
    p = gb_plot_new(GB_CHART_LINE, "nan", NULL);
    assert_int_equal(gb_plot_star(p, "x", NAN, 1), GB_ERR_USAGE);
    assert_int_equal(gb_plot_star(p, "x", 1, INFINITY), GB_ERR_USAGE);
    /* A star makes x numeric: category points are refused after it. */
    assert_int_equal(gb_plot_star(p, "x", 1, 1), GB_OK);
    assert_int_equal(gb_plot_series(p, "a", &s), GB_OK);
    assert_int_equal(gb_plot_point_cat(p, s, "one", 1, NAN, NAN), GB_ERR_USAGE);
    gb_plot_free(p);

    gb_report_result_release(&res);
    rmdir(dir);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_star_script),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
