/* campprof_records.c - the one adapter between run records and CampProf:
 * which records of suite "camping" the model reads, and how their axes and
 * metrics (names from gpubound/camp_counts.h) become the observations of
 * the fit (struct gb_camp_sample) and of the validation (struct
 * gb_camp_obs). Nothing else in the model knows a metric's name. */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gpubound/campprof.h"
#include "gpubound/numbers.h"
#include "gpubound/occupancy.h"

/* The axes of the micro-benchmark records. */
#define GB_CAMP_AXIS_WIDTH "width"
#define GB_CAMP_AXIS_WARPS "warps"
#define GB_CAMP_AXIS_PATTERN "pattern"
#define GB_CAMP_AXIS_PITCH "camp_pitch"

/* The camping level of a micro-benchmark record: its camp_pitch axis, 0 or
 * absent for the L2-slice class, > 0 for DRAM column order. */
static enum gb_camp_level gb_record_level(const struct gb_record *r)
{
    double pitch = gb_record_axis_num(r, GB_CAMP_AXIS_PITCH, 0);
    return pitch > 0 ? GB_CAMP_LEVEL_DRAM : GB_CAMP_LEVEL_L2;
}

/* Active warps per SM: the metric the suite recorded, else the warps axis. */
static double gb_record_warps(const struct gb_record *r)
{
    double warps = gb_record_metric(r, GB_CAMP_METRIC_ACTIVE_WARPS, NAN);
    if (!(warps > 0))
        warps = gb_record_axis_num(r, GB_CAMP_AXIS_WARPS, NAN);
    return warps;
}

/* ---- the fit's samples ---- */

/* The width class of a micro-benchmark record, or an error naming it. */
static enum gb_status gb_sample_class(const struct gb_run *run, const struct gb_record *r,
                                      int *wclass, double *width)
{
    *width = gb_record_axis_num(r, GB_CAMP_AXIS_WIDTH, NAN);
    *wclass = isfinite(*width) && *width == floor(*width) ? gb_camp_width_class((int)*width) : -1;
    if (*wclass >= 0)
        return GB_OK;
    const char *given = gb_record_axis(r, GB_CAMP_AXIS_WIDTH);
    return gb_error_set(GB_ERR_FORMAT, "%s: a %s/%s record has width '%s', not 1, 2, 4, 8 "
                        "or 16 bytes per thread", run->dir, GB_CAMP_SUITE, r->bench,
                        given ? given : "(none)");
}

/* One record of the equation's bench and pattern as a sample. */
static enum gb_status gb_sample_from(const struct gb_run *run, const struct gb_record *r,
                                     enum gb_camp_op op, struct gb_camp_sample *s)
{
    const char *bench = r->bench;
    double width;
    enum gb_status st = gb_sample_class(run, r, &s->wclass, &width);
    if (st != GB_OK)
        return st;
    double warps = gb_record_warps(r);
    if (!(warps > 0) || !isfinite(warps))
        return gb_error_set(GB_ERR_FORMAT, "%s: a %s/%s record (width %d) has neither an "
                            "%s metric nor a %s axis", run->dir, GB_CAMP_SUITE, bench,
                            (int)width, GB_CAMP_METRIC_ACTIVE_WARPS, GB_CAMP_AXIS_WARPS);
    const char *mname = gb_camp_req_metric(op == GB_CAMP_WRITE, s->wclass);
    double k = gb_record_metric(r, mname, NAN);
    if (!(k > 0) || !isfinite(k))
        return gb_error_set(GB_ERR_FORMAT, "%s: the %s/%s record at width %d, %g warps lacks "
                            "the metric %s (warp-level instructions per launch) that the "
                            "normalisation needs", run->dir, GB_CAMP_SUITE, bench, (int)width,
                            warps, mname);
    if (!(r->time_ns.median > 0) || !isfinite(r->time_ns.median))
        return gb_error_set(GB_ERR_FORMAT, "%s: the %s/%s record at width %d, %g warps has no "
                            "median time", run->dir, GB_CAMP_SUITE, bench, (int)width, warps);
    s->time_ns = r->time_ns.median;
    s->warps = warps;
    s->instr = k;
    s->sectors = gb_record_metric(r, gb_camp_sectors_metric(op == GB_CAMP_WRITE), NAN);
    return GB_OK;
}

