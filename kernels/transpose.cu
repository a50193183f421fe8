// transpose.cu - matrix transposes, and copies with the same access shapes.
//
// The input is a rows x cols matrix of ELEM-byte elements, row-major (pitch
// cols); a transpose writes the cols x rows matrix (pitch rows), a copy the
// rows x cols matrix. Every kernel takes (in, out, rows, cols) and handles
// any size: elements outside the matrix are neither read nor written.
//
// -DELEM=4|8|16        bytes per element
// -DTILE, -DBLOCK_ROWS the slides' kernels: a TILE x TILE tile per block of
//                      TILE x BLOCK_ROWS threads, TILE/BLOCK_ROWS elements
//                      per thread (the host checks that BLOCK_ROWS divides
//                      TILE and that the tile fits in 48 KiB of static
//                      shared memory; kernels whose tile does not fit
//                      compile to an empty body and are never launched).
//
// The kernels of our own design (tr_fast_*, tr_copy_vec) move 16-byte
// vectors: a "unit" is V x V elements (V = 16 / ELEM), V rows of 16 bytes,
// which a thread loads as V vectors, transposes in registers and stores as
// V vectors. A row pitch that is not a multiple of V makes the vectors
// misaligned; those kernels then move the same units element by element.

#ifndef ELEM
#define ELEM 4
#endif
#ifndef TILE
#define TILE 32
#endif
#ifndef BLOCK_ROWS
#define BLOCK_ROWS 8
#endif

#if ELEM == 4
typedef unsigned int T;
#elif ELEM == 8
typedef uint2 T;
#elif ELEM == 16
typedef uint4 T;
#else
#error "ELEM must be 4, 8 or 16"
#endif

#define V (16 / ELEM)        // elements per 16-byte vector
#define W (ELEM / 4)         // 32-bit words per element
#define SMEM_STATIC_MAX (48 * 1024)
#define TR_POISON 0xDEADBEEFu

// ---- the slides' kernels (NVIDIA SDK transpose series, with bounds checks) ----

// Reads rows coalesced, writes columns: each warp's store touches TILE rows.
extern "C" __global__ void tr_naive(const T *__restrict__ in, T *__restrict__ out, int rows, int cols)
{
    int x = blockIdx.x * TILE + threadIdx.x;
    int y = blockIdx.y * TILE + threadIdx.y;
    if (x >= cols)
        return;
#pragma unroll
    for (int i = 0; i < TILE; i += BLOCK_ROWS)
        if (y + i < rows)
            out[(size_t)x * rows + (y + i)] = in[(size_t)(y + i) * cols + x];
}

// The copy with the same blocks and index arithmetic: the slides' ceiling.
extern "C" __global__ void tr_copy_tile(const T *__restrict__ in, T *__restrict__ out, int rows, int cols)
{
    int x = blockIdx.x * TILE + threadIdx.x;
    int y = blockIdx.y * TILE + threadIdx.y;
    if (x >= cols)
        return;
#pragma unroll
    for (int i = 0; i < TILE; i += BLOCK_ROWS)
        if (y + i < rows)
            out[(size_t)(y + i) * cols + x] = in[(size_t)(y + i) * cols + x];
}

// The copy through a shared tile with a barrier ("copy within the blocks").
extern "C" __global__ void tr_copy_smem(const T *__restrict__ in, T *__restrict__ out, int rows, int cols)
{
#if TILE * TILE * ELEM <= SMEM_STATIC_MAX
    __shared__ T tile[TILE * TILE];
    int tx = threadIdx.x, ty = threadIdx.y;
    int x = blockIdx.x * TILE + tx;
    int y = blockIdx.y * TILE + ty;
#pragma unroll
    for (int i = 0; i < TILE; i += BLOCK_ROWS)
        if (x < cols && y + i < rows)
            tile[(ty + i) * TILE + tx] = in[(size_t)(y + i) * cols + x];
    __syncthreads();
#pragma unroll
    for (int i = 0; i < TILE; i += BLOCK_ROWS)
        if (x < cols && y + i < rows)
            out[(size_t)(y + i) * cols + x] = tile[(ty + i) * TILE + tx];
#endif
}

