/* breakdown_chart.h - the chart of an LPBM breakdown (src/report/
 * breakdown_chart.c): one stacked bar per configuration, a segment per
 * term (a_j * x_j), with the measured time and its interval marked over
 * each bar; one chart per problem size. Drawing only: every number comes
 * from the model (gpubound/lpbm.h).
 */
#ifndef GPUBOUND_BREAKDOWN_CHART_H
#define GPUBOUND_BREAKDOWN_CHART_H

#include "gpubound/api.h"

#include "gpubound/lpbm.h"
#include "gpubound/plot.h"

/* Draws <dir>/<stem>[-<problem>].svg and .png (gb_plot_draw) for model `m`,
 * one chart per distinct problem of its points (characters of the problem
 * other than letters, digits, '-', '_' and '.' become '_'), titled with
 * the bench and the problem; `subtitle` (may be NULL) goes under the title.
 * `formats` as gb_plot_formats. What was written, or could not be drawn
 * without gnuplot, is listed in `res`. */
GB_API enum gb_status gb_breakdown_chart_draw(const struct gb_lpbm_bench_model *m, const char *dir,
                                       const char *stem, const char *subtitle, int formats,
                                       struct gb_report_result *res);

#endif
