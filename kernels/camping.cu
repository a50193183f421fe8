// camping.cu - partition camping: the CampProf micro-benchmarks and the
// validation applications, rebuilt for GPUs with a memory-side L2.
//
// -DWIDTH=2|4|8|16: bytes each thread moves per access in camp_read and
// camp_write (the applications ignore it).
//
// Every counted global access goes through the camp_ld*/camp_st* helpers:
// inline PTX marked volatile, so the compiler neither drops, merges nor
// hoists one, and the per-launch counts of warp-level requests the suite
// records (src/suites/camping_calc.c) are those of the source. Loads are
// ld.global.cg (cached in L2 only): every warp-level load reaches an L2
// slice, as every load reached a memory partition on the GPUs the method
// was made for.
//
// All entry points are compiled for 1024 threads and two blocks per SM
// (__launch_bounds__(1024, 2)): at most 32 registers per thread, so that the
// register file never limits the active warps per SM below 64; the suite
// pins the active warps with dynamic shared memory.

#ifndef WIDTH
#define WIDTH 4
#endif

#define CAMP_MAX_LINES 256      // entries of the line table
#define CAMP_BOUNDS __launch_bounds__(1024, 2)

// ---- counted global accesses ----

__device__ __forceinline__ unsigned short camp_ld16(const void *p)
{
    unsigned short v;
    asm volatile("ld.global.cg.u16 %0, [%1];" : "=h"(v) : "l"(p));
    return v;
}
__device__ __forceinline__ unsigned int camp_ld32(const void *p)
{
    unsigned int v;
    asm volatile("ld.global.cg.u32 %0, [%1];" : "=r"(v) : "l"(p));
    return v;
}
__device__ __forceinline__ uint2 camp_ld64(const void *p)
{
    uint2 v;
    asm volatile("ld.global.cg.v2.u32 {%0, %1}, [%2];" : "=r"(v.x), "=r"(v.y) : "l"(p));
    return v;
}
__device__ __forceinline__ uint4 camp_ld128(const void *p)
{
    uint4 v;
    asm volatile("ld.global.cg.v4.u32 {%0, %1, %2, %3}, [%4];"
                 : "=r"(v.x), "=r"(v.y), "=r"(v.z), "=r"(v.w) : "l"(p));
    return v;
}
__device__ __forceinline__ void camp_st16(void *p, unsigned short v)
{
    asm volatile("st.global.u16 [%0], %1;" : : "l"(p), "h"(v) : "memory");
}
__device__ __forceinline__ void camp_st32(void *p, unsigned int v)
{
    asm volatile("st.global.u32 [%0], %1;" : : "l"(p), "r"(v) : "memory");
}
__device__ __forceinline__ void camp_st64(void *p, unsigned long long v)
{
    asm volatile("st.global.u64 [%0], %1;" : : "l"(p), "l"(v) : "memory");
}
__device__ __forceinline__ void camp_st128(void *p, uint4 v)
{
    asm volatile("st.global.v4.u32 [%0], {%1, %2, %3, %4};"
                 : : "l"(p), "r"(v.x), "r"(v.y), "r"(v.z), "r"(v.w) : "memory");
}

// The verification launch records which SM ran each block (not counted:
// the timed launches pass smid == 0).
__device__ __forceinline__ void camp_note_sm(unsigned int *smid)
{
    if (smid && threadIdx.x == 0) {
        unsigned int id;
        asm volatile("mov.u32 %0, %%smid;" : "=r"(id));
        smid[blockIdx.x] = id;
    }
}

// The value a write stores at 32-bit word i (camp_pat_host in camping_calc.c
// is the same function): never 0 and never the poison word.
__device__ __forceinline__ unsigned int camp_pat(unsigned int seed, unsigned long long i)
{
    unsigned long long z = (i + 1ull) * 0x9E3779B97F4A7C15ull ^ ((unsigned long long)seed * 0xD1B54A32D192ED03ull);
    z ^= z >> 29;
    z *= 0xBF58476D1CE4E5B9ull;
    z ^= z >> 32;
    unsigned int w = (unsigned int)z;
    return (w == 0u || w == 0xDEADBEEFu) ? 0x2545F491u : w;
}

