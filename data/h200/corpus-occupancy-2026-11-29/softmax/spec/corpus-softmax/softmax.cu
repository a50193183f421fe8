/* softmax.cu - row softmax of a rows x cols float matrix (row-major):
 * out[r][c] = exp(in[r][c] - max_r) / sum_c' exp(in[r][c'] - max_r).
 *
 * Compiled with -Dblock_size_x=BX -Dblock_size_y=BY -Drows=R -Dcols=C. A
 * block of BX x BY threads handles BY rows, BX threads (whole warps) per
 * row. Pass 1 reads the row once and keeps a running (max, sum) per thread
 * (the online softmax: the sum is rescaled when the max grows); the pairs
 * are merged across the warp with shuffles and across the row's warps
 * through shared memory. Pass 2 reads the row again (from the caches when it
 * fits) and writes the normalised exponentials. */

/* -infinity: the max of no values. */
#define NEG_INF __int_as_float(0xff800000)

/* The reference: one thread per row, three plain passes in double. */
extern "C" __global__ void softmax_reference(float *out, const float *in, int nrows, int ncols)
{
    const int row = blockIdx.x * blockDim.x + threadIdx.x;
    if (row >= nrows)
        return;
    const float *x = in + (long)row * ncols;
    float *y = out + (long)row * ncols;
    double m = (double)x[0];
    for (int c = 1; c < ncols; c++)
        m = fmax(m, (double)x[c]);
    double s = 0.0;
    for (int c = 0; c < ncols; c++)
        s += exp((double)x[c] - m);
    for (int c = 0; c < ncols; c++)
        y[c] = (float)(exp((double)x[c] - m) / s);
}

/* Merges (m2, s2) into (m, s): both are sums of exp(x - m) over disjoint
 * parts of a row; an empty part has m = -inf and s = 0. */
__device__ __forceinline__ void merge(float &m, float &s, float m2, float s2)
{
    if (m2 == NEG_INF)
        return;
    if (m == NEG_INF) {
        m = m2;
        s = s2;
        return;
    }
    const float mm = fmaxf(m, m2);
    s = s * expf(m - mm) + s2 * expf(m2 - mm);
    m = mm;
}

#define WARPS_X ((block_size_x + 31) / 32)

extern "C" __global__ void __launch_bounds__(block_size_x * block_size_y)
    softmax_rows(float *out, const float *in, int nrows, int ncols)
{
    __shared__ float part_m[block_size_y][WARPS_X], part_s[block_size_y][WARPS_X];
    const int tx = threadIdx.x, ty = threadIdx.y;
    const int row = blockIdx.x * block_size_y + ty;
    const bool valid = row < nrows; /* no early return: the block meets at a barrier */
    const float *x = in + (long)row * ncols;
    float m = NEG_INF, s = 0.0f;
    if (valid)
        for (int c = tx; c < ncols; c += block_size_x) {
            const float v = x[c];
            if (v > m) {
                s = s * expf(m - v) + 1.0f;
                m = v;
            } else {
                s += expf(v - m);
            }
        }
#pragma unroll
    for (int d = 16; d > 0; d >>= 1) {
        const float m2 = __shfl_xor_sync(0xffffffffu, m, d);
        const float s2 = __shfl_xor_sync(0xffffffffu, s, d);
        merge(m, s, m2, s2);
    }
    if (WARPS_X > 1) {
        if ((tx & 31) == 0) {
            part_m[ty][tx >> 5] = m;
            part_s[ty][tx >> 5] = s;
        }
        __syncthreads();
        m = part_m[ty][0];
        s = part_s[ty][0];
#pragma unroll
        for (int w = 1; w < WARPS_X; w++)
            merge(m, s, part_m[ty][w], part_s[ty][w]);
    }
    if (valid) {
        const float inv = 1.0f / s;
        float *y = out + (long)row * ncols;
        for (int c = tx; c < ncols; c += block_size_x)
            y[c] = expf(x[c] - m) * inv;
    }
}
