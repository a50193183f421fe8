/* compare.c - a comparison of runs as a table, JSON and a chart
 * (compare_report.h). */
#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gpubound/compare_report.h"

/* The notes of a point: what differs between its sides. */
static void gb_cmp_notes(const struct gb_cmp_point *p, char *buf, size_t n)
{
    size_t len = 0;
    buf[0] = '\0';
    if ((p->warn & GB_CMP_WARN_THROTTLED) && len < n)
        len += (size_t)snprintf(buf + len, n - len, "%sthrottled", len ? "; " : "");
    if ((p->warn & GB_CMP_WARN_CLOCK) && len < n)
        len += (size_t)snprintf(buf + len, n - len, "%sclock %.0f/%.0f MHz", len ? "; " : "", p->mhz_base,
                                p->mhz_new);
    if ((p->warn & GB_CMP_WARN_CONVERGED) && len < n)
        len += (size_t)snprintf(buf + len, n - len, "%sconverged on one side only", len ? "; " : "");
    if ((p->warn & GB_CMP_WARN_FEW) && len < n)
        snprintf(buf + len, n - len, "%stoo few samples for the interval", len ? "; " : "");
}

static enum gb_status gb_cmp_columns(struct gb_table *t, int anchored)
{
    static const char *const cols[][2] = {
        {"point", NULL}, {"base", "ns"}, {"new", "ns"}, {"ratio", NULL}, {"lo", NULL}, {"hi", NULL},
        {"p", NULL}, {"verdict", NULL}, {"method", NULL}};
    enum gb_status st = GB_OK;
    for (size_t i = 0; i < sizeof cols / sizeof cols[0] && st == GB_OK; i++)
        st = gb_table_column(t, cols[i][0], cols[i][1]);
    if (anchored && st == GB_OK && (st = gb_table_column(t, "anchored", NULL)) == GB_OK &&
        (st = gb_table_column(t, "anchored_lo", NULL)) == GB_OK)
        st = gb_table_column(t, "anchored_hi", NULL);
    return st == GB_OK ? gb_table_column(t, "notes", NULL) : st;
}

/* A ratio and its interval as three cells, all three to the decimal place
 * the interval warrants and deep enough to tell its ends from 1
 * (gb_format_ratio_place); 4 digits without an interval. */
static enum gb_status gb_cmp_interval(struct gb_table *t, double v, double lo, double hi)
{
    enum gb_status st = GB_OK;
    double x[3] = {v, lo, hi};
    int place;
    int at = gb_format_ratio_place(v, lo, hi, &place);
    for (int k = 0; k < 3 && st == GB_OK; k++)
        st = at ? gb_table_cell_place(t, x[k], place) : gb_table_cell_num(t, x[k], 4);
    return st;
}

/* "1.0002 [0.9986, 1.0018]": a ratio and its interval as the table's
 * columns write them. */
static void gb_cmp_interval_text(double v, double lo, double hi, char *buf, size_t n)
{
    char t[3][64];
    double x[3] = {v, lo, hi};
    int place;
    int at = gb_format_ratio_place(v, lo, hi, &place);
    for (int k = 0; k < 3; k++) {
        if (at)
            gb_format_place(t[k], sizeof t[k], x[k], place);
        else
            gb_format_num(t[k], sizeof t[k], x[k], 4);
    }
    snprintf(buf, n, "%s [%s, %s]", t[0], t[1], t[2]);
}

static enum gb_status gb_cmp_row(struct gb_table *t, const struct gb_cmp_point *p, int anchored)
{
    char notes[256];
    enum gb_status st;
    gb_cmp_notes(p, notes, sizeof notes);
    if ((st = gb_table_row(t)) != GB_OK || (st = gb_table_cell_text(t, p->name)) != GB_OK ||
        (st = gb_table_cell_num(t, p->base_ns, 6)) != GB_OK || (st = gb_table_cell_num(t, p->new_ns, 6)) != GB_OK ||
        (st = gb_cmp_interval(t, p->s.ratio, p->s.lo, p->s.hi)) != GB_OK || (st = gb_table_cell_num(t, p->s.p, 2)) != GB_OK ||
        (st = gb_table_cell_text(t, gb_cmp_verdict_name(p->verdict))) != GB_OK ||
        (st = gb_table_cell_text(t, gb_cmp_method_name(p->s.method))) != GB_OK)
        return st;
    if (anchored && (st = gb_cmp_interval(t, p->anchored, p->anchored_lo, p->anchored_hi)) != GB_OK)
        return st;
    return gb_table_cell_text(t, notes);
}

