/* Axis value lists and the plan of points built from selectors and --set. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "gpubound/measure.h"

static const struct gb_axis_def ax_int = {"n", GB_AXIS_INT, "1", NULL, 1, 1L << 40, NULL, ""};
static const struct gb_axis_def ax_str = {"mode", GB_AXIS_STR, "a", NULL, 0, 0, "a,bb,c", ""};

static void expect(const struct gb_axis_def *a, const char *list, int n, const char *first, const char *last)
{
    char **v;
    int k;
    assert_int_equal(gb_axis_expand(a, list, &v, &k), GB_OK);
    assert_int_equal(k, n);
    assert_string_equal(v[0], first);
    assert_string_equal(v[k - 1], last);
    for (int i = 0; i < k; i++)
        free(v[i]);
    free(v);
}

static void reject(const struct gb_axis_def *a, const char *list, const char *why)
{
    char **v;
    int k;
    assert_int_equal(gb_axis_expand(a, list, &v, &k), GB_ERR_USAGE);
    assert_null(v);
    assert_non_null(strstr(gb_error_message(), why));
}

static void test_axis_expand(void **state)
{
    (void)state;
    expect(&ax_int, "4,8,16", 3, "4", "16");
    expect(&ax_int, "1:64", 64, "1", "64");
    expect(&ax_int, "2:10:4", 3, "2", "10");
    expect(&ax_int, "1K:1M:*2", 11, "1024", "1048576");
    expect(&ax_int, "2G", 1, "2G", "2G");
    expect(&ax_str, "bb,c", 2, "bb", "c");
    reject(&ax_int, "4,x", "not an integer");
    reject(&ax_int, "0", "out of range");
    reject(&ax_int, "9:3", "bad range");
    reject(&ax_int, "1:8:*1", "factor");
    reject(&ax_int, "3Q", "not an integer");
    reject(&ax_int, ",", "no values");
    reject(&ax_str, "b", "not one of a,bb,c");
    long v;
    assert_int_equal(gb_axis_parse_int("3K", &v), GB_OK);
    assert_int_equal(v, 3072);
    assert_int_equal(gb_axis_parse_int("99999999999G", &v), GB_ERR_USAGE);
    /* Suffixes are binary, and KiB/MiB/GiB (any case) mean the same. */
    assert_int_equal(gb_axis_parse_int("3KiB", &v), GB_OK);
    assert_int_equal(v, 3072);
    assert_int_equal(gb_axis_parse_int("256MiB", &v), GB_OK);
    assert_int_equal(v, 256L << 20);
    assert_int_equal(gb_axis_parse_int("2gib", &v), GB_OK);
    assert_int_equal(v, 2L << 30);
    assert_int_equal(gb_axis_parse_int("1M", &v), GB_OK);
    assert_int_equal(v, 1L << 20);
    assert_int_equal(gb_axis_parse_int("2KB", &v), GB_ERR_USAGE);
    assert_int_equal(gb_axis_parse_int("2Ki", &v), GB_ERR_USAGE);
    assert_int_equal(gb_axis_parse_int("2KiBs", &v), GB_ERR_USAGE);
}

static void test_plan_bandwidth(void **state)
{
    (void)state;
    struct gb_plan plan;
    const char *sel[] = {"bandwidth"};
    assert_int_equal(gb_plan_build(sel, 1, NULL, 0, 0, &plan), GB_OK);
    /* read, write, copy over 3 widths and 2 grid shapes, and the driver copy. */
    assert_int_equal(plan.n, 19);
    assert_int_equal(plan.n_axes, 3);
    assert_string_equal(plan.axes[0], "width");
    assert_string_equal(plan.axes[1], "grid");
    assert_string_equal(plan.items[0].bench->name, "read");
    assert_string_equal(plan.items[0].axis_value[0], "4");
    assert_string_equal(plan.items[1].axis_value[1], "flat");
    assert_string_equal(plan.items[18].bench->name, "dtod");
    struct gb_point p;
    gb_plan_point(&plan.items[4], 0, &p);
    assert_int_equal(gb_point_int(&p, "width"), 16);
    assert_string_equal(gb_point_str(&p, "grid"), "stride");
    assert_int_equal(gb_point_int(&p, "bytes"), 2L << 30);
    gb_plan_release(&plan);

    const char *sel2[] = {"bandwidth/read", "bandwidth/dtod"};
    const char *sets[] = {"width=16", "bytes=1G,4G", "grid=flat"};
    assert_int_equal(gb_plan_build(sel2, 2, sets, 3, 1, &plan), GB_OK);
    assert_int_equal(plan.n, 4);
    assert_string_equal(plan.items[1].axis_value[1], "flat");
    assert_string_equal(plan.items[1].axis_value[2], "4G");
    gb_plan_release(&plan);

    /* --quick takes the quick sweep. */
    assert_int_equal(gb_plan_build(sel, 1, NULL, 0, 1, &plan), GB_OK);
    assert_string_equal(plan.items[0].axis_value[2], "256M");
    gb_plan_release(&plan);
}

static void test_plan_errors(void **state)
{
    (void)state;
    struct gb_plan plan;
    const char *bad_suite[] = {"nosuch"};
    assert_int_equal(gb_plan_build(bad_suite, 1, NULL, 0, 0, &plan), GB_ERR_USAGE);
    assert_non_null(strstr(gb_error_message(), "unknown suite 'nosuch'"));
    assert_non_null(strstr(gb_error_message(), "bandwidth"));
    const char *bad_bench[] = {"bandwidth/nosuch"};
    assert_int_equal(gb_plan_build(bad_bench, 1, NULL, 0, 0, &plan), GB_ERR_USAGE);
    assert_non_null(strstr(gb_error_message(), "no benchmark 'nosuch'"));
    const char *sel[] = {"bandwidth/dtod"};
    const char *set_width[] = {"width=4"};
    assert_int_equal(gb_plan_build(sel, 1, set_width, 1, 0, &plan), GB_ERR_USAGE);
    assert_non_null(strstr(gb_error_message(), "--set width"));
    const char *set_bad[] = {"width=3"};
    const char *sel_all[] = {"bandwidth"};
    assert_int_equal(gb_plan_build(sel_all, 1, set_bad, 1, 0, &plan), GB_ERR_USAGE);
    assert_non_null(strstr(gb_error_message(), "out of range"));
    const char *set_grid[] = {"grid=diagonal"};
    assert_int_equal(gb_plan_build(sel_all, 1, set_grid, 1, 0, &plan), GB_ERR_USAGE);
    assert_non_null(strstr(gb_error_message(), "'diagonal' is not one of stride,flat"));
    const char *set_form[] = {"width"};
    assert_int_equal(gb_plan_build(sel_all, 1, set_form, 1, 0, &plan), GB_ERR_USAGE);
    assert_int_equal(plan.n, 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_axis_expand),
        cmocka_unit_test(test_plan_bandwidth),
        cmocka_unit_test(test_plan_errors),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
