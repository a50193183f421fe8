/* rmsprop.cu - one RMSprop step in place over float parameters (PyTorch's
 * RMSprop without momentum or centring):
 *     v[i] = rho v[i] + (1 - rho) g[i]^2
 *     p[i] = p[i] - lr g[i] / (sqrt(v[i]) + eps),  0 <= i < count
 * p (parameters) and v (the running average of the squared gradients) are
 * updated in place, g (the gradients) is read; lr 0.001, rho 0.99 and eps
 * 1e-8 are arguments. A stream of three arrays read and two written: 12
 * bytes read and 8 written per element, with a square root and a division.
 *
 * The grid is fixed by the launch, not by count: bpsm blocks of
 * block_size_x threads per SM (the spec launches 132 bpsm blocks, one to
 * eight per SM of an H100 or H200), and the threads walk the arrays by a
 * grid-stride loop, one piece a step: one float of each array (vecw 1) or
 * one float4 of each (vecw 4: 16-byte loads and stores, the arrays being
 * 16-byte aligned), then (vecw 4) the last count mod 4 floats one per
 * thread.
 *
 * Compiled with -Dblock_size_x=T -Dbpsm=B -Dvecw=V -Dnelem=N. */

#if vecw != 1 && vecw != 4
#error "vecw is 1 or 4"
#endif

/* The reference: one element per thread, in double, rounded to float once
 * for each output. */
extern "C" __global__ void rmsprop_reference(float *p, float *v, const float *g, float lr, float rho, float eps,
                                             int count)
{
    const long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= count)
        return;
    const double gd = g[i];
    const double avg = (double)rho * (double)v[i] + (1.0 - (double)rho) * (gd * gd);
    const double step = (double)lr * gd / (sqrt(avg) + (double)eps);
    v[i] = (float)avg;
    p[i] = (float)((double)p[i] - step);
}

/* one element's update, in float */
__device__ __forceinline__ void rms_update(float &pe, float &ve, float ge, float lr, float rho, float omr, float eps)
{
    ve = fmaf(rho, ve, omr * ge * ge);
    pe = pe - lr * ge / (sqrtf(ve) + eps);
}

extern "C" __global__ void __launch_bounds__(block_size_x)
    rmsprop(float *__restrict__ p, float *__restrict__ v, const float *__restrict__ g, float lr, float rho, float eps,
            int count)
{
    const long nthr = (long)gridDim.x * block_size_x;
    const long tid = (long)blockIdx.x * block_size_x + threadIdx.x;
    const float omr = 1.0f - rho;
#if vecw == 4
    const long npiece = count / 4;
    float4 *pv = (float4 *)p, *vv = (float4 *)v;
    const float4 *gv = (const float4 *)g;
    for (long q = tid; q < npiece; q += nthr) {
        float4 a = pv[q], b = vv[q];
        const float4 c = __ldg(gv + q);
        rms_update(a.x, b.x, c.x, lr, rho, omr, eps);
        rms_update(a.y, b.y, c.y, lr, rho, omr, eps);
        rms_update(a.z, b.z, c.z, lr, rho, omr, eps);
        rms_update(a.w, b.w, c.w, lr, rho, omr, eps);
        pv[q] = a;
        vv[q] = b;
    }
    /* the last count mod 4 floats */
    const long i = 4 * npiece + tid;
    if (i < count) {
        float a = p[i], b = v[i];
        rms_update(a, b, __ldg(g + i), lr, rho, omr, eps);
        p[i] = a;
        v[i] = b;
    }
#else
    for (long i = tid; i < count; i += nthr) {
        float a = p[i], b = v[i];
        rms_update(a, b, __ldg(g + i), lr, rho, omr, eps);
        p[i] = a;
        v[i] = b;
    }
#endif
}
