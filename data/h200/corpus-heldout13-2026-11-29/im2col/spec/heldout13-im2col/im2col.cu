/* im2col.cu - the im2col expansion of a 3 x 3 convolution with a padding
 * of 1 and a stride of 1 (Caffe's im2col_gpu, the lowering that turns a
 * convolution into a GEMM): for an input of chans channels of side x side
 * floats, col holds 9 chans rows of side^2 floats,
 *     col[(c 9 + ky 3 + kx) side^2 + y side + x] = in[c][y + ky - 1][x + kx - 1],
 * zero where (y + ky - 1, x + kx - 1) falls outside the image. Every input
 * is written 9 times (at most), every output element is written once.
 *
 * A block of block_size_x threads takes TILE = block_size_x x ppt
 * consecutive pixels of one channel (blockIdx.y); thread t the pixels t,
 * t + block_size_x, ... of the tile, and for each its 9 outputs, one in
 * each of the channel's 9 rows of col (a warp writes 32 consecutive floats
 * of a row). The 9 values come
 *   stage 0: from global memory, each a load through L1 (9 loads a pixel,
 *            the rows above and below and the neighbours shared with other
 *            threads through the caches);
 *   stage 1: from shared memory, into which the block first copies the
 *            flat range of its channel from one row and one pixel before
 *            its tile to one row and one pixel after it (TILE + 2 side + 2
 *            floats, each loaded once): neighbour (dy, dx) of pixel p is
 *            p + dy side + dx in that range.
 * Both copy values: col equals the reference's bit for bit.
 *
 * Compiled with -Dblock_size_x=B -Dppt=P -Dstage=S -Dside=W. */

#define TILE (block_size_x * ppt) /* pixels per block */
#define HW ((long)side * side)    /* pixels per channel */

#if ppt != 1 && ppt != 2 && ppt != 4
#error "ppt is 1, 2 or 4"
#endif
#if stage != 0 && stage != 1
#error "stage is 0 or 1"
#endif

/* The reference: an element of col per thread, its source found by division. */
extern "C" __global__ void im2col_reference(float *col, const float *in, int chans)
{
    const long g = (long)blockIdx.x * blockDim.x + threadIdx.x;
    if (g >= (long)chans * 9 * HW)
        return;
    const long row = g / HW;
    const int p = (int)(g % HW);
    const int c = (int)(row / 9), k = (int)(row % 9);
    const int yy = p / side + k / 3 - 1, xx = p % side + k % 3 - 1;
    col[g] = (yy >= 0 && yy < side && xx >= 0 && xx < side) ? in[(long)c * HW + (long)yy * side + xx] : 0.0f;
}

extern "C" __global__ void __launch_bounds__(block_size_x) im2col(float *__restrict__ col, const float *__restrict__ in, int chans)
{
    const int t = threadIdx.x;
    const int c = blockIdx.y;
    const int p0 = blockIdx.x * TILE; /* the tile's first pixel */
    const float *src = in + (long)c * HW;
    float *dst = col + (long)c * 9 * HW;
    (void)chans;
#if stage == 1
    /* s[j] = pixel p0 - side - 1 + j of the channel, 0 outside it */
    __shared__ float s[TILE + 2 * side + 2];
    for (int j = t; j < TILE + 2 * side + 2; j += block_size_x) {
        const long q = (long)p0 - side - 1 + j;
        s[j] = (q >= 0 && q < HW) ? src[q] : 0.0f;
    }
    __syncthreads();
#endif
#pragma unroll
    for (int e = 0; e < ppt; e++) {
        const int p = p0 + t + e * block_size_x;
        if (p >= HW)
            break;
        const int y = p / side, x = p - y * side;
#pragma unroll
        for (int ky = 0; ky < 3; ky++) {
            const bool yin = (unsigned)(y + ky - 1) < (unsigned)side;
#pragma unroll
            for (int kx = 0; kx < 3; kx++) {
                const bool in_img = yin && (unsigned)(x + kx - 1) < (unsigned)side;
#if stage == 0
                const float v = in_img ? __ldg(src + p + (ky - 1) * side + (kx - 1)) : 0.0f;
#else
                const float v = in_img ? s[p - p0 + side + 1 + (ky - 1) * side + (kx - 1)] : 0.0f;
#endif
                dst[(long)(ky * 3 + kx) * HW + p] = v;
            }
        }
    }
}
