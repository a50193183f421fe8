/* campprof_predict.c - CampProf's predictions: the time of an equation, the
 * band of a kernel's counts, the camping degree and application line, the
 * configurations the occupancy calculator allows, and the counts read from
 * Nsight Compute (include/gpubound/campprof.h says what each computes). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gpubound/campprof.h"
#include "gpubound/occupancy.h"
#include "results/validate.h"

/* ---- prediction ---- */

static int gb_eq_measured(const struct gb_camp_equation *eq, int wclass)
{
    for (int i = 0; i < eq->n_widths; i++)
        if (eq->widths[i] == gb_camp_class_width(wclass))
            return 1;
    return 0;
}

int gb_camp_eq_class_for(const struct gb_camp_equation *eq, int wclass)
{
    for (int c = wclass < 0 ? 0 : wclass; c < GB_CAMP_N_WIDTHS; c++)
        if (gb_eq_measured(eq, c))
            return c;
    return -1;
}

double gb_camp_eq_lt_term(const struct gb_camp_equation *eq, const char *which, int wclass)
{
    char name[24];
    snprintf(name, sizeof name, "%s:b%d", which, gb_camp_class_width(wclass));
    for (size_t i = 0; i < eq->fit.n_terms; i++)
        if (strcmp(eq->fit.terms[i].name, name) == 0)
            return eq->fit.terms[i].estimate;
    return NAN;
}

/* The latency-throughput forms: L_W * h(w / knee_W). */
static double gb_eq_lt_time(const struct gb_camp_equation *eq, double warps, int wclass)
{
    return gb_camp_eq_lt_term(eq, "L", wclass) *
           gb_camp_form_h(eq->form, warps / gb_camp_eq_lt_term(eq, "knee", wclass));
}

double gb_camp_eq_time_ns(const struct gb_camp_equation *eq, double warps, int wclass)
{
    if (wclass < 0 || wclass >= GB_CAMP_N_WIDTHS || !gb_eq_measured(eq, wclass))
        return NAN;
    if (gb_camp_form_lt(eq->form))
        return gb_eq_lt_time(eq, warps, wclass);
    char dummy[16], slope[20];
    snprintf(dummy, sizeof dummy, "b%d", gb_camp_class_width(wclass));
    snprintf(slope, sizeof slope, "w:b%d", gb_camp_class_width(wclass));
    double t = 0;
    for (size_t i = 0; i < eq->fit.n_terms; i++) {
        const struct gb_camp_term *term = &eq->fit.terms[i];
        if (strcmp(term->name, "w") == 0)
            t += term->estimate * warps;
        else if (term->name[0] == 'b')
            t += strcmp(term->name, dummy) == 0 ? term->estimate : 0;
        else if (strncmp(term->name, "w:", 2) == 0)
            t += strcmp(term->name, slope) == 0 ? term->estimate * warps : 0;
        else
            t += term->estimate; /* the intercept */
    }
    return t;
}

/* The time of `count` instructions of class `wclass` at `warps`, by `eq`. */
static enum gb_status gb_instr_time(const struct gb_camp_equation *eq, int wclass, double count,
                                    double warps, double *out)
{
    int c = gb_camp_eq_class_for(eq, wclass);
    if (c < 0) {
        char have[64] = "";
        size_t len = 0;
        for (int i = 0; i < eq->n_widths; i++)
            len += (size_t)snprintf(have + len, sizeof have - len, "%s%d", i ? ", " : "",
                                    eq->widths[i]);
        return gb_error_set(GB_ERR_USAGE, "the model cannot time %d-byte %ss: its %s "
                            "benchmarks measured widths %s bytes", gb_camp_class_width(wclass),
                            eq->op == GB_CAMP_READ ? "load" : "store", gb_camp_op_name(eq->op),
                            have);
    }
    double k = eq->instr_per_warp[c];
    *out = count * gb_camp_eq_time_ns(eq, warps, c) / (k * warps);
    return GB_OK;
}