// ---- the access width ----

#if WIDTH == 2
typedef unsigned short T;
__device__ __forceinline__ T camp_ld(const char *p) { return camp_ld16(p); }
__device__ __forceinline__ void camp_st(char *p, T v) { camp_st16(p, v); }
__device__ __forceinline__ unsigned long long wsum(T v) { return v; }
__device__ __forceinline__ T wpat(unsigned int seed, unsigned long long byte)
{
    unsigned int w = camp_pat(seed, byte >> 2);
    return (unsigned short)((byte & 2) ? (w >> 16) : (w & 0xffffu));
}
#elif WIDTH == 4
typedef unsigned int T;
__device__ __forceinline__ T camp_ld(const char *p) { return camp_ld32(p); }
__device__ __forceinline__ void camp_st(char *p, T v) { camp_st32(p, v); }
__device__ __forceinline__ unsigned long long wsum(T v) { return v; }
__device__ __forceinline__ T wpat(unsigned int seed, unsigned long long byte) { return camp_pat(seed, byte >> 2); }
#elif WIDTH == 8
typedef uint2 T;
__device__ __forceinline__ T camp_ld(const char *p) { return camp_ld64(p); }
__device__ __forceinline__ void camp_st(char *p, T v)
{
    camp_st64(p, (unsigned long long)v.x | ((unsigned long long)v.y << 32));
}
__device__ __forceinline__ unsigned long long wsum(T v) { return (unsigned long long)v.x + v.y; }
__device__ __forceinline__ T wpat(unsigned int seed, unsigned long long byte)
{
    return make_uint2(camp_pat(seed, byte >> 2), camp_pat(seed, (byte >> 2) + 1));
}
#elif WIDTH == 16
typedef uint4 T;
__device__ __forceinline__ T camp_ld(const char *p) { return camp_ld128(p); }
__device__ __forceinline__ void camp_st(char *p, T v) { camp_st128(p, v); }
__device__ __forceinline__ unsigned long long wsum(T v)
{
    return (unsigned long long)v.x + v.y + (unsigned long long)v.z + v.w;
}
__device__ __forceinline__ T wpat(unsigned int seed, unsigned long long byte)
{
    unsigned long long w = byte >> 2;
    return make_uint4(camp_pat(seed, w), camp_pat(seed, w + 1), camp_pat(seed, w + 2), camp_pat(seed, w + 3));
}
#else
#error "WIDTH must be 2, 4, 8 or 16"
#endif

#include "camp_walk.h"   // REQ, camp_geom, camp_offset, the references (pasted in by cmake/embed.cmake)

// cls 2: line numbers (128-byte units from the buffer's start); set by the
// host with cuModuleGetGlobal before the launch.
__constant__ unsigned int camp_lines[CAMP_MAX_LINES];

// Sets up the walk of global warp g and, for cls 2, the block's copy of the
// line table in shared memory.
__device__ __forceinline__ void camp_begin(const camp_geom &geo, camp_walk &w, unsigned int *s_lines,
                                           unsigned int g, unsigned int G)
{
    if (geo.cls == 1)
        camp_walk_start(&geo, &w, g, G);
    if (geo.cls == 2) {
        for (unsigned int i = threadIdx.x; i < geo.lines; i += blockDim.x)
            s_lines[i] = camp_lines[i];
        __syncthreads();
    }
}

