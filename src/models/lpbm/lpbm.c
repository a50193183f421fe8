/* lpbm.c - the Linear Performance-Breakdown Model: predictors, the
 * non-negative fit with residual-bootstrap intervals, held-out prediction
 * (gpubound/lpbm.h). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gpubound/lpbm.h"
#include "gpubound/nnls.h"
#include "gpubound/numbers.h"
#include "lpbm_internal.h"
#include "util/mix.h"

const char *gb_lpbm_term_name(enum gb_lpbm_term t)
{
    const struct gb_lpbm_term_row *r = gb_lpbm_term_info(t);
    return r ? r->name : "?";
}

const char *gb_lpbm_form_name(enum gb_lpbm_form f)
{
    return f == GB_LPBM_RESOURCES ? "resources" : f == GB_LPBM_COUNTERS ? "counters" : "formula";
}

static int bad(double v)
{
    return !isfinite(v) || v < 0;
}

/* The terms both forms take from the analysis: the launch's atomics, the
 * barriers on a thread's path (once per launch: the stages of later waves
 * overlap other blocks' work), and the fixed time when asked for. */
static void analysed_terms(struct gb_lpbm_point *p)
{
    p->x[GB_LPBM_ATOM] = bad(p->atomics) ? 0 : p->atomics;
    p->x[GB_LPBM_SYNC] = bad(p->barriers) ? 0 : p->barriers;
    p->x[GB_LPBM_FIX] = p->intercept ? 1 : 0;
}

enum gb_status gb_lpbm_predictors(struct gb_lpbm_point *p, enum gb_lpbm_form form)
{
    int ws = p->warp_size > 0 ? p->warp_size : 32;
    if (bad(p->block_threads) || p->block_threads < 1 || bad(p->grid_blocks))
        return gb_error_set(GB_ERR_FORMAT, "%s %s: no block or grid size", p->config, p->problem);
    if (bad(p->active_warps_per_sm) || p->sm_count < 1 || p->active_warps_per_sm <= 0)
        return gb_error_set(GB_ERR_FORMAT, "%s %s: no resident warps (active warps per SM %g on "
                            "%d SMs): the block cannot run", p->config, p->problem,
                            p->active_warps_per_sm, p->sm_count);
    double wf_wg = ceil(p->block_threads / ws);
    p->wf_ndr = p->grid_blocks * wf_wg;
    p->wf_max = p->active_warps_per_sm * p->sm_count;
    p->cl = p->wf_ndr / p->wf_max;
    double waves = p->cl > 1 ? p->cl : 1, slots = p->wf_ndr < p->wf_max ? p->wf_ndr : p->wf_max;
    for (int j = 0; j < GB_LPBM_TERMS; j++)
        p->x[j] = 0;
    p->form = form;
    p->waves = ceil(p->cl);
    p->fill = p->waves > 0 ? p->cl / p->waves : 0;
    if (form == GB_LPBM_RESOURCES)
        return gb_lpbm_resources(p, wf_wg);
    if (form == GB_LPBM_FORMULA) {
        if (bad(p->ops) || bad(p->global_bytes) || bad(p->shared_accesses))
            return gb_error_set(GB_ERR_FORMAT, "%s %s: the %s count is missing", p->config,
                                p->problem, bad(p->ops) ? "operation" : bad(p->global_bytes)
                                                          ? "global-memory" : "shared-memory");
        p->x[GB_LPBM_PUT] = p->ops * waves;
        p->x[GB_LPBM_G2ST] = p->global_bytes * p->wf_ndr;
        p->x[GB_LPBM_S2PT] = p->shared_accesses * waves;
        analysed_terms(p);
        return GB_OK;
    }
    if (bad(p->c_inst) || bad(p->c_global_sectors) || bad(p->c_shared_wavefronts))
        return gb_error_set(GB_ERR_FORMAT, "%s %s: the record has no %s counter", p->config,
                            p->problem, bad(p->c_inst) ? "instruction"
                                        : bad(p->c_global_sectors) ? "global-sector"
                                                                   : "shared-wavefront");
    p->x[GB_LPBM_PUT] = slots > 0 ? p->c_inst / slots : 0;
    p->x[GB_LPBM_G2ST] = 32 * p->c_global_sectors;
    p->x[GB_LPBM_S2PT] = slots > 0 ? p->c_shared_wavefronts / slots : 0;
    analysed_terms(p);
    return GB_OK;
}

double gb_lpbm_overlap(double p, const double *t, int n)
{
    double s = 0;
    for (int j = 0; j < n; j++)
        s += p > 1 ? pow(t[j], p) : t[j];
    return p > 1 ? pow(s, 1 / p) : s;
}

/* Each term's time alone is a_j x_j; overlapped (p > 1) the predicted time
 * is their p-norm, and terms[] are its shares in proportion to (a_j x_j)^p,
 * so that they still add up to the prediction. The terms at their roof
 * with no fitted coefficient (f->at_roof) are a floor under it: the time is
 * at least each one's work at its roof, and where one sets the time the
 * shares are taken over every term. */
