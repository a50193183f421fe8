/* plot.c - charts drawn by gnuplot from generated scripts: building one.
 *
 * A plot is plain data until gb_plot_draw writes it as one gnuplot script
 * with its data inline (datablocks), then runs gnuplot on that script in
 * the output directory. No text reaches a shell: gnuplot is started with
 * fork/exec and the script's path as its only argument, and every string
 * from the data is written as a single-quoted gnuplot string or a quoted
 * datablock field, where gnuplot substitutes nothing.
 *
 * The plot by job: building it, its series, points, bars, cells and
 * styles (here); its axes and scales and the script's common pieces
 * (plot_axes.c); line charts (plot_line.c), bar charts (plot_bar.c) and
 * heat grids (plot_heat.c); running gnuplot (plot_draw.c); the plot as
 * data for report.html (plot_json.c).
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "gpubound/plot.h"
#include "plot_internal.h"
#include "report_internal.h"

/* ---- building ---- */

static int gb_valid_stem(const char *s)
{
    size_t n = strlen(s);
    if (n == 0 || n >= 100 || s[0] == '.' || s[0] == '-')
        return 0;
    return strspn(s, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._-") == n;
}

static char *gb_dup(const char *s)
{
    return s ? strdup(s) : NULL;
}

struct gb_plot *gb_plot_new(enum gb_chart_kind kind, const char *name, const char *title)
{
    struct gb_plot *p;
    if (!name || !gb_valid_stem(name))
        return NULL;
    p = calloc(1, sizeof *p);
    if (!p)
        return NULL;
    p->kind = kind;
    p->tag = -1;
    snprintf(p->name, sizeof p->name, "%s", name);
    if (title && !(p->title = strdup(title))) {
        free(p);
        return NULL;
    }
    return p;
}

static void gb_strs_free(struct gb_strs *s)
{
    gb_str_list_free(s->v, s->n);
}

void gb_plot_free(struct gb_plot *p)
{
    if (!p)
        return;
    for (size_t i = 0; i < p->n_series; i++) {
        free(p->series[i].label);
        free(p->series[i].pts);
    }
    for (size_t i = 0; i < p->n_refs; i++) {
        free(p->refs[i].label);
        free(p->refs[i].unit);
    }
    for (size_t i = 0; i < p->n_stars; i++)
        free(p->stars[i].label);
    free(p->stars);
    free(p->marks);
    free(p->mark_label);
    free(p->series);
    free(p->refs);
    gb_strs_free(&p->cats);
    gb_strs_free(&p->rows);
    gb_strs_free(&p->cols);
    free(p->cells);
    free(p->title);
    free(p->subtitle);
    free(p->x_label);
    free(p->y_label);
    free(p->flag_label);
    free(p);
}

enum gb_status gb_plot_replace(char **dst, const char *s)
{
    char *c = gb_dup(s);
    if (s && !c)
        return gb_error_set(GB_ERR_NOMEM, "out of memory");
    free(*dst);
    *dst = c;
    return GB_OK;
}

enum gb_status gb_plot_labels(struct gb_plot *p, const char *x_label, const char *y_label)
{
    enum gb_status st = gb_plot_replace(&p->x_label, x_label);
    return st != GB_OK ? st : gb_plot_replace(&p->y_label, y_label);
}

enum gb_status gb_plot_subtitle(struct gb_plot *p, const char *subtitle)
{
    return gb_plot_replace(&p->subtitle, subtitle);
}

void gb_plot_formats(struct gb_plot *p, int formats)
{
    p->formats = formats & (GB_PLOT_SVG | GB_PLOT_PNG);
}

void gb_plot_tag(struct gb_plot *p, long rec)
{
    p->tag = rec < 0 ? -1 : rec;
}

void gb_plot_y_fit(struct gb_plot *p)
{
    p->y_fit = 1;
}

void gb_plot_bar_base(struct gb_plot *p, double base)
{
    p->has_bar_base = isfinite(base);
    p->bar_base = base;
}

void gb_plot_log(struct gb_plot *p, int log_x, int log_y)
{
    p->log_x = log_x;
    p->log_y = log_y;
}

enum gb_status gb_plot_series(struct gb_plot *p, const char *label, int *idx)
{
    struct gb_series *ns = realloc(p->series, (p->n_series + 1) * sizeof *ns);
    if (!ns)
        return gb_error_set(GB_ERR_NOMEM, "out of memory");
    p->series = ns;
    memset(&ns[p->n_series], 0, sizeof ns[0]);
    ns[p->n_series].label = strdup(label ? label : "");
    if (!ns[p->n_series].label)
        return gb_error_set(GB_ERR_NOMEM, "out of memory");
    *idx = (int)p->n_series++;
    return GB_OK;
}

enum gb_status gb_plot_series_style(struct gb_plot *p, int s, enum gb_plot_style style)
{
    if (s < 0 || (size_t)s >= p->n_series)
        return gb_error_set(GB_ERR_USAGE, "plot %s has no series %d", p->name, s);
    p->series[s].style = style;
    return GB_OK;
}

static enum gb_status gb_series_push(struct gb_plot *p, int s, struct gb_pt pt)
{
    if (s < 0 || (size_t)s >= p->n_series)
        return gb_error_set(GB_ERR_USAGE, "plot %s has no series %d", p->name, s);
    struct gb_series *se = &p->series[s];
    if (se->n == se->cap) {
        size_t cap = se->cap ? 2 * se->cap : 16;
        struct gb_pt *np = realloc(se->pts, cap * sizeof *np);
        if (!np)
            return gb_error_set(GB_ERR_NOMEM, "out of memory");
        se->pts = np;
        se->cap = cap;
    }
    pt.rec = p->tag;
    se->pts[se->n++] = pt;
    return GB_OK;
}

/* Index of `s` in the list, added at the end when new. */
static enum gb_status gb_strs_index(struct gb_strs *l, const char *s, size_t *idx)
{
    for (size_t i = 0; i < l->n; i++)
        if (strcmp(l->v[i], s) == 0) {
            *idx = i;
            return GB_OK;
        }
    *idx = l->n;
    return gb_result_add(&l->v, &l->n, s);
}

enum gb_status gb_plot_point(struct gb_plot *p, int s, double x, double y, double ylo, double yhi)
{
    if (p->kind != GB_CHART_LINE || p->x_mode == 2)
        return gb_error_set(GB_ERR_USAGE, "plot %s: numeric points need a line chart "
                            "without categories", p->name);
    p->x_mode = 1;
    return gb_series_push(p, s, (struct gb_pt){x, y, ylo, yhi, -1});
}

enum gb_status gb_plot_point_cat(struct gb_plot *p, int s, const char *x, double y, double ylo,
                                 double yhi)
{
    size_t i;
    enum gb_status st;
    if (p->kind != GB_CHART_LINE || p->x_mode == 1)
        return gb_error_set(GB_ERR_USAGE, "plot %s: category points need a line chart "
                            "without numeric points", p->name);
    p->x_mode = 2;
    if ((st = gb_strs_index(&p->cats, x ? x : "", &i)) != GB_OK)
        return st;
    return gb_series_push(p, s, (struct gb_pt){(double)i, y, ylo, yhi, -1});
}

enum gb_status gb_plot_bar(struct gb_plot *p, int s, const char *group, double y, double ylo,
                           double yhi)
{
    size_t i;
    enum gb_status st;
    if (p->kind != GB_CHART_BAR)
        return gb_error_set(GB_ERR_USAGE, "plot %s is not a bar chart", p->name);
    if (s < 0 || (size_t)s >= p->n_series)
        return gb_error_set(GB_ERR_USAGE, "plot %s has no series %d", p->name, s);
    if ((st = gb_strs_index(&p->cats, group ? group : "", &i)) != GB_OK)
        return st;
    /* One bar per series and group: a second value replaces the first. */
    struct gb_series *se = &p->series[s];
    for (size_t k = 0; k < se->n; k++)
        if (se->pts[k].x == (double)i) {
            se->pts[k] = (struct gb_pt){(double)i, y, ylo, yhi, p->tag};
            return GB_OK;
        }
    return gb_series_push(p, s, (struct gb_pt){(double)i, y, ylo, yhi, -1});
}

enum gb_status gb_plot_ref(struct gb_plot *p, const char *label, double y, const char *unit)
{
    if (!isfinite(y))
        return gb_error_set(GB_ERR_USAGE, "plot %s: reference line %s has no value", p->name,
                            label ? label : "");
    struct gb_ref *nr = realloc(p->refs, (p->n_refs + 1) * sizeof *nr);
    if (!nr)
        return gb_error_set(GB_ERR_NOMEM, "out of memory");
    p->refs = nr;
    struct gb_ref *r = &nr[p->n_refs];
    r->y = y;
    r->label = strdup(label ? label : "");
    r->unit = strdup(unit ? unit : "");
    if (!r->label || !r->unit) {
        free(r->label);
        free(r->unit);
        return gb_error_set(GB_ERR_NOMEM, "out of memory");
    }
    p->n_refs++;
    return GB_OK;
}

enum gb_status gb_plot_stacked(struct gb_plot *p, const char *mark_label)
{
    if (p->kind != GB_CHART_BAR)
        return gb_error_set(GB_ERR_USAGE, "plot %s is not a bar chart", p->name);
    p->stacked = 1;
    free(p->mark_label);
    p->mark_label = NULL;
    if (mark_label && !(p->mark_label = strdup(mark_label)))
        return gb_error_set(GB_ERR_NOMEM, "out of memory");
    return GB_OK;
}

enum gb_status gb_plot_bar_mark(struct gb_plot *p, const char *group, double y, double ylo,
                                double yhi)
{
    size_t i;
    enum gb_status st;
    if (!p->stacked)
        return gb_error_set(GB_ERR_USAGE, "plot %s has no stacked bars to mark", p->name);
    if ((st = gb_strs_index(&p->cats, group ? group : "", &i)) != GB_OK)
        return st;
    struct gb_pt *nm = realloc(p->marks, (p->n_marks + 1) * sizeof *nm);
    if (!nm)
        return gb_error_set(GB_ERR_NOMEM, "out of memory");
    p->marks = nm;
    nm[p->n_marks++] = (struct gb_pt){(double)i, y, ylo, yhi, -1};
    return GB_OK;
}

enum gb_status gb_plot_star(struct gb_plot *p, const char *label, double x, double y)
{
    if (p->kind != GB_CHART_LINE || p->x_mode == 2)
        return gb_error_set(GB_ERR_USAGE, "plot %s: a star needs a line chart with numeric x",
                            p->name);
    if (!isfinite(x) || !isfinite(y))
        return gb_error_set(GB_ERR_USAGE, "plot %s: a star needs finite coordinates", p->name);
    struct gb_star *ns = realloc(p->stars, (p->n_stars + 1) * sizeof *ns);
    if (!ns)
        return gb_error_set(GB_ERR_NOMEM, "out of memory");
    p->stars = ns;
    ns[p->n_stars].x = x;
    ns[p->n_stars].y = y;
    if (!(ns[p->n_stars].label = strdup(label ? label : "")))
        return gb_error_set(GB_ERR_NOMEM, "out of memory");
    p->n_stars++;
    p->x_mode = 1;
    return GB_OK;
}

enum gb_status gb_plot_heat_cell(struct gb_plot *p, const char *row, const char *col,
                                 double value, int flagged)
{
    size_t r, c;
    enum gb_status st;
    if (p->kind != GB_CHART_HEAT)
        return gb_error_set(GB_ERR_USAGE, "plot %s is not a heat grid", p->name);
    if ((st = gb_strs_index(&p->rows, row ? row : "", &r)) != GB_OK ||
        (st = gb_strs_index(&p->cols, col ? col : "", &c)) != GB_OK)
        return st;
    for (size_t i = 0; i < p->n_cells; i++)
        if (p->cells[i].row == r && p->cells[i].col == c) {
            p->cells[i].v = value;
            p->cells[i].flagged = flagged;
            p->cells[i].rec = p->tag;
            return GB_OK;
        }
    struct gb_cell_v *nc = realloc(p->cells, (p->n_cells + 1) * sizeof *nc);
    if (!nc)
        return gb_error_set(GB_ERR_NOMEM, "out of memory");
    p->cells = nc;
    nc[p->n_cells++] = (struct gb_cell_v){r, c, value, flagged, p->tag};
    return GB_OK;
}

enum gb_status gb_plot_heat_style(struct gb_plot *p, int higher_is_better, const char *flag_label)
{
    p->higher_better = higher_is_better;
    return gb_plot_replace(&p->flag_label, flag_label);
}
