/* tpose_ip.cu - in-place transpose of a square float matrix: M <- M^T for a
 * side x side row-major matrix, without a second matrix. The matrix is cut
 * into tiles of tile x tile elements; tile (bi, bj) and tile (bj, bi) swap
 * places, each transposed, and a tile on the diagonal is transposed onto
 * itself. Every element is read once and written once, in its own buffer.
 *
 * A block of tile x block_size_y threads takes one pair of tiles (bi, bj),
 * bi <= bj: it loads both into shared memory (one when bi == bj), a thread
 * the elements of its column tx in rows ty, ty + block_size_y, ... of each
 * tile (a warp reads 32 consecutive floats of a row), waits at a barrier,
 * and writes each tile's transpose over the other, reading the shared tiles
 * by column. The blocks own disjoint pairs: no block reads what another
 * writes. The pairs are found two ways:
 *   tri 0: a grid of nb x nb blocks (nb = side / tile), block (x, y) taking
 *          the pair (y, x) when y <= x; the blocks below the diagonal
 *          return at once (nearly half of the grid);
 *   tri 1: a grid of nb (nb + 1) / 2 blocks, block b taking the b-th pair
 *          of the upper triangle, row by row: bj the largest with
 *          bj (bj + 1) / 2 <= b, bi = b - bj (bj + 1) / 2.
 * The shared tiles are tile x tile floats (tpad 0: a column read by a warp
 * falls in one bank 32 times over) or tile x (tile + 1) (tpad 1: in 32
 * banks).
 *
 * Compiled with -Dblock_size_x=T -Dblock_size_y=Y -Dtri=G -Dtpad=P -Dside=S
 * and -Dtile=T, the spec's define: block_size_x is the tile's width. side
 * is a multiple of 64 (whole tiles). */

#if tile != 32 && tile != 64
#error "tile is 32 or 64"
#endif
#if block_size_x != tile
#error "block_size_x is the tile's width"
#endif
#if tri != 0 && tri != 1
#error "tri is 0 or 1"
#endif
#if tpad != 0 && tpad != 1
#error "tpad is 0 or 1"
#endif

#define LD (tile + tpad) /* row pitch of a shared tile, in floats */

/* The reference: a thread per element above the diagonal, swapping it with
 * its mirror. */
extern "C" __global__ void tpose_ip_reference(float *m, int width)
{
    const int c = blockIdx.x * blockDim.x + threadIdx.x;
    const int r = blockIdx.y * blockDim.y + threadIdx.y;
    if (r >= width || c >= width || c <= r)
        return;
    const long u = (long)r * width + c, l = (long)c * width + r;
    const float a = m[u];
    m[u] = m[l];
    m[l] = a;
}

extern "C" __global__ void __launch_bounds__(block_size_x *block_size_y) tpose_ip(float *__restrict__ m, int width)
{
    __shared__ float sa[tile * LD], sb[tile * LD];
    int bi, bj;
#if tri == 0
    bi = blockIdx.y;
    bj = blockIdx.x;
    if (bi > bj)
        return; /* the whole block: the barrier below is not split */
#else
    {
        const int b = blockIdx.x;
        int j = (int)((sqrtf(8.0f * (float)b + 1.0f) - 1.0f) * 0.5f);
        while (j * (j + 1) / 2 > b) /* the float square root may be a unit off either way */
            j--;
        while ((j + 1) * (j + 2) / 2 <= b)
            j++;
        bj = j;
        bi = b - j * (j + 1) / 2;
    }
#endif
    const int tx = threadIdx.x, ty = threadIdx.y;
    float *ta = m + (long)bi * tile * width + (long)bj * tile; /* tile (bi, bj): its top left element */
    float *tb = m + (long)bj * tile * width + (long)bi * tile; /* tile (bj, bi) */
#pragma unroll
    for (int y = ty; y < tile; y += block_size_y)
        sa[y * LD + tx] = ta[(long)y * width + tx];
    if (bi != bj) {
#pragma unroll
        for (int y = ty; y < tile; y += block_size_y)
            sb[y * LD + tx] = tb[(long)y * width + tx];
    }
    __syncthreads();
    if (bi != bj) {
#pragma unroll
        for (int y = ty; y < tile; y += block_size_y) {
            ta[(long)y * width + tx] = sb[tx * LD + y]; /* M(bi tile + y, bj tile + tx) = old M(bj tile + tx, bi tile + y) */
            tb[(long)y * width + tx] = sa[tx * LD + y];
        }
    } else {
#pragma unroll
        for (int y = ty; y < tile; y += block_size_y)
            ta[(long)y * width + tx] = sa[tx * LD + y];
    }
}
