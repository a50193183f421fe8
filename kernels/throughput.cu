// throughput.cu - instruction, shared-memory and constant-memory throughput.
//
// One kernel per compile, picked by -DTP_KERNEL:
//   1 tp_arith  chains of one operation (-DOP, see the TP_OP_* list, which
//               must match the op table in src/suites/throughput.c);
//               -DCHAINS independent chains per thread, -DUNROLL steps of
//               each chain per loop iteration, `iters` loop iterations.
//   2 tp_smem   32-bit shared-memory loads with an n-way bank conflict
//               (n = `ways`, 1..32) or a broadcast (`ways` = 0).
//   3 tp_const  32-bit __constant__ loads, one address per warp or one per
//               lane (the lane's base index comes from the host).
// Every kernel brackets its work with per-block stamps: the SM's clock64()
// before and after (behind __syncthreads), the SM id, and the %globaltimer
// nanoseconds between the two, so the host can count cycles per SM.

#ifndef TP_KERNEL
#define TP_KERNEL 1
#endif
#ifndef CHAINS
#define CHAINS 8
#endif
#ifndef UNROLL
#define UNROLL 16
#endif
#define TP_SEEDS 256

__device__ __forceinline__ unsigned long long tp_gtime()
{
    unsigned long long t;
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
    return t;
}

__device__ __forceinline__ unsigned tp_smid()
{
    unsigned s;
    asm volatile("mov.u32 %0, %%smid;" : "=r"(s));
    return s;
}

// An empty asm that the optimiser must treat as redefining x: integer
// chains would otherwise be folded (x + a + a -> x + 2a, a recurrence
// replaced by its closed form). It emits no instruction.
#define TP_OPAQUE(x) asm volatile("" : "+r"(x))

#define TP_STAMP_BEGIN                                                   \
    unsigned long long tp_c0 = 0, tp_g0 = 0;                            \
    __syncthreads();                                                     \
    if (threadIdx.x == 0) {                                              \
        tp_g0 = tp_gtime();                                              \
        tp_c0 = clock64();                                               \
    }

#define TP_STAMP_END(st)                                                 \
    __syncthreads();                                                     \
    if (threadIdx.x == 0) {                                              \
        unsigned long long c1 = clock64(), g1 = tp_gtime();             \
        st[4 * blockIdx.x + 0] = tp_c0;                                  \
        st[4 * blockIdx.x + 1] = c1;                                     \
        st[4 * blockIdx.x + 2] = tp_smid();                              \
        st[4 * blockIdx.x + 3] = g1 - tp_g0;                             \
    }

#if TP_KERNEL == 1

// Operation ids: the same numbers as the op table of the suite.
#define TP_OP_FADD 1
#define TP_OP_FMUL 2
#define TP_OP_FFMA 3
#define TP_OP_FRCP 4
#define TP_OP_FSQRT 5
#define TP_OP_FDIV 6
#define TP_OP_FRSQRT 7
#define TP_OP_SINF 8
#define TP_OP_FSIN 9
#define TP_OP_EXPF 10
#define TP_OP_FEXP 11
#define TP_OP_FDIVIDEF 12
#define TP_OP_DADD 13
#define TP_OP_DMUL 14
#define TP_OP_DFMA 15
#define TP_OP_DRCP 16
#define TP_OP_DSQRT 17
#define TP_OP_DDIV 18
#define TP_OP_IADD 19
#define TP_OP_IMUL 20
#define TP_OP_IDIV 21
#define TP_OP_IMOD 22
#define TP_OP_SHF 23
#define TP_OP_ISETP 24

#ifndef OP
#define OP TP_OP_FFMA
#endif

// One step of a chain. `x` is the chain's value, `y` its second register
// (integer add and multiply chains are Fibonacci-like, so that no two steps
// can be merged into one instruction), a and b the host's parameters.
#if OP >= TP_OP_FADD && OP <= TP_OP_FDIVIDEF
typedef float T;
#elif OP >= TP_OP_DADD && OP <= TP_OP_DDIV
typedef double T;
#elif OP == TP_OP_IDIV || OP == TP_OP_IMOD
typedef int T;
#else
typedef unsigned T;
#endif

