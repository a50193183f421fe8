/* nv12.cu - colour conversion of a video frame from NV12 (8-bit YCbCr
 * 4:2:0, limited range: a plane of luma bytes and a half-height plane of
 * interleaved Cb, Cr bytes, one pair per 2 x 2 pixels) to RGBA8 words, the
 * chroma of a 2 x 2 quad shared by its four pixels (no chroma filtering),
 * by the usual 8-bit fixed-point formulas:
 *     c = 298 (Y - 16), d = Cb - 128, e = Cr - 128
 *     R = clamp((c + kr e + 128) >> 8), G = clamp((c - kgb d - kgr e + 128) >> 8),
 *     B = clamp((c + kb d + 128) >> 8),  clamp to 0 .. 255, A = 255
 * BT.601 (cmat 601: kr 409, kgb 100, kgr 208, kb 516) or BT.709 (cmat 709:
 * kr 459, kgb 55, kgr 136, kb 541). The frame has count rows (even) of
 * IMGW (4096) pixels: luma count x IMGW bytes, chroma count / 2 rows of
 * IMGW bytes (Cb of quad column x at byte 2x, Cr at 2x + 1), out count x
 * IMGW words (R in the lowest byte of the little-endian word, A in the
 * highest). 1.5 bytes read and 4 written per pixel.
 *
 * A thread per quad column and rpt consecutive pairs of rows: it first
 * loads, for each of its rpt row pairs, the two luma rows' two bytes (an
 * unsigned short each) and the quad's Cb, Cr pair (one unsigned short):
 * 3 rpt independent 2-byte loads in flight, a warp's 64 bytes of a row
 * each. Then each pair's four pixels are converted and stored, a uint2 of
 * two pixels per row. The loop over the row pairs is unrolled whole. The
 * grid is IMGW / (2 block_size_x) blocks across a row by count / (2 rpt)
 * down.
 *
 * Compiled with -Dblock_size_x=T -Drpt=P -Dcmat=M -Dnrows=N. */

#define IMGW 4096 /* pixels per row */

#if rpt != 1 && rpt != 2 && rpt != 4 && rpt != 8
#error "rpt is 1, 2, 4 or 8"
#endif
#if cmat == 601
#define KR 409
#define KGB 100
#define KGR 208
#define KB 516
#elif cmat == 709
#define KR 459
#define KGB 55
#define KGR 136
#define KB 541
#else
#error "cmat is 601 or 709"
#endif

/* The reference: one pixel per thread, its luma and chroma bytes indexed
 * from its row and column, the formulas in double, (v + 128) >> 8 as
 * floor(v / 256 + 1/2), clamped by fmin and fmax. */
extern "C" __global__ void nv12_reference(unsigned *out, const unsigned char *luma, const unsigned char *chroma,
                                          int count)
{
    const long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= (long long)count * 4096)
        return;
    const long long row = i / 4096, col = i - row * 4096;
    const long long cidx = (row / 2) * 4096 + (col / 2) * 2;
    const double c = 298.0 * ((double)luma[i] - 16.0);
    const double d = (double)chroma[cidx] - 128.0, e = (double)chroma[cidx + 1] - 128.0;
    double kr, kgb, kgr, kb;
    if (cmat == 601) {
        kr = 409.0;
        kgb = 100.0;
        kgr = 208.0;
        kb = 516.0;
    } else {
        kr = 459.0;
        kgb = 55.0;
        kgr = 136.0;
        kb = 541.0;
    }
    const double r = fmin(fmax(floor((c + kr * e) / 256.0 + 0.5), 0.0), 255.0);
    const double g = fmin(fmax(floor((c - kgb * d - kgr * e) / 256.0 + 0.5), 0.0), 255.0);
    const double b = fmin(fmax(floor((c + kb * d) / 256.0 + 0.5), 0.0), 255.0);
    out[i] = (unsigned)r + 256u * (unsigned)g + 65536u * (unsigned)b + 16777216u * 255u;
}

/* one pixel: its luma byte and its quad's chroma terms */
__device__ __forceinline__ unsigned rgba(int y, int gd, int rv, int bu)
{
    const int c = 298 * (y - 16) + 128;
    const int r = min(max((c + rv) >> 8, 0), 255);
    const int g = min(max((c - gd) >> 8, 0), 255);
    const int b = min(max((c + bu) >> 8, 0), 255);
    return (unsigned)r | (unsigned)g << 8 | (unsigned)b << 16 | 0xff000000u;
}

extern "C" __global__ void __launch_bounds__(block_size_x)
    nv12(unsigned *__restrict__ out, const unsigned char *__restrict__ luma, const unsigned char *__restrict__ chroma,
         int count)
{
    const int qx = blockIdx.x * block_size_x + threadIdx.x; /* quad column: pixels 2 qx, 2 qx + 1 */
    const long p0 = (long)blockIdx.y * rpt;                 /* first row pair */
    const long npair = count / 2;
    unsigned short y0[rpt], y1[rpt], cc[rpt];
#pragma unroll
    for (int k = 0; k < rpt; k++) {
        const long p = p0 + k;
        if (p < npair) {
            y0[k] = __ldg((const unsigned short *)(luma + (2 * p) * IMGW) + qx);
            y1[k] = __ldg((const unsigned short *)(luma + (2 * p + 1) * IMGW) + qx);
            cc[k] = __ldg((const unsigned short *)(chroma + p * IMGW) + qx);
        }
    }
#pragma unroll
    for (int k = 0; k < rpt; k++) {
        const long p = p0 + k;
        if (p < npair) {
            const int d = (cc[k] & 0xff) - 128, e = (cc[k] >> 8) - 128;
            const int rv = KR * e, gd = KGB * d + KGR * e, bu = KB * d;
            uint2 top, bot;
            top.x = rgba(y0[k] & 0xff, gd, rv, bu);
            top.y = rgba(y0[k] >> 8, gd, rv, bu);
            bot.x = rgba(y1[k] & 0xff, gd, rv, bu);
            bot.y = rgba(y1[k] >> 8, gd, rv, bu);
            ((uint2 *)(out + (2 * p) * IMGW))[qx] = top;
            ((uint2 *)(out + (2 * p + 1) * IMGW))[qx] = bot;
        }
    }
}
