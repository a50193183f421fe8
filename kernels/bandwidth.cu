// bandwidth.cu - streaming read, write and copy at a per-thread access width.
// -DWIDTH=4|8|16 picks the type each thread moves per access.
// -DFLAT=0: a persistent grid of grid-stride loops, four accesses in flight per thread.
// -DFLAT=1: one access per thread, a grid that covers the buffer once.

#ifndef WIDTH
#define WIDTH 16
#endif
#ifndef FLAT
#define FLAT 0
#endif

#if WIDTH == 4
typedef unsigned int T;
__device__ __forceinline__ unsigned long long wsum(T v) { return v; }
__device__ __forceinline__ T pat(unsigned long long i, unsigned int seed)
{ return (unsigned int)i * 0x9E3779B1u ^ seed; }
#define WORDS 1
#elif WIDTH == 8
typedef uint2 T;
__device__ __forceinline__ unsigned long long wsum(T v) { return (unsigned long long)v.x + v.y; }
__device__ __forceinline__ T pat(unsigned long long i, unsigned int seed)
{ unsigned int w = (unsigned int)i * 2u; return make_uint2(w * 0x9E3779B1u ^ seed, (w + 1u) * 0x9E3779B1u ^ seed); }
#define WORDS 2
#elif WIDTH == 16
typedef uint4 T;
__device__ __forceinline__ unsigned long long wsum(T v)
{ return (unsigned long long)v.x + v.y + (unsigned long long)v.z + v.w; }
__device__ __forceinline__ T pat(unsigned long long i, unsigned int seed)
{
    unsigned int w = (unsigned int)i * 4u;
    return make_uint4(w * 0x9E3779B1u ^ seed, (w + 1u) * 0x9E3779B1u ^ seed,
                      (w + 2u) * 0x9E3779B1u ^ seed, (w + 3u) * 0x9E3779B1u ^ seed);
}
#define WORDS 4
#else
#error "WIDTH must be 4, 8 or 16"
#endif

#if FLAT
// One element per thread. The read's checksums are summed per block (one
// word per block written), so the output stays a small share of the bytes.
extern "C" __global__ void bw_read(const T *__restrict__ in, unsigned long long n,
                                   unsigned long long *__restrict__ out)
{
    __shared__ unsigned long long block_sum;
    unsigned long long i = blockIdx.x * (unsigned long long)blockDim.x + threadIdx.x;
    unsigned long long acc = i < n ? wsum(__ldcs(in + i)) : 0;
    if (threadIdx.x == 0)
        block_sum = 0;
    for (int o = 16; o > 0; o >>= 1)
        acc += __shfl_down_sync(0xffffffffu, acc, o);
    __syncthreads();
    if ((threadIdx.x & 31) == 0)
        atomicAdd(&block_sum, acc);
    __syncthreads();
    if (threadIdx.x == 0)
        out[blockIdx.x] = block_sum;
}

extern "C" __global__ void bw_write(T *__restrict__ out, unsigned long long n, unsigned int seed)
{
    unsigned long long i = blockIdx.x * (unsigned long long)blockDim.x + threadIdx.x;
    if (i < n)
        __stcs(out + i, pat(i, seed));
}

extern "C" __global__ void bw_copy(const T *__restrict__ in, T *__restrict__ out, unsigned long long n)
{
    unsigned long long i = blockIdx.x * (unsigned long long)blockDim.x + threadIdx.x;
    if (i < n)
        __stcs(out + i, __ldcs(in + i));
}
#else
// Four independent loads in flight per thread per iteration; streaming
// (evict-first) loads, since no byte is read twice.
extern "C" __global__ void bw_read(const T *__restrict__ in, unsigned long long n,
                                   unsigned long long *__restrict__ out)
{
    unsigned long long tid = blockIdx.x * (unsigned long long)blockDim.x + threadIdx.x;
    unsigned long long stride = (unsigned long long)gridDim.x * blockDim.x;
    unsigned long long acc = 0, i = tid;
    for (; i + 3 * stride < n; i += 4 * stride) {
        T a = __ldcs(in + i), b = __ldcs(in + i + stride);
        T c = __ldcs(in + i + 2 * stride), d = __ldcs(in + i + 3 * stride);
        acc += wsum(a) + wsum(b) + wsum(c) + wsum(d);
    }
    for (; i < n; i += stride)
        acc += wsum(__ldcs(in + i));
    out[tid] = acc;
}

extern "C" __global__ void bw_write(T *__restrict__ out, unsigned long long n, unsigned int seed)
{
    unsigned long long stride = (unsigned long long)gridDim.x * blockDim.x;
    for (unsigned long long i = blockIdx.x * (unsigned long long)blockDim.x + threadIdx.x; i < n; i += stride)
        __stcs(out + i, pat(i, seed));
}

extern "C" __global__ void bw_copy(const T *__restrict__ in, T *__restrict__ out, unsigned long long n)
{
    unsigned long long stride = (unsigned long long)gridDim.x * blockDim.x;
    unsigned long long i = blockIdx.x * (unsigned long long)blockDim.x + threadIdx.x;
    for (; i + 3 * stride < n; i += 4 * stride) {
        T a = __ldcs(in + i), b = __ldcs(in + i + stride);
        T c = __ldcs(in + i + 2 * stride), d = __ldcs(in + i + 3 * stride);
        __stcs(out + i, a);
        __stcs(out + i + stride, b);
        __stcs(out + i + 2 * stride, c);
        __stcs(out + i + 3 * stride, d);
    }
    for (; i < n; i += stride)
        __stcs(out + i, __ldcs(in + i));
}
#endif

// Verification of bw_write: counts elements that differ from the pattern.
extern "C" __global__ void bw_check_write(const T *__restrict__ out, unsigned long long n,
                                          unsigned int seed, unsigned long long *bad)
{
    unsigned long long stride = (unsigned long long)gridDim.x * blockDim.x, b = 0;
    for (unsigned long long i = blockIdx.x * (unsigned long long)blockDim.x + threadIdx.x; i < n; i += stride) {
        T v = out[i], e = pat(i, seed);
        const unsigned int *pv = (const unsigned int *)&v, *pe = (const unsigned int *)&e;
        for (int k = 0; k < WORDS; k++)
            b += pv[k] != pe[k];
    }
    if (b)
        atomicAdd(bad, b);
}
