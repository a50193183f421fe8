/* horner.cu - y[i] = p(x[i]) for a double-precision polynomial
 * p(x) = c[0] + c[1] x + ... + c[deg] x^deg of a fixed degree (a define),
 * by Horner's rule: s = c[deg], then s = fma(s, x, c[k]) for k = deg - 1
 * down to 0 (the evaluation of a fitted function, a transfer curve or a
 * series). Each thread evaluates ept elements, block_size_x apart, and
 * interleaves their chains, so one coefficient serves ept fmas.
 *
 * const_coef 1: the coefficients are a __constant__ table, which the fmas
 * take as operands from the constant cache (every thread of a warp reads
 * the same one). const_coef 0: they are read from the buffer coef in global
 * memory (one load per coefficient per thread, the same address across the
 * warp). Both hold c[k] = 1 - k / 256: the spec fills coef with that iota,
 * and the table is made from the same formula at compile time.
 *
 * Compiled with -Dblock_size_x=B -Dept=E -Dconst_coef=K -Ddeg=D -Dn=N. */

/* The reference: an element per thread, the coefficients from the buffer. */
extern "C" __global__ void horner_reference(double *y, const double *x, const double *coef, int count)
{
    const long i = (long)blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= count)
        return;
    const double v = x[i];
    double s = coef[deg];
    for (int k = deg - 1; k >= 0; k--)
        s = fma(s, v, coef[k]);
    y[i] = s;
}

struct horner_table {
    double c[deg + 1];
};

/* c[k] = 1 - k / 256, exact in double, from 1 down to 1 - deg / 256. */
__host__ __device__ constexpr horner_table horner_make()
{
    horner_table t{};
    for (int k = 0; k <= deg; k++)
        t.c[k] = 1.0 - k * 0.00390625;
    return t;
}

__constant__ horner_table horner_coef = horner_make();

#if const_coef
#define HORNER_C(k) horner_coef.c[k]
#else
#define HORNER_C(k) coef[k]
#endif

extern "C" __global__ void __launch_bounds__(block_size_x)
    horner(double *y, const double *__restrict__ x, const double *__restrict__ coef, int count)
{
    const long first = (long)blockIdx.x * block_size_x * ept + threadIdx.x;
    double v[ept], s[ept];
#pragma unroll
    for (int e = 0; e < ept; e++) {
        const long i = first + (long)e * block_size_x;
        v[e] = i < count ? x[i] : 0.0;
        s[e] = HORNER_C(deg);
    }
#pragma unroll
    for (int k = deg - 1; k >= 0; k--) {
        const double c = HORNER_C(k);
#pragma unroll
        for (int e = 0; e < ept; e++)
            s[e] = fma(s[e], v[e], c);
    }
#pragma unroll
    for (int e = 0; e < ept; e++) {
        const long i = first + (long)e * block_size_x;
        if (i < count)
            y[i] = s[e];
    }
}
