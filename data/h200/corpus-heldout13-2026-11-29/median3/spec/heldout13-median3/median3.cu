/* median3.cu - 3 x 3 median filter of a float image, as used to take salt
 * and pepper noise out of an image or a depth map: out(x, y) is the median
 * of the 9 pixels (x + dx, y + dy), dx, dy in {-1, 0, 1}, coordinates
 * clamped to the image (the edge pixels repeated). The image is side x
 * side floats, row-major.
 *
 * A block of block_size_x x block_size_y threads; thread (tx, ty) writes
 * opt adjacent outputs of one row, x0 = (bx block_size_x + tx) opt to
 * x0 + opt - 1, from the opt + 2 columns x0 - 1 .. x0 + opt of rows y - 1,
 * y, y + 1, loaded once each into registers through L1 (3 (opt + 2) loads
 * for opt outputs). Two ways to take each median:
 *   algo 0: the 19 compare-exchanges of the classic 9-input median network
 *           (Paeth; Devillard's opt_med9) on each output's 9 values, fed
 *           by rows (left, centre, right of each row), so that nothing is
 *           shared between neighbouring outputs: 38 minima and maxima per
 *           output;
 *   algo 1: each of the opt + 2 columns sorted once (3 compare-exchanges)
 *           and shared by the (up to) 3 outputs whose window holds it; an
 *           output's median is the median of the largest of its 3 column
 *           minima, the median of its 3 column medians and the smallest of
 *           its 3 column maxima: 6 (opt + 2) / opt + 12 minima and maxima
 *           per output.
 * Both take the same median: exact, whatever the order.
 *
 * Compiled with -Dblock_size_x=X -Dblock_size_y=Y -Dopt=P -Dalgo=A -Dside=S. */

#if opt != 1 && opt != 2 && opt != 4
#error "opt is 1, 2 or 4"
#endif
#if algo != 0 && algo != 1
#error "algo is 0 or 1"
#endif

#define CE(a, b)                        \
    do {                                \
        const float lo_ = fminf(a, b);  \
        const float hi_ = fmaxf(a, b);  \
        a = lo_;                        \
        b = hi_;                        \
    } while (0)

__device__ __forceinline__ float med3(float a, float b, float c)
{
    return fmaxf(fminf(a, b), fminf(fmaxf(a, b), c));
}

/* The reference: an output per thread, its 9 values sorted by insertion. */
extern "C" __global__ void median3_reference(float *out, const float *img, int width)
{
    const int x = blockIdx.x * blockDim.x + threadIdx.x;
    const int y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x >= width || y >= width)
        return;
    float v[9];
    int k = 0;
    for (int dy = -1; dy <= 1; dy++)
        for (int dx = -1; dx <= 1; dx++) {
            const int yy = min(max(y + dy, 0), width - 1), xx = min(max(x + dx, 0), width - 1);
            v[k++] = img[(long)yy * width + xx];
        }
    for (int i = 1; i < 9; i++) {
        const float e = v[i];
        int j = i - 1;
        while (j >= 0 && v[j] > e) {
            v[j + 1] = v[j];
            j--;
        }
        v[j + 1] = e;
    }
    out[(long)y * width + x] = v[4];
}

extern "C" __global__ void __launch_bounds__(block_size_x * block_size_y)
    median3(float *__restrict__ out, const float *__restrict__ img, int width)
{
    const int x0 = (blockIdx.x * block_size_x + threadIdx.x) * opt;
    const int y = blockIdx.y * block_size_y + threadIdx.y;
    if (x0 >= width || y >= width)
        return;
    const float *r0 = img + (long)max(y - 1, 0) * width;
    const float *r1 = img + (long)y * width;
    const float *r2 = img + (long)min(y + 1, width - 1) * width;
    /* columns x0 - 1 .. x0 + opt, clamped: v[row][j] at column x0 - 1 + j */
    float v[3][opt + 2];
#pragma unroll
    for (int j = 0; j < opt + 2; j++) {
        const int xx = min(max(x0 - 1 + j, 0), width - 1);
        v[0][j] = __ldg(r0 + xx);
        v[1][j] = __ldg(r1 + xx);
        v[2][j] = __ldg(r2 + xx);
    }
    float m[opt];
#if algo == 0
#pragma unroll
    for (int o = 0; o < opt; o++) {
        float p0 = v[0][o], p1 = v[0][o + 1], p2 = v[0][o + 2];
        float p3 = v[1][o], p4 = v[1][o + 1], p5 = v[1][o + 2];
        float p6 = v[2][o], p7 = v[2][o + 1], p8 = v[2][o + 2];
        CE(p1, p2); CE(p4, p5); CE(p7, p8);
        CE(p0, p1); CE(p3, p4); CE(p6, p7);
        CE(p1, p2); CE(p4, p5); CE(p7, p8);
        CE(p0, p3); CE(p5, p8); CE(p4, p7);
        CE(p3, p6); CE(p1, p4); CE(p2, p5);
        CE(p4, p7); CE(p4, p2); CE(p6, p4);
        CE(p4, p2);
        m[o] = p4;
    }
#else
    /* each column sorted: v[0][j] <= v[1][j] <= v[2][j] */
#pragma unroll
    for (int j = 0; j < opt + 2; j++) {
        CE(v[0][j], v[1][j]);
        CE(v[1][j], v[2][j]);
        CE(v[0][j], v[1][j]);
    }
#pragma unroll
    for (int o = 0; o < opt; o++) {
        const float lo = fmaxf(fmaxf(v[0][o], v[0][o + 1]), v[0][o + 2]);
        const float mi = med3(v[1][o], v[1][o + 1], v[1][o + 2]);
        const float hi = fminf(fminf(v[2][o], v[2][o + 1]), v[2][o + 2]);
        m[o] = med3(lo, mi, hi);
    }
#endif
    float *orow = out + (long)y * width + x0;
#pragma unroll
    for (int o = 0; o < opt; o++)
        if (x0 + o < width)
            orow[o] = m[o];
}
