/* report.h - the report of a run directory: its summary tables, the charts
 * its suites declare (chart_spec.h), and report.md. Reports only read
 * records, chart specs and model outputs; they never compute a statistic
 * and never need the suite table: the chart specs come in a gb_chart_book
 * (the run's charts.json, or whatever the caller looked up).
 *
 * Built on tables (table.h) and plots (plot.h). Nothing here prints to the
 * user or exits; nothing is thread-safe on the same object, and distinct
 * objects may be used from distinct threads.
 */
#ifndef GPUBOUND_REPORT_H
#define GPUBOUND_REPORT_H

#include "gpubound/api.h"

#include <stddef.h>
#include <stdio.h>

#include "gpubound/chart_spec.h"
#include "gpubound/plot.h"
#include "gpubound/results.h"
#include "gpubound/roofline.h"
#include "gpubound/status.h"
#include "gpubound/table.h"

/* A run is large when it holds more than GB_REPORT_LARGE_RECORDS records or
 * its charts come to more than GB_REPORT_LARGE_CHARTS diagrams. A large run
 * draws its primary charts by default (gb_chart_spec.primary), and its
 * report.md and terminal summary give one row per bench instead of one per
 * point (the full table goes to summary.csv). */
#define GB_REPORT_LARGE_RECORDS 1000
#define GB_REPORT_LARGE_CHARTS 24

/* What a report draws. Zero-initialized: every chart of a small run, the
 * primary ones of a large run, as SVG and PNG. */
struct gb_report_opts {
    /* Shell globs (fnmatch) over chart names: a chart is drawn when one
     * matches its file stem or the name of the spec it comes from. Every
     * pattern must match some chart of the run. None = the default. */
    const char *const *patterns;
    size_t n_patterns;
    int all_charts;          /* every chart, whatever the size of the run */
    int formats;             /* GB_PLOT_SVG | GB_PLOT_PNG; 0 = both */
    int force;               /* replace a report.md made from more points */
    /* The run's points under the machine's roofs (the roofline model,
     * roofline.h), placed by the caller; NULL: none. When `roofline` has a
     * point placed from counters, report.md and report.html gain a
     * "Roofline" section: the notes on where the roofs and bytes come from,
     * the hierarchical roofline chart (roofline.svg/.png) and the table of
     * gb_report_roofline_table. Both or neither. */
    const struct gb_ceilings *roofs;
    const struct gb_roofline *roofline;
};

/* GB_ERR_USAGE, naming the pattern and some of the run's charts, when a
 * pattern of `opts` (NULL: none) matches no chart that `book` draws from
 * `run`; GB_OK when each matches one. */
GB_API enum gb_status gb_report_check_patterns(const struct gb_run *run, const struct gb_chart_book *book,
                                        const struct gb_report_opts *opts);

/* Whether `run`, charted by `book`, is large (see GB_REPORT_LARGE_RECORDS).
 * Returns 0 when it cannot tell (out of memory). */
GB_API int gb_report_is_large(const struct gb_run *run, const struct gb_chart_book *book);

/* Draws the charts of `set` selected by `opts` (NULL: every one) from the
 * records of `run` of suite set->name, into `out_dir` (created when
 * missing). Line and bar charts draw records with status ok; heat grids
 * also mark failed and error points. For each chart, records are selected
 * by `benches` and `where`, grouped into series by `series` (a record
 * without that axis forms a series named by its bench), and placed on x by
 * `x` (a record without that axis is grouped under its bench in a bar chart
 * and left out of a line chart); y is taken as `y` says, with error bars
 * from the record's confidence interval converted to y's unit (bw_gbs:
 * bytes/ci_hi_ns .. bytes/ci_lo_ns; gflops likewise; median_ns: ci_lo_ns ..
 * ci_hi_ns; metrics have none). A chart with no record to draw goes to
 * res->no_data; without gnuplot, to res->not_drawn (see gb_plot_draw). A
 * failing chart does not stop the others; the first failure is returned.
 * With patterns, a large run and all_charts are not considered here:
 * patterns select, else every chart is drawn. */