double gb_lpbm_predict_with(const double coef[GB_LPBM_TERMS], const double floors[GB_LPBM_TERMS],
                            unsigned at_roof, double overlap, const struct gb_lpbm_point *p,
                            double terms[GB_LPBM_TERMS])
{
    double alone[GB_LPBM_TERMS], wt[GB_LPBM_TERMS], q = overlap > 1 ? overlap : 1;
    double sp = 0, floor = 0, all = 0;
    int by = 0;   /* the term whose floor is the highest */
    for (int j = 0; j < GB_LPBM_TERMS; j++) {
        alone[j] = coef[j] * p->x[j];
        wt[j] = q > 1 ? pow(alone[j], q) : alone[j];
        double fj = fmax(floors[j] * p->x[j], at_roof >> j & 1 ? alone[j] : 0);
        if (fj > floor)
            floor = fj, by = j;
        if (!(at_roof >> j & 1))
            sp += wt[j];
        all += wt[j];
    }
    double fitted = q > 1 ? pow(sp, 1 / q) : sp, total = fmax(fitted, floor);
    /* where a floor sets the time its share is taken over every term, or is
     * the floor's own when no term has a fitted time there */
    for (int j = 0; j < GB_LPBM_TERMS && terms; j++)
        terms[j] = floor > fitted ? (all > 0 ? total * wt[j] / all : j == by ? total : 0)
                   : (at_roof >> j & 1) ? 0
                   : q > 1 ? (sp > 0 ? total * wt[j] / sp : 0) : alone[j];
    return total;
}

double gb_lpbm_predict_single(const struct gb_lpbm_fit *f, const struct gb_lpbm_point *p,
                              double terms[GB_LPBM_TERMS])
{
    return gb_lpbm_predict_with(f->coef, f->floor, f->at_roof, f->overlap, p, terms);
}

double gb_lpbm_predict(const struct gb_lpbm_fit *f, const struct gb_lpbm_point *p,
                       double terms[GB_LPBM_TERMS])
{
    return f->n_alt > 1 ? gb_lpbm_average_predict(f, p, terms) : gb_lpbm_predict_single(f, p, terms);
}

/* ---- the fit ---- */

/* Each roof term's floor, and the launch line's: the fastest any fitted
 * point ran it, as a multiple of its time at the roof (or on the line),
 * or the roof itself when none ran it faster (floor[j] = min(1, min_i
 * t_i / x_ij)). No fitted point is predicted under a floor that it set,
 * so the fit keeps its points; a point with more of that work than the
 * fitted ones is held to it. Terms without a roof (a bare count, the
 * latencies) have none. */
static void roof_floors(const struct gb_lpbm_point *pts, size_t n, unsigned roof, double floor[GB_LPBM_TERMS])
{
    for (int j = 0; j < GB_LPBM_TERMS; j++) {
        double f = (roof >> j & 1) || (roof && j == GB_LPBM_LAUNCH) ? 1 : 0;
        for (size_t i = 0; i < n && f > 0; i++)
            if (gb_lpbm_term_bare_unit(&pts[i], (enum gb_lpbm_term)j))
                f = 0;
            else if (pts[i].x[j] > 0)
                f = fmin(f, pts[i].time_ns / pts[i].x[j]);
        floor[j] = f;
    }
}

/* The roof terms (mask `roof`) without support in the design (scale 0). */
static unsigned unsupported(const double *scale, unsigned roof)
{
    unsigned m = 0;
    for (int j = 0; j < GB_LPBM_TERMS; j++)
        if (scale[j] == 0 && (roof >> j & 1))
            m |= 1u << j;
    return m;
}

/* Those terms at coefficient 1, the measured roof. */
static void roof_default(const double *scale, unsigned roof, double coef[GB_LPBM_TERMS])
{
    unsigned m = unsupported(scale, roof);
    for (int j = 0; j < GB_LPBM_TERMS; j++)
        if (m >> j & 1)
            coef[j] = 1;
}

/* One NNLS solve of y^p on the scaled design of x^p (p = the overlap
 * exponent; w the time-space weights, carried into y^p's space by the
 * delta method: d(t^p) = p t^(p-1) dt); coef in the original units. A
 * term of the mask `roof` with no work at any point (scale 0) takes
 * coefficient 1: the points say nothing of it, and all that can be said
 * of a point with such work is that it takes at least that work at the
 * measured roof (gb_lpbm_predict takes it as a floor, the fit's at_roof). */
static enum gb_status solve(const double *a, const double *scale, size_t n, const double *y,
                            const double *w, double p, unsigned roof, double coef[GB_LPBM_TERMS])
{
    struct gb_nnls_result r;
    double *yp = malloc(n * sizeof *yp), *wp = malloc(n * sizeof *wp);
    enum gb_status st = GB_OK;
    if (!yp || !wp) {
        st = gb_error_set(GB_ERR_NOMEM, "out of memory");
        goto out;
    }
    for (size_t i = 0; i < n; i++) {
        double t = y[i] > 0 ? y[i] : 1e-9, d = p * pow(t, p - 1);
        yp[i] = pow(t, p);
        wp[i] = w[i] / (d * d);
    }
    if ((st = gb_nnls_solve(a, n, GB_LPBM_TERMS, yp, wp, &r)) != GB_OK)
        goto out;
    for (int j = 0; j < GB_LPBM_TERMS; j++)
        coef[j] = pow(r.x[j] * scale[j], 1 / p);
    roof_default(scale, roof, coef);
    gb_nnls_result_release(&r);
out:
    free(yp);
    free(wp);
    return st;
}

/* The design of x^p with each column scaled to unit largest value (the
 * predictors differ by many orders of magnitude). */
static void design(const struct gb_lpbm_point *pts, size_t n, double p, double *a, double *scale)
{
    for (int j = 0; j < GB_LPBM_TERMS; j++) {
        double m = 0;
        for (size_t i = 0; i < n; i++)
            m = fmax(m, pow(fabs(pts[i].x[j]), p));
        scale[j] = m > 0 ? 1 / m : 0;
        for (size_t i = 0; i < n; i++)
            a[i * GB_LPBM_TERMS + j] = pow(fabs(pts[i].x[j]), p) * scale[j];
    }
}

