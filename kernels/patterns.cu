// patterns.cu - eight patterns of inefficient behaviour (Eschweiler, Becker and
// Wolf, "Patterns of inefficient performance behavior in GPU applications"),
// each as an original kernel that shows the inefficiency and a revised kernel
// that removes it. The two kernels of a pattern compute the same result.
//
// Options (-D):
//   RI_STATE, RI_INREG   register imbalance: words of state per thread, and how
//                        many of them live in registers (the rest in shared memory).
//                        With RI_STATE defined the module holds that kernel only
//                        (it is compiled with its own --maxrregcount); without it,
//                        every other kernel.
// Every other parameter is a kernel argument, so that the suite compiles few modules.

typedef unsigned int u32;
typedef unsigned long long u64;

#ifndef RI_STATE

// ---------------------------------------------------------------------------
// Reed-Solomon over GF(2^8), primitive polynomial x^8+x^4+x^3+x^2+1 (0x11d),
// alpha = 2. Bank conflicts and wait at barrier share it.
//
// The lookup table is the exponential table exp[e] = alpha^(e mod 255) for
// e = 0..RS_N-1, kept in shared memory as RS_ROWS rows of 32 words; a row is
// RS_ROW_STRIDE words apart: 32, or 33 with the padding fix.
// The encode phase computes, per thread, the RS_NPAR parity symbols of one
// codeword of RS_K message symbols as a product with the code's parity matrix
// in the log domain: message symbols arrive as exponents (symbol alpha^e),
// the matrix as c_logp[k][j] = log P[k][j] (255 for a zero entry), so that
// parity j = XOR over k of exp[e_k + c_logp[k][j]].
#include "rs_walk.h"   // RS_N, RS_ROWS, gf_*, the table walk (pasted in by cmake/embed.cmake)
#define RS_K 32
#define RS_NPAR 8
#define RS_BLOCK 256
#define RS_TAB_WORDS (RS_ROWS * 33)

__constant__ unsigned char c_logp[RS_K][RS_NPAR];

// Parity of this thread's codeword from the table (shared by every RS kernel).
__device__ __forceinline__ void rs_encode(const u32 *tab, u32 stride, const u32 *__restrict__ msg,
                                          u32 *__restrict__ par, u32 ncw)
{
    u32 cw = blockIdx.x * RS_BLOCK + threadIdx.x;
    if (cw >= ncw)
        return;
    u32 p[RS_NPAR];
#pragma unroll
    for (int j = 0; j < RS_NPAR; j++)
        p[j] = 0;
#pragma unroll 1
    for (int w = 0; w < RS_K / 4; w++) {
        u32 word = msg[(u64)w * ncw + cw];
#pragma unroll
        for (int b = 0; b < 4; b++) {
            u32 e = (word >> (8 * b)) & 0xffu;
#pragma unroll
            for (int j = 0; j < RS_NPAR; j++) {
                u32 l = c_logp[w * 4 + b][j];
                if (l != 255u) {
                    u32 x = e + l;   // at most 255 + 254: inside the table
                    p[j] ^= tab[(x >> 5) * stride + (x & 31u)];
                }
            }
        }
    }
    par[cw] = p[0] | p[1] << 8 | p[2] << 16 | p[3] << 24;
    par[(u64)ncw + cw] = p[4] | p[5] << 8 | p[6] << 16 | p[7] << 24;
}

