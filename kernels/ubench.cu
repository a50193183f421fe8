// ubench.cu - the uBench micro-kernels (Torres, Gonzalez-Escribano, Llanos,
// "uBench: exposing the impact of CUDA block geometry in terms of
// performance", J. Supercomputing 2013, sections 4.1.4 and 4.2), Cannon's
// matrix multiply (section 5.5), and the check that verifies them.
//
// Every kernel works on one array `a` of n x n 32-bit integers, row-major,
// launched with one thread per element: a grid of ceil(n/cols) x
// ceil(n/rows) blocks of cols x rows threads (blockDim.x = cols,
// blockDim.y = rows). The block shape is a launch parameter, never a
// define, so one module serves every shape. When a block dimension does
// not divide n, the threads past the matrix edge return at once (the
// paper's "divergent branch" alternative to padding, section 4.1.2).
//
// The kernels that read (uBench-8 to 14) read and write the same array,
// as the paper does. Each element holds an input value in its low 16 bits;
// a kernel sums input values and stores the sum (mod 2^16) in the high 16
// bits of its element. A thread may read an element while another writes
// it, but the low half never changes, so the result is exact and the same
// on every launch.

#define UB_OVERLOAD 1000u   // iterations of the overload loop (uBench-3, 4, 7, 10, 11)
#define LO(x) ((x) & 0xFFFFu)

// The overload: x = x*x + k, a dependent chain of integer multiply-adds the
// compiler cannot shorten (src/suites/ubench.c mirrors it for references).
__device__ __forceinline__ unsigned int ub_overload(unsigned int x, unsigned int k)
{
#pragma unroll 4
    for (unsigned int i = 0; i < UB_OVERLOAD; i++)
        x = x * x + k;
    return x;
}

// Pattern I coordinates.
__device__ __forceinline__ unsigned int ub_row(void) { return blockIdx.y * blockDim.y + threadIdx.y; }
__device__ __forceinline__ unsigned int ub_col(void) { return blockIdx.x * blockDim.x + threadIdx.x; }

// Pattern II index: the block's place in the grid times the block size,
// plus the thread's place in the block.
__device__ __forceinline__ unsigned int ub_linear(void)
{
    return (blockIdx.y * gridDim.x + blockIdx.x) * (blockDim.x * blockDim.y) +
           threadIdx.y * blockDim.x + threadIdx.x;
}

__device__ __forceinline__ void ub_put_hi(unsigned int *a, unsigned int i, unsigned int s)
{
    a[i] = LO(a[i]) | (s << 16);
}

// uBench-0: no computation and no data access. The store is taken only in
// the verification launch (verify != 0), to prove the grid covers the matrix.
extern "C" __global__ void ubench0(unsigned int *a, unsigned int n, unsigned int value, int verify)
{
    if (verify) {
        unsigned int row = ub_row(), col = ub_col();
        if (row < n && col < n)
            a[row * n + col] = value;
    }
}

// uBench-1: a constant into the thread's element, pattern I.
extern "C" __global__ void ubench1(unsigned int *a, unsigned int n, unsigned int value)
{
    unsigned int row = ub_row(), col = ub_col();
    if (row < n && col < n)
        a[row * n + col] = value;
}

// uBench-2: a constant into the thread's element, pattern II.
extern "C" __global__ void ubench2(unsigned int *a, unsigned int n, unsigned int value)
{
    unsigned int i = ub_linear();
    if (i < n * n)
        a[i] = value;
}

// uBench-3: uBench-1 with the overload loop computing the value.
extern "C" __global__ void ubench3(unsigned int *a, unsigned int n, unsigned int seed, unsigned int k)
{
    unsigned int row = ub_row(), col = ub_col();
    if (row < n && col < n)
        a[row * n + col] = ub_overload(seed, k);
}

// uBench-4: uBench-2 with the overload loop computing the value.
extern "C" __global__ void ubench4(unsigned int *a, unsigned int n, unsigned int seed, unsigned int k)
{
    unsigned int i = ub_linear();
    if (i < n * n)
        a[i] = ub_overload(seed, k);
}

// uBench-5: pattern III. The thread's index in its block picks an element
// of the main diagonal; every block writes the same few segments. (When the
// block has more threads than the matrix has rows, the index wraps.)
extern "C" __global__ void ubench5(unsigned int *a, unsigned int n, unsigned int value)
{
    if (ub_row() >= n || ub_col() >= n)
        return;
    unsigned int t = threadIdx.y * blockDim.x + threadIdx.x;
    unsigned int d = t < n ? t : t % n;
    a[d * (n + 1)] = value;
}

// uBench-6: pattern IV. Only thread (0, 0) of each block writes, at its
// pattern I position (the block's corner).
extern "C" __global__ void ubench6(unsigned int *a, unsigned int n, unsigned int value)
{
    if (threadIdx.x == 0 && threadIdx.y == 0)
        a[ub_row() * n + ub_col()] = value;
}

