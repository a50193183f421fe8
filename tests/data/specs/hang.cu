// A kernel that never ends at one value of its axis (tests/device/failures.sh):
// at block_size_x == 64 every thread spins on a volatile flag that nothing
// clears. With "timeout_s": 2 gpubound stops the run after 2 s, keeps the
// points before it and records the hung one.
extern "C" __global__ void copy(float *out, const float *in, int len)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
#if block_size_x == 64
    volatile int spin = 1;
    while (spin)
        ;
#endif
    if (i < len)
        out[i] = in[i];
}

extern "C" __global__ void copy_ref(float *out, const float *in, int len)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < len)
        out[i] = in[i];
}
