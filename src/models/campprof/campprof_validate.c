/* campprof_validate.c - validating CampProf on applications it was not
 * fitted to (the paper's procedure), the list of those applications, and
 * the band each one's chart shows (include/gpubound/campprof.h). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gpubound/campprof.h"
#include "gpubound/numbers.h"

/* The benches of the validation applications, with the paper's names. */
static const struct {
    const char *bench, *title;
} gb_camp_apps[] = {
    {"gem", "GEM (n-body electrostatics)"},
    {"clique", "clique counter (graph)"},
    {"transpose_coalesced", "transpose, coalesced"},
    {"transpose_diagonal", "transpose, diagonal"},
};
#define GB_CAMP_N_APPS (sizeof gb_camp_apps / sizeof gb_camp_apps[0])

const char *gb_camp_app_title(const char *bench)
{
    for (size_t k = 0; k < GB_CAMP_N_APPS; k++)
        if (strcmp(bench, gb_camp_apps[k].bench) == 0)
            return gb_camp_apps[k].title;
    return NULL;
}

void gb_camp_app_list(char *buf, size_t n)
{
    size_t len = (size_t)snprintf(buf, n, "%s/", GB_CAMP_SUITE);
    for (size_t k = 0; k < GB_CAMP_N_APPS && len < n; k++)
        len += (size_t)snprintf(buf + len, n - len, "%s%s", k ? ", " : "", gb_camp_apps[k].bench);
}

double gb_camp_geomean(const double *v, size_t n)
{
    double s = 0;
    int zero = 0;
    if (n == 0)
        return NAN;
    for (size_t i = 0; i < n; i++) {
        if (!(v[i] >= 0) || !isfinite(v[i]))
            return NAN;
        if (v[i] == 0)
            zero = 1;
        else
            s += log(v[i]);
    }
    return zero ? 0 : exp(s / (double)n);
}

/* A running geometric mean of relative errors: the sum of logs, and
 * whether any was 0 or not a finite non-negative number (as
 * gb_camp_geomean). */
struct gb_gm {
    double sum;
    size_t n;
    int zero, bad;
};

static void gb_gm_add(struct gb_gm *g, double v, size_t times)
{
    if (!(v >= 0) || !isfinite(v))
        g->bad = 1;
    else if (v == 0)
        g->zero = 1;
    else
        g->sum += (double)times * log(v);
    g->n += times;
}

static double gb_gm_value(const struct gb_gm *g)
{
    if (g->n == 0 || g->bad)
        return NAN;
    return g->zero ? 0 : exp(g->sum / (double)g->n);
}

/* The band's own uncertainty at one bound: the largest held-out error
 * (cv_gm) of the model's equations of that pattern; 0 when none has one. */
static double gb_band_margin(const struct gb_camp_model *m, enum gb_camp_pattern p)
{
    double e = 0;
    for (int op = 0; op < 2; op++)
        if (m->eq[op][p].cv_gm > 0 && isfinite(m->eq[op][p].cv_gm))
            e = fmax(e, m->eq[op][p].cv_gm);
    return e;
}

/* The starts of the application line: every configuration, or
 * GB_CAMP_MAX_STARTS of them evenly spaced when there are more. */
#define GB_CAMP_MAX_STARTS 1024

