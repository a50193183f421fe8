// Sum reduction: each block reduces block_size_x * ELEMS floats into one
// partial sum (a tree in shared memory, sequential addressing).
extern "C" __global__ void reduce_sum(float *out, const float *in, int count)
{
    __shared__ float sdata[BLOCK];
    unsigned int tid = threadIdx.x;
    unsigned int base = blockIdx.x * (BLOCK * ELEMS) + tid;
    float sum = 0.0f;
    for (int e = 0; e < ELEMS; e++)
        sum += in[base + e * BLOCK];
    sdata[tid] = sum;
    __syncthreads();
    for (unsigned int s = blockDim.x / 2; s > 0; s >>= 1) {
        if (tid < s)
            sdata[tid] += sdata[tid + s];
        __syncthreads();
    }
    if (tid == 0)
        out[blockIdx.x] = sdata[0];
}
