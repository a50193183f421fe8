/* test_regress.c - least squares against certified and independently
 * computed values.
 *
 * NIST StRD linear regression datasets (tests/data/nist/): the fitted
 * coefficients, their standard deviations, the residual standard deviation,
 * R^2 and the analysis of variance are checked against the certified values.
 * A weighted fit with dummy-coded word size is checked against an exact
 * rational computation (tests/data/wls/make_reference.py).
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

#include "gpubound/regress.h"
#include "test_rng.h"

#ifndef GB_TEST_DATA
#error "GB_TEST_DATA must name the tests/data directory"
#endif

#define MAX_COLS 8
#define MAX_ROWS 64
#define MAX_PARAMS 12

/* A fixture: certified values and the data table. */
struct fixture {
    int n_params;
    char param_name[MAX_PARAMS][32];
    double est[MAX_PARAMS], sd[MAX_PARAMS], t[MAX_PARAMS], p[MAX_PARAMS];
    double residual_sd, r_squared, adj_r_squared, sse, sst, f, f_p;
    double reg_df, reg_ss, reg_ms, reg_f, res_df, res_ss, res_ms;
    int n_cols, n_rows;
    char col_name[MAX_COLS][32];
    char cell[MAX_ROWS][MAX_COLS][32];
};

static double parse_value(const char *s)
{
    const char *slash = strchr(s, '/');
    if (slash)
        return strtod(s, NULL) / strtod(slash + 1, NULL);
    return strtod(s, NULL);
}

static void load_fixture(const char *rel, struct fixture *fx)
{
    char path[1024], line[1024];
    snprintf(path, sizeof path, "%s/%s", GB_TEST_DATA, rel);
    FILE *f = fopen(path, "r");
    if (!f)
        fail_msg("cannot open fixture %s", path);
    memset(fx, 0, sizeof *fx);
    int in_data = 0;
    while (fgets(line, sizeof line, f)) {
        char *hash = strchr(line, '#');
        if (hash)
            *hash = '\0';
        char *tok[16];
        int nt = 0;
        for (char *s = strtok(line, " \t\r\n"); s && nt < 16; s = strtok(NULL, " \t\r\n"))
            tok[nt++] = s;
        if (nt == 0)
            continue;
        if (in_data) {
            assert_int_equal(nt, fx->n_cols);
            assert_true(fx->n_rows < MAX_ROWS);
            for (int j = 0; j < nt; j++)
                snprintf(fx->cell[fx->n_rows][j], 32, "%s", tok[j]);
            fx->n_rows++;
        } else if (strcmp(tok[0], "data") == 0) {
            in_data = 1;
            fx->n_cols = nt - 1;
            assert_true(fx->n_cols <= MAX_COLS);
            for (int j = 1; j < nt; j++)
                snprintf(fx->col_name[j - 1], 32, "%s", tok[j]);
        } else if (strcmp(tok[0], "param") == 0 || strcmp(tok[0], "coef") == 0) {
            int k = fx->n_params++;
            assert_true(k < MAX_PARAMS);
            snprintf(fx->param_name[k], 32, "%s", tok[1]);
            fx->est[k] = strtod(tok[2], NULL);
            fx->sd[k] = strtod(tok[3], NULL);
            fx->t[k] = nt > 4 ? strtod(tok[4], NULL) : NAN;
            fx->p[k] = nt > 5 ? strtod(tok[5], NULL) : NAN;
        } else if (strcmp(tok[0], "residual_sd") == 0) {
            fx->residual_sd = strtod(tok[1], NULL);
        } else if (strcmp(tok[0], "r_squared") == 0) {
            fx->r_squared = strtod(tok[1], NULL);
        } else if (strcmp(tok[0], "adj_r_squared") == 0) {
            fx->adj_r_squared = strtod(tok[1], NULL);
        } else if (strcmp(tok[0], "sse") == 0) {
            fx->sse = strtod(tok[1], NULL);
        } else if (strcmp(tok[0], "sst") == 0) {
            fx->sst = strtod(tok[1], NULL);
        } else if (strcmp(tok[0], "f_test") == 0) {
            fx->f = strtod(tok[1], NULL);
            fx->f_p = strtod(tok[2], NULL);
        } else if (strcmp(tok[0], "regression") == 0) {
            fx->reg_df = strtod(tok[1], NULL);
            fx->reg_ss = strtod(tok[2], NULL);
            fx->reg_ms = strtod(tok[3], NULL);
            fx->reg_f = strtod(tok[4], NULL);
        } else if (strcmp(tok[0], "residual") == 0) {
            fx->res_df = strtod(tok[1], NULL);
            fx->res_ss = strtod(tok[2], NULL);
            fx->res_ms = strtod(tok[3], NULL);
        } else {
            fail_msg("%s: unknown line \"%s\"", rel, tok[0]);
        }
    }
    fclose(f);
    assert_true(fx->n_rows > 0);
}

