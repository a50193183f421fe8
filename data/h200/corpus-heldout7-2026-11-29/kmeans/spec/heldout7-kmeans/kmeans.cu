/* kmeans.cu - the assignment step of k-means: for each of npts points of 16
 * float features (row-major, 64 bytes a point), the nearest of 64 centroids
 * (row-major, 64 x 16 floats) by squared Euclidean distance, its index
 * (label) and that distance; of centroids at the same distance, the first.
 * The distance is sum over j of (p_j - c_j)^2, a subtraction and an fma per
 * feature in feature order, computed by kmeans_dist(), which the kernel and
 * the reference share: both get the same float for every (point, centroid)
 * pair, so the same minimum and the same label.
 *
 * A block of block_size_x threads takes block_size_x * ppt points; thread t
 * holds the points t, t + block_size_x, ... (ppt of them, each read as four
 * float4 loads) in registers and walks the centroids once for all of them,
 * so each centroid's 16 features, read as four float4s, serve ppt points
 * (ppt independent chains of fmas). All the threads of a block read the same
 * centroid at the same time: from shared memory, which the block fills
 * with the 4 KiB of centroids before the walk (cshared 1: broadcast reads,
 * one barrier), or from global memory through L1 (cshared 0: uniform loads,
 * the 4 KiB resident in L1 after the first blocks).
 *
 * Compiled with -Dblock_size_x=B -Dppt=P -Dcshared=S -Dpoints=N. */

#define KC 64  /* centroids */
#define DIM 16 /* features per point */

__device__ __forceinline__ float kmeans_dist(const float (&p)[DIM], const float (&c)[DIM])
{
    float s = 0.0f;
#pragma unroll
    for (int j = 0; j < DIM; j++) {
        const float t = p[j] - c[j];
        s = fmaf(t, t, s);
    }
    return s;
}

/* Four float4s into an array of 16 floats. */
__device__ __forceinline__ void kmeans_load16(float (&v)[DIM], const float4 *src)
{
#pragma unroll
    for (int q = 0; q < DIM / 4; q++) {
        const float4 f = src[q];
        v[4 * q] = f.x;
        v[4 * q + 1] = f.y;
        v[4 * q + 2] = f.z;
        v[4 * q + 3] = f.w;
    }
}

/* The reference: a point per thread, the centroids read from global memory
 * one after the other. */
extern "C" __global__ void kmeans_reference(int *label, float *dist, const float *pts, const float *cent, int npts)
{
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= npts)
        return;
    float p[DIM], c[DIM];
    kmeans_load16(p, reinterpret_cast<const float4 *>(pts) + (long)i * (DIM / 4));
    float best = __int_as_float(0x7f800000);
    int bk = 0;
    for (int k = 0; k < KC; k++) {
        kmeans_load16(c, reinterpret_cast<const float4 *>(cent) + k * (DIM / 4));
        const float d = kmeans_dist(p, c);
        if (d < best) {
            best = d;
            bk = k;
        }
    }
    label[i] = bk;
    dist[i] = best;
}

extern "C" __global__ void __launch_bounds__(block_size_x)
    kmeans(int *label, float *dist, const float *__restrict__ pts, const float *__restrict__ cent, int npts)
{
#if cshared
    __shared__ float4 cs[KC * DIM / 4];
    for (int q = threadIdx.x; q < KC * DIM / 4; q += block_size_x)
        cs[q] = reinterpret_cast<const float4 *>(cent)[q];
    __syncthreads();
    const float4 *cv = cs;
#else
    const float4 *cv = reinterpret_cast<const float4 *>(cent);
#endif
    const long i0 = (long)blockIdx.x * (block_size_x * ppt) + threadIdx.x;
    float p[ppt][DIM];
#pragma unroll
    for (int m = 0; m < ppt; m++) {
        const long i = i0 + m * block_size_x;
        if (i < npts) {
            kmeans_load16(p[m], reinterpret_cast<const float4 *>(pts) + i * (DIM / 4));
        } else {
#pragma unroll
            for (int j = 0; j < DIM; j++)
                p[m][j] = 0.0f;
        }
    }
    float best[ppt];
    int bk[ppt];
#pragma unroll
    for (int m = 0; m < ppt; m++) {
        best[m] = __int_as_float(0x7f800000);
        bk[m] = 0;
    }
    for (int k = 0; k < KC; k++) {
        float c[DIM];
        kmeans_load16(c, cv + k * (DIM / 4));
#pragma unroll
        for (int m = 0; m < ppt; m++) {
            const float d = kmeans_dist(p[m], c);
            if (d < best[m]) {
                best[m] = d;
                bk[m] = k;
            }
        }
    }
#pragma unroll
    for (int m = 0; m < ppt; m++) {
        const long i = i0 + m * block_size_x;
        if (i < npts) {
            label[i] = bk[m];
            dist[i] = best[m];
        }
    }
}
