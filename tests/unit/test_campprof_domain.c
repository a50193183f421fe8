/* test_campprof_domain.c - where CampProf's band applies
 * (src/models/campprof/campprof_domain.c), the achieved warps of kernel-spec
 * points (campprof_records.c), and the band against the camping suite's own
 * points.
 *
 * 1. The domain rule on hand-made observations: each rule's threshold from
 *    both sides.
 * 2. The committed small-grid run tests/data/runs/chase-small-grid-fixture
 *    (8 records of the H100 corpus run data/h100/corpus-2026-11-26/chase, the
 *    pointer chase at 32 and 128 threads per block, grids of 4 to 128
 *    blocks): each point's achieved warps are grid * warps per block / 132
 *    (one partial wave), not the occupancy limit it records, and every point
 *    lies outside the domain under the H100's ceilings run (latency-bound:
 *    its grid leaves SMs idle), so camp validate reports no error for it.
 * 3. The band of each committed camping model against the committed camping
 *    run it was fitted on: the share of the suite's own points inside it.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gpubound/campprof.h"
#include "gpubound/roofline.h"

#ifndef GB_TEST_DATA
#error "GB_TEST_DATA must name the tests/data directory"
#endif
#ifndef GB_SOURCE_DIR
#error "GB_SOURCE_DIR must name the source directory"
#endif

#define CHASE GB_TEST_DATA "/runs/chase-small-grid-fixture"
#define H100_CEILINGS GB_SOURCE_DIR "/data/h100/ceilings-2026-11-26"

/* Roofs of 3000 GB/s (DRAM) and a launch of 2000 ns; a model measured
 * from 1 warp per SM. */
static void roofs(struct gb_ceilings *c, struct gb_camp_model *m)
{
    memset(c, 0, sizeof *c);
    for (int r = 0; r < GB_N_ROOFS; r++)
        c->value[r] = NAN;
    c->value[GB_ROOF_DRAM] = 3000;
    c->launch_a_ns = 2000;
    memset(m, 0, sizeof *m);
    for (int op = 0; op < 2; op++)
        for (int p = 0; p < 2; p++)
            m->eq[op][p].warps_min = 1;
}

static struct gb_camp_obs obs(double bytes, double time_ns, double grid, double warps)
{
    struct gb_camp_obs o;
    memset(&o, 0, sizeof o);
    o.bytes = bytes;
    o.time_ns = time_ns;
    o.grid_blocks = grid;
    o.warps = warps;
    return o;
}

static void test_rule(void **state)
{
    (void)state;
    struct gb_ceilings c;
    struct gb_camp_model m;
    struct gb_camp_domain d;
    struct gb_camp_obs o;
    roofs(&c, &m);
    /* 3 MB: 1000 ns at 3000 GB/s, below the 2000 ns launch. */
    o = obs(3e6, 5000, 10000, 64);
    gb_camp_domain_judge(&m, &c, 132, &o, &d);
    assert_int_equal(d.why, GB_CAMP_DOMAIN_TOO_SMALL);
    assert_true(fabs(d.roof_ns - 1000) < 1e-9);
    assert_non_null(strstr(d.reason, "too small to load the memory system"));
    assert_false(gb_camp_domain_applies(d.why));
    /* 9 MB: 3000 ns at the roof, above the launch; measured at the roof. */
    o = obs(9e6, 3000, 10000, 64);
    gb_camp_domain_judge(&m, &c, 132, &o, &d);
    assert_int_equal(d.why, GB_CAMP_DOMAIN_IN);
    assert_true(gb_camp_domain_applies(d.why));
    /* 3 GB in 1e7 ns: 10% of the roof. With 16 blocks on 132 SMs:
     * latency-bound; with a full grid (a camped kernel): inside. */
    o = obs(3e9, 1e7, 16, 0.97);
    gb_camp_domain_judge(&m, &c, 132, &o, &d);
    assert_int_equal(d.why, GB_CAMP_DOMAIN_LATENCY);
    assert_true(fabs(d.share - 0.1) < 1e-12);
    assert_non_null(strstr(d.reason, "the grid leaves SMs without a block"));
    o = obs(3e9, 1e7, 10000, 64);
    gb_camp_domain_judge(&m, &c, 132, &o, &d);
    assert_int_equal(d.why, GB_CAMP_DOMAIN_IN);
    /* A full grid but fewer warps than the suite measured. */
    o = obs(3e9, 1e7, 200, 0.5);
    gb_camp_domain_judge(&m, &c, 132, &o, &d);
    assert_int_equal(d.why, GB_CAMP_DOMAIN_LATENCY);
    assert_non_null(strstr(d.reason, "fewer warps than the camping suite measured"));
    /* The same small grid above a quarter of the roof (26%): inside. */
    o = obs(3e9, 1e6 / 0.26, 16, 0.97);
    gb_camp_domain_judge(&m, &c, 132, &o, &d);
    assert_int_equal(d.why, GB_CAMP_DOMAIN_IN);
    /* No bytes, or no DRAM roof: not judged, taken as applying. */
    o = obs(0, 1e7, 16, 0.97);
    gb_camp_domain_judge(&m, &c, 132, &o, &d);
    assert_int_equal(d.why, GB_CAMP_DOMAIN_UNJUDGED);
    assert_true(gb_camp_domain_applies(d.why));
    c.value[GB_ROOF_DRAM] = NAN;
    o = obs(3e9, 1e7, 16, 0.97);
    gb_camp_domain_judge(&m, &c, 132, &o, &d);
    assert_int_equal(d.why, GB_CAMP_DOMAIN_UNJUDGED);
    /* Without the launch line the too-small rule is not applied. */
    roofs(&c, &m);
    c.launch_a_ns = NAN;
    o = obs(3e6, 1000, 10000, 64);
    gb_camp_domain_judge(&m, &c, 132, &o, &d);
    assert_int_equal(d.why, GB_CAMP_DOMAIN_IN);
}

