/* histogram.cu - 256-bin histogram of n bytes, written as a tuner writes it:
 * the block size, the bytes per load, the loads per thread, the number of
 * private sub-histograms of a block and their padding are -D defines.
 *
 * -Dblock_size_x=B -Dvec=V -Ditems_per_thread=I -Dcopies=C -Dpadding=P.
 * Each thread reads I vectors of V bytes (unsigned char, uchar4 or uint4
 * loads), the block's B consecutive vectors at a time so that every load of
 * a warp is coalesced, and counts each byte with a shared-memory atomicAdd
 * into one of the block's C sub-histograms (thread t into copy t mod C, so
 * that neighbouring threads of a warp that read the same value add to
 * different words); each sub-histogram is 256 + P words, P = 1 moving copy
 * c's bin b to bank (b + c) mod 32 instead of b mod 32. The block then adds
 * its C copies bin by bin and adds each non-zero bin to the result with one
 * global atomicAdd. A block covers B V I bytes: n is a multiple of it (the
 * spec's restriction), so there are no partial blocks and the grid is
 * n / (B V I). Counts are integers: the result is exact whatever the order
 * of the atomics. */

#define BINS 256

/* The reference: one byte per thread, one global atomicAdd each. */
extern "C" __global__ void histogram_naive(unsigned int *hist, const unsigned char *data, int count)
{
    const long i = (long)blockIdx.x * blockDim.x + threadIdx.x;
    if (i < count)
        atomicAdd(hist + data[i], 1u);
}

#if defined(block_size_x) && defined(vec) && defined(items_per_thread) && defined(copies) && defined(padding)
#define ROW (BINS + padding)

__device__ __forceinline__ void hg_word(unsigned int *h, unsigned int w)
{
    atomicAdd(h + (w & 0xffu), 1u);
    atomicAdd(h + ((w >> 8) & 0xffu), 1u);
    atomicAdd(h + ((w >> 16) & 0xffu), 1u);
    atomicAdd(h + (w >> 24), 1u);
}

extern "C" __global__ void __launch_bounds__(block_size_x)
    histogram_tuned(unsigned int *hist, const unsigned char *data, int count)
{
    __shared__ unsigned int sh[copies * ROW];
    for (int i = threadIdx.x; i < copies * ROW; i += block_size_x)
        sh[i] = 0;
    __syncthreads();
    unsigned int *h = sh + (threadIdx.x % copies) * ROW;
    /* The block's first vector; vectors are V bytes, aligned to V. */
    const long v0 = (long)blockIdx.x * block_size_x * items_per_thread + threadIdx.x;
#pragma unroll
    for (int k = 0; k < items_per_thread; k++) {
        const long v = v0 + (long)k * block_size_x;
#if vec == 16
        const uint4 w = reinterpret_cast<const uint4 *>(data)[v];
        hg_word(h, w.x);
        hg_word(h, w.y);
        hg_word(h, w.z);
        hg_word(h, w.w);
#elif vec == 4
        hg_word(h, reinterpret_cast<const unsigned int *>(data)[v]);
#else
        atomicAdd(h + data[v], 1u);
#endif
    }
    __syncthreads();
    for (int b = threadIdx.x; b < BINS; b += block_size_x) {
        unsigned int s = 0;
#pragma unroll
        for (int c = 0; c < copies; c++)
            s += sh[c * ROW + b];
        if (s)
            atomicAdd(hist + b, s);
    }
}
#endif
