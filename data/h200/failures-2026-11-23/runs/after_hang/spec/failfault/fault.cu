// A kernel that faults at one value of its axis and is correct at every
// other (tests/device/failures.sh): at block_size_x == 96 its first thread
// stores far outside any allocation, an illegal address that loses the
// context; gpubound records the point, recreates the context and goes on.
extern "C" __global__ void scale(float *out, const float *in, int len)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
#if block_size_x == 96
    if (i == 0)
        *(volatile float *)(out + (1ll << 38)) = 1.0f;
#endif
    if (i < len)
        out[i] = 2.0f * in[i];
}

extern "C" __global__ void scale_ref(float *out, const float *in, int len)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < len)
        out[i] = 2.0f * in[i];
}
