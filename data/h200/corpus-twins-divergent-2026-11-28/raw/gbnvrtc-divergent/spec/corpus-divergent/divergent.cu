/* divergent.cu - a per-element update whose rule depends on the element's
 * kind (a material id, a particle species, a cell type): kinds 0..3 take
 * four branches of very different cost,
 *
 *   0: one multiply-add                    2: Newton iterations, x^(1/3)
 *   1: a degree-24 polynomial (Horner)     3: a short sum of sines
 *
 * out[i] = update(kind[i] & 3, v[i]). Warps whose 32 elements are of mixed
 * kinds run every branch taken by any of their lanes, one after another.
 * Bench `mixed` draws the kinds at random (every warp diverges); bench
 * `sorted` gives the same kinds in runs of 4096 equal ones (no warp
 * diverges): the same work per element on average.
 *
 * Compiled with -Dblock_size_x=B -Delems_per_thread=E -Dn=N. The reference
 * calls the same update(), so both round alike. */

__device__ float update(unsigned kind, float v)
{
    if (kind == 0u)
        return fmaf(v, 0.75f, 0.25f);
    if (kind == 1u) {
        float r = 0.0f;
#pragma unroll 1
        for (int k = 24; k >= 0; k--)
            r = fmaf(r, v, 1.0f / (float)(k + 1));
        return r;
    }
    if (kind == 2u) {
        /* Cube root of a = |v| + 1 by Newton's method from r = a. */
        const float a = fabsf(v) + 1.0f;
        float r = a;
#pragma unroll 1
        for (int k = 0; k < 12; k++) {
            const float r2 = r * r;
            r = r - (r2 * r - a) / (3.0f * r2);
        }
        return r;
    }
    float s = 0.0f;
#pragma unroll 1
    for (int k = 1; k <= 8; k++)
        s += sinf(v * (float)k) / (float)k;
    return s;
}

/* The reference: one element per thread. */
extern "C" __global__ void update_reference(float *out, const float *v, const unsigned *kind, int count)
{
    const long i = (long)blockIdx.x * blockDim.x + threadIdx.x;
    if (i < count)
        out[i] = update(kind[i] & 3u, v[i]);
}

extern "C" __global__ void __launch_bounds__(block_size_x)
    update_kinds(float *out, const float *v, const unsigned *kind, int count)
{
    const long base = (long)blockIdx.x * (block_size_x * elems_per_thread) + threadIdx.x;
#pragma unroll
    for (int e = 0; e < elems_per_thread; e++) {
        const long i = base + (long)e * block_size_x;
        if (i < count)
            out[i] = update(kind[i] & 3u, v[i]);
    }
}
