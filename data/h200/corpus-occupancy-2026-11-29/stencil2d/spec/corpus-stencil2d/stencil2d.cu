/* stencil2d.cu - a 3 x 3 Gaussian blur (9-point stencil) of an n x n float
 * image, row-major, the edges replicated (coordinates clamped to the image).
 *
 *   out[y][x] = (4 c + 2 (w + e + n + s) + (nw + ne + sw + se)) / 16
 *
 * Compiled with -Dblock_size_x=BX -Dblock_size_y=BY -Drows_per_thread=R
 * -Dn=N. A block computes a tile of BX x (BY R) outputs: it stages the tile
 * and its one-point halo, (BX + 2) x (BY R + 2) floats, in shared memory with
 * coalesced row loads, then thread (tx, ty) computes rows ty, ty + BY, ..,
 * ty + (R-1) BY of column tx from shared memory. */

__device__ __forceinline__ int clampi(int v, int hi)
{
    return v < 0 ? 0 : (v > hi ? hi : v);
}

/* The one formula, shared by both kernels so they round alike. */
__device__ __forceinline__ float blur9(float nw, float nn, float ne, float ww, float c, float ee, float sw,
                                      float ss, float se)
{
    const float corners = (nw + ne) + (sw + se);
    const float edges = (nn + ss) + (ww + ee);
    return (4.0f * c + 2.0f * edges + corners) * 0.0625f;
}

/* The reference: one output per thread, every input from global memory. */
extern "C" __global__ void blur_reference(float *out, const float *in, int size)
{
    const int x = blockIdx.x * blockDim.x + threadIdx.x;
    const int y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x >= size || y >= size)
        return;
    const int xm = clampi(x - 1, size - 1), xp = clampi(x + 1, size - 1);
    const long rm = (long)clampi(y - 1, size - 1) * size, r0 = (long)y * size,
               rp = (long)clampi(y + 1, size - 1) * size;
    out[r0 + x] = blur9(in[rm + xm], in[rm + x], in[rm + xp], in[r0 + xm], in[r0 + x], in[r0 + xp], in[rp + xm],
                        in[rp + x], in[rp + xp]);
}

#define TILE_W block_size_x
#define TILE_H (block_size_y * rows_per_thread)
#define THREADS (block_size_x * block_size_y)

extern "C" __global__ void __launch_bounds__(THREADS) blur_tiled(float *out, const float *in, int size)
{
    __shared__ float t[TILE_H + 2][TILE_W + 2];
    const int x0 = blockIdx.x * TILE_W, y0 = blockIdx.y * TILE_H;
    const int tid = threadIdx.y * block_size_x + threadIdx.x;
    for (int e = tid; e < (TILE_H + 2) * (TILE_W + 2); e += THREADS) {
        const int ty = e / (TILE_W + 2), tx = e - ty * (TILE_W + 2);
        const int gx = clampi(x0 + tx - 1, size - 1), gy = clampi(y0 + ty - 1, size - 1);
        t[ty][tx] = in[(long)gy * size + gx];
    }
    __syncthreads();
    const int x = x0 + threadIdx.x;
    const int c = threadIdx.x + 1;
#pragma unroll
    for (int r = 0; r < rows_per_thread; r++) {
        const int ly = threadIdx.y + r * block_size_y + 1;
        const int y = y0 + ly - 1;
        if (x < size && y < size)
            out[(long)y * size + x] = blur9(t[ly - 1][c - 1], t[ly - 1][c], t[ly - 1][c + 1], t[ly][c - 1], t[ly][c],
                                            t[ly][c + 1], t[ly + 1][c - 1], t[ly + 1][c], t[ly + 1][c + 1]);
    }
}
