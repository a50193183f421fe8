// planted.cu - for the device tier: out = n * x + y, whose configurations
// with plant = 1 skip the last element (a planted bug that the reference
// made once per problem and kept on the GPU must still catch), and whose
// values depend on n (a problem compared with another size's reference, or
// given another size's inputs, would fail).
extern "C" __global__ void scaled(float *out, const float *x, const float *y, int count)
{
    long i = (long)blockIdx.x * blockDim.x + threadIdx.x;
    if (i < count - plant)
        out[i] = (float)count * x[i] + y[i];
}

extern "C" __global__ void scaled_naive(float *out, const float *x, const float *y, int count)
{
    long i = (long)blockIdx.x * blockDim.x + threadIdx.x;
    if (i < count)
        out[i] = (float)count * x[i] + y[i];
}
