/* ellspmv.cu - sparse matrix-vector product y = A x with A stored in
 * ELLPACK-R form: every row has WIDTH (32) slots, stored slot-major
 * (slot k of row r at k * count + r, so that consecutive rows' slot k are
 * consecutive in memory), a column index and a value each, and a length
 * len[r] (1 to 32, ragged) saying how many of its slots hold entries; the
 * slots past it are padding that is never read. x has XLEN (1 Mi) floats
 * and the columns are random over it, so the x reads are gathers from the
 * L2.
 *
 * tpr consecutive lanes of a warp share a row (a block of block_size_x
 * threads takes block_size_x / tpr consecutive rows); lane s of a row's
 * group takes its slots s, s + tpr, s + 2 tpr, ... below len[r], ilp of
 * them per step: their column indices and values loaded first, then their
 * x elements, then the fmas in slot order into one accumulator. The
 * group's sums are added by log2(tpr) __shfl_xor_sync steps and its first
 * lane writes y[r]. A warp runs as long as the longest row among its
 * 32 / tpr rows; lanes whose row is shorter wait.
 *   tpr 1: a warp's slot load covers 32 consecutive rows (128 bytes);
 *   tpr 4: 8 rows, 4 slots each, four 32-byte pieces count * 4 bytes apart.
 *
 * Compiled with -Dblock_size_x=B -Dtpr=T -Dilp=I -Dnrows=R. */

#define WIDTH 32     /* slots per row */
#define XLEN 1048576 /* columns of A, elements of x */

#if tpr != 1 && tpr != 2 && tpr != 4
#error "tpr is 1, 2 or 4"
#endif
#if ilp != 1 && ilp != 4
#error "ilp is 1 or 4"
#endif

/* The reference: a row per thread, its slots in order. */
extern "C" __global__ void ellspmv_reference(float *y, const float *val, const int *col, const int *len, const float *x,
                                             int count)
{
    const long r = (long)blockIdx.x * blockDim.x + threadIdx.x;
    if (r >= count)
        return;
    const int L = len[r];
    float acc = 0.0f;
    for (int k = 0; k < L; k++)
        acc = fmaf(val[(long)k * count + r], x[col[(long)k * count + r]], acc);
    y[r] = acc;
}

extern "C" __global__ void __launch_bounds__(block_size_x)
    ellspmv(float *__restrict__ y, const float *__restrict__ val, const int *__restrict__ col,
            const int *__restrict__ len, const float *__restrict__ x, int count)
{
    const int t = threadIdx.x;
    const int s = t % tpr;                                              /* lane within the row's group */
    const long r = (long)blockIdx.x * (block_size_x / tpr) + t / tpr; /* the group's row */
    float acc = 0.0f;
    if (r < count) {
        const int L = len[r];
        for (int k0 = s; k0 < L; k0 += tpr * ilp) {
            int c[ilp];
            float v[ilp], xv[ilp];
#pragma unroll
            for (int u = 0; u < ilp; u++) {
                const int k = k0 + u * tpr;
                const long e = (long)k * count + r;
                c[u] = k < L ? col[e] : 0;
                v[u] = k < L ? val[e] : 0.0f;
            }
#pragma unroll
            for (int u = 0; u < ilp; u++)
                xv[u] = k0 + u * tpr < L ? x[c[u]] : 0.0f;
#pragma unroll
            for (int u = 0; u < ilp; u++)
                if (k0 + u * tpr < L)
                    acc = fmaf(v[u], xv[u], acc);
        }
    }
    /* every lane of the warp takes part (block_size_x is a multiple of 32);
     * a group's lanes have the same row, in range or not */
#pragma unroll
    for (int o = tpr / 2; o > 0; o >>= 1)
        acc += __shfl_xor_sync(0xffffffffu, acc, o);
    if (s == 0 && r < count)
        y[r] = acc;
}
