/* charts.c - the charts a suite declares (struct gb_chart_spec), built from
 * a run's records and drawn through plot.c. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "gpubound/report.h"
#include "gpubound/suite.h"
#include "report_internal.h"

/* Whether `name` is in the comma list `list` (an item ending in '*'
 * matches every name it starts). A NULL list matches everything. */
static int gb_in_list(const char *list, const char *name)
{
    if (!list)
        return 1;
    while (*list) {
        size_t len = strcspn(list, ",");
        const char *item = list;
        while (len && *item == ' ') {
            item++;
            len--;
        }
        while (len && item[len - 1] == ' ')
            len--;
        if (len && item[len - 1] == '*') {
            if (strncmp(item, name, len - 1) == 0)
                return 1;
        } else if (len == strlen(name) && strncmp(item, name, len) == 0) {
            return 1;
        }
        list += strcspn(list, ",");
        if (*list == ',')
            list++;
    }
    return 0;
}

/* Whether the record matches every "axis=value" of the comma list; an item
 * "BENCH:axis=value" holds for the records of other benches; an item
 * "axis?=value" is also met by a record without the axis. */
static int gb_where_ok(const char *where, const struct gb_record *r)
{
    if (!where)
        return 1;
    while (*where) {
        size_t len = strcspn(where, ",");
        const char *eq = memchr(where, '=', len);
        const char *item = where;
        const char *colon = eq ? memchr(item, ':', (size_t)(eq - item)) : NULL;
        if (colon) {
            size_t bn = (size_t)(colon - item);
            if (strlen(r->bench) != bn || strncmp(r->bench, item, bn) != 0)
                eq = NULL;   /* another bench's condition */
            item = colon + 1;
        }
        if (eq) {
            char axis[64];
            size_t an = (size_t)(eq - item), vn = len - (size_t)(eq + 1 - where);
            int optional = an > 0 && item[an - 1] == '?';
            snprintf(axis, sizeof axis, "%.*s", (int)(an - (size_t)optional), item);
            const char *v = gb_record_axis(r, axis);
            if (!v && optional) {
                /* met */
            } else if (!v || strlen(v) != vn || strncmp(v, eq + 1, vn) != 0) {
                return 0;
            }
        }
        where += len;
        if (*where == ',')
            where++;
    }
    return 1;
}

enum gb_y { GB_Y_BW, GB_Y_TIME, GB_Y_GFLOPS, GB_Y_METRIC };

struct gb_ysel {
    enum gb_y kind;
    const char *metric;
    const char *unit;
};

/* Parses one y selector `s` of chart `c` (the metric name points into `s`). */
static enum gb_status gb_ysel_parse_str(const struct gb_chart_spec *c, const char *s, struct gb_ysel *y)
{
    y->metric = NULL;
    if (strcmp(s, "bw_gbs") == 0) {
        y->kind = GB_Y_BW;
        y->unit = "GB/s";
    } else if (strcmp(s, "median_ns") == 0) {
        y->kind = GB_Y_TIME;
        y->unit = "ns";
    } else if (strcmp(s, "gflops") == 0) {
        y->kind = GB_Y_GFLOPS;
        y->unit = "GFLOP/s";
    } else if (strncmp(s, "metric:", 7) == 0 && s[7]) {
        y->kind = GB_Y_METRIC;
        y->metric = s + 7;
        y->unit = "";
    } else {
        return gb_error_set(GB_ERR_USAGE, "chart %s: unknown y '%s' (use bw_gbs, median_ns, "
                            "gflops or metric:NAME)", c->name, s);
    }
    return GB_OK;
}

static enum gb_status gb_ysel_parse(const struct gb_chart_spec *c, struct gb_ysel *y)
{
    return gb_ysel_parse_str(c, c->y ? c->y : "", y);
}

#define GB_MAX_YS 8

/* The "label=y;label=y" list of a chart with several y per record, split in
 * place in `buf` (which the labels and metric names point into). */
static enum gb_status gb_ys_parse(const struct gb_chart_spec *c, char *buf, size_t n, const char **labels,
                                  struct gb_ysel *ys, int *n_ys)
{
    enum gb_status st;
    char *save = NULL;
    *n_ys = 0;
    if (strlen(c->ys) >= n)
        return gb_error_set(GB_ERR_USAGE, "chart %s: ys is too long", c->name);
    snprintf(buf, n, "%s", c->ys);
    for (char *item = strtok_r(buf, ";", &save); item; item = strtok_r(NULL, ";", &save)) {
        char *eq = strchr(item, '=');
        if (!eq || eq == item || *n_ys == GB_MAX_YS)
            return gb_error_set(GB_ERR_USAGE, "chart %s: ys item '%s' is not label=y (at most %d)", c->name,
                                item, GB_MAX_YS);
        *eq = '\0';
        if ((st = gb_ysel_parse_str(c, eq + 1, &ys[*n_ys])) != GB_OK)
            return st;
        labels[(*n_ys)++] = item;
    }
    if (*n_ys == 0)
        return gb_error_set(GB_ERR_USAGE, "chart %s: ys names no y", c->name);
    return GB_OK;
}

