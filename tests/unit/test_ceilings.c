/* The ceilings suite's host checks that need no GPU: the warpgroup MMA's
 * operand layout, product and accumulator places (src/suites/ceilings_ref.c,
 * against hand values and an independent decoding), the L2 read's expected
 * sum (against a brute-force walk of the blocks), and the tensor roof taken
 * as the best of mma.sync and wgmma. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "gpubound/roofline.h"
#include "suites/ceilings_ref.h"

/* Hand values of the interleave layout: (row 9, k 10) is group 1 (256),
 * K half 1 (128), row 1 in its core matrix (16), element 2 (4). */
static void test_wg_offset(void **state)
{
    (void)state;
    assert_int_equal(gb_ck_wg_offset(0, 0), 0);
    assert_int_equal(gb_ck_wg_offset(0, 7), 14);
    assert_int_equal(gb_ck_wg_offset(0, 8), 128);
    assert_int_equal(gb_ck_wg_offset(1, 0), 16);
    assert_int_equal(gb_ck_wg_offset(8, 0), 256);
    assert_int_equal(gb_ck_wg_offset(9, 10), 404);
    assert_int_equal(gb_ck_wg_offset(255, 15), 256 * 31 + 128 + 7 * 16 + 14);
}

/* The image holds every element of A and B exactly once: decoding each
 * 16-bit slot back (core matrix, row, element) gives the operand's value. */
static void test_wg_image(void **state)
{
    (void)state;
    int *a = malloc(64 * 16 * sizeof *a), *b = malloc(16 * 256 * sizeof *b);
    uint16_t *img = calloc(GB_CK_WG_IMAGE_BYTES / 2, sizeof *img);
    assert_non_null(a);
    assert_non_null(b);
    assert_non_null(img);
    gb_ck_wg_operands(12345u, a, b);
    gb_ck_wg_image(1, a, b, img);
    for (size_t i = 0; i < GB_CK_WG_IMAGE_BYTES / 2; i++) {
        size_t byte = 2 * i, in = byte < GB_CK_WG_A_BYTES ? byte : byte - GB_CK_WG_A_BYTES;
        int row = (int)(in / 256 * 8 + in % 128 / 16), k = (int)(in % 256 / 128 * 8 + in % 16 / 2);
        int v = byte < GB_CK_WG_A_BYTES ? a[row * 16 + k] : b[k * 256 + row];
        assert_int_equal(img[i], gb_ck_half_bits(1, v));
    }
    assert_int_equal(gb_ck_half_bits(1, 1), 0x3f80);
    assert_int_equal(gb_ck_half_bits(1, -2), 0xc000);
    assert_int_equal(gb_ck_half_bits(0, 1), 0x3c00);
    assert_int_equal(gb_ck_half_bits(0, 0), 0);
    free(a);
    free(b);
    free(img);
}

/* Operands in [-2, 2], not all equal (a wrong layout would show), and the
 * product against a direct sum for a few elements. */
static void test_wg_product(void **state)
{
    (void)state;
    int *a = malloc(64 * 16 * sizeof *a), *b = malloc(16 * 256 * sizeof *b);
    long *c = malloc(64 * 256 * sizeof *c);
    assert_non_null(a);
    assert_non_null(b);
    assert_non_null(c);
    gb_ck_wg_operands(7u, a, b);
    int lo = 9, hi = -9;
    for (int i = 0; i < 64 * 16; i++)
        lo = a[i] < lo ? a[i] : lo, hi = a[i] > hi ? a[i] : hi;
    assert_int_equal(lo, -2);
    assert_int_equal(hi, 2);
    long most = gb_ck_wg_product(a, b, c);
    assert_true(most > 0 && most <= 64);
    long s = 0;
    for (int k = 0; k < 16; k++)
        s += (long)a[5 * 16 + k] * b[k * 256 + 200];
    assert_int_equal(c[5 * 256 + 200], s);
    int distinct = 0;
    for (int i = 1; i < 64 * 256; i++)
        distinct += c[i] != c[0];
    assert_true(distinct > 1000);
    free(a);
    free(b);
    free(c);
}

/* The 128 threads' 128 accumulators cover the 64 x 256 tile once each;
 * thread 0's first four are (0,0), (0,1), (8,0), (8,1); lane 5 of warp 1
 * starts at row 17, column 2. */
static void test_wg_acc_index(void **state)
{
    (void)state;
    unsigned char *seen = calloc(64 * 256, 1);
    assert_non_null(seen);
    for (int t = 0; t < 128; t++)
        for (int r = 0; r < 128; r++) {
            size_t i = gb_ck_wg_acc_index(t, r);
            assert_true(i < 64 * 256);
            assert_int_equal(seen[i], 0);
            seen[i] = 1;
        }
    assert_int_equal(gb_ck_wg_acc_index(0, 1), 1);
    assert_int_equal(gb_ck_wg_acc_index(0, 2), 8 * 256);
    assert_int_equal(gb_ck_wg_acc_index(0, 4), 8);
    assert_int_equal(gb_ck_wg_acc_index(37, 0), 17 * 256 + 2);
    free(seen);
}

