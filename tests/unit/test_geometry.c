/* The geometry advisor on hand-built ubench records whose answers are known:
 * marks at the 5% and 25% edges, ties, ignored records, the occupancy and
 * square comparisons, class aggregation by geometric mean, and the synthetic
 * fixture run. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "cli/cmd_geometry.h"
#include "gpubound/geometry.h"
#include "gpubound/geometry_tables.h"
#include "gpubound/report.h"

/* An ok ubench record of `bench` at rows x cols, size and cache, with median
 * `t` ns; occ < 0 leaves out the occupancy metrics. */
static struct gb_record rec(const char *bench, int rows, int cols, const char *size, const char *cache,
                            double t, double occ, int max_occ)
{
    struct gb_record r;
    char buf[16];
    memset(&r, 0, sizeof r);
    snprintf(r.suite, sizeof r.suite, "ubench");
    snprintf(r.bench, sizeof r.bench, "%s", bench);
    snprintf(buf, sizeof buf, "%d", rows);
    assert_int_equal(gb_record_set_axis(&r, "rows", buf), GB_OK);
    snprintf(buf, sizeof buf, "%d", cols);
    assert_int_equal(gb_record_set_axis(&r, "cols", buf), GB_OK);
    if (size)
        assert_int_equal(gb_record_set_axis(&r, "size", size), GB_OK);
    if (cache)
        assert_int_equal(gb_record_set_axis(&r, "cache", cache), GB_OK);
    r.status = GB_REC_OK;
    r.time_ns.min = r.time_ns.median = r.time_ns.mean = r.time_ns.ci_lo = r.time_ns.ci_hi = t;
    if (occ >= 0) {
        assert_int_equal(gb_record_set_metric(&r, "occupancy", occ), GB_OK);
        assert_int_equal(gb_record_set_metric(&r, "max_occupancy", max_occ), GB_OK);
        assert_int_equal(gb_record_set_metric(&r, "threads", rows * cols), GB_OK);
    }
    return r;
}

/* The same at size large, cache default, reaching maximum occupancy. */
static struct gb_record lrec(const char *bench, int rows, int cols, double t)
{
    return rec(bench, rows, cols, "large", "default", t, 1.0, 1);
}

static struct gb_geo_set *set_of(const struct gb_record *r, size_t n)
{
    struct gb_geo_set *s;
    assert_int_equal(gb_geo_set_new(r, n, &s), GB_OK);
    assert_non_null(s);
    return s;
}

static const struct gb_geo_shape *find(const struct gb_geo_result *r, int rows, int cols)
{
    for (size_t i = 0; i < r->n_shapes; i++)
        if (r->shapes[i].rows == rows && r->shapes[i].cols == cols)
            return &r->shapes[i];
    fail_msg("shape %dx%d not ranked", rows, cols);
    return NULL;
}

/* Ratios exactly at 1.05 and 1.25 are inside; a hair above is outside. Ties
 * share the best mark and rank, ordered by fewer threads, then fewer rows. */
