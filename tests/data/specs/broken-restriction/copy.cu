// copy.cu - y = x, one element per thread (the broken-* check fixtures).
extern "C" __global__ void copy(float *y, const float *x, int count)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < count)
        y[i] = x[i];
}
