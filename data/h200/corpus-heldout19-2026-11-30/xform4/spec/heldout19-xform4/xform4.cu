/* xform4.cu - points transformed by the 4 x 4 matrix of their group (a
 * batch of objects, each with its own transform, as vertices are skinned
 * or particles moved into a frame):
 *     y[p] = M[p / GPTS] x[p],  x and y float4 (homogeneous) points
 * M holds a row-major 4 x 4 float matrix per group of GPTS (64)
 * consecutive points, matrix g at float 16 g; count points, ceil(count /
 * GPTS) matrices.
 *
 * A thread takes ppt points a block apart (p, p + block_size_x, ...),
 * each x loaded as a float4 (all ppt loads issued first) and each y
 * stored as a float4: a warp's load and store 512 contiguous bytes, its
 * 32 points in one group. Component i of y is
 *     fmaf(m[i][3], x.w, fmaf(m[i][2], x.z, fmaf(m[i][1], x.y, m[i][0] x.x)))
 * The matrix (mload):
 *   0: each thread loads its group's 16 floats by four float4 __ldg from
 *      global memory for every point (the warp's lanes share the address:
 *      one broadcast request each);
 *   1: the block first copies the block_size_x ppt / GPTS matrices of its
 *      points into shared memory (a float per thread, coalesced), a
 *      barrier, and each thread reads its group's from there (a broadcast).
 *
 * Compiled with -Dblock_size_x=T -Dppt=P -Dmload=L -Dnpts=N. */

#define GPTS 64 /* consecutive points sharing a matrix */
#define MPB (block_size_x * ppt / GPTS) /* matrices of a block's points */

#if mload != 0 && mload != 1
#error "mload is 0 or 1"
#endif
#if ppt < 1
#error "ppt is at least 1"
#endif
#if (block_size_x * ppt) % GPTS != 0 || block_size_x % 32 != 0
#error "a block's points are whole groups; block_size_x is a multiple of 32"
#endif

__device__ __forceinline__ float4 apply(const float *m, float4 x)
{
    float4 y;
    y.x = fmaf(m[3], x.w, fmaf(m[2], x.z, fmaf(m[1], x.y, __fmul_rn(m[0], x.x))));
    y.y = fmaf(m[7], x.w, fmaf(m[6], x.z, fmaf(m[5], x.y, __fmul_rn(m[4], x.x))));
    y.z = fmaf(m[11], x.w, fmaf(m[10], x.z, fmaf(m[9], x.y, __fmul_rn(m[8], x.x))));
    y.w = fmaf(m[15], x.w, fmaf(m[14], x.z, fmaf(m[13], x.y, __fmul_rn(m[12], x.x))));
    return y;
}

/* The reference: one point per thread, the matrix read as floats. */
extern "C" __global__ void xform4_reference(float4 *y, const float4 *x, const float *M, int count)
{
    const long p = (long)blockIdx.x * blockDim.x + threadIdx.x;
    if (p >= count)
        return;
    y[p] = apply(M + 16 * (p / GPTS), x[p]);
}

extern "C" __global__ void __launch_bounds__(block_size_x)
    xform4(float4 *__restrict__ y, const float4 *__restrict__ x, const float *__restrict__ M, int count)
{
    const long p0 = (long)blockIdx.x * block_size_x * ppt; /* the block's first point */
#if mload == 1
    __shared__ __align__(16) float sm[16 * MPB];
    const long g0 = p0 / GPTS, ng = ((long)count + GPTS - 1) / GPTS; /* first group, groups */
    for (int i = threadIdx.x; i < 16 * MPB; i += block_size_x)
        if (g0 + i / 16 < ng)
            sm[i] = __ldg(M + 16 * g0 + i);
    __syncthreads();
#endif
    float4 v[ppt];
#pragma unroll
    for (int k = 0; k < ppt; k++) {
        const long p = p0 + threadIdx.x + (long)k * block_size_x;
        v[k] = p < count ? __ldg(x + p) : make_float4(0.f, 0.f, 0.f, 0.f);
    }
#pragma unroll
    for (int k = 0; k < ppt; k++) {
        const int q = threadIdx.x + k * block_size_x; /* the point within the block */
        const long p = p0 + q;
        if (p >= count)
            break;
#if mload == 0
        const float4 *mg = reinterpret_cast<const float4 *>(M + 16 * (p / GPTS));
        const float4 r0 = __ldg(mg), r1 = __ldg(mg + 1), r2 = __ldg(mg + 2), r3 = __ldg(mg + 3);
        const float m[16] = {r0.x, r0.y, r0.z, r0.w, r1.x, r1.y, r1.z, r1.w,
                             r2.x, r2.y, r2.z, r2.w, r3.x, r3.y, r3.z, r3.w};
        y[p] = apply(m, v[k]);
#else
        y[p] = apply(sm + 16 * (q / GPTS), v[k]);
#endif
    }
}