int gb_camp_in_range(const struct gb_camp_model *m, const struct gb_camp_counts *c, double warps)
{
    for (int op = 0; op < 2; op++)
        for (int k = 0; k < GB_CAMP_N_WIDTHS; k++) {
            double n = op == GB_CAMP_READ ? c->ld[k] : c->st[k];
            for (int p = 0; n > 0 && p < 2; p++) {
                const struct gb_camp_equation *eq = &m->eq[op][p];
                int cls = gb_camp_eq_class_for(eq, k);
                if (cls >= 0 && !(gb_camp_eq_time_ns(eq, warps, cls) > 0))
                    return 0;
            }
        }
    return 1;
}

enum gb_status gb_camp_bounds(const struct gb_camp_model *m, const struct gb_camp_counts *c,
                              double warps, double *best_ns, double *worst_ns)
{
    enum gb_status st;
    double best = 0, worst = 0;
    int any = 0;
    if (!(warps > 0) || !isfinite(warps))
        return gb_error_set(GB_ERR_USAGE, "active warps per SM must be > 0, not %g", warps);
    for (int op = 0; op < 2; op++)
        for (int k = 0; k < GB_CAMP_N_WIDTHS; k++) {
            double n = op == GB_CAMP_READ ? c->ld[k] : c->st[k];
            if (!(n >= 0) || !isfinite(n))
                return gb_error_set(GB_ERR_USAGE, "the %d-byte %s count must be a number >= 0, "
                                    "not %g", gb_camp_class_width(k),
                                    op == GB_CAMP_READ ? "load" : "store", n);
            if (n == 0)
                continue;
            any = 1;
            double b, wv;
            if ((st = gb_instr_time(&m->eq[op][GB_CAMP_SPREAD], k, n, warps, &b)) != GB_OK ||
                (st = gb_instr_time(&m->eq[op][GB_CAMP_CAMPED], k, n, warps, &wv)) != GB_OK)
                return st;
            best += b;
            worst += wv > b ? wv : b;   /* camping never speeds an access up */
        }
    if (!any)
        return gb_error_set(GB_ERR_USAGE, "every load and store count is zero: the band of a "
                            "kernel without global memory instructions is empty");
    if (!gb_camp_in_range(m, c, warps))
        best = worst = NAN;   /* a time <= 0 is no time: outside the form's range */
    *best_ns = best;
    *worst_ns = worst;
    return GB_OK;
}

double gb_camp_degree(double best_ns, double worst_ns, double t_ns)
{
    double width = worst_ns - best_ns;
    if (!isfinite(width) || fabs(width) <= 1e-12 * fabs(best_ns) || width == 0)
        return NAN;
    return (t_ns - best_ns) / width;
}

double gb_camp_extrapolate(double best_ns, double worst_ns, double degree)
{
    return best_ns + degree * (worst_ns - best_ns);
}

/* The band at `warps` with the roof best bound `roof_best_ns` (0: none),
 * and the application line's factor there (gb_camp_line_factor). */
static enum gb_status gb_band_at(const struct gb_camp_model *m, const struct gb_camp_band_in *in,
                                 double warps, double *best_ns, double *worst_ns, double *factor)
{
    struct gb_camp_obs o;
    memset(&o, 0, sizeof o);
    o.counts = *in->counts;
    o.warps = warps;
    o.roof_best_ns = in->roof_best_ns;
    o.inflight_bytes = in->inflight_bytes;
    *factor = gb_camp_line_factor(m, &o);
    return gb_camp_obs_bounds(m, &o, best_ns, worst_ns);
}

/* The camping degree of in->time_ns at in->at_warps into *d, and the
 * application line's degree (gb_camp_line_degree) into *dl: NaN where the
 * model cannot time that configuration (outside its form's range). */
