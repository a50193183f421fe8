/* editdist.cu - the edit (Levenshtein) distance of pairs of short strings
 * (a read mapper checking a read against a candidate window of the
 * reference): for each pair p,
 *     dist[p] = the fewest insertions, deletions and substitutions of
 *               single bases that turn a[p] into b[p]
 * a and b hold count records of RLEN (32) bytes, base codes 1 to 4 (A, C,
 * G, T), record p at byte 32 p, base j of a record at byte j (the low byte
 * of each little-endian word is the first of its 4 bases).
 *
 * A thread takes ppt pairs a block apart (p, p + block_size_x, ...), each
 * record read by two uint4 loads (consecutive threads' records 32 bytes
 * apart: a warp's two loads of a record array 1 KiB contiguous), the next
 * pair's four loads issued before the distance of the current one. Both
 * methods first make, for each base code, a 32-bit mask of where it occurs
 * in a (bit j for base j), and take the bases of b four at a time from a
 * queue of its 8 words (a loop of 8 steps, not unrolled; the 4 bases of a
 * word unrolled). The distance (method):
 *   0: the dynamic programme (Wagner-Fischer), a row of D at a time, the
 *      row of 33 entries in registers: D[i][0] = i, D[0][j] = j and
 *      D[i][j] = min(D[i-1][j-1] + (a_j != b_i), D[i-1][j] + 1,
 *      D[i][j-1] + 1), the mismatch a bit of the complement of b_i's mask;
 *      32 x 32 cells;
 *   1: the bit-vector algorithm of Myers (1999) in Hyyro's form for whole
 *      strings: per base of b one step of 32-bit word operations on b_i's
 *      mask updates the vertical differences of a whole column of D (Pv,
 *      Mv), the score D[32][i] following the last row by the horizontal
 *      differences (Ph, Mh).
 * The reference runs the textbook programme and shares nothing with
 * either.
 *
 * Compiled with -Dblock_size_x=T -Dmethod=M -Dppt=P -Dnpairs=N. */

#define RLEN 32 /* bases of a record: 32 bytes, two uint4 */

#if method != 0 && method != 1
#error "method is 0 or 1"
#endif
#if ppt < 1
#error "ppt is at least 1"
#endif

/* The reference: one pair per thread, the textbook programme over a row
 * in local memory, the bases read a byte at a time. */
extern "C" __global__ void editdist_reference(int *dist, const unsigned char *a, const unsigned char *b, int count)
{
    const long p = (long)blockIdx.x * blockDim.x + threadIdx.x;
    if (p >= count)
        return;
    const unsigned char *s = a + p * RLEN, *t = b + p * RLEN;
    int row[RLEN + 1];
    for (int j = 0; j <= RLEN; j++)
        row[j] = j;
    for (int i = 1; i <= RLEN; i++) {
        int diag = row[0];
        row[0] = i;
        for (int j = 1; j <= RLEN; j++) {
            const int up = row[j];
            row[j] = min(min(diag + (s[j - 1] != t[i - 1] ? 1 : 0), up + 1), row[j - 1] + 1);
            diag = up;
        }
    }
    dist[p] = row[RLEN];
}

/* Where each base code occurs in a: bit j of m_c set where base j (byte
 * j % 4 of word j / 4) is c. */
struct peq_t {
    unsigned int m1, m2, m3, m4;
};

__device__ __forceinline__ peq_t peq_masks(uint4 lo, uint4 hi)
{
    const unsigned int w[8] = {lo.x, lo.y, lo.z, lo.w, hi.x, hi.y, hi.z, hi.w};
    peq_t e = {0u, 0u, 0u, 0u};
#pragma unroll
    for (int j = 0; j < RLEN; j++) {
        const unsigned int c = (w[j >> 2] >> (8 * (j & 3))) & 0xffu;
        e.m1 |= (unsigned int)(c == 1u) << j;
        e.m2 |= (unsigned int)(c == 2u) << j;
        e.m3 |= (unsigned int)(c == 3u) << j;
        e.m4 |= (unsigned int)(c == 4u) << j;
    }
    return e;
}

/* The positions of a that match the base code c. */
__device__ __forceinline__ unsigned int peq_of(const peq_t &e, unsigned int c)
{
    return c == 1u ? e.m1 : c == 2u ? e.m2 : c == 3u ? e.m3 : e.m4;
}

