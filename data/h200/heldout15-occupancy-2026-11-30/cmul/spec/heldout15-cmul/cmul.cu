/* cmul.cu - the pointwise product of one complex spectrum by the conjugate
 * of another, scaled by 1/N, the step of an FFT-based cross-correlation
 * between its two forward transforms and its inverse one:
 *     out[i] = a[i] conj(b[i]) / N
 *            = ((ar br + ai bi) + i (ai br - ar bi)) / N
 * a, b and out are arrays of count complex floats (float2: the real part,
 * then the imaginary one); scale is 1 / N. 24 bytes and 8 operations per
 * element; count is even (float4 alignment for two complexes).
 *
 * A tile of block_size_x x cpt consecutive complexes; thread t takes the
 * cpt consecutive complexes t cpt .. t cpt + cpt - 1 of it: a float2
 * (cpt 1), a float4 (cpt 2) or two adjacent float4s (cpt 4) of a and of b,
 * all loaded before the first product. With gstride 0 the grid has a block
 * per tile and each block does one; with gstride 1 the grid is at most
 * 132 x 2048 / block_size_x blocks (one full wave of 2048 threads on each
 * of 132 SMs) and each block strides over the tiles, gridDim.x apart.
 *
 * Every operation of cmul_conj() is an explicitly rounded intrinsic, so
 * the kernel and the reference, which both call it, compute the same bits
 * whatever the compiler contracts elsewhere.
 *
 * Compiled with -Dblock_size_x=B -Dcpt=C -Dgstride=G -Dncplx=N. */

#if cpt != 1 && cpt != 2 && cpt != 4
#error "cpt is 1, 2 or 4"
#endif
#if gstride != 0 && gstride != 1
#error "gstride is 0 or 1"
#endif

__device__ __forceinline__ float2 cmul_conj(const float2 a, const float2 b, float s)
{
    const float re = __fmaf_rn(a.x, b.x, __fmul_rn(a.y, b.y));
    const float im = __fmaf_rn(a.y, b.x, -__fmul_rn(a.x, b.y));
    return make_float2(__fmul_rn(re, s), __fmul_rn(im, s));
}

/* The reference: one complex per thread. */
extern "C" __global__ void cmul_reference(float *out, const float *a, const float *b, float scale, int count)
{
    const long i = (long)blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= count)
        return;
    reinterpret_cast<float2 *>(out)[i] =
        cmul_conj(reinterpret_cast<const float2 *>(a)[i], reinterpret_cast<const float2 *>(b)[i], scale);
}

#if cpt == 1
typedef float2 chunk_t;                     /* one complex */
#define NCH 1                               /* chunks per thread */
__device__ __forceinline__ float2 cmul_chunk(const float2 a, const float2 b, float s)
{
    return cmul_conj(a, b, s);
}
#else
typedef float4 chunk_t;                     /* two complexes */
#define NCH (cpt / 2)
__device__ __forceinline__ float4 cmul_chunk(const float4 a, const float4 b, float s)
{
    const float2 lo = cmul_conj(make_float2(a.x, a.y), make_float2(b.x, b.y), s);
    const float2 hi = cmul_conj(make_float2(a.z, a.w), make_float2(b.z, b.w), s);
    return make_float4(lo.x, lo.y, hi.x, hi.y);
}
#endif

/* One tile, whose first chunk is tile0: the thread's NCH adjacent chunks
 * that lie below chunks. */
__device__ __forceinline__ void cmul_tile(chunk_t *__restrict__ out, const chunk_t *__restrict__ a,
                                          const chunk_t *__restrict__ b, long tile0, long chunks, float s)
{
    const long c0 = tile0 + (long)threadIdx.x * NCH;
    chunk_t av[NCH], bv[NCH];
#pragma unroll
    for (int k = 0; k < NCH; k++) {
        if (c0 + k < chunks) {
            av[k] = __ldg(a + c0 + k);
            bv[k] = __ldg(b + c0 + k);
        }
    }
#pragma unroll
    for (int k = 0; k < NCH; k++) {
        if (c0 + k < chunks)
            out[c0 + k] = cmul_chunk(av[k], bv[k], s);
    }
}

extern "C" __global__ void __launch_bounds__(block_size_x)
    cmul(float *__restrict__ out, const float *__restrict__ a, const float *__restrict__ b, float scale, int count)
{
    const long chunks = count / (cpt == 1 ? 1 : 2);
    const long tile = (long)block_size_x * NCH; /* chunks per tile */
    chunk_t *oc = reinterpret_cast<chunk_t *>(out);
    const chunk_t *ac = reinterpret_cast<const chunk_t *>(a);
    const chunk_t *bc = reinterpret_cast<const chunk_t *>(b);
#if gstride
    for (long tile0 = (long)blockIdx.x * tile; tile0 < chunks; tile0 += (long)gridDim.x * tile)
        cmul_tile(oc, ac, bc, tile0, chunks, scale);
#else
    cmul_tile(oc, ac, bc, (long)blockIdx.x * tile, chunks, scale);
#endif
}
