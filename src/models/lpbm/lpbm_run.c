/* lpbm_run.c - the breakdown's driver (include/gpubound/lpbm_run.h): the
 * spec, each bench's input, the fits, and the model file, staged. */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "gpubound/lpbm_run.h"
#include "util/fs.h"
#include "util/replace.h"
#include "util/stage.h"

/* The best configuration: the fastest of the largest problem measured (the
 * problem of the slowest point). */
static size_t gb_lpbm_best(const struct gb_lpbm_point *pts, size_t n)
{
    size_t slow = 0, best = SIZE_MAX;
    for (size_t i = 1; i < n; i++)
        if (pts[i].time_ns > pts[slow].time_ns)
            slow = i;
    for (size_t i = 0; i < n; i++)
        if (strcmp(pts[i].problem, pts[slow].problem) == 0 &&
            (best == SIZE_MAX || pts[i].time_ns < pts[best].time_ns))
            best = i;
    return best == SIZE_MAX ? 0 : best;
}

/* Where a fit's counts came from (n bytes): the formula form's, the
 * counters; the resources form's also say whether LAT's round trips carry
 * the loads in flight read from the kernel's PTX, and how many. */
static void gb_lpbm_sources(const struct gb_lpbm_input *in, enum gb_lpbm_form form, char *out, size_t n)
{
    double lo = INFINITY, hi = 0;
    size_t k = 0;
    for (size_t i = 0; i < in->n; i++) {
        double g = in->pts[i].c_loads_in_flight;
        if (isfinite(g) && g > 0)
            k++, lo = fmin(lo, g), hi = fmax(hi, g);
    }
    if (form == GB_LPBM_FORMULA)
        snprintf(out, n, "%s", in->sources);
    else if (form != GB_LPBM_RESOURCES)
        snprintf(out, n, "measured counters");
    else if (k == 0)
        snprintf(out, n, "measured counters; loads in flight not read from the kernel's PTX: each global "
                 "load is a round trip");
    else {
        char range[64];
        snprintf(range, sizeof range, lo == hi ? "%g" : "%g to %g", lo, hi);
        snprintf(out, n, "measured counters; loads in flight: the kernel's PTX's, %s a thread%s", range,
                 k < in->n ? " (not read at some configurations: each of their loads a round trip)" : "");
    }
}

static enum gb_status gb_lpbm_fit_one(const struct gb_lpbm_fit_opts *o, const struct gb_lpbm_input *in,
                                      const struct gb_ceilings *roofs, enum gb_lpbm_form form,
                                      struct gb_lpbm_bench_model *m)
{
    enum gb_status st;
    memset(m, 0, sizeof *m);
    /* same sizes: the input's names are NUL-terminated within them */
    memcpy(m->suite, in->suite, sizeof m->suite);
    memcpy(m->bench, in->bench, sizeof m->bench);
    gb_lpbm_sources(in, form, m->sources, sizeof m->sources);
    memcpy(m->note, in->note, sizeof m->note);
    m->form = form;
    m->weight = o->weight;
    m->intercept = o->intercept;
    m->average = o->average;
    m->holdout = o->holdout;
    if (!(m->pts = malloc(in->n * sizeof *m->pts)))
        return gb_error_set(GB_ERR_NOMEM, "out of memory");
    memcpy(m->pts, in->pts, in->n * sizeof *m->pts);
    int camped = gb_lpbm_camped_ratio(in->pts, in->n) >= GB_LPBM_CAMPED_MIN;
    for (size_t i = 0; i < in->n; i++) {
        m->pts[i].l2_camped = camped;
        m->pts[i].intercept = o->intercept;
        m->pts[i].average = o->average;
        gb_lpbm_roofs_set(&m->pts[i], roofs);
        if ((st = gb_lpbm_predictors(&m->pts[i], form)) != GB_OK)
            return st;
    }
    if ((st = gb_lpbm_fit(m->pts, in->n, o->weight, GB_LPBM_BOOT, GB_LPBM_SEED, &m->fit)) ||
        (st = gb_lpbm_holdout_run(m->pts, in->n, o->weight, &o->holdout, &m->held)))
        return gb_error_set(st, "%s/%s: %s", in->suite, in->bench, gb_error_message());
    gb_lpbm_judge(&m->fit, &m->held, m->pts, in->n, &m->verdict);
    if (m->verdict.explains)
        gb_lpbm_dominant(&m->fit, &m->pts[gb_lpbm_best(m->pts, in->n)], m->dominant, sizeof m->dominant);
    else
        snprintf(m->dominant, sizeof m->dominant, "%.*s", (int)sizeof m->dominant - 1, m->verdict.text);
    return GB_OK;
}

static void gb_lpbm_model_release(struct gb_lpbm_bench_model *m)
{
    free(m->pts);
    free(m->held.rel);
    memset(m, 0, sizeof *m);
}

/* Room for one more element of *v (n used of *cap, each `size` bytes, zeroed). */
static enum gb_status gb_lpbm_grow(void **v, size_t n, size_t *cap, size_t size)
{
    if (n < *cap)
        return GB_OK;
    size_t c = *cap ? 2 * *cap : 8;
    char *p = realloc(*v, c * size);
    if (!p)
        return gb_error_set(GB_ERR_NOMEM, "out of memory");
    memset(p + *cap * size, 0, (c - *cap) * size);
    *v = p;
    *cap = c;
    return GB_OK;
}

