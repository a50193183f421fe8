/* transpose.cu - out-of-place transpose of an n x n float matrix,
 * row-major, out[c][r] = in[r][c], through a shared-memory tile, written as
 * a tuner writes it: the tile, the threads per block, the width of the
 * global loads and of the global stores, the padding of the tile's rows and
 * the order of the blocks are -D defines.
 *
 * -Dtile=T -Dblock_size_x=B -Dvec_in=VI -Dvec_out=VO -Dpadding=P
 * -Ddiagonal=D. A block of B threads moves a T x T tile: it reads the tile's
 * rows from `in`, VI floats per load (float, float2 or float4), into
 * shared memory, then writes the tile's columns as rows of `out`, VO floats
 * per store. Each row of the shared tile is T + P floats, so that a column
 * read by consecutive threads falls on other banks when P > 0. With D = 1
 * the blocks take the tiles in diagonal order (block (x, y) moves tile
 * ((x + y) mod g, x) of a g x g grid), which spreads the blocks running at
 * once over more columns of `out`. n is a multiple of T (the spec's
 * restriction) and T T is a multiple of B VI and of B VO, so every thread
 * moves the same whole number of vectors (1 to 16 in each phase) and no
 * tile is partial. */

/* The reference: one element per thread. */
extern "C" __global__ void transpose_naive(float *out, const float *in, int size)
{
    const int c = blockIdx.x * blockDim.x + threadIdx.x;
    const int r = blockIdx.y * blockDim.y + threadIdx.y;
    if (r < size && c < size)
        out[(long)c * size + r] = in[(long)r * size + c];
}

#if defined(tile) && defined(block_size_x) && defined(vec_in) && defined(vec_out) && defined(padding) && \
    defined(diagonal)
#define TP_W (tile + padding)

extern "C" __global__ void __launch_bounds__(block_size_x) transpose_tuned(float *out, const float *in, int size)
{
    __shared__ float t[tile][TP_W];
#if diagonal
    const int bx = (blockIdx.x + blockIdx.y) % gridDim.x, by = blockIdx.x;
#else
    const int bx = blockIdx.x, by = blockIdx.y;
#endif
    /* The tile's first row and column in `in`. */
    const long r0 = (long)by * tile, c0 = (long)bx * tile;
#pragma unroll
    for (int k = 0; k < tile * tile / (block_size_x * vec_in); k++) {
        const int e = k * block_size_x + threadIdx.x; /* the vector of the tile */
        const int r = e / (tile / vec_in), c = (e % (tile / vec_in)) * vec_in;
        const float *src = in + (r0 + r) * size + c0 + c;
#if vec_in == 4
        const float4 v = *reinterpret_cast<const float4 *>(src);
        t[r][c] = v.x, t[r][c + 1] = v.y, t[r][c + 2] = v.z, t[r][c + 3] = v.w;
#elif vec_in == 2
        const float2 v = *reinterpret_cast<const float2 *>(src);
        t[r][c] = v.x, t[r][c + 1] = v.y;
#else
        t[r][c] = *src;
#endif
    }
    __syncthreads();
    /* Row r of the output tile is column r of the shared tile. */
#pragma unroll
    for (int k = 0; k < tile * tile / (block_size_x * vec_out); k++) {
        const int e = k * block_size_x + threadIdx.x;
        const int r = e / (tile / vec_out), c = (e % (tile / vec_out)) * vec_out;
        float *dst = out + (c0 + r) * size + r0 + c;
#if vec_out == 4
        *reinterpret_cast<float4 *>(dst) = make_float4(t[c][r], t[c + 1][r], t[c + 2][r], t[c + 3][r]);
#elif vec_out == 2
        *reinterpret_cast<float2 *>(dst) = make_float2(t[c][r], t[c + 1][r]);
#else
        *dst = t[c][r];
#endif
    }
}
#endif
