// A kernel whose launch the driver refuses at some values of its axis
// (tests/device/failures.sh): it keeps REGS accumulators live across a loop
// whose trip count is known only at run time, so it needs more than REGS
// registers a thread. 1024 threads of it need more registers than an SM
// has (CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES); 2048 threads are more than a
// block may have (CUDA_ERROR_INVALID_VALUE). 64 to 256 threads run.
#define REGS 96

extern "C" __global__ void heavy(float *out, const float *in, int len)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= len)
        return;
    float a[REGS];
#pragma unroll
    for (int k = 0; k < REGS; k++)
        a[k] = in[(i + k * 977) % len];
    for (int t = 0; t < 3 + (len & 1); t++) {
#pragma unroll
        for (int k = 0; k < REGS; k++)
            a[k] = 0.5f * a[k] * a[(k + 1) % REGS] + 0.25f;
    }
    float acc = 0.0f;
#pragma unroll
    for (int k = 0; k < REGS; k++)
        acc += a[k];
    out[i] = acc;
}
