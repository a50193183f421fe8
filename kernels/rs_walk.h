// rs_walk.h - GF(2^8) arithmetic and the table walk of the bank-conflict
// kernel (bank_every_thread in patterns.cu), shared by the kernel and the
// host test that follows it lane by lane (tests/unit/test_patterns_walk.c).
// There is one copy: cmake/embed.cmake pastes this file into patterns.cu
// where it is included, and the host test compiles it with a C compiler.
// Keep it to the common subset of C and CUDA C++ (no references, no
// templates); GB_HD marks every function for both compilers.
#ifndef GB_RS_WALK_H
#define GB_RS_WALK_H

#if defined(__CUDACC__) || defined(__CUDACC_RTC__)
#define GB_HD __device__ __forceinline__
#define GB_UNROLL _Pragma("unroll")
#else
#define GB_HD static inline
#define GB_UNROLL
#endif

#define RS_N 1024
#define RS_ROWS (RS_N / 32)

// Branch-free, so that lanes with different operands never diverge.
GB_HD unsigned int gf_xtime(unsigned int v)
{
    return ((v << 1) ^ (0x11du & (0u - ((v >> 7) & 1u)))) & 0xffu;
}

GB_HD unsigned int gf_mul(unsigned int a, unsigned int b)
{
    unsigned int r = 0;
    GB_UNROLL
    for (int i = 0; i < 8; i++) {
        r ^= a & (0u - ((b >> i) & 1u));
        a = gf_xtime(a);
    }
    return r;
}

GB_HD unsigned int gf_pow_alpha(unsigned int e)
{
    unsigned int r = 1, base = 2;
    e %= 255u;
    GB_UNROLL
    for (int i = 0; i < 8; i++) {
        unsigned int m = gf_mul(r, base);
        r = ((e >> i) & 1u) ? m : r;
        base = gf_mul(base, base);
    }
    return r;
}

// One lane's position in the walk: it writes value v at (row, col); rb is
// alpha^(row*32), so a wrap inside a row is a select and a new row one
// multiplication, without divergent branches.
struct rs_walk {
    unsigned int row, col, rb, v, a32, awrap;
};

// Lane `lane` starts at row lane / (32/ways), column ways * (lane % (32/ways)).
GB_HD void rs_walk_begin(struct rs_walk *w, unsigned int lane, unsigned int ways)
{
    const unsigned int m = 32u / ways;
    w->row = lane / m;
    w->col = ways * (lane % m);
    w->rb = gf_pow_alpha(w->row * 32u);
    w->v = gf_pow_alpha(w->row * 32u + w->col);
    w->a32 = gf_pow_alpha(32u);
    w->awrap = gf_pow_alpha(255u * 4u - (RS_N - 32u));   // alpha^-(RS_N - 32)
}

// The word of the table this lane writes now (rows `stride` words apart).
GB_HD unsigned int rs_walk_slot(const struct rs_walk *w, unsigned int stride)
{
    return w->row * stride + w->col;
}

// The next column of the row, wrapping from 31 to 0.
GB_HD void rs_walk_next(struct rs_walk *w)
{
    unsigned int next = gf_xtime(w->v);
#ifdef GB_MUTANT_RS_WALK   // a planted bug for tests/device/kernel_mutants.sh: wraps a column early
    w->v = w->col == 30u ? w->rb : next;
#else
    w->v = w->col == 31u ? w->rb : next;
#endif
    w->col = (w->col + 1u) & 31u;
}

// After 32 steps: the next row, wrapping from the last to the first.
GB_HD void rs_walk_next_row(struct rs_walk *w)
{
    unsigned int mul = w->row == RS_ROWS - 1u ? w->awrap : w->a32;
    w->row = w->row == RS_ROWS - 1u ? 0u : w->row + 1u;
    w->rb = gf_mul(w->rb, mul);
    w->v = gf_mul(w->v, mul);
}

#endif
