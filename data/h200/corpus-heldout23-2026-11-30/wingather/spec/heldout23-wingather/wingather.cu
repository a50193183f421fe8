/* wingather.cu - an indexed gather whose sources are random within a
 * window of the source array or over all of it:
 *     out[i] = in[src(i)],  src(i) = wbase(i) + (idx[i] x wlen(i)) / 2^32
 * in and out hold count floats; idx holds count unsigned 32-bit words, one
 * per output, each standing for an offset into the output's window as a
 * fraction of it (the word times the window's length, its high 32 bits:
 * a random word gives a source uniform over the window). locality is the
 * window:
 *   0: the whole array (wbase 0, wlen count): every output's source
 *      anywhere, a warp's 32 loads on 32 random sectors of all of in;
 *   1: the aligned window of WIN (1024) elements, 4 KiB, that holds i
 *      (wbase i rounded down to a multiple of WIN, wlen WIN or what is
 *      left of the array): a local shuffle, a warp's 32 loads on random
 *      sectors of one 4 KiB stretch, each window's sources read by the
 *      1024 outputs of the same window.
 *
 * The grid is fixed by the launch, not by count: bpsm blocks of
 * block_size_x threads per SM (the spec launches 132 bpsm blocks), and the
 * threads walk the outputs by a grid-stride loop. Each step of a thread
 * takes ilp outputs a grid apart: their ilp indices first (coalesced
 * loads), then the ilp gathers (independent loads, all in flight before
 * the first store), then the ilp stores (coalesced). Steps of ilp whole
 * outputs come first, then those left over one per step.
 *
 * Compiled with -Dblock_size_x=T -Dbpsm=B -Dilp=L -Dlocality=W -Dnelem=N. */

#define WIN 1024 /* elements in a window of locality 1 (4 KiB of floats) */

#if locality != 0 && locality != 1
#error "locality is 0 or 1"
#endif
#if ilp < 1 || ilp > 16
#error "ilp is 1 to 16"
#endif

/* The reference: one output per thread, the source worked out in 64-bit
 * arithmetic by divisions (no multiply-high, no masks). */
extern "C" __global__ void wingather_reference(float *out, const float *in, const unsigned int *idx, int count)
{
    const long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= count)
        return;
    long long base = 0, len = count;
    if (locality == 1) {
        base = i / 1024 * 1024;
        len = count - base;
        if (len > 1024)
            len = 1024;
    }
    const long long off = (long long)((unsigned long long)idx[i] * (unsigned long long)len / 4294967296ull);
    out[i] = in[base + off];
}

/* the source of output i for the index word w */
__device__ __forceinline__ long source(long i, unsigned int w, int count)
{
#if locality == 0
    return (long)__umulhi(w, (unsigned int)count);
#else
    const long base = i & ~(long)(WIN - 1);
    const long left = count - base;
    const unsigned int len = left < WIN ? (unsigned int)left : WIN;
    return base + __umulhi(w, len);
#endif
}

extern "C" __global__ void __launch_bounds__(block_size_x)
    wingather(float *__restrict__ out, const float *__restrict__ in, const unsigned int *__restrict__ idx, int count)
{
    const long nthr = (long)gridDim.x * block_size_x;
    long i = (long)blockIdx.x * block_size_x + threadIdx.x;
    for (; i + (ilp - 1) * nthr < count; i += ilp * nthr) {
        unsigned int w[ilp];
        float v[ilp];
#pragma unroll
        for (int k = 0; k < ilp; k++)
            w[k] = __ldg(idx + i + k * nthr);
#pragma unroll
        for (int k = 0; k < ilp; k++)
            v[k] = __ldg(in + source(i + k * nthr, w[k], count));
#pragma unroll
        for (int k = 0; k < ilp; k++)
            out[i + k * nthr] = v[k];
    }
    for (; i < count; i += nthr)
        out[i] = __ldg(in + source(i, __ldg(idx + i), count));
}
