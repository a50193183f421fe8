/* test_patterns_walk.c - the table walk of the bank-conflict kernel
 * (bank_every_thread in kernels/patterns.cu), followed step by step on the
 * host for all 32 lanes of a warp: every lane writes every one of the 1024
 * entries exactly once with the right value alpha^(e mod 255), and at every
 * store the lanes write 32 distinct words of which exactly `ways` share a
 * bank without padding, and none with the padding word per row. Keep this
 * in step with the kernel. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "suites/gf256.h"

#define RS_N 1024
#define RS_ROWS (RS_N / 32)

static unsigned pw(unsigned e)
{
    unsigned r = 1;
    for (unsigned i = 0; i < e % 255u; i++)
        r = gb_gf_xtime(r);
    return r;
}

static void walk(unsigned ways, unsigned pad)
{
    unsigned stride = 32 + pad, m = 32 / ways;
    unsigned row[32], col[32], rb[32], v[32];
    static unsigned char seen[32][RS_N];
    memset(seen, 0, sizeof seen);
    for (unsigned l = 0; l < 32; l++) {
        row[l] = l / m;
        col[l] = ways * (l % m);
        rb[l] = pw(row[l] * 32);
        v[l] = pw(row[l] * 32 + col[l]);
    }
    const unsigned a32 = pw(32), awrap = pw(255u * 4u - (RS_N - 32u));
    int worst = 0;
    for (unsigned r = 0; r < RS_ROWS; r++) {
        for (unsigned j = 0; j < 32; j++) {
            int per_bank[32] = {0};
            unsigned addr[32];
            for (unsigned l = 0; l < 32; l++) {
                unsigned e = row[l] * 32 + col[l];
                assert_int_equal(v[l], pw(e));
                assert_int_equal(seen[l][e], 0);
                seen[l][e] = 1;
                addr[l] = row[l] * stride + col[l];
                for (unsigned k = 0; k < l; k++)
                    assert_int_not_equal(addr[k], addr[l]);
                per_bank[addr[l] % 32]++;
                unsigned next = gb_gf_xtime(v[l]);
                v[l] = col[l] == 31 ? rb[l] : next;
                col[l] = (col[l] + 1) & 31u;
            }
            for (int b = 0; b < 32; b++)
                worst = per_bank[b] > worst ? per_bank[b] : worst;
        }
        for (unsigned l = 0; l < 32; l++) {
            unsigned mu = row[l] == RS_ROWS - 1 ? awrap : a32;
            row[l] = row[l] == RS_ROWS - 1 ? 0 : row[l] + 1;
            rb[l] = gb_gf_mul(rb[l], mu);
            v[l] = gb_gf_mul(v[l], mu);
        }
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

int main(void)
{
    const struct CMUnitTest tests[] = {cmocka_unit_test(test_walk)};
    return cmocka_run_group_tests(tests, NULL, NULL);
}
