// The compile-cost sweep (scripts/device_failures.sh): 10 block sizes x 20
// unroll depths, 200 distinct define sets, each its own module.
extern "C" __global__ void axpy(float *y, const float *x, int len)
{
    int base = blockIdx.x * blockDim.x * elems + threadIdx.x;
#pragma unroll
    for (int k = 0; k < elems; k++) {
        int i = base + k * blockDim.x;
        if (i < len)
            y[i] = 2.0f * x[i] + 1.0f;
    }
}

extern "C" __global__ void axpy_ref(float *y, const float *x, int len)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < len)
        y[i] = 2.0f * x[i] + 1.0f;
}
