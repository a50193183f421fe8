/* reduce.cu - the sum of n 32-bit words into one 64-bit word with
 * atomics: a fixed grid walks the words with a grid-stride loop, warps
 * reduce with shuffles, and every warp adds its sum with one atomicAdd.
 * Compiled with -Dreduce_block=B -Dreduce_grid=G -Dreduce_n=N; sum starts
 * at zero and accumulates launch after launch (exact: integers). */

extern "C" __global__ void __launch_bounds__(reduce_block)
    twin_reduce(unsigned long long *sum, const unsigned *x, int n)
{
    unsigned long long s = 0;
    for (long i = (long)blockIdx.x * reduce_block + threadIdx.x; i < n; i += (long)gridDim.x * reduce_block)
        s += x[i];
#pragma unroll
    for (int d = 16; d > 0; d >>= 1)
        s += __shfl_down_sync(0xffffffffu, s, d);
    if ((threadIdx.x & 31) == 0)
        atomicAdd(sum, s);
}

/* The reference: one block; each thread a strided share, then one atomic each. */
extern "C" __global__ void twin_reduce_reference(unsigned long long *sum, const unsigned *x, int n)
{
    unsigned long long s = 0;
    for (long i = threadIdx.x; i < n; i += blockDim.x)
        s += x[i];
    atomicAdd(sum, s);
}
