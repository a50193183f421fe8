/* test_campprof.c - the CampProf band model on data made here from known
 * coefficients plus seeded noise: the fit recovers the coefficients, the
 * normalisation, band, degree and application line obey their definitions,
 * the occupancy-allowed configurations match values worked by hand, the
 * model file round-trips and rejects malformed input, and the Nsight
 * Compute reader maps the fixtures of tests/data/ncu to the model's inputs.
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
#include <unistd.h>

#include "gpubound/campprof.h"
#include "gpubound/ncu.h"
#include "test_rng.h"

#ifndef GB_TEST_DATA
#error "GB_TEST_DATA must name the tests/data directory"
#endif

#define N_SMS 132
#define ITERS 1024
static const int widths[] = {2, 4, 8, 16};
static const int warps_set[] = {1, 2, 3, 4, 6, 8, 12, 16, 24, 32, 40, 48, 56, 64};
#define N_W (sizeof warps_set / sizeof warps_set[0])

/* The true coefficients: intercept, per warp, b2, b4, b8 (ns). */
struct truth {
    double b, w, b2, b4, b8;
};
static const struct truth true_coef[2][2] = {
    {{20000, 1500, -9000, -7000, -4000}, {30000, 4500, -12000, -9000, -5000}},
    {{18000, 1300, -8000, -6000, -3000}, {26000, 3900, -10000, -8000, -4000}},
};

static double true_time(const struct truth *c, double w, int width)
{
    double t = c->b + c->w * w;
    if (width == 2)
        t += c->b2;
    else if (width == 4)
        t += c->b4;
    else if (width == 8)
        t += c->b8;
    return t;
}

static double true_coef_of(const struct truth *c, const char *term)
{
    if (strcmp(term, "(intercept)") == 0)
        return c->b;
    if (strcmp(term, "w") == 0)
        return c->w;
    if (strcmp(term, "b2") == 0)
        return c->b2;
    if (strcmp(term, "b4") == 0)
        return c->b4;
    if (strcmp(term, "b8") == 0)
        return c->b8;
    fail_msg("unexpected term %s", term);
    return NAN;
}

static void add_record(struct gb_run *run, const char *bench, const char *pattern, int width,
                       int w, double t, int with_counts)
{
    struct gb_record *r = &run->records[run->n_records++];
    char buf[32];
    memset(r, 0, sizeof *r);
    snprintf(r->suite, sizeof r->suite, "camping");
    snprintf(r->bench, sizeof r->bench, "%s", bench);
    r->status = GB_REC_OK;
    if (width) {
        snprintf(buf, sizeof buf, "%d", width);
        assert_int_equal(gb_record_set_axis(r, "width", buf), GB_OK);
    }
    snprintf(buf, sizeof buf, "%d", w);
    assert_int_equal(gb_record_set_axis(r, "warps", buf), GB_OK);
    if (pattern)
        assert_int_equal(gb_record_set_axis(r, "pattern", pattern), GB_OK);
    r->time_ns.median = r->time_ns.min = r->time_ns.mean = t;
    r->time_ns.ci_lo = 0.999 * t;
    r->time_ns.ci_hi = 1.001 * t;
    assert_int_equal(gb_record_set_metric(r, "active_warps", w), GB_OK);
    if (with_counts && width) {
        snprintf(buf, sizeof buf, "%s_req_%d", strcmp(bench, "read") == 0 ? "ld" : "st", width);
        assert_int_equal(gb_record_set_metric(r, buf, (double)N_SMS * ITERS * w), GB_OK);
    }
}

/* Extra slope per warp of widths 2, 4 and 8 (ns), per equation; NULL = none. */
static const double (*extra_slope)[2][3];

/* A run of the camping suite whose times follow `coef` (and extra_slope)
 * plus N(0, sigma). */
static struct gb_run *make_run(const struct truth coef[2][2], double sigma, uint64_t seed)
{
    struct gb_run *run = calloc(1, sizeof *run);
    assert_non_null(run);
    run->records = calloc(2 * 2 * 4 * N_W + 8, sizeof *run->records);
    assert_non_null(run->records);
    snprintf(run->dir, sizeof run->dir, "synthetic");
    snprintf(run->info.started_utc, sizeof run->info.started_utc, "2026-01-01T00:00:00Z");
    run->info.has_device = 1;
    assert_int_equal(gb_device_from_cc(9, 0, &run->info.device), GB_OK);
    run->info.device.sm_count = N_SMS;
    snprintf(run->info.device.name, sizeof run->info.device.name, "test device");
    rng_state = seed;
    for (int op = 0; op < 2; op++)
        for (int pat = 0; pat < 2; pat++)
            for (size_t k = 0; k < 4; k++)
                for (size_t i = 0; i < N_W; i++) {
                    double t = true_time(&coef[op][pat], warps_set[i], widths[k]);
                    if (extra_slope && k < 3)
                        t += extra_slope[op][pat][k] * warps_set[i];
                    add_record(run, op ? "write" : "read", pat ? "camped" : "spread", widths[k],
                               warps_set[i], t + sigma * rng_normal(), 1);
                }
    /* A failed point must be left out of the fit. */
    add_record(run, "read", "spread", 4, 5, 1e9, 1);
    run->records[run->n_records - 1].status = GB_REC_FAILED;
    /* Another suite's record too. */
    add_record(run, "read", "spread", 4, 5, 1e9, 1);
    snprintf(run->records[run->n_records - 1].suite, sizeof run->records[0].suite, "bandwidth");
    return run;
}

static void free_run(struct gb_run *run)
{
    gb_run_free(run); /* the run owns its records and their axes and metrics */
}

static struct gb_camp_model *fitted_model(double sigma)
{
    struct gb_camp_model *m = calloc(1, sizeof *m);
    struct gb_run *run = make_run(true_coef, sigma, 0x5eed0001u);
    assert_non_null(m);
    assert_int_equal(gb_camp_fit(run, GB_CAMP_P_REMOVE, m), GB_OK);
    free_run(run);
    return m;
}

/* ---- the fit ---- */

static void test_fit_recovers_coefficients(void **state)
{
    (void)state;
    struct gb_camp_model *m = fitted_model(250.0);
    for (int op = 0; op < 2; op++)
        for (int pat = 0; pat < 2; pat++) {
            const struct gb_camp_equation *eq = &m->eq[op][pat];
            assert_int_equal(eq->op, op);
            assert_int_equal(eq->pattern, pat);
            assert_int_equal(eq->n_obs, 4 * N_W);
            assert_int_equal(eq->n_widths, 4);
            assert_int_equal(eq->ref_width, 16);
            assert_true(eq->warps_min == 1 && eq->warps_max == 64);
            /* Every true coefficient is far from zero: nothing is dropped. */
            assert_int_equal(eq->n_dropped, 0);
            assert_int_equal(eq->fit.n_terms, 5);
            for (size_t i = 0; i < eq->fit.n_terms; i++) {
                const struct gb_camp_term *t = &eq->fit.terms[i];
                double truth = true_coef_of(&true_coef[op][pat], t->name);
                /* Within 3 standard errors (about 0.3% of honest estimates
                 * fall outside; the data are fixed by the seed). */
                if (fabs(t->estimate - truth) > 3 * t->se)
                    fail_msg("%s/%s %s = %g, true %g, se %g", gb_camp_op_name(op),
                             gb_camp_pattern_name(pat), t->name, t->estimate, truth, t->se);
                assert_true(t->se > 0 && t->p < 1e-6);
            }
            /* The residual SD estimates the noise. */
            assert_true(eq->fit.rmse_ns > 0.7 * 250 && eq->fit.rmse_ns < 1.3 * 250);
            assert_true(eq->fit.r2 > 0.99);
            for (int c = 0; c < GB_CAMP_N_WIDTHS; c++) {
                double want = gb_camp_class_width(c) >= 2 ? (double)N_SMS * ITERS : 0;
                assert_true(fabs(eq->instr_per_warp[c] - want) <= 1e-9 * want);
                assert_true(eq->instr_dev[c] <= 1e-12);
                /* These records carry no sector counts. */
                assert_true(isnan(eq->sectors_per_instr[c]));
            }
        }
    assert_true(m->has_device);
    assert_string_equal(m->device.name, "test device");
    assert_string_equal(m->run_started_utc, "2026-01-01T00:00:00Z");
    free(m);
}

