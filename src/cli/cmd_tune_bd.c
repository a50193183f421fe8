/* cmd_tune_bd.c - the breakdown surrogate over the tuning run's records
 * (cmd_tune_bd.h). */
#include "cli/cmd_tune_bd.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gpubound/bench_inflight.h"
#include "gpubound/status.h"
#include "gpubound/lpbm_run.h"
#include "gpubound/results.h"

/* The first model of the bench the honesty rule (gb_lpbm_judge's verdict)
 * says explains the measured points, or r->n_models with why. */
static size_t gb_tune_bd_pick(const struct gb_lpbm_fit_result *r, const char *bench, char *why, size_t why_n)
{
    snprintf(why, why_n, "no model of %s was fitted", bench);
    for (size_t m = 0; m < r->n_models; m++) {
        const struct gb_lpbm_bench_model *bm = &r->models[m];
        if (strcmp(bm->bench, bench) != 0)
            continue;
        if (bm->verdict.explains)
            return m;
        if (m == 0 || strncmp(why, "no model", 8) == 0)
            snprintf(why, why_n, "it does not explain the measured times (%s form: R^2 %.3f, median error %.1f%%)",
                     bm->form == GB_LPBM_RESOURCES ? "resources"
                     : bm->form == GB_LPBM_COUNTERS ? "counters"
                                                    : "formula",
                     bm->fit.r2, 100 * bm->fit.median_abs_rel);
    }
    return r->n_models;
}

/* Predicts every configuration with model m; 0 (why) when one cannot be. */
static int gb_tune_bd_predict_all(struct gb_tune_bd *bd, struct gb_lpbm_fit_result *r, size_t m, char *why,
                                  size_t why_n)
{
    for (size_t i = 0; i < bd->plan->n; i++) {
        const struct gb_plan_item *it = &bd->plan->items[i];
        char axes[1024];
        size_t len = 0;
        struct gb_lpbm_prediction p;
        axes[0] = '\0';
        for (int a = 0; a < it->n_axes && len < sizeof axes; a++)
            len += (size_t)snprintf(axes + len, sizeof axes - len, "%s%s=%s", a ? "," : "", it->axis_name[a],
                                    it->axis_value[a]);
        if (gb_lpbm_predict_at(r, m, axes, &p) != GB_OK || !(p.time_ns > 0) || !isfinite(p.time_ns)) {
            snprintf(why, why_n, "it cannot predict configuration %zu (%.200s): %.200s", i + 1, axes,
                     gb_error_message());
            return 0;
        }
        bd->mean[i] = p.time_ns;
        bd->lo[i] = isfinite(p.lo_ns) ? p.lo_ns : p.time_ns;
        bd->hi[i] = isfinite(p.hi_ns) ? p.hi_ns : p.time_ns;
    }
    return 1;
}

static enum gb_status gb_tune_bd_fit(void *ctx, const struct gb_tune_space *s, const struct gb_tune_obs *obs,
                                     size_t n, char *why, size_t why_n)
{
    struct gb_tune_bd *bd = ctx;
    struct gb_run *run = NULL;
    struct gb_lpbm_fit_result r;
    struct gb_lpbm_fit_opts fo = {.spec = bd->spec[0] ? bd->spec : NULL, .bench = bd->bench, .form = -1,
                                  .weight = GB_LPBM_RELATIVE};
    enum gb_status st = GB_ERR_UNSUPPORTED;
    size_t k = 0, m;
    (void)s;
    memset(&r, 0, sizeof r);
    for (size_t i = 0; i < n; i++)
        k += obs[i].ok != 0;
    if (k < GB_LPBM_MIN_POINTS + 1) {
        snprintf(why, why_n, "%zu configuration(s) measured, %d needed", k, GB_LPBM_MIN_POINTS + 1);
        return GB_ERR_UNSUPPORTED;
    }
    if (gb_run_load(*bd->dir, &run) == GB_OK && !bd->reader)
        bd->reader = gb_inflight_reader_new(run, fo.spec);
    fo.counters = bd->reader ? gb_inflight_counter : NULL;
    fo.counters_ctx = bd->reader;
    if (!run || gb_lpbm_fit_run(run, &fo, &r) != GB_OK) {
        snprintf(why, why_n, "the fit failed: %.200s", gb_error_message());
        st = GB_ERR_NUMERIC;
        goto out;
    }
    if ((m = gb_tune_bd_pick(&r, bd->bench, why, why_n)) < r.n_models &&
        gb_tune_bd_predict_all(bd, &r, m, why, why_n))
        st = GB_OK;
out:
    gb_error_clear();
    gb_lpbm_fit_result_release(&r);
    gb_run_free(run);
    return st;
}

static void gb_tune_bd_predict(void *ctx, const struct gb_tune_space *s, size_t idx, double *mean, double *lo,
                               double *hi)
{
    const struct gb_tune_bd *bd = ctx;
    (void)s;
    *mean = bd->mean[idx];
    *lo = bd->lo[idx];
    *hi = bd->hi[idx];
}

enum gb_status gb_tune_bd_surrogate(struct gb_tune_bd *bd, struct gb_tune_surrogate *out)
{
    size_t n = bd->plan->n ? bd->plan->n : 1;
    if (!(bd->mean = calloc(n, sizeof *bd->mean)) || !(bd->lo = calloc(n, sizeof *bd->lo)) ||
        !(bd->hi = calloc(n, sizeof *bd->hi)))
        return gb_error_set(GB_ERR_NOMEM, "out of host memory making the breakdown surrogate");
    *out = (struct gb_tune_surrogate){.name = "breakdown", .fit = gb_tune_bd_fit, .predict = gb_tune_bd_predict,
                                      .release = NULL, .ctx = bd};
    return GB_OK;
}

void gb_tune_bd_release(struct gb_tune_bd *bd)
{
    free(bd->mean);
    free(bd->lo);
    free(bd->hi);
    bd->mean = bd->lo = bd->hi = NULL;
    gb_inflight_reader_free(bd->reader);
    bd->reader = NULL;
}
