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
 * 4. camp predict's driver (gb_camp_predict_run) evaluates the band at each
 *    configuration's achieved warps (hand values for a small grid and for
 *    partial and whole waves), judges the small-grid run's point outside
 *    the domain, and on a committed row-sum point recorded with counters
 *    gives the degree camp validate gives it (the roof best bound at the
 *    point's achieved warps).
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

#include "gpubound/camp_run.h"
#include "gpubound/campprof.h"
#include "gpubound/ncu.h"
#include "gpubound/roofline.h"

#ifndef GB_TEST_DATA
#error "GB_TEST_DATA must name the tests/data directory"
#endif
#ifndef GB_SOURCE_DIR
#error "GB_SOURCE_DIR must name the source directory"
#endif

#define CHASE GB_TEST_DATA "/runs/chase-small-grid-fixture"
#define H100_CEILINGS GB_SOURCE_DIR "/data/h100/ceilings-2026-11-26"
#define H100_MODEL GB_SOURCE_DIR "/data/h100/camping-2026-11-23/campprof-model.json"
#define H100_ROWSUM GB_SOURCE_DIR "/data/h100/corpus-2026-11-26/rowsum"

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

/* m's spread reads in the default form, measured at 4 bytes: latency 15
 * us, knee 25 warps per SM. */
static struct gb_camp_equation *knee_model(struct gb_camp_model *m)
{
    struct gb_camp_equation *eq = &m->eq[GB_CAMP_READ][GB_CAMP_SPREAD];
    eq->form = GB_CAMP_FORM_SMAX4;
    eq->n_widths = 1;
    eq->widths[0] = 4;
    eq->fit.n_terms = 2;
    snprintf(eq->fit.terms[0].name, sizeof eq->fit.terms[0].name, "L:b4");
    eq->fit.terms[0].estimate = 15000;
    snprintf(eq->fit.terms[1].name, sizeof eq->fit.terms[1].name, "knee:b4");
    eq->fit.terms[1].estimate = 25;
    return eq;
}

/* The latency rule's warps in a latency-throughput form: the knee of the
 * spread equation that times the most bytes (here 4-byte reads, knee 25
 * warps), not the fewest warps the suite measured (1). */
static void test_knee(void **state)
{
    (void)state;
    struct gb_ceilings c;
    struct gb_camp_model m;
    struct gb_camp_domain d;
    struct gb_camp_obs o;
    roofs(&c, &m);
    struct gb_camp_equation *eq = knee_model(&m);
    assert_true(fabs(gb_camp_eq_lt_term(eq, "knee", gb_camp_width_class(4)) - 25) < 1e-12);
    assert_true(isnan(gb_camp_eq_lt_term(eq, "knee", gb_camp_width_class(8))));
    /* 10% of the roof with a full grid: at 16 warps, under the knee,
     * latency-bound; at 32, above it, inside. */
    o = obs(3e9, 1e7, 10000, 16);
    o.counts.ld[gb_camp_width_class(4)] = 3e9 / 128;
    gb_camp_domain_judge(&m, &c, 132, &o, &d);
    assert_int_equal(d.why, GB_CAMP_DOMAIN_LATENCY);
    assert_non_null(strstr(d.reason, "fewer warps than the 25 at which the camping suite's spread "
                                     "accesses reach their throughput"));
    o.warps = 32;
    gb_camp_domain_judge(&m, &c, 132, &o, &d);
    assert_int_equal(d.why, GB_CAMP_DOMAIN_IN);
    /* At a quarter of the roof or more the warps do not matter. */
    o = obs(3e9, 1e6 / 0.3, 10000, 16);
    o.counts.ld[gb_camp_width_class(4)] = 3e9 / 128;
    gb_camp_domain_judge(&m, &c, 132, &o, &d);
    assert_int_equal(d.why, GB_CAMP_DOMAIN_IN);
    /* A form without a knee (the paper's linear one): the fewest warps
     * measured, 1, stand in, and 16 warps are inside. */
    eq->form = GB_CAMP_FORM_PAPER;
    o = obs(3e9, 1e7, 10000, 16);
    o.counts.ld[gb_camp_width_class(4)] = 3e9 / 128;
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

/* The row of `r` whose occupancy limit is `w`. */
static const struct gb_camp_row *row_at(const struct gb_camp_predict_result *r, int w, double *achieved)
{
    for (size_t i = 0; i < r->n; i++)
        if (r->warps[i] == w) {
            *achieved = r->achieved[i];
            return &r->rows[i];
        }
    fail_msg("no configuration at %d warps per SM", w);
    return NULL;
}

/* The band at achieved warps, by hand: the column sum (16 blocks of
 * 256 threads, 32 registers: a limit of 8 blocks, 64 warps per SM, on the
 * H100's 132 SMs) and the same block in 1584 blocks (partial and whole
 * waves). */
static void test_predict_achieved(void **state)
{
    (void)state;
    struct gb_camp_model *m = calloc(1, sizeof *m);
    struct gb_camp_predict_in in;
    struct gb_camp_predict_result r;
    double a, b, w;
    assert_non_null(m);
    assert_int_equal(gb_camp_model_load(H100_MODEL, m), GB_OK);
    assert_int_equal(m->device.sm_count, 132);
    memset(&in, 0, sizeof in);
    in.counts.ld[gb_camp_width_class(4)] = 524288;
    in.counts.st[gb_camp_width_class(4)] = 128;
    in.threads = 256, in.regs = 32, in.smem = 0, in.dyn_smem = 0, in.grid = 16;
    in.time_ns = in.measured_warps = NAN;
    in.dram_read_bytes = in.dram_write_bytes = in.l2_read_bytes = in.l2_write_bytes = NAN;
    assert_int_equal(gb_camp_predict_run(m, &m->device, &in, NULL, &r), GB_OK);
    assert_int_equal(r.config_warps, 8); /* 16 blocks on 132 SMs: one per SM at most */
    /* 1, 2, 4 and 8 warps per SM: blocks of 1, 2, 4 and 8 warps, 128 warps
     * in all, one partial wave: 128 / 132 each, so one band. */
    const struct gb_camp_row *r8 = row_at(&r, 8, &a);
    assert_true(fabs(a - 128.0 / 132.0) < 1e-12);
    assert_int_equal(gb_camp_bounds(m, &in.counts, 128.0 / 132.0, &b, &w), GB_OK);
    assert_true(r8->best_ns == b && r8->worst_ns == w);
    for (int k = 1; k <= 4; k *= 2) {
        const struct gb_camp_row *rk = row_at(&r, k, &a);
        assert_true(fabs(a - 128.0 / 132.0) < 1e-12);
        assert_true(rk->best_ns == b && rk->worst_ns == w);
    }
    /* Not the band at the occupancy limit. */
    assert_int_equal(gb_camp_bounds(m, &in.counts, 8, &b, &w), GB_OK);
    assert_true(fabs(r8->worst_ns - w) > 1e-3 * w);
    gb_camp_predict_result_release(&r);

    in.grid = 1584;
    assert_int_equal(gb_camp_predict_run(m, &m->device, &in, NULL, &r), GB_OK);
    assert_int_equal(r.config_warps, 64);
    /* 64: waves of 1056 blocks, one whole and 528 blocks (32 warps per SM):
     * (64 + 32) / 2 = 48. 32: waves of 528, three whole: 32. 40: waves of
     * 660, two whole and 264 blocks (16 warps per SM): (80 + 16) / 3 = 32. */
    static const struct { int limit; double achieved; } hand[] = {{64, 48}, {32, 32}, {40, 32}};
    for (size_t k = 0; k < sizeof hand / sizeof hand[0]; k++) {
        const struct gb_camp_row *row = row_at(&r, hand[k].limit, &a);
        assert_true(fabs(a - hand[k].achieved) < 1e-12);
        assert_int_equal(gb_camp_bounds(m, &in.counts, hand[k].achieved, &b, &w), GB_OK);
        assert_true(row->best_ns == b && row->worst_ns == w);
    }
    gb_camp_predict_result_release(&r);
    free(m);
}

/* A recorded point as camp predict --from-point reads it (hot, as the
 * record says), predicted under the H100's ceilings. */
static void predict_point(const struct gb_camp_model *m, const struct gb_ceilings *c, const char *dir,
                          const char *bench, const char *axes, struct gb_camp_predict_result *r,
                          double *time_ns)
{
    struct gb_run *run = NULL;
    const struct gb_record *hit = NULL;
    struct gb_ncu_report *rep = NULL;
    struct gb_camp_ncu_input ni;
    size_t n_hits = 0;
    assert_int_equal(gb_run_load(dir, &run), GB_OK);
    gb_camp_point_find(run, bench, axes, &hit, &n_hits);
    assert_int_equal(n_hits, 1);
    assert_int_equal(gb_camp_point_report(hit, &rep), GB_OK);
    assert_int_equal(gb_camp_from_ncu(m, &rep->launches[0], &ni), GB_OK);
    const struct gb_camp_predict_in in = {
        .counts = ni.counts, .threads = ni.threads, .regs = ni.regs, .smem = ni.smem, .dyn_smem = 0,
        .grid = ni.grid, .warps_max = -1, .at = -1, .time_ns = ni.time_ns,
        .dram_read_bytes = ni.dram_read_bytes, .dram_write_bytes = ni.dram_write_bytes,
        .l2_read_bytes = ni.l2_read_bytes, .l2_write_bytes = ni.l2_write_bytes,
        .hot = hit->cache == GB_CACHE_HOT, .measured_warps = ni.warps_active,
    };
    assert_int_equal(gb_camp_predict_run(m, &m->device, &in, c, r), GB_OK);
    *time_ns = in.time_ns;
    gb_ncu_free(rep);
    gb_run_free(run);
}

static void test_predict_point(void **state)
{
    (void)state;
    struct gb_camp_model *m = calloc(1, sizeof *m);
    struct gb_ceilings *c = calloc(1, sizeof *c);
    struct gb_run *ceil = NULL, *run = NULL;
    struct gb_camp_predict_result r;
    struct gb_camp_app *apps = NULL;
    size_t n = 0;
    double t;
    assert_true(m && c);
    assert_int_equal(gb_camp_model_load(H100_MODEL, m), GB_OK);
    assert_int_equal(gb_run_load(H100_CEILINGS, &ceil), GB_OK);
    assert_int_equal(gb_ceilings_from_run(ceil, c), GB_OK);

    /* The small-grid run: 32 blocks of 4 warps, 0.97 warps per SM. */
    predict_point(m, c, CHASE, "corpus-chase/chase", "block_size_x=128,chains_per_thread=1", &r, &t);
    assert_true(fabs(r.achieved_warps - 128.0 / 132.0) < 1e-12);
    assert_int_equal(r.domain.why, GB_CAMP_DOMAIN_LATENCY);
    assert_true(isnan(r.degree));
    for (size_t i = 0; i < r.n; i++)
        assert_true(isnan(r.rows[i].app_ns));
    gb_camp_predict_result_release(&r);

    /* A row-sum point inside the domain: the degree validate gives it. */
    predict_point(m, c, H100_ROWSUM, "corpus-rowsum/tree",
                  "block_size_x=256,vector_width=4,rows=4096,cols=4096", &r, &t);
    assert_int_equal(r.domain.why, GB_CAMP_DOMAIN_IN);
    assert_string_equal(r.roof.level, "L2");
    assert_int_equal(gb_run_load(H100_ROWSUM, &run), GB_OK);
    assert_int_equal(gb_camp_records_apps(run, &apps, &n), GB_OK);
    int found = 0;
    for (size_t k = 0; k < n; k++) {
        if (strcmp(apps[k].label, "corpus-rowsum/tree vector_width=4 rows=4096 cols=4096") != 0)
            continue;
        gb_camp_app_roofs(c, &apps[k]);
        for (size_t i = 0; i < apps[k].n; i++) {
            const struct gb_camp_obs *o = &apps[k].obs[i];
            double b, w;
            if (o->time_ns != t) /* the point itself */
                continue;
            assert_true(o->limit_warps == 64 && o->grid_blocks == 4096);
            assert_true(fabs(o->achieved_warps - r.achieved_warps) < 1e-12);
            assert_int_equal(gb_camp_obs_bounds(m, o, &b, &w), GB_OK);
            assert_true(o->roof_best_ns > 0 && o->roof_best_ns == r.roof.best_ns);
            assert_true(fabs(gb_camp_degree(b, w, o->time_ns) - r.degree) < 1e-12);
            found++;
        }
    }
    assert_int_equal(found, 1);
    gb_camp_apps_free(apps, n);
    gb_camp_predict_result_release(&r);
    gb_run_free(run);
    gb_run_free(ceil);
    free(c);
    free(m);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_rule),
        cmocka_unit_test(test_knee),
        cmocka_unit_test(test_small_grid_run),
        cmocka_unit_test(test_band_contains_suite),
        cmocka_unit_test(test_predict_achieved),
        cmocka_unit_test(test_predict_point),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