static enum gb_status gb_band_degree(const struct gb_camp_model *m, const struct gb_camp_band_in *in,
                                     double *d, double *dl)
{
    double b0, w0, f0;
    enum gb_status st;
    *d = *dl = NAN;
    if (!isfinite(in->time_ns))
        return GB_OK;
    if (!(in->time_ns > 0))
        return gb_error_set(GB_ERR_USAGE, "the measured time must be > 0 ns, not %g", in->time_ns);
    if ((st = gb_band_at(m, in, in->at_warps, &b0, &w0, &f0)) != GB_OK ||
        !gb_camp_in_range(m, in->counts, in->at_warps))
        return st;
    *d = gb_camp_degree(b0, w0, in->time_ns);
    *dl = gb_camp_line_degree(b0, w0, in->time_ns, f0);
    if (isnan(*d))
        return gb_error_set(GB_ERR_NUMERIC, "the band has no width at %g warps per SM (best "
                            "and worst are both %.6g ns): the camping degree is undefined",
                            in->at_warps, b0);
    return GB_OK;
}

enum gb_status gb_camp_predict_band(const struct gb_camp_model *m, const struct gb_camp_band_in *in,
                                    struct gb_camp_row *rows, double *degree)
{
    enum gb_status st;
    double d, dl;
    if ((st = gb_band_degree(m, in, &d, &dl)) != GB_OK)
        return st;
    for (size_t i = 0; i < in->n; i++) {
        double w = in->eval_warps ? in->eval_warps[i] : in->warps[i];
        rows[i].warps = in->warps[i];
        double f;
        rows[i].app_ns = NAN;
        if ((st = gb_band_at(m, in, w, &rows[i].best_ns, &rows[i].worst_ns, &f)) != GB_OK)
            return st;
        if (!gb_camp_in_range(m, in->counts, w))
            continue;   /* no time here: the bounds are NaN */
        double app = isnan(dl) ? NAN : gb_camp_line_time(rows[i].best_ns, rows[i].worst_ns, dl, f);
        /* Counts or coefficients too large for a double end here, not as inf rows. */
        if (!isfinite(rows[i].best_ns) || !isfinite(rows[i].worst_ns) || (!isnan(d) && !isfinite(app)))
            return gb_error_set(GB_ERR_NUMERIC, "the prediction at %g warps per SM is not finite "
                                "(best %g ns, worst %g ns): the counts or the model's "
                                "coefficients are too large", w, rows[i].best_ns,
                                rows[i].worst_ns);
        if (app > 0)
            rows[i].app_ns = app;   /* a line extrapolated to <= 0 gives no time */
    }
    *degree = d;
    return GB_OK;
}

enum gb_status gb_camp_predict(const struct gb_camp_model *m, const struct gb_camp_counts *c,
                               const int *warps, size_t n, double at_warps, double time_ns,
                               struct gb_camp_row *rows, double *degree)
{
    const struct gb_camp_band_in in = {c, warps, NULL, n, at_warps, time_ns, 0, NAN};
    return gb_camp_predict_band(m, &in, rows, degree);
}

/* ---- configurations ---- */

static int gb_blocks_at(const struct gb_device_info *dev, const struct gb_camp_config *cfg,
                        int threads, long grid_blocks, enum gb_status *st)
{
    struct gb_occupancy_input in = {threads, cfg->regs, 0, cfg->smem, -1, -1};
    struct gb_occupancy_result r;
    if ((*st = gb_occupancy_compute(dev, &in, &r)) != GB_OK)
        return -1;
    long a = r.active_blocks;
    if (grid_blocks > 0 && dev->sm_count > 0) {
        long per_sm = (grid_blocks + dev->sm_count - 1) / dev->sm_count;
        if (per_sm < a)
            a = per_sm;
    }
    return (int)a;
}

