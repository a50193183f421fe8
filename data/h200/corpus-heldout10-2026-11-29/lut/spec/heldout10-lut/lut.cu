/* lut.cu - a piecewise-linear function given by a table, applied to every
 * element of a float array (a tone curve, a transfer function, a cheap
 * activation): for x in [0, 1], s = 1024 x, j = min(floor(s), 1023),
 * f = s - j, and y = T[j] + f (T[j + 1] - T[j]), with a table T of 1025
 * knots. The inputs are random, so each lane of a warp looks up its own
 * segment: 32 scattered reads of a 4 KiB table per lookup instruction.
 *
 * A block of block_size_x threads takes block_size_x x ept consecutive
 * elements: thread t its ept elements t, t + block_size_x, ... , all loaded
 * before the first lookup. Where the table is read is the staging axis:
 *   0: from global memory through the read-only path (two __ldg per
 *      element; the 4 KiB table stays in L1);
 *   1: the block first copies the 1025 knots into shared memory (one
 *      barrier), then reads T[j] and T[j + 1] from there: random banks, so
 *      a warp's read conflicts as many ways as its lanes' most shared bank;
 *   2: the block copies 1024 pairs (T[j], T[j + 1]) as float2 into shared
 *      memory (8 KiB, one barrier) and reads one float2 per element.
 *
 * lut_eval() is the one function the kernel and the reference both call,
 * every operation in it an explicitly rounded intrinsic, so they compute the
 * same bits.
 *
 * Compiled with -Dblock_size_x=B -Dept=E -Dstaging=G -Dnelem=N. */

#define SEGS 1024 /* segments; the table holds SEGS + 1 knots */

__device__ __forceinline__ int lut_seg(float x, float *f)
{
    const float s = __fmul_rn(x, (float)SEGS);
    const int j = min(__float2int_rz(s), SEGS - 1);
    *f = __fsub_rn(s, (float)j);
    return j;
}

__device__ __forceinline__ float lut_eval(float f, float t0, float t1)
{
    return __fmaf_rn(f, __fsub_rn(t1, t0), t0);
}

/* The reference: one element per thread, the table read from global memory. */
extern "C" __global__ void lut_reference(float *y, const float *x, const float *table, int count)
{
    const long i = (long)blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= count)
        return;
    float f;
    const int j = lut_seg(x[i], &f);
    y[i] = lut_eval(f, table[j], table[j + 1]);
}

extern "C" __global__ void __launch_bounds__(block_size_x)
    lut(float *__restrict__ y, const float *__restrict__ x, const float *__restrict__ table, int count)
{
    const long base = (long)blockIdx.x * block_size_x * ept + threadIdx.x;
    float xv[ept];
#pragma unroll
    for (int k = 0; k < ept; k++) {
        const long i = base + (long)k * block_size_x;
        if (i < count)
            xv[k] = x[i];
    }
#if staging == 1
    __shared__ float tab[SEGS + 1];
    for (int q = threadIdx.x; q <= SEGS; q += block_size_x)
        tab[q] = table[q];
    __syncthreads();
#elif staging == 2
    __shared__ float2 tab2[SEGS];
    for (int q = threadIdx.x; q < SEGS; q += block_size_x)
        tab2[q] = make_float2(table[q], table[q + 1]);
    __syncthreads();
#elif staging != 0
#error "staging is 0, 1 or 2"
#endif
#pragma unroll
    for (int k = 0; k < ept; k++) {
        const long i = base + (long)k * block_size_x;
        if (i < count) {
            float f;
            const int j = lut_seg(xv[k], &f);
#if staging == 0
            const float t0 = __ldg(table + j), t1 = __ldg(table + j + 1);
#elif staging == 1
            const float t0 = tab[j], t1 = tab[j + 1];
#else
            const float2 p = tab2[j];
            const float t0 = p.x, t1 = p.y;
#endif
            y[i] = lut_eval(f, t0, t1);
        }
    }
}