// One pass over this warp's requests, four at a time with no branch between
// them (so that four loads are in flight), then the rest one by one. CLS is a
// literal at each use, so each class gets its own loop.
#define CAMP_READ_LOOP(CLS)                                                                    \
    do {                                                                                       \
        camp_geom gc = geo;                                                                    \
        gc.cls = CLS;                                                                          \
        unsigned int r = g, i = 0;                                                       \
        for (; i + 4u <= n_my; i += 4u) {                                                  \
            T v0 = camp_ld(base + camp_offset(&gc, &w, s_lines, r, lane));                       \
            T v1 = camp_ld(base + camp_offset(&gc, &w, s_lines, r + G, lane));                   \
            T v2 = camp_ld(base + camp_offset(&gc, &w, s_lines, r + 2u * G, lane));            \
            T v3 = camp_ld(base + camp_offset(&gc, &w, s_lines, r + 3u * G, lane));            \
            acc += wsum(v0) + wsum(v1) + wsum(v2) + wsum(v3);                                  \
            r += 4u * G;                                                                     \
        }                                                                                      \
        for (; i < n_my; i++, r += G)                                                          \
            acc += wsum(camp_ld(base + camp_offset(&gc, &w, s_lines, r, lane)));                 \
    } while (0)

#define CAMP_WRITE_LOOP(CLS)                                                                   \
    do {                                                                                       \
        camp_geom gc = geo;                                                                    \
        gc.cls = CLS;                                                                          \
        unsigned int r = g, i = 0;                                                       \
        for (; i + 4u <= n_my; i += 4u) {                                                  \
            unsigned long long o0 = camp_offset(&gc, &w, s_lines, r, lane);                      \
            unsigned long long o1 = camp_offset(&gc, &w, s_lines, r + G, lane);                  \
            unsigned long long o2 = camp_offset(&gc, &w, s_lines, r + 2u * G, lane);           \
            unsigned long long o3 = camp_offset(&gc, &w, s_lines, r + 3u * G, lane);           \
            camp_st(base + o0, wpat(seed, o0));                                                \
            camp_st(base + o1, wpat(seed, o1));                                                \
            camp_st(base + o2, wpat(seed, o2));                                                \
            camp_st(base + o3, wpat(seed, o3));                                                \
            r += 4u * G;                                                                     \
        }                                                                                      \
        for (; i < n_my; i++, r += G) {                                                        \
            unsigned long long o = camp_offset(&gc, &w, s_lines, r, lane);                       \
            camp_st(base + o, wpat(seed, o));                                                  \
        }                                                                                      \
    } while (0)

// Figures 4/5 of the CampProf paper: every warp issues a fixed number of
// requests (geo.total / G) and sums what it read into one checksum per
// thread.
extern "C" __global__ void CAMP_BOUNDS camp_read(const char *base, camp_geom geo,
                                                 unsigned long long *sums, unsigned int *smid)
{
    __shared__ unsigned int s_lines[CAMP_MAX_LINES];
    camp_note_sm(smid);
    const unsigned int lane = threadIdx.x & 31u;
    const unsigned int G = gridDim.x * (blockDim.x >> 5);
    const unsigned int g = blockIdx.x * (blockDim.x >> 5) + (threadIdx.x >> 5);
    const unsigned int n_my = camp_my_requests(&geo, g, G);
    camp_walk w = {0, 0};
    camp_begin(geo, w, s_lines, g, G);
    unsigned long long acc = 0;
    if (geo.cls == 0)
        CAMP_READ_LOOP(0);
    else if (geo.cls == 1)
        CAMP_READ_LOOP(1);
    else
        CAMP_READ_LOOP(2);
    camp_st64(sums + (unsigned long long)g * 32u + lane, acc);
}

// The write micro-benchmark: the same requests, storing camp_pat of the
// address (the same value whichever warp writes a word).
extern "C" __global__ void CAMP_BOUNDS camp_write(char *base, camp_geom geo, unsigned int seed,
                                                  unsigned int *smid)
{
    __shared__ unsigned int s_lines[CAMP_MAX_LINES];
    camp_note_sm(smid);
    const unsigned int lane = threadIdx.x & 31u;
    const unsigned int G = gridDim.x * (blockDim.x >> 5);
    const unsigned int g = blockIdx.x * (blockDim.x >> 5) + (threadIdx.x >> 5);
    const unsigned int n_my = camp_my_requests(&geo, g, G);
    camp_walk w = {0, 0};
    camp_begin(geo, w, s_lines, g, G);
    if (geo.cls == 0)
        CAMP_WRITE_LOOP(0);
    else if (geo.cls == 1)
        CAMP_WRITE_LOOP(1);
    else
        CAMP_WRITE_LOOP(2);
}

