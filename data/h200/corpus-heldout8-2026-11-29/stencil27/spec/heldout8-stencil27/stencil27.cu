/* stencil27.cu - one step of a 27-point smoothing stencil on a dim^3 float
 * grid (x fastest, then y, then z): each interior point becomes the sum of
 * its 3 x 3 x 3 neighbourhood weighted by distance class, 1/2 for the point,
 * 1/16 for its 6 face neighbours, 1/128 for its 12 edge neighbours and 1/256
 * for its 8 corners (the weights add to 1, each a power of two); a point on
 * the grid's boundary is copied unchanged.
 *
 * A block of block_size_x x block_size_y threads takes that column of
 * points over zpb consecutive planes (blockIdx.z), marching up in z. Each
 * plane it reads is staged with a halo of one in x and y into a
 * (block_size_x + 2) x (block_size_y + 2) tile of shared memory, the block's
 * threads loading it together, a barrier after. Of each tile a thread forms
 * its point's three in-plane sums a (the point), b (its 4 edge neighbours)
 * and c (its 4 diagonal ones) by stencil27_plane(); the output of plane z is
 * same(z) + (side(z - 1) + side(z + 1)), with same = a/2 + b/16 + c/128 and
 * side = a/16 + b/128 + c/256. ntile 3 keeps the three planes z - 1, z, z + 1
 * in a ring of three tiles and reads the 27 values of each output from them;
 * ntile 1 keeps one tile and carries each plane's same and side sums up to
 * the next plane in registers (9 shared reads per output, two barriers per
 * plane). Both add the same terms in the same order, so their outputs are
 * the same bits.
 *
 * Compiled with -Dblock_size_x=BX -Dblock_size_y=BY -Dzpb=Z -Dntile=T -Dside=S. */

#define W0 0.5f        /* the point */
#define W1 0.0625f     /* 6 face neighbours */
#define W2 0.0078125f  /* 12 edge neighbours */
#define W3 0.00390625f /* 8 corners */

/* The reference: a thread per point, its 27 neighbours in z, y, x order,
 * each times its class's weight added to the sum. */
extern "C" __global__ void stencil27_reference(float *out, const float *in, int dim)
{
    const int x = blockIdx.x * blockDim.x + threadIdx.x;
    const int y = blockIdx.y * blockDim.y + threadIdx.y;
    const int z = blockIdx.z;
    if (x >= dim || y >= dim)
        return;
    const long i = ((long)z * dim + y) * dim + x;
    if (x == 0 || y == 0 || z == 0 || x == dim - 1 || y == dim - 1 || z == dim - 1) {
        out[i] = in[i];
        return;
    }
    const float w[4] = {W0, W1, W2, W3};
    float s = 0.0f;
    for (int dz = -1; dz <= 1; dz++)
        for (int dy = -1; dy <= 1; dy++)
            for (int dx = -1; dx <= 1; dx++)
                s += w[abs(dx) + abs(dy) + abs(dz)] * in[i + ((long)dz * dim + dy) * dim + dx];
    out[i] = s;
}

#define TX (block_size_x + 2)
#define TY (block_size_y + 2)
#define NTHREADS (block_size_x * block_size_y)

/* Plane z of the grid (zeros outside it) into a tile: point (x0 - 1 + lx,
 * y0 - 1 + ly) at tile[ly][lx]. */
__device__ __forceinline__ void stencil27_load(float (*tile)[TX], const float *__restrict__ in, int dim, int x0, int y0,
                                               int z)
{
    const int t = threadIdx.y * block_size_x + threadIdx.x;
    for (int k = t; k < TX * TY; k += NTHREADS) {
        const int lx = k % TX, ly = k / TX;
        const int gx = x0 - 1 + lx, gy = y0 - 1 + ly;
        float val = 0.0f;
        if (z >= 0 && z < dim && gx >= 0 && gx < dim && gy >= 0 && gy < dim)
            val = in[((long)z * dim + gy) * dim + gx];
        tile[ly][lx] = val;
    }
}

