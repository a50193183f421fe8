/* rowscan.cu - the inclusive prefix sum (cumulative sum) of each row of a
 * row-major nrows x ncols float matrix: y[r][c] = x[r][0] + ... + x[r][c],
 * every row on its own (a segmented scan whose segments are the rows: the
 * cumsum along the last axis of a batch, a running total per sequence).
 * ncols is a multiple of 4, so every row starts 16-byte aligned.
 *
 * A row is taken by a group of TPR threads: a warp (rowblock 0: a block of
 * block_size_x threads takes block_size_x / 32 consecutive rows) or the whole
 * block (rowblock 1: a block per row). The group walks its row in chunks of
 * TPR x ipt columns; lane l of the group loads the ipt consecutive floats
 * l ipt to l ipt + ipt - 1 of the chunk (a float, a float2 or a float4) and
 * scans them in registers; the lanes' totals are scanned across the warp by
 * five __shfl_up_sync steps; with a block per row, each warp's total goes to
 * shared memory and, after a barrier, every thread adds the totals of the
 * warps before its own (the buffer alternates between two halves, so one
 * barrier per chunk is enough). The row's running total (carry) is added to
 * every output of the chunk and then grows by the chunk's total.
 *
 * Compiled with -Dblock_size_x=B -Drowblock=W -Dipt=I -Drows=M. */

#define FULL_MASK 0xffffffffu
#define NWARPS (block_size_x / 32)
#if rowblock == 1
#define TPR block_size_x
#elif rowblock == 0
#define TPR 32
#else
#error "rowblock is 0 or 1"
#endif
#define CHUNK (TPR * ipt)

/* The reference: a thread per row, a running sum in double in column order,
 * each prefix rounded to float once. */
extern "C" __global__ void rowscan_reference(float *y, const float *x, int nrows, int ncols)
{
    const int r = blockIdx.x * blockDim.x + threadIdx.x;
    if (r >= nrows)
        return;
    const float *xr = x + (long)r * ncols;
    float *yr = y + (long)r * ncols;
    double s = 0.0;
    for (int c = 0; c < ncols; c++) {
        s += (double)xr[c];
        yr[c] = (float)s;
    }
}

/* ipt consecutive floats from column j of a row (zeros beyond its end). */
__device__ __forceinline__ void rowscan_load(float (&v)[ipt], const float *xr, int j, int ncols)
{
    if (j >= ncols) {
#pragma unroll
        for (int k = 0; k < ipt; k++)
            v[k] = 0.0f;
        return;
    }
#if ipt == 4
    const float4 q = *reinterpret_cast<const float4 *>(xr + j);
    v[0] = q.x;
    v[1] = q.y;
    v[2] = q.z;
    v[3] = q.w;
#elif ipt == 2
    const float2 q = *reinterpret_cast<const float2 *>(xr + j);
    v[0] = q.x;
    v[1] = q.y;
#elif ipt == 1
    v[0] = xr[j];
#else
#error "ipt is 1, 2 or 4"
#endif
}

__device__ __forceinline__ void rowscan_store(float *yr, int j, int ncols, const float (&v)[ipt])
{
    if (j >= ncols)
        return;
#if ipt == 4
    *reinterpret_cast<float4 *>(yr + j) = make_float4(v[0], v[1], v[2], v[3]);
#elif ipt == 2
    *reinterpret_cast<float2 *>(yr + j) = make_float2(v[0], v[1]);
#else
    yr[j] = v[0];
#endif
}

extern "C" __global__ void __launch_bounds__(block_size_x)
    rowscan(float *__restrict__ y, const float *__restrict__ x, int nrows, int ncols)
{
    const int wl = threadIdx.x & 31; /* lane in the warp */
#if rowblock == 1
    __shared__ float wsum[2][NWARPS];
    const int warp = threadIdx.x >> 5;
    const long r = blockIdx.x;
    const int lane = threadIdx.x; /* lane in the row's group */
    int buf = 0;
#else
    const long r = (long)blockIdx.x * NWARPS + (threadIdx.x >> 5);
    const int lane = wl;
    if (r >= nrows) /* the whole warp: no barrier in this mode */
        return;
#endif
    const float *xr = x + r * ncols;
    float *yr = y + r * ncols;
    float carry = 0.0f;
    for (int c0 = 0; c0 < ncols; c0 += CHUNK) {
        const int j = c0 + lane * ipt;
        float v[ipt];
        rowscan_load(v, xr, j, ncols);
#pragma unroll
        for (int k = 1; k < ipt; k++)
            v[k] += v[k - 1];
        /* the warp's inclusive scan of the lanes' totals */
        float s = v[ipt - 1];
#pragma unroll
        for (int d = 1; d < 32; d *= 2) {
            const float o = __shfl_up_sync(FULL_MASK, s, d);
            if (wl >= d)
                s += o;
        }
        float excl = __shfl_up_sync(FULL_MASK, s, 1);
        if (wl == 0)
            excl = 0.0f;
#if rowblock == 1
        if (wl == 31)
            wsum[buf][warp] = s;
        __syncthreads();
        float wpre = 0.0f, tot = 0.0f;
#pragma unroll
        for (int w = 0; w < NWARPS; w++) {
            const float q = wsum[buf][w];
            if (w < warp)
                wpre += q;
            tot += q;
        }
        buf ^= 1;
        const float off = carry + (wpre + excl);
#else
        const float tot = __shfl_sync(FULL_MASK, s, 31);
        const float off = carry + excl;
#endif
#pragma unroll
        for (int k = 0; k < ipt; k++)
            v[k] += off;
        rowscan_store(yr, j, ncols, v);
        carry += tot;
    }
}