static void test_fit_without_noise_is_exact(void **state)
{
    (void)state;
    /* Noise-free data: the estimates are the coefficients to rounding. */
    struct gb_run *run = make_run(true_coef, 0.0, 1);
    struct gb_camp_model *m = calloc(1, sizeof *m);
    /* Exact data leave no residual variance; add a whisper so the fit is defined. */
    for (size_t i = 0; i < run->n_records; i++)
        run->records[i].time_ns.median += (i % 2 ? 1e-3 : -1e-3);
    assert_int_equal(gb_camp_fit(run, GB_CAMP_P_REMOVE, m), GB_OK);
    for (size_t i = 0; i < m->eq[1][1].fit.n_terms; i++) {
        const struct gb_camp_term *t = &m->eq[1][1].fit.terms[i];
        assert_true(fabs(t->estimate - true_coef_of(&true_coef[1][1], t->name)) < 1e-2);
    }
    free(m);
    free_run(run);
}

static void test_backward_elimination(void **state)
{
    (void)state;
    struct truth coef[2][2];
    memcpy(coef, true_coef, sizeof coef);
    coef[1][0].b8 = 0; /* writes, spread: 8-byte stores cost what 16-byte ones do */
    struct gb_run *run = make_run(coef, 250.0, 0x5eed0002u);
    struct gb_camp_model *m = calloc(1, sizeof *m);
    assert_int_equal(gb_camp_fit(run, GB_CAMP_P_REMOVE, m), GB_OK);
    const struct gb_camp_equation *eq = &m->eq[1][0];
    assert_int_equal(eq->full.n_terms, 5);
    double p_b8 = NAN;
    for (size_t i = 0; i < eq->full.n_terms; i++)
        if (strcmp(eq->full.terms[i].name, "b8") == 0)
            p_b8 = eq->full.terms[i].p;
    /* b8 is dropped exactly when its p-value exceeds the threshold, and
     * the true terms are kept either way. */
    if (p_b8 > GB_CAMP_P_REMOVE) {
        assert_int_equal(eq->n_dropped, 1);
        assert_string_equal(eq->dropped[0], "b8");
        assert_true(fabs(eq->dropped_p[0] - p_b8) < 1e-12);
        assert_int_equal(eq->fit.n_terms, 4);
        /* Without b8 an 8-byte store is timed as a 16-byte one. */
        assert_true(gb_camp_eq_time_ns(eq, 10, 3) == gb_camp_eq_time_ns(eq, 10, 4));
    } else {
        assert_int_equal(eq->n_dropped, 0);
    }
    for (int op = 0; op < 2; op++)
        for (int pat = 0; pat < 2; pat++)
            if (op != 1 || pat != 0)
                assert_int_equal(m->eq[op][pat].n_dropped, 0);
    free(m);
    free_run(run);
}

static void test_interactions(void **state)
{
    (void)state;
    /* Narrow accesses gain less time per warp than wide ones. */
    static const double slopes[2][2][3] = {
        {{-1200, -900, -500}, {-3000, -2000, -1000}},
        {{-1000, -800, -400}, {-2500, -1800, -900}},
    };
    extra_slope = slopes;
    struct gb_run *run = make_run(true_coef, 250.0, 0x5eed0003u);
    extra_slope = NULL;
    struct gb_camp_model *plain = calloc(1, sizeof *plain), *m = calloc(1, sizeof *m);
    assert_int_equal(gb_camp_fit(run, GB_CAMP_P_REMOVE, plain), GB_OK);
    assert_int_equal(gb_camp_fit_ext(run, GB_CAMP_P_REMOVE, 1, m), GB_OK);
    assert_int_equal(plain->interactions, 0);
    assert_int_equal(m->interactions, 1);
    for (int op = 0; op < 2; op++)
        for (int pat = 0; pat < 2; pat++) {
            const struct gb_camp_equation *eq = &m->eq[op][pat];
            assert_int_equal(eq->full.n_terms, 8);
            assert_int_equal(eq->n_dropped, 0);
            for (size_t i = 0; i < eq->fit.n_terms; i++) {
                const struct gb_camp_term *t = &eq->fit.terms[i];
                double truth;
                if (strncmp(t->name, "w:b", 3) == 0) {
                    int wd = atoi(t->name + 3);
                    truth = slopes[op][pat][wd == 2 ? 0 : wd == 4 ? 1 : 2];
                } else {
                    truth = true_coef_of(&true_coef[op][pat], t->name);
                }
                if (fabs(t->estimate - truth) > 3 * t->se)
                    fail_msg("%s %s = %g, true %g, se %g", gb_camp_op_name(op), t->name,
                             t->estimate, truth, t->se);
            }
            /* The paper's form cannot follow the slopes: its residuals are
             * far above the noise, the extended form's are not. */
            assert_true(eq->fit.rmse_ns < 1.3 * 250);
            assert_true(plain->eq[op][pat].fit.rmse_ns > 3 * 250);
            /* Prediction uses the slope of the width asked. */
            double want = true_time(&true_coef[op][pat], 20, 4) + slopes[op][pat][1] * 20;
            assert_true(fabs(gb_camp_eq_time_ns(eq, 20, 2) - want) < 5 * eq->fit.rmse_ns);
        }
    /* The slopes survive the model file. */
    char dir[] = "/tmp/gb-campprof-XXXXXX", path[256];
    assert_non_null(mkdtemp(dir));
    snprintf(path, sizeof path, "%s/m.json", dir);
    struct gb_camp_model *r = calloc(1, sizeof *r);
    assert_int_equal(gb_camp_model_write(m, path), GB_OK);
    assert_int_equal(gb_camp_model_load(path, r), GB_OK);
    assert_int_equal(r->interactions, 1);
    for (int c = 1; c < GB_CAMP_N_WIDTHS; c++)
        assert_true(gb_camp_eq_time_ns(&r->eq[1][1], 33, c) == gb_camp_eq_time_ns(&m->eq[1][1], 33, c));
    unlink(path);
    rmdir(dir);
    free(r);
    free_run(run);
    free(plain);
    free(m);
}

