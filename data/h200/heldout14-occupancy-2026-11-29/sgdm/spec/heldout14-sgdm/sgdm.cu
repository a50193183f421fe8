/* sgdm.cu - one step of SGD with momentum and weight decay over a flat
 * float parameter vector, in place (PyTorch's SGD with momentum mu,
 * dampening 0, not Nesterov): for each element, with its gradient g,
 *     d <- g + wd p,   m <- mu m + d,   p <- p - lr m
 * Three streams read (p, m, g) and two written back (p, m): 20 bytes and
 * three fmas per parameter. count is a multiple of 4 (float4 alignment).
 *
 * A tile of block_size_x x ept chunks of vec floats (a float or a float4
 * of each stream) is consecutive; thread t of a block takes its chunks t,
 * t + block_size_x, ... of the tile and issues all its 3 ept loads before
 * its first store. With gstride 0 the grid has a block per tile and each
 * block does one; with gstride 1 the grid is at most 132 x 2048 /
 * block_size_x blocks (one full wave of 2048 threads on each of 132 SMs)
 * and each block strides over the tiles, gridDim.x tiles apart.
 *
 * Every operation of sgdm_elem() is an explicitly rounded intrinsic, so
 * the kernel and the reference, which both call it, compute the same bits
 * whatever the compiler contracts elsewhere.
 *
 * Compiled with -Dblock_size_x=B -Dvec=V -Dept=E -Dgstride=G -Dnparam=N. */

#if vec != 1 && vec != 4
#error "vec is 1 or 4"
#endif
#if ept < 1
#error "ept is at least 1"
#endif
#if gstride != 0 && gstride != 1
#error "gstride is 0 or 1"
#endif

__device__ __forceinline__ void sgdm_elem(float &p, float &m, float g, float lr, float mu, float wd)
{
    const float d = __fmaf_rn(wd, p, g);
    m = __fmaf_rn(mu, m, d);
    p = __fsub_rn(p, __fmul_rn(lr, m));
}

/* The reference: one element per thread. */
extern "C" __global__ void sgdm_reference(float *p, float *m, const float *g, float lr, float mu, float wd, int count)
{
    const long i = (long)blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= count)
        return;
    float pp = p[i], mm = m[i];
    sgdm_elem(pp, mm, g[i], lr, mu, wd);
    p[i] = pp;
    m[i] = mm;
}

#if vec == 4
typedef float4 chunk_t;
__device__ __forceinline__ void sgdm_chunk(chunk_t &p, chunk_t &m, const chunk_t &g, float lr, float mu, float wd)
{
    sgdm_elem(p.x, m.x, g.x, lr, mu, wd);
    sgdm_elem(p.y, m.y, g.y, lr, mu, wd);
    sgdm_elem(p.z, m.z, g.z, lr, mu, wd);
    sgdm_elem(p.w, m.w, g.w, lr, mu, wd);
}
#else
typedef float chunk_t;
__device__ __forceinline__ void sgdm_chunk(chunk_t &p, chunk_t &m, const chunk_t &g, float lr, float mu, float wd)
{
    sgdm_elem(p, m, g, lr, mu, wd);
}
#endif

/* One tile: the chunks base, base + block_size_x, ... (ept of them) that
 * lie below chunks. */
__device__ __forceinline__ void sgdm_tile(chunk_t *__restrict__ p, chunk_t *__restrict__ m,
                                          const chunk_t *__restrict__ g, long base, long chunks, float lr, float mu,
                                          float wd)
{
    chunk_t pp[ept], mm[ept], gg[ept];
#pragma unroll
    for (int k = 0; k < ept; k++) {
        const long c = base + (long)k * block_size_x;
        if (c < chunks) {
            pp[k] = p[c];
            mm[k] = m[c];
            gg[k] = __ldg(g + c);
        }
    }
#pragma unroll
    for (int k = 0; k < ept; k++) {
        const long c = base + (long)k * block_size_x;
        if (c < chunks) {
            sgdm_chunk(pp[k], mm[k], gg[k], lr, mu, wd);
            p[c] = pp[k];
            m[c] = mm[k];
        }
    }
}

extern "C" __global__ void __launch_bounds__(block_size_x)
    sgdm(float *__restrict__ p, float *__restrict__ m, const float *__restrict__ g, float lr, float mu, float wd,
         int count)
{
    const long chunks = count / vec;
    const long tile = (long)block_size_x * ept; /* chunks per tile */
    chunk_t *pc = reinterpret_cast<chunk_t *>(p);
    chunk_t *mc = reinterpret_cast<chunk_t *>(m);
    const chunk_t *gc = reinterpret_cast<const chunk_t *>(g);
#if gstride
    for (long base = (long)blockIdx.x * tile + threadIdx.x; base < chunks; base += (long)gridDim.x * tile)
        sgdm_tile(pc, mc, gc, base, chunks, lr, mu, wd);
#else
    sgdm_tile(pc, mc, gc, (long)blockIdx.x * tile + threadIdx.x, chunks, lr, mu, wd);
#endif
}