static void test_small_grid_run(void **state)
{
    (void)state;
    struct gb_run *run = NULL, *ceil = NULL;
    struct gb_camp_app *apps = NULL;
    size_t n = 0, points = 0;
    struct gb_ceilings *c = calloc(1, sizeof *c);
    struct gb_camp_model m;
    assert_non_null(c);
    assert_int_equal(gb_run_load(CHASE, &run), GB_OK);
    assert_int_equal(gb_run_load(H100_CEILINGS, &ceil), GB_OK);
    assert_int_equal(gb_ceilings_from_run(ceil, c), GB_OK);
    assert_int_equal(gb_camp_records_apps(run, &apps, &n), GB_OK);
    assert_int_equal(n, 4); /* chains_per_thread 1, 2, 4, 8 */
    memset(&m, 0, sizeof m);
    for (int op = 0; op < 2; op++)
        for (int p = 0; p < 2; p++)
            m.eq[op][p].warps_min = 1;
    for (size_t a = 0; a < n; a++) {
        struct gb_camp_domain d[8];
        struct gb_camp_validation v;
        assert_int_equal(apps[a].sm_count, 132);
        assert_true(apps[a].n <= 8);
        for (size_t i = 0; i < apps[a].n; i++) {
            const struct gb_camp_obs *o = &apps[a].obs[i];
            /* One partial wave: grid * warps per block / 132, below the
             * occupancy limit (32 or 64) the record carries. */
            double wpb = o->limit_warps == 32 ? 1 : 4;
            assert_true(fabs(o->warps - o->grid_blocks * wpb / 132) < 1e-9);
            assert_true(o->limit_warps >= 32);
            assert_true(isnan(o->measured_warps));
            points++;
        }
        assert_int_equal(gb_camp_validate_app(&m, c, &apps[a], d, &v), GB_OK);
        assert_int_equal(v.n_out_domain, apps[a].n);
        assert_int_equal(v.n_points, 0);
        assert_true(isnan(v.gm_app) && isnan(v.degree_median));
        assert_non_null(strstr(v.domain_reason, "latency-bound"));
        for (size_t i = 0; i < apps[a].n; i++)
            assert_int_equal(d[i].why, GB_CAMP_DOMAIN_LATENCY);
    }
    assert_int_equal(points, 8);
    gb_camp_apps_free(apps, n);
    gb_run_free(run);
    gb_run_free(ceil);
    free(c);
}

/* The share of one equation's samples inside the band, widened as
 * gb_camp_validate widens it (the held-out errors). */
static double share_inside(const struct gb_run *run, const struct gb_camp_model *m, int op, int p)
{
    struct gb_camp_sample *s = NULL;
    size_t n = 0, in = 0;
    double mb = 0, mw = 0;
    for (int k = 0; k < 2; k++) {
        mb = fmax(mb, m->eq[k][GB_CAMP_SPREAD].cv_gm);
        mw = fmax(mw, m->eq[k][GB_CAMP_CAMPED].cv_gm);
    }
    assert_int_equal(gb_camp_records_samples(run, op, p, m->level, &s, &n), GB_OK);
    for (size_t i = 0; i < n; i++) {
        struct gb_camp_counts c;
        double b, w;
        memset(&c, 0, sizeof c);
        if (op == GB_CAMP_READ)
            c.ld[s[i].wclass] = s[i].instr;
        else
            c.st[s[i].wclass] = s[i].instr;
        assert_int_equal(gb_camp_bounds(m, &c, s[i].warps, &b, &w), GB_OK);
        in += b * (1 - mb) <= s[i].time_ns && s[i].time_ns <= w * (1 + mw);
    }
    free(s);
    return (double)in / (double)n;
}

static void test_band_contains_suite(void **state)
{
    (void)state;
    static const char *const runs[] = {GB_SOURCE_DIR "/data/h100/camping-2026-11-23",
                                       GB_SOURCE_DIR "/data/h200/camping-2026-11-21"};
    for (size_t k = 0; k < 2; k++) {
        struct gb_run *run = NULL;
        struct gb_camp_model *m = calloc(1, sizeof *m);
        char path[4200];
        assert_non_null(m);
        snprintf(path, sizeof path, "%s/campprof-model.json", runs[k]);
        assert_int_equal(gb_run_load(runs[k], &run), GB_OK);
        assert_int_equal(gb_camp_model_load(path, m), GB_OK);
        assert_int_equal(m->level, GB_CAMP_LEVEL_L2);
        /* Measured on the committed runs: 76 to 92% of each equation's 160
         * points lie inside (docs/models.md, "Domain of validity"); the
         * smooth form does not follow the camped reads' steps, so not all. */
        for (int op = 0; op < 2; op++)
            for (int p = 0; p < 2; p++) {
                double share = share_inside(run, m, op, p);
                print_message("%s %s %s: %.3f inside\n", runs[k], gb_camp_op_name(op),
                              gb_camp_pattern_name(p), share);
                assert_true(share >= 0.75);
            }
        gb_run_free(run);
        free(m);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_rule),
        cmocka_unit_test(test_small_grid_run),
        cmocka_unit_test(test_band_contains_suite),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
