/* reduce.cu - the sum of n floats into one double, written as a tuner writes
 * it: the block size, the width of the loads, the loads per thread, the
 * unrolling of their loop and the last stage of the block's sum are -D
 * defines.
 *
 * -Dblock_size_x=B -Dvec=V -Ditems_per_thread=I -Dunroll_loads=U -Dwarp_shuffle=W.
 * Each thread reads I vectors of V floats (float, float2 or float4 loads),
 * the block's B consecutive vectors at a time so that every load of a warp
 * is coalesced, and adds them into a double; the loop over the I loads is
 * unrolled U times. The block then sums its B doubles, by warp shuffles and
 * one shared-memory step (W = 1) or by a shared-memory tree (W = 0), and one
 * thread adds the block's sum to the result with one atomicAdd of a double.
 * A block covers B V I floats: n is a multiple of it (the spec's
 * restriction), so there are no partial blocks and the grid is
 * n / (B V I).
 *
 * The sums are doubles so that the order of the additions, which the
 * atomics leave to the hardware, changes the result by rounding of doubles
 * only: see the spec's tolerance. */

/* The reference: one float per thread, the block's sum by a shared-memory
 * tree in double, one atomicAdd per block. blockDim.x is 256. */
extern "C" __global__ void reduce_naive(double *sum, const float *x, int count)
{
    __shared__ double s[256];
    const long i = (long)blockIdx.x * blockDim.x + threadIdx.x;
    s[threadIdx.x] = i < count ? (double)x[i] : 0.0;
    __syncthreads();
    for (int h = blockDim.x / 2; h > 0; h /= 2) {
        if (threadIdx.x < h)
            s[threadIdx.x] += s[threadIdx.x + h];
        __syncthreads();
    }
    if (threadIdx.x == 0)
        atomicAdd(sum, s[0]);
}

#if defined(block_size_x) && defined(vec) && defined(items_per_thread) && defined(unroll_loads) && defined(warp_shuffle)
#define RD_STR(x) #x
#define RD_UNROLL(u) _Pragma(RD_STR(unroll u))

__device__ __forceinline__ double rd_load(const float *x, long v)
{
#if vec == 4
    const float4 a = reinterpret_cast<const float4 *>(x)[v];
    return ((double)a.x + (double)a.y) + ((double)a.z + (double)a.w);
#elif vec == 2
    const float2 a = reinterpret_cast<const float2 *>(x)[v];
    return (double)a.x + (double)a.y;
#else
    return (double)x[v];
#endif
}

extern "C" __global__ void __launch_bounds__(block_size_x) reduce_tuned(double *sum, const float *x, int count)
{
    /* The block's first vector; vectors are V floats, aligned to V. */
    const long v0 = (long)blockIdx.x * block_size_x * items_per_thread + threadIdx.x;
    double acc = 0.0;
    RD_UNROLL(unroll_loads)
    for (int k = 0; k < items_per_thread; k++)
        acc += rd_load(x, v0 + (long)k * block_size_x);
#if warp_shuffle
    __shared__ double s[block_size_x / 32];
#pragma unroll
    for (int o = 16; o > 0; o /= 2)
        acc += __shfl_down_sync(0xffffffffu, acc, o);
    if (threadIdx.x % 32 == 0)
        s[threadIdx.x / 32] = acc;
    __syncthreads();
    if (threadIdx.x < 32) {
        acc = threadIdx.x < block_size_x / 32 ? s[threadIdx.x] : 0.0;
#pragma unroll
        for (int o = 16; o > 0; o /= 2)
            acc += __shfl_down_sync(0xffffffffu, acc, o);
        if (threadIdx.x == 0)
            atomicAdd(sum, acc);
    }
#else
    __shared__ double s[block_size_x];
    s[threadIdx.x] = acc;
    __syncthreads();
#pragma unroll
    for (int h = block_size_x / 2; h > 0; h /= 2) {
        if (threadIdx.x < h)
            s[threadIdx.x] += s[threadIdx.x + h];
        __syncthreads();
    }
    if (threadIdx.x == 0)
        atomicAdd(sum, s[0]);
#endif
}
#endif