static int fixture_col(const struct fixture *fx, const char *name)
{
    for (int j = 0; j < fx->n_cols; j++)
        if (strcmp(fx->col_name[j], name) == 0)
            return j;
    fail_msg("fixture has no column %s", name);
    return -1;
}

static void column(const struct fixture *fx, const char *name, double *out)
{
    int j = fixture_col(fx, name);
    for (int i = 0; i < fx->n_rows; i++)
        out[i] = parse_value(fx->cell[i][j]);
}

/* |got - want| <= rel * |want| (and a clear message when not). */
static void check_rel(const char *what, double got, double want, double rel)
{
    double err = fabs(got - want);
    double lim = rel * fabs(want);
    if (!(err <= lim))
        fail_msg("%s: got %.17g, want %.17g (relative error %.3g > %.3g)", what, got, want,
                 err / fabs(want), rel);
}

/* Fits a NIST dataset: columns after y as predictors, or x, x^2 .. x^degree. */
static void check_nist(const char *file, int degree, int intercept, double rel)
{
    struct fixture fx;
    load_fixture(file, &fx);
    double y[MAX_ROWS], x[MAX_ROWS], col[MAX_ROWS];
    struct gb_regress_model *m = NULL;
    struct gb_regress_fit *f = NULL;
    column(&fx, "y", y);
    assert_int_equal(gb_regress_model_new((size_t)fx.n_rows, y, &m), GB_OK);
    gb_regress_model_set_intercept(m, intercept);
    if (degree > 0) {
        column(&fx, "x", x);
        for (int d = 1; d <= degree; d++) {
            char name[16];
            for (int i = 0; i < fx.n_rows; i++)
                col[i] = pow(x[i], d);
            snprintf(name, sizeof name, "x^%d", d);
            assert_int_equal(gb_regress_model_add(m, name, col), GB_OK);
        }
    } else {
        for (int j = 1; j < fx.n_cols; j++) {
            column(&fx, fx.col_name[j], col);
            assert_int_equal(gb_regress_model_add(m, fx.col_name[j], col), GB_OK);
        }
    }
    enum gb_status st = gb_regress_fit(m, &f);
    if (st != GB_OK)
        fail_msg("%s: fit failed: %s", file, gb_error_message());
    assert_int_equal((int)f->n_coef, fx.n_params);
    assert_int_equal(f->intercept, intercept);
    for (int k = 0; k < fx.n_params; k++) {
        char what[96];
        snprintf(what, sizeof what, "%s %s estimate", file, fx.param_name[k]);
        check_rel(what, f->coef[k], fx.est[k], rel);
        snprintf(what, sizeof what, "%s %s standard deviation", file, fx.param_name[k]);
        check_rel(what, f->se[k], fx.sd[k], rel);
    }
    check_rel("residual standard deviation", f->rmse, fx.residual_sd, rel);
    check_rel("R-squared", f->r2, fx.r_squared, rel);
    assert_true(f->df_model == fx.reg_df);
    assert_true(f->df_resid == fx.res_df);
    check_rel("regression sum of squares", f->sst - f->sse, fx.reg_ss, rel);
    check_rel("residual sum of squares", f->sse, fx.res_ss, rel);
    check_rel("residual mean square", f->sse / f->df_resid, fx.res_ms, rel);
    check_rel("F statistic", f->f, fx.reg_f, rel);
    assert_true(f->f_p >= 0 && f->f_p < 1e-8);
    for (int i = 0; i < fx.n_rows; i++)
        assert_true(fabs(f->fitted[i] + f->residuals[i] - y[i]) <= 1e-12 * (fabs(y[i]) + 1));
    gb_regress_fit_free(f);
    gb_regress_model_free(m);
}

