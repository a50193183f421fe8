/* Per-launch durations from the GPU's operation timestamps: flush kernels
 * left out, launches of several operations summed, counts that do not fit
 * the launches refused. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "gpu/cupti.h"
#include "measure/timer.h"

static void test_one_kernel_per_launch(void **state)
{
    (void)state;
    /* flush, 3 launches, flush: the flushes are not samples */
    const struct gb_gpu_op ops[] = {
        {0, 50000, 7, 'k', 1}, {60000, 61000, 7, 'k', 0}, {61200, 62300, 7, 'k', 0},
        {62500, 63700, 7, 'k', 0}, {70000, 120000, 7, 'k', 1}};
    double ns[3];
    assert_int_equal(gb_cupti_group(ops, 5, 3, ns, 3), GB_OK);
    assert_true(ns[0] == 1000.0 && ns[1] == 1100.0 && ns[2] == 1200.0);
}

static void test_two_ops_per_launch(void **state)
{
    (void)state;
    /* a launch = a kernel then a copy; the gap between them is not counted */
    const struct gb_gpu_op ops[] = {{100, 400, 1, 'k', 0}, {500, 600, 1, 'c', 0},
                                    {700, 1000, 1, 'k', 0}, {1100, 1250, 1, 'c', 0}};
    double ns[2];
    assert_int_equal(gb_cupti_group(ops, 4, 2, ns, 2), GB_OK);
    assert_true(ns[0] == 400.0);
    assert_true(ns[1] == 450.0);
}

static void test_counts_that_do_not_fit(void **state)
{
    (void)state;
    const struct gb_gpu_op ops[] = {{0, 10, 1, 'k', 0}, {20, 30, 1, 'k', 0}, {40, 50, 1, 'k', 0}};
    double ns[4];
    assert_int_equal(gb_cupti_group(ops, 3, 2, ns, 4), GB_ERR_CUDA); /* 3 operations, 2 launches */
    assert_int_equal(gb_cupti_group(ops, 3, 3, ns, 2), GB_ERR_CUDA); /* no room */
    assert_int_equal(gb_cupti_group(ops, 0, 1, ns, 4), GB_ERR_CUDA); /* nothing recorded */
}

static void test_profiler_ranges(void **state)
{
    (void)state;
    /* the profiler timer: one range per kernel, in launch order */
    const double one[] = {2368.0, 2400.0};
    const double two[] = {100.0, 40.0, 110.0, 50.0};
    double ns[4];
    assert_int_equal(gb_prof_timer_group(one, 2, 2, ns, 4), GB_OK);
    assert_true(ns[0] == 2368.0 && ns[1] == 2400.0);
    assert_int_equal(gb_prof_timer_group(two, 4, 2, ns, 4), GB_OK); /* two kernels a launch: summed */
    assert_true(ns[0] == 140.0 && ns[1] == 160.0);
    assert_int_equal(gb_prof_timer_group(two, 3, 2, ns, 4), GB_ERR_CUDA); /* a kernel missing */
    assert_int_equal(gb_prof_timer_group(two, 4, 2, ns, 1), GB_ERR_CUDA); /* no room */
    assert_int_equal(gb_prof_timer_group(two, 0, 1, ns, 4), GB_ERR_CUDA); /* nothing profiled */
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_one_kernel_per_launch),
        cmocka_unit_test(test_two_ops_per_launch),
        cmocka_unit_test(test_counts_that_do_not_fit),
        cmocka_unit_test(test_profiler_ranges),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
