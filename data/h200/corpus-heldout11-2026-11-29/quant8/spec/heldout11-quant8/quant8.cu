/* quant8.cu - symmetric int8 quantization of the rows of a float matrix
 * with a scale per row: for each row of ROWLEN (4096) floats, amax = the
 * largest |x| of the row, scale[r] = amax / 127 and
 * q[r][c] = round(x[r][c] * (127 / amax)), clamped to [-127, 127]. Two
 * passes over each row: a max reduction, then the quantization, which
 * needs the reduction's result before its first element.
 *
 * A block of block_size_x threads takes one row; thread t takes its chunks
 * t, t + block_size_x, ... of vec floats (vec 1: a float; vec 4: a float4,
 * its four int8 stored as one char4). Pass 1 loads the chunks and takes
 * the maximum of their absolute values; warps combine theirs by
 * __shfl_xor_sync, and every thread reads the block's warp maxima from
 * shared memory behind one barrier. Pass 2 takes the row again:
 *   stage 0: from global memory once more (the 16 KiB just read, from L1
 *            or the L2), by __ldca, which the compiler does not merge
 *            with pass 1's loads (plain loads, it would: the row is
 *            const and __restrict__, and it keeps pass 1's values);
 *   stage 1: from registers, where pass 1 kept it (4096 / block_size_x
 *            floats per thread: 64 down to 8);
 *   stage 2: from a shared copy of the row that pass 1 wrote (16 KiB of
 *            static shared memory per block).
 *
 * quant_scale() and quant1() are the functions the kernel and the
 * reference both call; the maximum is exact whatever its order, and every
 * operation after it is an explicitly rounded intrinsic, so the two agree
 * to the bit.
 *
 * Compiled with -Dblock_size_x=B -Dvec=V -Dstage=S -Dnrows=R. */

#define ROWLEN 4096                           /* floats per row */
#define CPT (ROWLEN / (vec * block_size_x))   /* chunks per thread */
#define NWARPS (block_size_x / 32)

#if vec != 1 && vec != 4
#error "vec is 1 or 4"
#endif
#if stage != 0 && stage != 1 && stage != 2
#error "stage is 0, 1 or 2"
#endif

__device__ __forceinline__ float quant_scale(float amax) { return __fdiv_rn(amax, 127.0f); }
__device__ __forceinline__ float quant_inv(float amax) { return __fdiv_rn(127.0f, amax); }
__device__ __forceinline__ signed char quant1(float v, float inv)
{
    const int q = __float2int_rn(__fmul_rn(v, inv));
    return (signed char)min(127, max(-127, q));
}

/* The reference: a row per thread, read twice. */
extern "C" __global__ void quant8_reference(signed char *q, float *scale, const float *x, int count)
{
    const long r = (long)blockIdx.x * blockDim.x + threadIdx.x;
    if (r >= count)
        return;
    const float *row = x + r * ROWLEN;
    float amax = 0.0f;
    for (int c = 0; c < ROWLEN; c++)
        amax = fmaxf(amax, fabsf(row[c]));
    const float inv = quant_inv(amax);
    for (int c = 0; c < ROWLEN; c++)
        q[r * ROWLEN + c] = quant1(row[c], inv);
    scale[r] = quant_scale(amax);
}

#if vec == 4
typedef float4 chunk_t;
__device__ __forceinline__ float chunk_amax(float4 v, float m)
{
    return fmaxf(fmaxf(fmaxf(m, fabsf(v.x)), fmaxf(fabsf(v.y), fabsf(v.z))), fabsf(v.w));
}
__device__ __forceinline__ void chunk_store(signed char *q, long i, float4 v, float inv)
{
    reinterpret_cast<char4 *>(q)[i] = make_char4(quant1(v.x, inv), quant1(v.y, inv), quant1(v.z, inv), quant1(v.w, inv));
}
#else
typedef float chunk_t;
__device__ __forceinline__ float chunk_amax(float v, float m) { return fmaxf(m, fabsf(v)); }
__device__ __forceinline__ void chunk_store(signed char *q, long i, float v, float inv) { q[i] = quant1(v, inv); }
#endif

extern "C" __global__ void __launch_bounds__(block_size_x)
    quant8(signed char *__restrict__ q, float *__restrict__ scale, const float *__restrict__ x, int count)
{
    __shared__ float wmax[NWARPS];
#if stage == 2
    __shared__ chunk_t srow[ROWLEN / vec];
#endif
    const int t = threadIdx.x;
    const long r = blockIdx.x;
    if (r >= count) /* the whole block leaves: the barrier below is not split */
        return;
    const chunk_t *row = reinterpret_cast<const chunk_t *>(x + r * ROWLEN);
    float m = 0.0f;
#if stage == 1
    chunk_t v[CPT];
#pragma unroll
    for (int j = 0; j < CPT; j++)
        v[j] = row[t + j * block_size_x];
#pragma unroll
    for (int j = 0; j < CPT; j++)
        m = chunk_amax(v[j], m);
#else
#pragma unroll
    for (int j = 0; j < CPT; j++) {
        const chunk_t c = row[t + j * block_size_x];
        m = chunk_amax(c, m);
#if stage == 2
        srow[t + j * block_size_x] = c;
#endif
    }
#endif
#pragma unroll
    for (int o = 16; o > 0; o >>= 1)
        m = fmaxf(m, __shfl_xor_sync(0xffffffffu, m, o));
    if (t % 32 == 0)
        wmax[t / 32] = m;
    __syncthreads();
    float amax = wmax[0];
#pragma unroll
    for (int w = 1; w < NWARPS; w++)
        amax = fmaxf(amax, wmax[w]);
    const float inv = quant_inv(amax);
    const long base = r * (ROWLEN / vec);
#pragma unroll
    for (int j = 0; j < CPT; j++) {
#if stage == 1
        const chunk_t c = v[j];
#elif stage == 2
        const chunk_t c = srow[t + j * block_size_x];
#else
        const chunk_t c = __ldca(&row[t + j * block_size_x]); /* a load of its own, not pass 1's value kept */
#endif
        chunk_store(q, base + t + j * block_size_x, c, inv);
    }
    if (t == 0)
        scale[r] = quant_scale(amax);
}
