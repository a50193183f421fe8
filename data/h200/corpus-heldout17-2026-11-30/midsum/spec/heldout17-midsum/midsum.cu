/* midsum.cu - the sum of a 3-D float tensor x[A][B][C] over its middle
 * axis, C contiguous, into out[A][C]:
 *     out[a][c] = sum_{0 <= b < B} x[a][b][c]
 * (a sum over the batch or sequence axis of a [groups][batch][features]
 * tensor, as a bias gradient or a pooled feature is taken). C is MSC
 * (1024) columns, fixed here; A (count) and B (nmid) are arguments.
 *
 * A thread owns opt adjacent columns (c, ..., c + opt - 1) of one a (a
 * float, a float2 or a float4 of each row) and walks down B, one load of
 * each row it takes, adding in order: consecutive threads take
 * consecutive columns, so that a warp's load of a row is 128, 256 or 512
 * contiguous bytes. The outputs are numbered o = a C + c over the whole
 * of out, a block's threads on consecutive chunks of them.
 *
 * bsplit 1: the block's block_size_x threads each take all B rows of
 * their chunk. bsplit 4: the block is 4 groups of TPG = block_size_x / 4
 * threads on the same TPG chunks, group g taking the rows g R to g R +
 * R - 1 (R = ceil(B / 4)); groups 1 to 3 store their sums in shared
 * memory, and after one barrier group 0 adds them to its own in order
 * and writes the outputs. A split block covers a quarter of the outputs
 * with four times the loads in flight per output.
 *
 * Compiled with -Dblock_size_x=T -Dopt=V -Dbsplit=S -Dnouter=A. */

#define MSC 1024                        /* columns, the contiguous axis */
#define TPG (block_size_x / bsplit)     /* threads per group */

#if opt != 1 && opt != 2 && opt != 4
#error "opt is 1, 2 or 4"
#endif
#if bsplit != 1 && bsplit != 4
#error "bsplit is 1 or 4"
#endif
#if TPG * bsplit != block_size_x || TPG % 32 != 0
#error "block_size_x / bsplit is a multiple of 32"
#endif

/* The reference: one output per thread, its column summed in double and
 * rounded to float once. */
extern "C" __global__ void midsum_reference(float *out, const float *x, int count, int nmid)
{
    const long o = (long)blockIdx.x * blockDim.x + threadIdx.x;
    if (o >= (long)count * MSC)
        return;
    const long a = o / MSC, c = o % MSC;
    double s = 0.0;
    for (int b = 0; b < nmid; b++)
        s += (double)x[(a * nmid + b) * MSC + c];
    out[o] = (float)s;
}

#if opt == 4
typedef float4 chunk_t;
__device__ __forceinline__ float4 chunk_zero()
{
    return make_float4(0.0f, 0.0f, 0.0f, 0.0f);
}
__device__ __forceinline__ float4 chunk_add(const float4 s, const float4 v)
{
    return make_float4(s.x + v.x, s.y + v.y, s.z + v.z, s.w + v.w);
}
#elif opt == 2
typedef float2 chunk_t;
__device__ __forceinline__ float2 chunk_zero()
{
    return make_float2(0.0f, 0.0f);
}
__device__ __forceinline__ float2 chunk_add(const float2 s, const float2 v)
{
    return make_float2(s.x + v.x, s.y + v.y);
}
#else
typedef float chunk_t;
__device__ __forceinline__ float chunk_zero()
{
    return 0.0f;
}
__device__ __forceinline__ float chunk_add(const float s, const float v)
{
    return s + v;
}
#endif

extern "C" __global__ void __launch_bounds__(block_size_x)
    midsum(float *__restrict__ out, const float *__restrict__ x, int count, int nmid)
{
    const int t = threadIdx.x % TPG; /* the thread's chunk in the block */
    const long o = ((long)blockIdx.x * TPG + t) * opt;
    const bool active = o < (long)count * MSC; /* no return: with bsplit 4 a barrier follows */
    const long a = o / MSC, c = o % MSC;
#if bsplit == 1
    const int b0 = 0, b1 = nmid;
#else
    const int g = threadIdx.x / TPG; /* the thread's group: its share of the rows */
    const int rpg = (nmid + bsplit - 1) / bsplit;
    const int b0 = min(g * rpg, nmid), b1 = min(b0 + rpg, nmid);
#endif
    chunk_t s = chunk_zero();
    if (active) {
        const chunk_t *p = reinterpret_cast<const chunk_t *>(x + (a * nmid + b0) * MSC + c);
#pragma unroll 8
        for (int b = b0; b < b1; b++) {
            s = chunk_add(s, __ldg(p));
            p += MSC / opt;
        }
    }
#if bsplit == 1
    if (active)
        *reinterpret_cast<chunk_t *>(out + o) = s;
#else
    __shared__ chunk_t part[(bsplit - 1) * TPG];
    if (g > 0)
        part[(g - 1) * TPG + t] = s;
    __syncthreads();
    if (g == 0 && active) {
#pragma unroll
        for (int k = 0; k < bsplit - 1; k++)
            s = chunk_add(s, part[k * TPG + t]);
        *reinterpret_cast<chunk_t *>(out + o) = s;
    }
#endif
}
