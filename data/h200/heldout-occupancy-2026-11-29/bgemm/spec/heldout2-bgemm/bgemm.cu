/* bgemm.cu - a batch of small matrix products C_m = A_m B_m, every matrix
 * 16 x 16 floats, row-major, stored one after another (the batched GEMM of
 * a block-sparse or finite-element code). tpm threads share a product, each
 * writing every tpm-th of its 256 outputs; a block of block_size_x threads
 * takes block_size_x / tpm products (mpb, a define). With use_shared 1 the
 * block first copies its A and B matrices into shared memory (loads
 * contiguous across the block) and computes from there; with 0 every
 * operand is read from global memory through L1.
 *
 * Compiled with -Dblock_size_x=B -Dtpm=T -Dmpb=B/T -Duse_shared=S -Dnb=N. */
#define D 16

/* The reference: a thread per output, the same fmaf chain over k. */
extern "C" __global__ void bgemm_reference(float *C, const float *A, const float *B, int count)
{
    const long t = (long)blockIdx.x * blockDim.x + threadIdx.x;
    if (t >= (long)count * D * D)
        return;
    const long m = t / (D * D);
    const int o = (int)(t % (D * D)), r = o / D, c = o % D;
    const float *a = A + m * D * D, *b = B + m * D * D;
    float s = 0.0f;
    for (int k = 0; k < D; k++)
        s = fmaf(a[r * D + k], b[k * D + c], s);
    C[t] = s;
}

extern "C" __global__ void __launch_bounds__(block_size_x)
    bgemm_small(float *C, const float *__restrict__ A, const float *__restrict__ B, int count)
{
    const int local = threadIdx.x / tpm, t = threadIdx.x % tpm;
    const long m = (long)blockIdx.x * mpb + local;
#if use_shared
    __shared__ float sa[mpb][D * D], sb[mpb][D * D];
    const long first = (long)blockIdx.x * mpb * D * D;
    for (int i = threadIdx.x; i < mpb * D * D; i += block_size_x) {
        const bool in = first / (D * D) + i / (D * D) < count;
        sa[i / (D * D)][i % (D * D)] = in ? A[first + i] : 0.0f;
        sb[i / (D * D)][i % (D * D)] = in ? B[first + i] : 0.0f;
    }
    __syncthreads();
    if (m >= count)
        return;
    const float *a = sa[local], *b = sb[local];
#else
    if (m >= count)
        return;
    const float *a = A + m * D * D, *b = B + m * D * D;
#endif
    for (int o = t; o < D * D; o += tpm) {
        const int r = o / D, c = o % D;
        float s = 0.0f;
#pragma unroll
        for (int k = 0; k < D; k++)
            s = fmaf(a[r * D + k], b[k * D + c], s);
        C[m * D * D + o] = s;
    }
}
