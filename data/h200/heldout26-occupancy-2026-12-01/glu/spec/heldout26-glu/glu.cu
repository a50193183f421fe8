/* glu.cu - the gated activation of a transformer's feed-forward layer
 * (SwiGLU or GeGLU, as vLLM's act_and_mul kernels): each row of x holds a
 * token's gate half and up half, HID (11008, LLaMA-7B's intermediate
 * width) floats each, and
 *     out[r][j] = act(x[r][j]) x[r][HID + j],  0 <= j < HID
 * with act the SiLU (act 0: g / (1 + e^-g)) or the GELU in its erf form
 * (act 1: g / 2 (1 + erf(g / sqrt 2))). x holds count rows of 2 HID floats,
 * out count rows of HID floats: 8 bytes read and 4 written per output.
 *
 * A block per row. Its threads walk the row's HID outputs by a
 * block-stride loop, ept outputs a step, a block-width apart: each step of
 * a thread first loads the ept gate floats and the ept up floats (2 ept
 * independent loads in flight), then computes and stores the ept outputs.
 * The step loop is not unrolled further, so that ept says how many loads a
 * thread has in flight (ceil(HID / (ept block_size_x)) steps: 172 at 64
 * threads and a float a step down to 6 at 512 threads and four; HID is not
 * a multiple of ept block_size_x beyond 256, so the last step of a row is
 * partly guarded).
 *
 * Compiled with -Dblock_size_x=T -Dept=E -Dact=A -Dntok=N. */

#define HID 11008 /* outputs per row; a row of x holds 2 HID floats */

#if act != 0 && act != 1
#error "act is 0 (SiLU) or 1 (GELU, erf form)"
#endif
#if ept != 1 && ept != 2 && ept != 4 && ept != 8
#error "ept is 1, 2, 4 or 8"
#endif

/* The reference: one output per thread, the activation in double (the GELU
 * by erfc, without the cancellation of 1 + erf for negative g), the
 * product rounded to float once. */
extern "C" __global__ void glu_reference(float *out, const float *x, int count)
{
    const long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= (long long)count * 11008)
        return;
    const long long r = i / 11008, j = i - r * 11008;
    const double g = x[r * 22016 + j], u = x[r * 22016 + 11008 + j];
    double a;
    if (act == 0)
        a = g / (1.0 + exp(-g));
    else
        a = 0.5 * g * erfc(-g / sqrt(2.0));
    out[i] = (float)(a * u);
}

__device__ __forceinline__ float activation(float g)
{
#if act == 0
    return g / (1.0f + expf(-g));
#else
    return 0.5f * g * (1.0f + erff(g * 0.70710678118654752f));
#endif
}

extern "C" __global__ void __launch_bounds__(block_size_x)
    glu(float *__restrict__ out, const float *__restrict__ x, int count)
{
    const long r = blockIdx.x;
    if (r >= count)
        return;
    const float *gate = x + r * (2 * HID), *up = gate + HID;
    float *o = out + r * HID;
#pragma unroll 1
    for (int j0 = threadIdx.x; j0 < HID; j0 += ept * block_size_x) {
        float g[ept], u[ept];
#pragma unroll
        for (int k = 0; k < ept; k++) {
            const int j = j0 + k * block_size_x;
            g[k] = j < HID ? __ldg(gate + j) : 0.0f;
            u[k] = j < HID ? __ldg(up + j) : 0.0f;
        }
#pragma unroll
        for (int k = 0; k < ept; k++) {
            const int j = j0 + k * block_size_x;
            if (j < HID)
                o[j] = activation(g[k]) * u[k];
        }
    }
}
