/* bitpack.cu - packs an array of byte flags into 32-bit words, as a boolean
 * mask of one byte per element (a bool tensor, a comparison's result) is
 * turned into a bitmask an eighth of its size: bit j of word w is the
 * flag of byte 32 w + j (the lowest bit first: numpy's packbits with
 * bitorder 'little', read as little-endian words). A byte's flag is its
 * low bit, a bool byte's 0 or 1.
 *
 * A warp takes a tile of ipt steps of 32 x bpl consecutive bytes; in each
 * step lane l loads the bpl bytes at l bpl (a byte, a uchar4 as one
 * unsigned, or a uint4 of 16 bytes), all ipt loads issued before the
 * first is packed. A step is bpl words:
 *   bpl 1:  __ballot_sync of the 32 lanes' flags is the word; lane 0
 *           stores it;
 *   bpl 4:  each lane packs its 4 flags into 4 bits by a multiplication,
 *           and the 8 lanes of a word OR their shifted bits together by
 *           three xor shuffles; the group's first lane stores the word
 *           (4 lanes, 4 consecutive words);
 *   bpl 16: each lane packs its 16 flags into 16 bits (four
 *           multiplications), and the 2 lanes of a word join their halves
 *           by one xor shuffle; the even lanes store (16 consecutive
 *           words).
 * (A ballot of one flag per lane would, with bpl > 1, give the flags of
 * bytes bpl apart, not a word: the lane packs its own flags instead.)
 *
 * count is a multiple of 512 (a step at bpl 16), so that a step lies wholly
 * inside the array or wholly past it: a whole warp takes or skips it, and
 * the ballots and shuffles always have their 32 lanes. The reference packs
 * one word per thread, a byte at a time.
 *
 * Compiled with -Dblock_size_x=B -Dbpl=P -Dipt=I -Dnflag=N. */

#if bpl != 1 && bpl != 4 && bpl != 16
#error "bpl is 1, 4 or 16"
#endif
#if ipt < 1
#error "ipt is at least 1"
#endif
#if block_size_x % 32 != 0
#error "block_size_x is a multiple of 32"
#endif

#define FULL 0xffffffffu
#define STEP (32 * bpl) /* bytes per warp per step */

/* The reference: one word per thread, its 32 bytes one at a time. */
extern "C" __global__ void bitpack_reference(unsigned *words, const unsigned char *flags, int count)
{
    const long w = (long)blockIdx.x * blockDim.x + threadIdx.x;
    if (w >= count / 32)
        return;
    unsigned word = 0;
    for (int j = 0; j < 32; j++)
        word |= (unsigned)(flags[32 * w + j] & 1) << j;
    words[w] = word;
}

/* The low bits of the 4 bytes of u, byte k's at bit k: each masked bit
 * moved to bit 28 + k by the multiplication, no two of its partial
 * products on one bit. */
__device__ __forceinline__ unsigned pack4(unsigned u)
{
    return ((u & 0x01010101u) * 0x10204080u) >> 28;
}

#if bpl == 16
typedef uint4 chunk_t;
#elif bpl == 4
typedef unsigned chunk_t;
#else
typedef unsigned char chunk_t;
#endif

extern "C" __global__ void __launch_bounds__(block_size_x)
    bitpack(unsigned *__restrict__ words, const unsigned char *__restrict__ flags, int count)
{
    const int lane = threadIdx.x & 31;
    const long warp = (long)blockIdx.x * (block_size_x / 32) + (threadIdx.x >> 5);
    const long base = warp * ipt * STEP; /* the tile's first byte */
    chunk_t v[ipt];
#pragma unroll
    for (int j = 0; j < ipt; j++) {
        const long s = base + (long)j * STEP;
        if (s < count)
            v[j] = __ldg(reinterpret_cast<const chunk_t *>(flags + s) + lane);
    }
#pragma unroll
    for (int j = 0; j < ipt; j++) {
        const long s = base + (long)j * STEP;
        if (s >= count) /* the whole warp, the same step */
            break;
        unsigned *ws = words + s / 32; /* the step's bpl words */
#if bpl == 1
        const unsigned word = __ballot_sync(FULL, v[j] & 1);
        if (lane == 0)
            ws[0] = word;
#elif bpl == 4
        unsigned b = pack4(v[j]) << (4 * (lane & 7));
        b |= __shfl_xor_sync(FULL, b, 1);
        b |= __shfl_xor_sync(FULL, b, 2);
        b |= __shfl_xor_sync(FULL, b, 4);
        if ((lane & 7) == 0)
            ws[lane >> 3] = b;
#else
        const uint4 q = v[j];
        unsigned h = pack4(q.x) | pack4(q.y) << 4 | pack4(q.z) << 8 | pack4(q.w) << 12;
        h <<= 16 * (lane & 1);
        h |= __shfl_xor_sync(FULL, h, 1);
        if ((lane & 1) == 0)
            ws[lane >> 1] = h;
#endif
    }
}