/* The y of a record and its interval in y's unit; 0 when it has none. */
static int gb_y_of(const struct gb_ysel *ys, const struct gb_record *r, double *y, double *lo,
                   double *hi)
{
    int ci = r->time_ns.ci_lo > 0 && r->time_ns.ci_hi >= r->time_ns.ci_lo;
    *lo = *hi = NAN;
    switch (ys->kind) {
    case GB_Y_BW:
        if (!(r->bw_gbs > 0))
            return 0;
        *y = r->bw_gbs;
        /* The slow end of the time interval is the low end of bandwidth. */
        if (ci && r->bytes > 0) {
            *lo = r->bytes / r->time_ns.ci_hi;
            *hi = r->bytes / r->time_ns.ci_lo;
        }
        return 1;
    case GB_Y_GFLOPS:
        if (!(r->gflops > 0))
            return 0;
        *y = r->gflops;
        if (ci && r->flops > 0) {
            *lo = r->flops / r->time_ns.ci_hi;
            *hi = r->flops / r->time_ns.ci_lo;
        }
        return 1;
    case GB_Y_TIME:
        if (!(r->time_ns.median > 0))
            return 0;
        *y = r->time_ns.median;
        if (ci) {
            *lo = r->time_ns.ci_lo;
            *hi = r->time_ns.ci_hi;
        }
        return 1;
    case GB_Y_METRIC:
        *y = gb_record_metric(r, ys->metric, NAN);
        return isfinite(*y);
    }
    return 0;
}

/* Whether the comma list of "axis=value" (or "axis?=value") names `axis`. */
static int gb_where_names(const char *where, const char *axis)
{
    size_t n = strlen(axis);
    while (where && *where) {
        size_t len = strcspn(where, ",");
        const char *eq = memchr(where, '=', len);
        if (eq) {
            size_t an = (size_t)(eq - where);
            if (an > 0 && where[an - 1] == '?')
                an--;
            if (an == n && strncmp(where, axis, n) == 0)
                return 1;
        }
        where += len;
        if (*where == ',')
            where++;
    }
    return 0;
}

/* The y of record `r` as the chart shows it: as measured, or divided by the
 * y of its reference record when the chart is relative (see relative_to in
 * report.h); 0 when it has none. */
static int gb_y_shown(const struct gb_run *run, const struct gb_chart_set *s,
                      const struct gb_chart_spec *c, const struct gb_ysel *ys,
                      const struct gb_record *r, double *y, double *lo, double *hi)
{
    char bench[64];
    const char *filter;
    if (!gb_y_of(ys, r, y, lo, hi))
        return 0;
    if (!c->relative_to)
        return 1;
    filter = strchr(c->relative_to, ':');
    snprintf(bench, sizeof bench, "%.*s",
             (int)(filter ? (size_t)(filter - c->relative_to) : strlen(c->relative_to)),
             c->relative_to);
    if (filter)
        filter++;
    for (size_t i = 0; i < run->n_records; i++) {
        const struct gb_record *ref = &run->records[i];
        double ry, rlo, rhi;
        int agree = 1;
        if (ref->status != GB_REC_OK || strcmp(ref->suite, s->name) != 0 ||
            strcmp(ref->bench, bench) != 0 || !gb_where_ok(filter, ref))
            continue;
        for (int a = 0; a < ref->n_axes && agree; a++) {
            const char *v = gb_record_axis(r, ref->axes[a].name);
            if (v && !gb_where_names(filter, ref->axes[a].name) &&
                strcmp(v, ref->axes[a].value) != 0)
                agree = 0;
        }
        if (!agree || !gb_y_of(ys, ref, &ry, &rlo, &rhi) || !(ry > 0))
            continue;
        *y /= ry;
        *lo = *hi = NAN;
        return 1;
    }
    return 0;
}

/* An axis value as a number: plain decimal, or with a K/M/G suffix. */
static int gb_axis_number(const char *s, double *out)
{
    char *end;
    long l;
    if (!s || !*s)
        return 0;
    double d = strtod(s, &end);
    if (*end == '\0') {
        *out = d;
        return 1;
    }
    /* An integer with a K, M or G (or KiB, MiB, GiB) suffix, powers of 1024, as axes are written. */
    l = strtol(s, &end, 10);
    if (end == s || !strchr("KkMmGg", *end) || gb_axis_parse_int(s, &l) != GB_OK)
        return 0;
    *out = (double)l;
    return 1;
}

static const char *gb_key_of(const struct gb_record *r, const char *axis)
{
    const char *v;
    if (!axis || strcmp(axis, "bench") == 0)
        return r->bench;
    v = gb_record_axis(r, axis);
    return v ? v : r->bench;
}

