/* adam.cu - one step of the Adam optimizer over a flat float parameter
 * vector, in place: for each element, with its gradient g,
 *     m <- b1 m + (1 - b1) g,   v <- b2 v + (1 - b2) g^2,
 *     p <- p - lr (m / bc1) / (sqrt(v / bc2) + eps),
 * bc1 = 1 - b1^t and bc2 = 1 - b2^t the bias corrections of step t, given by
 * the host. Four streams read (p, m, v, g) and three written back (p, m, v):
 * the update of a training step, elementwise, with a square root and two
 * divisions per element. count is a multiple of 4 (float4 alignment).
 *
 * A block of block_size_x threads takes block_size_x x ept x vec consecutive
 * elements: thread t its ept chunks t, t + block_size_x, ... of vec floats
 * (a float or a float4 of each stream per chunk); all of a thread's loads
 * (4 ept of them) are issued before its first store.
 *
 * Every operation of adam_elem() is an explicitly rounded intrinsic, so the
 * kernel and the reference, which both call it, compute the same bits
 * whatever the compiler contracts elsewhere.
 *
 * Compiled with -Dblock_size_x=B -Dept=E -Dvec=V -Dnparam=N. */

struct adam_hp {
    float lr, b1, omb1, b2, omb2, eps, rbc1, rbc2; /* omb = 1 - b, rbc = 1 / bc */
};

__device__ __forceinline__ void adam_elem(float &p, float &m, float &v, float g, const adam_hp &h)
{
    m = __fmaf_rn(h.b1, m, __fmul_rn(h.omb1, g));
    v = __fmaf_rn(h.b2, v, __fmul_rn(__fmul_rn(h.omb2, g), g));
    const float mhat = __fmul_rn(m, h.rbc1);
    const float den = __fadd_rn(__fsqrt_rn(__fmul_rn(v, h.rbc2)), h.eps);
    p = __fsub_rn(p, __fmul_rn(h.lr, __fdiv_rn(mhat, den)));
}

__device__ __forceinline__ adam_hp adam_make(float lr, float b1, float b2, float eps, float bc1, float bc2)
{
    adam_hp h;
    h.lr = lr;
    h.b1 = b1;
    h.omb1 = __fsub_rn(1.0f, b1);
    h.b2 = b2;
    h.omb2 = __fsub_rn(1.0f, b2);
    h.eps = eps;
    h.rbc1 = __fdiv_rn(1.0f, bc1);
    h.rbc2 = __fdiv_rn(1.0f, bc2);
    return h;
}

/* The reference: one element per thread. */
extern "C" __global__ void adam_reference(float *p, float *m, float *v, const float *g, float lr, float b1, float b2,
                                          float eps, float bc1, float bc2, int count)
{
    const long i = (long)blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= count)
        return;
    const adam_hp h = adam_make(lr, b1, b2, eps, bc1, bc2);
    float pp = p[i], mm = m[i], vv = v[i];
    adam_elem(pp, mm, vv, g[i], h);
    p[i] = pp;
    m[i] = mm;
    v[i] = vv;
}

extern "C" __global__ void __launch_bounds__(block_size_x)
    adam(float *p, float *m, float *v, const float *__restrict__ g, float lr, float b1, float b2, float eps,
         float bc1, float bc2, int count)
{
    const adam_hp h = adam_make(lr, b1, b2, eps, bc1, bc2);
    const long base = (long)blockIdx.x * block_size_x * ept + threadIdx.x; /* in chunks of vec floats */
    const long chunks = count / vec;
#if vec == 4
    float4 pp[ept], mm[ept], vv[ept], gg[ept];
#pragma unroll
    for (int k = 0; k < ept; k++) {
        const long c = base + (long)k * block_size_x;
        if (c < chunks) {
            pp[k] = reinterpret_cast<const float4 *>(p)[c];
            mm[k] = reinterpret_cast<const float4 *>(m)[c];
            vv[k] = reinterpret_cast<const float4 *>(v)[c];
            gg[k] = reinterpret_cast<const float4 *>(g)[c];
        }
    }
#pragma unroll
    for (int k = 0; k < ept; k++) {
        const long c = base + (long)k * block_size_x;
        if (c < chunks) {
            adam_elem(pp[k].x, mm[k].x, vv[k].x, gg[k].x, h);
            adam_elem(pp[k].y, mm[k].y, vv[k].y, gg[k].y, h);
            adam_elem(pp[k].z, mm[k].z, vv[k].z, gg[k].z, h);
            adam_elem(pp[k].w, mm[k].w, vv[k].w, gg[k].w, h);
            reinterpret_cast<float4 *>(p)[c] = pp[k];
            reinterpret_cast<float4 *>(m)[c] = mm[k];
            reinterpret_cast<float4 *>(v)[c] = vv[k];
        }
    }
#elif vec == 1
    float pp[ept], mm[ept], vv[ept], gg[ept];
#pragma unroll
    for (int k = 0; k < ept; k++) {
        const long c = base + (long)k * block_size_x;
        if (c < chunks) {
            pp[k] = p[c];
            mm[k] = m[c];
            vv[k] = v[c];
            gg[k] = g[c];
        }
    }
#pragma unroll
    for (int k = 0; k < ept; k++) {
        const long c = base + (long)k * block_size_x;
        if (c < chunks) {
            adam_elem(pp[k], mm[k], vv[k], gg[k], h);
            p[c] = pp[k];
            m[c] = mm[k];
            v[c] = vv[k];
        }
    }
#else
#error "vec is 1 or 4"
#endif
}
