/* aos2soa.cu - converts an array of structs {x, y, z} of three floats (a
 * 12-byte stride: particle positions, vertices) into three separate float
 * arrays X, Y, Z. Each block takes a tile of block_size_x * ept consecutive
 * structs; thread t of the block converts structs t, t + block_size_x, ...
 * of the tile (ept of them), so the stores to X, Y and Z are contiguous
 * across a warp.
 *
 * staged 0: each thread loads its struct's three floats directly; a warp's
 * load of x touches every 12th byte of 384 bytes, and the loads of y and z
 * find the same lines in L1.
 * staged 1: the block first copies its tile (3 * block_size_x * ept floats,
 * contiguous) into shared memory by float4 loads, then every thread reads
 * its struct from there (a stride of 3 words: no bank conflicts).
 *
 * Compiled with -Dblock_size_x=B -Dept=E -Dstaged=S -Dn=N. */

/* The reference: a struct per thread. */
extern "C" __global__ void aos2soa_reference(float *X, float *Y, float *Z, const float *aos, int count)
{
    const long i = (long)blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= count)
        return;
    X[i] = aos[3 * i];
    Y[i] = aos[3 * i + 1];
    Z[i] = aos[3 * i + 2];
}

#define TILE (block_size_x * ept)

extern "C" __global__ void __launch_bounds__(block_size_x)
    aos2soa(float *X, float *Y, float *Z, const float *__restrict__ aos, int count)
{
    const long first = (long)blockIdx.x * TILE; /* the tile's first struct */
#if staged
    __shared__ __align__(16) float tile[3 * TILE];
    const long left = count - first;
    const int structs = left < TILE ? (int)left : TILE; /* structs in this tile */
    const float *src = aos + 3 * first;
    if (structs == TILE) {
        /* 3 * TILE floats from a 16-byte boundary (TILE is a multiple of 4). */
        const float4 *src4 = reinterpret_cast<const float4 *>(src);
        float4 *dst4 = reinterpret_cast<float4 *>(tile);
#pragma unroll
        for (int j = threadIdx.x; j < 3 * TILE / 4; j += block_size_x)
            dst4[j] = src4[j];
    } else {
        for (int j = threadIdx.x; j < 3 * structs; j += block_size_x)
            tile[j] = src[j];
    }
    __syncthreads();
#pragma unroll
    for (int k = 0; k < ept; k++) {
        const int e = threadIdx.x + k * block_size_x;
        if (e < structs) {
            X[first + e] = tile[3 * e];
            Y[first + e] = tile[3 * e + 1];
            Z[first + e] = tile[3 * e + 2];
        }
    }
#else
#pragma unroll
    for (int k = 0; k < ept; k++) {
        const long i = first + threadIdx.x + (long)k * block_size_x;
        if (i < count) {
            const float x = aos[3 * i], y = aos[3 * i + 1], z = aos[3 * i + 2];
            X[i] = x;
            Y[i] = y;
            Z[i] = z;
        }
    }
#endif
}
