/* triad.cu - the STREAM triad, a[i] = b[i] + s * c[i], over n floats.
 *
 * Compiled with -Dblock_size_x=B -Delems_per_thread=E -Dvector_width=V
 * -Dn=N. Block k covers B * E * V consecutive elements: thread t moves
 * vectors (float, float2 or float4) t, t + B, .., t + (E-1) B of them, so
 * every load and store of a warp is coalesced and each thread has E
 * independent loads in flight. Elements past the last whole vector (count
 * not a multiple of V) are done one by one by the first block. */

template <int V> struct vec;
template <> struct vec<1> { typedef float t; };
template <> struct vec<2> { typedef float2 t; };
template <> struct vec<4> { typedef float4 t; };

__device__ __forceinline__ float triad1(float b, float c, float s) { return b + s * c; }
__device__ __forceinline__ float2 triad1(float2 b, float2 c, float s)
{
    return make_float2(b.x + s * c.x, b.y + s * c.y);
}
__device__ __forceinline__ float4 triad1(float4 b, float4 c, float s)
{
    return make_float4(b.x + s * c.x, b.y + s * c.y, b.z + s * c.z, b.w + s * c.w);
}

/* The reference: one element per thread. */
extern "C" __global__ void triad_reference(float *a, const float *b, const float *c, float s, int count)
{
    const long i = (long)blockIdx.x * blockDim.x + threadIdx.x;
    if (i < count)
        a[i] = b[i] + s * c[i];
}

extern "C" __global__ void __launch_bounds__(block_size_x)
    triad(float *a, const float *b, const float *c, float s, int count)
{
    typedef vec<vector_width>::t V;
    const long nvec = count / vector_width;
    const long base = (long)blockIdx.x * (block_size_x * elems_per_thread) + threadIdx.x;
    V *av = reinterpret_cast<V *>(a);
    const V *bv = reinterpret_cast<const V *>(b);
    const V *cv = reinterpret_cast<const V *>(c);
#pragma unroll
    for (int k = 0; k < elems_per_thread; k++) {
        const long i = base + (long)k * block_size_x;
        if (i < nvec)
            av[i] = triad1(bv[i], cv[i], s);
    }
    const long tail = nvec * vector_width + threadIdx.x;
    if (blockIdx.x == 0 && tail < count)
        a[tail] = b[tail] + s * c[tail];
}