/* Legend text of a series: the template with "{}" replaced, or a default. */
static void gb_series_text(const struct gb_chart_spec *c, const struct gb_record *r, char *buf,
                           size_t n)
{
    const char *v = gb_key_of(r, c->series);
    const char *tpl = c->series_label;
    int is_axis = c->series && strcmp(c->series, "bench") != 0 && gb_record_axis(r, c->series);
    if (!is_axis) {
        snprintf(buf, n, "%s", v);
        return;
    }
    if (!tpl) {
        snprintf(buf, n, "%s = %s", c->series, v);
        return;
    }
    const char *hole = strstr(tpl, "{}");
    if (!hole)
        snprintf(buf, n, "%s", tpl);
    else
        snprintf(buf, n, "%.*s%s%s", (int)(hole - tpl), tpl, v, hole + 2);
}

static int gb_rec_in_chart(const struct gb_chart_set *s, const struct gb_chart_spec *c,
                           const struct gb_record *r)
{
    return strcmp(r->suite, s->name) == 0 && gb_in_list(c->benches, r->bench) &&
           gb_where_ok(c->where, r);
}

int gb_chart_selects(const struct gb_chart_set *s, const struct gb_chart_spec *c, const struct gb_record *r)
{
    return gb_rec_in_chart(s, c, r);
}

/* The x of a record: its bench, or the value of the x axis. A bar chart
 * groups a record without that axis under its bench name; a line chart
 * cannot place it (NULL). */
static const char *gb_rec_x(const struct gb_chart_spec *c, const struct gb_record *r)
{
    const char *axis = c->x ? c->x : "bench";
    const char *v;
    if (strcmp(axis, "bench") == 0)
        return r->bench;
    v = gb_record_axis(r, axis);
    return v ? v : c->kind == GB_CHART_BAR ? r->bench : NULL;
}

/* Whether a record is drawn on a line or bar chart, and its y. */
static int gb_rec_plotted(const struct gb_run *run, const struct gb_chart_set *s,
                          const struct gb_chart_spec *c, const struct gb_ysel *ys,
                          const struct gb_record *r, double *y, double *lo, double *hi)
{
    return r->status == GB_REC_OK && gb_rec_in_chart(s, c, r) && gb_rec_x(c, r) &&
           gb_y_shown(run, s, c, ys, r, y, lo, hi);
}

struct gb_key {
    char *label;
    int non_numeric;    /* series that are not numbers follow the numbers */
    double num;         /* the number, or the order of first appearance */
};

static int gb_cmp_key(const void *a, const void *b)
{
    const struct gb_key *x = a, *y = b;
    if (x->non_numeric != y->non_numeric)
        return x->non_numeric - y->non_numeric;
    return (x->num > y->num) - (x->num < y->num);
}

/* Creates the series of a chart: those whose value is a number in numeric
 * order, then the others in order of first appearance. Their labels, in
 * the plot's series order, are returned in *labels (caller frees). With
 * p NULL only the labels are made. */
static enum gb_status gb_make_series(struct gb_plot *p, const struct gb_run *run,
                                     const struct gb_chart_set *s, const struct gb_chart_spec *c,
                                     const struct gb_ysel *ys, char ***labels, size_t *n_labels)
{
    enum gb_status st = GB_OK;
    struct gb_key *keys = NULL;
    size_t nk = 0;
    keys = calloc(run->n_records ? run->n_records : 1, sizeof *keys);
    if (!keys)
        return gb_error_set(GB_ERR_NOMEM, "out of memory");
    for (size_t i = 0; i < run->n_records; i++) {
        const struct gb_record *r = &run->records[i];
        double y, lo, hi;
        char text[256];
        size_t k;
        if (!gb_rec_plotted(run, s, c, ys, r, &y, &lo, &hi))
            continue;
        gb_series_text(c, r, text, sizeof text);
        for (k = 0; k < nk; k++)
            if (strcmp(keys[k].label, text) == 0)
                break;
        if (k < nk)
            continue;
        keys[nk].label = strdup(text);
        if (!keys[nk].label) {
            st = gb_error_set(GB_ERR_NOMEM, "out of memory");
            goto out;
        }
        int is_axis = c->series && strcmp(c->series, "bench") != 0 && gb_record_axis(r, c->series);
        keys[nk].non_numeric = !(is_axis && gb_axis_number(gb_record_axis(r, c->series),
                                                            &keys[nk].num));
        if (keys[nk].non_numeric)
            keys[nk].num = (double)nk;
        nk++;
    }
    qsort(keys, nk, sizeof *keys, gb_cmp_key);
    for (size_t k = 0; k < nk; k++) {
        int idx;
        if ((p && (st = gb_plot_series(p, keys[k].label, &idx)) != GB_OK) ||
            (st = gb_result_add(labels, n_labels, keys[k].label)) != GB_OK)
            goto out;
    }
out:
    for (size_t k = 0; k < nk; k++)
        free(keys[k].label);
    free(keys);
    return st;
}

/* Index of the plot series labelled `text`, or -1. */
static int gb_series_index(char *const *labels, size_t n, const char *text)
{
    for (size_t i = 0; i < n; i++)
        if (strcmp(labels[i], text) == 0)
            return (int)i;
    return -1;
}

