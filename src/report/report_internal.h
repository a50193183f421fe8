/* report_internal.h - helpers shared by the files of src/report/. */
#ifndef GB_REPORT_INTERNAL_H
#define GB_REPORT_INTERNAL_H

#include <stddef.h>
#include <stdio.h>

#include <jansson.h>

#include "gpubound/report.h"
#include "util/fs.h"

/* report.md's "Findings" section: gb_report_findings of each suite, under
 * the rules of `book`'s sets, at most GB_FINDINGS_MAX_LINES lines in all
 * (the rest is counted, not shown). */
#define GB_FINDINGS_MAX_LINES 58
enum gb_status gb_md_findings(FILE *f, const struct gb_run *run, const struct gb_chart_book *book,
                              char *const *suites, size_t n_suites);

/* Appends a copy of `s` to a list of a gb_report_result. */
enum gb_status gb_result_add(char ***list, size_t *n, const char *s);

/* Appends "<dir>/<file>" to res->files. */
enum gb_status gb_result_add_file(struct gb_report_result *res, const char *dir,
                                  const char *file);

/* One chart to draw of a declared chart: the spec itself, or, for a spec
 * with `split`, a copy narrowed to one combination of the split values
 * (its name, title, where and benches point into the instance). */
struct gb_chart_inst {
    struct gb_chart_spec spec;
    char name[256];
    char title[512];
    char where[1024];
    char bench[64];
};

/* The charts `c` of chart set `s` draws from `run`: one for a spec without
 * split, else one per combination of split values among the records the
 * spec selects, in order of first appearance (none when no record has
 * them). *out is malloc'ed (caller frees). */
enum gb_status gb_chart_instances(const struct gb_run *run, const struct gb_chart_set *s,
                                  const struct gb_chart_spec *c, struct gb_chart_inst **out,
                                  size_t *n);

/* Whether chart `c` of set `s` selects record `r` (its suite, benches and where). */
int gb_chart_selects(const struct gb_chart_set *s, const struct gb_chart_spec *c,
                     const struct gb_record *r);

/* A new plot of kind `kind` for chart `c`: its name, title (the name when
 * it has none) and axis labels, and the device and date of `run` under the
 * title (a chart is often seen without its report). *out is NULL on error. */
enum gb_status gb_chart_plot_new(const struct gb_run *run, const struct gb_chart_spec *c,
                                 enum gb_chart_kind kind, struct gb_plot **out);

/* Draws a GB_CHART_SPEEDUP chart as bars (speedup.c) as `formats` say
 * (gb_plot_formats); like gb_chart_one. */
enum gb_status gb_chart_speedup(const struct gb_run *run, const struct gb_chart_set *s,
                                const struct gb_chart_spec *c, const char *out_dir, int formats,
                                struct gb_report_result *res);

/* Builds the plot of line, bar or heat chart `c` of `s` from `run` without
 * drawing it: *out (free with gb_plot_free) and the points, bars or cells
 * it holds in *n_points (0: nothing measured). Each point carries the index
 * of the record it comes from (gb_plot_tag). */
enum gb_status gb_chart_build(const struct gb_run *run, const struct gb_chart_set *s,
                              const struct gb_chart_spec *c, struct gb_plot **out, int *n_points);

/* The record index attached to the points, bars and cells added to `p`
 * from now on; -1 for none (the default). */
void gb_plot_tag(struct gb_plot *p, long rec);

/* The plot as data, for report.html (html.c): its kind, titles, axes,
 * series with points [x, y, lo, hi, record] (NaN as null; categorical x and
 * bar groups as indexes into "cats"), reference lines and stars, or a heat
 * grid's rows, cols and cells [row, col, value, flagged, record]. NULL when
 * out of memory. */
json_t *gb_plot_json(const struct gb_plot *p);

/* ---- which charts a report draws (select.c) ---- */

/* Whether instance `k` of spec `c` of `set` (its instance `in`, NULL for a
 * spec with no instance) is drawn under `opts` (NULL: the default) in a run
 * that is `large` or not (gb_report_is_large). */
int gb_chart_wanted(const struct gb_report_opts *opts, int large, const struct gb_chart_set *set,
                    const struct gb_chart_spec *c, const struct gb_chart_inst *in, size_t k);

/* Draws the charts of `set` that gb_chart_wanted picks; gb_report_charts
 * is this with large = 0. Charts left out are counted in res->n_left_out. */
enum gb_status gb_charts_draw(const struct gb_run *run, const struct gb_chart_set *set,
                              const struct gb_report_opts *opts, int large, const char *out_dir,
                              struct gb_report_result *res);

#endif