// Bank conflicts, original: every thread initialises the whole table. Each
// thread walks all RS_N entries row by row; inside a row it starts at its own
// column and wraps around. Lane l starts at row l / (32/ways) and column
// ways * (l % (32/ways)), so at every step the 32 lanes of a warp write 32
// distinct entries of which `ways` share a bank without padding (a ways-way
// conflict) and none do with it (row r's entries are shifted by r banks).
// The walk is in rs_walk.h, which tests/unit/test_patterns_walk.c runs on
// the host for every lane.
extern "C" __global__ void __launch_bounds__(RS_BLOCK)
bank_every_thread(const u32 *__restrict__ msg, u32 *__restrict__ par, u32 ncw, u32 ways, u32 pad)
{
    __shared__ u32 tab[RS_TAB_WORDS];
    const u32 stride = 32u + pad;
    const u32 lane = threadIdx.x & 31u;
    struct rs_walk w;
    rs_walk_begin(&w, lane, ways);
#pragma unroll 1
    for (u32 r = 0; r < RS_ROWS; r++) {
#pragma unroll 4
        for (u32 j = 0; j < 32u; j++) {
            tab[rs_walk_slot(&w, stride)] = w.v;
            rs_walk_next(&w);
        }
        rs_walk_next_row(&w);
    }
    __syncthreads();
    rs_encode(tab, stride, msg, par, ncw);
}

// Bank conflicts, revised (and wait at barrier, original): one thread of the
// block initialises the table while the others wait at the barrier.
extern "C" __global__ void __launch_bounds__(RS_BLOCK)
bank_one_thread(const u32 *__restrict__ msg, u32 *__restrict__ par, u32 ncw, u32 ways, u32 pad)
{
    __shared__ u32 tab[RS_TAB_WORDS];
    const u32 stride = 32u + pad;
    (void)ways;
    if (threadIdx.x == 0) {
        u32 v = 1;
#pragma unroll 1
        for (u32 row = 0; row < RS_ROWS; row++)
#pragma unroll 4
            for (u32 col = 0; col < 32u; col++) {
                tab[row * stride + col] = v;
                v = gf_xtime(v);
            }
    }
    __syncthreads();
    rs_encode(tab, stride, msg, par, ncw);
}

// Wait at barrier, revised: the initialisation shared out. Warp w writes rows
// w, w + warps, ...; lane l column l, so a warp's stores fill one row.
extern "C" __global__ void __launch_bounds__(RS_BLOCK)
barrier_all_threads(const u32 *__restrict__ msg, u32 *__restrict__ par, u32 ncw, u32 ways, u32 pad)
{
    __shared__ u32 tab[RS_TAB_WORDS];
    const u32 stride = 32u + pad;
    const u32 warps = RS_BLOCK / 32u, lane = threadIdx.x & 31u;
    (void)ways;
    u32 row = threadIdx.x >> 5;
    u32 v = gf_pow_alpha(row * 32u + lane);
    const u32 step = gf_pow_alpha(32u * warps);
#pragma unroll
    for (u32 k = 0; k < RS_ROWS / warps; k++) {
        tab[row * stride + lane] = v;
        v = gf_mul(v, step);
        row += warps;
    }
    __syncthreads();
    rs_encode(tab, stride, msg, par, ncw);
}

// ---------------------------------------------------------------------------
// Excessive global memory usage: out = (A+B)*A*B/(A+B). The original reads
// every A and B operand from global memory where the expression names it
// (six loads; volatile asm keeps the compiler from merging them). The revised
// copies A and B into shared memory once and reads the operands from there
// (six shared loads, likewise kept). `LOAD` picks the global load's cache
// operator: ca (L1 and L2, what plain loads do) or cg (L2 only).

#define GM_BLOCK 256

