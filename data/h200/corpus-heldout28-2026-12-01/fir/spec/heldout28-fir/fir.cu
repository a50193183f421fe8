/* fir.cu - a real FIR filter of taps (odd) coefficients h over a stream
 * of float samples, delay-compensated (the output aligned with the input,
 * as a smoothing or band-limiting filter of a signal chain is applied
 * after the design, `same' convolution) with zeros past either end:
 *     y[i] = sum over k < taps of h[k] x[i + R - k],   R = (taps - 1) / 2,
 * x[j] taken as 0 for j < 0 and j >= count. x and y hold count floats, h
 * taps floats: 4 bytes read and 4 written per sample.
 *
 * A block filters a tile of TILE = opt block_size_x consecutive outputs.
 * Its threads stage the tile's inputs and a halo of R samples on either
 * side in shared memory: each thread loads opt samples a block-width apart
 * (opt independent 4-byte loads in flight, a warp's load 128 contiguous
 * bytes), the first 2 R threads one halo sample each, the first taps
 * threads one coefficient each; after a barrier each thread works out its
 * opt outputs, a block-width apart, from the tile by a chain of taps
 * fmaf (taps in the order k = 0, 1, ...), every shared read of a warp 32
 * consecutive words (no bank conflicts) or one word (the coefficient, a
 * broadcast). The grid covers the samples once, ceil(count / TILE)
 * blocks; a partial last tile is guarded.
 *
 * Compiled with -Dblock_size_x=T -Dopt=P -Dtaps=K -Dnsamp=N. */

#if taps != 3 && taps != 5 && taps != 7 && taps != 9 && taps != 11 && taps != 13 && taps != 15
#error "taps is odd, 3 to 15"
#endif
#if opt != 1 && opt != 2 && opt != 4 && opt != 8
#error "opt is 1, 2, 4 or 8"
#endif
#if block_size_x < taps
#error "block_size_x is at least taps (a thread per halo sample and coefficient)"
#endif

#define RAD ((taps - 1) / 2)       /* halo on either side */
#define TILE (opt * block_size_x) /* outputs per block */

/* The reference: one output per thread, every product from global memory
 * in double, the index of each input worked out and tested on its own, the
 * sum rounded to float once. */
extern "C" __global__ void fir_reference(float *y, const float *x, const float *h, int count)
{
    const long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= count)
        return;
    double acc = 0.0;
    for (int k = 0; k < taps; k++) {
        const long long j = i + (taps - 1) / 2 - k;
        if (j >= 0 && j < count)
            acc += (double)h[k] * (double)x[j];
    }
    y[i] = (float)acc;
}

extern "C" __global__ void __launch_bounds__(block_size_x)
    fir(float *__restrict__ y, const float *__restrict__ x, const float *__restrict__ h, int count)
{
    __shared__ float xs[TILE + 2 * RAD]; /* xs[s] = x[base - RAD + s] */
    __shared__ float hs[taps];
    const int t = threadIdx.x;
    const long base = (long)blockIdx.x * TILE;

    float v[opt];
#pragma unroll
    for (int k = 0; k < opt; k++) {
        const long i = base + t + k * block_size_x;
        v[k] = i < count ? __ldg(x + i) : 0.0f;
    }
    if (t < 2 * RAD) {
        /* threads 0 .. R-1 the left halo, R .. 2R-1 the right one */
        const long i = t < RAD ? base - RAD + t : base + TILE + (t - RAD);
        xs[t < RAD ? t : TILE + t] = (i >= 0 && i < count) ? __ldg(x + i) : 0.0f;
    }
    if (t < taps)
        hs[t] = __ldg(h + t);
#pragma unroll
    for (int k = 0; k < opt; k++)
        xs[RAD + t + k * block_size_x] = v[k];
    __syncthreads();

#pragma unroll
    for (int k = 0; k < opt; k++) {
        const int j = t + k * block_size_x; /* the output's place in the tile */
        float acc = 0.0f;
#pragma unroll
        for (int m = 0; m < taps; m++)
            acc = fmaf(hs[m], xs[j + 2 * RAD - m], acc); /* x[base + j + R - m] */
        const long i = base + j;
        if (i < count)
            y[i] = acc;
    }
}
