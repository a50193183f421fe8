/* The pure parts of suite camping: pinning active warps per SM, the request
 * counts, the clique graph and its reference, the half-line visits of the
 * line table, and the slice probe's threshold. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "gpubound/measure.h"
#include "gpubound/occupancy.h"
#include "suites/camping.h"

static struct gb_device_info hopper(void)
{
    struct gb_device_info d;
    assert_int_equal(gb_device_from_cc(9, 0, &d), GB_OK);
    return d;
}

static int is_prime(int w)
{
    for (int k = 2; k * k <= w; k++)
        if (w % k == 0)
            return 0;
    return w > 1;
}

/* Hopper, 32 registers: every value up to 32 (one block), and above 32
 * every value that is a product of equal blocks of at most 32 warps: all
 * but the primes 37, 41, 43, 47, 53, 59, 61. */
static void test_allowed_hopper(void **state)
{
    (void)state;
    struct gb_device_info d = hopper();
    static const int statics[] = {0, 1024, 4224};
    for (int s = 0; s < 3; s++) {
        int list[128];
        int n = gb_camping_pinnable_warps(&d, 32, statics[s], list, 128);
        int k = 0;
        for (int w = 1; w <= 64; w++) {
            int want = w <= 32 || !is_prime(w);
            if (want) {
                assert_true(k < n);
                assert_int_equal(list[k], w);
                k++;
            }
        }
        assert_int_equal(n, k);
        assert_int_equal(n, 64 - 7);
    }
}

/* Every pinning is confirmed by the calculator, uses the fewest blocks, and
 * its shared memory admits exactly blocks_per_sm blocks. */
static void test_pin_realised(void **state)
{
    (void)state;
    struct gb_device_info d = hopper();
    for (int w = 1; w <= 64; w++) {
        struct gb_camp_pin pin;
        enum gb_status st = gb_camp_pin(&d, w, 32, 1024, &pin);
        if (w > 32 && is_prime(w)) {
            assert_int_equal(st, GB_ERR_UNSUPPORTED);
            assert_non_null(strstr(gb_error_message(), "cannot be pinned"));
            continue;
        }
        assert_int_equal(st, GB_OK);
        assert_int_equal(pin.warps, w);
        assert_int_equal(pin.blocks_per_sm * pin.warps_per_block, w);
        assert_true(pin.warps_per_block <= 32);
        /* The fewest blocks: no smaller divisor gives blocks of <= 32 warps. */
        for (int k = 1; k < pin.blocks_per_sm; k++)
            assert_true(w % k != 0 || w / k > 32);
        struct gb_occupancy_input in = {pin.warps_per_block * 32, 32, 1024, pin.dyn_smem_bytes, pin.dyn_smem_bytes,
                                        100};
        struct gb_occupancy_result r;
        assert_int_equal(gb_occupancy_compute(&d, &in, &r), GB_OK);
        assert_int_equal(r.active_blocks, pin.blocks_per_sm);
        assert_int_equal(r.active_warps, w);
        assert_int_equal(r.blocks_by_smem, pin.blocks_per_sm);
        /* With half the shared memory more blocks fit: the pinning holds by
         * shared memory, not by chance. */
        int half = (1024 + 1024 + pin.dyn_smem_bytes) / 2 - 2048;
        in.dyn_smem_bytes = in.max_dyn_smem_bytes = half > 0 ? half : 0;
        assert_int_equal(gb_occupancy_compute(&d, &in, &r), GB_OK);
        if (2 * w <= 64)
            assert_true(r.active_warps > w);
    }
    struct gb_camp_pin pin;
    assert_int_equal(gb_camp_pin(&d, 1, 32, 0, &pin), GB_OK);
    assert_int_equal(pin.blocks_per_sm, 1);
    assert_int_equal(pin.dyn_smem_bytes, 233472 - 1024);
    assert_int_equal(gb_camp_pin(&d, 64, 32, 0, &pin), GB_OK);
    assert_int_equal(pin.blocks_per_sm, 2);
    assert_int_equal(pin.warps_per_block, 32);
    assert_int_equal(pin.dyn_smem_bytes, 116736 - 1024);
    assert_int_equal(gb_camp_pin(&d, 33, 32, 0, &pin), GB_OK);
    assert_int_equal(pin.blocks_per_sm, 3);
    assert_int_equal(pin.warps_per_block, 11);
    assert_int_equal(gb_camp_pin(&d, 49, 32, 0, &pin), GB_OK);
    assert_int_equal(pin.blocks_per_sm, 7);
    assert_int_equal(gb_camp_pin(&d, 65, 32, 0, &pin), GB_ERR_UNSUPPORTED);
    assert_non_null(strstr(gb_error_message(), "at most 64 warps per SM"));
    assert_int_equal(gb_camp_pin(&d, 0, 32, 0, &pin), GB_ERR_USAGE);
}

