/* hamming.cu - Hamming distances of a batch of binary codes to one query:
 * dist[i] = popcount(codes[i] XOR query) for nvec codes of 512 bits (16
 * unsigned words, 64 bytes each, as a binary embedding or a locality-
 * sensitive hash stores them), the first filter of a nearest-neighbour
 * search over packed bits. Exact integer work: an XOR and a __popc per
 * word, the 16 counts added.
 *
 * lpc lanes of a warp share a code (lpc consecutive threads; a block of
 * block_size_x threads takes block_size_x / lpc consecutive codes). A code
 * is 16 / vw chunks of vw words (vw 1: an unsigned, 4 bytes; vw 4: a uint4,
 * 16 bytes); lane s of its group takes chunks s, s + lpc, s + 2 lpc, ...
 * (16 / (lpc vw) of them, all loaded before the first XOR) and the query's
 * chunks of the same index, which every code shares (64 bytes, served by
 * the caches). The lanes' counts are added by log2(lpc) __shfl_xor_sync
 * steps, and the group's first lane writes the distance.
 *   lpc 1, vw 1: 16 word loads per thread, each instruction 32 codes 64
 *     bytes apart; lpc 4, vw 4: a uint4 per lane, a warp's load 8 whole
 *     codes, 512 contiguous bytes.
 *
 * Compiled with -Dblock_size_x=B -Dlpc=L -Dvw=V -Dnvec=N. */

#define WORDS 16                     /* words per code */
#define CPL (WORDS / (lpc * vw))     /* chunks per lane */

#if lpc != 1 && lpc != 2 && lpc != 4
#error "lpc is 1, 2 or 4"
#endif

/* The reference: a code per thread, its words read one by one. */
extern "C" __global__ void hamming_reference(int *dist, const unsigned *codes, const unsigned *query, int count)
{
    const long i = (long)blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= count)
        return;
    int d = 0;
    for (int w = 0; w < WORDS; w++)
        d += __popc(codes[WORDS * i + w] ^ query[w]);
    dist[i] = d;
}

extern "C" __global__ void __launch_bounds__(block_size_x)
    hamming(int *__restrict__ dist, const unsigned *__restrict__ codes, const unsigned *__restrict__ query, int count)
{
    const int t = threadIdx.x;
    const int s = t % lpc;                                                  /* lane within the code's group */
    const long code = (long)blockIdx.x * (block_size_x / lpc) + t / lpc; /* the group's code */
    int d = 0;
    if (code < count) {
#if vw == 4
        const uint4 *c4 = reinterpret_cast<const uint4 *>(codes) + (WORDS / 4) * code;
        const uint4 *q4 = reinterpret_cast<const uint4 *>(query);
        uint4 v[CPL];
#pragma unroll
        for (int k = 0; k < CPL; k++)
            v[k] = c4[s + lpc * k];
#pragma unroll
        for (int k = 0; k < CPL; k++) {
            const uint4 q = q4[s + lpc * k];
            d += __popc(v[k].x ^ q.x) + __popc(v[k].y ^ q.y) + __popc(v[k].z ^ q.z) + __popc(v[k].w ^ q.w);
        }
#elif vw == 1
        const unsigned *c = codes + WORDS * code;
        unsigned v[CPL];
#pragma unroll
        for (int k = 0; k < CPL; k++)
            v[k] = c[s + lpc * k];
#pragma unroll
        for (int k = 0; k < CPL; k++)
            d += __popc(v[k] ^ query[s + lpc * k]);
#else
#error "vw is 1 or 4"
#endif
    }
    /* every lane of the warp takes part (block_size_x is a multiple of 32);
     * a group's lanes have the same code, in range or not */
#pragma unroll
    for (int o = lpc / 2; o > 0; o >>= 1)
        d += __shfl_xor_sync(0xffffffffu, d, o);
    if (s == 0 && code < count)
        dist[code] = d;
}
