/* test_ubench.c - the parts of suite ubench that need no GPU: the 184 block
 * shapes, the data sizes computed from a device's limits, the plan of the
 * full and quick sweeps, axis values and block sizes refused, and the
 * sampling policy the harness applies to its benches. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "gpubound/measure.h"
#include "suites/ubench.h"

/* A device like the H200 the suite is sized for: 132 SMs x 2048 threads. */
static void h200(struct gb_device_info *d)
{
    assert_int_equal(gb_device_from_cc(9, 0, d), GB_OK);
    d->sm_count = 132;
    assert_int_equal(d->max_threads_per_sm, 2048);
}

static int is_side(long n)
{
    /* 3 * 2^k with k >= 5 */
    if (n < 96 || n % 3)
        return 0;
    n /= 3;
    return (n & (n - 1)) == 0;
}

static void test_shapes(void **state)
{
    (void)state;
    int rows[400], cols[400];
    int n = gb_ubench_shapes(rows, cols, 400);
    assert_int_equal(n, 184);
    int full = 0, square = 0;
    for (int i = 0; i < n; i++) {
        assert_true(gb_ubench_shape_ok(rows[i], cols[i]));
        assert_true(rows[i] * cols[i] <= 1024);
        full += rows[i] * cols[i] == 1024;
        square += rows[i] == cols[i];
        for (int j = 0; j < i; j++)
            assert_false(rows[i] == rows[j] && cols[i] == cols[j]);
    }
    /* 1024 = 2^10: 11 shapes; squares 1, 2, 3, 4, 6, 8, 12, 16, 24, 32. */
    assert_int_equal(full, 11);
    assert_int_equal(square, 10);
    /* Every shape counted, but only as many written as asked for. */
    assert_int_equal(gb_ubench_shapes(rows, cols, 3), 184);
    assert_int_equal(rows[0], 1);
    assert_int_equal(cols[0], 1);
    assert_int_equal(cols[2], 3);
    assert_true(gb_ubench_shape_ok(1, 1024));
    assert_true(gb_ubench_shape_ok(3, 256));
    assert_false(gb_ubench_shape_ok(2, 1024));
    assert_false(gb_ubench_shape_ok(5, 4));
    assert_false(gb_ubench_shape_ok(4, 9));
    assert_false(gb_ubench_shape_ok(0, 4));
}

static void test_sizes_h200(void **state)
{
    (void)state;
    struct gb_device_info d;
    h200(&d);
    long mt = gb_ubench_max_resident(&d);
    assert_int_equal(mt, 270336);
    assert_int_equal(gb_ubench_side(&d, "small", GB_UBENCH_WRITE), 384);
    assert_int_equal(gb_ubench_side(&d, "small", GB_UBENCH_READ), 384);
    assert_int_equal(gb_ubench_side(&d, "medium", GB_UBENCH_OVERLOAD), 768);
    assert_int_equal(gb_ubench_side(&d, "large", GB_UBENCH_WRITE), 6144);
    assert_int_equal(gb_ubench_side(&d, "large", GB_UBENCH_OVERLOAD), 3072);
    assert_int_equal(gb_ubench_side(&d, "large", GB_UBENCH_READ), 1536);
    assert_int_equal(gb_ubench_side(&d, "huge", GB_UBENCH_READ), 0);
    assert_int_equal(gb_ubench_side(&d, NULL, GB_UBENCH_READ), 0);
}

/* The rules of ubench.h hold on devices of several sizes. */
static void test_sizes_rules(void **state)
{
    (void)state;
    static const int sms[] = {8, 46, 80, 108, 132, 148, 170};
    static const int factor[] = {128, 32, 8};
    for (size_t i = 0; i < sizeof sms / sizeof sms[0]; i++) {
        struct gb_device_info d;
        h200(&d);
        d.sm_count = sms[i];
        long mt = gb_ubench_max_resident(&d);
        long s = gb_ubench_side(&d, "small", GB_UBENCH_READ);
        long m = gb_ubench_side(&d, "medium", GB_UBENCH_READ);
        assert_true(is_side(s) && is_side(m));
        assert_true(s * s < mt);          /* below MT */
        assert_true((2 * s) * (2 * s) >= mt);
        assert_true(m * m > mt);          /* slightly above: the first side past MT */
        assert_true((m / 2) * (m / 2) <= mt);
        assert_true(m * m <= 4 * mt);
        for (int load = 0; load < 3; load++) {
            long l = gb_ubench_side(&d, "large", (enum gb_ubench_load)load);
            assert_true(is_side(l));
            assert_true(l * l >= factor[load] * mt);
            assert_true((l / 2) * (l / 2) < factor[load] * mt);
            assert_true(l > m);
            /* n * n is a multiple of every block size (pattern II, C tile exactly). */
            int rows[200], cols[200];
            int n = gb_ubench_shapes(rows, cols, 200);
            for (int k = 0; k < n; k++)
                assert_int_equal((l * l) % (rows[k] * cols[k]), 0);
        }
        /* No device without SM limits. */
        d.sm_count = 0;
        assert_int_equal(gb_ubench_side(&d, "small", GB_UBENCH_READ), 0);
    }
}

