/* t8x8.cu - the transpose of a matrix of 16-bit values (a uint16 image, a
 * half or bfloat16 matrix moved as bits): in has count rows of TCOLS
 * (4096) values, out TCOLS rows of count:
 *     out[c][r] = in[r][c]
 * count is a multiple of 32 (the spec's restriction): no partial tiles.
 *
 * The matrix is cut into 8 x 8 tiles of 128 bytes, a tile row being 16
 * bytes (one uint4). A warp takes a region of 32 columns and 8 K rows, K =
 * tpw / 4: 4 tiles across and K down, tpw tiles in all. Lane l = 8 q + r
 * (q = l / 8, r = l % 8) loads row 8 k + r of the region's tile column q
 * for k = 0 .. K - 1 (one uint4 each, all K loads first: a warp's load
 * is 8 rows of 64 contiguous bytes), so that the 8 lanes of an octet hold
 * the rows of one tile. After the exchange lane l holds column r of each
 * of its K tiles, which is out row c0 + 8 q + r, columns r0 + 8 k to r0 +
 * 8 k + 7: K uint4 stores, adjacent, so that an output row gets 16 K
 * contiguous bytes (16, 32, 64) from a lane.
 *
 * The exchange (xchg):
 *   0: in registers, by warp shuffles: the tile's three halving steps, its
 *      4 x 4 blocks swapped between lanes 4 apart, then its 2 x 2 blocks
 *      between lanes 2 apart, then single values between lanes 1 apart
 *      (the 16-bit halves packed into words by __byte_perm first), two
 *      32-bit shuffles per step: 6 per tile and lane, no shared memory;
 *   1: through shared memory: each warp writes its region's rows into a
 *      buffer of its own (rows padded to 80 bytes, so that the uint4
 *      stores of 8 rows fall in 32 different banks), __syncwarp, and each
 *      lane reads its column back, 8 values of 2 bytes per tile.
 * Warps are independent: no barrier across the block.
 *
 * A block of block_size_x threads covers block_size_x columns (its warps
 * side by side) and 8 K rows: the grid is TCOLS / block_size_x by count /
 * (8 K).
 *
 * Compiled with -Dblock_size_x=T -Dxchg=X -Dtpw=W -Dnrows=R. */

#define TCOLS 4096          /* columns of in, rows of out */
#define KT (tpw / 4)        /* tiles down a warp's region */
#define SROW 40             /* shared row: 32 values and 8 of padding, 80 bytes */
#define WARPS (block_size_x / 32)

#if xchg != 0 && xchg != 1
#error "xchg is 0 or 1"
#endif
#if tpw != 4 && tpw != 8 && tpw != 16
#error "tpw is 4, 8 or 16"
#endif
#if block_size_x % 32 != 0 || TCOLS % block_size_x != 0
#error "block_size_x is a multiple of 32 that divides TCOLS"
#endif

/* The reference: one output element per thread, x along the output row. */
extern "C" __global__ void t8x8_reference(unsigned short *out, const unsigned short *in, int count)
{
    const long r = (long)blockIdx.x * blockDim.x + threadIdx.x; /* column of out, row of in */
    const long c = (long)blockIdx.y * blockDim.y + threadIdx.y; /* row of out, column of in */
    if (r >= count || c >= TCOLS)
        return;
    out[c * count + r] = in[r * TCOLS + c];
}

#if xchg == 0
/* The 4 x 4 blocks of a tile swapped between lanes 4 apart: a lane of
 * rows 0-3 gives its columns 4-7 (words 2, 3) and takes its partner's
 * columns 0-3 (words 0, 1) into them; a lane of rows 4-7 the other way
 * round. */
__device__ __forceinline__ void swap4(unsigned int (&w)[4], bool hi)
{
    const unsigned int g0 = __shfl_xor_sync(0xffffffffu, hi ? w[0] : w[2], 4);
    const unsigned int g1 = __shfl_xor_sync(0xffffffffu, hi ? w[1] : w[3], 4);
    if (hi) {
        w[0] = g0;
        w[1] = g1;
    } else {
        w[2] = g0;
        w[3] = g1;
    }
}