static double quantile(double *v, size_t n, double q)
{
    qsort(v, n, sizeof *v, gb_stats_cmp_double);
    double pos = q * (double)(n - 1);
    size_t i = (size_t)pos;
    return i + 1 < n ? v[i] + (pos - (double)i) * (v[i + 1] - v[i]) : v[n - 1];
}

/* A DRAM round trip's extra latency over an L2 hit's more than
 * GB_LPBM_DLAT_MAX L2 round trips (or with no L2 round trip's at all) is
 * not a latency: the DLAT term stands in for another resource's time on the
 * points that go to DRAM, and is left out of the fit. */
static int dlat_implausible(const double coef[GB_LPBM_TERMS])
{
    return coef[GB_LPBM_DLAT] > GB_LPBM_DLAT_MAX * coef[GB_LPBM_LAT];
}

/* Term j out of the design: its column and scale 0 (absent from the fit). */
static void drop_term(double *a, double *scale, size_t n, int j)
{
    scale[j] = 0;
    for (size_t i = 0; i < n; i++)
        a[i * GB_LPBM_TERMS + j] = 0;
}

/* The term the fit's plausibility rules leave out of a solve, or -1: DLAT
 * where it is implausible; else the launch term above GB_LPBM_LAUNCH_MAX
 * times the launch line (its time hidden at every fitted point, standing
 * in for what a smaller problem does not pay); else the roof term (mask `roof`) with the
 * largest coefficient above GB_LPBM_ROOF_MAX, a resource that would run at
 * under 1 / GB_LPBM_ROOF_MAX of its measured roof at every point: it stands
 * in for another resource's time, as an implausible DLAT does. */
static int implausible(const double coef[GB_LPBM_TERMS], unsigned roof)
{
    if (dlat_implausible(coef))
        return GB_LPBM_DLAT;
    if (coef[GB_LPBM_LAUNCH] > GB_LPBM_LAUNCH_MAX)
        return GB_LPBM_LAUNCH;
    int worst = -1;
    for (int j = 0; j < GB_LPBM_TERMS; j++)
        if ((roof >> j & 1) && coef[j] > GB_LPBM_ROOF_MAX && (worst < 0 || coef[j] > coef[worst]))
            worst = j;
    return worst;
}

/* Solves, and again without each term the rules find implausible (its
 * column dropped from a and scale, in place) until none is: a roof term so
 * dropped is then a floor at its roof (solve), DLAT absent. */
static enum gb_status solve_rules(double *a, double *scale, size_t n, const double *y,
                                  const double *w, double p, unsigned roof,
                                  double coef[GB_LPBM_TERMS], unsigned *dropped)
{
    enum gb_status st;
    int j;
    *dropped = 0;
    while ((st = solve(a, scale, n, y, w, p, roof, coef)) == GB_OK && (j = implausible(coef, roof)) >= 0) {
        drop_term(a, scale, n, j);
        *dropped |= 1u << j;
    }
    return st;
}

/* One bootstrap replicate's solve under the fit's rules, on a copy (aw,
 * sw) of the design so that the next replicate starts from all of it. */
static enum gb_status solve_replicate(const double *a, const double *scale, double *aw, double *sw,
                                      size_t n, const double *ys, const double *w, double p,
                                      unsigned roof, double c[GB_LPBM_TERMS])
{
    memcpy(aw, a, n * GB_LPBM_TERMS * sizeof *aw);
    memcpy(sw, scale, GB_LPBM_TERMS * sizeof *sw);
    unsigned dropped;
    return solve_rules(aw, sw, n, ys, w, p, roof, c, &dropped);
}

/* sqrt(n / (n - k)), k the coefficients the fit estimated (present and
 * above 0): what the residuals are inflated by before they are resampled. */
static double inflation(const struct gb_lpbm_fit *f, size_t n)
{
    size_t k = 0;
    for (int j = 0; j < GB_LPBM_TERMS; j++)
        k += f->present[j] && f->coef[j] > 0;
    return n > k ? sqrt((double)n / (double)(n - k)) : 1;
}

/* Residual bootstrap: the design stays (the configurations were chosen, not
 * sampled); standardized residuals sqrt(w_i) r_i, inflated by
 * sqrt(n / (n - k)) for the k coefficients estimated, are resampled and put
 * back on the fitted times in each point's own scale. */
static enum gb_status bootstrap(const struct gb_lpbm_point *pts, size_t n, const double *a,
                                const double *scale, const double *w, const double *fitted,
                                int boot, unsigned seed, struct gb_lpbm_fit *f)
{
    enum gb_status st = GB_OK;
    double *e = malloc(n * sizeof *e), *ys = malloc(n * sizeof *ys);
    double *draws = malloc((size_t)boot * GB_LPBM_TERMS * sizeof *draws);
    double *aw = malloc(n * GB_LPBM_TERMS * sizeof *aw), sw[GB_LPBM_TERMS];
    uint64_t rs = seed;
    if (!e || !ys || !draws || !aw) {
        st = gb_error_set(GB_ERR_NOMEM, "out of memory");
        goto out;
    }
    double infl = inflation(f, n);
    for (size_t i = 0; i < n; i++)
        e[i] = sqrt(w[i]) * (pts[i].time_ns - fitted[i]) * infl;
    for (int b = 0; b < boot && st == GB_OK; b++) {
        double c[GB_LPBM_TERMS];
        for (size_t i = 0; i < n; i++)
            ys[i] = fitted[i] + e[gb_mix64_next(&rs) % n] / sqrt(w[i]);
        if ((st = solve_replicate(a, scale, aw, sw, n, ys, w, f->overlap > 1 ? f->overlap : 1,
                                  gb_lpbm_roof_terms(pts[0].form), c)) == GB_OK)
            for (int j = 0; j < GB_LPBM_TERMS; j++)
                draws[(size_t)j * (size_t)boot + (size_t)b] = c[j];
    }
    for (int j = 0; j < GB_LPBM_TERMS && st == GB_OK; j++) {
        f->ci_lo[j] = quantile(draws + (size_t)j * (size_t)boot, (size_t)boot, 0.025);
        f->ci_hi[j] = quantile(draws + (size_t)j * (size_t)boot, (size_t)boot, 0.975);
    }
    f->boot = boot;
out:
    free(e);
    free(ys);
    free(draws);
    free(aw);
    return st;
}

