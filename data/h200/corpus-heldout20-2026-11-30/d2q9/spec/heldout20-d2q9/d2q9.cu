/* d2q9.cu - one time step of the lattice Boltzmann method on a D2Q9
 * lattice (a 2-D flow solver), periodic in x and y, with the BGK
 * collision: for each cell (x, y) of a grid of LBW (1024) x count cells,
 *     f_q   = fin[q][y - cy_q][x - cx_q]          (streaming, pulled)
 *     rho   = sum_q f_q,  u = sum_q c_q f_q / rho
 *     feq_q = w_q rho (1 + 3 c_q.u + 4.5 (c_q.u)^2 - 1.5 u.u)
 *     fout[q][y][x] = f_q + OMEGA (feq_q - f_q)
 * with the velocities c_q, q = 0 .. 8: (0,0), (1,0), (0,1), (-1,0),
 * (0,-1), (1,1), (-1,1), (-1,-1), (1,-1), the weights 4/9, 1/9 (q 1 to
 * 4) and 1/36 (q 5 to 8), OMEGA 1.6 (tau 0.625). fin and fout hold 9
 * planes of count rows of LBW floats (structure of arrays): population q
 * of cell (x, y) at float (q count + y) LBW + x; the neighbours wrap
 * around both edges.
 *
 * A block is block_size_x threads along a row (consecutive x) and takes
 * rpt consecutive rows, a cell per thread and row; the 9 populations of
 * all rpt cells are loaded first, then each cell is collided and its 9
 * populations stored (coalesced, aligned). The three planes with cx = 0
 * are read from rows y, y - 1 or y + 1 at x (aligned); the six with cx =
 * +-1 (xload):
 *   0: loaded from x - cx directly, a warp's request 128 bytes one float
 *      off the alignment (five sectors, through L1);
 *   1: loaded at x (aligned) and moved one lane across by a shuffle
 *      (__shfl_up_sync for cx = +1, __shfl_down_sync for cx = -1), the
 *      warp's edge lane (lane 0 or 31) loading the one value from outside
 *      the warp itself.
 * The collision is written as the roundings it does (__fadd_rn,
 * __fmul_rn, __fdiv_rn, fmaf), the same in the reference, so that both
 * give the same bits.
 *
 * Compiled with -Dblock_size_x=T -Drpt=R -Dxload=L -Dnrows=N. */

#define LBW 1024        /* cells of a row, a power of two */
#define OMEGA 1.6f      /* the BGK relaxation rate, 1 / tau */
#define FULL 0xffffffffu

#if xload != 0 && xload != 1
#error "xload is 0 or 1"
#endif
#if rpt < 1
#error "rpt is at least 1"
#endif
#if LBW % block_size_x != 0 || block_size_x % 32 != 0
#error "block_size_x divides a row and is a multiple of 32"
#endif

/* The BGK collision of a cell's 9 populations, in place. */
__device__ __forceinline__ void collide(float *f)
{
    const float w0 = 4.0f / 9.0f, w1 = 1.0f / 9.0f, w2 = 1.0f / 36.0f;
    const float rho = __fadd_rn(__fadd_rn(__fadd_rn(__fadd_rn(__fadd_rn(__fadd_rn(__fadd_rn(__fadd_rn(f[0], f[1]),
                                                                                              f[2]), f[3]), f[4]),
                                                              f[5]), f[6]), f[7]), f[8]);
    const float jx = __fadd_rn(__fsub_rn(__fsub_rn(__fadd_rn(__fsub_rn(f[1], f[3]), f[5]), f[6]), f[7]), f[8]);
    const float jy = __fsub_rn(__fsub_rn(__fadd_rn(__fadd_rn(__fsub_rn(f[2], f[4]), f[5]), f[6]), f[7]), f[8]);
    const float inv = __fdiv_rn(1.0f, rho);
    const float ux = __fmul_rn(jx, inv), uy = __fmul_rn(jy, inv);
    const float base = fmaf(-1.5f, fmaf(uy, uy, __fmul_rn(ux, ux)), 1.0f); /* 1 - 1.5 u.u */
    const float s = __fadd_rn(ux, uy), d = __fsub_rn(ux, uy);
    const float r0 = __fmul_rn(w0, rho), r1 = __fmul_rn(w1, rho), r2 = __fmul_rn(w2, rho);
    /* c_q.u for q = 1 .. 8 */
    const float cu[9] = {0.0f, ux, uy, -ux, -uy, s, -d, -s, d};
    const float feq0 = __fmul_rn(r0, base);
    f[0] = fmaf(OMEGA, __fsub_rn(feq0, f[0]), f[0]);
#pragma unroll
    for (int q = 1; q < 9; q++) {
        const float r = q < 5 ? r1 : r2;
        const float feq = __fmul_rn(r, fmaf(cu[q], fmaf(4.5f, cu[q], 3.0f), base));
        f[q] = fmaf(OMEGA, __fsub_rn(feq, f[q]), f[q]);
    }
}