/* The 2 x 2 blocks within each 4 x 4 swapped between lanes 2 apart: words
 * 1 and 3 of a lane with bit 1 clear against words 0 and 2 of its
 * partner. */
__device__ __forceinline__ void swap2(unsigned int (&w)[4], bool hi)
{
    const unsigned int g0 = __shfl_xor_sync(0xffffffffu, hi ? w[0] : w[1], 2);
    const unsigned int g1 = __shfl_xor_sync(0xffffffffu, hi ? w[2] : w[3], 2);
    if (hi) {
        w[0] = g0;
        w[2] = g1;
    } else {
        w[1] = g0;
        w[3] = g1;
    }
}

/* An 8 x 8 tile of 16-bit values, row r in lane r of the octet (value j
 * of the row in the half j % 2 of word j / 2), transposed in place: lane
 * r ends with column r, value j the tile's row j. */
__device__ __forceinline__ void tile_transpose(unsigned int (&w)[4], int r)
{
    swap4(w, (r & 4) != 0);
    swap2(w, (r & 2) != 0);
    /* single values: an even lane gives its odd columns (the high halves)
     * and takes its partner's even ones (the low halves) into them; an odd
     * lane the other way round */
    const bool odd = (r & 1) != 0;
    const unsigned int s0 = __byte_perm(w[0], w[1], odd ? 0x5410 : 0x7632);
    const unsigned int s1 = __byte_perm(w[2], w[3], odd ? 0x5410 : 0x7632);
    const unsigned int g0 = __shfl_xor_sync(0xffffffffu, s0, 1);
    const unsigned int g1 = __shfl_xor_sync(0xffffffffu, s1, 1);
    if (odd) {
        w[0] = __byte_perm(w[0], g0, 0x3254);
        w[1] = __byte_perm(w[1], g0, 0x3276);
        w[2] = __byte_perm(w[2], g1, 0x3254);
        w[3] = __byte_perm(w[3], g1, 0x3276);
    } else {
        w[0] = __byte_perm(w[0], g0, 0x5410);
        w[1] = __byte_perm(w[1], g0, 0x7610);
        w[2] = __byte_perm(w[2], g1, 0x5410);
        w[3] = __byte_perm(w[3], g1, 0x7610);
    }
}
#endif

extern "C" __global__ void __launch_bounds__(block_size_x)
    t8x8(unsigned short *__restrict__ out, const unsigned short *__restrict__ in, int count)
{
    const int lane = threadIdx.x & 31, q = lane >> 3, r = lane & 7;
    const long c0 = (long)blockIdx.x * block_size_x + (threadIdx.x & ~31); /* the region's first column */
    const long r0 = (long)blockIdx.y * (8 * KT);                           /* its first row */
    uint4 v[KT];
#pragma unroll
    for (int k = 0; k < KT; k++)
        v[k] = __ldg(reinterpret_cast<const uint4 *>(in + (r0 + 8 * k + r) * TCOLS + c0 + 8 * q));
#if xchg == 0
#pragma unroll
    for (int k = 0; k < KT; k++) {
        unsigned int w[4] = {v[k].x, v[k].y, v[k].z, v[k].w};
        tile_transpose(w, r);
        v[k] = make_uint4(w[0], w[1], w[2], w[3]);
    }
#else
    __shared__ __align__(16) unsigned short buf[WARPS][8 * KT][SROW];
    unsigned short (*b)[SROW] = buf[threadIdx.x >> 5];
#pragma unroll
    for (int k = 0; k < KT; k++)
        *reinterpret_cast<uint4 *>(&b[8 * k + r][8 * q]) = v[k];
    __syncwarp();
#pragma unroll
    for (int k = 0; k < KT; k++) {
        unsigned int w[4];
#pragma unroll
        for (int j = 0; j < 4; j++)
            w[j] = (unsigned int)b[8 * k + 2 * j][lane] | (unsigned int)b[8 * k + 2 * j + 1][lane] << 16;
        v[k] = make_uint4(w[0], w[1], w[2], w[3]);
    }
#endif
#pragma unroll
    for (int k = 0; k < KT; k++)
        *reinterpret_cast<uint4 *>(out + (c0 + lane) * count + r0 + 8 * k) = v[k];
}