static void fit_stats(const struct gb_lpbm_point *pts, size_t n, const double *fitted,
                      struct gb_lpbm_fit *f)
{
    double mean = 0, sse = 0, sst = 0;
    double *rel = malloc(n * sizeof *rel);
    for (size_t i = 0; i < n; i++)
        mean += pts[i].time_ns / (double)n;
    for (size_t i = 0; i < n; i++) {
        double r = pts[i].time_ns - fitted[i];
        sse += r * r;
        sst += (pts[i].time_ns - mean) * (pts[i].time_ns - mean);
        if (rel)
            rel[i] = fabs(r) / pts[i].time_ns;
    }
    /* Identical times leave nothing to explain: R^2 is undefined (sst is
     * then rounding noise, and 1 - sse / sst any number at all). */
    int same = 1;
    for (size_t i = 1; i < n && same; i++)
        same = pts[i].time_ns == pts[0].time_ns;
    f->r2 = same ? NAN : 1 - sse / sst;
    f->rmse_ns = sqrt(sse / (double)n);
    f->median_abs_rel = rel ? quantile(rel, n, 0.5) : NAN;
    free(rel);
}

static enum gb_status fit_check(const struct gb_lpbm_point *pts, size_t n)
{
    if (n < GB_LPBM_MIN_POINTS)
        return gb_error_set(GB_ERR_USAGE, "%zu configurations are too few to fit the breakdown (at "
                            "least %d are needed); measure more block sizes", n, GB_LPBM_MIN_POINTS);
    for (size_t i = 0; i < n; i++)
        if (!(pts[i].time_ns > 0) || !isfinite(pts[i].time_ns))
            return gb_error_set(GB_ERR_USAGE, "%s %s: the time %g ns is not positive",
                                pts[i].config, pts[i].problem, pts[i].time_ns);
    return GB_OK;
}

/* The fit at overlap p with the term `left_out` (or none: -1) out of the
 * design: coefficients in out->coef, the fitted times, and the weighted
 * squared error in time (what the choice of p minimizes). A term left out
 * has coefficient 0 (its column zeroed, not unsupported: a roof term keeps
 * only its floor from the fitted points). a and scale hold the design the
 * solve ended with. */
static enum gb_status fit_at(const struct gb_lpbm_point *pts, size_t n, const double *w, double p,
                             int left_out, double *a, double *scale, struct gb_lpbm_fit *out,
                             double *fitted, double *sse)
{
    double *y = malloc(n * sizeof *y);
    enum gb_status st = y ? GB_OK : gb_error_set(GB_ERR_NOMEM, "out of memory");
    for (size_t i = 0; i < n && y; i++)
        y[i] = pts[i].time_ns;
    unsigned roof = gb_lpbm_roof_terms(pts[0].form);
    design(pts, n, p, a, scale);
    for (size_t i = 0; i < n && left_out >= 0; i++)
        a[i * GB_LPBM_TERMS + left_out] = 0;
    if (st == GB_OK)
        st = solve_rules(a, scale, n, y, w, p, roof, out->coef, &out->dropped);
    out->overlap = p;
    out->at_roof = unsupported(scale, roof);
    roof_floors(pts, n, roof, out->floor);
    *sse = 0;
    for (size_t i = 0; i < n && st == GB_OK; i++) {
        fitted[i] = gb_lpbm_predict_single(out, &pts[i], NULL);
        *sse += w[i] * (pts[i].time_ns - fitted[i]) * (pts[i].time_ns - fitted[i]);
    }
    free(y);
    return st;
}

enum gb_status gb_lpbm_fit_without(const struct gb_lpbm_point *pts, size_t n, const double *w, double p,
                                   int left_out, struct gb_lpbm_fit *out, double *sse)
{
    double *a = malloc(n * GB_LPBM_TERMS * sizeof *a), *fitted = malloc(n * sizeof *fitted);
    double scale[GB_LPBM_TERMS];
    enum gb_status st = a && fitted ? fit_at(pts, n, w, p, left_out, a, scale, out, fitted, sse)
                                    : gb_error_set(GB_ERR_NOMEM, "out of memory");
    free(a);
    free(fitted);
    return st;
}

/* The resources form's one fit: every term, at the exponent of
 * GB_LPBM_OVERLAPS that fits the points best (least weighted squared error). */
static enum gb_status fit_best(const struct gb_lpbm_point *pts, size_t n, const double *w, double *a,
                               double *scale, struct gb_lpbm_fit *out, double *fitted)
{
    static const double grid[] = GB_LPBM_OVERLAPS;
    double best = INFINITY, best_p = grid[0], sse;
    enum gb_status st = GB_OK;
    for (size_t k = 0; k < sizeof grid / sizeof grid[0] && st == GB_OK; k++)
        if ((st = fit_at(pts, n, w, grid[k], -1, a, scale, out, fitted, &sse)) == GB_OK && sse < best) {
            best = sse;
            best_p = grid[k];
        }
    return st != GB_OK ? st : fit_at(pts, n, w, best_p, -1, a, scale, out, fitted, &sse);
}