// Tile (bx, by) through shared memory of row pitch `pitch`: rows are read
// and written coalesced; the tile is read by columns in between.
__device__ __forceinline__ void tiled_transpose(const T *__restrict__ in, T *__restrict__ out, int rows,
                                                int cols, T *tile, int pitch, int bx, int by)
{
    int tx = threadIdx.x, ty = threadIdx.y;
    int x = bx * TILE + tx;
    int y = by * TILE + ty;
#pragma unroll
    for (int i = 0; i < TILE; i += BLOCK_ROWS)
        if (x < cols && y + i < rows)
            tile[(ty + i) * pitch + tx] = in[(size_t)(y + i) * cols + x];
    __syncthreads();
    x = by * TILE + tx;   // output column: an input row
    y = bx * TILE + ty;   // output row: an input column
#pragma unroll
    for (int i = 0; i < TILE; i += BLOCK_ROWS)
        if (x < rows && y + i < cols)
            out[(size_t)(y + i) * rows + x] = tile[tx * pitch + ty + i];
}

// Shared tile without padding: a column of the tile lies in one bank.
extern "C" __global__ void tr_coalesced(const T *__restrict__ in, T *__restrict__ out, int rows, int cols)
{
#if TILE * TILE * ELEM <= SMEM_STATIC_MAX
    __shared__ T tile[TILE * TILE];
    tiled_transpose(in, out, rows, cols, tile, TILE, blockIdx.x, blockIdx.y);
#endif
}

// One padding element per tile row: a column spreads over all banks.
extern "C" __global__ void tr_padded(const T *__restrict__ in, T *__restrict__ out, int rows, int cols)
{
#if TILE * (TILE + 1) * ELEM <= SMEM_STATIC_MAX
    __shared__ T tile[TILE * (TILE + 1)];
    tiled_transpose(in, out, rows, cols, tile, TILE + 1, blockIdx.x, blockIdx.y);
#endif
}

// Padded, with blocks mapped to tiles in diagonal order (the SDK's general
// form, a bijection for any grid): blocks running together write to
// different column ranges of the output.
extern "C" __global__ void tr_diagonal(const T *__restrict__ in, T *__restrict__ out, int rows, int cols)
{
#if TILE * (TILE + 1) * ELEM <= SMEM_STATIC_MAX
    __shared__ T tile[TILE * (TILE + 1)];
    int bid = blockIdx.x + gridDim.x * blockIdx.y;
    int by = bid % gridDim.y;
    int bx = (bid / gridDim.y + by) % gridDim.x;
    tiled_transpose(in, out, rows, cols, tile, TILE + 1, bx, by);
#endif
}

// ---- kernels of our own design: 16-byte vectors, units of V x V ----

__device__ __forceinline__ void elem_get(const T *p, int cs, unsigned int *w)
{
    T e = cs ? __ldcs(p) : *p;
#if ELEM == 4
    w[0] = e;
#elif ELEM == 8
    w[0] = e.x;
    w[1] = e.y;
#else
    w[0] = e.x;
    w[1] = e.y;
    w[2] = e.z;
    w[3] = e.w;
#endif
}

__device__ __forceinline__ void elem_put(T *p, int cs, const unsigned int *w)
{
#if ELEM == 4
    T e = w[0];
#elif ELEM == 8
    T e = make_uint2(w[0], w[1]);
#else
    T e = make_uint4(w[0], w[1], w[2], w[3]);
#endif
    if (cs)
        __stcs(p, e);
    else
        *p = e;
}

