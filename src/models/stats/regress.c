/* regress.c - (weighted) linear least squares with inference, through GSL. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_cdf.h>
#include <gsl/gsl_errno.h>
#include <gsl/gsl_matrix.h>
#include <gsl/gsl_multifit.h>
#include <gsl/gsl_vector.h>

#include "gpubound/regress.h"

static char *dup_str(const char *s)
{
    size_t n = strlen(s) + 1;
    char *d = malloc(n);
    if (d)
        memcpy(d, s, n);
    return d;
}

static double *dup_doubles(const double *v, size_t n)
{
    double *d = malloc(n * sizeof *d);
    if (d)
        memcpy(d, v, n * sizeof *d);
    return d;
}

static void free_strings(char **s, size_t n)
{
    if (!s)
        return;
    for (size_t i = 0; i < n; i++)
        free(s[i]);
    free(s);
}

static int all_finite(const double *v, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (!isfinite(v[i]))
            return 0;
    return 1;
}

/* ---- the model ---- */

enum gb_status gb_regress_model_new(size_t n_obs, const double *y, struct gb_regress_model **out)
{
    enum gb_status st = GB_OK;
    struct gb_regress_model *m = NULL;
    *out = NULL;
    if (n_obs == 0 || !y)
        return gb_error_set(GB_ERR_USAGE, "regression: no observations");
    if (!all_finite(y, n_obs))
        return gb_error_set(GB_ERR_USAGE, "regression: the response has a value that is not a finite number");
    m = calloc(1, sizeof *m);
    if (!m || !(m->y = dup_doubles(y, n_obs))) {
        st = gb_error_set(GB_ERR_NOMEM, "regression: out of memory for %zu observations", n_obs);
        goto out;
    }
    m->n_obs = n_obs;
    m->intercept = 1;
    *out = m;
    m = NULL;
out:
    gb_regress_model_free(m);
    return st;
}

void gb_regress_model_free(struct gb_regress_model *m)
{
    if (!m)
        return;
    for (size_t j = 0; j < m->n_cols; j++)
        free(m->cols[j]);
    free(m->cols);
    free_strings(m->names, m->n_cols);
    free(m->y);
    free(m->w);
    free(m);
}

void gb_regress_model_set_intercept(struct gb_regress_model *m, int on)
{
    m->intercept = on ? 1 : 0;
}

enum gb_status gb_regress_model_set_weights(struct gb_regress_model *m, const double *w)
{
    double *copy = NULL;
    if (w) {
        for (size_t i = 0; i < m->n_obs; i++)
            if (!isfinite(w[i]) || w[i] <= 0)
                return gb_error_set(GB_ERR_USAGE,
                                    "regression: weight %zu is %g; weights must be finite and > 0",
                                    i, w[i]);
        if (!(copy = dup_doubles(w, m->n_obs)))
            return gb_error_set(GB_ERR_NOMEM, "regression: out of memory for weights");
    }
    free(m->w);
    m->w = copy;
    return GB_OK;
}

static int model_has(const struct gb_regress_model *m, const char *name)
{
    for (size_t j = 0; j < m->n_cols; j++)
        if (strcmp(m->names[j], name) == 0)
            return 1;
    return 0;
}

enum gb_status gb_regress_model_add(struct gb_regress_model *m, const char *name, const double *x)
{
    enum gb_status st = GB_OK;
    char *name_copy = NULL;
    double *col = NULL;
    if (!name || !*name || strcmp(name, GB_REGRESS_INTERCEPT) == 0)
        return gb_error_set(GB_ERR_USAGE, "regression: a predictor needs a name (not \"%s\")",
                            name ? name : "");
    if (model_has(m, name))
        return gb_error_set(GB_ERR_USAGE, "regression: predictor \"%s\" is already in the model", name);
    if (!x || !all_finite(x, m->n_obs))
        return gb_error_set(GB_ERR_USAGE,
                            "regression: predictor \"%s\" has a value that is not a finite number", name);
    name_copy = dup_str(name);
    col = dup_doubles(x, m->n_obs);
    char **names = realloc(m->names, (m->n_cols + 1) * sizeof *names);
    if (names)
        m->names = names;
    double **cols = realloc(m->cols, (m->n_cols + 1) * sizeof *cols);
    if (cols)
        m->cols = cols;
    if (!name_copy || !col || !names || !cols) {
        st = gb_error_set(GB_ERR_NOMEM, "regression: out of memory adding predictor \"%s\"", name);
        goto out;
    }
    m->names[m->n_cols] = name_copy;
    m->cols[m->n_cols] = col;
    m->n_cols++;
    name_copy = NULL;
    col = NULL;
out:
    free(name_copy);
    free(col);
    return st;
}