// What camp_read's checksums must add up to for classes 0 and 1: every
// 32-bit word of the buffer times the visits of its chunk (16-bit reads
// add the two halves of a word separately).
extern "C" __global__ void camp_ref_read(const unsigned int *buf, unsigned long long n_words, camp_geom geo,
                                         unsigned long long *out)
{
    unsigned long long s = 0;
    for (unsigned long long j = blockIdx.x * (unsigned long long)blockDim.x + threadIdx.x; j < n_words;
         j += (unsigned long long)gridDim.x * blockDim.x) {
        unsigned long long c = camp_chunk_of(j * 4ull, &geo);
        if (c == ~0ull)
            continue;
        unsigned int v = buf[j];
        unsigned long long val = WIDTH == 2 ? (unsigned long long)(v & 0xffffu) + (v >> 16) : v;
        s += val * camp_visits(c, geo.q0, geo.nq, geo.total);
    }
    atomicAdd(out, s);
}

// Counts the words of a camp_write buffer (classes 0 and 1) that differ
// from what they must hold: the pattern where a chunk was written, the
// poison word elsewhere.
extern "C" __global__ void camp_check_write(const unsigned int *buf, unsigned long long n_words, camp_geom geo,
                                            unsigned int seed, unsigned long long *bad)
{
    unsigned long long b = 0;
    for (unsigned long long j = blockIdx.x * (unsigned long long)blockDim.x + threadIdx.x; j < n_words;
         j += (unsigned long long)gridDim.x * blockDim.x) {
        unsigned long long c = camp_chunk_of(j * 4ull, &geo);
        unsigned int want = (c != ~0ull && camp_visits(c, geo.q0, geo.nq, geo.total)) ? camp_pat(seed, j)
                                                                                       : 0xDEADBEEFu;
        b += buf[j] != want;
    }
    if (b)
        atomicAdd(bad, b);
}

// Sum of 64-bit words (the read checksums).
extern "C" __global__ void camp_sum_u64(const unsigned long long *p, unsigned long long n, unsigned long long *out)
{
    unsigned long long s = 0;
    for (unsigned long long i = blockIdx.x * (unsigned long long)blockDim.x + threadIdx.x; i < n;
         i += (unsigned long long)gridDim.x * blockDim.x)
        s += p[i];
    atomicAdd(out, s);
}

// ---- the slice-conflict probe of the discovery ----

// Every warp of the grid loads one 128-byte line per request (4 bytes per
// lane, cached in L2 only) from a set of k lines: global warp g at request
// i loads line lines[(g + i) % k]. With k = 2 (the anchor and a candidate)
// this is the pair test: two lines of one L2 slice queue at that slice, two
// lines of two slices are served in parallel. With the k lines of a set it
// times the set itself. The sum only keeps the loads honest.
extern "C" __global__ void CAMP_BOUNDS camp_probe(const char *base, const unsigned int *lines, unsigned int k,
                                                  unsigned int iters, unsigned long long *sink)
{
    const unsigned int lane = threadIdx.x & 31u;
    const unsigned int g = blockIdx.x * (blockDim.x >> 5) + (threadIdx.x >> 5);
    unsigned int j = g % k, acc = 0;
    for (unsigned int i = 0; i < iters; i++) {
        acc += camp_ld32(base + (unsigned long long)__ldg(lines + j) * CAMP_LINE + lane * 4u);
        j = j + 1u == k ? 0u : j + 1u;
    }
    if (acc == 0x9E3779B9u)
        sink[0] = acc;
}

// ---- the validation applications ----

