/* The median's confidence interval and the stopping rule, against values
 * computed here independently of GSL: exact binomial tails by integer
 * arithmetic, and hand-picked samples whose interval is known. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "gpubound/measure.h"

/* The rank l of docs/results-format.md: the largest l with
 * P(B <= l - 1) <= 0.025 for B ~ Binomial(n, 1/2), by exact counting
 * (sum of C(n, j) for j < l, against 0.025 * 2^n). 0: none. */
static int exact_rank(int n)
{
    uint64_t c = 1, sum = 0; /* C(n, 0) */
    double limit = 0.025 * (double)((uint64_t)1 << n);
    int l = 0;
    for (int k = 1; k <= n / 2; k++) {
        sum += c;                               /* sum of C(n, j), j <= k - 1 */
        if ((double)sum > limit)
            break;
        l = k;
        c = c * (uint64_t)(n - (k - 1)) / (uint64_t)k; /* C(n, k) */
    }
    return l;
}

static void test_ranks_n10(void **state)
{
    (void)state;
    int lo = 0, hi = 0;
    assert_true(gb_stats_median_ci_ranks(10, &lo, &hi));
    assert_int_equal(lo, 2); /* P(B <= 1) = 11/1024 <= 0.025 < P(B <= 2) = 56/1024 */
    assert_int_equal(hi, 9);
}

static void test_ranks_exact(void **state)
{
    (void)state;
    for (int n = 1; n <= 60; n++) {
        int lo = 0, hi = 0, l = exact_rank(n);
        int have = gb_stats_median_ci_ranks(n, &lo, &hi);
        if (l == 0) {
            assert_false(have);
            continue;
        }
        assert_true(have);
        assert_int_equal(lo, l);
        assert_int_equal(hi, n + 1 - l);
    }
    int lo, hi;
    assert_false(gb_stats_median_ci_ranks(5, &lo, &hi)); /* 2/32 > 0.025: too few */
    assert_true(gb_stats_median_ci_ranks(6, &lo, &hi));  /* 2/64 <= 0.025 */
    assert_int_equal(lo, 1);
    assert_int_equal(hi, 6);
}

/* Samples 1..10 in any order: the interval is [x(2), x(9)] = [2, 9]. */
static void test_interval_values(void **state)
{
    (void)state;
    double x[10] = {7, 3, 10, 1, 9, 2, 8, 5, 4, 6};
    struct gb_sample_stats s;
    assert_int_equal(gb_stats_compute(x, 10, &s), GB_OK);
    assert_true(s.ci_exact);
    assert_true(s.ci_lo == 2.0);
    assert_true(s.ci_hi == 9.0);
    assert_true(fabs(s.median - 5.5) < 1e-12);
    assert_true(s.min == 1.0);
}

/* Ten samples whose interval [x(2), x(9)] has width w around a median of
 * 1000: converged at rel_ci 0.01 exactly when the half width w/2 <= 10. */
static void stats_with_width(double w, struct gb_sample_stats *s)
{
    double x[10];
    for (int i = 0; i < 10; i++)
        x[i] = 1000.0 + (i - 4.5) * w / 7.0; /* x(2)..x(9) span 7 steps = w */
    assert_int_equal(gb_stats_compute(x, 10, s), GB_OK);
    assert_true(s->ci_hi - s->ci_lo > w * 0.999 && s->ci_hi - s->ci_lo < w * 1.001);
}

static void test_half_width_rule(void **state)
{
    (void)state;
    struct gb_sample_stats s;
    stats_with_width(15.0, &s); /* half width 7.5 <= 10; the full width 15 is not */
    assert_true(gb_stats_converged(&s, 0.01));
    stats_with_width(19.8, &s); /* half width 9.9 */
    assert_true(gb_stats_converged(&s, 0.01));
    stats_with_width(20.4, &s); /* half width 10.2 > 10 */
    assert_false(gb_stats_converged(&s, 0.01));
    stats_with_width(30.0, &s);
    assert_false(gb_stats_converged(&s, 0.01));
    double few[5] = {1000, 1000, 1000, 1000, 1000}; /* no 95% interval from 5 samples */
    assert_int_equal(gb_stats_compute(few, 5, &s), GB_OK);
    assert_false(gb_stats_converged(&s, 0.01));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_ranks_n10),
        cmocka_unit_test(test_ranks_exact),
        cmocka_unit_test(test_interval_values),
        cmocka_unit_test(test_half_width_rule),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
