/* solve4.cu - a batch of small damped linear systems, (A_s + lam I) x_s =
 * b_s for 4 x 4 float matrices A_s, each solved by one thread: Gaussian
 * elimination without pivoting and back substitution, in registers (the
 * batched small solves of a Levenberg-Marquardt step, a Kalman update or
 * a per-pixel colour fit). A is an array of nsys row-major 4 x 4 matrices
 * (64 bytes each, four float4 rows), b and x arrays of nsys float4. With
 * |a_ij| <= 1 and lam = 5 every matrix is strictly diagonally dominant
 * (diagonal at least 4, the rest of a row at most 3), so elimination needs
 * no pivoting: it keeps every row's margin of dominance, and every pivot is
 * at least 1.
 *
 * A block of block_size_x threads takes block_size_x x spt consecutive
 * systems: thread t its spt systems t, t + block_size_x, ... . How a thread
 * gets its matrix is the staging axis:
 *   0: straight from global memory, four float4 loads of its own 64 bytes
 *      (a warp's load instruction touches 32 rows 64 bytes apart; its four
 *      instructions together cover the warp's 2 KiB, merged in L1);
 *   1: each warp copies its 32 matrices of each slot (2 KiB) into shared
 *      memory by coalesced float4 loads (lane l takes float4 l, l + 32, ...
 *      of the warp's run), then, after a __syncwarp, each lane reads its own
 *      matrix from there: 16 floats per matrix, so a lane's float4 reads are
 *      64 bytes apart (4-way bank conflicts);
 *   2: as 1, with each matrix padded to 20 floats in shared memory (its reads
 *      conflict-free, its writes 2-way).
 * All of a thread's loads (spt matrices and right-hand sides) are issued
 * before its first solve. b is read and x written as one float4 per system.
 *
 * solve4_sys() is the one function the kernel and the reference both call, and
 * every operation in it is an explicitly rounded intrinsic, so they compute
 * the same bits.
 *
 * Compiled with -Dblock_size_x=B -Dspt=S -Dstaging=G -Dnsys=N. */

#define NWARPS (block_size_x / 32)
#if staging == 2
#define SLOT 20 /* floats per matrix in shared memory */
#else
#define SLOT 16
#endif

__device__ __forceinline__ float4 solve4_sys(float4 a0, float4 a1, float4 a2, float4 a3, float4 bb, float lam)
{
    float m[4][4] = {{a0.x, a0.y, a0.z, a0.w}, {a1.x, a1.y, a1.z, a1.w}, {a2.x, a2.y, a2.z, a2.w},
                     {a3.x, a3.y, a3.z, a3.w}};
    float b[4] = {bb.x, bb.y, bb.z, bb.w};
    float r[4], x[4];
#pragma unroll
    for (int i = 0; i < 4; i++)
        m[i][i] = __fadd_rn(m[i][i], lam);
#pragma unroll
    for (int k = 0; k < 4; k++) {
        r[k] = __frcp_rn(m[k][k]);
#pragma unroll
        for (int i = k + 1; i < 4; i++) {
            const float f = __fmul_rn(m[i][k], r[k]);
#pragma unroll
            for (int j = k + 1; j < 4; j++)
                m[i][j] = __fmaf_rn(-f, m[k][j], m[i][j]);
            b[i] = __fmaf_rn(-f, b[k], b[i]);
        }
    }
#pragma unroll
    for (int i = 3; i >= 0; i--) {
        float s = b[i];
#pragma unroll
        for (int j = i + 1; j < 4; j++)
            s = __fmaf_rn(-m[i][j], x[j], s);
        x[i] = __fmul_rn(s, r[i]);
    }
    return make_float4(x[0], x[1], x[2], x[3]);
}

/* The reference: a system per thread, its 20 floats read one by one. */
extern "C" __global__ void solve4_reference(float *xs, const float *A, const float *bs, float lam, int count)
{
    const long s = (long)blockIdx.x * blockDim.x + threadIdx.x;
    if (s >= count)
        return;
    const float *a = A + 16 * s;
    const float *b = bs + 4 * s;
    const float4 q = solve4_sys(make_float4(a[0], a[1], a[2], a[3]), make_float4(a[4], a[5], a[6], a[7]),
                            make_float4(a[8], a[9], a[10], a[11]), make_float4(a[12], a[13], a[14], a[15]),
                            make_float4(b[0], b[1], b[2], b[3]), lam);
    float *x = xs + 4 * s;
    x[0] = q.x;
    x[1] = q.y;
    x[2] = q.z;
    x[3] = q.w;
}

extern "C" __global__ void __launch_bounds__(block_size_x)
    solve4(float *__restrict__ xs, const float *__restrict__ A, const float *__restrict__ bs, float lam, int count)
{
    const float4 *A4 = reinterpret_cast<const float4 *>(A);
    const float4 *b4 = reinterpret_cast<const float4 *>(bs);
    const long base = (long)blockIdx.x * block_size_x * spt; /* the block's first system */
    const int t = threadIdx.x;
    float4 a[spt][4], bb[spt];
#if staging == 0
#pragma unroll
    for (int k = 0; k < spt; k++) {
        const long s = base + (long)k * block_size_x + t;
        if (s < count) {
#pragma unroll
            for (int q = 0; q < 4; q++)
                a[k][q] = A4[4 * s + q];
            bb[k] = b4[s];
        }
    }
#elif staging == 1 || staging == 2
    extern __shared__ float4 tile4[];
    float *tile = reinterpret_cast<float *>(tile4);
    const int warp = t >> 5, lane = t & 31;
    /* the coalesced loads: float4 g = lane + 32 q of the warp's 32 matrices
     * of slot k is row g % 4 (= lane % 4) of its matrix g / 4 */
#pragma unroll
    for (int k = 0; k < spt; k++) {
        const long w0 = base + (long)k * block_size_x + 32 * warp; /* the warp's first system of slot k */
#pragma unroll
        for (int q = 0; q < 4; q++) {
            const int g = lane + 32 * q;
            if (w0 + g / 4 < count)
                a[k][q] = A4[4 * w0 + g];
        }
        if (w0 + lane < count)
            bb[k] = b4[w0 + lane];
    }
#pragma unroll
    for (int k = 0; k < spt; k++) {
        float *wt = tile + ((k * NWARPS + warp) * 32) * SLOT;
#pragma unroll
        for (int q = 0; q < 4; q++) {
            const int g = lane + 32 * q;
            *reinterpret_cast<float4 *>(wt + (g / 4) * SLOT + 4 * (g % 4)) = a[k][q];
        }
    }
    __syncwarp();
#pragma unroll
    for (int k = 0; k < spt; k++) {
        const float *wt = tile + ((k * NWARPS + warp) * 32 + lane) * SLOT;
#pragma unroll
        for (int q = 0; q < 4; q++)
            a[k][q] = *reinterpret_cast<const float4 *>(wt + 4 * q);
    }
#else
#error "staging is 0, 1 or 2"
#endif
#pragma unroll
    for (int k = 0; k < spt; k++) {
        const long s = base + (long)k * block_size_x + t;
        if (s < count)
            reinterpret_cast<float4 *>(xs)[s] = solve4_sys(a[k][0], a[k][1], a[k][2], a[k][3], bb[k], lam);
    }
}