/* The resources form's terms overlap (each resource works while the others
 * do) at an exponent of GB_LPBM_OVERLAPS: the one fit that fits best, or,
 * asked for (pts[0].average), predictions that average the fits the points
 * cannot tell apart (out->alt: every exponent, each with every term or one
 * left out) with out the heaviest of them, the one its coefficient table
 * and their intervals show (a, scale and fitted its design and times). The
 * other forms add their terms (p = 1). */
static enum gb_status fit_form(const struct gb_lpbm_point *pts, size_t n, const double *w, double *a,
                               double *scale, struct gb_lpbm_fit *out, double *fitted)
{
    int order[GB_LPBM_ALTS];
    double sse;
    enum gb_status st;
    out->n_alt = 0;
    if (pts[0].form != GB_LPBM_RESOURCES)
        return fit_at(pts, n, w, 1, -1, a, scale, out, fitted, &sse);
    if (!pts[0].average)
        return fit_best(pts, n, w, a, scale, out, fitted);
    if ((st = gb_lpbm_average_fit(pts, n, w, out)) != GB_OK)
        return st;
    if (gb_lpbm_average_order(out, order) < 1)
        return gb_error_set(GB_ERR_NUMERIC, "no fit of the resources form to weigh");
    const struct gb_lpbm_alt h = out->alt[order[0]];
    return fit_at(pts, n, w, h.overlap, h.left_out, a, scale, out, fitted, &sse);
}

enum gb_status gb_lpbm_fit(const struct gb_lpbm_point *pts, size_t n, enum gb_lpbm_weight weight,
                           int boot, unsigned seed, struct gb_lpbm_fit *out)
{
    double scale[GB_LPBM_TERMS];
    double *a = NULL, *w = NULL, *fitted = NULL, *stats = NULL;
    memset(out, 0, sizeof *out);
    enum gb_status st = fit_check(pts, n);
    if (st != GB_OK)
        return st;
    a = malloc(n * GB_LPBM_TERMS * sizeof *a);
    w = malloc(n * sizeof *w);
    fitted = malloc(n * sizeof *fitted);
    if (!a || !w || !fitted) {
        st = gb_error_set(GB_ERR_NOMEM, "out of memory");
        goto out;
    }
    for (size_t i = 0; i < n; i++)
        w[i] = weight == GB_LPBM_RELATIVE ? 1 / (pts[i].time_ns * pts[i].time_ns) : 1;
    if ((st = fit_form(pts, n, w, a, scale, out, fitted)) != GB_OK)
        goto out;
    out->n = n;
    for (int j = 0; j < GB_LPBM_TERMS; j++) {
        out->present[j] = scale[j] > 0;
        out->ci_lo[j] = out->ci_hi[j] = NAN;
    }
    if ((stats = malloc(n * sizeof *stats)) == NULL) {
        st = gb_error_set(GB_ERR_NOMEM, "out of memory");
        goto out;
    }
    for (size_t i = 0; i < n; i++)
        stats[i] = gb_lpbm_predict(out, &pts[i], NULL);
    fit_stats(pts, n, stats, out);
    if (boot > 0)
        st = bootstrap(pts, n, a, scale, w, fitted, boot, seed, out);
out:
    free(a);
    free(w);
    free(fitted);
    free(stats);
    return st;
}

/* ---- held-out prediction ---- */

enum gb_status gb_lpbm_holdout_parse(const char *s, struct gb_lpbm_holdout *h)
{
    memset(h, 0, sizeof *h);
    if (strcmp(s, "loo") == 0)
        return GB_OK;
    if (strncmp(s, "every:", 6) == 0) {
        char *end;
        long k = strtol(s + 6, &end, 10);
        if (*end || end == s + 6 || k < 2 || k > 1000)
            return gb_error_set(GB_ERR_USAGE, "--holdout every:K needs K from 2 to 1000, not '%s'",
                                s + 6);
        h->kind = GB_LPBM_EVERY;
        h->every = (int)k;
        return GB_OK;
    }
    if (strncmp(s, "size:", 5) == 0) {
        const char *eq = strchr(s + 5, '=');
        if (!eq || eq == s + 5 || !eq[1] || (size_t)(eq - s - 5) >= sizeof h->axis ||
            strlen(eq + 1) >= sizeof h->value)
            return gb_error_set(GB_ERR_USAGE, "--holdout size:AXIS=V needs an axis and a value, "
                                "not '%s'", s);
        h->kind = GB_LPBM_SIZE;
        snprintf(h->axis, sizeof h->axis, "%.*s", (int)(eq - s - 5), s + 5);
        snprintf(h->value, sizeof h->value, "%s", eq + 1);
        return GB_OK;
    }
    return gb_error_set(GB_ERR_USAGE, "--holdout takes loo, every:K or size:AXIS=V, not '%s'", s);
}

/* Whether point i is held out by a split (leave-one-out: the one left out). */
static int held_out(const struct gb_lpbm_holdout *h, const struct gb_lpbm_point *p, size_t i,
                    size_t loo)
{
    if (h->kind == GB_LPBM_LOO)
        return i == loo;
    if (h->kind == GB_LPBM_EVERY)
        return (i + 1) % (size_t)h->every == 0;
    char want[96];
    snprintf(want, sizeof want, "%s=%s", h->axis, h->value);
    const char *f = strstr(p->problem, want);
    size_t wl = strlen(want);
    return f && (f == p->problem || f[-1] == ' ') && (f[wl] == '\0' || f[wl] == ' ');
}