/* More registers than 32 per thread: the register file caps the warps. */
static void test_pin_registers(void **state)
{
    (void)state;
    struct gb_device_info d = hopper();
    int list[128];
    /* 40 registers: 1280 per warp, 12 warps per sub-partition, 48 per SM. */
    int n = gb_camping_pinnable_warps(&d, 40, 0, list, 128);
    assert_true(n > 0);
    assert_int_equal(list[n - 1], 48);
    struct gb_camp_pin pin;
    /* Equal blocks of 25 warps exist, but the calculator gives 25 per SM:
     * a disagreement with the asked value, which fails the point. */
    assert_int_equal(gb_camp_pin(&d, 50, 40, 0, &pin), GB_ERR_VERIFY);
    assert_non_null(strstr(gb_error_message(), "warps=50 not realised"));
    assert_non_null(strstr(gb_error_message(), "40 registers"));
    assert_non_null(strstr(gb_error_message(), "limited by registers"));
    assert_int_equal(gb_camp_pin(&d, 53, 40, 0, &pin), GB_ERR_UNSUPPORTED);
    assert_int_equal(gb_camp_pin(&d, 48, 40, 0, &pin), GB_OK);
    /* An Ampere consumer part: 48 warps per SM at most. */
    struct gb_device_info a;
    assert_int_equal(gb_device_from_cc(8, 6, &a), GB_OK);
    n = gb_camping_pinnable_warps(&a, 32, 0, list, 128);
    assert_int_equal(list[n - 1], 48);
}

static void test_sectors(void **state)
{
    (void)state;
    assert_int_equal(gb_camp_sectors(0, 32), 1);
    assert_int_equal(gb_camp_sectors(4, 36), 2);
    assert_int_equal(gb_camp_sectors(28, 32), 1);
    assert_int_equal(gb_camp_sectors(31, 33), 2);
    assert_int_equal(gb_camp_sectors(0, 0), 0);
    assert_int_equal(gb_camp_sectors(0, 512), 16);
    assert_int_equal(gb_camp_width_class(2), 1);
    assert_int_equal(gb_camp_width_class(16), 4);
    assert_int_equal(gb_camp_width_class(1), 0);
    assert_int_equal(gb_camp_width_class(32), -1);
}

static void test_counts_closed_forms(void **state)
{
    (void)state;
    struct gb_camp_counts c;
    memset(&c, 0, sizeof c);
    gb_camp_counts_read(&c, 2, 100, 10);
    assert_true(c.ld[1] == 100 && c.ld_sectors == 200);
    assert_true(c.st[3] == 10 && c.st_sectors == 80);
    assert_true(c.ld[2] == 0 && c.ld[3] == 0 && c.ld[4] == 0);
    memset(&c, 0, sizeof c);
    gb_camp_counts_write(&c, 16, 7);
    assert_true(c.st[4] == 7 && c.st_sectors == 112 && c.ld_sectors == 0);
    memset(&c, 0, sizeof c);
    gb_camp_counts_gem(&c, 64, 3);
    /* 2 groups: 2 coordinate loads (16 sectors) + 6 broadcast component
     * loads (1 sector); 2 stores of 4 bytes per lane (4 sectors). */
    assert_true(c.ld[4] == 8 && c.ld_sectors == 38);
    assert_true(c.st[2] == 2 && c.st_sectors == 8);
    memset(&c, 0, sizeof c);
    gb_camp_counts_transpose(&c, 64, 3);
    assert_true(c.ld[2] == 3 * 128 && c.ld_sectors == 3 * 512);
    assert_true(c.st[2] == 3 * 128 && c.st_sectors == 3 * 512);
}

