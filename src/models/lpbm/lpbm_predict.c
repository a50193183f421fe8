/* lpbm_predict.c - a fitted breakdown carried to points it was not fitted
 * on: another GPU's run of the same spec (gpubound/lpbm_run.h). */
#include <gsl/gsl_errno.h>
#include <gsl/gsl_multifit.h>
#include <math.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gpubound/lpbm_run.h"
#include "gpubound/numbers.h"
#include "lpbm_internal.h"

/* The median of v (n values, sorted in place). */
static double median(double *v, size_t n)
{
    qsort(v, n, sizeof *v, gb_stats_cmp_double);
    return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

/* Model m's predictions of the points of `in`, compared with their times. */
static enum gb_status on_one(struct gb_lpbm_bench_model *m, const struct gb_lpbm_input *in,
                             const struct gb_ceilings *roofs)
{
    double *rel = malloc((in->n ? in->n : 1) * sizeof *rel);
    enum gb_status st = GB_OK;
    if (!rel)
        return gb_error_set(GB_ERR_NOMEM, "out of memory");
    /* A coefficient is time per unit of what the fit counted: where the
     * fit's records had no atomics counter (the global reductions, the
     * shared atomic wavefronts), its ATOM and SHM inputs came from the
     * analysis or without them, and the other run's points are counted the
     * same way. */
    int global_atom = 0, shared_atom = 0;
    for (size_t i = 0; i < m->fit.n; i++) {
        global_atom |= isfinite(m->pts[i].c_global_atom) && m->pts[i].c_global_atom >= 0;
        shared_atom |= isfinite(m->pts[i].c_shared_atom_wavefronts) && m->pts[i].c_shared_atom_wavefronts >= 0;
    }
    m->on.n = 0;
    m->on.max_abs_rel = 0;
    for (size_t i = 0; i < in->n && st == GB_OK; i++) {
        struct gb_lpbm_point p = in->pts[i];
        if (!global_atom)
            p.c_global_atom = NAN;
        if (!shared_atom)
            p.c_shared_atom_wavefronts = NAN;
        p.intercept = m->intercept;
        p.l2_camped = m->pts[0].l2_camped;   /* the fit's L2 term, as its atomics above */
        gb_lpbm_roofs_set(&p, roofs);
        if ((st = gb_lpbm_predictors(&p, m->form)) != GB_OK)
            break;
        double e = fabs(gb_lpbm_predict(&m->fit, &p, NULL) - p.time_ns) / p.time_ns;
        if (e > m->on.max_abs_rel || m->on.n == 0) {
            m->on.max_abs_rel = e;
            snprintf(m->on.worst_config, sizeof m->on.worst_config, "%.120s%s%.120s", p.config,
                     p.problem[0] ? ", " : "", p.problem);
        }
        rel[m->on.n++] = e;
    }
    m->on.median_abs_rel = st == GB_OK && m->on.n ? median(rel, m->on.n) : NAN;
    free(rel);
    return st;
}

enum gb_status gb_lpbm_predict_on(struct gb_lpbm_fit_result *r, const struct gb_run *on,
                                  const struct gb_ceilings *roofs, gb_lpbm_counter_fn counters, void *ctx)
{
    struct gb_ceilings guide;
    enum gb_status st = GB_OK;
    if (!roofs) {
        gb_ceilings_guide(&on->info.device, &guide);
        roofs = &guide;
    }
    for (size_t k = 0; k < r->n_models && st == GB_OK; k++) {
        struct gb_lpbm_bench_model *m = &r->models[k];
        struct gb_lpbm_input in;
        if ((st = gb_lpbm_input_build(on, r->spec, m->bench, counters ? counters : gb_lpbm_counters_get,
                                        counters ? ctx : NULL, &in)) != GB_OK)
            return gb_error_set(st, "--on %s: %s", on->dir, gb_error_message());
        snprintf(m->on.run, sizeof m->on.run, "%.250s", on->dir);
        snprintf(m->on.device, sizeof m->on.device, "%s",
                 on->info.has_device ? on->info.device.name : "an unnamed device");
        st = on_one(m, &in, roofs);
        gb_lpbm_input_release(&in);
        if (st != GB_OK)
            st = gb_error_set(st, "--on %s: %s/%s: %s", on->dir, m->suite, m->bench, gb_error_message());
    }
    return st;
}

/* ---- at a configuration ---- */

#define PA_MAX_AXES 16

struct pa_axes {
    struct gb_kv kv[PA_MAX_AXES];
    int n;
};

/* The axes of a point, from its labels ("a=1 b=2" twice). */
static void point_axes(const struct gb_lpbm_point *p, struct pa_axes *ax)
{
    char buf[300];
    ax->n = 0;
    snprintf(buf, sizeof buf, "%s %s", p->config, p->problem);
    for (char *save = NULL, *tok = strtok_r(buf, " ", &save); tok && ax->n < PA_MAX_AXES;
         tok = strtok_r(NULL, " ", &save)) {
        char *eq = strchr(tok, '=');
        if (!eq)
            continue;
        snprintf(ax->kv[ax->n].name, sizeof ax->kv[0].name, "%.*s", (int)(eq - tok), tok);
        snprintf(ax->kv[ax->n].value, sizeof ax->kv[0].value, "%s", eq + 1);
        ax->n++;
    }
}

/* "a=1,b=2" into want, in the order of the bench's axes `have`. */
/* "AXIS=V[,AXIS=V...]", each V a number, into `given`. */
static enum gb_status parse_given(const char *s, struct pa_axes *given)
{
    char buf[512];
    given->n = 0;
    snprintf(buf, sizeof buf, "%s", s);
    for (char *save = NULL, *tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
        char *eq = strchr(tok, '='), *end;
        if (!eq || eq == tok || given->n == PA_MAX_AXES)
            return gb_error_set(GB_ERR_USAGE, "--predict takes AXIS=V[,AXIS=V...], not '%s'", s);
        *eq = '\0';
        double v = strtod(eq + 1, &end);
        if (!eq[1] || *end || !isfinite(v))
            return gb_error_set(GB_ERR_USAGE, "--predict: %s=%s is not a number; give each axis a "
                                "number", tok, eq + 1);
        snprintf(given->kv[given->n].name, sizeof given->kv[0].name, "%s", tok);
        snprintf(given->kv[given->n].value, sizeof given->kv[0].value, "%s", eq + 1);
        given->n++;
    }
    if (given->n == 0)
        return gb_error_set(GB_ERR_USAGE, "--predict takes AXIS=V[,AXIS=V...], not '%s'", s);
    return GB_OK;
}

enum gb_status gb_lpbm_predict_syntax(const char *axes)
{
    struct pa_axes given;
    return parse_given(axes, &given);
}

static enum gb_status parse_axes(const char *s, const struct pa_axes *have, struct pa_axes *want)
{
    struct pa_axes given;
    enum gb_status st = parse_given(s, &given);
    if (st != GB_OK)
        return st;
    want->n = have->n;
    for (int i = 0; i < have->n; i++) {
        int found = 0;
        for (int j = 0; j < given.n && !found; j++)
            if (strcmp(given.kv[j].name, have->kv[i].name) == 0) {
                want->kv[i] = given.kv[j];
                found = 1;
            }
        if (!found)
            return gb_error_set(GB_ERR_USAGE, "--predict %s names no %s (the bench's axes: give "
                                "each one a value)", s, have->kv[i].name);
    }
    for (int j = 0; j < given.n; j++) {
        int known = 0;
        for (int i = 0; i < have->n; i++)
            known |= strcmp(given.kv[j].name, have->kv[i].name) == 0;
        if (!known)
            return gb_error_set(GB_ERR_USAGE, "--predict: the bench has no axis '%s'; name only its "
                                "axes, each with a number", given.kv[j].name);
    }
    return GB_OK;
}

/* The log2 of each axis of `ax` (a value that is not positive: -1, so that 0 and 1 differ). */
static void log_axes(const struct pa_axes *ax, double *v)
{
    for (int i = 0; i < ax->n; i++) {
        double x = strtod(ax->kv[i].value, NULL);
        v[i] = x > 0 ? log2(x) : -1;   /* 0 (a flag, an option) below 1, not on it */
    }
}

/* The measured point nearest `at` in the log2 axes, among those with
 * `block_threads` (any when it is 0). SIZE_MAX when none. */
static size_t nearest(const struct gb_lpbm_bench_model *m, const double *at, int na, double block_threads)
{
    size_t best = SIZE_MAX;
    double bd = INFINITY, v[PA_MAX_AXES];
    for (size_t i = 0; i < m->fit.n; i++) {
        struct pa_axes ax;
        double d = 0;
        if (block_threads > 0 && m->pts[i].block_threads != block_threads)
            continue;
        point_axes(&m->pts[i], &ax);
        log_axes(&ax, v);
        for (int k = 0; k < na && k < ax.n; k++)
            d += (v[k] - at[k]) * (v[k] - at[k]);
        if (d < bd)
            bd = d, best = i;
    }
    return best;
}

/* The counters a prediction models, by their place in the point. */
static const size_t pa_counts[] = {
    offsetof(struct gb_lpbm_point, c_inst),         offsetof(struct gb_lpbm_point, c_global_sectors),
    offsetof(struct gb_lpbm_point, c_shared_wavefronts), offsetof(struct gb_lpbm_point, c_dram_sectors),
    offsetof(struct gb_lpbm_point, c_l2_sectors),   offsetof(struct gb_lpbm_point, c_global_ld_inst),
    offsetof(struct gb_lpbm_point, c_pipe[GB_LPBM_P_FMA]), offsetof(struct gb_lpbm_point, c_pipe[GB_LPBM_P_ALU]),
    offsetof(struct gb_lpbm_point, c_pipe[GB_LPBM_P_FP64]), offsetof(struct gb_lpbm_point, c_pipe[GB_LPBM_P_XU]),
    offsetof(struct gb_lpbm_point, c_pipe[GB_LPBM_P_LSU]), offsetof(struct gb_lpbm_point, c_global_atom),
    offsetof(struct gb_lpbm_point, c_shared_atom_wavefronts), offsetof(struct gb_lpbm_point, c_l2_write_sectors),
    offsetof(struct gb_lpbm_point, c_l2_slice_imbalance), offsetof(struct gb_lpbm_point, c_loads_in_flight)};
#define PA_N_COUNTS (sizeof pa_counts / sizeof pa_counts[0])

static double *count_of(struct gb_lpbm_point *p, size_t c)
{
    return (double *)((char *)p + pa_counts[c]);
}

/* The design of the count models: 1 and the log2 of each axis that varies
 * over the measured points (x: n rows of up to 1 + na columns); *cols. */
static void count_design(const struct gb_lpbm_bench_model *m, int na, double *x, int *use, int *cols)
{
    double v0[PA_MAX_AXES], v[PA_MAX_AXES];
    struct pa_axes ax;
    point_axes(&m->pts[0], &ax);
    log_axes(&ax, v0);
    for (int k = 0; k < na; k++)
        use[k] = 0;
    for (size_t i = 1; i < m->fit.n; i++) {
        point_axes(&m->pts[i], &ax);
        log_axes(&ax, v);
        for (int k = 0; k < na; k++)
            use[k] |= v[k] != v0[k];
    }
    *cols = 1;
    for (int k = 0; k < na; k++)
        *cols += use[k];
    for (size_t i = 0; i < m->fit.n; i++) {
        int c = 0;
        point_axes(&m->pts[i], &ax);
        log_axes(&ax, v);
        x[i * (size_t)(na + 1) + (size_t)c++] = 1;
        for (int k = 0; k < na; k++)
            if (use[k])
                x[i * (size_t)(na + 1) + (size_t)c++] = v[k];
    }
}

/* An error where `at` leaves the one value an axis has at every measured
 * point: nothing then says how the counters change along it. */
static enum gb_status constant_axes(const struct gb_lpbm_bench_model *m, const double *at, int na,
                                    const int *use)
{
    struct pa_axes ax;
    double v0[PA_MAX_AXES];
    point_axes(&m->pts[0], &ax);
    log_axes(&ax, v0);
    for (int k = 0; k < na && k < ax.n; k++)
        if (!use[k] && at[k] != v0[k])
            return gb_error_set(GB_ERR_USAGE, "--predict: every measured configuration of %s has %s=%s, "
                                "so nothing says how its counters change with %s; measure at least two "
                                "values of %s, or predict at %s=%s", m->bench, ax.kv[k].name,
                                ax.kv[k].value, ax.kv[k].name, ax.kv[k].name, ax.kv[k].name,
                                ax.kv[k].value);
    return GB_OK;
}

/* Each counter of `p` from a least-squares power law in the axes that vary
 * (log(count + 1) on their log2); *spread the largest RMS log residual. */
static enum gb_status model_counts(const struct gb_lpbm_bench_model *m, const double *at, int na,
                                   struct gb_lpbm_point *p, double *spread)
{
    size_t n = m->fit.n;
    int use[PA_MAX_AXES], cols;
    double *xd = malloc(n * (size_t)(na + 1) * sizeof *xd);
    enum gb_status st = GB_OK;
    gsl_error_handler_t *old = gsl_set_error_handler_off();
    *spread = 0;
    if (!xd) {
        st = gb_error_set(GB_ERR_NOMEM, "out of memory");
        goto out;
    }
    count_design(m, na, xd, use, &cols);
    if ((st = constant_axes(m, at, na, use)) != GB_OK)
        goto out;
    gsl_matrix_view xv = gsl_matrix_view_array_with_tda(xd, n, (size_t)cols, (size_t)(na + 1));
    gsl_vector *y = gsl_vector_alloc(n), *c = gsl_vector_alloc((size_t)cols), *xa = gsl_vector_alloc((size_t)cols);
    gsl_matrix *cov = gsl_matrix_alloc((size_t)cols, (size_t)cols);
    gsl_multifit_linear_workspace *w = gsl_multifit_linear_alloc(n, (size_t)cols);
    if (!y || !c || !xa || !cov || !w)
        st = gb_error_set(GB_ERR_NOMEM, "out of memory");
    for (int k = 0, j = 1; st == GB_OK && k < na; k++)
        if (use[k])
            gsl_vector_set(xa, (size_t)j++, at[k]);
    if (st == GB_OK)
        gsl_vector_set(xa, 0, 1);
    for (size_t q = 0; q < PA_N_COUNTS && st == GB_OK; q++) {
        double chisq, yhat, err;
        if (pa_counts[q] == offsetof(struct gb_lpbm_point, c_l2_slice_imbalance) && !m->pts[0].l2_camped) {
            *count_of(p, q) = NAN;   /* only a camped bench's L2 term reads it */
            continue;
        }
        for (size_t i = 0; i < n; i++)
            gsl_vector_set(y, i, log(*count_of(&m->pts[i], q) + 1));
        if (!isfinite(gsl_vector_get(y, 0)) || gsl_multifit_linear(&xv.matrix, y, c, cov, &chisq, w)) {
            *count_of(p, q) = NAN;   /* not recorded: the form that needs it says so */
            continue;
        }
        gsl_multifit_linear_est(xa, c, cov, &yhat, &err);
        *count_of(p, q) = fmax(0, exp(yhat) - 1);
        *spread = fmax(*spread, sqrt(chisq / (double)n));
    }
    gsl_multifit_linear_free(w);
    gsl_matrix_free(cov);
    gsl_vector_free(y);
    gsl_vector_free(c);
    gsl_vector_free(xa);
out:
    gsl_set_error_handler(old);
    free(xd);
    return st;
}

/* Active warps per SM at p: those of the nearest measured point of the same
 * block size, else that point's resident threads in blocks of p's size. */
static void model_warps(const struct gb_lpbm_bench_model *m, const double *at, int na,
                        struct gb_lpbm_point *p)
{
    size_t i = nearest(m, at, na, p->block_threads);
    int ws = p->warp_size > 0 ? p->warp_size : 32;
    if (i != SIZE_MAX) {
        p->active_warps_per_sm = m->pts[i].active_warps_per_sm;
        return;
    }
    i = nearest(m, at, na, 0);
    double wpb = ceil(p->block_threads / ws);
    double blocks = floor(m->pts[i].active_warps_per_sm / wpb);
    p->active_warps_per_sm = (blocks >= 1 ? blocks : 1) * wpb;
}

static const struct gb_lpbm_input *input_of(const struct gb_lpbm_fit_result *r, const char *bench)
{
    for (size_t i = 0; i < r->n_in; i++)
        if (strcmp(r->in[i].bench, bench) == 0)
            return &r->in[i];
    return NULL;
}

/* The point at `want`: a measured one when its labels match, else modelled. */
static enum gb_status point_for(struct gb_lpbm_fit_result *r, const struct gb_lpbm_bench_model *m,
                                const struct pa_axes *want, struct gb_lpbm_prediction *out)
{
    struct gb_lpbm_input *in = (struct gb_lpbm_input *)input_of(r, m->bench);
    struct gb_lpbm_point *p = &out->point;
    double at[PA_MAX_AXES];
    enum gb_status st;
    if (!in)
        return gb_error_set(GB_ERR_USAGE, "no input of bench %s", m->bench);
    if ((st = gb_lpbm_point_at(in, r->spec, want->kv, want->n, p)) != GB_OK)
        return st;
    for (size_t i = 0; i < m->fit.n; i++)
        if (!strcmp(m->pts[i].config, p->config) && !strcmp(m->pts[i].problem, p->problem)) {
            *p = m->pts[i];
            out->measured = 1;
            out->measured_ns = p->time_ns;
            return GB_OK;
        }
    log_axes(want, at);
    model_warps(m, at, want->n, p);
    if (m->form != GB_LPBM_FORMULA) {
        out->counts_modelled = 1;
        st = model_counts(m, at, want->n, p, &out->count_spread);
    }
    return st;
}

/* A problem the fit has no point of: the interval widened by the fit's
 * own error across its problems (out->across; NaN when it fitted one). */
static void widen_across(const struct gb_lpbm_bench_model *m, struct gb_lpbm_prediction *out)
{
    out->across = NAN;
    if (out->measured || gb_lpbm_has_problem(m->pts, m->fit.n, out->point.problem))
        return;
    out->new_problem = 1;
    out->across = gb_lpbm_across_problems(m->pts, m->fit.n, m->weight);
    if (isfinite(out->across)) {
        out->lo_ns *= exp(-out->across);
        out->hi_ns *= exp(out->across);
    }
}

enum gb_status gb_lpbm_predict_at(struct gb_lpbm_fit_result *r, size_t model, const char *axes,
                                  struct gb_lpbm_prediction *out)
{
    struct pa_axes have, want;
    enum gb_status st;
    memset(out, 0, sizeof *out);
    out->measured_ns = out->lo_ns = out->hi_ns = NAN;
    if (model >= r->n_models || r->models[model].fit.n == 0)
        return gb_error_set(GB_ERR_USAGE, "no model %zu to predict with", model);
    const struct gb_lpbm_bench_model *m = &r->models[model];
    point_axes(&m->pts[0], &have);
    if ((st = parse_axes(axes, &have, &want)) != GB_OK ||
        (st = point_for(r, m, &want, out)) != GB_OK)
        return st;
    struct gb_lpbm_point *p = &out->point;
    p->intercept = m->intercept;
    p->l2_camped = m->pts[0].l2_camped;
    gb_lpbm_roofs_set(p, &r->roofs);
    if ((st = gb_lpbm_predictors(p, m->form)) != GB_OK)
        return st;
    snprintf(out->config, sizeof out->config, "%s", p->config);
    snprintf(out->problem, sizeof out->problem, "%s", p->problem);
    out->time_ns = gb_lpbm_predict(&m->fit, p, out->terms);
    if ((st = gb_lpbm_interval_at(m->pts, m->fit.n, m->weight, GB_LPBM_BOOT, GB_LPBM_SEED, p,
                                  &out->lo_ns, &out->hi_ns)) != GB_OK)
        return st;
    if (out->counts_modelled) {   /* in proportion, as the counts were modelled: never below 0 */
        out->lo_ns *= exp(-1.96 * out->count_spread);
        out->hi_ns *= exp(1.96 * out->count_spread);
    }
    widen_across(m, out);
    return GB_OK;
}
