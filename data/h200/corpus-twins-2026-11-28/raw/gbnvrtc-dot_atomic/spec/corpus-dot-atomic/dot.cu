/* dot.cu - the dot product of two float vectors accumulated with atomics:
 * *out += sum_i x[i] * y[i] (out starts at 0).
 *
 * Compiled with -Dblock_size_x=B -Dgrid_blocks=G -Dper_warp=P -Dn=N. A
 * fixed grid of G blocks walks the vectors with a grid-stride loop (each
 * thread a float4 at a time, coalesced), each thread accumulating in a
 * register; warps reduce with shuffles. P = 1: every warp adds its sum to
 * *out with one atomicAdd (G B / 32 atomics on one address); P = 0: the
 * block first combines its warps' sums in shared memory and one thread adds
 * the block's (G atomics). G counts blocks for 132-SM GPUs (H100, H200):
 * 1, 2, 4, 8 and 32 blocks per SM. */

/* The reference: one block of 1024 threads; each sums a strided share in
 * double, thread 0 adds the shares in order and adds the total to *out. */
extern "C" __global__ void dot_reference(float *out, const float *x, const float *y, int count)
{
    __shared__ double share[1024];
    double s = 0.0;
    for (long i = threadIdx.x; i < count; i += blockDim.x)
        s += (double)x[i] * (double)y[i];
    share[threadIdx.x] = s;
    __syncthreads();
    if (threadIdx.x == 0) {
        double total = 0.0;
        for (int t = 0; t < (int)blockDim.x; t++)
            total += share[t];
        out[0] = (float)((double)out[0] + total);
    }
}

__device__ __forceinline__ float warp_sum(float v)
{
#pragma unroll
    for (int d = 16; d > 0; d >>= 1)
        v += __shfl_down_sync(0xffffffffu, v, d);
    return v;
}

extern "C" __global__ void __launch_bounds__(block_size_x)
    dot_atomic(float *out, const float *x, const float *y, int count)
{
    const long stride = (long)gridDim.x * block_size_x;
    const long nv = count / 4;
    const float4 *x4 = reinterpret_cast<const float4 *>(x);
    const float4 *y4 = reinterpret_cast<const float4 *>(y);
    float s = 0.0f;
    for (long i = (long)blockIdx.x * block_size_x + threadIdx.x; i < nv; i += stride) {
        const float4 a = x4[i], b = y4[i];
        s += a.x * b.x + a.y * b.y + a.z * b.z + a.w * b.w;
    }
    /* The last count % 4 elements, by the first threads of the grid. */
    const long tail = nv * 4 + (long)blockIdx.x * block_size_x + threadIdx.x;
    if (tail < count)
        s += x[tail] * y[tail];
    s = warp_sum(s);
    const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
#if per_warp
    if (lane == 0)
        atomicAdd(out, s);
#else
    __shared__ float warp_sums[block_size_x / 32];
    if (lane == 0)
        warp_sums[warp] = s;
    __syncthreads();
    if (threadIdx.x == 0) {
        float b = 0.0f;
#pragma unroll
        for (int w = 0; w < block_size_x / 32; w++)
            b += warp_sums[w];
        atomicAdd(out, b);
    }
#endif
}
