/* fleet.c - the tables and the chart of a fleet report (gpubound/fleet_tables.h).
 * Everything shown is computed by src/models/fleet/fleet.c; this file only lays
 * it out. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gpubound/fleet_tables.h"

#define GB_TRY(st, call)             \
    do {                             \
        if (((st) = (call)) != GB_OK) \
            goto out;                \
    } while (0)

static enum gb_status gb_columns(struct gb_table *t, const char *const *names, const char *const *units, size_t n)
{
    enum gb_status st = GB_OK;
    for (size_t i = 0; i < n && st == GB_OK; i++)
        st = gb_table_column(t, names[i], units[i]);
    return st;
}

static const char *gb_flag_name(int flag)
{
    return flag > 0 ? "slow" : flag < 0 ? "fast" : "";
}

static enum gb_status gb_wide_header(const struct gb_fleet_report *r, struct gb_table *t)
{
    char name[64];
    enum gb_status st = GB_OK;
    const char *names[] = {"point", "fleet median", "max/min", "outliers"};
    const char *units[] = {NULL, "µs", NULL, NULL};
    GB_TRY(st, gb_columns(t, names, units, 4));
    for (size_t m = 0; m < r->n_members; m++) {
        snprintf(name, sizeof name, "r%d", r->members[m].rank);
        GB_TRY(st, gb_table_column(t, name, "µs"));
        snprintf(name, sizeof name, "r%d ratio", r->members[m].rank);
        GB_TRY(st, gb_table_column(t, name, NULL));
    }
out:
    return st;
}

/* A member's cell at a point: its median and ratio, or its status. */
static enum gb_status gb_wide_cells(struct gb_table *t, const struct gb_fleet_point *p, size_t m)
{
    const struct gb_fleet_cell *c = &p->cells[m];
    char buf[64];
    enum gb_status st;
    if (!c->present) {
        const char *why = p->status[m] < 0 ? "-" : gb_record_status_name((enum gb_record_status)p->status[m]);
        if ((st = gb_table_cell_text(t, why)) != GB_OK)
            return st;
        return gb_table_cell_empty(t);
    }
    if ((st = gb_table_cell_num(t, c->median / 1e3, 4)) != GB_OK)
        return st;
    snprintf(buf, sizeof buf, "%.3f%s", c->ratio, c->flag > 0 ? " slow*" : c->flag < 0 ? " fast*" : "");
    return gb_table_cell_text(t, buf);
}

enum gb_status gb_fleet_wide_table(const struct gb_fleet_report *r, struct gb_table **out)
{
    enum gb_status st = GB_OK;
    struct gb_table *t = gb_table_new();
    *out = NULL;
    if (!t)
        return gb_error_set(GB_ERR_NOMEM, "out of host memory");
    GB_TRY(st, gb_wide_header(r, t));
    for (size_t p = 0; p < r->n_points; p++) {
        const struct gb_fleet_point *pt = &r->points[p];
        int flagged = 0;
        for (size_t m = 0; m < r->n_members; m++)
            flagged += pt->cells[m].flag != 0;
        GB_TRY(st, gb_table_row(t));
        GB_TRY(st, gb_table_cell_text(t, pt->label));
        GB_TRY(st, gb_table_cell_num(t, pt->fleet_median / 1e3, 4));
        GB_TRY(st, gb_table_cell_num(t, pt->spread, 4));
        GB_TRY(st, gb_table_cell_int(t, flagged));
        for (size_t m = 0; m < r->n_members; m++)
            GB_TRY(st, gb_wide_cells(t, pt, m));
    }
out:
    if (st != GB_OK)
        gb_table_free(t);
    else
        *out = t;
    return st;
}

/* One long row: a point and a member. */
static enum gb_status gb_long_row(struct gb_table *t, const struct gb_fleet_report *r, size_t p, size_t m)
{
    const struct gb_fleet_point *pt = &r->points[p];
    const struct gb_fleet_cell *c = &pt->cells[m];
    const struct gb_fleet_member *mb = &r->members[m];
    enum gb_status st;
    GB_TRY(st, gb_table_row(t));
    GB_TRY(st, gb_table_cell_text(t, pt->label));
    GB_TRY(st, gb_table_cell_int(t, mb->rank));
    GB_TRY(st, gb_table_cell_text(t, mb->host));
    GB_TRY(st, gb_table_cell_text(t, mb->info.has_device ? mb->info.device.uuid : ""));
    GB_TRY(st, gb_table_cell_text(t, pt->status[m] < 0 ? "none"
                                     : gb_record_status_name((enum gb_record_status)pt->status[m])));
    const double nums[] = {c->present ? c->median : NAN, c->present ? c->lo : NAN, c->present ? c->hi : NAN,
                           pt->fleet_median, c->ratio, c->ratio_lo, c->ratio_hi, c->z};
    for (size_t i = 0; i < sizeof nums / sizeof nums[0]; i++)
        GB_TRY(st, gb_table_cell_num(t, nums[i], 6));
    GB_TRY(st, gb_table_cell_text(t, gb_flag_name(c->flag)));
out:
    return st;
}

