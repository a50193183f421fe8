/* plot.h - charts drawn by gnuplot: series of points, bars or grid cells
 * written as a gnuplot script and drawn into <name>.svg and <name>.png; and
 * the list of files a plot, the charts or a report wrote. Not thread-safe
 * on the same plot; distinct plots may be drawn from distinct threads.
 */
#ifndef GPUBOUND_PLOT_H
#define GPUBOUND_PLOT_H

#include "gpubound/api.h"

#include <stddef.h>

#include "gpubound/chart_spec.h"
#include "gpubound/status.h"

/* ---- what was written ----
 * Filled by gb_plot_draw, gb_report_charts and gb_report_write; the caller
 * owns it and prints it. Lists grow; they are never cleared by the calls. */
struct gb_report_result {
    char **files;          /* every file written, "<out_dir>/<name>" */
    size_t n_files;
    char **not_drawn;      /* charts whose script was written but not run */
    size_t n_not_drawn;
    char **no_data;        /* declared charts with no measured record to draw */
    size_t n_no_data;
    /* When not_drawn is not empty: why, and what to do, one line. */
    char note[512];
    /* Charts of the run that the report's selection left out (report.h). */
    size_t n_left_out;
};

GB_API void gb_report_result_init(struct gb_report_result *res);
GB_API void gb_report_result_release(struct gb_report_result *res);

/* ---- plots drawn by gnuplot ----
 * A plot is built from data, then drawn: gb_plot_draw writes <name>.gp, a
 * gnuplot script that carries its data inline, into the output directory
 * and runs gnuplot on it there, which writes <name>.svg and <name>.png
 * (1200x750). The script stays, so a chart can be edited and redrawn with
 * `gnuplot <name>.gp` in that directory. */

struct gb_plot;

/* A new empty plot of `kind`. `name` is the file stem (letters, digits,
 * '-', '_' and '.'); `title` may be NULL. Both are copied. NULL when out of
 * memory or `name` is not a valid stem. */
GB_API struct gb_plot *gb_plot_new(enum gb_chart_kind kind, const char *name, const char *title);
GB_API void gb_plot_free(struct gb_plot *p);

/* Axis labels, with their units: "bytes per thread", "bandwidth (GB/s)".
 * Heat grids: x is the column axis, y the row axis. NULL leaves it empty. */
GB_API enum gb_status gb_plot_labels(struct gb_plot *p, const char *x_label, const char *y_label);

/* A second line under the title, e.g. the device measured. NULL = none.
 * Titles longer than 80 characters are broken at blanks. */
GB_API enum gb_status gb_plot_subtitle(struct gb_plot *p, const char *subtitle);

/* Logarithmic axes (line and bar charts; bars take only log_y). A log x
 * whose values are all powers of two is drawn base 2 with a tick at each
 * value ("4K", "1M"). */
GB_API void gb_plot_log(struct gb_plot *p, int log_x, int log_y);

/* Line charts: the linear y axis spans the data, the intervals and the
 * reference lines only, instead of starting at zero: for ratios near 1,
 * where zero means nothing. Bars always start at zero. */
GB_API void gb_plot_y_fit(struct gb_plot *p);

/* Adds a series (a line, or one bar of each group) and returns its index
 * in *idx. Series are drawn and listed in the legend in this order. */
GB_API enum gb_status gb_plot_series(struct gb_plot *p, const char *label, int *idx);

/* How a line series is drawn: lines through its points with markers and
 * error bars where it has intervals (the default), a line alone (a roof),
 * or markers alone (points that are not a sequence). */
enum gb_plot_style { GB_PLOT_STYLE_DEFAULT = 0, GB_PLOT_STYLE_LINES, GB_PLOT_STYLE_POINTS };

/* Sets the style of line series `s`. GB_ERR_USAGE for no such series. */
GB_API enum gb_status gb_plot_series_style(struct gb_plot *p, int s, enum gb_plot_style style);

/* Adds a point to line series `s`: y with its interval [ylo, yhi]; pass
 * NaN for both when the interval is unknown. Points are drawn in x order. */
GB_API enum gb_status gb_plot_point(struct gb_plot *p, int s, double x, double y, double ylo,
                             double yhi);

/* Adds a point to a line series whose x is a category (drawn at evenly
 * spaced positions, in order of first appearance). Do not mix with
 * gb_plot_point in one plot. */
GB_API enum gb_status gb_plot_point_cat(struct gb_plot *p, int s, const char *x, double y,
                                 double ylo, double yhi);

/* Sets bar series `s` in group `group` (groups appear along x in order of
 * first use); ylo/yhi as for gb_plot_point. A group lacking a series has a
 * gap where that bar would be. */
