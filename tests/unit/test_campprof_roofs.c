/* test_campprof_roofs.c - CampProf's best bound from the memory levels'
 * roofs (src/models/campprof/campprof_roofs.c).
 *
 * 1. Hand-made configurations where each level binds: DRAM (a cold run
 *    whose DRAM bytes at the DRAM roof take longer than its L2 bytes at the
 *    L2 roof), L2 (a hot run whose data fits in L2: no DRAM bytes count),
 *    L2 by its writes (the larger direction over the roof, not the sum), a
 *    hot run larger than the L2 (each DRAM direction less the L2's
 *    capacity), and no counters (no roof bound: the spread equations keep
 *    the best bound).
 * 2. A committed point that lay below the best bound: the H200 triad at
 *    256 threads, one float4 per thread, n = 2097152 (hot; 4.35 us), below
 *    the spread equations' 8.4 us, lies inside the band from the roofs of
 *    the H200's ceilings run, bound by L2 (its 25 MB stay in the 60 MiB
 *    L2 between samples).
 * 3. The application line's latency factor on the same point: 1 without a
 *    roof best bound, at least 1 with one, falling with warps to 1 past the
 *    spread equations' knee and above 1.5 at a quarter of it; the line
 *    through the start gives the start's own time back.
 * 4. The kernel's own knee (--knee kernel): the suite's product of knee and
 *    bytes in flight over the kernel's bytes, and the shape it gives.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "gpubound/campprof.h"
#include "gpubound/roofline.h"

#ifndef GB_SOURCE_DIR
#error "GB_SOURCE_DIR must name the source directory"
#endif

#define H200 GB_SOURCE_DIR "/data/h200"

/* DRAM 4000 GB/s, L2 8000 GB/s, 50 MB of L2. */
static void roofs(struct gb_ceilings *c)
{
    memset(c, 0, sizeof *c);
    for (int r = 0; r < GB_N_ROOFS; r++)
        c->value[r] = NAN;
    c->value[GB_ROOF_DRAM] = 4000;
    c->value[GB_ROOF_L2] = 8000;
    c->device.l2_bytes = 50000000;
}

static struct gb_camp_obs levels(int hot, double dr, double dw, double lr, double lw)
{
    struct gb_camp_obs o;
    memset(&o, 0, sizeof o);
    o.hot = hot;
    o.dram_read_bytes = dr;
    o.dram_write_bytes = dw;
    o.l2_read_bytes = lr;
    o.l2_write_bytes = lw;
    return o;
}

static void test_dram_binds(void **state)
{
    (void)state;
    struct gb_ceilings c;
    struct gb_camp_roof_bound b;
    roofs(&c);
    /* Cold: 80 MB read + 40 MB written at 4000 GB/s = 30000 ns; L2: the
     * larger direction, 80 MB at 8000 GB/s = 10000 ns. */
    struct gb_camp_obs o = levels(0, 80e6, 40e6, 80e6, 40e6);
    gb_camp_roof_best(&c, &o, &b);
    assert_float_equal(b.dram_ns, 30000, 1e-6);
    assert_float_equal(b.l2_ns, 10000, 1e-6);
    assert_float_equal(b.best_ns, 30000, 1e-6);
    assert_string_equal(b.level, "DRAM");
}

static void test_l2_binds_hot(void **state)
{
    (void)state;
    struct gb_ceilings c;
    struct gb_camp_roof_bound b;
    roofs(&c);
    /* Hot, 24 MB read and 12 MB written, all within the 50 MB L2: no DRAM
     * time; the L2 reads set the bound, 24e6 / 8000 = 3000 ns. The same
     * point measured cold would be bound by DRAM at 9000 ns. */
    struct gb_camp_obs o = levels(1, 24e6, 12e6, 24e6, 12e6);
    gb_camp_roof_best(&c, &o, &b);
    assert_float_equal(b.dram_ns, 0, 0);
    assert_float_equal(b.best_ns, 3000, 1e-6);
    assert_string_equal(b.level, "L2");
    o.hot = 0;
    gb_camp_roof_best(&c, &o, &b);
    assert_float_equal(b.best_ns, 9000, 1e-6);
    assert_string_equal(b.level, "DRAM");
}

