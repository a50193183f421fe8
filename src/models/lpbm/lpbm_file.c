/* lpbm_file.c - lpbm-model.json, the breakdown models of a run
 * (gpubound/lpbm.h; docs/models.md describes the fields). Numbers are
 * written with 10 significant digits so that a refit of the same records
 * writes the same file. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "gpubound/lpbm.h"
#include "util/fs.h"
#include "util/open_regular.h"

static json_t *num(double v)
{
    char buf[40];
    if (!isfinite(v))
        return json_null();
    snprintf(buf, sizeof buf, "%.10g", v);
    return json_real(strtod(buf, NULL));
}

static json_t *point_json(const struct gb_lpbm_bench_model *m, size_t i)
{
    const struct gb_lpbm_point *p = &m->pts[i];
    double terms[GB_LPBM_TERMS];
    double pred = gb_lpbm_predict(&m->fit, p, terms);
    json_t *o = json_object(), *x = json_object(), *t = json_object();
    for (int j = 0; j < GB_LPBM_TERMS; j++) {
        if (!gb_lpbm_model_has(m, (enum gb_lpbm_term)j))
            continue;
        json_object_set_new(x, gb_lpbm_term_name((enum gb_lpbm_term)j), num(p->x[j]));
        json_object_set_new(t, gb_lpbm_term_name((enum gb_lpbm_term)j), num(terms[j]));
    }
    json_object_set_new(o, "config", json_string(p->config));
    json_object_set_new(o, "problem", json_string(p->problem));
    json_object_set_new(o, "time_ns", num(p->time_ns));
    json_object_set_new(o, "ci_lo_ns", num(p->ci_lo_ns));
    json_object_set_new(o, "ci_hi_ns", num(p->ci_hi_ns));
    json_object_set_new(o, "predicted_ns", num(pred));
    json_object_set_new(o, "heldout_predicted_ns", num(gb_lpbm_heldout_ns(m, i)));
    json_object_set_new(o, "heldout_rel_error", num(m->held.rel ? m->held.rel[i] : NAN));
    json_object_set_new(o, "block_threads", num(p->block_threads));
    json_object_set_new(o, "grid_blocks", num(p->grid_blocks));
    json_object_set_new(o, "active_warps_per_sm", num(p->active_warps_per_sm));
    json_object_set_new(o, "concurrency_level", num(p->cl));
    json_object_set_new(o, "ops_per_thread", num(p->ops));
    json_object_set_new(o, "global_bytes_per_thread", num(p->global_bytes));
    json_object_set_new(o, "shared_accesses_per_thread", num(p->shared_accesses));
    json_object_set_new(o, "barriers_per_thread", num(p->barriers));
    if (m->form == GB_LPBM_RESOURCES) {
        json_object_set_new(o, "footprint_bytes", num(p->footprint_bytes > 0 ? p->footprint_bytes : NAN));
        json_object_set_new(o, "waves", num(p->waves));
        json_object_set_new(o, "fill", num(p->fill));
    }
    json_object_set_new(o, "predictors", x);
    json_object_set_new(o, "terms_ns", t);
    return o;
}

static json_t *holdout_json(const struct gb_lpbm_bench_model *m)
{
    json_t *h = json_object();
    const struct gb_lpbm_holdout *s = &m->holdout;
    char split[128];
    if (s->kind == GB_LPBM_LOO)
        snprintf(split, sizeof split, "loo");
    else if (s->kind == GB_LPBM_EVERY)
        snprintf(split, sizeof split, "every:%d", s->every);
    else
        snprintf(split, sizeof split, "size:%s=%s", s->axis, s->value);
    json_object_set_new(h, "split", json_string(split));
    json_object_set_new(h, "n_train", json_integer((json_int_t)m->held.n_train));
    json_object_set_new(h, "n_test", json_integer((json_int_t)m->held.n_test));
    json_object_set_new(h, "median_abs_rel_error", num(m->held.median_abs_rel));
    json_object_set_new(h, "max_abs_rel_error", num(m->held.max_abs_rel));
    if (m->held.n_test)
        json_object_set_new(h, "worst", json_string(m->pts[m->held.worst].config));
    if (m->held.n_interval) {
        json_object_set_new(h, "n_interval", json_integer((json_int_t)m->held.n_interval));
        json_object_set_new(h, "inside_interval", json_integer((json_int_t)m->held.n_inside));
        json_object_set_new(h, "without_error_across_sizes", json_integer((json_int_t)m->held.n_no_across));
    }
    return h;
}

/* The resources form's roofs, per ns (NaN: none, the count stands for itself). */
static json_t *roofs_json(const struct gb_lpbm_point *p)
{
    json_t *r = json_object();
    json_object_set_new(r, "dram_bytes_per_ns", num(p->roof_dram));
    json_object_set_new(r, "l2_bytes_per_ns", num(p->roof_l2));
    json_object_set_new(r, "l2_write_bytes_per_ns", num(p->roof_l2_write));
    json_object_set_new(r, "shared_wavefronts_per_ns", num(p->roof_shared));
    json_object_set_new(r, "warp_instructions_per_ns", num(p->roof_inst));
    json_object_set_new(r, "atomics_per_ns", num(p->roof_atom));
    json_object_set_new(r, "launch_a_ns", num(p->launch_a_ns));
    json_object_set_new(r, "launch_blocks_per_ns", num(p->launch_b));
    return r;
}