GB_API enum gb_status gb_plot_bar(struct gb_plot *p, int s, const char *group, double y, double ylo,
                           double yhi);

/* Bars of a ratio: each bar starts at `base` (1: no change) and grows up
 * to a value above it or down to one below, instead of from zero or, on a
 * log y axis, from the axis bottom (where a slowdown of 0.92 would stand as
 * tall as a gain of 1.08). The linear y axis then spans the bars, their
 * intervals and `base` rather than starting at zero. Side-by-side bars
 * only (not gb_plot_stacked). */
GB_API void gb_plot_bar_base(struct gb_plot *p, double base);

/* Makes a bar chart stacked: each group is one bar made of every series'
 * value (the series in the order added, bottom up, no error bars), and
 * marks set by gb_plot_bar_mark are drawn over the bars as dots with their
 * interval, named `mark_label` in the legend (NULL: "measured"). */
GB_API enum gb_status gb_plot_stacked(struct gb_plot *p, const char *mark_label);

/* Stacked bars: a mark at y, with its interval [ylo, yhi] (NaN: none),
 * over the bar of `group`. */
GB_API enum gb_status gb_plot_bar_mark(struct gb_plot *p, const char *group, double y, double ylo,
                                double yhi);

/* A single point of a line chart drawn as a large star, joined to nothing,
 * on top of the series, and named in the legend by `label`: a measured
 * point among predicted lines. Its x counts as numeric (as gb_plot_point). */
GB_API enum gb_status gb_plot_star(struct gb_plot *p, const char *label, double x, double y);

/* A horizontal dashed line at y across the whole chart (line and bar
 * charts), named in the legend "<label> (<y> <unit>)", never on the plot,
 * so that it covers no data; `unit` may be NULL. Lines are told apart by
 * their dash patterns. The y range always includes them. */
GB_API enum gb_status gb_plot_ref(struct gb_plot *p, const char *label, double y, const char *unit);

/* Makes y a time axis. Every y given so far (points, their intervals,
 * reference lines, stars) is a time in nanoseconds; this picks the unit
 * (ns, µs, ms or s) in which the largest reads at least 1, so that ticks
 * read as plain numbers, divides every y by it, and puts the unit in the
 * y label: a trailing " (ns)" is replaced by " (µs)" etc.; a label without
 * it gets the unit appended. Reference lines in "ns" take the unit too.
 * Call once, after the last point. Heat grids are left as they are.
 * GB_ERR_NOMEM when out of memory. */
GB_API enum gb_status gb_plot_time_axis(struct gb_plot *p);

/* Sets the cell (row, col) of a heat grid to `value`; rows and columns
 * appear in order of first use, rows top to bottom. `flagged` shades the
 * cell's background (what the flag means is set by gb_plot_heat_style).
 * A value that is NaN marks the cell as measured but failed (a small grey
 * cross). Marks: a filled square for the best cell, a filled circle within
 * 5% of it, an open circle within 25%, nothing beyond. */
GB_API enum gb_status gb_plot_heat_cell(struct gb_plot *p, const char *row, const char *col,
                                 double value, int flagged);

/* Heat grids: whether larger values are better (default 0: lower is
 * better, as for times) and the legend text of the shaded cells (default
 * "flagged"). */
GB_API enum gb_status gb_plot_heat_style(struct gb_plot *p, int higher_is_better,
                                  const char *flag_label);

/* Which images gb_plot_draw makes: SVG, PNG or both (0 = both). */
#define GB_PLOT_SVG 1
#define GB_PLOT_PNG 2

/* Sets the images the plot is drawn as (GB_PLOT_SVG, GB_PLOT_PNG, or both
 * or'ed; 0 = both, the default). The script draws only those. */
GB_API void gb_plot_formats(struct gb_plot *p, int formats);

/* Writes <out_dir>/<name>.gp and, when gnuplot is found in PATH, runs it in
 * `out_dir` to write <name>.svg and <name>.png; every file written is
 * appended to res->files. When gnuplot is not found the script is still
 * written, the name is appended to res->not_drawn, res->note says what to
 * install, and GB_OK is returned. `out_dir` must exist and should be a
 * stage that the caller made (util/stage.h): gnuplot writes there, and a
 * failed chart leaves its script and log behind for the stage's abort to
 * take away. GB_ERR_USAGE for a
 * plot with nothing to draw, GB_ERR_IO when a file cannot be written or
 * gnuplot fails (the message carries gnuplot's first error line). */
GB_API enum gb_status gb_plot_draw(const struct gb_plot *p, const char *out_dir,
                            struct gb_report_result *res);

/* Whether gnuplot is on PATH (the full path in `buf` when found; buf may
 * be NULL). */
GB_API int gb_plot_available(char *buf, size_t n);

#endif
