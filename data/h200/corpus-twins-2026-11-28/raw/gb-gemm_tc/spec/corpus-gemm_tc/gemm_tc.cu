// C = A * B on tensor cores: A and B bfloat16, square and row-major; C float,
// accumulated in float. A block computes a block_m x block_n tile of C,
// walking k in steps of block_k through shared memory; each of its warps
// computes a warp_m x warp_n part of the tile as (warp_m / 16) x
// (warp_n / 16) wmma 16x16x16 fragments. Shared rows are padded by skew
// elements against bank conflicts in the fragment loads. Every axis is a
// -D define; the matrix side comes in as `size` (a multiple of the tiles:
// the spec's restrictions).
#include <mma.h>
#include <cuda_bf16.h>

using namespace nvcuda;

#define WARPS_M (block_m / warp_m)
#define WARPS_N (block_n / warp_n)
#define FRAGS_M (warp_m / 16)
#define FRAGS_N (warp_n / 16)
#define THREADS (WARPS_M * WARPS_N * 32)
#define LDA (block_k + skew)
#define LDB (block_n + skew)

extern "C" __global__ void __launch_bounds__(THREADS)
gemm_wmma(float *C, const __nv_bfloat16 *A, const __nv_bfloat16 *B, int size)
{
    // wmma loads want 256-bit aligned rows: every 16th row starts on one
    // (LDA and LDB are multiples of 8 elements).
    __shared__ __align__(32) __nv_bfloat16 As[block_m * LDA];
    __shared__ __align__(32) __nv_bfloat16 Bs[block_k * LDB];
    const int warp = threadIdx.x / 32, wm = warp / WARPS_N, wn = warp % WARPS_N;
    const int row0 = blockIdx.y * block_m, col0 = blockIdx.x * block_n;

    wmma::fragment<wmma::accumulator, 16, 16, 16, float> acc[FRAGS_M][FRAGS_N];
#pragma unroll
    for (int i = 0; i < FRAGS_M; i++)
#pragma unroll
        for (int j = 0; j < FRAGS_N; j++)
            wmma::fill_fragment(acc[i][j], 0.0f);

    for (int k0 = 0; k0 < size; k0 += block_k) {
        // The tiles of A and B into shared memory, 8 elements (16 bytes) a load.
        for (int v = threadIdx.x; v < block_m * block_k / 8; v += THREADS) {
            int r = v / (block_k / 8), c = v % (block_k / 8) * 8;
            *(uint4 *)&As[r * LDA + c] = *(const uint4 *)&A[(size_t)(row0 + r) * size + k0 + c];
        }
        for (int v = threadIdx.x; v < block_k * block_n / 8; v += THREADS) {
            int r = v / (block_n / 8), c = v % (block_n / 8) * 8;
            *(uint4 *)&Bs[r * LDB + c] = *(const uint4 *)&B[(size_t)(k0 + r) * size + col0 + c];
        }
        __syncthreads();
#pragma unroll
        for (int kk = 0; kk < block_k; kk += 16) {
            wmma::fragment<wmma::matrix_a, 16, 16, 16, __nv_bfloat16, wmma::row_major> a[FRAGS_M];
            wmma::fragment<wmma::matrix_b, 16, 16, 16, __nv_bfloat16, wmma::row_major> b[FRAGS_N];
#pragma unroll
            for (int i = 0; i < FRAGS_M; i++)
                wmma::load_matrix_sync(a[i], &As[(wm * warp_m + i * 16) * LDA + kk], LDA);
#pragma unroll
            for (int j = 0; j < FRAGS_N; j++)
                wmma::load_matrix_sync(b[j], &Bs[kk * LDB + wn * warp_n + j * 16], LDB);
#pragma unroll
            for (int i = 0; i < FRAGS_M; i++)
#pragma unroll
                for (int j = 0; j < FRAGS_N; j++)
                    wmma::mma_sync(acc[i][j], a[i], b[j], acc[i][j]);
        }
        __syncthreads();
    }

#pragma unroll
    for (int i = 0; i < FRAGS_M; i++)
#pragma unroll
        for (int j = 0; j < FRAGS_N; j++) {
            size_t r = row0 + wm * warp_m + i * 16, c = col0 + wn * warp_n + j * 16;
            wmma::store_matrix_sync(&C[r * size + c], acc[i][j], size, wmma::mem_row_major);
        }
}

// The reference: one output per thread, k in order, the bfloat16 inputs
// widened to float.
extern "C" __global__ void gemm_bf16_naive(float *C, const __nv_bfloat16 *A, const __nv_bfloat16 *B, int size)
{
    int col = blockIdx.x * blockDim.x + threadIdx.x, row = blockIdx.y * blockDim.y + threadIdx.y;
    if (row >= size || col >= size)
        return;
    float s = 0.0f;
    for (int k = 0; k < size; k++)
        s += __bfloat162float(A[(size_t)row * size + k]) * __bfloat162float(B[(size_t)k * size + col]);
    C[(size_t)row * size + col] = s;
}
