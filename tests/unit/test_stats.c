/* Statistics of samples and the stopping rule. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "gpubound/measure.h"

static void test_median_ci_ranks(void **state)
{
    (void)state;
    int lo, hi;
    /* Binomial(n, 1/2) tables of distribution-free CIs for the median. */
    assert_false(gb_stats_median_ci_ranks(5, &lo, &hi));
    assert_true(gb_stats_median_ci_ranks(6, &lo, &hi));
    assert_int_equal(lo, 1);
    assert_int_equal(hi, 6);
    assert_true(gb_stats_median_ci_ranks(10, &lo, &hi));
    assert_int_equal(lo, 2);
    assert_int_equal(hi, 9);
    assert_true(gb_stats_median_ci_ranks(20, &lo, &hi));
    assert_int_equal(lo, 6);
    assert_int_equal(hi, 15);
    assert_true(gb_stats_median_ci_ranks(100, &lo, &hi));
    assert_int_equal(lo, 40);
    assert_int_equal(hi, 61);
}

static void test_summary(void **state)
{
    (void)state;
    double x[] = {5, 1, 4, 2, 3};
    struct gb_sample_stats s;
    assert_int_equal(gb_stats_compute(x, 5, &s), GB_OK);
    assert_int_equal(s.n, 5);
    assert_true(s.min == 1.0);
    assert_true(fabs(s.median - 3.0) < 1e-12);
    assert_true(fabs(s.mean - 3.0) < 1e-15);
    assert_true(fabs(s.stddev - sqrt(2.5)) < 1e-12);
    assert_false(s.ci_exact);
    assert_true(s.ci_lo == 1.0 && s.ci_hi == 5.0);
    /* The input is not reordered. */
    assert_true(x[0] == 5 && x[1] == 1);
    double even[] = {4, 1, 3, 2};
    assert_int_equal(gb_stats_compute(even, 4, &s), GB_OK);
    assert_true(fabs(s.median - 2.5) < 1e-12);
    assert_int_equal(gb_stats_compute(even, 0, &s), GB_ERR_NUMERIC);
}

/* Launches that alternate between two bands (an H100's cold 2.6 us
 * kernel): the middle sample jumps from one band to the other as one more
 * sample comes in, Harrell-Davis's median moves by a few ns, stays between
 * the bands, and still equals the middle sample on a one-band set. */
static void test_two_bands(void **state)
{
    (void)state;
    double x[22], sorted[22];
    struct gb_sample_stats odd, even, mid;
    for (int i = 0; i < 22; i++)
        x[i] = i % 2 ? 2752.0 : 2592.0;
    assert_int_equal(gb_stats_compute(x, 21, &odd), GB_OK);
    assert_int_equal(gb_stats_compute(x, 22, &even), GB_OK);
    assert_int_equal(gb_stats_progress(x, 21, &mid), GB_OK);
    assert_true(mid.median == 2592.0);
    assert_true(odd.median > 2640.0 && odd.median < 2700.0);
    assert_true(fabs(odd.median - even.median) < 20.0);
    for (int i = 0; i < 22; i++)
        sorted[i] = 1000.0 + i;
    assert_true(fabs(gb_stats_hd_median(sorted, 21) - 1010.0) < 1e-9);
    assert_true(fabs(gb_stats_hd_median(sorted, 1) - 1000.0) < 1e-12);
}

/* A deterministic generator, so the test asks the same question each time. */
static double lcg(uint64_t *s)
{
    *s = *s * 6364136223846793005ull + 1442695040888963407ull;
    return (double)(*s >> 11) / 9007199254740992.0;
}

static void test_stopping_rule(void **state)
{
    (void)state;
    double x[200];
    uint64_t seed = 42;
    struct gb_sample_stats s;
    /* +-0.1% jitter around 1000 ns: the CI of the median is well under 0.5%. */
    for (int i = 0; i < 50; i++)
        x[i] = 1000.0 * (1.0 + 0.002 * (lcg(&seed) - 0.5));
    assert_int_equal(gb_stats_compute(x, 50, &s), GB_OK);
    assert_true(s.ci_exact);
    assert_true(s.ci_lo <= s.median && s.median <= s.ci_hi);
    assert_true(gb_stats_converged(&s, 0.005));
    /* +-50% spread with 20 samples: far from 0.5%. */
    for (int i = 0; i < 20; i++)
        x[i] = 1000.0 * (1.0 + (lcg(&seed) - 0.5));
    assert_int_equal(gb_stats_compute(x, 20, &s), GB_OK);
    assert_false(gb_stats_converged(&s, 0.005));
    assert_true(gb_stats_converged(&s, 0.9));
    /* Too few samples for a 95% interval never converge. */
    assert_int_equal(gb_stats_compute(x, 5, &s), GB_OK);
    assert_false(gb_stats_converged(&s, 0.9));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_median_ci_ranks),
        cmocka_unit_test(test_two_bands),
        cmocka_unit_test(test_summary),
        cmocka_unit_test(test_stopping_rule),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
