/* chart_spec.h - charts as data: what a suite declares it draws, and the
 * charts.json a run directory carries so that any run can be charted
 * without the suite table of the build that recorded it.
 *
 * A suite declares its charts as a table of struct gb_chart_spec; the report
 * layer (report.h) selects the records, builds the series and draws them.
 * The string fields are small languages, described field by field below and
 * in docs/report.md. Nothing here prints or exits; a gb_chart_book is not
 * thread-safe, distinct books may be used from distinct threads.
 *
 * Implemented in src/results/chart_json.c: charts.json is a file of a run
 * directory, read and written beside its records, so that the suites
 * declare their charts without reaching up to the report layer.
 */
#ifndef GPUBOUND_CHART_SPEC_H
#define GPUBOUND_CHART_SPEC_H

#include "gpubound/api.h"

#include <stddef.h>

#include "gpubound/status.h"

enum gb_chart_kind {
    GB_CHART_LINE = 0,   /* x numeric axis, one line per series, error bars from the CI */
    GB_CHART_BAR,        /* groups along x, one bar per series in each group */
    GB_CHART_HEAT,       /* rows x cols grid with a mark per cell */
    GB_CHART_SPEEDUP,    /* chart specs only (drawn as bars): the speedup of pairs of
                          * records that differ in one axis, see gb_chart_spec.pair */
};

/* One declared chart. Fields are grouped (anonymous structs, so that a
 * table initializes them by name as before: `.row = "rows"`). */
struct gb_chart_spec {
    const char *name;     /* file stem: <name>.svg and <name>.png */
    const char *title;
    enum gb_chart_kind kind;

    /* ---- which records, and how many charts ---- */
    struct {
        const char *benches;  /* comma list of bench names (trailing '*' globs); NULL = all */
        /* Only records whose axes match: comma list of "axis=value" or
         * "BENCH:axis=value"; an item with a bench applies only to the records of
         * that bench (the others pass it). An item "axis?=value" also lets through
         * records that lack the axis (benches without it), so one chart can hold
         * benches of different axes. NULL = all. */
        const char *where;
        /* One chart per distinct combination of these values among the
         * selected records: a comma list of axis names, "bench" for the bench.
         * Each is drawn as <name>-<value>-<value>... (characters other than
         * letters, digits, '-', '_' and '.' become '_') with the title
         * "<title> (<bench>, <axis>=<value>, ...)", in order of first
         * appearance in the run. Records lacking a split axis are left out.
         * NULL = one chart. */
        const char *split;
        /* The charts a reader looks at first, drawn by default when the run is
         * large (gb_report_is_large): "*" for every chart this spec draws, or a
         * comma list of "axis=value" (axes of `split`, or "bench=NAME") that a
         * split chart must match. NULL = not primary. A suite that marks no
         * chart primary has the first chart of each spec drawn by default. */
        const char *primary;
    };

    /* ---- where a record goes: x and series ---- */
    struct {
        const char *x;        /* axis name, or "bench" */
        const char *series;   /* axis name, or "bench"; NULL = one series */
        /* Series legend text: "{}" is replaced by the series value ("{} B per
         * thread" -> "4 B per thread"); NULL = "<series axis> = <value>", or
         * the value alone when the series is "bench". */
        const char *series_label;
        /* Line charts with numeric x: the values are placed evenly, one slot per
         * distinct value in numeric order, each labelled with its value (for
         * values that cluster, such as sizes 2048, 2049, 2176 next to 16384). */
        int x_categories;
    };

    /* ---- what is drawn: y and reference lines ---- */
    struct {
        const char *y;        /* "bw_gbs", "median_ns", "gflops", or "metric:NAME" */
        /* Line and bar charts: several y values per record, each its own series,
         * ';'-separated "label=y" (y as for `y`); when set, `y` and `series` are
         * not used and references take their value from the first y. NULL = one
         * y. */
        const char *ys;
        /* Line and bar charts: y as a fraction of a reference record's y. "BENCH"
         * or "BENCH:axis=value,..." (a filter, as `where`, on the reference): a
         * record is divided by the y of the first ok record of that bench in the
         * suite that passes the filter and agrees with the record on every axis
         * both have, the filter's axes aside (so a per-size reference is matched
         * by size). Records without a reference are left out; there are no error
         * bars; "bench:" reference lines are relative too and "device:" ones are
         * left out. NULL = y as measured. */
        const char *relative_to;
        /* Horizontal reference lines, ';'-separated "label=source" where source is
         * "device:mem_peak_gbs" or "bench:NAME" (that bench's y, max over points). */
        const char *refs;
    };

    /* ---- axes as drawn ---- */
    struct {
        const char *x_label;
        const char *y_label;
        int log_x, log_y;
    };

