/* bscholes.cu - European call and put prices by the Black-Scholes formula
 * for a batch of options: for spot S, strike X and expiry T (years), with a
 * riskless rate R and a volatility V shared by the batch,
 *   d1 = (log(S / X) + (R + V^2 / 2) T) / (V sqrt(T)),  d2 = d1 - V sqrt(T),
 *   call = S N(d1) - X exp(-R T) N(d2),
 *   put  = X exp(-R T) (1 - N(d2)) - S (1 - N(d1)),
 * N the standard normal distribution function (normcdff). Per option a
 * square root, a division, a logarithm, an exponential and two normcdff
 * around a dozen multiplications and additions: three floats in, two out.
 *
 * The options are one flat vector of chunks of vec options (vec 1: a float
 * of each of S, X, T, call and put; vec 4: a float4 of each). A block of
 * block_size_x threads takes block_size_x x ept consecutive chunks: thread
 * t its ept chunks t, t + block_size_x, ... ; all their loads are issued
 * before the first price.
 *
 * bs_price() is the one function the kernel and the reference both call;
 * every arithmetic operation in it is an explicitly rounded intrinsic and
 * its library calls (sqrtf by __fsqrt_rn, logf, expf, normcdff) are the
 * same calls on the same floats, so they compute the same bits.
 *
 * Compiled with -Dblock_size_x=B -Dept=E -Dvec=V -Dnopt=N. */

__device__ __forceinline__ void bs_price(float S, float X, float T, float R, float V, float *call, float *put)
{
    const float sqrtT = __fsqrt_rn(T);
    const float vsT = __fmul_rn(V, sqrtT);
    const float drift = __fmul_rn(__fmaf_rn(__fmul_rn(0.5f, V), V, R), T);
    const float d1 = __fdiv_rn(__fadd_rn(logf(__fdiv_rn(S, X)), drift), vsT);
    const float d2 = __fsub_rn(d1, vsT);
    const float n1 = normcdff(d1), n2 = normcdff(d2);
    const float xe = __fmul_rn(X, expf(__fmul_rn(-R, T)));
    *call = __fsub_rn(__fmul_rn(S, n1), __fmul_rn(xe, n2));
    *put = __fsub_rn(__fmul_rn(xe, __fsub_rn(1.0f, n2)), __fmul_rn(S, __fsub_rn(1.0f, n1)));
}

/* The reference: one option per thread. */
extern "C" __global__ void bscholes_reference(float *call, float *put, const float *S, const float *X, const float *T,
                                              float R, float V, int count)
{
    const long i = (long)blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= count)
        return;
    bs_price(S[i], X[i], T[i], R, V, &call[i], &put[i]);
}

extern "C" __global__ void __launch_bounds__(block_size_x)
    bscholes(float *__restrict__ call, float *__restrict__ put, const float *__restrict__ S,
             const float *__restrict__ X, const float *__restrict__ T, float R, float V, int count)
{
    const long chunks = count / vec; /* count is a multiple of vec */
    const long base = (long)blockIdx.x * block_size_x * ept + threadIdx.x;
#if vec == 4
    float4 s[ept], x[ept], t[ept];
#pragma unroll
    for (int k = 0; k < ept; k++) {
        const long c = base + (long)k * block_size_x;
        if (c < chunks) {
            s[k] = reinterpret_cast<const float4 *>(S)[c];
            x[k] = reinterpret_cast<const float4 *>(X)[c];
            t[k] = reinterpret_cast<const float4 *>(T)[c];
        }
    }
#pragma unroll
    for (int k = 0; k < ept; k++) {
        const long c = base + (long)k * block_size_x;
        if (c < chunks) {
            float4 cp, pp;
            bs_price(s[k].x, x[k].x, t[k].x, R, V, &cp.x, &pp.x);
            bs_price(s[k].y, x[k].y, t[k].y, R, V, &cp.y, &pp.y);
            bs_price(s[k].z, x[k].z, t[k].z, R, V, &cp.z, &pp.z);
            bs_price(s[k].w, x[k].w, t[k].w, R, V, &cp.w, &pp.w);
            reinterpret_cast<float4 *>(call)[c] = cp;
            reinterpret_cast<float4 *>(put)[c] = pp;
        }
    }
#elif vec == 1
    float s[ept], x[ept], t[ept];
#pragma unroll
    for (int k = 0; k < ept; k++) {
        const long c = base + (long)k * block_size_x;
        if (c < chunks) {
            s[k] = S[c];
            x[k] = X[c];
            t[k] = T[c];
        }
    }
#pragma unroll
    for (int k = 0; k < ept; k++) {
        const long c = base + (long)k * block_size_x;
        if (c < chunks) {
            float cv, pv;
            bs_price(s[k], x[k], t[k], R, V, &cv, &pv);
            call[c] = cv;
            put[c] = pv;
        }
    }
#else
#error "vec is 1 or 4"
#endif
}
