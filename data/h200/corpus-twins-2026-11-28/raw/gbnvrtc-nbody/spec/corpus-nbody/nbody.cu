/* nbody.cu - all-pairs gravitational accelerations of n bodies in double
 * precision (softened, G = 1): a_i = sum_j m_j d_ij / (|d_ij|^2 + eps^2)^1.5,
 * d_ij = p_j - p_i. Compute-bound on FP64 (about 20 operations per pair).
 *
 * Compiled with -Dblock_size_x=B -Dbodies_per_thread=P -Dunroll=U -Dn=N.
 * A block of B threads owns B P bodies (thread t: bodies t, t + B, ..);
 * the sources come through shared memory, B at a time (x, y, z, m), and
 * every source loaded is used by the block's B P bodies; the inner loop over
 * a tile is unrolled U times. Every kernel visits j = 0, 1, .., n - 1 in
 * order with the same operations (explicit fma), so the results match the
 * reference to the last bits. */

#define SOFTENING2 1e-3

__device__ __forceinline__ void interact(double xi, double yi, double zi, double xj, double yj, double zj,
                                         double mj, double &ax, double &ay, double &az)
{
    const double dx = xj - xi, dy = yj - yi, dz = zj - zi;
    const double r2 = fma(dx, dx, fma(dy, dy, fma(dz, dz, SOFTENING2)));
    const double inv = rsqrt(r2);
    const double w = mj * (inv * inv * inv);
    ax = fma(dx, w, ax);
    ay = fma(dy, w, ay);
    az = fma(dz, w, az);
}

/* The reference: one body per thread, sources straight from global memory. */
extern "C" __global__ void nbody_reference(double *ax, double *ay, double *az, const double *px, const double *py,
                                           const double *pz, const double *m, int count)
{
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= count)
        return;
    double x = 0.0, y = 0.0, z = 0.0;
    for (int j = 0; j < count; j++)
        interact(px[i], py[i], pz[i], px[j], py[j], pz[j], m[j], x, y, z);
    ax[i] = x;
    ay[i] = y;
    az[i] = z;
}

#define P bodies_per_thread
extern "C" __global__ void __launch_bounds__(block_size_x)
    nbody_tiled(double *ax, double *ay, double *az, const double *px, const double *py, const double *pz,
                const double *m, int count)
{
    __shared__ double sx[block_size_x], sy[block_size_x], sz[block_size_x], sm[block_size_x];
    const int first = blockIdx.x * (block_size_x * P) + threadIdx.x;
    double xi[P], yi[P], zi[P], fx[P], fy[P], fz[P];
#pragma unroll
    for (int p = 0; p < P; p++) {
        const int i = first + p * block_size_x;
        const int c = i < count ? i : count - 1; /* out-of-range bodies compute a copy and store nothing */
        xi[p] = px[c];
        yi[p] = py[c];
        zi[p] = pz[c];
        fx[p] = fy[p] = fz[p] = 0.0;
    }
    for (int t = 0; t < count; t += block_size_x) {
        const int j = t + threadIdx.x;
        __syncthreads(); /* the previous tile's reads are done */
        sx[threadIdx.x] = j < count ? px[j] : 0.0;
        sy[threadIdx.x] = j < count ? py[j] : 0.0;
        sz[threadIdx.x] = j < count ? pz[j] : 0.0;
        sm[threadIdx.x] = j < count ? m[j] : 0.0;
        __syncthreads();
        const int len = count - t < block_size_x ? count - t : block_size_x;
#pragma unroll unroll
        for (int k = 0; k < len; k++) {
#pragma unroll
            for (int p = 0; p < P; p++)
                interact(xi[p], yi[p], zi[p], sx[k], sy[k], sz[k], sm[k], fx[p], fy[p], fz[p]);
        }
    }
#pragma unroll
    for (int p = 0; p < P; p++) {
        const int i = first + p * block_size_x;
        if (i < count) {
            ax[i] = fx[p];
            ay[i] = fy[p];
            az[i] = fz[p];
        }
    }
}
