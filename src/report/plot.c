/* plot.c - charts drawn by gnuplot from generated scripts.
 *
 * A plot is plain data until gb_plot_draw writes it as one gnuplot script
 * with its data inline (datablocks), then runs gnuplot on that script in
 * the output directory. No text reaches a shell: gnuplot is started with
 * fork/exec and the script's path as its only argument, and every string
 * from the data is written as a single-quoted gnuplot string or a quoted
 * datablock field, where gnuplot substitutes nothing.
 */
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include <jansson.h>

#include "gpubound/numbers.h"
#include "gpubound/plot.h"
#include "gpubound/table.h"
#include "report_internal.h"

#define GB_PLOT_W 1200
#define GB_PLOT_H 750
#define GB_N_COLOURS 8
#define GB_TITLE_COLS 80
#define GB_N_DASHES 4

/* Reference lines: dark greys, told apart by their dashes. Each has its own
 * grey too, because gnuplot's SVG output merges consecutive arrows of one
 * colour into one path and keeps only the first dash pattern. */
static const char *const gb_ref_dashes[GB_N_DASHES] = {"(10,6)", "(3,4)", "(16,5,3,5)", "(6,3)"};
static const char *const gb_ref_greys[GB_N_DASHES] = {"#404040", "#1a1a1a", "#5a5a5a", "#2d2d2d"};

/* Okabe & Ito's palette: distinct for the common colour-vision deficiencies. */
static const char *const gb_colours[GB_N_COLOURS] = {
    "#0072B2", "#D55E00", "#009E73", "#CC79A7", "#E69F00", "#56B4E9", "#000000", "#999999",
};
/* Point types that stay distinct in grey: circle, square, triangle, diamond... */
static const int gb_point_types[GB_N_COLOURS] = {7, 5, 9, 13, 11, 15, 7, 5};

struct gb_pt {
    double x, y, lo, hi;
    long rec;                   /* the record drawn (gb_plot_tag), -1 when none */
};

struct gb_series {
    char *label;
    enum gb_plot_style style;
    struct gb_pt *pts;
    size_t n, cap;
};

struct gb_ref {
    char *label, *unit;
    double y;
};

struct gb_star {
    char *label;
    double x, y;
};

struct gb_cell_v {
    size_t row, col;
    double v;
    int flagged;
    long rec;
};

struct gb_strs {
    char **v;
    size_t n;
};

struct gb_plot {
    enum gb_chart_kind kind;
    char name[128];
    char *title, *subtitle, *x_label, *y_label;
    int log_x, log_y;
    int y_fit;                  /* linear y spans the data only, not from zero */
    int x_mode;                 /* 0 unset, 1 numeric x, 2 categorical x */
    struct gb_series *series;
    size_t n_series;
    struct gb_strs cats;        /* x categories (line) or groups (bar) */
    struct gb_ref *refs;
    size_t n_refs;
    struct gb_star *stars;      /* single marked points (line charts) */
    size_t n_stars;
    struct gb_strs rows, cols;  /* heat grid */
    struct gb_cell_v *cells;
    size_t n_cells;
    int higher_better;
    char *flag_label;
    int formats;                /* GB_PLOT_SVG | GB_PLOT_PNG; 0 = both */
    int stacked;                /* bar charts: series stacked in one bar per group */
    char *mark_label;           /* stacked bars: the legend text of the marks */
    struct gb_pt *marks;        /* stacked bars: one mark per group (x = group index) */
    size_t n_marks;
    long tag;                   /* record of the next point, bar or cell; -1 = none */
};

/* ---- results ---- */

enum gb_status gb_result_add(char ***list, size_t *n, const char *s)
{
    char **nl = realloc(*list, (*n + 1) * sizeof *nl);
    if (!nl)
        return gb_error_set(GB_ERR_NOMEM, "out of memory");
    *list = nl;
    nl[*n] = strdup(s);
    if (!nl[*n])
        return gb_error_set(GB_ERR_NOMEM, "out of memory");
    (*n)++;
    return GB_OK;
}

enum gb_status gb_result_add_file(struct gb_report_result *res, const char *dir,
                                  const char *file)
{
    size_t len = strlen(dir) + strlen(file) + 2;
    char *p = malloc(len);
    if (!p)
        return gb_error_set(GB_ERR_NOMEM, "out of memory");
    snprintf(p, len, "%s/%s", dir, file);
    enum gb_status st = gb_result_add(&res->files, &res->n_files, p);
    free(p);
    return st;
}

void gb_report_result_init(struct gb_report_result *res)
{
    memset(res, 0, sizeof *res);
}

static void gb_list_free(char **v, size_t n)
{
    for (size_t i = 0; i < n; i++)
        free(v[i]);
    free(v);
}

void gb_report_result_release(struct gb_report_result *res)
{
    if (!res)
        return;
    gb_list_free(res->files, res->n_files);
    gb_list_free(res->not_drawn, res->n_not_drawn);
    gb_list_free(res->no_data, res->n_no_data);
    memset(res, 0, sizeof *res);
}

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
    gb_list_free(s->v, s->n);
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

static enum gb_status gb_replace(char **dst, const char *s)
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
    enum gb_status st = gb_replace(&p->x_label, x_label);
    return st != GB_OK ? st : gb_replace(&p->y_label, y_label);
}

enum gb_status gb_plot_subtitle(struct gb_plot *p, const char *subtitle)
{
    return gb_replace(&p->subtitle, subtitle);
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
    return gb_replace(&p->flag_label, flag_label);
}

/* ---- time axes ---- */

/* Calls fn on every y value of a line or bar chart: points, their
 * intervals, reference lines and stars. */
static void gb_plot_each_y(struct gb_plot *p, void (*fn)(double *v, void *ctx), void *ctx)
{
    for (size_t s = 0; s < p->n_series; s++)
        for (size_t i = 0; i < p->series[s].n; i++) {
            struct gb_pt *pt = &p->series[s].pts[i];
            fn(&pt->y, ctx);
            fn(&pt->lo, ctx);
            fn(&pt->hi, ctx);
        }
    for (size_t r = 0; r < p->n_refs; r++)
        fn(&p->refs[r].y, ctx);
    for (size_t i = 0; i < p->n_stars; i++)
        fn(&p->stars[i].y, ctx);
    for (size_t i = 0; i < p->n_marks; i++) {
        fn(&p->marks[i].y, ctx);
        fn(&p->marks[i].lo, ctx);
        fn(&p->marks[i].hi, ctx);
    }
}