enum gb_status gb_camp_records_samples(const struct gb_run *run, enum gb_camp_op op,
                                       enum gb_camp_pattern pattern, enum gb_camp_level level,
                                       struct gb_camp_sample **out, size_t *n_out)
{
    enum gb_status st = GB_OK;
    const char *bench = gb_camp_op_name(op), *pat = gb_camp_pattern_name(pattern);
    struct gb_camp_sample *s = malloc((run->n_records + 1) * sizeof *s);
    size_t n = 0;
    *out = NULL;
    *n_out = 0;
    if (!s)
        return gb_error_set(GB_ERR_NOMEM, "out of host memory fitting the CampProf model");
    for (size_t i = 0; i < run->n_records && st == GB_OK; i++) {
        const struct gb_record *r = &run->records[i];
        if (strcmp(r->suite, GB_CAMP_SUITE) != 0 || strcmp(r->bench, bench) != 0 ||
            r->status != GB_REC_OK ||
            (level != GB_CAMP_LEVEL_UNKNOWN && gb_record_level(r) != level))
            continue;
        const char *p = gb_record_axis(r, GB_CAMP_AXIS_PATTERN);
        if (!p)
            st = gb_error_set(GB_ERR_FORMAT, "%s: a %s/%s record has no %s axis", run->dir,
                              GB_CAMP_SUITE, bench, GB_CAMP_AXIS_PATTERN);
        else if (strcmp(p, pat) == 0 && (st = gb_sample_from(run, r, op, &s[n])) == GB_OK)
            n++;
    }
    if (st == GB_OK && n == 0)
        st = gb_error_set(GB_ERR_FORMAT, "%s has no measured %s/%s records with pattern=%s; "
                          "the model needs reads and writes, spread and camped", run->dir,
                          GB_CAMP_SUITE, bench, pat);
    if (st != GB_OK) {
        free(s);
        return st;
    }
    *out = s;
    *n_out = n;
    return GB_OK;
}

/* ---- the camping level ---- */

/* The median over the camped reads of `level` of their time over the
 * spread read's of the same level, width and warps; NaN when none pair. */
static double gb_level_slowdown(const struct gb_run *run, enum gb_camp_level level)
{
    double *ratio = malloc((run->n_records + 1) * sizeof *ratio), med = NAN;
    size_t n = 0;
    if (!ratio)
        return NAN;
    for (size_t i = 0; i < run->n_records; i++) {
        const struct gb_record *c = &run->records[i];
        const char *p = gb_record_axis(c, GB_CAMP_AXIS_PATTERN);
        if (strcmp(c->suite, GB_CAMP_SUITE) || strcmp(c->bench, "read") || c->status != GB_REC_OK ||
            !p || strcmp(p, "camped") || gb_record_level(c) != level)
            continue;
        for (size_t j = 0; j < run->n_records; j++) {
            const struct gb_record *s = &run->records[j];
            const char *q = gb_record_axis(s, GB_CAMP_AXIS_PATTERN);
            if (strcmp(s->suite, GB_CAMP_SUITE) || strcmp(s->bench, "read") ||
                s->status != GB_REC_OK || !q || strcmp(q, "spread") || gb_record_level(s) != level ||
                gb_record_axis_num(s, GB_CAMP_AXIS_WIDTH, -1) != gb_record_axis_num(c, GB_CAMP_AXIS_WIDTH, -2) ||
                gb_record_warps(s) != gb_record_warps(c) || !(s->time_ns.median > 0))
                continue;
            ratio[n++] = c->time_ns.median / s->time_ns.median;
            break;
        }
    }
    if (n)
        med = gb_stats_median(ratio, n);
    free(ratio);
    return med;
}