static void test_l2_writes_and_hot_spill(void **state)
{
    (void)state;
    struct gb_ceilings c;
    struct gb_camp_roof_bound b;
    roofs(&c);
    /* L2 by its writes: 16 MB read, 40 MB written; max(16, 40) MB at 8000
     * GB/s = 5000 ns, not the sum's 7000. Hot and within the L2. */
    struct gb_camp_obs o = levels(1, 16e6, 40e6, 16e6, 40e6);
    gb_camp_roof_best(&c, &o, &b);
    assert_float_equal(b.l2_ns, 5000, 1e-6);
    assert_float_equal(b.best_ns, 5000, 1e-6);
    /* Hot and larger than the L2: 130 MB read, 60 MB written count as
     * 80 + 10 MB from DRAM, 22500 ns (not 47500). */
    o = levels(1, 130e6, 60e6, 130e6, 60e6);
    gb_camp_roof_best(&c, &o, &b);
    assert_float_equal(b.dram_ns, 22500, 1e-6);
    assert_float_equal(b.best_ns, 22500, 1e-6);
    assert_string_equal(b.level, "DRAM");
}

static void test_no_counters(void **state)
{
    (void)state;
    struct gb_ceilings c;
    struct gb_camp_roof_bound b;
    roofs(&c);
    struct gb_camp_obs o = levels(0, NAN, NAN, NAN, NAN);
    gb_camp_roof_best(&c, &o, &b);
    assert_float_equal(b.best_ns, 0, 0);
    assert_string_equal(b.level, "");
    o = levels(0, 1e6, 1e6, 1e6, 1e6);
    gb_camp_roof_best(NULL, &o, &b);
    assert_float_equal(b.best_ns, 0, 0);
}

/* The committed H200 triad point below the spread equations' best bound. */
static void test_committed_point_inside(void **state)
{
    (void)state;
    struct gb_run *run = NULL, *ceil = NULL;
    const struct gb_record *r = NULL;
    struct gb_camp_model m;
    struct gb_ceilings c;
    struct gb_camp_obs o;
    struct gb_camp_roof_bound rb;
    size_t hits = 0;
    int from_counters = 0;
    double best, worst, old_best, old_worst;
    assert_int_equal(gb_camp_model_load(H200 "/camping-2026-11-21/campprof-model.json", &m), GB_OK);
    assert_int_equal(gb_run_load(H200 "/corpus-2026-11-26/triad", &run), GB_OK);
    assert_int_equal(gb_run_load(H200 "/ceilings-2026-11-26", &ceil), GB_OK);
    assert_int_equal(gb_ceilings_from_run(ceil, &c), GB_OK);
    gb_camp_point_find(run, "corpus-triad/triad",
                       "block_size_x=256,elems_per_thread=1,vector_width=4,n=2097152", &r, &hits);
    assert_int_equal(hits, 1);
    assert_int_equal(gb_camp_spec_obs(r, &o, &from_counters), GB_OK);
    assert_true(from_counters);
    gb_camp_spec_achieved(&run->info.device, &o, 256);
    assert_int_equal(gb_camp_bounds(&m, &o.counts, o.warps, &old_best, &old_worst), GB_OK);
    assert_true(o.time_ns < old_best * 0.9); /* below the spread equations */
    gb_camp_roof_best(&c, &o, &rb);
    assert_string_equal(rb.level, "L2");
    o.roof_best_ns = rb.best_ns;
    assert_int_equal(gb_camp_obs_bounds(&m, &o, &best, &worst), GB_OK);
    assert_float_equal(best, rb.best_ns, 0);
    assert_true(best <= o.time_ns && o.time_ns <= worst);
    double d = gb_camp_degree(best, worst, o.time_ns);
    assert_true(d >= 0 && d <= 1);
    gb_run_free(run);
    gb_run_free(ceil);
}