struct gb_span {
    double lo, hi;   /* smallest and largest |y| > 0 */
};

static void gb_span_add(double *v, void *ctx)
{
    struct gb_span *sp = ctx;
    double a = fabs(*v);
    if (isfinite(a) && a > 0) {
        sp->lo = fmin(sp->lo, a);
        sp->hi = fmax(sp->hi, a);
    }
}

static void gb_divide(double *v, void *ctx)
{
    *v /= *(const double *)ctx;
}

/* The unit of a time axis: the largest in which the largest value is at
 * least 1, so that ticks read as plain numbers (120, not 1.2e+05); on a
 * log axis one smaller when that keeps the smallest value above 1e-3. */
static int gb_time_unit(const struct gb_span *sp, int log_y)
{
    static const double div[4] = {1, 1e3, 1e6, 1e9};
    int u = 0;
    if (!isfinite(sp->hi))
        return 0;
    while (u < 3 && sp->hi / div[u + 1] >= 1)
        u++;
    while (log_y && u > 0 && sp->lo / div[u] < 1e-3 && sp->hi / div[u - 1] < 1e5)
        u--;
    return u;
}

enum gb_status gb_plot_time_axis(struct gb_plot *p)
{
    static const char *const names[4] = {"ns", "µs", "ms", "s"};
    static const double div[4] = {1, 1e3, 1e6, 1e9};
    struct gb_span sp = {INFINITY, -INFINITY};
    char label[512];

    if (p->kind == GB_CHART_HEAT)
        return GB_OK;
    gb_plot_each_y(p, gb_span_add, &sp);
    int u = gb_time_unit(&sp, p->log_y);
    double d = div[u];
    if (u)
        gb_plot_each_y(p, gb_divide, &d);
    for (size_t r = 0; r < p->n_refs; r++) {
        enum gb_status st;
        if (strcmp(p->refs[r].unit, "ns") == 0 && (st = gb_replace(&p->refs[r].unit, names[u])))
            return st;
    }
    /* "time (ns)" becomes "time (µs)"; a label without a unit gets one. */
    const char *y = p->y_label ? p->y_label : "time";
    size_t n = strlen(y);
    if (n >= 5 && strcmp(y + n - 5, " (ns)") == 0)
        n -= 5;
    snprintf(label, sizeof label, "%.*s (%s)", (int)(n < 400 ? n : 400), y, names[u]);
    return gb_replace(&p->y_label, label);
}

/* ---- gnuplot ---- */

int gb_plot_available(char *buf, size_t n)
{
    const char *path = getenv("PATH");
    char cand[4096];
    if (!path)
        path = "/usr/bin:/bin";
    while (*path) {
        size_t len = strcspn(path, ":");
        struct stat sb;
        /* An empty PATH entry means the current directory. */
        if (len == 0)
            snprintf(cand, sizeof cand, "./gnuplot");
        else
            snprintf(cand, sizeof cand, "%.*s/gnuplot", (int)len, path);
        if (stat(cand, &sb) == 0 && S_ISREG(sb.st_mode) && access(cand, X_OK) == 0) {
            if (buf && n)
                snprintf(buf, n, "%s", cand);
            return 1;
        }
        path += len;
        if (*path == ':')
            path++;
    }
    return 0;
}

/* A gnuplot single-quoted string: nothing inside is substituted; a quote
 * is doubled; line breaks would end the command, so they become blanks. */
static void gb_gp_str(FILE *f, const char *s)
{
    fputc('\'', f);
    for (; s && *s; s++) {
        if (*s == '\'')
            fputs("''", f);
        else if ((unsigned char)*s < 0x20)
            fputc(' ', f);
        else
            fputc(*s, f);
    }
    fputc('\'', f);
}

/* A tic label of an explicit tic list: gnuplot reads it as a format for
 * the tic's value, so a '%' of the text is doubled. */
static void gb_gp_tic(FILE *f, const char *s)
{
    fputc('\'', f);
    for (; s && *s; s++) {
        if (*s == '\'')
            fputs("''", f);
        else if (*s == '%')
            fputs("%%", f);
        else if ((unsigned char)*s < 0x20)
            fputc(' ', f);
        else
            fputc(*s, f);
    }
    fputc('\'', f);
}

/* A quoted field of a datablock line (gnuplot has no escape there). */
static void gb_gp_field(FILE *f, const char *s)
{
    fputc('"', f);
    for (; s && *s; s++)
        fputc(*s == '"' ? '\'' : (unsigned char)*s < 0x20 ? ' ' : *s, f);
    fputc('"', f);
}

static void gb_gp_num(FILE *f, double v)
{
    if (isfinite(v))
        fprintf(f, "%.10g", v);
    else
        fputc('?', f);
}

static int gb_wants(const struct gb_plot *p, int format)
{
    return !p->formats || (p->formats & format);
}

static void gb_gp_png(FILE *f, const struct gb_plot *p)
{
    fprintf(f, "set terminal pngcairo size %d,%d noenhanced font 'Sans,13' "
               "background rgb 'white'\n", GB_PLOT_W, GB_PLOT_H);
    fprintf(f, "set output '%s.png'\n", p->name);
}

/* The first output, set just before the plot command: the SVG, with the PNG
 * as a replot after it (gb_gp_finish), or the PNG alone. */
static void gb_gp_svg(FILE *f, const struct gb_plot *p)
{
    if (!gb_wants(p, GB_PLOT_SVG)) {
        gb_gp_png(f, p);
        return;
    }
    fprintf(f, "set terminal svg size %d,%d dynamic noenhanced font 'Sans,16' "
               "background rgb 'white'\n", GB_PLOT_W, GB_PLOT_H);
    fprintf(f, "set output '%s.svg'\n", p->name);
}

/* After the plot command: the PNG as a replot of the SVG, when both are wanted. */
static void gb_gp_finish(FILE *f, const struct gb_plot *p)
{
    if (gb_wants(p, GB_PLOT_SVG) && gb_wants(p, GB_PLOT_PNG)) {
        gb_gp_png(f, p);
        fputs("replot\nunset output\n", f);
    } else {
        fputs("unset output\n", f);
    }
}

