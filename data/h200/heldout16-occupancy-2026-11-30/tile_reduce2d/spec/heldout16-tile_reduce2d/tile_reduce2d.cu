/* tile_reduce2d.cu - the sum of each tile x tile tile of a float image
 * (IMW = 8192 columns, nrows rows, row-major) into a small grid of tile
 * sums, as an image pyramid's coarse level, a tiled histogram's total or
 * the block sums of a two-pass reduction are made:
 *     out[ty][tx] = sum_{0 <= i, j < tile} img[ty tile + i][tx tile + j]
 * out has IMW / tile columns and nrows / tile rows. nrows is a multiple of
 * tile (the spec's restriction): no partial tiles.
 *
 * One block per tile, block_size_x x block_size_y threads. A tile row is
 * block_size_x chunks of VEC = tile / block_size_x consecutive floats (a
 * float, a float2 or a float4); thread (tx, ty) takes chunk tx of the tile
 * rows ty, ty + block_size_y, ... (RPT = tile / block_size_y rows, loads
 * all unrolled) and adds them in order into one float. The block's partial
 * sums are then added:
 *   red 0: a shared-memory tree, every thread's sum stored, then
 *          log2(threads) halving steps with a barrier after each;
 *   red 1: xor shuffles within each warp, the warps' sums through shared
 *          memory after one barrier, added in order by thread 0.
 * Thread 0 writes the tile's sum.
 *
 * Compiled with -Dtile=T -Dblock_size_x=BX -Dblock_size_y=BY -Dred=R -Drows=N. */

#define IMW 8192                              /* image columns */
#define VEC (tile / block_size_x)             /* floats per chunk */
#define RPT (tile / block_size_y)             /* tile rows per thread */
#define NT (block_size_x * block_size_y)      /* threads per block */

#if tile != 32 && tile != 64
#error "tile is 32 or 64"
#endif
#if VEC * block_size_x != tile || (VEC != 1 && VEC != 2 && VEC != 4)
#error "tile / block_size_x is 1, 2 or 4"
#endif
#if RPT * block_size_y != tile
#error "block_size_y divides tile"
#endif
#if red != 0 && red != 1
#error "red is 0 or 1"
#endif
#if NT % 32 != 0 || (NT & (NT - 1)) != 0
#error "the block's threads are a power of two, at least 32"
#endif

/* The reference: one tile per thread, summed in double, rounded once. */
extern "C" __global__ void tile_reduce2d_reference(float *out, const float *img, int nrows)
{
    const long i = (long)blockIdx.x * blockDim.x + threadIdx.x;
    const int tcols = IMW / tile;
    if (i >= (long)(nrows / tile) * tcols)
        return;
    const long ty = i / tcols, tx = i % tcols;
    const float *p = img + ty * tile * IMW + tx * tile;
    double s = 0.0;
    for (int r = 0; r < tile; r++)
        for (int c = 0; c < tile; c++)
            s += (double)p[(long)r * IMW + c];
    out[i] = (float)s;
}

#if VEC == 4
typedef float4 chunk_t;
__device__ __forceinline__ float chunk_add(float s, const float4 v)
{
    return s + v.x + v.y + v.z + v.w;
}
#elif VEC == 2
typedef float2 chunk_t;
__device__ __forceinline__ float chunk_add(float s, const float2 v)
{
    return s + v.x + v.y;
}
#else
typedef float chunk_t;
__device__ __forceinline__ float chunk_add(float s, const float v)
{
    return s + v;
}
#endif

extern "C" __global__ void __launch_bounds__(NT) tile_reduce2d(float *__restrict__ out, const float *__restrict__ img,
                                                               int nrows)
{
    if ((int)(blockIdx.y + 1) * tile > nrows) /* the whole block: before any barrier */
        return;
    const int tx = threadIdx.x, ty = threadIdx.y;
    const int t = ty * block_size_x + tx;
    const chunk_t *p = reinterpret_cast<const chunk_t *>(img + (long)blockIdx.y * tile * IMW + blockIdx.x * tile) + tx;
    chunk_t v[RPT];
#pragma unroll
    for (int k = 0; k < RPT; k++)
        v[k] = __ldg(p + (long)(k * block_size_y + ty) * (IMW / VEC));
    float s = 0.0f;
#pragma unroll
    for (int k = 0; k < RPT; k++)
        s = chunk_add(s, v[k]);
#if red == 0
    __shared__ float part[NT];
    part[t] = s;
    __syncthreads();
#pragma unroll
    for (int o = NT / 2; o > 0; o >>= 1) {
        if (t < o)
            part[t] += part[t + o];
        __syncthreads();
    }
    if (t == 0)
        out[blockIdx.y * (IMW / tile) + blockIdx.x] = part[0];
#else
    __shared__ float part[NT / 32];
#pragma unroll
    for (int o = 16; o > 0; o >>= 1)
        s += __shfl_xor_sync(0xffffffffu, s, o);
    if ((t & 31) == 0)
        part[t >> 5] = s;
    __syncthreads();
    if (t == 0) {
        float tot = 0.0f;
#pragma unroll
        for (int k = 0; k < NT / 32; k++)
            tot += part[k];
        out[blockIdx.y * (IMW / tile) + blockIdx.x] = tot;
    }
#endif
}
