/* crc32.cu - the CRC-32 of each of count records of 256 bytes (a checksum
 * per page or block of a store, as a deduplicating or verifying copy takes
 * them): the IEEE 802.3 / zlib CRC, reflected polynomial 0xEDB88320,
 * initial value and final xor 0xFFFFFFFF, so that crc[r] is zlib's
 * crc32(0, record r, 256). A record is RWORDS (64) unsigned words, little
 * endian: the bytes of word k are the record's bytes 4 k to 4 k + 3, low
 * byte first, the order in which the CRC takes them.
 *
 * A thread takes rpt records a block apart (r, r + block_size_x, ...),
 * their CRCs stepped a word at a time together (rpt independent chains),
 * each record read by 16 uint4 loads of its own 256 contiguous bytes
 * (consecutive threads' records 256 bytes apart). The step of a word
 * (method):
 *   0: bit by bit, no table: c ^= w, then 32 times c = (c >> 1) ^
 *      (POLY & -(c & 1));
 *   1: a byte at a time (Sarwate) through a table of 256 words in shared
 *      memory: c ^= w, then 4 times c = T0[c & 0xff] ^ (c >> 8), each
 *      lookup's address depending on the last;
 *   2: four bytes at once (slicing-by-4) through 4 tables of 256 words in
 *      shared memory: c ^= w, then c = T3[c & 0xff] ^ T2[(c >> 8) & 0xff]
 *      ^ T1[(c >> 16) & 0xff] ^ T0[c >> 24], the 4 lookups independent.
 * Every block builds its tables first: T0[i] the CRC step of the byte i
 * by 8 bit steps, and with method 2, after a barrier, Tk[i] = (T(k-1)[i]
 * >> 8) ^ T0[T(k-1)[i] & 0xff], the step of byte i followed by k zero
 * bytes; a barrier, then the records.
 *
 * Compiled with -Dblock_size_x=T -Dmethod=M -Drpt=P -Dnrec=N. */

#define RWORDS 64          /* words of a record: 256 bytes */
#define POLY 0xEDB88320u   /* the CRC-32 polynomial, reflected */
#define NTAB (method == 2 ? 4 : 1) /* tables in shared memory (methods 1, 2) */

#if method != 0 && method != 1 && method != 2
#error "method is 0, 1 or 2"
#endif
#if rpt != 1 && rpt != 2
#error "rpt is 1 or 2"
#endif

/* One bit of the CRC's division. */
__device__ __forceinline__ unsigned int crc_bit(unsigned int c)
{
    return (c >> 1) ^ (POLY & (0u - (c & 1u)));
}

/* The reference: one record per thread, a byte at a time, bit by bit. */
extern "C" __global__ void crc32_reference(unsigned int *crc, const unsigned int *rec, int count)
{
    const long r = (long)blockIdx.x * blockDim.x + threadIdx.x;
    if (r >= count)
        return;
    const unsigned char *p = reinterpret_cast<const unsigned char *>(rec + r * RWORDS);
    unsigned int c = 0xFFFFFFFFu;
    for (int b = 0; b < 4 * RWORDS; b++) {
        c ^= p[b];
        for (int k = 0; k < 8; k++)
            c = crc_bit(c);
    }
    crc[r] = ~c;
}

#if method == 0
__device__ __forceinline__ unsigned int crc_word(unsigned int c, unsigned int w)
{
    c ^= w;
#pragma unroll
    for (int k = 0; k < 32; k++)
        c = crc_bit(c);
    return c;
}
#elif method == 1
__device__ __forceinline__ unsigned int crc_word(const unsigned int (*tab)[256], unsigned int c, unsigned int w)
{
    c ^= w;
#pragma unroll
    for (int k = 0; k < 4; k++)
        c = tab[0][c & 0xffu] ^ (c >> 8);
    return c;
}
#else
__device__ __forceinline__ unsigned int crc_word(const unsigned int (*tab)[256], unsigned int c, unsigned int w)
{
    c ^= w;
    return tab[3][c & 0xffu] ^ tab[2][(c >> 8) & 0xffu] ^ tab[1][(c >> 16) & 0xffu] ^ tab[0][c >> 24];
}
#endif

#if method == 0
#define CRC_WORD(c, w) crc_word((c), (w))
#else
#define CRC_WORD(c, w) crc_word(tab, (c), (w))
#endif

extern "C" __global__ void __launch_bounds__(block_size_x)
    crc32(unsigned int *__restrict__ crc, const unsigned int *__restrict__ rec, int count)
{
#if method >= 1
    __shared__ unsigned int tab[NTAB][256];
    for (int i = threadIdx.x; i < 256; i += block_size_x) {
        unsigned int c = (unsigned int)i;
#pragma unroll
        for (int k = 0; k < 8; k++)
            c = crc_bit(c);
        tab[0][i] = c;
    }
#if method == 2
    __syncthreads();
    for (int i = threadIdx.x; i < 256; i += block_size_x) {
        unsigned int c = tab[0][i];
#pragma unroll
        for (int k = 1; k < 4; k++) {
            c = (c >> 8) ^ tab[0][c & 0xffu];
            tab[k][i] = c;
        }
    }
#endif
    __syncthreads();
#endif
    const long r0 = (long)blockIdx.x * (block_size_x * rpt) + threadIdx.x;
    const uint4 *p[rpt];
    unsigned int c[rpt];
#pragma unroll
    for (int m = 0; m < rpt; m++) {
        /* a record past the end reads the last one and stores nothing */
        const long r = min(r0 + (long)m * block_size_x, (long)count - 1);
        p[m] = reinterpret_cast<const uint4 *>(rec + r * RWORDS);
        c[m] = 0xFFFFFFFFu;
    }
#pragma unroll 4
    for (int q = 0; q < RWORDS / 4; q++) {
        uint4 v[rpt];
#pragma unroll
        for (int m = 0; m < rpt; m++)
            v[m] = __ldg(p[m] + q);
#pragma unroll
        for (int m = 0; m < rpt; m++) {
            c[m] = CRC_WORD(c[m], v[m].x);
            c[m] = CRC_WORD(c[m], v[m].y);
            c[m] = CRC_WORD(c[m], v[m].z);
            c[m] = CRC_WORD(c[m], v[m].w);
        }
    }
#pragma unroll
    for (int m = 0; m < rpt; m++) {
        const long r = r0 + (long)m * block_size_x;
        if (r < count)
            crc[r] = ~c[m];
    }
}
