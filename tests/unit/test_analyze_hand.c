/* test_analyze_hand.c - the source analysis's loop trip counts, branch
 * conditions and read-modify-write byte counts against counts made by hand
 * on the small kernel tests/data/lpbm/hand_counts.cu, at sizes where each
 * rounding shows (a stride that does not divide its range, a block that
 * does not divide n). */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "gpubound/analyze.h"

struct sizes {
    double n_def, m_def, n, block, block_y;
};

static enum gb_status lookup(void *ctx, const char *name, double *v, int *is_int)
{
    const struct sizes *z = ctx;
    *is_int = 1;
    if (!strcmp(name, "N"))
        return *v = z->n_def, GB_OK;
    if (!strcmp(name, "M"))
        return *v = z->m_def, GB_OK;
    if (!strcmp(name, "n"))
        return *v = z->n, GB_OK;
    if (!strcmp(name, "blockDim.x"))
        return *v = z->block, GB_OK;
    if (!strcmp(name, "blockDim.y"))      /* a 2-D block: the cases' block_y rows */
        return *v = z->block_y, GB_OK;
    if (!strcmp(name, "blockDim.z"))
        return *v = 1, GB_OK;
    return gb_error_set(GB_ERR_FORMAT, "unknown %s", name);
}

static void near(double got, double want)
{
    if (!(fabs(got - want) <= 1e-9 * fabs(want))) {
        print_error("got %.10g, want %.10g\n", got, want);
        fail();
    }
}

static void test_hand_counts(void **state)
{
    (void)state;
    /* Strides that do not divide: (16 - 3) / 4 rounds up to 4 trips (j = 3,
     * 7, 11, 15); n = 1000 over blocks of 256: 4 trips for the block's
     * busiest thread; M = 24 halves 24, 12, 6, 3 (4 trips) and doubles 1, 2,
     * 4, 8, 16 (5 trips), M = 100: 6 and 7. */
    static const struct sizes cases[] = {
        {7, 16, 1000, 256, 1}, {1, 16, 256, 256, 1}, {10, 64, 1025, 128, 4}, {0, 4, 1, 32, 2},
        {3, 24, 300, 64, 1}, {5, 100, 100, 100, 8},
    };
    const char *defs[] = {"N=7", "M=16"};
    struct gb_kernel_analysis a;
    if (!gb_analysis_available(NULL, 0))
        skip();
    assert_int_equal(gb_analysis_run(GB_TEST_DATA "/lpbm/hand_counts.cu", NULL, defs, 2, "hand", &a),
                     GB_OK);
    assert_int_equal(a.n_loops, 6);
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
        const struct sizes *z = &cases[c];
        struct gb_analysis_totals t;
        double t_in = z->n_def + 1, t_str = ceil((z->m_def - 3) / 4), t_blk = ceil(z->n / z->block);
        double t_down = z->n_def, t_half = floor(log2(floor(z->m_def / 2))) + 1, t_dbl = ceil(log2(z->m_def));
        gb_analysis_totals(&a, lookup, (void *)z, &t);
        if (c >= 4) /* the hand counts of M = 24 and 100, as written above */
            assert_true(t_half == (c == 4 ? 4 : 6) && t_dbl == (c == 4 ? 5 : 7));
        /* ops: v += in[i]; 2.0 * in[k] and acc[k] += ...; v * 0.5f; v - 1.0f */
        near(t.ops, t_in + 2 * t_blk + t_down + t_half);
        /* global: in[i] (load, 4 B) per inclusive trip; out[j] (store, 4 B) per
         * strided trip; acc[k] += (load and store of 8 B) and in[k] (4 B) per
         * block-strided trip; in[0] <= 0 (a load, not a store) in the branch
         * condition; out[0] once. */
        near(t.global_accesses, t_in + t_str + 3 * t_blk + 1 + 1);
        near(t.global_bytes, 4 * t_in + 4 * t_str + (8 + 8 + 4) * t_blk + 4 + 4);
        near(t.barriers, t_dbl);
        /* the atomics under threadIdx.y == 0 && threadIdx.x == 0 and under
         * threadIdx.x == 0 && threadIdx.y == 0 nested are one per block each;
         * under threadIdx.x == 0 alone one per row of the block (block_y);
         * under threadIdx.y == 0 && c < n one per thread of the block's first
         * row (blockDim.x, the other conjunct taken as true); the else's is
         * every other thread's */
        near(t.atomics_block, 2 + z->block_y + z->block);
        near(t.atomics_thread, 1);
    }
    gb_analysis_release(&a);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_hand_counts),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