static enum gb_status gb_chart_refs(struct gb_plot *p, const struct gb_run *run,
                                    const struct gb_chart_set *s, const struct gb_chart_spec *c,
                                    const struct gb_ysel *ys)
{
    const char *refs = c->refs;
    enum gb_status st = GB_OK;
    while (refs && *refs) {
        size_t len = strcspn(refs, ";");
        char item[256], *eq;
        snprintf(item, sizeof item, "%.*s", (int)len, refs);
        refs += len;
        if (*refs == ';')
            refs++;
        eq = strchr(item, '=');
        if (!eq)
            return gb_error_set(GB_ERR_USAGE, "chart %s: reference '%s' is not label=source",
                                c->name, item);
        *eq = '\0';
        const char *src = eq + 1;
        double y = NAN;
        if (strcmp(src, "device:mem_peak_gbs") == 0) {
            /* An absolute line has no place on a relative chart. */
            if (run->info.has_device && run->info.device.mem_peak_gbs > 0 && !c->relative_to)
                y = run->info.device.mem_peak_gbs;
        } else if (strncmp(src, "bench:", 6) == 0) {
            for (size_t i = 0; i < run->n_records; i++) {
                const struct gb_record *r = &run->records[i];
                double v, lo, hi;
                if (r->status == GB_REC_OK && strcmp(r->suite, s->name) == 0 &&
                    strcmp(r->bench, src + 6) == 0 && gb_y_shown(run, s, c, ys, r, &v, &lo, &hi))
                    y = isnan(y) ? v : fmax(y, v);
            }
        } else if (strncmp(src, "value:", 6) == 0) {
            char *end;
            y = strtod(src + 6, &end);
            if (*end)
                y = NAN;
        } else {
            return gb_error_set(GB_ERR_USAGE, "chart %s: unknown reference source '%s' (use "
                                "device:mem_peak_gbs, bench:NAME or value:NUMBER)", c->name, src);
        }
        /* A line whose source was not measured in this run is left out. */
        if (isfinite(y) && (st = gb_plot_ref(p, item, y, c->relative_to ? "" : ys->unit)) != GB_OK)
            return st;
    }
    return st;
}

static enum gb_status gb_chart_heat(struct gb_plot *p, const struct gb_run *run,
                                    const struct gb_chart_set *s, const struct gb_chart_spec *c,
                                    const struct gb_ysel *ys, int *n_cells)
{
    enum gb_status st;
    const char *flag_metric = c->flag && strncmp(c->flag, "metric:", 7) == 0 ? c->flag + 7 : NULL;
    if (!c->row || !c->col)
        return gb_error_set(GB_ERR_USAGE, "chart %s: a heat grid needs row and col axes", c->name);
    if ((st = gb_plot_heat_style(p, ys->kind == GB_Y_BW || ys->kind == GB_Y_GFLOPS,
                                 c->flag_label ? c->flag_label : c->flag)) != GB_OK)
        return st;
    /* Rows and columns appear in the order of the sweep that measured them. */
    for (size_t i = 0; i < run->n_records; i++) {
        const struct gb_record *r = &run->records[i];
        const char *rv = gb_record_axis(r, c->row), *cv = gb_record_axis(r, c->col);
        double y, lo, hi;
        if (!gb_rec_in_chart(s, c, r) || !rv || !cv || r->status == GB_REC_SKIPPED)
            continue;
        if (r->status != GB_REC_OK)
            y = NAN;
        else if (!gb_y_of(ys, r, &y, &lo, &hi))
            continue;
        int flagged = flag_metric && gb_record_metric(r, flag_metric, 0) != 0;
        gb_plot_tag(p, (long)i);
        if ((st = gb_plot_heat_cell(p, rv, cv, y, flagged)) != GB_OK)
            return st;
        (*n_cells)++;
    }
    return GB_OK;
}

/* A line or bar chart with one series per y of the `ys` list: every
 * selected record gives a point to each series whose y it has. Series
 * that no record has are left out. */
