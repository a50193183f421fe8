/* tune_surrogate.c - the model strategy's surrogates: the breakdown
 * (lpbm.h) where it explains its data, and the fallback, a Gaussian
 * process over the axes' normalized levels (gpubound/tune.h). */
#include <gsl/gsl_blas.h>
#include <gsl/gsl_errno.h>
#include <gsl/gsl_linalg.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gpubound/tune.h"
#include "tune_internal.h"

/* ---- the Gaussian process ---- */

struct gb_gp {
    size_t n, cap;
    size_t *idx;                 /* the configurations fitted */
    double *alpha;               /* K^-1 (y - mean) */
    gsl_matrix *L;               /* Cholesky factor of K (lower) */
    double ymean, sf2;
    double ell[GB_TUNE_MAX_AXES]; /* per axis, in units of its range */
};

/* The length scales tried, in units of an axis's whole range. */
static const double gb_gp_ells[] = {0.1, 0.2, 0.35, 0.6, 1.0};
/* Per axis: the same and longer, up to an axis that hardly matters. */
static const double gb_gp_ard_ells[] = {0.1, 0.2, 0.35, 0.6, 1.0, 2.0, 5.0};

static double gb_gp_k(const struct gb_gp *g, const struct gb_tune_space *s, size_t i, size_t j)
{
    const double *ui = &s->u[i * (size_t)s->n_axes], *uj = &s->u[j * (size_t)s->n_axes];
    double d = 0;
    for (int a = 0; a < s->n_axes; a++) {
        double x = (ui[a] - uj[a]) / g->ell[a];
        d += x * x;
    }
    return g->sf2 * exp(-d / 2);
}

/* Factors K for length scales g->ell[] and solves for alpha; the log marginal
 * likelihood in *lml; GB_ERR_NUMERIC when K is not positive definite. */
static enum gb_status gb_gp_factor(struct gb_gp *g, const struct gb_tune_space *s, const double *y,
                                   const double *noise, double *lml)
{
    size_t n = g->n;
    for (size_t i = 0; i < n; i++)
        for (size_t j = 0; j <= i; j++) {
            double v = gb_gp_k(g, s, g->idx[i], g->idx[j]) + (i == j ? noise[i] + 1e-8 * g->sf2 : 0);
            gsl_matrix_set(g->L, i, j, v);
            gsl_matrix_set(g->L, j, i, v);
        }
    gsl_matrix_view L = gsl_matrix_submatrix(g->L, 0, 0, n, n);
    if (gsl_linalg_cholesky_decomp1(&L.matrix) != GSL_SUCCESS)
        return GB_ERR_NUMERIC;
    gsl_vector_view a = gsl_vector_view_array(g->alpha, n);
    for (size_t i = 0; i < n; i++)
        g->alpha[i] = y[i] - g->ymean;
    gsl_linalg_cholesky_svx(&L.matrix, &a.vector);
    double fit = 0, logdet = 0;
    for (size_t i = 0; i < n; i++) {
        fit += (y[i] - g->ymean) * g->alpha[i];
        logdet += log(gsl_matrix_get(&L.matrix, i, i));
    }
    *lml = -0.5 * fit - logdet;
    return GB_OK;
}

static void gb_gp_set_ell(struct gb_gp *g, double ell)
{
    for (int a = 0; a < GB_TUNE_MAX_AXES; a++)
        g->ell[a] = ell;
}

/* One length scale for every axis, the best of gb_gp_ells[] by marginal
 * likelihood; its log marginal likelihood, -INFINITY when none factors. */
static double gb_gp_fit_iso(struct gb_gp *g, const struct gb_tune_space *s, const double *y, const double *noise)
{
    double best = -INFINITY, best_ell = 0, lml;
    for (size_t e = 0; e < sizeof gb_gp_ells / sizeof gb_gp_ells[0]; e++) {
        gb_gp_set_ell(g, gb_gp_ells[e]);
        if (gb_gp_factor(g, s, y, noise, &lml) == GB_OK && lml > best) {
            best = lml;
            best_ell = gb_gp_ells[e];
        }
    }
    gb_gp_set_ell(g, best_ell);
    return best;
}

