// Kernels over the narrow types a spec takes (docs/kernel-spec.md, "Types"):
// half and bfloat16 inputs into a float output, and one kernel that reads
// and writes every type. cuda_fp16.h, cuda_bf16.h and cuda_fp8.h come with
// NVRTC.
#include <cuda_fp16.h>
#include <cuda_bf16.h>
#include <cuda_fp8.h>

// y[i] = a * x[i] * w[i] + y[i]: half x, bfloat16 w, float y and a.
extern "C" __global__ void scale_mixed(float *y, const __half *x, const __nv_bfloat16 *w, float a, int count)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < count)
        y[i] = a * __half2float(x[i]) * __bfloat162float(w[i]) + y[i];
}

// Every narrow type in and out: each output is its input plus the
// scalar of its type (the float sum of the floating inputs goes to s).
extern "C" __global__ void every_type(float *s, __half *oh, __nv_bfloat16 *ob, __nv_fp8_e4m3 *o4, __nv_fp8_e5m2 *o5,
                                      signed char *o8, unsigned char *ou8, short *o16, unsigned short *ou16,
                                      const __half *h, const __nv_bfloat16 *b, const __nv_fp8_e4m3 *e4,
                                      const __nv_fp8_e5m2 *e5, const signed char *i8, const unsigned char *u8,
                                      const short *i16, const unsigned short *u16, __half hs, __nv_bfloat16 bs,
                                      signed char c8, unsigned short c16, int count)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= count)
        return;
    float fh = __half2float(h[i]), fb = __bfloat162float(b[i]), f4 = float(e4[i]), f5 = float(e5[i]);
    s[i] = fh + fb + f4 + f5;
    oh[i] = __float2half_rn(fh + __half2float(hs));
    ob[i] = __float2bfloat16_rn(fb + __bfloat162float(bs));
    o4[i] = __nv_fp8_e4m3(f4 * 0.5f);
    o5[i] = __nv_fp8_e5m2(f5 * 2.0f);
    o8[i] = (signed char)(i8[i] / 2 + c8);
    ou8[i] = (unsigned char)(u8[i] / 2);
    o16[i] = (short)(i16[i] / 2);
    ou16[i] = (unsigned short)(u16[i] / 2 + c16);
}