/* The thread's point in a tile: a the point, b its 4 edge neighbours, c its
 * 4 diagonal ones. */
__device__ __forceinline__ void stencil27_plane(const float (*tile)[TX], float &a, float &b, float &c)
{
    const int lx = threadIdx.x + 1, ly = threadIdx.y + 1;
    a = tile[ly][lx];
    b = (tile[ly - 1][lx] + tile[ly + 1][lx]) + (tile[ly][lx - 1] + tile[ly][lx + 1]);
    c = (tile[ly - 1][lx - 1] + tile[ly - 1][lx + 1]) + (tile[ly + 1][lx - 1] + tile[ly + 1][lx + 1]);
}

__device__ __forceinline__ float stencil27_same(float a, float b, float c)
{
    return __fmaf_rn(W2, c, __fmaf_rn(W1, b, W0 * a));
}

__device__ __forceinline__ float stencil27_side(float a, float b, float c)
{
    return __fmaf_rn(W3, c, __fmaf_rn(W2, b, W1 * a));
}

extern "C" __global__ void stencil27(float *out, const float *__restrict__ in, int dim)
{
    const int x0 = blockIdx.x * block_size_x, y0 = blockIdx.y * block_size_y;
    const int x = x0 + threadIdx.x, y = y0 + threadIdx.y;
    const int z0 = blockIdx.z * zpb;
    const int z1 = min(z0 + zpb, dim); /* planes z0 to z1 - 1 written */
    const bool inxy = x < dim && y < dim;
    const bool edge = x == 0 || y == 0 || x == dim - 1 || y == dim - 1;
    float *o = out + ((long)z0 * dim + y) * dim + x;
    const long plane = (long)dim * dim;
#if ntile == 3
    __shared__ float tiles[3][TY][TX];
    int prev = 0, cur = 1, next = 2;
    stencil27_load(tiles[prev], in, dim, x0, y0, z0 - 1);
    stencil27_load(tiles[cur], in, dim, x0, y0, z0);
    for (int z = z0; z < z1; z++, o += plane) {
        stencil27_load(tiles[next], in, dim, x0, y0, z + 1);
        __syncthreads();
        if (inxy) {
            float a, b, c;
            stencil27_plane(tiles[cur], a, b, c);
            if (edge || z == 0 || z == dim - 1) {
                *o = a;
            } else {
                const float same = stencil27_same(a, b, c);
                stencil27_plane(tiles[prev], a, b, c);
                const float below = stencil27_side(a, b, c);
                stencil27_plane(tiles[next], a, b, c);
                const float above = stencil27_side(a, b, c);
                *o = same + (below + above);
            }
        }
        __syncthreads(); /* the tile of plane z - 1 is loaded over next */
        const int t = prev;
        prev = cur;
        cur = next;
        next = t;
    }
#elif ntile == 1
    __shared__ float tile[TY][TX];
    /* Carried up from the planes below: side(z - 2), and of z - 1 its
     * point, same and side. */
    float side2 = 0.0f, a1 = 0.0f, same1 = 0.0f, side1 = 0.0f;
    for (int q = z0 - 1; q <= z1; q++) {
        stencil27_load(tile, in, dim, x0, y0, q);
        __syncthreads();
        float a, b, c;
        stencil27_plane(tile, a, b, c);
        __syncthreads(); /* the tile is loaded over at the next plane */
        const float sd = stencil27_side(a, b, c);
        const int z = q - 1; /* the output plane now complete */
        if (inxy && z >= z0) {
            if (edge || z == 0 || z == dim - 1)
                *o = a1;
            else
                *o = same1 + (side2 + sd);
            o += plane;
        }
        side2 = side1;
        a1 = a;
        same1 = stencil27_same(a, b, c);
        side1 = sd;
    }
#else
#error "ntile is 1 or 3"
#endif
}
