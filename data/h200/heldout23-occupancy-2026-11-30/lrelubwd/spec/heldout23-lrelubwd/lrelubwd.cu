/* lrelubwd.cu - the backward pass of a leaky ReLU: the gradient of its
 * input from the gradient of its output and the input itself,
 *     dx[i] = x[i] > 0 ? dy[i] : slope dy[i],  0 <= i < count
 * x, dy and dx hold count floats (slope 0.01, the usual default, is an
 * argument). A pure stream: 8 bytes read and 4 written per element, a
 * comparison and at most a multiplication.
 *
 * The grid is fixed by the launch, not by count: bpsm blocks of
 * block_size_x threads per SM (the spec launches 132 bpsm blocks, one to
 * eight per SM of an H100 or H200), and the threads walk the arrays by a
 * grid-stride loop, so that a small grid gives each thread a long stretch
 * with few loads in flight and a large one many threads with short
 * stretches. Each step of a thread takes ilp independent pieces a grid
 * apart, every load of the step issued before its first store; a piece is
 * one float (vecw 1) or one float4 (vecw 4: 16-byte loads and stores, the
 * arrays being 16-byte aligned). Steps of ilp whole pieces come first,
 * then the pieces left over one per step, then (vecw 4) the last count
 * mod 4 floats one per thread.
 *
 * Compiled with -Dblock_size_x=T -Dbpsm=B -Dilp=L -Dvecw=V -Dnelem=N. */

#if vecw != 1 && vecw != 4
#error "vecw is 1 or 4"
#endif
#if ilp < 1 || ilp > 16
#error "ilp is 1 to 16"
#endif

/* The reference: one element per thread, the gradient by a factor of 1 or
 * slope. */
extern "C" __global__ void lrelubwd_reference(float *dx, const float *x, const float *dy, float slope, int count)
{
    const long i = (long)blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= count)
        return;
    float factor = slope;
    if (x[i] > 0.0f)
        factor = 1.0f;
    dx[i] = factor * dy[i];
}

__device__ __forceinline__ float lrelu_grad(float x, float dy, float slope)
{
    return x > 0.0f ? dy : slope * dy;
}

extern "C" __global__ void __launch_bounds__(block_size_x)
    lrelubwd(float *__restrict__ dx, const float *__restrict__ x, const float *__restrict__ dy, float slope, int count)
{
    const long nthr = (long)gridDim.x * block_size_x;
    const long tid = (long)blockIdx.x * block_size_x + threadIdx.x;
#if vecw == 4
    const long npiece = count / 4;
    const float4 *xv = (const float4 *)x, *dyv = (const float4 *)dy;
    float4 *dxv = (float4 *)dx;
    long p = tid;
    for (; p + (ilp - 1) * nthr < npiece; p += ilp * nthr) {
        float4 a[ilp], g[ilp];
#pragma unroll
        for (int k = 0; k < ilp; k++) {
            a[k] = __ldg(xv + p + k * nthr);
            g[k] = __ldg(dyv + p + k * nthr);
        }
#pragma unroll
        for (int k = 0; k < ilp; k++)
            dxv[p + k * nthr] = make_float4(lrelu_grad(a[k].x, g[k].x, slope), lrelu_grad(a[k].y, g[k].y, slope),
                                            lrelu_grad(a[k].z, g[k].z, slope), lrelu_grad(a[k].w, g[k].w, slope));
    }
    for (; p < npiece; p += nthr) {
        const float4 a = __ldg(xv + p), g = __ldg(dyv + p);
        dxv[p] = make_float4(lrelu_grad(a.x, g.x, slope), lrelu_grad(a.y, g.y, slope), lrelu_grad(a.z, g.z, slope),
                             lrelu_grad(a.w, g.w, slope));
    }
    /* the last count mod 4 floats */
    const long i = 4 * npiece + tid;
    if (i < count)
        dx[i] = lrelu_grad(__ldg(x + i), __ldg(dy + i), slope);
#else
    long p = tid;
    for (; p + (ilp - 1) * nthr < count; p += ilp * nthr) {
        float a[ilp], g[ilp];
#pragma unroll
        for (int k = 0; k < ilp; k++) {
            a[k] = __ldg(x + p + k * nthr);
            g[k] = __ldg(dy + p + k * nthr);
        }
#pragma unroll
        for (int k = 0; k < ilp; k++)
            dx[p + k * nthr] = lrelu_grad(a[k], g[k], slope);
    }
    for (; p < count; p += nthr)
        dx[p] = lrelu_grad(__ldg(x + p), __ldg(dy + p), slope);
#endif
}
