/* strided.cu - read one field out of an array of structures: out[i] =
 * scale * in[i * stride], n records of `stride` floats each (a channel of
 * interleaved data, one member of an array of structs).
 *
 * Compiled with -Dblock_size_x=B -Delems_per_thread=E -Dn=N -Dstride=S.
 * The writes are coalesced; the reads of a warp touch 32 records, S floats
 * apart, so from S = 8 on every float read brings a 32-byte sector of its
 * own. What a programmer tunes is the launch: block size and how many
 * records each thread handles (loads in flight). The kernel receives the
 * stride as an argument (`step`), as a library routine would. */

/* The reference: one record per thread. */
extern "C" __global__ void strided_reference(float *out, const float *in, float scale, int count, int step)
{
    const long i = (long)blockIdx.x * blockDim.x + threadIdx.x;
    if (i < count)
        out[i] = scale * in[i * step];
}

extern "C" __global__ void __launch_bounds__(block_size_x)
    strided(float *out, const float *in, float scale, int count, int step)
{
    const long base = (long)blockIdx.x * (block_size_x * elems_per_thread) + threadIdx.x;
#pragma unroll
    for (int k = 0; k < elems_per_thread; k++) {
        const long i = base + (long)k * block_size_x;
        if (i < count)
            out[i] = scale * in[i * step];
    }
}
