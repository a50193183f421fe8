/* fleet.h - which GPU of a fleet run is not like the others: the outlier
 * rule and the statistics of a gathered fleet run (src/models/fleet.c),
 * over the records and members of fleet_records.h. Pure: no GPU, no
 * printing. The tables and chart of the result: fleet_tables.h.
 */
#ifndef GPUBOUND_FLEET_H
#define GPUBOUND_FLEET_H

#include "gpubound/api.h"

#include <stddef.h>

#include "gpubound/fleet_records.h"
#include "gpubound/results.h"

/* The outlier rule (docs/fleet.md): a member is an outlier at a point when
 * its median differs from the fleet median M by more than both
 *   - its own 95% interval (M lies outside [ci_lo, ci_hi]), and
 *   - GB_FLEET_Z robust standard deviations, the robust standard deviation
 *     being 1.4826 x the median absolute deviation of the members' medians
 *     (Iglewicz and Hoaglin's modified z-score > 3.5); when that MAD is 0,
 *     1.2533 x the mean absolute deviation is used instead, and when both
 *     are 0 nothing is flagged;
 * and at least GB_FLEET_MIN_MEMBERS members measured the point (with two,
 * neither can be told to be the odd one). */
#define GB_FLEET_Z 3.5
#define GB_FLEET_MIN_MEMBERS 3

/* One member's value at one point, in and out. */
struct gb_fleet_cell {
    int present;                 /* in: the member measured the point (status ok) */
    double median, lo, hi;       /* in: median time and its 95% interval, ns */
    double ratio, ratio_lo, ratio_hi; /* out: median / M, and the interval / M */
    double z;                    /* out: (median - M) / robust sd; NAN when it is 0 */
    int flag;                    /* out: +1 slow outlier, -1 fast outlier, 0 none */
};

/* Fills the outputs of `n` cells and *fleet_median, *robust_sd (NAN when
 * fewer than one cell is present). Pure; no allocation beyond a scratch
 * array. GB_ERR_NOMEM. */
GB_API enum gb_status gb_fleet_point_stats(struct gb_fleet_cell *cells, size_t n, double *fleet_median,
                                    double *robust_sd);

/* One point of a fleet run with every member's cell. */
struct gb_fleet_point {
    char label[256];             /* "suite/bench axis=value ... (cold)" */
    size_t first;                /* index of the first record of the point */
    char suite[64];              /* the record's suite */
    double fleet_median, robust_sd;
    int n_present;
    double spread;               /* max/min of the present medians; NAN with fewer than two */
    int apart;                   /* some two present members' 95% intervals do not overlap */
    struct gb_fleet_cell *cells; /* one per member, in member order */
    int *status;                 /* per member: the record's status, -1 when it has none */
};

/* One member's summary over every point. */
struct gb_fleet_summary {
    int measured, failed, missing; /* points with a measured record, another status, none */
    int slow, fast;              /* points where it is flagged */
    double geo_ratio;            /* geometric mean of its ratios; NAN with none */
    double min_ratio, max_ratio;
    size_t worst;                /* the point of its largest |z| (valid when measured) */
    int shares_gpu_with;         /* rank of an earlier member on the same GPU UUID, -1 none */
};

/* One suite's spread between the members, over its points that at least
 * two members measured. */
struct gb_fleet_suite {
    char suite[64];
    int points;                  /* points measured by two members or more */
    int apart;                   /* of those, points whose spread exceeds the intervals */
    int flagged;                 /* of those, points with an outlier */
    double spread_median;        /* median over the points of max/min of the medians */
    double spread_max;           /* the largest, at point `widest` */
    size_t widest;
};

struct gb_fleet_report {
    struct gb_fleet_member *members; /* owned */
    size_t n_members;
    struct gb_fleet_point *points;
    size_t n_points;
    struct gb_fleet_summary *summary; /* one per member */
    struct gb_fleet_suite *suites;   /* in the order of their first point */
    size_t n_suites;
};

/* Groups the records of `run` by point (suite, bench, cache, axes) and by
 * member (fleet_rank matched to `members`), and computes every point's
 * statistics and every member's summary. Takes `members` (n of them,
 * malloc'ed) into the report, also on error. Records without a fleet rank
 * listed among the members are refused: GB_ERR_FORMAT. GB_ERR_NOMEM.
 * Release with gb_fleet_report_release. */
GB_API enum gb_status gb_fleet_analyze(const struct gb_run *run, struct gb_fleet_member *members,
                                size_t n, struct gb_fleet_report *out);
GB_API void gb_fleet_report_release(struct gb_fleet_report *r);

#endif