// 16-byte global loads and stores as single instructions. Written in PTX:
// given plain C++, the compiler may split a vector store into four word
// stores when the scalar path next to it stores the same words. cs: the
// streaming (evict-first) variants; other loads use the read-only path.
__device__ __forceinline__ uint4 ld16(const void *p, int cs)
{
    uint4 v;
    if (cs)
        asm volatile("ld.global.cs.v4.u32 {%0, %1, %2, %3}, [%4];"
                     : "=r"(v.x), "=r"(v.y), "=r"(v.z), "=r"(v.w) : "l"(p));
    else
        asm volatile("ld.global.nc.v4.u32 {%0, %1, %2, %3}, [%4];"
                     : "=r"(v.x), "=r"(v.y), "=r"(v.z), "=r"(v.w) : "l"(p));
    return v;
}

__device__ __forceinline__ void st16(void *p, uint4 v, int cs)
{
    if (cs)
        asm volatile("st.global.cs.v4.u32 [%0], {%1, %2, %3, %4};"
                     :: "l"(p), "r"(v.x), "r"(v.y), "r"(v.z), "r"(v.w) : "memory");
    else
        asm volatile("st.global.v4.u32 [%0], {%1, %2, %3, %4};"
                     :: "l"(p), "r"(v.x), "r"(v.y), "r"(v.z), "r"(v.w) : "memory");
}

// The V elements at (r, c .. c+V-1) of an nr x nc matrix into w[0..3].
// vec: the segment lies inside the matrix and is 16-byte aligned; else
// element by element, elements outside the matrix read as 0.
__device__ __forceinline__ void seg_load(const T *__restrict__ m, long long r, long long c, long long nr,
                                         long long nc, int vec, int cs, unsigned int *w)
{
    const T *p = m + r * nc + c;
    if (vec) {
        uint4 v = ld16(p, cs);
        w[0] = v.x;
        w[1] = v.y;
        w[2] = v.z;
        w[3] = v.w;
        return;
    }
#pragma unroll
    for (int j = 0; j < V; j++) {
        if (r < nr && c + j < nc) {
            elem_get(p + j, cs, w + j * W);
        } else {
#pragma unroll
            for (int k = 0; k < W; k++)
                w[j * W + k] = 0;
        }
    }
}

// Stores w[0..3] as the V elements at (r, c .. c+V-1) of an nr x nc
// matrix; vec as for seg_load, else only the elements inside are written.
__device__ __forceinline__ void seg_store(T *__restrict__ m, long long r, long long c, long long nr,
                                          long long nc, int vec, int cs, const unsigned int *w)
{
    T *p = m + r * nc + c;
    if (vec) {
        st16(p, make_uint4(w[0], w[1], w[2], w[3]), cs);
        return;
    }
#pragma unroll
    for (int j = 0; j < V; j++)
        if (r < nr && c + j < nc)
            elem_put(p + j, cs, w + j * W);
}

// b = the transpose of the unit a: b[j] holds column j of a (a[i] is row i,
// element j of a row is words j*W .. j*W+W-1).
__device__ __forceinline__ void unit_transpose(unsigned int (*a)[4], unsigned int (*b)[4])
{
#pragma unroll
    for (int j = 0; j < V; j++)
#pragma unroll
        for (int i = 0; i < V; i++)
#pragma unroll
            for (int k = 0; k < W; k++)
                b[j][i * W + k] = a[i][j * W + k];
}

// Block `bid` of a grid of nbx x nby tiles visited in groups of `group`
// tile columns: consecutive blocks go across a group, then down it, so the
// blocks resident together cover a compact region of both matrices.
// group = nbx is plain row-major order.
__device__ __forceinline__ void block_tile(int bid, int nbx, int nby, int group, int *bx, int *by)
{
    int per = group * nby;
    int g = bid / per;
    int first = g * group;
    int gw = min(group, nbx - first);
    int local = bid - g * per;
    *bx = first + local % gw;
    *by = local / gw;
}

