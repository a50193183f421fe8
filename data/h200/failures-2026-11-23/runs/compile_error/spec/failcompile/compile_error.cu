// A kernel that does not compile at one value of its axis
// (tests/device/failures.sh): gpubound records the point with NVRTC's log
// (compile_log) and a reason naming the kernel and the first error.
#if block_size_x == 64
#error "block_size_x 64 is not supported by this kernel"
#endif

extern "C" __global__ void negate(float *out, const float *in, int len)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < len)
        out[i] = -in[i];
}

extern "C" __global__ void negate_ref(float *out, const float *in, int len)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < len)
        out[i] = -in[i];
}
