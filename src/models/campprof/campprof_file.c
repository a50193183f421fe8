/* campprof_file.c - the CampProf model file: JSON of format
 * GB_CAMP_MODEL_FORMAT, written atomically and read back with every field
 * checked (include/gpubound/campprof.h). */
#include <errno.h>
#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "gpubound/campprof.h"
#include "gpubound/regress.h"
#include "results/json.h"
#include "results/validate.h"
#include "util/fs.h"
#include "util/replace.h"
#include "util/open_regular.h"

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
        if (t->at_edge)   /* only where it holds: the knee the data cannot place */
            json_object_set_new(o, "knee_at_edge", json_true());
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

/* The model file's one-line description of form `f`. */
static const char *gb_form_text(enum gb_camp_form f)
{
    switch (f) {
    case GB_CAMP_FORM_PAPER:
        return "CampProf (Aji, Daga and Feng, CF'11): t = a1*w + a2*b2 + a3*b4 + ... + b per "
               "operation and access pattern";
    case GB_CAMP_FORM_INTERACTIONS:
        return "CampProf (Aji, Daga and Feng, CF'11) with a slope per width: t = a1*w + a2*b2 + "
               "... + c2*w*b2 + ... + b per operation and access pattern";
    case GB_CAMP_FORM_SUM:
        return "CampProf, latency plus throughput per width W: t = L_W * (1 + w / knee_W)";
    case GB_CAMP_FORM_SMAX2:
        return "CampProf, smooth maximum of latency and throughput per width W: t = L_W * "
               "(1 + (w / knee_W)^2)^(1/2)";
    case GB_CAMP_FORM_SMAX4:
        return "CampProf, smooth maximum of latency and throughput per width W: t = L_W * "
               "(1 + (w / knee_W)^4)^(1/4)";
    default:
        return "CampProf, maximum of latency and throughput per width W: t = L_W * max(1, w / "
               "knee_W)";
    }
}

static json_t *gb_model_json(const struct gb_camp_model *m)
{
    json_t *root = json_object(), *eqs = json_array();
    json_object_set_new(root, "format", json_string(GB_CAMP_MODEL_FORMAT));
    json_object_set_new(root, "model", json_string(gb_form_text(m->form)));
    json_object_set_new(root, "form", json_string(gb_camp_form_name(m->form)));
    json_object_set_new(root, "camped_level", json_string(gb_camp_level_name(m->level)));
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
            if (eq->cv_folds)
                json_object_set_new(
                    o, "heldout",
                    json_pack("{s:s, s:I, s:o, s:o}", "scheme",
                              "leave one warps value out: refit on the others, predict it",
                              "folds", (json_int_t)eq->cv_folds, "gm_rel_error",
                              gb_json_real(eq->cv_gm), "rms_rel_error", gb_json_real(eq->cv_rms)));
            json_array_append_new(eqs, o);
        }
    json_object_set_new(root, "equations", eqs);
    return root;
}

enum gb_status gb_camp_model_write(const struct gb_camp_model *m, const char *path)
{
    json_t *root = gb_model_json(m);
    if (!root)
        return gb_error_set(GB_ERR_NOMEM, "out of host memory writing the model");
    enum gb_status st = gb_json_write_file(root, path, JSON_INDENT(2) | JSON_REAL_PRECISION(17));
    json_decref(root);
    return st;
}

/* Readers: each returns 0 or -1 with the one-line violation in `why`
 * (file, JSON path, value, allowed range: src/results/validate.h). The
 * file being read, for those lines. */
struct gb_mr {
    const char *file;
    char *why;
    size_t n;
};

static int gb_jget_num(const struct gb_mr *R, json_t *o, const char *key, double *v, int required,
                       enum gb_range_id id, const char *where)
{
    json_t *x = json_object_get(o, key);
    if ((!x || json_is_null(x)) && required) {
        snprintf(R->why, R->n, "%s: %s.%s is missing (a number is required)", R->file, where, key);
        return -1;
    }
    return gb_json_range_real(o, key, id, v, R->file, where, R->why, R->n);
}

