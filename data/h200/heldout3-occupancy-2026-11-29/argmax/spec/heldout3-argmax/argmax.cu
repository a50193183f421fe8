/* argmax.cu - the largest value of each row of a row-major rows x cols
 * float matrix and its column, the first one where the largest value occurs
 * more than once (the argmax of a classifier's scores, a greedy decoder's
 * pick). A group of tpr threads takes a row: a thread (tpr 1), a warp
 * (tpr 32) or the whole block (tpr = block_size_x). Each thread scans every
 * (tpr * vec)-th chunk of vec floats of the row in increasing column order,
 * keeping the first of its largest values; the group then combines its
 * threads' (value, column) pairs, the larger value or on a tie the smaller
 * column, by warp shuffles, and for a block by one pair per warp in shared
 * memory and a last shuffle reduction in the first warp.
 *
 * Compiled with -Dblock_size_x=B -Dtpr=T -Dvec=V -Drows=R -Dcols=C. */

/* The reference: a thread per row, scanned in order. */
extern "C" __global__ void argmax_reference(float *val, int *idx, const float *A, int nrows, int ncols)
{
    const int r = blockIdx.x * blockDim.x + threadIdx.x;
    if (r >= nrows)
        return;
    const float *a = A + (long)r * ncols;
    float best = a[0];
    int at = 0;
    for (int c = 1; c < ncols; c++)
        if (a[c] > best) {
            best = a[c];
            at = c;
        }
    val[r] = best;
    idx[r] = at;
}

/* Takes (ov, oi) in place of (v, i) when it is larger, or equal at a smaller column. */
__device__ __forceinline__ void argmax_take(float &v, int &i, float ov, int oi)
{
    if (ov > v || (ov == v && oi < i)) {
        v = ov;
        i = oi;
    }
}

/* Combines the pairs of each aligned group of `width` lanes (a power of two
 * up to 32); every lane of a group ends with the group's pair. */
__device__ __forceinline__ void argmax_warp(float &v, int &i, int width)
{
    for (int o = width / 2; o > 0; o /= 2) {
        const float ov = __shfl_xor_sync(0xffffffffu, v, o);
        const int oi = __shfl_xor_sync(0xffffffffu, i, o);
        argmax_take(v, i, ov, oi);
    }
}

#define ARGMAX_NONE_V (-__int_as_float(0x7f800000)) /* -infinity: any value beats it */
#define ARGMAX_NONE_I 0x7fffffff

extern "C" __global__ void __launch_bounds__(block_size_x)
    argmax_rows(float *val, int *idx, const float *__restrict__ A, int nrows, int ncols)
{
    const long t = (long)blockIdx.x * block_size_x + threadIdx.x;
    const long r = t / tpr;
    const int lane = (int)(t % tpr);
    float v = ARGMAX_NONE_V;
    int i = ARGMAX_NONE_I;
    if (r < nrows) {
        const float *a = A + r * ncols;
        for (int c = lane * vec; c < ncols; c += tpr * vec) {
#if vec == 4
            const float4 q = *reinterpret_cast<const float4 *>(a + c);
            if (q.x > v) {
                v = q.x;
                i = c;
            }
            if (q.y > v) {
                v = q.y;
                i = c + 1;
            }
            if (q.z > v) {
                v = q.z;
                i = c + 2;
            }
            if (q.w > v) {
                v = q.w;
                i = c + 3;
            }
#else
            const float q = a[c];
            if (q > v) {
                v = q;
                i = c;
            }
#endif
        }
    }
    /* Every thread of the warp takes part, rows past the end too. */
#if tpr > 1
    argmax_warp(v, i, tpr < 32 ? tpr : 32);
#endif
#if tpr > 32
    /* tpr == block_size_x: the block's warps each hold their pair. */
    __shared__ float wv[block_size_x / 32];
    __shared__ int wi[block_size_x / 32];
    const int w = threadIdx.x / 32, l = threadIdx.x % 32;
    if (l == 0) {
        wv[w] = v;
        wi[w] = i;
    }
    __syncthreads();
    if (w == 0) {
        v = l < block_size_x / 32 ? wv[l] : ARGMAX_NONE_V;
        i = l < block_size_x / 32 ? wi[l] : ARGMAX_NONE_I;
        argmax_warp(v, i, 32);
    }
#endif
    if (r < nrows && lane == 0) {
        val[r] = v;
        idx[r] = i;
    }
}