static enum gb_status holdout_split(const struct gb_lpbm_point *pts, size_t n,
                                    enum gb_lpbm_weight weight, const struct gb_lpbm_holdout *h,
                                    size_t loo, struct gb_lpbm_point *train, double *rel,
                                    size_t *n_train)
{
    struct gb_lpbm_fit f;
    size_t nt = 0;
    for (size_t i = 0; i < n; i++)
        if (!held_out(h, &pts[i], i, loo))
            train[nt++] = pts[i];
    *n_train = nt;
    if (nt == n)
        return gb_error_set(GB_ERR_USAGE, "the held-out split leaves no configuration to predict");
    if (nt < GB_LPBM_MIN_POINTS)
        return gb_error_set(GB_ERR_USAGE, "the held-out split leaves %zu configurations to fit "
                            "on; at least %d are needed", nt, GB_LPBM_MIN_POINTS);
    enum gb_status st = gb_lpbm_fit(train, nt, weight, 0, 0, &f);
    if (st != GB_OK)
        return st;
    for (size_t i = 0; i < n; i++)
        if (held_out(h, &pts[i], i, loo))
            rel[i] = (gb_lpbm_predict(&f, &pts[i], NULL) - pts[i].time_ns) / pts[i].time_ns;
    return GB_OK;
}

int gb_lpbm_has_problem(const struct gb_lpbm_point *pts, size_t n, const char *problem)
{
    for (size_t i = 0; i < n; i++)
        if (strcmp(pts[i].problem, problem) == 0)
            return 1;
    return 0;
}

/* Each problem held out in turn from a fit of the others: the |log| of
 * predicted over measured time of its points, into e (n values at most);
 * their number. */
static size_t across_errors(const struct gb_lpbm_point *pts, size_t n, enum gb_lpbm_weight weight,
                            struct gb_lpbm_point *train, double *e)
{
    size_t m = 0;
    for (size_t k = 0; k < n; k++) {
        if (gb_lpbm_has_problem(pts, k, pts[k].problem))
            continue;  /* a problem seen before: done */
        size_t nt = 0;
        for (size_t i = 0; i < n; i++)
            if (strcmp(pts[i].problem, pts[k].problem) != 0)
                train[nt++] = pts[i];
        struct gb_lpbm_fit f;
        if (nt < GB_LPBM_MIN_POINTS || gb_lpbm_fit(train, nt, weight, 0, 0, &f) != GB_OK) {
            gb_error_clear();
            continue;
        }
        for (size_t i = 0; i < n; i++) {
            double pred = gb_lpbm_predict(&f, &pts[i], NULL);
            if (strcmp(pts[i].problem, pts[k].problem) == 0 && pred > 0 && pts[i].time_ns > 0)
                e[m++] = fabs(log(pred / pts[i].time_ns));
        }
    }
    return m;
}

double gb_lpbm_across_problems(const struct gb_lpbm_point *pts, size_t n, enum gb_lpbm_weight weight)
{
    int problems = 0;
    for (size_t i = 0; i < n && problems < 2; i++)
        problems += !gb_lpbm_has_problem(pts, i, pts[i].problem);
    if (problems < 2)
        return NAN;
    struct gb_lpbm_point *train = malloc(n * sizeof *train);
    double *e = malloc(n * sizeof *e), q = NAN;
    size_t m = train && e ? across_errors(pts, n, weight, train, e) : 0;
    if (m > 0)
        q = quantile(e, m, 0.95);
    free(train);
    free(e);
    return q;
}

/* A split other than leave-one-out: how many test points' measured times
 * lie inside the 95% interval the training points give them (widened, for
 * a problem the training points do not have, by their own error across
 * problems: gb_lpbm_across_problems). */
static enum gb_status holdout_cover(const struct gb_lpbm_point *pts, size_t n, enum gb_lpbm_weight weight,
                                    const struct gb_lpbm_holdout *h, const struct gb_lpbm_point *train,
                                    struct gb_lpbm_holdout_result *out)
{
    struct gb_lpbm_point *test = malloc((n ? n : 1) * sizeof *test);
    double *lo = malloc((n ? n : 1) * sizeof *lo), *hi = malloc((n ? n : 1) * sizeof *hi);
    enum gb_status st = GB_OK;
    size_t m = 0;
    if (!test || !lo || !hi) {
        st = gb_error_set(GB_ERR_NOMEM, "out of memory");
        goto out;
    }
    for (size_t i = 0; i < n; i++)
        if (held_out(h, &pts[i], i, 0))
            test[m++] = pts[i];
    if ((st = gb_lpbm_intervals(train, out->n_train, weight, GB_LPBM_BOOT, GB_LPBM_SEED, test, m, lo,
                                hi)) != GB_OK)
        goto out;
    double q = gb_lpbm_across_problems(train, out->n_train, weight);
    for (size_t k = 0; k < m; k++)
        if (isfinite(lo[k]) && isfinite(hi[k])) {
            int other = !gb_lpbm_has_problem(train, out->n_train, test[k].problem);
            if (isfinite(q) && other) {
                lo[k] *= exp(-q);
                hi[k] *= exp(q);
            }
            out->n_no_across += other && !isfinite(q);
            out->n_interval++;
            out->n_inside += test[k].time_ns >= lo[k] && test[k].time_ns <= hi[k];
        }
out:
    free(test);
    free(lo);
    free(hi);
    return st;
}

