// camp_walk.h - the address patterns of camp_read and camp_write and the
// references their verification uses (camping.cu), shared by the kernels
// and the host test that runs them for every warp and lane
// (tests/unit/test_camping_kernels.c). There is one copy: cmake/embed.cmake
// pastes this file into camping.cu where it is included. Keep it to the
// common subset of C and CUDA C++ (pointers, no references).
//
// The includer defines WIDTH (bytes per lane and access; the host test
// makes it a variable).
#ifndef GB_CAMP_WALK_H
#define GB_CAMP_WALK_H

#ifndef GB_HD
#if defined(__CUDACC__) || defined(__CUDACC_RTC__)
#define GB_HD __device__ __forceinline__
#else
#define GB_HD static inline
#endif
#endif

#define CAMP_LINE 128u          // bytes per L2 line

// Bytes one warp-level request covers, and the 64-byte half-lines in it.
#define REQ (32u * WIDTH)
#define HALVES (REQ / 64u)

// ---- the address patterns of camp_read and camp_write ----
//
// Request r of a launch (r = i * G + g for iteration i of global warp g,
// G warps in the grid) is chunk q = q0 + r of a cycle of nq chunks:
//   cls 0, rows:    chunk q % nq at byte (q % nq) * REQ; nq a power of two.
//                   Concurrent warps read neighbouring chunks: spread.
//   cls 1, columns: chunk q' = q % nq of a matrix of 2^rows_log2 rows of
//                   `pitch` bytes, in column order: row q' % rows, column
//                   q' / rows, byte row * pitch + column * REQ. Concurrent
//                   warps are `pitch` bytes apart (the classic camping pattern).
//   cls 2, lines:   a table of `lines` 128-byte lines (a power of two, at
//                   least 4), as 2*lines half-lines of 64 bytes; request q
//                   covers half-lines q*HALVES .. q*HALVES+HALVES-1, modulo
//                   2*lines. All warps cycle over the same few lines.
// Lane l accesses WIDTH bytes at byte l*WIDTH of its request.
struct camp_geom {
    unsigned long long q0;      // first chunk of this launch
    unsigned long long nq;      // chunks in the cycle
    unsigned long long total;   // requests in this launch
    unsigned long long pitch;   // cls 1: bytes per row
    unsigned int rows_log2;     // cls 1: log2(rows)
    unsigned int lines;         // cls 2: lines in the table
    unsigned int cls;
    unsigned int pad;
};

struct camp_walk {
    unsigned int q, step;   // cls 1: current chunk modulo nq, G modulo nq
};

// Byte offset of this lane's element for request r (r = g, g + G, ... in
// order: the walk of class 1 advances by G per call). Indices are 32-bit
// (the host keeps total and nq below 2^31); chunk and half-line indices wrap
// modulo powers of two, which 32-bit wrap-around preserves. s_lines: the
// line table (cls 2).
GB_HD unsigned long long camp_offset(const struct camp_geom *geo, struct camp_walk *w,
                                     const unsigned int *s_lines, unsigned int r, unsigned int lane)
{
    if (geo->cls == 0)
        return (unsigned long long)(((unsigned int)geo->q0 + r) & ((unsigned int)geo->nq - 1u)) * REQ +
               lane * WIDTH;
    if (geo->cls == 1) {
        unsigned int q = w->q;
#ifdef GB_MUTANT_CAMP_COLUMNS   // a planted bug for tests/device/kernel_mutants.sh: skips a chunk
        w->q += w->step + 1u;
#else
        w->q += w->step;
#endif
        if (w->q >= (unsigned int)geo->nq)
            w->q -= (unsigned int)geo->nq;
        unsigned int row = q & ((1u << geo->rows_log2) - 1u), col = q >> geo->rows_log2;
        return (unsigned long long)row * geo->pitch + (unsigned long long)col * REQ + lane * WIDTH;
    }
    unsigned int h = (((unsigned int)geo->q0 + r) * HALVES + (lane * WIDTH) / 64u) & (2u * geo->lines - 1u);
    return (unsigned long long)s_lines[h >> 1] * CAMP_LINE + (h & 1u) * 64u + ((lane * WIDTH) & 63u);
}

// The class-1 walk of global warp g of G.
GB_HD void camp_walk_start(const struct camp_geom *geo, struct camp_walk *w, unsigned int g, unsigned int G)
{
    w->q = (unsigned int)((geo->q0 + g) % geo->nq);
    w->step = (unsigned int)(G % geo->nq);
}

// This warp's requests: r = g, g + G, ... below geo->total.
GB_HD unsigned int camp_my_requests(const struct camp_geom *geo, unsigned int g, unsigned int G)
{
    unsigned int total = (unsigned int)geo->total;
    return g < total ? (total - g + G - 1u) / G : 0u;
}

// ---- references for verification (plain loops, no shared formula with the
// request enumeration above) ----

// Visits of chunk c (cycle position) in a launch that started at q0 and
// issued `total` requests over a cycle of nq chunks.
GB_HD unsigned long long camp_visits(unsigned long long c, unsigned long long q0, unsigned long long nq,
                                     unsigned long long total)
{
    unsigned long long d = (c + nq - q0 % nq) % nq;
    return total / nq + (d < total % nq ? 1ull : 0ull);
}

// The chunk (cycle position) that holds byte b, or ~0 when no chunk does.
GB_HD unsigned long long camp_chunk_of(unsigned long long b, const struct camp_geom *geo)
{
    if (geo->cls == 0) {
        unsigned long long c = b / REQ;
        return c < geo->nq ? c : ~0ull;
    }
    unsigned long long row = b / geo->pitch, col = (b % geo->pitch) / REQ;
    if (row >= (1ull << geo->rows_log2) || col >= geo->pitch / REQ)
        return ~0ull;
    return col * (1ull << geo->rows_log2) + row;
}

#endif
