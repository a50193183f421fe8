/* rmsnorm.cu - RMS normalization of the rows of a float activation matrix,
 * in place, with a learned weight per column, as a transformer normalizes
 * its hidden states (HID = 4096 floats a row):
 *     x[r][j] <- x[r][j] / sqrt(mean_j x[r][j]^2 + eps) * w[j]
 * One block per row, block_size_x threads. A row is HID / (block_size_x x
 * vec) chunks of vec floats per thread (a float, a float2 or a float4),
 * chunk k of thread t at k x block_size_x + t, so that a warp touches
 * consecutive chunks. Each thread sums the squares of its chunks, the
 * warps add theirs by xor shuffles and the block's warp sums through
 * shared memory (every thread adds them in the same order), then every
 * thread scales its chunks by rsqrtf(sum / HID + eps) and the weight and
 * stores them back. With keep 1 the row's chunks stay in registers between
 * the two passes (HID / block_size_x floats per thread); with keep 0 the
 * scaling pass loads them again (the row was read just before: L1 or L2),
 * by __ldca (ld.global.ca, a volatile load the compiler keeps, where it
 * would otherwise reuse the first pass's values as keep 1 does).
 *
 * Compiled with -Dblock_size_x=B -Dvec=V -Dkeep=K -Drows=R. */

#define HID 4096                             /* floats per row */
#define NWARP (block_size_x / 32)            /* warps per block */
#define NCH (HID / (block_size_x * vec))     /* chunks per thread */

#if vec != 1 && vec != 2 && vec != 4
#error "vec is 1, 2 or 4"
#endif
#if keep != 0 && keep != 1
#error "keep is 0 or 1"
#endif
#if block_size_x % 32 != 0 || HID % (block_size_x * vec) != 0
#error "block_size_x is a multiple of 32 and block_size_x x vec divides 4096"
#endif

#if vec == 4
typedef float4 chunk_t;
__device__ __forceinline__ float sq_add(float s, const float4 v)
{
    return fmaf(v.w, v.w, fmaf(v.z, v.z, fmaf(v.y, v.y, fmaf(v.x, v.x, s))));
}
__device__ __forceinline__ float4 scale(const float4 v, float inv, const float4 w)
{
    return make_float4(__fmul_rn(__fmul_rn(v.x, inv), w.x), __fmul_rn(__fmul_rn(v.y, inv), w.y),
                       __fmul_rn(__fmul_rn(v.z, inv), w.z), __fmul_rn(__fmul_rn(v.w, inv), w.w));
}
#elif vec == 2
typedef float2 chunk_t;
__device__ __forceinline__ float sq_add(float s, const float2 v)
{
    return fmaf(v.y, v.y, fmaf(v.x, v.x, s));
}
__device__ __forceinline__ float2 scale(const float2 v, float inv, const float2 w)
{
    return make_float2(__fmul_rn(__fmul_rn(v.x, inv), w.x), __fmul_rn(__fmul_rn(v.y, inv), w.y));
}
#else
typedef float chunk_t;
__device__ __forceinline__ float sq_add(float s, const float v)
{
    return fmaf(v, v, s);
}
__device__ __forceinline__ float scale(const float v, float inv, const float w)
{
    return __fmul_rn(__fmul_rn(v, inv), w);
}
#endif

/* The reference: one row per thread, its sum of squares and its scaling in
 * double, rounded to float once. */
extern "C" __global__ void rmsnorm_reference(float *x, const float *w, float eps, int nrows)
{
    const long r = (long)blockIdx.x * blockDim.x + threadIdx.x;
    if (r >= nrows)
        return;
    float *row = x + r * HID;
    double ss = 0.0;
    for (int j = 0; j < HID; j++)
        ss += (double)row[j] * (double)row[j];
    const double inv = 1.0 / sqrt(ss / HID + (double)eps);
    for (int j = 0; j < HID; j++)
        row[j] = (float)((double)row[j] * inv * (double)w[j]);
}

extern "C" __global__ void __launch_bounds__(block_size_x)
    rmsnorm(float *__restrict__ x, const float *__restrict__ w, float eps, int nrows)
{
    __shared__ float part[NWARP];
    if (blockIdx.x >= nrows) /* the whole block: before the barrier */
        return;
    chunk_t *row = reinterpret_cast<chunk_t *>(x + (long)blockIdx.x * HID);
    const chunk_t *wc = reinterpret_cast<const chunk_t *>(w);
    const int t = threadIdx.x;
    float s = 0.0f;
#if keep
    chunk_t v[NCH];
#pragma unroll
    for (int k = 0; k < NCH; k++)
        v[k] = row[k * block_size_x + t];
#pragma unroll
    for (int k = 0; k < NCH; k++)
        s = sq_add(s, v[k]);
#else
#pragma unroll
    for (int k = 0; k < NCH; k++)
        s = sq_add(s, row[k * block_size_x + t]);
#endif
#pragma unroll
    for (int o = 16; o > 0; o >>= 1)
        s += __shfl_xor_sync(0xffffffffu, s, o);
    if ((t & 31) == 0)
        part[t >> 5] = s;
    __syncthreads();
    float tot = 0.0f;
#pragma unroll
    for (int k = 0; k < NWARP; k++)
        tot += part[k];
    const float inv = rsqrtf(__fadd_rn(__fmul_rn(tot, 1.0f / HID), eps));
#pragma unroll
    for (int k = 0; k < NCH; k++) {
#if keep
        const chunk_t a = v[k];
#else
        const chunk_t a = __ldca(row + k * block_size_x + t); /* an explicit load: not merged with the first */
#endif
        row[k * block_size_x + t] = scale(a, inv, __ldg(wc + k * block_size_x + t));
    }
}