/* The reference: one cell per thread, each population loaded from its
 * wrapped neighbour's index. */
extern "C" __global__ void d2q9_reference(float *fout, const float *fin, int count)
{
    const int cx[9] = {0, 1, 0, -1, 0, 1, -1, -1, 1}, cy[9] = {0, 0, 1, 0, -1, 1, 1, -1, -1};
    const long i = (long)blockIdx.x * blockDim.x + threadIdx.x, plane = (long)LBW * count;
    if (i >= plane)
        return;
    const int x = (int)(i % LBW), y = (int)(i / LBW);
    float f[9];
    for (int q = 0; q < 9; q++) {
        const int sx = (x - cx[q] + LBW) % LBW, sy = (y - cy[q] + count) % count;
        f[q] = fin[q * plane + (long)sy * LBW + sx];
    }
    collide(f);
    for (int q = 0; q < 9; q++)
        fout[q * plane + i] = f[q];
}

extern "C" __global__ void __launch_bounds__(block_size_x)
    d2q9(float *__restrict__ fout, const float *__restrict__ fin, int count)
{
    const long plane = (long)LBW * count;
    const int x = blockIdx.x * block_size_x + threadIdx.x;
    const int xm = (x - 1) & (LBW - 1), xp = (x + 1) & (LBW - 1);
    const int y0 = blockIdx.y * rpt;
    float f[rpt][9];
#if xload == 1
    const int lane = threadIdx.x & 31;
    float e[rpt][6]; /* the edge lane's values from outside the warp: planes 1, 5, 8 at x - 1; 3, 6, 7 at x + 1 */
#endif
#pragma unroll
    for (int r = 0; r < rpt; r++) {
        const int y = min(y0 + r, count - 1); /* a row past the end (the same for the whole block) reads the last */
        const int ym = y == 0 ? count - 1 : y - 1, yp = y == count - 1 ? 0 : y + 1;
        const float *c = fin + (long)y * LBW, *n = fin + (long)ym * LBW, *s = fin + (long)yp * LBW;
        f[r][0] = __ldg(c + x);
        f[r][2] = __ldg(n + 2 * plane + x);
        f[r][4] = __ldg(s + 4 * plane + x);
#if xload == 0
        f[r][1] = __ldg(c + plane + xm);
        f[r][3] = __ldg(c + 3 * plane + xp);
        f[r][5] = __ldg(n + 5 * plane + xm);
        f[r][6] = __ldg(n + 6 * plane + xp);
        f[r][7] = __ldg(s + 7 * plane + xp);
        f[r][8] = __ldg(s + 8 * plane + xm);
#else
        f[r][1] = __ldg(c + plane + x);
        f[r][3] = __ldg(c + 3 * plane + x);
        f[r][5] = __ldg(n + 5 * plane + x);
        f[r][6] = __ldg(n + 6 * plane + x);
        f[r][7] = __ldg(s + 7 * plane + x);
        f[r][8] = __ldg(s + 8 * plane + x);
        e[r][0] = lane == 0 ? __ldg(c + plane + xm) : 0.0f;
        e[r][1] = lane == 0 ? __ldg(n + 5 * plane + xm) : 0.0f;
        e[r][2] = lane == 0 ? __ldg(s + 8 * plane + xm) : 0.0f;
        e[r][3] = lane == 31 ? __ldg(c + 3 * plane + xp) : 0.0f;
        e[r][4] = lane == 31 ? __ldg(n + 6 * plane + xp) : 0.0f;
        e[r][5] = lane == 31 ? __ldg(s + 7 * plane + xp) : 0.0f;
#endif
    }
#pragma unroll
    for (int r = 0; r < rpt; r++) {
#if xload == 1
        /* cx = +1: the value of x - 1, the lane below; cx = -1: of x + 1, the lane above */
        f[r][1] = __shfl_up_sync(FULL, f[r][1], 1);
        f[r][5] = __shfl_up_sync(FULL, f[r][5], 1);
        f[r][8] = __shfl_up_sync(FULL, f[r][8], 1);
        f[r][3] = __shfl_down_sync(FULL, f[r][3], 1);
        f[r][6] = __shfl_down_sync(FULL, f[r][6], 1);
        f[r][7] = __shfl_down_sync(FULL, f[r][7], 1);
        if (lane == 0) {
            f[r][1] = e[r][0];
            f[r][5] = e[r][1];
            f[r][8] = e[r][2];
        }
        if (lane == 31) {
            f[r][3] = e[r][3];
            f[r][6] = e[r][4];
            f[r][7] = e[r][5];
        }
#endif
        collide(f[r]);
        const int y = y0 + r;
        if (y < count) {
            float *o = fout + (long)y * LBW + x;
#pragma unroll
            for (int q = 0; q < 9; q++)
                o[q * plane] = f[r][q];
        }
    }
}