/* The expected sum against a walk of every block's reads. */
static void test_l2_read_expect(void **state)
{
    (void)state;
    enum { N = 7 };
    uint64_t chunk[N];
    for (int c = 0; c < N; c++)
        chunk[c] = 1000003ull * (uint64_t)(c + 1) + ((uint64_t)c << 40);
    static const unsigned grids[] = {1, 3, 7, 20};
    static const long reads[] = {1, 5, 7, 23};
    for (size_t g = 0; g < 4; g++)
        for (size_t r = 0; r < 4; r++) {
            uint64_t want = 0;
            for (unsigned b = 0; b < grids[g]; b++) {
                unsigned c = (unsigned)((unsigned long long)b * N / grids[g]);
                for (long k = 0; k < reads[r]; k++)
                    want += chunk[(c + (unsigned)k) % N];
            }
            assert_true(gb_ck_l2_read_expect(chunk, N, grids[g], reads[r]) == want);
        }
    /* Block 1 of 2 starts half way: chunks 3, 4 with reads 2 (0 + 1 for block 0). */
    assert_true(gb_ck_l2_read_expect(chunk, N, 2, 2) == chunk[0] + chunk[1] + chunk[3] + chunk[4]);
}

static void write_file(const char *path, const char *text)
{
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fputs(text, f);
    fclose(f);
}

static void copy_file(const char *from, const char *to)
{
    FILE *f = fopen(from, "rb"), *o = fopen(to, "wb");
    char buf[4096];
    size_t n;
    assert_non_null(f);
    assert_non_null(o);
    while ((n = fread(buf, 1, sizeof buf, f)) > 0)
        assert_int_equal(fwrite(buf, 1, n, o), n);
    fclose(f);
    fclose(o);
}

#define REC(bench, axes, status, gflops)                                                                     \
    "{\"suite\":\"ceilings\",\"bench\":\"" bench "\",\"axes\":{" axes "},\"status\":\"" status "\","       \
    "\"reason\":\"\",\"cache\":\"hot\",\"samples\":10,\"converged\":true,\"batch\":1,\"time_source\":\"cupti\"," \
    "\"time_ns\":{\"min\":1e6,\"median\":1e6,\"mean\":1e6,\"stddev\":0,\"ci_lo\":1e6,\"ci_hi\":1e6},"         \
    "\"batch_time_ns\":null,\"bytes\":0,\"flops\":" gflops "e6,\"bw_gbs\":0,\"gflops\":" gflops ","             \
    "\"sm_mhz_before\":1980,\"sm_mhz_after\":1980,\"throttled\":false,\"wall_s\":0.1,\"timed_s\":0.01,"        \
    "\"metrics\":{}}"

/* The tensor roofs are the best ok record of mma and wgmma: wgmma bf16
 * (800000) above mma bf16 (648000); a failed wgmma fp16 record (900000)
 * counts for nothing, so fp16 stays mma's. */
static void test_tensor_roof_best(void **state)
{
    (void)state;
    char dir[] = "/tmp/gb_test_ceilings_XXXXXX", path[256];
    static struct gb_ceilings c;
    struct gb_run *run = NULL;
    assert_non_null(mkdtemp(dir));
    snprintf(path, sizeof path, "%s/run.json", dir);
    copy_file(GB_TEST_DATA "/runs/ceilings-fixture/run.json", path);
    snprintf(path, sizeof path, "%s/results.json", dir);
    write_file(path, "[\n" REC("mma", "\"type\":\"bf16\"", "ok", "648000") ",\n"
                     REC("mma", "\"type\":\"fp16\"", "ok", "650000") ",\n"
                     REC("wgmma", "\"type\":\"bf16\",\"blocks_per_sm\":\"1\"", "ok", "700000") ",\n"
                     REC("wgmma", "\"type\":\"bf16\",\"blocks_per_sm\":\"2\"", "ok", "800000") ",\n"
                     REC("wgmma", "\"type\":\"fp16\",\"blocks_per_sm\":\"2\"", "failed", "900000") "\n]\n");
    assert_int_equal(gb_run_load(dir, &run), GB_OK);
    assert_int_equal(gb_ceilings_from_run(run, &c), GB_OK);
    assert_true(fabs(c.value[GB_ROOF_TC_BF16] - 800000) < 1e-6);
    assert_non_null(strstr(c.best[GB_ROOF_TC_BF16], "wgmma"));
    assert_non_null(strstr(c.best[GB_ROOF_TC_BF16], "blocks_per_sm=2"));
    assert_int_equal(c.points[GB_ROOF_TC_BF16], 3);
    assert_true(fabs(c.value[GB_ROOF_TC_FP16] - 650000) < 1e-6);
    assert_int_equal(c.points[GB_ROOF_TC_FP16], 1);
    gb_run_free(run);
    unlink(path);
    snprintf(path, sizeof path, "%s/run.json", dir);
    unlink(path);
    rmdir(dir);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_wg_offset),      cmocka_unit_test(test_wg_image),
        cmocka_unit_test(test_wg_product),     cmocka_unit_test(test_wg_acc_index),
        cmocka_unit_test(test_l2_read_expect), cmocka_unit_test(test_tensor_roof_best),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
