/* gemv_dp4a.cu - y = A x for a row-major rows x cols matrix A of int8 and an
 * int8 vector x, accumulated exactly in int32: the matrix-vector product of
 * an int8-quantized layer at batch size 1 (the scales are applied to y
 * afterwards, elsewhere). Each 4 bytes of a row meet 4 bytes of x in one
 * __dp4a (four byte products added to an int32). cols is a multiple of 16,
 * so every row starts 16-byte aligned.
 *
 * A warp takes rpw consecutive rows. Lane l reads, in passes over the
 * columns, the vec bytes from column c = l vec + 32 vec i (pass i): a word
 * (vec 4) or an int4 (vec 16) of x, then the same columns of each of its
 * rpw rows, and adds their dp4a's to one accumulator per row; the x chunk is
 * loaded once per pass for all rpw rows (rows in flight together, x reused
 * from registers). A warp's loads of one row in a pass are 32 vec
 * consecutive bytes. After the last pass each row's 32 partial sums are
 * added by a butterfly of shuffles and lane 0 stores them. x (4 or 8 KiB) is
 * read by every warp, from L1 and L2.
 *
 * Compiled with -Dblock_size_x=B -Drpw=R -Dvec=V -Drows=M -Dcols=N. */

/* The reference: a thread per row, its bytes in order. */
extern "C" __global__ void gemv_dp4a_reference(int *y, const signed char *A, const signed char *x, int nrows,
                                               int ncols)
{
    const int r = blockIdx.x * blockDim.x + threadIdx.x;
    if (r >= nrows)
        return;
    const signed char *a = A + (long)r * ncols;
    int s = 0;
    for (int c = 0; c < ncols; c++)
        s += (int)a[c] * (int)x[c];
    y[r] = s;
}

#define WARPS (block_size_x / 32)

extern "C" __global__ void __launch_bounds__(block_size_x)
    gemv_dp4a(int *y, const signed char *__restrict__ A, const signed char *__restrict__ x, int nrows, int ncols)
{
    const int lane = threadIdx.x % 32;
    const long r0 = ((long)blockIdx.x * WARPS + threadIdx.x / 32) * rpw;
    const signed char *a[rpw];
    bool ok[rpw]; /* the same in every lane of the warp */
    int acc[rpw];
#pragma unroll
    for (int k = 0; k < rpw; k++) {
        ok[k] = r0 + k < nrows;
        a[k] = A + (r0 + k) * ncols;
        acc[k] = 0;
    }
    for (int c = lane * vec; c < ncols; c += 32 * vec) {
#if vec == 16
        const int4 xv = *reinterpret_cast<const int4 *>(x + c);
        int4 av[rpw];
#pragma unroll
        for (int k = 0; k < rpw; k++)
            av[k] = ok[k] ? *reinterpret_cast<const int4 *>(a[k] + c) : make_int4(0, 0, 0, 0);
#pragma unroll
        for (int k = 0; k < rpw; k++) {
            acc[k] = __dp4a(av[k].x, xv.x, acc[k]);
            acc[k] = __dp4a(av[k].y, xv.y, acc[k]);
            acc[k] = __dp4a(av[k].z, xv.z, acc[k]);
            acc[k] = __dp4a(av[k].w, xv.w, acc[k]);
        }
#elif vec == 4
        const int xv = *reinterpret_cast<const int *>(x + c);
        int av[rpw];
#pragma unroll
        for (int k = 0; k < rpw; k++)
            av[k] = ok[k] ? *reinterpret_cast<const int *>(a[k] + c) : 0;
#pragma unroll
        for (int k = 0; k < rpw; k++)
            acc[k] = __dp4a(av[k], xv, acc[k]);
#else
#error "vec is 4 or 16"
#endif
    }
#pragma unroll
    for (int k = 0; k < rpw; k++) {
#pragma unroll
        for (int o = 16; o > 0; o /= 2)
            acc[k] += __shfl_xor_sync(0xffffffffu, acc[k], o);
        if (lane == 0 && ok[k])
            y[r0 + k] = acc[k];
    }
}