static void test_marks_at_the_edges(void **state)
{
    (void)state;
    struct gb_record r[] = {
        lrec("ubench1", 4, 64, 100.0),     /* best, tied, 256 threads: after the 128s */
        lrec("ubench1", 16, 8, 100.0),     /* best, tied, 128 threads, 16 rows */
        lrec("ubench1", 8, 16, 100.0),     /* best, tied, 128 threads, 8 rows: first */
        lrec("ubench1", 32, 8, 105.0),     /* exactly 5% */
        lrec("ubench1", 1, 32, 105.001),   /* just past 5% */
        lrec("ubench1", 32, 32, 125.0),    /* exactly 25% */
        lrec("ubench1", 1, 1, 125.001),    /* just past 25% */
        lrec("ubench1", 2, 2, 400.0),
    };
    struct gb_geo_set *s = set_of(r, 8);
    struct gb_geo_result g;
    assert_int_equal(gb_geo_analyze_bench(s, "ubench1", "large", "default", &g), GB_OK);
    assert_int_equal(g.n_shapes, 8);
    assert_int_equal(g.n_best, 3);
    assert_int_equal(g.n_good, 4);
    assert_int_equal(g.n_fair, 6);
    const int order[][2] = {{8, 16}, {16, 8}, {4, 64}, {32, 8}, {1, 32}, {32, 32}, {1, 1}, {2, 2}};
    const int rank[] = {1, 1, 1, 4, 5, 6, 7, 8};
    const enum gb_geo_mark mark[] = {GB_GEO_BEST, GB_GEO_BEST, GB_GEO_BEST, GB_GEO_WITHIN_5,
                                     GB_GEO_WITHIN_25, GB_GEO_WITHIN_25, GB_GEO_OTHER, GB_GEO_OTHER};
    for (int i = 0; i < 8; i++) {
        assert_int_equal(g.shapes[i].rows, order[i][0]);
        assert_int_equal(g.shapes[i].cols, order[i][1]);
        assert_int_equal(g.shapes[i].threads, order[i][0] * order[i][1]);
        assert_int_equal(g.shapes[i].rank, rank[i]);
        assert_int_equal(g.shapes[i].mark, mark[i]);
        assert_true(g.shapes[i].worst_ratio == g.shapes[i].ratio);
    }
    assert_true(g.shapes[3].ratio == 1.05);
    assert_true(fabs(g.shapes[6].ratio - 1.25001) < 1e-12);
    assert_true(isnan(g.shapes[0].time_ns) == 0 && g.shapes[0].time_ns == 100.0);
    /* the recommendation at a glance: 128..256 threads, 8..64 columns */
    assert_int_equal(g.good_min_threads, 128);
    assert_int_equal(g.good_max_threads, 256);
    assert_int_equal(g.good_min_cols, 8);
    assert_int_equal(g.good_max_cols, 64);
    assert_string_equal(gb_geo_mark_name(g.shapes[4].mark), "within 25%");
    gb_geo_result_release(&g);
    gb_geo_result_release(&g); /* twice is safe */
    gb_geo_set_free(s);
}

/* Failed, skipped and error records never rank, even with a time; records of
 * other suites and malformed ones are left out and counted; a shape measured
 * twice uses its later record. */
static void test_ignored_records(void **state)
{
    (void)state;
    struct gb_record r[12];
    r[0] = lrec("ubench2", 8, 32, 200.0);
    r[1] = lrec("ubench2", 4, 64, 210.0);
    r[2] = lrec("ubench2", 1, 1, 1.0);
    r[2].status = GB_REC_FAILED;           /* a time that would be the best */
    r[3] = lrec("ubench2", 2, 2, 1.0);
    r[3].status = GB_REC_SKIPPED;
    r[4] = lrec("ubench2", 3, 3, NAN);
    r[4].status = GB_REC_ERROR;
    r[5] = lrec("ubench2", 16, 16, 150.0);
    snprintf(r[5].suite, sizeof r[5].suite, "bandwidth");
    r[6] = lrec("ubench2", 8, 8, 150.0);
    gb_record_set_axis(&r[6], "rows", "abc");   /* malformed shape */
    r[7] = lrec("ubench2", 8, 8, 0.0);          /* no positive time */
    r[8] = lrec("ubench2", 16, 8, NAN);         /* ok but no time */
    r[9] = lrec("ubench2", 8, 32, 300.0);       /* measured again: replaces r[0] */
    r[10] = lrec("ubench2", 4, 64, 260.0);
    r[10].status = GB_REC_FAILED;               /* a failed repeat does not replace */
    r[11] = lrec("ubench2", 0, 4, 100.0);       /* a zero side */
    struct gb_geo_set *s = set_of(r, 12);
    struct gb_geo_counts c;
    gb_geo_set_counts(s, &c);
    assert_int_equal(c.records, 11);
    assert_int_equal(c.other_suites, 1);
    assert_int_equal(c.not_ok, 4);
    assert_int_equal(c.malformed, 4);
    assert_int_equal(c.duplicates, 1);
    assert_int_equal(c.ok, 2);
    assert_int_equal(gb_geo_set_n_records(s, "ubench2", "large", "default"), 11);
    struct gb_geo_result g;
    assert_int_equal(gb_geo_analyze_bench(s, "ubench2", "large", "default", &g), GB_OK);
    assert_int_equal(g.n_shapes, 2);
    assert_int_equal(g.n_not_ok, 4);
    assert_int_equal(g.shapes[0].rows, 4);      /* 210 beats the repeat's 300 */
    assert_true(g.shapes[0].time_ns == 210.0);
    assert_true(g.shapes[1].time_ns == 300.0);
    assert_int_equal(g.shapes[1].mark, GB_GEO_OTHER);
    gb_geo_result_release(&g);
    gb_geo_set_free(s);

    /* a group whose every record failed: nothing to rank, not an error */
    struct gb_record f = lrec("ubench3", 8, 8, 5.0);
    f.status = GB_REC_FAILED;
    s = set_of(&f, 1);
    assert_int_equal(gb_geo_analyze_bench(s, "ubench3", "large", "default", &g), GB_OK);
    assert_int_equal(g.n_shapes, 0);
    assert_int_equal(g.n_not_ok, 1);
    assert_int_equal(g.n_good, 0);
    assert_int_equal(g.best_square, -1);
    gb_geo_result_release(&g);
    gb_geo_set_free(s);

    /* no ubench record at all */
    s = set_of(r + 5, 1);
    gb_geo_set_counts(s, &c);
    assert_int_equal(c.records, 0);
    assert_int_equal(gb_geo_set_n_benches(s), 0);
    assert_int_equal(gb_geo_analyze_bench(s, "ubench2", "large", "default", &g), GB_ERR_USAGE);
    assert_non_null(strstr(gb_error_message(), "no ubench record of bench 'ubench2'"));
    gb_geo_set_free(s);
}