enum gb_status gb_report_compare_table(const struct gb_cmp_result *r, const struct gb_cmp_context *ctx,
                                       struct gb_table **out)
{
    struct gb_table *t = gb_table_new();
    enum gb_status st;
    *out = NULL;
    if (!t)
        return gb_error_set(GB_ERR_NOMEM, "out of host memory");
    st = gb_cmp_columns(t, ctx->anchored);
    for (size_t i = 0; i < r->n_points && st == GB_OK; i++)
        st = gb_cmp_row(t, &r->points[i], ctx->anchored);
    if (st != GB_OK) {
        gb_table_free(t);
        return st;
    }
    *out = t;
    return GB_OK;
}

void gb_report_compare_summary(const struct gb_cmp_result *r, const struct gb_cmp_context *ctx, char *buf,
                               size_t n)
{
    char lost[160] = "", gm[256];
    if (r->n_only_base)
        snprintf(lost, sizeof lost, "; %zu measured in base and not in new (%zu failed, %zu skipped, %zu missing)",
                 r->n_only_base, r->n_lost[GB_CMP_LOST_FAILED], r->n_lost[GB_CMP_LOST_SKIPPED],
                 r->n_lost[GB_CMP_LOST_MISSING]);
    gb_cmp_interval_text(r->geomean, r->geomean_lo, r->geomean_hi, gm, sizeof gm);
    snprintf(buf, n, "%zu faster, %zu slower, %zu unchanged of %zu points%s; geometric-mean ratio %s (%g%% CI)",
             r->n_faster, r->n_slower, r->n_same, r->n_points, lost, gm, 100 * (1 - ctx->alpha));
}

/* ---- JSON ---- */

static json_t *gb_cmp_real(double v)
{
    return isfinite(v) ? json_real(v) : json_null();
}

static json_t *gb_cmp_point_json(const struct gb_cmp_point *p, int anchored)
{
    char notes[256];
    gb_cmp_notes(p, notes, sizeof notes);
    json_t *o = json_object();
    json_object_set_new(o, "point", json_string(p->name));
    json_object_set_new(o, "base_ns", gb_cmp_real(p->base_ns));
    json_object_set_new(o, "new_ns", gb_cmp_real(p->new_ns));
    json_object_set_new(o, "median_ratio", gb_cmp_real(p->median_ratio));
    json_object_set_new(o, "ratio", gb_cmp_real(p->s.ratio));
    json_object_set_new(o, "lo", gb_cmp_real(p->s.lo));
    json_object_set_new(o, "hi", gb_cmp_real(p->s.hi));
    json_object_set_new(o, "p", gb_cmp_real(p->s.p));
    json_object_set_new(o, "verdict", json_string(gb_cmp_verdict_name(p->verdict)));
    json_object_set_new(o, "method", json_string(gb_cmp_method_name(p->s.method)));
    json_object_set_new(o, "n_base", json_integer(p->n_base));
    json_object_set_new(o, "n_new", json_integer(p->n_new));
    json_object_set_new(o, "sm_mhz_base", gb_cmp_real(p->mhz_base > 0 ? p->mhz_base : NAN));
    json_object_set_new(o, "sm_mhz_new", gb_cmp_real(p->mhz_new > 0 ? p->mhz_new : NAN));
    if (anchored) {
        json_object_set_new(o, "anchored", gb_cmp_real(p->anchored));
        json_object_set_new(o, "anchored_lo", gb_cmp_real(p->anchored_lo));
        json_object_set_new(o, "anchored_hi", gb_cmp_real(p->anchored_hi));
    }
    json_object_set_new(o, "notes", json_string(notes));
    return o;
}

static json_t *gb_cmp_names_json(char **v, size_t n)
{
    json_t *a = json_array();
    for (size_t i = 0; i < n; i++)
        json_array_append_new(a, json_string(v[i]));
    return a;
}

static json_t *gb_cmp_summary_json(const struct gb_cmp_result *r)
{
    json_t *s = json_object();
    json_object_set_new(s, "points", json_integer((json_int_t)r->n_points));
    json_object_set_new(s, "faster", json_integer((json_int_t)r->n_faster));
    json_object_set_new(s, "slower", json_integer((json_int_t)r->n_slower));
    json_object_set_new(s, "unchanged", json_integer((json_int_t)r->n_same));
    json_object_set_new(s, "summary_only", json_integer((json_int_t)r->n_summary));
    json_object_set_new(s, "base_only", json_integer((json_int_t)r->n_only_base));
    json_object_set_new(s, "base_only_failed", json_integer((json_int_t)r->n_lost[GB_CMP_LOST_FAILED]));
    json_object_set_new(s, "base_only_skipped", json_integer((json_int_t)r->n_lost[GB_CMP_LOST_SKIPPED]));
    json_object_set_new(s, "base_only_missing", json_integer((json_int_t)r->n_lost[GB_CMP_LOST_MISSING]));
    json_object_set_new(s, "geomean_ratio", gb_cmp_real(r->geomean));
    json_object_set_new(s, "geomean_lo", gb_cmp_real(r->geomean_lo));
    json_object_set_new(s, "geomean_hi", gb_cmp_real(r->geomean_hi));
    return s;
}