static void test_fit_errors(void **state)
{
    (void)state;
    struct gb_camp_model *m = calloc(1, sizeof *m);
    struct gb_run *run = make_run(true_coef, 100.0, 3);
    assert_int_equal(gb_camp_fit(run, 0.0, m), GB_ERR_USAGE);
    assert_int_equal(gb_camp_fit(run, 1.0, m), GB_ERR_USAGE);

    /* No camped writes. */
    for (size_t i = 0; i < run->n_records; i++)
        if (strcmp(run->records[i].bench, "write") == 0 &&
            strcmp(gb_record_axis(&run->records[i], "pattern"), "camped") == 0)
            run->records[i].status = GB_REC_SKIPPED;
    assert_int_equal(gb_camp_fit(run, 0.1, m), GB_ERR_FORMAT);
    assert_non_null(strstr(gb_error_message(), "write records with pattern=camped"));
    free_run(run);

    /* A record without the count the normalisation needs. */
    run = make_run(true_coef, 100.0, 3);
    run->records[7].n_metrics = 1;
    assert_int_equal(gb_camp_fit(run, 0.1, m), GB_ERR_FORMAT);
    assert_non_null(strstr(gb_error_message(), "ld_req_2"));
    free_run(run);

    /* A width that is not an access width. */
    run = make_run(true_coef, 100.0, 3);
    assert_int_equal(gb_record_set_axis(&run->records[0], "width", "3"), GB_OK);
    assert_int_equal(gb_camp_fit(run, 0.1, m), GB_ERR_FORMAT);
    free_run(run);

    /* One warps value only: w and the intercept cannot be told apart. */
    run = make_run(true_coef, 100.0, 3);
    for (size_t i = 0; i < run->n_records; i++) {
        assert_int_equal(gb_record_set_axis(&run->records[i], "warps", "8"), GB_OK);
        assert_int_equal(gb_record_set_metric(&run->records[i], "active_warps", 8), GB_OK);
    }
    assert_int_equal(gb_camp_fit(run, 0.1, m), GB_ERR_NUMERIC);
    free_run(run);
    free(m);
}

/* ---- normalisation, band, degree, application line ---- */

static void test_normalisation(void **state)
{
    (void)state;
    struct gb_camp_model *m = fitted_model(250.0);
    /* A kernel that executes exactly what the 4-byte read benchmark does at
     * w warps is predicted to take that benchmark's fitted time. */
    for (size_t i = 0; i < N_W; i++) {
        int w = warps_set[i];
        struct gb_camp_counts c = {0};
        double best, worst;
        c.ld[2] = (double)N_SMS * ITERS * w;
        assert_int_equal(gb_camp_bounds(m, &c, w, &best, &worst), GB_OK);
        assert_true(fabs(best - gb_camp_eq_time_ns(&m->eq[0][0], w, 2)) <= 1e-9 * best);
        assert_true(fabs(worst - gb_camp_eq_time_ns(&m->eq[0][1], w, 2)) <= 1e-9 * worst);
        /* Twice the instructions, twice the time; stores add theirs. */
        c.ld[2] *= 2;
        double b2, w2;
        assert_int_equal(gb_camp_bounds(m, &c, w, &b2, &w2), GB_OK);
        assert_true(fabs(b2 - 2 * best) <= 1e-9 * b2 && fabs(w2 - 2 * worst) <= 1e-9 * w2);
        c.st[4] = (double)N_SMS * ITERS * w;
        assert_int_equal(gb_camp_bounds(m, &c, w, &b2, &w2), GB_OK);
        assert_true(fabs(b2 - 2 * best - gb_camp_eq_time_ns(&m->eq[1][0], w, 4)) <= 1e-9 * b2);
    }
    /* 1-byte accesses are timed as 2-byte ones. */
    struct gb_camp_counts c1 = {0}, c2 = {0};
    double b1, w1, bb, wb;
    c1.ld[0] = 1e6;
    c2.ld[1] = 1e6;
    assert_int_equal(gb_camp_bounds(m, &c1, 16, &b1, &w1), GB_OK);
    assert_int_equal(gb_camp_bounds(m, &c2, 16, &bb, &wb), GB_OK);
    assert_true(b1 == bb && w1 == wb);
    assert_int_equal(gb_camp_eq_class_for(&m->eq[0][0], 0), 1);
    /* Bad counts. */
    c1.ld[0] = -1;
    assert_int_equal(gb_camp_bounds(m, &c1, 16, &b1, &w1), GB_ERR_USAGE);
    memset(&c1, 0, sizeof c1);
    assert_int_equal(gb_camp_bounds(m, &c1, 16, &b1, &w1), GB_ERR_USAGE);
    c1.st[3] = NAN;
    assert_int_equal(gb_camp_bounds(m, &c1, 16, &b1, &w1), GB_ERR_USAGE);
    c2.ld[1] = 1;
    assert_int_equal(gb_camp_bounds(m, &c2, 0, &b1, &w1), GB_ERR_USAGE);
    /* A model that measured only 2- and 4-byte reads cannot time 8-byte ones. */
    m->eq[0][0].n_widths = 2;
    c1 = (struct gb_camp_counts){0};
    c1.ld[3] = 10;
    assert_int_equal(gb_camp_bounds(m, &c1, 16, &b1, &w1), GB_ERR_USAGE);
    assert_non_null(strstr(gb_error_message(), "8-byte loads"));
    free(m);
}

static void test_band_degree_and_application_line(void **state)
{
    (void)state;
    struct gb_camp_model *m = fitted_model(250.0);
    struct gb_camp_counts c = {0};
    c.ld[2] = 3e6;
    c.ld[3] = 1e6;
    c.st[2] = 2e6;
    int w[N_W];
    struct gb_camp_row rows[N_W];
    for (size_t i = 0; i < N_W; i++)
        w[i] = warps_set[i];
    double degree;

    /* Without a measured time: the band only. Camped is slower here. */
    assert_int_equal(gb_camp_predict(m, &c, w, N_W, NAN, NAN, rows, &degree), GB_OK);
    assert_true(isnan(degree));
    for (size_t i = 0; i < N_W; i++) {
        assert_int_equal(rows[i].warps, w[i]);
        assert_true(rows[i].best_ns > 0 && rows[i].best_ns < rows[i].worst_ns);
        assert_true(isnan(rows[i].app_ns));
    }

    const size_t at = 6; /* 8 warps */
    const double b0 = rows[at].best_ns, w0 = rows[at].worst_ns;
    /* At the best bound the degree is 0 and the line is the best bound;
     * at the worst, 1 and the worst bound. */
    assert_int_equal(gb_camp_predict(m, &c, w, N_W, w[at], b0, rows, &degree), GB_OK);
    assert_true(fabs(degree) < 1e-12);
    for (size_t i = 0; i < N_W; i++)
        assert_true(fabs(rows[i].app_ns - rows[i].best_ns) <= 1e-9 * rows[i].best_ns);
    assert_int_equal(gb_camp_predict(m, &c, w, N_W, w[at], w0, rows, &degree), GB_OK);
    assert_true(fabs(degree - 1) < 1e-12);
    for (size_t i = 0; i < N_W; i++)
        assert_true(fabs(rows[i].app_ns - rows[i].worst_ns) <= 1e-9 * rows[i].worst_ns);

    /* In between: the line passes through the measured point, stays in the
     * band at the same proportion everywhere. */
    const double t0 = b0 + 0.3 * (w0 - b0);
    assert_int_equal(gb_camp_predict(m, &c, w, N_W, w[at], t0, rows, &degree), GB_OK);
    assert_true(fabs(degree - 0.3) < 1e-12);
    assert_true(fabs(rows[at].app_ns - t0) <= 1e-12 * t0);
    for (size_t i = 0; i < N_W; i++) {
        assert_true(rows[i].best_ns < rows[i].app_ns && rows[i].app_ns < rows[i].worst_ns);
        double d = gb_camp_degree(rows[i].best_ns, rows[i].worst_ns, rows[i].app_ns);
        assert_true(fabs(d - 0.3) < 1e-9);
    }
    /* Outside the band the degree says so, and the identity still holds. */
    assert_int_equal(gb_camp_predict(m, &c, w, N_W, w[at], 0.5 * b0, rows, &degree), GB_OK);
    assert_true(degree < 0);
    assert_true(fabs(rows[at].app_ns - 0.5 * b0) <= 1e-12 * b0);
    assert_int_equal(gb_camp_predict(m, &c, w, N_W, w[at], -1, rows, &degree), GB_ERR_USAGE);

    /* A band without width leaves the degree undefined. */
    assert_true(isnan(gb_camp_degree(5, 5, 6)));
    assert_true(gb_camp_degree(4, 6, 5) == 0.5);
    assert_true(gb_camp_extrapolate(4, 6, 0.25) == 4.5);
    m->eq[0][1] = m->eq[0][0];
    m->eq[1][1] = m->eq[1][0];
    assert_int_equal(gb_camp_predict(m, &c, w, N_W, w[at], t0, rows, &degree), GB_ERR_NUMERIC);
    free(m);
}

