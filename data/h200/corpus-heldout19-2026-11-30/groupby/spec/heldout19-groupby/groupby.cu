/* groupby.cu - a group-by aggregation into a small table (SELECT key,
 * SUM(val), COUNT(*) GROUP BY key over 1024 keys):
 *     sums[key[i]] += val[i],  cnts[key[i]] += 1,  0 <= i < count
 * key holds count ints in 0 .. NKEYS - 1 (1024), val count ints; sums is
 * NKEYS unsigned 64-bit words and cnts NKEYS unsigned words, added to (the
 * caller zeroes them): integer additions, so the order of the atomics
 * changes nothing.
 *
 * A thread takes ept elements a block apart (i, i + block_size_x, ...),
 * their keys and values loaded first (coalesced ints). The table
 * (method):
 *   0: every element's two atomicAdds go to the global table (the L2's
 *      atomic units; a warp's 32 keys random over 1024 bins);
 *   1: the block zeroes a private table in shared memory (8 KiB of sums
 *      and 4 KiB of counts), a barrier, the elements' atomicAdds go to it,
 *      a barrier, and then the block adds each bin it touched (a count
 *      not 0) to the global table, a bin per thread, coalesced.
 *
 * Compiled with -Dblock_size_x=T -Dept=E -Dmethod=M -Dnelem=N. */

#define NKEYS 1024 /* bins of the table */

#if method != 0 && method != 1
#error "method is 0 or 1"
#endif
#if ept < 1
#error "ept is at least 1"
#endif

/* The reference: one element per thread, its two atomics on the global table. */
extern "C" __global__ void groupby_reference(unsigned long long *sums, unsigned int *cnts, const int *key,
                                             const int *val, int count)
{
    const long i = (long)blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= count)
        return;
    const int k = key[i];
    atomicAdd(sums + k, (unsigned long long)(long long)val[i]);
    atomicAdd(cnts + k, 1u);
}

extern "C" __global__ void __launch_bounds__(block_size_x)
    groupby(unsigned long long *__restrict__ sums, unsigned int *__restrict__ cnts, const int *__restrict__ key,
            const int *__restrict__ val, int count)
{
    const long i0 = (long)blockIdx.x * block_size_x * ept + threadIdx.x;
    int k[ept], v[ept];
#pragma unroll
    for (int e = 0; e < ept; e++) {
        const long i = i0 + (long)e * block_size_x;
        k[e] = i < count ? __ldg(key + i) : -1;
        v[e] = i < count ? __ldg(val + i) : 0;
    }
#if method == 0
#pragma unroll
    for (int e = 0; e < ept; e++)
        if (k[e] >= 0) {
            atomicAdd(sums + k[e], (unsigned long long)(long long)v[e]);
            atomicAdd(cnts + k[e], 1u);
        }
#else
    __shared__ unsigned long long ssum[NKEYS];
    __shared__ unsigned int scnt[NKEYS];
    for (int b = threadIdx.x; b < NKEYS; b += block_size_x) {
        ssum[b] = 0;
        scnt[b] = 0;
    }
    __syncthreads();
#pragma unroll
    for (int e = 0; e < ept; e++)
        if (k[e] >= 0) {
            atomicAdd(ssum + k[e], (unsigned long long)(long long)v[e]);
            atomicAdd(scnt + k[e], 1u);
        }
    __syncthreads();
    for (int b = threadIdx.x; b < NKEYS; b += block_size_x) {
        const unsigned int c = scnt[b];
        if (c != 0) {
            atomicAdd(sums + b, ssum[b]);
            atomicAdd(cnts + b, c);
        }
    }
#endif
}