static enum gb_status gb_chart_multi_y(struct gb_plot *p, const struct gb_run *run, const struct gb_chart_set *s,
                                       const struct gb_chart_spec *c, const char *const *labels,
                                       const struct gb_ysel *ys, int n_ys, int *n_points)
{
    enum gb_status st = GB_OK;
    int idx[GB_MAX_YS];
    int numeric_x = c->kind == GB_CHART_LINE;
    for (int k = 0; k < n_ys; k++) {
        int any = 0;
        idx[k] = -1;
        for (size_t i = 0; i < run->n_records && !any; i++) {
            const struct gb_record *r = &run->records[i];
            double y, lo, hi;
            any = gb_rec_plotted(run, s, c, &ys[k], r, &y, &lo, &hi);
        }
        if (any && (st = gb_plot_series(p, labels[k], &idx[k])) != GB_OK)
            return st;
    }
    for (size_t i = 0; numeric_x && i < run->n_records; i++)
        for (int k = 0; k < n_ys && numeric_x; k++) {
            const struct gb_record *r = &run->records[i];
            double v, y, lo, hi;
            if (gb_rec_plotted(run, s, c, &ys[k], r, &y, &lo, &hi) && !gb_axis_number(gb_rec_x(c, r), &v))
                numeric_x = 0;
        }
    for (size_t i = 0; i < run->n_records; i++) {
        const struct gb_record *r = &run->records[i];
        for (int k = 0; k < n_ys; k++) {
            double y, lo, hi, x;
            if (idx[k] < 0 || !gb_rec_plotted(run, s, c, &ys[k], r, &y, &lo, &hi))
                continue;
            const char *xv = gb_rec_x(c, r);
            gb_plot_tag(p, (long)i);
            if (c->kind == GB_CHART_BAR)
                st = gb_plot_bar(p, idx[k], xv, y, lo, hi);
            else if (numeric_x && gb_axis_number(xv, &x))
                st = gb_plot_point(p, idx[k], x, y, lo, hi);
            else
                st = gb_plot_point_cat(p, idx[k], xv, y, lo, hi);
            if (st != GB_OK)
                return st;
            (*n_points)++;
        }
    }
    return GB_OK;
}

struct gb_by_x {
    size_t i;
    double x;
};

static int gb_cmp_by_x(const void *a, const void *b)
{
    const struct gb_by_x *p = a, *q = b;
    if (p->x != q->x)
        return (p->x > q->x) - (p->x < q->x);
    return (p->i > q->i) - (p->i < q->i);
}

/* Indexes of all records, those with a numeric x in the chart's x order (ties
 * in run order), the others after them; NULL when out of memory. */
static size_t *gb_records_by_x(const struct gb_run *run, const struct gb_chart_spec *c)
{
    size_t n = run->n_records;
    struct gb_by_x *k = calloc(n ? n : 1, sizeof *k);
    size_t *order = calloc(n ? n : 1, sizeof *order);
    if (!k || !order) {
        free(k);
        free(order);
        return NULL;
    }
    for (size_t i = 0; i < n; i++) {
        const char *xv = gb_rec_x(c, &run->records[i]);
        k[i].i = i;
        if (!xv || !gb_axis_number(xv, &k[i].x))
            k[i].x = INFINITY;
    }
    qsort(k, n, sizeof *k, gb_cmp_by_x);
    for (size_t i = 0; i < n; i++)
        order[i] = k[i].i;
    free(k);
    return order;
}

/* Whether the chart's y axis is a time in ns: every y a median time, not
 * relative to a reference (heat grids have no y axis). */
static int gb_chart_is_time(const struct gb_chart_spec *c, const struct gb_ysel *ys,
                            const struct gb_ysel *ys_list, int n_ys)
{
    if (c->kind == GB_CHART_HEAT || c->relative_to || ys->kind != GB_Y_TIME)
        return 0;
    for (int k = 0; k < n_ys; k++)
        if (ys_list[k].kind != GB_Y_TIME)
            return 0;
    return 1;
}

enum gb_status gb_chart_plot_new(const struct gb_run *run, const struct gb_chart_spec *c,
                                 enum gb_chart_kind kind, struct gb_plot **out)
{
    enum gb_status st;
    char sub[512];
    struct gb_plot *p = gb_plot_new(kind, c->name, c->title ? c->title : c->name);
    *out = NULL;
    if (!p)
        return gb_error_set(GB_ERR_USAGE, "chart %s: bad chart name (letters, digits, '.', '-', "
                            "'_') or out of memory", c->name);
    if ((st = gb_plot_labels(p, c->x_label, c->y_label)) != GB_OK)
        goto fail;
    if (run->info.has_device && run->info.device.name[0]) {
        if (run->info.started_utc[0])
            snprintf(sub, sizeof sub, "%s, %.10s", run->info.device.name, run->info.started_utc);
        else
            snprintf(sub, sizeof sub, "%s", run->info.device.name);
        if ((st = gb_plot_subtitle(p, sub)) != GB_OK)
            goto fail;
    }
    *out = p;
    return GB_OK;
fail:
    gb_plot_free(p);
    return st;
}

