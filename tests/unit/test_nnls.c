/* test_nnls.c - non-negative least squares: optimality conditions on random
 * problems, agreement with an exhaustive search over positive sets and with
 * unconstrained least squares, degenerate designs, and small cases worked by
 * hand.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_errno.h>
#include <gsl/gsl_matrix.h>
#include <gsl/gsl_multifit.h>
#include <gsl/gsl_vector.h>

#include "gpubound/nnls.h"
#include "test_rng.h"


/* sqrt(sum w (b - A x)^2), computed here independently of the solver. */
static double resid_norm(const double *a, size_t m, size_t n, const double *b, const double *w,
                         const double *x)
{
    long double s = 0;
    for (size_t i = 0; i < m; i++) {
        long double r = b[i];
        for (size_t j = 0; j < n; j++)
            r -= (long double)a[i * n + j] * x[j];
        s += (w ? w[i] : 1.0L) * r * r;
    }
    return sqrt((double)s);
}

/* Checks the Karush-Kuhn-Tucker conditions of the solution, with the
 * gradient g = A^T W (b - A x) recomputed here: x >= 0; g_j ~ 0 where
 * x_j > 0; g_j <= ~0 where x_j = 0. "~0" is 1e-10 |a_j| |b| (weighted
 * norms), column by column, so that a badly scaled small column is held to
 * its own scale. */
static void check_kkt(const double *a, size_t m, size_t n, const double *b, const double *w,
                      const struct gb_nnls_result *r, const char *what)
{
    double bn = 0;
    for (size_t i = 0; i < m; i++)
        bn += (w ? w[i] : 1.0) * b[i] * b[i];
    assert_int_equal((int)r->n_vars, (int)n);
    size_t npos = 0;
    for (size_t j = 0; j < n; j++) {
        long double g = 0;
        double cn = 0;
        for (size_t i = 0; i < m; i++) {
            long double res = b[i];
            for (size_t k = 0; k < n; k++)
                res -= (long double)a[i * n + k] * r->x[k];
            g += (w ? w[i] : 1.0L) * a[i * n + j] * res;
            cn += (w ? w[i] : 1.0) * a[i * n + j] * a[i * n + j];
        }
        double lim = 1e-10 * sqrt(cn) * sqrt(bn);
        if (!(r->x[j] >= 0))
            fail_msg("%s: x[%zu] = %g < 0", what, j, r->x[j]);
        if (r->x[j] > 0) {
            npos++;
            if (!(fabs((double)g) <= lim))
                fail_msg("%s: x[%zu] = %g > 0 but gradient %g (limit %g)", what, j, r->x[j],
                         (double)g, lim);
        } else if (!((double)g <= lim)) {
            fail_msg("%s: x[%zu] = 0 but gradient %g > %g: increasing it would help", what, j,
                     (double)g, lim);
        }
        /* The solver's own gradient agrees with the recomputed one. */
        if (!(fabs(r->gradient[j] - (double)g) <= lim))
            fail_msg("%s: reported gradient %g, recomputed %g", what, r->gradient[j], (double)g);
    }
    assert_int_equal((int)r->n_positive, (int)npos);
    double rn = resid_norm(a, m, n, b, w, r->x);
    if (!(fabs(rn - r->residual_norm) <= 1e-12 * (sqrt(bn) + 1e-300)))
        fail_msg("%s: residual norm %.17g, recomputed %.17g", what, r->residual_norm, rn);
}

/* Unconstrained weighted least squares of the columns in `mask` through
 * GSL's SVD solver (a different method from the solver's); returns the
 * residual norm, or INFINITY when the solution has a negative entry or the
 * subset is empty of equations. */
static double subset_ls(const double *a, size_t m, size_t n, const double *b, const double *w,
                        unsigned mask, double *x_out)
{
    size_t k = 0, cols[16];
    for (size_t j = 0; j < n; j++)
        if (mask & (1u << j))
            cols[k++] = j;
    for (size_t j = 0; j < n; j++)
        x_out[j] = 0;
    if (k == 0)
        return resid_norm(a, m, n, b, w, x_out);
    if (k > m)
        return INFINITY;
    gsl_matrix *X = gsl_matrix_alloc(m, k);
    gsl_matrix *cov = gsl_matrix_alloc(k, k);
    gsl_vector *y = gsl_vector_alloc(m), *wv = gsl_vector_alloc(m), *c = gsl_vector_alloc(k);
    gsl_multifit_linear_workspace *work = gsl_multifit_linear_alloc(m, k);
    double chisq;
    size_t rank;
    for (size_t i = 0; i < m; i++) {
        for (size_t q = 0; q < k; q++)
            gsl_matrix_set(X, i, q, a[i * n + cols[q]]);
        gsl_vector_set(y, i, b[i]);
        gsl_vector_set(wv, i, w ? w[i] : 1.0);
    }
    gsl_multifit_wlinear_tsvd(X, wv, y, 1e-12, c, cov, &chisq, &rank, work);
    double out = INFINITY;
    int ok = 1;
    for (size_t q = 0; q < k; q++) {
        x_out[cols[q]] = gsl_vector_get(c, q);
        if (x_out[cols[q]] < 0)
            ok = 0;
    }
    if (ok)
        out = resid_norm(a, m, n, b, w, x_out);
    gsl_multifit_linear_free(work);
    gsl_matrix_free(X);
    gsl_matrix_free(cov);
    gsl_vector_free(y);
    gsl_vector_free(wv);
    gsl_vector_free(c);
    return out;
}