/* From the common length scale, each axis's own: passes over the axes,
 * each axis's scale the best of gb_gp_ard_ells[] by marginal likelihood
 * with the others held. */
static double gb_gp_fit_ard(struct gb_gp *g, const struct gb_tune_space *s, const double *y, const double *noise,
                            double best)
{
    double lml;
    for (int pass = 0; pass < 2; pass++)
        for (int a = 0; a < s->n_axes; a++) {
            if (s->n_levels[a] < 2)
                continue;
            double keep = g->ell[a];
            for (size_t e = 0; e < sizeof gb_gp_ard_ells / sizeof gb_gp_ard_ells[0]; e++) {
                g->ell[a] = gb_gp_ard_ells[e];
                if (gb_gp_factor(g, s, y, noise, &lml) == GB_OK && lml > best + 1e-9) {
                    best = lml;
                    keep = g->ell[a];
                }
            }
            g->ell[a] = keep;
        }
    return best;
}

/* y: log times of the ok observations; noise: the variance of each from
 * its interval; the mean and scale of the prior from the data. */
static size_t gb_gp_data(struct gb_gp *g, const struct gb_tune_obs *obs, size_t n, double *y, double *noise)
{
    size_t m = 0;
    double sum = 0, ss = 0;
    for (size_t i = 0; i < n; i++) {
        if (!obs[i].ok)
            continue;
        g->idx[m] = obs[i].idx;
        y[m] = log(obs[i].time_ns);
        double w = obs[i].lo_ns > 0 && obs[i].hi_ns > obs[i].lo_ns ? (log(obs[i].hi_ns) - log(obs[i].lo_ns)) / 3.92 : 0;
        noise[m] = w * w + 1e-6;
        sum += y[m];
        m++;
    }
    g->ymean = m ? sum / (double)m : 0;
    for (size_t i = 0; i < m; i++)
        ss += (y[i] - g->ymean) * (y[i] - g->ymean);
    g->sf2 = m > 1 ? ss / (double)(m - 1) : 1e-2;
    if (g->sf2 < 1e-6)
        g->sf2 = 1e-6;
    return m;
}

static enum gb_status gb_gp_grow(struct gb_gp *g, size_t n)
{
    if (n <= g->cap)
        return GB_OK;
    gsl_matrix_free(g->L);
    free(g->idx);
    free(g->alpha);
    g->idx = malloc(n * sizeof *g->idx);
    g->alpha = malloc(n * sizeof *g->alpha);
    g->L = gsl_matrix_alloc(n, n);
    g->cap = g->idx && g->alpha && g->L ? n : 0;
    return g->cap ? GB_OK : gb_error_set(GB_ERR_NOMEM, "out of host memory fitting the Gaussian process");
}

static enum gb_status gb_gp_fit(void *ctx, const struct gb_tune_space *s, const struct gb_tune_obs *obs, size_t n,
                                char *why, size_t why_n)
{
    struct gb_gp *g = ctx;
    double *y = malloc((n ? n : 1) * sizeof *y), *noise = malloc((n ? n : 1) * sizeof *noise);
    enum gb_status st = gb_gp_grow(g, n ? n : 1);
    double best, lml;
    gsl_error_handler_t *old = gsl_set_error_handler_off();
    if (st != GB_OK || !y || !noise) {
        st = gb_error_set(GB_ERR_NOMEM, "out of host memory fitting the Gaussian process");
        goto out;
    }
    if ((g->n = gb_gp_data(g, obs, n, y, noise)) < 2) {
        snprintf(why, why_n, "%zu configuration(s) measured, 2 needed", g->n);
        st = GB_ERR_NUMERIC;
        goto out;
    }
    best = gb_gp_fit_iso(g, s, y, noise);
    if (best > -INFINITY)
        best = gb_gp_fit_ard(g, s, y, noise, best);
    if (best == -INFINITY || gb_gp_factor(g, s, y, noise, &lml) != GB_OK) {
        snprintf(why, why_n, "the kernel matrix is singular at every length scale");
        st = GB_ERR_NUMERIC;
    }
out:
    gsl_set_error_handler(old);
    free(y);
    free(noise);
    return st;
}