static void test_max_occupancy(void **state)
{
    (void)state;
    struct gb_geo_result g;
    struct gb_geo_set *s;

    /* every recommended shape reaches it, and every shape reaching it is
     * recommended: necessary and sufficient */
    struct gb_record a[] = {
        rec("ubench3", 8, 32, "large", "default", 100, 1.0, 1),
        rec("ubench3", 16, 16, "large", "default", 104, 1.0, 1),
        rec("ubench3", 1, 32, "large", "default", 130, 0.5, 0),
    };
    s = set_of(a, 3);
    assert_int_equal(gb_geo_analyze_bench(s, "ubench3", "large", "default", &g), GB_OK);
    assert_int_equal(g.occ_known, 1);
    assert_int_equal(g.n_max_occ, 2);
    assert_int_equal(g.n_good_max_occ, 2);
    assert_int_equal(g.max_occ_necessary, 1);
    assert_int_equal(g.max_occ_sufficient, 1);
    assert_int_equal(g.best_max_occ, 0);
    assert_int_equal(g.worst_max_occ, 1);
    assert_true(g.shapes[g.worst_max_occ].ratio == 1.04);
    assert_true(g.shapes[2].occupancy == 0.5);
    gb_geo_result_release(&g);
    gb_geo_set_free(s);

    /* the best shape is below maximum occupancy (not necessary) and a shape at
     * the maximum is 30% slower (not sufficient) */
    struct gb_record b[] = {
        rec("ubench3", 4, 16, "large", "default", 100, 0.75, 0),
        rec("ubench3", 8, 32, "large", "default", 103, 1.0, 1),
        rec("ubench3", 1, 1024, "large", "default", 130, 1.0, 1),
    };
    s = set_of(b, 3);
    assert_int_equal(gb_geo_analyze_bench(s, "ubench3", "large", "default", &g), GB_OK);
    assert_int_equal(g.n_max_occ, 2);
    assert_int_equal(g.n_good_max_occ, 1);
    assert_int_equal(g.max_occ_necessary, 0);
    assert_int_equal(g.max_occ_sufficient, 0);
    assert_int_equal(g.best_max_occ, 1);
    assert_int_equal(g.worst_max_occ, 2);
    assert_true(g.shapes[1].ratio == 1.03);
    assert_true(g.shapes[2].ratio == 1.3);
    gb_geo_result_release(&g);
    gb_geo_set_free(s);

    /* no shape reaches it */
    struct gb_record c[] = {
        rec("ubench3", 4, 16, "large", "default", 100, 0.75, 0),
        rec("ubench3", 8, 8, "large", "default", 101, 0.75, 0),
    };
    s = set_of(c, 2);
    assert_int_equal(gb_geo_analyze_bench(s, "ubench3", "large", "default", &g), GB_OK);
    assert_int_equal(g.n_max_occ, 0);
    assert_int_equal(g.best_max_occ, -1);
    assert_int_equal(g.worst_max_occ, -1);
    assert_int_equal(g.max_occ_necessary, 0);
    assert_int_equal(g.max_occ_sufficient, -1);
    gb_geo_result_release(&g);
    gb_geo_set_free(s);

    /* a shape without the metric makes the comparison unknown */
    struct gb_record d[] = {
        rec("ubench3", 4, 16, "large", "default", 100, 1.0, 1),
        rec("ubench3", 8, 8, "large", "default", 101, -1, 0),
    };
    s = set_of(d, 2);
    assert_int_equal(gb_geo_analyze_bench(s, "ubench3", "large", "default", &g), GB_OK);
    assert_int_equal(g.occ_known, 0);
    assert_int_equal(g.max_occ_necessary, -1);
    assert_int_equal(g.max_occ_sufficient, -1);
    assert_int_equal(find(&g, 8, 8)->max_occupancy, -1);
    assert_true(isnan(find(&g, 8, 8)->occupancy));
    gb_geo_result_release(&g);
    gb_geo_set_free(s);
}

