/* dwconv3.cu - a depthwise 3 x 3 convolution (stride 1, zero padding of
 * 1) of a batch of images in NHWC layout, channels contiguous, each
 * channel with its own 9 weights and bias (the depthwise layer of a
 * MobileNet-style block):
 *     out[n][y][x][c] = bias[c] + sum_{ky, kx} w[ky][kx][c] in[n][y + ky - 1][x + kx - 1][c]
 * an input outside the image counting as 0. The images are DWH x DWW
 * (256 x 256) pixels of DWC (64) floats, fixed here; count is the number
 * of images. w is tap-major, w[(3 ky + kx) DWC + c].
 *
 * A thread takes cpt adjacent channels (a float or a float4) of opx
 * adjacent pixels of one row: consecutive threads take consecutive
 * channel chunks of a pixel, then the next pixels, so that a warp's load
 * of one input pixel row is contiguous (128 bytes of 32 channels, or 512
 * bytes of 2 pixels at a float4 each). It holds its channels' 9 weights
 * and starts each output at the bias; for each of the 3 input rows it
 * loads the opx + 2 pixels around its outputs once (zeros outside the
 * image) and adds the row's 3 taps to every output, in the same order as
 * the reference (ky, then kx, by fmaf): each input chunk is loaded by 3
 * threads' windows at opx 1 (9 loads per output through L1), and at opx 2
 * and 4 a window is shared by 2 and 4 outputs (6 and 4.5 loads per
 * output).
 *
 * Compiled with -Dblock_size_x=T -Dcpt=C -Dopx=X -Dnimg=N. */

#define DWH 256           /* rows of an image */
#define DWW 256           /* columns of an image */
#define DWC 64            /* channels of a pixel */
#define CHK (DWC / cpt)   /* channel chunks per pixel */
#define XG (DWW / opx)    /* pixel groups per row */

#if cpt != 1 && cpt != 4
#error "cpt is 1 or 4"
#endif
#if opx != 1 && opx != 2 && opx != 4
#error "opx is 1, 2 or 4"
#endif

/* The reference: one output element per thread, the same fmaf chain. */
extern "C" __global__ void dwconv3_reference(float *out, const float *in, const float *w, const float *bias,
                                             int count)
{
    const long e = (long)blockIdx.x * blockDim.x + threadIdx.x;
    if (e >= (long)count * DWH * DWW * DWC)
        return;
    const int c = (int)(e % DWC), x = (int)(e / DWC % DWW), y = (int)(e / ((long)DWC * DWW) % DWH);
    const long n = e / ((long)DWC * DWW * DWH);
    float acc = bias[c];
    for (int ky = 0; ky < 3; ky++)
        for (int kx = 0; kx < 3; kx++) {
            const int yy = y + ky - 1, xx = x + kx - 1;
            const bool inside = yy >= 0 && yy < DWH && xx >= 0 && xx < DWW;
            const float v = inside ? in[((n * DWH + yy) * DWW + xx) * DWC + c] : 0.0f;
            acc = fmaf(w[(3 * ky + kx) * DWC + c], v, acc);
        }
    out[e] = acc;
}

#if cpt == 4
typedef float4 vec_t;
__device__ __forceinline__ float4 vload(const float *p)
{
    return __ldg(reinterpret_cast<const float4 *>(p));
}
__device__ __forceinline__ float4 vzero()
{
    return make_float4(0.0f, 0.0f, 0.0f, 0.0f);
}
__device__ __forceinline__ float4 vfma(const float4 a, const float4 b, const float4 c)
{
    return make_float4(fmaf(a.x, b.x, c.x), fmaf(a.y, b.y, c.y), fmaf(a.z, b.z, c.z), fmaf(a.w, b.w, c.w));
}
__device__ __forceinline__ void vstore(float *p, const float4 v)
{
    *reinterpret_cast<float4 *>(p) = v;
}
#else
typedef float vec_t;
__device__ __forceinline__ float vload(const float *p)
{
    return __ldg(p);
}
__device__ __forceinline__ float vzero()
{
    return 0.0f;
}
__device__ __forceinline__ float vfma(const float a, const float b, const float c)
{
    return fmaf(a, b, c);
}
__device__ __forceinline__ void vstore(float *p, const float v)
{
    *p = v;
}
#endif

extern "C" __global__ void __launch_bounds__(block_size_x)
    dwconv3(float *__restrict__ out, const float *__restrict__ in, const float *__restrict__ w,
            const float *__restrict__ bias, int count)
{
    const long g = (long)blockIdx.x * block_size_x + threadIdx.x;
    if (g >= (long)count * DWH * XG * CHK)
        return;
    const int c0 = (int)(g % CHK) * cpt;       /* the thread's first channel */
    const int x0 = (int)(g / CHK % XG) * opx;  /* its first pixel in the row */
    const long row = g / ((long)CHK * XG);     /* n DWH + y */
    const int y = (int)(row % DWH);
    const long img = row - y;                  /* n DWH: the image's first row */
    vec_t wt[9];
#pragma unroll
    for (int t = 0; t < 9; t++)
        wt[t] = vload(w + t * DWC + c0);
    vec_t acc[opx];
    const vec_t b = vload(bias + c0);
#pragma unroll
    for (int o = 0; o < opx; o++)
        acc[o] = b;
#pragma unroll
    for (int ky = 0; ky < 3; ky++) {
        const int yy = y + ky - 1;
        const bool rin = yy >= 0 && yy < DWH;
        const float *src = in + ((img + (rin ? yy : 0)) * DWW) * DWC + c0;
        vec_t win[opx + 2];
#pragma unroll
        for (int i = 0; i < opx + 2; i++) {
            const int xx = x0 + i - 1;
            win[i] = rin && xx >= 0 && xx < DWW ? vload(src + (long)xx * DWC) : vzero();
        }
#pragma unroll
        for (int o = 0; o < opx; o++)
#pragma unroll
            for (int kx = 0; kx < 3; kx++)
                acc[o] = vfma(wt[3 * ky + kx], win[o + kx], acc[o]);
    }
    float *dst = out + (row * DWW + x0) * DWC + c0;
#pragma unroll
    for (int o = 0; o < opx; o++)
        vstore(dst + o * DWC, acc[o]);
}
