/* geometry.h - the block-geometry advisor: which thread-block shapes
 * (rows x cols = blockDim.y x blockDim.x) run a kernel fastest, read from the
 * records of a recorded `ubench` run, after uBench (Torres, Gonzalez-Escribano
 * and Llanos, J. Supercomputing 2013).
 *
 * The records of the suite are grouped by bench x size x cache (their axes
 * `size` and `cache`); within a group each shape (axes `rows`, `cols`) has the
 * median time of its ok record. Shapes are marked as the paper's Figure 1
 * marks them: the best time, within 5% of it, within 25% of it, other. The
 * recommendation is the shapes within 5% of the best, fastest first, and it
 * is set beside two common rules: 'maximize occupancy' (the record's metric
 * `max_occupancy`) and 'square blocks' (for each thread count, the shape
 * nearest to square). A pattern class (gb_geo_classes) aggregates the
 * benches of one of the paper's kernel classes: each bench's time is
 * normalised to its own best shape and the geometric mean over the benches
 * ranks the shapes.
 *
 * Pure functions over records: no GPU, no I/O, no printing. Thread-safe on
 * distinct objects; a gb_geo_set may be read from several threads.
 */
#ifndef GPUBOUND_GEOMETRY_H
#define GPUBOUND_GEOMETRY_H

#include "gpubound/api.h"

#include <stddef.h>

#include "gpubound/results.h"
#include "gpubound/status.h"

/* The suite whose records are read. */
#define GB_GEO_SUITE "ubench"

/* Thresholds, as fractions above the best: "up to 5% (25%) more than the
 * optimum", inclusive (a ratio of exactly 1.05 is within 5%). */
#define GB_GEO_GOOD 0.05
#define GB_GEO_FAIR 0.25

/* How a shape's time compares with the best of its group (Figure 1's marks). */
enum gb_geo_mark {
    GB_GEO_BEST = 0,     /* the best score (all shapes tied at it) */
    GB_GEO_WITHIN_5,     /* ratio <= 1.05, not best */
    GB_GEO_WITHIN_25,    /* 1.05 < ratio <= 1.25 */
    GB_GEO_OTHER,        /* ratio > 1.25 */
};

/* "best", "within 5%", "within 25%", "other". */
GB_API const char *gb_geo_mark_name(enum gb_geo_mark m);

/* 1 when `bench` is one of the suite's benches (ubench0 .. ubench14,
 * cannon_direct, cannon_shifted), else 0. */
GB_API int gb_geo_known_bench(const char *bench);

/* ---- pattern classes ----
 * The paper's classes of kernels (its Table 2 and sections 5.1-5.5), as
 * lists of bench names. A bench may belong to several classes. */
struct gb_geo_class {
    const char *name;     /* "coalesced-write" */
    const char *benches;  /* comma list: "ubench1,ubench2" */
    const char *source;   /* where in the paper: "section 5.2" */
    const char *what;     /* one line: what the benches of the class share */
};

/* The table of classes, in the order they are listed; *n gets the count. */
GB_API const struct gb_geo_class *gb_geo_classes(size_t *n);

/* The class named `name`, or NULL. */
GB_API const struct gb_geo_class *gb_geo_class_find(const char *name);

/* 1 when `bench` is in the class's list, else 0. */
GB_API int gb_geo_class_has(const struct gb_geo_class *c, const char *bench);

/* ---- the records of a run, indexed ---- */

struct gb_geo_set;

/* What was read and what was left out. */
struct gb_geo_counts {
    size_t records;      /* records of the suite `ubench` */
    size_t ok;           /* ok records with a shape and a positive median time */
    size_t not_ok;       /* failed, skipped or error records: ignored */
    size_t malformed;    /* ok records without valid rows/cols or a positive
                          * finite median: ignored */
    size_t duplicates;   /* ok records of a shape already seen in their group:
                          * the later one is used */
    size_t other_suites; /* records of other suites: ignored */
};

