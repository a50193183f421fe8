/* campprof.c - the CampProf band model: the fit of the four equations, the
 * normalisation per memory instruction, the band and the application line,
 * the occupancy-allowed configurations, the validation, and the model file
 * (include/gpubound/campprof.h says what each computes). */
#include <errno.h>
#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "gpubound/campprof.h"
#include "gpubound/occupancy.h"
#include "gpubound/regress.h"
#include "results/json.h"

const char *gb_camp_op_name(enum gb_camp_op op)
{
    return op == GB_CAMP_READ ? "read" : "write";
}

const char *gb_camp_pattern_name(enum gb_camp_pattern pattern)
{
    return pattern == GB_CAMP_SPREAD ? "spread" : "camped";
}

int gb_camp_width_class(int width_bytes)
{
    for (int c = 0; c < GB_CAMP_N_WIDTHS; c++)
        if (width_bytes == 1 << c)
            return c;
    return -1;
}

int gb_camp_class_width(int c)
{
    return 1 << c;
}

/* ---- the fit ---- */

static void gb_copy_stats(const struct gb_regress_fit *f, struct gb_camp_fitstats *s)
{
    memset(s, 0, sizeof *s);
    for (size_t i = 0; i < f->n_coef && i < GB_CAMP_MAX_TERMS; i++) {
        struct gb_camp_term *t = &s->terms[s->n_terms++];
        snprintf(t->name, sizeof t->name, "%s", f->names[i]);
        t->estimate = f->coef[i];
        t->se = f->se[i];
        t->t = f->t[i];
        t->p = f->p[i];
    }
    s->r2 = f->r2;
    s->adj_r2 = f->adj_r2;
    s->rmse_ns = f->rmse;
    s->f = f->f;
    s->f_p = f->f_p;
    s->df_resid = f->df_resid;
}

