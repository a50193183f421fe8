/* colgather.cu - the columns of a float matrix gathered by an index
 * vector shared by every row (index_select along the contiguous axis, as
 * a feature subset, a column permutation or a channel shuffle is taken):
 *     out[r][j] = in[r][idx[j]],  0 <= j < GCOLS
 * in and out have count rows of GCOLS (4096) floats; idx holds GCOLS
 * column numbers, each in 0 .. GCOLS - 1 (the same index may come twice).
 *
 * A block takes rpb consecutive rows (the last block of a count that is
 * no multiple of rpb fewer: the bound is the same for the whole block, so
 * that no thread leaves a barrier the others reach). Its thread t owns
 * the output columns j = t + k block_size_x, k = 0 .. CPT - 1 (CPT =
 * GCOLS / block_size_x: 32 down to 4), loads their indices once into
 * registers and reuses them for every row of the block; consecutive
 * threads store consecutive columns, so that a warp's store is 128
 * contiguous bytes.
 *
 * stage 0: each gathered float is loaded from global memory (__ldg, all
 *     CPT of a row issued before the stores): 32 random addresses within
 *     one 16 KiB row per warp load, which L1 serves once the row's
 *     sectors are in it;
 * stage 1: each row is first copied into a shared buffer of GCOLS floats
 *     by the whole block (float4 loads, each element once, coalesced),
 *     a barrier, the CPT floats gathered from the buffer (random banks),
 *     and a second barrier before the next row overwrites it.
 *
 * Compiled with -Dblock_size_x=T -Drpb=R -Dstage=S -Dnrows=N. */

#define GCOLS 4096                  /* columns of in and of out */
#define CPT (GCOLS / block_size_x)  /* output columns per thread */

#if stage != 0 && stage != 1
#error "stage is 0 or 1"
#endif
#if rpb < 1
#error "rpb is at least 1"
#endif
#if block_size_x % 32 != 0 || GCOLS % block_size_x != 0 || block_size_x > GCOLS / 4
#error "block_size_x is a multiple of 32 that divides GCOLS, at most GCOLS / 4"
#endif

/* The reference: one output element per thread. */
extern "C" __global__ void colgather_reference(float *out, const float *in, const int *idx, int count)
{
    const long e = (long)blockIdx.x * blockDim.x + threadIdx.x;
    if (e >= (long)count * GCOLS)
        return;
    const long r = e / GCOLS, j = e % GCOLS;
    out[e] = in[r * GCOLS + idx[j]];
}

extern "C" __global__ void __launch_bounds__(block_size_x)
    colgather(float *__restrict__ out, const float *__restrict__ in, const int *__restrict__ idx, int count)
{
    const int t = threadIdx.x;
    const long r0 = (long)blockIdx.x * rpb; /* the block's first row */
    int col[CPT];
#pragma unroll
    for (int k = 0; k < CPT; k++)
        col[k] = __ldg(idx + t + k * block_size_x);
#if stage == 1
    __shared__ __align__(16) float row[GCOLS];
#endif
    const int nr = (int)min((long)rpb, (long)count - r0); /* the block's rows */
    for (int i = 0; i < nr; i++) {
        const long r = r0 + i;
        const float *src = in + r * GCOLS;
        float *dst = out + r * GCOLS;
#if stage == 0
        float v[CPT];
#pragma unroll
        for (int k = 0; k < CPT; k++)
            v[k] = __ldg(src + col[k]);
#pragma unroll
        for (int k = 0; k < CPT; k++)
            dst[t + k * block_size_x] = v[k];
#else
#pragma unroll
        for (int k = 0; k < CPT / 4; k++)
            reinterpret_cast<float4 *>(row)[t + k * block_size_x] =
                __ldg(reinterpret_cast<const float4 *>(src) + t + k * block_size_x);
        __syncthreads();
#pragma unroll
        for (int k = 0; k < CPT; k++)
            dst[t + k * block_size_x] = row[col[k]];
        __syncthreads();
#endif
    }
}
