/* rowdot.cu - batched dot products: the dot product of each row of a with
 * the same row of b (a retrieval model's scores of query and candidate
 * embeddings taken in pairs, or a batch of cosine similarities before
 * their norms),
 *     out[r] = sum over j < ROWLEN of a[r][j] b[r][j]
 * a and b hold count rows of ROWLEN (1024) floats, row-major (4 KiB a
 * row); out holds count floats.
 *
 * A warp per row, block_size_x / 32 rows per block. The lanes walk the row
 * in pieces of vecw floats (vecw 1: a float of a and of b; vecw 4: a
 * float4 of each, 16-byte loads, the rows 16-byte aligned), a warp's 32
 * pieces side by side, ufac warp-widths a step: each step of a lane loads
 * ufac pieces of a and ufac of b, 2 ufac independent loads in flight, and
 * adds their products into ufac partial sums (a chain each); the step loop
 * is not unrolled further, so that ufac says how many loads a lane has in
 * flight (1024 / (32 vecw ufac) steps: 32 down to 8 with floats, 8 down to
 * 2 with float4s). The partial sums are then added in order, and the
 * lanes' sums by five xor shuffles; lane 0 stores the row's dot product.
 * A warp past the last row returns.
 *
 * Compiled with -Dblock_size_x=T -Dufac=U -Dvecw=V -Dnrows=N. */

#define ROWLEN 1024 /* floats per row */

#if vecw != 1 && vecw != 4
#error "vecw is 1 or 4"
#endif
#if ufac != 1 && ufac != 2 && ufac != 4 && ufac != 8
#error "ufac is 1, 2, 4 or 8"
#endif
#if block_size_x % 32 != 0
#error "block_size_x is a multiple of 32"
#endif

/* The reference: a row per thread, its products added one after the other
 * in double. */
extern "C" __global__ void rowdot_reference(float *out, const float *a, const float *b, int count)
{
    const long long r = (long long)blockIdx.x * blockDim.x + threadIdx.x;
    if (r >= count)
        return;
    double sum = 0.0;
    for (int j = 0; j < ROWLEN; j++)
        sum += (double)a[r * ROWLEN + j] * (double)b[r * ROWLEN + j];
    out[r] = (float)sum;
}

extern "C" __global__ void __launch_bounds__(block_size_x)
    rowdot(float *__restrict__ out, const float *__restrict__ a, const float *__restrict__ b, int count)
{
    const long r = (long)blockIdx.x * (block_size_x / 32) + threadIdx.x / 32;
    const int lane = threadIdx.x % 32;
    if (r >= count)
        return;
    float part[ufac];
#pragma unroll
    for (int k = 0; k < ufac; k++)
        part[k] = 0.0f;
#if vecw == 4
    const float4 *ra = (const float4 *)(a + r * ROWLEN), *rb = (const float4 *)(b + r * ROWLEN);
#pragma unroll 1
    for (int p = lane; p < ROWLEN / 4; p += 32 * ufac) {
        float4 x[ufac], y[ufac];
#pragma unroll
        for (int k = 0; k < ufac; k++) {
            x[k] = __ldg(ra + p + 32 * k);
            y[k] = __ldg(rb + p + 32 * k);
        }
#pragma unroll
        for (int k = 0; k < ufac; k++) {
            part[k] = fmaf(x[k].x, y[k].x, part[k]);
            part[k] = fmaf(x[k].y, y[k].y, part[k]);
            part[k] = fmaf(x[k].z, y[k].z, part[k]);
            part[k] = fmaf(x[k].w, y[k].w, part[k]);
        }
    }
#else
    const float *ra = a + r * ROWLEN, *rb = b + r * ROWLEN;
#pragma unroll 1
    for (int p = lane; p < ROWLEN; p += 32 * ufac) {
        float x[ufac], y[ufac];
#pragma unroll
        for (int k = 0; k < ufac; k++) {
            x[k] = __ldg(ra + p + 32 * k);
            y[k] = __ldg(rb + p + 32 * k);
        }
#pragma unroll
        for (int k = 0; k < ufac; k++)
            part[k] = fmaf(x[k], y[k], part[k]);
    }
#endif
    float sum = part[0];
#pragma unroll
    for (int k = 1; k < ufac; k++)
        sum += part[k];
#pragma unroll
    for (int o = 16; o > 0; o /= 2)
        sum += __shfl_xor_sync(0xffffffffu, sum, o);
    if (lane == 0)
        out[r] = sum;
}
