// wrong.cu - a saxpy with a deliberate bug for the device tier: the last
// element is never updated, so verification must fail at index n - 1.
extern "C" __global__ void saxpy_wrong(float *y, const float *x, float a, int count)
{
    long i = (long)blockIdx.x * blockDim.x + threadIdx.x;
    if (i < count - 1)
        y[i] = a * x[i] + y[i];
}

extern "C" __global__ void saxpy_naive(float *y, const float *x, float a, int count)
{
    long i = (long)blockIdx.x * blockDim.x + threadIdx.x;
    if (i < count)
        y[i] = a * x[i] + y[i];
}
