/* bitonic.cu - sorts each tile of `tile` consecutive uint32 keys ascending
 * (the block-local stage of a merge sort or of a top-k), by a bitonic
 * network in shared memory.
 *
 * Compiled with -Dblock_size_x=B -Dtile=T -Dn=N. A block loads its tile
 * into shared memory, runs the log2(T) (log2(T) + 1) / 2 compare-exchange
 * stages, each thread taking T / (2 B) of the T / 2 pairs of a stage with a
 * barrier after each stage, and writes the tile back. Its cost is the
 * shared-memory traffic and the barriers, not DRAM: the keys are read and
 * written once. */

/* The reference: one key per thread; its place in the tile is the number of
 * keys of the tile below it (ties broken by position). */
extern "C" __global__ void bitonic_reference(unsigned *out, const unsigned *in, int count)
{
    const long i = (long)blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= count)
        return;
    const long base = i / tile * tile;
    const unsigned v = in[i];
    int rank = 0;
    for (int j = 0; j < tile; j++) {
        const unsigned u = in[base + j];
        rank += (u < v) || (u == v && base + j < i);
    }
    out[base + rank] = v;
}

#define PAIRS (tile / 2)

extern "C" __global__ void __launch_bounds__(block_size_x)
    bitonic_tiles(unsigned *out, const unsigned *__restrict__ in, int count)
{
    __shared__ unsigned s[tile];
    const long base = (long)blockIdx.x * tile;
    (void)count; /* count is a multiple of tile (the spec's restriction) */
#pragma unroll
    for (int i = threadIdx.x; i < tile; i += block_size_x)
        s[i] = in[base + i];
    __syncthreads();
    for (int k = 2; k <= tile; k <<= 1)
        for (int j = k >> 1; j > 0; j >>= 1) {
#pragma unroll
            for (int t = threadIdx.x; t < PAIRS; t += block_size_x) {
                const int i = 2 * t - (t & (j - 1));
                const bool up = (i & k) == 0;
                const unsigned a = s[i], b = s[i + j];
                if ((a > b) == up) {
                    s[i] = b;
                    s[i + j] = a;
                }
            }
            __syncthreads();
        }
#pragma unroll
    for (int i = threadIdx.x; i < tile; i += block_size_x)
        out[base + i] = s[i];
}