// uBench-7: pattern V. Every thread writes a value computed by the overload
// loop into the first element.
extern "C" __global__ void ubench7(unsigned int *a, unsigned int n, unsigned int seed, unsigned int k)
{
    if (ub_row() >= n || ub_col() >= n)
        return;
    a[0] = ub_overload(seed, k);
}

// Pattern A: the sum of the column with the thread's global x.
__device__ __forceinline__ unsigned int ub_sum_col(const unsigned int *a, unsigned int n, unsigned int col)
{
    unsigned int s = 0;
    for (unsigned int k = 0; k < n; k++)
        s += LO(a[k * n + col]);
    return s;
}

// Pattern B: the sum of the row with the thread's global y.
__device__ __forceinline__ unsigned int ub_sum_row(const unsigned int *a, unsigned int n, unsigned int row)
{
    unsigned int s = 0;
    const unsigned int *r = a + row * n;
    for (unsigned int k = 0; k < n; k++)
        s += LO(r[k]);
    return s;
}

// uBench-8: pattern A read, pattern I write.
extern "C" __global__ void ubench8(unsigned int *a, unsigned int n)
{
    unsigned int row = ub_row(), col = ub_col();
    if (row >= n || col >= n)
        return;
    ub_put_hi(a, row * n + col, ub_sum_col(a, n, col));
}

// uBench-9: pattern B read, pattern I write.
extern "C" __global__ void ubench9(unsigned int *a, unsigned int n)
{
    unsigned int row = ub_row(), col = ub_col();
    if (row >= n || col >= n)
        return;
    ub_put_hi(a, row * n + col, ub_sum_row(a, n, row));
}

// uBench-10: uBench-8 with the overload loop on the sum read.
extern "C" __global__ void ubench10(unsigned int *a, unsigned int n, unsigned int k)
{
    unsigned int row = ub_row(), col = ub_col();
    if (row >= n || col >= n)
        return;
    ub_put_hi(a, row * n + col, ub_overload(ub_sum_col(a, n, col), k));
}

// uBench-11: uBench-9 with the overload loop on the sum read.
extern "C" __global__ void ubench11(unsigned int *a, unsigned int n, unsigned int k)
{
    unsigned int row = ub_row(), col = ub_col();
    if (row >= n || col >= n)
        return;
    ub_put_hi(a, row * n + col, ub_overload(ub_sum_row(a, n, row), k));
}

// uBench-12: pattern C read (all threads of a block read the block's own
// chunk of block-size elements: start = block index x block size),
// pattern II write. n*n is a multiple of every block size.
extern "C" __global__ void ubench12(unsigned int *a, unsigned int n)
{
    unsigned int bs = blockDim.x * blockDim.y;
    unsigned int start = (blockIdx.y * gridDim.x + blockIdx.x) * bs;
    if (start >= n * n)
        return;
    unsigned int s = 0;
    for (unsigned int j = 0; j < bs; j++)
        s += LO(a[start + j]);
    ub_put_hi(a, start + threadIdx.y * blockDim.x + threadIdx.x, s);
}

// Pattern D(s): the array traversed as a vector, cyclically, from
// (block index x s) mod n*n, for a window of n elements (see docs/suites.md
// for why not the whole array); pattern I write.
__device__ __forceinline__ void ub_window(unsigned int *a, unsigned int n, unsigned int stride)
{
    unsigned int row = ub_row(), col = ub_col();
    if (row >= n || col >= n)
        return;
    unsigned int nn = n * n;
    unsigned int lin = blockIdx.y * gridDim.x + blockIdx.x;
    unsigned int start = (unsigned int)(((unsigned long long)lin * stride) % nn);
    unsigned int end = start + n, s = 0;
    if (end <= nn) {
        for (unsigned int j = start; j < end; j++)
            s += LO(a[j]);
    } else {
        for (unsigned int j = start; j < nn; j++)
            s += LO(a[j]);
        for (unsigned int j = 0; j < end - nn; j++)
            s += LO(a[j]);
    }
    ub_put_hi(a, row * n + col, s);
}

// uBench-13: pattern D(1).
extern "C" __global__ void ubench13(unsigned int *a, unsigned int n) { ub_window(a, n, 1u); }

// uBench-14: pattern D(32).
extern "C" __global__ void ubench14(unsigned int *a, unsigned int n) { ub_window(a, n, 32u); }

// Cannon's matrix multiply, one thread per element of c = a x b (mod 2^32):
// the thread walks row `row` of a (pattern B) and column `col` of b
// (pattern A) from k0, wrapping around, and writes pattern I.
__device__ __forceinline__ void ub_cannon(const unsigned int *a, const unsigned int *b, unsigned int *c,
                                          unsigned int n, unsigned int k0)
{
    unsigned int row = ub_row(), col = ub_col();
    if (row >= n || col >= n)
        return;
    const unsigned int *ar = a + row * n;
    unsigned int s = 0;
    for (unsigned int k = k0; k < n; k++)
        s += ar[k] * b[k * n + col];
    for (unsigned int k = 0; k < k0; k++)
        s += ar[k] * b[k * n + col];
    c[row * n + col] = s;
}

