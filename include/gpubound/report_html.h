/* report_html.h - report.html: one self-contained, offline page per run
 * with the run's provenance, sortable summary tables, the charts of
 * report.md drawn in the browser from the records embedded in the page
 * (hover values, series toggles, zoom), the uBench heat grids, speedup
 * tables, and the CampProf calculator when the run carries a model.
 *
 * The charting library (Chart.js) is read at report time from the Debian
 * package libjs-chart.js and embedded in the page: nothing is fetched when
 * the page is viewed. Nothing here prints or exits.
 */
#ifndef GPUBOUND_REPORT_HTML_H
#define GPUBOUND_REPORT_HTML_H

#include "gpubound/api.h"

#include <stddef.h>

#include "gpubound/chart_spec.h"
#include "gpubound/plot.h"
#include "gpubound/report.h"
#include "gpubound/results.h"
#include "gpubound/status.h"

/* Where the chart library is read from, unless GB_CHARTJS names a file. */
#define GB_HTML_CHARTJS "/usr/share/javascript/chart.js/chart.min.js"

/* The chart library's path (GB_CHARTJS or GB_HTML_CHARTJS) in buf; 1 when
 * that file can be read, 0 when not. */
GB_API int gb_html_library(char *buf, size_t n);

/* Writes <out_dir>/report.html for `run`: the charts of `book` that `opts`
 * selects (as report.md; NULL: the default), its summary and speedup tables,
 * run.json, and the CampProf calculator for each campprof-model*.json in the
 * run directory. When the chart library is not installed, nothing is
 * written: "report.html" goes to res->not_drawn and res->note says how to
 * install it (GB_OK). The file written is appended to res->files.
 * GB_ERR_IO when it cannot be written, GB_ERR_NOMEM. */
GB_API enum gb_status gb_report_html_write(const struct gb_run *run, const struct gb_chart_book *book,
                                    const struct gb_report_opts *opts, const char *out_dir,
                                    struct gb_report_result *res);

/* Inputs the calculator starts from (camp predict --html). Counts per
 * width class as in struct gb_camp_counts; negative ints and NaN time mean
 * "not given". */
struct gb_html_camp_inputs {
    double ld[5], st[5];
    long threads, regs, smem, grid, warps_max, at_warps;
    double time_ns;
    const char *title;   /* the page's title; NULL: "CampProf calculator" */
};

/* Writes `path` (atomically): a page holding only the CampProf calculator
 * for the model file `model_path`, filled with `in`. The same "library not
 * installed" rule as gb_report_html_write: *written is 0 and `note` (of
 * size n) says how to get it. GB_ERR_IO when a file cannot be read or
 * written. */
GB_API enum gb_status gb_html_camp_page(const char *model_path, const struct gb_html_camp_inputs *in,
                                 const char *path, int *written, char *note, size_t n);

#endif