static void test_square(void **state)
{
    (void)state;
    /* nearest-square factorisations of their thread counts */
    const int yes[][2] = {{1, 1},  {1, 2},  {2, 1},   {1, 3},  {2, 2},   {2, 3},  {16, 16}, {16, 32},
                          {32, 16}, {24, 32}, {32, 24}, {32, 32}, {12, 16}, {6, 8},  {8, 12},  {3, 3},
                          {1, 1021}};
    const int no[][2] = {{8, 32}, {32, 8}, {4, 64}, {8, 24}, {1, 1024}, {1024, 1}, {1, 4},
                         {4, 1},  {0, 4},  {4, 0},  {3, 1024}};
    for (size_t i = 0; i < sizeof yes / sizeof yes[0]; i++)
        if (!gb_geo_square(yes[i][0], yes[i][1]))
            fail_msg("%dx%d should be nearest-square", yes[i][0], yes[i][1]);
    for (size_t i = 0; i < sizeof no / sizeof no[0]; i++)
        if (gb_geo_square(no[i][0], no[i][1]))
            fail_msg("%dx%d should not be nearest-square", no[i][0], no[i][1]);

    /* the fastest nearest-square shape, its ratio and mark */
    struct gb_record r[] = {
        lrec("ubench4", 4, 64, 100.0), lrec("ubench4", 8, 32, 101.0), lrec("ubench4", 16, 16, 120.0),
        lrec("ubench4", 32, 32, 110.0), lrec("ubench4", 1, 1, 300.0),
    };
    struct gb_geo_set *s = set_of(r, 5);
    struct gb_geo_result g;
    assert_int_equal(gb_geo_analyze_bench(s, "ubench4", "large", "default", &g), GB_OK);
    assert_int_equal(g.n_square, 3);
    assert_int_equal(g.shapes[g.best_square].rows, 32);
    assert_int_equal(g.shapes[g.best_square].cols, 32);
    assert_true(fabs(g.shapes[g.best_square].ratio - 1.10) < 1e-12);
    assert_int_equal(g.shapes[g.best_square].mark, GB_GEO_WITHIN_25);
    assert_int_equal(find(&g, 8, 32)->square, 0);
    assert_int_equal(find(&g, 16, 16)->square, 1);
    gb_geo_result_release(&g);
    gb_geo_set_free(s);
}

/* Two benches: each normalised to its own best, geometric mean, shapes not
 * measured ok in every bench left out. */
