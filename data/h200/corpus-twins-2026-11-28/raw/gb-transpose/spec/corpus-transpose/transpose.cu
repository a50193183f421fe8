/* transpose.cu - out = in^T for an n x n row-major float matrix: the naive
 * kernel, the shared-memory tiled kernel, and the tiled kernel with a
 * padded tile (no bank conflicts on the column reads).
 *
 * naive:  -Dblock_size_x=BX -Dblock_size_y=BY -Dn=N; one element per
 *         thread, coalesced reads, writes n floats apart.
 * tiled, padded: -Dtile=T -Dblock_rows=R -Dn=N; a block of T x R threads
 *         moves a T x T tile: it reads T rows (each thread T / R elements,
 *         coalesced) into shared memory, then writes the tile's columns as
 *         rows of out (coalesced). `tiled` keeps the tile as T x T floats,
 *         so a warp reading a column of it hits one bank T-way (32-way at
 *         T = 32); `padded` makes the rows T + 1 floats long. */

/* The reference: one element per thread, 16 x 16 blocks. */
extern "C" __global__ void transpose_reference(float *out, const float *in, int size)
{
    const int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x < size && y < size)
        out[(long)x * size + y] = in[(long)y * size + x];
}

#if defined(block_size_x) && defined(block_size_y)
extern "C" __global__ void __launch_bounds__(block_size_x * block_size_y)
    transpose_naive(float *out, const float *in, int size)
{
    const int x = blockIdx.x * block_size_x + threadIdx.x, y = blockIdx.y * block_size_y + threadIdx.y;
    if (x < size && y < size)
        out[(long)x * size + y] = in[(long)y * size + x];
}
#endif

#if defined(tile) && defined(block_rows)
#define TD tile
template <int PAD>
__device__ __forceinline__ void transpose_tile(float (*t)[TD + PAD], float *out, const float *in, int size)
{
    const int tx = threadIdx.x, ty = threadIdx.y;
    int x = blockIdx.x * TD + tx, y = blockIdx.y * TD + ty;
#pragma unroll
    for (int j = 0; j < TD; j += block_rows)
        if (x < size && y + j < size)
            t[ty + j][tx] = in[(long)(y + j) * size + x];
    __syncthreads();
    x = blockIdx.y * TD + tx; /* the tile's place in out: blocks swap x and y */
    y = blockIdx.x * TD + ty;
#pragma unroll
    for (int j = 0; j < TD; j += block_rows)
        if (x < size && y + j < size)
            out[(long)(y + j) * size + x] = t[tx][ty + j];
}

extern "C" __global__ void __launch_bounds__(tile * block_rows)
    transpose_tiled(float *out, const float *in, int size)
{
    __shared__ float t[TD][TD];
    transpose_tile<0>(t, out, in, size);
}

extern "C" __global__ void __launch_bounds__(tile * block_rows)
    transpose_padded(float *out, const float *in, int size)
{
    __shared__ float t[TD][TD + 1];
    transpose_tile<1>(t, out, in, size);
}
#endif