static int gb_terms_from_json(const struct gb_mr *R, json_t *o, struct gb_camp_fitstats *s,
                              int need_estimates, const char *where)
{
    char *why = R->why;
    size_t n = R->n;
    json_t *terms = json_object_get(o, "terms"), *t;
    size_t i;
    memset(s, 0, sizeof *s);
    if (!json_is_array(terms) || json_array_size(terms) == 0 ||
        json_array_size(terms) > GB_CAMP_MAX_TERMS) {
        snprintf(why, n, "%s: %s.terms is not an array of 1 to %d coefficients", R->file, where,
                 GB_CAMP_MAX_TERMS);
        return -1;
    }
    json_array_foreach(terms, i, t) {
        struct gb_camp_term *term = &s->terms[s->n_terms++];
        json_t *name = json_object_get(t, "term");
        if (!json_is_object(t) || !json_is_string(name) ||
            strlen(json_string_value(name)) >= sizeof term->name) {
            snprintf(why, n, "%s: %s.terms[%zu].term is missing or too long", R->file, where, i);
            return -1;
        }
        snprintf(term->name, sizeof term->name, "%s", json_string_value(name));
        const char *nm = term->name;
        const char *dm = strncmp(nm, "w:", 2) == 0   ? nm + 2
                         : strncmp(nm, "L:", 2) == 0 ? nm + 2
                         : strncmp(nm, "knee:", 5) == 0 ? nm + 5 : nm;
        char rest[16] = "";
        int wd = -1;
        if (dm[0] == 'b')
            sscanf(dm + 1, "%d%15s", &wd, rest);
        int known = strcmp(nm, GB_REGRESS_INTERCEPT) == 0 || strcmp(nm, "w") == 0 ||
                    (dm[0] == 'b' && gb_camp_width_class(wd) >= 0 && !rest[0]);
        if (!known) {
            snprintf(why, n, "%s: %s.terms[%zu].term = \"%s\": allowed (intercept), w, b<width>, "
                     "w:b<width>, L:b<width> or knee:b<width>", R->file, where, i, nm);
            return -1;
        }
        char w2[160];
        snprintf(w2, sizeof w2, "%s.terms[%zu]", where, i);
        if (gb_jget_num(R, t, "estimate", &term->estimate, need_estimates, GB_RANGE_COEF_NS, w2) ||
            gb_jget_num(R, t, "std_error", &term->se, 0, GB_RANGE_STAT, w2) ||
            gb_jget_num(R, t, "t", &term->t, 0, GB_RANGE_STAT, w2) ||
            gb_jget_num(R, t, "p", &term->p, 0, GB_RANGE_PROB, w2))
            return -1;
        json_t *edge = json_object_get(t, "knee_at_edge");
        if (edge && (!json_is_boolean(edge) || strncmp(nm, "knee:", 5) != 0)) {
            snprintf(why, n, "%s: %s.terms[%zu].knee_at_edge: true or false, and only on a knee", R->file,
                     where, i);
            return -1;
        }
        term->at_edge = json_is_true(edge);
        if (need_estimates && nm != dm && dm[-1] == ':' && nm[0] != 'w' && !(term->estimate > 0)) {
            snprintf(why, n, "%s: %s.terms[%zu].estimate = %.17g: a latency term or knee must be "
                     "above 0", R->file, where, i, term->estimate);
            return -1;
        }
    }
    if (gb_jget_num(R, o, "r2", &s->r2, 0, GB_RANGE_STAT, where) ||
        gb_jget_num(R, o, "adj_r2", &s->adj_r2, 0, GB_RANGE_STAT, where) ||
        gb_jget_num(R, o, "rmse_ns", &s->rmse_ns, 0, GB_RANGE_STAT, where) ||
        gb_jget_num(R, o, "f", &s->f, 0, GB_RANGE_STAT, where) ||
        gb_jget_num(R, o, "f_p", &s->f_p, 0, GB_RANGE_PROB, where) ||
        gb_jget_num(R, o, "df_resid", &s->df_resid, 0, GB_RANGE_STAT, where))
        return -1;
    return 0;
}