static void test_line_factor(void **state)
{
    (void)state;
    struct gb_run *run = NULL;
    const struct gb_record *r = NULL;
    struct gb_camp_model m;
    struct gb_camp_obs o;
    size_t hits = 0;
    int from_counters = 0;
    assert_int_equal(gb_camp_model_load(H200 "/camping-2026-11-21/campprof-model.json", &m), GB_OK);
    assert_int_equal(gb_run_load(H200 "/corpus-2026-11-26/triad", &run), GB_OK);
    gb_camp_point_find(run, "corpus-triad/triad",
                       "block_size_x=256,elems_per_thread=1,vector_width=4,n=2097152", &r, &hits);
    assert_int_equal(hits, 1);
    assert_int_equal(gb_camp_spec_obs(r, &o, &from_counters), GB_OK);
    double knee = gb_camp_eq_lt_term(&m.eq[GB_CAMP_READ][GB_CAMP_SPREAD], "knee",
                                     gb_camp_eq_class_for(&m.eq[GB_CAMP_READ][GB_CAMP_SPREAD],
                                                          gb_camp_width_class(16)));
    assert_true(knee > 4);
    o.warps = knee / 4;
    o.roof_best_ns = 0;
    assert_float_equal(gb_camp_line_factor(&m, &o), 1, 0);   /* the suite's bounds carry the shape */
    o.roof_best_ns = 1000;
    double low = gb_camp_line_factor(&m, &o);
    o.warps = knee;
    double at = gb_camp_line_factor(&m, &o);
    o.warps = 64 * knee;
    double high = gb_camp_line_factor(&m, &o);
    assert_true(low > 1.5 && low > at && at > high && high >= 1 && high < 1.01);
    double d = gb_camp_line_degree(1000, 9000, 2500, low);
    assert_float_equal(gb_camp_line_time(1000, 9000, d, low), 2500, 1e-9);
    assert_float_equal(gb_camp_line_time(1000, 9000, d, 1), 2500 / low, 1e-9);
    gb_run_free(run);
}

/* The kernel's own knee: K = the suite's product / the kernel's bytes in
 * flight, the shape sqrt(1 + (K / w)^2); the suite's shape where either is
 * unknown, and 1 without a roof best bound. */
static void test_kernel_knee(void **state)
{
    (void)state;
    struct gb_camp_model m;
    struct gb_camp_obs o;
    memset(&o, 0, sizeof o);
    assert_int_equal(gb_camp_model_load(H200 "/camping-2026-11-21/campprof-model.json", &m), GB_OK);
    o.counts.ld[gb_camp_width_class(4)] = 1e6;
    o.roof_best_ns = 1000;
    o.warps = 8;
    o.inflight_bytes = 8;
    double suite = gb_camp_line_factor(&m, &o);          /* no product: the suite's shape */
    assert_true(isnan(gb_camp_kernel_knee(&m, &o)));
    m.inflight_product = 400;                            /* K = 50 warps */
    assert_float_equal(gb_camp_kernel_knee(&m, &o), 50, 1e-12);
    assert_float_equal(gb_camp_line_factor(&m, &o), sqrt(1 + 50.0 / 8 * 50.0 / 8), 1e-12);
    assert_true(gb_camp_line_factor(&m, &o) != suite);
    o.warps = 50;
    assert_float_equal(gb_camp_line_factor(&m, &o), sqrt(2), 1e-12);
    o.inflight_bytes = 32;                               /* four times the loads: K = 12.5 */
    assert_float_equal(gb_camp_line_factor(&m, &o), sqrt(1 + 0.25 * 0.25), 1e-12);
    o.inflight_bytes = NAN;
    o.warps = 8;
    assert_float_equal(gb_camp_line_factor(&m, &o), suite, 1e-12);
    o.inflight_bytes = 8;
    o.roof_best_ns = 0;
    assert_float_equal(gb_camp_line_factor(&m, &o), 1, 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_dram_binds),
        cmocka_unit_test(test_l2_binds_hot),
        cmocka_unit_test(test_l2_writes_and_hot_spill),
        cmocka_unit_test(test_no_counters),
        cmocka_unit_test(test_committed_point_inside),
        cmocka_unit_test(test_line_factor),
        cmocka_unit_test(test_kernel_knee),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
