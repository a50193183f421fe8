/* nnls.c - Lawson-Hanson active-set non-negative least squares. */
#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_errno.h>
#include <gsl/gsl_linalg.h>
#include <gsl/gsl_matrix.h>
#include <gsl/gsl_permutation.h>
#include <gsl/gsl_vector.h>

#include "gpubound/nnls.h"

void gb_nnls_result_release(struct gb_nnls_result *r)
{
    if (!r)
        return;
    free(r->x);
    free(r->gradient);
    memset(r, 0, sizeof *r);
}

/* The working problem: the weighted system A' = W^(1/2) A, b' = W^(1/2) b,
 * column-major for cheap column access. */
struct nnls_work {
    size_t m, n;
    double *ac;       /* n columns of m */
    double *b;        /* m */
    double *r;        /* m residual b - A x */
    double *grad;     /* n gradient A^T r */
    double *z;        /* n trial solution on the passive set */
    double *col_norm; /* n column norms of A' */
    unsigned char *passive;
    size_t *pidx;     /* the passive columns, in the order of the current solve */
    double *x;        /* n current solution */
    unsigned char *blocked; /* n columns left out until the positive set changes */
};

static void compute_residual(const struct nnls_work *wk, const double *x)
{
    for (size_t i = 0; i < wk->m; i++) {
        long double s = wk->b[i];
        for (size_t j = 0; j < wk->n; j++)
            if (x[j] != 0)
                s -= (long double)wk->ac[j * wk->m + i] * x[j];
        wk->r[i] = (double)s;
    }
    for (size_t j = 0; j < wk->n; j++) {
        long double s = 0;
        for (size_t i = 0; i < wk->m; i++)
            s += (long double)wk->ac[j * wk->m + i] * wk->r[i];
        wk->grad[j] = (double)s;
    }
}

/* Unconstrained least squares on the passive columns: z_P minimizes
 * ||A_P z_P - b||, z elsewhere 0. Returns GB_ERR_NUMERIC if GSL fails. */
static enum gb_status solve_passive(struct nnls_work *wk)
{
    enum gb_status st = GB_OK;
    size_t k = 0;
    gsl_matrix *A = NULL;
    gsl_vector *tau_q = NULL, *tau_z = NULL, *work = NULL, *bv = NULL, *zv = NULL, *res = NULL;
    gsl_permutation *perm = NULL;
    size_t rank = 0;

    for (size_t j = 0; j < wk->n; j++) {
        wk->z[j] = 0;
        if (wk->passive[j])
            wk->pidx[k++] = j;
    }
    if (k == 0)
        return GB_OK;
    if (k > wk->m)
        return gb_error_set(GB_ERR_NUMERIC,
                            "nnls: %zu positive variables but only %zu equations", k, wk->m);
    A = gsl_matrix_alloc(wk->m, k);
    tau_q = gsl_vector_alloc(k);
    tau_z = gsl_vector_alloc(k);
    work = gsl_vector_alloc(k);
    bv = gsl_vector_alloc(wk->m);
    zv = gsl_vector_alloc(k);
    res = gsl_vector_alloc(wk->m);
    perm = gsl_permutation_alloc(k);
    if (!A || !tau_q || !tau_z || !work || !bv || !zv || !res || !perm) {
        st = gb_error_set(GB_ERR_NOMEM, "nnls: out of memory");
        goto out;
    }
    for (size_t c = 0; c < k; c++)
        for (size_t i = 0; i < wk->m; i++)
            gsl_matrix_set(A, i, c, wk->ac[wk->pidx[c] * wk->m + i]);
    for (size_t i = 0; i < wk->m; i++)
        gsl_vector_set(bv, i, wk->b[i]);
    /* The complete orthogonal decomposition gives the minimum-norm solution
     * when the passive columns are (numerically) dependent. */
    if (gsl_linalg_COD_decomp(A, tau_q, tau_z, perm, &rank, work) != GSL_SUCCESS ||
        gsl_linalg_COD_lssolve(A, tau_q, tau_z, perm, rank, bv, zv, res) != GSL_SUCCESS) {
        st = gb_error_set(GB_ERR_NUMERIC, "nnls: the least-squares solve on the positive set failed");
        goto out;
    }
    for (size_t c = 0; c < k; c++)
        wk->z[wk->pidx[c]] = gsl_vector_get(zv, c);
out:
    gsl_matrix_free(A);
    gsl_vector_free(tau_q);
    gsl_vector_free(tau_z);
    gsl_vector_free(work);
    gsl_vector_free(bv);
    gsl_vector_free(zv);
    gsl_vector_free(res);
    gsl_permutation_free(perm);
    return st;
}