enum gb_camp_level gb_camp_records_level(const struct gb_run *run)
{
    int have[2] = {0, 0};
    for (size_t i = 0; i < run->n_records; i++) {
        const struct gb_record *r = &run->records[i];
        if (strcmp(r->suite, GB_CAMP_SUITE) == 0 && r->status == GB_REC_OK &&
            (strcmp(r->bench, "read") == 0 || strcmp(r->bench, "write") == 0))
            have[gb_record_level(r)] = 1;
    }
    if (have[0] && have[1]) {
        double l2 = gb_level_slowdown(run, GB_CAMP_LEVEL_L2);
        double dram = gb_level_slowdown(run, GB_CAMP_LEVEL_DRAM);
        return dram > l2 ? GB_CAMP_LEVEL_DRAM : GB_CAMP_LEVEL_L2;
    }
    return have[1] ? GB_CAMP_LEVEL_DRAM : have[0] ? GB_CAMP_LEVEL_L2 : GB_CAMP_LEVEL_UNKNOWN;
}

/* ---- the validation's observations ---- */

/* Reads the count metric of one op and class: required for the classes the
 * suite records, zero when absent below them. */
static enum gb_status gb_obs_count(const struct gb_record *r, int is_store, int c, double *v)
{
    const char *name = gb_camp_req_metric(is_store, c);
    double x = gb_record_metric(r, name, NAN);
    if (isnan(x) && c < GB_CAMP_RECORDED_CLASS_MIN)
        x = 0;
    if (!(x >= 0) || !isfinite(x))
        return gb_error_set(GB_ERR_FORMAT, "the %s/%s record at %g warps %s the metric %s "
                            "(warp-level %s instructions of %d bytes per thread per launch)",
                            r->suite, r->bench, gb_record_warps(r),
                            isnan(x) ? "lacks" : "has a negative or infinite value of", name,
                            is_store ? "store" : "load", gb_camp_class_width(c));
    *v = x;
    return GB_OK;
}

enum gb_status gb_camp_record_obs(const struct gb_record *r, struct gb_camp_obs *o)
{
    enum gb_status st = GB_OK;
    int any = 0;
    memset(o, 0, sizeof *o);
    o->record = SIZE_MAX;
    o->inflight_bytes = NAN;
    for (int c = 0; c < GB_CAMP_N_WIDTHS; c++)
        for (int is_store = 0; is_store < 2; is_store++)
            any |= !isnan(gb_record_metric(r, gb_camp_req_metric(is_store, c), NAN));
    if (!any)
        return gb_error_set(GB_ERR_FORMAT, "the %s/%s record lacks the ld_req_<width> and "
                            "st_req_<width> metrics", r->suite, r->bench);
    o->warps = gb_record_warps(r);
    o->time_ns = r->time_ns.median;
    if (!(o->warps > 0) || !(o->time_ns > 0))
        return gb_error_set(GB_ERR_FORMAT, "the %s/%s record lacks its active warps or its time",
                            r->suite, r->bench);
    for (int c = 0; c < GB_CAMP_N_WIDTHS && st == GB_OK; c++)
        if ((st = gb_obs_count(r, 0, c, &o->counts.ld[c])) == GB_OK)
            st = gb_obs_count(r, 1, c, &o->counts.st[c]);
    o->counts.ld_sectors = gb_record_metric(r, GB_CAMP_METRIC_LD_SECTORS, NAN);
    o->counts.st_sectors = gb_record_metric(r, GB_CAMP_METRIC_ST_SECTORS, NAN);
    return st;
}

/* ---- kernel-spec points ---- */

/* The spec contract's metric of a point's active warps per SM (the
 * occupancy calculator's, SPEC-CONTRACT.md). */
#define GB_CAMP_SPEC_WARPS "active_warps_per_sm"

/* A profiler counter of a record: the in-process profiler's value under
 * its Nsight Compute name (the record's "counters", run --counters), else a
 * suite metric of that name or of the short name `alias` (ld_requests,
 * ld_sectors, st_requests, st_sectors). NaN when absent. */
