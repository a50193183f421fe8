/* rotate.cu - rotates a row-major image of float4 pixels (four channels:
 * RGBA, or any four planes kept interleaved) by a fixed angle about its
 * centre, with bilinear interpolation (the affine warp of an image pipeline
 * or of data augmentation, without textures). Output pixel (x, y) takes its
 * value at the source point
 *   sx = cx + cos t (x - cx) + sin t (y - cy),
 *   sy = cy - sin t (x - cx) + cos t (y - cy),
 * cx = (width - 1) / 2, cy = (height - 1) / 2: the four pixels around it
 * weighted by the fractions of sx and sy, channel by channel, a pixel
 * outside the image counting as 0 (so the corners of the output, whose
 * source is outside, are 0, and its edges fade). The image is read through
 * ordinary 16-byte loads: a warp's 32 pixels of an output row read along a
 * line across the input rows at the angle, and each input pixel feeds about
 * four outputs, through L1 and L2.
 *
 * A block of block_size_x x block_size_y threads writes block_size_x
 * columns and block_size_y * ppt rows of the output; thread (tx, ty) writes
 * column x0 + tx at rows y0 + ty, y0 + ty + block_size_y, ... (ppt of them).
 * Every pixel's source point and value are computed by the same function,
 * from its own coordinates.
 *
 * Compiled with -Dblock_size_x=BX -Dblock_size_y=BY -Dppt=P -Dside=S. */

/* One channel: the bilinear blend of the four neighbours' values. */
__device__ __forceinline__ float rotate_blend(float ax, float ay, float p00, float p01, float p10, float p11)
{
    const float top = fmaf(ax, p01 - p00, p00);
    const float bot = fmaf(ax, p11 - p10, p10);
    return fmaf(ay, bot - top, top);
}

/* Output pixel (x, y) of the w x h image rotated by the angle whose cosine
 * and sine are ct and st; shared by the kernel and the reference so that both
 * compute it with the same operations (explicit fmas, nothing left to
 * contraction). */
__device__ __forceinline__ float4 rotate_pixel(const float4 *__restrict__ src, int w, int h, float ct, float st,
                                               int x, int y)
{
    const float cx = 0.5f * (float)(w - 1), cy = 0.5f * (float)(h - 1);
    const float u = (float)x - cx, v = (float)y - cy;
    const float sx = fmaf(ct, u, fmaf(st, v, cx));
    const float sy = fmaf(ct, v, fmaf(-st, u, cy));
    const float fx0 = floorf(sx), fy0 = floorf(sy);
    const float ax = sx - fx0, ay = sy - fy0;
    const int x0 = (int)fx0, y0 = (int)fy0;
    const bool in_x0 = x0 >= 0 && x0 < w, in_x1 = x0 + 1 >= 0 && x0 + 1 < w;
    const bool in_y0 = y0 >= 0 && y0 < h, in_y1 = y0 + 1 >= 0 && y0 + 1 < h;
    const float4 *r0 = src + (long)y0 * w, *r1 = r0 + w;
    const float4 zero = make_float4(0.0f, 0.0f, 0.0f, 0.0f);
    const float4 p00 = in_y0 && in_x0 ? r0[x0] : zero;
    const float4 p01 = in_y0 && in_x1 ? r0[x0 + 1] : zero;
    const float4 p10 = in_y1 && in_x0 ? r1[x0] : zero;
    const float4 p11 = in_y1 && in_x1 ? r1[x0 + 1] : zero;
    return make_float4(rotate_blend(ax, ay, p00.x, p01.x, p10.x, p11.x),
                       rotate_blend(ax, ay, p00.y, p01.y, p10.y, p11.y),
                       rotate_blend(ax, ay, p00.z, p01.z, p10.z, p11.z),
                       rotate_blend(ax, ay, p00.w, p01.w, p10.w, p11.w));
}

/* The reference: one output pixel per thread. */
extern "C" __global__ void rotate_reference(float4 *out, const float4 *in, int width, int height, float ct, float st)
{
    const int x = blockIdx.x * blockDim.x + threadIdx.x;
    const int y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x < width && y < height)
        out[(long)y * width + x] = rotate_pixel(in, width, height, ct, st, x, y);
}

extern "C" __global__ void __launch_bounds__(block_size_x * block_size_y)
    rotate(float4 *out, const float4 *__restrict__ in, int width, int height, float ct, float st)
{
    const int x = blockIdx.x * block_size_x + threadIdx.x;
    const int y0 = blockIdx.y * (block_size_y * ppt) + threadIdx.y;
    if (x >= width)
        return;
#pragma unroll
    for (int k = 0; k < ppt; k++) {
        const int y = y0 + k * block_size_y;
        if (y < height)
            out[(long)y * width + x] = rotate_pixel(in, width, height, ct, st, x, y);
    }
}
