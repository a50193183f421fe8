/* colmean.cu - the mean of each column of a row-major rows x cols float
 * matrix (the per-feature mean of a batch of samples, the first pass of a
 * batch norm or of a column standardization). The matrix is walked down its
 * columns: a row apart between consecutive loads of a thread, while the
 * threads of a warp read consecutive columns of one row.
 *
 * A block of block_size_x x block_size_y threads takes a strip of
 * block_size_x columns (blockIdx.x) and one of `splits` equal chunks of the
 * rows (blockIdx.y; splits divides the rows). Thread (tx, ty) adds rows ty,
 * ty + block_size_y, ... of its chunk in column c = strip start + tx, in
 * float, in order. The block_size_y partial sums of a column are combined
 * through shared memory (block_size_y x block_size_x floats) by the first
 * thread row, in order of ty. With one split the sum divided by the rows is
 * stored; with more, each chunk's sum divided by the rows is added to the
 * output by atomicAdd (the output starts at zero), in whatever order the
 * blocks finish.
 *
 * Compiled with -Dblock_size_x=X -Dblock_size_y=Y -Dsplits=S -Drows=R -Dcols=C. */

/* The reference: a thread per column, its rows added in order in double. */
extern "C" __global__ void colmean_reference(float *mean, const float *A, int nrows, int ncols)
{
    const int c = blockIdx.x * blockDim.x + threadIdx.x;
    if (c >= ncols)
        return;
    double acc = 0.0;
    for (int r = 0; r < nrows; r++)
        acc += (double)A[(long)r * ncols + c];
    mean[c] = (float)(acc / nrows);
}

extern "C" __global__ void __launch_bounds__(block_size_x * block_size_y)
    colmean(float *mean, const float *__restrict__ A, int nrows, int ncols)
{
    const int c = blockIdx.x * block_size_x + threadIdx.x;
    const int chunk = nrows / splits; /* rows per split */
    float acc = 0.0f;
    if (c < ncols) {
        const float *a = A + (long)blockIdx.y * chunk * ncols + c;
#pragma unroll 4
        for (int r = threadIdx.y; r < chunk; r += block_size_y)
            acc += a[(long)r * ncols];
    }
#if block_size_y > 1
    __shared__ float part[block_size_y][block_size_x];
    part[threadIdx.y][threadIdx.x] = acc;
    __syncthreads();
    if (threadIdx.y == 0) {
#pragma unroll
        for (int k = 1; k < block_size_y; k++)
            acc += part[k][threadIdx.x];
    }
#endif
    if (threadIdx.y == 0 && c < ncols) {
        const float m = acc / (float)nrows;
#if splits > 1
        atomicAdd(mean + c, m);
#else
        mean[c] = m;
#endif
    }
}
