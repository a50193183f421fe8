/* stencil.cu - one Jacobi step of the 2-D 5-point stencil on an n x n grid
 * of floats (row-major), over block shapes, and the reference.
 *
 *   out[y][x] = 0.5 in[y][x] + 0.125 (in[y][x-1] + in[y][x+1] + in[y-1][x] + in[y+1][x])
 *
 * on the interior; the boundary rows and columns are copied. Compiled with
 * -Dblock_size_x=BX -Dblock_size_y=BY -Dn=N: one thread per point, a block
 * covers BX x BY points, the grid ceil(N/BX) x ceil(N/BY) blocks. The
 * neighbours are read straight from global memory, so the reuse between a
 * block's rows (and across blocks) is the caches': the block shape decides
 * how much of it there is and how coalesced the rows are. */

/* The one formula, shared by both kernels so they round alike. */
__device__ __forceinline__ float stencil_point(const float *in, int x, int y, int size)
{
    const long i = (long)y * size + x;
    if (x == 0 || y == 0 || x == size - 1 || y == size - 1)
        return in[i];
    return 0.5f * in[i] + 0.125f * (in[i - 1] + in[i + 1] + in[i - size] + in[i + size]);
}

/* The reference, launched with 16 x 16 blocks. */
extern "C" __global__ void stencil_reference(float *out, const float *in, int size)
{
    const int x = blockIdx.x * blockDim.x + threadIdx.x;
    const int y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x < size && y < size)
        out[(long)y * size + x] = stencil_point(in, x, y, size);
}

#if defined(block_size_x) && defined(block_size_y)
extern "C" __global__ void __launch_bounds__(block_size_x * block_size_y)
    stencil5(float *out, const float *in, int size)
{
    const int x = blockIdx.x * block_size_x + threadIdx.x;
    const int y = blockIdx.y * block_size_y + threadIdx.y;
    if (x < size && y < size)
        out[(long)y * size + x] = stencil_point(in, x, y, size);
}
#endif
