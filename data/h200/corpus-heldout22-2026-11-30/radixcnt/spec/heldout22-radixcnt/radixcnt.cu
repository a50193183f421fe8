/* radixcnt.cu - the digit-count pass of an LSD radix sort: the number of
 * keys with each value of one 8-bit digit,
 *     cnt[(key[i] >> dshift) & 255] += 1,  0 <= i < count
 * key holds count unsigned 32-bit keys; cnt RADIX (256) unsigned counters
 * in global memory, added to (the caller zeroes them): integer additions,
 * so the order of the atomics changes nothing. dshift is the digit's
 * lowest bit (0, 8, 16 or 24: the pass of the sort). The counts are what
 * the scan of the sort's pass turns into each bucket's first place.
 *
 * A block takes block_size_x KPT (16) keys: each thread KPT / 4 uint4 a
 * block of uint4 apart (a warp's load 512 contiguous bytes), all loaded
 * before any atomic; a key past the end (a partial last block or a count
 * that is no multiple of 4) is read on its own or not at all. Then
 * (method):
 *   0: an atomicAdd of 1 to cnt at the key's digit, per key (the L2's
 *      atomic units, at whatever address the digit is);
 *   1: the block counts in shared memory first (RADIX counters zeroed,
 *      a shared atomicAdd per key, a barrier), then adds each bucket that
 *      its keys reached to cnt by one atomicAdd: at most RADIX global
 *      atomics a block, as few as the digits its keys have.
 * Keys whose digit takes few values (small keys at a high digit) crowd
 * the atomics of either method onto a few addresses.
 *
 * Compiled with -Dblock_size_x=T -Dmethod=M -Ddshift=S -Dnelem=N. */

#define RADIX 256 /* buckets of an 8-bit digit */
#define KPT 16    /* keys per thread, as KPT / 4 uint4 */

#if method != 0 && method != 1
#error "method is 0 or 1"
#endif
#if dshift != 0 && dshift != 8 && dshift != 16 && dshift != 24
#error "dshift is 0, 8, 16 or 24"
#endif
#if block_size_x < 1 || block_size_x > 1024
#error "block_size_x is 1 to 1024"
#endif

/* The reference: one key per thread, its digit worked out in 64-bit
 * arithmetic by a division and a remainder, one atomicAdd. */
extern "C" __global__ void radixcnt_reference(unsigned int *cnt, const unsigned int *key, int count)
{
    const long i = (long)blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= count)
        return;
    unsigned long long place = 1;
    for (int b = 0; b < dshift; b++)
        place *= 2;
    const unsigned long long d = ((unsigned long long)key[i] / place) % 256ull;
    atomicAdd(cnt + d, 1u);
}

/* launch bounds for a full SM (2048 threads): at most 32 registers */
extern "C" __global__ void __launch_bounds__(block_size_x, 2048 / block_size_x)
    radixcnt(unsigned int *__restrict__ cnt, const unsigned int *__restrict__ key, int count)
{
    /* the digits of the thread's keys; RADIX for a key past the end */
    unsigned int d[KPT];
    const long q0 = (long)blockIdx.x * block_size_x * (KPT / 4) + threadIdx.x;
#pragma unroll
    for (int g = 0; g < KPT / 4; g++) {
        const long i = 4 * (q0 + (long)g * block_size_x);
        if (i + 4 <= count) {
            const uint4 v = __ldg((const uint4 *)key + i / 4);
            d[4 * g] = (v.x >> dshift) & (RADIX - 1);
            d[4 * g + 1] = (v.y >> dshift) & (RADIX - 1);
            d[4 * g + 2] = (v.z >> dshift) & (RADIX - 1);
            d[4 * g + 3] = (v.w >> dshift) & (RADIX - 1);
        } else {
#pragma unroll
            for (int j = 0; j < 4; j++)
                d[4 * g + j] = i + j < count ? (__ldg(key + i + j) >> dshift) & (RADIX - 1) : RADIX;
        }
    }
#if method == 0
#pragma unroll
    for (int e = 0; e < KPT; e++)
        if (d[e] < RADIX)
            atomicAdd(cnt + d[e], 1u);
#else
    __shared__ unsigned int local[RADIX];
    for (int b = threadIdx.x; b < RADIX; b += block_size_x)
        local[b] = 0;
    __syncthreads();
#pragma unroll
    for (int e = 0; e < KPT; e++)
        if (d[e] < RADIX)
            atomicAdd(local + d[e], 1u);
    __syncthreads();
    for (int b = threadIdx.x; b < RADIX; b += block_size_x) {
        const unsigned int c = local[b];
        if (c != 0)
            atomicAdd(cnt + b, c);
    }
#endif
}
