/* The roofline arithmetic on synthetic points against values computed by
 * hand, the guide figures, the launch fit, and the synthetic ceilings
 * fixture read into roofs (tests/data/runs/ceilings-fixture: made-up
 * rates, not a measurement). */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <string.h>
#include <cmocka.h>

#include "gpubound/roofline.h"

static void roofs(struct gb_ceilings *c)
{
    memset(c, 0, sizeof *c);
    for (int r = 0; r < GB_N_ROOFS; r++)
        c->value[r] = NAN;
    c->value[GB_ROOF_DRAM] = 1000;   /* GB/s = bytes per ns */
    c->value[GB_ROOF_L2] = 4000;
    c->value[GB_ROOF_SMEM] = 16000;
    c->value[GB_ROOF_FP32] = 10000;  /* GFLOP/s = flops per ns */
}

static struct gb_roofline_point point(double ops, double time_ns, double dram, double l2, double l1)
{
    struct gb_roofline_point p;
    memset(&p, 0, sizeof p);
    p.ops = ops;
    p.time_ns = time_ns;
    p.pipe = GB_ROOF_FP32;
    p.bytes[GB_LEVEL_DRAM] = dram;
    p.bytes[GB_LEVEL_L2] = l2;
    p.bytes[GB_LEVEL_L1] = l1;
    return p;
}

/* 1e9 flops, 1e9 / 2e9 / 4e9 bytes: bounds 1e6 (DRAM), 0.5e6, 0.25e6 and
 * 1e5 ns (FP32): DRAM binds; measured 2e6 ns attains half of it. */
static void test_memory_bound(void **state)
{
    (void)state;
    struct gb_ceilings c;
    roofs(&c);
    struct gb_roofline_point p = point(1e9, 2e6, 1e9, 2e9, 4e9);
    gb_roofline_place(&c, &p);
    assert_int_equal(p.binding, GB_ROOF_DRAM);
    assert_true(fabs(p.bound_ns - 1e6) < 1e-6);
    assert_true(fabs(p.fraction - 0.5) < 1e-12);
    assert_false(p.above);
    assert_true(fabs(p.intensity[GB_LEVEL_DRAM] - 1.0) < 1e-12);
    assert_true(fabs(p.intensity[GB_LEVEL_L2] - 0.5) < 1e-12);
    assert_true(fabs(p.intensity[GB_LEVEL_L1] - 0.25) < 1e-12);
    /* attainable: min(10000, bw x I) = 1000, 2000, 4000 flops per ns */
    assert_true(fabs(p.attainable[GB_LEVEL_DRAM] - 1000) < 1e-9);
    assert_true(fabs(p.attainable[GB_LEVEL_L2] - 2000) < 1e-9);
    assert_true(fabs(p.attainable[GB_LEVEL_L1] - 4000) < 1e-9);
    assert_true(fabs(p.achieved - 500) < 1e-9);
}

/* 2e10 flops over 1e9 DRAM bytes: FP32 bounds at 2e6 ns, DRAM at 1e6. */
static void test_compute_bound(void **state)
{
    (void)state;
    struct gb_ceilings c;
    roofs(&c);
    struct gb_roofline_point p = point(2e10, 4e6, 1e9, NAN, NAN);
    gb_roofline_place(&c, &p);
    assert_int_equal(p.binding, GB_ROOF_FP32);
    assert_true(fabs(p.fraction - 0.5) < 1e-12);
    assert_true(fabs(p.attainable[GB_LEVEL_DRAM] - 10000) < 1e-9); /* min(10000, 1000 x 20) */
    assert_true(isnan(p.intensity[GB_LEVEL_L2]));
}

/* Faster than the DRAM roof allows: flagged, its numbers left as they are. */
static void test_above_roof_flagged(void **state)
{
    (void)state;
    struct gb_ceilings c;
    roofs(&c);
    struct gb_roofline_point p = point(1e9, 0.5e6, 1e9, NAN, NAN);
    gb_roofline_place(&c, &p);
    assert_true(p.above);
    assert_true(fabs(p.fraction - 2.0) < 1e-12);
    assert_true(fabs(p.achieved - 2000) < 1e-9);                     /* not clamped to 1000 */
    struct gb_roofline_point q = point(1e9, 1e6, 1e9, NAN, NAN);     /* on the roof: not above */
    gb_roofline_place(&c, &q);
    assert_false(q.above);
}

/* No operations: only the memory bounds; no intensity. */
/* The least DRAM bytes of a hot launch: the counted bytes less the L2's
 * capacity, never below 0, all of them with no L2 known. */
static void test_hot_dram_floor(void **state)
{
    (void)state;
    assert_true(gb_hot_dram_floor(160e6, 52e6) == 108e6);
    assert_true(gb_hot_dram_floor(40e6, 52e6) == 0);
    assert_true(gb_hot_dram_floor(40e6, 0) == 40e6);
    /* with the buffers' bytes known, the rule's bytes: 134 MB of buffers, 159 MB counted */
    assert_true(gb_hot_dram_floor(gb_hot_held_bytes(159e6, 134e6), 52e6) == 82e6);
}