/* Tolerances: the worst relative error over all checked values is, with
 * GSL 2.7 on x86-64, 5e-13 (Norris), 8e-13 (Pontius), 3e-12 (Longley) and
 * 2e-15 (NoInt1); the limits leave a margin of 10-50 for other platforms'
 * libm and BLAS, and are all at least as tight as the 1e-9 asked of them. */
static void test_nist_norris(void **state)
{
    (void)state;
    check_nist("nist/Norris.txt", 1, 1, 1e-11);
}

static void test_nist_pontius(void **state)
{
    (void)state;
    check_nist("nist/Pontius.txt", 2, 1, 1e-11);
}

static void test_nist_longley(void **state)
{
    (void)state;
    check_nist("nist/Longley.txt", 0, 1, 1e-10);
}

static void test_nist_noint1(void **state)
{
    (void)state;
    check_nist("nist/NoInt1.txt", 1, 0, 1e-12);
}

/* Weighted fit, word size as dummies, against the exact computation. */
static void test_wls_wordsize(void **state)
{
    (void)state;
    struct fixture fx;
    load_fixture("wls/wls_wordsize.txt", &fx);
    double y[MAX_ROWS], x[MAX_ROWS], w[MAX_ROWS];
    const char *word[MAX_ROWS];
    struct gb_regress_model *m = NULL;
    struct gb_regress_fit *f = NULL;
    column(&fx, "y", y);
    column(&fx, "x", x);
    column(&fx, "w", w);
    int jw = fixture_col(&fx, "word");
    for (int i = 0; i < fx.n_rows; i++)
        word[i] = fx.cell[i][jw];
    assert_int_equal(gb_regress_model_new((size_t)fx.n_rows, y, &m), GB_OK);
    assert_int_equal(gb_regress_model_add(m, "x", x), GB_OK);
    assert_int_equal(gb_regress_model_add_categorical(m, "b", word, "1"), GB_OK);
    assert_int_equal(gb_regress_model_set_weights(m, w), GB_OK);
    assert_int_equal(gb_regress_fit(m, &f), GB_OK);
    assert_int_equal((int)f->n_coef, fx.n_params);
    for (int k = 0; k < fx.n_params; k++) {
        char what[96];
        assert_string_equal(f->names[k], fx.param_name[k]);
        snprintf(what, sizeof what, "WLS %s estimate", fx.param_name[k]);
        check_rel(what, f->coef[k], fx.est[k], 1e-11);
        snprintf(what, sizeof what, "WLS %s standard error", fx.param_name[k]);
        check_rel(what, f->se[k], fx.sd[k], 1e-11);
        snprintf(what, sizeof what, "WLS %s t", fx.param_name[k]);
        check_rel(what, f->t[k], fx.t[k], 1e-10);
        /* GSL's t tail is accurate to ~1e-12 relative in this range; the
         * smallest p (1e-17) is compared more loosely. */
        snprintf(what, sizeof what, "WLS %s p", fx.param_name[k]);
        check_rel(what, f->p[k], fx.p[k], fx.p[k] < 1e-10 ? 1e-6 : 1e-9);
    }
    check_rel("WLS sse", f->sse, fx.sse, 1e-10);
    check_rel("WLS sst", f->sst, fx.sst, 1e-12);
    check_rel("WLS R-squared", f->r2, fx.r_squared, 1e-12);
    check_rel("WLS adjusted R-squared", f->adj_r2, fx.adj_r_squared, 1e-12);
    check_rel("WLS residual sd", f->rmse, fx.residual_sd, 1e-10);
    check_rel("WLS F", f->f, fx.f, 1e-10);
    check_rel("WLS F p", f->f_p, fx.f_p, 1e-6);

    /* Scaling every weight by a constant changes the weighted sums of
     * squares but none of the estimates or their inference. */
    struct gb_regress_fit *g = NULL;
    for (int i = 0; i < fx.n_rows; i++)
        w[i] *= 7.5;
    assert_int_equal(gb_regress_model_set_weights(m, w), GB_OK);
    assert_int_equal(gb_regress_fit(m, &g), GB_OK);
    for (int k = 0; k < fx.n_params; k++) {
        check_rel("scaled weights estimate", g->coef[k], f->coef[k], 1e-12);
        check_rel("scaled weights se", g->se[k], f->se[k], 1e-12);
    }
    check_rel("scaled weights sse", g->sse, 7.5 * f->sse, 1e-12);
    gb_regress_fit_free(g);

    /* Back to ordinary least squares: the weights are gone. */
    assert_int_equal(gb_regress_model_set_weights(m, NULL), GB_OK);
    assert_null(m->w);
    gb_regress_fit_free(f);
    gb_regress_model_free(m);
}