#if method == 0
/* The last entry of D. */
__device__ __forceinline__ int distance(const peq_t &e, uint4 blo, uint4 bhi)
{
    int row[RLEN + 1];
#pragma unroll
    for (int j = 0; j <= RLEN; j++)
        row[j] = j;
    unsigned int q[8] = {blo.x, blo.y, blo.z, blo.w, bhi.x, bhi.y, bhi.z, bhi.w};
#pragma unroll 1
    for (int i = 1; i <= RLEN; i += 4) {
        const unsigned int wb = q[0]; /* the next 4 bases of b; the queue moves down a word */
#pragma unroll
        for (int h = 0; h < 7; h++)
            q[h] = q[h + 1];
#pragma unroll
        for (int r = 0; r < 4; r++) {
            const unsigned int ne = ~peq_of(e, (wb >> (8 * r)) & 0xffu); /* bit j - 1: a_j != b_i */
            int diag = row[0];
            row[0] = i + r;
#pragma unroll
            for (int j = 1; j <= RLEN; j++) {
                const int up = row[j];
                row[j] = min(min(diag + (int)((ne >> (j - 1)) & 1u), up + 1), row[j - 1] + 1);
                diag = up;
            }
        }
    }
    return row[RLEN];
}
#else
/* The score D[32][32]. */
__device__ __forceinline__ int distance(const peq_t &e, uint4 blo, uint4 bhi)
{
    unsigned int pv = 0xffffffffu, mv = 0u; /* column 0: D[j][0] = j, every step +1 */
    int score = RLEN;                       /* D[32][0] */
    unsigned int q[8] = {blo.x, blo.y, blo.z, blo.w, bhi.x, bhi.y, bhi.z, bhi.w};
#pragma unroll 1
    for (int i = 0; i < RLEN; i += 4) {
        const unsigned int wb = q[0]; /* the next 4 bases of b; the queue moves down a word */
#pragma unroll
        for (int h = 0; h < 7; h++)
            q[h] = q[h + 1];
#pragma unroll
        for (int r = 0; r < 4; r++) {
            const unsigned int eq = peq_of(e, (wb >> (8 * r)) & 0xffu);
            const unsigned int xv = eq | mv;
            const unsigned int xh = (((eq & pv) + pv) ^ pv) | eq;
            unsigned int ph = mv | ~(xh | pv);
            unsigned int mh = pv & xh;
            score += (int)(ph >> (RLEN - 1)) - (int)(mh >> (RLEN - 1));
            ph = (ph << 1) | 1u; /* row 0: D[0][i] = i, every step +1 */
            mh <<= 1;
            pv = mh | ~(xv | ph);
            mv = ph & xv;
        }
    }
    return score;
}
#endif

extern "C" __global__ void __launch_bounds__(block_size_x)
    editdist(int *__restrict__ dist, const unsigned char *__restrict__ a, const unsigned char *__restrict__ b,
             int count)
{
    const long p0 = (long)blockIdx.x * block_size_x * ppt + threadIdx.x;
    const uint4 *sa = reinterpret_cast<const uint4 *>(a);
    const uint4 *sb = reinterpret_cast<const uint4 *>(b);
    uint4 na[2], nb[2]; /* the next pair's records */
    {
        const long q = p0 < count ? p0 : 0; /* a pair past the end reads pair 0 and stores nothing */
        na[0] = __ldg(sa + 2 * q);
        na[1] = __ldg(sa + 2 * q + 1);
        nb[0] = __ldg(sb + 2 * q);
        nb[1] = __ldg(sb + 2 * q + 1);
    }
#pragma unroll
    for (int k = 0; k < ppt; k++) {
        const long p = p0 + (long)k * block_size_x;
        const uint4 a0 = na[0], a1 = na[1], b0 = nb[0], b1 = nb[1];
        if (k + 1 < ppt) { /* the next pair's loads issued before this pair's distance */
            const long pn = p + block_size_x, q = pn < count ? pn : 0;
            na[0] = __ldg(sa + 2 * q);
            na[1] = __ldg(sa + 2 * q + 1);
            nb[0] = __ldg(sb + 2 * q);
            nb[1] = __ldg(sb + 2 * q + 1);
        }
        const int d = distance(peq_masks(a0, a1), b0, b1);
        if (p < count)
            dist[p] = d;
    }
}
