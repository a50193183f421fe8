/* report.h - everything a person reads: terminal tables, charts, and the
 * report of a run directory. Reports only read records and model outputs;
 * they never compute a statistic.
 *
 * Three layers, each usable alone:
 *   tables  (gb_table_*)   cells filled row by row, printed as an aligned
 *                          terminal table, CSV, JSON or markdown;
 *   plots   (gb_plot_*)    series of points, bars or grid cells drawn by
 *                          gnuplot into <name>.svg and <name>.png;
 *   reports (gb_report_*)  a run's summary table, the charts its suites
 *                          declare (struct gb_chart_spec), and report.md.
 * None of them prints to the user or exits; none is thread-safe on the same
 * object, and distinct objects may be used from distinct threads.
 */
#ifndef GPUBOUND_REPORT_H
#define GPUBOUND_REPORT_H

#include <stddef.h>
#include <stdio.h>

#include "gpubound/results.h"
#include "gpubound/status.h"

struct gb_suite;

/* ---- output formats ---- */

enum gb_format { GB_FORMAT_TABLE = 0, GB_FORMAT_CSV, GB_FORMAT_JSON };

/* Parses "table", "csv" or "json"; GB_ERR_USAGE (with a message) otherwise. */
enum gb_status gb_format_parse(const char *s, enum gb_format *out);

/* Writes `v` with `sig` significant digits (4 when sig <= 0) in plain
 * decimal notation: "1235" for 1234.6, "0.01235" for 0.012345; exponent
 * notation only below 1e-4 or from 1e15 up. Integer digits are never
 * dropped. Returns the length snprintf would have written. */
int gb_format_num(char *buf, size_t n, double v, int sig);

/* Writes "value ± half" with the half width rounded to one or two
 * significant digits (two when its leading digits are 100..354, one
 * otherwise, the Particle Data Group rule) and the value rounded to the
 * same decimal place: (1.23456, 0.00512) -> "1.235 ± 0.005". A half width
 * that is zero, negative or not finite writes the value alone with 4
 * significant digits. Returns the length snprintf would have written. */
int gb_format_ci(char *buf, size_t n, double v, double half_width);

/* Columns of the terminal `f` is attached to (ioctl TIOCGWINSZ), 80 when
 * it is a terminal of unknown size, 0 when it is not a terminal. */
int gb_term_width(FILE *f);

/* ---- tables ----
 * Declare the columns, then fill rows cell by cell from the left; cells a
 * row does not fill are empty. Numbers keep full precision until printed.
 * Column labels are "name (unit)", or "name" when unit is NULL or "". */

struct gb_table;

/* A new empty table, or NULL when out of memory. Free with gb_table_free. */
struct gb_table *gb_table_new(void);
void gb_table_free(struct gb_table *t);

/* Appends a column. `name` and `unit` are copied. GB_ERR_USAGE when the
 * label repeats an existing one (CSV and JSON need distinct keys). */
enum gb_status gb_table_column(struct gb_table *t, const char *name, const char *unit);

/* Starts a new row; the following cells fill it from the first column. */
enum gb_status gb_table_row(struct gb_table *t);

/* Fill the next cell of the current row. GB_ERR_USAGE when there is no row
 * yet or the row is full. A NULL text or a NaN number is an empty cell.
 *   text: copied; left-aligned unless every cell of its column is a
 *         number, optionally with a K/M/G/T suffix ("16", "1K", "-3");
 *   num:  shown with `sig` significant digits (gb_format_num), written at
 *         full precision in CSV and JSON;
 *   int:  an integer, shown as is;
 *   ci:   a value and the half width of its confidence interval, shown as
 *         gb_format_ci does and aligned on the "±". In CSV and JSON such a
 *         column becomes two: "<label>" (the value) and "<name> ± (<unit>)"
 *         (the half width), both at full precision. */
enum gb_status gb_table_cell_text(struct gb_table *t, const char *s);
enum gb_status gb_table_cell_num(struct gb_table *t, double v, int sig);
enum gb_status gb_table_cell_int(struct gb_table *t, long long v);
enum gb_status gb_table_cell_ci(struct gb_table *t, double v, double half_width);
enum gb_status gb_table_cell_empty(struct gb_table *t);