/* Indexes the `ubench` records among `recs` (which must outlive the set
 * only during this call: everything needed is copied). A record without
 * the `size` or `cache` axis is grouped under the value "-". Bench, size
 * and cache values are listed in a fixed order: ubench0..ubench14,
 * cannon_direct, cannon_shifted, then any other bench in order of first
 * appearance; sizes small, medium, large; caches min, default, max; other
 * values after those in order of first appearance.
 * GB_ERR_NOMEM when out of memory. A set with no ubench record is not an
 * error (gb_geo_set_counts says records == 0). Free with gb_geo_set_free. */
GB_API enum gb_status gb_geo_set_new(const struct gb_record *recs, size_t n, struct gb_geo_set **out);
GB_API void gb_geo_set_free(struct gb_geo_set *s);

GB_API void gb_geo_set_counts(const struct gb_geo_set *s, struct gb_geo_counts *out);

/* Distinct benches, sizes and caches among the set's records (every status). */
GB_API size_t gb_geo_set_n_benches(const struct gb_geo_set *s);
GB_API const char *gb_geo_set_bench(const struct gb_geo_set *s, size_t i);
GB_API size_t gb_geo_set_n_sizes(const struct gb_geo_set *s);
GB_API const char *gb_geo_set_size(const struct gb_geo_set *s, size_t i);
GB_API size_t gb_geo_set_n_caches(const struct gb_geo_set *s);
GB_API const char *gb_geo_set_cache(const struct gb_geo_set *s, size_t i);

/* Records (every status) of `bench` at `size` and `cache`; NULL matches
 * any value of that field. */
GB_API size_t gb_geo_set_n_records(const struct gb_geo_set *s, const char *bench, const char *size,
                            const char *cache);

/* ---- the answer for one group ---- */

struct gb_geo_shape {
    int rows, cols;          /* blockDim.y, blockDim.x */
    int threads;             /* rows * cols */
    double time_ns;          /* bench: the median time; class: NAN */
    double score;            /* bench: time_ns; class: geometric mean over the
                              * benches of time / that bench's best time */
    double ratio;            /* score / the group's best score (1 for the best) */
    double worst_ratio;      /* the largest time / that bench's best time over
                              * the benches (bench: equal to ratio) */
    double occupancy;        /* theoretical, 0..1, smallest over the benches;
                              * NAN when not recorded */
    int max_occupancy;       /* 1: reaches the maximum in every bench; 0: not in
                              * some bench; -1: not recorded */
    int square;              /* 1 when the nearest-square shape of its thread
                              * count (see gb_geo_square) */
    enum gb_geo_mark mark;
    int rank;                /* 1 = best; tied scores share a rank */
};

struct gb_geo_result {
    char name[64];           /* the bench or the class */
    int is_class;
    char size[48], cache[48];
    /* Class: the benches of the class with an ok record in the group (the
     * ones aggregated) and those without, comma lists. Bench: its name, "". */
    char benches[512];
    char missing[512];
    int n_benches;
    struct gb_geo_shape *shapes;  /* every shape ranked: best first; ties in
                                   * order of fewer threads, then fewer rows */
    size_t n_shapes;
    size_t n_not_ok;         /* records of the group not ok (ignored) */
    size_t n_dropped;        /* class: shapes without an ok time in every
                              * aggregated bench, left out */
    size_t n_best, n_good, n_fair; /* shapes marked best; ratio <= 1.05 (best
                                    * included): shapes[0..n_good) is the
                                    * recommendation; ratio <= 1.25 */
    /* Against 'maximize occupancy'. Indices into shapes, -1 when none. */
    int occ_known;           /* 1 when every shape has max_occupancy recorded */
    size_t n_max_occ;        /* shapes that reach maximum occupancy */
    size_t n_good_max_occ;   /* recommended shapes that reach it */
    int best_max_occ, worst_max_occ;
    int max_occ_necessary;   /* 1: every recommended shape reaches maximum
                              * occupancy; 0: not; -1 unknown (occ_known 0) */
    int max_occ_sufficient;  /* 1: every shape that reaches it is recommended;
                              * 0: not; -1 unknown, or no shape reaches it */
    /* Against 'square blocks'. */
    size_t n_square;         /* nearest-square shapes measured */
    int best_square;         /* the fastest of them, -1 when none */
    /* The recommended shapes at a glance. */
    int good_min_threads, good_max_threads, good_min_cols, good_max_cols;
};

