// saxpy.cu - y = a * x + y, the kernel of docs/kernel-spec.md's example.
// block_size_x and elems_per_thread arrive as -D defines from the spec's
// axes; each block covers block_size_x * elems_per_thread consecutive
// elements, each warp's accesses coalesced. Every axis is a macro, so no
// parameter or variable may share an axis's name (the length is `count`, not `n`).
extern "C" __global__ void saxpy(float *y, const float *x, float a, int count)
{
    long base = (long)blockIdx.x * block_size_x * elems_per_thread + threadIdx.x;
#pragma unroll
    for (int k = 0; k < elems_per_thread; k++) {
        long i = base + (long)k * block_size_x;
        if (i < count)
            y[i] = a * x[i] + y[i];
    }
}

// The reference: one element per thread, nothing clever.
extern "C" __global__ void saxpy_naive(float *y, const float *x, float a, int count)
{
    long i = (long)blockIdx.x * blockDim.x + threadIdx.x;
    if (i < count)
        y[i] = a * x[i] + y[i];
}
