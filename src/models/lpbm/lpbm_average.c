/* lpbm_average.c - the resources form's predictions averaged over the fits
 * the points cannot tell apart (docs/models.md, "Averaging the fits").
 *
 * One problem size often leaves a term's coefficient undecided: a term
 * hidden behind a larger one at every fitted point (the launch line behind
 * a kernel's memory time), or two terms that grow together there. Fits
 * that differ in it explain the points about equally well and can disagree
 * where the work changes (another problem size). Each alternative is the
 * fit at one overlap exponent, with every term or with one of its fitted
 * terms left out; its weight is exp(-BIC / 2), BIC = n ln(SSE / n) +
 * k ln n with SSE the weighted squared error and k its fitted terms (the
 * approximation to a model's posterior probability that Bayesian model
 * averaging uses). A prediction is the weighted geometric mean of the
 * alternatives' times (the fit is one of relative error), and a term's
 * share the weighted mean of its shares. */
#include <math.h>
#include <string.h>

#include "gpubound/lpbm.h"
#include "lpbm_internal.h"
#include "util/mix.h"

/* Weights under this fraction of the largest are left out of the average. */
#define GB_LPBM_ALT_NEGLIGIBLE 1e-6

static int fitted_terms(const struct gb_lpbm_fit *f)
{
    int k = 0;
    for (int j = 0; j < GB_LPBM_TERMS; j++)
        k += f->coef[j] > 0 && !(f->at_roof >> j & 1);
    return k;
}

/* The weighted squared error the measurements' own noise makes: each
 * time's 95% interval as 1.96 standard deviations either side, and at
 * least GB_LPBM_ALT_RESOLUTION of the time. No fit explains the points
 * better than that, so a smaller error counts as that (fits that all
 * explain the points to within their noise weigh the same but for their
 * terms). */
#define GB_LPBM_ALT_RESOLUTION 1e-4
static double noise_sse(const struct gb_lpbm_point *pts, size_t n, const double *w)
{
    double s = 0;
    for (size_t i = 0; i < n; i++) {
        double sd = fmax((pts[i].ci_hi_ns - pts[i].ci_lo_ns) / (2 * 1.96),
                         GB_LPBM_ALT_RESOLUTION * pts[i].time_ns);
        s += w[i] * (isfinite(sd) ? sd * sd : 0);
    }
    return s;
}

/* BIC of a fit of n points with weighted squared error sse (at least the
 * noise's, floor). */
static double bic(double sse, double floor, size_t n, int k)
{
    return (double)n * log(fmax(fmax(sse, floor), 1e-300) / (double)n) + k * log((double)n);
}

/* 1 when alternative a predicts as t does: the same terms at their roof
 * and coefficients, and the same overlap unless one term is fitted (a
 * term's p-norm alone is the term). */
static int same_fit(const struct gb_lpbm_alt *a, const struct gb_lpbm_fit *t)
{
    if (a->at_roof != t->at_roof || (a->overlap != t->overlap && fitted_terms(t) > 1))
        return 0;
    for (int j = 0; j < GB_LPBM_TERMS; j++)
        if (fabs(a->coef[j] - t->coef[j]) > 1e-9 * fmax(fabs(a->coef[j]), fabs(t->coef[j])))
            return 0;
    return 1;
}

/* Adds fit t as an alternative, its BIC in ->weight until weigh() runs. */
static void add(struct gb_lpbm_fit *out, const struct gb_lpbm_fit *t, int left_out, double crit)
{
    for (int k = 0; k < out->n_alt; k++)
        if (same_fit(&out->alt[k], t))
            return;
    if (out->n_alt >= GB_LPBM_ALTS)
        return;
    struct gb_lpbm_alt *a = &out->alt[out->n_alt++];
    memcpy(a->coef, t->coef, sizeof a->coef);
    a->at_roof = t->at_roof;
    a->overlap = t->overlap;
    a->left_out = left_out;
    a->weight = crit;
}

/* BICs to weights exp(-(BIC - BIC_min) / 2) summing to 1; the negligible
 * ones dropped. */