size_t gb_table_n_rows(const struct gb_table *t);
size_t gb_table_n_cols(const struct gb_table *t);

/* Prints the table on `f`:
 *   GB_FORMAT_TABLE  a header of labels, a rule of dashes, then the rows;
 *                    columns two spaces apart, numbers right-aligned, no
 *                    trailing blanks. When `width` > 0 (a terminal's width,
 *                    see gb_term_width) and the table is wider, the widest
 *                    text columns are cut to fit, their text ending in "…";
 *                    lines are never wrapped. width 0 prints everything.
 *   GB_FORMAT_CSV    RFC 4180 quoting, "\n" line ends, a header row of
 *                    labels, numbers at full precision (shortest text that
 *                    reads back to the same double), empty cells empty.
 *   GB_FORMAT_JSON   an array of objects, one per row and one row per line,
 *                    keyed by the CSV header labels; numbers as JSON numbers
 *                    at full precision, empty cells null.
 * GB_ERR_IO when writing fails. */
enum gb_status gb_table_print(const struct gb_table *t, FILE *f, enum gb_format fmt, int width);

/* Prints the table as a GitHub-flavoured markdown table ("|" escaped),
 * with the same cell texts as GB_FORMAT_TABLE. */
enum gb_status gb_table_print_markdown(const struct gb_table *t, FILE *f);

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
};

void gb_report_result_init(struct gb_report_result *res);
void gb_report_result_release(struct gb_report_result *res);

/* ---- plots drawn by gnuplot ----
 * A plot is built from data, then drawn: gb_plot_draw writes <name>.gp, a
 * gnuplot script that carries its data inline, into the output directory
 * and runs gnuplot on it there, which writes <name>.svg and <name>.png
 * (1200x750). The script stays, so a chart can be edited and redrawn with
 * `gnuplot <name>.gp` in that directory. */

enum gb_chart_kind {
    GB_CHART_LINE = 0,   /* x numeric axis, one line per series, error bars from the CI */
    GB_CHART_BAR,        /* groups along x, one bar per series in each group */
    GB_CHART_HEAT,       /* rows x cols grid with a mark per cell */
    GB_CHART_SPEEDUP,    /* chart specs only (drawn as bars): the speedup of pairs of
                          * records that differ in one axis, see gb_chart_spec.pair */
};

struct gb_plot;

/* A new empty plot of `kind`. `name` is the file stem (letters, digits,
 * '-', '_' and '.'); `title` may be NULL. Both are copied. NULL when out of
 * memory or `name` is not a valid stem. */
struct gb_plot *gb_plot_new(enum gb_chart_kind kind, const char *name, const char *title);
void gb_plot_free(struct gb_plot *p);

/* Axis labels, with their units: "bytes per thread", "bandwidth (GB/s)".
 * Heat grids: x is the column axis, y the row axis. NULL leaves it empty. */
enum gb_status gb_plot_labels(struct gb_plot *p, const char *x_label, const char *y_label);

/* A second line under the title, e.g. the device measured. NULL = none.
 * Titles longer than 80 characters are broken at blanks. */
enum gb_status gb_plot_subtitle(struct gb_plot *p, const char *subtitle);

/* Logarithmic axes (line and bar charts; bars take only log_y). A log x
 * whose values are all powers of two is drawn base 2 with a tick at each
 * value ("4K", "1M"). */
void gb_plot_log(struct gb_plot *p, int log_x, int log_y);

/* Adds a series (a line, or one bar of each group) and returns its index
 * in *idx. Series are drawn and listed in the legend in this order. */
enum gb_status gb_plot_series(struct gb_plot *p, const char *label, int *idx);

/* Adds a point to line series `s`: y with its interval [ylo, yhi]; pass
 * NaN for both when the interval is unknown. Points are drawn in x order. */
enum gb_status gb_plot_point(struct gb_plot *p, int s, double x, double y, double ylo,
                             double yhi);

/* Adds a point to a line series whose x is a category (drawn at evenly
 * spaced positions, in order of first appearance). Do not mix with
 * gb_plot_point in one plot. */
