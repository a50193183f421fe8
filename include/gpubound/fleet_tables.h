/* fleet_tables.h - the tables and chart of a fleet report
 * (src/report/fleet.c), from the statistics of fleet.h. Nothing here
 * prints or exits.
 */
#ifndef GPUBOUND_FLEET_TABLES_H
#define GPUBOUND_FLEET_TABLES_H

#include "gpubound/api.h"

#include <stdio.h>

#include "gpubound/fleet.h"
#include "gpubound/plot.h"
#include "gpubound/table.h"

/* The points side by side: one row per point, its fleet median (µs) and
 * max/min of the medians, then per member its median (µs) and ratio to
 * the fleet median, "*" marking an outlier. */
GB_API enum gb_status gb_fleet_wide_table(const struct gb_fleet_report *r, struct gb_table **out);

/* One row per point and member (CSV and JSON): point, rank, host,
 * gpu_uuid, status, median and interval (ns), fleet median, ratio and its
 * interval, robust z, outlier ("slow", "fast" or ""). */
GB_API enum gb_status gb_fleet_long_table(const struct gb_fleet_report *r, struct gb_table **out);

/* The rows of gb_fleet_long_table as CSV (header first, as gb_table_print
 * writes it) on `f`, streamed: one point's rows are made, written and
 * freed before the next, so that the memory taken beyond the report does
 * not grow with the points. GB_ERR_IO when writing fails, GB_ERR_NOMEM. */
GB_API enum gb_status gb_fleet_long_csv(const struct gb_fleet_report *r, FILE *f);

/* One row per suite: points compared, max/min of the medians (median and
 * largest, with that point), points whose spread exceeds the members' own
 * intervals, points with an outlier. */
GB_API enum gb_status gb_fleet_suite_table(const struct gb_fleet_report *r, struct gb_table **out);

/* One row per member: rank, host, GPU, state, points measured and failed,
 * geometric-mean ratio, range, outlier counts, and a verdict. */
GB_API enum gb_status gb_fleet_summary_table(const struct gb_fleet_report *r, struct gb_table **out);

/* Draws the fleet charts into `out_dir` (must exist) as .gp/.svg/.png.
 * Up to GB_FLEET_BAR_POINTS points: one chart, <stem>, with one bar per
 * point and member, the member's median over the fleet median with that
 * ratio's 95% interval, and a dashed line at 1. More points: one chart
 * per suite, <stem>-<suite>, with per member its ratios at the suite's
 * points sorted, against the share of the points (a flat line at 1 is a
 * GPU like the fleet; the interval of each ratio is drawn). Files go to
 * res as gb_plot_draw says. GB_ERR_USAGE when nothing was measured. */
#define GB_FLEET_BAR_POINTS 40
GB_API enum gb_status gb_fleet_chart(const struct gb_fleet_report *r, const char *out_dir, const char *stem,
                              int formats, struct gb_report_result *res);

#endif
