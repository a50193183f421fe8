/* hblur.cu - a horizontal binomial blur of a float image, each row on its
 * own, the edge pixel repeated past either end of the row:
 *     out[r][c] = sum over k < taps of w_k in[r][clamp(c + k - R)] / 2^(taps - 1)
 * R = (taps - 1) / 2, w_k the binomial coefficients (taps 3: 1 2 1; taps
 * 7: 1 6 15 20 15 6 1), clamp to 0 .. IMGW - 1. in and out hold count rows
 * of IMGW (4096) floats, row-major (16 KiB a row).
 *
 * The grid is fixed by the launch, not by count: bpsm blocks of
 * block_size_x threads per SM (the spec launches 132 bpsm blocks), and the
 * threads walk the image's pixels by a grid-stride loop, a pixel a step: a
 * warp's 32 pixels side by side in a row (IMGW is a multiple of 32), its
 * taps loads each a warp-wide stretch shifted by a column (taps - 1 of
 * them read again from L1), the taps weighted by whole numbers in float
 * and the sum scaled by 2^(1 - taps) (exact).
 *
 * Compiled with -Dblock_size_x=T -Dbpsm=B -Dtaps=K -Dnrows=N. */

#define IMGW 4096 /* floats per row */

#if taps != 3 && taps != 7
#error "taps is 3 or 7"
#endif

/* The reference: one pixel per thread, each weight worked out as a binomial
 * coefficient over 2^(taps - 1) in double, the columns clamped by
 * comparisons, the sum in double rounded to float once. */
extern "C" __global__ void hblur_reference(float *out, const float *in, int count)
{
    const long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= (long long)count * 4096)
        return;
    const long long row = i / 4096, col = i - row * 4096;
    const int m = taps - 1;
    double w = 1.0, sum = 0.0;
    for (int k = 0; k <= m; k++) {
        long long cc = col + k - m / 2;
        if (cc < 0)
            cc = 0;
        if (cc > 4095)
            cc = 4095;
        sum += w * (double)in[row * 4096 + cc];
        w = w * (m - k) / (k + 1);
    }
    out[i] = (float)(sum / (double)(1 << m));
}

#if taps == 3
__constant__ const float wts[3] = {1.0f, 2.0f, 1.0f};
#else
__constant__ const float wts[7] = {1.0f, 6.0f, 15.0f, 20.0f, 15.0f, 6.0f, 1.0f};
#endif

extern "C" __global__ void __launch_bounds__(block_size_x)
    hblur(float *__restrict__ out, const float *__restrict__ in, int count)
{
    const long nthr = (long)gridDim.x * block_size_x;
    const long npix = (long)count * IMGW;
    for (long i = (long)blockIdx.x * block_size_x + threadIdx.x; i < npix; i += nthr) {
        const long rowbase = i & ~(long)(IMGW - 1);
        const int col = (int)(i & (IMGW - 1));
        float s = 0.0f;
#pragma unroll
        for (int k = 0; k < taps; k++) {
            const int cc = min(max(col + k - (taps - 1) / 2, 0), IMGW - 1);
            s = fmaf(wts[k], __ldg(in + rowbase + cc), s);
        }
        out[i] = s * (1.0f / (1 << (taps - 1)));
    }
}
