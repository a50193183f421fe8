/* test_campprof_limits.c - where CampProf stops giving numbers, on models
 * and samples made here with values worked by hand:
 *
 * 1. A linear (paper) form whose times fall to <= 0 at few warps: no
 *    configuration there gets a time (gb_camp_in_range, NaN bounds and
 *    line, no degree at a measured configuration there), the domain judge
 *    puts it outside the model's range, and validation leaves it out; an
 *    application line extrapolated below 0 gives no time either.
 * 2. The knee search of the latency-throughput forms (campprof_forms.c):
 *    a knee inside the grid is found as before; one the data place below
 *    the grid's 0.05 warps is found past it; times in proportion to the
 *    warps from the fewest measured on (no latency regime) or flat times
 *    (no throughput regime) leave the knee at the grid's edge, marked, and
 *    the mark goes through the model file.
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
#include "models/campprof/campprof_int.h"

/* ---- 1. a linear form's range ---- */

/* One equation of the paper's form timing 4-byte accesses:
 * t(w) = b + a * w ns per launch, 1000 instructions per active warp. */
static void linear_eq(struct gb_camp_equation *eq, enum gb_camp_op op, enum gb_camp_pattern pat,
                      double b, double a)
{
    memset(eq, 0, sizeof *eq);
    eq->op = op;
    eq->pattern = pat;
    eq->form = GB_CAMP_FORM_PAPER;
    eq->n_widths = 1;
    eq->widths[0] = 4;
    eq->ref_width = 4;
    eq->warps_min = 1;
    eq->warps_max = 64;
    eq->fit.n_terms = 2;
    snprintf(eq->fit.terms[0].name, sizeof eq->fit.terms[0].name, "(intercept)");
    eq->fit.terms[0].estimate = b;
    snprintf(eq->fit.terms[1].name, sizeof eq->fit.terms[1].name, "w");
    eq->fit.terms[1].estimate = a;
    eq->instr_per_warp[gb_camp_width_class(4)] = 1000;
}

/* Spread: t = -4000 + 500 w, > 0 above 8 warps; camped: t = -12000 +
 * 1000 w, > 0 above 12. One 4-byte load at w warps costs t / (1000 w). */
static struct gb_camp_model *linear_model(void)
{
    struct gb_camp_model *m = calloc(1, sizeof *m);
    assert_non_null(m);
    m->form = GB_CAMP_FORM_PAPER;
    for (int op = 0; op < 2; op++) {
        linear_eq(&m->eq[op][GB_CAMP_SPREAD], (enum gb_camp_op)op, GB_CAMP_SPREAD, -4000, 500);
        linear_eq(&m->eq[op][GB_CAMP_CAMPED], (enum gb_camp_op)op, GB_CAMP_CAMPED, -12000, 1000);
    }
    return m;
}

static void test_linear_range(void **state)
{
    (void)state;
    struct gb_camp_model *m = linear_model();
    struct gb_camp_counts c = {0};
    double best, worst;
    c.ld[gb_camp_width_class(4)] = 1e6;
    /* In range only where both equations are > 0: above 12 warps. */
    assert_false(gb_camp_in_range(m, &c, 4));
    assert_false(gb_camp_in_range(m, &c, 8));
    assert_false(gb_camp_in_range(m, &c, 10)); /* spread 1000 ns, camped -2000 */
    assert_false(gb_camp_in_range(m, &c, 12));
    assert_true(gb_camp_in_range(m, &c, 13));
    /* No time where it is out: not a negative one, not the camped bound
     * raised to the spread one. */
    assert_int_equal(gb_camp_bounds(m, &c, 10, &best, &worst), GB_OK);
    assert_true(isnan(best) && isnan(worst));
    /* At 16 warps: spread 4000 ns a launch, 1e6 * 4000 / 16000 = 250000 ns;
     * camped 4000 ns too: the band has no width there. At 20: spread 6000,
     * camped 8000: 1e6 * 6000 / 20000 = 300000 and 400000 ns. */
    assert_int_equal(gb_camp_bounds(m, &c, 20, &best, &worst), GB_OK);
    assert_true(fabs(best - 300000) < 1e-6 && fabs(worst - 400000) < 1e-6);
    /* Counts the model does not time are no part of the range. */
    struct gb_camp_counts none = {0};
    assert_true(gb_camp_in_range(m, &none, 1));
    free(m);
}

