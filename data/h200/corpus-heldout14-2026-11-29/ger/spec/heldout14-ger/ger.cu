/* ger.cu - a decayed rank-1 update of a float matrix in place, as a running
 * outer-product statistic is kept (the exponential moving average of a
 * Kronecker factor's x y^T, or BLAS's ger with the matrix scaled first):
 *     A[r][c] <- beta A[r][c] + alpha x[r] y[c]
 * A is nrows x NC (NC = 4096 columns), row-major; x has a float per row,
 * y a float per column. Each element of A is read and written once; x[r]
 * serves a whole row and y[c] a whole column.
 *
 * The grid is NC / (block_size_x x vec) blocks across by ceil(nrows / rpt)
 * down. Thread t of block (bx, by) owns the vec adjacent columns starting at
 * (bx x block_size_x + t) x vec (a float or a float4) in the rpt adjacent
 * rows starting at by x rpt: it loads its chunk of y once, alpha x[r] once
 * per row (a load every thread of the warp shares), all rpt chunks of A
 * before its first store, and then updates and stores them. ger_ax() and
 * ger_elem() are the functions the kernel and the reference both call,
 * explicitly rounded intrinsics, so the two agree to the bit.
 *
 * Compiled with -Dblock_size_x=B -Dvec=V -Drpt=R -Drows=N. */

#define NC 4096 /* columns */

#if vec != 1 && vec != 4
#error "vec is 1 or 4"
#endif
#if rpt < 1
#error "rpt is at least 1"
#endif
#if NC % (block_size_x * vec) != 0
#error "block_size_x x vec divides 4096"
#endif

__device__ __forceinline__ float ger_ax(float alpha, float xr)
{
    return __fmul_rn(alpha, xr);
}
__device__ __forceinline__ float ger_elem(float a, float ax, float yc, float beta)
{
    return __fmaf_rn(beta, a, __fmul_rn(ax, yc));
}

/* The reference: one element of A per thread. */
extern "C" __global__ void ger_reference(float *a, const float *x, const float *y, float alpha, float beta, int nrows)
{
    const long i = (long)blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= (long)nrows * NC)
        return;
    const long r = i / NC;
    const int c = (int)(i % NC);
    a[i] = ger_elem(a[i], ger_ax(alpha, x[r]), y[c], beta);
}

#if vec == 4
typedef float4 chunk_t;
__device__ __forceinline__ float4 ger_chunk(const float4 a, float ax, const float4 y, float beta)
{
    return make_float4(ger_elem(a.x, ax, y.x, beta), ger_elem(a.y, ax, y.y, beta), ger_elem(a.z, ax, y.z, beta),
                       ger_elem(a.w, ax, y.w, beta));
}
#else
typedef float chunk_t;
__device__ __forceinline__ float ger_chunk(const float a, float ax, const float y, float beta)
{
    return ger_elem(a, ax, y, beta);
}
#endif

extern "C" __global__ void __launch_bounds__(block_size_x)
    ger(float *__restrict__ a, const float *__restrict__ x, const float *__restrict__ y, float alpha, float beta,
        int nrows)
{
    const int cc = blockIdx.x * block_size_x + threadIdx.x; /* the chunk's column, in chunks */
    const int r0 = blockIdx.y * rpt;
    const chunk_t yc = __ldg(reinterpret_cast<const chunk_t *>(y) + cc);
    chunk_t *ac = reinterpret_cast<chunk_t *>(a);
    chunk_t av[rpt];
    float ax[rpt];
#pragma unroll
    for (int k = 0; k < rpt; k++) {
        if (r0 + k < nrows) {
            ax[k] = ger_ax(alpha, __ldg(x + r0 + k));
            av[k] = ac[(long)(r0 + k) * (NC / vec) + cc];
        }
    }
#pragma unroll
    for (int k = 0; k < rpt; k++) {
        if (r0 + k < nrows)
            ac[(long)(r0 + k) * (NC / vec) + cc] = ger_chunk(av[k], ax[k], yc, beta);
    }
}