enum gb_status gb_chart_build(const struct gb_run *run, const struct gb_chart_set *s,
                              const struct gb_chart_spec *c, struct gb_plot **out, int *n_out)
{
    enum gb_status st = GB_OK;
    struct gb_plot *p = NULL;
    struct gb_ysel ys;
    char **labels = NULL;
    size_t n_labels = 0;
    int n_points = 0;
    size_t *order = NULL;

    *out = NULL;
    *n_out = 0;
    char ys_buf[512];
    const char *ys_labels[GB_MAX_YS];
    struct gb_ysel ys_list[GB_MAX_YS];
    int n_ys = 0;
    if (c->ys && c->kind != GB_CHART_HEAT) {
        if ((st = gb_ys_parse(c, ys_buf, sizeof ys_buf, ys_labels, ys_list, &n_ys)) != GB_OK)
            goto out;
        ys = ys_list[0];
    } else if ((st = gb_ysel_parse(c, &ys)) != GB_OK) {
        goto out;
    }
    if ((st = gb_chart_plot_new(run, c, c->kind, &p)) != GB_OK)
        goto out;
    gb_plot_log(p, c->log_x, c->log_y);

    if (c->kind == GB_CHART_HEAT) {
        if ((st = gb_chart_heat(p, run, s, c, &ys, &n_points)) != GB_OK)
            goto out;
    } else if (n_ys) {
        if ((st = gb_chart_multi_y(p, run, s, c, ys_labels, ys_list, n_ys, &n_points)) != GB_OK ||
            (st = gb_chart_refs(p, run, s, c, &ys)) != GB_OK)
            goto out;
    } else {
        if ((st = gb_make_series(p, run, s, c, &ys, &labels, &n_labels)) != GB_OK)
            goto out;
        /* x is numeric on a line chart when every x value is a number. */
        int numeric_x = c->kind == GB_CHART_LINE;
        for (size_t i = 0; numeric_x && i < run->n_records; i++) {
            const struct gb_record *r = &run->records[i];
            double v, y, lo, hi;
            if (gb_rec_plotted(run, s, c, &ys, r, &y, &lo, &hi) &&
                !gb_axis_number(gb_rec_x(c, r), &v))
                numeric_x = 0;
        }
        /* Evenly placed numbers: categories, made in numeric order. */
        int even_x = numeric_x && c->x_categories;
        if (even_x) {
            numeric_x = 0;
            if (!(order = gb_records_by_x(run, c))) {
                st = gb_error_set(GB_ERR_NOMEM, "out of memory");
                goto out;
            }
        }
        for (size_t o = 0; o < run->n_records; o++) {
            size_t i = order ? order[o] : o;
            const struct gb_record *r = &run->records[i];
            double y, lo, hi, x;
            char text[256];
            if (!gb_rec_plotted(run, s, c, &ys, r, &y, &lo, &hi))
                continue;
            const char *xv = gb_rec_x(c, r);
            gb_series_text(c, r, text, sizeof text);
            int si = gb_series_index(labels, n_labels, text);
            if (si < 0)
                continue;
            gb_plot_tag(p, (long)i);
            if (c->kind == GB_CHART_BAR)
                st = gb_plot_bar(p, si, xv, y, lo, hi);
            else if (numeric_x && gb_axis_number(xv, &x))
                st = gb_plot_point(p, si, x, y, lo, hi);
            else
                st = gb_plot_point_cat(p, si, xv, y, lo, hi);
            if (st != GB_OK)
                goto out;
            n_points++;
        }
        if ((st = gb_chart_refs(p, run, s, c, &ys)) != GB_OK)
            goto out;
    }
    if (gb_chart_is_time(c, &ys, ys_list, n_ys) && (st = gb_plot_time_axis(p)) != GB_OK)
        goto out;
    gb_plot_tag(p, -1);
    *out = p;
    *n_out = n_points;
    p = NULL;
out:
    for (size_t i = 0; i < n_labels; i++)
        free(labels[i]);
    free(labels);
    free(order);
    gb_plot_free(p);
    return st;
}

/* Draws one declared chart, or lists it in res->no_data when nothing of it was measured. */
static enum gb_status gb_chart_one(const struct gb_run *run, const struct gb_chart_set *s,
                                   const struct gb_chart_spec *c, const char *out_dir, int formats,
                                   struct gb_report_result *res)
{
    struct gb_plot *p = NULL;
    int n_points = 0;
    enum gb_status st;
    if (c->kind == GB_CHART_SPEEDUP)
        return gb_chart_speedup(run, s, c, out_dir, formats, res);
    if ((st = gb_chart_build(run, s, c, &p, &n_points)) != GB_OK)
        return st;
    gb_plot_formats(p, formats);
    if (n_points == 0)
        st = gb_result_add(&res->no_data, &res->n_no_data, c->name);
    else
        st = gb_plot_draw(p, out_dir, res);
    gb_plot_free(p);
    return st;
}

/* Appends `s` to buf (of size n) with characters outside a file stem as '_'. */
static void gb_stem_append(char *buf, size_t n, const char *s)
{
    size_t len = strlen(buf);
    for (; *s && len + 1 < n; s++) {
        char c = *s;
        int ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
                 c == '-' || c == '_' || c == '.';
        buf[len++] = ok ? c : '_';
    }
    buf[len] = '\0';
}

/* The value of split item `axis` of a record, or NULL when it has none. */
static const char *gb_split_value(const struct gb_record *r, const char *axis)
{
    return strcmp(axis, "bench") == 0 ? r->bench : gb_record_axis(r, axis);
}

/* Fills one instance of split spec `c` for the split values of record `r`;
 * 0 when the record lacks a split axis. */