static enum gb_status gb_fit_equation(const struct gb_run *run, enum gb_camp_op op,
                                      enum gb_camp_pattern pattern, double p_remove,
                                      int interactions, struct gb_camp_equation *eq)
{
    enum gb_status st = GB_OK;
    const char *bench = gb_camp_op_name(op), *pat = gb_camp_pattern_name(pattern);
    const char *req = op == GB_CAMP_READ ? "ld_req" : "st_req";
    size_t n = 0;
    double *y = NULL, *w = NULL, *count = NULL, *sectors = NULL;
    int *wclass = NULL;
    char (*labels)[8] = NULL;
    const char **lp = NULL;
    struct gb_regress_model *model = NULL;
    struct gb_regress_fit *full = NULL, *fin = NULL;

    memset(eq, 0, sizeof *eq);
    eq->op = op;
    eq->pattern = pattern;
    y = malloc((run->n_records + 1) * sizeof *y);
    w = malloc((run->n_records + 1) * sizeof *w);
    count = malloc((run->n_records + 1) * sizeof *count);
    sectors = malloc((run->n_records + 1) * sizeof *sectors);
    wclass = malloc((run->n_records + 1) * sizeof *wclass);
    labels = malloc((run->n_records + 1) * sizeof *labels);
    lp = malloc((run->n_records + 1) * sizeof *lp);
    if (!y || !w || !count || !sectors || !wclass || !labels || !lp) {
        st = gb_error_set(GB_ERR_NOMEM, "out of host memory fitting the CampProf model");
        goto out;
    }
    for (size_t i = 0; i < run->n_records; i++) {
        const struct gb_record *r = &run->records[i];
        if (strcmp(r->suite, GB_CAMP_SUITE) != 0 || strcmp(r->bench, bench) != 0 ||
            r->status != GB_REC_OK)
            continue;
        const char *p = gb_record_axis(r, "pattern");
        if (!p) {
            st = gb_error_set(GB_ERR_FORMAT, "%s: a %s/%s record has no pattern axis", run->dir,
                              GB_CAMP_SUITE, bench);
            goto out;
        }
        if (strcmp(p, pat) != 0)
            continue;
        double width = gb_record_axis_num(r, "width", NAN);
        int c = isfinite(width) && width == floor(width) ? gb_camp_width_class((int)width) : -1;
        if (c < 0) {
            st = gb_error_set(GB_ERR_FORMAT, "%s: a %s/%s record has width '%s', not 1, 2, 4, 8 "
                              "or 16 bytes per thread", run->dir, GB_CAMP_SUITE, bench,
                              gb_record_axis(r, "width") ? gb_record_axis(r, "width") : "(none)");
            goto out;
        }
        double warps = gb_record_metric(r, "active_warps", NAN);
        if (!(warps > 0))
            warps = gb_record_axis_num(r, "warps", NAN);
        if (!(warps > 0) || !isfinite(warps)) {
            st = gb_error_set(GB_ERR_FORMAT, "%s: a %s/%s record (width %d) has neither an "
                              "active_warps metric nor a warps axis", run->dir, GB_CAMP_SUITE,
                              bench, (int)width);
            goto out;
        }
        char mname[32];
        snprintf(mname, sizeof mname, "%s_%d", req, (int)width);
        double k = gb_record_metric(r, mname, NAN);
        if (!(k > 0) || !isfinite(k)) {
            st = gb_error_set(GB_ERR_FORMAT, "%s: the %s/%s record at width %d, %g warps lacks "
                              "the metric %s (warp-level instructions per launch) that the "
                              "normalisation needs", run->dir, GB_CAMP_SUITE, bench, (int)width,
                              warps, mname);
            goto out;
        }
        if (!(r->median_ns > 0) || !isfinite(r->median_ns)) {
            st = gb_error_set(GB_ERR_FORMAT, "%s: the %s/%s record at width %d, %g warps has no "
                              "median time", run->dir, GB_CAMP_SUITE, bench, (int)width, warps);
            goto out;
        }
        y[n] = r->median_ns;
        w[n] = warps;
        count[n] = k;
        sectors[n] = gb_record_metric(r, op == GB_CAMP_READ ? "ld_sectors" : "st_sectors", NAN);
        wclass[n] = c;
        snprintf(labels[n], sizeof labels[n], "%d", (int)width);
        lp[n] = labels[n];
        n++;
    }
    if (n == 0) {
        st = gb_error_set(GB_ERR_FORMAT, "%s has no measured %s/%s records with pattern=%s; "
                          "the model needs reads and writes, spread and camped", run->dir,
                          GB_CAMP_SUITE, bench, pat);
        goto out;
    }
    eq->n_obs = n;
    eq->warps_min = eq->warps_max = w[0];
    int seen[GB_CAMP_N_WIDTHS] = {0};
    for (size_t i = 0; i < n; i++) {
        seen[wclass[i]] = 1;
        eq->warps_min = fmin(eq->warps_min, w[i]);
        eq->warps_max = fmax(eq->warps_max, w[i]);
    }
    for (int c = 0; c < GB_CAMP_N_WIDTHS; c++)
        if (seen[c])
            eq->widths[eq->n_widths++] = gb_camp_class_width(c);
    eq->ref_width = eq->widths[eq->n_widths - 1];

    /* The normalisation: instructions per launch per active warp. */
    for (int c = 0; c < GB_CAMP_N_WIDTHS; c++) {
        double sum = 0, spr = 0;
        size_t m = 0, ms = 0;
        for (size_t i = 0; i < n; i++)
            if (wclass[i] == c) {
                sum += count[i] / w[i];
                m++;
                if (isfinite(sectors[i])) {
                    spr += sectors[i] / count[i];
                    ms++;
                }
            }
        eq->sectors_per_instr[c] = ms == m && m ? spr / (double)ms : NAN;
        if (!m)
            continue;
        double k = sum / (double)m, dev = 0;
        for (size_t i = 0; i < n; i++)
            if (wclass[i] == c)
                dev = fmax(dev, fabs(count[i] / w[i] - k) / k);
        eq->instr_per_warp[c] = k;
        eq->instr_dev[c] = dev;
    }

    char ref[8];
    snprintf(ref, sizeof ref, "%d", eq->ref_width);
    if ((st = gb_regress_model_new(n, y, &model)) != GB_OK ||
        (st = gb_regress_model_add(model, "w", w)) != GB_OK)
        goto out;
    if (eq->n_widths > 1 &&
        (st = gb_regress_model_add_categorical(model, "b", lp, ref)) != GB_OK)
        goto out;
    if (interactions && eq->n_widths > 1) {
        /* A slope per width: w times each dummy, named w:b<width>. */
        const size_t n_dummies = model->n_cols;
        double *x = malloc(n * sizeof *x);
        if (!x) {
            st = gb_error_set(GB_ERR_NOMEM, "out of host memory fitting the CampProf model");
            goto out;
        }
        for (size_t j = 0; j < n_dummies && st == GB_OK; j++) {
            if (model->names[j][0] != 'b')
                continue;
            char name[32];
            snprintf(name, sizeof name, "w:%s", model->names[j]);
            for (size_t i = 0; i < n; i++)
                x[i] = w[i] * model->cols[j][i];
            st = gb_regress_model_add(model, name, x);
        }
        free(x);
        if (st != GB_OK)
            goto out;
    }
    if ((st = gb_regress_fit(model, &full)) != GB_OK ||
        (st = gb_regress_backward(model, p_remove, &fin)) != GB_OK) {
        char msg[512];
        snprintf(msg, sizeof msg, "%s", gb_error_message());
        st = gb_error_set(st, "fitting %s/%s with pattern=%s (%zu records): %s", GB_CAMP_SUITE,
                          bench, pat, n, msg);
        goto out;
    }
    gb_copy_stats(full, &eq->full);
    gb_copy_stats(fin, &eq->fit);
    for (size_t i = 0; i < fin->n_dropped && i < GB_CAMP_MAX_TERMS; i++) {
        snprintf(eq->dropped[i], sizeof eq->dropped[i], "%s", fin->dropped[i]);
        eq->dropped_p[i] = fin->dropped_p[i];
        eq->n_dropped++;
    }
out:
    gb_regress_fit_free(full);
    gb_regress_fit_free(fin);
    gb_regress_model_free(model);
    free(y);
    free(w);
    free(count);
    free(sectors);
    free(wclass);
    free(labels);
    free(lp);
    return st;
}

