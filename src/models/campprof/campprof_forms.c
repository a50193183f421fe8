/* campprof_forms.c - CampProf's model forms: their names, the fit of the
 * latency-throughput forms t = L_W * h_p(w / w*_W), and the held-out error
 * of any form (include/gpubound/campprof.h says what each computes). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gpubound/campprof.h"
#include "gpubound/numbers.h"
#include "gpubound/regress.h"
#include "campprof_int.h"

static const char *const gb_camp_form_names[GB_CAMP_N_FORMS] = {
    "paper", "interactions", "sum", "smax2", "smax4", "max",
};

const char *gb_camp_form_name(enum gb_camp_form form)
{
    return form >= 0 && form < GB_CAMP_N_FORMS ? gb_camp_form_names[form] : "unknown";
}

int gb_camp_form_parse(const char *name)
{
    for (int f = 0; f < GB_CAMP_N_FORMS; f++)
        if (strcmp(name, gb_camp_form_names[f]) == 0)
            return f;
    return -1;
}

int gb_camp_form_lt(enum gb_camp_form form)
{
    return form == GB_CAMP_FORM_SUM || form == GB_CAMP_FORM_SMAX2 || form == GB_CAMP_FORM_SMAX4 ||
           form == GB_CAMP_FORM_MAX;
}

double gb_camp_form_h(enum gb_camp_form form, double x)
{
    switch (form) {
    case GB_CAMP_FORM_SUM: return 1 + x;
    case GB_CAMP_FORM_SMAX2: return sqrt(1 + x * x);
    case GB_CAMP_FORM_SMAX4: return pow(1 + x * x * x * x, 0.25);
    case GB_CAMP_FORM_MAX: return x > 1 ? x : 1;
    default: return NAN;
    }
}

const char *gb_camp_level_name(enum gb_camp_level level)
{
    return level == GB_CAMP_LEVEL_L2 ? "L2 slice"
           : level == GB_CAMP_LEVEL_DRAM ? "DRAM partition" : "not recorded";
}

/* ---- the latency-throughput fit of one width ---- */

/* The knee grid: 0.05 * 1.02^i up to 8 x the widest warps measured.
 * Where the least residual lies at an edge of it, the search walks on past
 * that edge, as far as GB_KNEE_REACH times further, and takes the minimum
 * it finds there: one after which the residual rises again by more than
 * GB_KNEE_TOL of it (and GB_KNEE_ABS a sample, above rounding where the
 * residual nears 0), a knee the data place. Where the residual keeps
 * falling or no longer changes to the end of the walk (times in proportion
 * to the warps from the fewest measured on, or flat to the most), the data
 * cannot place the knee: it stays at the grid's edge, marked at_edge. */
#define GB_KNEE_MIN 0.05
#define GB_KNEE_RATIO 1.02
#define GB_KNEE_REACH 1e4
#define GB_KNEE_TOL 1e-9
#define GB_KNEE_ABS 1e-12

/* For knee `knee`, the relative least-squares L (weights 1/t^2) in closed
 * form and its weighted residual sum of squares. */
static double gb_lt_rss(enum gb_camp_form form, const double *w, const double *t, size_t n,
                        double knee, double *L)
{
    double sgt = 0, sgg = 0, rss = 0;
    for (size_t i = 0; i < n; i++) {
        double g = gb_camp_form_h(form, w[i] / knee);
        sgt += g / t[i];
        sgg += g * g / (t[i] * t[i]);
    }
    *L = sgt / sgg;
    for (size_t i = 0; i < n; i++) {
        double r = (t[i] - *L * gb_camp_form_h(form, w[i] / knee)) / t[i];
        rss += r * r;
    }
    return rss;
}

/* The walk past the grid's edge `edge` (residual `rss_edge`) by factor
 * `step` (< 1: down, > 1: up): the knee of a minimum the residual turns up
 * from, or `edge` with *placed 0 when it does not turn. */
static double gb_lt_walk(enum gb_camp_form form, const double *w, const double *t, size_t n,
                         double edge, double rss_edge, double step, int *placed)
{
    const double limit = step < 1 ? edge / GB_KNEE_REACH : edge * GB_KNEE_REACH;
    double run = rss_edge, run_knee = edge, L;
    *placed = 0;
    for (double k = edge * step; step < 1 ? k >= limit : k <= limit; k *= step) {
        double rss = gb_lt_rss(form, w, t, n, k, &L);
        if (rss < run) {
            run = rss;
            run_knee = k;
        } else if (rss > run * (1 + GB_KNEE_TOL) + GB_KNEE_ABS * (double)n) {
            *placed = 1;
            return run_knee;
        }
    }
    return edge;
}