enum gb_status gb_camp_validate(const struct gb_camp_model *m, const struct gb_camp_obs *obs,
                                size_t n, struct gb_camp_validation *out)
{
    enum gb_status st = GB_OK;
    double *b = NULL, *w = NULL, *f = NULL, *deg = NULL;
    struct gb_gm gb = {0}, gw = {0}, ga = {0}, gi = {0};
    size_t nd = 0;

    memset(out, 0, sizeof *out);
    out->gm_best = out->gm_worst = out->gm_app = out->gm_app_inside = NAN;
    out->degree_median = out->degree_min = out->degree_max = NAN;
    out->warps_min = out->time_min_ns = INFINITY;
    out->warps_max = out->time_max_ns = 0;
    out->knee_min = out->knee_max = out->inflight_min = out->inflight_max = NAN;
    out->margin_best = gb_band_margin(m, GB_CAMP_SPREAD);
    out->margin_worst = gb_band_margin(m, GB_CAMP_CAMPED);
    if (n == 0)
        return gb_error_set(GB_ERR_FORMAT, "no measured configuration to validate against");
    for (size_t i = 0; i < n; i++) {
        if (!(obs[i].warps > 0) || !(obs[i].time_ns > 0) || !isfinite(obs[i].time_ns))
            return gb_error_set(GB_ERR_FORMAT, "a measured configuration needs warps > 0 and a "
                                "time > 0 (got %g warps, %g ns)", obs[i].warps, obs[i].time_ns);
        out->warps_min = fmin(out->warps_min, obs[i].warps);
        out->warps_max = fmax(out->warps_max, obs[i].warps);
        double knee = gb_camp_kernel_knee(m, &obs[i]);
        if (knee > 0) {   /* fmin and fmax take the number over a NaN */
            out->knee_min = fmin(out->knee_min, knee);
            out->knee_max = fmax(out->knee_max, knee);
            out->inflight_min = fmin(out->inflight_min, obs[i].inflight_bytes);
            out->inflight_max = fmax(out->inflight_max, obs[i].inflight_bytes);
        }
        out->time_min_ns = fmin(out->time_min_ns, obs[i].time_ns);
        out->time_max_ns = fmax(out->time_max_ns, obs[i].time_ns);
    }
    b = malloc(n * sizeof *b);
    w = malloc(n * sizeof *w);
    f = malloc(n * sizeof *f);
    deg = malloc(n * sizeof *deg);
    if (!b || !w || !f || !deg) {
        st = gb_error_set(GB_ERR_NOMEM, "out of host memory");
        goto out;
    }
    /* Each configuration's bounds and line factor once; the bound errors do
     * not depend on the start, so each counts n times as in the pairwise mean. */
    for (size_t j = 0; j < n && st == GB_OK; j++) {
        if ((st = gb_camp_obs_bounds(m, &obs[j], &b[j], &w[j])) != GB_OK)
            goto out;
        if (isnan(b[j])) {
            st = gb_error_set(GB_ERR_NUMERIC, "the model's bounds are <= 0 at %g warps per SM, outside "
                              "the range its %s form describes; leave that configuration out",
                              obs[j].warps, gb_camp_form_name(m->form));
            goto out;
        }
        f[j] = gb_camp_line_factor(m, &obs[j]);
        gb_gm_add(&gb, fabs(b[j] - obs[j].time_ns) / obs[j].time_ns, n);
        gb_gm_add(&gw, fabs(w[j] - obs[j].time_ns) / obs[j].time_ns, n);
        double d = gb_camp_degree(b[j], w[j], obs[j].time_ns);
        if (!isnan(d))
            deg[nd++] = d;
        out->n_inside += b[j] * (1 - out->margin_best) <= obs[j].time_ns &&
                         obs[j].time_ns <= w[j] * (1 + out->margin_worst);
    }
    size_t starts = n < GB_CAMP_MAX_STARTS ? n : GB_CAMP_MAX_STARTS;
    for (size_t k = 0; k < starts; k++) {
        size_t s = starts == n ? k : k * (n - 1) / (starts - 1);
        double d = gb_camp_line_degree(b[s], w[s], obs[s].time_ns, f[s]);
        if (isnan(d))
            continue;
        int inside = b[s] * (1 - out->margin_best) <= obs[s].time_ns &&
                     obs[s].time_ns <= w[s] * (1 + out->margin_worst);
        for (size_t j = 0; j < n; j++)
            if (j != s) {
                double e = fabs(gb_camp_line_time(b[j], w[j], d, f[j]) - obs[j].time_ns) / obs[j].time_ns;
                gb_gm_add(&ga, e, 1);
                if (inside)
                    gb_gm_add(&gi, e, 1);
            }
    }
    out->n_points = n;
    out->n_pairs_bounds = n * n;
    out->n_pairs_app = ga.n;
    out->gm_best = gb_gm_value(&gb);
    out->gm_worst = gb_gm_value(&gw);
    out->gm_app = gb_gm_value(&ga);
    out->gm_app_inside = gb_gm_value(&gi);
    if (nd) {
        out->degree_median = gb_stats_median(deg, nd);
        out->degree_min = deg[0];
        out->degree_max = deg[nd - 1];
    }
out:
    free(b);
    free(w);
    free(f);
    free(deg);
    return st;
}

int gb_camp_same_warps(const struct gb_camp_validation *v)
{
    return v->n_points > 1 && v->warps_max <= GB_CAMP_SAME_WARPS * v->warps_min &&
           v->time_max_ns > GB_CAMP_TIME_SPREAD * v->time_min_ns;
}

