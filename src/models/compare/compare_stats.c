/* compare_stats.c - the rank statistics of gb_cmp_samples (compare.h): the
 * Hodges-Lehmann shift of log times, its Moses interval and the Wilcoxon-
 * Mann-Whitney rank-sum test, as R's wilcox.test(y, x, conf.int = TRUE)
 * computes them on the logs (exact distribution for n, m < 50 without
 * ties; else the normal approximation with the tie correction).
 *
 * The n * m differences are never stored: the k-th smallest is found by
 * bisection over the shift, counting the differences below it in O(n + m)
 * on the sorted samples, so that points of thousands of samples compare
 * in little memory. */
#include <gsl/gsl_cdf.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "gpubound/compare.h"
#include "gpubound/numbers.h"

#define GB_CMP_EXACT_MAX 50

/* How many differences y_j - x_i are <= d (strict: < d). x, y sorted. */
static double gb_count_diffs(const double *x, int n, const double *y, int m, double d, int strict)
{
    double c = 0;
    int i = 0;
    /* For ascending y_j the bound y_j - d ascends: the x_i at or above it
     * (strict: above it) are a shrinking tail. */
    for (int j = 0; j < m; j++) {
        double b = y[j] - d;
        while (i < n && (strict ? x[i] <= b : x[i] < b))
            i++;
        c += n - i;
    }
    return c;
}

/* The smallest difference y_j - x_i above `lo` (x_i < y_j - lo), exactly
 * as the samples give it. */
static double gb_next_diff(const double *x, int n, const double *y, int m, double lo)
{
    double best = INFINITY;
    for (int j = 0; j < m; j++) {
        int a = 0, b = n; /* the first x_i >= y_j - lo */
        while (a < b) {
            int mid = a + (b - a) / 2;
            if (x[mid] < y[j] - lo)
                a = mid + 1;
            else
                b = mid;
        }
        if (a > 0)
            best = fmin(best, y[j] - x[a - 1]);
    }
    return best;
}

/* The k-th smallest (1-based) of the differences y_j - x_i. */
static double gb_kth_diff(const double *x, int n, const double *y, int m, double k)
{
    double lo = y[0] - x[n - 1], hi = y[m - 1] - x[0];
    /* Invariant: count(<= hi) >= k; lo is the smallest difference. */
    if (gb_count_diffs(x, n, y, m, lo, 0) >= k)
        return lo;
    for (int it = 0; it < 200 && hi - lo > 1e-14 * fmax(1.0, fabs(hi)); it++) {
        double mid = 0.5 * (lo + hi);
        if (mid <= lo || mid >= hi)
            break;
        if (gb_count_diffs(x, n, y, m, mid, 0) >= k)
            hi = mid;
        else
            lo = mid;
    }
    /* count(<= lo) < k <= count(<= hi): the k-th is the first one above lo. */
    double d = gb_next_diff(x, n, y, m, lo);
    return isfinite(d) && d <= hi ? d : hi;
}

/* The number of arrangements of n and m samples with each value of U
 * (0..nm): the coefficients of the Gaussian binomial [n+m, n]_q. NULL
 * when out of memory. */
static double *gb_u_counts(int n, int m)
{
    int deg = n * m;
    double *c = calloc((size_t)deg + (size_t)m + (size_t)n + 2, sizeof *c);
    if (!c)
        return NULL;
    c[0] = 1;
    int d = 0; /* the degree so far: [m+i, i]_q has degree i*m */
    for (int i = 1; i <= n; i++) {
        int a = m + i;
        for (int u = d + a; u >= a; u--) /* times (1 - q^a) */
            c[u] -= c[u - a];
        for (int u = i; u <= d + a; u++) /* divided by (1 - q^i) */
            c[u] += c[u - i];
        d += m;
    }
    return c;
}

/* P(U <= q) of the exact distribution, from the counts. */
static double gb_u_cdf(const double *c, int n, int m, double q)
{
    double tot = 0, below = 0;
    for (int u = 0; u <= n * m; u++) {
        tot += c[u];
        if (u <= q)
            below += c[u];
    }
    return below / tot;
}

double gb_cmp_exact_p(double u, int n, int m)
{
    if (n < 1 || m < 1 || n >= GB_CMP_EXACT_MAX || m >= GB_CMP_EXACT_MAX)
        return NAN;
    double *c = gb_u_counts(n, m);
    if (!c)
        return NAN;
    /* As R's wilcox.test: the tail on the side of the statistic, doubled. */
    double p = u > 0.5 * n * m ? 1.0 - gb_u_cdf(c, n, m, ceil(u) - 1) : gb_u_cdf(c, n, m, floor(u));
    free(c);
    return fmin(1.0, 2.0 * p);
}

/* The exact distribution's interval rank: the smallest q with P(U <= q)
 * >= alpha / 2 (R's qwilcox); 0 when even q = 0 reaches it. */