static int gb_inst_fill(const struct gb_chart_spec *c, const struct gb_record *r,
                        struct gb_chart_inst *in)
{
    const char *list = c->split;
    size_t tl;
    memset(in, 0, sizeof *in);
    in->spec = *c;
    in->spec.split = NULL;
    snprintf(in->name, sizeof in->name, "%s", c->name);
    snprintf(in->title, sizeof in->title, "%s (", c->title ? c->title : c->name);
    if (c->where)
        snprintf(in->where, sizeof in->where, "%s", c->where);
    int first = 1;
    while (*list) {
        char axis[64];
        size_t an = strcspn(list, ",");
        snprintf(axis, sizeof axis, "%.*s", (int)an, list);
        list += an;
        if (*list == ',')
            list++;
        if (!axis[0])
            continue;
        const char *v = gb_split_value(r, axis);
        if (!v)
            return 0;
        strncat(in->name, "-", sizeof in->name - strlen(in->name) - 1);
        gb_stem_append(in->name, sizeof in->name, v);
        tl = strlen(in->title);
        if (strcmp(axis, "bench") == 0) {
            snprintf(in->bench, sizeof in->bench, "%s", v);
            snprintf(in->title + tl, sizeof in->title - tl, "%s%s", first ? "" : ", ", v);
        } else {
            size_t wl = strlen(in->where);
            snprintf(in->where + wl, sizeof in->where - wl, "%s%s=%s", wl ? "," : "", axis, v);
            snprintf(in->title + tl, sizeof in->title - tl, "%s%s=%s", first ? "" : ", ", axis, v);
        }
        first = 0;
    }
    tl = strlen(in->title);
    snprintf(in->title + tl, sizeof in->title - tl, ")");
    in->spec.name = in->name;
    in->spec.title = in->title;
    in->spec.where = in->where[0] ? in->where : NULL;
    if (in->bench[0])
        in->spec.benches = in->bench;
    return 1;
}

enum gb_status gb_chart_instances(const struct gb_run *run, const struct gb_chart_set *s,
                                  const struct gb_chart_spec *c, struct gb_chart_inst **out,
                                  size_t *n)
{
    struct gb_chart_inst *v = NULL, one;
    size_t cap = 0;
    *out = NULL;
    *n = 0;
    if (!c->split) {
        if (!(v = calloc(1, sizeof *v)))
            return gb_error_set(GB_ERR_NOMEM, "out of memory");
        v->spec = *c;
        *out = v;
        *n = 1;
        return GB_OK;
    }
    for (size_t i = 0; i < run->n_records; i++) {
        const struct gb_record *r = &run->records[i];
        size_t k;
        if (!gb_rec_in_chart(s, c, r) || !gb_inst_fill(c, r, &one))
            continue;
        for (k = 0; k < *n; k++)
            if (strcmp(v[k].name, one.name) == 0 && strcmp(v[k].where, one.where) == 0 &&
                strcmp(v[k].bench, one.bench) == 0)
                break;
        if (k < *n)
            continue;
        if (*n == cap) {
            size_t nc = cap ? 2 * cap : 16;
            struct gb_chart_inst *nv = realloc(v, nc * sizeof *nv);
            if (!nv) {
                free(v);
                *n = 0;
                return gb_error_set(GB_ERR_NOMEM, "out of memory");
            }
            v = nv;
            cap = nc;
        }
        v[*n] = one;
        (*n)++;
    }
    /* The copies' pointers must point into their own (moved) storage. */
    for (size_t k = 0; k < *n; k++) {
        v[k].spec.name = v[k].name;
        v[k].spec.title = v[k].title;
        v[k].spec.where = v[k].where[0] ? v[k].where : NULL;
        v[k].spec.benches = v[k].bench[0] ? v[k].bench : c->benches;
    }
    *out = v;
    return GB_OK;
}

enum gb_status gb_charts_draw(const struct gb_run *run, const struct gb_chart_set *set,
                              const struct gb_report_opts *opts, int large, const char *out_dir,
                              struct gb_report_result *res)
{
    enum gb_status first = GB_OK, st;
    char first_msg[1024] = "";
    int formats = opts ? opts->formats : 0;
    if ((st = gb_mkdir_p(out_dir)) != GB_OK)
        return st;
    for (int i = 0; i < set->n_charts; i++) {
        const struct gb_chart_spec *c = &set->charts[i];
        struct gb_chart_inst *inst = NULL;
        size_t n_inst = 0;
        st = gb_chart_instances(run, set, c, &inst, &n_inst);
        if (st == GB_OK && n_inst == 0) {
            if (gb_chart_wanted(opts, large, set, c, NULL, 0))
                st = gb_result_add(&res->no_data, &res->n_no_data, c->name);
            else
                res->n_left_out++;
        }
        for (size_t k = 0; st == GB_OK && k < n_inst; k++) {
            if (!gb_chart_wanted(opts, large, set, c, &inst[k], k)) {
                res->n_left_out++;
                continue;
            }
            enum gb_status cst = gb_chart_one(run, set, &inst[k].spec, out_dir, formats, res);
            if (cst != GB_OK && first == GB_OK) {
                first = cst;
                snprintf(first_msg, sizeof first_msg, "%s", gb_error_message());
            }
        }
        free(inst);
        if (st != GB_OK && first == GB_OK) {
            first = st;
            snprintf(first_msg, sizeof first_msg, "%s", gb_error_message());
        }
    }
    if (first != GB_OK)
        return gb_error_set(first, "%s", first_msg);
    return GB_OK;
}

