/* camp_from_point.c - `camp predict --from-point RUN:BENCH:AXES`: the
 * counts of a point recorded with `run --counters`, handed to the model's
 * Nsight Compute adapter as one launch whose metrics carry the same names
 * (the record's counters are Nsight Compute metrics), with the launch's
 * shape from the point's own metrics where it records them. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/cmd_camp.h"
#include "gpubound/campprof.h"
#include "gpubound/ncu.h"
#include "gpubound/results.h"

/* Whether record `r` is BENCH ("suite/bench") with every pair of AXES
 * ("a=1,b=2"; "" matches any). */
static int point_matches(const struct gb_record *r, const char *bench, const char *axes)
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

static enum gb_status point_metric(struct gb_ncu_launch *l, const char *name, double v)
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

/* The one launch of record `r`: every counter, and the launch's shape from
 * the spec contract's point metrics (block_threads, grid_blocks, regs,
 * smem_static_bytes, smem_dynamic_bytes) where present. */
static enum gb_status point_launch(const struct gb_record *r, struct gb_ncu_launch *l)
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
        st = point_metric(l, r->counters.v[i].name, r->counters.v[i].value);
    for (size_t i = 0; i < sizeof shape / sizeof shape[0] && st == GB_OK; i++)
        st = point_metric(l, shape[i][1], gb_record_metric(r, shape[i][0], NAN));
    if (st == GB_OK)
        st = point_metric(l, GB_NCU_TIME, r->time_ns.median);
    return st;
}

int camp_cli_point_report(const char *spec, struct gb_ncu_report **out)
{
    char run_dir[4096], bench[160];
    const char *c1 = strchr(spec, ':'), *c2 = c1 ? strchr(c1 + 1, ':') : NULL;
    struct gb_run *run = NULL;
    const struct gb_record *hit = NULL;
    size_t n_hits = 0;
    int rc = GB_EXIT_OK;
    *out = NULL;
    if (!c1 || (size_t)(c1 - spec) >= sizeof run_dir || (c2 && (size_t)(c2 - c1) > sizeof bench))
        return gb_cli_usage("camp", "predict: --from-point needs RUN:SUITE/BENCH[:AXIS=V,...], not '%s'", spec);
    snprintf(run_dir, sizeof run_dir, "%.*s", (int)(c1 - spec), spec);
    snprintf(bench, sizeof bench, "%.*s", (int)(c2 ? c2 - c1 - 1 : (long)strlen(c1 + 1)), c1 + 1);
    if (gb_cli_load_run(run_dir, &run) != GB_OK)
        return gb_cli_fail(GB_ERR_FORMAT, "camp predict --from-point", "give a run directory recorded with 'run --counters'");
    for (size_t i = 0; i < run->n_records; i++)
        if (point_matches(&run->records[i], bench, c2 ? c2 + 1 : "") && n_hits++ == 0)
            hit = &run->records[i];
    if (n_hits != 1)
        rc = gb_cli_usage("camp", "predict: --from-point %s names %zu records of %s; give the axes that "
                          "pick one (AXIS=V,...)", spec, n_hits, run_dir);
    else if (!gb_record_has_counters(hit))
        rc = gb_cli_fail(gb_error_set(GB_ERR_FORMAT, "%s: the point has no counters", spec),
                         "camp predict --from-point", "record it with 'gpubound run ... --counters'");
    else if (!(*out = calloc(1, sizeof **out)) || !((*out)->launches = calloc(1, sizeof *(*out)->launches)))
        rc = gb_cli_fail(gb_error_set(GB_ERR_NOMEM, "out of host memory"), "camp predict", NULL);
    else if (((*out)->n_launches = 1, point_launch(hit, &(*out)->launches[0])) != GB_OK)
        rc = gb_cli_fail(GB_ERR_NOMEM, "camp predict", NULL);
    if (rc != GB_EXIT_OK) {
        gb_ncu_free(*out);
        *out = NULL;
    }
    gb_run_free(run);
    return rc;
}
