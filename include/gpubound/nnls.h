/* nnls.h - non-negative least squares: minimize ||W^(1/2) (A x - b)||_2
 * subject to x >= 0, by the active-set method of Lawson and Hanson (Solving
 * Least Squares Problems, 1974, chapter 23), with the least-squares solves
 * on the positive ("passive") set done by GSL's complete orthogonal
 * decomposition.
 *
 * This is what the Linear Performance-Breakdown Model fits: time =
 * a1*PUT + a2*G2ST + a3*S2PT with every a_i >= 0.
 *
 * Pure computation: no I/O, no global state beyond switching GSL's error
 * handler off for the duration of a call (so not safe to run concurrently
 * with other GSL users in other threads).
 */
#ifndef GPUBOUND_NNLS_H
#define GPUBOUND_NNLS_H

#include "gpubound/api.h"

#include <stddef.h>

#include "gpubound/status.h"

/* A solution, in caller-owned storage: release with gb_nnls_result_release. */
struct gb_nnls_result {
    size_t n_vars;
    double *x;              /* n_vars values, each >= 0 */
    double *gradient;       /* n_vars values of g = A^T W (b - A x) at x: ~0 where x_j > 0,
                             * <= tol * |a_j| where x_j == 0 (the optimality conditions;
                             * |a_j| is the weighted norm of column j) */
    double tol;             /* the stopping rule: no g_j > tol * |a_j| is left on the zero
                             * set; tol = 10 eps max(m, n) |W^(1/2) b| */
    double residual_norm;   /* sqrt(sum_i w_i (b_i - (A x)_i)^2) */
    double r2;              /* 1 - rss / sum_i w_i (b_i - mean_w(b))^2, the share of the
                             * variation about the (weighted) mean that the fit explains;
                             * 1 for a constant b fitted exactly, 0 otherwise */
    double r2_uncentered;   /* 1 - rss / sum_i w_i b_i^2 (about zero: the model has no
                             * intercept unless A has a column of ones) */
    size_t n_positive;      /* how many x_j > 0 */
    int iterations;         /* passive-set changes the solve took */
};

/* Solves min ||W^(1/2)(A x - b)|| subject to x >= 0.
 *
 * `a` is the m x n matrix A in row-major order (a[i*n + j]), `b` has m
 * values, `w` has m weights (> 0) or is NULL for unweighted. Any m >= 1 and
 * n >= 1 are accepted, including rank-deficient A and all-zero columns (their
 * x_j stays 0). When the solution is not unique (rank-deficient A), one
 * solution is returned.
 *
 * GB_ERR_USAGE for empty or non-finite input or a weight <= 0,
 * GB_ERR_NUMERIC when the iteration limit (3n + 30 passive-set additions) is
 * reached, GB_ERR_NOMEM. On error `out` holds nothing to release. */
GB_API enum gb_status gb_nnls_solve(const double *a, size_t m, size_t n, const double *b,
                             const double *w, struct gb_nnls_result *out);

/* Frees what gb_nnls_solve allocated and zeroes `r`. */
GB_API void gb_nnls_result_release(struct gb_nnls_result *r);

#endif