static void gb_gp_labelled(FILE *f, const char *cmd, const char *s)
{
    fprintf(f, "%s ", cmd);
    gb_gp_str(f, s ? s : "");
    fputc('\n', f);
}

/* Writes `s` as a gnuplot string expression broken into lines of at most
 * GB_TITLE_COLS characters at blanks: 'one' . "\n" . 'two'. The line breaks
 * are the only double-quoted strings, and they are ours. `before` lines
 * were already written. Returns the lines written in all. */
static int gb_gp_wrapped(FILE *f, const char *s, int before)
{
    char line[512];
    while (s && *s) {
        size_t len = strlen(s), cut = len;
        if (len > GB_TITLE_COLS) {
            cut = GB_TITLE_COLS;
            while (cut > GB_TITLE_COLS / 2 && s[cut] != ' ')
                cut--;
            if (s[cut] != ' ') {
                /* No blank: cut anyway, but not inside a UTF-8 character. */
                cut = GB_TITLE_COLS;
                while (cut > 1 && ((unsigned char)s[cut] & 0xC0) == 0x80)
                    cut--;
            }
        }
        snprintf(line, sizeof line, "%.*s", (int)(cut < sizeof line ? cut : sizeof line - 1), s);
        if (before++)
            fputs(" . \"\\n\" . ", f);
        gb_gp_str(f, line);
        s += cut;
        while (*s == ' ')
            s++;
    }
    return before;
}

/* "4K", "1M", "512" for a power of two. */
static void gb_pow2_label(char *buf, size_t n, double v)
{
    static const char suffix[] = {'\0', 'K', 'M', 'G', 'T'};
    int k = 0;
    while (k < 4 && v >= 1024 && fmod(v, 1024) == 0) {
        v /= 1024;
        k++;
    }
    if (k)
        snprintf(buf, n, "%.0f%c", v, suffix[k]);
    else
        snprintf(buf, n, "%g", v);
}

static int gb_is_pow2(double v)
{
    if (!(v > 0) || !isfinite(v))
        return 0;
    int e;
    double m = frexp(v, &e);
    return m == 0.5;
}

static int gb_cmp_pt(const void *a, const void *b)
{
    double x = ((const struct gb_pt *)a)->x, y = ((const struct gb_pt *)b)->x;
    return (x > y) - (x < y);
}

static int gb_series_has_ci(const struct gb_series *s)
{
    for (size_t i = 0; i < s->n; i++)
        if (isfinite(s->pts[i].lo) && isfinite(s->pts[i].hi))
            return 1;
    return 0;
}

static void gb_gp_common(FILE *f, const struct gb_plot *p)
{
    fputs("set encoding utf8\n", f);
    fputs("set datafile missing '?'\n", f);
    for (int i = 0; i < GB_N_COLOURS; i++)
        fprintf(f, "set linetype %d lc rgb '%s' lw 2.5 pt %d ps 1.5 dt solid\n", i + 1,
                gb_colours[i], gb_point_types[i]);
    fprintf(f, "set linetype cycle %d\n", GB_N_COLOURS);
    fputs("set border 3 lw 1.5 lc rgb '#404040'\n", f);
    fputs("set tics nomirror out scale 0.75 textcolor rgb '#202020'\n", f);
    fputs("set style textbox opaque noborder margins 1,1\n", f);
    if (p->title || p->subtitle) {
        fputs("set title ", f);
        int lines = gb_gp_wrapped(f, p->title, 0);
        gb_gp_wrapped(f, p->subtitle, lines);
        fputs(" font ',18'\n", f);
    }
    if (p->x_label)
        gb_gp_labelled(f, "set xlabel", p->x_label);
    if (p->y_label)
        gb_gp_labelled(f, "set ylabel", p->y_label);
}

/* The y range of line and bar charts: data, error bars and reference lines,
 * from zero on a linear axis, with headroom for the labels of the lines. */
static void gb_gp_yrange(FILE *f, const struct gb_plot *p)
{
    double lo = INFINITY, hi = -INFINITY;
    for (size_t s = 0; s < p->n_series; s++)
        for (size_t i = 0; i < p->series[s].n; i++) {
            const struct gb_pt *pt = &p->series[s].pts[i];
            double v[3] = {pt->y, pt->lo, pt->hi};
            for (int k = 0; k < 3; k++)
                if (isfinite(v[k]) && (!p->log_y || v[k] > 0)) {
                    lo = fmin(lo, v[k]);
                    hi = fmax(hi, v[k]);
                }
        }
    for (size_t r = 0; r < p->n_refs; r++)
        if (!p->log_y || p->refs[r].y > 0) {
            lo = fmin(lo, p->refs[r].y);
            hi = fmax(hi, p->refs[r].y);
        }
    for (size_t i = 0; i < p->n_stars; i++)
        if (!p->log_y || p->stars[i].y > 0) {
            lo = fmin(lo, p->stars[i].y);
            hi = fmax(hi, p->stars[i].y);
        }
    if (!isfinite(lo) || !isfinite(hi))
        return;
    if (p->log_y) {
        fputs("set logscale y 10\nset format y '%g'\n", f);
        fprintf(f, "set yrange [%.10g:%.10g]\n", lo / 1.6, hi * 1.8);
        fputs("set grid ytics mytics back lt 1 lc rgb '#dcdcdc' lw 1, "
              "lt 1 lc rgb '#f0f0f0' lw 1\n", f);
        return;
    }
    if (p->y_fit && p->kind == GB_CHART_LINE) {
        double pad = hi > lo ? 0.08 * (hi - lo) : 0.01 * fabs(hi) + 1e-9;
        fprintf(f, "set yrange [%.10g:%.10g]\n", lo - pad, hi + pad);
        fputs("set format y '%g'\nset grid ytics back lt 1 lc rgb '#dcdcdc' lw 1\n", f);
        return;
    }
    if (lo > 0)
        lo = 0;
    if (hi <= lo)
        hi = lo + 1;
    fprintf(f, "set yrange [%.10g:%.10g]\n", lo < 0 ? lo * 1.1 : lo, hi + 0.1 * (hi - lo));
    fputs("set format y '%g'\n", f);
    fputs("set grid ytics back lt 1 lc rgb '#dcdcdc' lw 1\n", f);
}

/* Reference lines span the plot; they are named in the legend, not on the
 * plot, so that no label ever covers a bar or a point. */