GB_API enum gb_status gb_report_charts(const struct gb_run *run, const struct gb_chart_set *set,
                                const struct gb_report_opts *opts, const char *out_dir,
                                struct gb_report_result *res);

/* The table of a speedup chart (GB_CHART_SPEEDUP) of `set`: one row per
 * pair of measured records (status ok) selected by the spec's `benches` and
 * `where`, in the order their base records were recorded: the bench, the
 * point (the axes that tell the bench's pairs apart; the column is left out
 * when no bench has several pairs), the base and improved median times ±
 * the larger side of their 95% CI (µs, or ms when the longest median reaches
 * 10 ms), the speedup, the ends of its interval (gb_speedup_ratio), and one
 * column per reference of ref_speedups. GB_ERR_USAGE for a spec that is not
 * a speedup chart or whose pair or references cannot be read. Free *out
 * with gb_table_free; a table with no row when no pair was measured. */
GB_API enum gb_status gb_report_speedup_table(const struct gb_run *run, const struct gb_chart_set *set,
                                       const struct gb_chart_spec *spec, struct gb_table **out);

/* Prints, for every suite of the run that `book` has charts for, each of its
 * speedup charts that has a measured pair as a titled table (title line,
 * blank line, the table) on `f`, a blank line before each; prints nothing
 * when there is none. Formats and `width` as gb_table_print. */
GB_API enum gb_status gb_report_print_speedups_book(const struct gb_run *run,
                                             const struct gb_chart_book *book, FILE *f,
                                             enum gb_format fmt, int width);

/* gb_report_print_speedups_book with the charts of the run's own
 * charts.json (none when it has none). */
GB_API enum gb_status gb_report_print_speedups(const struct gb_run *run, FILE *f, enum gb_format fmt,
                                        int width);

/* The values a line or bar chart of `set` draws from `run`, as a table:
 * a first column "series" with the legend texts, then one column per x
 * value (numeric x in numeric order, else in order of first appearance),
 * each cell the y of that series at that x (4 significant digits; empty
 * where the series has no point). GB_ERR_USAGE for a heat grid or a bad
 * spec. Free *out with gb_table_free. */
