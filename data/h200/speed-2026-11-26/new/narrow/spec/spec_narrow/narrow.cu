// narrow.cu - for the device tier (tests/device/narrow_types.sh): for each
// narrow type, a kernel that converts values the GPU's generator made
// (y = 1.5 x for the floating types, y = x + 3 for the integers) and a
// reference that computes the same in float and converts once. 1.5 x is
// exact in float for every value of these types, so both round the same
// float and agree bit for bit; with plant = 1 the kernel's result is one
// unit in its last place off (its storage bits + 1), which verification in
// the type's own precision must catch.
#include <cuda_fp16.h>
#include <cuda_bf16.h>
#include <cuda_fp8.h>

extern "C" __global__ void conv_half(__half *y, const __half *x, int count)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= count)
        return;
    float v = __fmul_rn(1.5f, float(x[i]));
    y[i] = __ushort_as_half((unsigned short)(__half_as_ushort(__float2half_rn(v)) + plant));
}

extern "C" __global__ void ref_half(__half *y, const __half *x, int count)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= count)
        return;
    float f = float(x[i]);
    float v = __fadd_rn(f, __fmul_rn(0.5f, f));
    y[i] = __float2half_rn(v);
}

extern "C" __global__ void conv_bf16(__nv_bfloat16 *y, const __nv_bfloat16 *x, int count)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= count)
        return;
    float v = __fmul_rn(1.5f, float(x[i]));
    y[i] = __ushort_as_bfloat16((unsigned short)(__bfloat16_as_ushort(__float2bfloat16_rn(v)) + plant));
}

extern "C" __global__ void ref_bf16(__nv_bfloat16 *y, const __nv_bfloat16 *x, int count)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= count)
        return;
    float f = float(x[i]);
    float v = __fadd_rn(f, __fmul_rn(0.5f, f));
    y[i] = __float2bfloat16_rn(v);
}

extern "C" __global__ void conv_e4m3(__nv_fp8_e4m3 *y, const __nv_fp8_e4m3 *x, int count)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= count)
        return;
    __nv_fp8_e4m3 r(__fmul_rn(1.5f, float(x[i])));
    r.__x = (__nv_fp8_storage_t)(r.__x + plant);
    y[i] = r;
}

extern "C" __global__ void ref_e4m3(__nv_fp8_e4m3 *y, const __nv_fp8_e4m3 *x, int count)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= count)
        return;
    float f = float(x[i]);
    y[i] = __nv_fp8_e4m3(__fadd_rn(f, __fmul_rn(0.5f, f)));
}

extern "C" __global__ void conv_e5m2(__nv_fp8_e5m2 *y, const __nv_fp8_e5m2 *x, int count)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= count)
        return;
    __nv_fp8_e5m2 r(__fmul_rn(1.5f, float(x[i])));
    r.__x = (__nv_fp8_storage_t)(r.__x + plant);
    y[i] = r;
}

extern "C" __global__ void ref_e5m2(__nv_fp8_e5m2 *y, const __nv_fp8_e5m2 *x, int count)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= count)
        return;
    float f = float(x[i]);
    y[i] = __nv_fp8_e5m2(__fadd_rn(f, __fmul_rn(0.5f, f)));
}

extern "C" __global__ void conv_int8(signed char *y, const signed char *x, int count)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < count)
        y[i] = (signed char)(x[i] + 3 + plant);
}

extern "C" __global__ void ref_int8(signed char *y, const signed char *x, int count)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < count)
        y[i] = (signed char)(int)__fadd_rn(float(x[i]), 3.0f);
}

extern "C" __global__ void conv_uint8(unsigned char *y, const unsigned char *x, int count)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < count)
        y[i] = (unsigned char)(x[i] + 3 + plant);
}

extern "C" __global__ void ref_uint8(unsigned char *y, const unsigned char *x, int count)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < count)
        y[i] = (unsigned char)(int)__fadd_rn(float(x[i]), 3.0f);
}

extern "C" __global__ void conv_int16(short *y, const short *x, int count)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < count)
        y[i] = (short)(x[i] + 3 + plant);
}

extern "C" __global__ void ref_int16(short *y, const short *x, int count)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < count)
        y[i] = (short)(int)__fadd_rn(float(x[i]), 3.0f);
}

extern "C" __global__ void conv_uint16(unsigned short *y, const unsigned short *x, int count)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < count)
        y[i] = (unsigned short)(x[i] + 3 + plant);
}

extern "C" __global__ void ref_uint16(unsigned short *y, const unsigned short *x, int count)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < count)
        y[i] = (unsigned short)(int)__fadd_rn(float(x[i]), 3.0f);
}