/* The fits a resources-form prediction averages, largest weight first. */
static json_t *average_json(const struct gb_lpbm_fit *f)
{
    json_t *a = json_array();
    int order[GB_LPBM_ALTS];
    int n = gb_lpbm_average_order(f, order);
    for (int k = 0; k < n; k++) {
        const struct gb_lpbm_alt *m = &f->alt[order[k]];
        json_t *o = json_object();
        json_object_set_new(o, "overlap_p", num(m->overlap));
        json_object_set_new(o, "left_out", m->left_out < 0 ? json_null()
                                           : json_string(gb_lpbm_term_name((enum gb_lpbm_term)m->left_out)));
        json_object_set_new(o, "weight", num(m->weight));
        json_array_append_new(a, o);
    }
    return a;
}

static json_t *bench_json(const struct gb_lpbm_bench_model *m)
{
    json_t *o = json_object(), *coef = json_array(), *pts = json_array();
    for (int j = 0; j < GB_LPBM_TERMS; j++) {
        if (!gb_lpbm_model_has(m, (enum gb_lpbm_term)j))
            continue;
        json_t *c = json_object();
        json_object_set_new(c, "term", json_string(gb_lpbm_term_name((enum gb_lpbm_term)j)));
        json_object_set_new(c, "estimate", num(m->fit.coef[j]));
        json_object_set_new(c, "ci_lo", num(m->fit.ci_lo[j]));
        json_object_set_new(c, "ci_hi", num(m->fit.ci_hi[j]));
        json_object_set_new(c, "present", json_boolean(m->fit.present[j]));
        if (m->fit.dropped >> j & 1)
            json_object_set_new(c, "left_out", json_string("implausible"));
        else if (j == gb_lpbm_left_out(&m->fit))
            json_object_set_new(c, "left_out", json_string("this fit (others averaged have it)"));
        if (m->fit.at_roof >> j & 1)
            json_object_set_new(c, "floor_at_roof", json_true());
        else if (m->fit.floor[j] > 0 && m->fit.present[j])
            json_object_set_new(c, "floor", num(m->fit.floor[j]));
        json_array_append_new(coef, c);
    }
    for (size_t i = 0; i < m->fit.n; i++)
        json_array_append_new(pts, point_json(m, i));
    json_object_set_new(o, "suite", json_string(m->suite));
    json_object_set_new(o, "bench", json_string(m->bench));
    json_object_set_new(o, "form", json_string(gb_lpbm_form_name(m->form)));
    json_object_set_new(o, "weight", json_string(m->weight == GB_LPBM_RELATIVE ? "relative" : "none"));
    if (m->intercept)
        json_object_set_new(o, "intercept", json_true());
    if (m->form == GB_LPBM_RESOURCES && m->fit.n)
        json_object_set_new(o, "roofs", roofs_json(&m->pts[0]));
    if (m->form == GB_LPBM_RESOURCES && m->fit.n)
        json_object_set_new(o, "overlap_p", num(m->fit.overlap));
    if (m->fit.n_alt > 1)
        json_object_set_new(o, "averaged", average_json(&m->fit));
    json_object_set_new(o, "n_points", json_integer((json_int_t)m->fit.n));
    json_object_set_new(o, "bootstrap", json_integer(m->fit.boot));
    json_object_set_new(o, "coefficients", coef);
    json_object_set_new(o, "r2", num(m->fit.r2));
    json_object_set_new(o, "rmse_ns", num(m->fit.rmse_ns));
    json_object_set_new(o, "median_abs_rel_error", num(m->fit.median_abs_rel));
    json_object_set_new(o, "holdout", holdout_json(m));
    json_object_set_new(o, "counts_from", json_string(m->sources));
    json_object_set_new(o, "dominant", json_string(m->dominant));
    if (m->note[0])
        json_object_set_new(o, "note", json_string(m->note));
    if (m->on.n) {
        json_t *on = json_object();
        json_object_set_new(on, "run", json_string(m->on.run));
        json_object_set_new(on, "device", json_string(m->on.device));
        json_object_set_new(on, "n_points", json_integer((json_int_t)m->on.n));
        json_object_set_new(on, "median_abs_rel_error", num(m->on.median_abs_rel));
        json_object_set_new(on, "max_abs_rel_error", num(m->on.max_abs_rel));
        json_object_set_new(on, "worst", json_string(m->on.worst_config));
        json_object_set_new(o, "on", on);
    }
    json_object_set_new(o, "points", pts);
    return o;
}

