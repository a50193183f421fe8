/* scatter_add.cu - bucketed scatter-add: table[keys[i]] += vals[i] for n
 * (key, value) pairs over a table of 4 Mi float buckets (16 MiB), keys
 * random, so nearly every atomic goes to a different address (the gradient
 * of an embedding lookup, a sparse accumulation).
 *
 * Compiled with -Dblock_size_x=B -Ditems_per_thread=P -Dgrid_blocks=G -Dn=N.
 * A fixed grid of G blocks strides over the pairs; each thread loads P keys
 * and P values (at stride B, coalesced) before it issues their P atomicAdds,
 * so P loads are in flight at once. The atomics are resolved in the L2. */

/* The reference: one pair per thread. */
extern "C" __global__ void scatter_add_reference(float *table, const float *vals, const unsigned *keys,
                                                 int count)
{
    const long i = (long)blockIdx.x * blockDim.x + threadIdx.x;
    if (i < count)
        atomicAdd(&table[keys[i]], vals[i]);
}

#define CHUNK (block_size_x * items_per_thread)

extern "C" __global__ void __launch_bounds__(block_size_x)
    scatter_add_grid(float *table, const float *__restrict__ vals, const unsigned *__restrict__ keys,
                     int count)
{
    const long stride = (long)grid_blocks * CHUNK;
    for (long base = (long)blockIdx.x * CHUNK + threadIdx.x; base < count; base += stride) {
        unsigned k[items_per_thread];
        float v[items_per_thread];
#pragma unroll
        for (int j = 0; j < items_per_thread; j++) {
            const long i = base + (long)j * block_size_x;
            if (i < count) {
                k[j] = keys[i];
                v[j] = vals[i];
            }
        }
#pragma unroll
        for (int j = 0; j < items_per_thread; j++)
            if (base + (long)j * block_size_x < count)
                atomicAdd(&table[k[j]], v[j]);
    }
}