/* ---- configurations ---- */

static int contains(const int *v, size_t n, int x)
{
    for (size_t i = 0; i < n; i++)
        if (v[i] == x)
            return 1;
    return 0;
}

static void test_allowed_warps(void **state)
{
    (void)state;
    struct gb_device_info dev;
    int w[65], cfgw;
    size_t n;
    assert_int_equal(gb_device_from_cc(9, 0, &dev), GB_OK);

    /* 16 registers, no shared memory: 1..64 except the values with no
     * factoring k * warps_per_block with k <= 32 blocks and blocks of at
     * most 32 warps: the primes 37, 41, 43, 47, 53, 59, 61. 256 threads run
     * 8 blocks of 8 warps. */
    struct gb_camp_config cfg = {256, 16, 0, 0};
    assert_int_equal(gb_camp_allowed_warps(&dev, &cfg, w, &n, &cfgw), GB_OK);
    assert_int_equal(cfgw, 64);
    assert_int_equal(n, 64 - 7);
    static const int primes[] = {37, 41, 43, 47, 53, 59, 61};
    for (size_t i = 0; i < 7; i++)
        assert_false(contains(w, n, primes[i]));
    for (size_t i = 1; i < n; i++)
        assert_true(w[i] > w[i - 1]);

    /* 64 registers: 2048 per warp, 32 warps per SM; every value 1..32. */
    cfg.regs = 64;
    assert_int_equal(gb_camp_allowed_warps(&dev, &cfg, w, &n, &cfgw), GB_OK);
    assert_int_equal(cfgw, 32);
    assert_int_equal(n, 32);
    assert_int_equal(w[0], 1);
    assert_int_equal(w[31], 32);

    /* 100 KiB of shared memory: two blocks per SM (2 x 101 KiB of 228);
     * 1..32 with one block, the even values to 64 with two. */
    cfg.regs = 16;
    cfg.smem = 100 * 1024;
    assert_int_equal(gb_camp_allowed_warps(&dev, &cfg, w, &n, &cfgw), GB_OK);
    assert_int_equal(cfgw, 16);
    assert_int_equal(n, 32 + 16);
    assert_true(contains(w, n, 31) && contains(w, n, 34) && !contains(w, n, 33) &&
                contains(w, n, 64) && !contains(w, n, 63));

    /* A grid of one block per SM (132 SMs) holds 8 warps per SM at 256
     * threads, and no configuration of the same threads exceeds 32. */
    dev.sm_count = 132;
    cfg.smem = 0;
    cfg.grid = 132;
    assert_int_equal(gb_camp_allowed_warps(&dev, &cfg, w, &n, &cfgw), GB_OK);
    assert_int_equal(cfgw, 8);
    assert_int_equal(w[n - 1], 32);
    assert_true(contains(w, n, 8) && contains(w, n, 1));

    /* Nothing can run with more shared memory than a block may have. */
    cfg.grid = 0;
    cfg.smem = 300000;
    assert_int_equal(gb_camp_allowed_warps(&dev, &cfg, w, &n, &cfgw), GB_ERR_USAGE);
    cfg.smem = -1;
    assert_int_equal(gb_camp_allowed_warps(&dev, &cfg, w, &n, &cfgw), GB_ERR_USAGE);
}

/* ---- counts from requests and sectors ---- */

static void test_split_requests(void **state)
{
    (void)state;
    struct gb_camp_equation eq = {0};
    eq.n_widths = 4;
    eq.widths[0] = 2;
    eq.widths[1] = 4;
    eq.widths[2] = 8;
    eq.widths[3] = 16;
    double out[GB_CAMP_N_WIDTHS] = {0};

    /* 6 sectors per request: half at 4 bytes, half at 8; both totals kept. */
    assert_int_equal(gb_camp_split_requests(&eq, 1e6, 6e6, out), GB_OK);
    assert_true(out[2] == 5e5 && out[3] == 5e5);
    double r = 0, s = 0;
    for (int c = 0; c < GB_CAMP_N_WIDTHS; c++) {
        r += out[c];
        s += out[c] * gb_camp_class_width(c);
    }
    assert_true(r == 1e6 && s == 6e6);

    /* Exactly a width: all of it there. */
    memset(out, 0, sizeof out);
    assert_int_equal(gb_camp_split_requests(&eq, 100, 400, out), GB_OK);
    assert_true(out[2] == 100 && out[1] == 0 && out[3] == 0);
    /* Below the narrowest: all at the narrowest, requests kept. */
    memset(out, 0, sizeof out);
    assert_int_equal(gb_camp_split_requests(&eq, 100, 100, out), GB_OK);
    assert_true(out[1] == 100);
    /* Above the widest: sectors / 16 instructions of the widest. */
    memset(out, 0, sizeof out);
    assert_int_equal(gb_camp_split_requests(&eq, 100, 3200, out), GB_OK);
    assert_true(out[4] == 200);
    /* It adds to what is there. */
    assert_int_equal(gb_camp_split_requests(&eq, 10, 160, out), GB_OK);
    assert_true(out[4] == 210);
    /* Nothing, and bad input. */
    memset(out, 0, sizeof out);
    assert_int_equal(gb_camp_split_requests(&eq, 0, 0, out), GB_OK);
    for (int c = 0; c < GB_CAMP_N_WIDTHS; c++)
        assert_true(out[c] == 0);
    assert_int_equal(gb_camp_split_requests(&eq, 0, 5, out), GB_ERR_USAGE);
    assert_int_equal(gb_camp_split_requests(&eq, -1, 5, out), GB_ERR_USAGE);
    assert_int_equal(gb_camp_split_requests(&eq, NAN, 5, out), GB_ERR_USAGE);
}

/* ---- validation ---- */

static void test_geomean(void **state)
{
    (void)state;
    double v[] = {1, 4, 2, 0.5};
    assert_true(fabs(gb_camp_geomean(v, 2) - 2) < 1e-15);
    assert_true(fabs(gb_camp_geomean(v, 4) - 1.4142135623730951) < 1e-12); /* 4^(1/4) */
    double z[] = {0.1, 0};
    assert_true(gb_camp_geomean(z, 2) == 0);
    double bad[] = {0.1, -1};
    assert_true(isnan(gb_camp_geomean(bad, 2)));
    assert_true(isnan(gb_camp_geomean(v, 0)));
}