static void test_class_aggregation(void **state)
{
    (void)state;
    struct gb_record r[] = {
        /* ubench1: best 100 */
        rec("ubench1", 8, 32, "large", "default", 100, 1.0, 1),
        rec("ubench1", 16, 16, "large", "default", 110, 1.0, 1),
        rec("ubench1", 32, 32, "large", "default", 200, 0.5, 0),
        rec("ubench1", 4, 4, "large", "default", 400, 0.25, 0),
        /* ubench2: best 200 */
        rec("ubench2", 8, 32, "large", "default", 400, 1.0, 1),
        rec("ubench2", 16, 16, "large", "default", 200, 0.75, 0),
        rec("ubench2", 32, 32, "large", "default", 200, 1.0, 1),
        rec("ubench2", 4, 4, "large", "default", 1, 1.0, 1),
        /* another group, another suite: not mixed in */
        rec("ubench2", 8, 32, "small", "default", 1, 1.0, 1),
    };
    r[7].status = GB_REC_FAILED;   /* 4x4 is then not ok in ubench2: dropped */
    struct gb_geo_set *s = set_of(r, 9);
    const struct gb_geo_class *cw = gb_geo_class_find("coalesced-write");
    assert_non_null(cw);
    struct gb_geo_result g;
    assert_int_equal(gb_geo_analyze_class(s, cw, "large", "default", &g), GB_OK);
    assert_int_equal(g.is_class, 1);
    assert_string_equal(g.name, "coalesced-write");
    assert_string_equal(g.benches, "ubench1,ubench2");
    assert_string_equal(g.missing, "");
    assert_int_equal(g.n_benches, 2);
    assert_int_equal(g.n_shapes, 3);
    assert_int_equal(g.n_dropped, 1);
    assert_int_equal(g.n_not_ok, 1);
    /* ratios to own best: 8x32 (1, 2), 16x16 (1.1, 1), 32x32 (2, 1) */
    const struct gb_geo_shape *a = &g.shapes[0], *b = find(&g, 8, 32), *c = find(&g, 32, 32);
    assert_int_equal(a->rows, 16);
    assert_true(fabs(a->score - sqrt(1.1)) < 1e-12);
    assert_true(fabs(a->worst_ratio - 1.1) < 1e-12);
    assert_true(a->ratio == 1.0);
    assert_int_equal(a->mark, GB_GEO_BEST);
    assert_true(isnan(a->time_ns));
    assert_true(fabs(b->score - sqrt(2.0)) < 1e-12);
    assert_true(fabs(b->ratio - sqrt(2.0) / sqrt(1.1)) < 1e-12);
    assert_true(fabs(b->worst_ratio - 2.0) < 1e-12);
    assert_int_equal(b->mark, GB_GEO_OTHER);
    /* equal scores tie: 8x32 (256 threads) before 32x32 */
    assert_int_equal(b->rank, 2);
    assert_int_equal(c->rank, 2);
    assert_int_equal(g.shapes[1].rows, 8);
    /* occupancy: the smallest over the benches; maximum only when in both */
    assert_true(a->occupancy == 0.75);
    assert_int_equal(a->max_occupancy, 0);
    assert_int_equal(b->max_occupancy, 1);
    assert_int_equal(c->max_occupancy, 0);
    assert_int_equal(g.n_max_occ, 1);
    assert_int_equal(g.max_occ_necessary, 0);
    assert_int_equal(g.max_occ_sufficient, 0);
    gb_geo_result_release(&g);

    /* a class of which only some benches were measured: those are aggregated
     * and the others named */
    const struct gb_geo_class *rn = gb_geo_class_find("read-none");
    assert_int_equal(gb_geo_analyze_class(s, rn, "large", "default", &g), GB_OK);
    assert_string_equal(g.benches, "ubench1,ubench2");
    assert_string_equal(g.missing, "ubench3,ubench4,ubench5,ubench6,ubench7");
    gb_geo_result_release(&g);

    /* one bench alone: the class equals the bench, ratios to its best */
    assert_int_equal(gb_geo_analyze_class(s, cw, "small", "default", &g), GB_OK);
    assert_int_equal(g.n_benches, 1);
    assert_string_equal(g.missing, "ubench1");
    assert_int_equal(g.n_shapes, 1);
    assert_true(g.shapes[0].score == 1.0);
    gb_geo_result_release(&g);

    /* the class's only bench here failed everywhere: nothing ranked, not an error */
    {
        struct gb_record f = rec("ubench5", 8, 8, "large", "default", 1, 1.0, 1);
        f.status = GB_REC_FAILED;
        struct gb_geo_set *s5 = set_of(&f, 1);
        assert_int_equal(gb_geo_analyze_class(s5, gb_geo_class_find("non-coalesced"), "large", "default", &g),
                         GB_OK);
        assert_int_equal(g.n_benches, 0);
        assert_int_equal(g.n_shapes, 0);
        assert_int_equal(g.n_not_ok, 1);
        assert_string_equal(g.missing, "ubench5,ubench6");
        assert_int_equal(g.best_square, -1);
        assert_int_equal(g.best_max_occ, -1);
        gb_geo_result_release(&g);
        gb_geo_set_free(s5);
    }

    /* no bench of the class in the group */
    assert_int_equal(gb_geo_analyze_class(s, gb_geo_class_find("cannon"), "large", "default", &g),
                     GB_ERR_USAGE);
    assert_non_null(strstr(gb_error_message(), "class cannon"));
    assert_int_equal(gb_geo_analyze_class(s, cw, "medium", "default", &g), GB_ERR_USAGE);
    gb_geo_set_free(s);
}

