/* stencil3d.cu - one Jacobi step of the 7-point Laplacian smoother on an
 * n x n x n float grid (x fastest), the faces replicated (coordinates
 * clamped to the grid):
 *
 *   out = c0 * u + c1 * (west + east + south + north + below + above)
 *
 * Compiled with -Dblock_size_x=BX -Dblock_size_y=BY -Dz_per_thread=Z -Dn=N.
 * The 2.5-D scheme: a BX x BY block owns a column of BX x BY points and
 * marches it through Z planes in z. Each thread keeps its point's below,
 * centre and above values in registers (one new global load per plane);
 * the centre plane and its one-point halo go through shared memory for the
 * x and y neighbours. Every thread, inside the grid or not, loads a clamped
 * value, so a partial tile's halo is right without special cases. */

__device__ __forceinline__ int clampi(int v, int hi)
{
    return v < 0 ? 0 : (v > hi ? hi : v);
}

__device__ __forceinline__ float lap7(float u, float w, float e, float s, float nn, float b, float a)
{
    return 0.4f * u + 0.1f * (((w + e) + (s + nn)) + (b + a));
}

/* The reference: one point per thread, all neighbours from global memory. */
extern "C" __global__ void lap7_reference(float *out, const float *in, int size)
{
    const int x = blockIdx.x * blockDim.x + threadIdx.x;
    const int y = blockIdx.y * blockDim.y + threadIdx.y;
    const int z = blockIdx.z * blockDim.z + threadIdx.z;
    if (x >= size || y >= size || z >= size)
        return;
    const int m = size - 1;
    const long sy = size, sz = (long)size * size;
    const long c = z * sz + y * sy + x;
    out[c] = lap7(in[c], in[z * sz + y * sy + clampi(x - 1, m)], in[z * sz + y * sy + clampi(x + 1, m)],
                  in[z * sz + clampi(y - 1, m) * sy + x], in[z * sz + clampi(y + 1, m) * sy + x],
                  in[clampi(z - 1, m) * sz + y * sy + x], in[clampi(z + 1, m) * sz + y * sy + x]);
}

#define BX block_size_x
#define BY block_size_y

extern "C" __global__ void __launch_bounds__(BX * BY) lap7_march(float *out, const float *in, int size)
{
    __shared__ float plane[BY + 2][BX + 2];
    const int m = size - 1;
    const long sz = (long)size * size;
    const int tx = threadIdx.x, ty = threadIdx.y;
    const int x = blockIdx.x * BX + tx, y = blockIdx.y * BY + ty;
    const int cx = clampi(x, m), cy = clampi(y, m);
    const bool inside = x < size && y < size;
    const long col = (long)cy * size + cx;
    /* The halo this thread loads besides its own point, if any. */
    const bool hw = tx == 0, he = tx == BX - 1, hs = ty == 0, hn = ty == BY - 1;
    const long col_w = (long)cy * size + clampi(x - 1, m), col_e = (long)cy * size + clampi(x + 1, m);
    const long col_s = (long)clampi(y - 1, m) * size + cx, col_n = (long)clampi(y + 1, m) * size + cx;
    const int z0 = blockIdx.z * z_per_thread;
    float below = in[clampi(z0 - 1, m) * sz + col];
    float centre = in[z0 * sz + col];
    for (int k = 0; k < z_per_thread; k++) {
        const int z = z0 + k;
        if (z >= size)
            break; /* the same for every thread of the block */
        const float above = in[clampi(z + 1, m) * sz + col];
        const long pz = z * sz;
        __syncthreads(); /* the previous plane's reads are done */
        plane[ty + 1][tx + 1] = centre;
        if (hw)
            plane[ty + 1][0] = in[pz + col_w];
        if (he)
            plane[ty + 1][BX + 1] = in[pz + col_e];
        if (hs)
            plane[0][tx + 1] = in[pz + col_s];
        if (hn)
            plane[BY + 1][tx + 1] = in[pz + col_n];
        __syncthreads();
        if (inside)
            out[pz + col] = lap7(centre, plane[ty + 1][tx], plane[ty + 1][tx + 2], plane[ty][tx + 1],
                                 plane[ty + 2][tx + 1], below, above);
        below = centre;
        centre = above;
    }
}