/* ---- dummy coding ---- */

static int parse_number(const char *s, double *v)
{
    char *end = NULL;
    if (!*s)
        return 0;
    *v = strtod(s, &end);
    return *end == '\0' && isfinite(*v);
}

void gb_regress_dummies_release(struct gb_regress_dummies *d)
{
    if (!d)
        return;
    for (size_t j = 0; j < d->n_cols; j++)
        free(d->cols[j]);
    free(d->cols);
    free_strings(d->names, d->n_cols);
    memset(d, 0, sizeof *d);
}

enum gb_status gb_regress_dummies_init(struct gb_regress_dummies *d, const char *prefix,
                                       const char *const *labels, size_t n_obs,
                                       const char *reference)
{
    enum gb_status st = GB_OK;
    const char **levels = NULL;
    size_t n_levels = 0;
    int numeric = 1, have_ref = 0;
    memset(d, 0, sizeof *d);
    if (!prefix)
        prefix = "";
    if (!reference)
        return gb_error_set(GB_ERR_USAGE, "dummy coding: no reference level given");
    levels = malloc((n_obs ? n_obs : 1) * sizeof *levels);
    if (!levels)
        return gb_error_set(GB_ERR_NOMEM, "dummy coding: out of memory");
    for (size_t i = 0; i < n_obs; i++) {
        size_t k;
        if (!labels[i]) {
            st = gb_error_set(GB_ERR_USAGE, "dummy coding: label %zu is missing", i);
            goto out;
        }
        if (strcmp(labels[i], reference) == 0) {
            have_ref = 1;
            continue;
        }
        for (k = 0; k < n_levels; k++)
            if (strcmp(levels[k], labels[i]) == 0)
                break;
        if (k == n_levels)
            levels[n_levels++] = labels[i];
    }
    if (!have_ref) {
        st = gb_error_set(GB_ERR_USAGE, "dummy coding: the reference level \"%s\" does not occur",
                          reference);
        goto out;
    }
    for (size_t k = 0; k < n_levels; k++) {
        double v;
        if (!parse_number(levels[k], &v))
            numeric = 0;
    }
    /* Insertion sort: there are few levels, and qsort has no context for
     * choosing between numeric and string order. */
    for (size_t k = 1; k < n_levels; k++) {
        const char *key = levels[k];
        size_t j = k;
        while (j > 0) {
            int before;
            if (numeric) {
                double a = 0, b = 0;
                parse_number(key, &a);
                parse_number(levels[j - 1], &b);
                before = a < b;
            } else {
                before = strcmp(key, levels[j - 1]) < 0;
            }
            if (!before)
                break;
            levels[j] = levels[j - 1];
            j--;
        }
        levels[j] = key;
    }
    d->n_obs = n_obs;
    if (n_levels) {
        d->names = calloc(n_levels, sizeof *d->names);
        d->cols = calloc(n_levels, sizeof *d->cols);
        if (!d->names || !d->cols) {
            st = gb_error_set(GB_ERR_NOMEM, "dummy coding: out of memory");
            goto out;
        }
    }
    for (size_t k = 0; k < n_levels; k++) {
        size_t len = strlen(prefix) + strlen(levels[k]) + 1;
        d->n_cols = k + 1;
        d->names[k] = malloc(len);
        d->cols[k] = calloc(n_obs ? n_obs : 1, sizeof(double));
        if (!d->names[k] || !d->cols[k]) {
            st = gb_error_set(GB_ERR_NOMEM, "dummy coding: out of memory");
            goto out;
        }
        memcpy(d->names[k], prefix, strlen(prefix));
        memcpy(d->names[k] + strlen(prefix), levels[k], strlen(levels[k]) + 1);
        for (size_t i = 0; i < n_obs; i++)
            d->cols[k][i] = strcmp(labels[i], levels[k]) == 0 ? 1.0 : 0.0;
    }
out:
    free(levels);
    if (st != GB_OK)
        gb_regress_dummies_release(d);
    return st;
}

enum gb_status gb_regress_model_add_categorical(struct gb_regress_model *m, const char *prefix,
                                                const char *const *labels,
                                                const char *reference)
{
    struct gb_regress_dummies d;
    enum gb_status st = gb_regress_dummies_init(&d, prefix, labels, m->n_obs, reference);
    if (st != GB_OK)
        return st;
    size_t before = m->n_cols;
    for (size_t j = 0; j < d.n_cols && st == GB_OK; j++)
        st = gb_regress_model_add(m, d.names[j], d.cols[j]);
    if (st != GB_OK) {
        /* All or nothing: take back the columns this call added. */
        while (m->n_cols > before) {
            m->n_cols--;
            free(m->names[m->n_cols]);
            free(m->cols[m->n_cols]);
        }
    }
    gb_regress_dummies_release(&d);
    return st;
}