enum gb_status gb_lpbm_model_write(const char *path, const char *run_dir,
                                   const struct gb_lpbm_bench_model *m, size_t n)
{
    json_t *root = json_object(), *arr = json_array();
    enum gb_status st = GB_OK;
    char *text;
    json_object_set_new(root, "format", json_string(GB_LPBM_MODEL_FORMAT));
    json_object_set_new(root, "run", json_string(run_dir));
    for (size_t i = 0; i < n; i++)
        json_array_append_new(arr, bench_json(&m[i]));
    json_object_set_new(root, "models", arr);
    text = json_dumps(root, JSON_INDENT(1) | JSON_PRESERVE_ORDER | JSON_REAL_PRECISION(10));
    if (!text)
        st = gb_error_set(GB_ERR_NOMEM, "out of memory writing %s", path);
    else {
        size_t len = strlen(text);
        text[len] = '\n';
        st = gb_write_file_atomic(path, text, len + 1);
        text[len] = '\0';
    }
    free(text);
    json_decref(root);
    return st;
}

enum gb_status gb_lpbm_model_points(const char *path, size_t *points)
{
    json_error_t err;
    FILE *f = gb_fopen_regular(path);
    if (!f)
        return gb_error_set(GB_ERR_IO, "cannot read %s: %s", path, strerror(errno));
    json_t *root = json_loadf(f, 0, &err), *models, *m;
    size_t i;
    fclose(f);
    *points = 0;
    if (!root)
        return gb_error_set(GB_ERR_FORMAT, "%s: %s", path, err.text);
    models = json_object_get(root, "models");
    if (!json_is_array(models)) {
        json_decref(root);
        return gb_error_set(GB_ERR_FORMAT, "%s: no \"models\" list", path);
    }
    json_array_foreach(models, i, m)
        *points += (size_t)json_integer_value(json_object_get(m, "n_points"));
    json_decref(root);
    return GB_OK;
}