enum gb_status gb_camp_allowed_warps(const struct gb_device_info *dev,
                                     const struct gb_camp_config *cfg, int *warps, size_t *n,
                                     int *config_warps)
{
    enum gb_status st = GB_OK;
    const int ws = dev->warp_size > 0 ? dev->warp_size : 32;
    const int max_warps = dev->max_threads_per_sm / ws;
    int *ok = NULL;

    *n = 0;
    *config_warps = 0;
    if (cfg->threads < 1 || cfg->regs < 0 || cfg->smem < 0 || cfg->grid < 0)
        return gb_error_set(GB_ERR_USAGE, "a configuration needs threads >= 1 and registers, "
                            "shared memory and grid >= 0");
    if (max_warps < 1 || dev->max_threads_per_block < 1)
        return gb_error_set(GB_ERR_USAGE, "the device's thread limits are not known");
    if (!(ok = calloc((size_t)max_warps + 1, sizeof *ok)))
        return gb_error_set(GB_ERR_NOMEM, "out of host memory");
    const double total = (double)cfg->grid * cfg->threads;
    for (int wpb = 1; wpb * ws <= dev->max_threads_per_block; wpb++) {
        long g = cfg->grid > 0 ? (long)ceil(total / (wpb * ws)) : 0;
        int a = gb_blocks_at(dev, cfg, wpb * ws, g, &st);
        if (a < 0)
            goto out;
        for (int k = 1; k <= a && k * wpb <= max_warps; k++)
            ok[k * wpb] = 1;
    }
    {
        int wpb = (cfg->threads + ws - 1) / ws;
        int a = gb_blocks_at(dev, cfg, cfg->threads, cfg->grid, &st);
        if (a < 0)
            goto out;
        for (int k = 1; k <= a && k * wpb <= max_warps; k++)
            ok[k * wpb] = 1;
        *config_warps = a * wpb;
    }
    for (int v = 1; v <= max_warps; v++)
        if (ok[v])
            warps[(*n)++] = v;
    if (*n == 0)
        st = gb_error_set(GB_ERR_USAGE, "no block size can run with %d registers per thread and "
                          "%d bytes of shared memory per block", cfg->regs, cfg->smem);
out:
    free(ok);
    return st;
}

int gb_camp_max_warps(const struct gb_device_info *dev)
{
    return dev->max_threads_per_sm / (dev->warp_size > 0 ? dev->warp_size : 32);
}

enum gb_status gb_camp_configurations(const struct gb_device_info *dev,
                                      const struct gb_camp_config *cfg, int warps_max,
                                      int *warps, size_t *n, int *config_warps)
{
    if (warps_max <= 0)
        return gb_camp_allowed_warps(dev, cfg, warps, n, config_warps);
    if (warps_max > gb_camp_max_warps(dev))
        return gb_error_set(GB_ERR_USAGE, "%d active warps per SM is more than the %d an SM "
                            "holds", warps_max, gb_camp_max_warps(dev));
    *n = 0;
    for (int w = 1; w <= warps_max; w++)
        warps[(*n)++] = w;
    *config_warps = warps_max;
    return GB_OK;
}

void gb_camp_band_check(const struct gb_camp_row *rows, size_t n, struct gb_camp_band_check *out)
{
    memset(out, 0, sizeof *out);
    for (size_t i = 0; i < n; i++) {
        if (!out->nonpositive_warps && (!(rows[i].best_ns > 0) || !(rows[i].worst_ns > 0)))
            out->nonpositive_warps = rows[i].warps;
        out->n_inverted += rows[i].worst_ns < rows[i].best_ns;
    }
}

/* ---- counts from sectors and requests ---- */

enum gb_status gb_camp_split_requests(const struct gb_camp_equation *eq, double requests,
                                      double sectors, double *out)
{
    if (!(requests >= 0) || !(sectors >= 0) || !isfinite(requests) || !isfinite(sectors))
        return gb_error_set(GB_ERR_USAGE, "requests and sectors must be numbers >= 0, not %g and %g",
                            requests, sectors);
    if (requests == 0) {
        if (sectors > 0)
            return gb_error_set(GB_ERR_USAGE, "%g sectors without a request", sectors);
        return GB_OK;
    }
    if (eq->n_widths < 1)
        return gb_error_set(GB_ERR_USAGE, "the model has no width classes");
    const double s = sectors / requests;
    const int lo = eq->widths[0], hi = eq->widths[eq->n_widths - 1];
    if (s <= lo) {
        out[gb_camp_width_class(lo)] += requests;
        return GB_OK;
    }
    if (s >= hi) {
        out[gb_camp_width_class(hi)] += sectors / hi;
        return GB_OK;
    }
    for (int i = 0; i + 1 < eq->n_widths; i++) {
        const double a = eq->widths[i], b = eq->widths[i + 1];
        if (s >= a && s <= b) {
            /* r_a + r_b = requests and a r_a + b r_b = sectors. */
            double rb = (sectors - a * requests) / (b - a);
            out[gb_camp_width_class((int)a)] += requests - rb;
            out[gb_camp_width_class((int)b)] += rb;
            return GB_OK;
        }
    }
    return gb_error_set(GB_ERR_NUMERIC, "no width class brackets %g sectors per request", s);
}

