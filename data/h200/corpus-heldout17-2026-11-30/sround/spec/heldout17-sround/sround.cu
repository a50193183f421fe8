/* sround.cu - floats converted to bfloat16 with stochastic rounding, as
 * weights or gradients are stored in a low-precision training step: each
 * element is rounded up in magnitude with a probability equal to the part
 * of its value that bfloat16 drops (its low 16 bits over 2^16), so that the
 * rounding is unbiased on average. The random bits come from a hash of
 * (seed, index), the same for an element wherever and whenever it is
 * converted: the result is deterministic given the seed.
 *
 *     h = i * 0x9E3779B1 (the element's 32-bit index times the golden ratio)
 *     hrounds times: h ^= seed + k * 0x9E3779B9 (round k), then murmur3's
 *                    finaliser (h ^= h >> 16, h *= 0x85EBCA6B, h ^= h >> 13,
 *                    h *= 0xC2B2AE35, h ^= h >> 16)
 *     y = (bits(x) + (h >> 16)) >> 16
 *
 * Adding 16 random bits below the 16 kept and truncating carries into
 * the kept bits with probability (low 16 bits) / 2^16, in the magnitude
 * (bits in sign and magnitude): a value bfloat16 holds exactly is kept.
 * Finite inputs only (a NaN's payload could carry into the sign; the
 * spec's inputs are within [-2, 2]). sr_hash() and sr_round() are plain
 * integer arithmetic, which the kernel and the reference both call: their
 * outputs agree to the bit. y holds the bfloat16 values' bits as unsigned
 * shorts (the spec's type is bfloat16).
 *
 * A thread converts a chunk of ept consecutive elements: ept 1 a float
 * loaded and 2 bytes stored, ept 4 a float4 loaded and 8 bytes (a uint2)
 * stored, ept 8 two float4s loaded and 16 bytes (a uint4) stored, each
 * element with its own hash. count is a multiple of 8 (the spec's
 * restriction), so that no chunk is partial.
 *
 * Compiled with -Dblock_size_x=T -Dept=E -Dhrounds=R -Dnelem=N. */

#if ept != 1 && ept != 4 && ept != 8
#error "ept is 1, 4 or 8"
#endif
#if hrounds < 1
#error "hrounds is at least 1"
#endif

__device__ __forceinline__ unsigned int sr_hash(unsigned int seed, unsigned int i)
{
    unsigned int h = i * 0x9E3779B1u;
#pragma unroll
    for (int k = 0; k < hrounds; k++) {
        h ^= seed + (unsigned int)k * 0x9E3779B9u;
        h ^= h >> 16;
        h *= 0x85EBCA6Bu;
        h ^= h >> 13;
        h *= 0xC2B2AE35u;
        h ^= h >> 16;
    }
    return h;
}

/* x rounded to bfloat16 (its bits) with the random bits h >> 16. */
__device__ __forceinline__ unsigned int sr_round(float v, unsigned int h)
{
    return (__float_as_uint(v) + (h >> 16)) >> 16;
}

/* The reference: one element per thread. */
extern "C" __global__ void sround_reference(unsigned short *y, const float *x, unsigned int seed, int count)
{
    const long i = (long)blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= count)
        return;
    y[i] = (unsigned short)sr_round(x[i], sr_hash(seed, (unsigned int)i));
}

extern "C" __global__ void __launch_bounds__(block_size_x)
    sround(unsigned short *__restrict__ y, const float *__restrict__ x, unsigned int seed, int count)
{
    const long c = (long)blockIdx.x * block_size_x + threadIdx.x; /* the chunk */
    if (c >= count / ept)
        return;
    const unsigned int i = (unsigned int)(c * ept); /* its first element */
#if ept == 1
    y[c] = (unsigned short)sr_round(__ldg(x + c), sr_hash(seed, i));
#elif ept == 4
    const float4 v = __ldg(reinterpret_cast<const float4 *>(x) + c);
    uint2 w;
    w.x = sr_round(v.x, sr_hash(seed, i)) | sr_round(v.y, sr_hash(seed, i + 1)) << 16;
    w.y = sr_round(v.z, sr_hash(seed, i + 2)) | sr_round(v.w, sr_hash(seed, i + 3)) << 16;
    reinterpret_cast<uint2 *>(y)[c] = w;
#else
    const float4 v0 = __ldg(reinterpret_cast<const float4 *>(x) + 2 * c);
    const float4 v1 = __ldg(reinterpret_cast<const float4 *>(x) + 2 * c + 1);
    uint4 w;
    w.x = sr_round(v0.x, sr_hash(seed, i)) | sr_round(v0.y, sr_hash(seed, i + 1)) << 16;
    w.y = sr_round(v0.z, sr_hash(seed, i + 2)) | sr_round(v0.w, sr_hash(seed, i + 3)) << 16;
    w.z = sr_round(v1.x, sr_hash(seed, i + 4)) | sr_round(v1.y, sr_hash(seed, i + 5)) << 16;
    w.w = sr_round(v1.z, sr_hash(seed, i + 6)) | sr_round(v1.w, sr_hash(seed, i + 7)) << 16;
    reinterpret_cast<uint4 *>(y)[c] = w;
#endif
}
