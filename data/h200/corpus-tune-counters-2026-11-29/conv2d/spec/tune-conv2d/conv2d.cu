/* conv2d.cu - 2D convolution (correlation) of an n x n float image with a
 * 7 x 7 float filter, row-major, written as a tuner writes it: the block
 * shape, the outputs per thread, the shared-memory tile and its padding and
 * the read-only loads are -D defines.
 *
 *   out[y][x] = sum over j, i in 0..6 of in[y + j][x + i] * filt[j][i]
 *
 * The input is (n + 6) x (n + 6): the border the filter reads around the
 * n x n outputs is part of it, so no output is clamped or special.
 *
 * -Dblock_size_x=BX -Dblock_size_y=BY -Dtile_size_x=TX -Dtile_size_y=TY
 * -Duse_shared=S -Duse_padding=P -Dread_only=R. A block computes a tile of
 * (BX TX) x (BY TY) outputs; thread (tx, ty) computes columns tx, tx + BX,
 * .., tx + (TX-1) BX of rows ty, ty + BY, .., ty + (TY-1) BY, all in
 * registers. With S = 1 the input tile and its border, (BY TY + 6) x
 * (BX TX + 6) floats, are staged in shared memory (each row P floats wider,
 * to move rows of a warp onto other banks); with S = 0 every input is read
 * from global memory, through the read-only path (__ldg) when R = 1. Every
 * kernel adds the 49 products of an output in the same order (row j, then
 * column i) with fmaf, so results agree with the reference bit for bit. */

#define FILTER 7

/* The reference: one output per thread, every input from global memory. */
extern "C" __global__ void conv2d_naive(float *out, const float *in, const float *filt, int size)
{
    const int x = blockIdx.x * blockDim.x + threadIdx.x;
    const int y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x >= size || y >= size)
        return;
    const int w = size + FILTER - 1;
    float acc = 0.0f;
    for (int j = 0; j < FILTER; j++)
        for (int i = 0; i < FILTER; i++)
            acc = fmaf(in[(long)(y + j) * w + x + i], filt[j * FILTER + i], acc);
    out[(long)y * size + x] = acc;
}

#if defined(block_size_x) && defined(block_size_y) && defined(tile_size_x) && defined(tile_size_y) && \
    defined(use_shared) && defined(use_padding) && defined(read_only)
#define TILE_W (block_size_x * tile_size_x)
#define TILE_H (block_size_y * tile_size_y)
#define SH_W (TILE_W + FILTER - 1 + use_padding)
#define SH_H (TILE_H + FILTER - 1)
#define THREADS (block_size_x * block_size_y)
/* Without read_only the input is not __restrict__ either, so that the
 * compiler does not take the read-only path on its own. */
#if read_only
#define LOAD(p) __ldg(p)
#define IN_RESTRICT __restrict__
#else
#define LOAD(p) (*(p))
#define IN_RESTRICT
#endif

extern "C" __global__ void __launch_bounds__(THREADS)
    conv2d_tuned(float *out, const float *IN_RESTRICT in, const float *__restrict__ filt, int size)
{
    const int x0 = blockIdx.x * TILE_W, y0 = blockIdx.y * TILE_H;
    const int w = size + FILTER - 1;
#if use_shared
    __shared__ float sh[SH_H][SH_W];
    const int tid = threadIdx.y * block_size_x + threadIdx.x;
    /* Row by row, consecutive threads on consecutive columns; positions past
     * the input (a tile of a grid that rounds up) read as zero. */
    for (int e = tid; e < SH_H * (TILE_W + FILTER - 1); e += THREADS) {
        const int r = e / (TILE_W + FILTER - 1), c = e - r * (TILE_W + FILTER - 1);
        const int gy = y0 + r, gx = x0 + c;
        sh[r][c] = (gy < w && gx < w) ? LOAD(in + (long)gy * w + gx) : 0.0f;
    }
    __syncthreads();
#endif
    float acc[tile_size_y][tile_size_x];
#pragma unroll
    for (int r = 0; r < tile_size_y; r++)
#pragma unroll
        for (int q = 0; q < tile_size_x; q++)
            acc[r][q] = 0.0f;
#if !use_shared
    /* An output past the image reads a clamped row or column (its result is
     * never stored), so no load leaves the input. */
    long row[tile_size_y];
    int col[tile_size_x];
#pragma unroll
    for (int r = 0; r < tile_size_y; r++)
        row[r] = (long)min(y0 + (int)threadIdx.y + r * block_size_y, size - 1) * w;
#pragma unroll
    for (int q = 0; q < tile_size_x; q++)
        col[q] = min(x0 + (int)threadIdx.x + q * block_size_x, size - 1);
#endif
#pragma unroll
    for (int j = 0; j < FILTER; j++) {
#pragma unroll
        for (int i = 0; i < FILTER; i++) {
            const float f = __ldg(filt + j * FILTER + i);
#pragma unroll
            for (int r = 0; r < tile_size_y; r++)
#pragma unroll
                for (int q = 0; q < tile_size_x; q++) {
#if use_shared
                    const float v = sh[threadIdx.y + r * block_size_y + j][threadIdx.x + q * block_size_x + i];
#else
                    const float v = LOAD(in + row[r] + (long)j * w + col[q] + i);
#endif
                    acc[r][q] = fmaf(v, f, acc[r][q]);
                }
        }
    }
#pragma unroll
    for (int r = 0; r < tile_size_y; r++) {
        const int y = y0 + threadIdx.y + r * block_size_y;
#pragma unroll
        for (int q = 0; q < tile_size_x; q++) {
            const int x = x0 + threadIdx.x + q * block_size_x;
            if (x < size && y < size)
                out[(long)y * size + x] = acc[r][q];
        }
    }
}
#endif