/* Random problems of many shapes (over- and underdetermined, weighted or
 * not): the KKT conditions hold, and the residual equals the best over an
 * exhaustive search of positive sets. */
static void test_kkt_random(void **state)
{
    (void)state;
    gsl_set_error_handler_off();
    rng_state = 0x9e3779b97f4a7c15ull;
    int n_active_bound = 0, n_interior = 0;
    for (int trial = 0; trial < 600; trial++) {
        size_t m = 1 + (size_t)(rng_uniform() * 30);
        size_t n = 1 + (size_t)(rng_uniform() * 7);
        double a[31 * 8], b[31], w[31], xb[8];
        int weighted = trial % 3 == 0;
        for (size_t i = 0; i < m; i++) {
            for (size_t j = 0; j < n; j++)
                a[i * n + j] = rng_normal();
            b[i] = rng_normal() * 3;
            w[i] = 0.1 + rng_uniform() * 5;
        }
        /* Every tenth problem is badly scaled: columns over 12 decades. */
        if (trial % 10 == 5)
            for (size_t j = 0; j < n; j++)
                for (size_t i = 0; i < m; i++)
                    a[i * n + j] *= pow(10.0, (double)j * 12.0 / (double)n - 6.0);
        struct gb_nnls_result r;
        char what[64];
        snprintf(what, sizeof what, "trial %d (%zux%zu%s)", trial, m, n, weighted ? ", weighted" : "");
        enum gb_status st = gb_nnls_solve(a, m, n, b, weighted ? w : NULL, &r);
        if (st != GB_OK)
            fail_msg("%s: %s", what, gb_error_message());
        check_kkt(a, m, n, b, weighted ? w : NULL, &r, what);
        double best = INFINITY;
        for (unsigned mask = 0; mask < (1u << n); mask++) {
            double v = subset_ls(a, m, n, b, weighted ? w : NULL, mask, xb);
            if (v < best)
                best = v;
        }
        double bn = resid_norm(a, m, n, b, weighted ? w : NULL, (double[8]){0});
        if (!(fabs(r.residual_norm - best) <= 1e-9 * bn))
            fail_msg("%s: residual %.17g, exhaustive search %.17g", what, r.residual_norm, best);
        if (r.n_positive > 0 && r.n_positive < n)
            n_active_bound++;
        if (r.n_positive == n)
            n_interior++;
        gb_nnls_result_release(&r);
    }
    /* The random problems exercise both kinds of solution. */
    assert_true(n_active_bound > 100);
    assert_true(n_interior > 20);
}

/* When the unconstrained solution is already non-negative it is the answer. */
static void test_unconstrained_positive(void **state)
{
    (void)state;
    rng_state = 42;
    for (int trial = 0; trial < 50; trial++) {
        enum { M = 25, N = 5 };
        double a[M * N], b[M], w[M], x_ls[N];
        const double x_true[N] = {1.0, 2.5, 0.5, 4.0, 3.0};
        for (size_t i = 0; i < M; i++) {
            b[i] = 0;
            for (size_t j = 0; j < N; j++) {
                a[i * N + j] = rng_uniform() * 10;
                b[i] += a[i * N + j] * x_true[j];
            }
            b[i] += 0.01 * rng_normal();
            w[i] = 1 + rng_uniform();
        }
        const double *wp = trial % 2 ? w : NULL;
        double rn = subset_ls(a, M, N, b, wp, (1u << N) - 1, x_ls);
        assert_true(isfinite(rn)); /* all positive */
        struct gb_nnls_result r;
        assert_int_equal(gb_nnls_solve(a, M, N, b, wp, &r), GB_OK);
        assert_int_equal((int)r.n_positive, N);
        for (size_t j = 0; j < N; j++)
            if (!(fabs(r.x[j] - x_ls[j]) <= 1e-10 * fabs(x_ls[j])))
                fail_msg("trial %d x[%zu] = %.17g, least squares %.17g", trial, j, r.x[j], x_ls[j]);
        assert_true(fabs(r.residual_norm - rn) <= 1e-12 * rn);
        assert_true(r.r2 > 0.999);
        gb_nnls_result_release(&r);
    }
}