static void test_dummies_numeric_levels(void **state)
{
    (void)state;
    const char *labels[] = {"4", "1", "2", "10", "2", "4", "1"};
    struct gb_regress_dummies d;
    assert_int_equal(gb_regress_dummies_init(&d, "b", labels, 7, "1"), GB_OK);
    assert_int_equal((int)d.n_cols, 3);
    assert_int_equal((int)d.n_obs, 7);
    /* Numeric order, not string order ("10" after "4"). */
    assert_string_equal(d.names[0], "b2");
    assert_string_equal(d.names[1], "b4");
    assert_string_equal(d.names[2], "b10");
    const double b2[] = {0, 0, 1, 0, 1, 0, 0};
    const double b4[] = {1, 0, 0, 0, 0, 1, 0};
    const double b10[] = {0, 0, 0, 1, 0, 0, 0};
    for (int i = 0; i < 7; i++) {
        assert_true(d.cols[0][i] == b2[i]);
        assert_true(d.cols[1][i] == b4[i]);
        assert_true(d.cols[2][i] == b10[i]);
    }
    gb_regress_dummies_release(&d);
    assert_null(d.names);
    assert_int_equal((int)d.n_cols, 0);
}

static void test_dummies_string_levels(void **state)
{
    (void)state;
    const char *labels[] = {"tex", "ld", "ldg", "ld", "tex"};
    struct gb_regress_dummies d;
    assert_int_equal(gb_regress_dummies_init(&d, "path_", labels, 5, "ld"), GB_OK);
    assert_int_equal((int)d.n_cols, 2);
    assert_string_equal(d.names[0], "path_ldg");
    assert_string_equal(d.names[1], "path_tex");
    assert_true(d.cols[1][0] == 1 && d.cols[1][4] == 1 && d.cols[1][1] == 0);
    gb_regress_dummies_release(&d);

    /* Only the reference level: no columns. */
    const char *same[] = {"a", "a"};
    assert_int_equal(gb_regress_dummies_init(&d, "c", same, 2, "a"), GB_OK);
    assert_int_equal((int)d.n_cols, 0);
    gb_regress_dummies_release(&d);

    /* A reference that does not occur is a usage error. */
    assert_int_equal(gb_regress_dummies_init(&d, "c", labels, 5, "st"), GB_ERR_USAGE);
    assert_non_null(strstr(gb_error_message(), "\"st\""));
    assert_null(d.names);
}


