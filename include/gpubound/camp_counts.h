/* camp_counts.h - the contract between the camping suite and CampProf: the
 * width classes of global memory instructions, a kernel's instruction
 * counts by class, and the names of the record metrics that carry them.
 * Each name is spelled here once: the suite writes the metrics
 * (src/suites/camping*.c), the model reads them (src/models/
 * campprof_records.c). Pure data and lookups; thread-safe.
 */
#ifndef GPUBOUND_CAMP_COUNTS_H
#define GPUBOUND_CAMP_COUNTS_H

#include "gpubound/api.h"

/* Width classes: 1, 2, 4, 8 and 16 bytes per thread (index = log2). */
#define GB_CAMP_N_WIDTHS 5

/* The narrowest class the suite records: its kernels access 2 to 16 bytes
 * per thread, so no record carries a 1-byte count (reading none is reading
 * zero instructions of that width). */
#define GB_CAMP_RECORDED_CLASS_MIN 1

/* A kernel's global memory work per launch: warp-level load and store
 * instructions by width class (a warp-level instruction counts once
 * whatever number of its lanes is active), and the 32-byte sectors all of
 * them touch. */
struct gb_camp_counts {
    double ld[GB_CAMP_N_WIDTHS];
    double st[GB_CAMP_N_WIDTHS];
    double ld_sectors, st_sectors;
};

/* The class index of a width in bytes per thread (1 -> 0 ... 16 -> 4), or -1. */
GB_API int gb_camp_width_class(int width_bytes);

/* The width in bytes of class `c` (0 .. GB_CAMP_N_WIDTHS - 1). */
GB_API int gb_camp_class_width(int c);

/* ---- the metrics of a camping record ---- */

/* The active warps per SM the point realised. */
#define GB_CAMP_METRIC_ACTIVE_WARPS "active_warps"
/* The 32-byte sectors the loads and the stores touched per launch. */
#define GB_CAMP_METRIC_LD_SECTORS "ld_sectors"
#define GB_CAMP_METRIC_ST_SECTORS "st_sectors"

/* The metric holding the warp-level load (is_store = 0) or store (1)
 * instructions of width class `wclass` per launch: "ld_req_<width>",
 * "st_req_<width>". NULL for a class out of range. A static string. */
GB_API const char *gb_camp_req_metric(int is_store, int wclass);

/* GB_CAMP_METRIC_LD_SECTORS or GB_CAMP_METRIC_ST_SECTORS. */
GB_API const char *gb_camp_sectors_metric(int is_store);

#endif
