/* regress.h - linear least squares with inference: ordinary and weighted
 * fits, dummy coding of categorical predictors, backward elimination.
 *
 * A model is a response y and named predictor columns, built up column by
 * column (struct gb_regress_model). A fit (struct gb_regress_fit) carries the
 * coefficients with their standard errors, t statistics and two-sided
 * p-values, R^2 and adjusted R^2, the residual standard deviation, the
 * overall F test and the residuals. The solve goes through GSL's SVD based
 * least squares (gsl_multifit_wlinear_tsvd); the distributions through
 * gsl_cdf_tdist_Q and gsl_cdf_fdist_Q.
 *
 * Weights are precision weights, as in R's lm(weights = w): observation i
 * enters the sum of squares as w_i * r_i^2, and the residual variance is
 * estimated from the weighted residual sum of squares (weights need not sum
 * to anything in particular; scaling them all by a constant changes nothing
 * but the reported weighted sums of squares).
 *
 * Functions here are pure computations: no I/O, no global state, except that
 * GSL's error handler is switched off for the duration of a fit and put back
 * afterwards, which makes a fit not safe to run concurrently with other GSL
 * users in other threads.
 */
#ifndef GPUBOUND_REGRESS_H
#define GPUBOUND_REGRESS_H

#include "gpubound/api.h"

#include <stddef.h>

#include "gpubound/status.h"

/* Name given to the intercept coefficient in a fit. */
#define GB_REGRESS_INTERCEPT "(intercept)"

/* Singular values below this fraction of the largest (after GSL's column
 * balancing) count as zero: a design with any is reported as rank deficient. */
#define GB_REGRESS_RANK_TOL 1e-12

/* The design: a response and named predictor columns. Owned by the model;
 * read freely, change only through the functions below. */
struct gb_regress_model {
    size_t n_obs;
    double *y;          /* n_obs responses */
    double *w;          /* n_obs weights, or NULL for ordinary least squares */
    int intercept;      /* 1 (the default) to fit an intercept */
    size_t n_cols;      /* predictor columns, the intercept not counted */
    char **names;       /* n_cols column names */
    double **cols;      /* n_cols columns of n_obs values each */
};

/* What a fit leaves. Coefficient arrays have n_coef entries in the order
 * names[] gives: the intercept first (named GB_REGRESS_INTERCEPT) when the
 * model has one, then the kept predictor columns in model order. */
struct gb_regress_fit {
    size_t n_obs;
    size_t n_coef;       /* estimated coefficients, the intercept included */
    int intercept;       /* 1 when names[0] is the intercept */
    char **names;
    double *coef;        /* estimates */
    double *se;          /* standard errors */
    double *t;           /* coef / se */
    double *p;           /* two-sided p-values of t with df_resid degrees of freedom */
    double df_model;     /* n_coef - intercept */
    double df_resid;     /* n_obs - n_coef */
    double sse;          /* (weighted) residual sum of squares */
    double sst;          /* (weighted) total sum of squares: about the (weighted)
                          * mean with an intercept, about zero without */
    double r2;           /* 1 - sse / sst */
    double adj_r2;       /* 1 - (1 - r2) (n_obs - intercept) / df_resid */
    double rmse;         /* residual standard deviation, sqrt(sse / df_resid) */
    double f;            /* overall F statistic: ((sst - sse)/df_model) / (sse/df_resid);
                          * 0 when df_model is 0 */
    double f_p;          /* its p-value (upper tail); 1 when df_model is 0 */
    double *fitted;      /* n_obs fitted values */
    double *residuals;   /* n_obs raw residuals y - fitted (not weighted) */
    size_t n_dropped;    /* backward elimination: predictors dropped, in order */
    char **dropped;
    double *dropped_p;   /* the p-value each had when it was dropped */
};

/* Dummy (0/1) columns for a categorical predictor, in caller-owned storage
 * (gb_regress_dummies_init / gb_regress_dummies_release). */