static void gb_gp_predict(void *ctx, const struct gb_tune_space *s, size_t idx, double *mean, double *lo, double *hi)
{
    struct gb_gp *g = ctx;
    double *k = malloc(g->n * sizeof *k), mu = g->ymean, var = g->sf2;
    if (!k) {
        *mean = *lo = *hi = NAN;
        return;
    }
    for (size_t i = 0; i < g->n; i++) {
        k[i] = gb_gp_k(g, s, idx, g->idx[i]);
        mu += k[i] * g->alpha[i];
    }
    gsl_matrix_view L = gsl_matrix_submatrix(g->L, 0, 0, g->n, g->n);
    gsl_vector_view v = gsl_vector_view_array(k, g->n);
    gsl_blas_dtrsv(CblasLower, CblasNoTrans, CblasNonUnit, &L.matrix, &v.vector);
    for (size_t i = 0; i < g->n; i++)
        var -= k[i] * k[i];
    double sd = sqrt(var > 0 ? var : 0);
    *mean = exp(mu);
    *lo = exp(mu - 1.96 * sd);
    *hi = exp(mu + 1.96 * sd);
    free(k);
}

static void gb_gp_release(void *ctx)
{
    struct gb_gp *g = ctx;
    if (!g)
        return;
    gsl_matrix_free(g->L);
    free(g->idx);
    free(g->alpha);
    free(g);
}

void gb_tune_gp_scales(const struct gb_tune_surrogate *sur, double *ell, int n_axes)
{
    const struct gb_gp *g = sur->ctx;
    for (int a = 0; a < n_axes && a < GB_TUNE_MAX_AXES; a++)
        ell[a] = g->ell[a];
}

enum gb_status gb_tune_surrogate_gp(struct gb_tune_surrogate *out)
{
    struct gb_gp *g = calloc(1, sizeof *g);
    if (!g)
        return gb_error_set(GB_ERR_NOMEM, "out of host memory making the Gaussian process");
    *out = (struct gb_tune_surrogate){.name = "gaussian-process", .fit = gb_gp_fit, .predict = gb_gp_predict,
                                      .release = gb_gp_release, .ctx = g};
    return GB_OK;
}

/* ---- the breakdown ---- */

struct gb_lpbm_sur {
    gb_tune_lpbm_fn fn;
    void *fn_ctx;
    struct gb_lpbm_point *pts;   /* every configuration's inputs */
    size_t n;
    struct gb_lpbm_fit fit;
};

/* Every configuration's inputs; 0 (why) when one lacks them. */
static int gb_lpbm_sur_inputs(struct gb_lpbm_sur *m, const struct gb_tune_space *s, char *why, size_t why_n)
{
    if (m->n != s->n) {
        free(m->pts);
        m->n = 0;
        if (!(m->pts = calloc(s->n, sizeof *m->pts))) {
            snprintf(why, why_n, "out of host memory");
            return 0;
        }
        gb_error_clear();
        for (size_t i = 0; i < s->n; i++)
            if (!m->fn(m->fn_ctx, i, &m->pts[i])) {
                const char *because = gb_error_message();
                snprintf(why, why_n, "configuration %zu has no breakdown inputs (launch, counts)%s%.300s", i + 1,
                         because[0] ? ": " : " before it is measured", because);
                gb_error_clear();
                free(m->pts);
                m->pts = NULL;
                return 0;
            }
        m->n = s->n;
    }
    return 1;
}