static void test_backward_elimination(void **state)
{
    (void)state;
    enum { N = 200 };
    double y[N], x1[N], x2[N], noise[N];
    rng_state = 0x5eed1234abcdull;
    for (int i = 0; i < N; i++) {
        x1[i] = rng_uniform() * 10;
        x2[i] = rng_uniform() * 10;
        noise[i] = rng_uniform() * 10; /* pure noise: not in y */
        y[i] = 2.0 + 3.0 * x1[i] + 0.25 * x2[i] + rng_normal();
    }
    struct gb_regress_model *m = NULL;
    struct gb_regress_fit *full = NULL, *f = NULL;
    assert_int_equal(gb_regress_model_new(N, y, &m), GB_OK);
    assert_int_equal(gb_regress_model_add(m, "x1", x1), GB_OK);
    assert_int_equal(gb_regress_model_add(m, "noise", noise), GB_OK);
    assert_int_equal(gb_regress_model_add(m, "x2", x2), GB_OK);

    /* The margin: in the full fit the noise predictor is far above the
     * threshold and the weaker real one (x2) far below it (with this seed,
     * p = 0.96 and p = 1e-22). */
    assert_int_equal(gb_regress_fit(m, &full), GB_OK);
    int jn = gb_regress_fit_index(full, "noise"), j2 = gb_regress_fit_index(full, "x2");
    assert_true(jn > 0 && j2 > 0);
    if (!(full->p[jn] > 0.3))
        fail_msg("noise predictor p = %g: not a clear margin above 0.05", full->p[jn]);
    if (!(full->p[j2] < 1e-6))
        fail_msg("x2 p = %g: not a clear margin below 0.05", full->p[j2]);

    assert_int_equal(gb_regress_backward(m, 0.05, &f), GB_OK);
    assert_int_equal((int)f->n_dropped, 1);
    assert_string_equal(f->dropped[0], "noise");
    assert_true(f->dropped_p[0] == full->p[jn]);
    assert_int_equal((int)f->n_coef, 3);
    assert_int_equal(gb_regress_fit_index(f, "noise"), -1);
    int j1 = gb_regress_fit_index(f, "x1");
    j2 = gb_regress_fit_index(f, "x2");
    assert_true(j1 > 0 && j2 > 0);
    assert_true(fabs(f->coef[j1] - 3.0) < 0.1);
    assert_true(fabs(f->coef[j2] - 0.25) < 0.1);
    assert_true(f->f_p < 1e-100);
    gb_regress_fit_free(f);

    /* A threshold no predictor can pass drops everything: intercept only. */
    assert_int_equal(gb_regress_backward(m, 1e-300, &f), GB_OK);
    assert_int_equal((int)f->n_dropped, 3);
    assert_int_equal((int)f->n_coef, 1);
    assert_true(f->df_model == 0 && f->f == 0 && f->f_p == 1);
    double mean = 0;
    for (int i = 0; i < N; i++)
        mean += y[i] / N;
    check_rel("intercept-only fit is the mean", f->coef[0], mean, 1e-12);
    gb_regress_fit_free(f);

    assert_int_equal(gb_regress_backward(m, 0.0, &f), GB_ERR_USAGE);
    assert_int_equal(gb_regress_backward(m, 1.0, &f), GB_ERR_USAGE);
    assert_null(f);
    gb_regress_fit_free(full);
    gb_regress_model_free(m);
}

