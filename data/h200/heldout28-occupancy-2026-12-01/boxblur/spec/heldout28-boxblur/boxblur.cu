/* boxblur.cu - a box blur of a float image, the mean of the (2 rad + 1)^2
 * pixels around each one, the edge pixels repeated past the image's
 * borders:
 *     out[r][c] = sum over |dr|, |dc| <= rad of in[clamp(r + dr)][clamp(c + dc)] / (2 rad + 1)^2
 * (rad 1: 3 x 3, rad 2: 5 x 5), rows clamped to 0 .. count - 1 and
 * columns to 0 .. IMGW - 1. in and out hold count rows of IMGW (2048)
 * floats, row-major (8 KiB a row): 4 bytes read and 4 written per pixel.
 *
 * A block of block_size_x threads is TR = block_size_x / 32 rows of a
 * warp each and makes a tile of 32 columns by TH = rpt TR rows: its
 * threads first stage the tile's inputs with a halo of rad pixels all
 * round, (TH + 2 rad) x (32 + 2 rad) floats, in shared memory (NLD loads
 * a thread, all issued before the first store to shared memory, each
 * warp's load a row of the staged tile and the start of the next), and
 * after a barrier lane tx of warp ty sums the box around each of its rpt
 * outputs in column tx, rows ty, ty + TR, ... (a warp's shared reads 32
 * consecutive words: no bank conflicts), scales the sum by the
 * reciprocal of the box's size and stores the row's 32 outputs (128
 * contiguous bytes). The grid is IMGW / 32 (64) tiles across by
 * ceil(count / TH) down; a partial last row of tiles is guarded.
 *
 * Compiled with -Dblock_size_x=T -Drpt=P -Drad=R -Dnrows=N. */

#define IMGW 2048 /* floats per row */

#if rad != 1 && rad != 2 && rad != 3
#error "rad is 1, 2 or 3"
#endif
#if rpt != 1 && rpt != 2 && rpt != 4 && rpt != 8
#error "rpt is 1, 2, 4 or 8"
#endif
#if block_size_x % 32 != 0
#error "block_size_x is a whole number of warps"
#endif

#define KW (2 * rad + 1)             /* the box's width */
#define TR (block_size_x / 32)       /* rows of threads */
#define TH (rpt * TR)                /* output rows per tile */
#define SW (32 + 2 * rad)            /* staged columns */
#define SH (TH + 2 * rad)            /* staged rows */
#define NLD ((SH * SW + block_size_x - 1) / block_size_x) /* staging loads per thread */

/* The reference: one pixel per thread, its box's pixels from global memory
 * with the rows and columns clamped by comparisons, summed in double and
 * divided by the box's size, rounded to float once. */
extern "C" __global__ void boxblur_reference(float *out, const float *in, int count)
{
    const long long p = (long long)blockIdx.x * blockDim.x + threadIdx.x;
    if (p >= (long long)count * 2048)
        return;
    const long long r = p / 2048, c = p % 2048;
    const int w = 2 * rad + 1;
    double sum = 0.0;
    for (int dr = -rad; dr <= rad; dr++)
        for (int dc = -rad; dc <= rad; dc++) {
            long long rr = r + dr, cc = c + dc;
            if (rr < 0)
                rr = 0;
            if (rr > count - 1)
                rr = count - 1;
            if (cc < 0)
                cc = 0;
            if (cc > 2047)
                cc = 2047;
            sum += (double)in[rr * 2048 + cc];
        }
    out[p] = (float)(sum / (double)(w * w));
}

extern "C" __global__ void __launch_bounds__(block_size_x)
    boxblur(float *__restrict__ out, const float *__restrict__ in, int count)
{
    __shared__ float tile[SH][SW]; /* tile[s][u] = in[r0 - rad + s][c0 - rad + u], clamped */
    const int tx = threadIdx.x % 32, ty = threadIdx.x / 32;
    const int c0 = blockIdx.x * 32, r0 = blockIdx.y * TH;

    float v[NLD];
#pragma unroll
    for (int q = 0; q < NLD; q++) {
        const int e = threadIdx.x + q * block_size_x;
        if (e < SH * SW) {
            const int gr = min(max(r0 - rad + e / SW, 0), count - 1);
            const int gc = min(max(c0 - rad + e % SW, 0), IMGW - 1);
            v[q] = __ldg(in + (long)gr * IMGW + gc);
        } else {
            v[q] = 0.0f;
        }
    }
#pragma unroll
    for (int q = 0; q < NLD; q++) {
        const int e = threadIdx.x + q * block_size_x;
        if (e < SH * SW)
            tile[e / SW][e % SW] = v[q];
    }
    __syncthreads();

#pragma unroll
    for (int k = 0; k < rpt; k++) {
        const int s = ty + k * TR; /* the output's row in the tile */
        float sum = 0.0f;
#pragma unroll
        for (int dr = 0; dr < KW; dr++)
#pragma unroll
            for (int dc = 0; dc < KW; dc++)
                sum += tile[s + dr][tx + dc];
        if (r0 + s < count)
            out[(long)(r0 + s) * IMGW + c0 + tx] = sum * (1.0f / (KW * KW));
    }
}
