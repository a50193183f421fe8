/* resize.cu - bilinear 2x upscaling of a side x side float image (row-major)
 * into 2 side x 2 side, half-pixel centres, edges clamped (the resize of an
 * image pipeline or of a feature map). Each input pixel feeds 16 outputs:
 * the reuse is left to L1 and L2, as a texture fetch would.
 *
 * Compiled with -Dblock_size_x=BX -Dblock_size_y=BY -Drows_per_thread=R
 * -Dside=S. A block of BX x BY threads writes BX columns and BY x R rows of
 * the output; a thread writes R consecutive rows of one column, which share
 * input rows. */

/* Output pixel (ox, oy) from src (w x h); shared by the kernel and the
 * reference so both compute it with the same operations. */
__device__ __forceinline__ float bilinear(const float *__restrict__ src, int w, int h, float scale,
                                          int ox, int oy)
{
    const float fx = fmaxf(fmaf((float)ox + 0.5f, scale, -0.5f), 0.0f);
    const float fy = fmaxf(fmaf((float)oy + 0.5f, scale, -0.5f), 0.0f);
    const int x0 = (int)fx, y0 = (int)fy;
    const int x1 = min(x0 + 1, w - 1), y1 = min(y0 + 1, h - 1);
    const float ax = fx - (float)x0, ay = fy - (float)y0;
    const float *r0 = src + (long)y0 * w, *r1 = src + (long)y1 * w;
    const float top = fmaf(ax, r0[x1] - r0[x0], r0[x0]);
    const float bot = fmaf(ax, r1[x1] - r1[x0], r1[x0]);
    return fmaf(ay, bot - top, top);
}

/* The reference: one output per thread. */
extern "C" __global__ void resize_reference(float *out, const float *in, int in_side, int out_side)
{
    const int ox = blockIdx.x * blockDim.x + threadIdx.x;
    const int oy = blockIdx.y * blockDim.y + threadIdx.y;
    if (ox < out_side && oy < out_side)
        out[(long)oy * out_side + ox] =
            bilinear(in, in_side, in_side, (float)in_side / (float)out_side, ox, oy);
}

extern "C" __global__ void __launch_bounds__(block_size_x * block_size_y)
    resize_bilinear(float *out, const float *__restrict__ in, int in_side, int out_side)
{
    const int ox = blockIdx.x * block_size_x + threadIdx.x;
    const int oy0 = (blockIdx.y * block_size_y + threadIdx.y) * rows_per_thread;
    const float scale = (float)in_side / (float)out_side;
    if (ox >= out_side)
        return;
#pragma unroll
    for (int r = 0; r < rows_per_thread; r++) {
        const int oy = oy0 + r;
        if (oy < out_side)
            out[(long)oy * out_side + ox] = bilinear(in, in_side, in_side, scale, ox, oy);
    }
}