static void gb_gp_refs(FILE *f, const struct gb_plot *p)
{
    for (size_t r = 0; r < p->n_refs; r++)
        fprintf(f, "set arrow from graph 0, first %.10g to graph 1, first %.10g nohead front "
                   "lw 2 dt %s lc rgb '%s'\n", p->refs[r].y, p->refs[r].y,
                gb_ref_dashes[r % GB_N_DASHES], gb_ref_greys[r % GB_N_DASHES]);
}

/* The legend entries of the reference lines, appended to a plot command. */
static void gb_gp_ref_keys(FILE *f, const struct gb_plot *p)
{
    for (size_t r = 0; r < p->n_refs; r++) {
        const struct gb_ref *ref = &p->refs[r];
        char num[64], text[512];
        gb_format_num(num, sizeof num, ref->y, 4);
        snprintf(text, sizeof text, "%s (%s%s%s)", ref->label, num, ref->unit[0] ? " " : "",
                 ref->unit);
        fprintf(f, ", \\\n     keyentry with lines lw 2 dt %s lc rgb '%s' title ",
                gb_ref_dashes[r % GB_N_DASHES], gb_ref_greys[r % GB_N_DASHES]);
        gb_gp_str(f, text);
    }
}

static void gb_gp_key(FILE *f, size_t n_entries)
{
    if (n_entries <= 1) {
        fputs("set key off\n", f);
        return;
    }
    /* Outside the plot area, so that the legend never covers data. */
    fputs("set key outside right top vertical Left reverse noenhanced samplen 2.5 spacing 1.3 "
          "width 1 box lc rgb '#bbbbbb'\n", f);
}

/* The datablocks of a line chart, one per series (points in x order) and
 * one per star; every x written goes to xs (room for all points). */
static enum gb_status gb_gp_line_data(FILE *f, const struct gb_plot *p, double *xs, size_t *nx)
{
    for (size_t s = 0; s < p->n_series; s++) {
        const struct gb_series *se = &p->series[s];
        /* Lines join points in x order, whatever order they were added in. */
        struct gb_pt *sorted = malloc((se->n ? se->n : 1) * sizeof *sorted);
        if (!sorted)
            return gb_error_set(GB_ERR_NOMEM, "out of memory");
        if (se->n)
            memcpy(sorted, se->pts, se->n * sizeof *sorted);
        qsort(sorted, se->n, sizeof *sorted, gb_cmp_pt);
        fprintf(f, "$s%zu << EOD\n", s);
        for (size_t i = 0; i < se->n; i++) {
            const struct gb_pt *pt = &sorted[i];
            int ci = isfinite(pt->lo) && isfinite(pt->hi);
            gb_gp_num(f, pt->x);
            fputc(' ', f);
            gb_gp_num(f, pt->y);
            fputc(' ', f);
            gb_gp_num(f, ci ? pt->lo : pt->y);
            fputc(' ', f);
            gb_gp_num(f, ci ? pt->hi : pt->y);
            fputc('\n', f);
            xs[(*nx)++] = pt->x;
        }
        fputs("EOD\n", f);
        free(sorted);
    }
    for (size_t i = 0; i < p->n_stars; i++) {
        fprintf(f, "$star%zu << EOD\n", i);
        gb_gp_num(f, p->stars[i].x);
        fputc(' ', f);
        gb_gp_num(f, p->stars[i].y);
        fputs("\nEOD\n", f);
        xs[(*nx)++] = p->stars[i].x;
    }
    return GB_OK;
}

/* A logarithmic x axis over the distinct values xs[0..nd) (sorted). */
static void gb_gp_line_logx(FILE *f, const double *xs, size_t nd)
{
    int pow2 = 1;
    for (size_t i = 0; i < nd; i++)
        pow2 &= gb_is_pow2(xs[i]);
    if (pow2) {
        /* A tick at each measured size, thinned to stay legible. */
        size_t step = nd > 14 ? (nd + 13) / 14 : 1;
        fputs("set logscale x 2\nset xtics (", f);
        for (size_t i = 0; i < nd; i += step) {
            char lab[32];
            gb_pow2_label(lab, sizeof lab, xs[i]);
            fputs(i ? ", " : "", f);
            gb_gp_tic(f, lab);
            fprintf(f, " %.10g", xs[i]);
        }
        fputs(")\n", f);
    } else {
        fputs("set logscale x 10\nset format x '%g'\nset mxtics 10\n", f);
    }
    fprintf(f, "set xrange [%.10g:%.10g]\n", xs[0] / 1.25, xs[nd - 1] * 1.25);
    fputs("set grid xtics back lt 1 lc rgb '#dcdcdc' lw 1\n", f);
}

/* The x tics of categories 0..n-1 named by `cats`, laid flat when the
 * widest name fits its slot, else slanted, else on end. The slot is the
 * plot's width (the image's, less the y axis and the legend beside it)
 * over the categories; widths in pixels of the SVG's 16 px font. */
static void gb_gp_cat_tics(FILE *f, const struct gb_plot *p, int with_labels)
{
    size_t widest = 0, key = 0;
    for (size_t i = 0; i < p->cats.n; i++)
        widest = strlen(p->cats.v[i]) > widest ? strlen(p->cats.v[i]) : widest;
    for (size_t s = 0; s < p->n_series; s++)
        key = strlen(p->series[s].label) > key ? strlen(p->series[s].label) : key;
    for (size_t r = 0; r < p->n_refs; r++)
        key = strlen(p->refs[r].label) + 12 > key ? strlen(p->refs[r].label) + 12 : key;
    double char_px = 9.0, line_px = 20.0;
    double key_px = p->n_series + p->n_refs + p->n_stars > 1 ? key * char_px + 90 : 0;
    double slot = (GB_PLOT_W - 110 - key_px) / (double)(p->cats.n ? p->cats.n : 1);
    const char *how = "";
    if (widest * char_px + 10 > slot)
        how = slot * 0.7071 >= 1.2 * line_px ? " rotate by 45 right" : " rotate by 90 right";
    fprintf(f, "set xtics nomirror scale 0%s", how);
    if (with_labels) {
        fputs(" (", f);
        for (size_t i = 0; i < p->cats.n; i++) {
            fputs(i ? ", " : "", f);
            gb_gp_tic(f, p->cats.v[i]);
            fprintf(f, " %zu", i);
        }
        fputc(')', f);
    }
    fputc('\n', f);
}

