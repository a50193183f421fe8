/* ceilings_ref.c - host references of the ceilings suite (ceilings_ref.h). */
#include "suites/ceilings_ref.h"

#include <stdlib.h>

unsigned gb_ck_half_bits(int bf16, int v)
{
    unsigned sign = v < 0 ? 0x8000u : 0u, m = (unsigned)abs(v);
    int e = 0;
    if (m == 0)
        return sign;
    while ((m >> e) > 1)
        e++;
    if (bf16)
        return sign | (unsigned)(127 + e) << 7 | ((m << 7 >> e) & 0x7fu);
    return sign | (unsigned)(15 + e) << 10 | ((m << 10 >> e) & 0x3ffu);
}

size_t gb_ck_wg_offset(int row, int k)
{
    return (size_t)(row / 8) * 256 + (size_t)(k / 8) * 128 + (size_t)(row % 8) * 16 + (size_t)(k % 8) * 2;
}

void gb_ck_wg_operands(unsigned seed, int *a, int *b)
{
    unsigned sa = seed % 5u, sb = (seed / 5u) % 5u;
    for (unsigned m = 0; m < GB_CK_WG_M; m++)
        for (unsigned k = 0; k < GB_CK_WG_K; k++)
            a[m * GB_CK_WG_K + k] = (int)((m * 3u + k * 7u + m / 8u + sa) % 5u) - 2;
    for (unsigned k = 0; k < GB_CK_WG_K; k++)
        for (unsigned n = 0; n < GB_CK_WG_N; n++)
            b[k * GB_CK_WG_N + n] = (int)((n * 2u + k * 3u + n / 16u + sb) % 5u) - 2;
}

void gb_ck_wg_image(int bf16, const int *a, const int *b, uint16_t *img)
{
    for (int m = 0; m < GB_CK_WG_M; m++)
        for (int k = 0; k < GB_CK_WG_K; k++)
            img[gb_ck_wg_offset(m, k) / 2] = (uint16_t)gb_ck_half_bits(bf16, a[m * GB_CK_WG_K + k]);
    for (int n = 0; n < GB_CK_WG_N; n++)
        for (int k = 0; k < GB_CK_WG_K; k++)
            img[(GB_CK_WG_A_BYTES + gb_ck_wg_offset(n, k)) / 2] =
                (uint16_t)gb_ck_half_bits(bf16, b[k * GB_CK_WG_N + n]);
}

long gb_ck_wg_product(const int *a, const int *b, long *c)
{
    long most = 0;
    for (int m = 0; m < GB_CK_WG_M; m++)
        for (int n = 0; n < GB_CK_WG_N; n++) {
            long s = 0;
            for (int k = 0; k < GB_CK_WG_K; k++)
                s += (long)a[m * GB_CK_WG_K + k] * b[k * GB_CK_WG_N + n];
            c[m * GB_CK_WG_N + n] = s;
            most = labs(s) > most ? labs(s) : most;
        }
    return most;
}

size_t gb_ck_wg_acc_index(int t, int r)
{
    unsigned w = (unsigned)t / 32u, l = (unsigned)t & 31u, u = (unsigned)r;
    unsigned row = 16u * w + l / 4u + 8u * ((u / 2u) & 1u);
    unsigned col = 8u * (u / 4u) + 2u * (l & 3u) + (u & 1u);
    return (size_t)row * GB_CK_WG_N + col;
}

uint64_t gb_ck_l2_read_expect(const uint64_t *chunk_sum, unsigned n_chunks, unsigned grid, long reads)
{
    uint64_t total = 0, round = 0;
    for (unsigned c = 0; c < n_chunks; c++)
        round += chunk_sum[c];
    for (unsigned blk = 0; blk < grid; blk++) {
        unsigned c = (unsigned)((unsigned long long)blk * n_chunks / grid);
        /* Whole rounds of the set, then the rest one chunk at a time. */
        total += round * (uint64_t)(reads / n_chunks);
        for (long r = 0; r < reads % n_chunks; r++, c = c + 1 == n_chunks ? 0 : c + 1)
            total += chunk_sum[c];
    }
    return total;
}