// The direct version: every block starts at k = 0.
extern "C" __global__ void cannon_direct(const unsigned int *a, const unsigned int *b, unsigned int *c,
                                         unsigned int n)
{
    ub_cannon(a, b, c, n, 0u);
}

// The shifted start: block (x, y) starts (x + y) 128-byte segments along
// (Cannon's skew), so that neighbouring blocks read different memory
// regions at the same time.
extern "C" __global__ void cannon_shifted(const unsigned int *a, const unsigned int *b, unsigned int *c,
                                          unsigned int n)
{
    ub_cannon(a, b, c, n, ((blockIdx.x + blockIdx.y) * 32u) % n);
}

// ---- verification ----
// What element i of the array should hold after one launch, by check mode
// (src/suites/ubench.c computes the same on the host for its messages):
#define UB_CK_FULL 0     // value everywhere
#define UB_CK_DIAG 1     // value at diagonal elements d*(n+1), d < p0; poison elsewhere
#define UB_CK_CORNER 2   // value where row % p0 == 0 and col % p1 == 0; poison elsewhere
#define UB_CK_FIRST 3    // value at element 0; poison elsewhere
#define UB_CK_COL 4      // high half ref[col]
#define UB_CK_ROW 5      // high half ref[row]
#define UB_CK_CHUNK 6    // high half: sum of chunk i / p0 (chunks of p0 elements), from prefix sums ref
#define UB_CK_WINDOW 7   // high half: sum of the window of the block of rows p0, cols p1, grid width p2,
                         // stride `value`, from prefix sums ref
#define UB_CK_REF 8      // ref[i] exactly
#define UB_POISON 0xDEADBEEFu

__device__ __forceinline__ unsigned int ub_prefix_sum(const unsigned int *ref, unsigned int nn,
                                                      unsigned int start, unsigned int len)
{
    unsigned int end = start + len;
    if (end <= nn)
        return ref[end] - ref[start];
    return ref[nn] - ref[start] + ref[end - nn];
}

// Computes the expected word of element i; *hi tells whether only the high
// half is prescribed (the low half being the input).
__device__ __forceinline__ unsigned int ub_expect(int mode, unsigned int i, unsigned int n, unsigned int value,
                                                  unsigned int p0, unsigned int p1, unsigned int p2,
                                                  const unsigned int *ref, int *hi)
{
    unsigned int row = i / n, col = i % n, nn = n * n;
    *hi = 0;
    switch (mode) {
    case UB_CK_FULL: return value;
    case UB_CK_DIAG: return (i % (n + 1) == 0 && i / (n + 1) < p0) ? value : UB_POISON;
    case UB_CK_CORNER: return (row % p0 == 0 && col % p1 == 0) ? value : UB_POISON;
    case UB_CK_FIRST: return i == 0 ? value : UB_POISON;
    case UB_CK_REF: return ref[i];
    }
    *hi = 1;
    switch (mode) {
    case UB_CK_COL: return LO(ref[col]);
    case UB_CK_ROW: return LO(ref[row]);
    case UB_CK_CHUNK: return LO(ub_prefix_sum(ref, nn, (i / p0) * p0, p0));
    case UB_CK_WINDOW: {
        unsigned int lin = (row / p0) * p2 + col / p1;
        unsigned int start = (unsigned int)(((unsigned long long)lin * value) % nn);
        return LO(ub_prefix_sum(ref, nn, start, n));
    }
    }
    return 0;
}

// poison != 0: writes into every element a word that differs from what the
// kernel must write there (or, where it must write nothing, the poison
// pattern). poison == 0: counts the elements that differ
// from it into out[0] and the first such index into out[1] (which the
// caller sets to all ones).
extern "C" __global__ void ub_check(unsigned int *a, unsigned int n, int mode, int poison, unsigned int value,
                                    unsigned int p0, unsigned int p1, unsigned int p2, const unsigned int *ref,
                                    unsigned long long *out)
{
    unsigned int nn = n * n;
    unsigned long long bad = 0, first = ~0ull;
    for (unsigned int i = blockIdx.x * blockDim.x + threadIdx.x; i < nn; i += gridDim.x * blockDim.x) {
        int hi;
        unsigned int e = ub_expect(mode, i, n, value, p0, p1, p2, ref, &hi);
        unsigned int w = a[i];
        if (hi)
            e = LO(w) | (e << 16);
        if (poison) {
            // Where the kernel writes every element, the complement; where
            // it writes a few, the poison pattern its elements must keep
            // (the value it writes is never the poison pattern).
            if (hi)
                a[i] = e ^ 0xFFFF0000u;
            else
                a[i] = (mode == UB_CK_FULL || mode == UB_CK_REF) ? ~e : UB_POISON;
        } else if (w != e) {
            bad++;
            if (first == ~0ull)
                first = i;
        }
    }
    if (bad) {
        atomicAdd(out, bad);
        atomicMin(out + 1, first);
    }
}