#if OP == TP_OP_FADD
#define TP_STEP(x, y) x = __fadd_rn(x, a)
#elif OP == TP_OP_FMUL
#define TP_STEP(x, y) x = __fmul_rn(x, a)
#elif OP == TP_OP_FFMA
#define TP_STEP(x, y) x = __fmaf_rn(x, a, b)
#elif OP == TP_OP_FRCP
#define TP_STEP(x, y) x = 1.0f / x
#elif OP == TP_OP_FSQRT
#define TP_STEP(x, y) x = __fadd_rn(sqrtf(x), b)
#elif OP == TP_OP_FDIV
#define TP_STEP(x, y) x = a / x
#elif OP == TP_OP_FRSQRT
#define TP_STEP(x, y) x = __fadd_rn(rsqrtf(x), b)
#elif OP == TP_OP_SINF
#define TP_STEP(x, y) x = __fadd_rn(sinf(x), b)
#elif OP == TP_OP_FSIN
#define TP_STEP(x, y) x = __fadd_rn(__sinf(x), b)
#elif OP == TP_OP_EXPF
#define TP_STEP(x, y) x = __fadd_rn(expf(-x), b)
#elif OP == TP_OP_FEXP
#define TP_STEP(x, y) x = __fadd_rn(__expf(-x), b)
#elif OP == TP_OP_FDIVIDEF
#define TP_STEP(x, y) x = __fadd_rn(__fdividef(a, x), b)
#elif OP == TP_OP_DADD
#define TP_STEP(x, y) x = __dadd_rn(x, a)
#elif OP == TP_OP_DMUL
#define TP_STEP(x, y) x = __dmul_rn(x, a)
#elif OP == TP_OP_DFMA
#define TP_STEP(x, y) x = __fma_rn(x, a, b)
#elif OP == TP_OP_DRCP
#define TP_STEP(x, y) x = 1.0 / x
#elif OP == TP_OP_DSQRT
#define TP_STEP(x, y) x = __dadd_rn(sqrt(x), b)
#elif OP == TP_OP_DDIV
#define TP_STEP(x, y) x = a / x
#elif OP == TP_OP_IADD
#define TP_STEP(x, y) do { T t_ = x + y; y = x; x = t_; TP_OPAQUE(x); } while (0)
#elif OP == TP_OP_IMUL
#define TP_STEP(x, y) do { T t_ = x * y; y = x; x = t_; TP_OPAQUE(x); } while (0)
#elif OP == TP_OP_IDIV
#define TP_STEP(x, y) x = x + a / x
#elif OP == TP_OP_IMOD
#define TP_STEP(x, y) x = x + a % x + 1
#elif OP == TP_OP_SHF
#define TP_STEP(x, y) do { x = __funnelshift_l(x, x, a); TP_OPAQUE(x); } while (0)
#elif OP == TP_OP_ISETP
#if UNROLL != 16
#error "the compare chain is written for UNROLL=16"
#endif
#define TP_SETP(k) "setp.lt.xor.u32 q, %" #k ", %17, q;\n\t"
#else
#error "unknown OP"
#endif