static void test_overload(void **state)
{
    (void)state;
    /* x -> x*x + k, 1000 times, mod 2^32: checked against an unrolled
     * formulation of the same recurrence, two steps at a time. */
    uint32_t x = 12345u, k = 0x9E3779B9u | 1u, y = x;
    for (int i = 0; i < 500; i++) {
        uint32_t t = y * y + k;
        y = t * t + k;
    }
    assert_int_equal(gb_ubench_overload(x, k), y);
    assert_true(gb_ubench_overload(x, k) != gb_ubench_overload(x + 1, k));
}

static size_t count_bench(const struct gb_plan *plan, const char *bench)
{
    size_t n = 0;
    for (size_t i = 0; i < plan->n; i++)
        n += strcmp(plan->items[i].bench->name, bench) == 0;
    return n;
}

static void test_plan(void **state)
{
    (void)state;
    struct gb_plan plan;
    const char *sel[] = {"ubench"};
    assert_int_equal(gb_plan_build(sel, 1, NULL, 0, 0, &plan), GB_OK);
    /* 17 benches x 184 shapes x 3 sizes x 3 carveouts. */
    assert_int_equal(plan.n, 17u * 184 * 3 * 3);
    assert_int_equal(count_bench(&plan, "ubench0"), 184 * 9);
    assert_int_equal(count_bench(&plan, "ubench14"), 184 * 9);
    assert_int_equal(count_bench(&plan, "cannon_direct"), 184 * 9);
    assert_int_equal(count_bench(&plan, "cannon_shifted"), 184 * 9);
    /* Axes: size and cache slowest (the shared buffers are made once per
     * size), then rows, then cols. */
    assert_int_equal(plan.n_axes, 4);
    assert_string_equal(plan.axes[0], "size");
    assert_string_equal(plan.axes[1], "cache");
    assert_string_equal(plan.axes[2], "rows");
    assert_string_equal(plan.axes[3], "cols");
    const struct gb_plan_item *it = &plan.items[0];
    assert_string_equal(it->axis_value[0], "small");
    assert_string_equal(it->axis_value[1], "min");
    assert_string_equal(it->axis_value[2], "1");
    assert_string_equal(it->axis_value[3], "1");
    it = &plan.items[183];
    assert_string_equal(it->axis_value[2], "1024");
    assert_string_equal(it->axis_value[3], "1");
    it = &plan.items[184];
    assert_string_equal(it->axis_value[1], "default");
    for (size_t i = 0; i < plan.n; i++) {
        struct gb_point p;
        gb_plan_point(&plan.items[i], 0, &p);
        assert_true(gb_ubench_shape_ok(gb_point_int(&p, "rows"), gb_point_int(&p, "cols")));
    }
    gb_plan_release(&plan);

    /* --quick: 7 shapes, every size (Cannon: small and medium), default carveout. */
    assert_int_equal(gb_plan_build(sel, 1, NULL, 0, 1, &plan), GB_OK);
    assert_int_equal(plan.n, 15u * 7 * 3 + 2u * 7 * 2);
    gb_plan_release(&plan);

    /* Split by carveout, as separate commands. */
    const char *set_min[] = {"cache=min"};
    assert_int_equal(gb_plan_build(sel, 1, set_min, 1, 0, &plan), GB_OK);
    assert_int_equal(plan.n, 17u * 184 * 3);
    gb_plan_release(&plan);

    /* A range keeps the swept dimensions it spans; too large blocks are left out. */
    const char *one[] = {"ubench/ubench1"};
    const char *sets[] = {"rows=1:8", "cols=256:1024", "size=small", "cache=max"};
    assert_int_equal(gb_plan_build(one, 1, sets, 4, 0, &plan), GB_OK);
    /* rows 1,2,3,4,6,8 x cols 256,384,512,768,1024 with rows*cols <= 1024:
     * 1: 5, 2: 3 (256, 384, 512), 3: 1, 4: 1 (256): 10 */
    assert_int_equal(plan.n, 10);
    gb_plan_release(&plan);
}