/* ---- fitting ---- */

void gb_regress_fit_free(struct gb_regress_fit *f)
{
    if (!f)
        return;
    free_strings(f->names, f->n_coef);
    free(f->coef);
    free(f->se);
    free(f->t);
    free(f->p);
    free(f->fitted);
    free(f->residuals);
    free_strings(f->dropped, f->n_dropped);
    free(f->dropped_p);
    free(f);
}

int gb_regress_fit_index(const struct gb_regress_fit *f, const char *name)
{
    for (size_t j = 0; j < f->n_coef; j++)
        if (strcmp(f->names[j], name) == 0)
            return (int)j;
    return -1;
}

/* The GSL objects of one least-squares solve. */
struct ls_work {
    gsl_matrix *X, *cov;
    gsl_vector *y, *w, *c;
    gsl_multifit_linear_workspace *work;
};

static void ls_work_free(struct ls_work *lw)
{
    gsl_multifit_linear_free(lw->work);
    gsl_matrix_free(lw->X);
    gsl_matrix_free(lw->cov);
    gsl_vector_free(lw->y);
    gsl_vector_free(lw->w);
    gsl_vector_free(lw->c);
}

/* A fit of n observations and k coefficients, with its solver's storage;
 * NULL when out of memory (*lw is then still safe to free). */
static struct gb_regress_fit *fit_alloc(size_t n, size_t k, int icpt, struct ls_work *lw)
{
    struct gb_regress_fit *f = calloc(1, sizeof *f);
    memset(lw, 0, sizeof *lw);
    if (!f)
        return NULL;
    f->n_obs = n;
    f->intercept = icpt;
    f->names = calloc(k, sizeof *f->names);
    f->coef = calloc(k, sizeof(double));
    f->se = calloc(k, sizeof(double));
    f->t = calloc(k, sizeof(double));
    f->p = calloc(k, sizeof(double));
    f->fitted = calloc(n, sizeof(double));
    f->residuals = calloc(n, sizeof(double));
    lw->X = gsl_matrix_alloc(n, k);
    lw->cov = gsl_matrix_alloc(k, k);
    lw->y = gsl_vector_alloc(n);
    lw->w = gsl_vector_alloc(n);
    lw->c = gsl_vector_alloc(k);
    lw->work = gsl_multifit_linear_alloc(n, k);
    f->n_coef = k;
    if (!f->names || !f->coef || !f->se || !f->t || !f->p || !f->fitted || !f->residuals ||
        !lw->X || !lw->cov || !lw->y || !lw->w || !lw->c || !lw->work) {
        gb_regress_fit_free(f);
        return NULL;
    }
    return f;
}

/* The design matrix (the intercept first, then the used columns), the
 * response and the weights; the coefficients' names into f. 0, or -1 when
 * out of memory. */
static int fit_design(const struct gb_regress_model *m, const unsigned char *use,
                      struct gb_regress_fit *f, struct ls_work *lw)
{
    const size_t n = m->n_obs;
    size_t col = 0;
    if (f->intercept) {
        if (!(f->names[col] = dup_str(GB_REGRESS_INTERCEPT)))
            return -1;
        for (size_t i = 0; i < n; i++)
            gsl_matrix_set(lw->X, i, col, 1.0);
        col++;
    }
    for (size_t j = 0; j < m->n_cols; j++) {
        if (!use[j])
            continue;
        if (!(f->names[col] = dup_str(m->names[j])))
            return -1;
        for (size_t i = 0; i < n; i++)
            gsl_matrix_set(lw->X, i, col, m->cols[j][i]);
        col++;
    }
    for (size_t i = 0; i < n; i++) {
        gsl_vector_set(lw->y, i, m->y[i]);
        gsl_vector_set(lw->w, i, m->w ? m->w[i] : 1.0);
    }
    return 0;
}

/* Fitted values, residuals and the sums of squares, R^2 and RMSE: from the
 * residuals themselves, accumulated in long double, rather than GSL's chisq
 * from the rotated system. */
