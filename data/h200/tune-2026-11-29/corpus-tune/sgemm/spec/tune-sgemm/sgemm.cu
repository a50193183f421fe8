/* sgemm.cu - single-precision C = A * B for n x n row-major matrices,
 * register-blocked as a tuner writes it: every shape of the work is a
 * -D define, and the naive reference.
 *
 * -Dblock_m=BM -Dblock_n=BN -Dblock_k=BK -Dthread_m=TM -Dthread_n=TN
 * -Dvec=V -Dunroll_k=U. A block of (BM / TM) (BN / TN) threads computes a
 * BM x BN tile of C; each step stages a BM x BK slice of A (transposed in
 * shared memory, so a thread's TM values of a column are contiguous) and a
 * BK x BN slice of B, both read from global memory V floats at a time
 * (float, float2 or float4 loads; n a multiple of V keeps them aligned);
 * each thread keeps a TM x TN micro-tile of C in registers and per k loads
 * TM values of A and TN of B from shared memory for TM TN multiply-adds,
 * the k loop of a step unrolled U times. Every kernel accumulates C[r][c]
 * over k = 0, 1, .., n - 1 in order, as the reference does, so results
 * agree to rounding. Sizes that are not a multiple of a tile are
 * zero-padded. */

/* The reference: one thread per element of C, no reuse. */
extern "C" __global__ void sgemm_naive(float *C, const float *A, const float *B, int size)
{
    const int col = blockIdx.x * blockDim.x + threadIdx.x;
    const int row = blockIdx.y * blockDim.y + threadIdx.y;
    if (row >= size || col >= size)
        return;
    float acc = 0.0f;
    for (int k = 0; k < size; k++)
        acc += A[(long)row * size + k] * B[(long)k * size + col];
    C[(long)row * size + col] = acc;
}

#if defined(block_m) && defined(block_n) && defined(block_k) && defined(thread_m) && defined(thread_n) && \
    defined(vec) && defined(unroll_k)
#define SG_THREADS ((block_m / thread_m) * (block_n / thread_n))
#define SG_STR(x) #x
#define SG_UNROLL(u) _Pragma(SG_STR(unroll u))

/* V consecutive floats of src from off (aligned to V), those at or past
 * avail read as zero. */
__device__ __forceinline__ void sg_load(const float *src, long off, long avail, float *v)
{
#if vec == 4
    if (avail >= 4) {
        const float4 x = *reinterpret_cast<const float4 *>(src + off);
        v[0] = x.x, v[1] = x.y, v[2] = x.z, v[3] = x.w;
        return;
    }
#elif vec == 2
    if (avail >= 2) {
        const float2 x = *reinterpret_cast<const float2 *>(src + off);
        v[0] = x.x, v[1] = x.y;
        return;
    }
#endif
#pragma unroll
    for (int i = 0; i < vec; i++)
        v[i] = i < avail ? src[off + i] : 0.0f;
}

extern "C" __global__ void __launch_bounds__(SG_THREADS)
    sgemm_tuned(float *C, const float *A, const float *B, int size)
{
    __shared__ float As[block_k][block_m]; /* transposed: As[k][m] */
    __shared__ float Bs[block_k][block_n];
    const int tid = threadIdx.x;
    const int tcol = tid % (block_n / thread_n), trow = tid / (block_n / thread_n);
    const int row0 = blockIdx.y * block_m, col0 = blockIdx.x * block_n;
    float acc[thread_m][thread_n];
#pragma unroll
    for (int i = 0; i < thread_m; i++)
#pragma unroll
        for (int j = 0; j < thread_n; j++)
            acc[i][j] = 0.0f;
    for (int t = 0; t < size; t += block_k) {
        for (int e = tid; e < block_m * block_k / vec; e += SG_THREADS) {
            const int r = e / (block_k / vec), c = (e % (block_k / vec)) * vec;
            float v[vec];
            sg_load(A, (long)(row0 + r) * size + t + c, row0 + r < size ? size - (t + c) : 0, v);
#pragma unroll
            for (int i = 0; i < vec; i++)
                As[c + i][r] = v[i];
        }
        for (int e = tid; e < block_k * block_n / vec; e += SG_THREADS) {
            const int r = e / (block_n / vec), c = (e % (block_n / vec)) * vec;
            float v[vec];
            sg_load(B, (long)(t + r) * size + col0 + c, t + r < size ? size - (col0 + c) : 0, v);
#pragma unroll
            for (int i = 0; i < vec; i++)
                Bs[r][c + i] = v[i];
        }
        __syncthreads();
        SG_UNROLL(unroll_k)
        for (int k = 0; k < block_k; k++) {
            float a[thread_m], b[thread_n];
#pragma unroll
            for (int i = 0; i < thread_m; i++)
                a[i] = As[k][trow * thread_m + i];
#pragma unroll
            for (int j = 0; j < thread_n; j++)
                b[j] = Bs[k][tcol * thread_n + j];
#pragma unroll
            for (int i = 0; i < thread_m; i++)
#pragma unroll
                for (int j = 0; j < thread_n; j++)
                    acc[i][j] += a[i] * b[j];
        }
        __syncthreads();
    }
#pragma unroll
    for (int i = 0; i < thread_m; i++) {
        const int row = row0 + trow * thread_m + i;
#pragma unroll
        for (int j = 0; j < thread_n; j++) {
            const int col = col0 + tcol * thread_n + j;
            if (row < size && col < size)
                C[(long)row * size + col] = acc[i][j];
        }
    }
}
#endif