static void weigh(struct gb_lpbm_fit *out)
{
    double lo = INFINITY, sum = 0;
    int kept = 0;
    for (int k = 0; k < out->n_alt; k++)
        lo = fmin(lo, out->alt[k].weight);
    for (int k = 0; k < out->n_alt; k++) {
        double w = exp(-(out->alt[k].weight - lo) / 2);
        if (w >= GB_LPBM_ALT_NEGLIGIBLE) {
            out->alt[kept] = out->alt[k];
            out->alt[kept++].weight = w;
            sum += w;
        }
    }
    out->n_alt = kept;
    for (int k = 0; k < kept; k++)
        out->alt[k].weight /= sum;
}

enum gb_status gb_lpbm_average_fit(const struct gb_lpbm_point *pts, size_t n, const double *w,
                                   struct gb_lpbm_fit *out)
{
    static const double grid[] = GB_LPBM_OVERLAPS;
    enum gb_status st = GB_OK;
    double floor = noise_sse(pts, n, w);
    out->n_alt = 0;
    for (size_t g = 0; g < sizeof grid / sizeof grid[0] && st == GB_OK; g++) {
        struct gb_lpbm_fit full, t;
        double sse;
        if ((st = gb_lpbm_fit_without(pts, n, w, grid[g], -1, &full, &sse)) != GB_OK)
            break;
        add(out, &full, -1, bic(sse, floor, n, fitted_terms(&full)));
        for (int j = 0; j < GB_LPBM_TERMS && st == GB_OK; j++) {
            if (!(full.coef[j] > 0) || (full.at_roof >> j & 1))
                continue;
            if ((st = gb_lpbm_fit_without(pts, n, w, grid[g], j, &t, &sse)) == GB_OK)
                add(out, &t, j, bic(sse, floor, n, fitted_terms(&t)));
        }
    }
    if (st != GB_OK)
        out->n_alt = 0;
    else
        weigh(out);
    return st;
}

double gb_lpbm_average_predict(const struct gb_lpbm_fit *f, const struct gb_lpbm_point *p,
                               double terms[GB_LPBM_TERMS])
{
    double lt = 0, used = 0, share[GB_LPBM_TERMS] = {0}, tk[GB_LPBM_TERMS];
    for (int k = 0; k < f->n_alt; k++) {
        const struct gb_lpbm_alt *a = &f->alt[k];
        double t = gb_lpbm_predict_with(a->coef, f->floor, a->at_roof, a->overlap, p, tk);
        if (!(t > 0) || !isfinite(t))
            continue;
        lt += a->weight * log(t);
        used += a->weight;
        for (int j = 0; j < GB_LPBM_TERMS; j++)
            share[j] += a->weight * tk[j] / t;
    }
    if (!(used > 0))
        return gb_lpbm_predict_single(f, p, terms);
    double total = exp(lt / used);
    for (int j = 0; j < GB_LPBM_TERMS && terms; j++)
        terms[j] = total * share[j] / used;
    return total;
}

const struct gb_lpbm_alt *gb_lpbm_average_draw(const struct gb_lpbm_fit *f, uint64_t *rs)
{
    if (f->n_alt < 2)
        return f->n_alt ? &f->alt[0] : NULL;
    double x = (double)(gb_mix64_next(rs) >> 11) * 0x1.0p-53, c = 0;
    for (int k = 0; k < f->n_alt; k++)
        if (x < (c += f->alt[k].weight))
            return &f->alt[k];
    return &f->alt[f->n_alt - 1];
}

int gb_lpbm_average_order(const struct gb_lpbm_fit *f, int order[GB_LPBM_ALTS])
{
    for (int k = 0; k < f->n_alt; k++) {   /* insertion: a few dozen, stable */
        int i = k;
        while (i > 0 && f->alt[order[i - 1]].weight < f->alt[k].weight) {
            order[i] = order[i - 1];
            i--;
        }
        order[i] = k;
    }
    return f->n_alt;
}

int gb_lpbm_left_out(const struct gb_lpbm_fit *f)
{
    int order[GB_LPBM_ALTS];
    return gb_lpbm_average_order(f, order) > 0 ? f->alt[order[0]].left_out : -1;
}
