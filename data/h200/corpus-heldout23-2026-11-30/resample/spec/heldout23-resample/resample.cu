/* resample.cu - the multinomial resampling step of a particle filter
 * (inverse-transform sampling from a discrete distribution): each of count
 * draws picks an ancestor particle with probability proportional to its
 * weight, by a binary search of the weights' running sum:
 *     anc[i] = the first j with cdf[j] > t_i,  t_i = (u[i] x total) / 2^32
 * cdf holds count unsigned integer running sums of the particles' weights
 * (non-decreasing, cdf[j] the weights of particles 0 to j, total =
 * cdf[count - 1]); u holds count unsigned 32-bit random words, each a
 * uniform fraction of the total (its product with total, the high 32
 * bits: __umulhi). Every t_i is below the total, so every draw finds a
 * particle. The searches' loads depend on each other: each step's address
 * is set by the comparison of the step before.
 *
 * The grid is fixed by the launch, not by count: bpsm blocks of
 * block_size_x threads per SM (the spec launches 132 bpsm blocks), and the
 * threads walk the draws by a grid-stride loop. Each step of a thread
 * takes qpt draws a grid apart, loads their words (coalesced), and
 * searches for all of them in lockstep (the same number of halvings for
 * every draw: qpt independent chains of dependent loads in flight), then
 * stores the qpt ancestors. Steps of qpt whole draws come first, then the
 * draws left over one per step. The search (method):
 *   0: a branchless binary search over the whole of cdf in global memory,
 *      ceil(log2 count) halvings and a last comparison (22 + 1 at 2.5 Mi
 *      particles, 25 + 1 at 32 Mi), each a dependent load from cdf;
 *   1: each block first copies NSPL (1024) splitters, the last running
 *      sum of each of the NSPL segments of ceil(count / NSPL) particles,
 *      into shared memory (one barrier); a draw searches them there (10
 *      halvings and a comparison), then searches its segment in global
 *      memory (ceil(log2 of the segment) halvings and a comparison: 12 + 1
 *      at 2.5 Mi particles, 15 + 1 at 32 Mi), positions past the end of
 *      the last segment read as the total.
 *
 * Compiled with -Dblock_size_x=T -Dbpsm=B -Dqpt=Q -Dmethod=M -Dnpart=N. */

#define NSPL 1024 /* splitters in shared memory (method 1): 4 KiB */

#if method != 0 && method != 1
#error "method is 0 or 1"
#endif
#if qpt < 1 || qpt > 8
#error "qpt is 1 to 8"
#endif

/* The reference: one draw per thread, the target in 64-bit arithmetic by a
 * division, then the textbook search of [lo, hi] by midpoints. */
extern "C" __global__ void resample_reference(unsigned int *anc, const unsigned int *cdf, const unsigned int *u, int count)
{
    const long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= count)
        return;
    const unsigned long long total = cdf[count - 1];
    const unsigned long long t = (unsigned long long)u[i] * total / 4294967296ull;
    long long lo = 0, hi = count - 1;
    while (lo < hi) {
        const long long mid = lo + (hi - lo) / 2;
        if (cdf[mid] > t)
            hi = mid;
        else
            lo = mid + 1;
    }
    anc[i] = (unsigned int)lo;
}

/* The first position of cdf[lo .. lo + len) whose running sum is above
 * t[k], for Q targets at once: the halvings of the length are the same for
 * every target, so the Q chains of loads advance together. A position at
 * or past count reads cdf[count - 1], the total, which is above every
 * target. */
template <int Q>
__device__ __forceinline__ void search_global(unsigned int (&pos)[Q], const unsigned int (&t)[Q],
                                              const unsigned int *__restrict__ cdf, int count, unsigned int len)
{
    while (len > 1) {
        const unsigned int half = len / 2;
#pragma unroll
        for (int k = 0; k < Q; k++) {
            const unsigned int j = min(pos[k] + half, (unsigned int)count - 1);
            pos[k] = __ldg(cdf + j) <= t[k] ? pos[k] + half : pos[k];
        }
        len -= half;
    }
#pragma unroll
    for (int k = 0; k < Q; k++)
        pos[k] += __ldg(cdf + min(pos[k], (unsigned int)count - 1)) <= t[k];
}

#if method == 1
/* the same over the nseg splitters in shared memory: the segment */
template <int Q>
__device__ __forceinline__ void search_shared(unsigned int (&seg)[Q], const unsigned int (&t)[Q],
                                              const unsigned int *spl, unsigned int nseg)
{
#pragma unroll
    for (int k = 0; k < Q; k++)
        seg[k] = 0;
    unsigned int len = nseg;
    while (len > 1) {
        const unsigned int half = len / 2;
#pragma unroll
        for (int k = 0; k < Q; k++)
            seg[k] = spl[seg[k] + half] <= t[k] ? seg[k] + half : seg[k];
        len -= half;
    }
#pragma unroll
    for (int k = 0; k < Q; k++)
        seg[k] += spl[seg[k]] <= t[k];
}
#endif

/* the ancestors of Q draws from their targets */
template <int Q>
__device__ __forceinline__ void ancestors(unsigned int (&pos)[Q], const unsigned int (&t)[Q],
                                          const unsigned int *__restrict__ cdf, int count, const unsigned int *spl,
                                          unsigned int seglen, unsigned int nseg)
{
#if method == 0
#pragma unroll
    for (int k = 0; k < Q; k++)
        pos[k] = 0;
    search_global<Q>(pos, t, cdf, count, (unsigned int)count);
#else
    unsigned int s[Q];
    search_shared<Q>(s, t, spl, nseg);
#pragma unroll
    for (int k = 0; k < Q; k++)
        pos[k] = s[k] * seglen;
    search_global<Q>(pos, t, cdf, count, seglen);
#endif
}

extern "C" __global__ void __launch_bounds__(block_size_x)
    resample(unsigned int *__restrict__ anc, const unsigned int *__restrict__ cdf, const unsigned int *__restrict__ u,
             int count)
{
    const unsigned int total = __ldg(cdf + count - 1);
#if method == 1
    __shared__ unsigned int spl[NSPL];
    const unsigned int seglen = (unsigned int)((count + NSPL - 1) / NSPL);
    const unsigned int nseg = (unsigned int)((count + seglen - 1) / seglen);
    for (unsigned int s = threadIdx.x; s < nseg; s += block_size_x)
        spl[s] = __ldg(cdf + min((long)(s + 1) * seglen, (long)count) - 1);
    __syncthreads();
#else
    const unsigned int *spl = nullptr;
    const unsigned int seglen = 0, nseg = 0;
#endif
    const long nthr = (long)gridDim.x * block_size_x;
    long i = (long)blockIdx.x * block_size_x + threadIdx.x;
    for (; i + (qpt - 1) * nthr < count; i += qpt * nthr) {
        unsigned int t[qpt], pos[qpt];
#pragma unroll
        for (int k = 0; k < qpt; k++)
            t[k] = __umulhi(__ldg(u + i + k * nthr), total);
        ancestors<qpt>(pos, t, cdf, count, spl, seglen, nseg);
#pragma unroll
        for (int k = 0; k < qpt; k++)
            anc[i + k * nthr] = pos[k];
    }
    for (; i < count; i += nthr) {
        unsigned int t[1] = {__umulhi(__ldg(u + i), total)}, pos[1];
        ancestors<1>(pos, t, cdf, count, spl, seglen, nseg);
        anc[i] = pos[0];
    }
}
