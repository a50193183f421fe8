/* tune_answer.c - what a search found: the best configuration, the
 * runner-up and whether they differ by compare's method, and the model's
 * best unmeasured configuration (gpubound/tune.h). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gpubound/compare.h"
#include "gpubound/tune.h"
#include "tune_internal.h"

/* The two fastest ok observations. */
static void gb_answer_rank(const struct gb_tune *t, const struct gb_tune_obs **best, const struct gb_tune_obs **run)
{
    *best = *run = NULL;
    for (size_t i = 0; i < t->n_obs; i++) {
        const struct gb_tune_obs *o = &t->obs[i];
        if (!o->ok)
            continue;
        if (!*best || o->time_ns < (*best)->time_ns) {
            *run = *best;
            *best = o;
        } else if (!*run || o->time_ns < (*run)->time_ns) {
            *run = o;
        }
    }
}

/* runner / best as compare does: the rank method on samples, else the
 * summary method (the medians, the hull of their intervals). */
static enum gb_status gb_answer_compare(const struct gb_tune_obs *b, const struct gb_tune_obs *r, double alpha,
                                        double threshold, struct gb_tune_answer *a)
{
    if (b->n_samples >= 2 && r->n_samples >= 2) {
        struct gb_cmp_stat s;
        enum gb_status st = gb_cmp_samples(b->samples, b->n_samples, r->samples, r->n_samples, alpha, &s);
        if (st != GB_OK)
            return st;
        a->ratio = s.ratio;
        a->ratio_lo = s.lo;
        a->ratio_hi = s.hi;
        a->by_samples = 1;
    } else {
        a->ratio = r->time_ns / b->time_ns;
        a->ratio_lo = r->lo_ns > 0 && b->hi_ns > 0 ? r->lo_ns / b->hi_ns : NAN;
        a->ratio_hi = r->hi_ns > 0 && b->lo_ns > 0 ? r->hi_ns / b->lo_ns : NAN;
    }
    a->differ = (a->ratio_lo > 1 || a->ratio_hi < 1) && (a->ratio > 1 + threshold || a->ratio < 1 - threshold);
    return GB_OK;
}

/* The model's best unmeasured configuration by predicted time. */
static enum gb_status gb_answer_predict(struct gb_tune *t, struct gb_tune_answer *a)
{
    size_t n = t->space->n;
    double *m = calloc(n, sizeof *m), *lo = calloc(n, sizeof *lo), *hi = calloc(n, sizeof *hi);
    enum gb_status st = GB_OK;
    if (!m || !lo || !hi) {
        st = gb_error_set(GB_ERR_NOMEM, "out of host memory predicting");
        goto out;
    }
    if (gb_tune_model_fit(t, m, lo, hi))
        for (size_t i = 0; i < n; i++)
            if (!t->seen[i] && isfinite(m[i]) && (!a->have_pred || m[i] < a->pred_ns)) {
                a->have_pred = 1;
                a->pred = i;
                a->pred_ns = m[i];
                a->pred_lo = lo[i];
                a->pred_hi = hi[i];
            }
    snprintf(a->surrogate, sizeof a->surrogate, "%s", t->sur_used);
    snprintf(a->note, sizeof a->note, "%s", t->sur_note);
out:
    free(m);
    free(lo);
    free(hi);
    return st;
}

enum gb_status gb_tune_answer(struct gb_tune *t, double alpha, double threshold, struct gb_tune_answer *a)
{
    const struct gb_tune_obs *b, *r;
    memset(a, 0, sizeof *a);
    a->ratio = a->ratio_lo = a->ratio_hi = NAN;
    gb_answer_rank(t, &b, &r);
    if (!b)
        return gb_error_set(GB_ERR_USAGE, "no configuration of the %zu measured was timed", t->n_obs);
    a->have_best = 1;
    a->best = b->idx;
    a->best_ns = b->time_ns;
    a->best_lo = b->lo_ns;
    a->best_hi = b->hi_ns;
    if (r) {
        enum gb_status st = gb_answer_compare(b, r, alpha, threshold, a);
        if (st != GB_OK)
            return st;
        a->have_runner = 1;
        a->runner = r->idx;
        a->runner_ns = r->time_ns;
        a->runner_lo = r->lo_ns;
        a->runner_hi = r->hi_ns;
    }
    return t->n_sur ? gb_answer_predict(t, a) : GB_OK;
}