// x0: TP_SEEDS start values (chain c of thread t starts at x0[(t*CHAINS+c) % TP_SEEDS]);
// prm: a, b, then (ISETP only) UNROLL compare bounds and CHAINS offsets; out: CHAINS values per thread.
extern "C" __global__ void __launch_bounds__(256) tp_arith(const T *__restrict__ x0, const T *__restrict__ prm,
                                                          T *__restrict__ out, unsigned long long *__restrict__ st,
                                                          int iters)
{
    const unsigned tid = blockIdx.x * blockDim.x + threadIdx.x;
#if OP == TP_OP_ISETP
    // Each chain is a predicate flipped by every compare that holds
    // (setp.lt.xor: ISETP with an XOR of the incoming predicate), so the
    // result is the parity of the true compares, which the host counts.
    // The predicate lives in one asm block per chain and iteration: C would
    // let the compiler share compares between chains or turn them into
    // integer selects. Chain c compares v[u] < i + w[c]; the bounds and
    // offsets come from the host.
    unsigned v[16], w[CHAINS], r[CHAINS];
#pragma unroll
    for (int u = 0; u < 16; u++)
        v[u] = prm[2 + u];
#pragma unroll
    for (int c = 0; c < CHAINS; c++) {
        w[c] = prm[2 + 16 + c];
        r[c] = x0[(tid * CHAINS + c) % TP_SEEDS] & 1u;
    }
    TP_STAMP_BEGIN
    for (int i = 0; i < iters; i++) {
#pragma unroll
        for (int c = 0; c < CHAINS; c++) {
            const unsigned lhs = (unsigned)i + w[c];
            asm volatile("{\n\t.reg .pred q;\n\t"
                         "setp.ne.u32 q, %0, 0;\n\t"
                         TP_SETP(1) TP_SETP(2) TP_SETP(3) TP_SETP(4) TP_SETP(5) TP_SETP(6) TP_SETP(7) TP_SETP(8)
                         TP_SETP(9) TP_SETP(10) TP_SETP(11) TP_SETP(12) TP_SETP(13) TP_SETP(14) TP_SETP(15) TP_SETP(16)
                         "selp.u32 %0, 1, 0, q;\n\t}"
                         : "+r"(r[c])
                         : "r"(v[0]), "r"(v[1]), "r"(v[2]), "r"(v[3]), "r"(v[4]), "r"(v[5]), "r"(v[6]), "r"(v[7]),
                           "r"(v[8]), "r"(v[9]), "r"(v[10]), "r"(v[11]), "r"(v[12]), "r"(v[13]), "r"(v[14]),
                           "r"(v[15]), "r"(lhs));
        }
    }
    TP_STAMP_END(st)
#pragma unroll
    for (int c = 0; c < CHAINS; c++)
        out[tid * CHAINS + c] = r[c];
#else
    const T a = prm[0], b = prm[1];
    T x[CHAINS], y[CHAINS];
#pragma unroll
    for (int c = 0; c < CHAINS; c++) {
        x[c] = x0[(tid * CHAINS + c) % TP_SEEDS];
        y[c] = b;
    }
    TP_STAMP_BEGIN
    for (int i = 0; i < iters; i++) {
#pragma unroll
        for (int u = 0; u < UNROLL; u++) {
#pragma unroll
            for (int c = 0; c < CHAINS; c++)
                TP_STEP(x[c], y[c]);
        }
    }
    TP_STAMP_END(st)
#pragma unroll
    for (int c = 0; c < CHAINS; c++) {
        (void)a;
        (void)y[c];
        out[tid * CHAINS + c] = x[c];
    }
#endif
}

#elif TP_KERNEL == 2

// Shared memory: a window of TP_ROWS rows of 32 words slides down the array
// one row per iteration, so no load is loop-invariant; lane l reads row
// l % ways and bank l / ways of it, so each bank that is hit holds `ways`
// distinct words (an n-way conflict); ways = 0: every lane reads word 0.
#define TP_ROWS 64
#define TP_SMEM_WORDS ((TP_ROWS + UNROLL + 32) * 32)

extern "C" __global__ void __launch_bounds__(256) tp_smem(const unsigned *__restrict__ fill, unsigned *__restrict__ out,
                                                         unsigned long long *__restrict__ st, int iters, int ways)
{
    __shared__ unsigned s[TP_SMEM_WORDS];
    for (int i = threadIdx.x; i < TP_SMEM_WORDS; i += blockDim.x)
        s[i] = fill[i];
    const unsigned lane = threadIdx.x & 31u;
    const unsigned off = ways ? (lane % (unsigned)ways) * 32u + lane / (unsigned)ways : 0u;
    unsigned acc = 0;
    TP_STAMP_BEGIN
    for (int i = 0; i < iters; i++) {
        const unsigned *w = s + ((unsigned)i % TP_ROWS) * 32u + off;
#pragma unroll
        for (int u = 0; u < UNROLL; u++)
            acc += w[u * 32];
    }
    TP_STAMP_END(st)
    out[blockIdx.x * blockDim.x + threadIdx.x] = acc;
}

#elif TP_KERNEL == 3

// Constant memory: lane bases come from the host (all equal, or one per
// lane); each load's index is base + (i * UNROLL) % 256 + u, so the warp
// reads one address per load or 32 different ones.
#define TP_CONST_WORDS (256 + UNROLL + 32)
__constant__ unsigned tp_const_tab[TP_CONST_WORDS];

extern "C" __global__ void __launch_bounds__(256) tp_const(const unsigned *__restrict__ base, unsigned *__restrict__ out,
                                                          unsigned long long *__restrict__ st, int iters)
{
    const unsigned b = base[threadIdx.x & 31u];
    unsigned acc = 0;
    TP_STAMP_BEGIN
    for (int i = 0; i < iters; i++) {
        const unsigned *cp = tp_const_tab + b + ((unsigned)i * UNROLL) % 256u;
#pragma unroll
        for (int u = 0; u < UNROLL; u++)
            acc += cp[u];
    }
    TP_STAMP_END(st)
    out[blockIdx.x * blockDim.x + threadIdx.x] = acc;
}

#else
#error "TP_KERNEL must be 1, 2 or 3"
#endif