enum gb_status gb_camp_fit(const struct gb_run *run, double p_remove, struct gb_camp_model *m)
{
    return gb_camp_fit_ext(run, p_remove, 0, m);
}

enum gb_status gb_camp_fit_ext(const struct gb_run *run, double p_remove, int interactions,
                               struct gb_camp_model *m)
{
    enum gb_status st;
    if (!(p_remove > 0 && p_remove < 1))
        return gb_error_set(GB_ERR_USAGE, "the p-value to remove a term must be in (0, 1), not %g",
                            p_remove);
    memset(m, 0, sizeof *m);
    m->p_remove = p_remove;
    m->interactions = interactions ? 1 : 0;
    for (int op = 0; op < 2; op++)
        for (int pat = 0; pat < 2; pat++)
            if ((st = gb_fit_equation(run, (enum gb_camp_op)op, (enum gb_camp_pattern)pat,
                                      p_remove, m->interactions, &m->eq[op][pat])) != GB_OK)
                return st;
    m->has_device = run->info.has_device;
    if (m->has_device)
        m->device = run->info.device;
    snprintf(m->run_started_utc, sizeof m->run_started_utc, "%s", run->info.started_utc);
    snprintf(m->run_host, sizeof m->run_host, "%s", run->info.host);
    snprintf(m->run_tool_version, sizeof m->run_tool_version, "%s", run->info.tool_version);
    snprintf(m->run_git_revision, sizeof m->run_git_revision, "%s", run->info.git_revision);
    snprintf(m->run_command_line, sizeof m->run_command_line, "%s", run->info.command_line);
    return GB_OK;
}

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

double gb_camp_eq_time_ns(const struct gb_camp_equation *eq, double warps, int wclass)
{
    if (wclass < 0 || wclass >= GB_CAMP_N_WIDTHS || !gb_eq_measured(eq, wclass))
        return NAN;
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
            worst += wv;
        }
    if (!any)
        return gb_error_set(GB_ERR_USAGE, "every load and store count is zero: the band of a "
                            "kernel without global memory instructions is empty");
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

enum gb_status gb_camp_predict(const struct gb_camp_model *m, const struct gb_camp_counts *c,
                               const int *warps, size_t n, double at_warps, double time_ns,
                               struct gb_camp_row *rows, double *degree)
{
    enum gb_status st;
    double d = NAN;
    if (isfinite(time_ns)) {
        double b0, w0;
        if (!(time_ns > 0))
            return gb_error_set(GB_ERR_USAGE, "the measured time must be > 0 ns, not %g", time_ns);
        if ((st = gb_camp_bounds(m, c, at_warps, &b0, &w0)) != GB_OK)
            return st;
        d = gb_camp_degree(b0, w0, time_ns);
        if (isnan(d))
            return gb_error_set(GB_ERR_NUMERIC, "the band has no width at %g warps per SM (best "
                                "and worst are both %.6g ns): the camping degree is undefined",
                                at_warps, b0);
    }
    for (size_t i = 0; i < n; i++) {
        rows[i].warps = warps[i];
        if ((st = gb_camp_bounds(m, c, warps[i], &rows[i].best_ns, &rows[i].worst_ns)) != GB_OK)
            return st;
        rows[i].app_ns = isnan(d) ? NAN : gb_camp_extrapolate(rows[i].best_ns, rows[i].worst_ns, d);
    }
    *degree = d;
    return GB_OK;
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

enum gb_status gb_camp_from_ncu(const struct gb_camp_model *m, const struct gb_ncu_launch *l,
                                struct gb_camp_ncu_input *out)
{
    enum gb_status st;
    char missing[512] = "";
    size_t len = 0;

    memset(out, 0, sizeof *out);
    out->threads = out->grid = -1;
    out->regs = out->smem = -1;
    out->time_ns = NAN;

