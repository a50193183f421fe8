// A vector copy: the kernel spec of the counters device test
// (scripts/device_counters.sh), 16 bytes per thread, coalesced.
extern "C" __global__ void vcopy(float *out, const float *in, int len)
{
    int i = (blockIdx.x * blockDim.x + threadIdx.x) * 4;
    if (i + 3 < len)
        *(float4 *)(out + i) = *(const float4 *)(in + i);
}

extern "C" __global__ void vcopy_ref(float *out, const float *in, int len)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < len)
        out[i] = in[i];
}