/* The knee of least residual: the grid's, walked past its edge when it
 * lies there (gb_lt_walk); *at_edge 1 when the data cannot place it. */
static double gb_lt_knee(enum gb_camp_form form, const double *w, const double *t, size_t n,
                         double warps_max, int *at_edge)
{
    double best = INFINITY, best_knee = GB_KNEE_MIN, last = GB_KNEE_MIN, L;
    for (double knee = GB_KNEE_MIN; knee <= 8 * warps_max; knee *= GB_KNEE_RATIO) {
        double rss = gb_lt_rss(form, w, t, n, knee, &L);
        if (rss < best) {
            best = rss;
            best_knee = knee;
        }
        last = knee;
    }
    int placed = 1;
    if (best_knee == GB_KNEE_MIN)
        best_knee = gb_lt_walk(form, w, t, n, best_knee, best, 1 / GB_KNEE_RATIO, &placed);
    else if (best_knee == last)
        best_knee = gb_lt_walk(form, w, t, n, best_knee, best, GB_KNEE_RATIO, &placed);
    *at_edge = !placed;
    return best_knee;
}

/* L_W through the regression module at the chosen knee: one column
 * h(w / knee), no intercept, weights 1/t^2; its estimate, SE, t and p. */
static enum gb_status gb_lt_infer(enum gb_camp_form form, const double *w, const double *t,
                                  size_t n, double knee, struct gb_camp_term *term)
{
    struct gb_regress_model *model = NULL;
    struct gb_regress_fit *fit = NULL;
    double *g = malloc(n * sizeof *g), *wt = malloc(n * sizeof *wt);
    enum gb_status st = GB_OK;
    if (!g || !wt) {
        st = gb_error_set(GB_ERR_NOMEM, "out of host memory fitting the CampProf model");
        goto out;
    }
    for (size_t i = 0; i < n; i++) {
        g[i] = gb_camp_form_h(form, w[i] / knee);
        wt[i] = 1 / (t[i] * t[i]);
    }
    if ((st = gb_regress_model_new(n, t, &model)) != GB_OK)
        goto out;
    gb_regress_model_set_intercept(model, 0);
    if ((st = gb_regress_model_set_weights(model, wt)) != GB_OK ||
        (st = gb_regress_model_add(model, term->name, g)) != GB_OK ||
        (st = gb_regress_fit(model, &fit)) != GB_OK)
        goto out;
    term->estimate = fit->coef[0];
    term->se = fit->se[0];
    term->t = fit->t[0];
    term->p = fit->p[0];
out:
    gb_regress_fit_free(fit);
    gb_regress_model_free(model);
    free(g);
    free(wt);
    return st;
}

/* Fits width class `c` of the samples: terms L:b<W> and knee:b<W>. */
static enum gb_status gb_lt_fit_width(struct gb_camp_equation *eq, const struct gb_camp_sample *s,
                                      size_t n, int c, struct gb_camp_term *L_term,
                                      struct gb_camp_term *knee_term)
{
    double *w = malloc((n + 1) * sizeof *w), *t = malloc((n + 1) * sizeof *t);
    size_t m = 0;
    enum gb_status st = GB_OK;
    if (!w || !t) {
        st = gb_error_set(GB_ERR_NOMEM, "out of host memory fitting the CampProf model");
        goto out;
    }
    for (size_t i = 0; i < n; i++)
        if (s[i].wclass == c) {
            w[m] = s[i].warps;
            t[m++] = s[i].time_ns;
        }
    if (m < 2) {
        st = gb_error_set(GB_ERR_NUMERIC, "%zu point(s) of %d-byte %s/%s: a latency and a "
                          "throughput term need 2 or more", m, gb_camp_class_width(c),
                          gb_camp_op_name(eq->op), gb_camp_pattern_name(eq->pattern));
        goto out;
    }
    int at_edge;
    double knee = gb_lt_knee(eq->form, w, t, m, eq->warps_max, &at_edge);
    snprintf(L_term->name, sizeof L_term->name, "L:b%d", gb_camp_class_width(c));
    snprintf(knee_term->name, sizeof knee_term->name, "knee:b%d", gb_camp_class_width(c));
    knee_term->estimate = knee;
    knee_term->se = knee_term->t = knee_term->p = NAN;
    knee_term->at_edge = at_edge;
    L_term->at_edge = 0;
    st = gb_lt_infer(eq->form, w, t, m, knee, L_term);
out:
    free(w);
    free(t);
    return st;
}

