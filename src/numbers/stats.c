/* stats.c - the numbers floor (numbers.h): the median and the comparator,
 * the order statistics of a median, summary statistics of timed samples
 * and the stopping rule. */
#include <gsl/gsl_cdf.h>
#include <gsl/gsl_sort.h>
#include <gsl/gsl_statistics_double.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "gpubound/numbers.h"

int gb_stats_cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

double gb_stats_median_sorted(const double *sorted, size_t n)
{
    if (n == 0)
        return NAN;
    return n % 2 ? sorted[n / 2] : 0.5 * (sorted[n / 2 - 1] + sorted[n / 2]);
}

double gb_stats_median(double *v, size_t n)
{
    qsort(v, n, sizeof *v, gb_stats_cmp_double);
    return gb_stats_median_sorted(v, n);
}

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

/* The Harrell-Davis estimate of the median of the n sorted samples: the
 * mean of the order statistics weighted by the Beta((n+1)/2, (n+1)/2)
 * probability of each rank's slice of [0, 1]. Unlike the middle sample it
 * moves smoothly as samples are added, also where the times fall in two
 * bands (docs/measurement.md, "The median"). Ranks more than eight
 * standard deviations of the Beta from the middle weigh under 1e-15 and
 * are left out. */
double gb_stats_hd_median(const double *sorted, int n)
{
    if (n <= 2)
        return n == 1 ? sorted[0] : 0.5 * (sorted[0] + sorted[1]);
    double a = (n + 1) / 2.0, reach = 8.0 * n * sqrt(1.0 / (8.0 * a + 4.0)) + 2.0;
    int lo = (int)fmax(0.0, floor(n / 2.0 - reach)), hi = (int)fmin(n, ceil(n / 2.0 + reach));
    double sum = 0, wsum = 0, prev = gsl_cdf_beta_P((double)lo / n, a, a);
    for (int i = lo; i < hi; i++) {
        double next = gsl_cdf_beta_P((double)(i + 1) / n, a, a);
        sum += (next - prev) * sorted[i];
        wsum += next - prev;
        prev = next;
    }
    return sum / wsum;
}

/* The statistics of n samples; the median is the middle sample's (cheap:
 * the stopping rule's, chunk by chunk), or Harrell-Davis's (hd). */
static enum gb_status gb_stats_fill(const double *x, int n, int hd, struct gb_sample_stats *out)
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
    out->median = hd ? gb_stats_hd_median(s, n) : gb_stats_median_sorted(s, (size_t)n);
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
    /* The estimate stays inside its own interval. */
    out->median = fmin(fmax(out->median, out->ci_lo), out->ci_hi);
    free(s);
    return GB_OK;
}

enum gb_status gb_stats_compute(const double *x, int n, struct gb_sample_stats *out)
{
    return gb_stats_fill(x, n, 1, out);
}

enum gb_status gb_stats_progress(const double *x, int n, struct gb_sample_stats *out)
{
    return gb_stats_fill(x, n, 0, out);
}

int gb_stats_converged(const struct gb_sample_stats *s, double rel_ci)
{
    if (!s->ci_exact || !(s->median > 0))
        return 0;
    return (s->ci_hi - s->ci_lo) / 2.0 <= rel_ci * s->median;
}
