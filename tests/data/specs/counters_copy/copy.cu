// A vector copy: the kernel spec of the counters device test
// (scripts/device_counters.sh), 16 bytes per thread, coalesced.
extern "C" __global__ void vcopy(float *out, const float *in, int n)
{
    int i = (blockIdx.x * blockDim.x + threadIdx.x) * 4;
    if (i + 3 < n)
        *(float4 *)(out + i) = *(const float4 *)(in + i);
}

extern "C" __global__ void vcopy_ref(float *out, const float *in, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        out[i] = in[i];
}