/* Benches, sizes and caches come out in the suite's order, other values after. */
static void test_set_order(void **state)
{
    (void)state;
    struct gb_record r[] = {
        rec("cannon_direct", 8, 8, "large", "max", 1, -1, 0),
        rec("ubench10", 8, 8, "large", "max", 1, -1, 0),
        rec("zeta", 8, 8, "medium", "weird", 1, -1, 0),
        rec("ubench2", 8, 8, "small", "min", 1, -1, 0),
        rec("ubench2", 8, 8, NULL, "default", 1, -1, 0),
    };
    struct gb_geo_set *s = set_of(r, 5);
    const char *benches[] = {"ubench2", "ubench10", "cannon_direct", "zeta"};
    const char *sizes[] = {"small", "medium", "large", "-"};
    const char *caches[] = {"min", "default", "max", "weird"};
    assert_int_equal(gb_geo_set_n_benches(s), 4);
    assert_int_equal(gb_geo_set_n_sizes(s), 4);
    assert_int_equal(gb_geo_set_n_caches(s), 4);
    for (size_t i = 0; i < 4; i++) {
        assert_string_equal(gb_geo_set_bench(s, i), benches[i]);
        assert_string_equal(gb_geo_set_size(s, i), sizes[i]);
        assert_string_equal(gb_geo_set_cache(s, i), caches[i]);
    }
    assert_null(gb_geo_set_bench(s, 4));
    assert_int_equal(gb_geo_set_n_records(s, "ubench2", NULL, NULL), 2);
    assert_int_equal(gb_geo_set_n_records(s, NULL, "large", NULL), 2);
    assert_int_equal(gb_geo_set_n_records(s, NULL, "-", "default"), 1);
    assert_int_equal(gb_geo_set_n_records(s, "nope", NULL, NULL), 0);
    struct gb_geo_result g;
    assert_int_equal(gb_geo_analyze_bench(s, "ubench2", "large", "max", &g), GB_ERR_USAGE);
    assert_non_null(strstr(gb_error_message(), "no ubench record of ubench2 at size=large, cache=max"));
    assert_int_equal(gb_geo_analyze_bench(s, "ubench2", "huge", "max", &g), GB_ERR_USAGE);
    assert_int_equal(gb_geo_known_bench("ubench14"), 1);
    assert_int_equal(gb_geo_known_bench("cannon_shifted"), 1);
    assert_int_equal(gb_geo_known_bench("ubench15"), 0);
    gb_geo_set_free(s);
}

/* Every class names known benches, names are distinct, and the command's
 * help lists exactly the classes of the table. */
static void test_class_table(void **state)
{
    (void)state;
    size_t n;
    const struct gb_geo_class *c = gb_geo_classes(&n);
    assert_true(n >= 8);
    for (size_t i = 0; i < n; i++) {
        assert_ptr_equal(gb_geo_class_find(c[i].name), &c[i]);
        for (size_t j = 0; j < i; j++)
            assert_string_not_equal(c[i].name, c[j].name);
        char list[512];
        snprintf(list, sizeof list, "%s", c[i].benches);
        int k = 0;
        for (char *tok = strtok(list, ","); tok; tok = strtok(NULL, ","), k++)
            if (!gb_geo_known_bench(tok) || !gb_geo_class_has(&c[i], tok))
                fail_msg("class %s names '%s'", c[i].name, tok);
        assert_true(k >= 1);
        assert_true(c[i].source[0] && c[i].what[0]);
    }
    assert_null(gb_geo_class_find("nope"));
    assert_int_equal(gb_geo_class_has(gb_geo_class_find("overload"), "ubench1"), 0);
    assert_int_equal(gb_geo_class_has(gb_geo_class_find("overload"), "ubench10"), 1);
    assert_int_equal(gb_geo_class_has(gb_geo_class_find("write-I"), "ubench1"), 1);
    /* prefixes are not members */
    assert_int_equal(gb_geo_class_has(gb_geo_class_find("write-I"), "ubench"), 0);

    /* the help's "Classes:" words, up to "Exit" */
    const char *help = strstr(GB_GEOMETRY_HELP, "Classes:");
    const char *end = strstr(GB_GEOMETRY_HELP, "\nExit");
    assert_non_null(help);
    assert_non_null(end);
    char words[1024];
    snprintf(words, sizeof words, "%.*s", (int)(end - help - 8), help + 8);
    size_t k = 0;
    for (char *tok = strtok(words, " \n"); tok; tok = strtok(NULL, " \n"), k++) {
        assert_true(k < n);
        assert_string_equal(tok, c[k].name);
    }
    assert_int_equal(k, n);
}