static void test_validate(void **state)
{
    (void)state;
    struct gb_camp_model *m = fitted_model(250.0);
    struct gb_camp_obs obs[8];
    struct gb_camp_validation v;
    struct gb_camp_counts c = {0};
    c.ld[2] = 2097152;
    c.st[2] = 2097152;
    memset(obs, 0, sizeof obs);

    /* An application exactly at degree 0.4 everywhere: the line is exact
     * from every start, the bounds are off by the band. */
    for (int i = 0; i < 8; i++) {
        double b, w;
        obs[i].warps = 8 * (i + 1);
        obs[i].counts = c;
        assert_int_equal(gb_camp_bounds(m, &c, obs[i].warps, &b, &w), GB_OK);
        obs[i].time_ns = b + 0.4 * (w - b);
    }
    assert_int_equal(gb_camp_validate(m, obs, 8, &v), GB_OK);
    assert_int_equal(v.n_points, 8);
    assert_int_equal(v.n_pairs_bounds, 64);
    assert_int_equal(v.n_pairs_app, 56);
    assert_true(v.gm_app < 1e-9);
    assert_true(fabs(v.degree_median - 0.4) < 1e-9 && fabs(v.degree_min - 0.4) < 1e-9 &&
                fabs(v.degree_max - 0.4) < 1e-9);
    assert_true(v.gm_best > 0.05 && v.gm_worst > 0.05);

    /* At the best bound: the best bound is exact. */
    for (int i = 0; i < 8; i++) {
        double b, w;
        assert_int_equal(gb_camp_bounds(m, &c, obs[i].warps, &b, &w), GB_OK);
        obs[i].time_ns = b;
    }
    assert_int_equal(gb_camp_validate(m, obs, 8, &v), GB_OK);
    assert_true(v.gm_best < 1e-9 && v.gm_app < 1e-9 && fabs(v.degree_median) < 1e-9);

    /* Every point 5% above or below the line, alternately: the line from
     * any start is off by about 5% (where the start and the point are off
     * the same way) to 10% (opposite ways) at every other point. */
    for (int i = 0; i < 8; i++)
        obs[i].time_ns *= i % 2 ? 1.05 : 0.95;
    assert_int_equal(gb_camp_validate(m, obs, 8, &v), GB_OK);
    assert_true(v.gm_app > 0.003 && v.gm_app < 0.11);
    assert_true(v.gm_best > 0.04 && v.gm_best < 0.06);
    /* the warps and times the points span; 8 to 64 warps is not one band */
    assert_true(v.warps_min == 8 && v.warps_max == 64);
    assert_true(v.time_min_ns > 0 && v.time_max_ns > v.time_min_ns);
    assert_false(gb_camp_same_warps(&v));

    /* Every point at 32 warps, times 1 to 2 us: one band, times apart by 2x */
    for (int i = 0; i < 8; i++) {
        obs[i].warps = 32 + 0.1 * i;
        obs[i].time_ns = 1000 * (1 + i / 7.0);
    }
    assert_int_equal(gb_camp_validate(m, obs, 8, &v), GB_OK);
    assert_true(gb_camp_same_warps(&v));
    for (int i = 0; i < 8; i++)   /* within 10%: nothing for the line to miss */
        obs[i].time_ns = 1000 * (1 + i / 100.0);
    assert_int_equal(gb_camp_validate(m, obs, 8, &v), GB_OK);
    assert_false(gb_camp_same_warps(&v));

    /* One point: no pair for the line. */
    assert_int_equal(gb_camp_validate(m, obs, 1, &v), GB_OK);
    assert_true(isnan(v.gm_app) && v.n_pairs_app == 0 && v.n_pairs_bounds == 1);
    obs[0].time_ns = 0;
    assert_int_equal(gb_camp_validate(m, obs, 1, &v), GB_ERR_FORMAT);
    assert_int_equal(gb_camp_validate(m, obs, 0, &v), GB_ERR_FORMAT);
    free(m);
}

/* ---- the model file ---- */

static void write_file(const char *path, const char *text)
{
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fputs(text, f);
    fclose(f);
}

static char *read_file(const char *path)
{
    FILE *f = fopen(path, "r");
    assert_non_null(f);
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *s = malloc((size_t)n + 1);
    assert_non_null(s);
    assert_int_equal(fread(s, 1, (size_t)n, f), (size_t)n);
    s[n] = '\0';
    fclose(f);
    return s;
}

/* Replaces the first `from` in the file's text by `to`, into `out`. */
static void edit_file(const char *in, const char *out, const char *from, const char *to)
{
    char *s = read_file(in);
    char *p = strstr(s, from);
    assert_non_null(p);
    FILE *f = fopen(out, "w");
    assert_non_null(f);
    fwrite(s, 1, (size_t)(p - s), f);
    fputs(to, f);
    fputs(p + strlen(from), f);
    fclose(f);
    free(s);
}

static void test_model_file(void **state)
{
    (void)state;
    char dir[] = "/tmp/gb-campprof-XXXXXX", path[256], bad[256];
    assert_non_null(mkdtemp(dir));
    snprintf(path, sizeof path, "%s/model.json", dir);
    snprintf(bad, sizeof bad, "%s/bad.json", dir);

    struct truth coef[2][2];
    memcpy(coef, true_coef, sizeof coef);
    coef[1][0].b8 = 0;
    struct gb_run *run = make_run(coef, 250.0, 0x5eed0002u);
    struct gb_camp_model *m = calloc(1, sizeof *m), *r = calloc(1, sizeof *r);
    assert_int_equal(gb_camp_fit(run, GB_CAMP_P_REMOVE, m), GB_OK);
    assert_int_equal(gb_camp_model_write(m, path), GB_OK);
    char tmp[300];
    snprintf(tmp, sizeof tmp, "%s.tmp", path);
    assert_int_equal(access(tmp, F_OK), -1);
    assert_int_equal(gb_camp_model_load(path, r), GB_OK);
    /* Everything prediction and the reports use comes back exactly. */
    for (int op = 0; op < 2; op++)
        for (int pat = 0; pat < 2; pat++) {
            const struct gb_camp_equation *a = &m->eq[op][pat], *b = &r->eq[op][pat];
            assert_int_equal(a->n_obs, b->n_obs);
            assert_int_equal(a->n_widths, b->n_widths);
            assert_int_equal(a->ref_width, b->ref_width);
            assert_true(a->warps_min == b->warps_min && a->warps_max == b->warps_max);
            assert_int_equal(a->fit.n_terms, b->fit.n_terms);
            assert_int_equal(a->full.n_terms, b->full.n_terms);
            for (size_t i = 0; i < a->fit.n_terms; i++) {
                assert_string_equal(a->fit.terms[i].name, b->fit.terms[i].name);
                assert_true(a->fit.terms[i].estimate == b->fit.terms[i].estimate);
                assert_true(a->fit.terms[i].se == b->fit.terms[i].se);
                assert_true(a->fit.terms[i].p == b->fit.terms[i].p);
            }
            for (size_t i = 0; i < a->full.n_terms; i++)
                assert_true(a->full.terms[i].estimate == b->full.terms[i].estimate);
            assert_true(a->fit.r2 == b->fit.r2 && a->fit.rmse_ns == b->fit.rmse_ns);
            assert_int_equal(a->n_dropped, b->n_dropped);
            for (size_t i = 0; i < a->n_dropped; i++) {
                assert_string_equal(a->dropped[i], b->dropped[i]);
                assert_true(a->dropped_p[i] == b->dropped_p[i]);
            }
            for (int c = 0; c < GB_CAMP_N_WIDTHS; c++)
                assert_true(a->instr_per_warp[c] == b->instr_per_warp[c]);
            for (int c = 1; c < GB_CAMP_N_WIDTHS; c++)
                assert_true(gb_camp_eq_time_ns(a, 7, c) == gb_camp_eq_time_ns(b, 7, c));
        }
    assert_true(r->p_remove == m->p_remove);
    assert_true(r->has_device);
    assert_string_equal(r->device.name, "test device");
    assert_int_equal(r->device.sm_count, N_SMS);
    assert_int_equal(r->device.max_threads_per_sm, 2048);
    assert_string_equal(r->run_started_utc, "2026-01-01T00:00:00Z");

    /* Malformed models: one clear error each. */
    assert_int_equal(gb_camp_model_load("/nonexistent/model.json", r), GB_ERR_IO);
    write_file(bad, "{\"format\": ");
    assert_int_equal(gb_camp_model_load(bad, r), GB_ERR_FORMAT);
    write_file(bad, "[1, 2]");
    assert_int_equal(gb_camp_model_load(bad, r), GB_ERR_FORMAT);
    edit_file(path, bad, "gpubound-campprof/1", "gpubound-run/1");
    assert_int_equal(gb_camp_model_load(bad, r), GB_ERR_FORMAT);
    assert_non_null(strstr(gb_error_message(), "not a CampProf model"));
    edit_file(path, bad, "\"term\": \"w\"", "\"term\": \"z\"");
    assert_int_equal(gb_camp_model_load(bad, r), GB_ERR_FORMAT);
    assert_non_null(strstr(gb_error_message(), "term = \"z\": allowed"));
    edit_file(path, bad, "\"pattern\": \"camped\"", "\"pattern\": \"spread\"");
    assert_int_equal(gb_camp_model_load(bad, r), GB_ERR_FORMAT);
    assert_non_null(strstr(gb_error_message(), "read/camped equation is missing"));
    edit_file(path, bad, "\"instructions_per_warp\": {\n        \"2\"",
              "\"instructions_per_warp\": {\n        \"3\"");
    assert_int_equal(gb_camp_model_load(bad, r), GB_ERR_FORMAT);
    assert_non_null(strstr(gb_error_message(), "instructions_per_warp.2 is missing"));
    edit_file(path, bad, "\"estimate\": ", "\"estimate\": \"x\", \"was\": ");
    assert_int_equal(gb_camp_model_load(bad, r), GB_ERR_FORMAT);
    edit_file(path, bad, "\"widths\": [\n        2,", "\"widths\": [\n        5,");
    assert_int_equal(gb_camp_model_load(bad, r), GB_ERR_FORMAT);

    /* A write into a missing directory fails and leaves nothing. */
    assert_int_equal(gb_camp_model_write(m, "/nonexistent/dir/model.json"), GB_ERR_IO);

    unlink(path);
    unlink(bad);
    rmdir(dir);
    free_run(run);
    free(m);
    free(r);
}

