/* dia5.cu - y = A x for a sparse matrix stored by diagonals (the DIA
 * format): A has five diagonals, at offsets -width, -1, 0, +1 and +width
 * from the main one (the 5-point operator of a width x height grid with a
 * coefficient per point and direction: a variable-coefficient Poisson or
 * diffusion operator, a pressure solve's matrix). The diagonals are five
 * arrays of nrow floats, diagonal d's value for row i at val[d * nrow + i]
 * (entries whose column falls outside the matrix are stored and never
 * read), so row i is
 *   y[i] = val[0][i] x[i - width] + val[1][i] x[i - 1] + val[2][i] x[i]
 *        + val[3][i] x[i + 1] + val[4][i] x[i + width],
 * the terms whose column is outside [0, nrow) left out, added by fmas in
 * this order from zero. Every row reads five coefficient streams in step
 * and x at five places, three of them in the same lines of x.
 *
 * Each block takes ept consecutive chunks of block_size_x * vec rows; in a
 * chunk thread t takes rows t * vec to t * vec + vec - 1.
 * vec 1: a row per chunk, every term guarded.
 * vec 4: four rows per chunk; away from the first and last width rows the
 * five coefficients of the four rows are five float4 loads, x[i - width],
 * x[i] and x[i + width] three float4 loads, and x[i - 1], x[i + 4] two
 * floats, the rest of the neighbours taken from the centre float4; the
 * results are stored as a float4. Near the ends the four rows are computed
 * one by one, guarded, as vec 1 does. Needs width and nrow multiples of 4
 * (16-byte aligned float4s).
 *
 * Compiled with -Dblock_size_x=B -Dept=E -Dvec=V -Dside=S. */

/* Row i, every term guarded: the reference's arithmetic and the kernel's
 * near the ends of the matrix. */
__device__ __forceinline__ float dia5_row(const float *val, const float *x, long nrow, long width, long i)
{
    const long off[5] = {-width, -1, 0, 1, width};
    float acc = 0.0f;
#pragma unroll
    for (int d = 0; d < 5; d++) {
        const long j = i + off[d];
        if (j >= 0 && j < nrow)
            acc = fmaf(val[d * nrow + i], x[j], acc);
    }
    return acc;
}

/* The reference: a row per thread. */
extern "C" __global__ void dia5_reference(float *y, const float *val, const float *x, int nrow, int width)
{
    const long i = (long)blockIdx.x * blockDim.x + threadIdx.x;
    if (i < nrow)
        y[i] = dia5_row(val, x, nrow, width, i);
}

/* A row away from the ends: the five terms unguarded, in the same order. */
__device__ __forceinline__ float dia5_inner(float a0, float a1, float a2, float a3, float a4, float xn, float xw,
                                            float xc, float xe, float xs)
{
    float acc = 0.0f;
    acc = fmaf(a0, xn, acc);
    acc = fmaf(a1, xw, acc);
    acc = fmaf(a2, xc, acc);
    acc = fmaf(a3, xe, acc);
    acc = fmaf(a4, xs, acc);
    return acc;
}

#define CHUNK (block_size_x * vec)

extern "C" __global__ void __launch_bounds__(block_size_x)
    dia5(float *y, const float *__restrict__ val, const float *__restrict__ x, int nrow, int width)
{
    const long first = (long)blockIdx.x * CHUNK * ept + (long)threadIdx.x * vec;
#pragma unroll
    for (int e = 0; e < ept; e++) {
        const long i = first + (long)e * CHUNK;
        if (i < nrow) {
#if vec == 4
            if (i >= width && i + 4 + width <= nrow) {
                const float4 a0 = *reinterpret_cast<const float4 *>(val + i);
                const float4 a1 = *reinterpret_cast<const float4 *>(val + (long)nrow + i);
                const float4 a2 = *reinterpret_cast<const float4 *>(val + 2L * nrow + i);
                const float4 a3 = *reinterpret_cast<const float4 *>(val + 3L * nrow + i);
                const float4 a4 = *reinterpret_cast<const float4 *>(val + 4L * nrow + i);
                const float4 xn = *reinterpret_cast<const float4 *>(x + i - width);
                const float4 xc = *reinterpret_cast<const float4 *>(x + i);
                const float4 xs = *reinterpret_cast<const float4 *>(x + i + width);
                const float xw = x[i - 1], xe = x[i + 4];
                float4 r;
                r.x = dia5_inner(a0.x, a1.x, a2.x, a3.x, a4.x, xn.x, xw, xc.x, xc.y, xs.x);
                r.y = dia5_inner(a0.y, a1.y, a2.y, a3.y, a4.y, xn.y, xc.x, xc.y, xc.z, xs.y);
                r.z = dia5_inner(a0.z, a1.z, a2.z, a3.z, a4.z, xn.z, xc.y, xc.z, xc.w, xs.z);
                r.w = dia5_inner(a0.w, a1.w, a2.w, a3.w, a4.w, xn.w, xc.z, xc.w, xe, xs.w);
                *reinterpret_cast<float4 *>(y + i) = r;
            } else {
#pragma unroll
                for (int t = 0; t < 4; t++)
                    if (i + t < nrow)
                        y[i + t] = dia5_row(val, x, nrow, width, i + t);
            }
#else
            y[i] = dia5_row(val, x, nrow, width, i);
#endif
        }
    }
}