/* The x axis of a line chart: categories, logarithmic or linear over the
 * nx values of xs (sorted and made distinct here). */
static void gb_gp_line_xaxis(FILE *f, const struct gb_plot *p, double *xs, size_t nx)
{
    qsort(xs, nx, sizeof *xs, gb_stats_cmp_double);
    size_t nd = 0;
    for (size_t i = 0; i < nx; i++)
        if (nd == 0 || xs[i] != xs[nd - 1])
            xs[nd++] = xs[i];

    if (p->x_mode == 2) {
        fprintf(f, "set xrange [-0.5:%zu.5]\n", p->cats.n ? p->cats.n - 1 : 0);
        gb_gp_cat_tics(f, p, 1);
        fputs("set grid xtics ytics back lt 1 lc rgb '#dcdcdc' lw 1\n", f);
    } else if (p->log_x) {
        gb_gp_line_logx(f, xs, nd);
    } else {
        double span = nd > 1 ? xs[nd - 1] - xs[0] : fmax(fabs(xs[0]), 1);
        fprintf(f, "set xrange [%.10g:%.10g]\n", xs[0] - 0.04 * span, xs[nd - 1] + 0.04 * span);
        if (nd <= 12) {
            fputs("set xtics (", f);
            for (size_t i = 0; i < nd; i++)
                fprintf(f, "%s%.10g", i ? ", " : "", xs[i]);
            fputs(")\n", f);
        }
        fputs("set format x '%g'\nset grid xtics back lt 1 lc rgb '#dcdcdc' lw 1\n", f);
    }
}

/* Whether line series a and b coincide: they share at least two x, and at
 * four of five of them their y are closer than a marker's width (2.5% of
 * the axis, in decades on a log axis). */
static int gb_series_coincide(const struct gb_plot *p, const struct gb_series *a,
                              const struct gb_series *b)
{
    double lo = INFINITY, hi = -INFINITY;
    size_t shared = 0, close = 0;
    for (size_t i = 0; i < a->n + b->n; i++) {
        double y = i < a->n ? a->pts[i].y : b->pts[i - a->n].y;
        if (isfinite(y) && (!p->log_y || y > 0)) {
            lo = fmin(lo, p->log_y ? log10(y) : y);
            hi = fmax(hi, p->log_y ? log10(y) : y);
        }
    }
    if (!p->log_y)
        lo = fmin(lo, 0);
    double tol = 0.025 * (hi > lo ? hi - lo : 1);
    for (size_t i = 0; i < a->n; i++)
        for (size_t j = 0; j < b->n; j++) {
            double ya = a->pts[i].y, yb = b->pts[j].y;
            if (a->pts[i].x != b->pts[j].x || !isfinite(ya) || !isfinite(yb) ||
                (p->log_y && (ya <= 0 || yb <= 0)))
                continue;
            shared++;
            close += fabs(p->log_y ? log10(ya / yb) : ya - yb) <= tol;
        }
    return shared >= 2 && 5 * close >= 4 * shared;
}

/* Whether series s lies under a later one that would hide it. Only on a
 * chart of a few series: among many, wide lines would cover the others. */
static int gb_series_covered(const struct gb_plot *p, size_t s)
{
    if (p->n_series > 4)
        return 0;
    for (size_t t = s + 1; t < p->n_series; t++)
        if (p->series[t].n && gb_series_coincide(p, &p->series[s], &p->series[t]))
            return 1;
    return 0;
}

/* The plot command of a line chart: series, then stars over them, then the
 * legend entries of the reference lines. */
static void gb_gp_line_plot(FILE *f, const struct gb_plot *p)
{
    fputs("plot ", f);
    int first = 1;
    for (size_t s = 0; s < p->n_series; s++) {
        if (p->series[s].n == 0)
            continue;
        const char *with = p->series[s].style == GB_PLOT_STYLE_LINES    ? "lines lw 2"
                           : p->series[s].style == GB_PLOT_STYLE_POINTS ? "points ps 1.6"
                           : gb_series_has_ci(&p->series[s])            ? "yerrorlines"
                                                                        : "linespoints";
        fprintf(f, "%s$s%zu using 1:2:3:4 with %s lt %zu", first ? "" : ", \\\n     ", s, with, s + 1);
        /* A series a later one would hide is drawn around it: a wide line and
         * large open markers, the later one's line and points inside them. */
        if (gb_series_covered(p, s))
            fprintf(f, " lw 6 pt %d ps 2.6", gb_point_types[s % GB_N_COLOURS] - 1);
        fputs(" title ", f);
        gb_gp_str(f, p->series[s].label);
        first = 0;
    }
    /* Stars last, so that they are drawn over the lines. */
    for (size_t i = 0; i < p->n_stars; i++) {
        fprintf(f, "%s$star%zu using 1:2 with points pt 3 ps 4 lw 3 lc rgb '#000000' title ",
                first ? "" : ", \\\n     ", i);
        gb_gp_str(f, p->stars[i].label);
        first = 0;
    }
    gb_gp_ref_keys(f, p);
    fputc('\n', f);
}

static enum gb_status gb_gp_line(FILE *f, const struct gb_plot *p)
{
    enum gb_status st;
    double *xs;
    size_t nx = 0, total = p->n_stars;

    for (size_t s = 0; s < p->n_series; s++)
        total += p->series[s].n;
    if (total == 0)
        return gb_error_set(GB_ERR_USAGE, "plot %s has no points", p->name);
    if (!(xs = malloc(total * sizeof *xs)))
        return gb_error_set(GB_ERR_NOMEM, "out of memory");
    if ((st = gb_gp_line_data(f, p, xs, &nx)) == GB_OK) {
        gb_gp_common(f, p);
        gb_gp_line_xaxis(f, p, xs, nx);
        gb_gp_yrange(f, p);
        gb_gp_refs(f, p);
        gb_gp_key(f, p->n_series + p->n_refs + p->n_stars);
        gb_gp_svg(f, p);
        gb_gp_line_plot(f, p);
    }
    free(xs);
    return st;
}

static enum gb_status gb_gp_stacked(FILE *f, const struct gb_plot *p);