static void test_linear_predict(void **state)
{
    (void)state;
    struct gb_camp_model *m = linear_model();
    struct gb_camp_counts c = {0};
    int w[32];
    struct gb_camp_row rows[32];
    double degree;
    c.ld[gb_camp_width_class(4)] = 1e6;
    for (int i = 0; i < 32; i++)
        w[i] = i + 1;
    /* Measured 350000 ns at 20 warps: halfway, degree 0.5. */
    assert_int_equal(gb_camp_predict(m, &c, w, 32, 20, 350000, rows, &degree), GB_OK);
    assert_true(fabs(degree - 0.5) < 1e-12);
    for (int i = 0; i < 32; i++) {
        if (w[i] <= 12) {
            assert_true(isnan(rows[i].best_ns) && isnan(rows[i].worst_ns) && isnan(rows[i].app_ns));
        } else {
            assert_true(rows[i].best_ns > 0 && rows[i].worst_ns >= rows[i].best_ns);
            assert_true(rows[i].app_ns > 0);
        }
    }
    /* Measured at 10 warps, outside the range: no degree, no line, no error. */
    assert_int_equal(gb_camp_predict(m, &c, w, 32, 10, 350000, rows, &degree), GB_OK);
    assert_true(isnan(degree));
    for (int i = 0; i < 32; i++)
        assert_true(isnan(rows[i].app_ns));
    /* A degree far below 0 (measured 1000 ns at 20 warps: (1000 - 300000) /
     * 100000 = -2.99) takes the line below 0 where the band is wide: at 32
     * warps spread 12000, camped 20000 ns a launch: [375000, 625000] ns,
     * line 375000 - 2.99 * 250000 < 0: no time there, not a negative one. */
    assert_int_equal(gb_camp_predict(m, &c, w, 32, 20, 1000, rows, &degree), GB_OK);
    assert_true(fabs(degree + 2.99) < 1e-12);
    assert_true(isnan(rows[31].app_ns));
    assert_true(isnan(rows[0].app_ns));
    for (int i = 0; i < 32; i++)
        assert_true(isnan(rows[i].app_ns) || rows[i].app_ns > 0);
    free(m);
}

static struct gb_camp_obs obs_at(double warps, double time_ns)
{
    struct gb_camp_obs o;
    memset(&o, 0, sizeof o);
    o.warps = warps;
    o.time_ns = time_ns;
    o.counts.ld[gb_camp_width_class(4)] = 1e6;
    o.limit_warps = o.achieved_warps = o.measured_warps = o.grid_blocks = o.bytes = NAN;
    o.dram_read_bytes = o.dram_write_bytes = o.l2_read_bytes = o.l2_write_bytes = NAN;
    return o;
}

