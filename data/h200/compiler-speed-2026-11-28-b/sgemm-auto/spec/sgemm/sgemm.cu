/* sgemm.cu - single-precision matrix multiply, C = A * B, for n x n
 * row-major matrices: the thesis's tiled kernel (LPBM, listing 1) over tile
 * widths, a register-blocked kernel, and the naive reference.
 *
 * Compiled by gpubound with every axis of the bench as a -D define:
 *   tiled:    -Dblock_size_x=T -Dn=N                 (block T x T, tile width T)
 *   regblock: -Dblock_size_x=BX -Dblock_size_y=BY -Dwork_per_thread=W -Dn=N
 * The problem size arrives as the argument `size` (equal to n); the sources
 * never name an identifier after an axis, since -Dn=512 would rewrite it.
 * Every kernel accumulates C[row][col] over k = 0, 1, .. size-1 in order, so
 * the tiled and register-blocked results round like the reference's. Sizes
 * that are not a multiple of the tile are handled (zero padding), so every
 * tile width from 1 to 32 runs on any n. */

/* The reference: one thread per element of C, no reuse. */
extern "C" __global__ void sgemm_naive(float *C, const float *A, const float *B, int size)
{
    const int col = blockIdx.x * blockDim.x + threadIdx.x;
    const int row = blockIdx.y * blockDim.y + threadIdx.y;
    if (row >= size || col >= size)
        return;
    float acc = 0.0f;
    for (int k = 0; k < size; k++)
        acc += A[row * size + k] * B[k * size + col];
    C[row * size + col] = acc;
}

#ifdef block_size_x
#ifndef work_per_thread
/* Tiled: a block of T x T threads computes a T x T tile of C; each step
 * stages a T x T tile of A and of B in shared memory (2 T^2 floats). */
#define TILE block_size_x
extern "C" __global__ void sgemm_tiled(float *C, const float *A, const float *B, int size)
{
    __shared__ float As[TILE][TILE];
    __shared__ float Bs[TILE][TILE];
    const int tx = threadIdx.x, ty = threadIdx.y;
    const int row = blockIdx.y * TILE + ty, col = blockIdx.x * TILE + tx;
    float acc = 0.0f;
    for (int t = 0; t < size; t += TILE) {
        As[ty][tx] = (row < size && t + tx < size) ? A[row * size + t + tx] : 0.0f;
        Bs[ty][tx] = (t + ty < size && col < size) ? B[(t + ty) * size + col] : 0.0f;
        __syncthreads();
#pragma unroll
        for (int k = 0; k < TILE; k++)
            acc += As[ty][k] * Bs[k][tx];
        __syncthreads();
    }
    if (row < size && col < size)
        C[row * size + col] = acc;
}
#else
/* Register-blocked: a block of BX x BY threads computes a (BY * W) x BX tile
 * of C; thread (tx, ty) keeps W accumulators, rows ty, ty + BY, ..,
 * ty + (W-1) BY of the tile, column tx. Each step stages RB_TK columns of A
 * and RB_TK rows of B; every B value read from shared memory feeds W
 * multiply-adds. Shared memory: 4 * RB_TK * (BY * W + BX) bytes. */
#define RB_TM (block_size_y * work_per_thread)
#define RB_TN block_size_x
#define RB_TK 16
extern "C" __global__ void sgemm_regblock(float *C, const float *A, const float *B, int size)
{
    __shared__ float As[RB_TM][RB_TK];
    __shared__ float Bs[RB_TK][RB_TN];
    const int tx = threadIdx.x, ty = threadIdx.y;
    const int tid = ty * block_size_x + tx;
    const int threads = block_size_x * block_size_y;
    const int row0 = blockIdx.y * RB_TM, col0 = blockIdx.x * RB_TN;
    float acc[work_per_thread];
#pragma unroll
    for (int i = 0; i < work_per_thread; i++)
        acc[i] = 0.0f;
    for (int t = 0; t < size; t += RB_TK) {
        for (int e = tid; e < RB_TM * RB_TK; e += threads) {
            const int r = e / RB_TK, c = e % RB_TK;
            As[r][c] = (row0 + r < size && t + c < size) ? A[(row0 + r) * size + t + c] : 0.0f;
        }
        for (int e = tid; e < RB_TK * RB_TN; e += threads) {
            const int r = e / RB_TN, c = e % RB_TN;
            Bs[r][c] = (t + r < size && col0 + c < size) ? B[(t + r) * size + col0 + c] : 0.0f;
        }
        __syncthreads();
#pragma unroll
        for (int k = 0; k < RB_TK; k++) {
            const float b = Bs[k][tx];
#pragma unroll
            for (int i = 0; i < work_per_thread; i++)
                acc[i] += As[ty + i * block_size_y][k] * b;
        }
        __syncthreads();
    }
    const int col = col0 + tx;
#pragma unroll
    for (int i = 0; i < work_per_thread; i++) {
        const int row = row0 + ty + i * block_size_y;
        if (row < size && col < size)
            C[row * size + col] = acc[i];
    }
}
#endif
#endif
