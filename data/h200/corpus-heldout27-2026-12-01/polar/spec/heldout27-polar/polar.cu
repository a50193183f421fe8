/* polar.cu - complex samples to polar form, as a spectrum analyser shows
 * the bins of an FFT: for each complex float z = re + i im of an
 * interleaved array (a float2 each: re, then im),
 *     mag[i] = |z_i| = sqrt(re^2 + im^2)                  (logmag 0)
 *     mag[i] = 10 log10 |z_i|^2 = 20 log10 |z_i|, in dB   (logmag 1)
 *     ph[i]  = atan2(im_i, re_i), in (-pi, pi]
 * z holds count float2s, mag and ph count floats each: 8 bytes read and 8
 * written per sample.
 *
 * A thread converts cpt samples a block-width apart: it loads their cpt
 * float2s first (cpt independent 8-byte loads in flight), then works out
 * and stores each sample's magnitude and phase. The grid covers the
 * samples once, ceil(count / (cpt block_size_x)) blocks; a partial last
 * block is guarded.
 *
 * Compiled with -Dblock_size_x=T -Dcpt=C -Dlogmag=L -Dncplx=N. */

#if logmag != 0 && logmag != 1
#error "logmag is 0 (magnitude) or 1 (power in dB)"
#endif
#if cpt != 1 && cpt != 2 && cpt != 4 && cpt != 8
#error "cpt is 1, 2, 4 or 8"
#endif

/* The reference: one sample per thread, in double, each output rounded to
 * float once. */
extern "C" __global__ void polar_reference(float *mag, float *ph, const float *z, int count)
{
    const long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= count)
        return;
    const double re = z[2 * i], im = z[2 * i + 1];
    const double power = re * re + im * im;
    if (logmag == 1)
        mag[i] = (float)(10.0 * log10(power));
    else
        mag[i] = (float)sqrt(power);
    ph[i] = (float)atan2(im, re);
}

extern "C" __global__ void __launch_bounds__(block_size_x)
    polar(float *__restrict__ mag, float *__restrict__ ph, const float2 *__restrict__ z, int count)
{
    const long base = (long)blockIdx.x * (cpt * block_size_x) + threadIdx.x;
    float2 v[cpt];
#pragma unroll
    for (int k = 0; k < cpt; k++) {
        const long i = base + (long)k * block_size_x;
        v[k] = i < count ? __ldg(z + i) : make_float2(1.0f, 0.0f);
    }
#pragma unroll
    for (int k = 0; k < cpt; k++) {
        const long i = base + (long)k * block_size_x;
        if (i < count) {
            const float p = v[k].x * v[k].x + v[k].y * v[k].y;
#if logmag == 1
            mag[i] = 10.0f * log10f(p);
#else
            mag[i] = sqrtf(p);
#endif
            ph[i] = atan2f(v[k].y, v[k].x);
        }
    }
}