/* The triangle 0-1-2: worked out by hand from the kernel's loops. */
static void test_counts_clique_triangle(void **state)
{
    (void)state;
    static const uint32_t row[] = {0, 2, 4, 6};
    static const uint32_t col[] = {1, 2, 0, 2, 0, 1};
    struct gb_camp_counts c;
    uint32_t cnt[3];
    memset(&c, 0, sizeof c);
    gb_camp_counts_clique(&c, row, col, 3);
    /* v=0: 2 + 1 + 2 x (2 + 1 + 1); v=1: 2 + 1 + (2 + 1 + 1); v=2: 2 + 1. */
    assert_true(c.ld[2] == 21);
    assert_true(c.ld_sectors == 21);
    assert_true(c.st[2] == 3 && c.st_sectors == 3);
    gb_camp_clique_ref(row, col, 3, cnt);
    assert_int_equal(cnt[0], 1);
    assert_int_equal(cnt[1], 0);
    assert_int_equal(cnt[2], 0);
}

/* A star: vertex 0 joined to 1..40 (two chunks of its list), 41..99 alone. */
static void test_counts_clique_star(void **state)
{
    (void)state;
    enum { N = 100 };
    uint32_t row[N + 1], col[80], cnt[N];
    size_t m = 0;
    for (uint32_t v = 0; v < N; v++) {
        row[v] = (uint32_t)m;
        if (v == 0)
            for (uint32_t u = 1; u <= 40; u++)
                col[m++] = u;
        else if (v <= 40)
            col[m++] = 0;
    }
    row[N] = (uint32_t)m;
    struct gb_camp_counts c;
    memset(&c, 0, sizeof c);
    gb_camp_counts_clique(&c, row, col, N);
    /* v=0: 2 row loads, 2 chunk loads (4 + 1 sectors), and per u: 2 row
     * loads, 2 chunk loads of N(0) (4 + 1 sectors), 2 loads of N(u) (1
     * sector each): 244 requests, 367 sectors. v=1..40: 3 requests and
     * sectors each; v=41..99: 2 each. */
    assert_true(c.ld[2] == 244 + 120 + 118);
    assert_true(c.ld_sectors == 367 + 120 + 118);
    assert_true(c.st[2] == N);
    gb_camp_clique_ref(row, col, N, cnt);
    for (int v = 0; v < N; v++)
        assert_int_equal(cnt[v], 0);
}

static int contains(const uint32_t *b, const uint32_t *e, uint32_t x)
{
    while (b < e) {
        const uint32_t *mid = b + (e - b) / 2;
        if (*mid < x)
            b = mid + 1;
        else if (*mid > x)
            e = mid;
        else
            return 1;
    }
    return 0;
}