// "reg": no shared memory. A warp is 8 lanes across (8 x 16 bytes of a
// row: full 128-byte lines) by 4 lanes down; each lane holds REG_U units
// stacked down the rows, so a warp covers 8V columns x 32 rows and its
// stores write 32 x ELEM contiguous bytes of each output row (two 64-byte
// halves, one per pair of units). 8 warps: 2 across, 4 down.
#define REG_U (8 / V)
#define REG_TW (16 * V)
#define REG_TH 128

__device__ __forceinline__ void fast_reg(const T *__restrict__ in, T *__restrict__ out, int rows, int cols,
                                         int group, int cs)
{
    int nbx = (cols + REG_TW - 1) / REG_TW, nby = (rows + REG_TH - 1) / REG_TH;
    int bx, by;
    block_tile(blockIdx.x, nbx, nby, group, &bx, &by);
    int warp = threadIdx.x >> 5, lane = threadIdx.x & 31;
    long long c = (long long)bx * REG_TW + (warp & 1) * (8 * V) + (lane & 7) * V;
    long long r0 = (long long)by * REG_TH + (warp >> 1) * 32 + (lane >> 3) * V;
    int vin = cols % V == 0, vout = rows % V == 0;
    unsigned int a[REG_U][V][4];
#pragma unroll
    for (int u = 0; u < REG_U; u++) {
        long long r = r0 + u * 4 * V;
        int full = r + V <= rows && c + V <= cols;
#pragma unroll
        for (int i = 0; i < V; i++)
            seg_load(in, r + i, c, rows, cols, vin && full, cs, a[u][i]);
    }
#pragma unroll
    for (int u = 0; u < REG_U; u++) {
        long long r = r0 + u * 4 * V;
        int full = r + V <= rows && c + V <= cols;
        unsigned int b[V][4];
        unit_transpose(a[u], b);
#pragma unroll
        for (int j = 0; j < V; j++)
            seg_store(out, c + j, r, cols, rows, vout && full, cs, b[j]);
    }
}

// "smem": a tile of 16 x 16 units (16V x 16V elements) per block of 256
// threads, one unit each. A thread loads its unit (two 256-byte row
// segments per warp instruction), transposes it in registers and writes
// the V vectors to the transposed tile in shared memory; after the barrier
// each thread reads V vectors along a row of the transposed tile and
// stores them (two 256-byte output row segments per warp instruction).
// Element (R, C) of the transposed tile lives in row R, 16-byte slot
// (C / V) ^ ((R / V) & 7), place C % V: the XOR swizzle makes both the
// column-wise writes and the row-wise reads of every 8 lanes hit 8
// distinct 16-byte slots, so neither side has bank conflicts.
// A pitch that is not a multiple of V cannot use vectors on its side; that
// side then moves single elements with consecutive lanes on consecutive
// elements of a row (128 bytes per warp instruction for 4-byte elements)
// through the same tile layout.
#define SM_T (16 * V)

__device__ __forceinline__ unsigned int *smem_elem(uint4 (*s)[16], int R, int C)
{
    return (unsigned int *)&s[R][(C / V) ^ ((R / V) & 7)] + (C % V) * W;
}