double gb_camp_counts_vary(const struct gb_camp_obs *obs, size_t n)
{
    double vary = 0;
    for (size_t i = 1; i < n; i++)
        for (int k = 0; k < GB_CAMP_N_WIDTHS; k++) {
            double c0[2] = {obs[0].counts.ld[k], obs[0].counts.st[k]};
            double ci[2] = {obs[i].counts.ld[k], obs[i].counts.st[k]};
            for (int q = 0; q < 2; q++)
                if (c0[q] > 0 || ci[q] > 0)
                    vary = fmax(vary, fabs(c0[q] - ci[q]) / fmax(c0[q], ci[q]));
        }
    return vary;
}

/* The middle configuration of those inside the domain (all when domain is
 * NULL or none is inside). */
static size_t gb_middle_inside(const struct gb_camp_domain *domain, size_t n)
{
    size_t inside = 0, k = 0;
    for (size_t i = 0; domain && i < n; i++)
        inside += gb_camp_domain_applies(domain[i].why);
    if (!domain || inside == 0)
        return n / 2;
    for (size_t i = 0; i < n; i++)
        if (gb_camp_domain_applies(domain[i].why) && k++ == inside / 2)
            return i;
    return n / 2;
}

enum gb_status gb_camp_app_band(const struct gb_camp_model *m, const struct gb_camp_obs *obs,
                                size_t n, const struct gb_camp_domain *domain,
                                struct gb_camp_row *rows, double *measured_ns,
                                size_t *start, double *degree)
{
    const size_t s = gb_middle_inside(domain, n);
    double b0, w0;
    *start = s;
    *degree = NAN;
    if (n == 0)
        return gb_error_set(GB_ERR_USAGE, "no measured configuration to chart");
    /* As gb_camp_validate does: each point's band from its own counts, the
     * line at the start's degree. */
    enum gb_status st = gb_camp_obs_bounds(m, &obs[s], &b0, &w0);
    *degree = gb_camp_degree(b0, w0, obs[s].time_ns);
    double dl = gb_camp_line_degree(b0, w0, obs[s].time_ns, gb_camp_line_factor(m, &obs[s]));
    for (size_t i = 0; i < n && st == GB_OK; i++) {
        rows[i].warps = (int)lround(obs[i].warps);
        measured_ns[i] = obs[i].time_ns;
        st = gb_camp_obs_bounds(m, &obs[i], &rows[i].best_ns, &rows[i].worst_ns);
        rows[i].app_ns = gb_camp_line_time(rows[i].best_ns, rows[i].worst_ns, dl,
                                           gb_camp_line_factor(m, &obs[i]));
        if (!(rows[i].app_ns > 0))
            rows[i].app_ns = NAN;   /* no time: outside the form's range, or the line below 0 */
    }
    return st;
}

enum gb_status gb_camp_validate_app(const struct gb_camp_model *m, const struct gb_ceilings *c,
                                    const struct gb_camp_app *app, struct gb_camp_domain *domain,
                                    struct gb_camp_validation *out)
{
    struct gb_camp_obs *in = malloc((app->n ? app->n : 1) * sizeof *in);
    size_t n_in = 0, n_out = 0;
    char reason[sizeof out->domain_reason] = "";
    enum gb_status st = GB_OK;
    memset(out, 0, sizeof *out);
    if (!in)
        return gb_error_set(GB_ERR_NOMEM, "out of host memory");
    for (size_t i = 0; i < app->n; i++) {
        struct gb_camp_domain d;
        gb_camp_domain_judge(m, c, app->sm_count, &app->obs[i], &d);
        if (domain)
            domain[i] = d;
        if (gb_camp_domain_applies(d.why))
            in[n_in++] = app->obs[i];
        else if (n_out++ == 0)
            snprintf(reason, sizeof reason, "%s", d.reason);
    }
    if (n_in > 0)
        st = gb_camp_validate(m, in, n_in, out);
    else {
        out->gm_best = out->gm_worst = out->gm_app = out->gm_app_inside = NAN;
        out->degree_median = out->degree_min = out->degree_max = NAN;
        out->warps_min = out->warps_max = out->time_min_ns = out->time_max_ns = NAN;
    }
    out->n_out_domain = n_out;
    out->n_judged = app->n;
    snprintf(out->domain_reason, sizeof out->domain_reason, "%s", reason);
    free(in);
    return st;
}
