// reduce.cu - per-block sums of an int array: a C++ template kernel over its
// block size (a name expression, "partial_sums<{block_size_x}>"), and a
// naive extern "C" reference that one thread per block runs.
#include "common.cuh"

template <int BLOCK>
__global__ void partial_sums(const int *in, int *out, int count)
{
    __shared__ int warps[BLOCK / 32];
    int i = blockIdx.x * BLOCK + threadIdx.x;
    int v = warp_sum(i < count ? in[i] : 0);
    if (threadIdx.x % 32 == 0)
        warps[threadIdx.x / 32] = v;
    __syncthreads();
    if (threadIdx.x < 32) {
        v = threadIdx.x < BLOCK / 32 ? warps[threadIdx.x] : 0;
        v = warp_sum(v);
        if (threadIdx.x == 0)
            out[blockIdx.x] = v;
    }
}

extern "C" __global__ void partial_sums_naive(const int *in, int *out, int count)
{
    int s = 0;
    for (int k = 0; k < block_size_x; k++) {
        int i = blockIdx.x * block_size_x + k;
        if (i < count)
            s += in[i];
    }
    out[blockIdx.x] = s;
}
