/* rowscale_int8.cu - dequantizes a row-major rows x cols matrix of int8
 * with a float scale per row and adds a float bias per column:
 * out[i][j] = scale[i] * q[i][j] + bias[j] (int8 weights or activations
 * with per-row quantization scales, back to float). One byte in, four
 * bytes out per element.
 *
 * Each block takes ept consecutive chunks of block_size_x * vec elements;
 * in a chunk thread t handles elements t * vec to t * vec + vec - 1, in one
 * row (vec divides cols), loaded as one signed char (vec 1), one 4-byte
 * word (vec 4) or one 16-byte int4 (vec 16), the bias as floats or float4s
 * and the results stored as floats or float4s. Element indices fit in an
 * int (rows * cols <= 2^31 - 1).
 *
 * Compiled with -Dblock_size_x=B -Dvec=V -Dept=E -Drows=R -Dcols=C. */

/* The reference: an element per thread. */
extern "C" __global__ void rowscale_reference(float *out, const signed char *q, const float *scale, const float *bias,
                                              int nrows, int ncols)
{
    const long i = (long)blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= (long)nrows * ncols)
        return;
    out[i] = fmaf(scale[i / ncols], (float)q[i], bias[i % ncols]);
}

/* Byte b (0 to 3, little-endian) of w as a signed value, in float. */
__device__ __forceinline__ float rowscale_byte(int w, int b)
{
    return (float)((int)((unsigned)w << (24 - 8 * b)) >> 24);
}

/* Four results from the four bytes of w, stored as a float4. */
__device__ __forceinline__ void rowscale_word(float *o, int w, float s, const float *bi)
{
    const float4 bv = *reinterpret_cast<const float4 *>(bi);
    float4 r;
    r.x = fmaf(s, rowscale_byte(w, 0), bv.x);
    r.y = fmaf(s, rowscale_byte(w, 1), bv.y);
    r.z = fmaf(s, rowscale_byte(w, 2), bv.z);
    r.w = fmaf(s, rowscale_byte(w, 3), bv.w);
    *reinterpret_cast<float4 *>(o) = r;
}

#define CHUNK (block_size_x * vec)

extern "C" __global__ void __launch_bounds__(block_size_x)
    rowscale_int8(float *out, const signed char *__restrict__ q, const float *__restrict__ scale,
                  const float *__restrict__ bias, int nrows, int ncols)
{
    const int total = nrows * ncols;
    const int first = blockIdx.x * (CHUNK * ept) + threadIdx.x * vec;
#pragma unroll
    for (int k = 0; k < ept; k++) {
        const int e = first + k * CHUNK;
        if (e < total) {
            const int r = e / ncols;
            const int c = e - r * ncols;
            const float s = scale[r];
#if vec == 16
            const int4 w = *reinterpret_cast<const int4 *>(q + e);
            rowscale_word(out + e, w.x, s, bias + c);
            rowscale_word(out + e + 4, w.y, s, bias + c + 4);
            rowscale_word(out + e + 8, w.z, s, bias + c + 8);
            rowscale_word(out + e + 12, w.w, s, bias + c + 12);
#elif vec == 4
            const int w = *reinterpret_cast<const int *>(q + e);
            rowscale_word(out + e, w, s, bias + c);
#else
            out[e] = fmaf(s, (float)q[e], bias[c]);
#endif
        }
    }
}