/* R^2, adjusted R^2 and RMSE (ns) of the fitted equation on its samples. */
static void gb_lt_stats(struct gb_camp_equation *eq, const struct gb_camp_sample *s, size_t n)
{
    struct gb_camp_fitstats *f = &eq->fit;
    double mean = 0, sst = 0, sse = 0;
    for (size_t i = 0; i < n; i++)
        mean += s[i].time_ns / (double)n;
    for (size_t i = 0; i < n; i++) {
        double r = s[i].time_ns - gb_camp_eq_time_ns(eq, s[i].warps, s[i].wclass);
        sse += r * r;
        sst += (s[i].time_ns - mean) * (s[i].time_ns - mean);
    }
    f->df_resid = (double)n - (double)f->n_terms;
    f->r2 = sst > 0 ? 1 - sse / sst : NAN;
    f->adj_r2 = f->df_resid > 0 && sst > 0 ? 1 - (sse / f->df_resid) / (sst / ((double)n - 1)) : NAN;
    f->rmse_ns = f->df_resid > 0 ? sqrt(sse / f->df_resid) : NAN;
    f->f = f->f_p = NAN;
}

/* The latency-throughput fit of an equation whose widths, warps range and
 * form are set: two terms per measured width. */
enum gb_status gb_camp_lt_fit(struct gb_camp_equation *eq, const struct gb_camp_sample *s,
                              size_t n)
{
    enum gb_status st = GB_OK;
    memset(&eq->fit, 0, sizeof eq->fit);
    for (int i = 0; i < eq->n_widths && st == GB_OK; i++) {
        struct gb_camp_term *L = &eq->fit.terms[eq->fit.n_terms];
        struct gb_camp_term *k = &eq->fit.terms[eq->fit.n_terms + 1];
        st = gb_lt_fit_width(eq, s, n, gb_camp_width_class(eq->widths[i]), L, k);
        eq->fit.n_terms += 2;
    }
    if (st != GB_OK)
        return st;
    gb_lt_stats(eq, s, n);
    eq->full = eq->fit;
    eq->n_dropped = 0;
    return GB_OK;
}

/* ---- held-out error ---- */

/* Leave one warps value out: refit `eq`'s form on the others (with the
 * same widths), predict the left-out samples. A fold whose refit fails
 * (too few points) is skipped. */
enum gb_status gb_camp_heldout(struct gb_camp_equation *eq, const struct gb_camp_sample *s,
                               size_t n, double p_remove)
{
    enum gb_status st = GB_OK;
    double *ws = malloc((n + 1) * sizeof *ws);
    struct gb_camp_sample *tr = malloc((n + 1) * sizeof *tr);
    struct gb_camp_equation *tmp = malloc(sizeof *tmp);
    double slog = 0, ssq = 0;
    size_t m = 0, folds = 0, nw = 0;
    eq->cv_gm = eq->cv_rms = NAN;
    eq->cv_folds = 0;
    if (!ws || !tr || !tmp) {
        st = gb_error_set(GB_ERR_NOMEM, "out of host memory fitting the CampProf model");
        goto out;
    }
    for (size_t i = 0; i < n; i++)
        ws[i] = s[i].warps;
    qsort(ws, n, sizeof *ws, gb_stats_cmp_double);
    for (size_t i = 0; i < n; i++)
        if (i == 0 || ws[i] != ws[nw - 1])
            ws[nw++] = ws[i];
    for (size_t f = 0; f < nw; f++) {
        size_t k = 0;
        for (size_t i = 0; i < n; i++)
            if (s[i].warps != ws[f])
                tr[k++] = s[i];
        *tmp = *eq;
        if (gb_camp_eq_refit(tmp, tr, k, p_remove) != GB_OK)
            continue;
        folds++;
        for (size_t i = 0; i < n; i++)
            if (s[i].warps == ws[f]) {
                double e = fabs(gb_camp_eq_time_ns(tmp, s[i].warps, s[i].wclass) - s[i].time_ns) /
                           s[i].time_ns;
                slog += log(e > 1e-12 ? e : 1e-12);
                ssq += e * e;
                m++;
            }
    }
    gb_error_clear();
    if (m) {
        eq->cv_gm = exp(slog / (double)m);
        eq->cv_rms = sqrt(ssq / (double)m);
    }
    eq->cv_folds = folds;
out:
    free(ws);
    free(tr);
    free(tmp);
    return st;
}