static int gb_exact_rank(int n, int m, double alpha, int *ok)
{
    double *c = gb_u_counts(n, m), tot = 0, cum = 0;
    int q = 0;
    *ok = 0;
    if (!c)
        return 0;
    for (int u = 0; u <= n * m; u++)
        tot += c[u];
    for (q = 0; q <= n * m; q++) {
        cum += c[q];
        if (cum / tot >= alpha / 2)
            break;
    }
    free(c);
    *ok = 1;
    return q;
}

/* The tie term sum(t^3 - t) of the pooled sorted samples. */
static double gb_tie_term(const double *x, int n, const double *y, int m, int *ties)
{
    double sum = 0;
    int i = 0, j = 0;
    *ties = 0;
    while (i < n || j < m) {
        double v = j >= m || (i < n && x[i] <= y[j]) ? x[i] : y[j];
        double t = 0;
        while (i < n && x[i] == v)
            i++, t++;
        while (j < m && y[j] == v)
            j++, t++;
        if (t > 1) {
            sum += t * t * t - t;
            *ties = 1;
        }
    }
    return sum;
}

/* U, the p-value and the interval rank k (1-based): exact or normal. */
static void gb_rank_test(const double *x, int n, const double *y, int m, double alpha,
                         struct gb_cmp_stat *s, double *k)
{
    double nm = (double)n * m;
    s->u = nm - gb_count_diffs(x, n, y, m, 0.0, 0) + 0.5 * (gb_count_diffs(x, n, y, m, 0.0, 0) -
                                                              gb_count_diffs(x, n, y, m, 0.0, 1));
    int ties, ok = 0;
    double tie = gb_tie_term(x, n, y, m, &ties);
    if (!ties && n < GB_CMP_EXACT_MAX && m < GB_CMP_EXACT_MAX) {
        int q = gb_exact_rank(n, m, alpha, &ok);
        if (ok) {
            s->method = GB_CMP_RANKS;
            s->p = gb_cmp_exact_p(s->u, n, m);
            s->few = q < 1;
            *k = q < 1 ? 1 : q;
            return;
        }
    }
    s->method = GB_CMP_RANKS_NORMAL;
    double N = (double)n + m;
    double sd = sqrt(nm / 12.0 * ((N + 1) - tie / (N * (N - 1))));
    double dev = s->u - nm / 2;
    double z = sd > 0 ? (dev - (dev > 0 ? 0.5 : dev < 0 ? -0.5 : 0)) / sd : 0;
    s->p = sd > 0 ? fmin(1.0, 2.0 * gsl_cdf_ugaussian_Q(fabs(z))) : 1.0;
    double c = floor(nm / 2 - gsl_cdf_ugaussian_Qinv(alpha / 2) * sd);
    s->few = c < 1;
    *k = c < 1 ? 1 : c;
}

/* Sorted logs of `v` into a new array; NULL (*st set) on a
 * value that is not positive or no memory. */
static double *gb_sorted_logs(const double *v, int n, enum gb_status *st)
{
    double *l = malloc((size_t)n * sizeof *l);
    if (!l) {
        *st = gb_error_set(GB_ERR_NOMEM, "out of host memory");
        return NULL;
    }
    for (int i = 0; i < n; i++) {
        if (!(v[i] > 0) || !isfinite(v[i])) {
            free(l);
            *st = gb_error_set(GB_ERR_USAGE, "a sample time of %g ns: comparing needs positive times", v[i]);
            return NULL;
        }
        l[i] = log(v[i]);
    }
    qsort(l, (size_t)n, sizeof *l, gb_stats_cmp_double);
    return l;
}

enum gb_status gb_cmp_samples(const double *x, int n, const double *y, int m, double alpha,
                              struct gb_cmp_stat *out)
{
    memset(out, 0, sizeof *out);
    if (n < 1 || m < 1)
        return gb_error_set(GB_ERR_USAGE, "comparing needs samples on both sides");
    enum gb_status st = GB_OK;
    double *lx = gb_sorted_logs(x, n, &st), *ly = lx ? gb_sorted_logs(y, m, &st) : NULL;
    if (!lx || !ly) {
        free(lx);
        return st;
    }
    double nm = (double)n * m, k;
    gb_rank_test(lx, n, ly, m, alpha, out, &k);
    /* Hodges-Lehmann: the median of the n * m differences. */
    double hl = fmod(nm, 2.0) == 1.0 ? gb_kth_diff(lx, n, ly, m, (nm + 1) / 2)
                                     : 0.5 * (gb_kth_diff(lx, n, ly, m, nm / 2) +
                                              gb_kth_diff(lx, n, ly, m, nm / 2 + 1));
    out->ratio = exp(hl);
    out->lo = exp(gb_kth_diff(lx, n, ly, m, k));
    out->hi = exp(gb_kth_diff(lx, n, ly, m, nm + 1 - k));
    free(lx);
    free(ly);
    return GB_OK;
}
