/* coospmv.cu - a sparse matrix-vector product from a matrix in
 * coordinate (COO) form, entries in no order:
 *     y[row[k]] += val[k] * x[col[k]],  0 <= k < count
 * row and col hold count ints in 0 .. NR - 1 (262144 rows and columns),
 * val count floats; x and y NR floats, y added to (the caller zeroes it).
 * The entries are in no order, so the rows a warp adds to are scattered
 * over y and every entry's product goes to y by its own float atomicAdd;
 * x is gathered at scattered columns.
 *
 * A thread takes ipt entries (vec):
 *   0: a block apart (k, k + block_size_x, ...), each of row, col and val
 *      read by a scalar load, coalesced across the warp;
 *   1: ipt consecutive entries, row, col and val read by ipt / 4 16-byte
 *      loads each (int4, float4; a warp's load spread over 32 x 4 ipt
 *      bytes), a thread's last whole group of 4 past the end read entry
 *      by entry.
 * All of a thread's entries are loaded first, then x is gathered for
 * each, then the products are added to y.
 *
 * Compiled with -Dblock_size_x=T -Dipt=I -Dvec=V -Dnnz=N. */

#define NR 262144 /* rows and columns of the matrix */

#if vec != 0 && vec != 1
#error "vec is 0 or 1"
#endif
#if ipt < 1 || (vec == 1 && ipt % 4 != 0)
#error "ipt is at least 1, and a multiple of 4 with vec 1"
#endif

/* The reference: one entry per thread, one atomicAdd. */
extern "C" __global__ void coospmv_reference(float *y, const int *row, const int *col, const float *val,
                                             const float *x, int count)
{
    const long k = (long)blockIdx.x * blockDim.x + threadIdx.x;
    if (k >= count)
        return;
    const float p = val[k] * x[col[k]];
    atomicAdd(y + row[k], p);
}

extern "C" __global__ void __launch_bounds__(block_size_x)
    coospmv(float *__restrict__ y, const int *__restrict__ row, const int *__restrict__ col,
            const float *__restrict__ val, const float *__restrict__ x, int count)
{
    int r[ipt], c[ipt];
    float v[ipt];
#if vec == 0
    const long k0 = (long)blockIdx.x * block_size_x * ipt + threadIdx.x;
#pragma unroll
    for (int e = 0; e < ipt; e++) {
        const long k = k0 + (long)e * block_size_x;
        r[e] = -1;
        c[e] = 0;
        v[e] = 0.0f;
        if (k < count) {
            r[e] = __ldg(row + k);
            c[e] = __ldg(col + k);
            v[e] = __ldg(val + k);
        }
    }
#else
    const long k0 = ((long)blockIdx.x * block_size_x + threadIdx.x) * ipt;
#pragma unroll
    for (int g = 0; g < ipt / 4; g++) {
        const long k = k0 + 4 * g;
        if (k + 4 <= count) {
            const int4 rr = __ldg((const int4 *)(row + k));
            const int4 cc = __ldg((const int4 *)(col + k));
            const float4 vv = __ldg((const float4 *)(val + k));
            r[4 * g] = rr.x;
            r[4 * g + 1] = rr.y;
            r[4 * g + 2] = rr.z;
            r[4 * g + 3] = rr.w;
            c[4 * g] = cc.x;
            c[4 * g + 1] = cc.y;
            c[4 * g + 2] = cc.z;
            c[4 * g + 3] = cc.w;
            v[4 * g] = vv.x;
            v[4 * g + 1] = vv.y;
            v[4 * g + 2] = vv.z;
            v[4 * g + 3] = vv.w;
        } else {
#pragma unroll
            for (int j = 0; j < 4; j++) {
                r[4 * g + j] = -1;
                c[4 * g + j] = 0;
                v[4 * g + j] = 0.0f;
                if (k + j < count) {
                    r[4 * g + j] = __ldg(row + k + j);
                    c[4 * g + j] = __ldg(col + k + j);
                    v[4 * g + j] = __ldg(val + k + j);
                }
            }
        }
    }
#endif
    float p[ipt];
#pragma unroll
    for (int e = 0; e < ipt; e++)
        p[e] = r[e] >= 0 ? v[e] * __ldg(x + c[e]) : 0.0f;
#pragma unroll
    for (int e = 0; e < ipt; e++)
        if (r[e] >= 0)
            atomicAdd(y + r[e], p[e]);
}
