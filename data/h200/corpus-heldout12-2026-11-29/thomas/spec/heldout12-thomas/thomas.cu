/* thomas.cu - a batch of tridiagonal linear systems of 32 unknowns each,
 * solved by the Thomas algorithm, a system per thread: for system s,
 *     a_k x_{k-1} + b_k x_k + c_k x_{k+1} = d_k,   k = 0 .. 31
 * (a_0 and c_31 outside the system, not read). The layout is interleaved
 * (cuSPARSE's gtsvInterleavedBatch): coefficient k of system s at
 * k count + s, so that the threads of a warp, on consecutive systems, read
 * consecutive words at every step. The forward sweep eliminates a_k:
 *     den = b_k - a_k c'_{k-1},  c'_k = c_k / den,  d'_k = (d_k - a_k d'_{k-1}) / den,
 * the backward sweep substitutes: x_31 = d'_31, x_k = d'_k - c'_k x_{k+1}.
 * Both are chains of 32 dependent steps; a thread runs spt systems side by
 * side, and the forward sweep's c' and d' wait for the backward one in
 *   keep 0: registers (64 floats a system, the loops unrolled);
 *   keep 1: c' in registers, d' in x itself, stored by the forward sweep
 *           and read back and overwritten by the backward one (the
 *           output as the scratch, as LAPACK's gtsv overwrites its
 *           right-hand side);
 *   keep 2: c' in dynamic shared memory (32 floats a system, a slot per
 *           thread and system in each of 32 rows), d' in x as in keep 1.
 * A thread's systems are block_size_x apart: block b takes systems
 * b block_size_x spt .. (b + 1) block_size_x spt - 1.
 *
 * thomas_first(), thomas_step() and thomas_back() are the functions the
 * kernel and the reference both call; each operation is an explicitly
 * rounded intrinsic, so the two agree to the bit.
 *
 * Compiled with -Dblock_size_x=B -Dspt=P -Dkeep=K -Dnsys=N. */

#define M 32 /* unknowns per system */

#if spt != 1 && spt != 2
#error "spt is 1 or 2"
#endif
#if keep != 0 && keep != 1 && keep != 2
#error "keep is 0, 1 or 2"
#endif

__device__ __forceinline__ void thomas_first(float b, float c, float d, float &cp, float &dp)
{
    const float r = __frcp_rn(b);
    cp = __fmul_rn(c, r);
    dp = __fmul_rn(d, r);
}
__device__ __forceinline__ void thomas_step(float a, float b, float c, float d, float &cp, float &dp)
{
    /* in: c'_{k-1}, d'_{k-1}; out: c'_k, d'_k */
    const float r = __frcp_rn(__fmaf_rn(-a, cp, b));
    cp = __fmul_rn(c, r);
    dp = __fmul_rn(__fmaf_rn(-a, dp, d), r);
}
__device__ __forceinline__ float thomas_back(float cp, float dp, float xn) { return __fmaf_rn(-cp, xn, dp); }

/* The reference: a system per thread, c' in a local array, d' in x. */
extern "C" __global__ void thomas_reference(float *x, const float *a, const float *b, const float *c, const float *d,
                                            int count)
{
    const long s = (long)blockIdx.x * blockDim.x + threadIdx.x;
    if (s >= count)
        return;
    float cp, dp;
    float cps[M];
    thomas_first(b[s], c[s], d[s], cp, dp);
    cps[0] = cp;
    x[s] = dp;
    for (int k = 1; k < M; k++) {
        const long i = (long)k * count + s;
        thomas_step(a[i], b[i], k < M - 1 ? c[i] : 0.0f, d[i], cp, dp);
        cps[k] = cp;
        x[i] = dp;
    }
    float xn = x[(long)(M - 1) * count + s];
    for (int k = M - 2; k >= 0; k--) {
        const long i = (long)k * count + s;
        xn = thomas_back(cps[k], x[i], xn);
        x[i] = xn;
    }
}

extern "C" __global__ void __launch_bounds__(block_size_x, 1) /* with (block_size_x) alone ptxas spilled 4 bytes at 256 threads */
    thomas(float *__restrict__ x, const float *__restrict__ a, const float *__restrict__ b,
           const float *__restrict__ c, const float *__restrict__ d, int count)
{
#if keep == 2
    extern __shared__ float scp[]; /* c'_k of the block's system u at scp[k block_size_x spt + u] */
#endif
    const long s0 = (long)blockIdx.x * block_size_x * spt + threadIdx.x;
    bool on[spt];
    long sy[spt];
#pragma unroll
    for (int j = 0; j < spt; j++) {
        sy[j] = s0 + (long)j * block_size_x;
        on[j] = sy[j] < count;
    }
    float cp[spt], dp[spt];
#if keep != 2
    float cps[spt][M];
#endif
#if keep == 0
    float dps[spt][M];
#endif
#pragma unroll
    for (int k = 0; k < M; k++) {
#pragma unroll
        for (int j = 0; j < spt; j++) {
            if (!on[j])
                continue;
            const long i = (long)k * count + sy[j];
            if (k == 0)
                thomas_first(b[i], c[i], d[i], cp[j], dp[j]);
            else
                thomas_step(a[i], b[i], k < M - 1 ? c[i] : 0.0f, d[i], cp[j], dp[j]);
#if keep == 2
            scp[k * (block_size_x * spt) + threadIdx.x + j * block_size_x] = cp[j];
#else
            cps[j][k] = cp[j];
#endif
#if keep == 0
            dps[j][k] = dp[j];
#else
            x[i] = dp[j];
#endif
        }
    }
    float xn[spt];
#pragma unroll
    for (int j = 0; j < spt; j++) {
        xn[j] = dp[j]; /* x_31 = d'_31 */
#if keep == 0
        if (on[j])
            x[(long)(M - 1) * count + sy[j]] = xn[j];
#endif
    }
#pragma unroll
    for (int k = M - 2; k >= 0; k--) {
#pragma unroll
        for (int j = 0; j < spt; j++) {
            if (!on[j])
                continue;
            const long i = (long)k * count + sy[j];
#if keep == 0
            xn[j] = thomas_back(cps[j][k], dps[j][k], xn[j]);
#elif keep == 1
            xn[j] = thomas_back(cps[j][k], x[i], xn[j]);
#else
            xn[j] = thomas_back(scp[k * (block_size_x * spt) + threadIdx.x + j * block_size_x], x[i], xn[j]);
#endif
            x[i] = xn[j];
        }
    }
}
