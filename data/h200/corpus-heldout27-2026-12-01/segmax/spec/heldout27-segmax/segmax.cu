/* segmax.cu - the largest element (absv 0) or the largest magnitude
 * (absv 1) of each segment of SEGLEN (256) consecutive floats:
 *     out[s] = max over j < 256 of x[256 s + j]      (absv 0)
 *     out[s] = max over j < 256 of |x[256 s + j]|    (absv 1)
 * (a segmented max over segments of one length, as torch's segment_reduce
 * "max"; the absolute maximum of each block of 256 values is what a
 * block-scaled quantisation takes its scales from). x holds 256 count
 * floats, out count floats: 1024 bytes read per 4 written.
 *
 * A warp per segment, spw consecutive segments per warp: lane l loads the
 * float4s l and 32 + l of each of its warp's segments (a warp's load is
 * 512 contiguous bytes; 2 spw independent 16-byte loads in flight per
 * lane, all issued before the first maximum), takes the maximum of its 8
 * values of a segment, and the warp combines its 32 partial maxima by five
 * butterfly shuffles; lane 0 stores the segment's maximum. The grid is
 * ceil(count / (spw block_size_x / 32)) blocks; segments past the end (a
 * partial last block) are skipped by the whole warp.
 *
 * Compiled with -Dblock_size_x=T -Dspw=S -Dabsv=A -Dnseg=N. */

#define SEGLEN 256 /* floats per segment: 64 float4s, two per lane */

#if absv != 0 && absv != 1
#error "absv is 0 (max) or 1 (max of magnitudes)"
#endif
#if spw != 1 && spw != 2 && spw != 4 && spw != 8
#error "spw is 1, 2, 4 or 8"
#endif
#if block_size_x % 32 != 0
#error "block_size_x is a whole number of warps"
#endif

/* The reference: one segment per thread, its 256 floats in order, the
 * largest kept by a comparison. */
extern "C" __global__ void segmax_reference(float *out, const float *x, int count)
{
    const long long s = (long long)blockIdx.x * blockDim.x + threadIdx.x;
    if (s >= count)
        return;
    const float *seg = x + s * 256;
    float best = absv == 1 ? fabsf(seg[0]) : seg[0];
    for (int j = 1; j < 256; j++) {
        const float v = absv == 1 ? fabsf(seg[j]) : seg[j];
        if (v > best)
            best = v;
    }
    out[s] = best;
}

__device__ __forceinline__ float key(float v)
{
#if absv == 1
    return fabsf(v);
#else
    return v;
#endif
}

__device__ __forceinline__ float max8(float4 a, float4 b)
{
    return fmaxf(fmaxf(fmaxf(key(a.x), key(a.y)), fmaxf(key(a.z), key(a.w))),
                 fmaxf(fmaxf(key(b.x), key(b.y)), fmaxf(key(b.z), key(b.w))));
}

extern "C" __global__ void __launch_bounds__(block_size_x)
    segmax(float *__restrict__ out, const float4 *__restrict__ x, int count)
{
    const int lane = threadIdx.x & 31;
    const long first = ((long)blockIdx.x * (block_size_x / 32) + threadIdx.x / 32) * spw;
    float4 lo[spw], hi[spw];
#pragma unroll
    for (int k = 0; k < spw; k++) {
        if (first + k < count) {
            const float4 *seg = x + (first + k) * (SEGLEN / 4);
            lo[k] = __ldg(seg + lane);
            hi[k] = __ldg(seg + 32 + lane);
        } else {
            lo[k] = hi[k] = make_float4(0.0f, 0.0f, 0.0f, 0.0f);
        }
    }
#pragma unroll
    for (int k = 0; k < spw; k++) {
        float m = max8(lo[k], hi[k]);
#pragma unroll
        for (int o = 16; o > 0; o >>= 1)
            m = fmaxf(m, __shfl_xor_sync(0xffffffffu, m, o));
        if (lane == 0 && first + k < count)
            out[first + k] = m;
    }
}