/* ---- Nsight Compute exports ---- */

static void test_ncu_raw(void **state)
{
    (void)state;
    struct gb_ncu_report *r;
    assert_int_equal(gb_ncu_load(GB_TEST_DATA "/ncu/transpose-raw.csv", &r), GB_OK);
    assert_false(r->details);
    assert_int_equal(r->n_launches, 3);
    const struct gb_ncu_launch *l = &r->launches[0];
    assert_int_equal(l->id, 0);
    assert_string_equal(l->kernel, "transposeCoalesced(float *, const float *, int, int)");
    assert_string_equal(l->block, "(32, 8, 1)");
    assert_int_equal(gb_ncu_dim_product(l->block), 256);
    assert_int_equal(gb_ncu_dim_product(l->grid), 65536);
    /* usecond -> ns, thousands separators, Kbyte/block -> bytes. */
    assert_true(fabs(gb_ncu_value(l, "gpu__time_duration.sum", NAN) - 61470) < 1e-6);
    assert_true(gb_ncu_value(l, GB_NCU_LD_REQUESTS, NAN) == 2097152);
    assert_true(gb_ncu_value(l, GB_NCU_LD_SECTORS, NAN) == 8388608);
    assert_true(gb_ncu_value(l, GB_NCU_GRID, NAN) == 65536);
    assert_true(fabs(gb_ncu_value(l, GB_NCU_SMEM_STATIC, NAN) - 4220) < 1e-9);
    assert_true(gb_ncu_value(l, GB_NCU_REGS, NAN) == 16);
    const struct gb_ncu_metric *mt = gb_ncu_find(l, GB_NCU_TIME);
    assert_non_null(mt);
    assert_string_equal(mt->unit, "usecond");
    /* Fixed columns are not metrics. */
    assert_null(gb_ncu_find(l, "Process ID"));
    assert_true(isnan(gb_ncu_value(l, "no_such_metric", NAN)));

    /* Mapped to the model: 4 sectors per request is all 4-byte; 6 is half
     * 4 and half 8 bytes; 20 is more than 16, counted as sectors / 16. */
    struct gb_camp_model *m = fitted_model(250.0);
    struct gb_camp_ncu_input in;
    assert_int_equal(gb_camp_from_ncu(m, l, &in), GB_OK);
    assert_true(in.counts.ld[2] == 2097152 && in.counts.st[2] == 2097152);
    assert_true(in.threads == 256 && in.grid == 65536 && in.regs == 16 && in.smem == 4220);
    assert_true(fabs(in.time_ns - 61470) < 1e-6);
    assert_string_equal(in.ld_requests_metric, GB_NCU_LD_REQUESTS);
    l = &r->launches[2];
    assert_int_equal(gb_camp_from_ncu(m, l, &in), GB_OK);
    assert_true(in.counts.ld[2] == 500000 && in.counts.ld[3] == 500000 && in.counts.ld[4] == 0);
    assert_true(in.counts.st[4] == 312500 && in.counts.st[2] == 0);
    assert_true(in.threads == 128 && in.grid == 4096 && in.regs == 40 && in.smem == 8192);
    gb_ncu_free(r);
    free(m);
}

static void test_ncu_details(void **state)
{
    (void)state;
    struct gb_ncu_report *r;
    assert_int_equal(gb_ncu_load(GB_TEST_DATA "/ncu/transpose-details.csv", &r), GB_OK);
    assert_true(r->details);
    assert_int_equal(r->n_launches, 1);
    const struct gb_ncu_launch *l = &r->launches[0];
    /* Launch statistics under their metric names; Msector scaled. */
    assert_true(gb_ncu_value(l, GB_NCU_BLOCK, NAN) == 256);
    assert_true(gb_ncu_value(l, GB_NCU_GRID, NAN) == 65536);
    assert_true(gb_ncu_value(l, GB_NCU_REGS, NAN) == 16);
    assert_true(fabs(gb_ncu_value(l, GB_NCU_SMEM_STATIC, NAN) - 4220) < 1e-9);
    assert_true(gb_ncu_value(l, GB_NCU_SMEM_DYNAMIC, NAN) == 0);
    assert_true(fabs(gb_ncu_value(l, GB_NCU_TIME, NAN) - 61470) < 1e-6);
    assert_true(fabs(gb_ncu_value(l, GB_NCU_LD_SECTORS, NAN) - 8.39e6) < 1e-3);
    assert_true(gb_ncu_value(l, "Elapsed Cycles", NAN) == 108417);
    assert_true(isnan(gb_ncu_value(l, "Function Cache Configuration", NAN)));
    assert_non_null(gb_ncu_find(l, "Function Cache Configuration"));
    gb_ncu_free(r);
}

