/* fft1024.cu - forward complex FFTs of 1024 points, a batch of independent
 * signals of complex floats (float2: real, imaginary), X[k] = sum over j of
 * x[j] exp(-2 pi i j k / 1024), unnormalized, in natural order (the
 * transforms of a spectrogram's frames, of the channels of a radar or radio
 * receiver, of one dimension of a larger FFT). A signal is transformed in
 * shared memory by five radix-4 Stockham passes (1024 = 4^5), which need no
 * bit reversal: pass p (Ns = 4^p, 1 to 256) takes, for each butterfly j of
 * 256, the points j, j + 256, j + 512, j + 768, multiplies point r by the
 * twiddle exp(-2 pi i r k / (4 Ns)), k = j mod Ns, transforms the four by a
 * 4-point DFT and writes them to (j / Ns) 4 Ns + k + r Ns. The first pass
 * reads the signal from global memory and the last writes the result there,
 * both coalesced (the first pass's twiddles are all 1 and are not applied);
 * the passes between go through the signal's 8 KiB of shared memory, its
 * values held in registers across a barrier between the reads and the
 * writes.
 *
 * A block of block_size_x x block_size_y threads transforms block_size_y
 * signals, block_size_x threads each: a thread does 256 / block_size_x
 * butterflies per pass. twtable 0: each twiddle is computed where it is used,
 * by sincospif (three per butterfly in the last four passes). twtable 1: the
 * block first fills a shared table of the 768 twiddles exp(-2 pi i m / 1024),
 * m < 768, by the same sincospif, and the passes read twiddle
 * m = r k 256 / Ns from it. Both give sincospif the same argument, exact in
 * float (-(r k) / (2 Ns) = -2 m / 1024), so they compute the same values.
 *
 * Compiled with -Dblock_size_x=T -Dblock_size_y=S -Dtwtable=W -Dsignals=N. */

/* The reference: a direct DFT in double, a block per signal, the signal and
 * the 1024 roots of unity in shared memory. */
extern "C" __global__ void fft_reference(float2 *y, const float2 *x, int nsig)
{
    __shared__ double2 root[1024], s[1024];
    const long sig = blockIdx.x;
    if (sig >= nsig)
        return;
    for (int m = threadIdx.x; m < 1024; m += blockDim.x) {
        double sn, cs;
        sincospi(-2.0 * m / 1024.0, &sn, &cs);
        root[m] = make_double2(cs, sn);
        const float2 v = x[sig * 1024 + m];
        s[m] = make_double2(v.x, v.y);
    }
    __syncthreads();
    for (int k = threadIdx.x; k < 1024; k += blockDim.x) {
        double re = 0.0, im = 0.0;
        for (int j = 0; j < 1024; j++) {
            const double2 w = root[(j * k) & 1023], v = s[j];
            re += v.x * w.x - v.y * w.y;
            im += v.x * w.y + v.y * w.x;
        }
        y[sig * 1024 + k] = make_float2((float)re, (float)im);
    }
}

/* a * w, a complex product. */
__device__ __forceinline__ float2 fft_mul(float2 a, float2 w)
{
    return make_float2(fmaf(a.x, w.x, -a.y * w.y), fmaf(a.x, w.y, a.y * w.x));
}

/* The 4-point DFT of a[0..3] in place (exp(-2 pi i / 4) = -i). */
__device__ __forceinline__ void fft4(float2 *a)
{
    const float2 s02 = make_float2(a[0].x + a[2].x, a[0].y + a[2].y);
    const float2 d02 = make_float2(a[0].x - a[2].x, a[0].y - a[2].y);
    const float2 s13 = make_float2(a[1].x + a[3].x, a[1].y + a[3].y);
    const float2 d13 = make_float2(a[1].x - a[3].x, a[1].y - a[3].y);
    a[0] = make_float2(s02.x + s13.x, s02.y + s13.y);
    a[2] = make_float2(s02.x - s13.x, s02.y - s13.y);
    a[1] = make_float2(d02.x + d13.y, d02.y - d13.x); /* d02 - i d13 */
    a[3] = make_float2(d02.x - d13.y, d02.y + d13.x); /* d02 + i d13 */
}