/* The synthetic fixture run: the hand-set ubench6 group has a known answer.
 * The counts and marks below were read off this code's output on the
 * fixture: a REGRESSION GOLDEN (it catches a change, not an error the code
 * has always made). The independent oracles of the advisor are the
 * hand-built cases above (test_marks_at_the_edges: ratios 1.05 and 1.25
 * worked by hand, test_ignored_records, test_max_occupancy, test_square,
 * test_class_aggregation's geometric means) and, in tests/cli/geometry.sh,
 * the ranking recomputed by the fixture's own generator script. */
static void test_fixture(void **state)
{
    (void)state;
    struct gb_run *run;
    assert_int_equal(gb_run_load(GB_TEST_DATA "/runs/ubench-fixture", &run), GB_OK);
    struct gb_geo_set *s = set_of(run->records, run->n_records);
    struct gb_geo_counts c;
    gb_geo_set_counts(s, &c);
    assert_int_equal(c.other_suites, 1);
    assert_int_equal(c.not_ok, 3);
    assert_int_equal(c.malformed, 0);
    assert_int_equal(c.duplicates, 0);
    assert_int_equal(c.records, run->n_records - 1);
    struct gb_geo_result g;
    assert_int_equal(gb_geo_analyze_bench(s, "ubench6", "large", "default", &g), GB_OK);
    assert_int_equal(g.n_shapes, 6);
    assert_int_equal(g.n_not_ok, 2);
    assert_int_equal(g.n_best, 2);
    assert_int_equal(g.n_good, 3);
    assert_int_equal(g.n_fair, 5);
    assert_int_equal(g.shapes[0].rows, 8);
    assert_int_equal(g.shapes[1].rows, 16);
    assert_int_equal(g.shapes[2].rows, 32);
    assert_int_equal(g.shapes[2].mark, GB_GEO_WITHIN_5);
    assert_int_equal(find(&g, 32, 32)->mark, GB_GEO_WITHIN_25);
    assert_int_equal(find(&g, 4, 64)->mark, GB_GEO_OTHER);
    assert_int_equal(g.max_occ_necessary, 1);
    assert_int_equal(g.max_occ_sufficient, 0);
    assert_int_equal(g.shapes[g.worst_max_occ].cols, 64);
    assert_int_equal(g.shapes[g.best_square].rank, 1);
    gb_geo_result_release(&g);
    /* ubench14 was recorded without occupancy metrics */
    assert_int_equal(gb_geo_analyze_bench(s, "ubench14", "large", "default", &g), GB_OK);
    assert_int_equal(g.occ_known, 0);
    assert_int_equal(g.n_shapes, 66);
    gb_geo_result_release(&g);
    gb_geo_set_free(s);
    gb_run_free(run);
}

/* The table of good shapes a report can show, from a whole run. The ubench6
 * row is a REGRESSION GOLDEN: copied from this code's output. */
