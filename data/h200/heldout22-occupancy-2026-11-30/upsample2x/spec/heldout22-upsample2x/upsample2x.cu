/* upsample2x.cu - bilinear 2x upsampling of a float image: in holds
 * wid x hgt floats (row-major), out 2 wid x 2 hgt, half-pixel centres and
 * clamped edges (align_corners false, as the resize of an image or of a
 * feature map). Output (ox, oy) samples the input at ((ox + 1/2) / 2 -
 * 1/2, (oy + 1/2) / 2 - 1/2), so in each direction an output takes its
 * two nearest inputs with weights 1/4 and 3/4:
 *     output column 2c:     1/4 column c - 1  +  3/4 column c
 *     output column 2c + 1: 3/4 column c      +  1/4 column c + 1
 * (column -1 and column wid being the edge's own), and rows the same way.
 *
 * A thread takes CPT = opt / 4 consecutive input columns x0 .. x0 + CPT - 1
 * of one input row y and writes the opt outputs they own: columns 2 x0 to
 * 2 x0 + 2 CPT - 1 of output rows 2y and 2y + 1. It reads input rows y - 1,
 * y and y + 1 at columns x0 - 1 to x0 + CPT (3 (CPT + 2) scalar loads, the
 * columns and rows its neighbours read too coming through L1 and L2),
 * blends them vertically into the two output rows' values at those
 * columns, then horizontally into its outputs, and stores each output
 * row's 2 CPT floats by one float2 (CPT 1) or CPT / 2 float4 (an odd
 * width, whose odd output rows are not 16-byte aligned, and a thread at
 * the right edge, store float by float). No atomics, no shared memory:
 * a stencil read once and written four times over.
 *
 * Compiled with -Dblock_size_x=BX -Dblock_size_y=BY -Dopt=O -Dside=S. */

#if opt != 4 && opt != 8 && opt != 16
#error "opt is 4, 8 or 16 (1, 2 or 4 input columns per thread)"
#endif
#define CPT (opt / 4) /* input columns per thread */

/* The reference: one output per thread, at its sample position, from the
 * four inputs around it by the general bilinear formula. */
extern "C" __global__ void upsample2x_reference(float *out, const float *in, int wid, int hgt)
{
    const int ox = blockIdx.x * blockDim.x + threadIdx.x;
    const int oy = blockIdx.y * blockDim.y + threadIdx.y;
    if (ox >= 2 * wid || oy >= 2 * hgt)
        return;
    float sx = ((float)ox + 0.5f) * 0.5f - 0.5f;
    float sy = ((float)oy + 0.5f) * 0.5f - 0.5f;
    if (sx < 0.0f)
        sx = 0.0f;
    if (sy < 0.0f)
        sy = 0.0f;
    const int ix = (int)sx, iy = (int)sy;
    const int ix1 = ix + 1 < wid ? ix + 1 : wid - 1;
    const int iy1 = iy + 1 < hgt ? iy + 1 : hgt - 1;
    const float fx = sx - (float)ix, fy = sy - (float)iy;
    const float v00 = in[(long)iy * wid + ix], v01 = in[(long)iy * wid + ix1];
    const float v10 = in[(long)iy1 * wid + ix], v11 = in[(long)iy1 * wid + ix1];
    const float upper = (1.0f - fx) * v00 + fx * v01;
    const float lower = (1.0f - fx) * v10 + fx * v11;
    out[(long)oy * (2 * wid) + ox] = (1.0f - fy) * upper + fy * lower;
}

extern "C" __global__ void __launch_bounds__(block_size_x * block_size_y)
    upsample2x(float *__restrict__ out, const float *__restrict__ in, int wid, int hgt)
{
    const int x0 = (blockIdx.x * block_size_x + threadIdx.x) * CPT;
    const int y = blockIdx.y * block_size_y + threadIdx.y;
    if (x0 >= wid || y >= hgt)
        return;
    const float *rm = in + (long)max(y - 1, 0) * wid;
    const float *rc = in + (long)y * wid;
    const float *rp = in + (long)min(y + 1, hgt - 1) * wid;
    /* output rows 2y (top) and 2y + 1 (bot) at input columns x0 - 1 .. x0 + CPT */
    float top[CPT + 2], bot[CPT + 2];
#pragma unroll
    for (int j = 0; j < CPT + 2; j++) {
        const int c = min(max(x0 - 1 + j, 0), wid - 1);
        const float a = __ldg(rm + c), b = __ldg(rc + c), d = __ldg(rp + c);
        top[j] = 0.25f * a + 0.75f * b;
        bot[j] = 0.75f * b + 0.25f * d;
    }
    float o0[2 * CPT], o1[2 * CPT];
#pragma unroll
    for (int j = 0; j < CPT; j++) {
        o0[2 * j] = 0.25f * top[j] + 0.75f * top[j + 1];
        o0[2 * j + 1] = 0.75f * top[j + 1] + 0.25f * top[j + 2];
        o1[2 * j] = 0.25f * bot[j] + 0.75f * bot[j + 1];
        o1[2 * j + 1] = 0.75f * bot[j + 1] + 0.25f * bot[j + 2];
    }
    const long ow = 2L * wid;
    float *p0 = out + 2L * y * ow + 2L * x0, *p1 = p0 + ow;
    if (x0 + CPT <= wid && (CPT == 1 || (wid & 1) == 0)) {
#if CPT == 1
        *(float2 *)p0 = make_float2(o0[0], o0[1]);
        *(float2 *)p1 = make_float2(o1[0], o1[1]);
#else
#pragma unroll
        for (int k = 0; k < CPT / 2; k++) {
            *(float4 *)(p0 + 4 * k) = make_float4(o0[4 * k], o0[4 * k + 1], o0[4 * k + 2], o0[4 * k + 3]);
            *(float4 *)(p1 + 4 * k) = make_float4(o1[4 * k], o1[4 * k + 1], o1[4 * k + 2], o1[4 * k + 3]);
        }
#endif
    } else {
#pragma unroll
        for (int j = 0; j < 2 * CPT; j++)
            if (2L * x0 + j < ow) {
                p0[j] = o0[j];
                p1[j] = o1[j];
            }
    }
}