enum gb_status gb_report_charts(const struct gb_run *run, const struct gb_chart_set *set,
                                const struct gb_report_opts *opts, const char *out_dir,
                                struct gb_report_result *res)
{
    return gb_charts_draw(run, set, opts, 0, out_dir, res);
}

struct gb_xval {
    const char *text;   /* points into a record */
    double num;
};

static int gb_cmp_xval(const void *a, const void *b)
{
    const struct gb_xval *x = a, *y = b;
    return (x->num > y->num) - (x->num < y->num);
}

enum gb_status gb_report_chart_table(const struct gb_run *run, const struct gb_chart_set *suite,
                                     const struct gb_chart_spec *c, struct gb_table **out)
{
    enum gb_status st = GB_OK;
    struct gb_ysel ys;
    struct gb_table *t = NULL;
    struct gb_xval *xs = NULL;
    double *yv = NULL, *cells = NULL;
    size_t nx = 0, n_labels = 0, n = run->n_records;
    char **labels = NULL;
    int numeric = 1;

    *out = NULL;
    if (c->kind == GB_CHART_HEAT)
        return gb_error_set(GB_ERR_USAGE, "chart %s: a heat grid has no table of series", c->name);
    if ((st = gb_ysel_parse(c, &ys)) != GB_OK)
        return st;
    if ((st = gb_make_series(NULL, run, suite, c, &ys, &labels, &n_labels)) != GB_OK)
        goto out;
    xs = calloc(n ? n : 1, sizeof *xs);
    yv = calloc(n ? n : 1, sizeof *yv);
    if (!xs || !yv) {
        st = gb_error_set(GB_ERR_NOMEM, "out of memory");
        goto out;
    }
    /* Each record's y once (NaN: not on the chart), and the x values. */
    for (size_t i = 0; i < n; i++) {
        const struct gb_record *r = &run->records[i];
        double lo, hi;
        size_t k;
        if (!gb_rec_plotted(run, suite, c, &ys, r, &yv[i], &lo, &hi)) {
            yv[i] = NAN;
            continue;
        }
        const char *xv = gb_rec_x(c, r);
        for (k = 0; k < nx; k++)
            if (strcmp(xs[k].text, xv) == 0)
                break;
        if (k < nx)
            continue;
        xs[nx].text = xv;
        if (!gb_axis_number(xv, &xs[nx].num))
            numeric = 0;
        nx++;
    }
    /* Numeric x in numeric order, as the line chart draws them. */
    if (numeric && c->kind == GB_CHART_LINE)
        qsort(xs, nx, sizeof *xs, gb_cmp_xval);
    cells = malloc((n_labels * nx > 0 ? n_labels * nx : 1) * sizeof *cells);
    if (!cells) {
        st = gb_error_set(GB_ERR_NOMEM, "out of memory");
        goto out;
    }
    for (size_t k = 0; k < n_labels * nx; k++)
        cells[k] = NAN;
    /* The first record of a series at an x fills the cell. */
    for (size_t i = 0; i < n; i++) {
        const struct gb_record *r = &run->records[i];
        char text[256];
        size_t k;
        int si;
        if (isnan(yv[i]))
            continue;
        gb_series_text(c, r, text, sizeof text);
        si = gb_series_index(labels, n_labels, text);
        for (k = 0; k < nx && strcmp(xs[k].text, gb_rec_x(c, r)) != 0; k++)
            ;
        if (si >= 0 && k < nx && isnan(cells[(size_t)si * nx + k]))
            cells[(size_t)si * nx + k] = yv[i];
    }
    if (!(t = gb_table_new())) {
        st = gb_error_set(GB_ERR_NOMEM, "out of memory");
        goto out;
    }
    if ((st = gb_table_column(t, "series", NULL)) != GB_OK)
        goto out;
    for (size_t k = 0; k < nx; k++)
        if ((st = gb_table_column(t, xs[k].text, NULL)) != GB_OK)
            goto out;
    for (size_t si = 0; si < n_labels; si++) {
        if ((st = gb_table_row(t)) != GB_OK || (st = gb_table_cell_text(t, labels[si])) != GB_OK)
            goto out;
        for (size_t k = 0; k < nx; k++)
            if ((st = gb_table_cell_num(t, cells[si * nx + k], 4)) != GB_OK)
                goto out;
    }
    *out = t;
    t = NULL;
out:
    gb_table_free(t);
    free(xs);
    free(yv);
    free(cells);
    for (size_t i = 0; i < n_labels; i++)
        free(labels[i]);
    free(labels);
    return st;
}