#define GM_KERNELS(OP)                                                                          \
    __device__ __forceinline__ float gm_ld_##OP(const float *p)                                 \
    {                                                                                           \
        float x;                                                                                \
        asm volatile("ld.global." #OP ".f32 %0, [%1];" : "=f"(x) : "l"(p));                     \
        return x;                                                                               \
    }                                                                                           \
    extern "C" __global__ void __launch_bounds__(GM_BLOCK)                                      \
    global_original_##OP(const float *a, const float *b, float *__restrict__ out, u64 n)        \
    {                                                                                           \
        u64 i = blockIdx.x * (u64)GM_BLOCK + threadIdx.x;                                       \
        if (i >= n)                                                                             \
            return;                                                                             \
        float s = gm_ld_##OP(a + i) + gm_ld_##OP(b + i);                                        \
        float r = s * gm_ld_##OP(a + i);                                                        \
        r = r * gm_ld_##OP(b + i);                                                              \
        out[i] = r / (gm_ld_##OP(a + i) + gm_ld_##OP(b + i));                                   \
    }                                                                                           \
    extern "C" __global__ void __launch_bounds__(GM_BLOCK)                                      \
    global_revised_##OP(const float *a, const float *b, float *__restrict__ out, u64 n)         \
    {                                                                                           \
        __shared__ float sa[GM_BLOCK], sb[GM_BLOCK];                                            \
        u64 i = blockIdx.x * (u64)GM_BLOCK + threadIdx.x;                                       \
        if (i < n) {                                                                            \
            sa[threadIdx.x] = gm_ld_##OP(a + i);                                                \
            sb[threadIdx.x] = gm_ld_##OP(b + i);                                                \
        }                                                                                       \
        __syncthreads();                                                                        \
        if (i >= n)                                                                             \
            return;                                                                             \
        const float *pa = sa + threadIdx.x, *pb = sb + threadIdx.x;                             \
        float s = sh_ld(pa) + sh_ld(pb);                                                        \
        float r = s * sh_ld(pa);                                                                \
        r = r * sh_ld(pb);                                                                      \
        out[i] = r / (sh_ld(pa) + sh_ld(pb));                                                   \
    }

// A volatile read is one load per occurrence, as the asm loads are for global memory.
__device__ __forceinline__ float sh_ld(const volatile float *p)
{
    return *p;
}

GM_KERNELS(ca)
GM_KERNELS(cg)

// ---------------------------------------------------------------------------
// Replication copy: out = A + B. The original stages both inputs and the
// output through shared memory although each value is used once; the revised
// works on global memory directly.

extern "C" __global__ void __launch_bounds__(GM_BLOCK)
replication_original(const float *__restrict__ a, const float *__restrict__ b, float *__restrict__ out, u64 n)
{
    __shared__ float sa[GM_BLOCK], sb[GM_BLOCK], sc[GM_BLOCK];
    u64 i = blockIdx.x * (u64)GM_BLOCK + threadIdx.x;
    u32 t = threadIdx.x;
    if (i < n) {
        sa[t] = a[i];
        sb[t] = b[i];
    }
    __syncthreads();
    sc[t] = sa[t] + sb[t];
    __syncthreads();
    if (i < n)
        out[i] = sc[t];
}

extern "C" __global__ void __launch_bounds__(GM_BLOCK)
replication_revised(const float *__restrict__ a, const float *__restrict__ b, float *__restrict__ out, u64 n)
{
    u64 i = blockIdx.x * (u64)GM_BLOCK + threadIdx.x;
    if (i < n)
        out[i] = a[i] + b[i];
}

// ---------------------------------------------------------------------------
// Memory coalescing: each block copies a tile of CO_TILE bytes from global into
// shared memory with accesses of 4, 8 or 16 bytes per thread, then writes the
// tile back out with 16-byte stores (the same in every variant), so that the
// output can be checked against the input.
#define CO_BLOCK 256
#define CO_TILE 16384

#define CO_KERNEL(W, T)                                                                         \
    extern "C" __global__ void __launch_bounds__(CO_BLOCK)                                      \
    coalesce_copy##W(const T *__restrict__ in, uint4 *__restrict__ out)                         \
    {                                                                                           \
        __shared__ uint4 tile[CO_TILE / 16];                                                    \
        T *st = (T *)tile;                                                                      \
        const T *src = in + blockIdx.x * (u64)(CO_TILE / W);                                    \
        _Pragma("unroll")                                                                       \
        for (u32 k = threadIdx.x; k < CO_TILE / W; k += CO_BLOCK)                               \
            st[k] = src[k];                                                                     \
        __syncthreads();                                                                        \
        uint4 *dst = out + blockIdx.x * (u64)(CO_TILE / 16);                                    \
        _Pragma("unroll")                                                                       \
        for (u32 k = threadIdx.x; k < CO_TILE / 16; k += CO_BLOCK)                              \
            dst[k] = tile[k];                                                                   \
    }

CO_KERNEL(4, u32)
CO_KERNEL(8, uint2)
CO_KERNEL(16, uint4)

#endif // !RI_STATE

// ---------------------------------------------------------------------------
// Thread register imbalance: a latency-bound loop over RI_STATE words of
// per-thread state and one dependent load from a table in global memory per
// iteration. The original holds all of the state in registers; the revised
// holds RI_INREG words in registers and the rest in shared memory, so that it
// needs fewer registers. The suite picks both register counts for the device
// with the occupancy calculator and caps them with --maxrregcount.
// Thread 0 of every block records its SM and the global timer when the block
// starts and ends, from which the host computes the achieved occupancy.
#ifdef RI_STATE
#ifndef RI_INREG
#define RI_INREG RI_STATE
#endif
#define RI_BLOCK 512
#define RI_INSH (RI_STATE - RI_INREG)

__device__ __forceinline__ u64 ri_clock(void)
{
    u64 t;
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
    return t;
}

__device__ __forceinline__ u32 ri_smid(void)
{
    u32 s;
    asm volatile("mov.u32 %0, %%smid;" : "=r"(s));
    return s;
}

// No __launch_bounds__ here: with it, --maxrregcount would be ignored.
extern "C" __global__ void
register_imbalance(const u32 *__restrict__ seed, const u32 *__restrict__ tab, u32 tab_mask, u32 iters,
                   u32 *__restrict__ out, u64 *__restrict__ probe)
{
#if RI_INSH > 0
    // volatile: without it the compiler keeps these words in registers too.
    __shared__ u32 sh_words[RI_INSH * RI_BLOCK];
    volatile u32 *sh = sh_words;
#endif
    u64 t0 = 0;
    if (threadIdx.x == 0)
        t0 = ri_clock();
    u32 gid = blockIdx.x * RI_BLOCK + threadIdx.x;
    u32 s0 = seed[gid];
    u32 x[RI_INREG > 0 ? RI_INREG : 1];
#pragma unroll
    for (u32 k = 0; k < RI_STATE; k++) {
        u32 v = s0 * (2u * k + 1u) + k;
#if RI_INSH > 0
        if (k >= RI_INREG)
            sh[(k - RI_INREG) * RI_BLOCK + threadIdx.x] = v;
        else
#endif
            x[k] = v;
    }
    u32 g = s0;
#pragma unroll 1
    for (u32 it = 0; it < iters; it++) {
        g ^= tab[(g ^ it) & tab_mask];
#pragma unroll
        for (u32 k = 0; k < RI_STATE; k++) {
            u32 v;
#if RI_INSH > 0
            if (k >= RI_INREG)
                v = sh[(k - RI_INREG) * RI_BLOCK + threadIdx.x];
            else
#endif
                v = x[k];
            v = (v ^ g) * 0x9E3779B1u + k;
            g += v >> 7;
#if RI_INSH > 0
            if (k >= RI_INREG)
                sh[(k - RI_INREG) * RI_BLOCK + threadIdx.x] = v;
            else
#endif
                x[k] = v;
        }
    }
    u32 acc = g;
#pragma unroll
    for (u32 k = 0; k < RI_STATE; k++) {
        u32 v;
#if RI_INSH > 0
        if (k >= RI_INREG)
            v = sh[(k - RI_INREG) * RI_BLOCK + threadIdx.x];
        else
#endif
            v = x[k];
        acc = (acc << 5 | acc >> 27) ^ v;
    }
    out[gid] = acc;
    __syncthreads();
    if (threadIdx.x == 0) {
        u64 t1 = ri_clock();
        probe[3u * blockIdx.x] = ri_smid();
        probe[3u * blockIdx.x + 1] = t0;
        probe[3u * blockIdx.x + 2] = t1;
    }
}
#endif // RI_STATE

#ifndef RI_STATE

// ---------------------------------------------------------------------------
// Branch diverging: Euclidean distance from each item's vector to the nearest
// of BD_Q query vectors (in shared memory). Items alternate between two kinds
// with different code: even items are single-precision vectors, odd items
// double-precision ones. The original gives item i to thread i, so the lanes
// of a warp alternate between the two branches; the revised gives a warp 32
// items of one kind. Vectors are stored dimension-major per kind:
// xf[d * half + j], xd[d * half + j] for item 2j (float) or 2j+1 (double).
#define BD_D 16
#define BD_Q 128
#define BD_BLOCK 256

__device__ __forceinline__ float bd_min(float a, float b) { return fminf(a, b); }
__device__ __forceinline__ double bd_min(double a, double b) { return fmin(a, b); }
__device__ __forceinline__ float bd_sqrt(float v) { return sqrtf(v); }
__device__ __forceinline__ double bd_sqrt(double v) { return sqrt(v); }

// Distance from vector j of one kind (x[d * half + j]) to the nearest query;
// `far` is larger than any squared distance.
template <typename T>
__device__ __forceinline__ T bd_nearest(const T *__restrict__ xg, u32 half, u32 j, const T *q, T far)
{
    T x[BD_D];
#pragma unroll
    for (int d = 0; d < BD_D; d++)
        x[d] = xg[(u64)d * half + j];
    T best = far;
#pragma unroll 2
    for (int k = 0; k < BD_Q; k++) {
        T acc = T(0);
#pragma unroll
        for (int d = 0; d < BD_D; d++) {
            T t = x[d] - q[k * BD_D + d];
            acc += t * t;
        }
        best = bd_min(best, acc);
    }
    return bd_sqrt(best);
}

__device__ __forceinline__ void bd_item(u32 item, u32 half, const float *__restrict__ xf,
                                        const double *__restrict__ xd, const float *qf,
                                        const double *qd, double *__restrict__ out)
{
    u32 j = item >> 1;
    if (j >= half)
        return;
    if ((item & 1u) == 0)
        out[item] = (double)bd_nearest(xf, half, j, qf, 3.0e38f);
    else
        out[item] = bd_nearest(xd, half, j, qd, 1.0e300);
}

__device__ __forceinline__ void bd_load_queries(float *qf, double *qd, const float *__restrict__ gqf,
                                                const double *__restrict__ gqd)
{
    for (u32 k = threadIdx.x; k < BD_Q * BD_D; k += BD_BLOCK) {
        qf[k] = gqf[k];
        qd[k] = gqd[k];
    }
    __syncthreads();
}

extern "C" __global__ void __launch_bounds__(BD_BLOCK)
diverge_original(const float *__restrict__ xf, const double *__restrict__ xd, const float *__restrict__ gqf,
                 const double *__restrict__ gqd, double *__restrict__ out, u32 half)
{
    __shared__ float qf[BD_Q * BD_D];
    __shared__ double qd[BD_Q * BD_D];
    bd_load_queries(qf, qd, gqf, gqd);
    u32 item = blockIdx.x * BD_BLOCK + threadIdx.x;
    bd_item(item, half, xf, xd, qf, qd, out);
}

extern "C" __global__ void __launch_bounds__(BD_BLOCK)
diverge_revised(const float *__restrict__ xf, const double *__restrict__ xd, const float *__restrict__ gqf,
                const double *__restrict__ gqd, double *__restrict__ out, u32 half)
{
    __shared__ float qf[BD_Q * BD_D];
    __shared__ double qd[BD_Q * BD_D];
    bd_load_queries(qf, qd, gqf, gqd);
    u32 g = blockIdx.x * BD_BLOCK + threadIdx.x;
    u32 warp = g >> 5, lane = g & 31u;
    // Warps 2w and 2w+1 share items 64w..64w+63: the even ones go to 2w, the odd ones to 2w+1.
    u32 item = ((warp >> 1) << 6) + (lane << 1) + (warp & 1u);
    bd_item(item, half, xf, xd, qf, qd, out);
}

#endif // !RI_STATE