static enum gb_status nnls_check_input(const double *a, size_t m, size_t n, const double *b,
                                       const double *w)
{
    if (m == 0 || n == 0 || !a || !b)
        return gb_error_set(GB_ERR_USAGE, "nnls: empty problem (%zu equations, %zu unknowns)", m, n);
    for (size_t i = 0; i < m; i++) {
        if (!isfinite(b[i]))
            return gb_error_set(GB_ERR_USAGE, "nnls: b[%zu] is not a finite number", i);
        if (w && (!isfinite(w[i]) || w[i] <= 0))
            return gb_error_set(GB_ERR_USAGE, "nnls: weight %zu is %g; weights must be finite and > 0",
                                i, w[i]);
        for (size_t j = 0; j < n; j++)
            if (!isfinite(a[i * n + j]))
                return gb_error_set(GB_ERR_USAGE, "nnls: A[%zu][%zu] is not a finite number", i, j);
    }
    return GB_OK;
}

static void nnls_work_free(struct nnls_work *wk)
{
    free(wk->ac);
    free(wk->b);
    free(wk->r);
    free(wk->grad);
    free(wk->z);
    free(wk->col_norm);
    free(wk->passive);
    free(wk->pidx);
    free(wk->x);
    free(wk->blocked);
    memset(wk, 0, sizeof *wk);
}

/* Allocates the working problem and fills the weighted system, its column
 * norms and *b_norm = |W^(1/2) b|. */
static enum gb_status nnls_work_init(struct nnls_work *wk, const double *a, size_t m, size_t n,
                                     const double *b, const double *w, double *b_norm)
{
    memset(wk, 0, sizeof *wk);
    wk->m = m;
    wk->n = n;
    wk->ac = malloc(m * n * sizeof *wk->ac);
    wk->b = malloc(m * sizeof *wk->b);
    wk->r = malloc(m * sizeof *wk->r);
    wk->grad = malloc(n * sizeof *wk->grad);
    wk->z = malloc(n * sizeof *wk->z);
    wk->col_norm = malloc(n * sizeof *wk->col_norm);
    wk->passive = calloc(n, 1);
    wk->pidx = malloc(n * sizeof *wk->pidx);
    wk->x = calloc(n, sizeof *wk->x);
    wk->blocked = calloc(n, 1);
    if (!wk->ac || !wk->b || !wk->r || !wk->grad || !wk->z || !wk->col_norm || !wk->passive ||
        !wk->pidx || !wk->x || !wk->blocked)
        return gb_error_set(GB_ERR_NOMEM, "nnls: out of memory for %zu x %zu", m, n);
    double bn = 0;
    for (size_t i = 0; i < m; i++) {
        double s = w ? sqrt(w[i]) : 1.0;
        wk->b[i] = s * b[i];
        bn += wk->b[i] * wk->b[i];
        for (size_t j = 0; j < n; j++)
            wk->ac[j * m + i] = s * a[i * n + j];
    }
    *b_norm = sqrt(bn);
    for (size_t j = 0; j < n; j++) {
        double s = 0;
        for (size_t i = 0; i < m; i++)
            s += wk->ac[j * m + i] * wk->ac[j * m + i];
        wk->col_norm[j] = sqrt(s);
    }
    return GB_OK;
}

/* The zero-set variable whose increase reduces the residual most, or n.
 * Largest gradient per unit column norm: the choice Lawson-Hanson would
 * make on the column-normalized problem, which has the same solution up to
 * a positive scaling of each x_j. */
static size_t nnls_pick(const struct nnls_work *wk, double tol)
{
    size_t t = wk->n;
    double best = 0;
    for (size_t j = 0; j < wk->n; j++) {
        if (wk->passive[j] || wk->blocked[j] || wk->col_norm[j] == 0 ||
            !(wk->grad[j] > tol * wk->col_norm[j]))
            continue;
        double g = wk->grad[j] / wk->col_norm[j];
        if (t == wk->n || g > best) {
            t = j;
            best = g;
        }
    }
    return t;
}

/* Steps back towards the previous x until every passive value is positive
 * again, dropping those that reach zero. */
