// A kernel that never ends at one value of its axis (tests/device/failures.sh):
// at block_size_x == 64 every thread spins comparing an input with itself. With "timeout_s": 2 gpubound stops the run after 2 s, keeps the
// points before it and records the hung one.
extern "C" __global__ void copy(float *out, const float *in, int len)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
#if block_size_x == 64
    /* Two volatile loads of one input per turn: side effects the compiler
     * must keep (a loop without any may be removed), and always equal, as
     * the inputs are finite. */
    volatile const float *v = in;
    while (v[0] == v[0])
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
