/* triad.cu - STREAM triad a = b + s c, one float a thread (the streaming
 * read of the twin comparison: two reads and one write a thread).
 * Compiled with -Dtriad_block=B -Dtriad_n=N; the grid is ceil(N / B). */

extern "C" __global__ void __launch_bounds__(triad_block)
    twin_triad(float *a, const float *b, const float *c, float s, int n)
{
    const long i = (long)blockIdx.x * triad_block + threadIdx.x;
    if (i < n)
        a[i] = b[i] + s * c[i];
}

/* The reference: the same formula, with the block size of the launch. */
extern "C" __global__ void twin_triad_reference(float *a, const float *b, const float *c, float s, int n)
{
    const long i = (long)blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        a[i] = b[i] + s * c[i];
}