__device__ __forceinline__ void fast_smem(const T *__restrict__ in, T *__restrict__ out, int rows, int cols,
                                          int group, int cs, uint4 (*s)[16])
{
    int nbx = (cols + SM_T - 1) / SM_T, nby = (rows + SM_T - 1) / SM_T;
    int bx, by;
    block_tile(blockIdx.x, nbx, nby, group, &bx, &by);
    int t = threadIdx.x;
    long long c0 = (long long)bx * SM_T, r0 = (long long)by * SM_T;
    if (cols % V == 0) {
        int lc = t & 15, lr = t >> 4;
        long long c = c0 + lc * V, r = r0 + lr * V;
        int full = r + V <= rows && c + V <= cols;
        unsigned int a[V][4], b[V][4];
#pragma unroll
        for (int i = 0; i < V; i++)
            seg_load(in, r + i, c, rows, cols, full, cs, a[i]);
        unit_transpose(a, b);
        // Row lc*V + j of the transposed tile, logical slot lr, swizzled.
#pragma unroll
        for (int j = 0; j < V; j++)
            s[lc * V + j][lr ^ (lc & 7)] = make_uint4(b[j][0], b[j][1], b[j][2], b[j][3]);
    } else {
#pragma unroll
        for (int m = 0; m < V * V; m++) {
            int e = t + 256 * m, ri = e / SM_T, ci = e % SM_T;
            unsigned int w[W];
            if (r0 + ri < rows && c0 + ci < cols) {
                elem_get(in + (r0 + ri) * cols + c0 + ci, cs, w);
            } else {
#pragma unroll
                for (int k = 0; k < W; k++)
                    w[k] = 0;
            }
            unsigned int *d = smem_elem(s, ci, ri);
#pragma unroll
            for (int k = 0; k < W; k++)
                d[k] = w[k];
        }
    }
    __syncthreads();
    if (rows % V == 0) {
        int q = t & 15;
#pragma unroll
        for (int k = 0; k < V; k++) {
            int R = (t >> 4) + 16 * k;
            uint4 v = s[R][q ^ ((R / V) & 7)];
            unsigned int w[4] = {v.x, v.y, v.z, v.w};
            long long orow = c0 + R, ocol = r0 + q * V;
            seg_store(out, orow, ocol, cols, rows, orow < cols && ocol + V <= rows, cs, w);
        }
    } else {
#pragma unroll
        for (int m = 0; m < V * V; m++) {
            int e = t + 256 * m, R = e / SM_T, C = e % SM_T;
            if (c0 + R < cols && r0 + C < rows)
                elem_put(out + (c0 + R) * rows + r0 + C, cs, smem_elem(s, R, C));
        }
    }
}

extern "C" __global__ void __launch_bounds__(256)
tr_fast_reg(const T *__restrict__ in, T *__restrict__ out, int rows, int cols, int group)
{
    fast_reg(in, out, rows, cols, group, 0);
}

// The same with streaming (evict-first) loads and stores.
extern "C" __global__ void __launch_bounds__(256)
tr_fast_reg_cs(const T *__restrict__ in, T *__restrict__ out, int rows, int cols, int group)
{
    fast_reg(in, out, rows, cols, group, 1);
}

extern "C" __global__ void __launch_bounds__(256)
tr_fast_smem(const T *__restrict__ in, T *__restrict__ out, int rows, int cols, int group)
{
    __shared__ uint4 s[SM_T][16];
    fast_smem(in, out, rows, cols, group, 0, s);
}

extern "C" __global__ void __launch_bounds__(256)
tr_fast_smem_cs(const T *__restrict__ in, T *__restrict__ out, int rows, int cols, int group)
{
    __shared__ uint4 s[SM_T][16];
    fast_smem(in, out, rows, cols, group, 1, s);
}

// The copy with the blocks, warps and 16-byte units of tr_fast_reg: the
// ceiling of the vector transposes.
extern "C" __global__ void __launch_bounds__(256)
tr_copy_vec(const T *__restrict__ in, T *__restrict__ out, int rows, int cols, int group)
{
    int nbx = (cols + REG_TW - 1) / REG_TW, nby = (rows + REG_TH - 1) / REG_TH;
    int bx, by;
    block_tile(blockIdx.x, nbx, nby, group, &bx, &by);
    int warp = threadIdx.x >> 5, lane = threadIdx.x & 31;
    long long c = (long long)bx * REG_TW + (warp & 1) * (8 * V) + (lane & 7) * V;
    long long r0 = (long long)by * REG_TH + (warp >> 1) * 32 + (lane >> 3) * V;
    int vin = cols % V == 0;
    unsigned int a[REG_U * V][4];
#pragma unroll
    for (int k = 0; k < REG_U * V; k++) {
        long long r = r0 + (k / V) * 4 * V + k % V;
        seg_load(in, r, c, rows, cols, vin && r < rows && c + V <= cols, 0, a[k]);
    }
#pragma unroll
    for (int k = 0; k < REG_U * V; k++) {
        long long r = r0 + (k / V) * 4 * V + k % V;
        seg_store(out, r, c, rows, cols, vin && r < rows && c + V <= cols, 0, a[k]);
    }
}