/* exp(-2 pi i m / 1024) for m = r k 256 / Ns, from its exact float argument. */
__device__ __forceinline__ float2 fft_twiddle(int rk, int ns)
{
    float sn, cs;
    sincospif(-(float)rk / (float)(2 * ns), &sn, &cs);
    return make_float2(cs, sn);
}

#define BFLY (256 / block_size_x) /* butterflies per thread per pass */

extern "C" __global__ void __launch_bounds__(block_size_x * block_size_y)
    fft1024(float2 *y, const float2 *__restrict__ x, int nsig)
{
    __shared__ float2 buf[block_size_y][1024];
#if twtable
    __shared__ float2 tw[768];
    for (int m = threadIdx.y * block_size_x + threadIdx.x; m < 768; m += block_size_x * block_size_y) {
        float sn, cs;
        sincospif(-(float)m / 512.0f, &sn, &cs);
        tw[m] = make_float2(cs, sn);
    }
#endif
    const long sig = (long)blockIdx.x * block_size_y + threadIdx.y;
    const bool live = sig < nsig; /* every thread still takes part in the barriers */
    float2 *b = buf[threadIdx.y];
    float2 a[BFLY][4];

    /* Pass 0 (Ns = 1): from global memory, no twiddles, to (4 j + r). */
#pragma unroll
    for (int q = 0; q < BFLY; q++) {
        const int j = threadIdx.x + q * block_size_x;
#pragma unroll
        for (int r = 0; r < 4; r++)
            a[q][r] = live ? x[sig * 1024 + j + 256 * r] : make_float2(0.0f, 0.0f);
        fft4(a[q]);
#pragma unroll
        for (int r = 0; r < 4; r++)
            b[4 * j + r] = a[q][r];
    }
    __syncthreads();

    /* Passes 1 to 3 (Ns = 4, 16, 64): shared memory to shared memory. */
#pragma unroll
    for (int ns = 4; ns <= 64; ns *= 4) {
#pragma unroll
        for (int q = 0; q < BFLY; q++) {
            const int j = threadIdx.x + q * block_size_x;
#pragma unroll
            for (int r = 0; r < 4; r++)
                a[q][r] = b[j + 256 * r];
        }
        __syncthreads();
#pragma unroll
        for (int q = 0; q < BFLY; q++) {
            const int j = threadIdx.x + q * block_size_x;
            const int k = j % ns;
#pragma unroll
            for (int r = 1; r < 4; r++)
#if twtable
                a[q][r] = fft_mul(a[q][r], tw[r * k * (256 / ns)]);
#else
                a[q][r] = fft_mul(a[q][r], fft_twiddle(r * k, ns));
#endif
            fft4(a[q]);
            const int d = (j / ns) * 4 * ns + k;
#pragma unroll
            for (int r = 0; r < 4; r++)
                b[d + r * ns] = a[q][r];
        }
        __syncthreads();
    }

    /* Pass 4 (Ns = 256): to global memory, at j + 256 r. */
#pragma unroll
    for (int q = 0; q < BFLY; q++) {
        const int j = threadIdx.x + q * block_size_x;
#pragma unroll
        for (int r = 0; r < 4; r++)
            a[q][r] = b[j + 256 * r];
#pragma unroll
        for (int r = 1; r < 4; r++)
#if twtable
            a[q][r] = fft_mul(a[q][r], tw[r * j]);
#else
            a[q][r] = fft_mul(a[q][r], fft_twiddle(r * j, 256));
#endif
        fft4(a[q]);
        if (live) {
#pragma unroll
            for (int r = 0; r < 4; r++)
                y[sig * 1024 + j + 256 * r] = a[q][r];
        }
    }
}
