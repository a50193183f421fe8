/* lpbm_judge.c - the breakdown's honesty rule (gpubound/lpbm.h): whether a
 * fit explains its data, and when it does not, which configurations it
 * misses most and the most likely reason. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gpubound/lpbm.h"
#include "gpubound/numbers.h"

/* The error of point i: held out where there is one, else in sample. */
static double point_err(const struct gb_lpbm_fit *f, const struct gb_lpbm_holdout_result *h,
                        const struct gb_lpbm_point *p, size_t i)
{
    if (h && h->rel && isfinite(h->rel[i]))
        return h->rel[i];
    return (gb_lpbm_predict(f, p, NULL) - p->time_ns) / p->time_ns;
}

/* The three largest |errors|, largest first. */
static void worst_three(const struct gb_lpbm_fit *f, const struct gb_lpbm_holdout_result *h,
                        const struct gb_lpbm_point *pts, size_t n, struct gb_lpbm_verdict *v)
{
    v->n_worst = 0;
    for (size_t i = 0; i < n; i++) {
        double e = fabs(point_err(f, h, &pts[i], i));
        size_t k = v->n_worst < 3 ? v->n_worst++ : 3;
        while (k > 0 && fabs(point_err(f, h, &pts[v->worst[k - 1]], v->worst[k - 1])) < e) {
            if (k < 3)
                v->worst[k] = v->worst[k - 1];
            k--;
        }
        if (k < 3)
            v->worst[k] = i;
    }
}

/* Median of |x| over n values (scratch s). */
static double median_abs(const double *x, size_t n, double *s)
{
    for (size_t i = 0; i < n; i++)
        s[i] = fabs(x[i]);
    qsort(s, n, sizeof *s, gb_stats_cmp_double);
    return n ? (n % 2 ? s[n / 2] : (s[n / 2 - 1] + s[n / 2]) / 2) : NAN;
}

double gb_lpbm_camped_ratio(const struct gb_lpbm_point *pts, size_t n)
{
    double *s = malloc((n ? n : 1) * sizeof *s);
    size_t m = 0;
    for (size_t i = 0; s && i < n; i++)
        if (isfinite(pts[i].c_l2_slice_imbalance) && pts[i].c_l2_slice_imbalance > 0)
            s[m++] = pts[i].c_l2_slice_imbalance;
    double r = m ? median_abs(s, m, s) : NAN;
    free(s);
    return r;
}

/* The most likely reason, from the measured intervals, the L2 slices and the misses. */
static enum gb_lpbm_why reason(const struct gb_lpbm_fit *f, const struct gb_lpbm_holdout_result *h,
                               const struct gb_lpbm_point *pts, size_t n,
                               struct gb_lpbm_verdict *v, double *miss, double *spread)
{
    double *e = malloc(2 * (n ? n : 1) * sizeof *e), *s = e ? e + n : NULL;
    *miss = *spread = NAN;
    if (!e)
        return GB_LPBM_WHY_RESOURCE;
    for (size_t i = 0; i < n; i++)
        e[i] = point_err(f, h, &pts[i], i);
    *miss = median_abs(e, n, s);
    for (size_t i = 0; i < n; i++)
        e[i] = isfinite(pts[i].ci_hi_ns - pts[i].ci_lo_ns)
                   ? (pts[i].ci_hi_ns - pts[i].ci_lo_ns) / 2 / pts[i].time_ns : 0;
    *spread = median_abs(e, n, s);
    v->camped = gb_lpbm_camped_ratio(pts, n);
    free(e);
    /* misses no larger than twice the measurements' own half-width: noise */
    if (isfinite(*spread) && *miss <= 2 * *spread)
        return GB_LPBM_WHY_NOISE;
    if (v->camped >= GB_LPBM_CAMPED_MIN)
        return GB_LPBM_WHY_CAMPED;
    int same = v->n_worst >= 2;
    for (size_t k = 1; k < v->n_worst && same; k++) {
        const struct gb_lpbm_point *a = &pts[v->worst[0]], *b = &pts[v->worst[k]];
        same = strcmp(a->problem, b->problem) == 0 &&
               (point_err(f, h, a, v->worst[0]) > 0) == (point_err(f, h, b, v->worst[k]) > 0);
    }
    int problems = 0;
    for (size_t i = 1; i < n && !problems; i++)
        problems = strcmp(pts[i].problem, pts[0].problem) != 0;
    return same && problems ? GB_LPBM_WHY_REGIME : GB_LPBM_WHY_RESOURCE;
}