enum gb_status gb_plot_point_cat(struct gb_plot *p, int s, const char *x, double y,
                                 double ylo, double yhi);

/* Sets bar series `s` in group `group` (groups appear along x in order of
 * first use); ylo/yhi as for gb_plot_point. A group lacking a series has a
 * gap where that bar would be. */
enum gb_status gb_plot_bar(struct gb_plot *p, int s, const char *group, double y, double ylo,
                           double yhi);

/* A single point of a line chart drawn as a large star, joined to nothing,
 * on top of the series, and named in the legend by `label`: a measured
 * point among predicted lines. Its x counts as numeric (as gb_plot_point). */
enum gb_status gb_plot_star(struct gb_plot *p, const char *label, double x, double y);

/* A horizontal dashed line at y across the whole chart (line and bar
 * charts), named in the legend "<label> (<y> <unit>)", never on the plot,
 * so that it covers no data; `unit` may be NULL. Lines are told apart by
 * their dash patterns. The y range always includes them. */
enum gb_status gb_plot_ref(struct gb_plot *p, const char *label, double y, const char *unit);

/* Sets the cell (row, col) of a heat grid to `value`; rows and columns
 * appear in order of first use, rows top to bottom. `flagged` shades the
 * cell's background (what the flag means is set by gb_plot_heat_style).
 * A value that is NaN marks the cell as measured but failed (a small grey
 * cross). Marks: a filled square for the best cell, a filled circle within
 * 5% of it, an open circle within 25%, nothing beyond. */
enum gb_status gb_plot_heat_cell(struct gb_plot *p, const char *row, const char *col,
                                 double value, int flagged);

/* Heat grids: whether larger values are better (default 0: lower is
 * better, as for times) and the legend text of the shaded cells (default
 * "flagged"). */
enum gb_status gb_plot_heat_style(struct gb_plot *p, int higher_is_better,
                                  const char *flag_label);

/* Writes <out_dir>/<name>.gp and, when gnuplot is found in PATH, runs it in
 * `out_dir` to write <name>.svg and <name>.png; every file written is
 * appended to res->files. When gnuplot is not found the script is still
 * written, the name is appended to res->not_drawn, res->note says what to
 * install, and GB_OK is returned. `out_dir` must exist. GB_ERR_USAGE for a
 * plot with nothing to draw, GB_ERR_IO when a file cannot be written or
 * gnuplot fails (the message carries gnuplot's first error line). */
enum gb_status gb_plot_draw(const struct gb_plot *p, const char *out_dir,
                            struct gb_report_result *res);

/* Whether gnuplot is on PATH (the full path in `buf` when found; buf may
 * be NULL). */
int gb_plot_available(char *buf, size_t n);

/* ---- charts declared by suites ----
 * A suite declares its charts as data; the report layer selects the records,
 * builds the series and draws them. */

