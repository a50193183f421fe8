/* axpby_f64.cu - y <- a x + b y over a vector of doubles, in place on y
 * (BLAS's daxpby, a step of a double-precision iterative solver or of a
 * running average): x read, y read and written back, 24 bytes and a
 * multiplication and an fma per element. count is a multiple of 4.
 *
 * A chunk is dpt consecutive doubles: dpt 1 a double (8 bytes), dpt 2 a
 * double2 (one 16-byte load), dpt 4 two adjacent double2s (32 consecutive
 * bytes, two 16-byte loads of each stream, all four issued before the
 * first store). Thread t of a block takes chunk blockIdx.x x block_size_x
 * + t, so that a warp's load covers 256 or 512 contiguous bytes, or with
 * dpt 4 every other 16 bytes of 1 KiB (its second load the others). With
 * gstride 0 the grid has a chunk per thread and covers the vector once;
 * with gstride 1 it is at most 132 x 2048 / block_size_x blocks (one full
 * wave of 2048 threads on each of 132 SMs) and each thread strides over
 * the chunks, gridDim.x x block_size_x apart.
 *
 * axpby_elem() is an explicitly rounded multiplication and fma, which the
 * kernel and the reference both call, so they compute the same bits
 * whatever the compiler contracts elsewhere.
 *
 * Compiled with -Dblock_size_x=B -Ddpt=D -Dgstride=G -Dnelem=N. */

#if dpt != 1 && dpt != 2 && dpt != 4
#error "dpt is 1, 2 or 4"
#endif
#if gstride != 0 && gstride != 1
#error "gstride is 0 or 1"
#endif

__device__ __forceinline__ double axpby_elem(double a, double x, double b, double y)
{
    return __fma_rn(a, x, __dmul_rn(b, y));
}

/* The reference: one element per thread. */
extern "C" __global__ void axpby_reference(double *y, const double *x, double a, double b, int count)
{
    const long i = (long)blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= count)
        return;
    y[i] = axpby_elem(a, x[i], b, y[i]);
}

__device__ __forceinline__ double2 axpby2(double a, const double2 x, double b, const double2 y)
{
    return make_double2(axpby_elem(a, x.x, b, y.x), axpby_elem(a, x.y, b, y.y));
}

/* Chunk c: doubles dpt c to dpt c + dpt - 1. */
__device__ __forceinline__ void axpby_chunk(double *__restrict__ y, const double *__restrict__ x, double a, double b,
                                            long c)
{
#if dpt == 1
    y[c] = axpby_elem(a, __ldg(x + c), b, y[c]);
#elif dpt == 2
    double2 *y2 = reinterpret_cast<double2 *>(y);
    const double2 *x2 = reinterpret_cast<const double2 *>(x);
    y2[c] = axpby2(a, __ldg(x2 + c), b, y2[c]);
#else
    double2 *y2 = reinterpret_cast<double2 *>(y) + 2 * c;
    const double2 *x2 = reinterpret_cast<const double2 *>(x) + 2 * c;
    const double2 x0 = __ldg(x2), x1 = __ldg(x2 + 1);
    const double2 y0 = y2[0], y1 = y2[1];
    y2[0] = axpby2(a, x0, b, y0);
    y2[1] = axpby2(a, x1, b, y1);
#endif
}

extern "C" __global__ void __launch_bounds__(block_size_x)
    axpby(double *__restrict__ y, const double *__restrict__ x, double a, double b, int count)
{
    const long chunks = count / dpt;
#if gstride
    for (long c = (long)blockIdx.x * block_size_x + threadIdx.x; c < chunks; c += (long)gridDim.x * block_size_x)
        axpby_chunk(y, x, a, b, c);
#else
    const long c = (long)blockIdx.x * block_size_x + threadIdx.x;
    if (c < chunks)
        axpby_chunk(y, x, a, b, c);
#endif
}
