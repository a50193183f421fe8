/* camp_detect.h - partition camping detected from hardware counters: how
 * unevenly a kernel's traffic falls on the L2 slices and the DRAM
 * partitions (FBPAs), against references measured on the same GPU (the
 * camping suite's spread and camped sets). A pure function over counter
 * sets (include/gpubound/counters.h); no GPU. */
#ifndef GPUBOUND_CAMP_DETECT_H
#define GPUBOUND_CAMP_DETECT_H

#include "gpubound/api.h"

#include <stddef.h>

#include "gpubound/counters.h"
#include "gpubound/results.h"

/* The units judged: L2 slices (all sectors), DRAM partitions (reads, writes). */
#define GB_CAMP_DETECT_UNITS 3

/* A point is camped on a unit when its max/mean is at least this many
 * times the spread reference's. */
#define GB_CAMP_DETECT_FACTOR 2.0
/* Fewer sectors than this per instance (2 KiB of 32-byte sectors) are too
 * little traffic to call an imbalance: the H100's camped set read 41 per DRAM
 * partition from the edges of an L2-resident kernel and was called camped. */
#define GB_CAMP_DETECT_MIN_SECTORS 64

struct gb_camp_detect_unit {
    const char *what;            /* "L2 slices", "DRAM partitions (reads)", ... */
    const char *metric;          /* the base metric ("lts__t_sectors") */
    int have, have_spread, have_camped;
    struct gb_counter_spread point, spread, camped;
    int judged;                  /* enough traffic and a spread reference to judge */
    int is_camped;
    double x_spread;             /* the point's max/mean over the spread reference's */
    double x_camped;             /* ... over the camped reference's */
    double on;                   /* instances carrying the traffic (sum / max, rounded) */
    double share;                /* the busiest instance's share of the traffic (max / sum); NaN: unknown */
    double share_spread, share_camped; /* the same of the references; NaN without them */
};

struct gb_camp_detect {
    struct gb_camp_detect_unit u[GB_CAMP_DETECT_UNITS];
};

/* Judges `point` against the references (either may be NULL). A unit is
 * judged when the point has its rollups or instances, at least 8 sectors
 * per instance on average, and the spread reference has the unit. Never
 * fails. */
GB_API void gb_camp_detect(const struct gb_counters *point, const struct gb_counters *spread,
                    const struct gb_counters *camped, struct gb_camp_detect *out);

/* One line on unit `u`: "camped on 1 of 96 L2 slices, 41.2 times the spread
 * reference" or "not camped: max/mean 1.04, 1.01 times the spread
 * reference" or why it was not judged. */
GB_API void gb_camp_detect_verdict(const struct gb_camp_detect_unit *u, char *buf, size_t n);

/* ---- the references ---- */

/* The counters a point is judged on: L2 sectors, DRAM sectors read and
 * written (GB_CAMP_DETECT_N_METRICS names). */
#define GB_CAMP_DETECT_N_METRICS 3
extern GB_API const char *const gb_camp_detect_metrics[GB_CAMP_DETECT_N_METRICS];

/* The reference points: the camping suite's spread and camped sets of
 * GB_CAMP_DETECT_REF_BENCH at 4-byte loads and 64 warps per SM, as a
 * run's --set arguments (GB_CAMP_DETECT_N_REF_SETS of them). */
#define GB_CAMP_DETECT_REF_BENCH "camping/read"
#define GB_CAMP_DETECT_N_REF_SETS 3
extern GB_API const char *const gb_camp_detect_ref_sets[GB_CAMP_DETECT_N_REF_SETS];

/* The reference of pattern `pattern` ("spread", "camped") among the n
 * records: a camping/read record with counters, the one at width 4 and 64
 * warps preferred; NULL when there is none. */
GB_API const struct gb_record *gb_camp_detect_ref(const struct gb_record *recs, size_t n, const char *pattern);

/* How many of the first records are references profiled ahead of the
 * points (camping/read, at most 2). */
GB_API size_t gb_camp_detect_n_refs(const struct gb_record *recs, size_t n);

#endif
