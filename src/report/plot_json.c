/* plot_json.c - a plot as data, for report.html's charts: its series,
 * points, intervals, reference lines and heat cells as JSON. */
#include <math.h>
#include <stdlib.h>

#include <jansson.h>

#include "gpubound/plot.h"
#include "plot_internal.h"
#include "report_internal.h"

static json_t *gb_jnum(double v)
{
    return isfinite(v) ? json_real(v) : json_null();
}

static json_t *gb_jstrs(const struct gb_strs *l)
{
    json_t *a = json_array();
    for (size_t i = 0; a && i < l->n; i++)
        json_array_append_new(a, json_string(l->v[i]));
    return a;
}

static const char *gb_kind_name(enum gb_chart_kind k)
{
    return k == GB_CHART_BAR ? "bar" : k == GB_CHART_HEAT ? "heat" : "line";
}

static const char *gb_style_name(enum gb_plot_style s)
{
    return s == GB_PLOT_STYLE_LINES ? "lines" : s == GB_PLOT_STYLE_POINTS ? "points" : "default";
}

static json_t *gb_series_json(const struct gb_series *se)
{
    json_t *pts = json_array();
    for (size_t k = 0; pts && k < se->n; k++) {
        const struct gb_pt *pt = &se->pts[k];
        json_array_append_new(pts, json_pack("[oooo I]", gb_jnum(pt->x), gb_jnum(pt->y),
                                             gb_jnum(pt->lo), gb_jnum(pt->hi), (json_int_t)pt->rec));
    }
    return json_pack("{s:s, s:o, s:s}", "label", se->label, "pts", pts ? pts : json_array(), "style",
                     gb_style_name(se->style));
}

static void gb_plot_json_lines(const struct gb_plot *p, json_t *o)
{
    json_t *series = json_array(), *refs = json_array(), *stars = json_array();
    for (size_t i = 0; series && i < p->n_series; i++)
        json_array_append_new(series, gb_series_json(&p->series[i]));
    for (size_t i = 0; refs && i < p->n_refs; i++)
        json_array_append_new(refs, json_pack("{s:s, s:o, s:s}", "label", p->refs[i].label, "y",
                                              gb_jnum(p->refs[i].y), "unit", p->refs[i].unit));
    for (size_t i = 0; stars && i < p->n_stars; i++)
        json_array_append_new(stars, json_pack("{s:s, s:o, s:o}", "label", p->stars[i].label, "x",
                                               gb_jnum(p->stars[i].x), "y", gb_jnum(p->stars[i].y)));
    json_object_set_new(o, "series", series ? series : json_array());
    json_object_set_new(o, "refs", refs ? refs : json_array());
    json_object_set_new(o, "stars", stars ? stars : json_array());
    json_object_set_new(o, "cats", gb_jstrs(&p->cats));
    json_object_set_new(o, "x_mode", json_integer(p->x_mode));
}

static void gb_plot_json_heat(const struct gb_plot *p, json_t *o)
{
    json_t *cells = json_array();
    for (size_t i = 0; cells && i < p->n_cells; i++) {
        const struct gb_cell_v *c = &p->cells[i];
        json_array_append_new(cells, json_pack("[I I o i I]", (json_int_t)c->row, (json_int_t)c->col,
                                               gb_jnum(c->v), c->flagged, (json_int_t)c->rec));
    }
    json_object_set_new(o, "rows", gb_jstrs(&p->rows));
    json_object_set_new(o, "cols", gb_jstrs(&p->cols));
    json_object_set_new(o, "cells", cells ? cells : json_array());
    json_object_set_new(o, "higher_better", json_boolean(p->higher_better));
    json_object_set_new(o, "flag_label", p->flag_label ? json_string(p->flag_label) : json_null());
}

json_t *gb_plot_json(const struct gb_plot *p)
{
    json_t *o = json_pack("{s:s, s:s, s:s?, s:s?, s:s?, s:s?, s:b, s:b}", "name", p->name, "kind",
                          gb_kind_name(p->kind), "title", p->title, "subtitle", p->subtitle,
                          "x_label", p->x_label, "y_label", p->y_label, "log_x", p->log_x,
                          "log_y", p->log_y);
    if (!o)
        return NULL;
    /* Bars of a ratio start at their base (gb_plot_bar_base), not at zero. */
    if (p->kind == GB_CHART_BAR && p->has_bar_base)
        json_object_set_new(o, "bar_base", json_real(p->bar_base));
    if (p->kind == GB_CHART_HEAT)
        gb_plot_json_heat(p, o);
    else
        gb_plot_json_lines(p, o);
    return o;
}
