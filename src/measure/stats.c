/* stats.c - summary statistics of timed samples and the stopping rule. */
#include <gsl/gsl_cdf.h>
#include <gsl/gsl_sort.h>
#include <gsl/gsl_statistics_double.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "gpubound/measure.h"

int gb_stats_median_ci_ranks(int n, int *lo, int *hi)
{
    /* The largest rank l with P(B <= l - 1) <= 0.025 for B ~ Binomial(n, 1/2):
     * then [x_(l), x_(n+1-l)] covers the median with probability >= 95%. */
    int l = 0;
    for (int k = 1; k <= n / 2; k++) {
        if (gsl_cdf_binomial_P((unsigned)(k - 1), 0.5, (unsigned)n) <= 0.025)
            l = k;
        else
            break;
    }
    if (l == 0)
        return 0;
    *lo = l;
    *hi = n + 1 - l;
    return 1;
}

enum gb_status gb_stats_compute(const double *x, int n, struct gb_sample_stats *out)
{
    memset(out, 0, sizeof *out);
    if (n < 1)
        return gb_error_set(GB_ERR_NUMERIC, "no samples");
    double *s = malloc((size_t)n * sizeof *s);
    if (!s)
        return gb_error_set(GB_ERR_NOMEM, "out of host memory");
    memcpy(s, x, (size_t)n * sizeof *s);
    gsl_sort(s, 1, (size_t)n);
    out->n = n;
    out->min = s[0];
    out->median = gsl_stats_median_from_sorted_data(s, 1, (size_t)n);
    out->mean = gsl_stats_mean(s, 1, (size_t)n);
    out->stddev = n > 1 ? gsl_stats_sd_m(s, 1, (size_t)n, out->mean) : 0.0;
    int lo, hi;
    if (gb_stats_median_ci_ranks(n, &lo, &hi)) {
        out->ci_lo = s[lo - 1];
        out->ci_hi = s[hi - 1];
        out->ci_exact = 1;
    } else {
        out->ci_lo = s[0];
        out->ci_hi = s[n - 1];
        out->ci_exact = 0;
    }
    free(s);
    return GB_OK;
}

int gb_stats_converged(const struct gb_sample_stats *s, double rel_ci)
{
    if (!s->ci_exact || !(s->median > 0))
        return 0;
    return (s->ci_hi - s->ci_lo) / 2.0 <= rel_ci * s->median;
}
