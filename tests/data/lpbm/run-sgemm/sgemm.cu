// Tiled SGEMM, C = A * B, n x n floats: the thesis's listing 4.1 in CUDA.
// TILE is the tile width (block_size_x); n a multiple of TILE.
extern "C" __global__ void sgemm_tiled(float *C, const float *A, const float *B, int width)
{
    __shared__ float As[TILE][TILE];
    __shared__ float Bs[TILE][TILE];
    int tx = threadIdx.x, ty = threadIdx.y;
    int row = blockIdx.y * TILE + ty;
    int col = blockIdx.x * TILE + tx;
    float acc = 0.0f;
    for (int m = 0; m < width / TILE; m++) {
        As[ty][tx] = A[row * width + m * TILE + tx];
        Bs[ty][tx] = B[(m * TILE + ty) * width + col];
        __syncthreads();
        for (int k = 0; k < TILE; k++)
            acc += As[ty][k] * Bs[k][tx];
        __syncthreads();
    }
    C[row * width + col] = acc;
}

extern "C" __global__ void sgemm_naive(float *C, const float *A, const float *B, int width)
{
    int row = blockIdx.y * blockDim.y + threadIdx.y;
    int col = blockIdx.x * blockDim.x + threadIdx.x;
    if (row < width && col < width) {
        float acc = 0.0f;
        for (int k = 0; k < width; k++)
            acc += A[row * width + k] * B[k * width + col];
        C[row * width + col] = acc;
    }
}
