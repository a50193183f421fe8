/* campprof.c - the CampProf band model: the fit of the four equations and
 * the normalisation per memory instruction (include/gpubound/campprof.h says
 * what each computes). The records come through campprof_records.c; the
 * predictions are in campprof_predict.c, the validation in
 * campprof_validate.c, the model file in campprof_file.c. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gpubound/campprof.h"
#include "gpubound/regress.h"
#include "campprof_int.h"

const char *gb_camp_op_name(enum gb_camp_op op)
{
    return op == GB_CAMP_READ ? "read" : "write";
}

const char *gb_camp_pattern_name(enum gb_camp_pattern pattern)
{
    return pattern == GB_CAMP_SPREAD ? "spread" : "camped";
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

/* What the samples span: how many, the warps range and the widths, the
 * widest being the reference level of the width dummies. */
static void gb_eq_describe(struct gb_camp_equation *eq, const struct gb_camp_sample *s, size_t n)
{
    int seen[GB_CAMP_N_WIDTHS] = {0};
    eq->n_obs = n;
    eq->warps_min = eq->warps_max = s[0].warps;
    for (size_t i = 0; i < n; i++) {
        seen[s[i].wclass] = 1;
        eq->warps_min = fmin(eq->warps_min, s[i].warps);
        eq->warps_max = fmax(eq->warps_max, s[i].warps);
    }
    for (int c = 0; c < GB_CAMP_N_WIDTHS; c++)
        if (seen[c])
            eq->widths[eq->n_widths++] = gb_camp_class_width(c);
    eq->ref_width = eq->widths[eq->n_widths - 1];
}

/* The normalisation: instructions per launch per active warp by width
 * class, their largest deviation, and sectors per instruction. */
static void gb_eq_normalise(struct gb_camp_equation *eq, const struct gb_camp_sample *s, size_t n)
{
    for (int c = 0; c < GB_CAMP_N_WIDTHS; c++) {
        double sum = 0, spr = 0;
        size_t m = 0, ms = 0;
        for (size_t i = 0; i < n; i++)
            if (s[i].wclass == c) {
                sum += s[i].instr / s[i].warps;
                m++;
                if (isfinite(s[i].sectors)) {
                    spr += s[i].sectors / s[i].instr;
                    ms++;
                }
            }
        eq->sectors_per_instr[c] = ms == m && m ? spr / (double)ms : NAN;
        if (!m)
            continue;
        double k = sum / (double)m, dev = 0;
        for (size_t i = 0; i < n; i++)
            if (s[i].wclass == c)
                dev = fmax(dev, fabs(s[i].instr / s[i].warps - k) / k);
        eq->instr_per_warp[c] = k;
        eq->instr_dev[c] = dev;
    }
}

/* A slope per width: w times each dummy, named w:b<width>. */
static enum gb_status gb_add_interactions(struct gb_regress_model *model, const double *w, size_t n)
{
    enum gb_status st = GB_OK;
    const size_t n_dummies = model->n_cols;
    double *x = malloc(n * sizeof *x);
    if (!x)
        return gb_error_set(GB_ERR_NOMEM, "out of host memory fitting the CampProf model");
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
    return st;
}

/* The regression model of an equation: y = time, columns w, the width
 * dummies b<width> (reference: the widest) and, with interactions, the
 * slopes w:b<width>. */
static enum gb_status gb_eq_model(const struct gb_camp_equation *eq, const struct gb_camp_sample *s,
                                  size_t n, int interactions, struct gb_regress_model **out)
{
    enum gb_status st = GB_OK;
    double *y = malloc((n + 1) * sizeof *y), *w = malloc((n + 1) * sizeof *w);
    char (*labels)[8] = malloc((n + 1) * sizeof *labels);
    const char **lp = malloc((n + 1) * sizeof *lp);
    char ref[8];
    *out = NULL;
    if (!y || !w || !labels || !lp) {
        st = gb_error_set(GB_ERR_NOMEM, "out of host memory fitting the CampProf model");
        goto out;
    }
    for (size_t i = 0; i < n; i++) {
        y[i] = s[i].time_ns;
        w[i] = s[i].warps;
        snprintf(labels[i], sizeof labels[i], "%d", gb_camp_class_width(s[i].wclass));
        lp[i] = labels[i];
    }
    snprintf(ref, sizeof ref, "%d", eq->ref_width);
    if ((st = gb_regress_model_new(n, y, out)) != GB_OK ||
        (st = gb_regress_model_add(*out, "w", w)) != GB_OK)
        goto out;
    if (eq->n_widths > 1 && (st = gb_regress_model_add_categorical(*out, "b", lp, ref)) != GB_OK)
        goto out;
    if (interactions && eq->n_widths > 1)
        st = gb_add_interactions(*out, w, n);
out:
    if (st != GB_OK) {
        gb_regress_model_free(*out);
        *out = NULL;
    }
    free(y);
    free(w);
    free(labels);
    free(lp);
    return st;
}

