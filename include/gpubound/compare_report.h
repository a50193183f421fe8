/* compare_report.h - a comparison of runs (compare.h) as a table, a JSON
 * document and a chart of ratios with their intervals (src/report/compare.c).
 */
#ifndef GPUBOUND_COMPARE_REPORT_H
#define GPUBOUND_COMPARE_REPORT_H

#include "gpubound/api.h"

#include <stdio.h>

#include "gpubound/compare.h"
#include "gpubound/plot.h"
#include "gpubound/table.h"

/* What the comparison was made on, for its headers and the JSON. */
struct gb_cmp_context {
    const char *base_label, *new_label;   /* the run directories of each side, as given */
    const char *base_device, *new_device; /* device names ("" unknown) */
    int anchored;                         /* the anchored columns are shown */
    const char *anchor_what;              /* "measured copy bandwidth" or "peak memory bandwidth" */
    double alpha, threshold;
};

/* One row per matched point, in the result's order: point, base and new
 * medians (ns), ratio with its interval, p, verdict, method, notes; with
 * ctx->anchored the anchored ratio and its interval too. *out is freed
 * with gb_table_free. GB_ERR_NOMEM. */
GB_API enum gb_status gb_report_compare_table(const struct gb_cmp_result *r, const struct gb_cmp_context *ctx,
                                       struct gb_table **out);

/* The summary line: "N faster, N slower, N unchanged of N points; geometric-
 * mean ratio G [lo, hi] (99% CI)" (no newline) into buf; when points of
 * BASE were not measured in NEW, "; N measured in base and not in new (F
 * failed, S skipped, M missing)" follows the count of points. */
GB_API void gb_report_compare_summary(const struct gb_cmp_result *r, const struct gb_cmp_context *ctx, char *buf,
                               size_t n);

/* The whole comparison as one JSON document on `f`: the context, the
 * summary, every point and the one-sided points (only_base_in_new: why
 * each base-only point has no measurement in NEW). GB_ERR_IO. */
GB_API enum gb_status gb_report_compare_json(const struct gb_cmp_result *r, const struct gb_cmp_context *ctx, FILE *f);

/* The chart <out_dir>/compare.{gp,svg,png}: each point's ratio with its
 * interval, coloured by verdict, at most `max_points` of the largest
 * effects, with lines at 1 and at 1 +- threshold. `out_dir` must exist.
 * As gb_plot_draw. */
GB_API enum gb_status gb_report_compare_chart(const struct gb_cmp_result *r, const struct gb_cmp_context *ctx,
                                       const char *out_dir, size_t max_points, struct gb_report_result *res);

#endif