/* An equation's op and pattern; zeroes *eq first. */
static int gb_eq_identity(const struct gb_mr *R, json_t *o, struct gb_camp_equation *eq,
                          const char *where)
{
    json_t *op = json_object_get(o, "op"), *pat = json_object_get(o, "pattern");
    if (!json_is_object(o) || !json_is_string(op) || !json_is_string(pat)) {
        snprintf(R->why, R->n, "%s: %s lacks its op or pattern (strings)", R->file, where);
        return -1;
    }
    memset(eq, 0, sizeof *eq);
    if (strcmp(json_string_value(op), "read") == 0)
        eq->op = GB_CAMP_READ;
    else if (strcmp(json_string_value(op), "write") == 0)
        eq->op = GB_CAMP_WRITE;
    else {
        snprintf(R->why, R->n, "%s: %s.op = \"%.40s\": allowed read or write", R->file, where,
                 json_string_value(op));
        return -1;
    }
    if (strcmp(json_string_value(pat), "spread") == 0)
        eq->pattern = GB_CAMP_SPREAD;
    else if (strcmp(json_string_value(pat), "camped") == 0)
        eq->pattern = GB_CAMP_CAMPED;
    else {
        snprintf(R->why, R->n, "%s: %s.pattern = \"%.40s\": allowed spread or camped", R->file,
                 where, json_string_value(pat));
        return -1;
    }
    return 0;
}

/* The widths the equation measured, ascending. */
static int gb_eq_widths(const struct gb_mr *R, json_t *o, struct gb_camp_equation *eq,
                        const char *where)
{
    json_t *widths = json_object_get(o, "widths"), *v;
    size_t i;
    if (!json_is_array(widths) || json_array_size(widths) == 0 ||
        json_array_size(widths) > GB_CAMP_N_WIDTHS) {
        snprintf(R->why, R->n, "%s: %s.widths is not an array of 1 to %d widths", R->file, where,
                 GB_CAMP_N_WIDTHS);
        return -1;
    }
    json_array_foreach(widths, i, v) {
        long long w = json_is_integer(v) ? (long long)json_integer_value(v) : -1;
        if (w < 1 || w > 16 || gb_camp_width_class((int)w) < 0 || (i > 0 && w <= eq->widths[i - 1])) {
            snprintf(R->why, R->n, "%s: %s.widths[%zu] = %lld: allowed ascending widths of 1, 2, "
                     "4, 8 or 16 bytes", R->file, where, i, w);
            return -1;
        }
        eq->widths[eq->n_widths++] = (int)w;
    }
    return 0;
}

/* The normalisation of each measured width: instructions per warp
 * (required), their deviation and sectors per instruction. */
static int gb_eq_counts(const struct gb_mr *R, json_t *o, struct gb_camp_equation *eq,
                        const char *where)
{
    json_t *k = json_object_get(o, "instructions_per_warp");
    json_t *kd = json_object_get(o, "instructions_per_warp_max_deviation");
    json_t *spi = json_object_get(o, "sectors_per_instruction");
    char path[160];
    for (int c = 0; c < GB_CAMP_N_WIDTHS; c++)
        eq->sectors_per_instr[c] = NAN;
    for (int w = 0; w < eq->n_widths; w++) {
        char key[8];
        snprintf(key, sizeof key, "%d", eq->widths[w]);
        int c = gb_camp_width_class(eq->widths[w]);
        snprintf(path, sizeof path, "%s.instructions_per_warp", where);
        json_t *x = json_is_object(k) ? json_object_get(k, key) : NULL;
        if (!json_is_number(x) || !(json_number_value(x) > 0)) {
            if (x && json_is_number(x))
                snprintf(R->why, R->n, "%s: %s.%s = %.17g: allowed numbers above 0 (instructions "
                         "per warp)", R->file, path, key, json_number_value(x));
            else
                snprintf(R->why, R->n, "%s: %s.%s is missing (a positive count is required)",
                         R->file, path, key);
            return -1;
        }
        if (gb_jget_num(R, k, key, &eq->instr_per_warp[c], 1, GB_RANGE_INSTR_PER_WARP, path))
            return -1;
        snprintf(path, sizeof path, "%s.instructions_per_warp_max_deviation", where);
        if (json_is_object(kd) && gb_jget_num(R, kd, key, &eq->instr_dev[c], 0, GB_RANGE_STAT, path))
            return -1;
        if (!json_is_object(kd))
            eq->instr_dev[c] = NAN;
        snprintf(path, sizeof path, "%s.sectors_per_instruction", where);
        if (json_is_object(spi) &&
            gb_jget_num(R, spi, key, &eq->sectors_per_instr[c], 0, GB_RANGE_STAT, path))
            return -1;
    }
    return 0;
}