/* The columns of the long table. */
static enum gb_status gb_long_columns(struct gb_table *t)
{
    static const char *const names[] = {"point", "rank", "host", "gpu_uuid", "status", "median", "ci_lo",
                                        "ci_hi", "fleet_median", "ratio", "ratio_lo", "ratio_hi",
                                        "robust_z", "outlier"};
    static const char *const units[] = {NULL, NULL, NULL, NULL, NULL, "ns", "ns", "ns", "ns",
                                        NULL, NULL, NULL, NULL, NULL};
    return gb_columns(t, names, units, sizeof names / sizeof names[0]);
}

enum gb_status gb_fleet_long_csv(const struct gb_fleet_report *r, FILE *f)
{
    enum gb_status st = GB_OK;
    struct gb_table *t = gb_table_new();
    if (!t)
        return gb_error_set(GB_ERR_NOMEM, "out of host memory");
    GB_TRY(st, gb_long_columns(t));
    /* One point's rows at a time: the table never holds more than the members. */
    for (size_t p = 0; p < r->n_points || p == 0; p++) {
        for (size_t m = 0; p < r->n_points && m < r->n_members; m++)
            GB_TRY(st, gb_long_row(t, r, p, m));
        GB_TRY(st, gb_table_print_csv_part(t, f, p == 0));
        gb_table_clear_rows(t);
        if (ferror(f)) {
            st = gb_error_set(GB_ERR_IO, "cannot write the CSV rows: %s", strerror(errno));
            goto out;
        }
    }
out:
    gb_table_free(t);
    return st;
}

enum gb_status gb_fleet_long_table(const struct gb_fleet_report *r, struct gb_table **out)
{
    enum gb_status st = GB_OK;
    struct gb_table *t = gb_table_new();
    *out = NULL;
    if (!t)
        return gb_error_set(GB_ERR_NOMEM, "out of host memory");
    GB_TRY(st, gb_long_columns(t));
    for (size_t p = 0; p < r->n_points; p++)
        for (size_t m = 0; m < r->n_members; m++)
            GB_TRY(st, gb_long_row(t, r, p, m));
out:
    if (st != GB_OK)
        gb_table_free(t);
    else
        *out = t;
    return st;
}

/* The verdict of one member in words. */
static void gb_verdict(const struct gb_fleet_report *r, size_t m, char *buf, size_t n)
{
    const struct gb_fleet_member *mb = &r->members[m];
    const struct gb_fleet_summary *s = &r->summary[m];
    size_t len = 0;
    if (mb->state != GB_FLEET_OK)
        len = (size_t)snprintf(buf, n, "%s: %s", gb_fleet_state_name(mb->state), mb->reason);
    else if (s->slow || s->fast) {
        const struct gb_fleet_point *w = &r->points[s->worst];
        len = (size_t)snprintf(buf, n, "OUTLIER: %s at %d of %d points (worst %s: %.3f x fleet median)",
                               s->slow >= s->fast ? "slow" : "fast", s->slow >= s->fast ? s->slow : s->fast,
                               s->measured, w->label, w->cells[m].ratio);
    } else
        len = (size_t)snprintf(buf, n, "%s", s->measured ? "like the fleet" : "nothing measured");
    if (s->shares_gpu_with >= 0 && len < n)
        snprintf(buf + len, n - len, "; shares its GPU with rank %d", s->shares_gpu_with);
}

static enum gb_status gb_summary_row(struct gb_table *t, const struct gb_fleet_report *r, size_t m)
{
    const struct gb_fleet_member *mb = &r->members[m];
    const struct gb_fleet_summary *s = &r->summary[m];
    char verdict[1024];
    enum gb_status st;
    gb_verdict(r, m, verdict, sizeof verdict);
    GB_TRY(st, gb_table_row(t));
    GB_TRY(st, gb_table_cell_int(t, mb->rank));
    GB_TRY(st, gb_table_cell_text(t, mb->host));
    GB_TRY(st, gb_table_cell_text(t, mb->info.has_device ? mb->info.device.name : ""));
    GB_TRY(st, gb_table_cell_text(t, mb->info.has_device ? mb->info.device.pci_bus_id : ""));
    GB_TRY(st, gb_table_cell_text(t, mb->info.has_device ? mb->info.device.uuid : ""));
    GB_TRY(st, gb_table_cell_int(t, s->measured));
    GB_TRY(st, gb_table_cell_int(t, s->failed));
    GB_TRY(st, gb_table_cell_num(t, s->geo_ratio, 4));
    GB_TRY(st, gb_table_cell_num(t, s->min_ratio, 4));
    GB_TRY(st, gb_table_cell_num(t, s->max_ratio, 4));
    GB_TRY(st, gb_table_cell_int(t, s->slow));
    GB_TRY(st, gb_table_cell_int(t, s->fast));
    GB_TRY(st, gb_table_cell_text(t, verdict));
out:
    return st;
}