// GEM-like electrostatics (an n-body class kernel): each thread owns one
// surface point and sums q / sqrt(r^2 + eps) over every component, reading
// the components' coordinates in the same order as every other thread, so
// all warps queue behind the same line at first and then pipeline (the
// CampProf paper's Figure 7). Points are handled a warp (32 points) at a
// time in a grid-stride loop; n_surf is a multiple of 32.
extern "C" __global__ void CAMP_BOUNDS camp_gem(const float4 *surf, const float4 *comp, unsigned int n_surf,
                                                unsigned int n_comp, float *phi, unsigned int *smid)
{
    camp_note_sm(smid);
    const unsigned int lane = threadIdx.x & 31u;
    const unsigned int G = gridDim.x * (blockDim.x >> 5);
    const unsigned int g = blockIdx.x * (blockDim.x >> 5) + (threadIdx.x >> 5);
    for (unsigned int s0 = g * 32u; s0 < n_surf; s0 += G * 32u) {
        uint4 pv = camp_ld128(surf + s0 + lane);
        float px = __uint_as_float(pv.x), py = __uint_as_float(pv.y), pz = __uint_as_float(pv.z);
        float acc = 0.0f;
#pragma unroll 4
        for (unsigned int j = 0; j < n_comp; j++) {
            uint4 c = camp_ld128(comp + j);
            float dx = __uint_as_float(c.x) - px, dy = __uint_as_float(c.y) - py, dz = __uint_as_float(c.z) - pz;
            acc += __uint_as_float(c.w) * rsqrtf(dx * dx + dy * dy + dz * dz + 1e-3f);
        }
        camp_st32(phi + s0 + lane, __float_as_uint(acc));
    }
}

// Clique-counter-like irregular graph kernel: for every vertex v (one warp
// per vertex, cyclically) and every neighbour u > v, count the common
// neighbours w > u of v and u (3-cliques), from adjacency lists in CSR form
// (row[n + 1], col[m], each list sorted). Lists are read 32 entries at a
// time; every loop is uniform across the warp, so the number of warp-level
// requests is a function of the degrees alone.
extern "C" __global__ void CAMP_BOUNDS camp_clique(const unsigned int *row, const unsigned int *col, unsigned int n,
                                                   unsigned int *count, unsigned int *smid)
{
    camp_note_sm(smid);
    const unsigned int lane = threadIdx.x & 31u;
    const unsigned int G = gridDim.x * (blockDim.x >> 5);
    const unsigned int g = blockIdx.x * (blockDim.x >> 5) + (threadIdx.x >> 5);
    for (unsigned int v = g; v < n; v += G) {
        unsigned int vb = camp_ld32(row + v), ve = camp_ld32(row + v + 1);
        unsigned int dv = ve - vb, cnt = 0;
        for (unsigned int c0 = 0; c0 < dv; c0 += 32u) {
            unsigned int x = 0xffffffffu;
            if (c0 + lane < dv)
                x = camp_ld32(col + vb + c0 + lane);
            unsigned int nk = dv - c0 < 32u ? dv - c0 : 32u;
            for (unsigned int k = 0; k < nk; k++) {
                unsigned int u = __shfl_sync(0xffffffffu, x, k);
                if (u <= v)
                    continue;
                unsigned int ub = camp_ld32(row + u), ue = camp_ld32(row + u + 1);
                unsigned int du = ue - ub;
                for (unsigned int a0 = 0; a0 < dv; a0 += 32u) {
                    unsigned int a = 0u;
                    if (a0 + lane < dv)
                        a = camp_ld32(col + vb + a0 + lane);
                    for (unsigned int b0 = 0; b0 < du; b0 += 32u) {
                        // The chunk of N(u) across the lanes, ascending, padded
                        // with ~0 (above every vertex): each lane looks its a
                        // up by binary search over the lanes.
                        unsigned int b = 0xffffffffu;
                        if (b0 + lane < du)
                            b = camp_ld32(col + ub + b0 + lane);
                        unsigned int pos = 0;
                        for (unsigned int step = 16u; step > 0u; step >>= 1)
#ifdef GB_MUTANT_CLIQUE   // a planted bug for tests/device/kernel_mutants.sh: overshoots a
                            if (__shfl_sync(0xffffffffu, b, pos + step - 1u) <= a)
#else
                            if (__shfl_sync(0xffffffffu, b, pos + step - 1u) < a)
#endif
                                pos += step;
                        unsigned int found = __shfl_sync(0xffffffffu, b, pos) == a;
                        cnt += (a0 + lane < dv && a > u && found) ? 1u : 0u;
                    }
                }
            }
        }
        for (int o = 16; o > 0; o >>= 1)
            cnt += __shfl_down_sync(0xffffffffu, cnt, o);
        if (lane == 0)
            camp_st32(count + v, cnt);
    }
}

