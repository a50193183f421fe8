/* gelu.cu - the bias add and GELU activation of a transformer's MLP, fused,
 * in half precision: for a row-major nrows x ncols matrix x of halves and a
 * bias of ncols halves, y[r][c] = gelu(x[r][c] + bias[c]) with GELU's tanh
 * form, gelu(u) = u / 2 (1 + tanh(sqrt(2 / pi) (u + 0.044715 u^3))),
 * computed in float and rounded to half once. ncols is a multiple of 8, so
 * a chunk of 8 halves never straddles two rows.
 *
 * The matrix is one flat vector of chunks of vec halves (vec 2: a __half2,
 * 4 bytes; vec 8: a uint4 holding four __half2, 16 bytes). A block of
 * block_size_x threads takes block_size_x x ept consecutive chunks: thread
 * t its ept chunks t, t + block_size_x, ... ; all its loads of x are issued
 * before the first store. Each chunk's bias is loaded beside it (the same
 * width, from column (chunk x vec) mod ncols: 8 KiB of bias, served by the
 * caches).
 *
 * gelu_h() is the one function the kernel and the reference both call, and
 * every float operation in it is an explicitly rounded intrinsic or tanhf,
 * so they compute the same half bits.
 *
 * Compiled with -Dblock_size_x=B -Dept=E -Dvec=V -Drows=M. */

#include <cuda_fp16.h>

__device__ __forceinline__ float gelu_f(float u)
{
    const float k0 = 0.7978845608f; /* sqrt(2 / pi) */
    const float k1 = 0.044715f;
    const float u3 = __fmul_rn(__fmul_rn(u, u), u);
    const float a = __fmul_rn(k0, __fmaf_rn(k1, u3, u));
    return __fmul_rn(__fmul_rn(0.5f, u), __fadd_rn(1.0f, tanhf(a)));
}

__device__ __forceinline__ __half gelu_h(__half xv, __half bv)
{
    return __float2half_rn(gelu_f(__fadd_rn(__half2float(xv), __half2float(bv))));
}

__device__ __forceinline__ __half2 gelu_h2(__half2 xv, __half2 bv)
{
    return __halves2half2(gelu_h(__low2half(xv), __low2half(bv)), gelu_h(__high2half(xv), __high2half(bv)));
}

/* The reference: one element per thread. */
extern "C" __global__ void gelu_reference(__half *y, const __half *x, const __half *bias, int nrows, int ncols)
{
    const long i = (long)blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= (long)nrows * ncols)
        return;
    y[i] = gelu_h(x[i], bias[i % ncols]);
}

extern "C" __global__ void __launch_bounds__(block_size_x)
    gelu(__half *__restrict__ y, const __half *__restrict__ x, const __half *__restrict__ bias, int nrows, int ncols)
{
    const unsigned chunks = (unsigned)nrows * (unsigned)ncols / vec;
    const unsigned base = blockIdx.x * (unsigned)(block_size_x * ept) + threadIdx.x;
#if vec == 8
    uint4 xv[ept];
#pragma unroll
    for (int k = 0; k < ept; k++) {
        const unsigned c = base + k * block_size_x;
        if (c < chunks)
            xv[k] = reinterpret_cast<const uint4 *>(x)[c];
    }
#pragma unroll
    for (int k = 0; k < ept; k++) {
        const unsigned c = base + k * block_size_x;
        if (c < chunks) {
            const unsigned col = (c * 8) % (unsigned)ncols;
            const uint4 bq = *reinterpret_cast<const uint4 *>(bias + col);
            const __half2 *xh = reinterpret_cast<const __half2 *>(&xv[k]);
            const __half2 *bh = reinterpret_cast<const __half2 *>(&bq);
            uint4 out;
            __half2 *oh = reinterpret_cast<__half2 *>(&out);
#pragma unroll
            for (int q = 0; q < 4; q++)
                oh[q] = gelu_h2(xh[q], bh[q]);
            reinterpret_cast<uint4 *>(y)[c] = out;
        }
    }
#elif vec == 2
    __half2 xv[ept];
#pragma unroll
    for (int k = 0; k < ept; k++) {
        const unsigned c = base + k * block_size_x;
        if (c < chunks)
            xv[k] = reinterpret_cast<const __half2 *>(x)[c];
    }
#pragma unroll
    for (int k = 0; k < ept; k++) {
        const unsigned c = base + k * block_size_x;
        if (c < chunks) {
            const unsigned col = (c * 2) % (unsigned)ncols;
            const __half2 bq = *reinterpret_cast<const __half2 *>(bias + col);
            reinterpret_cast<__half2 *>(y)[c] = gelu_h2(xv[k], bq);
        }
    }
#else
#error "vec is 2 or 8"
#endif
}