static void test_linear_domain(void **state)
{
    (void)state;
    struct gb_camp_model *m = linear_model();
    struct gb_camp_domain d;
    struct gb_camp_obs o = obs_at(8, 200000);
    /* Judged outside the model's range first, with or without roofs. */
    gb_camp_domain_judge(m, NULL, 132, &o, &d);
    assert_int_equal(d.why, GB_CAMP_DOMAIN_RANGE);
    assert_false(gb_camp_domain_applies(d.why));
    assert_non_null(strstr(d.reason, "outside the model's range"));
    assert_non_null(strstr(d.reason, "paper form"));
    assert_string_equal(gb_camp_domain_name(d.why), "outside the model's range");
    o = obs_at(20, 350000);
    gb_camp_domain_judge(m, NULL, 132, &o, &d);
    assert_true(gb_camp_domain_applies(d.why));
    /* Validation leaves the configurations out of range out: 2 of 4. */
    struct gb_camp_obs all[4] = {obs_at(4, 200000), obs_at(10, 300000), obs_at(20, 350000),
                                 obs_at(32, 500000)};
    struct gb_camp_app app;
    struct gb_camp_domain dom[4];
    struct gb_camp_validation v;
    memset(&app, 0, sizeof app);
    snprintf(app.bench, sizeof app.bench, "gem");
    snprintf(app.label, sizeof app.label, "gem");
    app.obs = all;
    app.n = 4;
    assert_int_equal(gb_camp_validate_app(m, NULL, &app, dom, &v), GB_OK);
    assert_int_equal(v.n_out_domain, 2);
    assert_int_equal(v.n_points, 2);
    assert_int_equal(dom[0].why, GB_CAMP_DOMAIN_RANGE);
    assert_int_equal(dom[1].why, GB_CAMP_DOMAIN_RANGE);
    assert_true(isfinite(v.gm_best) && v.degree_median > 0);
    /* gb_camp_validate alone refuses a configuration it cannot time. */
    assert_int_equal(gb_camp_validate(m, all, 4, &v), GB_ERR_NUMERIC);
    assert_non_null(strstr(gb_error_message(), "outside the range"));
    /* The chart's band: no time out of range, the line from the middle one in it. */
    struct gb_camp_row rows[4];
    double meas[4], degree;
    size_t start;
    assert_int_equal(gb_camp_app_band(m, all, 4, dom, rows, meas, &start, &degree), GB_OK);
    assert_true(start >= 2);
    assert_true(isnan(rows[0].best_ns) && isnan(rows[0].app_ns) && isnan(rows[1].worst_ns));
    assert_true(rows[3].best_ns > 0 && rows[3].app_ns > 0);
    free(m);
}

/* ---- 2. the knee search ---- */

#define N_S 48

/* Fits width 16 of the smax4 form to times t(w_i); the knee term into *k. */
static void fit_knee(const double *w, const double *t, size_t n, struct gb_camp_term *k, double *L)
{
    struct gb_camp_equation *eq = calloc(1, sizeof *eq);
    struct gb_camp_sample s[N_S];
    assert_non_null(eq);
    eq->form = GB_CAMP_FORM_SMAX4;
    eq->n_widths = 1;
    eq->widths[0] = 16;
    eq->warps_min = w[0];
    eq->warps_max = w[n - 1];
    for (size_t i = 0; i < n; i++)
        s[i] = (struct gb_camp_sample){t[i], w[i], gb_camp_width_class(16), 1000, NAN};
    assert_int_equal(gb_camp_lt_fit(eq, s, n), GB_OK);
    assert_int_equal(eq->fit.n_terms, 2);
    assert_string_equal(eq->fit.terms[1].name, "knee:b16");
    *k = eq->fit.terms[1];
    *L = eq->fit.terms[0].estimate;
    assert_false(eq->fit.terms[0].at_edge);
    free(eq);
}

static double smax4(double L, double knee, double w)
{
    double x = w / knee;
    return L * pow(1 + x * x * x * x, 0.25);
}

static void test_knee_inside(void **state)
{
    (void)state;
    double w[N_S], t[N_S], L;
    struct gb_camp_term k;
    for (int i = 0; i < 40; i++) {
        w[i] = i + 1;
        t[i] = smax4(20000, 8, w[i]);
    }
    fit_knee(w, t, 40, &k, &L);
    /* On the grid 0.05 * 1.02^i: within one step of 8, not marked. */
    assert_true(fabs(k.estimate - 8) < 0.02 * 8);
    assert_true(fabs(L - 20000) < 0.02 * 20000);
    assert_false(k.at_edge);
}