// Matrix transpose of the CUDA SDK (32x32 tiles through shared memory), one
// tile per block at a time in a grid-stride loop; the block's warps share the
// tile's 32 rows. diag = 0: tiles in row order (transposeCoalesced); diag = 1:
// the diagonal block order of transposeDiagonal. n is a multiple of 32. The
// whole transpose is done `passes` times per launch (the same output each
// time), so that a matrix the L2 holds still makes a launch long enough to time.
__device__ __forceinline__ void camp_transpose(const unsigned int *in, unsigned int *out, unsigned int n,
                                               unsigned int passes, int diag, unsigned int *smid)
{
    __shared__ unsigned int tile[32][33];
    camp_note_sm(smid);
    const unsigned int lane = threadIdx.x & 31u, warp = threadIdx.x >> 5, nw = blockDim.x >> 5;
    const unsigned int nt = n / 32u, tiles = nt * nt;
    for (unsigned int tp = blockIdx.x; tp < tiles * passes; tp += gridDim.x) {
        unsigned int t = tp % tiles, lx = t % nt, ly = t / nt;
        unsigned int bx = diag ? (lx + ly) % nt : lx, by = diag ? lx : ly;
        const unsigned int *src = in + (unsigned long long)(by * 32u) * n + bx * 32u + lane;
        unsigned int r = warp;
        // Four rows in flight at a time, then the rest.
        for (; r + 3u * nw < 32u; r += 4u * nw) {
            unsigned int v0 = camp_ld32(src + (unsigned long long)r * n);
            unsigned int v1 = camp_ld32(src + (unsigned long long)(r + nw) * n);
            unsigned int v2 = camp_ld32(src + (unsigned long long)(r + 2u * nw) * n);
            unsigned int v3 = camp_ld32(src + (unsigned long long)(r + 3u * nw) * n);
            tile[r][lane] = v0;
            tile[r + nw][lane] = v1;
            tile[r + 2u * nw][lane] = v2;
            tile[r + 3u * nw][lane] = v3;
        }
        for (; r < 32u; r += nw)
            tile[r][lane] = camp_ld32(src + (unsigned long long)r * n);
        __syncthreads();
        for (unsigned int r = warp; r < 32u; r += nw)
            camp_st32(out + (unsigned long long)(bx * 32u + r) * n + by * 32u + lane, tile[lane][r]);
        __syncthreads();
    }
}

extern "C" __global__ void CAMP_BOUNDS camp_transpose_coalesced(const unsigned int *in, unsigned int *out,
                                                                unsigned int n, unsigned int passes,
                                                                unsigned int *smid)
{
    camp_transpose(in, out, n, passes, 0, smid);
}

extern "C" __global__ void CAMP_BOUNDS camp_transpose_diagonal(const unsigned int *in, unsigned int *out,
                                                               unsigned int n, unsigned int passes,
                                                               unsigned int *smid)
{
    camp_transpose(in, out, n, passes, 1, smid);
}

// Counts the elements of out that are not the transpose of in.
extern "C" __global__ void camp_check_transpose(const unsigned int *in, const unsigned int *out, unsigned int n,
                                                unsigned long long *bad)
{
    unsigned long long b = 0, nn = (unsigned long long)n * n;
    for (unsigned long long i = blockIdx.x * (unsigned long long)blockDim.x + threadIdx.x; i < nn;
         i += (unsigned long long)gridDim.x * blockDim.x) {
        unsigned long long y = i / n, x = i % n;
        b += out[i] != in[x * n + y];
    }
    if (b)
        atomicAdd(bad, b);
}
