/* stencil2d.cu - a 3 x 3 Gaussian blur (9-point stencil) of an n x n float
 * image, row-major, the edges replicated (coordinates clamped to the image),
 * written as a tuner writes it: the block shape, the work per thread and
 * whether the tile goes through shared memory are -D defines.
 *
 *   out[y][x] = (4 c + 2 (w + e + n + s) + (nw + ne + sw + se)) / 16
 *
 * -Dblock_size_x=BX -Dblock_size_y=BY -Drows_per_thread=R
 * -Dcols_per_thread=C -Duse_shared=S. A block computes a tile of (BX C) x
 * (BY R) outputs; thread (tx, ty) computes columns tx, tx + BX, ..,
 * tx + (C-1) BX of rows ty, ty + BY, .., ty + (R-1) BY. With S = 1 the tile
 * and its one-point halo, (BX C + 2) x (BY R + 2) floats, are staged in
 * shared memory with coalesced row loads first; with S = 0 every input
 * comes from global memory (the L1 and L2 give the reuse). */

__device__ __forceinline__ int clampi(int v, int hi)
{
    return v < 0 ? 0 : (v > hi ? hi : v);
}

/* The one formula, shared by the kernels so they round alike. */
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

#if defined(block_size_x) && defined(block_size_y) && defined(rows_per_thread) && defined(cols_per_thread) && \
    defined(use_shared)
#define TILE_W (block_size_x * cols_per_thread)
#define TILE_H (block_size_y * rows_per_thread)
#define THREADS (block_size_x * block_size_y)

extern "C" __global__ void __launch_bounds__(THREADS) blur_tuned(float *out, const float *in, int size)
{
    const int x0 = blockIdx.x * TILE_W, y0 = blockIdx.y * TILE_H;
#if use_shared
    __shared__ float t[TILE_H + 2][TILE_W + 2];
    const int tid = threadIdx.y * block_size_x + threadIdx.x;
    for (int e = tid; e < (TILE_H + 2) * (TILE_W + 2); e += THREADS) {
        const int ty = e / (TILE_W + 2), tx = e - ty * (TILE_W + 2);
        const int gx = clampi(x0 + tx - 1, size - 1), gy = clampi(y0 + ty - 1, size - 1);
        t[ty][tx] = in[(long)gy * size + gx];
    }
    __syncthreads();
#endif
#pragma unroll
    for (int r = 0; r < rows_per_thread; r++) {
        const int ly = threadIdx.y + r * block_size_y;
        const int y = y0 + ly;
#pragma unroll
        for (int q = 0; q < cols_per_thread; q++) {
            const int lx = threadIdx.x + q * block_size_x;
            const int x = x0 + lx;
            if (x >= size || y >= size)
                continue;
#if use_shared
            const int c = lx + 1, l = ly + 1;
            out[(long)y * size + x] = blur9(t[l - 1][c - 1], t[l - 1][c], t[l - 1][c + 1], t[l][c - 1], t[l][c],
                                            t[l][c + 1], t[l + 1][c - 1], t[l + 1][c], t[l + 1][c + 1]);
#else
            const int xm = clampi(x - 1, size - 1), xp = clampi(x + 1, size - 1);
            const long rm = (long)clampi(y - 1, size - 1) * size, r0 = (long)y * size,
                       rp = (long)clampi(y + 1, size - 1) * size;
            out[r0 + x] = blur9(__ldg(in + rm + xm), __ldg(in + rm + x), __ldg(in + rm + xp), __ldg(in + r0 + xm),
                                __ldg(in + r0 + x), __ldg(in + r0 + xp), __ldg(in + rp + xm), __ldg(in + rp + x),
                                __ldg(in + rp + xp));
#endif
        }
    }
}
#endif