static void test_good_shapes_table(void **state)
{
    (void)state;
    struct gb_run *run;
    struct gb_table *t;
    char *text = NULL;
    size_t len = 0;
    assert_int_equal(gb_run_load(GB_TEST_DATA "/runs/ubench-fixture", &run), GB_OK);
    assert_int_equal(gb_report_good_shapes(run, &t), GB_OK);
    assert_int_equal(gb_table_n_rows(t), 8);
    assert_int_equal(gb_table_n_cols(t), 20);
    FILE *f = open_memstream(&text, &len);
    assert_non_null(f);
    assert_int_equal(gb_table_print(t, f, GB_FORMAT_CSV, 0), GB_OK);
    fclose(f);
    assert_non_null(strstr(text, "\nubench6,large,default,6,2,8x16,100,8x16 16x8 32x8,3,128-256,4,8x16,1,4x64,1.255,yes,no,8x16,1,yes\n"));
    assert_non_null(strstr(text, "\nubench14,large,default,66,0,"));
    free(text);
    gb_table_free(t);
    gb_run_free(run);

    assert_int_equal(gb_run_load(GB_TEST_DATA "/runs/bandwidth-fixture", &run), GB_OK);
    assert_int_equal(gb_report_good_shapes(run, &t), GB_ERR_USAGE);
    assert_null(t);
    gb_run_free(run);
}

/* A kernel spec's bench (the stencil example): block_size_x x block_size_y
 * are the block's columns and rows (block_size_y 1 when absent), the problem
 * axis n its size; a spec record without block_size_x is another suite's. */
static void test_kernel_spec_records(void **state)
{
    (void)state;
    static const struct {
        const char *bx, *by;
        double t;
    } pts[] = {{"32", "4", 120.0}, {"64", "2", 100.0}, {"8", "32", 300.0}, {"256", NULL, 104.0}};
    struct gb_record r[5];
    for (size_t i = 0; i < 4; i++) {
        memset(&r[i], 0, sizeof r[i]);
        snprintf(r[i].suite, sizeof r[i].suite, "stencil");
        snprintf(r[i].bench, sizeof r[i].bench, "stencil");
        assert_int_equal(gb_record_set_axis(&r[i], "block_size_x", pts[i].bx), GB_OK);
        if (pts[i].by)
            assert_int_equal(gb_record_set_axis(&r[i], "block_size_y", pts[i].by), GB_OK);
        assert_int_equal(gb_record_set_axis(&r[i], "n", "4096"), GB_OK);
        r[i].status = GB_REC_OK;
        r[i].time_ns.min = r[i].time_ns.median = r[i].time_ns.mean = r[i].time_ns.ci_lo = r[i].time_ns.ci_hi = pts[i].t;
    }
    memset(&r[4], 0, sizeof r[4]);
    snprintf(r[4].suite, sizeof r[4].suite, "fft");
    snprintf(r[4].bench, sizeof r[4].bench, "radix2");
    assert_int_equal(gb_record_set_axis(&r[4], "n", "4096"), GB_OK);
    r[4].status = GB_REC_OK;
    r[4].time_ns.median = 50.0;
    struct gb_geo_set *s = set_of(r, 5);
    struct gb_geo_counts c;
    gb_geo_set_counts(s, &c);
    assert_int_equal(c.records, 4);
    assert_int_equal(c.other_suites, 1);
    assert_int_equal(c.ok, 4);
    struct gb_geo_result g;
    assert_int_equal(gb_geo_analyze_bench(s, "stencil", "4096", "-", &g), GB_OK);
    assert_int_equal(g.n_shapes, 4);
    assert_int_equal(find(&g, 2, 64)->rank, 1);
    assert_int_equal(find(&g, 2, 64)->mark, GB_GEO_BEST);
    assert_int_equal(find(&g, 1, 256)->rank, 2);   /* block_size_y absent: one row */
    assert_int_equal(find(&g, 1, 256)->mark, GB_GEO_WITHIN_5);  /* 104 within 5% of 100 */
    assert_int_equal(find(&g, 32, 8)->mark, GB_GEO_OTHER);
    gb_geo_result_release(&g);
    gb_geo_set_free(s);
    for (size_t i = 0; i < 5; i++)
        gb_record_release(&r[i]);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_kernel_spec_records),
        cmocka_unit_test(test_marks_at_the_edges),
        cmocka_unit_test(test_ignored_records),
        cmocka_unit_test(test_max_occupancy),
        cmocka_unit_test(test_square),
        cmocka_unit_test(test_class_aggregation),
        cmocka_unit_test(test_set_order),
        cmocka_unit_test(test_class_table),
        cmocka_unit_test(test_fixture),
        cmocka_unit_test(test_good_shapes_table),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