static enum gb_status gb_gp_bar(FILE *f, const struct gb_plot *p)
{
    if (p->stacked)
        return gb_gp_stacked(f, p);
    size_t total = 0;
    int any_ci = 0;
    for (size_t s = 0; s < p->n_series; s++) {
        total += p->series[s].n;
        any_ci |= gb_series_has_ci(&p->series[s]);
    }
    if (total == 0 || p->cats.n == 0)
        return gb_error_set(GB_ERR_USAGE, "plot %s has no bars", p->name);

    /* One row per group: the label, then y, ylo, yhi of each series. */
    fputs("$bars << EOD\n", f);
    for (size_t g = 0; g < p->cats.n; g++) {
        gb_gp_field(f, p->cats.v[g]);
        for (size_t s = 0; s < p->n_series; s++) {
            const struct gb_pt *pt = NULL;
            for (size_t i = 0; i < p->series[s].n; i++)
                if (p->series[s].pts[i].x == (double)g)
                    pt = &p->series[s].pts[i];
            int ci = pt && isfinite(pt->lo) && isfinite(pt->hi);
            fputc(' ', f);
            gb_gp_num(f, pt ? pt->y : NAN);
            fputc(' ', f);
            gb_gp_num(f, pt ? (ci ? pt->lo : pt->y) : NAN);
            fputc(' ', f);
            gb_gp_num(f, pt ? (ci ? pt->hi : pt->y) : NAN);
        }
        fputc('\n', f);
    }
    fputs("EOD\n", f);
    gb_gp_common(f, p);
    fputs("set style data histograms\n", f);
    if (any_ci)
        fputs("set style histogram errorbars gap 1.5 lw 1.5\n", f);
    else
        fputs("set style histogram clustered gap 1.5\n", f);
    fputs("set style fill solid 0.85 border rgb '#303030'\nset boxwidth 0.92 relative\n", f);
    fputs("set errorbars 1.2 lc rgb '#202020'\n", f);
    /* Many groups: slanted or upright labels rather than overlapping ones. */
    gb_gp_cat_tics(f, p, 0);
    fprintf(f, "set xrange [-0.6:%zu.6]\n", p->cats.n - 1);
    gb_gp_yrange(f, p);
    gb_gp_refs(f, p);
    gb_gp_key(f, p->n_series + p->n_refs);

    gb_gp_svg(f, p);
    fputs("plot ", f);
    for (size_t s = 0; s < p->n_series; s++) {
        size_t c = 2 + 3 * s;
        if (any_ci)
            fprintf(f, "%s$bars using %zu:%zu:%zu%s lt %zu title ", s ? ", \\\n     " : "", c,
                    c + 1, c + 2, s ? "" : ":xtic(1)", s + 1);
        else
            fprintf(f, "%s$bars using %zu%s lt %zu title ", s ? ", \\\n     " : "", c,
                    s ? "" : ":xtic(1)", s + 1);
        gb_gp_str(f, p->series[s].label);
    }
    gb_gp_ref_keys(f, p);
    fputc('\n', f);
    return GB_OK;
}

/* Stacked bars: one bar per group made of every series' value, and the
 * marks (a measured value with its interval) drawn over the bars. */
static enum gb_status gb_gp_stacked(FILE *f, const struct gb_plot *p)
{
    double hi = 0;
    if (p->cats.n == 0 || p->n_series == 0)
        return gb_error_set(GB_ERR_USAGE, "plot %s has no bars", p->name);
    fputs("$bars << EOD\n", f);
    for (size_t g = 0; g < p->cats.n; g++) {
        double sum = 0;
        gb_gp_field(f, p->cats.v[g]);
        for (size_t s = 0; s < p->n_series; s++) {
            double y = 0;
            for (size_t i = 0; i < p->series[s].n; i++)
                if (p->series[s].pts[i].x == (double)g && isfinite(p->series[s].pts[i].y))
                    y = p->series[s].pts[i].y;
            fputc(' ', f);
            gb_gp_num(f, y);
            sum += y;
        }
        fputc('\n', f);
        hi = fmax(hi, sum);
    }
    fputs("EOD\n$marks << EOD\n", f);
    for (size_t i = 0; i < p->n_marks; i++) {
        const struct gb_pt *m = &p->marks[i];
        fprintf(f, "%.10g ", m->x);
        gb_gp_num(f, m->y);
        fputc(' ', f);
        gb_gp_num(f, isfinite(m->lo) ? m->lo : m->y);
        fputc(' ', f);
        gb_gp_num(f, isfinite(m->hi) ? m->hi : m->y);
        fputc('\n', f);
        hi = fmax(hi, isfinite(m->hi) ? m->hi : m->y);
    }
    fputs("EOD\n", f);
    gb_gp_common(f, p);
    fputs("set style data histograms\nset style histogram rowstacked\n", f);
    fputs("set style fill solid 0.85 border rgb '#303030'\nset boxwidth 0.7 relative\n", f);
    gb_gp_cat_tics(f, p, 0);
    fprintf(f, "set xrange [-0.6:%zu.6]\n", p->cats.n - 1);
    fprintf(f, "set yrange [0:%.10g]\nset format y '%%g'\n", hi > 0 ? hi * 1.12 : 1);
    fputs("set grid ytics back lt 1 lc rgb '#dcdcdc' lw 1\n", f);
    gb_gp_key(f, p->n_series + (p->n_marks > 0));
    gb_gp_svg(f, p);
    fputs("plot ", f);
    for (size_t s = 0; s < p->n_series; s++) {
        fprintf(f, "%s$bars using %zu%s lt %zu title ", s ? ", \\\n     " : "", s + 2,
                s ? "" : ":xtic(1)", s + 1);
        gb_gp_str(f, p->series[s].label);
    }
    if (p->n_marks) {
        fputs(", \\\n     $marks using 1:2:3:4 with yerrorbars pt 7 ps 1.3 lw 1.5 "
              "lc rgb '#000000' title ", f);
        gb_gp_str(f, p->mark_label ? p->mark_label : "measured");
    }
    fputc('\n', f);
    return GB_OK;
}

static enum gb_status gb_gp_heat(FILE *f, const struct gb_plot *p)
{
    size_t nr = p->rows.n, nc = p->cols.n;
    double best = NAN;
    int have[5] = {0};   /* flagged, best, within 5%, within 25%, failed */

