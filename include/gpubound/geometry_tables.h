/* geometry_tables.h - the geometry advisor's output (gpubound/geometry.h):
 * its tables and its text, for `gpubound geometry` and for reports.
 */
#ifndef GPUBOUND_GEOMETRY_TABLES_H
#define GPUBOUND_GEOMETRY_TABLES_H

#include "gpubound/api.h"

#include <stddef.h>
#include <stdio.h>

#include "gpubound/geometry.h"
#include "gpubound/results.h"
#include "gpubound/table.h"

/* The table of good shapes: one row per result (bench or class, size,
 * cache): shapes ranked and not ok, the best shape and its time (µs; empty
 * for a class), the recommended shapes (within 5%) in rank order and their
 * count and thread range, and the comparisons with 'maximize occupancy'
 * (shapes reaching it, the best and worst of them with their ratios to the
 * best, necessary, sufficient) and 'square blocks' (the best nearest-square
 * shape, its ratio, whether recommended). The first column is "class" when
 * res[0] is a class, else "bench". Free *out with gb_table_free. */
GB_API enum gb_status gb_report_geometry_table(const struct gb_geo_result *res, size_t n,
                                        struct gb_table **out);

/* One row per shape of each result, in rank order: every shape when `all`,
 * else the recommended ones. Columns: rank, shape, threads, time (µs) and
 * ratio to the best (for a class: the geometric-mean score, the ratio and the
 * worst single-bench ratio), mark, occupancy, max occupancy, square; with
 * `group`, the bench or class, size and cache first and rows and cols after
 * the shape. Free *out with gb_table_free. */
GB_API enum gb_status gb_report_geometry_shapes(const struct gb_geo_result *res, size_t n, int all,
                                         int group, struct gb_table **out);

/* The table of good shapes (gb_report_geometry_table) of every bench, size
 * and cache of the ubench records in `run`, for a report. GB_ERR_USAGE when
 * the run has no ubench record; GB_ERR_NOMEM. */
GB_API enum gb_status gb_report_good_shapes(const struct gb_run *run, struct gb_table **out);

/* Prints the advice for one result on `f` as `gpubound geometry --bench`
 * shows it: what was ranked, the best shape and time, the recommended
 * shapes (a table, cut to `width` columns as gb_table_print does), and the
 * comparisons with 'maximize occupancy' and 'square blocks'. GB_ERR_IO
 * when writing fails. */
GB_API enum gb_status gb_report_geometry_text(const struct gb_geo_result *r, FILE *f, int width);

/* The table of pattern classes (gb_geo_classes): class, benches, where the
 * paper describes it, what its benches share. Free *out with gb_table_free. */
GB_API enum gb_status gb_report_geometry_classes(struct gb_table **out);

/* For every size and cache (only `size` / `cache` when not NULL) where
 * benches `a` and `b` both have records and ranked shapes: the best shape
 * and time (µs) of each and the reduction 1 - best(b) / best(a) (%).
 * GB_ERR_USAGE when there is no such size and cache. Free *out with
 * gb_table_free; *out is NULL on error. */
GB_API enum gb_status gb_report_geometry_compare(const struct gb_geo_set *set, const char *a,
                                          const char *b, const char *size, const char *cache,
                                          struct gb_table **out);

#endif