/* The full fit and backward elimination of an equation, into eq. */
static enum gb_status gb_eq_regress(struct gb_camp_equation *eq, const struct gb_camp_sample *s,
                                    size_t n, double p_remove, int interactions)
{
    struct gb_regress_model *model = NULL;
    struct gb_regress_fit *full = NULL, *fin = NULL;
    enum gb_status st = gb_eq_model(eq, s, n, interactions, &model);
    if (st != GB_OK)
        return st;
    eq->n_dropped = 0;
    if ((st = gb_regress_fit(model, &full)) != GB_OK ||
        (st = gb_regress_backward(model, p_remove, &fin)) != GB_OK) {
        char msg[512];
        snprintf(msg, sizeof msg, "%s", gb_error_message());
        st = gb_error_set(st, "fitting %s/%s with pattern=%s (%zu records): %s", GB_CAMP_SUITE,
                          gb_camp_op_name(eq->op), gb_camp_pattern_name(eq->pattern), n, msg);
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
    return st;
}

enum gb_status gb_camp_eq_refit(struct gb_camp_equation *eq, const struct gb_camp_sample *s,
                                size_t n, double p_remove)
{
    if (gb_camp_form_lt(eq->form))
        return gb_camp_lt_fit(eq, s, n);
    return gb_eq_regress(eq, s, n, p_remove, eq->form == GB_CAMP_FORM_INTERACTIONS);
}

static enum gb_status gb_fit_equation(const struct gb_run *run, enum gb_camp_op op,
                                      enum gb_camp_pattern pattern, double p_remove,
                                      const struct gb_camp_model *m, struct gb_camp_equation *eq)
{
    struct gb_camp_sample *s = NULL;
    size_t n = 0;
    memset(eq, 0, sizeof *eq);
    eq->op = op;
    eq->pattern = pattern;
    eq->form = m->form;
    enum gb_status st = gb_camp_records_samples(run, op, pattern, m->level, &s, &n);
    if (st != GB_OK)
        return st;
    gb_eq_describe(eq, s, n);
    gb_eq_normalise(eq, s, n);
    if ((st = gb_camp_eq_refit(eq, s, n, p_remove)) == GB_OK)
        st = gb_camp_heldout(eq, s, n, p_remove);
    free(s);
    return st;
}

enum gb_status gb_camp_fit(const struct gb_run *run, double p_remove, struct gb_camp_model *m)
{
    return gb_camp_fit_form(run, p_remove, GB_CAMP_FORM_PAPER, GB_CAMP_LEVEL_UNKNOWN, m);
}

enum gb_status gb_camp_fit_ext(const struct gb_run *run, double p_remove, int interactions,
                               struct gb_camp_model *m)
{
    return gb_camp_fit_form(run, p_remove,
                            interactions ? GB_CAMP_FORM_INTERACTIONS : GB_CAMP_FORM_PAPER,
                            GB_CAMP_LEVEL_UNKNOWN, m);
}

enum gb_status gb_camp_fit_form(const struct gb_run *run, double p_remove, enum gb_camp_form form,
                                enum gb_camp_level level, struct gb_camp_model *m)
{
    enum gb_status st;
    if (!(p_remove > 0 && p_remove < 1))
        return gb_error_set(GB_ERR_USAGE, "the p-value to remove a term must be in (0, 1), not %g",
                            p_remove);
    if (form < 0 || form >= GB_CAMP_N_FORMS)
        return gb_error_set(GB_ERR_USAGE, "no CampProf model form %d", (int)form);
    memset(m, 0, sizeof *m);
    m->p_remove = p_remove;
    m->form = form;
    m->interactions = form == GB_CAMP_FORM_INTERACTIONS;
    m->level = level == GB_CAMP_LEVEL_UNKNOWN ? gb_camp_records_level(run) : level;
    for (int op = 0; op < 2; op++)
        for (int pat = 0; pat < 2; pat++)
            if ((st = gb_fit_equation(run, (enum gb_camp_op)op, (enum gb_camp_pattern)pat,
                                      p_remove, m, &m->eq[op][pat])) != GB_OK)
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