static double gb_camp_counter(const struct gb_record *r, const char *name, const char *alias)
{
    double v = gb_record_counter(r, name, NAN);
    if (isnan(v))
        v = gb_record_metric(r, name, NAN);
    return isnan(v) && alias ? gb_record_metric(r, alias, NAN) : v;
}

/* The widths the camping suite measures, for splitting requests by sectors. */
static void gb_spec_widths(struct gb_camp_equation *eq)
{
    memset(eq, 0, sizeof *eq);
    for (int c = GB_CAMP_RECORDED_CLASS_MIN; c < GB_CAMP_N_WIDTHS; c++)
        eq->widths[eq->n_widths++] = gb_camp_class_width(c);
}

enum gb_status gb_camp_spec_obs(const struct gb_record *r, struct gb_camp_obs *o, int *from_counters)
{
    struct gb_camp_equation eq;
    enum gb_status st;
    memset(o, 0, sizeof *o);
    o->record = SIZE_MAX;
    o->inflight_bytes = NAN;
    o->warps = gb_record_metric(r, GB_CAMP_SPEC_WARPS, NAN);
    o->limit_warps = o->achieved_warps = o->warps;
    o->measured_warps = gb_record_counter(r, GB_CAMP_WARPS_ACTIVE, NAN);
    o->grid_blocks = gb_record_metric(r, "grid_blocks", NAN);
    o->bytes = r->bytes > 0 ? r->bytes : NAN;
    o->time_ns = r->time_ns.median;
    o->hot = r->cache == GB_CACHE_HOT;
    o->dram_read_bytes = 32 * gb_record_counter(r, GB_NCU_DRAM_READ_SECTORS, NAN);
    o->dram_write_bytes = 32 * gb_record_counter(r, GB_NCU_DRAM_WRITE_SECTORS, NAN);
    o->l2_read_bytes = 32 * gb_record_counter(r, GB_NCU_L2_READ_SECTORS, NAN);
    o->l2_write_bytes = 32 * gb_record_counter(r, GB_NCU_L2_WRITE_SECTORS, NAN);
    if (!(o->warps > 0) || !(o->time_ns > 0) || !isfinite(o->time_ns))
        return gb_error_set(GB_ERR_FORMAT, "the %s/%s record lacks its %s or its time", r->suite,
                            r->bench, GB_CAMP_SPEC_WARPS);
    gb_spec_widths(&eq);
    double ldr = gb_camp_counter(r, GB_NCU_LD_REQUESTS, "ld_requests");
    double lds = gb_camp_counter(r, GB_NCU_LD_SECTORS, GB_CAMP_METRIC_LD_SECTORS);
    double str = gb_camp_counter(r, GB_NCU_ST_REQUESTS, "st_requests");
    double sts = gb_camp_counter(r, GB_NCU_ST_SECTORS, GB_CAMP_METRIC_ST_SECTORS);
    if (isnan(ldr))
        ldr = gb_camp_counter(r, GB_NCU_LD_INST, NULL);
    if (isnan(str))
        str = gb_camp_counter(r, GB_NCU_ST_INST, NULL);
    *from_counters = !isnan(ldr) && !isnan(lds) && !isnan(str) && !isnan(sts);
    if (*from_counters) {
        if ((st = gb_camp_split_requests(&eq, ldr, lds, o->counts.ld)) != GB_OK ||
            (st = gb_camp_split_requests(&eq, str, sts, o->counts.st)) != GB_OK)
            return gb_error_set(st, "the %s/%s record's counters: %s", r->suite, r->bench,
                                gb_error_message());
        o->counts.ld_sectors = lds;
        o->counts.st_sectors = sts;
        return GB_OK;
    }
    /* No counters: the bytes the spec declares, as 4-byte loads (one
     * element of a float or int per thread, 128 bytes per warp). */
    if (!(r->bytes > 0) || !isfinite(r->bytes))
        return gb_error_set(GB_ERR_FORMAT, "the %s/%s record has neither the profiler's counters "
                            "(%s, %s) nor the bytes it moves", r->suite, r->bench,
                            GB_NCU_LD_REQUESTS, GB_NCU_LD_SECTORS);
    o->counts.ld[gb_camp_width_class(4)] = r->bytes / 128.0;
    o->counts.ld_sectors = r->bytes / 32.0;
    o->counts.st_sectors = 0;
    return GB_OK;
}

