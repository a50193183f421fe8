/* histogram.cu - a 256-bin histogram of n 32-bit keys (bin = key & 255)
 * with per-block private histograms in shared memory.
 *
 * Compiled with -Dblock_size_x=B -Dgrid_blocks=G -Dreplicas=R -Dn=N. A
 * fixed grid of G blocks walks the keys with a grid-stride loop (coalesced
 * loads); each key is counted with a shared-memory atomicAdd into one of
 * the block's R copies of the histogram (warp w uses copy w % R, which
 * spreads contention between warps over R addresses per bin); at the end
 * the block adds its copies and merges each non-zero bin into the global
 * histogram with one atomicAdd. G counts blocks for 132-SM GPUs (1, 4 and
 * 16 per SM). hist starts at zero. */

#define NBINS 256

/* The reference: one key per thread, one global atomicAdd per key. */
extern "C" __global__ void histogram_reference(unsigned *hist, const unsigned *keys, int count)
{
    const long i = (long)blockIdx.x * blockDim.x + threadIdx.x;
    if (i < count)
        atomicAdd(&hist[keys[i] & (NBINS - 1)], 1u);
}

extern "C" __global__ void __launch_bounds__(block_size_x)
    histogram_smem(unsigned *hist, const unsigned *keys, int count)
{
    __shared__ unsigned h[replicas][NBINS];
    const int tid = threadIdx.x;
    for (int b = tid; b < replicas * NBINS; b += block_size_x)
        h[b / NBINS][b % NBINS] = 0u;
    __syncthreads();
    unsigned *mine = h[(tid >> 5) % replicas];
    const long stride = (long)gridDim.x * block_size_x;
    for (long i = (long)blockIdx.x * block_size_x + tid; i < count; i += stride)
        atomicAdd(&mine[keys[i] & (NBINS - 1)], 1u);
    __syncthreads();
    for (int b = tid; b < NBINS; b += block_size_x) {
        unsigned s = 0u;
#pragma unroll
        for (int r = 0; r < replicas; r++)
            s += h[r][b];
        if (s)
            atomicAdd(&hist[b], s);
    }
}