enum gb_status gb_fleet_summary_table(const struct gb_fleet_report *r, struct gb_table **out)
{
    static const char *const names[] = {"rank", "host", "gpu", "pci", "uuid", "measured", "failed",
                                        "ratio (geo mean)", "min ratio", "max ratio", "slow", "fast",
                                        "verdict"};
    static const char *const units[sizeof names / sizeof names[0]] = {NULL};
    enum gb_status st = GB_OK;
    struct gb_table *t = gb_table_new();
    *out = NULL;
    if (!t)
        return gb_error_set(GB_ERR_NOMEM, "out of host memory");
    GB_TRY(st, gb_columns(t, names, units, sizeof names / sizeof names[0]));
    for (size_t m = 0; m < r->n_members; m++)
        GB_TRY(st, gb_summary_row(t, r, m));
out:
    if (st != GB_OK)
        gb_table_free(t);
    else
        *out = t;
    return st;
}

static enum gb_status gb_suite_row(struct gb_table *t, const struct gb_fleet_report *r, size_t i)
{
    const struct gb_fleet_suite *s = &r->suites[i];
    char apart[64];
    enum gb_status st;
    snprintf(apart, sizeof apart, "%d of %d", s->apart, s->points);
    GB_TRY(st, gb_table_row(t));
    GB_TRY(st, gb_table_cell_text(t, s->suite));
    GB_TRY(st, gb_table_cell_int(t, s->points));
    GB_TRY(st, gb_table_cell_num(t, s->spread_median, 4));
    GB_TRY(st, gb_table_cell_num(t, s->spread_max, 4));
    GB_TRY(st, gb_table_cell_text(t, s->points ? r->points[s->widest].label : ""));
    GB_TRY(st, gb_table_cell_text(t, apart));
    GB_TRY(st, gb_table_cell_int(t, s->flagged));
out:
    return st;
}

enum gb_status gb_fleet_suite_table(const struct gb_fleet_report *r, struct gb_table **out)
{
    static const char *const names[] = {"suite", "points", "max/min (median)", "max/min (largest)",
                                        "at point", "beyond the intervals", "points flagged"};
    static const char *const units[sizeof names / sizeof names[0]] = {NULL};
    enum gb_status st = GB_OK;
    struct gb_table *t = gb_table_new();
    *out = NULL;
    if (!t)
        return gb_error_set(GB_ERR_NOMEM, "out of host memory");
    GB_TRY(st, gb_columns(t, names, units, sizeof names / sizeof names[0]));
    for (size_t i = 0; i < r->n_suites; i++)
        GB_TRY(st, gb_suite_row(t, r, i));
out:
    if (st != GB_OK)
        gb_table_free(t);
    else
        *out = t;
    return st;
}

/* The chart's subtitle: members and hosts. */
static void gb_chart_subtitle(const struct gb_fleet_report *r, char *buf, size_t n)
{
    size_t hosts = 0;
    for (size_t m = 0; m < r->n_members; m++) {
        int seen = 0;
        for (size_t k = 0; k < m && !seen; k++)
            seen = strcmp(r->members[k].host, r->members[m].host) == 0;
        hosts += !seen;
    }
    const struct gb_fleet_member *d = NULL;
    for (size_t m = 0; m < r->n_members && !d; m++)
        if (r->members[m].info.has_device)
            d = &r->members[m];
    snprintf(buf, n, "%zu rank(s) on %zu host(s)%s%.60s", r->n_members, hosts, d ? ": " : "",
             d ? d->info.device.name : "");
}

/* The bar chart: per point, one bar per member, its median over the fleet
 * median with that ratio's interval, and a line at 1 (the fleet median);
 * outliers are named in the series label of their member. */