/* The input of `bench` and its one or two models. */
static enum gb_status gb_lpbm_fit_bench(const struct gb_run *run, const struct gb_lpbm_fit_opts *o,
                                        struct gb_lpbm_fit_result *r, const char *bench)
{
    enum gb_status st = gb_lpbm_grow((void **)&r->in, r->n_in, &r->cap_in, sizeof *r->in);
    if (st != GB_OK)
        return st;
    struct gb_lpbm_input *in = &r->in[r->n_in];
    if ((st = gb_lpbm_input_build(run, r->spec, bench, o->counters ? o->counters : gb_lpbm_counters_get,
                                   o->counters ? o->counters_ctx : NULL, in)) != GB_OK)
        return st;
    r->n_in++;
    if (o->on_input)
        o->on_input(o->ctx, in);
    int forms[2], nf = 0;
    if (o->form >= 0)
        forms[nf++] = o->form;
    else if (in->n_resources == (int)in->n)
        forms[nf++] = GB_LPBM_RESOURCES;
    else {
        forms[nf++] = GB_LPBM_FORMULA;
        if (in->n_counters == (int)in->n)
            forms[nf++] = GB_LPBM_COUNTERS;
    }
    for (int k = 0; k < nf; k++) {
        if (forms[k] == GB_LPBM_FORMULA && in->formula_why[0])
            return gb_error_set(GB_ERR_USAGE, "%s", in->formula_why);
        if ((st = gb_lpbm_grow((void **)&r->models, r->n_models, &r->cap_models, sizeof *r->models)) != GB_OK)
            return st;
        struct gb_lpbm_bench_model *m = &r->models[r->n_models++];
        if ((st = gb_lpbm_fit_one(o, in, &r->roofs, (enum gb_lpbm_form)forms[k], m)) != GB_OK)
            return st;
        if (o->on_model)
            o->on_model(o->ctx, m);
    }
    return GB_OK;
}

/* Whether the run holds a record of `bench` of the spec's suite. */
static int gb_lpbm_measured(const struct gb_run *run, const struct gb_lpbm_spec *spec, const char *bench)
{
    for (size_t r = 0; r < run->n_records; r++)
        if (!strcmp(run->records[r].bench, bench) && !strcmp(run->records[r].suite, gb_lpbm_spec_suite(spec)))
            return 1;
    return 0;
}

enum gb_status gb_lpbm_fit_run(const struct gb_run *run, const struct gb_lpbm_fit_opts *o,
                               struct gb_lpbm_fit_result *r)
{
    char spec_path[GB_PATH_MAX];
    size_t len = 0;
    enum gb_status st = gb_lpbm_spec_locate(run, o->spec, spec_path, sizeof spec_path);
    if (st != GB_OK || (st = gb_lpbm_spec_load(spec_path, &r->spec)) != GB_OK) {
        r->spec = NULL;
        return st;
    }
    snprintf(r->spec_path, sizeof r->spec_path, "%s", spec_path);
    if (o->ceilings)
        r->roofs = *o->ceilings;
    else
        gb_ceilings_guide(&run->info.device, &r->roofs);
    if ((st = gb_lpbm_spec_check(run, r->spec, &r->spec_unchecked)) != GB_OK)
        return st;
    r->n_benches = gb_lpbm_spec_n_benches(r->spec);
    for (size_t i = 0; i < r->n_benches && st == GB_OK; i++) {
        const char *b = gb_lpbm_spec_bench(r->spec, i);
        if (o->bench && strcmp(o->bench, b) != 0)
            continue;
        if (o->bench || gb_lpbm_measured(run, r->spec, b))
            st = gb_lpbm_fit_bench(run, o, r, b);
        else if (r->n_unmeasured++, len < sizeof r->unmeasured)
            len += (size_t)snprintf(r->unmeasured + len, sizeof r->unmeasured - len, "%s%s", len ? ", " : "", b);
    }
    if (st == GB_OK && r->n_in == 0)
        st = gb_error_set(GB_ERR_USAGE, o->bench ? "the spec of suite %s has no bench '%s'"
                                                 : "the run has no record of suite %s",
                          gb_lpbm_spec_suite(r->spec), o->bench);
    return st;
}

enum gb_status gb_lpbm_fit_write(const struct gb_lpbm_fit_result *r, const struct gb_run *run,
                                 const struct gb_stage *stage, int force)
{
    static const struct gb_replace_words words = {"was fitted on", "configurations", "this fit has",
                                                  GB_REPLACE_OUT_ELSEWHERE};
    char path[GB_PATH_MAX + 64], staged[GB_PATH_MAX + 128];
    size_t old = 0, now = 0;
    const char *slash = strrchr(run->dir, '/');
    snprintf(path, sizeof path, "%s/%s", stage->dir, GB_LPBM_MODEL_FILE);
    for (size_t k = 0; k < r->n_models; k++)
        now += r->models[k].fit.n;
    enum gb_status st = GB_OK;
    if (!force && access(path, F_OK) == 0 && gb_lpbm_model_points(path, &old) == GB_OK)
        st = gb_replace_check(path, old, now, force, &words);
    if (st != GB_OK)
        return st;
    gb_error_clear();
    st = gb_stage_path(stage, GB_LPBM_MODEL_FILE, staged, sizeof staged);
    return st != GB_OK ? st : gb_lpbm_model_write(staged, slash && slash[1] ? slash + 1 : run->dir,
                                                  r->models, r->n_models);
}

void gb_lpbm_fit_result_release(struct gb_lpbm_fit_result *r)
{
    for (size_t k = 0; k < r->n_models; k++)
        gb_lpbm_model_release(&r->models[k]);
    for (size_t i = 0; i < r->n_in; i++)
        gb_lpbm_input_release(&r->in[i]);
    free(r->models);
    free(r->in);
    gb_lpbm_spec_free(r->spec);
    memset(r, 0, sizeof *r);
}
