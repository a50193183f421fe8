/* report_internal.h - helpers shared by the files of src/report/. */
#ifndef GB_REPORT_INTERNAL_H
#define GB_REPORT_INTERNAL_H

#include <stddef.h>

#include "gpubound/report.h"
#include "util/fs.h"

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

/* The charts `c` of suite `s` draws from `run`: one for a spec without
 * split, else one per combination of split values among the records the
 * spec selects, in order of first appearance (none when no record has
 * them). *out is malloc'ed (caller frees). */
enum gb_status gb_chart_instances(const struct gb_run *run, const struct gb_suite *s,
                                  const struct gb_chart_spec *c, struct gb_chart_inst **out,
                                  size_t *n);
struct gb_suite;

/* Whether chart `c` of suite `s` selects record `r` (its suite, benches and where). */
int gb_chart_selects(const struct gb_suite *s, const struct gb_chart_spec *c,
                     const struct gb_record *r);

/* A new plot of kind `kind` for chart `c`: its name, title (the name when
 * it has none) and axis labels, and the device and date of `run` under the
 * title (a chart is often seen without its report). *out is NULL on error. */
enum gb_status gb_chart_plot_new(const struct gb_run *run, const struct gb_chart_spec *c,
                                 enum gb_chart_kind kind, struct gb_plot **out);

/* Draws a GB_CHART_SPEEDUP chart as bars (speedup.c); like gb_chart_one. */
enum gb_status gb_chart_speedup(const struct gb_run *run, const struct gb_suite *s,
                                const struct gb_chart_spec *c, const char *out_dir,
                                struct gb_report_result *res);

#endif