static void test_refused(void **state)
{
    (void)state;
    struct gb_plan plan;
    const char *sel[] = {"ubench"};
    const char *rows5[] = {"rows=5"};
    assert_int_equal(gb_plan_build(sel, 1, rows5, 1, 0, &plan), GB_ERR_USAGE);
    assert_non_null(strstr(gb_error_message(), "axis rows: 5 is not one of 1,2,3,4,6,8"));
    const char *big[] = {"rows=64", "cols=32"};
    assert_int_equal(gb_plan_build(sel, 1, big, 2, 0, &plan), GB_ERR_USAGE);
    assert_non_null(strstr(gb_error_message(), "no point to measure"));
    assert_non_null(strstr(gb_error_message(), "2048 threads exceeds 1024"));
    const char *size[] = {"size=huge"};
    assert_int_equal(gb_plan_build(sel, 1, size, 1, 0, &plan), GB_ERR_USAGE);
    assert_non_null(strstr(gb_error_message(), "'huge' is not one of small,medium,large"));
    const char *cache[] = {"cache=48K"};
    assert_int_equal(gb_plan_build(sel, 1, cache, 1, 0, &plan), GB_ERR_USAGE);
    const char *none[] = {"cols=9:11"};
    assert_int_equal(gb_plan_build(sel, 1, none, 1, 0, &plan), GB_ERR_USAGE);
    assert_non_null(strstr(gb_error_message(), "holds none of"));
    const char *over[] = {"cols=2048"};
    assert_int_equal(gb_plan_build(sel, 1, over, 1, 0, &plan), GB_ERR_USAGE);
    assert_non_null(strstr(gb_error_message(), "out of range"));
    assert_int_equal(plan.n, 0);
}

static void test_sampling_policy(void **state)
{
    (void)state;
    const struct gb_suite *s = gb_suite_find("ubench");
    assert_non_null(s);
    const struct gb_bench *b = gb_bench_find(s, "ubench3");
    assert_non_null(b);
    const struct gb_sample_policy *sp = &b->sampling;
    assert_true(sp->rel_ci > 0);
    assert_string_equal(b->share_by, "size");
    assert_non_null(b->share_setup);
    assert_non_null(b->admit);
    struct gb_measure_opts o, eff;
    gb_measure_opts_default(&o);
    gb_measure_opts_for(&o, b, &eff);
    assert_true(eff.rel_ci == sp->rel_ci);
    assert_true(eff.max_time_s == sp->max_time_s);
    assert_int_equal(eff.min_samples, sp->min_samples);
    assert_int_equal(eff.warmup_launches, sp->warmup_launches);
    assert_true(eff.batch_target_ns == sp->batch_target_ns);
    /* What the user gave on the command line wins. */
    o.rel_ci = 0.002;
    o.user_rel_ci = 1;
    o.max_time_s = 3;
    o.user_max_time = 1;
    gb_measure_opts_for(&o, b, &eff);
    assert_true(eff.rel_ci == 0.002);
    assert_true(eff.max_time_s == 3);
    /* Benches without a policy keep the options as given. */
    const struct gb_bench *bw = gb_bench_find(gb_suite_find("bandwidth"), "read");
    assert_true(bw->sampling.rel_ci == 0 && !bw->share_by && !bw->share_setup && !bw->admit);
    gb_measure_opts_default(&o);
    gb_measure_opts_for(&o, bw, &eff);
    assert_memory_equal(&o, &eff, sizeof o);
    /* An empty share releases nothing and stays empty. */
    struct gb_measure_share sh;
    memset(&sh, 0, sizeof sh);
    gb_measure_share_release(&sh);
    assert_null(sh.state);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_shapes),    cmocka_unit_test(test_sizes_h200), cmocka_unit_test(test_sizes_rules),
        cmocka_unit_test(test_overload),  cmocka_unit_test(test_plan),       cmocka_unit_test(test_refused),
        cmocka_unit_test(test_sampling_policy),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