static void fit_sums(const struct gb_regress_model *m, const struct ls_work *lw,
                     struct gb_regress_fit *f)
{
    const size_t n = m->n_obs, k = f->n_coef, icpt = (size_t)f->intercept;
    long double sw = 0, swy = 0, sse = 0, sst = 0;
    for (size_t i = 0; i < n; i++) {
        long double fit = 0;
        for (size_t j = 0; j < k; j++)
            fit += (long double)gsl_matrix_get(lw->X, i, j) * gsl_vector_get(lw->c, j);
        f->fitted[i] = (double)fit;
        f->residuals[i] = (double)((long double)m->y[i] - fit);
        long double wi = m->w ? m->w[i] : 1.0;
        long double r = (long double)m->y[i] - fit;
        sse += wi * r * r;
        sw += wi;
        swy += wi * m->y[i];
    }
    long double center = icpt ? swy / sw : 0;
    for (size_t i = 0; i < n; i++) {
        long double wi = m->w ? m->w[i] : 1.0;
        long double d = (long double)m->y[i] - center;
        sst += wi * d * d;
    }
    f->df_model = (double)(k - icpt);
    f->df_resid = (double)(n - k);
    f->sse = (double)sse;
    f->sst = (double)sst;
    f->rmse = sqrt(f->sse / f->df_resid);
    if (f->sst > 0) {
        f->r2 = (double)(1.0L - sse / sst);
        f->adj_r2 = 1.0 - (1.0 - f->r2) * ((double)(n - icpt) / f->df_resid);
    } else {
        /* A constant response (about the centre): nothing to explain. */
        f->r2 = f->sse == 0 ? 1.0 : 0.0;
        f->adj_r2 = f->r2;
    }
}

/* Estimates, standard errors, t and p of each coefficient, with residual
 * variance s2. GB_ERR_NUMERIC for a non-finite estimate. */
static enum gb_status fit_coefs(struct gb_regress_fit *f, const struct ls_work *lw, double s2)
{
    for (size_t j = 0; j < f->n_coef; j++) {
        double b = gsl_vector_get(lw->c, j);
        double v = gsl_matrix_get(lw->cov, j, j);
        f->coef[j] = b;
        f->se[j] = sqrt(s2 * v);
        if (!isfinite(b) || !isfinite(f->se[j]))
            return gb_error_set(GB_ERR_NUMERIC,
                                "regression: coefficient \"%s\" came out as %g (standard error %g)",
                                f->names[j], b, f->se[j]);
        if (f->se[j] > 0) {
            f->t[j] = b / f->se[j];
            f->p[j] = 2.0 * gsl_cdf_tdist_Q(fabs(f->t[j]), f->df_resid);
        } else {
            /* A perfect fit: every estimate is exact. */
            f->t[j] = b == 0 ? 0.0 : copysign(INFINITY, b);
            f->p[j] = b == 0 ? 1.0 : 0.0;
        }
        if (f->p[j] > 1.0)
            f->p[j] = 1.0;
    }
    return GB_OK;
}

/* The overall F test, with residual variance s2. */
static void fit_ftest(struct gb_regress_fit *f, double s2)
{
    if (!(f->df_model > 0)) {
        f->f = 0.0;
        f->f_p = 1.0;
        return;
    }
    double ssr = f->sst - f->sse;
    if (ssr < 0)
        ssr = 0;
    if (f->sse > 0) {
        f->f = (ssr / f->df_model) / s2;
        f->f_p = gsl_cdf_fdist_Q(f->f, f->df_model, f->df_resid);
    } else {
        f->f = ssr > 0 ? INFINITY : 0.0;
        f->f_p = ssr > 0 ? 0.0 : 1.0;
    }
}

/* The number of coefficients a fit on `use` has, or an error when it
 * cannot be fitted with a residual degree of freedom. */
static enum gb_status fit_size(const struct gb_regress_model *m, const unsigned char *use,
                               size_t *k_out)
{
    size_t k = m->intercept ? 1 : 0;
    for (size_t j = 0; j < m->n_cols; j++)
        k += use[j] ? 1 : 0;
    *k_out = k;
    if (k == 0)
        return gb_error_set(GB_ERR_NUMERIC, "regression: nothing to fit (no intercept and no predictors)");
    if (m->n_obs <= k)
        return gb_error_set(GB_ERR_NUMERIC,
                            "regression: %zu observations cannot estimate %zu coefficients with any "
                            "residual degree of freedom; need at least %zu",
                            m->n_obs, k, k + 1);
    return GB_OK;
}