static void test_ncu_errors(void **state)
{
    (void)state;
    char dir[] = "/tmp/gb-ncu-XXXXXX", path[256];
    struct gb_ncu_report *r = NULL;
    assert_non_null(mkdtemp(dir));
    snprintf(path, sizeof path, "%s/x.csv", dir);

    assert_int_equal(gb_ncu_load("/nonexistent.csv", &r), GB_ERR_IO);
    write_file(path, "==PROF== Connected\nhello\n");
    assert_int_equal(gb_ncu_load(path, &r), GB_ERR_FORMAT);
    assert_non_null(strstr(gb_error_message(), "not an Nsight Compute CSV export"));
    write_file(path, "\"ID\",\"Kernel Name\",\"a__b.sum\"\n\"\",\"\",\"byte\"\n");
    assert_int_equal(gb_ncu_load(path, &r), GB_ERR_FORMAT);
    assert_non_null(strstr(gb_error_message(), "no kernel launch"));
    write_file(path, "\"ID\",\"Kernel Name\",\"a__b.sum\"\n\"0\",\"k\"\n");
    assert_int_equal(gb_ncu_load(path, &r), GB_ERR_FORMAT);
    assert_non_null(strstr(gb_error_message(), ":2: 2 fields"));
    write_file(path, "\"ID\",\"Kernel Name\",\"a__b.sum\"\n\"0\",\"k(int, \n");
    assert_int_equal(gb_ncu_load(path, &r), GB_ERR_FORMAT);
    write_file(path, "\"ID\",\"Kernel Name\",\"a__b.sum\"\n\"x\",\"k\",\"1\"\n");
    assert_int_equal(gb_ncu_load(path, &r), GB_ERR_FORMAT);
    assert_null(r);
    /* A quoted quote, CRLF line ends, a value that is not a number. */
    write_file(path, "\"ID\",\"Kernel Name\",\"a__b.sum\",\"c__d.sum\"\r\n"
                     "\"\",\"\",\"Kbyte\",\"\"\r\n"
                     "\"3\",\"k<\"\"x\"\">\",\"1,024.5\",\"n/a\"\r\n");
    assert_int_equal(gb_ncu_load(path, &r), GB_OK);
    assert_string_equal(r->launches[0].kernel, "k<\"x\">");
    assert_true(gb_ncu_value(&r->launches[0], "a__b.sum", NAN) == 1024500);
    assert_true(isnan(gb_ncu_value(&r->launches[0], "c__d.sum", NAN)));
    /* Without the sector counts the widths cannot be told. */
    struct gb_camp_model *m = fitted_model(250.0);
    struct gb_camp_ncu_input in;
    assert_int_equal(gb_camp_from_ncu(m, &r->launches[0], &in), GB_ERR_FORMAT);
    assert_non_null(strstr(gb_error_message(), GB_NCU_LD_SECTORS));
    gb_ncu_free(r);
    free(m);
    assert_int_equal(gb_ncu_dim_product("(3, 4)"), 12);
    assert_int_equal(gb_ncu_dim_product("256"), -1);
    assert_int_equal(gb_ncu_dim_product("(3, x)"), -1);
    unlink(path);
    rmdir(dir);
}

/* An independent oracle, worked by hand from the CampProf paper's model
 * (Aji, Daga and Feng, CF'11, section 4): an equation gives the time of the
 * benchmark's launch, t(w) = b + a1*w + a_W (the dummy of width W); the
 * benchmark issues k instructions per active warp, so one instruction at w
 * warps costs t(w) / (k * w), and a kernel's n instructions n times that.
 * Spread reads: b = 1000, a1 = 100, a_4 = -200, k = 1000; camped reads:
 * b = 3000, a1 = 300, a_4 = -600, k = 1000. At w = 8 the spread launch takes
 * 1000 + 800 - 200 = 1600 ns, so 2e6 4-byte loads take 2e6 * 1600 / 8000 =
 * 400000 ns; camped 3000 + 2400 - 600 = 4800 ns, 1.2e6 ns. A measured
 * 800000 ns is halfway: degree 0.5. At w = 16 the line is at half of
 * [2e6 * 2400 / 16000, 2e6 * 7200 / 16000] = [300000, 900000]: 600000 ns. */
static void set_eq(struct gb_camp_equation *eq, enum gb_camp_op op, enum gb_camp_pattern pat, double b,
                   double a1, double a4)
{
    memset(eq, 0, sizeof *eq);
    eq->op = op;
    eq->pattern = pat;
    eq->n_widths = 2;
    eq->widths[0] = 4;
    eq->widths[1] = 16;
    eq->ref_width = 16;
    eq->fit.n_terms = 3;
    snprintf(eq->fit.terms[0].name, sizeof eq->fit.terms[0].name, "(intercept)");
    eq->fit.terms[0].estimate = b;
    snprintf(eq->fit.terms[1].name, sizeof eq->fit.terms[1].name, "w");
    eq->fit.terms[1].estimate = a1;
    snprintf(eq->fit.terms[2].name, sizeof eq->fit.terms[2].name, "b4");
    eq->fit.terms[2].estimate = a4;
    eq->instr_per_warp[2] = 1000;
    eq->instr_per_warp[4] = 1000;
}

static void test_hand_computed_band(void **state)
{
    (void)state;
    assert_int_equal(gb_camp_class_width(2), 4);
    assert_int_equal(gb_camp_class_width(4), 16);
    struct gb_camp_model *m = calloc(1, sizeof *m);
    assert_non_null(m);
    set_eq(&m->eq[GB_CAMP_READ][GB_CAMP_SPREAD], GB_CAMP_READ, GB_CAMP_SPREAD, 1000, 100, -200);
    set_eq(&m->eq[GB_CAMP_READ][GB_CAMP_CAMPED], GB_CAMP_READ, GB_CAMP_CAMPED, 3000, 300, -600);
    set_eq(&m->eq[GB_CAMP_WRITE][GB_CAMP_SPREAD], GB_CAMP_WRITE, GB_CAMP_SPREAD, 1000, 100, -200);
    set_eq(&m->eq[GB_CAMP_WRITE][GB_CAMP_CAMPED], GB_CAMP_WRITE, GB_CAMP_CAMPED, 3000, 300, -600);
    struct gb_camp_counts c = {0};
    c.ld[2] = 2e6;
    double best, worst, degree;
    assert_int_equal(gb_camp_bounds(m, &c, 8, &best, &worst), GB_OK);
    assert_true(fabs(best - 400000) < 1e-6);
    assert_true(fabs(worst - 1200000) < 1e-6);
    int w[2] = {8, 16};
    struct gb_camp_row rows[2];
    assert_int_equal(gb_camp_predict(m, &c, w, 2, 8, 800000, rows, &degree), GB_OK);
    assert_true(fabs(degree - 0.5) < 1e-12);
    assert_true(fabs(rows[1].best_ns - 300000) < 1e-6);
    assert_true(fabs(rows[1].worst_ns - 900000) < 1e-6);
    assert_true(fabs(rows[1].app_ns - 600000) < 1e-6);
    /* 16-byte stores use the reference level (no dummy): 1e6 of them at 8
     * warps, spread: 1e6 * (1000 + 800) / 8000 = 225000 ns on top. */
    c.st[4] = 1e6;
    assert_int_equal(gb_camp_bounds(m, &c, 8, &best, &worst), GB_OK);
    assert_true(fabs(best - 625000) < 1e-6);
    assert_true(fabs(worst - (1200000 + 1e6 * 5400 / 8000)) < 1e-6);
    free(m);
}

/* The chosen form recovers the L_W and knees it was made with: times made
 * as L * (1 + (w/knee)^4)^(1/4) per equation and width with 2% relative
 * noise; every L within 3 standard errors and 3%, every knee within 10%,
 * the held-out error near the noise (not the 20% of a wrong form), and
 * every prediction over 1..64 warps positive. The band keeps best <= worst
 * even where the camped fit is made faster than the spread one. */
