/* The NVTX ranges around each point: their names (the point's label, the
 * name ncu --nvtx-include filters on) and the build's choice to emit them. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <string.h>

#include <cmocka.h>

#include "gpubound/measure.h"
#include "gpubound/suite.h"
#include "measure/nvtx.h"
#include "measure/session_loop.h"

static const struct gb_bench bench = {.name = "read"};
static const struct gb_suite suite = {.name = "bandwidth", .benches = &bench, .n_benches = 1};

static struct gb_plan_item item(void)
{
    static char v0[] = "16", v1[] = "stride", v2[] = "2G";
    struct gb_plan_item it = {.suite = &suite, .bench = &bench, .n_axes = 3};
    it.axis_name[0] = "width";
    it.axis_name[1] = "grid";
    it.axis_name[2] = "bytes";
    it.axis_value[0] = v0;
    it.axis_value[1] = v1;
    it.axis_value[2] = v2;
    return it;
}

static void test_range_name(void **state)
{
    (void)state;
    char buf[200];
    struct gb_plan_item it = item();
    gb_session_point_label(&it, buf, sizeof buf);
    assert_string_equal(buf, "bandwidth/read width=16 grid=stride bytes=2G");
    it.n_axes = 0;
    gb_session_point_label(&it, buf, sizeof buf);
    assert_string_equal(buf, "bandwidth/read");
}

static void test_range_name_cut(void **state)
{
    (void)state;
    char buf[20];
    struct gb_plan_item it = item();
    memset(buf, 'x', sizeof buf);
    gb_session_point_label(&it, buf, sizeof buf);
    assert_int_equal(strlen(buf), sizeof buf - 1);   /* cut, terminated, no overrun */
    assert_memory_equal(buf, "bandwidth/read width", 19);
}

static void test_enabled_with_the_headers(void **state)
{
    (void)state;
#if defined(__has_include) && __has_include(<nvtx3/nvToolsExt.h>)
    assert_int_equal(gb_nvtx_enabled(), 1);
#else
    assert_int_equal(gb_nvtx_enabled(), 0);
#endif
    /* Without a tool attached the ranges cost nothing and nest. */
    gb_nvtx_push("bandwidth/read width=16");
    gb_nvtx_push("inner");
    gb_nvtx_pop();
    gb_nvtx_pop();
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_range_name),
        cmocka_unit_test(test_range_name_cut),
        cmocka_unit_test(test_enabled_with_the_headers),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
