/* hist4k.cu - a histogram of 4096 bins kept in global memory:
 *     hist[bin(key[i])] += 1,  0 <= i < count
 * key holds count unsigned 32-bit keys; hist NBINS (4096) unsigned
 * counters, added to (the caller zeroes them): integer additions, so the
 * order of the atomics changes nothing. A key's bin (skew):
 *   0: its top 12 bits, key >> 20 (uniform keys spread evenly over the
 *      4096 bins);
 *   1: the fourth power of its fraction key / 2^32, in 16-bit fixed
 *      point: t = key >> 16, t2 = t t >> 16, t4 = t2 t2 >> 16, bin t4 >> 4
 *      (a skewed law: an eighth of uniform keys fall in bin 0, a quarter
 *      in bins 0 to 15, half in bins 0 to 255).
 *
 * A thread takes ept keys a block apart (i, i + block_size_x, ...), all
 * loaded first (coalesced), then adds each to its bin in global memory
 * (method):
 *   0: an atomicAdd of 1 per key (the L2's atomic units, at whatever
 *      address the key's bin is);
 *   1: the warp first groups its lanes by bin with __match_any_sync; the
 *      lowest lane of each group adds the group's size (__popc of the
 *      mask) by one atomicAdd, so a bin that several lanes hit costs one
 *      atomic a warp instead of one a lane.
 *
 * Compiled with -Dblock_size_x=T -Dept=E -Dmethod=M -Dskew=S -Dnelem=N. */

#define NBINS 4096 /* bins of the histogram */
#define FULL 0xffffffffu

#if method != 0 && method != 1
#error "method is 0 or 1"
#endif
#if skew != 0 && skew != 1
#error "skew is 0 or 1"
#endif
#if ept < 1
#error "ept is at least 1"
#endif
#if block_size_x % 32 != 0
#error "block_size_x is a multiple of 32 (whole warps for __match_any_sync)"
#endif

/* The reference: one key per thread, its bin worked out in 64-bit
 * arithmetic, one atomicAdd. */
extern "C" __global__ void hist4k_reference(unsigned int *hist, const unsigned int *key, int count)
{
    const long i = (long)blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= count)
        return;
    const unsigned long long k = key[i];
    unsigned long long b;
    if (skew == 0) {
        b = k / 1048576ull;
    } else {
        unsigned long long t = k / 65536ull;
        t = t * t / 65536ull;
        t = t * t / 65536ull;
        b = t / 16ull;
    }
    atomicAdd(hist + b, 1u);
}

__device__ __forceinline__ unsigned int bin_of(unsigned int k)
{
#if skew == 0
    return k >> 20;
#else
    const unsigned int t = k >> 16;
    const unsigned int t2 = (t * t) >> 16;
    const unsigned int t4 = (t2 * t2) >> 16;
    return t4 >> 4;
#endif
}

extern "C" __global__ void __launch_bounds__(block_size_x)
    hist4k(unsigned int *__restrict__ hist, const unsigned int *__restrict__ key, int count)
{
    const long i0 = (long)blockIdx.x * block_size_x * ept + threadIdx.x;
    unsigned int b[ept];
#pragma unroll
    for (int e = 0; e < ept; e++) {
        const long i = i0 + (long)e * block_size_x;
        /* a key past the end gets the bin NBINS, which nothing adds to */
        b[e] = i < count ? bin_of(__ldg(key + i)) : NBINS;
    }
#if method == 0
#pragma unroll
    for (int e = 0; e < ept; e++)
        if (b[e] < NBINS)
            atomicAdd(hist + b[e], 1u);
#else
    const unsigned int lane = threadIdx.x & 31;
#pragma unroll
    for (int e = 0; e < ept; e++) {
        /* every lane takes part: the block is whole warps and a lane past
         * the end groups with the others past it under bin NBINS */
        const unsigned int peers = __match_any_sync(FULL, b[e]);
        if (lane == (unsigned int)(__ffs(peers) - 1) && b[e] < NBINS)
            atomicAdd(hist + b[e], (unsigned int)__popc(peers));
    }
#endif
}