static void test_graph(void **state)
{
    (void)state;
    const uint32_t n = 4096;
    uint32_t *row, *col, *row2, *col2, *row3, *col3;
    size_t m, m2, m3;
    assert_int_equal(gb_camp_graph_make(n, 7, &row, &col, &m), GB_OK);
    assert_int_equal(row[0], 0);
    assert_int_equal(row[n], m);
    size_t near = 0;
    for (uint32_t v = 0; v < n; v++) {
        uint32_t d = row[v + 1] - row[v];
        assert_true(d >= 8 && d <= 40);
        for (uint32_t i = row[v]; i < row[v + 1]; i++) {
            assert_true(col[i] < n);
            assert_true(col[i] != v);
            if (i > row[v])
                assert_true(col[i] > col[i - 1]);
            uint32_t dist = col[i] > v ? col[i] - v : v - col[i];
            if (dist > n / 2)
                dist = n - dist;
            near += dist <= 512;
        }
    }
    assert_true(near * 10 > m * 7);  /* three in four are near, by design */
    /* Deterministic in the seed; another seed, another graph. */
    assert_int_equal(gb_camp_graph_make(n, 7, &row2, &col2, &m2), GB_OK);
    assert_int_equal(m2, m);
    assert_memory_equal(col2, col, m * sizeof *col);
    assert_int_equal(gb_camp_graph_make(n, 8, &row3, &col3, &m3), GB_OK);
    assert_true(m3 != m || memcmp(col3, col, m * sizeof *col) != 0);
    free(row3);
    free(col3);
    assert_int_equal(gb_camp_graph_make(100, 7, &row3, &col3, &m3), GB_ERR_USAGE);
    assert_null(row3);

    /* The merge reference against a brute force by binary search. */
    uint32_t *cnt = malloc(n * sizeof *cnt);
    uint64_t total = 0;
    gb_camp_clique_ref(row, col, n, cnt);
    for (uint32_t v = 0; v < n; v++) {
        uint32_t want = 0;
        for (uint32_t i = row[v]; i < row[v + 1]; i++) {
            uint32_t u = col[i];
            if (u <= v)
                continue;
            for (uint32_t j = row[v]; j < row[v + 1]; j++)
                want += col[j] > u && contains(col + row[u], col + row[u + 1], col[j]);
        }
        assert_int_equal(cnt[v], want);
        total += want;
    }
    assert_true(total > n);  /* plenty to count: the check can fail */
    free(cnt);
    free(row);
    free(col);
    free(row2);
    free(col2);
}

/* The half-line visits against the kernel's enumeration (request r covers
 * half-lines (q0 + r) * halves + k, k < halves, modulo 2 * lines). */
static void test_halfline_visits(void **state)
{
    (void)state;
    static const uint64_t halves[] = {1, 2, 4, 8};
    static const uint64_t q0s[] = {0, 3, 17};
    static const uint64_t totals[] = {0, 1, 7, 100, 1027};
    static const uint64_t lines_v[] = {4, 8, 32};
    for (int a = 0; a < 4; a++)
        for (int b = 0; b < 3; b++)
            for (int c = 0; c < 5; c++)
                for (int l = 0; l < 3; l++) {
                    uint64_t lines = lines_v[l], cyc = 2 * lines, seen[64] = {0};
                    for (uint64_t r = 0; r < totals[c]; r++)
                        for (uint64_t k = 0; k < halves[a]; k++)
                            seen[((q0s[b] + r) * halves[a] + k) % cyc]++;
                    for (uint64_t h = 0; h < cyc; h++)
                        assert_int_equal(gb_camp_halfline_visits(h, q0s[b], halves[a], lines, totals[c]), seen[h]);
                }
}

static void test_pattern(void **state)
{
    (void)state;
    for (uint32_t seed = 1; seed < 50; seed += 7)
        for (uint64_t i = 0; i < 200000; i++) {
            uint32_t w = gb_camp_pat(seed, i);
            assert_true(w != 0 && w != 0xDEADBEEFu);
        }
    assert_int_equal(gb_camp_pat(5, 11), gb_camp_pat(5, 11));
    assert_true(gb_camp_pat(5, 11) != gb_camp_pat(6, 11));
    assert_true(gb_camp_pat(5, 11) != gb_camp_pat(5, 12));
}

