/* camp_detect.c - partition camping judged from counters
 * (include/gpubound/camp_detect.h). */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "gpubound/camp_detect.h"

static const struct {
    const char *what, *metric;
} gb_units[GB_CAMP_DETECT_UNITS] = {
    {"L2 slices", "lts__t_sectors"},
    {"DRAM partitions (reads)", "dram__sectors_read"},
    {"DRAM partitions (writes)", "dram__sectors_write"},
};

static int gb_spread(const struct gb_counters *c, const char *metric, struct gb_counter_spread *s)
{
    return c && gb_counter_spread_of(c, metric, s) == GB_OK;
}

void gb_camp_detect(const struct gb_counters *point, const struct gb_counters *spread,
                    const struct gb_counters *camped, struct gb_camp_detect *out)
{
    memset(out, 0, sizeof *out);
    for (int i = 0; i < GB_CAMP_DETECT_UNITS; i++) {
        struct gb_camp_detect_unit *u = &out->u[i];
        u->what = gb_units[i].what;
        u->metric = gb_units[i].metric;
        u->have = gb_spread(point, u->metric, &u->point);
        u->have_spread = gb_spread(spread, u->metric, &u->spread);
        u->have_camped = gb_spread(camped, u->metric, &u->camped);
        u->x_spread = u->x_camped = NAN;
        u->on = NAN;
        u->share = u->have && u->point.sum > 0 ? u->point.max / u->point.sum : NAN;
        u->share_spread = u->have_spread && u->spread.sum > 0 ? u->spread.max / u->spread.sum : NAN;
        u->share_camped = u->have_camped && u->camped.sum > 0 ? u->camped.max / u->camped.sum : NAN;
        if (!u->have)
            continue;
        u->on = isfinite(u->point.effective) ? fmax(1.0, round(u->point.effective)) : NAN;
        if (u->have_spread && u->spread.max_mean > 0)
            u->x_spread = u->point.max_mean / u->spread.max_mean;
        if (u->have_camped && u->camped.max_mean > 0)
            u->x_camped = u->point.max_mean / u->camped.max_mean;
        u->judged = u->point.units > 0 && u->point.sum >= GB_CAMP_DETECT_MIN_SECTORS * u->point.units && isfinite(u->x_spread);
        u->is_camped = u->judged && u->x_spread >= GB_CAMP_DETECT_FACTOR;
    }
}

void gb_camp_detect_verdict(const struct gb_camp_detect_unit *u, char *buf, size_t n)
{
    if (!u->have)
        snprintf(buf, n, "%s: not profiled (no %s rollups or instances)", u->what, u->metric);
    else if (!u->have_spread)
        snprintf(buf, n, "%s: max/mean %.3g, not judged (no spread reference)", u->what, u->point.max_mean);
    else if (!u->judged)
        snprintf(buf, n, "%s: not judged (%.0f sectors over %.0f instances: too little traffic)", u->what,
                 u->point.sum, u->point.units);
    else if (u->is_camped)
        snprintf(buf, n, "%s: camped on %.0f of %.0f %s, %.3g times the spread reference (max/mean %.3g)",
                 u->what, u->on, u->point.units, strchr(u->what, 'L') == u->what ? "slices" : "partitions",
                 u->x_spread, u->point.max_mean);
    else
        snprintf(buf, n, "%s: not camped: max/mean %.3g, %.3g times the spread reference", u->what,
                 u->point.max_mean, u->x_spread);
}

/* ---- the references ---- */

const char *const gb_camp_detect_metrics[GB_CAMP_DETECT_N_METRICS] = {
    "lts__t_sectors.sum", "dram__sectors_read.sum", "dram__sectors_write.sum"};

const char *const gb_camp_detect_ref_sets[GB_CAMP_DETECT_N_REF_SETS] = {"pattern=spread,camped", "width=4",
                                                                        "warps=64"};

static int gb_is_ref_bench(const struct gb_record *r)
{
    return !strcmp(r->suite, "camping") && !strcmp(r->bench, "read");
}

const struct gb_record *gb_camp_detect_ref(const struct gb_record *recs, size_t n, const char *pattern)
{
    const struct gb_record *best = NULL;
    for (size_t i = 0; i < n; i++) {
        const struct gb_record *r = &recs[i];
        const char *p = gb_record_axis(r, "pattern"), *w = gb_record_axis(r, "width");
        if (!gb_is_ref_bench(r) || !p || strcmp(p, pattern) || !gb_record_has_counters(r))
            continue;
        if (!best || (w && !strcmp(w, "4") && gb_record_axis_num(r, "warps", 0) == 64))
            best = r;
    }
    return best;
}

size_t gb_camp_detect_n_refs(const struct gb_record *recs, size_t n)
{
    size_t k = 0;
    while (k < n && k < 2 && gb_is_ref_bench(&recs[k]))
        k++;
    return k;
}
