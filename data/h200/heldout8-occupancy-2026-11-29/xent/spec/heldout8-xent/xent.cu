/* xent.cu - softmax cross-entropy loss of a batch of rows: for each row r of
 * a row-major rows x ncls float matrix of logits and its class label[r],
 * loss[r] = log(sum over c of exp(x[r][c] - m)) + m - x[r][label[r]], with m
 * the row's largest logit (the negative log-probability of the label under
 * the row's softmax), and the batch's total loss added into one double: the
 * loss layer of a classifier (1000 classes, as ImageNet's). ncls is a
 * multiple of 4, so every row starts 16-byte aligned.
 *
 * A group of tpr consecutive threads (8, 16 or 32: a part of a warp or a
 * whole one) takes one row; a block of block_size_x threads takes
 * block_size_x / tpr consecutive rows. Lane l of a group reads the row in
 * passes, vec floats (a float, or a float4) from column l vec + tpr vec i in
 * pass i, so a group's loads of a pass are tpr vec consecutive floats. Each
 * lane keeps a running maximum and a sum of exponentials scaled to it (an
 * online softmax: one read of the row, the sum rescaled when the maximum
 * grows); the group's lanes combine their pairs by xor shuffles, and lane 0
 * reads the label's logit, writes the row's loss and puts it in shared
 * memory. After a barrier thread 0 adds the block's losses in row order in
 * double and makes one atomicAdd to the total.
 *
 * Compiled with -Dblock_size_x=B -Dtpr=T -Dvec=V -Drows=M. */

#define NEG_INF __int_as_float(0xff800000)

/* The reference: a thread per row, the row read twice (its maximum, then the
 * sum of exponentials) in column order, one atomicAdd per row. */
extern "C" __global__ void xent_reference(float *loss, double *total, const float *logits, const int *label,
                                          int nrows, int ncls)
{
    const int r = blockIdx.x * blockDim.x + threadIdx.x;
    if (r >= nrows)
        return;
    const float *x = logits + (long)r * ncls;
    float m = NEG_INF;
    for (int c = 0; c < ncls; c++)
        m = fmaxf(m, x[c]);
    float s = 0.0f;
    for (int c = 0; c < ncls; c++)
        s += expf(x[c] - m);
    const float l = logf(s) + m - x[label[r]];
    loss[r] = l;
    atomicAdd(total, (double)l);
}

#define GROUPS (block_size_x / tpr) /* rows per block */

/* One value into a running (maximum, scaled sum). */
__device__ __forceinline__ void xent_push(float &m, float &s, float v)
{
    if (v > m) {
        s = s * expf(m - v) + 1.0f;
        m = v;
    } else {
        s += expf(v - m);
    }
}

extern "C" __global__ void __launch_bounds__(block_size_x)
    xent(float *loss, double *total, const float *__restrict__ logits, const int *__restrict__ label, int nrows,
         int ncls)
{
    __shared__ float part[GROUPS];
    const int g = threadIdx.x / tpr;
    const int lane = threadIdx.x % tpr;
    const long r = (long)blockIdx.x * GROUPS + g;
    const bool ok = r < nrows; /* the same in every lane of a group */
    const float *x = logits + r * ncls;
    float m = NEG_INF, s = 0.0f;
    if (ok) {
        for (int c = lane * vec; c < ncls; c += tpr * vec) {
#if vec == 4
            const float4 v = *reinterpret_cast<const float4 *>(x + c);
            xent_push(m, s, v.x);
            xent_push(m, s, v.y);
            xent_push(m, s, v.z);
            xent_push(m, s, v.w);
#elif vec == 1
            xent_push(m, s, x[c]);
#else
#error "vec is 1 or 4"
#endif
        }
    }
    /* Every lane of the warp takes part, inside the batch or not. */
#pragma unroll
    for (int o = tpr / 2; o > 0; o /= 2) {
        const float m2 = __shfl_xor_sync(0xffffffffu, m, o, tpr);
        const float s2 = __shfl_xor_sync(0xffffffffu, s, o, tpr);
        const float mm = fmaxf(m, m2);
        if (mm != NEG_INF) {
            s = s * expf(m - mm) + s2 * expf(m2 - mm);
            m = mm;
        }
    }
    if (lane == 0) {
        float l = 0.0f;
        if (ok) {
            l = logf(s) + m - x[label[r]];
            loss[r] = l;
        }
        part[g] = l;
    }
    __syncthreads();
    if (threadIdx.x == 0) {
        double b = 0.0;
        for (int k = 0; k < GROUPS; k++)
            b += (double)part[k];
        atomicAdd(total, b);
    }
}
