// util.cu - gpubound's own helper kernels: fresh inputs, poison, checks, L2 flush.
// gb_fill_word must match the host's gb_fill_word in src/gpu/gpu.c bit for bit.

__device__ __forceinline__ unsigned int gb_fill_word(unsigned int seed, unsigned long long i)
{
    unsigned long long z = i + 0x9E3779B97F4A7C15ull * ((unsigned long long)seed + 1ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    z ^= z >> 31;
    unsigned int w = (unsigned int)z;
    return w ? w : 0x9E3779B9u;
}

extern "C" __global__ void gb_fill_random(unsigned int *p, unsigned long long n, unsigned int seed)
{
    for (unsigned long long i = blockIdx.x * (unsigned long long)blockDim.x + threadIdx.x; i < n;
         i += (unsigned long long)gridDim.x * blockDim.x)
        p[i] = gb_fill_word(seed, i);
}

extern "C" __global__ void gb_count_diff(const unsigned int *a, const unsigned int *b,
                                         unsigned long long n, unsigned long long *out)
{
    unsigned long long bad = 0;
    for (unsigned long long i = blockIdx.x * (unsigned long long)blockDim.x + threadIdx.x; i < n;
         i += (unsigned long long)gridDim.x * blockDim.x)
        bad += a[i] != b[i];
    if (bad)
        atomicAdd(out, bad);
}

extern "C" __global__ void gb_count_diff_fill(const unsigned int *a, unsigned long long n,
                                              unsigned int seed, unsigned long long *out)
{
    unsigned long long bad = 0;
    for (unsigned long long i = blockIdx.x * (unsigned long long)blockDim.x + threadIdx.x; i < n;
         i += (unsigned long long)gridDim.x * blockDim.x)
        bad += a[i] != gb_fill_word(seed, i);
    if (bad)
        atomicAdd(out, bad);
}

extern "C" __global__ void gb_sum_u32(const unsigned int *a, unsigned long long n,
                                      unsigned long long *out)
{
    unsigned long long s = 0;
    for (unsigned long long i = blockIdx.x * (unsigned long long)blockDim.x + threadIdx.x; i < n;
         i += (unsigned long long)gridDim.x * blockDim.x)
        s += a[i];
    atomicAdd(out, s);
}

// Writes (not reads) every line of the buffer, so the L2 holds none of the
// benchmark's data afterwards; the values change each call so nothing is skipped.
extern "C" __global__ void gb_flush(uint4 *p, unsigned long long n, unsigned int salt)
{
    for (unsigned long long i = blockIdx.x * (unsigned long long)blockDim.x + threadIdx.x; i < n;
         i += (unsigned long long)gridDim.x * blockDim.x)
        p[i] = make_uint4(salt, (unsigned int)i, salt, (unsigned int)(i >> 32));
}

// Reads every line of the buffer (written once, at allocation, by gb_flush):
// the L2 is left holding only clean lines of this buffer, so the next kernel
// neither finds its own data there nor pays to write back another's dirty
// lines. The sum goes to out[0] only when it is impossible, so the reads
// cannot be removed and nothing is written.
// The same reads, marked evict-last (persisting) on sm_80 and newer, so that
// they displace lines that plain reads do not; the caller resets the
// persisting lines to normal afterwards (cuCtxResetPersistingL2Cache).
extern "C" __global__ void gb_flush_read_last(const uint4 *p, unsigned long long n, unsigned int *out)
{
    unsigned int acc = 0;
#if __CUDA_ARCH__ >= 800
    unsigned long long policy;
    asm volatile("createpolicy.fractional.L2::evict_last.b64 %0, 1.0;" : "=l"(policy));
#endif
    for (unsigned long long i = blockIdx.x * (unsigned long long)blockDim.x + threadIdx.x; i < n;
         i += (unsigned long long)gridDim.x * blockDim.x) {
        uint4 v;
#if __CUDA_ARCH__ >= 800
        asm volatile("ld.global.L2::cache_hint.v4.u32 {%0, %1, %2, %3}, [%4], %5;"
                     : "=r"(v.x), "=r"(v.y), "=r"(v.z), "=r"(v.w) : "l"(p + i), "l"(policy));
#else
        v = __ldcg(p + i);
#endif
        acc ^= v.x ^ v.y ^ v.z ^ v.w;
    }
    if (acc == 0x9e3779b9u && out)
        out[0] = acc;
}

extern "C" __global__ void gb_flush_read(const uint4 *p, unsigned long long n, unsigned int *out)
{
    unsigned int acc = 0;
    for (unsigned long long i = blockIdx.x * (unsigned long long)blockDim.x + threadIdx.x; i < n;
         i += (unsigned long long)gridDim.x * blockDim.x) {
        uint4 v = __ldcg(p + i);
        acc ^= v.x ^ v.y ^ v.z ^ v.w;
    }
    if (acc == 0x9e3779b9u && out)
        out[0] = acc;
}

// Invalidates every 128-byte line of the buffer in the L2 without writing
// it back (sm_80 and newer; nothing before): after the flush's reads, the
// L2 holds no valid line at all, as after the driver's own invalidation.
extern "C" __global__ void gb_flush_discard(const char *p, unsigned long long n_lines)
{
    for (unsigned long long i = blockIdx.x * (unsigned long long)blockDim.x + threadIdx.x; i < n_lines;
         i += (unsigned long long)gridDim.x * blockDim.x) {
#if __CUDA_ARCH__ >= 800
        asm volatile("discard.global.L2 [%0], 128;" ::"l"(p + i * 128) : "memory");
#endif
    }
}
