/* plot_internal.h - shared between the files of a plot (src/report/plot*.c)
 * only: the plot as data, the palette, and the gnuplot script's common
 * pieces. */
#ifndef GB_REPORT_PLOT_INTERNAL_H
#define GB_REPORT_PLOT_INTERNAL_H

#include <stdio.h>

#include "gpubound/plot.h"

#define GB_PLOT_W 1200
#define GB_PLOT_H 750
#define GB_N_COLOURS 12
#define GB_TITLE_COLS 80
#define GB_PLOT_Y_AXIS_PX 110   /* the y axis, its tics and label, left of the plot */
#define GB_KEY_CHAR_PX 9.0      /* a character of the legend, 16 px type */
#define GB_N_DASHES 4

/* The series' colours and point types (plot_axes.c). */
extern const char *const gb_colours[GB_N_COLOURS];
extern const int gb_point_types[GB_N_COLOURS];

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
    int has_bar_base;           /* bars start at bar_base (a ratio's 1), not at zero */
    double bar_base;
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

/* ---- the result lists (result.c) ---- */

/* Frees the n strings of v and v itself. */
void gb_str_list_free(char **v, size_t n);

/* ---- building a plot (plot.c) ---- */

/* *dst becomes a copy of s (NULL: none), the old text freed. GB_ERR_NOMEM. */
enum gb_status gb_plot_replace(char **dst, const char *s);

/* ---- the script's common pieces: strings, terminals, axes, key, reference lines (plot_axes.c) ---- */

/* A gnuplot single-quoted string: nothing inside is substituted; a quote
 * is doubled; line breaks would end the command, so they become blanks. */
void gb_gp_str(FILE *f, const char *s);

/* A tic label of an explicit tic list: gnuplot reads it as a format for
 * the tic's value, so a '%' of the text is doubled. */
void gb_gp_tic(FILE *f, const char *s);

/* A quoted field of a datablock line (gnuplot has no escape there). */
void gb_gp_field(FILE *f, const char *s);

/* A number of a datablock: %.10g, or gnuplot's missing value '?' when not finite. */
void gb_gp_num(FILE *f, double v);

/* Whether the plot is drawn in `format` (GB_PLOT_SVG, GB_PLOT_PNG). */
int gb_plot_wants(const struct gb_plot *p, int format);

/* The first output, set just before the plot command: the SVG, with the PNG
 * as a replot after it (gb_gp_finish), or the PNG alone. */
void gb_gp_svg(FILE *f, const struct gb_plot *p);

/* After the plot command: the PNG as a replot of the SVG, when both are wanted. */
void gb_gp_finish(FILE *f, const struct gb_plot *p);

/* Whether some point of the series has an interval to draw. */
int gb_series_has_ci(const struct gb_series *s);

/* The settings every chart starts with: encoding, the palette as line
 * types, border and tics, the wrapped title and the axis labels. */
void gb_gp_common(FILE *f, const struct gb_plot *p);

/* The y range of line and bar charts: data, error bars, reference lines
 * and the bars' base, from zero on a linear axis (spanning these alone for
 * a y_fit line chart or bars from a base), with headroom for the labels of
 * the lines. */
void gb_gp_yrange(FILE *f, const struct gb_plot *p);

/* Reference lines span the plot; they are named in the legend, not on the
 * plot, so that no label ever covers a bar or a point. */
void gb_gp_refs(FILE *f, const struct gb_plot *p);

/* The legend entries of the reference lines, appended to a plot command. */
void gb_gp_ref_keys(FILE *f, const struct gb_plot *p);

/* The legend: none for one entry, else outside the plot on the right. */
void gb_gp_key(FILE *f, size_t n_entries);
/* The width in pixels of the legend beside the plot (0 when it has one
 * entry or none), from its longest entry. */
double gb_gp_key_px(const struct gb_plot *p);

/* The x tics of categories 0..n-1 named by `cats`, laid flat when the
 * widest name fits its slot, else slanted, else on end. The slot is the
 * plot's width (the image's, less the y axis and the legend beside it)
 * over the categories; widths in pixels of the SVG's 16 px font. */
void gb_gp_cat_tics(FILE *f, const struct gb_plot *p, int with_labels);

/* ---- line charts (plot_line.c) ---- */

/* The script of a line chart, after the common settings. */
enum gb_status gb_gp_line(FILE *f, const struct gb_plot *p);

/* ---- bar charts (plot_bar.c) ---- */

/* The script of a bar chart (stacked or side by side). */
enum gb_status gb_gp_bar(FILE *f, const struct gb_plot *p);

/* ---- heat grids (plot_heat.c) ---- */

/* The script of a heat grid. */
enum gb_status gb_gp_heat(FILE *f, const struct gb_plot *p);

#endif
