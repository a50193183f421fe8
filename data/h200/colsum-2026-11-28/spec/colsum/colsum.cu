/* colsum.cu - column sums of a rows x cols row-major float matrix.
 *
 * colsum: one thread per column, walking down it; a warp's loads of one row
 * are 32 consecutive floats (coalesced). With 4096 columns and 256 threads a
 * block the grid is 16 blocks: far fewer warps than the GPU holds.
 * colsum_reference: one block per column, strided partial sums in double
 * and a shared-memory tree. */
extern "C" __global__ void colsum(float *out, const float *in, int nrows, int ncols)
{
    const int c = blockIdx.x * blockDim.x + threadIdx.x;
    if (c >= ncols)
        return;
    float s = 0.0f;
    for (int r = 0; r < nrows; r++)
        s += in[(long)r * ncols + c];
    out[c] = s;
}

extern "C" __global__ void colsum_reference(float *out, const float *in, int nrows, int ncols)
{
    __shared__ double part[256];
    const int c = blockIdx.x;
    double s = 0.0;
    for (int r = threadIdx.x; r < nrows; r += blockDim.x)
        s += in[(long)r * ncols + c];
    part[threadIdx.x] = s;
    __syncthreads();
    for (int w = blockDim.x / 2; w > 0; w >>= 1) {
        if (threadIdx.x < w)
            part[threadIdx.x] += part[threadIdx.x + w];
        __syncthreads();
    }
    if (threadIdx.x == 0)
        out[c] = (float)part[0];
}