struct gb_regress_dummies {
    size_t n_obs;
    size_t n_cols;       /* levels other than the reference */
    char **names;        /* prefix followed by the level, e.g. "b2" */
    double **cols;       /* n_cols columns of n_obs values, 1 where the label is that level */
};

/* Creates a model with the n_obs responses `y` (copied), an intercept and no
 * predictors. GB_ERR_USAGE when n_obs is 0 or y has a non-finite value,
 * GB_ERR_NOMEM. Free with gb_regress_model_free. */
GB_API enum gb_status gb_regress_model_new(size_t n_obs, const double *y, struct gb_regress_model **out);

/* Frees the model and everything it holds; NULL is ignored. */
GB_API void gb_regress_model_free(struct gb_regress_model *m);

/* Turns the intercept on (1) or off (0). */
GB_API void gb_regress_model_set_intercept(struct gb_regress_model *m, int on);

/* Makes the fit weighted with the n_obs weights `w` (copied), or ordinary
 * again with w == NULL. Weights must be finite and > 0 (GB_ERR_USAGE). */
GB_API enum gb_status gb_regress_model_set_weights(struct gb_regress_model *m, const double *w);

/* Appends a predictor column named `name` (copied, non-empty, unique in the
 * model) with n_obs finite values `x` (copied). GB_ERR_USAGE otherwise. */
GB_API enum gb_status gb_regress_model_add(struct gb_regress_model *m, const char *name, const double *x);

/* Builds the dummy columns of a categorical predictor: `labels` holds the
 * n_obs category labels; one 0/1 column is made for each distinct level
 * except `reference`, named `prefix` followed by the level ("b" and level "2"
 * give "b2"). Levels are ordered numerically when every label is a number,
 * otherwise by strcmp. GB_ERR_USAGE when `reference` is not among the labels
 * or a label is NULL. On error `d` holds nothing to release. */
GB_API enum gb_status gb_regress_dummies_init(struct gb_regress_dummies *d, const char *prefix,
                                       const char *const *labels, size_t n_obs,
                                       const char *reference);

/* Frees what gb_regress_dummies_init allocated and zeroes `d`. */
GB_API void gb_regress_dummies_release(struct gb_regress_dummies *d);

/* Expands a categorical predictor into dummy columns (gb_regress_dummies_init)
 * and appends them to the model. */
GB_API enum gb_status gb_regress_model_add_categorical(struct gb_regress_model *m, const char *prefix,
                                                const char *const *labels,
                                                const char *reference);

/* Fits the model by (weighted) least squares with inference. GB_ERR_NUMERIC
 * with a message when there are not more observations than coefficients
 * (no residual degree of freedom is left), when the design is rank deficient
 * (collinear columns; see GB_REGRESS_RANK_TOL), or when the fit does not
 * produce finite numbers. Free the fit with gb_regress_fit_free. */
GB_API enum gb_status gb_regress_fit(const struct gb_regress_model *m, struct gb_regress_fit **out);

/* Backward elimination: fits the model, then while the least significant
 * predictor (largest p-value; the intercept is never dropped) has a p-value
 * above `p_remove`, drops it and refits. The returned fit is the last one;
 * its dropped[] lists what was dropped, in order, with dropped_p[] the
 * p-value each had when dropped. A model whose every predictor is dropped
 * ends as the intercept-only fit (or, without an intercept, GB_ERR_NUMERIC).
 * p_remove must be in (0, 1) (GB_ERR_USAGE). Errors as gb_regress_fit. */
GB_API enum gb_status gb_regress_backward(const struct gb_regress_model *m, double p_remove,
                                   struct gb_regress_fit **out);

/* Index of coefficient `name` in the fit, or -1. */
GB_API int gb_regress_fit_index(const struct gb_regress_fit *f, const char *name);

/* Frees a fit; NULL is ignored. */
GB_API void gb_regress_fit_free(struct gb_regress_fit *f);

#endif