static void test_knee_below_grid(void **state)
{
    (void)state;
    /* Warps from 0.005 (achieved warps of tiny grids) up: a knee at 0.02,
     * below the grid's 0.05, that the data place. */
    double w[N_S], t[N_S], L;
    struct gb_camp_term k;
    for (int i = 0; i < 14; i++) {
        w[i] = 0.005 * pow(2, i);
        t[i] = smax4(3000, 0.02, w[i]);
    }
    fit_knee(w, t, 14, &k, &L);
    assert_true(fabs(k.estimate - 0.02) < 0.02 * 0.02);
    assert_true(fabs(L - 3000) < 0.02 * 3000);
    assert_false(k.at_edge);
}

static void test_knee_not_placed(void **state)
{
    (void)state;
    double w[N_S], t[N_S], L;
    struct gb_camp_term k;
    /* Times in proportion to the warps from 1 on (205 us a warp, as the
     * H100's camped 16-byte stores): any knee below 1 fits alike. */
    for (int i = 0; i < 40; i++) {
        w[i] = i + 1;
        t[i] = 205000 * w[i];
    }
    fit_knee(w, t, 40, &k, &L);
    assert_true(k.at_edge);
    assert_true(fabs(k.estimate - 0.05) < 1e-12);  /* the grid's low edge */
    assert_true(fabs(L / k.estimate - 205000) < 1e-6 * 205000);
    /* Flat times: any knee above the most warps fits alike. */
    for (int i = 0; i < 40; i++)
        t[i] = 9000;
    fit_knee(w, t, 40, &k, &L);
    assert_true(k.at_edge);
    assert_true(k.estimate > 64 && k.estimate <= 8 * 40);
    assert_true(fabs(L - 9000) < 1e-3 * 9000);
}

/* The mark goes into the model file and comes back: on the committed H100
 * model's camped 16-byte stores' knee, written and read again; a model
 * file that marks a term other than a knee is refused. */
static void test_knee_edge_file(void **state)
{
    (void)state;
    struct gb_camp_model *m = calloc(1, sizeof *m), *back = calloc(1, sizeof *back);
    char path[] = "/tmp/gb-knee-edge-XXXXXX";
    int fd = mkstemp(path);
    assert_true(fd >= 0 && m && back);
    close(fd);
    assert_int_equal(gb_camp_model_load(GB_SOURCE_DIR "/data/h100/camping-2026-11-23/campprof-model.json", m),
                     GB_OK);
    struct gb_camp_fitstats *f = &m->eq[GB_CAMP_WRITE][GB_CAMP_CAMPED].fit;
    assert_string_equal(f->terms[7].name, "knee:b16");
    assert_false(f->terms[7].at_edge);   /* the committed file predates the mark */
    f->terms[7].at_edge = 1;
    assert_int_equal(gb_camp_model_write(m, path), GB_OK);
    assert_int_equal(gb_camp_model_load(path, back), GB_OK);
    for (int op = 0; op < 2; op++)
        for (int p = 0; p < 2; p++)
            for (size_t t = 0; t < back->eq[op][p].fit.n_terms; t++)
                assert_int_equal(back->eq[op][p].fit.terms[t].at_edge, op == GB_CAMP_WRITE && p == GB_CAMP_CAMPED && t == 7);
    f->terms[7].at_edge = 0;
    f->terms[6].at_edge = 1;   /* L:b16 */
    assert_int_equal(gb_camp_model_write(m, path), GB_OK);
    assert_int_not_equal(gb_camp_model_load(path, back), GB_OK);
    assert_non_null(strstr(gb_error_message(), "knee_at_edge"));
    unlink(path);
    free(m);
    free(back);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_linear_range),     cmocka_unit_test(test_linear_predict),
        cmocka_unit_test(test_linear_domain),    cmocka_unit_test(test_knee_inside),
        cmocka_unit_test(test_knee_below_grid),  cmocka_unit_test(test_knee_not_placed),
        cmocka_unit_test(test_knee_edge_file),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
