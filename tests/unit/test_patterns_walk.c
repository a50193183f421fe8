/* test_patterns_walk.c - the table walk of the bank-conflict kernel
 * (bank_every_thread in kernels/patterns.cu), run on the host for all 32
 * lanes of a warp from the kernel's own source: kernels/rs_walk.h is the
 * file NVRTC compiles into patterns.cu (cmake/embed.cmake pastes it in), so
 * an edit of the walk is an edit of what this test runs. Checked against
 * the host's own GF(2^8) (src/suites/gf256.h, written independently of the
 * kernel): every lane writes every one of the 1024 entries exactly once
 * with the right value alpha^(e mod 255), and at every store the lanes
 * write 32 distinct words of which exactly `ways` share a bank without
 * padding, and none with the padding word per row. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "suites/gf256.h"
#include "../../kernels/rs_walk.h"

/* alpha^(e mod 255) by repeated multiplication on the host's field. */
static unsigned pw(unsigned e)
{
    unsigned r = 1;
    for (unsigned i = 0; i < e % 255u; i++)
        r = gb_gf_xtime(r);
    return r;
}

static void walk(unsigned ways, unsigned pad)
{
    unsigned stride = 32 + pad;
    struct rs_walk w[32];
    static unsigned char seen[32][RS_N];
    memset(seen, 0, sizeof seen);
    for (unsigned l = 0; l < 32; l++)
        rs_walk_begin(&w[l], l, ways);
    int worst = 0;
    for (unsigned r = 0; r < RS_ROWS; r++) {
        for (unsigned j = 0; j < 32; j++) {
            int per_bank[32] = {0};
            unsigned addr[32];
            for (unsigned l = 0; l < 32; l++) {
                addr[l] = rs_walk_slot(&w[l], stride);
                assert_int_equal(addr[l] % stride < 32, 1);   /* never the padding word */
                unsigned e = (addr[l] / stride) * 32 + addr[l] % stride;
                assert_true(e < RS_N);
                assert_int_equal(w[l].v, pw(e));
                assert_int_equal(seen[l][e], 0);
                seen[l][e] = 1;
                for (unsigned k = 0; k < l; k++)
                    assert_int_not_equal(addr[k], addr[l]);
                per_bank[addr[l] % 32]++;
                rs_walk_next(&w[l]);
            }
            for (int b = 0; b < 32; b++)
                worst = per_bank[b] > worst ? per_bank[b] : worst;
        }
        for (unsigned l = 0; l < 32; l++)
            rs_walk_next_row(&w[l]);
    }
    for (unsigned l = 0; l < 32; l++)
        for (unsigned e = 0; e < RS_N; e++)
            assert_int_equal(seen[l][e], 1);
    assert_int_equal(worst, pad ? 1 : (int)ways);
}

static void test_walk(void **state)
{
    (void)state;
    for (unsigned ways = 1; ways <= 32; ways *= 2)
        for (unsigned pad = 0; pad < 2; pad++)
            walk(ways, pad);
}

/* The kernel's field arithmetic against the host's. */
static void test_field(void **state)
{
    (void)state;
    for (unsigned e = 0; e < 2 * RS_N; e++)
        assert_int_equal(gf_pow_alpha(e), pw(e));
    for (unsigned a = 0; a < 256; a++) {
        assert_int_equal(gf_xtime(a), gb_gf_xtime(a));
        for (unsigned b = 0; b < 256; b += 7)
            assert_int_equal(gf_mul(a, b), gb_gf_mul(a, b));
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {cmocka_unit_test(test_walk), cmocka_unit_test(test_field)};
    return cmocka_run_group_tests(tests, NULL, NULL);
}