static void test_rank_deficient(void **state)
{
    (void)state;
    rng_state = 7;
    enum { M = 12, N = 5 };
    double a[M * N], b[M], xb[N];
    for (int trial = 0; trial < 40; trial++) {
        for (size_t i = 0; i < M; i++) {
            double u = rng_normal(), v = rng_normal();
            a[i * N + 0] = u;
            a[i * N + 1] = u;            /* duplicate of column 0 */
            a[i * N + 2] = v;
            a[i * N + 3] = u + 2 * v;    /* a combination */
            a[i * N + 4] = 0;            /* all zero */
            b[i] = (trial % 2 ? 1.0 : -0.5) * u + (trial % 4 < 2 ? 2.0 : -1.0) * v + 0.1 * rng_normal();
        }
        struct gb_nnls_result r;
        char what[32];
        snprintf(what, sizeof what, "rank-deficient %d", trial);
        assert_int_equal(gb_nnls_solve(a, M, N, b, NULL, &r), GB_OK);
        check_kkt(a, M, N, b, NULL, &r, what);
        assert_true(r.x[4] == 0);
        double best = INFINITY;
        for (unsigned mask = 0; mask < (1u << 4); mask++) {
            double v = subset_ls(a, M, N, b, NULL, mask, xb);
            if (v < best)
                best = v;
        }
        if (!(fabs(r.residual_norm - best) <= 1e-10 * (best + 1)))
            fail_msg("%s: residual %.17g, exhaustive %.17g", what, r.residual_norm, best);
        gb_nnls_result_release(&r);
    }

    /* All of A zero: x = 0 and the residual is |b|. */
    double z[3 * 2] = {0}, bz[3] = {1, -2, 2};
    struct gb_nnls_result r;
    assert_int_equal(gb_nnls_solve(z, 3, 2, bz, NULL, &r), GB_OK);
    assert_true(r.x[0] == 0 && r.x[1] == 0);
    assert_true(fabs(r.residual_norm - 3.0) < 1e-15);
    assert_int_equal((int)r.n_positive, 0);
    gb_nnls_result_release(&r);
}

