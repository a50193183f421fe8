/* chase.cu - dependent pointer chasing: `chains` independent walks of
 * `steps` steps each through a table of `table` random 32-bit words,
 *
 *   j <- (next[j] + step) & (table - 1),
 *
 * so every load's address comes from the load before it. (The step number
 * is added so that a walk never settles into a short cycle of the random
 * map.) out[c] is where walk c ends.
 *
 * Compiled with -Dblock_size_x=B -Dchains_per_thread=K -Dtable=T. The grid
 * is small by nature: 4096 walks make 4096 / (B K) blocks (2 to 128). A
 * thread advances its K walks in lock step, so it has K independent loads
 * in flight; the latency of a load (L2 for the 4 MiB table, DRAM and TLB
 * misses for the 128 MiB one) is what the time is made of. */

__device__ __forceinline__ unsigned start_of(unsigned c, unsigned mask)
{
    return (c * 2654435761u) & mask;
}

/* The reference: one walk per thread. */
extern "C" __global__ void chase_reference(unsigned *out, const unsigned *next, unsigned mask, int steps,
                                           int nchains)
{
    const int c = blockIdx.x * blockDim.x + threadIdx.x;
    if (c >= nchains)
        return;
    unsigned j = start_of(c, mask);
    for (int s = 0; s < steps; s++)
        j = (next[j] + (unsigned)s) & mask;
    out[c] = j;
}

extern "C" __global__ void __launch_bounds__(block_size_x)
    chase(unsigned *out, const unsigned *next, unsigned mask, int steps, int nchains)
{
    const int first = (blockIdx.x * block_size_x + threadIdx.x) * chains_per_thread;
    unsigned j[chains_per_thread];
#pragma unroll
    for (int k = 0; k < chains_per_thread; k++)
        j[k] = start_of(first + k, mask);
    for (int s = 0; s < steps; s++) {
#pragma unroll
        for (int k = 0; k < chains_per_thread; k++)
            j[k] = (next[j[k]] + (unsigned)s) & mask;
    }
#pragma unroll
    for (int k = 0; k < chains_per_thread; k++)
        if (first + k < nchains)
            out[first + k] = j[k];
}