enum gb_status gb_report_compare_json(const struct gb_cmp_result *r, const struct gb_cmp_context *ctx, FILE *f)
{
    json_t *o = json_object(), *pts = json_array();
    json_object_set_new(o, "base", json_string(ctx->base_label));
    json_object_set_new(o, "new", json_string(ctx->new_label));
    json_object_set_new(o, "base_device", json_string(ctx->base_device));
    json_object_set_new(o, "new_device", json_string(ctx->new_device));
    json_object_set_new(o, "alpha", json_real(ctx->alpha));
    json_object_set_new(o, "threshold", json_real(ctx->threshold));
    json_object_set_new(o, "anchor", ctx->anchored ? json_string(ctx->anchor_what) : json_null());
    json_object_set_new(o, "summary", gb_cmp_summary_json(r));
    for (size_t i = 0; i < r->n_points; i++)
        json_array_append_new(pts, gb_cmp_point_json(&r->points[i], ctx->anchored));
    json_object_set_new(o, "points", pts);
    json_object_set_new(o, "only_base", gb_cmp_names_json(r->only_base, r->n_only_base));
    json_t *why = json_array();
    for (size_t i = 0; i < r->n_only_base; i++)
        json_array_append_new(why, json_string(gb_cmp_lost_name(r->only_base_why[i])));
    json_object_set_new(o, "only_base_in_new", why);
    json_object_set_new(o, "only_new", gb_cmp_names_json(r->only_new, r->n_only_new));
    int rc = json_dumpf(o, f, JSON_INDENT(1) | JSON_REAL_PRECISION(10));
    json_decref(o);
    if (rc != 0 || fputc('\n', f) == EOF)
        return gb_error_set(GB_ERR_IO, "cannot write the comparison");
    return GB_OK;
}

/* ---- the chart ---- */

/* A point's label on the chart: its row in the table (the names are
 * there; on the axis they would squeeze the plot to nothing). */
static void gb_cmp_label(const struct gb_cmp_point *p, size_t i, char *buf, size_t n)
{
    (void)p;
    snprintf(buf, n, "%zu", i + 1);
}

static enum gb_status gb_cmp_chart_fill(struct gb_plot *p, const struct gb_cmp_result *r, size_t shown,
                                        double threshold)
{
    static const char *const names[3] = {"no change", "faster", "slower"};
    int series[3];
    char label[96];
    enum gb_status st = GB_OK;
    for (int k = 0; k < 3 && st == GB_OK; k++)
        st = gb_plot_series(p, names[k], &series[k]);
    for (size_t i = 0; i < shown && st == GB_OK; i++) {
        const struct gb_cmp_point *pt = &r->points[i];
        gb_cmp_label(pt, i, label, sizeof label);
        st = gb_plot_point_cat(p, series[pt->verdict], label, pt->s.ratio, pt->s.lo, pt->s.hi);
    }
    if (st == GB_OK)
        st = gb_plot_ref(p, "equal", 1.0, NULL);
    if (st == GB_OK && threshold > 0 && (st = gb_plot_ref(p, "threshold, slower", 1.0 + threshold, NULL)) == GB_OK)
        st = gb_plot_ref(p, "threshold, faster", 1.0 - threshold, NULL);
    return st;
}

enum gb_status gb_report_compare_chart(const struct gb_cmp_result *r, const struct gb_cmp_context *ctx,
                                       const char *out_dir, size_t max_points, struct gb_report_result *res)
{
    char sub[512];
    size_t shown = r->n_points < max_points ? r->n_points : max_points;
    if (shown == 0)
        return gb_error_set(GB_ERR_USAGE, "no matched point to chart");
    struct gb_plot *p = gb_plot_new(GB_CHART_LINE, "compare", "Time ratio new / base per point");
    if (!p)
        return gb_error_set(GB_ERR_NOMEM, "out of host memory");
    /* The GPUs when they differ, else the runs (the table names both). */
    int same = strcmp(ctx->new_device, ctx->base_device) == 0;
    snprintf(sub, sizeof sub, "%.60s against %.60s; %g%% intervals; %s%zu of %zu points",
             same ? ctx->new_label : ctx->new_device, same ? ctx->base_label : ctx->base_device,
             100 * (1 - ctx->alpha), shown < r->n_points ? "the " : "", shown, r->n_points);
    enum gb_status st = gb_plot_labels(p, "point (its row in the table, largest effect first)", "time ratio new / base");
    if (st == GB_OK)
        st = gb_plot_subtitle(p, sub);
    if (st == GB_OK)
        st = gb_cmp_chart_fill(p, r, shown, ctx->threshold);
    if (st == GB_OK)
        st = gb_plot_draw(p, out_dir, res);
    gb_plot_free(p);
    return st;
}