/* The requests of one direction, each metric held to its range: the l1tex
 * request count, else the SASS instruction count; `metric` names the one
 * read. NaN when the export has neither. */
static enum gb_status gb_camp_ncu_requests(const struct gb_ncu_launch *l, const char *requests,
                                           const char *inst, double *v, const char **metric)
{
    enum gb_status st = gb_ncu_range(l, requests, GB_RANGE_NCU_COUNT, v);
    *metric = requests;
    if (st == GB_OK && isnan(*v)) {
        *metric = inst;
        st = gb_ncu_range(l, inst, GB_RANGE_NCU_COUNT, v);
    }
    return st;
}

/* The load and store requests and sectors, which a prediction needs: each
 * held to its range, GB_ERR_FORMAT naming the ones the export lacks. */
static enum gb_status gb_camp_ncu_counts(const struct gb_ncu_launch *l, struct gb_camp_ncu_input *out)
{
    enum gb_status st;
    char missing[512] = "";
    size_t len = 0;
    if ((st = gb_camp_ncu_requests(l, GB_NCU_LD_REQUESTS, GB_NCU_LD_INST, &out->ld_requests,
                                   &out->ld_requests_metric)) != GB_OK ||
        (st = gb_camp_ncu_requests(l, GB_NCU_ST_REQUESTS, GB_NCU_ST_INST, &out->st_requests,
                                   &out->st_requests_metric)) != GB_OK ||
        (st = gb_ncu_range(l, GB_NCU_LD_SECTORS, GB_RANGE_COUNTER, &out->ld_sectors)) != GB_OK ||
        (st = gb_ncu_range(l, GB_NCU_ST_SECTORS, GB_RANGE_COUNTER, &out->st_sectors)) != GB_OK)
        return st;
    const struct {
        double v;
        const char *name;
    } need[] = {
        {out->ld_requests, GB_NCU_LD_REQUESTS}, {out->ld_sectors, GB_NCU_LD_SECTORS},
        {out->st_requests, GB_NCU_ST_REQUESTS}, {out->st_sectors, GB_NCU_ST_SECTORS},
    };
    for (size_t i = 0; i < sizeof need / sizeof need[0]; i++)
        if (isnan(need[i].v))
            len += (size_t)snprintf(missing + len, sizeof missing - len, "%s%s", len ? ", " : "",
                                    need[i].name);
    out->lacks = len > 0;
    if (len)
        return gb_error_set(GB_ERR_FORMAT, "launch %ld (%s) lacks %s", l->id, l->kernel, missing);
    return GB_OK;
}

/* The optional metrics: the duration, the memory levels' bytes and the
 * achieved warps, each held to its range; NaN where absent. */
static enum gb_status gb_camp_ncu_optional(const struct gb_ncu_launch *l, struct gb_camp_ncu_input *out)
{
    const struct {
        const char *name;
        enum gb_range_id id;
        double *v, scale;
    } rows[] = {
        {GB_NCU_TIME, GB_RANGE_NCU_TIME, &out->time_ns, 1},
        {GB_NCU_DRAM_READ_SECTORS, GB_RANGE_COUNTER, &out->dram_read_bytes, 32},
        {GB_NCU_DRAM_WRITE_SECTORS, GB_RANGE_COUNTER, &out->dram_write_bytes, 32},
        {GB_NCU_L2_READ_SECTORS, GB_RANGE_COUNTER, &out->l2_read_bytes, 32},
        {GB_NCU_L2_WRITE_SECTORS, GB_RANGE_COUNTER, &out->l2_write_bytes, 32},
        {GB_CAMP_WARPS_ACTIVE, GB_RANGE_WARPS, &out->warps_active, 1},
    };
    enum gb_status st = GB_OK;
    for (size_t i = 0; i < sizeof rows / sizeof rows[0] && st == GB_OK; i++) {
        st = gb_ncu_range(l, rows[i].name, rows[i].id, rows[i].v);
        *rows[i].v *= rows[i].scale;
    }
    return st;
}

