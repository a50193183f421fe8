/* gemm.cu - tiled SGEMM C = A B of n x n row-major floats: a gemm_tile x
 * gemm_tile block computes as many outputs of C, one a thread, with k in
 * steps of gemm_tile through two shared tiles. Compiled with
 * -Dgemm_tile=T -Dgemm_n=N (N a multiple of T); the grid is (N/T, N/T). */

extern "C" __global__ void __launch_bounds__(gemm_tile * gemm_tile)
    twin_gemm(float *C, const float *A, const float *B, int n)
{
    __shared__ float as[gemm_tile][gemm_tile];
    __shared__ float bs[gemm_tile][gemm_tile];
    const int tx = threadIdx.x, ty = threadIdx.y;
    const int row = blockIdx.y * gemm_tile + ty, col = blockIdx.x * gemm_tile + tx;
    float acc = 0.0f;
    for (int k0 = 0; k0 < n; k0 += gemm_tile) {
        as[ty][tx] = A[(long)row * n + k0 + tx];
        bs[ty][tx] = B[(long)(k0 + ty) * n + col];
        __syncthreads();
#pragma unroll
        for (int k = 0; k < gemm_tile; k++)
            acc += as[ty][k] * bs[k][tx];
        __syncthreads();
    }
    C[(long)row * n + col] = acc;
}

/* The reference: one output a thread, k in order. */
extern "C" __global__ void twin_gemm_reference(float *C, const float *A, const float *B, int n)
{
    const int row = blockIdx.y * blockDim.y + threadIdx.y, col = blockIdx.x * blockDim.x + threadIdx.x;
    if (row >= n || col >= n)
        return;
    float acc = 0.0f;
    for (int k = 0; k < n; k++)
        acc += A[(long)row * n + k] * B[(long)k * n + col];
    C[(long)row * n + col] = acc;
}