/* Which part of the rule fails, as a phrase, or NULL when none does. */
static const char *failed_test(const struct gb_lpbm_fit *f, const struct gb_lpbm_holdout_result *h,
                               char *buf, size_t bn)
{
    int any = 0, firm = 0;
    for (int j = 0; j < GB_LPBM_TERMS; j++) {
        any |= f->present[j] && f->coef[j] > 0;
        firm |= f->present[j] && f->coef[j] > 0 && !(f->ci_lo[j] <= 0);
    }
    if (!any)
        return "every term is absent or fitted at zero";
    if (f->r2 < GB_LPBM_R2_MIN) {
        snprintf(buf, bn, "R^2 %.3f is below %.2f", f->r2, GB_LPBM_R2_MIN);
        return buf;
    }
    if (h && h->n_test && h->median_abs_rel > GB_LPBM_HELD_MAX) {
        snprintf(buf, bn, "the held-out median error %.1f%% is above %.0f%%",
                 100 * h->median_abs_rel, 100 * GB_LPBM_HELD_MAX);
        return buf;
    }
    if (f->boot > 0 && !firm)
        return "every fitted coefficient's 95% interval reaches zero";
    return NULL;
}

void gb_lpbm_judge(const struct gb_lpbm_fit *f, const struct gb_lpbm_holdout_result *h,
                   const struct gb_lpbm_point *pts, size_t n, struct gb_lpbm_verdict *v)
{
    static const char *const why_text[] = {
        "", "the model has no term for what this kernel spends its time on",
        "noise: the misses are within twice the measured times' own 95% half-width",
        "a regime change: the largest misses share one problem size and one sign",
        "a resource without a term: the misses exceed the measured intervals and follow no single problem size",
        "L2 camping",
    };
    char buf[128];
    memset(v, 0, sizeof *v);
    v->explains = 1;
    const char *test = isnan(f->r2) ? NULL : failed_test(f, h, buf, sizeof buf);
    if (!test)
        return;
    double miss, spread;
    v->explains = 0;
    worst_three(f, h, pts, n, v);
    v->why = strcmp(test, "every term is absent or fitted at zero") == 0
                 ? GB_LPBM_WHY_NO_TERM : reason(f, h, pts, n, v, &miss, &spread);
    size_t len = (size_t)snprintf(v->text, sizeof v->text, "the model does not explain this kernel (%s); "
                                  "no term is named and no advice given. Missed most:", test);
    for (size_t k = 0; k < v->n_worst && len < sizeof v->text; k++) {
        const struct gb_lpbm_point *p = &pts[v->worst[k]];
        len += (size_t)snprintf(v->text + len, sizeof v->text - len, "%s %s%s%s (%+.0f%%)", k ? ";" : "",
                                p->config, p->problem[0] ? ", " : "", p->problem,
                                100 * point_err(f, h, p, v->worst[k]));
    }
    if (len < sizeof v->text && v->why == GB_LPBM_WHY_CAMPED)
        snprintf(v->text + len, sizeof v->text - len, ". Most likely reason: %s: the busiest L2 slice carries "
                 "%.1f times the mean slice's sectors (lts__t_sectors.max / .avg, the median over the "
                 "configurations), a cost the L2 term, which takes the busiest slice's sectors at one rate for "
                 "every configuration, does not follow; camp detect --from-run shows the slices.", why_text[v->why], v->camped);
    else if (len < sizeof v->text)
        snprintf(v->text + len, sizeof v->text - len, ". Most likely reason: %s.", why_text[v->why]);
}
