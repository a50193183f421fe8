/* compact.cu - keeps the entries of each row of a row-major rows x cols
 * float matrix whose magnitude is above a threshold, and writes them densely,
 * in column order, at the start of the row's slot of two output arrays (the
 * value and its column) with the row's count: a select-if per row, as in
 * magnitude pruning of a weight matrix or the conversion of a dense matrix
 * to a sparse one with a fixed slot per row. Row r's k-th kept entry goes to
 * val[r * cols + k] and col[r * cols + k], nnz[r] is the number kept; the
 * rest of the slot is left as it was. The output of a row depends on the row
 * alone, so it is the same whatever the launch's shape.
 *
 * A group of tpr threads takes a row: a warp (tpr 32) or the whole block
 * (tpr = block_size_x). The row is walked in passes of tpr * ipt entries;
 * in a pass, warp w of the group takes the 32 * ipt consecutive entries from
 * w * 32 * ipt, lane l the entries l, l + 32, ... of them (ipt loads in
 * flight, each coalesced). Each entry's keep flag is a warp ballot: a lane
 * writes its entry at the pass's offset plus the warp's offset plus the
 * warp's kept entries before it (those of its earlier loads and of the lower
 * lanes: population counts of the ballots), so a warp's stores are
 * consecutive. For a block per row, each warp's count for the pass goes to
 * shared memory (two slots per warp, used in turn, one barrier per pass);
 * every warp reads them, a count per lane, and adds by warp reductions
 * (__reduce_add_sync) those of the warps before its own (its offset in the
 * pass) and all of them (the pass's total).
 *
 * Compiled with -Dblock_size_x=B -Dtpr=T -Dipt=I -Drows=R -Dcols=C. */

/* The reference: a thread per row, scanned in order. */
extern "C" __global__ void compact_reference(float *val, int *col, int *nnz, const float *A, float thr, int nrows,
                                             int ncols)
{
    const int r = blockIdx.x * blockDim.x + threadIdx.x;
    if (r >= nrows)
        return;
    const float *a = A + (long)r * ncols;
    float *v = val + (long)r * ncols;
    int *cl = col + (long)r * ncols;
    int k = 0;
    for (int c = 0; c < ncols; c++)
        if (fabsf(a[c]) > thr) {
            v[k] = a[c];
            cl[k] = c;
            k++;
        }
    nnz[r] = k;
}

#define WPR (tpr / 32)                   /* warps per row */
#define ROWS_PER_BLOCK (block_size_x / tpr)
#define PASS (tpr * ipt)                 /* entries of a row per pass */

extern "C" __global__ void __launch_bounds__(block_size_x)
    compact(float *val, int *col, int *nnz, const float *__restrict__ A, float thr, int nrows, int ncols)
{
    const int lane = threadIdx.x % 32, warp = threadIdx.x / 32;
    const int wr = warp % WPR; /* the warp's place in its row's group */
    const long r = (long)blockIdx.x * ROWS_PER_BLOCK + warp / WPR;
#if WPR > 1
    /* A block per row: the grid is the rows, so every warp has a row. */
    __shared__ int wcount[2][WPR];
#else
    if (r >= nrows)
        return;
#endif
    const float *a = A + r * ncols;
    float *v = val + r * ncols;
    int *cl = col + r * ncols;
    const unsigned below = (1u << lane) - 1u; /* the lanes under this one */
    int base = 0;                             /* entries of the row kept so far */
    int pass = 0;
    for (int c0 = 0; c0 < ncols; c0 += PASS, pass++) {
        const int w0 = c0 + wr * 32 * ipt; /* the warp's first entry */
        float x[ipt];
        unsigned keep[ipt];
#pragma unroll
        for (int k = 0; k < ipt; k++) {
            const int c = w0 + k * 32 + lane;
            x[k] = c < ncols ? a[c] : 0.0f;
        }
        int mine = 0; /* the warp's kept entries in this pass */
#pragma unroll
        for (int k = 0; k < ipt; k++) {
            keep[k] = __ballot_sync(0xffffffffu, fabsf(x[k]) > thr);
            mine += __popc(keep[k]);
        }
        int off = base; /* where the warp's first kept entry goes */
#if WPR > 1
        if (lane == 0)
            wcount[pass & 1][wr] = mine;
        __syncthreads();
        /* Lane w holds warp w's count: the sum of those below this warp's
         * is its offset in the pass, the sum of all the pass's total. */
        const int n = lane < WPR ? wcount[pass & 1][lane] : 0;
        off += __reduce_add_sync(0xffffffffu, lane < wr ? n : 0);
        base += __reduce_add_sync(0xffffffffu, n);
#else
        base += mine;
#endif
#pragma unroll
        for (int k = 0; k < ipt; k++) {
            if (keep[k] & (1u << lane)) {
                const int p = off + __popc(keep[k] & below);
                v[p] = x[k];
                cl[p] = w0 + k * 32 + lane;
            }
            off += __popc(keep[k]);
        }
    }
    if (wr == 0 && lane == 0)
        nnz[r] = base;
}
