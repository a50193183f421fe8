/* gemv.cu - y = A x for a row-major rows x cols float matrix A: the
 * matrix-vector product of a dense layer at batch 1, or of one step of an
 * iterative solver. A group of tpr threads (a power of two up to a warp)
 * takes a row: each thread reads every (tpr * vec)-th chunk of vec floats
 * of the row and of x, and the group adds its partial sums by warp
 * shuffles. tpr = 1 is a thread per row (its loads stride by a row across
 * the warp); tpr = 32 a warp per row (its loads are contiguous).
 *
 * Compiled with -Dblock_size_x=B -Dtpr=T -Dvec=V -Drows=R -Dcols=C. */

/* The reference: a thread per row, the sum in double. */
extern "C" __global__ void gemv_reference(float *y, const float *A, const float *x, int nrows, int ncols)
{
    const int r = blockIdx.x * blockDim.x + threadIdx.x;
    if (r >= nrows)
        return;
    const float *a = A + (long)r * ncols;
    double s = 0.0;
    for (int c = 0; c < ncols; c++)
        s += (double)a[c] * (double)x[c];
    y[r] = (float)s;
}

extern "C" __global__ void __launch_bounds__(block_size_x)
    gemv_rows(float *y, const float *__restrict__ A, const float *__restrict__ x, int nrows, int ncols)
{
    const long t = (long)blockIdx.x * block_size_x + threadIdx.x;
    const long r = t / tpr;
    const int lane = (int)(t % tpr);
    float s = 0.0f;
    if (r < nrows) {
        const float *a = A + r * ncols;
        for (int c = lane * vec; c < ncols; c += tpr * vec) {
#if vec == 4
            const float4 av = *reinterpret_cast<const float4 *>(a + c);
            const float4 xv = *reinterpret_cast<const float4 *>(x + c);
            s = fmaf(av.x, xv.x, s);
            s = fmaf(av.y, xv.y, s);
            s = fmaf(av.z, xv.z, s);
            s = fmaf(av.w, xv.w, s);
#else
            s = fmaf(a[c], x[c], s);
#endif
        }
    }
    /* Every thread of the warp takes part, rows past the end too. */
#pragma unroll
    for (int o = tpr / 2; o > 0; o /= 2)
        s += __shfl_xor_sync(0xffffffffu, s, o);
    if (r < nrows && lane == 0)
        y[r] = s;
}