static void test_errors(void **state)
{
    (void)state;
    struct gb_regress_model *m = NULL;
    struct gb_regress_fit *f = NULL;
    const double y[] = {1, 2, 3.5, 4, 6};
    const double x1[] = {1, 2, 3, 4, 5};
    const double x2[] = {2, 4, 6, 8, 10}; /* 2 * x1 */
    const double ones[] = {1, 1, 1, 1, 1};
    const double bad_w[] = {1, 1, 0, 1, 1};
    const double with_nan[] = {1, 2, NAN, 4, 5};

    assert_int_equal(gb_regress_model_new(0, y, &m), GB_ERR_USAGE);
    assert_int_equal(gb_regress_model_new(5, with_nan, &m), GB_ERR_USAGE);
    assert_null(m);

    /* Too few points: 2 observations, 2 coefficients, no residual df. */
    assert_int_equal(gb_regress_model_new(2, y, &m), GB_OK);
    assert_int_equal(gb_regress_model_add(m, "x", x1), GB_OK);
    assert_int_equal(gb_regress_fit(m, &f), GB_ERR_NUMERIC);
    assert_non_null(strstr(gb_error_message(), "observations"));
    assert_null(f);
    gb_regress_model_free(m);

    assert_int_equal(gb_regress_model_new(5, y, &m), GB_OK);
    assert_int_equal(gb_regress_model_add(m, "x1", x1), GB_OK);
    assert_int_equal(gb_regress_model_add(m, "x1", x2), GB_ERR_USAGE);
    assert_int_equal(gb_regress_model_add(m, "", x2), GB_ERR_USAGE);
    assert_int_equal(gb_regress_model_add(m, "z", with_nan), GB_ERR_USAGE);
    assert_int_equal(gb_regress_model_set_weights(m, bad_w), GB_ERR_USAGE);
    assert_int_equal((int)m->n_cols, 1);

    /* Collinear: x2 = 2 x1. */
    assert_int_equal(gb_regress_model_add(m, "x2", x2), GB_OK);
    assert_int_equal(gb_regress_fit(m, &f), GB_ERR_NUMERIC);
    assert_non_null(strstr(gb_error_message(), "rank deficient"));
    assert_null(f);
    gb_regress_model_free(m);

    /* A column of ones next to the intercept. */
    assert_int_equal(gb_regress_model_new(5, y, &m), GB_OK);
    assert_int_equal(gb_regress_model_add(m, "one", ones), GB_OK);
    assert_int_equal(gb_regress_fit(m, &f), GB_ERR_NUMERIC);
    /* ... which is fine without the intercept, and equals the mean. */
    gb_regress_model_set_intercept(m, 0);
    assert_int_equal(gb_regress_fit(m, &f), GB_OK);
    check_rel("mean", f->coef[0], (1 + 2 + 3.5 + 4 + 6) / 5.0, 1e-14);
    gb_regress_fit_free(f);
    gb_regress_model_free(m);

    /* Nothing to fit. */
    assert_int_equal(gb_regress_model_new(5, y, &m), GB_OK);
    gb_regress_model_set_intercept(m, 0);
    assert_int_equal(gb_regress_fit(m, &f), GB_ERR_NUMERIC);
    gb_regress_model_free(m);
}

/* A response that is an exact linear function: zero residuals, exact
 * estimates, zero standard errors and p-values of 0. */
static void test_perfect_fit(void **state)
{
    (void)state;
    const double x[] = {0, 1, 2, 3, 4, 5};
    double y[6];
    for (int i = 0; i < 6; i++)
        y[i] = 1.5 + 2.0 * x[i];
    struct gb_regress_model *m = NULL;
    struct gb_regress_fit *f = NULL;
    assert_int_equal(gb_regress_model_new(6, y, &m), GB_OK);
    assert_int_equal(gb_regress_model_add(m, "x", x), GB_OK);
    assert_int_equal(gb_regress_fit(m, &f), GB_OK);
    assert_true(fabs(f->coef[0] - 1.5) < 1e-13);
    assert_true(fabs(f->coef[1] - 2.0) < 1e-13);
    assert_true(f->rmse < 1e-13);
    assert_true(fabs(f->r2 - 1.0) < 1e-14);
    assert_true(f->p[1] < 1e-10);
    gb_regress_fit_free(f);
    gb_regress_model_free(m);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_nist_norris),
        cmocka_unit_test(test_nist_pontius),
        cmocka_unit_test(test_nist_longley),
        cmocka_unit_test(test_nist_noint1),
        cmocka_unit_test(test_wls_wordsize),
        cmocka_unit_test(test_dummies_numeric_levels),
        cmocka_unit_test(test_dummies_string_levels),
        cmocka_unit_test(test_backward_elimination),
        cmocka_unit_test(test_errors),
        cmocka_unit_test(test_perfect_fit),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