    const char *ldr = GB_NCU_LD_REQUESTS, *str = GB_NCU_ST_REQUESTS;
    out->ld_requests = gb_ncu_value(l, ldr, NAN);
    if (isnan(out->ld_requests)) {
        ldr = GB_NCU_LD_INST;
        out->ld_requests = gb_ncu_value(l, ldr, NAN);
    }
    out->st_requests = gb_ncu_value(l, str, NAN);
    if (isnan(out->st_requests)) {
        str = GB_NCU_ST_INST;
        out->st_requests = gb_ncu_value(l, str, NAN);
    }
    out->ld_requests_metric = ldr;
    out->st_requests_metric = str;
    out->ld_sectors = gb_ncu_value(l, GB_NCU_LD_SECTORS, NAN);
    out->st_sectors = gb_ncu_value(l, GB_NCU_ST_SECTORS, NAN);
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
    if (len)
        return gb_error_set(GB_ERR_FORMAT, "launch %ld (%s) lacks %s", l->id, l->kernel, missing);
    if ((st = gb_camp_split_requests(&m->eq[GB_CAMP_READ][GB_CAMP_SPREAD], out->ld_requests,
                                     out->ld_sectors, out->counts.ld)) != GB_OK ||
        (st = gb_camp_split_requests(&m->eq[GB_CAMP_WRITE][GB_CAMP_SPREAD], out->st_requests,
                                     out->st_sectors, out->counts.st)) != GB_OK)
        return gb_error_set(st, "launch %ld: %s", l->id, gb_error_message());