static void test_probe_threshold(void **state)
{
    (void)state;
    double t[1010], med, slow, thr;
    int idx[16];
    /* Bimodal: 1000 fast pairs (two slices) near 10, 10 same-slice pairs
     * near 20 (as the anchor with itself). */
    for (int i = 0; i < 1000; i++)
        t[i] = 10.0 + 0.001 * (i % 17);
    for (int i = 1000; i < 1010; i++)
        t[i] = 19.8 + 0.02 * (i - 1000);
    assert_int_equal(gb_camp_probe_threshold(t, 1010, 20.0, &med, &slow, &thr), 1);
    assert_true(med > 10.0 && med < 10.02);
    assert_true(fabs(slow - 19.98) < 1e-9);
    assert_true(thr > 14.9 && thr < 15.1);
    assert_int_equal(gb_camp_probe_above(t, 1010, thr, idx, 16), 10);
    for (int i = 0; i < 10; i++)
        assert_int_equal(idx[i], 1000 + i);
    /* More above than out holds: the count, and only max written. */
    assert_int_equal(gb_camp_probe_above(t, 1010, thr, idx, 3), 10);
    assert_int_equal(idx[2], 1002);
    /* Without the anchor's own time: the same classification. */
    assert_int_equal(gb_camp_probe_threshold(t, 1010, NAN, &med, &slow, &thr), 1);
    assert_true(thr > 14.9 && thr < 15.1);

    /* A disturbed launch far above the anchor with itself is ignored. */
    t[500] = 100.0;
    assert_int_equal(gb_camp_probe_threshold(t, 1010, 20.0, &med, &slow, &thr), 1);
    assert_true(fabs(slow - 19.98) < 1e-9);
    assert_int_equal(gb_camp_probe_above(t, 1010, thr, idx, 16), 11);  /* the outlier itself is above */
    t[500] = 10.0;

    /* Unimodal (nothing at twice the time): not classifiable. */
    for (int i = 1000; i < 1010; i++)
        t[i] = 10.5;
    assert_int_equal(gb_camp_probe_threshold(t, 1010, 10.6, &med, &slow, &thr), 0);
    assert_true(thr > 1e300);
    assert_true(med > 10.0 && med < 10.02);
    assert_int_equal(gb_camp_probe_above(t, 1010, thr, idx, 16), 0);

    /* Bimodal candidates, but the anchor with itself is fast: inconsistent,
     * so not classifiable either. */
    for (int i = 1000; i < 1010; i++)
        t[i] = 20.0;
    assert_int_equal(gb_camp_probe_threshold(t, 1010, 10.2, &med, &slow, &thr), 0);
    assert_true(thr > 1e300);

    /* No times. */
    assert_int_equal(gb_camp_probe_threshold(t, 0, 10.5, &med, &slow, &thr), 0);
    assert_true(isnan(med) && isnan(slow) && thr > 1e300);
}

/* The default sweeps: the warps of the paper (1..16, then even values),
 * every width, both patterns; quick is a handful. */
static void test_plan_sizes(void **state)
{
    (void)state;
    static const struct {
        const char *sel;
        size_t full, quick;
    } want[] = {
        {"camping/read", 2 * 4 * 40, 2 * 2 * 4},
        {"camping/write", 2 * 4 * 40, 2 * 2 * 4},
        {"camping/gem", 40, 2},
        {"camping/transpose_diagonal", 40, 2},
        {"camping/discover", 2 * 2 * 18, 2 * 5},
    };
    for (size_t i = 0; i < sizeof want / sizeof want[0]; i++) {
        struct gb_plan plan;
        const char *sel[] = {want[i].sel};
        assert_int_equal(gb_plan_build(sel, 1, NULL, 0, 0, &plan), GB_OK);
        assert_int_equal(plan.n, want[i].full);
        gb_plan_release(&plan);
        assert_int_equal(gb_plan_build(sel, 1, NULL, 0, 1, &plan), GB_OK);
        assert_int_equal(plan.n, want[i].quick);
        gb_plan_release(&plan);
    }
    /* warps above the hardware's 64 are refused when the plan is built. */
    struct gb_plan plan;
    const char *sel[] = {"camping/read"}, *sets[] = {"warps=65"};
    assert_int_equal(gb_plan_build(sel, 1, sets, 1, 0, &plan), GB_ERR_USAGE);
    assert_non_null(strstr(gb_error_message(), "warps"));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_allowed_hopper),    cmocka_unit_test(test_pin_realised),
        cmocka_unit_test(test_pin_registers),     cmocka_unit_test(test_sectors),
        cmocka_unit_test(test_counts_closed_forms), cmocka_unit_test(test_counts_clique_triangle),
        cmocka_unit_test(test_counts_clique_star), cmocka_unit_test(test_graph),
        cmocka_unit_test(test_halfline_visits),   cmocka_unit_test(test_pattern),
        cmocka_unit_test(test_probe_threshold),   cmocka_unit_test(test_plan_sizes),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