/* Small problems solved by hand. */
static void test_hand_cases(void **state)
{
    (void)state;
    struct gb_nnls_result r;

    /* A = I, b = (1, -1): the negative component is clipped. */
    const double eye[] = {1, 0, 0, 1}, b1[] = {1, -1};
    assert_int_equal(gb_nnls_solve(eye, 2, 2, b1, NULL, &r), GB_OK);
    assert_true(fabs(r.x[0] - 1) < 1e-15 && r.x[1] == 0);
    assert_true(fabs(r.residual_norm - 1) < 1e-15);
    gb_nnls_result_release(&r);

    /* Consistent system with a positive solution (2, 1): zero residual. */
    const double a2[] = {1, 0, 0, 1, 1, 1}, b2[] = {2, 1, 3};
    assert_int_equal(gb_nnls_solve(a2, 3, 2, b2, NULL, &r), GB_OK);
    assert_true(fabs(r.x[0] - 2) < 1e-14 && fabs(r.x[1] - 1) < 1e-14);
    assert_true(r.residual_norm < 1e-14);
    assert_true(fabs(r.r2 - 1) < 1e-14);
    gb_nnls_result_release(&r);

    /* Intercept and slope on (1,3), (2,2), (3,1): least squares wants slope
     * -1; constrained, the slope is 0 and the intercept the mean 2, with
     * residuals (1, 0, -1) (the other vertex, x = (0, 5/7), leaves 336/49). */
    const double a3[] = {1, 1, 1, 2, 1, 3}, b3[] = {3, 2, 1};
    assert_int_equal(gb_nnls_solve(a3, 3, 2, b3, NULL, &r), GB_OK);
    assert_true(fabs(r.x[0] - 2) < 1e-14 && r.x[1] == 0);
    assert_true(fabs(r.residual_norm - sqrt(2.0)) < 1e-14);
    assert_true(fabs(r.gradient[1] - (-2.0)) < 1e-13); /* 1*1 + 2*0 + 3*(-1) */
    assert_true(fabs(r.r2 - 0.0) < 1e-14);              /* no better than the mean */
    assert_true(fabs(r.r2_uncentered - (1 - 2.0 / 14.0)) < 1e-14);
    gb_nnls_result_release(&r);

    /* One unknown, negative data: x = 0, residual |b| = sqrt(5). */
    const double a4[] = {1, 1}, b4[] = {-1, -2};
    assert_int_equal(gb_nnls_solve(a4, 2, 1, b4, NULL, &r), GB_OK);
    assert_true(r.x[0] == 0);
    assert_true(fabs(r.residual_norm - sqrt(5.0)) < 1e-15);
    gb_nnls_result_release(&r);

    /* Weighted mean: w = (3, 1), b = (1, 3) gives x = 6/4 and residual
     * sqrt(3 * 0.25 + 1 * 2.25) = sqrt(3). */
    const double w5[] = {3, 1}, b5[] = {1, 3};
    assert_int_equal(gb_nnls_solve(a4, 2, 1, b5, w5, &r), GB_OK);
    assert_true(fabs(r.x[0] - 1.5) < 1e-15);
    assert_true(fabs(r.residual_norm - sqrt(3.0)) < 1e-14);
    gb_nnls_result_release(&r);

    /* The breakdown model's shape: time = a1*PUT + a2*G2ST + a3*S2PT with
     * known non-negative a (one of them zero) is recovered exactly. */
    const double put[] = {1e6, 2e6, 3e6, 4e6, 5e6, 6e6, 7e6};
    const double g2st[] = {3e5, 1e5, 5e5, 2e5, 9e5, 4e5, 8e5};
    const double s2pt[] = {2e4, 7e4, 1e4, 9e4, 3e4, 6e4, 5e4};
    double a6[7 * 3], t6[7];
    for (int i = 0; i < 7; i++) {
        a6[i * 3 + 0] = put[i];
        a6[i * 3 + 1] = g2st[i];
        a6[i * 3 + 2] = s2pt[i];
        t6[i] = 2.5e-9 * put[i] + 0.0 * g2st[i] + 4e-8 * s2pt[i];
    }
    assert_int_equal(gb_nnls_solve(a6, 7, 3, t6, NULL, &r), GB_OK);
    assert_true(fabs(r.x[0] - 2.5e-9) < 1e-20);
    assert_true(fabs(r.x[1]) < 1e-20);
    assert_true(fabs(r.x[2] - 4e-8) < 1e-19);
    assert_true(r.r2 > 1 - 1e-12);
    gb_nnls_result_release(&r);
}

/* Columns nine decades apart in scale (bytes next to a small count): the
 * small column's gradient is tiny in absolute terms but must still be
 * judged against its own scale, or its coefficient is left at zero. */
static void test_badly_scaled(void **state)
{
    (void)state;
    enum { M = 9 };
    double a[M * 2], b[M];
    rng_state = 99;
    for (int i = 0; i < M; i++) {
        a[i * 2 + 0] = 1e9 * (1 + rng_uniform());
        a[i * 2 + 1] = 1e-3 * (1 + rng_uniform());
        b[i] = 2e-9 * a[i * 2 + 0] + 5.0 * a[i * 2 + 1];
    }
    struct gb_nnls_result r;
    assert_int_equal(gb_nnls_solve(a, M, 2, b, NULL, &r), GB_OK);
    check_kkt(a, M, 2, b, NULL, &r, "badly scaled");
    if (!(fabs(r.x[0] - 2e-9) < 1e-9 * 2e-9 && fabs(r.x[1] - 5.0) < 1e-6))
        fail_msg("badly scaled: x = (%.17g, %.17g), want (2e-9, 5)", r.x[0], r.x[1]);
    gb_nnls_result_release(&r);
}

static void test_bad_input(void **state)
{
    (void)state;
    struct gb_nnls_result r;
    const double a[] = {1, 2}, b[] = {1, 2}, w0[] = {1, 0};
    const double bn[] = {1, NAN};
    assert_int_equal(gb_nnls_solve(a, 0, 1, b, NULL, &r), GB_ERR_USAGE);
    assert_int_equal(gb_nnls_solve(a, 2, 0, b, NULL, &r), GB_ERR_USAGE);
    assert_int_equal(gb_nnls_solve(a, 2, 1, bn, NULL, &r), GB_ERR_USAGE);
    assert_int_equal(gb_nnls_solve(a, 2, 1, b, w0, &r), GB_ERR_USAGE);
    assert_non_null(strstr(gb_error_message(), "weight"));
    assert_null(r.x);
    gb_nnls_result_release(&r);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_kkt_random),
        cmocka_unit_test(test_unconstrained_positive),
        cmocka_unit_test(test_rank_deficient),
        cmocka_unit_test(test_hand_cases),
        cmocka_unit_test(test_badly_scaled),
        cmocka_unit_test(test_bad_input),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