    /* ---- heat grids ---- */
    struct {
        /* The row and column axes; y is a time (lower is better). */
        const char *row, *col;
        /* Cells whose record has metric NAME non-zero are shaded
         * ("metric:NAME"), with this legend text. NULL = no shading. */
        const char *flag;
        const char *flag_label;
    };

    /* ---- speedup charts (GB_CHART_SPEEDUP) ---- */
    struct {
        /* "axis=base/improved", e.g. "variant=original/revised". Records that
         * agree in their bench and every other axis form a pair; its speedup is
         * the base record's median time over the improved one's, with the
         * interval of gb_speedup_ratio. Each pair is one group of bars, named
         * by its bench and, when a bench has several pairs, the axes whose
         * values differ between them. `y` and `series` are not used. */
        const char *pair;
        /* Published speedups drawn as bars beside ours and listed as columns
         * of the table, ';'-separated "label=BENCH:value,BENCH:value,..."
         * (every pair of a bench gets the bench's value). NULL = none. */
        const char *ref_speedups;
    };

    /* Line and bar charts: report.md shows the chart's values under it as a
     * table, one row per series and one column per x value
     * (gb_report_chart_table). */
    int table;
};

/* How a run's findings (report.h, gb_report_findings) compare the benches
 * of one suite: the suite declares it beside its charts, so that the report
 * runs every suite's rule without knowing the suite. A zeroed rule ranks
 * each bench's records by the rate of their work, GFLOP/s where they count
 * flops, else GB/s where they move bytes, else by time, all in one set. A
 * suite that declares no rule (a kernel spec) gets {.per_problem = 1}. */
struct gb_findings_rule {
    const char *where[2];     /* "axis=value": the configurations compared (when present) */
    const char *at_max;       /* compare at the largest value of this axis only */
    /* Rank by the first of these metrics a bench records (higher is better),
     * over the records that have it; none: GFLOP/s, else GB/s, else time. metric_units[i]
     * follows a value of metrics[i] (" ops/clock/SM"); NULL: nothing. */
    const char *metrics[2];
    const char *metric_units[2];
    int by_time;              /* rank by time even where GFLOP/s or GB/s is recorded */
    /* Rank the configurations of each problem apart, a line each: an axis
     * that alone changes the work a record does (its bytes or flops per
     * launch), other than block_size_* and occupancy_*, sets the problem
     * (a GEMM's n), so that no size is ranked against another. */
    int per_problem;
    int peak;                 /* say the highest GB/s against the device's theoretical peak */
    /* Rank by the ratio of the median times at two values of this axis
     * instead (pair_num over pair_den, same bench and other axes), named
     * pair_what in the lines. */
    const char *pair_axis;
    const char *pair_num, *pair_den, *pair_what;
    const char *source;       /* the study the suite re-creates; NULL: none */
};

/* The charts of one suite: the records of suite `name` are what they draw. */
struct gb_chart_set {
    const char *name;                     /* the suite */
    const char *help;                     /* one paragraph on the suite for report.md; may be NULL */
    const struct gb_chart_spec *charts;
    int n_charts;
    /* How its findings compare its benches; NULL: the zeroed rule. Declared
     * by the suite (struct gb_suite); not stored in charts.json. */
    const struct gb_findings_rule *findings;
};

/* The chart sets of a run, one per suite. A book either borrows its sets
 * (gb_chart_book_add: the caller keeps them alive) or owns them (a book
 * read by gb_chart_book_load). Caller-owned storage. */
struct gb_chart_book {
    struct gb_chart_set *sets;
    size_t n;
    /* Storage of a loaded book (specs and strings); NULL for borrowed sets. */
    void *owned;
};

GB_API void gb_chart_book_init(struct gb_chart_book *b);
GB_API void gb_chart_book_release(struct gb_chart_book *b);

/* Appends `set` to the book, without copying what it points to.
 * GB_ERR_NOMEM. */
GB_API enum gb_status gb_chart_book_add(struct gb_chart_book *b, const struct gb_chart_set *set);

/* The set of suite `name`, or NULL when the book has none. */
GB_API const struct gb_chart_set *gb_chart_book_find(const struct gb_chart_book *b, const char *name);

/* The name of a run directory's chart file. */
#define GB_CHARTS_FILE "charts.json"

/* Writes the book as <run_dir>/charts.json (docs/results-format.md),
 * atomically. GB_ERR_IO when it cannot be written. */
GB_API enum gb_status gb_chart_book_write(const struct gb_chart_book *b, const char *run_dir);

/* Reads <run_dir>/charts.json into `b` (initialized, empty): *found is 1
 * when the file exists, 0 (and `b` left empty, GB_OK) when it does not.
 * GB_ERR_FORMAT, naming the file and the field, when it is malformed;
 * GB_ERR_IO when it cannot be read. Release with gb_chart_book_release. */
GB_API enum gb_status gb_chart_book_load(const char *run_dir, struct gb_chart_book *b, int *found);

#endif