struct gb_chart_spec {
    const char *name;     /* file stem: <name>.svg and <name>.png */
    const char *title;
    enum gb_chart_kind kind;
    const char *benches;  /* comma list of bench names (trailing '*' globs); NULL = all */
    const char *x;        /* axis name, or "bench" */
    const char *series;   /* axis name, or "bench"; NULL = one series */
    const char *y;        /* "bw_gbs", "median_ns", "gflops", or "metric:NAME" */
    const char *x_label;
    const char *y_label;
    int log_x, log_y;
    /* Horizontal reference lines, ';'-separated "label=source" where source is
     * "device:mem_peak_gbs" or "bench:NAME" (that bench's y, max over points). */
    const char *refs;
    /* Heat grids: the row and column axes; y is a time (lower is better). */
    const char *row, *col;
    /* Series legend text: "{}" is replaced by the series value ("{} B per
     * thread" -> "4 B per thread"); NULL = "<series axis> = <value>", or
     * the value alone when the series is "bench". */
    const char *series_label;
    /* Only records whose axes match: comma list of "axis=value" or
     * "BENCH:axis=value"; an item with a bench applies only to the records of
     * that bench (the others pass it). An item "axis?=value" also lets through
     * records that lack the axis (benches without it), so one chart can hold
     * benches of different axes. NULL = all. */
    const char *where;
    /* Heat grids: cells whose record has metric NAME non-zero are shaded
     * ("metric:NAME"), with this legend text. NULL = no shading. */
    const char *flag;
    const char *flag_label;
    /* One chart per distinct combination of these values among the
     * selected records: a comma list of axis names, "bench" for the bench.
     * Each is drawn as <name>-<value>-<value>... (characters other than
     * letters, digits, '-', '_' and '.' become '_') with the title
     * "<title> (<bench>, <axis>=<value>, ...)", in order of first
     * appearance in the run. Records lacking a split axis are left out.
     * NULL = one chart. */
    const char *split;
    /* Line and bar charts: several y values per record, each its own series,
     * ';'-separated "label=y" (y as for `y`); when set, `y` and `series` are
     * not used and references take their value from the first y. NULL = one
     * y. */
    const char *ys;
    /* Speedup charts (GB_CHART_SPEEDUP): "axis=base/improved", e.g.
     * "variant=original/revised". Records that agree in their bench and every
     * other axis form a pair; its speedup is the base record's median time
     * over the improved one's, with the interval of gb_speedup_ratio. Each
     * pair is one group of bars, named by its bench and, when a bench has
     * several pairs, the axes whose values differ between them. `y` and
     * `series` are not used. */
    const char *pair;
    /* Speedup charts: published speedups drawn as bars beside ours and listed
     * as columns of the table, ';'-separated "label=BENCH:value,BENCH:value,..."
     * (every pair of a bench gets the bench's value). NULL = none. */
    const char *ref_speedups;
    /* Line and bar charts: y as a fraction of a reference record's y. "BENCH"
     * or "BENCH:axis=value,..." (a filter, as `where`, on the reference): a
     * record is divided by the y of the first ok record of that bench in the
     * suite that passes the filter and agrees with the record on every axis
     * both have, the filter's axes aside (so a per-size reference is matched
     * by size). Records without a reference are left out; there are no error
     * bars; "bench:" reference lines are relative too and "device:" ones are
     * left out. NULL = y as measured. */
    const char *relative_to;
    /* Line and bar charts: report.md shows the chart's values under it as a
     * table, one row per series and one column per x value
     * (gb_report_chart_table). */
    int table;
    /* Line charts with numeric x: the values are placed evenly, one slot per
     * distinct value in numeric order, each labelled with its value (for
     * values that cluster, such as sizes 2048, 2049, 2176 next to 16384). */
    int x_categories;
};

/* Draws every chart `suite` declares from the records of `run` that belong
 * to it, into `out_dir` (created when missing). Line and bar charts draw
 * records with status ok; heat grids also mark failed and error points.
 * For each chart, records are selected by `benches` and `where`, grouped
 * into series by `series` (a record without that axis forms a series named
 * by its bench), and placed on x by `x` (a record without that axis is
 * grouped under its bench in a bar chart and left out of a line chart); y
 * is taken as `y` says, with error bars from the record's confidence
 * interval converted to y's unit (bw_gbs: bytes/ci_hi_ns .. bytes/ci_lo_ns;
 * gflops likewise; median_ns: ci_lo_ns .. ci_hi_ns; metrics have none). A
 * chart with no record to draw goes to res->no_data; without gnuplot, to
 * res->not_drawn (see gb_plot_draw). A failing chart does not stop the
 * others; the first failure is returned. */
enum gb_status gb_report_charts(const struct gb_run *run, const struct gb_suite *suite,
                                const char *out_dir, struct gb_report_result *res);

/* The table of a speedup chart (GB_CHART_SPEEDUP) of `suite`: one row per
 * pair of measured records (status ok) selected by the spec's `benches` and
 * `where`, in the order their base records were recorded: the bench, the
 * point (the axes that tell the bench's pairs apart; the column is left out
 * when no bench has several pairs), the base and improved median times ±
 * the larger side of their 95% CI (µs, or ms when the longest median reaches
 * 10 ms), the speedup, the ends of its interval (gb_speedup_ratio), and one
 * column per reference of ref_speedups. GB_ERR_USAGE for a spec that is not
 * a speedup chart or whose pair or references cannot be read. Free *out
 * with gb_table_free; a table with no row when no pair was measured. */
