/* csrrow.cu - the rows of a sparse matrix in CSR form (row_ptr, col, val)
 * against a dense vector, each row's sum scaled by a factor of its own:
 *     y[r] = row_scale[r] x sum_{row_ptr[r] <= k < row_ptr[r + 1]} val[k] x[col[k]]
 * (a sparse product followed by a diagonal scaling, as a Jacobi-scaled or
 * degree-normalized graph operator is applied). x has XLEN (4 Mi) floats,
 * 16 MiB, and the columns are random over it: the x reads are gathers
 * from the L2 that rarely share a sector. The kernel takes any row
 * lengths; the spec's matrices have 32 entries per row.
 *
 * tpr consecutive lanes of a warp form a group (tpr 1: a thread per row;
 * 32: a warp per row), and a group takes rpg adjacent rows: group g rows
 * rpg g to rpg g + rpg - 1, a block block_size_x / tpr x rpg rows. Lane s
 * of a group takes the entries s, s + tpr, s + 2 tpr, ... of each of its
 * rows, a step at a time for all of them (each row's column index and
 * value loaded first, then its x element gathered, then one fma per row
 * into the row's own accumulator), so that rpg gathers are in flight per
 * lane and step. The group's accumulators are added by log2(tpr)
 * __shfl_xor_sync steps and its first lane writes each row's y, the sum
 * times row_scale[r].
 *   tpr 1: a warp's entry load touches 32 rows, 128 or 256 bytes apart
 *          (a sector each, the row's next entries from L1);
 *   tpr 4, 8: 8 or 4 groups a warp, 16 or 32 bytes of a row per load;
 *   tpr 32: a row of 32 entries in one 128-byte load of col and of val.
 *
 * Compiled with -Dblock_size_x=B -Dtpr=T -Drpg=G -Dnrows=R. */

#define XLEN 4194304 /* columns of the matrix, elements of x */

#if tpr != 1 && tpr != 4 && tpr != 8 && tpr != 32
#error "tpr is 1, 4, 8 or 32"
#endif
#if rpg != 1 && rpg != 2
#error "rpg is 1 or 2"
#endif
#if block_size_x % 32 != 0
#error "block_size_x is a multiple of 32"
#endif

/* The reference: a row per thread, its products summed in double and
 * scaled in double, rounded to float once. */
extern "C" __global__ void csrrow_reference(float *y, const int *row_ptr, const int *col, const float *val,
                                            const float *x, const float *row_scale, int count)
{
    const long r = (long)blockIdx.x * blockDim.x + threadIdx.x;
    if (r >= count)
        return;
    double s = 0.0;
    for (int k = row_ptr[r]; k < row_ptr[r + 1]; k++)
        s += (double)val[k] * (double)x[col[k]];
    y[r] = (float)(s * (double)row_scale[r]);
}

extern "C" __global__ void __launch_bounds__(block_size_x)
    csrrow(float *__restrict__ y, const int *__restrict__ row_ptr, const int *__restrict__ col,
           const float *__restrict__ val, const float *__restrict__ x, const float *__restrict__ row_scale, int count)
{
    const int s = threadIdx.x % tpr;                                           /* lane within the group */
    const long r0 = ((long)blockIdx.x * (block_size_x / tpr) + threadIdx.x / tpr) * rpg; /* the group's first row */
    int beg[rpg], len[rpg];
    float acc[rpg];
    int lmax = 0;
#pragma unroll
    for (int q = 0; q < rpg; q++) {
        acc[q] = 0.0f;
        len[q] = 0;
        beg[q] = 0;
        if (r0 + q < count) {
            beg[q] = __ldg(row_ptr + r0 + q);
            len[q] = __ldg(row_ptr + r0 + q + 1) - beg[q];
        }
        lmax = max(lmax, len[q]);
    }
    for (int j = s; j < lmax; j += tpr) {
        int c[rpg];
        float v[rpg];
#pragma unroll
        for (int q = 0; q < rpg; q++) {
            if (j < len[q]) {
                c[q] = __ldg(col + beg[q] + j);
                v[q] = __ldg(val + beg[q] + j);
            }
        }
#pragma unroll
        for (int q = 0; q < rpg; q++) {
            if (j < len[q])
                acc[q] = fmaf(v[q], __ldg(x + c[q]), acc[q]);
        }
    }
    /* Every lane of the warp is here (no early return): full-mask shuffles,
     * each xor staying inside its aligned group of tpr lanes. */
#pragma unroll
    for (int q = 0; q < rpg; q++) {
#pragma unroll
        for (int o = tpr / 2; o > 0; o >>= 1)
            acc[q] += __shfl_xor_sync(0xffffffffu, acc[q], o);
    }
    if (s == 0) {
#pragma unroll
        for (int q = 0; q < rpg; q++) {
            if (r0 + q < count)
                y[r0 + q] = __fmul_rn(__ldg(row_scale + r0 + q), acc[q]);
        }
    }
}