static enum gb_status gb_fleet_bars(const struct gb_fleet_report *r, struct gb_plot *p, int *cells)
{
    char label[96];
    enum gb_status st = GB_OK;
    int idx;
    GB_TRY(st, gb_plot_labels(p, "point", "median / fleet median"));
    gb_plot_bar_base(p, 1.0);   /* a ratio: bars from 1 (the fleet median), up or down */
    for (size_t m = 0; m < r->n_members; m++) {
        int outliers = 0;
        for (size_t pt = 0; pt < r->n_points; pt++)
            outliers += r->points[pt].status[m] >= 0 && r->points[pt].cells[m].flag != 0;
        snprintf(label, sizeof label, "rank %d%s", r->members[m].rank, outliers ? " (outlier at some points)" : "");
        GB_TRY(st, gb_plot_series(p, label, &idx));
        for (size_t pt = 0; pt < r->n_points; pt++) {
            const struct gb_fleet_cell *c = &r->points[pt].cells[m];
            if (r->points[pt].status[m] < 0 || !c->present)
                continue;
            GB_TRY(st, gb_plot_bar(p, idx, r->points[pt].label, c->ratio, c->ratio_lo, c->ratio_hi));
            (*cells)++;
        }
    }
out:
    return st;
}

static int gb_cmp_ratio(const void *a, const void *b)
{
    const struct gb_fleet_cell *x = a, *y = b;
    return (x->ratio > y->ratio) - (x->ratio < y->ratio);
}

/* The distribution chart of one suite: per member, its ratios at the
 * suite's points sorted, against the share of the points at or below. */
static enum gb_status gb_fleet_quantiles(const struct gb_fleet_report *r, const char *suite, struct gb_plot *p,
                                         int *cells)
{
    char label[96];
    enum gb_status st = GB_OK;
    int idx;
    struct gb_fleet_cell *v = malloc((r->n_points + 1) * sizeof *v);
    if (!v)
        return gb_error_set(GB_ERR_NOMEM, "out of host memory");
    gb_plot_y_fit(p);
    GB_TRY(st, gb_plot_labels(p, "share of the suite's points, sorted by the ratio (%)", "median / fleet median"));
    for (size_t m = 0; m < r->n_members; m++) {
        size_t k = 0;
        for (size_t pt = 0; pt < r->n_points; pt++)
            if (r->points[pt].cells[m].present && strcmp(r->points[pt].suite, suite) == 0)
                v[k++] = r->points[pt].cells[m];
        if (!k)
            continue;
        qsort(v, k, sizeof *v, gb_cmp_ratio);
        snprintf(label, sizeof label, "rank %d (%zu points)", r->members[m].rank, k);
        GB_TRY(st, gb_plot_series(p, label, &idx));
        for (size_t i = 0; i < k; i++)
            GB_TRY(st, gb_plot_point(p, idx, 100.0 * (double)(i + 1) / (double)k, v[i].ratio, v[i].ratio_lo,
                                     v[i].ratio_hi));
        *cells += (int)k;
    }
out:
    free(v);
    return st;
}

/* One chart named `name`: the bars of every point (suite NULL) or the
 * distribution of one suite's points. */
static enum gb_status gb_fleet_chart_one(const struct gb_fleet_report *r, const char *suite, const char *name,
                                         int formats, const char *out_dir, struct gb_report_result *res)
{
    char sub[256], title[160];
    enum gb_status st = GB_OK;
    int cells = 0;
    if (suite)
        snprintf(title, sizeof title, "%s: each GPU's median time / the fleet median, points sorted", suite);
    else
        snprintf(title, sizeof title, "Each GPU's median time / the fleet median, 95%% interval");
    struct gb_plot *p = gb_plot_new(suite ? GB_CHART_LINE : GB_CHART_BAR, name, title);
    if (!p)
        return gb_error_set(GB_ERR_NOMEM, "out of host memory (or a bad chart name '%s')", name);
    gb_chart_subtitle(r, sub, sizeof sub);
    GB_TRY(st, gb_plot_subtitle(p, sub));
    GB_TRY(st, gb_plot_ref(p, "fleet median", 1.0, NULL));
    gb_plot_formats(p, formats);
    GB_TRY(st, suite ? gb_fleet_quantiles(r, suite, p, &cells) : gb_fleet_bars(r, p, &cells));
    if (!cells) {
        st = gb_error_set(GB_ERR_USAGE, "no member measured a point: there is no chart to draw");
        goto out;
    }
    st = gb_plot_draw(p, out_dir, res);
out:
    gb_plot_free(p);
    return st;
}

enum gb_status gb_fleet_chart(const struct gb_fleet_report *r, const char *out_dir, const char *stem,
                              int formats, struct gb_report_result *res)
{
    char name[160];
    enum gb_status st = GB_OK;
    if (r->n_points <= GB_FLEET_BAR_POINTS)
        return gb_fleet_chart_one(r, NULL, stem, formats, out_dir, res);
    for (size_t i = 0; i < r->n_suites && st == GB_OK; i++) {
        if (!r->suites[i].points)
            continue;
        snprintf(name, sizeof name, "%s-%s", stem, r->suites[i].suite);
        st = gb_fleet_chart_one(r, r->suites[i].suite, name, formats, out_dir, res);
    }
    return st;
}