void gb_camp_spec_achieved(const struct gb_device_info *dev, struct gb_camp_obs *o,
                           double block_threads)
{
    struct gb_occupancy_achieved a;
    int warp = dev && dev->warp_size > 0 ? dev->warp_size : 32;
    if (block_threads >= 1 && o->grid_blocks >= 1 && dev && dev->sm_count > 0 && o->limit_warps > 0) {
        int wpb = (int)ceil(block_threads / warp);
        int blocks = (int)lround(o->limit_warps / wpb);
        if (blocks >= 1 && gb_occupancy_achieved((long)o->grid_blocks, wpb, blocks, dev->sm_count,
                                                 &a) == GB_OK)
            o->achieved_warps = a.warps_per_sm;
    }
    o->warps = o->measured_warps > 0 ? o->measured_warps : o->achieved_warps;
}

/* "suite/bench axis=value ..." of every axis but block_size_* and
 * occupancy_* (an axis that only changes how many blocks are resident, such
 * as unused dynamic shared memory): the configurations of one problem,
 * which vary the active warps per SM. */
static void gb_spec_label(const struct gb_record *r, char *label, size_t size)
{
    size_t len = (size_t)snprintf(label, size, "%s/%s", r->suite, r->bench);
    for (int k = 0; k < r->n_axes && len < size; k++)
        if (strncmp(r->axes[k].name, "block_size", 10) != 0 &&
            strncmp(r->axes[k].name, "occupancy_", 10) != 0)
            len += (size_t)snprintf(label + len, size - len, " %s=%s", r->axes[k].name,
                                    r->axes[k].value);
}

/* ---- applications ---- */

void gb_camp_apps_free(struct gb_camp_app *apps, size_t n)
{
    for (size_t k = 0; k < n && apps; k++) {
        free(apps[k].obs);
        free(apps[k].ci_lo_ns);
        free(apps[k].ci_hi_ns);
    }
    free(apps);
}

/* "bench axis=value ..." of every axis but warps: one application's
 * configurations share it. */
static void gb_app_label(const struct gb_record *r, char *label, size_t size)
{
    size_t len = (size_t)snprintf(label, size, "%s", r->bench);
    for (int k = 0; k < r->n_axes && len < size; k++)
        if (strcmp(r->axes[k].name, GB_CAMP_AXIS_WARPS) != 0)
            len += (size_t)snprintf(label + len, size - len, " %s=%s", r->axes[k].name,
                                    r->axes[k].value);
}

/* The group labelled `label`, added when new; NULL when out of memory. */
static struct gb_camp_app *gb_app_group(const struct gb_run *run, struct gb_camp_app **apps, size_t *n,
                                        const struct gb_record *r, const char *label)
{
    for (size_t i = 0; i < *n; i++)
        if (strcmp((*apps)[i].label, label) == 0)
            return &(*apps)[i];
    struct gb_camp_app *g = realloc(*apps, (*n + 1) * sizeof *g);
    if (!g)
        return NULL;
    *apps = g;
    g = &g[(*n)++];
    memset(g, 0, sizeof *g);
    snprintf(g->bench, sizeof g->bench, "%s", r->bench);
    snprintf(g->label, sizeof g->label, "%s", label);
    g->title = gb_camp_app_title(r->bench);
    g->sm_count = run->info.has_device ? run->info.device.sm_count : 0;
    return g;
}

/* Room for one more configuration in `g`. */
static enum gb_status gb_app_reserve(struct gb_camp_app *g)
{
    if (g->n < g->cap)
        return GB_OK;
    size_t cap = g->cap ? 2 * g->cap : 16;
    struct gb_camp_obs *o = realloc(g->obs, cap * sizeof *o);
    if (o)
        g->obs = o;
    double *lo = o ? realloc(g->ci_lo_ns, cap * sizeof *lo) : NULL;
    if (lo)
        g->ci_lo_ns = lo;
    double *hi = lo ? realloc(g->ci_hi_ns, cap * sizeof *hi) : NULL;
    if (hi)
        g->ci_hi_ns = hi;
    if (!hi)
        return gb_error_set(GB_ERR_NOMEM, "out of host memory");
    g->cap = cap;
    return GB_OK;
}

