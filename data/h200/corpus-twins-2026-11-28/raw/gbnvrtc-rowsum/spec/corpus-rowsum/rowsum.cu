/* rowsum.cu - the sum of every row of a rows x cols float matrix
 * (row-major), one block per row, reduced through a shared-memory tree.
 *
 * Compiled with -Dblock_size_x=B -Dvector_width=V -Drows=R -Dcols=C. Each
 * thread first adds its share of the row sequentially (coalesced loads of V
 * floats, strided by the block), stores the partial in shared memory, then
 * the block halves the active threads at each level with a barrier between
 * levels (sequential addressing, no bank conflicts) until one warp is left,
 * which finishes with shuffles. Thread 0 writes out[row]. */

/* The reference: one block of 256 threads per row; each thread sums a
 * strided share of the row in double, thread 0 adds the 256 shares in order. */
extern "C" __global__ void rowsum_reference(float *out, const float *in, int nrows, int ncols)
{
    __shared__ double share[256];
    const float *p = in + (long)blockIdx.x * ncols;
    double s = 0.0;
    for (int c = threadIdx.x; c < ncols; c += 256)
        s += (double)p[c];
    share[threadIdx.x] = s;
    __syncthreads();
    if (threadIdx.x == 0 && (int)blockIdx.x < nrows) {
        double total = 0.0;
        for (int t = 0; t < 256; t++)
            total += share[t];
        out[blockIdx.x] = (float)total;
    }
}

template <int W> struct vec;
template <> struct vec<1> { typedef float t; static __device__ float sum(float v) { return v; } };
template <> struct vec<4> {
    typedef float4 t;
    static __device__ float sum(float4 v) { return (v.x + v.y) + (v.z + v.w); }
};

extern "C" __global__ void __launch_bounds__(block_size_x)
    rowsum_tree(float *out, const float *in, int nrows, int ncols)
{
    typedef vec<vector_width> V;
    __shared__ float part[block_size_x];
    const int tid = threadIdx.x;
    const int row = blockIdx.x;
    const V::t *p = reinterpret_cast<const V::t *>(in + (long)row * ncols);
    const int nv = ncols / vector_width; /* the spec keeps cols a multiple of V */
    float s = 0.0f;
    for (int c = tid; c < nv; c += block_size_x)
        s += V::sum(p[c]);
    part[tid] = s;
    __syncthreads();
#pragma unroll
    for (int d = block_size_x / 2; d > 32; d >>= 1) {
        if (tid < d)
            part[tid] += part[tid + d];
        __syncthreads();
    }
    if (tid < 32) {
        float v = part[tid];
        if (block_size_x >= 64)
            v += part[tid + 32];
#pragma unroll
        for (int d = 16; d > 0; d >>= 1)
            v += __shfl_down_sync(0xffffffffu, v, d);
        if (tid == 0 && row < nrows)
            out[row] = v;
    }
}
