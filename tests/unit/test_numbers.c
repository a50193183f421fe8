/* The numbers floor (include/gpubound/numbers.h): the one comparator of
 * doubles and the one median every layer uses, against GSL's median of
 * sorted data and the middle sample of the samples' own statistics. */
#include <gsl/gsl_sort.h>
#include <gsl/gsl_statistics_double.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "gpubound/numbers.h"

static void test_cmp(void **state)
{
    (void)state;
    double a = 1.0, b = 2.0, n = NAN;
    assert_int_equal(gb_stats_cmp_double(&a, &b), -1);
    assert_int_equal(gb_stats_cmp_double(&b, &a), 1);
    assert_int_equal(gb_stats_cmp_double(&a, &a), 0);
    assert_int_equal(gb_stats_cmp_double(&n, &a), 0);
    double v[] = {3.5, -1.0, 2.0, 1e300, -1e-300, 0.0};
    qsort(v, 6, sizeof *v, gb_stats_cmp_double);
    for (int i = 1; i < 6; i++)
        assert_true(v[i - 1] <= v[i]);
    assert_true(v[0] == -1.0 && v[5] == 1e300);
}

static void test_median(void **state)
{
    (void)state;
    double odd[] = {5.0, 1.0, 3.0};
    double even[] = {4.0, 1.0, 3.0, 2.0};
    assert_true(isnan(gb_stats_median_sorted(odd, 0)));
    assert_true(isnan(gb_stats_median(odd, 0)));
    assert_true(gb_stats_median(odd, 3) == 3.0);
    assert_true(odd[0] == 1.0 && odd[2] == 5.0); /* sorted in place */
    assert_true(gb_stats_median(even, 4) == 2.5);
    assert_true(gb_stats_median_sorted(even, 1) == 1.0);
    assert_true(gb_stats_median_sorted(even, 2) == 1.5);
}

/* The same value, to the last bit, as GSL's median of the sorted data and
 * as the middle sample of gb_stats_progress, over many sizes. */
static void test_median_agrees(void **state)
{
    (void)state;
    unsigned long long s = 12345;
    double x[257], y[257];
    for (int n = 1; n <= 257; n += 7) {
        for (int i = 0; i < n; i++) {
            s = s * 6364136223846793005ULL + 1442695040888963407ULL;
            x[i] = 1000.0 + (double)(s >> 11) / 9007199254740992.0 * 37.0;
        }
        memcpy(y, x, (size_t)n * sizeof *y);
        struct gb_sample_stats st;
        assert_int_equal(gb_stats_progress(x, n, &st), GB_OK);
        gsl_sort(y, 1, (size_t)n);
        double want = gsl_stats_median_from_sorted_data(y, 1, (size_t)n);
        double got = gb_stats_median(x, (size_t)n);
        assert_memory_equal(&got, &want, sizeof got);
        assert_memory_equal(&st.median, &want, sizeof want); /* the middle lies inside its interval */
        assert_memory_equal(x, y, (size_t)n * sizeof *x);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_cmp),
        cmocka_unit_test(test_median),
        cmocka_unit_test(test_median_agrees),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
