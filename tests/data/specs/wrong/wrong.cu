// wrong.cu - a saxpy with a deliberate bug for the device tier: the last
// element is never updated, so verification must fail at index n - 1.
extern "C" __global__ void saxpy_wrong(float *y, const float *x, float a, int n)
{
    long i = (long)blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n - 1)
        y[i] = a * x[i] + y[i];
}

extern "C" __global__ void saxpy_naive(float *y, const float *x, float a, int n)
{
    long i = (long)blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        y[i] = a * x[i] + y[i];
}