/* Sorts a group by warps (stable: an insertion sort), keeping the CIs
 * beside their points. */
static void gb_app_sort(struct gb_camp_app *g)
{
    for (size_t i = 1; i < g->n; i++)
        for (size_t j = i; j > 0 && g->obs[j - 1].warps > g->obs[j].warps; j--) {
            struct gb_camp_obs to = g->obs[j];
            g->obs[j] = g->obs[j - 1];
            g->obs[j - 1] = to;
            double tl = g->ci_lo_ns[j], th = g->ci_hi_ns[j];
            g->ci_lo_ns[j] = g->ci_lo_ns[j - 1];
            g->ci_hi_ns[j] = g->ci_hi_ns[j - 1];
            g->ci_lo_ns[j - 1] = tl;
            g->ci_hi_ns[j - 1] = th;
        }
}

/* Adds record `r` of an application (spec: a kernel-spec point) to its group. */
static enum gb_status gb_app_add(const struct gb_run *run, size_t i, int spec, struct gb_camp_app **apps,
                                 size_t *n)
{
    const struct gb_record *r = &run->records[i];
    char label[sizeof((*apps)->label)];
    int from_counters = 0;
    if (spec)
        gb_spec_label(r, label, sizeof label);
    else
        gb_app_label(r, label, sizeof label);
    struct gb_camp_app *g = gb_app_group(run, apps, n, r, label);
    if (!g)
        return gb_error_set(GB_ERR_NOMEM, "out of host memory");
    enum gb_status st = gb_app_reserve(g);
    if (st != GB_OK)
        return st;
    if (spec && !g->n)
        g->title = "kernel spec";
    st = spec ? gb_camp_spec_obs(r, &g->obs[g->n], &from_counters) : gb_camp_record_obs(r, &g->obs[g->n]);
    if (spec && st == GB_OK)
        gb_camp_spec_achieved(run->info.has_device ? &run->info.device : NULL, &g->obs[g->n],
                              gb_record_metric(r, "block_threads", NAN));
    g->from_bytes += spec && !from_counters;
    if (st != GB_OK) {
        char msg[512];
        snprintf(msg, sizeof msg, "%s", gb_error_message());
        return gb_error_set(st, "%s: %s", run->dir, msg);
    }
    g->obs[g->n].record = i;
    g->ci_lo_ns[g->n] = r->time_ns.ci_lo;
    g->ci_hi_ns[g->n] = r->time_ns.ci_hi;
    g->n++;
    return GB_OK;
}

enum gb_status gb_camp_records_apps(const struct gb_run *run, struct gb_camp_app **out,
                                    size_t *n_out)
{
    enum gb_status st = GB_OK;
    struct gb_camp_app *apps = NULL;
    size_t n = 0;
    *out = NULL;
    *n_out = 0;
    for (size_t i = 0; i < run->n_records && st == GB_OK; i++) {
        const struct gb_record *r = &run->records[i];
        if (r->status != GB_REC_OK)
            continue;
        if (strcmp(r->suite, GB_CAMP_SUITE) == 0 && gb_camp_app_title(r->bench))
            st = gb_app_add(run, i, 0, &apps, &n);
        else if (strcmp(r->suite, GB_CAMP_SUITE) != 0 &&
                 gb_record_metric(r, GB_CAMP_SPEC_WARPS, NAN) > 0)
            st = gb_app_add(run, i, 1, &apps, &n);
    }
    if (st != GB_OK) {
        gb_camp_apps_free(apps, n);
        return st;
    }
    for (size_t g = 0; g < n; g++)
        gb_app_sort(&apps[g]);
    *out = apps;
    *n_out = n;
    return GB_OK;
}