// The matrix as one flat array, one 16-byte vector per thread with
// streaming hints, consecutive threads on consecutive vectors: the shape of
// the fastest copy of the bandwidth suite, without the tiles. The thread
// after the last whole vector copies the remaining words.
extern "C" __global__ void tr_copy_flat(const T *__restrict__ in, T *__restrict__ out, int rows, int cols)
{
    unsigned long long words = (unsigned long long)rows * (unsigned long long)cols * W;
    unsigned long long n = words / 4;
    unsigned long long i = blockIdx.x * (unsigned long long)blockDim.x + threadIdx.x;
    if (i < n) {
        st16((uint4 *)out + i, ld16((const uint4 *)in + i, 1), 1);
    } else if (i == n) {
        const unsigned int *a = (const unsigned int *)in;
        unsigned int *b = (unsigned int *)out;
        for (unsigned long long k = 4 * n; k < words; k++)
            b[k] = a[k];
    }
}

// ---- verification ----

// Must match gb_fill_word of util.cu (and of src/gpu/gpu.c) bit for bit: the
// input is filled by gb_fill_random, word i = gb_fill_word(seed, i).
__device__ __forceinline__ unsigned int gb_fill_word(unsigned int seed, unsigned long long i)
{
    unsigned long long z = i + 0x9E3779B97F4A7C15ull * ((unsigned long long)seed + 1ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    z ^= z >> 31;
    unsigned int w = (unsigned int)z;
    return w ? w : 0x9E3779B9u;
}

// Checks an orows x ocols output against the input's generator: element
// (r, c) must hold input element (c, r) of a transpose (orows = input
// columns) or (r, c) of a copy; the `guard` words after the output must
// still hold the poison. res[0] += wrong words, res[1] = min(first wrong
// word index) (set res to {0, ~0} first).
extern "C" __global__ void tr_check(const unsigned int *__restrict__ out, long long orows, long long ocols,
                                    int transposed, unsigned int seed, long long guard,
                                    unsigned long long *res)
{
    unsigned long long bad = 0, first = ~0ull;
    for (long long r = blockIdx.y; r < orows; r += gridDim.y)
        for (long long c = blockIdx.x * (long long)blockDim.x + threadIdx.x; c < ocols;
             c += (long long)gridDim.x * blockDim.x) {
            unsigned long long e = (unsigned long long)(r * ocols + c);
            unsigned long long src = transposed ? (unsigned long long)(c * orows + r) : e;
#pragma unroll
            for (int k = 0; k < W; k++)
                if (out[e * W + k] != gb_fill_word(seed, src * W + k)) {
                    bad++;
                    first = min(first, e * W + k);
                }
        }
    unsigned long long end = (unsigned long long)(orows * ocols) * W;
    long long tid = (blockIdx.y * (long long)gridDim.x + blockIdx.x) * blockDim.x + threadIdx.x;
    long long nthreads = (long long)gridDim.x * gridDim.y * blockDim.x;
    for (long long i = tid; i < guard; i += nthreads)
        if (out[end + i] != TR_POISON) {
            bad++;
            first = min(first, end + (unsigned long long)i);
        }
    if (bad) {
        atomicAdd(&res[0], bad);
        atomicMin(&res[1], first);
    }
}
