/* down2.cu - 2 x 2 box downsampling of an RGBA8 image: output pixel
 * (ox, oy) of a (side / 2) x (side / 2) image is, channel by channel, the
 * rounded mean (a + b + c + d + 2) >> 2 of input pixels (2 ox, 2 oy),
 * (2 ox + 1, 2 oy), (2 ox, 2 oy + 1) and (2 ox + 1, 2 oy + 1) of a
 * side x side image, a pixel being four bytes (r, g, b, a) read as one
 * unsigned word. The level-by-level step of a mipmap chain or of an image
 * pyramid: 16 bytes in, 4 out, byte arithmetic on packed words.
 *
 * A block of block_size_x x block_size_y threads (block_size_x 32: a warp
 * is one thread row) writes block_size_y output rows and
 * block_size_x x opx output columns; thread (tx, ty) the opx consecutive
 * outputs from column (blockIdx.x block_size_x + tx) opx of row
 * blockIdx.y block_size_y + ty, from the 2 opx input pixels of each of its
 * two input rows:
 *   wide 0: each input pixel by a 4-byte load, each output by a 4-byte
 *           store (a warp's load 32 pixels 2 opx apart);
 *   wide 1: each input row's 2 opx pixels by 8-, 16- or two 16-byte
 *           vector loads (a uint2, a uint4, two uint4), the opx outputs by
 *           one 4-, 8- or 16-byte store.
 *
 * avg4() is the one function the kernel and the reference both call; the
 * arithmetic is on integers and exact.
 *
 * Compiled with -Dblock_size_x=32 -Dblock_size_y=Y -Dopx=P -Dwide=W -Dside=S. */

#if opx != 1 && opx != 2 && opx != 4
#error "opx is 1, 2 or 4"
#endif
#if wide != 0 && wide != 1
#error "wide is 0 or 1"
#endif

/* The rounded mean of four RGBA8 pixels, channel by channel. */
__device__ __forceinline__ unsigned avg4(unsigned a, unsigned b, unsigned c, unsigned d)
{
    unsigned o = 0;
#pragma unroll
    for (int ch = 0; ch < 32; ch += 8) {
        const unsigned sum = ((a >> ch) & 255u) + ((b >> ch) & 255u) + ((c >> ch) & 255u) + ((d >> ch) & 255u);
        o |= ((sum + 2u) >> 2) << ch;
    }
    return o;
}

/* The reference: an output pixel per thread, its four inputs read one by one. */
extern "C" __global__ void down2_reference(unsigned *out, const unsigned *in, int width, int height)
{
    const int ox = blockIdx.x * blockDim.x + threadIdx.x;
    const int oy = blockIdx.y * blockDim.y + threadIdx.y;
    const int ow = width / 2, oh = height / 2;
    if (ox >= ow || oy >= oh)
        return;
    const long i0 = (long)(2 * oy) * width + 2 * ox, i1 = i0 + width;
    out[(long)oy * ow + ox] = avg4(in[i0], in[i0 + 1], in[i1], in[i1 + 1]);
}

extern "C" __global__ void __launch_bounds__(block_size_x *block_size_y)
    down2(unsigned *__restrict__ out, const unsigned *__restrict__ in, int width, int height)
{
    const int ow = width / 2, oh = height / 2;
    const int ox0 = (blockIdx.x * block_size_x + threadIdx.x) * opx; /* first output column */
    const int oy = blockIdx.y * block_size_y + threadIdx.y;
    if (oy >= oh || ox0 >= ow)
        return;
    const unsigned *r0 = in + (long)(2 * oy) * width + 2 * ox0; /* the top input row's first pixel */
    const unsigned *r1 = r0 + width;
    unsigned *o = out + (long)oy * ow + ox0;
#if wide == 1
    if (ox0 + opx <= ow) {
        unsigned a[2 * opx], b[2 * opx], y[opx];
#if opx == 1
        const uint2 p = *reinterpret_cast<const uint2 *>(r0), q = *reinterpret_cast<const uint2 *>(r1);
        a[0] = p.x, a[1] = p.y, b[0] = q.x, b[1] = q.y;
#else
#pragma unroll
        for (int h = 0; h < opx / 2; h++) {
            const uint4 p = reinterpret_cast<const uint4 *>(r0)[h], q = reinterpret_cast<const uint4 *>(r1)[h];
            a[4 * h] = p.x, a[4 * h + 1] = p.y, a[4 * h + 2] = p.z, a[4 * h + 3] = p.w;
            b[4 * h] = q.x, b[4 * h + 1] = q.y, b[4 * h + 2] = q.z, b[4 * h + 3] = q.w;
        }
#endif
#pragma unroll
        for (int j = 0; j < opx; j++)
            y[j] = avg4(a[2 * j], a[2 * j + 1], b[2 * j], b[2 * j + 1]);
#if opx == 1
        o[0] = y[0];
#elif opx == 2
        *reinterpret_cast<uint2 *>(o) = make_uint2(y[0], y[1]);
#else
        *reinterpret_cast<uint4 *>(o) = make_uint4(y[0], y[1], y[2], y[3]);
#endif
        return;
    }
    /* a partial group at the right edge, pixel by pixel: never taken while side is
     * a multiple of 8 (the spec's restriction, which the 16-byte stores need) */
#endif
#pragma unroll
    for (int j = 0; j < opx; j++)
        if (ox0 + j < ow)
            o[j] = avg4(r0[2 * j], r0[2 * j + 1], r1[2 * j], r1[2 * j + 1]);
}