static void test_no_ops(void **state)
{
    (void)state;
    struct gb_ceilings c;
    roofs(&c);
    struct gb_roofline_point p = point(0, 4e6, 1e9, 8e9, NAN);
    p.pipe = -1;
    gb_roofline_place(&c, &p);
    assert_int_equal(p.binding, GB_ROOF_L2);                         /* 2e6 ns against DRAM's 1e6 */
    assert_true(fabs(p.fraction - 0.5) < 1e-12);
    assert_true(isnan(p.intensity[GB_LEVEL_DRAM]));
}

/* Guide figures of an H200-like device (cc 9.0, 132 SMs, 1980 MHz). */
static void test_guide(void **state)
{
    (void)state;
    struct gb_device_info d;
    memset(&d, 0, sizeof d);
    d.cc_major = 9;
    d.sm_count = 132;
    d.sm_clock_max_mhz = 1980;
    d.mem_peak_gbs = 4814.304;
    assert_true(fabs(gb_roof_guide(GB_ROOF_FP32, &d, NULL) - 2 * 128 * 132 * 1.98) < 1e-6);
    assert_true(fabs(gb_roof_guide(GB_ROOF_FP64, &d, NULL) - 2 * 64 * 132 * 1.98) < 1e-6);
    assert_true(fabs(gb_roof_guide(GB_ROOF_FP16, &d, NULL) - 2 * 256 * 132 * 1.98) < 1e-6);
    assert_true(fabs(gb_roof_guide(GB_ROOF_TC_BF16, &d, NULL) - 4096 * 132 * 1.98) < 1e-6);
    assert_true(fabs(gb_roof_guide(GB_ROOF_SMEM, &d, NULL) - 128 * 132 * 1.98) < 1e-6);
    assert_true(fabs(gb_roof_guide(GB_ROOF_DRAM, &d, NULL) - 4814.304) < 1e-9);
    assert_true(gb_roof_guide(GB_ROOF_L2, &d, NULL) == 0);
    d.cc_major = 8;
    assert_true(gb_roof_guide(GB_ROOF_TC_FP8, &d, NULL) == 0);     /* no fp8 on 8.0 */
}

/* t = 1000 + 10 V: a = 1000 ns, b = 0.1 blocks per ns. */
static void test_launch_fit(void **state)
{
    (void)state;
    double v[] = {1, 2, 4, 8}, t[] = {1010, 1020, 1040, 1080}, a, b;
    assert_int_equal(gb_ceilings_fit_launch(v, t, 4, &a, &b), GB_OK);
    assert_true(fabs(a - 1000) < 1e-9);
    assert_true(fabs(b - 0.1) < 1e-12);
    double one[] = {4, 4};
    assert_int_equal(gb_ceilings_fit_launch(one, t, 2, &a, &b), GB_ERR_USAGE);
}

static void test_fixture_roofs(void **state)
{
    (void)state;
    struct gb_run *run = NULL;
    static struct gb_ceilings c;
    assert_int_equal(gb_run_load(GB_TEST_DATA "/runs/ceilings-fixture", &run), GB_OK);
    assert_int_equal(gb_ceilings_from_run(run, &c), GB_OK);
    assert_true(c.measured);
    assert_true(fabs(c.value[GB_ROOF_DRAM] - 3000) < 1e-9);
    assert_true(fabs(c.value[GB_ROOF_L2] - 9000) < 1e-9);           /* the reads' */
    assert_true(fabs(c.value[GB_ROOF_L2_WRITE] - 8000) < 1e-9);     /* the stores' */
    assert_true(fabs(c.value[GB_ROOF_SMEM] - 20000) < 1e-9);
    assert_true(fabs(c.value[GB_ROOF_FP32] - 65340) < 1e-6);        /* 2 x 125 x 132 x 1980 MHz */
    assert_false(c.is_guide[GB_ROOF_FP32]);
    assert_true(c.is_guide[GB_ROOF_FP64]);                          /* not measured: the guide's */
    assert_int_equal(c.points[GB_ROOF_SMEM], 2);
    assert_true(fabs(c.launch_a_ns - 2000) < 1e-6);
    assert_true(fabs(c.launch_b_blocks_per_ns - 2) < 1e-9);
    assert_true(fabs(c.value[GB_ROOF_LAT_L2] - 200) < 1e-9);       /* ns per load: 1 / GFLOP/s */
    assert_true(fabs(c.value[GB_ROOF_LAT_DRAM] - 500) < 1e-9);
    assert_true(gb_roof_is_time(GB_ROOF_LAT_DRAM) && gb_roof_is_time(GB_ROOF_LAUNCH));
    assert_false(gb_roof_is_time(GB_ROOF_L2));
    gb_run_free(run);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_memory_bound),  cmocka_unit_test(test_compute_bound),
        cmocka_unit_test(test_above_roof_flagged), cmocka_unit_test(test_no_ops),
        cmocka_unit_test(test_guide),         cmocka_unit_test(test_launch_fit),
        cmocka_unit_test(test_fixture_roofs), cmocka_unit_test(test_hot_dram_floor),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