/* reference_width, n_obs and warps_range. */
static int gb_eq_scalars(const struct gb_mr *R, json_t *o, struct gb_camp_equation *eq,
                         const char *where)
{
    long long ref, nobs;
    if (gb_json_range_int(o, "reference_width", GB_RANGE_BLOCK_DIM, eq->widths[eq->n_widths - 1],
                          &ref, R->file, where, R->why, R->n) ||
        gb_json_range_int(o, "n_obs", GB_RANGE_N_OBS, 0, &nobs, R->file, where, R->why, R->n))
        return -1;
    if (gb_camp_width_class((int)ref) < 0) {
        snprintf(R->why, R->n, "%s: %s.reference_width = %lld: allowed 1, 2, 4, 8 or 16", R->file,
                 where, ref);
        return -1;
    }
    eq->ref_width = (int)ref;
    eq->n_obs = (size_t)nobs;
    json_t *range = json_object_get(o, "warps_range");
    eq->warps_min = eq->warps_max = NAN;
    if (json_is_array(range) && json_array_size(range) == 2) {
        char path[160];
        snprintf(path, sizeof path, "%s.warps_range", where);
        json_t *pair = json_pack("{s:O, s:O}", "0", json_array_get(range, 0), "1", json_array_get(range, 1));
        int bad = !pair || gb_jget_num(R, pair, "0", &eq->warps_min, 0, GB_RANGE_WARPS, path) ||
                  gb_jget_num(R, pair, "1", &eq->warps_max, 0, GB_RANGE_WARPS, path);
        json_decref(pair);
        if (bad)
            return -1;
    }
    return 0;
}

