/* gemm.cu - single-precision C = A * B for n x n row-major matrices: a
 * shared-memory tiled kernel with one output per thread, a register-blocked
 * kernel with a micro-tile of outputs per thread, and the naive reference.
 *
 * tiled:    -Dtile_x=TX -Dtile_y=TY -Dtile_k=TK -Dn=N. A TX x TY block
 *           computes a TY x TX tile of C, staging a TY x TK slice of A and a
 *           TK x TX slice of B in shared memory per step.
 * regblock: -Dblock_m=BM -Dblock_n=BN -Dblock_k=BK -Dthread_m=TM
 *           -Dthread_n=TN -Dn=N. A block of (BM / TM) (BN / TN) threads
 *           computes a BM x BN tile of C; each step stages a BM x BK slice of
 *           A (transposed, so a thread's TM values of a column are
 *           contiguous) and a BK x BN slice of B; each thread keeps a
 *           TM x TN micro-tile of C in registers and per k loads TM values of
 *           A and TN of B from shared memory for TM TN multiply-adds.
 * Every kernel accumulates C[r][c] over k = 0, 1, .., n - 1 in order, as the
 * reference does, so results agree to rounding. Sizes that are not a
 * multiple of a tile are zero-padded. */

/* The reference: one thread per element of C, no reuse. */
extern "C" __global__ void gemm_naive(float *C, const float *A, const float *B, int size)
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

#if defined(tile_x) && defined(tile_y) && defined(tile_k)
extern "C" __global__ void __launch_bounds__(tile_x * tile_y)
    gemm_tiled(float *C, const float *A, const float *B, int size)
{
    __shared__ float As[tile_y][tile_k];
    __shared__ float Bs[tile_k][tile_x];
    const int tx = threadIdx.x, ty = threadIdx.y, tid = ty * tile_x + tx;
    const int row = blockIdx.y * tile_y + ty, col = blockIdx.x * tile_x + tx;
    const int row0 = blockIdx.y * tile_y, col0 = blockIdx.x * tile_x;
    float acc = 0.0f;
    for (int t = 0; t < size; t += tile_k) {
        for (int e = tid; e < tile_y * tile_k; e += tile_x * tile_y) {
            const int r = e / tile_k, c = e % tile_k;
            As[r][c] = (row0 + r < size && t + c < size) ? A[(long)(row0 + r) * size + t + c] : 0.0f;
        }
        for (int e = tid; e < tile_k * tile_x; e += tile_x * tile_y) {
            const int r = e / tile_x, c = e % tile_x;
            Bs[r][c] = (t + r < size && col0 + c < size) ? B[(long)(t + r) * size + col0 + c] : 0.0f;
        }
        __syncthreads();
#pragma unroll
        for (int k = 0; k < tile_k; k++)
            acc += As[ty][k] * Bs[k][tx];
        __syncthreads();
    }
    if (row < size && col < size)
        C[(long)row * size + col] = acc;
}
#endif

#if defined(block_m) && defined(block_n) && defined(block_k) && defined(thread_m) && defined(thread_n)
#define RB_THREADS ((block_m / thread_m) * (block_n / thread_n))
extern "C" __global__ void __launch_bounds__(RB_THREADS)
    gemm_regblock(float *C, const float *A, const float *B, int size)
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
        for (int e = tid; e < block_m * block_k; e += RB_THREADS) {
            const int r = e / block_k, c = e % block_k; /* consecutive threads read along a row of A */
            As[c][r] = (row0 + r < size && t + c < size) ? A[(long)(row0 + r) * size + t + c] : 0.0f;
        }
        for (int e = tid; e < block_k * block_n; e += RB_THREADS) {
            const int r = e / block_n, c = e % block_n;
            Bs[r][c] = (t + r < size && col0 + c < size) ? B[(long)(t + r) * size + col0 + c] : 0.0f;
        }
        __syncthreads();
#pragma unroll
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
