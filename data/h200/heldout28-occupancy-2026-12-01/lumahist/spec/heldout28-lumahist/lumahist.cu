/* lumahist.cu - the 256-bin histogram of an 8-bit RGBA image's brightness,
 * as an exposure meter, an auto-levels or a histogram equalisation takes
 * it: each pixel is a 32-bit word, R in its low byte, then G, B and A (A
 * ignored), and its bin is (measure)
 *   0: the HSV value, max(R, G, B);
 *   1: the BT.601 luma in 8-bit fixed point,
 *      (77 R + 150 G + 29 B + 128) >> 8 (weights 0.299, 0.587, 0.114
 *      times 256, rounded so that they sum to 256: 0 to 255).
 *     hist[bin(px[i])] += 1,  0 <= i < count
 * px holds count pixels, hist 256 unsigned counters, added to (the caller
 * zeroes them): integer additions, so the order of the atomics changes
 * nothing. 4 bytes read per pixel.
 *
 * A block keeps a private histogram of 256 counters in shared memory. Its
 * threads take vpt uint4s (4 pixels each) a block-width apart, all loaded
 * first (vpt independent 16-byte loads in flight, a warp's load 512
 * contiguous bytes), zero the shared histogram meanwhile, and after a
 * barrier add each of their 4 vpt pixels to its bin by a shared-memory
 * atomicAdd; after a second barrier the block adds each bin it counted
 * (not zero) to the global histogram by one atomicAdd. The grid covers
 * the pixels once, ceil(count / (4 vpt block_size_x)) blocks; the pixels
 * of a last partial uint4 (count not a multiple of 4) are taken one by
 * one by the thread whose uint4 would start there.
 *
 * Compiled with -Dblock_size_x=T -Dvpt=V -Dmeasure=M -Dnpix=N. */

#define NBINS 256

#if measure != 0 && measure != 1
#error "measure is 0 (max of R, G, B) or 1 (BT.601 luma)"
#endif
#if vpt != 1 && vpt != 2 && vpt != 4 && vpt != 8
#error "vpt is 1, 2, 4 or 8"
#endif

/* The reference: one pixel per thread, its channels by divisions and
 * remainders, the bin by comparisons or by an integer division, one
 * global atomicAdd per pixel. */
extern "C" __global__ void lumahist_reference(unsigned *hist, const unsigned *px, int count)
{
    const long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= count)
        return;
    const unsigned p = px[i];
    const unsigned red = p % 256u, green = p / 256u % 256u, blue = p / 65536u % 256u;
    unsigned b;
    if (measure == 0) {
        b = red;
        if (green > b)
            b = green;
        if (blue > b)
            b = blue;
    } else {
        b = (77u * red + 150u * green + 29u * blue + 128u) / 256u;
    }
    atomicAdd(&hist[b], 1u);
}

__device__ __forceinline__ unsigned bin_of(unsigned p)
{
    const unsigned r = p & 0xffu, g = (p >> 8) & 0xffu, b = (p >> 16) & 0xffu;
#if measure == 0
    return max(r, max(g, b));
#else
    return (77u * r + 150u * g + 29u * b + 128u) >> 8;
#endif
}

extern "C" __global__ void __launch_bounds__(block_size_x)
    lumahist(unsigned *__restrict__ hist, const uint4 *__restrict__ px, int count)
{
    __shared__ unsigned sh[NBINS];
    const int t = threadIdx.x;
    const long nvec = count / 4;
    const long first = (long)blockIdx.x * (vpt * block_size_x) + t;

    uint4 v[vpt];
#pragma unroll
    for (int k = 0; k < vpt; k++) {
        const long q = first + (long)k * block_size_x;
        v[k] = q < nvec ? __ldg(px + q) : make_uint4(0u, 0u, 0u, 0u);
    }
    for (int b = t; b < NBINS; b += block_size_x)
        sh[b] = 0u;
    __syncthreads();

#pragma unroll
    for (int k = 0; k < vpt; k++) {
        const long q = first + (long)k * block_size_x;
        if (q < nvec) {
            atomicAdd(&sh[bin_of(v[k].x)], 1u);
            atomicAdd(&sh[bin_of(v[k].y)], 1u);
            atomicAdd(&sh[bin_of(v[k].z)], 1u);
            atomicAdd(&sh[bin_of(v[k].w)], 1u);
        } else if (q == nvec) {
            const unsigned *tail = (const unsigned *)px + 4 * nvec;
            for (int j = 0; j < count - 4 * nvec; j++)
                atomicAdd(&sh[bin_of(__ldg(tail + j))], 1u);
        }
    }
    __syncthreads();

    for (int b = t; b < NBINS; b += block_size_x) {
        const unsigned c = sh[b];
        if (c != 0u)
            atomicAdd(&hist[b], c);
    }
}
