/* chunkdot.cu - chunked dot products: the dot product of each chunk of
 * CHUNK (2048) floats of x with the same chunk of y (the per-block scores
 * of a blockwise similarity, or the partial dot products of a long vector
 * before their last sum),
 *     out[c] = sum over j < CHUNK of x[c CHUNK + j] y[c CHUNK + j]
 * x and y hold count chunks (8 KiB each), out count floats.
 *
 * The grid is fixed by the launch, not by count: bpsm blocks of
 * block_size_x threads per SM (the spec launches 132 bpsm blocks), and the
 * blocks walk the chunks by a grid-stride loop, block b taking chunks b, b
 * + grid, b + 2 grid, ... Each chunk is reduced by the whole block: a step
 * of a thread loads ept floats of x and ept of y, a block-width apart, and
 * adds their products into ept partial sums (2 ept independent loads in
 * flight; the step loop is not unrolled further, CHUNK / (ept
 * block_size_x) steps: 16 down to 1); the partial sums are added in order,
 * a warp's sums by five xor shuffles, the warps' sums through shared
 * memory and a barrier, and warp 0 adds those by five more shuffles; its
 * lane 0 stores the chunk's dot product. A barrier ends each chunk before
 * the shared sums are written again.
 *
 * Compiled with -Dblock_size_x=T -Dbpsm=B -Dept=E -Dnchunk=N. */

#define CHUNK 2048 /* floats per chunk */

#if ept != 1 && ept != 2 && ept != 4 && ept != 8
#error "ept is 1, 2, 4 or 8"
#endif
#if block_size_x % 32 != 0 || block_size_x > 1024
#error "block_size_x is a multiple of 32, at most 1024"
#endif
#if CHUNK % (ept * block_size_x) != 0
#error "ept x block_size_x divides CHUNK"
#endif

/* The reference: a chunk per thread, its products added one after the
 * other in double. */
extern "C" __global__ void chunkdot_reference(float *out, const float *x, const float *y, int count)
{
    const long long c = (long long)blockIdx.x * blockDim.x + threadIdx.x;
    if (c >= count)
        return;
    double sum = 0.0;
    for (long long j = c * 2048; j < (c + 1) * 2048; j++)
        sum += (double)x[j] * (double)y[j];
    out[c] = (float)sum;
}

extern "C" __global__ void __launch_bounds__(block_size_x)
    chunkdot(float *__restrict__ out, const float *__restrict__ x, const float *__restrict__ y, int count)
{
    __shared__ float wsum[block_size_x / 32];
    const int lane = threadIdx.x % 32, warp = threadIdx.x / 32;
    for (long c = blockIdx.x; c < count; c += gridDim.x) {
        const float *cx = x + c * CHUNK, *cy = y + c * CHUNK;
        float part[ept];
#pragma unroll
        for (int k = 0; k < ept; k++)
            part[k] = 0.0f;
#pragma unroll 1
        for (int j = threadIdx.x; j < CHUNK; j += ept * block_size_x) {
            float a[ept], b[ept];
#pragma unroll
            for (int k = 0; k < ept; k++) {
                a[k] = __ldg(cx + j + k * block_size_x);
                b[k] = __ldg(cy + j + k * block_size_x);
            }
#pragma unroll
            for (int k = 0; k < ept; k++)
                part[k] = fmaf(a[k], b[k], part[k]);
        }
        float s = part[0];
#pragma unroll
        for (int k = 1; k < ept; k++)
            s += part[k];
#pragma unroll
        for (int o = 16; o > 0; o /= 2)
            s += __shfl_xor_sync(0xffffffffu, s, o);
        if (lane == 0)
            wsum[warp] = s;
        __syncthreads();
        if (warp == 0) {
            float t = lane < block_size_x / 32 ? wsum[lane] : 0.0f;
#pragma unroll
            for (int o = 16; o > 0; o /= 2)
                t += __shfl_xor_sync(0xffffffffu, t, o);
            if (lane == 0)
                out[c] = t;
        }
        __syncthreads();
    }
}