enum gb_status gb_lpbm_holdout_run(const struct gb_lpbm_point *pts, size_t n,
                                   enum gb_lpbm_weight weight, const struct gb_lpbm_holdout *h,
                                   struct gb_lpbm_holdout_result *out)
{
    enum gb_status st = GB_OK;
    struct gb_lpbm_point *train = malloc((n ? n : 1) * sizeof *train);
    double *abs_rel = malloc((n ? n : 1) * sizeof *abs_rel);
    memset(out, 0, sizeof *out);
    out->rel = malloc((n ? n : 1) * sizeof *out->rel);
    if (!train || !abs_rel || !out->rel) {
        st = gb_error_set(GB_ERR_NOMEM, "out of memory");
        goto out;
    }
    for (size_t i = 0; i < n; i++)
        out->rel[i] = NAN;
    size_t rounds = h->kind == GB_LPBM_LOO ? n : 1;
    for (size_t r = 0; r < rounds && st == GB_OK; r++)
        st = holdout_split(pts, n, weight, h, r, train, out->rel, &out->n_train);
    if (st == GB_OK && h->kind != GB_LPBM_LOO)
        st = holdout_cover(pts, n, weight, h, train, out);
    if (st != GB_OK)
        goto out;
    for (size_t i = 0; i < n; i++)
        if (isfinite(out->rel[i])) {
            abs_rel[out->n_test++] = fabs(out->rel[i]);
            if (out->n_test == 1 || fabs(out->rel[i]) > out->max_abs_rel) {
                out->max_abs_rel = fabs(out->rel[i]);
                out->worst = i;
            }
        }
    out->median_abs_rel = out->n_test ? quantile(abs_rel, out->n_test, 0.5) : NAN;
out:
    if (st != GB_OK) {
        free(out->rel);
        out->rel = NULL;
    }
    free(train);
    free(abs_rel);
    return st;
}

/* ---- what the breakdown says ---- */

/* The measured evidence under a dominant roof term: its work at the roof
 * at point p and the share of the roof its coefficient implies; far from
 * the roof (under 1 / GB_LPBM_FAR_FROM_ROOF) the term tracks its counter
 * without that resource's rate being what is spent, which it says. */
static void roof_share(const struct gb_lpbm_fit *f, const struct gb_lpbm_point *p, int j, char *buf,
                       size_t n)
{
    if (!(gb_lpbm_roof_terms(p->form) >> j & 1) || !(f->coef[j] > 0) || !(p->x[j] > 0))
        return;
    int far = f->coef[j] > GB_LPBM_FAR_FROM_ROOF;
    int len = snprintf(buf, n, ". Measured: this work takes %.4g us at the roof, and the fit puts the "
                       "kernel at %.3g%% of that roof%s", p->x[j] / 1e3, 100 / f->coef[j],
                       far ? ", far from it: the time follows this counter, but the resource's rate is "
                             "not what is spent, and another cost that grows with it may be" : "");
    double k = p->c_l2_slice_imbalance;
    if (j == GB_LPBM_L2 && p->l2_camped && isfinite(k) && k > 1 && len > 0 && (size_t)len < n)
        snprintf(buf + len, n - (size_t)len, "; the busiest L2 slice carries %.3g times the mean "
                 "slice's sectors here (lts__t_sectors.max / .avg): the L2 traffic camps, and the "
                 "term is that slice's time", k);
}

enum gb_lpbm_term gb_lpbm_dominant(const struct gb_lpbm_fit *f, const struct gb_lpbm_point *p,
                                   char *buf, size_t n)
{
    double terms[GB_LPBM_TERMS];
    double total = gb_lpbm_predict(f, p, terms);
    int best = 0;
    if (isnan(f->r2)) {
        snprintf(buf, n, "no term is named: every configuration took the same time (%.6g us), so the fit "
                 "has nothing to explain (R^2 undefined) and gives no verdict", p->time_ns / 1e3);
        return GB_LPBM_PUT;
    }
    for (int j = 1; j < GB_LPBM_TERMS; j++)
        if (terms[j] > terms[best])
            best = j;
    int len = snprintf(buf, n, "%s (%.0f%% of the predicted time at %s%s%s) dominates: %s",
                       gb_lpbm_term_name((enum gb_lpbm_term)best),
                       total > 0 ? 100 * terms[best] / total : 0, p->config, p->problem[0] ? ", " : "",
                       p->problem, gb_lpbm_term_info((enum gb_lpbm_term)best)->meaning);
    if (len > 0 && (size_t)len < n)
        roof_share(f, p, best, buf + len, n - (size_t)len);
    return (enum gb_lpbm_term)best;
}

/* ---- the interval of a prediction ---- */

/* The design a bootstrap replicate solves: f's (its overlap, the terms it
 * had no support for out), or, where f averages alternatives, the
 * alternative `m`'s (its overlap, its term left out), into aw and sw. The
 * designs of each overlap are made once, into cache[k] (k: its place in
 * GB_LPBM_OVERLAPS). */
static enum gb_status replicate_design(const struct gb_lpbm_point *pts, size_t n, const struct gb_lpbm_fit *f,
                                       const struct gb_lpbm_alt *m, double **cache, double (*cscale)[GB_LPBM_TERMS],
                                       double *aw, double *sw, double *p)
{
    static const double grid[] = GB_LPBM_OVERLAPS;
    size_t k = 0, ng = sizeof grid / sizeof grid[0];
    *p = m ? m->overlap : f->overlap > 1 ? f->overlap : 1;
    while (k + 1 < ng && grid[k] != *p)
        k++;
    if (!cache[k]) {
        if (!(cache[k] = malloc(n * GB_LPBM_TERMS * sizeof *cache[k])))
            return gb_error_set(GB_ERR_NOMEM, "out of memory");
        design(pts, n, *p, cache[k], cscale[k]);
        for (int j = 0; j < GB_LPBM_TERMS && !m; j++)
            if (!f->present[j])  /* no support, or left out of the fit (implausible) */
                drop_term(cache[k], cscale[k], n, j);
    }
    memcpy(aw, cache[k], n * GB_LPBM_TERMS * sizeof *aw);
    memcpy(sw, cscale[k], GB_LPBM_TERMS * sizeof *sw);
    for (size_t i = 0; m && m->left_out >= 0 && i < n; i++)
        aw[i * GB_LPBM_TERMS + m->left_out] = 0;
    return GB_OK;
}