enum gb_status gb_report_speedup_table(const struct gb_run *run, const struct gb_suite *suite,
                                       const struct gb_chart_spec *spec, struct gb_table **out);

/* Prints, for every suite of the run that the suite table knows, each of its
 * speedup charts that has a measured pair as a titled table (title line,
 * blank line, the table) on `f`, a blank line before each; prints nothing
 * when there is none. Formats and `width` as gb_table_print. */
enum gb_status gb_report_print_speedups(const struct gb_run *run, FILE *f, enum gb_format fmt,
                                        int width);
/* The values a line or bar chart of `suite` draws from `run`, as a table:
 * a first column "series" with the legend texts, then one column per x
 * value (numeric x in numeric order, else in order of first appearance),
 * each cell the y of that series at that x (4 significant digits; empty
 * where the series has no point). GB_ERR_USAGE for a heat grid or a bad
 * spec. Free *out with gb_table_free. */
enum gb_status gb_report_chart_table(const struct gb_run *run, const struct gb_suite *suite,
                                     const struct gb_chart_spec *c, struct gb_table **out);

/* The summary of a run as a table, one row per record (of `suite` only, or
 * of every suite when NULL): suite (when NULL) and bench, one column per
 * axis, status, median time ± CI half width (µs, or ms when the longest
 * median reaches 10 ms; the half width is the larger side of the 95% CI),
 * samples, GB/s and % of the device's theoretical peak when a record moves
 * bytes, GFLOP/s when it counts flops, one column per metric, and a note
 * (why a point failed, an unconverged stopping rule, a dropped clock).
 * Times are left empty for records that were not measured. Free *out with
 * gb_table_free. */
enum gb_status gb_report_summary_table(const struct gb_run *run, const char *suite,
                                       struct gb_table **out);

/* Writes the report of `run` into `out_dir` (created when missing, parents
 * too): the charts of every suite present in the run that the suite table
 * knows (gb_report_charts), then report.md: the device, date, tool version
 * and revision, command line, wall time and the share of it in timed
 * kernel work, notes on an incomplete run or failed points, and per suite
 * its summary table and its charts as images (relative paths). The files
 * written are appended to res->files, report.md last. Missing gnuplot is
 * not an error (see gb_plot_draw). GB_ERR_IO when a file cannot be
 * written. */
enum gb_status gb_report_write(const struct gb_run *run, const char *out_dir,
                               struct gb_report_result *res);

/* ---- the geometry advisor's tables (gpubound/geometry.h) ---- */

struct gb_geo_result;

/* The table of good shapes: one row per result (bench or class, size,
 * cache): shapes ranked and not ok, the best shape and its time (µs; empty
 * for a class), the recommended shapes (within 5%) in rank order and their
 * count and thread range, and the comparisons with 'maximize occupancy'
 * (shapes reaching it, the best and worst of them with their ratios to the
 * best, necessary, sufficient) and 'square blocks' (the best nearest-square
 * shape, its ratio, whether recommended). The first column is "class" when
 * res[0] is a class, else "bench". Free *out with gb_table_free. */
enum gb_status gb_report_geometry_table(const struct gb_geo_result *res, size_t n,
                                        struct gb_table **out);

/* One row per shape of each result, in rank order: every shape when `all`,
 * else the recommended ones. Columns: rank, shape, threads, time (µs) and
 * ratio to the best (for a class: the geometric-mean score, the ratio and the
 * worst single-bench ratio), mark, occupancy, max occupancy, square; with
 * `group`, the bench or class, size and cache first and rows and cols after
 * the shape. Free *out with gb_table_free. */
enum gb_status gb_report_geometry_shapes(const struct gb_geo_result *res, size_t n, int all,
                                         int group, struct gb_table **out);

/* The table of good shapes (gb_report_geometry_table) of every bench, size
 * and cache of the ubench records in `run`, for a report. GB_ERR_USAGE when
 * the run has no ubench record; GB_ERR_NOMEM. */
enum gb_status gb_report_good_shapes(const struct gb_run *run, struct gb_table **out);

#endif