/* The nearest-square shape of a thread count: 1 when rows x cols is, among
 * every factorisation of rows*cols into two integers, one whose aspect
 * (larger side / smaller side) is the smallest; r == c when rows*cols is a
 * square. 16x16, 16x32 and 32x16 are; 8x32 is not. 0 for non-positive sides. */
GB_API int gb_geo_square(int rows, int cols);

/* Ranks the shapes of `bench` at `size` and `cache` (exact values, not
 * NULL). Failed, skipped and error records are ignored and counted in
 * n_not_ok; a group whose records all failed gives n_shapes == 0.
 * GB_ERR_USAGE (with a message naming what is missing) when the set has no
 * record of that bench, size and cache; GB_ERR_NOMEM. On success release
 * *out with gb_geo_result_release; on failure *out holds nothing. */
GB_API enum gb_status gb_geo_analyze_bench(const struct gb_geo_set *s, const char *bench, const char *size,
                                    const char *cache, struct gb_geo_result *out);

/* Ranks the shapes for the benches of class `c` together at `size` and
 * `cache`: each aggregated bench (one with an ok record in the group) has
 * its times divided by its own best time; a shape's score is the geometric
 * mean of those ratios over the aggregated benches, and only shapes with an
 * ok time in every aggregated bench are ranked (the others are counted in
 * n_dropped). GB_ERR_USAGE when no bench of the class has a record in the
 * group; GB_ERR_NOMEM. Release as for gb_geo_analyze_bench. */
GB_API enum gb_status gb_geo_analyze_class(const struct gb_geo_set *s, const struct gb_geo_class *c,
                                    const char *size, const char *cache,
                                    struct gb_geo_result *out);

/* Frees the shapes; safe on a zeroed or released result. */
GB_API void gb_geo_result_release(struct gb_geo_result *r);

/* ---- a question about a set: one bench, one class, or every bench ---- */

struct gb_geo_query {
    const char *bench;               /* one bench, or NULL */
    const struct gb_geo_class *cls;  /* one class, or NULL */
    int all;                         /* every bench of the set */
    const char *size, *cache;        /* only this size / cache; NULL = every one */
    const char *compare[2];          /* two benches to compare, or NULLs */
};

/* GB_ERR_USAGE, with a message that names what the set (read from the run
 * directory `dir`, named in the message) lacks and what it has, when the
 * set has no ubench record, or no record of the query's bench, size,
 * cache, compared benches or of any bench of its class; GB_OK otherwise. */
GB_API enum gb_status gb_geo_query_check(const struct gb_geo_set *s, const struct gb_geo_query *q,
                                  const char *dir);

/* The results the query asks for, in set order (bench, size, cache): one
 * per bench (or for the class) and size and cache with records; none
 * (*n == 0, GB_OK) when no group has a record. *out is malloc'ed (NULL when
 * none); release each result and free the array. Errors of the analysis
 * (gb_geo_analyze_bench, gb_geo_analyze_class) leave nothing in *out. */
GB_API enum gb_status gb_geo_query_run(const struct gb_geo_set *s, const struct gb_geo_query *q,
                                struct gb_geo_result **out, size_t *n);

/* GB_ERR_USAGE saying that the run directory `dir` has no record of what
 * the query asks for (when gb_geo_query_run finds none). */
GB_API enum gb_status gb_geo_query_none(const struct gb_geo_query *q, const char *dir);

#endif
