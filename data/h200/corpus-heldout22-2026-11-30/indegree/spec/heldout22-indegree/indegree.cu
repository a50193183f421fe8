/* indegree.cu - the in-degree of every vertex of a graph from its edge
 * list, by global atomics:
 *     deg[vertex(dst[e])] += 1,  0 <= e < count
 * deg holds nvert unsigned counters (nvert a power of two), added to (the
 * caller zeroes them): integer additions, so the order of the atomics
 * changes nothing. dst holds count unsigned 32-bit words, one per edge,
 * each standing for the edge's destination; the destination is made from
 * the word by a fixed map (dist), as a graph generator makes it from its
 * random draws:
 *   0: uniform over the nvert vertices: the word times nvert, its high 32
 *      bits (__umulhi);
 *   1: a power law: the word's octave o = word x LOGV / 2^32 (0 to
 *      LOGV - 1, LOGV = log2 nvert, each equally likely), then a vertex
 *      of that octave, 2^o - 1 + (word mod 2^o): vertex 0 takes 1/LOGV of
 *      the edges, vertices 1 and 2 half that each, and so on (about 1/v,
 *      as Zipf's law with exponent 1), so that a few hub vertices take a
 *      large share of the atomics; vertex nvert - 1 is never reached.
 *
 * A thread takes ept consecutive edges (ept 1: a word per thread, the
 * warp's load 128 contiguous bytes; ept a multiple of 4: ept / 4 uint4,
 * a warp's load spread over 32 x 4 ept bytes), all loaded and mapped
 * before any atomic, then adds 1 to each edge's destination by an
 * atomicAdd. An edge past the end (a partial last block, or a group of 4
 * that runs past it, read edge by edge) is not counted.
 *
 * Compiled with -Dblock_size_x=T -Dept=E -Ddist=D -Dnvert=V -Dnedge=N. */

#if dist != 0 && dist != 1
#error "dist is 0 or 1"
#endif
#if ept < 1 || (ept > 1 && ept % 4 != 0)
#error "ept is 1 or a multiple of 4"
#endif
#if nvert < 2 || nvert > 1073741824 || (nvert & (nvert - 1)) != 0
#error "nvert is a power of two, 2 to 2^30"
#endif

/* log2 of nvert, a constant of the compile */
__host__ __device__ constexpr unsigned int log2_of(unsigned int v)
{
    return v > 1 ? 1 + log2_of(v / 2) : 0;
}
#define LOGV log2_of(nvert)

/* The reference: one edge per thread, its destination worked out in
 * 64-bit arithmetic by divisions and remainders, one atomicAdd. */
extern "C" __global__ void indegree_reference(unsigned int *deg, const unsigned int *dst, int count)
{
    const long e = (long)blockIdx.x * blockDim.x + threadIdx.x;
    if (e >= count)
        return;
    const unsigned long long w = dst[e];
    const unsigned long long two32 = 4294967296ull;
    unsigned long long v;
    if (dist == 0) {
        v = w * (unsigned long long)nvert / two32;
    } else {
        unsigned long long levels = 0;
        for (unsigned long long m = nvert; m > 1; m /= 2)
            levels++;
        const unsigned long long o = w * levels / two32;
        unsigned long long first = 1;
        for (unsigned long long j = 0; j < o; j++)
            first *= 2;
        v = first - 1 + w % first;
    }
    atomicAdd(deg + v, 1u);
}

__device__ __forceinline__ unsigned int vertex_of(unsigned int w)
{
#if dist == 0
    return __umulhi(w, nvert);
#else
    const unsigned int o = __umulhi(w, LOGV);
    const unsigned int span = 1u << o;
    return span - 1 + (w & (span - 1));
#endif
}

extern "C" __global__ void __launch_bounds__(block_size_x)
    indegree(unsigned int *__restrict__ deg, const unsigned int *__restrict__ dst, int count)
{
    /* the destinations of the thread's edges; nvert for an edge past the end */
    unsigned int v[ept];
    const long e0 = ((long)blockIdx.x * block_size_x + threadIdx.x) * ept;
#if ept == 1
    v[0] = e0 < count ? vertex_of(__ldg(dst + e0)) : nvert;
#else
#pragma unroll
    for (int g = 0; g < ept / 4; g++) {
        const long e = e0 + 4 * g;
        if (e + 4 <= count) {
            const uint4 w = __ldg((const uint4 *)(dst + e));
            v[4 * g] = vertex_of(w.x);
            v[4 * g + 1] = vertex_of(w.y);
            v[4 * g + 2] = vertex_of(w.z);
            v[4 * g + 3] = vertex_of(w.w);
        } else {
#pragma unroll
            for (int j = 0; j < 4; j++)
                v[4 * g + j] = e + j < count ? vertex_of(__ldg(dst + e + j)) : nvert;
        }
    }
#endif
#pragma unroll
    for (int j = 0; j < ept; j++)
        if (v[j] < nvert)
            atomicAdd(deg + v[j], 1u);
}