    if (p->n_cells == 0)
        return gb_error_set(GB_ERR_USAGE, "plot %s has no cells", p->name);
    for (size_t i = 0; i < p->n_cells; i++) {
        double v = p->cells[i].v;
        if (!isfinite(v))
            continue;
        if (isnan(best) || (p->higher_better ? v > best : v < best))
            best = v;
    }
    /* One datablock per mark, so that each draws with its own style. */
    static const char *const blocks[5] = {"flag", "best", "w5", "w25", "fail"};
    for (int k = 0; k < 5; k++) {
        fprintf(f, "$%s << EOD\n", blocks[k]);
        for (size_t i = 0; i < p->n_cells; i++) {
            const struct gb_cell_v *c = &p->cells[i];
            double v = c->v;
            int mark;
            if (!isfinite(v))
                mark = 4;
            else if (v == best)
                mark = 1;
            else {
                /* How much worse than the best, as a fraction of the best. */
                double worse = p->higher_better ? (best - v) / best : (v - best) / best;
                mark = worse <= 0.05 ? 2 : worse <= 0.25 ? 3 : -1;
            }
            if ((k == 0 && c->flagged) || (k != 0 && mark == k)) {
                fprintf(f, "%zu %zu\n", c->col, c->row);
                have[k] = 1;
            }
        }
        fputs("EOD\n", f);
    }
    gb_gp_common(f, p);
    /* Square cells: one unit of x is one unit of y on the page. */
    fputs("set size ratio -1\n", f);
    fprintf(f, "set xrange [-0.5:%zu.5]\nset yrange [%zu.5:-0.5]\n", nc - 1, nr - 1);
    fputs("set xtics scale 0 (", f);
    for (size_t i = 0; i < nc; i++) {
        fputs(i ? ", " : "", f);
        gb_gp_tic(f, p->cols.v[i]);
        fprintf(f, " %zu", i);
    }
    fputs(")\n", f);
    /* Labels that would run into each other under their columns stand on end. */
    size_t widest = 0;
    for (size_t i = 0; i < nc; i++)
        if (strlen(p->cols.v[i]) > widest)
            widest = strlen(p->cols.v[i]);
    if (nc * (widest + 1) > 60)
        fputs("set xtics rotate by 90 right\n", f);
    fputs("set ytics scale 0 (", f);
    for (size_t i = 0; i < nr; i++) {
        fputs(i ? ", " : "", f);
        gb_gp_tic(f, p->rows.v[i]);
        fprintf(f, " %zu", i);
    }
    fputs(")\n", f);
    fputs("set border 15 lw 1.5 lc rgb '#404040'\nunset grid\n", f);
    for (size_t i = 1; i < nc; i++)
        fprintf(f, "set arrow from %zu.5, graph 0 to %zu.5, graph 1 nohead back lc rgb '#cccccc' "
                   "lw 1\n", i - 1, i - 1);
    for (size_t i = 1; i < nr; i++)
        fprintf(f, "set arrow from graph 0, first %zu.5 to graph 1, first %zu.5 nohead back "
                   "lc rgb '#cccccc' lw 1\n", i - 1, i - 1);
    fputs("set key outside right top vertical Left reverse samplen 1 spacing 1.5 width 1 "
          "box lc rgb '#bbbbbb'\n", f);
    fputs("set style circle radius 0.3\n", f);

    gb_gp_svg(f, p);
    const char *sep = "plot ";
    if (have[0]) {
        fprintf(f, "%s$flag using 1:2:(0.5):(0.5) with boxxyerror fs solid 1.0 noborder "
                   "lc rgb '#cfe3f5' notitle", sep);
        sep = ", \\\n     ";
    }
    if (have[1]) {
        fprintf(f, "%s$best using 1:2:(0.28):(0.28) with boxxyerror fs solid 1.0 noborder "
                   "lc rgb '%s' notitle", sep, gb_colours[0]);
        sep = ", \\\n     ";
    }
    if (have[2]) {
        fprintf(f, "%s$w5 using 1:2 with circles fs solid 1.0 noborder lc rgb '%s' notitle",
                sep, gb_colours[0]);
        sep = ", \\\n     ";
    }
    if (have[3]) {
        fprintf(f, "%s$w25 using 1:2 with circles fs empty border lw 2.5 lc rgb '%s' notitle",
                sep, gb_colours[0]);
        sep = ", \\\n     ";
    }
    if (have[4]) {
        fprintf(f, "%s$fail using 1:2 with points pt 2 ps 1.2 lw 1.5 lc rgb '#999999' notitle",
                sep);
        sep = ", \\\n     ";
    }
    /* The legend, drawn with samples that look like the marks. */
    fprintf(f, "%skeyentry with points pt 5 ps 2.2 lc rgb '%s' title 'best'", sep,
            gb_colours[0]);
    sep = ", \\\n     ";
    fprintf(f, "%skeyentry with points pt 7 ps 2.2 lc rgb '%s' title 'within 5%% of best'", sep,
            gb_colours[0]);
    fprintf(f, "%skeyentry with points pt 6 ps 2.2 lw 2.5 lc rgb '%s' title 'within 25%% of best'",
            sep, gb_colours[0]);
    if (have[0]) {
        fprintf(f, "%skeyentry with boxes fs solid 1.0 noborder lc rgb '#cfe3f5' title ", sep);
        gb_gp_str(f, p->flag_label ? p->flag_label : "flagged");
    }
    if (have[4])
        fprintf(f, "%skeyentry with points pt 2 ps 1.2 lw 1.5 lc rgb '#999999' title 'failed'",
                sep);
    fputc('\n', f);
    return GB_OK;
}

