/* atoi16.cu - fixed-width decimal fields parsed into integers (a column of
 * a text table or a log, read as numbers): record r is FDIG (16) ASCII
 * digits '0' to '9', the most significant first, and
 *     val[r] = the unsigned 64-bit value they spell (at most 10^16 - 1).
 * The digits are count x 16 bytes, record r at byte 16 r.
 *
 * A thread takes rpt records a block apart (r, r + block_size_x, ...),
 * each read by one uint4 load of its 16 bytes (consecutive threads'
 * records 16 bytes apart: a warp's load 512 contiguous bytes), all rpt
 * loads issued before the parsing. The parse (method):
 *   0: a digit at a time, v = 10 v + (byte - '0'), 16 dependent steps;
 *   1: four digits at a time in a 32-bit word (SWAR): the word less
 *      0x30303030, then w = 10 w + (w >> 8) makes byte 0 and byte 2 the
 *      two 2-digit pairs, and ((w & 0x00FF00FF) (100 << 16 | 1)) >> 16
 *      the 4-digit value; the 4 values combined by v = 10^4 v + q;
 *   2: eight digits at a time in a 64-bit word (SWAR, as simdjson and
 *      fast_float parse eight digits): the word less 0x3030303030303030,
 *      w = 10 w + (w >> 8), then the pairs combined by two 64-bit
 *      multiplies into the 8-digit value; val = 10^8 hi + lo.
 *
 * Compiled with -Dblock_size_x=T -Dmethod=M -Drpt=P -Dnrec=N. */

#define FDIG 16 /* digits of a record: 16 bytes, one uint4 */

#if method != 0 && method != 1 && method != 2
#error "method is 0, 1 or 2"
#endif
#if rpt != 1 && rpt != 2
#error "rpt is 1 or 2"
#endif

/* The reference: one record per thread, a byte at a time. */
extern "C" __global__ void atoi16_reference(unsigned long long *val, const unsigned char *digits, int count)
{
    const long r = (long)blockIdx.x * blockDim.x + threadIdx.x;
    if (r >= count)
        return;
    const unsigned char *p = digits + r * FDIG;
    unsigned long long v = 0;
    for (int i = 0; i < FDIG; i++)
        v = v * 10 + (unsigned long long)(p[i] - '0');
    val[r] = v;
}

#if method == 0
/* 4 digits of a word, low byte first (the most significant digit). */
__device__ __forceinline__ unsigned long long step_word(unsigned long long v, unsigned int w)
{
#pragma unroll
    for (int i = 0; i < 4; i++)
        v = v * 10 + ((w >> (8 * i)) & 0xffu) - '0';
    return v;
}
#elif method == 1
/* The value of the 4 digits of a word, its low byte the most significant. */
__device__ __forceinline__ unsigned int four_digits(unsigned int w)
{
    w -= 0x30303030u;
    w = w * 10u + (w >> 8);                        /* bytes 0, 2: 10 d0 + d1, 10 d2 + d3 */
    return ((w & 0x00FF00FFu) * ((100u << 16) | 1u)) >> 16 & 0xFFFFu;
}
#else
/* The value of the 8 digits of a 64-bit word, its low byte the most significant. */
__device__ __forceinline__ unsigned long long eight_digits(unsigned long long w)
{
    w -= 0x3030303030303030ull;
    w = w * 10u + (w >> 8);                        /* bytes 0, 2, 4, 6: the pairs */
    w = (((w & 0x000000FF000000FFull) * (100ull + (1000000ull << 32))) +
         (((w >> 16) & 0x000000FF000000FFull) * (1ull + (10000ull << 32)))) >> 32;
    return w & 0xFFFFFFFFull;
}
#endif

extern "C" __global__ void __launch_bounds__(block_size_x)
    atoi16(unsigned long long *__restrict__ val, const unsigned char *__restrict__ digits, int count)
{
    const long r0 = (long)blockIdx.x * block_size_x * rpt + threadIdx.x;
    const uint4 *src = reinterpret_cast<const uint4 *>(digits);
    uint4 d[rpt];
#pragma unroll
    for (int k = 0; k < rpt; k++) {
        const long r = r0 + (long)k * block_size_x;
        d[k] = r < count ? __ldg(src + r) : make_uint4(0x30303030u, 0x30303030u, 0x30303030u, 0x30303030u);
    }
#pragma unroll
    for (int k = 0; k < rpt; k++) {
        const long r = r0 + (long)k * block_size_x;
        unsigned long long v;
#if method == 0
        v = 0;
        v = step_word(v, d[k].x);
        v = step_word(v, d[k].y);
        v = step_word(v, d[k].z);
        v = step_word(v, d[k].w);
#elif method == 1
        v = four_digits(d[k].x);
        v = v * 10000u + four_digits(d[k].y);
        v = v * 10000u + four_digits(d[k].z);
        v = v * 10000u + four_digits(d[k].w);
#else
        const unsigned long long hi = eight_digits(((unsigned long long)d[k].y << 32) | d[k].x);
        const unsigned long long lo = eight_digits(((unsigned long long)d[k].w << 32) | d[k].z);
        v = hi * 100000000ull + lo;
#endif
        if (r < count)
            val[r] = v;
    }
}
