/* winmax.cu - sliding-window maximum of a float signal, window 32, stride
 * 1: out[i] = max(x[i], x[i + 1], ..., x[i + 31]) for i < count, x holding
 * count + 31 floats (a morphological dilation, or the running maximum of a
 * peak detector or a max filter). Every input feeds 32 outputs.
 *
 * A block of block_size_x threads writes TILE = block_size_x x opt
 * consecutive outputs, from TILE + 31 inputs staged in shared memory (one
 * load each, TILE + 32 slots, the last -inf). Thread t writes outputs t,
 * t + block_size_x, ... of the tile. Two ways to take each maximum:
 *   algo 0: directly, 32 shared-memory reads and 31 maxima per output;
 *   algo 1: van Herk / Gil-Werman: with the slots cut into segments of 32
 *           (a warp's loads: the window's length is the warp's width), each
 *           slot's prefix maximum P (from its segment's start) and suffix
 *           maximum S (to its segment's end) are taken by shuffles, 5 steps
 *           each; P goes to shared memory and S stays in a register, and
 *           out = max(S[i], P[i + 31]): the window is the end of one
 *           segment and the start of the next. 2 maxima and 1 shared read
 *           per output, 10 shuffles per slot.
 * A maximum is exact whatever the order: both agree with the reference to
 * the bit.
 *
 * Compiled with -Dblock_size_x=B -Dopt=P -Dalgo=A -Dnout=N. */

#define WIN 32                     /* window length, the warp's width */
#define TILE (block_size_x * opt)  /* outputs per block */
#define SLOTS (TILE + WIN)         /* staged inputs per block: TILE + 31 used, one -inf */
#define NEG_INF __int_as_float(0xff800000)

#if opt != 1 && opt != 2 && opt != 4
#error "opt is 1, 2 or 4"
#endif
#if algo != 0 && algo != 1
#error "algo is 0 or 1"
#endif
#if block_size_x % 32 != 0
#error "block_size_x is a multiple of 32"
#endif

/* The reference: an output per thread, its 32 inputs read in order. */
extern "C" __global__ void winmax_reference(float *out, const float *x, int count)
{
    const long i = (long)blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= count)
        return;
    float m = x[i];
    for (int k = 1; k < WIN; k++)
        m = fmaxf(m, x[i + k]);
    out[i] = m;
}

extern "C" __global__ void __launch_bounds__(block_size_x)
    winmax(float *__restrict__ out, const float *__restrict__ x, int count)
{
    __shared__ float s[SLOTS];
    const int t = threadIdx.x;
    const long o0 = (long)blockIdx.x * TILE; /* the tile's first output, and input */
    const long nin = (long)count + WIN - 1;   /* inputs */
#if algo == 0
#pragma unroll
    for (int j = 0; j < opt; j++) {
        const long g = o0 + t + j * block_size_x;
        s[t + j * block_size_x] = g < nin ? x[g] : NEG_INF;
    }
    if (t < WIN) {
        const long g = o0 + TILE + t;
        s[TILE + t] = g < nin ? x[g] : NEG_INF;
    }
    __syncthreads();
#pragma unroll
    for (int j = 0; j < opt; j++) {
        const int e = t + j * block_size_x;
        float m = s[e];
#pragma unroll
        for (int k = 1; k < WIN; k++)
            m = fmaxf(m, s[e + k]);
        if (o0 + e < count)
            out[o0 + e] = m;
    }
#else
    const int lane = t % 32;
    float suf[opt];
#pragma unroll
    for (int j = 0; j <= opt; j++) {
        /* slots t + j block_size_x, and for j == opt the last segment, by warp 0 */
        if (j == opt && t >= WIN)
            break;
        const int e = j < opt ? t + j * block_size_x : TILE + t;
        const long g = o0 + e;
        const float v = g < nin ? x[g] : NEG_INF;
        float p = v, q = v;
#pragma unroll
        for (int d = 1; d < 32; d <<= 1) {
            const float pu = __shfl_up_sync(0xffffffffu, p, d);
            const float qd = __shfl_down_sync(0xffffffffu, q, d);
            if (lane >= d)
                p = fmaxf(p, pu);
            if (lane + d < 32)
                q = fmaxf(q, qd);
        }
        s[e] = p;
        if (j < opt)
            suf[j] = q;
    }
    __syncthreads();
#pragma unroll
    for (int j = 0; j < opt; j++) {
        const int e = t + j * block_size_x;
        if (o0 + e < count)
            out[o0 + e] = fmaxf(suf[j], s[e + WIN - 1]);
    }
#endif
}
