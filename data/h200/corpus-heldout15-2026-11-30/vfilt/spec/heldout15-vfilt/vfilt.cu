/* vfilt.cu - a vertical (column-direction) 7-tap filter of a float image,
 * the second pass of a separable filter (a Gaussian blur, a derivative of
 * one), rows clamped at the top and the bottom (the edge rows repeated):
 *     out[y][x] = sum_k taps[k] img[clamp(y + k - 3)][x],   k = 0 .. 6
 * The image is nrows rows of NCOL = 4096 floats, row-major; out is another
 * image of the same shape; taps holds the 7 weights.
 *
 * The grid is NCOL / (block_size_x x vec) blocks across by ceil(nrows /
 * rps) strips of rps rows down. Thread t of block (bx, by) owns the vec
 * adjacent columns starting at (bx block_size_x + t) vec (a float or a
 * float2) in the rows by rps .. by rps + rps - 1. It loads the window's
 * first 6 rows (the 3 above its first output, that row and the 2 below,
 * clamped) into registers, then walks down its strip BATCH = 8 rows at a
 * time: it loads the 8 rows 3 to 10 below the batch's first output
 * (clamped) together, then for each of the batch's output rows filters
 * the window of 7 and slides the window by one. Every input row of the
 * strip and its 3-row halo either side is loaded once by the thread:
 * rps + 6 loads for rps outputs where rps is a multiple of 8, as in the
 * sweep (otherwise, or where the image's last row cuts a strip short, the
 * last batch loads up to 7 clamped rows more and stores nothing past the
 * strip). Consecutive threads take consecutive chunks of a row.
 *
 * vfilt_7() is the function the kernel and the reference both call on the
 * same values, explicitly rounded intrinsics (one multiplication, six
 * fmas in the same order), so the two agree to the bit.
 *
 * Compiled with -Dblock_size_x=B -Drps=R -Dvec=V -Drows=N. */

#define NCOL 4096 /* floats per row */
#define BATCH 8   /* rows loaded together, ahead of their outputs */

#if vec != 1 && vec != 2
#error "vec is 1 or 2"
#endif
#if rps < 1
#error "rps is at least 1"
#endif
#if NCOL % (block_size_x * vec) != 0
#error "block_size_x x vec divides 4096"
#endif

__device__ __forceinline__ float vfilt_7(const float *t, float v0, float v1, float v2, float v3, float v4, float v5,
                                         float v6)
{
    float s = __fmul_rn(t[0], v0);
    s = __fmaf_rn(t[1], v1, s);
    s = __fmaf_rn(t[2], v2, s);
    s = __fmaf_rn(t[3], v3, s);
    s = __fmaf_rn(t[4], v4, s);
    s = __fmaf_rn(t[5], v5, s);
    return __fmaf_rn(t[6], v6, s);
}

/* The reference: one output per thread, its 7 rows loaded (clamped). */
extern "C" __global__ void vfilt_reference(float *out, const float *img, const float *taps, int nrows)
{
    const long i = (long)blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= (long)nrows * NCOL)
        return;
    const int y = (int)(i / NCOL), x = (int)(i % NCOL);
    float t[7], v[7];
    for (int k = 0; k < 7; k++) {
        t[k] = taps[k];
        v[k] = img[(long)min(max(y + k - 3, 0), nrows - 1) * NCOL + x];
    }
    out[i] = vfilt_7(t, v[0], v[1], v[2], v[3], v[4], v[5], v[6]);
}

#if vec == 2
typedef float2 chunk_t;
__device__ __forceinline__ float2 vfilt_chunk(const float *t, const float2 v0, const float2 v1, const float2 v2,
                                              const float2 v3, const float2 v4, const float2 v5, const float2 v6)
{
    return make_float2(vfilt_7(t, v0.x, v1.x, v2.x, v3.x, v4.x, v5.x, v6.x),
                       vfilt_7(t, v0.y, v1.y, v2.y, v3.y, v4.y, v5.y, v6.y));
}
#else
typedef float chunk_t;
__device__ __forceinline__ float vfilt_chunk(const float *t, const float v0, const float v1, const float v2,
                                             const float v3, const float v4, const float v5, const float v6)
{
    return vfilt_7(t, v0, v1, v2, v3, v4, v5, v6);
}
#endif

extern "C" __global__ void __launch_bounds__(block_size_x)
    vfilt(float *__restrict__ out, const float *__restrict__ img, const float *__restrict__ taps, int nrows)
{
    const int cc = blockIdx.x * block_size_x + threadIdx.x; /* the thread's column, in chunks */
    const int y0 = blockIdx.y * rps;
    const int y1 = min(y0 + rps, nrows);
    const int pitch = NCOL / vec; /* chunks per row */
    const chunk_t *src = reinterpret_cast<const chunk_t *>(img) + cc;
    chunk_t *dst = reinterpret_cast<chunk_t *>(out) + cc;
    float t[7];
#pragma unroll
    for (int k = 0; k < 7; k++)
        t[k] = __ldg(taps + k);
    /* the window: rows y - 3 .. y + 3 of the output row y, clamped */
    chunk_t w0 = __ldg(src + (long)max(y0 - 3, 0) * pitch);
    chunk_t w1 = __ldg(src + (long)max(y0 - 2, 0) * pitch);
    chunk_t w2 = __ldg(src + (long)max(y0 - 1, 0) * pitch);
    chunk_t w3 = __ldg(src + (long)min(y0, nrows - 1) * pitch);
    chunk_t w4 = __ldg(src + (long)min(y0 + 1, nrows - 1) * pitch);
    chunk_t w5 = __ldg(src + (long)min(y0 + 2, nrows - 1) * pitch);
    for (int y = y0; y < y1; y += BATCH) {
        chunk_t nx[BATCH]; /* rows y + 3 .. y + 3 + BATCH - 1, clamped: all loaded before the first output */
#pragma unroll
        for (int k = 0; k < BATCH; k++)
            nx[k] = __ldg(src + (long)min(y + 3 + k, nrows - 1) * pitch);
#pragma unroll
        for (int k = 0; k < BATCH; k++) {
            if (y + k < y1)
                dst[(long)(y + k) * pitch] = vfilt_chunk(t, w0, w1, w2, w3, w4, w5, nx[k]);
            w0 = w1;
            w1 = w2;
            w2 = w3;
            w3 = w4;
            w4 = w5;
            w5 = nx[k];
        }
    }
}
