/* conv1d.cu - 1-D convolution with a 17-tap filter, zero padding at the ends:
 * y[i] = sum_{t=0..16} w[t] x[i + t - 8].
 *
 * Compiled with -Dblock_size_x=B -Doutputs_per_thread=P -Dstaging=S -Dn=N.
 * A block writes B * P consecutive outputs, P per thread at stride B (so each
 * store is coalesced). The taps go to shared memory once per block. With
 * staging 1 the block's input window (its outputs plus an 8-element halo on
 * each side) is loaded into shared memory once and every tap reads it there;
 * with staging 0 every tap reads the input through the read-only cache and
 * relies on L1 for the 17-fold reuse. */

#define RADIUS 8
#define TAPS (2 * RADIUS + 1)
#define SPAN (block_size_x * outputs_per_thread)

/* The reference: one output per thread, taps and input from global memory,
 * the same fmaf chain in the same order as the tuned kernel. */
extern "C" __global__ void conv1d_reference(float *y, const float *x, const float *w, int count)
{
    const long i = (long)blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= count)
        return;
    float acc = 0.0f;
    for (int t = 0; t < TAPS; t++) {
        const long g = i + t - RADIUS;
        const float v = (g >= 0 && g < count) ? x[g] : 0.0f;
        acc = fmaf(w[t], v, acc);
    }
    y[i] = acc;
}

extern "C" __global__ void __launch_bounds__(block_size_x)
    conv1d_tiled(float *y, const float *__restrict__ x, const float *__restrict__ w, int count)
{
    __shared__ float ws[TAPS];
#if staging
    __shared__ float xs[SPAN + 2 * RADIUS];
#endif
    const long base = (long)blockIdx.x * SPAN;
    if (threadIdx.x < TAPS)
        ws[threadIdx.x] = w[threadIdx.x];
#if staging
    for (int i = threadIdx.x; i < SPAN + 2 * RADIUS; i += block_size_x) {
        const long g = base - RADIUS + i;
        xs[i] = (g >= 0 && g < count) ? x[g] : 0.0f;
    }
#endif
    __syncthreads();
#pragma unroll
    for (int k = 0; k < outputs_per_thread; k++) {
        const int o = threadIdx.x + k * block_size_x;
        const long g = base + o;
        float acc = 0.0f;
#pragma unroll
        for (int t = 0; t < TAPS; t++) {
#if staging
            const float v = xs[o + t];
#else
            const long gi = g + t - RADIUS;
            const float v = (gi >= 0 && gi < count) ? __ldg(x + gi) : 0.0f;
#endif
            acc = fmaf(ws[t], v, acc);
        }
        if (g < count)
            y[g] = acc;
    }
}