GB_API enum gb_status gb_report_chart_table(const struct gb_run *run, const struct gb_chart_set *set,
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
GB_API enum gb_status gb_report_summary_table(const struct gb_run *run, const char *suite,
                                       struct gb_table **out);

/* The summary of a large run: one row per bench (of `suite` only, or of
 * every suite when NULL, then with a first column "suite"), in order of
 * first appearance: points recorded, measured, failed, skipped, and the
 * fastest and slowest median time of its measured points (µs, or ms when
 * the slowest reaches 10 ms). Free *out with gb_table_free. */
GB_API enum gb_status gb_report_bench_table(const struct gb_run *run, const char *suite,
                                     struct gb_table **out);

/* What a run found, suite by suite, as plain-text lines (no markup): the
 * highest bandwidth against the device's peak where the suite moves bytes,
 * each bench's best and worst configuration under the suite's own measure
 * (GB/s, time, a metric, or the ratio of paired variants such as original
 * over revised), and the study the suite answers. Computed from the records
 * only; report.md's "Findings" section and any other format show the same
 * lines. */
struct gb_findings {
    char **lines;
    size_t n;
};

/* Fills *out (zeroed first) with the findings of `suite` in `run`, under
 * the gb_findings_rule of the suite's set in `book` (chart_spec.h; the
 * default rule when `book` is NULL or its set declares none): no lines for
 * a suite without records. GB_ERR_NOMEM; on error *out is empty. Release
 * with gb_findings_release. */
GB_API enum gb_status gb_report_findings(const struct gb_run *run, const struct gb_chart_book *book,
                                  const char *suite, struct gb_findings *out);

/* Frees the lines and empties *f. Safe on an empty one and on NULL. */
GB_API void gb_findings_release(struct gb_findings *f);

/* The table of a roofline, one row per point: its label, pipe, time (ns),
 * operations, bytes and arithmetic intensity at each level (DRAM, L2,
 * L1/shared), achieved rate (G/s), binding roof, attained fraction, and
 * "above measured roof" where it is faster than a roof allows. Free *out
 * with gb_table_free. */
GB_API enum gb_status gb_report_roofline_table(const struct gb_roofline *rl, struct gb_table **out);

/* The hierarchical roofline as a plot, not drawn (gb_plot_draw for
 * gnuplot): log-log, the pipe roofs the points use as horizontal lines,
 * each memory level's roof as a line of slope 1 (bandwidth x intensity, up
 * to the highest pipe roof), one marker per point and level at its
 * intensity and achieved rate, and a point above a roof marked again in a
 * series of its own, where it was measured. Named "roofline". *out is NULL
 * on error; GB_ERR_USAGE when no point has operations and bytes. */
GB_API enum gb_status gb_report_roofline_plot(const struct gb_ceilings *c, const struct gb_roofline *rl,
                                              struct gb_plot **out);

/* How to record a ceilings run, for the notes and messages. */
#define GB_REPORT_CEILINGS_HINT                                                                     \
    "gpubound run ceilings bandwidth/read throughput/arith --set op=ffma,dfma,imul,__sinf "        \
    "--set mode=tput --out DIR"

/* The notes a reader of a roofline needs, as lines (no markup): where the
 * roofs come from (a ceilings run, or the guide figures and how to record
 * a ceilings run; `looked` says that one was also looked for beside the
 * run), the points without counters, how bytes per level and operations
 * are counted, and the records left out. Release with gb_findings_release. */
GB_API enum gb_status gb_report_roofline_notes(const struct gb_ceilings *c, const struct gb_roofline *rl,
                                               int looked, struct gb_findings *out);

/* Writes the report of `run` into `out_dir` (created when missing, parents
 * too): the charts of `book` that `opts` selects (NULL: the default; see
 * struct gb_report_opts) for every suite present in the run, then
 * report.md: the device, date, tool version and revision, command line,
 * wall time and the share of it in timed kernel work, notes on an
 * incomplete run or failed points, and per suite its summary table (per
 * bench for a large run, which also gets summary.csv, the table of every
 * point) and its drawn charts as images (relative paths). A suite that
 * `book` has no charts for is reported without charts. The files written
 * are appended to res->files, report.md last; report.html comes before it
 * (report_html.h; not written, and listed in res->not_drawn, without the
 * chart library). Missing gnuplot is not an error (see gb_plot_draw).
 * Every file is drawn and written in a private stage and moved into
 * `out_dir` as a unit only when all succeeded: on failure `out_dir` is as
 * it was (a link at an output's name is replaced, never followed), the
 * message ends "(nothing was written to OUT_DIR...)" and res->files is
 * emptied. GB_ERR_USAGE, before
 * anything is written, when a pattern matches no chart; GB_ERR_UNSUPPORTED,
 * before anything is written, when the report.md in `out_dir` was made from
 * more points than `run` holds (a cut run) and opts->force is not set;
 * GB_ERR_IO when a file cannot be written. */
GB_API enum gb_status gb_report_write_book(const struct gb_run *run, const struct gb_chart_book *book,
                                    const struct gb_report_opts *opts, const char *out_dir,
                                    struct gb_report_result *res);

/* gb_report_write_book with the run's own charts.json (no charts when it
 * has none) and the default options. charts.json carries no findings
 * rules, so the findings use the default rule (gpubound's commands add the
 * rules of the suites they know). */
GB_API enum gb_status gb_report_write(const struct gb_run *run, const char *out_dir,
                               struct gb_report_result *res);

#endif
