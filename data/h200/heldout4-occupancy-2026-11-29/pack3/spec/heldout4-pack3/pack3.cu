/* pack3.cu - a 3-D permutation of a float array: in is nx x ny x nz
 * (row-major, z fastest), out is nz x nx x ny (y fastest), out[z][x][y] =
 * in[x][y][z]: the fastest axis of the input becomes the slowest of the
 * output (a layout change between channels-last and channels-first, or a
 * step of a 3-D FFT). For each x the (y, z) plane is transposed, and its
 * rows land nx * ny floats apart in the output.
 *
 * A block takes a T x T tile of one plane, T = block_size_x: T values of z
 * by T values of y at one x (blockIdx.z). Thread (tx, ty) handles rows ty,
 * ty + block_size_y, ... of the tile (T / block_size_y of them).
 * tiled 0: each thread reads in[x][y][z0 + tx] (coalesced along z) and
 * writes it straight to out[z0 + tx][x][y]: a warp's stores go to min(T, 32)
 * output rows (z), nx * ny floats apart, 32 / T consecutive floats in each
 * where T < 32.
 * tiled 1: the tile goes through shared memory, T x (T + 1) floats (the
 * padding keeps the column reads free of bank conflicts): read along z,
 * written along y, both coalesced.
 * Edge tiles (n not a multiple of T) are guarded element by element.
 *
 * Compiled with -Dblock_size_x=T -Dblock_size_y=R -Dtiled=S -Dn=N. */

/* The reference: an output element per thread. */
extern "C" __global__ void pack3_reference(float *out, const float *in, int nx, int ny, int nz)
{
    const long i = (long)blockIdx.x * blockDim.x + threadIdx.x;
    const long total = (long)nx * ny * nz;
    if (i >= total)
        return;
    const long y = i % ny;
    const long x = (i / ny) % nx;
    const long z = i / ((long)ny * nx);
    out[i] = in[(x * ny + y) * nz + z];
}

#define TILE block_size_x

extern "C" __global__ void __launch_bounds__(block_size_x * block_size_y)
    pack3(float *out, const float *__restrict__ in, int nx, int ny, int nz)
{
    const int z0 = blockIdx.x * TILE, y0 = blockIdx.y * TILE;
    const long x = blockIdx.z;
    const long plane = (long)nx * ny; /* floats between consecutive z of the output */
#if tiled
    __shared__ float tile[TILE][TILE + 1];
    {
        const int z = z0 + threadIdx.x;
#pragma unroll
        for (int r = threadIdx.y; r < TILE; r += block_size_y) {
            const int y = y0 + r;
            if (y < ny && z < nz)
                tile[r][threadIdx.x] = in[(x * ny + y) * nz + z];
        }
    }
    __syncthreads();
    {
        const int y = y0 + threadIdx.x;
#pragma unroll
        for (int r = threadIdx.y; r < TILE; r += block_size_y) {
            const int z = z0 + r;
            if (y < ny && z < nz)
                out[z * plane + x * ny + y] = tile[threadIdx.x][r];
        }
    }
#else
    const int z = z0 + threadIdx.x;
#pragma unroll
    for (int r = threadIdx.y; r < TILE; r += block_size_y) {
        const int y = y0 + r;
        if (y < ny && z < nz)
            out[z * plane + x * ny + y] = in[(x * ny + y) * nz + z];
    }
#endif
}
