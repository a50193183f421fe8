/* fft.cu - batched complex-to-complex forward FFT of n points (a power of
 * two) per transform, single precision, one block per transform, and the
 * naive DFT that checks it.
 *
 * Compiled with -Dblock_size_x=W -Dn=N -Dbatch=B. Data are interleaved
 * complex floats (re, im), transform t at [2 N t, 2 N (t+1)). The forward
 * transform is X[k] = sum_j x[j] exp(-2 pi i j k / N).
 *
 * fft_radix2 is the iterative radix-2 decimation-in-time Cooley-Tukey FFT
 * in shared memory: the block loads its transform in bit-reversed order
 * (coalesced reads), then log2 N stages of N/2 butterflies, the W threads of
 * the work-group taking butterflies b, b + W, .. of each stage, a barrier
 * between stages, and stores the result (coalesced writes). Shared memory:
 * 8 N bytes (32 KiB at N = 4096). Twiddles exp(-i pi j / h) come from
 * sincospif, accurate to a few ulp. */

/* The reference: one thread per output X[k] of transform t, the sum over j
 * in double; the twiddle index j k mod N is exact (N a power of two). */
extern "C" __global__ void dft_reference(float *out, const float *in, int points, int transforms)
{
    const long g = (long)blockIdx.x * blockDim.x + threadIdx.x;
    if (g >= (long)points * transforms)
        return;
    const long t = g / points;
    const int k = (int)(g % points);
    const float2 *x = reinterpret_cast<const float2 *>(in) + t * points;
    const int mask = points - 1;
    double re = 0.0, im = 0.0;
    int m = 0; /* j * k mod points */
    for (int j = 0; j < points; j++) {
        float s, c;
        sincospif(-2.0f * (float)m / (float)points, &s, &c);
        const float2 v = x[j];
        re += (double)v.x * c - (double)v.y * s;
        im += (double)v.x * s + (double)v.y * c;
        m = (m + k) & mask;
    }
    out[2 * g] = (float)re;
    out[2 * g + 1] = (float)im;
}

#if defined(n) && defined(block_size_x)
#define FFT_N n
__device__ constexpr int fft_log2(int v)
{
    return v <= 1 ? 0 : 1 + fft_log2(v >> 1);
}
#define FFT_LOG fft_log2(FFT_N)
static_assert((FFT_N & (FFT_N - 1)) == 0 && FFT_N >= 2, "n must be a power of two, at least 2");

extern "C" __global__ void __launch_bounds__(block_size_x)
    fft_radix2(float *out, const float *in, int points, int transforms)
{
    __shared__ float2 buf[FFT_N];
    (void)points;
    (void)transforms;
    const float2 *x = reinterpret_cast<const float2 *>(in) + (long)blockIdx.x * FFT_N;
    float2 *y = reinterpret_cast<float2 *>(out) + (long)blockIdx.x * FFT_N;
    for (int i = threadIdx.x; i < FFT_N; i += block_size_x)
        buf[__brev((unsigned)i) >> (32 - FFT_LOG)] = x[i];
    __syncthreads();
    for (int half = 1; half < FFT_N; half <<= 1) {
        for (int b = threadIdx.x; b < FFT_N / 2; b += block_size_x) {
            const int j = b & (half - 1);       /* position in its group of 2 half */
            const int i0 = ((b - j) << 1) + j;  /* (b / half) * 2 half + j */
            const int i1 = i0 + half;
            float s, c;
            sincospif(-(float)j / (float)half, &s, &c);
            const float2 u = buf[i0], v = buf[i1];
            const float2 w = make_float2(c * v.x - s * v.y, c * v.y + s * v.x);
            buf[i0] = make_float2(u.x + w.x, u.y + w.y);
            buf[i1] = make_float2(u.x - w.x, u.y - w.y);
        }
        __syncthreads();
    }
    for (int i = threadIdx.x; i < FFT_N; i += block_size_x)
        y[i] = buf[i];
}
#endif
