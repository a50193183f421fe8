/* compare.h - two sets of runs compared point by point: is NEW faster or
 * slower than BASE, and is the difference real? (src/models/compare/compare.c;
 * the method and why: docs/models.md, "Comparing runs").
 *
 * Points are matched by suite, bench, cache mode and axis values. Each
 * matched point gets the ratio NEW / BASE of its times with a confidence
 * interval at level 1 - alpha: from the kept samples (sample_ns), the
 * Hodges-Lehmann estimate of the shift of log times with the distribution-
 * free (Moses) interval and the Wilcoxon-Mann-Whitney rank-sum test; from
 * the summary statistics when a side has no samples (runs recorded before
 * samples were kept). A point is slower or faster when its interval
 * excludes 1 and its ratio lies beyond the threshold; else unchanged.
 * Pure functions over loaded runs: nothing is printed.
 */
#ifndef GPUBOUND_COMPARE_H
#define GPUBOUND_COMPARE_H

#include "gpubound/api.h"

#include <stddef.h>

#include "gpubound/results.h"

enum gb_cmp_verdict {
    GB_CMP_SAME = 0,     /* no significant change beyond the threshold */
    GB_CMP_FASTER,
    GB_CMP_SLOWER,
};

enum gb_cmp_method {
    GB_CMP_RANKS = 0,    /* samples: Hodges-Lehmann + Mann-Whitney, exact distribution */
    GB_CMP_RANKS_NORMAL, /* samples: the same with the normal approximation (ties or n >= 50) */
    GB_CMP_SUMMARY,      /* medians and their stored 95% intervals only */
};

/* Warnings of a point (or'ed): what differs between the sides. */
#define GB_CMP_WARN_THROTTLED 1   /* a side's SM clock dropped during the point */
#define GB_CMP_WARN_CLOCK 2       /* the sides' SM clocks differ by more than 3% */
#define GB_CMP_WARN_CONVERGED 4   /* one side's stopping rule held, the other's not */
#define GB_CMP_WARN_FEW 8         /* too few samples for an interval at this alpha */

/* One matched bench pair: base records of `base` ("suite/bench") are
 * compared with new records of `new_` on the same cache mode and axes. */
struct gb_cmp_pair {
    char base[96];
    char new_[96];
};

struct gb_cmp_opts {
    double alpha;                /* 1 - confidence level and test size (0.01) */
    double threshold;            /* smallest relative change that counts (0.02) */
    const struct gb_cmp_pair *pairs; /* when n_pairs > 0, only these benches are compared */
    int n_pairs;
    /* Each side's anchor (GB/s) for the ratio against each GPU's own
     * bandwidth; 0 = none (anchored ratios are NaN). */
    double anchor_base_gbs, anchor_new_gbs;
};

/* Defaults: alpha 0.01, threshold 0.02, no pairs, no anchors. */
GB_API void gb_cmp_opts_default(struct gb_cmp_opts *o);

/* The statistics of one point's two sets of samples (gb_cmp_samples). */
struct gb_cmp_stat {
    double ratio;                /* exp(Hodges-Lehmann shift of log times) */
    double lo, hi;               /* its 1 - alpha interval */
    double p;                    /* two-sided rank-sum p-value */
    double u;                    /* Mann-Whitney U: pairs new > base, ties counted 1/2 */
    enum gb_cmp_method method;
    int few;                     /* too few samples for a 1 - alpha interval */
};

/* Compares samples `x` (n, base) with `y` (m, new), all > 0: the estimate,
 * interval and test above. GB_ERR_USAGE when a side is empty or a value is
 * not positive; GB_ERR_NOMEM. */
GB_API enum gb_status gb_cmp_samples(const double *x, int n, const double *y, int m, double alpha,
                              struct gb_cmp_stat *out);

/* The two-sided p-value of the exact rank-sum distribution (no ties):
 * P(|U - nm/2| >= |u - nm/2|) for U of samples of sizes n and m. NaN when
 * n * m is too large for the exact distribution (n or m >= 50). */
GB_API double gb_cmp_exact_p(double u, int n, int m);

struct gb_cmp_point {
    char name[512];              /* "suite/bench axis=value ... (hot)" */
    double base_ns, new_ns;      /* medians of each side (pooled samples) */
    double median_ratio;         /* new_ns / base_ns */
    struct gb_cmp_stat s;
    enum gb_cmp_verdict verdict;
    double anchored, anchored_lo, anchored_hi; /* ratio x anchor_new / anchor_base; NaN without */
    int n_base, n_new;           /* samples (0 with the summary method) */
    double mhz_base, mhz_new;    /* mean SM clock of each side; 0 unknown */
    unsigned warn;               /* GB_CMP_WARN_* */
};

/* Why a point measured in BASE has no measurement in NEW. */
enum gb_cmp_lost {
    GB_CMP_LOST_MISSING = 0,     /* NEW has no record of the point */
    GB_CMP_LOST_FAILED,          /* NEW's record failed verification or stopped on an error */
    GB_CMP_LOST_SKIPPED,         /* NEW's record was skipped (not run on that device) */
};

struct gb_cmp_result {
    struct gb_cmp_point *points; /* sorted by effect: |log ratio| descending */
    size_t n_points;
    char **only_base, **only_new; /* names of points measured on one side only */
    size_t n_only_base, n_only_new;
    /* Per only_base name: why NEW has no measurement of it; and the counts
     * by reason (they sum to n_only_base). Every one fails the gate. */
    enum gb_cmp_lost *only_base_why;
    size_t n_lost[3];
    size_t n_faster, n_slower, n_same, n_summary;
    size_t n_throttled, n_clock, n_converged; /* points with each warning */
    /* Geometric mean of the ratios with its 1 - alpha interval (Student t
     * over the points' log ratios; one point: its own interval). */
    double geomean, geomean_lo, geomean_hi;
};

/* Compares the runs of each side (several runs on a side pool their
 * samples per point; a point without samples in any run falls back to the
 * summary method, with the median of the runs' medians and the hull of
 * their intervals). The records of fleet runs are matched by rank as well:
 * each GPU of a fleet is compared with the same rank of the other side,
 * never pooled with the fleet's other GPUs (the caller refuses to compare
 * a fleet run with a run that is not one). A point measured in BASE and
 * not in NEW is one-sided, with why (only_base_why).
 * GB_ERR_NOMEM, GB_ERR_USAGE (a side without runs).
 * Free with gb_cmp_result_release. */
GB_API enum gb_status gb_cmp_runs(const struct gb_run *const *base, int n_base, const struct gb_run *const *new_,
                           int n_new, const struct gb_cmp_opts *o, struct gb_cmp_result *out);

GB_API void gb_cmp_result_release(struct gb_cmp_result *r);

GB_API const char *gb_cmp_verdict_name(enum gb_cmp_verdict v);
GB_API const char *gb_cmp_method_name(enum gb_cmp_method m);
/* "missing", "failed", "skipped". */
GB_API const char *gb_cmp_lost_name(enum gb_cmp_lost w);

#endif
