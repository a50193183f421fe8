/* layernorm.cu - layer normalisation of the rows of a rows x cols matrix of
 * halves into floats, with float scale and shift per column:
 *   out[r][c] = (in[r][c] - mean_r) / sqrt(var_r + eps) * gamma[c] + beta[c].
 *
 * Compiled with -Dblock_size_x=BX -Dblock_size_y=BY -Dvec=V -Drows=R -Dcols=C.
 * A block of BX x BY threads normalises BY rows, BX threads (whole warps)
 * per row, each loading V halves at a time (V = 2: one __half2, 4 bytes;
 * V = 8: one uint4, 16 bytes). Two reductions per row (the mean, then the
 * sum of squared deviations, so the variance never cancels), each by warp
 * shuffles and, with more than one warp per row, through shared memory;
 * then one elementwise pass. The row is read three times: the second and
 * third reads come from the caches when they hold it. */
#include <cuda_fp16.h>

#define WARPS_X ((block_size_x + 31) / 32)

#if vec == 8
typedef uint4 chunk_t;
#elif vec == 2
typedef unsigned int chunk_t;
#else
#error "vec must be 2 or 8"
#endif

/* The reference: one thread per row, three plain passes, sums in double. */
extern "C" __global__ void layernorm_reference(float *out, const __half *in, const float *gamma,
                                               const float *beta, int nrows, int ncols, float eps)
{
    const int row = blockIdx.x * blockDim.x + threadIdx.x;
    if (row >= nrows)
        return;
    const __half *x = in + (long)row * ncols;
    double s = 0.0;
    for (int c = 0; c < ncols; c++)
        s += (double)__half2float(x[c]);
    const double mean = s / ncols;
    double q = 0.0;
    for (int c = 0; c < ncols; c++) {
        const double d = (double)__half2float(x[c]) - mean;
        q += d * d;
    }
    const double rstd = 1.0 / sqrt(q / ncols + (double)eps);
    float *y = out + (long)row * ncols;
    for (int c = 0; c < ncols; c++)
        y[c] = (float)(((double)__half2float(x[c]) - mean) * rstd * gamma[c] + beta[c]);
}

/* The sum of v over the BX threads of row ty; every thread of the row gets it.
 * Every thread of the block calls it (it may meet at barriers). */
__device__ __forceinline__ float row_sum(float v, float (*part)[WARPS_X], int tx, int ty)
{
#pragma unroll
    for (int d = 16; d > 0; d >>= 1)
        v += __shfl_xor_sync(0xffffffffu, v, d);
    if (WARPS_X > 1) {
        if ((tx & 31) == 0)
            part[ty][tx >> 5] = v;
        __syncthreads();
        v = 0.0f;
#pragma unroll
        for (int w = 0; w < WARPS_X; w++)
            v += part[ty][w];
        __syncthreads(); /* part is written again by the next reduction */
    }
    return v;
}

/* The vec halves at x[c], as floats. */
__device__ __forceinline__ void load_chunk(const __half *x, int c, float *f)
{
    const chunk_t u = *(const chunk_t *)(x + c);
    const __half2 *h = reinterpret_cast<const __half2 *>(&u);
#pragma unroll
    for (int k = 0; k < vec / 2; k++) {
        const float2 p = __half22float2(h[k]);
        f[2 * k] = p.x;
        f[2 * k + 1] = p.y;
    }
}

extern "C" __global__ void __launch_bounds__(block_size_x * block_size_y)
    layernorm_rows(float *out, const __half *__restrict__ in, const float *__restrict__ gamma,
                   const float *__restrict__ beta, int nrows, int ncols, float eps)
{
    __shared__ float part[block_size_y][WARPS_X];
    const int tx = threadIdx.x, ty = threadIdx.y;
    const int row = blockIdx.x * block_size_y + ty;
    const bool valid = row < nrows; /* no early return: the block meets at barriers */
    const __half *x = in + (long)row * ncols;
    float f[vec];

    float s = 0.0f;
    if (valid)
        for (int c = tx * vec; c < ncols; c += block_size_x * vec) {
            load_chunk(x, c, f);
#pragma unroll
            for (int k = 0; k < vec; k++)
                s += f[k];
        }
    const float mean = row_sum(s, part, tx, ty) / ncols;

    float q = 0.0f;
    if (valid)
        for (int c = tx * vec; c < ncols; c += block_size_x * vec) {
            load_chunk(x, c, f);
#pragma unroll
            for (int k = 0; k < vec; k++)
                q = fmaf(f[k] - mean, f[k] - mean, q);
        }
    const float rstd = rsqrtf(row_sum(q, part, tx, ty) / ncols + eps);

    if (!valid)
        return;
    float *y = out + (long)row * ncols;
    for (int c = tx * vec; c < ncols; c += block_size_x * vec) {
        load_chunk(x, c, f);
#pragma unroll
        for (int k = 0; k < vec; k += 2) {
            float2 o;
            o.x = fmaf((f[k] - mean) * rstd, gamma[c + k], beta[c + k]);
            o.y = fmaf((f[k + 1] - mean) * rstd, gamma[c + k + 1], beta[c + k + 1]);
            *(float2 *)(y + c + k) = o;
        }
    }
}
