/* rope.cu - rotary position embedding applied in place, as a transformer
 * applies it to its queries or keys before attention: x holds ntok tokens
 * of NH = 32 heads of HD = 128 floats, token t at position pos[t] (a
 * decode batch: each token of its own sequence, at its own position). In
 * each head, pair i (i < 64) is the elements i and i + 64 (the GPT-NeoX
 * layout), rotated by the angle pos[t] f_i with f_i = 10000^(-i / 64):
 *     x_i      <- x_i cos - x_{i+64} sin
 *     x_{i+64} <- x_i sin + x_{i+64} cos
 * The angle depends on the token and the pair, not on the head: a thread
 * that rotates the same pair in hpt heads takes its sine and cosine once
 * for all of them.
 *
 * A token is 2048 / (hpt x ppt) work items; item r of token t rotates ppt
 * adjacent pairs (i, i + 1 when ppt is 2, read and written as float2) in
 * hpt adjacent heads. Consecutive threads take consecutive items: a warp
 * reads 32 x ppt consecutive floats of the first half of a head and as
 * many of its second half. rope_cs() and rope_rot() are the functions the
 * kernel and the reference both call; every operation of the rotation is
 * an explicitly rounded intrinsic, so the two agree to the bit.
 *
 * Compiled with -Dblock_size_x=B -Dhpt=H -Dppt=P -Dntok=N. */

#define NH 32                              /* heads per token */
#define HD 128                             /* floats per head */
#define HALF (HD / 2)                      /* pairs per head */
#define PG (HALF / ppt)                    /* pair groups per head */
#define ITEMS (NH / hpt * PG)              /* work items per token */
#define NEG_LOG2_BASE_OVER_HALF (-0.20762050593046014f) /* -log2(10000) / 64 */

#if hpt != 1 && hpt != 2 && hpt != 4 && hpt != 8
#error "hpt is 1, 2, 4 or 8"
#endif
#if ppt != 1 && ppt != 2
#error "ppt is 1 or 2"
#endif

__device__ __forceinline__ void rope_cs(int p, int i, float &c, float &s)
{
    const float f = exp2f(__fmul_rn((float)i, NEG_LOG2_BASE_OVER_HALF));
    sincosf(__fmul_rn((float)p, f), &s, &c);
}
__device__ __forceinline__ void rope_rot(float &x0, float &x1, float c, float s)
{
    const float y0 = __fsub_rn(__fmul_rn(x0, c), __fmul_rn(x1, s));
    const float y1 = __fadd_rn(__fmul_rn(x0, s), __fmul_rn(x1, c));
    x0 = y0;
    x1 = y1;
}

/* The reference: a pair of one head of one token per thread. */
extern "C" __global__ void rope_reference(float *x, const int *pos, int count)
{
    const long g = (long)blockIdx.x * blockDim.x + threadIdx.x;
    if (g >= (long)count * NH * HALF)
        return;
    const long t = g / (NH * HALF);
    const int h = (int)(g / HALF % NH), i = (int)(g % HALF);
    float c, s;
    rope_cs(pos[t], i, c, s);
    float *row = x + (t * NH + h) * HD;
    float x0 = row[i], x1 = row[i + HALF];
    rope_rot(x0, x1, c, s);
    row[i] = x0;
    row[i + HALF] = x1;
}

extern "C" __global__ void __launch_bounds__(block_size_x)
    rope(float *__restrict__ x, const int *__restrict__ pos, int count)
{
    const long g = (long)blockIdx.x * block_size_x + threadIdx.x;
    if (g >= (long)count * ITEMS)
        return;
    const long t = g / ITEMS;
    const int r = (int)(g % ITEMS);
    const int i = r % PG * ppt;  /* the first pair */
    const int h0 = r / PG * hpt; /* the first head */
    const int p = __ldg(pos + t);
    float c[ppt], s[ppt];
#pragma unroll
    for (int k = 0; k < ppt; k++)
        rope_cs(p, i + k, c[k], s[k]);
    float *base = x + (t * NH + h0) * HD + i;
#if ppt == 1
    float a[hpt], b[hpt];
#pragma unroll
    for (int h = 0; h < hpt; h++) {
        a[h] = base[h * HD];
        b[h] = base[h * HD + HALF];
    }
#pragma unroll
    for (int h = 0; h < hpt; h++) {
        rope_rot(a[h], b[h], c[0], s[0]);
        base[h * HD] = a[h];
        base[h * HD + HALF] = b[h];
    }
#else
    float2 a[hpt], b[hpt];
#pragma unroll
    for (int h = 0; h < hpt; h++) {
        a[h] = *reinterpret_cast<const float2 *>(base + h * HD);
        b[h] = *reinterpret_cast<const float2 *>(base + h * HD + HALF);
    }
#pragma unroll
    for (int h = 0; h < hpt; h++) {
        rope_rot(a[h].x, b[h].x, c[0], s[0]);
        rope_rot(a[h].y, b[h].y, c[1], s[1]);
        *reinterpret_cast<float2 *>(base + h * HD) = a[h];
        *reinterpret_cast<float2 *>(base + h * HD + HALF) = b[h];
    }
#endif
}