/* A launch's block or grid size: its metric, else the product of its
 * column's tuple ("(32, 8, 1)"), held to range `id`; -1 when absent. */
static enum gb_status gb_camp_ncu_size(const struct gb_ncu_launch *l, const char *metric,
                                       const char *column, const char *tuple, enum gb_range_id id,
                                       long *out)
{
    char who[64];
    double v;
    enum gb_status st = gb_ncu_range(l, metric, id, &v);
    if (st == GB_OK && isnan(v) && tuple[0]) {
        v = (double)gb_ncu_dim_product(tuple);
        snprintf(who, sizeof who, "launch %ld", l->id);
        if (!gb_range_ok(id, v))
            return gb_range_error(who, column, tuple, id);
    }
    *out = isnan(v) ? -1 : (long)v;
    return st;
}

/* A launch's block, grid, registers and shared memory, range-checked
 * (src/results/validate.h) before they are narrowed or multiplied. */
static enum gb_status gb_camp_ncu_launch_shape(const struct gb_ncu_launch *l,
                                               struct gb_camp_ncu_input *out)
{
    enum gb_status st;
    double regs, s1, s2;
    if ((st = gb_camp_ncu_size(l, GB_NCU_BLOCK, "Block Size", l->block, GB_RANGE_NCU_BLOCK,
                               &out->threads)) != GB_OK ||
        (st = gb_camp_ncu_size(l, GB_NCU_GRID, "Grid Size", l->grid, GB_RANGE_NCU_GRID,
                               &out->grid)) != GB_OK ||
        (st = gb_ncu_range(l, GB_NCU_REGS, GB_RANGE_NCU_REGS, &regs)) != GB_OK ||
        (st = gb_ncu_range(l, GB_NCU_SMEM_STATIC, GB_RANGE_NCU_SMEM, &s1)) != GB_OK ||
        (st = gb_ncu_range(l, GB_NCU_SMEM_DYNAMIC, GB_RANGE_NCU_SMEM, &s2)) != GB_OK)
        return st;
    out->regs = isnan(regs) ? -1 : (int)regs;
    if (!isnan(s1) || !isnan(s2))
        out->smem = (int)((isnan(s1) ? 0 : s1) + (isnan(s2) ? 0 : s2));
    return GB_OK;
}

enum gb_status gb_camp_from_ncu(const struct gb_camp_model *m, const struct gb_ncu_launch *l,
                                struct gb_camp_ncu_input *out)
{
    enum gb_status st;
    memset(out, 0, sizeof *out);
    out->threads = out->grid = -1;
    out->regs = out->smem = -1;
    if ((st = gb_camp_ncu_counts(l, out)) != GB_OK || (st = gb_camp_ncu_optional(l, out)) != GB_OK ||
        (st = gb_camp_ncu_launch_shape(l, out)) != GB_OK)
        return st;
    if ((st = gb_camp_split_requests(&m->eq[GB_CAMP_READ][GB_CAMP_SPREAD], out->ld_requests,
                                     out->ld_sectors, out->counts.ld)) != GB_OK ||
        (st = gb_camp_split_requests(&m->eq[GB_CAMP_WRITE][GB_CAMP_SPREAD], out->st_requests,
                                     out->st_sectors, out->counts.st)) != GB_OK)
        return gb_error_set(st, "launch %ld: %s", l->id, gb_error_message());
    return GB_OK;
}