static int gb_eq_from_json(const struct gb_mr *R, json_t *o, size_t index, struct gb_camp_equation *eq)
{
    char where[96];
    json_t *v;
    size_t i;
    snprintf(where, sizeof where, "$.equations[%zu]", index);
    if (gb_eq_identity(R, o, eq, where) || gb_eq_widths(R, o, eq, where) ||
        gb_eq_scalars(R, o, eq, where) || gb_terms_from_json(R, o, &eq->fit, 1, where))
        return -1;
    json_t *full = json_object_get(o, "full_fit");
    if (json_is_object(full)) {
        char w2[128];
        snprintf(w2, sizeof w2, "%s.full_fit", where);
        if (gb_terms_from_json(R, full, &eq->full, 0, w2))
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
    eq->cv_gm = eq->cv_rms = NAN;
    json_t *ho = json_object_get(o, "heldout");
    if (json_is_object(ho)) {
        char w2[128];
        json_t *folds = json_object_get(ho, "folds");
        snprintf(w2, sizeof w2, "%s.heldout", where);
        if (gb_jget_num(R, ho, "gm_rel_error", &eq->cv_gm, 0, GB_RANGE_STAT, w2) ||
            gb_jget_num(R, ho, "rms_rel_error", &eq->cv_rms, 0, GB_RANGE_STAT, w2))
            return -1;
        eq->cv_folds = json_is_integer(folds) && json_integer_value(folds) > 0
                           ? (size_t)json_integer_value(folds) : 0;
    }
    return gb_eq_counts(R, o, eq, where);
}

/* A latency-throughput equation times every width it measured with both
 * of its terms (L:b<W> and knee:b<W>). */
static int gb_eq_lt_complete(const struct gb_mr *R, const struct gb_camp_equation *eq)
{
    for (int i = 0; i < eq->n_widths; i++) {
        double t = gb_camp_eq_time_ns(eq, 1, gb_camp_width_class(eq->widths[i]));
        if (!(t > 0) || !isfinite(t)) {
            snprintf(R->why, R->n, "%s: the %s/%s equation lacks L:b%d or knee:b%d", R->file,
                     gb_camp_op_name(eq->op), gb_camp_pattern_name(eq->pattern), eq->widths[i],
                     eq->widths[i]);
            return -1;
        }
    }
    return 0;
}

/* The run the model was fitted on: strings, kept as far as they fit. */
static void gb_model_run(json_t *run, struct gb_camp_model *m)
{
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
    if (!json_is_object(run))
        return;
    for (size_t i = 0; i < sizeof fields / sizeof fields[0]; i++) {
        json_t *s = json_object_get(run, fields[i].key);
        if (json_is_string(s))
            snprintf(fields[i].buf, fields[i].n, "%s", json_string_value(s));
    }
}

/* The form (absent in older files: the paper's, or with "interactions"
 * true its extension) and the camped level (absent: not recorded). */
static int gb_model_form(const struct gb_mr *R, json_t *root, struct gb_camp_model *m)
{
    json_t *f = json_object_get(root, "form"), *lv = json_object_get(root, "camped_level");
    m->form = m->interactions ? GB_CAMP_FORM_INTERACTIONS : GB_CAMP_FORM_PAPER;
    if (f) {
        int v = json_is_string(f) ? gb_camp_form_parse(json_string_value(f)) : -1;
        if (v < 0) {
            snprintf(R->why, R->n, "%s: $.form is not one of paper, interactions, sum, smax2, "
                     "smax4, max", R->file);
            return -1;
        }
        m->form = (enum gb_camp_form)v;
    }
    m->level = GB_CAMP_LEVEL_UNKNOWN;
    if (json_is_string(lv)) {
        if (strcmp(json_string_value(lv), gb_camp_level_name(GB_CAMP_LEVEL_L2)) == 0)
            m->level = GB_CAMP_LEVEL_L2;
        else if (strcmp(json_string_value(lv), gb_camp_level_name(GB_CAMP_LEVEL_DRAM)) == 0)
            m->level = GB_CAMP_LEVEL_DRAM;
    }
    return 0;
}

/* The parsed root into *m. */
static enum gb_status gb_model_fill(const struct gb_mr *R, json_t *root, struct gb_camp_model *m)
{
    int have[2][2] = {{0, 0}, {0, 0}};
    json_t *fmt = json_object_get(root, "format");
    if (!json_is_object(root) || !json_is_string(fmt) ||
        strcmp(json_string_value(fmt), GB_CAMP_MODEL_FORMAT) != 0)
        return gb_error_set(GB_ERR_FORMAT, "%s is not a CampProf model (its \"format\" is not \"%s\")",
                            R->file, GB_CAMP_MODEL_FORMAT);
    if (gb_jget_num(R, root, "p_remove", &m->p_remove, 0, GB_RANGE_PROB, "$"))
        return gb_error_set(GB_ERR_FORMAT, "%s", R->why);
    m->interactions = json_is_true(json_object_get(root, "interactions"));
    if (gb_model_form(R, root, m))
        return gb_error_set(GB_ERR_FORMAT, "%s", R->why);
    gb_model_run(json_object_get(root, "run"), m);
    json_t *dev = json_object_get(root, "device");
    if (dev && !json_is_null(dev)) {
        if (gb_device_from_json(dev, &m->device, R->file, "$.device", R->why, R->n) != 0)
            return gb_error_set(GB_ERR_FORMAT, "%s", R->why);
        m->has_device = 1;
    }
    json_t *eqs = json_object_get(root, "equations"), *v;
    size_t i;
    if (!json_is_array(eqs))
        return gb_error_set(GB_ERR_FORMAT, "%s: $.equations is missing (an array is required)", R->file);
    json_array_foreach(eqs, i, v) {
        struct gb_camp_equation eq;
        if (gb_eq_from_json(R, v, i, &eq))
            return gb_error_set(GB_ERR_FORMAT, "%s", R->why);
        eq.form = m->form;
        if (gb_camp_form_lt(m->form) && gb_eq_lt_complete(R, &eq))
            return gb_error_set(GB_ERR_FORMAT, "%s", R->why);
        m->eq[eq.op][eq.pattern] = eq;
        have[eq.op][eq.pattern] = 1;
    }
    for (int op = 0; op < 2; op++)
        for (int pat = 0; pat < 2; pat++)
            if (!have[op][pat])
                return gb_error_set(GB_ERR_FORMAT, "%s: the %s/%s equation is missing", R->file,
                                    gb_camp_op_name((enum gb_camp_op)op),
                                    gb_camp_pattern_name((enum gb_camp_pattern)pat));
    return GB_OK;
}

/* The model read from the open stream `f` of `path`, which it closes. */
static enum gb_status gb_model_read(FILE *f, const char *path, struct gb_camp_model *m)
{
    json_error_t err;
    char why[1024];
    const struct gb_mr R = {.file = path, .why = why, .n = sizeof why};
    json_t *root = json_loadf(f, JSON_REJECT_DUPLICATES, &err);
    int read_error = ferror(f);
    fclose(f);
    if (!root && read_error)
        return gb_error_set(GB_ERR_IO, "cannot read the model %s: a read error", path);
    if (!root)
        return gb_error_set(GB_ERR_FORMAT, "%s:%d:%d: %s", path, err.line, err.column, err.text);
    enum gb_status st = gb_model_fill(&R, root, m);
    json_decref(root);
    return st;
}

enum gb_status gb_camp_model_load(const char *path, struct gb_camp_model *m)
{
    struct stat sb;
    FILE *f;
    memset(m, 0, sizeof *m);
    if (stat(path, &sb) != 0)
        return gb_error_set(GB_ERR_IO, "cannot read the model %s: %s", path, strerror(errno));
    if (!S_ISREG(sb.st_mode))
        return gb_error_set(GB_ERR_IO, "cannot read the model %s: not a regular file", path);
    if (!(f = fopen(path, "r")))
        return gb_error_set(GB_ERR_IO, "cannot read the model %s: %s", path, strerror(errno));
    return gb_model_read(f, path, m);
}

enum gb_status gb_camp_model_load_existing(const char *path, struct gb_camp_model *m)
{
    FILE *f;
    memset(m, 0, sizeof *m);
    if (!(f = gb_fopen_regular(path)))
        return gb_error_set(GB_ERR_IO, "cannot read the model %s: %s", path, strerror(errno));
    return gb_model_read(f, path, m);
}

size_t gb_camp_model_points(const struct gb_camp_model *m)
{
    size_t n = 0;
    for (int op = 0; op < 2; op++)
        for (int pat = 0; pat < 2; pat++)
            n += m->eq[op][pat].n_obs;
    return n;
}

enum gb_status gb_camp_model_guard(const char *path, const struct gb_camp_model *m, int force)
{
    static const struct gb_replace_words words = {"was fitted on", "observations", "this fit has",
                                                  GB_REPLACE_OUT_ELSEWHERE};
    enum gb_status st = GB_OK;
    if (force || access(path, F_OK) != 0)
        return GB_OK;
    struct gb_camp_model *old = calloc(1, sizeof *old);
    if (!old)
        return gb_error_set(GB_ERR_NOMEM, "out of host memory");
    if (gb_camp_model_load_existing(path, old) == GB_OK)
        st = gb_replace_check(path, gb_camp_model_points(old), gb_camp_model_points(m), force, &words);
    if (st == GB_OK)
        gb_error_clear();
    free(old);
    return st;
}
