/* gsum.cu - a grid-stride reduction of an int array to two numbers:
 *     sum   += x[0] + x[1] + ... + x[count - 1]     (64-bit)
 *     above += the number of i with x[i] > THRESH (750000)
 * x holds count ints (whole numbers 1 to 1000000); sum is one unsigned
 * 64-bit word and above one unsigned word, added to (the caller zeroes
 * them): integer additions, so the order of the atomics changes nothing.
 *
 * The grid is nblk blocks, whatever the size of the array: a thread
 * steps through x by int4 loads a grid apart (x read as count / 4 int4,
 * a warp's load 512 contiguous bytes; the loop unrolled 4 times), the
 * last count % 4 ints by the first threads of the grid, and keeps its own
 * 64-bit sum and count. The warp adds its lanes' by shuffles
 * (__shfl_down_sync), then (method):
 *   0: each warp's lane 0 puts the warp's sum and count in shared memory,
 *      a barrier, and the first warp adds them up by shuffles: one
 *      atomicAdd of the sum and one of the count per block;
 *   1: each warp's lane 0 adds the warp's sum and count by two atomicAdds:
 *      one pair per warp, block_size_x / 32 times as many.
 * Either way every atomic of a launch goes to the same two addresses.
 *
 * Compiled with -Dblock_size_x=T -Dnblk=B -Dmethod=M -Dnelem=N. */

#define THRESH 750000 /* the count is of the values above this */
#define FULL 0xffffffffu

#if method != 0 && method != 1
#error "method is 0 or 1"
#endif
#if block_size_x % 32 != 0
#error "block_size_x is a multiple of 32 (whole warps for the shuffles)"
#endif

/* The reference: one element per thread, an atomicAdd of it to the sum
 * and, when it is above the threshold, one of 1 to the count. */
extern "C" __global__ void gsum_reference(unsigned long long *sum, unsigned int *above, const int *x, int count)
{
    const long i = (long)blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= count)
        return;
    const int v = x[i];
    atomicAdd(sum, (unsigned long long)(long long)v);
    if (v > THRESH)
        atomicAdd(above, 1u);
}

extern "C" __global__ void __launch_bounds__(block_size_x)
    gsum(unsigned long long *__restrict__ sum, unsigned int *__restrict__ above, const int *__restrict__ x,
         int count)
{
    const int tid = blockIdx.x * block_size_x + threadIdx.x;
    const int stride = gridDim.x * block_size_x;
    const int nq = count / 4;
    const int4 *x4 = (const int4 *)x;
    unsigned long long s = 0;
    unsigned int c = 0;
#pragma unroll 4
    for (int q = tid; q < nq; q += stride) {
        const int4 v = __ldg(x4 + q);
        s += (unsigned long long)(long long)(v.x + v.y + v.z + v.w);
        c += (v.x > THRESH) + (v.y > THRESH) + (v.z > THRESH) + (v.w > THRESH);
    }
    for (int i = 4 * nq + tid; i < count; i += stride) {
        const int v = __ldg(x + i);
        s += (unsigned long long)(long long)v;
        c += v > THRESH;
    }
#pragma unroll
    for (int o = 16; o > 0; o >>= 1) {
        s += __shfl_down_sync(FULL, s, o);
        c += __shfl_down_sync(FULL, c, o);
    }
    const int lane = threadIdx.x & 31;
#if method == 1
    if (lane == 0) {
        atomicAdd(sum, s);
        atomicAdd(above, c);
    }
#else
    const int warp = threadIdx.x >> 5;
    __shared__ unsigned long long wsum[block_size_x / 32];
    __shared__ unsigned int wcnt[block_size_x / 32];
    if (lane == 0) {
        wsum[warp] = s;
        wcnt[warp] = c;
    }
    __syncthreads();
    if (warp == 0) {
        s = lane < block_size_x / 32 ? wsum[lane] : 0ull;
        c = lane < block_size_x / 32 ? wcnt[lane] : 0u;
#pragma unroll
        for (int o = 16; o > 0; o >>= 1) {
            s += __shfl_down_sync(FULL, s, o);
            c += __shfl_down_sync(FULL, c, o);
        }
        if (lane == 0) {
            atomicAdd(sum, s);
            atomicAdd(above, c);
        }
    }
#endif
}
