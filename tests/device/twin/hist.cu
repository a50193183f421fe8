/* hist.cu - the 256-bin byte histogram of issue 45, as a CUDA programmer
 * writes it: 256 threads a block, one 32-bit word (4 bytes) a thread, a
 * shared-memory histogram per block counted with a shared atomicAdd per
 * byte, then one global atomicAdd per non-zero bin per block.
 *
 * Compiled with -Dhist_block=B -Dhist_words=W (gpubound's axes; the plain
 * twin, tests/device/twin/twin.cu, passes the same to nvcc). The grid is
 * ceil(W / B) blocks; bins starts at zero and accumulates launch after
 * launch. twin_hist_pad is the same kernel with an unused first buffer,
 * so that a spec can move the bins to other addresses (hist_pad.json). */

#define TWIN_BINS 256

__device__ __forceinline__ void twin_hist_body(unsigned *bins, const unsigned *data, int words)
{
    __shared__ unsigned h[TWIN_BINS];
    for (int b = threadIdx.x; b < TWIN_BINS; b += hist_block)
        h[b] = 0u;
    __syncthreads();
    const long i = (long)blockIdx.x * hist_block + threadIdx.x;
    if (i < words) {
        const unsigned w = data[i];
        atomicAdd(&h[w & 255u], 1u);
        atomicAdd(&h[(w >> 8) & 255u], 1u);
        atomicAdd(&h[(w >> 16) & 255u], 1u);
        atomicAdd(&h[w >> 24], 1u);
    }
    __syncthreads();
    for (int b = threadIdx.x; b < TWIN_BINS; b += hist_block) {
        const unsigned c = h[b];
        if (c)
            atomicAdd(&bins[b], c);
    }
}

extern "C" __global__ void __launch_bounds__(hist_block) twin_hist(unsigned *bins, const unsigned *data, int words)
{
    twin_hist_body(bins, data, words);
}

extern "C" __global__ void __launch_bounds__(hist_block)
    twin_hist_pad(const unsigned *pad, unsigned *bins, const unsigned *data, int words)
{
    (void)pad;
    twin_hist_body(bins, data, words);
}

/* The reference: one word a thread, one global atomicAdd a byte. */
__device__ __forceinline__ void twin_hist_ref_body(unsigned *bins, const unsigned *data, int words)
{
    const long i = (long)blockIdx.x * blockDim.x + threadIdx.x;
    if (i < words) {
        const unsigned w = data[i];
        for (int k = 0; k < 4; k++)
            atomicAdd(&bins[(w >> (8 * k)) & 255u], 1u);
    }
}

extern "C" __global__ void twin_hist_reference(unsigned *bins, const unsigned *data, int words)
{
    twin_hist_ref_body(bins, data, words);
}

extern "C" __global__ void twin_hist_pad_reference(const unsigned *pad, unsigned *bins, const unsigned *data,
                                                   int words)
{
    (void)pad;
    twin_hist_ref_body(bins, data, words);
}
