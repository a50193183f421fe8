/* dq4.cu - the dequantisation of a weight matrix stored as 4-bit integers
 * with a half scale per group (GPTQ's and AWQ's symmetric layout), into
 * half weights for a half GEMM:
 *     w[e] = (q_e - 8) scale[e / gsz],  q_e = (q[e / 8] >> 4 (e mod 8)) & 15
 * e = ROWLEN r + c the element of row r and column c; the matrix has count
 * rows of ROWLEN (4096) weights, packed eight to a 32-bit word (element j
 * of a word in bits 4j to 4j + 3), and each run of gsz (32 or 128)
 * consecutive weights of a row shares a scale. 0.5 bytes of q and 2 of w
 * per weight, and 2 bytes of scale per group.
 *
 * A thread per wpt consecutive words (8 wpt weights of one group): one load
 * of q of 4 (wpt 1, an unsigned), 8 (2, a uint2) or 16 bytes (4, a uint4),
 * one of its group's scale, then each word's eight weights by shifts and
 * masks, converted to float, multiplied by the scale, rounded to half in
 * pairs and stored as one 16-byte uint4 per word. The grid covers the
 * words once: count ROWLEN / (8 wpt block_size_x) blocks.
 *
 * Compiled with -Dblock_size_x=T -Dwpt=W -Dgsz=G -Dnrows=N. */

#include <cuda_fp16.h>

#define ROWLEN 4096 /* weights per row */

#if wpt != 1 && wpt != 2 && wpt != 4
#error "wpt is 1, 2 or 4"
#endif
#if gsz % (8 * wpt) != 0 || ROWLEN % gsz != 0
#error "8 wpt divides gsz, and gsz divides ROWLEN"
#endif

/* The reference: one weight per thread, its nibble taken from the word by a
 * division and a remainder, the product in double rounded to half once. */
extern "C" __global__ void dq4_reference(__half *w, const unsigned *q, const __half *scale, int count)
{
    const long long e = (long long)blockIdx.x * blockDim.x + threadIdx.x;
    if (e >= (long long)count * 4096)
        return;
    const unsigned word = q[e / 8];
    const int nib = (int)((word / (1u << (4 * (e % 8)))) % 16u);
    w[e] = __double2half((double)(nib - 8) * (double)__half2float(scale[e / gsz]));
}

/* one word's eight weights, as four half2 pairs in a uint4 */
__device__ __forceinline__ uint4 dequant_word(unsigned word, float s)
{
    unsigned h[4];
#pragma unroll
    for (int p = 0; p < 4; p++) {
        const float lo = (float)((int)((word >> (8 * p)) & 15u) - 8) * s;
        const float hi = (float)((int)((word >> (8 * p + 4)) & 15u) - 8) * s;
        const __half2 pair = __floats2half2_rn(lo, hi);
        h[p] = *(const unsigned *)&pair;
    }
    return make_uint4(h[0], h[1], h[2], h[3]);
}

extern "C" __global__ void __launch_bounds__(block_size_x)
    dq4(__half *__restrict__ w, const unsigned *__restrict__ q, const __half *__restrict__ scale, int count)
{
    const long nword = (long)count * (ROWLEN / 8);
    const long t = (long)blockIdx.x * block_size_x + threadIdx.x;
    const long w0 = t * wpt; /* the thread's first word */
    if (w0 >= nword)
        return;
    unsigned word[wpt];
#if wpt == 1
    word[0] = __ldg(q + w0);
#elif wpt == 2
    const uint2 v = __ldg((const uint2 *)q + t);
    word[0] = v.x;
    word[1] = v.y;
#else
    const uint4 v = __ldg((const uint4 *)q + t);
    word[0] = v.x;
    word[1] = v.y;
    word[2] = v.z;
    word[3] = v.w;
#endif
    const float s = __half2float(__ldg(scale + w0 * 8 / gsz));
    uint4 *dst = (uint4 *)w + w0;
#pragma unroll
    for (int k = 0; k < wpt; k++)
        dst[k] = dequant_word(word[k], s);
}