static void test_chosen_form_recovers(void **state)
{
    (void)state;
    static const double L[2][2][4] = {{{27000, 15000, 15000, 29000}, {24000, 18000, 23000, 32000}},
                                      {{11000, 6000, 19000, 35000}, {4000, 19000, 100000, 210000}}};
    static const double knee[2][2][4] = {{{34, 25, 14, 15}, {2.6, 2.6, 1.7, 1.1}},
                                         {{3.7, 2.1, 3.0, 2.6}, {0.2, 0.5, 1.0, 1.0}}};
    struct gb_run *run = make_run(true_coef, 0, 7);
    struct gb_camp_model *m = calloc(1, sizeof *m);
    assert_non_null(m);
    rng_state = 99;
    for (size_t i = 0; i < run->n_records; i++) {
        struct gb_record *r = &run->records[i];
        if (r->status != GB_REC_OK || strcmp(r->suite, "camping"))
            continue;
        int op = strcmp(r->bench, "write") == 0, pat = strcmp(gb_record_axis(r, "pattern"), "camped") == 0;
        int k = gb_camp_width_class(atoi(gb_record_axis(r, "width"))) - 1;
        double w = gb_record_metric(r, "active_warps", NAN), x = w / knee[op][pat][k];
        r->time_ns.median = L[op][pat][k] * pow(1 + x * x * x * x, 0.25) * (1 + 0.02 * rng_normal());
    }
    assert_int_equal(GB_CAMP_FORM_DEFAULT, GB_CAMP_FORM_SMAX4);
    assert_int_equal(gb_camp_fit_form(run, GB_CAMP_P_REMOVE, GB_CAMP_FORM_SMAX4, GB_CAMP_LEVEL_UNKNOWN,
                                      m), GB_OK);
    assert_int_equal(m->level, GB_CAMP_LEVEL_L2);
    for (int op = 0; op < 2; op++)
        for (int pat = 0; pat < 2; pat++) {
            const struct gb_camp_equation *eq = &m->eq[op][pat];
            assert_int_equal(eq->fit.n_terms, 8);
            for (size_t t = 0; t < eq->fit.n_terms; t++) {
                const struct gb_camp_term *term = &eq->fit.terms[t];
                int k = gb_camp_width_class(atoi(strchr(term->name, 'b') + 1)) - 1;
                double kn = knee[op][pat][k];
                /* Below one warp only L / knee shows in the data: the curve is checked below. */
                if (kn < 2)
                    continue;
                if (term->name[0] == 'L')
                    assert_true(fabs(term->estimate - L[op][pat][k]) <
                                3 * term->se + 0.03 * L[op][pat][k]);
                else
                    assert_true(fabs(term->estimate - kn) < 0.10 * kn);
            }
            for (int k = 0; k < 4; k++)
                for (int w = 1; w <= 64; w++) {
                    double x = w / knee[op][pat][k];
                    double truth = L[op][pat][k] * pow(1 + x * x * x * x, 0.25);
                    assert_true(fabs(gb_camp_eq_time_ns(eq, w, k + 1) - truth) < 0.05 * truth);
                }
            assert_true(eq->cv_gm > 0 && eq->cv_gm < 0.03);
            assert_int_equal(eq->cv_folds, N_W);
            for (int k = 1; k < GB_CAMP_N_WIDTHS; k++)
                for (int w = 1; w <= 64; w++)
                    assert_true(gb_camp_eq_time_ns(eq, w, k) > 0);
        }
    /* The paper's form on the same data: held-out error far above. */
    struct gb_camp_model *p = calloc(1, sizeof *p);
    assert_non_null(p);
    assert_int_equal(gb_camp_fit_form(run, GB_CAMP_P_REMOVE, GB_CAMP_FORM_PAPER, GB_CAMP_LEVEL_UNKNOWN,
                                      p), GB_OK);
    assert_true(p->eq[0][0].cv_gm > 3 * m->eq[0][0].cv_gm);
    /* Camped made faster than spread at one width: worst stays >= best. */
    struct gb_camp_counts c;
    memset(&c, 0, sizeof c);
    c.ld[gb_camp_width_class(4)] = 1e6;
    for (size_t t = 0; t < m->eq[0][1].fit.n_terms; t++)
        if (strcmp(m->eq[0][1].fit.terms[t].name, "L:b4") == 0)
            m->eq[0][1].fit.terms[t].estimate = 10;
    double b, wv;
    assert_int_equal(gb_camp_bounds(m, &c, 8, &b, &wv), GB_OK);
    assert_true(b > 0 && wv == b);
    free(p);
    free(m);
    free_run(run);
}

/* A kernel-spec point: counts from the profiler's counters (split by
 * sectors per request), else from its bytes as 4-byte loads. */
static void test_spec_obs(void **state)
{
    (void)state;
    struct gb_record r;
    struct gb_camp_obs o;
    int fc = -1;
    memset(&r, 0, sizeof r);
    snprintf(r.suite, sizeof r.suite, "stencil");
    snprintf(r.bench, sizeof r.bench, "stencil");
    r.status = GB_REC_OK;
    r.time_ns.median = 5000;
    r.bytes = 128 * 1000;
    assert_int_equal(gb_camp_spec_obs(&r, &o, &fc), GB_ERR_FORMAT);   /* no warps */
    assert_int_equal(gb_record_set_metric(&r, "active_warps_per_sm", 24), GB_OK);
    assert_int_equal(gb_camp_spec_obs(&r, &o, &fc), GB_OK);
    assert_int_equal(fc, 0);
    assert_true(o.warps == 24 && o.counts.ld[2] == 1000 && o.counts.st[2] == 0);
    assert_int_equal(gb_record_set_metric(&r, "ld_requests", 100), GB_OK);
    assert_int_equal(gb_record_set_metric(&r, "ld_sectors", 800), GB_OK);
    assert_int_equal(gb_record_set_metric(&r, "st_requests", 50), GB_OK);
    assert_int_equal(gb_record_set_metric(&r, "st_sectors", 200), GB_OK);
    assert_int_equal(gb_camp_spec_obs(&r, &o, &fc), GB_OK);
    assert_int_equal(fc, 1);
    assert_true(o.counts.ld[3] == 100 && o.counts.ld[2] == 0);   /* 8 sectors: 8 bytes */
    assert_true(o.counts.st[2] == 50);                           /* 4 sectors: 4 bytes */
    free(r.metrics);
}

/* The replace guard of the model file: a model fitted on fewer
 * observations does not replace the one at the path unless forced. */
static void test_model_guard(void **state)
{
    (void)state;
    char dir[] = "/tmp/gb-campprof-XXXXXX", path[256];
    assert_non_null(mkdtemp(dir));
    snprintf(path, sizeof path, "%s/model.json", dir);
    struct gb_camp_model *m = fitted_model(0.0);
    size_t all = gb_camp_model_points(m);
    assert_true(all > 0);
    assert_int_equal(gb_camp_model_guard(path, m, 0), GB_OK);  /* nothing there yet */
    assert_int_equal(gb_camp_model_write(m, path), GB_OK);
    assert_int_equal(gb_camp_model_guard(path, m, 0), GB_OK);  /* as many */
    m->eq[0][0].n_obs--;
    assert_int_equal(gb_camp_model_points(m), all - 1);
    assert_int_equal(gb_camp_model_guard(path, m, 0), GB_ERR_UNSUPPORTED);
    assert_non_null(strstr(gb_error_message(), "observations and this fit has"));
    assert_int_equal(gb_camp_model_guard(path, m, 1), GB_OK);
    free(m);
    remove(path);
    rmdir(dir);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_fit_recovers_coefficients),
        cmocka_unit_test(test_fit_without_noise_is_exact),
        cmocka_unit_test(test_backward_elimination),
        cmocka_unit_test(test_interactions),
        cmocka_unit_test(test_fit_errors),
        cmocka_unit_test(test_normalisation),
        cmocka_unit_test(test_band_degree_and_application_line),
        cmocka_unit_test(test_hand_computed_band),
        cmocka_unit_test(test_allowed_warps),
        cmocka_unit_test(test_split_requests),
        cmocka_unit_test(test_geomean),
        cmocka_unit_test(test_validate),
        cmocka_unit_test(test_model_file),
        cmocka_unit_test(test_model_guard),
        cmocka_unit_test(test_ncu_raw),
        cmocka_unit_test(test_ncu_details),
        cmocka_unit_test(test_ncu_errors),
        cmocka_unit_test(test_chosen_form_recovers),
        cmocka_unit_test(test_spec_obs),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