/* Fits the model on the predictor columns with use[j] != 0. */
static enum gb_status fit_subset(const struct gb_regress_model *m, const unsigned char *use,
                                 struct gb_regress_fit **out)
{
    gsl_error_handler_t *old_handler = gsl_set_error_handler_off();
    struct gb_regress_fit *f = NULL;
    struct ls_work lw;
    size_t k = 0, rank = 0;
    double chisq = 0;
    *out = NULL;
    memset(&lw, 0, sizeof lw);
    enum gb_status st = fit_size(m, use, &k);
    if (st != GB_OK)
        goto out;
    if (!(f = fit_alloc(m->n_obs, k, m->intercept ? 1 : 0, &lw)) || fit_design(m, use, f, &lw) != 0) {
        st = gb_error_set(GB_ERR_NOMEM, "regression: out of memory for %zu x %zu design", m->n_obs, k);
        goto out;
    }
    /* The weighted solver serves both cases: its covariance is the unscaled
     * (X^T W X)^-1, which is scaled below by the residual variance. */
    if (gsl_multifit_wlinear_tsvd(lw.X, lw.w, lw.y, GB_REGRESS_RANK_TOL, lw.c, lw.cov, &chisq,
                                  &rank, lw.work) != GSL_SUCCESS) {
        st = gb_error_set(GB_ERR_NUMERIC, "regression: the least-squares solve failed");
        goto out;
    }
    if (rank < k) {
        st = gb_error_set(GB_ERR_NUMERIC,
                          "regression: the design is rank deficient (rank %zu of %zu columns): "
                          "some predictors are linear combinations of others",
                          rank, k);
        goto out;
    }
    fit_sums(m, &lw, f);
    const double s2 = f->sse / f->df_resid;
    if ((st = fit_coefs(f, &lw, s2)) != GB_OK)
        goto out;
    fit_ftest(f, s2);
    *out = f;
    f = NULL;
out:
    gb_regress_fit_free(f);
    ls_work_free(&lw);
    gsl_set_error_handler(old_handler);
    return st;
}

enum gb_status gb_regress_fit(const struct gb_regress_model *m, struct gb_regress_fit **out)
{
    enum gb_status st;
    unsigned char *use = malloc(m->n_cols ? m->n_cols : 1);
    *out = NULL;
    if (!use)
        return gb_error_set(GB_ERR_NOMEM, "regression: out of memory");
    memset(use, 1, m->n_cols ? m->n_cols : 1);
    st = fit_subset(m, use, out);
    free(use);
    return st;
}

enum gb_status gb_regress_backward(const struct gb_regress_model *m, double p_remove,
                                   struct gb_regress_fit **out)
{
    enum gb_status st = GB_OK;
    struct gb_regress_fit *f = NULL;
    unsigned char *use = NULL;
    char **dropped = NULL;
    double *dropped_p = NULL;
    size_t n_dropped = 0;

    *out = NULL;
    if (!(p_remove > 0 && p_remove < 1))
        return gb_error_set(GB_ERR_USAGE, "backward elimination: the p-value threshold %g is not in (0, 1)",
                            p_remove);
    use = malloc(m->n_cols ? m->n_cols : 1);
    dropped = calloc(m->n_cols ? m->n_cols : 1, sizeof *dropped);
    dropped_p = calloc(m->n_cols ? m->n_cols : 1, sizeof *dropped_p);
    if (!use || !dropped || !dropped_p) {
        st = gb_error_set(GB_ERR_NOMEM, "backward elimination: out of memory");
        goto out;
    }
    memset(use, 1, m->n_cols ? m->n_cols : 1);
    for (;;) {
        gb_regress_fit_free(f);
        f = NULL;
        if ((st = fit_subset(m, use, &f)) != GB_OK)
            goto out;
        int worst = -1;
        for (size_t j = (size_t)f->intercept; j < f->n_coef; j++)
            if (worst < 0 || f->p[j] > f->p[worst])
                worst = (int)j;
        if (worst < 0 || !(f->p[worst] > p_remove))
            break;
        for (size_t j = 0; j < m->n_cols; j++) {
            if (use[j] && strcmp(m->names[j], f->names[worst]) == 0) {
                use[j] = 0;
                break;
            }
        }
        if (!(dropped[n_dropped] = dup_str(f->names[worst]))) {
            st = gb_error_set(GB_ERR_NOMEM, "backward elimination: out of memory");
            goto out;
        }
        dropped_p[n_dropped++] = f->p[worst];
    }
    f->dropped = dropped;
    f->dropped_p = dropped_p;
    f->n_dropped = n_dropped;
    dropped = NULL;
    dropped_p = NULL;
    *out = f;
    f = NULL;
out:
    gb_regress_fit_free(f);
    free_strings(dropped, n_dropped);
    free(dropped_p);
    free(use);
    return st;
}