static enum gb_status nnls_step_back(struct nnls_work *wk)
{
    enum gb_status st;
    const size_t n = wk->n;
    double *x = wk->x;
    for (int inner = 0;;) {
        double alpha = 2.0;
        size_t hit = n;
        for (size_t j = 0; j < n; j++) {
            if (wk->passive[j] && wk->z[j] <= 0) {
                double q = x[j] / (x[j] - wk->z[j]);
                if (q < alpha) {
                    alpha = q;
                    hit = j;
                }
            }
        }
        if (hit == n)
            return GB_OK;
        if (++inner > (int)n + 1)
            return gb_error_set(GB_ERR_NUMERIC, "nnls: the positive set did not settle");
        for (size_t j = 0; j < n; j++)
            if (wk->passive[j])
                x[j] += alpha * (wk->z[j] - x[j]);
        x[hit] = 0;
        for (size_t j = 0; j < n; j++) {
            if (wk->passive[j] && x[j] <= 0) {
                x[j] = 0;
                wk->passive[j] = 0;
            }
        }
        if ((st = solve_passive(wk)) != GB_OK)
            return st;
    }
}

/* The active-set iteration, until no zero-set variable can reduce the
 * residual (*iter: how many passive-set changes it took). */
static enum gb_status nnls_iterate(struct nnls_work *wk, double tol, int *iter)
{
    enum gb_status st;
    const size_t n = wk->n;
    const int max_iter = 3 * (int)n + 30;
    *iter = 0;
    compute_residual(wk, wk->x);
    for (;;) {
        size_t t = nnls_pick(wk, tol);
        if (t == n)
            break;
        if (++*iter > max_iter)
            return gb_error_set(GB_ERR_NUMERIC, "nnls: no convergence after %d iterations", max_iter);
        wk->passive[t] = 1;
        if ((st = solve_passive(wk)) != GB_OK)
            return st;
        if (!(wk->z[t] > 0)) {
            /* Rounding made the chosen direction useless (its column is
             * numerically in the span of the others): leave it at zero and
             * try the next best until the positive set changes. */
            wk->passive[t] = 0;
            wk->blocked[t] = 1;
            continue;
        }
        memset(wk->blocked, 0, n);
        if ((st = nnls_step_back(wk)) != GB_OK)
            return st;
        for (size_t j = 0; j < n; j++)
            wk->x[j] = wk->passive[j] ? wk->z[j] : 0.0;
        compute_residual(wk, wk->x);
    }
    compute_residual(wk, wk->x);
    return GB_OK;
}

/* The result's fit statistics; takes x and the gradient from `wk`. */
static void nnls_result(struct nnls_work *wk, const double *b, const double *w, double tol,
                        int iter, struct gb_nnls_result *out)
{
    const size_t m = wk->m, n = wk->n;
    long double rss = 0, sw = 0, swb = 0, sst = 0, ss0 = 0;
    for (size_t i = 0; i < m; i++) {
        long double wi = w ? w[i] : 1.0;
        rss += (long double)wk->r[i] * wk->r[i];
        sw += wi;
        swb += wi * b[i];
        ss0 += wi * b[i] * b[i];
    }
    long double mean = swb / sw;
    for (size_t i = 0; i < m; i++) {
        long double wi = w ? w[i] : 1.0;
        sst += wi * (b[i] - mean) * (b[i] - mean);
    }
    out->n_vars = n;
    out->x = wk->x;
    out->gradient = wk->grad;
    out->tol = tol;
    out->residual_norm = sqrt((double)rss);
    out->r2 = sst > 0 ? (double)(1.0L - rss / sst) : (rss == 0 ? 1.0 : 0.0);
    out->r2_uncentered = ss0 > 0 ? (double)(1.0L - rss / ss0) : (rss == 0 ? 1.0 : 0.0);
    out->iterations = iter;
    for (size_t j = 0; j < n; j++)
        out->n_positive += wk->x[j] > 0;
    wk->x = NULL;
    wk->grad = NULL;
}

enum gb_status gb_nnls_solve(const double *a, size_t m, size_t n, const double *b,
                             const double *w, struct gb_nnls_result *out)
{
    struct nnls_work wk;
    double b_norm = 0;
    int iter = 0;
    memset(out, 0, sizeof *out);
    memset(&wk, 0, sizeof wk);
    enum gb_status st = nnls_check_input(a, m, n, b, w);
    if (st != GB_OK)
        return st;
    gsl_error_handler_t *old_handler = gsl_set_error_handler_off();
    if ((st = nnls_work_init(&wk, a, m, n, b, w, &b_norm)) != GB_OK)
        goto out;
    /* A gradient entry is a column times the residual, so its rounding error
     * is a few ulps of |a_j| |b| per term: each column is judged against its
     * own norm, which keeps badly scaled columns (the breakdown model's
     * counts span decades) from hiding behind the largest one. */
    const double tol = 10.0 * DBL_EPSILON * (double)(m > n ? m : n) * b_norm;
    if ((st = nnls_iterate(&wk, tol, &iter)) == GB_OK)
        nnls_result(&wk, b, w, tol, iter, out);
out:
    nnls_work_free(&wk);
    gsl_set_error_handler(old_handler);
    return st;
}