/* Runs gnuplot on `script` in `dir`, its output going to `log`. */
static enum gb_status gb_run_gnuplot(const char *gnuplot, const char *dir, const char *script,
                                     const char *log)
{
    enum gb_status st = GB_OK;
    int logfd = -1, nullfd = -1, wstatus = 0;
    pid_t pid;

    /* The log lies in the command's stage beside the chart; a link there is refused. */
    logfd = open(log, O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW | O_CLOEXEC, 0666);
    nullfd = open("/dev/null", O_RDONLY | O_CLOEXEC);
    if (logfd < 0 || nullfd < 0) {
        st = gb_error_set(GB_ERR_IO, "cannot open %s: %s", log, strerror(errno));
        goto out;
    }
    /* The child execs or _exits, so stdio buffers are neither flushed twice nor lost. */
    pid = fork();
    if (pid < 0) {
        st = gb_error_set(GB_ERR_IO, "cannot start gnuplot: %s", strerror(errno));
        goto out;
    }
    if (pid == 0) {
        /* Only async-signal-safe calls from here to exec. */
        if (chdir(dir) != 0 || dup2(nullfd, 0) < 0 || dup2(logfd, 1) < 0 || dup2(logfd, 2) < 0)
            _exit(126);
        char *const argv[] = {(char *)"gnuplot", (char *)script, NULL};
        execv(gnuplot, argv);
        _exit(127);
    }
    while (waitpid(pid, &wstatus, 0) < 0) {
        if (errno != EINTR) {
            st = gb_error_set(GB_ERR_IO, "cannot wait for gnuplot: %s", strerror(errno));
            goto out;
        }
    }
    if (!WIFEXITED(wstatus) || WEXITSTATUS(wstatus) != 0) {
        /* gnuplot's last line names the script line and what was wrong. */
        char line[512] = "", last[512] = "";
        int lfd = open(log, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
        FILE *lf = lfd >= 0 ? fdopen(lfd, "r") : NULL;
        if (lfd >= 0 && !lf)
            close(lfd);
        while (lf && fgets(line, sizeof line, lf)) {
            line[strcspn(line, "\n")] = '\0';
            if (line[strspn(line, " \t^")])
                snprintf(last, sizeof last, "%s", line);
        }
        if (lf)
            fclose(lf);
        if (WIFEXITED(wstatus) && WEXITSTATUS(wstatus) >= 126)
            snprintf(last, sizeof last, "cannot run %.400s", gnuplot);
        st = gb_error_set(GB_ERR_IO, "gnuplot failed on %s/%s: %s", dir, script,
                          last[0] ? last : "no message");
    }
out:
    if (logfd >= 0)
        close(logfd);
    if (nullfd >= 0)
        close(nullfd);
    return st;
}

/* Writes <out_dir>/<name>.gp atomically and lists it in res->files. */
static enum gb_status gb_plot_script(const struct gb_plot *p, const char *out_dir, const char *script,
                                     struct gb_report_result *res)
{
    struct gb_atomic_file a;
    char path[GB_PATH_MAX];
    enum gb_status st;

    snprintf(path, sizeof path, "%s/%s", out_dir, script);
    if ((st = gb_atomic_open(&a, path, "w")) != GB_OK)
        return st;
    fprintf(a.f, "# %s - a chart of gpubound, drawn by: gnuplot %s (in this directory)\n",
            script, script);
    fputs("reset\n", a.f);
    switch (p->kind) {
    case GB_CHART_LINE: st = gb_gp_line(a.f, p); break;
    case GB_CHART_BAR: st = gb_gp_bar(a.f, p); break;
    case GB_CHART_HEAT: st = gb_gp_heat(a.f, p); break;
    default: st = gb_error_set(GB_ERR_USAGE, "plot %s: unknown kind", p->name); break;
    }
    if (st != GB_OK) {
        gb_atomic_abort(&a);
        return st;
    }
    gb_gp_finish(a.f, p);
    if ((st = gb_atomic_commit(&a)) != GB_OK)
        return st;
    return gb_result_add_file(res, out_dir, script);
}

/* Runs gnuplot on the script and checks the images it was to write; on
 * failure no image is left (the log stays for whoever debugs). */
static enum gb_status gb_plot_images(const struct gb_plot *p, const char *gnuplot, const char *out_dir,
                                     const char *script, struct gb_report_result *res)
{
    static const char *const exts[2] = {"svg", "png"};
    static const int formats[2] = {GB_PLOT_SVG, GB_PLOT_PNG};
    char path[GB_PATH_MAX + 32], log[GB_PATH_MAX + 32], file[160];
    enum gb_status st;

    snprintf(log, sizeof log, "%s/%s.log", out_dir, p->name);
    if ((st = gb_run_gnuplot(gnuplot, out_dir, script, log)) != GB_OK) {
        for (int i = 0; i < 2; i++) {
            snprintf(path, sizeof path, "%s/%s.%s", out_dir, p->name, exts[i]);
            unlink(path);
        }
        return st;
    }
    unlink(log);
    for (int i = 0; i < 2; i++) {
        struct stat sb;
        if (!gb_wants(p, formats[i]))
            continue;
        snprintf(file, sizeof file, "%s.%s", p->name, exts[i]);
        snprintf(path, sizeof path, "%s/%s", out_dir, file);
        if (stat(path, &sb) != 0 || sb.st_size == 0)
            return gb_error_set(GB_ERR_IO, "gnuplot did not write %s", path);
        if ((st = gb_result_add_file(res, out_dir, file)) != GB_OK)
            return st;
    }
    return GB_OK;
}

enum gb_status gb_plot_draw(const struct gb_plot *p, const char *out_dir,
                            struct gb_report_result *res)
{
    enum gb_status st;
    char gnuplot[4096], script[160];

    snprintf(script, sizeof script, "%s.gp", p->name);
    if ((st = gb_plot_script(p, out_dir, script, res)) != GB_OK)
        return st;
    if (!gb_plot_available(gnuplot, sizeof gnuplot)) {
        snprintf(res->note, sizeof res->note,
                 "gnuplot was not found in PATH; install it (apt-get install gnuplot-nox) "
                 "and run 'gpubound report RUN_DIR' again");
        return gb_result_add(&res->not_drawn, &res->n_not_drawn, p->name);
    }
    return gb_plot_images(p, gnuplot, out_dir, script, res);
}

/* ---- the plot as data (report.html) ---- */

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

static json_t *gb_series_json(const struct gb_series *se)
{
    json_t *pts = json_array();
    for (size_t k = 0; pts && k < se->n; k++) {
        const struct gb_pt *pt = &se->pts[k];
        json_array_append_new(pts, json_pack("[oooo I]", gb_jnum(pt->x), gb_jnum(pt->y),
                                             gb_jnum(pt->lo), gb_jnum(pt->hi), (json_int_t)pt->rec));
    }
    return json_pack("{s:s, s:o}", "label", se->label, "pts", pts ? pts : json_array());
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
    if (p->kind == GB_CHART_HEAT)
        gb_plot_json_heat(p, o);
    else
        gb_plot_json_lines(p, o);
    return o;
}
