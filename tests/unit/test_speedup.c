/* test_speedup.c - the speedup of two medians and its interval
 * (gb_speedup_ratio): values worked out by hand, the limits it must respect,
 * bad input, and the coverage of the interval in a simulation where the truth
 * is known. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "gpubound/speedup.h"
#include "test_rng.h"

static void test_worked_example(void **state)
{
    (void)state;
    struct gb_speedup sp;
    /* 200 [190, 210] over 100 [95, 105]: s = 2; both sides combine
     * ln(200/190) = 0.051293 and ln(105/100) = 0.048790 (and mirrored):
     * sqrt(0.051293^2 + 0.048790^2) = 0.0707918. */
    assert_int_equal(gb_speedup_ratio(200, 190, 210, 100, 95, 105, &sp), GB_OK);
    assert_true(fabs(sp.ratio - 2.0) < 1e-15);
    assert_true(fabs(sp.lo - 2.0 * exp(-0.0707918)) < 1e-6);
    assert_true(fabs(sp.hi - 2.0 * exp(0.0707918)) < 1e-6);
    assert_true(fabs(sp.lo - 1.863312) < 1e-5);
    assert_true(fabs(sp.hi - 2.146716) < 1e-5);
    assert_true(fabs(sp.lo_bound - 190.0 / 105) < 1e-15);
    assert_true(fabs(sp.hi_bound - 210.0 / 95) < 1e-15);
}

static void test_asymmetric_sides(void **state)
{
    (void)state;
    struct gb_speedup sp;
    /* Only the base's upper side and the improved's lower side are wide:
     * the ratio's interval is wide above and exact below. */
    assert_int_equal(gb_speedup_ratio(100, 100, 150, 50, 25, 50, &sp), GB_OK);
    assert_true(fabs(sp.ratio - 2.0) < 1e-15);
    assert_true(fabs(sp.lo - 2.0) < 1e-15);
    assert_true(fabs(sp.hi - 2.0 * exp(hypot(log(1.5), log(2.0)))) < 1e-12);
    /* One interval only: the ratio's relative interval is that one's. */
    assert_int_equal(gb_speedup_ratio(300, 270, 360, 100, 100, 100, &sp), GB_OK);
    assert_true(fabs(sp.lo - 2.7) < 1e-12);
    assert_true(fabs(sp.hi - 3.6) < 1e-12);
    assert_int_equal(gb_speedup_ratio(300, 300, 300, 100, 80, 125, &sp), GB_OK);
    assert_true(fabs(sp.lo - 2.4) < 1e-12);   /* 300 / 125 */
    assert_true(fabs(sp.hi - 3.75) < 1e-12);  /* 300 / 80 */
    /* No interval at all: a point. */
    assert_int_equal(gb_speedup_ratio(7, 7, 7, 2, 2, 2, &sp), GB_OK);
    assert_true(sp.lo == sp.ratio && sp.hi == sp.ratio);
}

static void test_inside_the_conservative_bound(void **state)
{
    (void)state;
    rng_state = 0x5eed5eed12345ull;
    for (int i = 0; i < 2000; i++) {
        double b = 1 + 1000 * rng_uniform(), n = 1 + 1000 * rng_uniform();
        double bl = b * (1 - 0.3 * rng_uniform()), bh = b * (1 + 0.3 * rng_uniform());
        double nl = n * (1 - 0.3 * rng_uniform()), nh = n * (1 + 0.3 * rng_uniform());
        struct gb_speedup sp;
        assert_int_equal(gb_speedup_ratio(b, bl, bh, n, nl, nh, &sp), GB_OK);
        assert_true(sp.lo_bound <= sp.lo * (1 + 1e-12));
        assert_true(sp.lo <= sp.ratio && sp.ratio <= sp.hi);
        assert_true(sp.hi <= sp.hi_bound * (1 + 1e-12));
        /* Speedup of the reverse pair: the reciprocal, interval mirrored. */
        struct gb_speedup rev;
        assert_int_equal(gb_speedup_ratio(n, nl, nh, b, bl, bh, &rev), GB_OK);
        assert_true(fabs(rev.ratio * sp.ratio - 1) < 1e-12);
        assert_true(fabs(rev.lo * sp.hi - 1) < 1e-12);
        assert_true(fabs(rev.hi * sp.lo - 1) < 1e-12);
    }
}

static void test_bad_input(void **state)
{
    (void)state;
    struct gb_speedup sp;
    assert_int_equal(gb_speedup_ratio(0, 0, 0, 1, 1, 1, &sp), GB_ERR_USAGE);
    assert_int_equal(gb_speedup_ratio(1, 1, 1, -1, -2, 1, &sp), GB_ERR_USAGE);
    assert_int_equal(gb_speedup_ratio(NAN, 1, 1, 1, 1, 1, &sp), GB_ERR_USAGE);
    assert_int_equal(gb_speedup_ratio(1, 1, INFINITY, 1, 1, 1, &sp), GB_ERR_USAGE);
    /* An interval that does not hold its median. */
    assert_int_equal(gb_speedup_ratio(10, 11, 12, 1, 1, 1, &sp), GB_ERR_USAGE);
    assert_int_equal(gb_speedup_ratio(10, 9, 11, 5, 1, 4, &sp), GB_ERR_USAGE);
}

/* The interval is meant to cover the true ratio 95% of the time when each
 * median's interval is a 95% interval of a log-normal estimate. Simulate
 * that: true times 3 and 2, each measured with its own log spread; the
 * interval of each measured median is m * exp(+-1.96 sigma). With 40000
 * trials the coverage's standard error is 0.11%; the plain interval
 * arithmetic bound must cover far more often than 95%. */
static void test_coverage(void **state)
{
    (void)state;
    rng_state = 0x0123456789abcdefull;
    const double tb = 3.0, ti = 2.0, truth = tb / ti;
    const double sig[][2] = {{0.01, 0.01}, {0.05, 0.002}, {0.002, 0.03}};
    for (size_t k = 0; k < sizeof sig / sizeof sig[0]; k++) {
        int n = 40000, hit = 0, hit_bound = 0;
        for (int i = 0; i < n; i++) {
            double b = tb * exp(sig[k][0] * rng_normal()), m = ti * exp(sig[k][1] * rng_normal());
            struct gb_speedup sp;
            assert_int_equal(gb_speedup_ratio(b, b * exp(-1.96 * sig[k][0]), b * exp(1.96 * sig[k][0]), m,
                                              m * exp(-1.96 * sig[k][1]), m * exp(1.96 * sig[k][1]), &sp),
                             GB_OK);
            hit += sp.lo <= truth && truth <= sp.hi;
            hit_bound += sp.lo_bound <= truth && truth <= sp.hi_bound;
        }
        double cov = (double)hit / n, cov_bound = (double)hit_bound / n;
        if (fabs(cov - 0.95) > 0.005)
            fail_msg("sigmas %g/%g: coverage %.4f, expected 0.95", sig[k][0], sig[k][1], cov);
        assert_true(cov_bound >= cov);
        if (sig[k][0] == sig[k][1])
            assert_true(cov_bound > 0.99);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_worked_example),
        cmocka_unit_test(test_asymmetric_sides),
        cmocka_unit_test(test_inside_the_conservative_bound),
        cmocka_unit_test(test_bad_input),
        cmocka_unit_test(test_coverage),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