static enum gb_status gb_lpbm_sur_fit(void *ctx, const struct gb_tune_space *s, const struct gb_tune_obs *obs,
                                      size_t n, char *why, size_t why_n)
{
    struct gb_lpbm_sur *m = ctx;
    if (!gb_lpbm_sur_inputs(m, s, why, why_n))
        return GB_ERR_UNSUPPORTED;
    struct gb_lpbm_point *fit_pts = calloc(n ? n : 1, sizeof *fit_pts);
    size_t k = 0;
    enum gb_status st = GB_OK;
    if (!fit_pts)
        return gb_error_set(GB_ERR_NOMEM, "out of host memory fitting the breakdown");
    for (size_t i = 0; i < n; i++)
        if (obs[i].ok) {
            fit_pts[k] = m->pts[obs[i].idx];
            fit_pts[k].time_ns = obs[i].time_ns;
            fit_pts[k].ci_lo_ns = obs[i].lo_ns;
            fit_pts[k++].ci_hi_ns = obs[i].hi_ns;
        }
    if (k < GB_LPBM_MIN_POINTS + 1) {
        snprintf(why, why_n, "%zu configuration(s) measured, %d needed", k, GB_LPBM_MIN_POINTS + 1);
        st = GB_ERR_UNSUPPORTED;
    } else if (gb_lpbm_fit(fit_pts, k, GB_LPBM_RELATIVE, 200, GB_LPBM_SEED, &m->fit) != GB_OK) {
        snprintf(why, why_n, "the fit failed: %.200s", gb_error_message());
        st = GB_ERR_NUMERIC;
    } else if (!(m->fit.median_abs_rel <= GB_TUNE_LPBM_MAX_REL) || !(m->fit.r2 >= GB_TUNE_LPBM_MIN_R2)) {
        snprintf(why, why_n, "it does not explain the measured times (R^2 %.3f, median error %.1f%%)", m->fit.r2,
                 100 * m->fit.median_abs_rel);
        st = GB_ERR_UNSUPPORTED;
    }
    free(fit_pts);
    return st;
}

static void gb_lpbm_sur_predict(void *ctx, const struct gb_tune_space *s, size_t idx, double *mean, double *lo,
                                double *hi)
{
    struct gb_lpbm_sur *m = ctx;
    const struct gb_lpbm_point *p = &m->pts[idx];
    double tl[GB_LPBM_TERMS], th[GB_LPBM_TERMS], rel = m->fit.median_abs_rel;
    (void)s;
    *mean = gb_lpbm_predict(&m->fit, p, NULL);
    for (int j = 0; j < GB_LPBM_TERMS; j++) {
        int on = m->fit.present[j];
        tl[j] = on ? (isfinite(m->fit.ci_lo[j]) ? m->fit.ci_lo[j] : m->fit.coef[j]) * p->x[j] : 0;
        th[j] = on ? (isfinite(m->fit.ci_hi[j]) ? m->fit.ci_hi[j] : m->fit.coef[j]) * p->x[j] : 0;
    }
    double l = gb_lpbm_overlap(m->fit.overlap, tl, GB_LPBM_TERMS);
    double h = gb_lpbm_overlap(m->fit.overlap, th, GB_LPBM_TERMS);
    *lo = fmin(l, *mean * (1 - rel));
    *hi = fmax(h, *mean * (1 + rel));
}

static void gb_lpbm_sur_release(void *ctx)
{
    struct gb_lpbm_sur *m = ctx;
    if (m)
        free(m->pts);
    free(m);
}

enum gb_status gb_tune_surrogate_lpbm(gb_tune_lpbm_fn fn, void *fn_ctx, struct gb_tune_surrogate *out)
{
    struct gb_lpbm_sur *m = calloc(1, sizeof *m);
    if (!m)
        return gb_error_set(GB_ERR_NOMEM, "out of host memory making the breakdown surrogate");
    m->fn = fn;
    m->fn_ctx = fn_ctx;
    *out = (struct gb_tune_surrogate){.name = "breakdown", .fit = gb_lpbm_sur_fit, .predict = gb_lpbm_sur_predict,
                                      .release = gb_lpbm_sur_release, .ctx = m};
    return GB_OK;
}
