// Kernels whose work lies in device functions of the same source, counted
// by hand in tests/unit/test_analyze_calls.c: a helper holding a loop and a
// barrier, called in a loop, whose parameter m (also the name of a kernel
// parameter) bounds its loop and a local's value; a recursive helper; a
// helper called twice in one statement.
__device__ void tile_step(float *t, const float *in, float *out, int m)
{
    const int half = m / 2;
    for (int k = 0; k < m; k++)             // m trips: the argument 2 * M
        t[threadIdx.x] += in[k];            // shared load+store, global load, 1 op
    __syncthreads();
    for (int j = 0; j < half; j++)          // m / 2 = M trips
        out[j] = 0.0f;                      // global store
    out[threadIdx.x] = t[threadIdx.x] * 0.5f; // global store, shared load, 1 op
}

extern "C" __global__ void in_loop(const float *in, float *out, int m)
{
    __shared__ float t[256];
    t[threadIdx.x] = 0.0f;                  // shared store
    for (int i = 0; i < N; i++)             // N trips
        tile_step(t, in, out, 2 * M);
    out[m] = 1.0f;                          // global store
}

__device__ float halve(float v, int d)
{
    return d > 0 ? halve(v * 0.5f, d - 1) : v; // 1 op: the recursive call is not followed
}

extern "C" __global__ void recursive(float *out)
{
    out[threadIdx.x] = halve(out[threadIdx.x], N);
}

__device__ float scaled(const float *in, int i)
{
    return in[i] * 2.0f;                    // global load, 1 op
}

extern "C" __global__ void twice(const float *in, float *out)
{
    out[threadIdx.x] = scaled(in, threadIdx.x) + scaled(in, threadIdx.x + blockDim.x);
}
