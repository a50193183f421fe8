/* camp_point.c - a point recorded with `run --counters` as the model's
 * Nsight Compute input (include/gpubound/campprof.h): the record's
 * counters are Nsight Compute metrics, so the point becomes one launch
 * whose metrics carry the same names, with the launch's shape from the
 * point's own metrics where it records them. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gpubound/campprof.h"

/* Whether record `r` is BENCH ("suite/bench") with every pair of AXES. */
static int gb_point_matches(const struct gb_record *r, const char *bench, const char *axes)
{
    char want[160];
    snprintf(want, sizeof want, "%s/%s", r->suite, r->bench);
    if (strcmp(want, bench) != 0)
        return 0;
    for (const char *p = axes; *p;) {
        size_t len = strcspn(p, ","), eq;
        char pair[128];
        snprintf(pair, sizeof pair, "%.*s", (int)(len < sizeof pair ? len : sizeof pair - 1), p);
        eq = strcspn(pair, "=");
        if (!pair[eq])
            return 0;
        pair[eq] = '\0';
        const char *v = gb_record_axis(r, pair);
        if (!v || strcmp(v, pair + eq + 1) != 0)
            return 0;
        p += len;
        p += *p == ',';
    }
    return 1;
}

void gb_camp_point_find(const struct gb_run *run, const char *bench, const char *axes,
                        const struct gb_record **hit, size_t *n_hits)
{
    *n_hits = 0;
    for (size_t i = 0; i < run->n_records; i++)
        if (gb_point_matches(&run->records[i], bench, axes) && (*n_hits)++ == 0)
            *hit = &run->records[i];
}

static enum gb_status gb_point_metric(struct gb_ncu_launch *l, const char *name, double v)
{
    struct gb_ncu_metric *m = &l->metrics[l->n_metrics];
    if (!isfinite(v))
        return GB_OK;
    if (!(m->name = strdup(name)) || !(m->unit = strdup("")))
        return gb_error_set(GB_ERR_NOMEM, "out of host memory");
    m->value = v;
    l->n_metrics++;
    return GB_OK;
}

/* The one launch of record `r`. */
static enum gb_status gb_point_launch(const struct gb_record *r, struct gb_ncu_launch *l)
{
    static const char *const shape[][2] = {
        {"block_threads", GB_NCU_BLOCK}, {"grid_blocks", GB_NCU_GRID}, {"regs", GB_NCU_REGS},
        {"smem_static_bytes", GB_NCU_SMEM_STATIC}, {"smem_dynamic_bytes", GB_NCU_SMEM_DYNAMIC}};
    enum gb_status st = GB_OK;
    char kernel[160];
    snprintf(kernel, sizeof kernel, "%s/%s", r->suite, r->bench);
    if (!(l->metrics = calloc((size_t)r->counters.n + 8, sizeof *l->metrics)) || !(l->kernel = strdup(kernel)) ||
        !(l->block = strdup("")) || !(l->grid = strdup("")))
        return gb_error_set(GB_ERR_NOMEM, "out of host memory");
    for (int i = 0; i < r->counters.n && st == GB_OK; i++)
        st = gb_point_metric(l, r->counters.v[i].name, r->counters.v[i].value);
    for (size_t i = 0; i < sizeof shape / sizeof shape[0] && st == GB_OK; i++)
        st = gb_point_metric(l, shape[i][1], gb_record_metric(r, shape[i][0], NAN));
    if (st == GB_OK)
        st = gb_point_metric(l, GB_NCU_TIME, r->time_ns.median);
    return st;
}

enum gb_status gb_camp_point_report(const struct gb_record *r, struct gb_ncu_report **out)
{
    enum gb_status st;
    *out = NULL;
    if (!gb_record_has_counters(r))
        return gb_error_set(GB_ERR_FORMAT, "the point has no counters");
    if (!(*out = calloc(1, sizeof **out)) || !((*out)->launches = calloc(1, sizeof *(*out)->launches))) {
        st = gb_error_set(GB_ERR_NOMEM, "out of host memory");
        goto out;
    }
    (*out)->n_launches = 1;
    st = gb_point_launch(r, &(*out)->launches[0]);
out:
    if (st != GB_OK) {
        gb_ncu_free(*out);
        *out = NULL;
    }
    return st;
}
