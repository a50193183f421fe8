/* reduction.cu - the sum of n floats in one launch, over block sizes and
 * elements per thread, and the reference.
 *
 * Compiled with -Dblock_size_x=B -Delems_per_thread=E -Dn=N. Block b sums
 * the B * E consecutive elements starting at b * B * E: thread t adds
 * elements t, t + B, .., t + (E-1) B of that chunk (each step one coalesced
 * load per warp), the block reduces its threads' sums with warp shuffles and
 * a shared array of one float per warp, and adds the block's sum to a double
 * accumulator with one atomic. The block that finishes last (a ticket from
 * atomicInc, which wraps the counter back to 0 for the next launch) takes
 * the accumulator (resetting it to 0) and writes it, rounded to float, to
 * out[0]. So every launch writes the same comparable number whatever the
 * configuration, and `acc` and `ticket` are left as they were found (0). */

/* Sum of v over the 32 lanes of a warp, in lane 0. */
__device__ __forceinline__ float warp_sum(float v)
{
    for (int d = 16; d > 0; d >>= 1)
        v += __shfl_down_sync(0xffffffffu, v, d);
    return v;
}

/* Sum of v over the block's threads (blockDim.x, a multiple of 32, at most
 * 1024), in thread 0. Every thread of the block must call it. */
__device__ float block_sum(float v, float *warp_sums)
{
    const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
    const int warps = (blockDim.x + 31) >> 5;
    v = warp_sum(v);
    if (lane == 0)
        warp_sums[warp] = v;
    __syncthreads();
    v = 0.0f;
    if (warp == 0) {
        if (lane < warps)
            v = warp_sums[lane];
        v = warp_sum(v);
    }
    return v;
}

/* Hands the accumulated total to out[0] from the block that finishes last;
 * every block calls it once, from one thread, after adding its sum to acc. */
__device__ void finish(float *out, double *acc, unsigned *ticket)
{
    __threadfence();
    const unsigned last = gridDim.x - 1;
    if (atomicInc(ticket, last) == last) {
        /* Every other block's atomicAdd came before its atomicInc. */
        const unsigned long long bits = atomicExch((unsigned long long *)acc, 0ull);
        out[0] = (float)__longlong_as_double((long long)bits);
    }
}

/* The reference: any grid of blocks of at most 1024 threads; every thread
 * sums a grid-strided subset in double, the block adds its threads' sums in
 * order, in double, and adds that to acc. Only the final rounding to float
 * is single precision. */
extern "C" __global__ void sum_reference(float *out, const float *in, double *acc, unsigned *ticket,
                                         int count)
{
    __shared__ double part[1024];
    double s = 0.0;
    for (long i = (long)blockIdx.x * blockDim.x + threadIdx.x; i < count; i += (long)gridDim.x * blockDim.x)
        s += (double)in[i];
    part[threadIdx.x] = s;
    __syncthreads();
    if (threadIdx.x == 0) {
        double total = 0.0;
        for (int t = 0; t < (int)blockDim.x; t++)
            total += part[t];
        atomicAdd(acc, total);
        finish(out, acc, ticket);
    }
}

#if defined(block_size_x) && defined(elems_per_thread)
extern "C" __global__ void __launch_bounds__(block_size_x)
    sum_blocks(float *out, const float *in, double *acc, unsigned *ticket, int count)
{
    __shared__ float warp_sums[32];
    const long base = (long)blockIdx.x * (block_size_x * elems_per_thread) + threadIdx.x;
    float s = 0.0f;
#pragma unroll
    for (int e = 0; e < elems_per_thread; e++) {
        const long i = base + (long)e * block_size_x;
        if (i < count)
            s += in[i];
    }
    s = block_sum(s, warp_sums);
    if (threadIdx.x == 0) {
        atomicAdd(acc, (double)s);
        finish(out, acc, ticket);
    }
}
#endif