    double v = gb_ncu_value(l, GB_NCU_BLOCK, NAN);
    out->threads = isfinite(v) ? (long)llround(v) : gb_ncu_dim_product(l->block);
    v = gb_ncu_value(l, GB_NCU_GRID, NAN);
    out->grid = isfinite(v) ? (long)llround(v) : gb_ncu_dim_product(l->grid);
    v = gb_ncu_value(l, GB_NCU_REGS, NAN);
    out->regs = isfinite(v) ? (int)llround(v) : -1;
    double s1 = gb_ncu_value(l, GB_NCU_SMEM_STATIC, NAN), s2 = gb_ncu_value(l, GB_NCU_SMEM_DYNAMIC, NAN);
    if (isfinite(s1) || isfinite(s2))
        out->smem = (int)llround((isfinite(s1) ? s1 : 0) + (isfinite(s2) ? s2 : 0));
    out->time_ns = gb_ncu_value(l, GB_NCU_TIME, NAN);
    return GB_OK;
}

/* ---- validation ---- */

static int gb_cmp_d(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
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

enum gb_status gb_camp_validate(const struct gb_camp_model *m, const struct gb_camp_obs *obs,
                                size_t n, struct gb_camp_validation *out)
{
    enum gb_status st = GB_OK;
    double *eb = NULL, *ew = NULL, *ea = NULL, *deg = NULL;
    size_t nb = 0, na = 0, nd = 0;

    memset(out, 0, sizeof *out);
    out->gm_best = out->gm_worst = out->gm_app = NAN;
    out->degree_median = out->degree_min = out->degree_max = NAN;
    if (n == 0)
        return gb_error_set(GB_ERR_USAGE, "no measured configuration to validate against");
    for (size_t i = 0; i < n; i++)
        if (!(obs[i].warps > 0) || !(obs[i].time_ns > 0) || !isfinite(obs[i].time_ns))
            return gb_error_set(GB_ERR_USAGE, "a measured configuration needs warps > 0 and a "
                                "time > 0 (got %g warps, %g ns)", obs[i].warps, obs[i].time_ns);
    eb = malloc(n * n * sizeof *eb);
    ew = malloc(n * n * sizeof *ew);
    ea = malloc(n * n * sizeof *ea);
    deg = malloc(n * sizeof *deg);
    if (!eb || !ew || !ea || !deg) {
        st = gb_error_set(GB_ERR_NOMEM, "out of host memory");
        goto out;
    }
    for (size_t s = 0; s < n; s++) {
        double b0, w0;
        if ((st = gb_camp_bounds(m, &obs[s].counts, obs[s].warps, &b0, &w0)) != GB_OK)
            goto out;
        double d = gb_camp_degree(b0, w0, obs[s].time_ns);
        for (size_t j = 0; j < n; j++) {
            double b, w;
            if ((st = gb_camp_bounds(m, &obs[j].counts, obs[j].warps, &b, &w)) != GB_OK)
                goto out;
            const double t = obs[j].time_ns;
            eb[nb] = fabs(b - t) / t;
            ew[nb++] = fabs(w - t) / t;
            if (j != s && !isnan(d))
                ea[na++] = fabs(gb_camp_extrapolate(b, w, d) - t) / t;
        }
    }
    for (size_t j = 0; j < n; j++) {
        double b, w;
        if ((st = gb_camp_bounds(m, &obs[j].counts, obs[j].warps, &b, &w)) != GB_OK)
            goto out;
        double d = gb_camp_degree(b, w, obs[j].time_ns);
        if (!isnan(d))
            deg[nd++] = d;
    }
    out->n_points = n;
    out->n_pairs_bounds = nb;
    out->n_pairs_app = na;
    out->gm_best = gb_camp_geomean(eb, nb);
    out->gm_worst = gb_camp_geomean(ew, nb);
    out->gm_app = gb_camp_geomean(ea, na);
    if (nd) {
        qsort(deg, nd, sizeof *deg, gb_cmp_d);
        out->degree_min = deg[0];
        out->degree_max = deg[nd - 1];
        out->degree_median = nd % 2 ? deg[nd / 2] : 0.5 * (deg[nd / 2 - 1] + deg[nd / 2]);
    }
out:
    free(eb);
    free(ew);
    free(ea);
    free(deg);
    return st;
}

/* ---- the model file ---- */

static json_t *gb_terms_json(const struct gb_camp_fitstats *s)
{
    json_t *a = json_array();
    for (size_t i = 0; i < s->n_terms; i++) {
        const struct gb_camp_term *t = &s->terms[i];
        json_t *o = json_object();
        json_object_set_new(o, "term", json_string(t->name));
        json_object_set_new(o, "estimate", gb_json_real(t->estimate));
        json_object_set_new(o, "std_error", gb_json_real(t->se));
        json_object_set_new(o, "t", gb_json_real(t->t));
        json_object_set_new(o, "p", gb_json_real(t->p));
        json_array_append_new(a, o);
    }
    return a;
}

static void gb_stats_json(json_t *o, const struct gb_camp_fitstats *s)
{
    json_object_set_new(o, "terms", gb_terms_json(s));
    json_object_set_new(o, "r2", gb_json_real(s->r2));
    json_object_set_new(o, "adj_r2", gb_json_real(s->adj_r2));
    json_object_set_new(o, "rmse_ns", gb_json_real(s->rmse_ns));
    json_object_set_new(o, "f", gb_json_real(s->f));
    json_object_set_new(o, "f_p", gb_json_real(s->f_p));
    json_object_set_new(o, "df_resid", gb_json_real(s->df_resid));
}

static json_t *gb_model_json(const struct gb_camp_model *m)
{
    json_t *root = json_object(), *eqs = json_array();
    json_object_set_new(root, "format", json_string(GB_CAMP_MODEL_FORMAT));
    json_object_set_new(root, "model",
                        json_string(m->interactions
                                        ? "CampProf (Aji, Daga and Feng, CF'11) with a slope per "
                                          "width: t = a1*w + a2*b2 + ... + c2*w*b2 + ... + b per "
                                          "operation and access pattern"
                                        : "CampProf (Aji, Daga and Feng, CF'11): t = a1*w + "
                                          "a2*b2 + a3*b4 + ... + b per operation and access "
                                          "pattern"));
    json_object_set_new(root, "fitted_by", json_pack("{s:s, s:s}", "name", "gpubound", "version",
                                                     GB_VERSION));
    json_object_set_new(root, "run",
                        json_pack("{s:s, s:s, s:s, s:s, s:s}", "started_utc", m->run_started_utc,
                                  "host", m->run_host, "tool_version", m->run_tool_version,
                                  "git_revision", m->run_git_revision, "command_line",
                                  m->run_command_line));
    if (m->has_device)
        json_object_set_new(root, "device", gb_device_to_json(&m->device));
    json_object_set_new(root, "response",
                        json_string("median time per launch of a camping micro-benchmark, ns"));
    json_object_set_new(
        root, "normalisation",
        json_pack("{s:s, s:s}", "unit", "warp-level global memory instruction", "rule",
                  "tau(w, width) = t(w, width) / (instructions_per_warp[width] * w): the time of "
                  "one instruction at w active warps per SM; a kernel's best (worst) time is the "
                  "sum over its loads and stores by width of count * tau of the spread (camped) "
                  "read and write equations"));
    json_object_set_new(root, "p_remove", json_real(m->p_remove));
    json_object_set_new(root, "interactions", json_boolean(m->interactions));
    for (int op = 0; op < 2; op++)
        for (int pat = 0; pat < 2; pat++) {
            const struct gb_camp_equation *eq = &m->eq[op][pat];
            json_t *o = json_object(), *widths = json_array(), *elim = json_array(),
                   *full = json_object(), *k = json_object(), *dev = json_object();
            json_object_set_new(o, "op", json_string(gb_camp_op_name(eq->op)));
            json_object_set_new(o, "pattern", json_string(gb_camp_pattern_name(eq->pattern)));
            json_object_set_new(o, "n_obs", json_integer((json_int_t)eq->n_obs));
            for (int i = 0; i < eq->n_widths; i++)
                json_array_append_new(widths, json_integer(eq->widths[i]));
            json_object_set_new(o, "widths", widths);
            json_object_set_new(o, "reference_width", json_integer(eq->ref_width));
            json_object_set_new(o, "warps_range", json_pack("[o, o]", gb_json_real(eq->warps_min),
                                                            gb_json_real(eq->warps_max)));
            gb_stats_json(o, &eq->fit);
            for (size_t i = 0; i < eq->n_dropped; i++)
                json_array_append_new(elim, json_pack("{s:s, s:o}", "term", eq->dropped[i], "p",
                                                      gb_json_real(eq->dropped_p[i])));
            json_object_set_new(o, "eliminated", elim);
            gb_stats_json(full, &eq->full);
            json_object_set_new(o, "full_fit", full);
            for (int c = 0; c < GB_CAMP_N_WIDTHS; c++)
                if (eq->instr_per_warp[c] > 0) {
                    char key[8];
                    snprintf(key, sizeof key, "%d", gb_camp_class_width(c));
                    json_object_set_new(k, key, json_real(eq->instr_per_warp[c]));
                    json_object_set_new(dev, key, json_real(eq->instr_dev[c]));
                }
            json_object_set_new(o, "instructions_per_warp", k);
            json_object_set_new(o, "instructions_per_warp_max_deviation", dev);
            json_t *spi = json_object();
            for (int c = 0; c < GB_CAMP_N_WIDTHS; c++)
                if (eq->instr_per_warp[c] > 0) {
                    char key[8];
                    snprintf(key, sizeof key, "%d", gb_camp_class_width(c));
                    json_object_set_new(spi, key, gb_json_real(eq->sectors_per_instr[c]));
                }
            json_object_set_new(o, "sectors_per_instruction", spi);
            json_array_append_new(eqs, o);
        }
    json_object_set_new(root, "equations", eqs);
    return root;
}

enum gb_status gb_camp_model_write(const struct gb_camp_model *m, const char *path)
{
    enum gb_status st = GB_OK;
    char tmp[4200];
    json_t *root = gb_model_json(m);
    FILE *f = NULL;

    if (!root)
        return gb_error_set(GB_ERR_NOMEM, "out of host memory writing the model");
    snprintf(tmp, sizeof tmp, "%s.tmp", path);
    if (!(f = fopen(tmp, "w"))) {
        st = gb_error_set(GB_ERR_IO, "cannot write %s: %s", tmp, strerror(errno));
        goto out;
    }
    int bad = json_dumpf(root, f, JSON_INDENT(2) | JSON_REAL_PRECISION(17)) != 0;
    bad |= fputc('\n', f) == EOF;
    bad |= ferror(f);
    if (fclose(f) != 0 || bad) {
        f = NULL;
        st = gb_error_set(GB_ERR_IO, "cannot write %s: %s", tmp, strerror(errno ? errno : EIO));
        unlink(tmp);
        goto out;
    }
    f = NULL;
    if (rename(tmp, path) != 0) {
        st = gb_error_set(GB_ERR_IO, "cannot write %s: %s", path, strerror(errno));
        unlink(tmp);
    }
out:
    json_decref(root);
    return st;
}

/* Readers: each returns 0 or -1 with `why` filled. */
static int gb_jget_num(json_t *o, const char *key, double *v, int required, char *why, size_t n,
                       const char *where)
{
    json_t *x = json_object_get(o, key);
    if (!x || json_is_null(x)) {
        *v = NAN;
        if (required) {
            snprintf(why, n, "%s lacks the number '%s'", where, key);
            return -1;
        }
        return 0;
    }
    if (!json_is_number(x)) {
        snprintf(why, n, "%s: '%s' is not a number", where, key);
        return -1;
    }
    *v = json_number_value(x);
    return 0;
}

static int gb_terms_from_json(json_t *o, struct gb_camp_fitstats *s, int need_estimates,
                              char *why, size_t n, const char *where)
{
    json_t *terms = json_object_get(o, "terms"), *t;
    size_t i;
    memset(s, 0, sizeof *s);
    if (!json_is_array(terms) || json_array_size(terms) == 0 ||
        json_array_size(terms) > GB_CAMP_MAX_TERMS) {
        snprintf(why, n, "%s: 'terms' is not an array of 1 to %d coefficients", where,
                 GB_CAMP_MAX_TERMS);
        return -1;
    }
    json_array_foreach(terms, i, t) {
        struct gb_camp_term *term = &s->terms[s->n_terms++];
        json_t *name = json_object_get(t, "term");
        if (!json_is_object(t) || !json_is_string(name) ||
            strlen(json_string_value(name)) >= sizeof term->name) {
            snprintf(why, n, "%s: coefficient %zu has no term name", where, i);
            return -1;
        }
        snprintf(term->name, sizeof term->name, "%s", json_string_value(name));
        const char *nm = term->name;
        const char *dm = strncmp(nm, "w:", 2) == 0 ? nm + 2 : nm;
        char rest[16] = "";
        int wd = -1;
        if (dm[0] == 'b')
            sscanf(dm + 1, "%d%15s", &wd, rest);
        int known = strcmp(nm, GB_REGRESS_INTERCEPT) == 0 || strcmp(nm, "w") == 0 ||
                    (dm[0] == 'b' && gb_camp_width_class(wd) >= 0 && !rest[0]);
        if (!known) {
            snprintf(why, n, "%s: unknown term '%s' (expected (intercept), w, b<width> or "
                     "w:b<width>)", where, nm);
            return -1;
        }
        char w2[160];
        snprintf(w2, sizeof w2, "%s term %s", where, nm);
        if (gb_jget_num(t, "estimate", &term->estimate, need_estimates, why, n, w2) ||
            gb_jget_num(t, "std_error", &term->se, 0, why, n, w2) ||
            gb_jget_num(t, "t", &term->t, 0, why, n, w2) ||
            gb_jget_num(t, "p", &term->p, 0, why, n, w2))
            return -1;
    }
    if (gb_jget_num(o, "r2", &s->r2, 0, why, n, where) ||
        gb_jget_num(o, "adj_r2", &s->adj_r2, 0, why, n, where) ||
        gb_jget_num(o, "rmse_ns", &s->rmse_ns, 0, why, n, where) ||
        gb_jget_num(o, "f", &s->f, 0, why, n, where) ||
        gb_jget_num(o, "f_p", &s->f_p, 0, why, n, where) ||
        gb_jget_num(o, "df_resid", &s->df_resid, 0, why, n, where))
        return -1;
    return 0;
}

static int gb_eq_from_json(json_t *o, struct gb_camp_equation *eq, char *why, size_t n)
{
    char where[96];
    json_t *op = json_object_get(o, "op"), *pat = json_object_get(o, "pattern");
    if (!json_is_object(o) || !json_is_string(op) || !json_is_string(pat)) {
        snprintf(why, n, "an equation lacks its op or pattern");
        return -1;
    }
    memset(eq, 0, sizeof *eq);
    if (strcmp(json_string_value(op), "read") == 0)
        eq->op = GB_CAMP_READ;
    else if (strcmp(json_string_value(op), "write") == 0)
        eq->op = GB_CAMP_WRITE;
    else {
        snprintf(why, n, "an equation's op is '%s', not read or write", json_string_value(op));
        return -1;
    }
    if (strcmp(json_string_value(pat), "spread") == 0)
        eq->pattern = GB_CAMP_SPREAD;
    else if (strcmp(json_string_value(pat), "camped") == 0)
        eq->pattern = GB_CAMP_CAMPED;
    else {
        snprintf(why, n, "an equation's pattern is '%s', not spread or camped",
                 json_string_value(pat));
        return -1;
    }
    snprintf(where, sizeof where, "equation %s/%s", json_string_value(op), json_string_value(pat));
    json_t *widths = json_object_get(o, "widths"), *v;
    size_t i;
    if (!json_is_array(widths) || json_array_size(widths) == 0 ||
        json_array_size(widths) > GB_CAMP_N_WIDTHS) {
        snprintf(why, n, "%s: 'widths' is not an array of 1 to %d widths", where, GB_CAMP_N_WIDTHS);
        return -1;
    }
    json_array_foreach(widths, i, v) {
        int w = json_is_integer(v) ? (int)json_integer_value(v) : -1;
        if (gb_camp_width_class(w) < 0 || (i > 0 && w <= eq->widths[i - 1])) {
            snprintf(why, n, "%s: 'widths' must be ascending widths of 1, 2, 4, 8 or 16 bytes",
                     where);
            return -1;
        }
        eq->widths[eq->n_widths++] = w;
    }
    json_t *ref = json_object_get(o, "reference_width");
    eq->ref_width = json_is_integer(ref) ? (int)json_integer_value(ref) : eq->widths[eq->n_widths - 1];
    json_t *nobs = json_object_get(o, "n_obs");
    eq->n_obs = json_is_integer(nobs) && json_integer_value(nobs) > 0 ? (size_t)json_integer_value(nobs) : 0;
    json_t *range = json_object_get(o, "warps_range");
    eq->warps_min = eq->warps_max = NAN;
    if (json_is_array(range) && json_array_size(range) == 2) {
        if (json_is_number(json_array_get(range, 0)))
            eq->warps_min = json_number_value(json_array_get(range, 0));
        if (json_is_number(json_array_get(range, 1)))
            eq->warps_max = json_number_value(json_array_get(range, 1));
    }
    if (gb_terms_from_json(o, &eq->fit, 1, why, n, where))
        return -1;
    json_t *full = json_object_get(o, "full_fit");
    if (json_is_object(full)) {
        char w2[128];
        snprintf(w2, sizeof w2, "%s full_fit", where);
        if (gb_terms_from_json(full, &eq->full, 0, why, n, w2))
            return -1;
    } else {
        eq->full = eq->fit;
    }
    json_t *elim = json_object_get(o, "eliminated");
    if (json_is_array(elim))
        json_array_foreach(elim, i, v) {
            json_t *t = json_object_get(v, "term"), *p = json_object_get(v, "p");
            if (!json_is_string(t) || eq->n_dropped >= GB_CAMP_MAX_TERMS)
                continue;
            snprintf(eq->dropped[eq->n_dropped], sizeof eq->dropped[0], "%s", json_string_value(t));
            eq->dropped_p[eq->n_dropped++] = json_is_number(p) ? json_number_value(p) : NAN;
        }
    json_t *k = json_object_get(o, "instructions_per_warp");
    json_t *kd = json_object_get(o, "instructions_per_warp_max_deviation");
    json_t *spi = json_object_get(o, "sectors_per_instruction");
    for (int c = 0; c < GB_CAMP_N_WIDTHS; c++)
        eq->sectors_per_instr[c] = NAN;
    for (int w = 0; w < eq->n_widths; w++) {
        char key[8];
        snprintf(key, sizeof key, "%d", eq->widths[w]);
        json_t *x = json_is_object(k) ? json_object_get(k, key) : NULL;
        int c = gb_camp_width_class(eq->widths[w]);
        if (!json_is_number(x) || !(json_number_value(x) > 0)) {
            snprintf(why, n, "%s: instructions_per_warp lacks a positive count for width %s",
                     where, key);
            return -1;
        }
        eq->instr_per_warp[c] = json_number_value(x);
        x = json_is_object(kd) ? json_object_get(kd, key) : NULL;
        eq->instr_dev[c] = json_is_number(x) ? json_number_value(x) : NAN;
        x = json_is_object(spi) ? json_object_get(spi, key) : NULL;
        eq->sectors_per_instr[c] = json_is_number(x) ? json_number_value(x) : NAN;
    }
    return 0;
}

enum gb_status gb_camp_model_load(const char *path, struct gb_camp_model *m)
{
    enum gb_status st = GB_OK;
    json_error_t err;
    json_t *root;
    char why[256];
    int have[2][2] = {{0, 0}, {0, 0}};

    memset(m, 0, sizeof *m);
    root = json_load_file(path, 0, &err);
    if (!root) {
        FILE *f = fopen(path, "r");
        if (!f)
            return gb_error_set(GB_ERR_IO, "cannot read the model %s: %s", path, strerror(errno));
        fclose(f);
        return gb_error_set(GB_ERR_FORMAT, "%s:%d:%d: %s", path, err.line, err.column, err.text);
    }
    json_t *fmt = json_object_get(root, "format");
    if (!json_is_object(root) || !json_is_string(fmt) ||
        strcmp(json_string_value(fmt), GB_CAMP_MODEL_FORMAT) != 0) {
        st = gb_error_set(GB_ERR_FORMAT, "%s is not a CampProf model (its \"format\" is not \"%s\")",
                          path, GB_CAMP_MODEL_FORMAT);
        goto out;
    }
    json_t *p = json_object_get(root, "p_remove");
    m->p_remove = json_is_number(p) ? json_number_value(p) : NAN;
    m->interactions = json_is_true(json_object_get(root, "interactions"));
    json_t *run = json_object_get(root, "run");
    if (json_is_object(run)) {
        const struct {
            const char *key;
            char *buf;
            size_t n;
        } fields[] = {
            {"started_utc", m->run_started_utc, sizeof m->run_started_utc},
            {"host", m->run_host, sizeof m->run_host},
            {"tool_version", m->run_tool_version, sizeof m->run_tool_version},
            {"git_revision", m->run_git_revision, sizeof m->run_git_revision},
            {"command_line", m->run_command_line, sizeof m->run_command_line},
        };
        for (size_t i = 0; i < sizeof fields / sizeof fields[0]; i++) {
            json_t *s = json_object_get(run, fields[i].key);
            if (json_is_string(s))
                snprintf(fields[i].buf, fields[i].n, "%s", json_string_value(s));
        }
    }
    json_t *dev = json_object_get(root, "device");
    if (dev) {
        if (gb_device_from_json(dev, &m->device) != 0) {
            st = gb_error_set(GB_ERR_FORMAT, "%s: the device section is malformed", path);
            goto out;
        }
        m->has_device = 1;
    }
    json_t *eqs = json_object_get(root, "equations"), *v;
    size_t i;
    if (!json_is_array(eqs)) {
        st = gb_error_set(GB_ERR_FORMAT, "%s: no \"equations\" array", path);
        goto out;
    }
    json_array_foreach(eqs, i, v) {
        struct gb_camp_equation eq;
        if (gb_eq_from_json(v, &eq, why, sizeof why)) {
            st = gb_error_set(GB_ERR_FORMAT, "%s: %s", path, why);
            goto out;
        }
        m->eq[eq.op][eq.pattern] = eq;
        have[eq.op][eq.pattern] = 1;
    }
    for (int op = 0; op < 2; op++)
        for (int pat = 0; pat < 2; pat++)
            if (!have[op][pat]) {
                st = gb_error_set(GB_ERR_FORMAT, "%s: the %s/%s equation is missing", path,
                                  gb_camp_op_name((enum gb_camp_op)op),
                                  gb_camp_pattern_name((enum gb_camp_pattern)pat));
                goto out;
            }
out:
    json_decref(root);
    return st;
}