/* The residual bootstrap's replicates of predictions at at[0..m-1] from
 * one fit of pts (every replicate refitted once and used at every at[k]):
 * draws[k * boot + b]. Each replicate refits the fitted times plus
 * resampled residuals (where the fit averages alternatives, as one of them
 * drawn by its weight: the spread between the fits the points cannot tell
 * apart is in the interval) and adds a resampled residual at the point. */
static enum gb_status boot_predictions(const struct gb_lpbm_point *pts, size_t n,
                                       enum gb_lpbm_weight weight, int boot, unsigned seed,
                                       const struct gb_lpbm_point *at, size_t m, double *draws)
{
    double *cache[8] = {0}, cscale[8][GB_LPBM_TERMS], sw[GB_LPBM_TERMS];
    uint64_t rs = seed;
    struct gb_lpbm_fit *fr = malloc(2 * sizeof *fr);   /* large (the alternatives): off the stack */
    double *w = malloc(n * sizeof *w), *aw = malloc(n * GB_LPBM_TERMS * sizeof *aw);
    double *w_at = malloc((m ? m : 1) * sizeof *w_at), *fitted = malloc(n * sizeof *fitted);
    double *e = malloc(n * sizeof *e), *ys = malloc(n * sizeof *ys);
    enum gb_status st = fr && w && aw && w_at && fitted && e && ys ? GB_OK
                        : gb_error_set(GB_ERR_NOMEM, "out of memory");
    if (st != GB_OK || (st = gb_lpbm_fit(pts, n, weight, 0, 0, &fr[0])) != GB_OK)
        goto out;
    struct gb_lpbm_fit *f = &fr[0], *r = &fr[1];
    const unsigned roof = gb_lpbm_roof_terms(pts[0].form);
    double infl = inflation(f, n);
    for (size_t k = 0; k < m; k++) {
        double pred = gb_lpbm_predict(f, &at[k], NULL);
        w_at[k] = weight == GB_LPBM_RELATIVE && pred > 0 ? 1 / (pred * pred) : 1;
    }
    for (size_t i = 0; i < n; i++) {
        w[i] = weight == GB_LPBM_RELATIVE ? 1 / (pts[i].time_ns * pts[i].time_ns) : 1;
        fitted[i] = gb_lpbm_predict(f, &pts[i], NULL);
        e[i] = sqrt(w[i]) * (pts[i].time_ns - fitted[i]) * infl;
    }
    for (int b = 0; b < boot && st == GB_OK; b++) {
        unsigned dropped;
        double p;
        memset(r, 0, sizeof *r);
        for (size_t i = 0; i < n; i++)
            ys[i] = fitted[i] + e[gb_mix64_next(&rs) % n] / sqrt(w[i]);
        const struct gb_lpbm_alt *alt = gb_lpbm_average_draw(f, &rs);
        if ((st = replicate_design(pts, n, f, alt, cache, cscale, aw, sw, &p)) != GB_OK ||
            (st = solve_rules(aw, sw, n, ys, w, p, roof, r->coef, &dropped)) != GB_OK)
            break;
        r->overlap = p;
        memcpy(r->floor, f->floor, sizeof r->floor);
        r->at_roof = unsupported(sw, roof);
        for (size_t k = 0; k < m; k++)
            draws[k * (size_t)boot + (size_t)b] =
                gb_lpbm_predict_single(r, &at[k], NULL) + e[gb_mix64_next(&rs) % n] / sqrt(w_at[k]);
    }
out:
    for (size_t k = 0; k < sizeof cache / sizeof cache[0]; k++)
        free(cache[k]);
    free(fr);
    free(aw);
    free(w);
    free(w_at);
    free(fitted);
    free(e);
    free(ys);
    return st;
}

enum gb_status gb_lpbm_intervals(const struct gb_lpbm_point *pts, size_t n, enum gb_lpbm_weight weight,
                                 int boot, unsigned seed, const struct gb_lpbm_point *at, size_t m,
                                 double *lo, double *hi)
{
    for (size_t k = 0; k < m; k++)
        lo[k] = hi[k] = NAN;
    if (boot < 1 || m == 0)
        return GB_OK;
    double *draws = malloc((size_t)boot * m * sizeof *draws);
    if (!draws)
        return gb_error_set(GB_ERR_NOMEM, "out of memory");
    enum gb_status st = boot_predictions(pts, n, weight, boot, seed, at, m, draws);
    for (size_t k = 0; k < m && st == GB_OK; k++) {
        lo[k] = quantile(draws + k * (size_t)boot, (size_t)boot, 0.025);
        hi[k] = quantile(draws + k * (size_t)boot, (size_t)boot, 0.975);
    }
    free(draws);
    return st;
}

enum gb_status gb_lpbm_interval_at(const struct gb_lpbm_point *pts, size_t n, enum gb_lpbm_weight weight,
                                   int boot, unsigned seed, const struct gb_lpbm_point *at,
                                   double *lo, double *hi)
{
    return gb_lpbm_intervals(pts, n, weight, boot, seed, at, 1, lo, hi);
}
