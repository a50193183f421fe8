/* throughput.c - suite `throughput`: operations per clock per SM.
 *
 * Arithmetic (bench `arith`): chains of one operation, each step feeding the
 * next. The throughput variant (mode=tput) runs CHAINS independent chains per
 * thread at the occupancy the device allows (a full SM for every operation
 * here), so the pipe has work from many warps and many chains each cycle; the
 * latency variant (mode=lat) runs one chain in one warp, so each step waits
 * for the one before it. Shared memory (benches `smem`, `smem_broadcast`):
 * 32-bit loads with an n-way bank conflict, n = 1..32, and every lane of a
 * warp reading one word. Constant memory (bench `const`): every lane of a
 * warp reading one address, or each lane its own.
 *
 * Clock: every kernel stamps each block with the SM's own cycle counter
 * (clock64()) before and after its work, and the SM id. The rate of an SM is
 * the operations of its blocks over the cycles from its first block's start
 * to its last block's end; ops_per_clk_sm adds operations and cycles over
 * all SMs. This counts the cycles the SM actually ran, whatever its clock
 * frequency did, and leaves launch overhead out; the NVML clock the harness
 * records is read outside the kernels and only once per point. The kernels
 * also read %globaltimer, which gives the SM clock the kernel ran at
 * (metric sm_mhz) as a cross-check of the NVML reading.
 *
 * Verification: every chain's last value is written and checked on the
 * host against the same chain computed there from the same fresh random
 * start values and parameters: bit for bit for correctly rounded and integer
 * operations, within a bound derived from the documented error for the
 * approximate ones (see struct gb_tp_op).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gpubound/numbers.h"
#include "gpubound/chart_spec.h"
#include "suites/suites.h"
#include "suites/throughput.h"

#define TP_SEEDS 256
#define TP_BLOCK 256
#define TP_REPEATS 5                 /* launches whose stamps give the rate (median) */
#define TP_MAX_STEPS (1L << 19)      /* per chain: keeps every integer chain from overflowing */
#define TP_SMEM_ROWS 64
#define TP_SMEM_UNROLL 16
#define TP_SMEM_WORDS ((TP_SMEM_ROWS + TP_SMEM_UNROLL + 32) * 32)
#define TP_CONST_UNROLL 16
#define TP_CONST_WORDS (256 + TP_CONST_UNROLL + 32)

/* ---- the data ---- */

#define MUFU "mufu"
/* Per-step error bounds of the approximate operations (see gb_tp_op.eps):
 * the guide's maximum error of the operation (CUDA C++ Programming Guide,
 * "Mathematical Functions" and "Intrinsic Functions") at the chain's values,
 * plus half an ulp for the addition of b. */
#define EPS_RSQRT (3.0 * 0x1p-23)               /* 2 ulp of a result <= 1, + half ulp of x < 4 */
#define EPS_SINF (2.0 * 0x1p-23)                /* 2 ulp of |sin| <= 1, + half ulp of x < 4 */
#define EPS_FSIN (0x1.9p-22 + 0x1p-23)          /* >= 2^-21.41 absolute for |x| <= pi, + half ulp */
#define EPS_EXPF (3.0 * 0x1p-24)                /* 2 ulp of e^-x < 1, + half ulp of x < 2 */
#define EPS_FEXP (4.0 * 0x1p-24)                /* 2 + floor(1.173 |x|) = 3 ulp for |x| < 1.7, + half ulp */
#define EPS_FDIVIDEF (2.0 * 0x1p-23)            /* 2 ulp of a/x <= 0.5, + half ulp of x < 4 */

const struct gb_tp_op gb_tp_ops[] = {
    {"fadd", 1, GB_TP_F32, "x = __fadd_rn(x, a)", "add.rn.f32", NULL, "FADD", NULL, "fp32", 8, 16, GB_TP_EXACT, 0, 0},
    {"fmul", 2, GB_TP_F32, "x = __fmul_rn(x, a)", "mul.rn.f32", NULL, "FMUL", NULL, "fp32", 8, 16, GB_TP_EXACT, 0, 0},
    {"ffma", 3, GB_TP_F32, "x = __fmaf_rn(x, a, b)", "fma.rn.f32", NULL, "FFMA", NULL, "fp32", 8, 16, GB_TP_EXACT, 0, 0},
    {"frcp", 4, GB_TP_F32, "x = 1.0f / x", "rcp.rn.f32", "rcp.approx", "MUFU.RCP,FFMA", NULL, NULL, 8, 4,
     GB_TP_EXACT, 0, 0},
    {"fsqrt", 5, GB_TP_F32, "x = __fadd_rn(sqrtf(x), b)", "sqrt.rn.f32", "sqrt.approx", "MUFU.RSQ,FFMA", NULL, NULL,
     8, 4, GB_TP_EXACT, 0, 0},
    {"fdiv", 6, GB_TP_F32, "x = a / x", "div.rn.f32", "div.approx,div.full", "MUFU.RCP,FFMA,FCHK", NULL, NULL, 8, 4,
     GB_TP_EXACT, 0, 0},
    {"rsqrtf", 7, GB_TP_F32, "x = __fadd_rn(rsqrtf(x), b)", "rsqrt.approx.f32", NULL, "MUFU.RSQ", NULL, MUFU, 8, 16,
     GB_TP_BOUND, EPS_RSQRT, 0.5},
    {"sinf", 8, GB_TP_F32, "x = __fadd_rn(sinf(x), b)", "fma.rn.f32", "sin.approx", "FFMA", "MUFU.SIN", NULL, 8, 2,
     GB_TP_BOUND, EPS_SINF, 0.81},
    {"__sinf", 9, GB_TP_F32, "x = __fadd_rn(__sinf(x), b)", "sin.approx.f32", NULL, "MUFU.SIN", NULL, MUFU, 8, 16,
     GB_TP_BOUND, EPS_FSIN, 0.81},
    {"expf", 10, GB_TP_F32, "x = __fadd_rn(expf(-x), b)", "fma.rn.f32,ex2.approx.ftz.f32", "ex2.approx.f32",
     "MUFU.EX2,FFMA", NULL, NULL, 8, 4, GB_TP_BOUND, EPS_EXPF, 0.61},
    {"__expf", 11, GB_TP_F32, "x = __fadd_rn(__expf(-x), b)", "ex2.approx.f32,mul.f32", NULL, "MUFU.EX2,FMUL", NULL,
     MUFU, 8, 16, GB_TP_BOUND, EPS_FEXP, 0.61},
    {"__fdividef", 12, GB_TP_F32, "x = __fadd_rn(__fdividef(a, x), b)", "div.approx.f32", NULL, "MUFU.RCP,FMUL",
     NULL, MUFU, 8, 16, GB_TP_BOUND, EPS_FDIVIDEF, 0.5},
    {"dadd", 13, GB_TP_F64, "x = __dadd_rn(x, a)", "add.rn.f64", NULL, "DADD", NULL, "fp64", 8, 16, GB_TP_EXACT, 0, 0},
    {"dmul", 14, GB_TP_F64, "x = __dmul_rn(x, a)", "mul.rn.f64", NULL, "DMUL", NULL, "fp64", 8, 16, GB_TP_EXACT, 0, 0},
    {"dfma", 15, GB_TP_F64, "x = __fma_rn(x, a, b)", "fma.rn.f64", NULL, "DFMA", NULL, "fp64", 8, 16, GB_TP_EXACT, 0, 0},
    {"drcp", 16, GB_TP_F64, "x = 1.0 / x", "rcp.rn.f64", "rcp.approx", "MUFU.RCP64H,DFMA", NULL, NULL, 8, 2,
     GB_TP_EXACT, 0, 0},
    {"dsqrt", 17, GB_TP_F64, "x = __dadd_rn(sqrt(x), b)", "sqrt.rn.f64", "sqrt.approx", "MUFU.RSQ64H,DFMA", NULL,
     NULL, 8, 2, GB_TP_EXACT, 0, 0},
    {"ddiv", 18, GB_TP_F64, "x = a / x", "div.rn.f64", "div.approx", "MUFU.RCP64H,DFMA", NULL, NULL, 8, 2,
     GB_TP_EXACT, 0, 0},
    {"iadd", 19, GB_TP_U32, "t = x + y; y = x; x = t", "add.s32", NULL, "IADD3|IMAD.IADD|VIADD", NULL, "iadd", 8, 16, GB_TP_EXACT, 0,
     0},
    {"imul", 20, GB_TP_U32, "t = x * y; y = x; x = t", "mul.lo.s32", NULL, "IMAD", NULL, "imul", 8, 16, GB_TP_EXACT,
     0, 0},
    {"idiv", 21, GB_TP_S32, "x = x + a / x", "div.s32", NULL, "MUFU.RCP,IMAD.HI", NULL, NULL, 8, 2, GB_TP_EXACT, 0, 0},
    {"imod", 22, GB_TP_S32, "x = x + a % x + 1", "rem.s32", NULL, "MUFU.RCP,IMAD.HI", NULL, NULL, 8, 2, GB_TP_EXACT,
     0, 0},
    {"shf", 23, GB_TP_U32, "x = __funnelshift_l(x, x, a)", "shf.l.wrap.b32", NULL, "SHF.L.W", NULL, "shift", 8, 16,
     GB_TP_EXACT, 0, 0},
    {"isetp", 24, GB_TP_U32, "p = (v[u] < i + w) xor p", "setp.lt.xor.u32", NULL, "ISETP", NULL, "cmp", 4, 16,
     GB_TP_EXACT, 0, 0},
};
const int gb_tp_n_ops = (int)(sizeof gb_tp_ops / sizeof gb_tp_ops[0]);

const struct gb_tp_mem gb_tp_mems[] = {
    {"smem", 2, TP_SMEM_UNROLL, "ld.shared.u32", "LDS"},
    {"smem_broadcast", 2, TP_SMEM_UNROLL, "ld.shared.u32", "LDS"},
    {"const", 3, TP_CONST_UNROLL, "ld.const.u32", "LDC"},
};
const int gb_tp_n_mems = (int)(sizeof gb_tp_mems / sizeof gb_tp_mems[0]);

int gb_tp_doc_rate(const struct gb_tp_op *op, int cc_major, int cc_minor)
{
    return op->doc_row ? gb_guide_rate(op->doc_row, 10 * cc_major + cc_minor) : 0;
}

const struct gb_tp_op *gb_tp_op_find(const char *name)
{
    for (int i = 0; i < gb_tp_n_ops; i++)
        if (strcmp(gb_tp_ops[i].name, name) == 0)
            return &gb_tp_ops[i];
    return NULL;
}

int gb_tp_arith_opts(const struct gb_tp_op *op, int lat, char opts[][GB_OPT_LEN], int max)
{
    if (max < 4)
        return 0;
    snprintf(opts[0], GB_OPT_LEN, "-DTP_KERNEL=1");
    snprintf(opts[1], GB_OPT_LEN, "-DOP=%d", op->id);
    snprintf(opts[2], GB_OPT_LEN, "-DCHAINS=%d", lat ? 1 : op->chains);
    snprintf(opts[3], GB_OPT_LEN, "-DUNROLL=%d", op->unroll);
    return 4;
}

/* ---- state shared by the benchmarks ---- */

struct tp_state {
    const struct gb_tp_op *op;   /* arith only */
    int lat;                     /* arith: the dependent-chain variant */
    int ways;                    /* smem: n of the n-way conflict; 0 = broadcast */
    int divergent;               /* const: one address per lane */
    CUfunction f;
    CUdeviceptr in, prm, out, st;
    unsigned grid, block;
    int blocks_per_sm;
    int iters;
    int chains, unroll;          /* per thread; loads per iteration for smem/const */
    size_t elem;                 /* bytes of one output element */
    size_t n_out;                /* output elements */
    /* Host copies of the inputs. */
    union {
        float f[TP_SEEDS];
        double d[TP_SEEDS];
        int i[TP_SEEDS];
        unsigned u[TP_SEEDS];
    } x0;
    union {
        float f[2];
        double d[2];
        int i[2];
        unsigned u[2 + 16 + 8];
    } prm_h;
    unsigned *words;             /* smem fill / constant table */
    size_t n_words;
    unsigned base[32];           /* const: lane bases */
    unsigned long long *stamps;  /* host copy, 4 words per block */
};

static double tp_unif(double lo, double hi)
{
    return lo + (hi - lo) * ((double)rand() / ((double)RAND_MAX + 1.0));
}

static unsigned tp_u32(void)
{
    return ((unsigned)rand() << 16) ^ (unsigned)rand() ^ ((unsigned)rand() << 30);
}

static void tp_teardown(struct gb_point *p, void *ctx)
{
    (void)ctx;
    struct tp_state *s = p->state;
    if (!s)
        return;
    gb_gpu_free(p->gpu, s->in);
    gb_gpu_free(p->gpu, s->prm);
    gb_gpu_free(p->gpu, s->out);
    gb_gpu_free(p->gpu, s->st);
    free(s->words);
    free(s->stamps);
    free(s);
    p->state = NULL;
}

/* The launch shape: one warp for the latency variant; otherwise as many
 * blocks as the device holds at once, so every SM runs one wave. */
static enum gb_status tp_shape(struct gb_point *p, int one_warp)
{
    struct tp_state *s = p->state;
    enum gb_status st = GB_OK;
    int n = 0;
    if (one_warp) {
        s->grid = 1;
        s->block = 32;
        s->blocks_per_sm = 1;
        return GB_OK;
    }
    s->block = TP_BLOCK;
    GB_CU_CHECK(st, gb_cu->cuOccupancyMaxActiveBlocksPerMultiprocessor(&n, s->f, (int)s->block, 0));
    if (n < 1)
        return gb_error_set(GB_ERR_UNSUPPORTED, "the kernel does not fit on an SM");
    s->blocks_per_sm = n;
    s->grid = (unsigned)(n * p->gpu->info.sm_count);
out:
    return st;
}

static enum gb_status tp_alloc_common(struct gb_point *p)
{
    struct tp_state *s = p->state;
    enum gb_status st;
    size_t threads = (size_t)s->grid * s->block;
    if (!(s->stamps = calloc((size_t)s->grid * 4, sizeof *s->stamps)))
        return gb_error_set(GB_ERR_NOMEM, "out of host memory");
    if ((st = gb_gpu_alloc(p->gpu, (size_t)s->grid * 4 * sizeof(unsigned long long), &s->st)) != GB_OK)
        return st;
    s->n_out = threads * (size_t)s->chains;
    return gb_gpu_alloc(p->gpu, s->n_out * s->elem, &s->out);
}

static enum gb_status tp_launch(struct gb_point *p, void *ctx)
{
    (void)ctx;
    struct tp_state *s = p->state;
    if (s->op) {
        void *args[] = {&s->in, &s->prm, &s->out, &s->st, &s->iters};
        return gb_gpu_launch(p->gpu, s->f, s->grid, 1, 1, s->block, 1, 1, 0, args);
    }
    if (s->divergent >= 0) {
        void *args[] = {&s->in, &s->out, &s->st, &s->iters};
        return gb_gpu_launch(p->gpu, s->f, s->grid, 1, 1, s->block, 1, 1, 0, args);
    }
    void *args[] = {&s->in, &s->out, &s->st, &s->iters, &s->ways};
    return gb_gpu_launch(p->gpu, s->f, s->grid, 1, 1, s->block, 1, 1, 0, args);
}

/* Reads the stamps of the last launch: the cycles summed over SMs (each SM
 * from its first block's start to its last block's end), and the SM clock
 * in MHz from the blocks' cycles over their %globaltimer nanoseconds. */
static enum gb_status tp_read_stamps(struct gb_point *p, double *sm_cycles, double *mhz)
{
    struct tp_state *s = p->state;
    enum gb_status st = GB_OK;
    unsigned long long *lo = NULL, *hi = NULL;
    unsigned max_sm = 0;
    double cyc = 0, ns = 0;
    GB_CU_CHECK(st, gb_cu->cuMemcpyDtoH(s->stamps, s->st, (size_t)s->grid * 4 * sizeof *s->stamps));
    for (unsigned b = 0; b < s->grid; b++) {
        if (s->stamps[4 * b + 2] > 4096 || s->stamps[4 * b + 1] < s->stamps[4 * b]) {
            st = gb_error_set(GB_ERR_VERIFY, "block %u left bad clock stamps (%llu..%llu on SM %llu)", b,
                              s->stamps[4 * b], s->stamps[4 * b + 1], s->stamps[4 * b + 2]);
            goto out;
        }
        if (s->stamps[4 * b + 2] > max_sm)
            max_sm = (unsigned)s->stamps[4 * b + 2];
    }
    lo = calloc(max_sm + 1, sizeof *lo);
    hi = calloc(max_sm + 1, sizeof *hi);
    if (!lo || !hi) {
        st = gb_error_set(GB_ERR_NOMEM, "out of host memory");
        goto out;
    }
    for (unsigned b = 0; b < s->grid; b++) {
        unsigned sm = (unsigned)s->stamps[4 * b + 2];
        unsigned long long t0 = s->stamps[4 * b], t1 = s->stamps[4 * b + 1];
        if (!hi[sm] || t0 < lo[sm])
            lo[sm] = t0;
        if (t1 > hi[sm])
            hi[sm] = t1;
        cyc += (double)(t1 - t0);
        ns += (double)s->stamps[4 * b + 3];
    }
    *sm_cycles = 0;
    for (unsigned sm = 0; sm <= max_sm; sm++)
        if (hi[sm])
            *sm_cycles += (double)(hi[sm] - lo[sm]);
    *mhz = ns > 0 ? 1e3 * cyc / ns : NAN;
out:
    free(lo);
    free(hi);
    return st;
}

/* Sizes the work: one launch with a few iterations, then as many as make
 * the SMs run about `target` cycles, within TP_MAX_STEPS per chain. */
static enum gb_status tp_calibrate(struct gb_point *p, double target)
{
    struct tp_state *s = p->state;
    enum gb_status st;
    double cyc, mhz;
    long max_iters = TP_MAX_STEPS / s->unroll;
    s->iters = 16;
    if ((st = tp_launch(p, p->bench->ctx)) != GB_OK || (st = gb_gpu_sync(p->gpu)) != GB_OK ||
        (st = tp_read_stamps(p, &cyc, &mhz)) != GB_OK)
        return st;
    double per_sm = cyc / (s->grid == 1 ? 1.0 : (double)p->gpu->info.sm_count);
    double it = ceil(16.0 * target / fmax(per_sm, 1.0));
    s->iters = (int)fmax(1.0, fmin(it, (double)max_iters));
    return GB_OK;
}

/* Records the rate metrics from the stamps of the launch just verified and
 * of TP_REPEATS - 1 more: the median of each. `ops` is per launch. */
static enum gb_status tp_rate_metrics(struct gb_point *p, double ops, int doc)
{
    struct tp_state *s = p->state;
    enum gb_status st;
    double rate[TP_REPEATS], mhz[TP_REPEATS], cyc;
    for (int k = 0; k < TP_REPEATS; k++) {
        if (k && ((st = tp_launch(p, p->bench->ctx)) != GB_OK || (st = gb_gpu_sync(p->gpu)) != GB_OK))
            return st;
        if ((st = tp_read_stamps(p, &cyc, &mhz[k])) != GB_OK)
            return st;
        rate[k] = ops / fmax(cyc, 1.0);
    }
    double r = gb_stats_median(rate, TP_REPEATS), m = gb_stats_median(mhz, TP_REPEATS);
    if (s->lat) {
        /* One warp: cycles per step of its one chain. */
        st = gb_point_metric(p, "clk_per_op", 1.0 / (r / 32.0));
    } else {
        st = gb_point_metric(p, "ops_per_clk_sm", r);
        if (st == GB_OK && doc > 0 && (st = gb_point_metric(p, "doc_ops_per_clk_sm", doc)) == GB_OK)
            st = gb_point_metric(p, "ratio", r / doc);
        if (st == GB_OK)
            st = gb_point_metric(p, "warps_per_sm", s->blocks_per_sm * (double)s->block / 32.0);
    }
    if (st == GB_OK && isfinite(m))
        st = gb_point_metric(p, "sm_mhz", m);
    return st;
}

/* ---- arith ---- */

static const struct gb_axis_def tp_axes_arith[] = {
    {"op", GB_AXIS_STR,
     "fadd,fmul,ffma,frcp,fsqrt,fdiv,rsqrtf,sinf,__sinf,expf,__expf,__fdividef,dadd,dmul,dfma,drcp,dsqrt,ddiv,iadd,"
     "imul,idiv,imod,shf,isetp",
     "ffma,dfma,sinf,__sinf,fdiv,__fdividef,iadd,idiv,isetp", 0, 0,
     "fadd,fmul,ffma,frcp,fsqrt,fdiv,rsqrtf,sinf,__sinf,expf,__expf,__fdividef,dadd,dmul,dfma,drcp,dsqrt,ddiv,iadd,"
     "imul,idiv,imod,shf,isetp",
     "the operation (see docs/suites.md, throughput, for its PTX and SASS)"},
    {"mode", GB_AXIS_STR, "tput,lat", NULL, 0, 0, "tput,lat",
     "tput: independent chains at full occupancy (ops per clock per SM); lat: one chain in one warp (cycles per op)"},
};

static int tp_arith_kopts(const struct gb_point *p, void *ctx, char opts[][GB_OPT_LEN], int max)
{
    (void)ctx;
    const struct gb_tp_op *op = gb_tp_op_find(gb_point_str(p, "op"));
    if (!op)
        return 0;
    return gb_tp_arith_opts(op, strcmp(gb_point_str(p, "mode"), "lat") == 0, opts, max);
}

/* A fresh start value for chain k, in the range the op's check assumes. */
static void tp_arith_start(struct tp_state *s, int k)
{
    switch (s->op->id) {
    case 1: case 2: case 3: case 4: case 6: s->x0.f[k] = (float)tp_unif(1, 2); break;
    case 5: s->x0.f[k] = (float)tp_unif(1, 4); break;
    case 7: case 12: s->x0.f[k] = (float)tp_unif(1, 2); break;
    case 8: case 9: s->x0.f[k] = (float)tp_unif(1.5, 2.5); break;
    case 10: case 11: s->x0.f[k] = (float)tp_unif(0.5, 1.5); break;
    case 13: case 14: case 15: case 16: case 18: s->x0.d[k] = tp_unif(1, 2); break;
    case 17: s->x0.d[k] = tp_unif(1, 4); break;
    /* idiv: from 2^12 up, x + a/x grows like sqrt(2ak) and never
     * passes a (where a/x would stay 0); imod: x + a%x + 1 grows by at
     * least 1 per step. */
    case 21: s->x0.i[k] = 4096 + (int)(tp_u32() % 4096u); break;
    case 22: s->x0.i[k] = 1 + (int)(tp_u32() % 4096u); break;
    case 20: s->x0.u[k] = tp_u32() | 1u; break;
    default: s->x0.u[k] = tp_u32(); break;
    }
}

/* The floating-point parameters a and b of op `id` (left 0 where unused). */
static void tp_arith_fparams(int id, double *a, double *b)
{
    switch (id) {
    case 1: case 13: *a = tp_unif(0x1p-8, 0x1p-7); break;
    case 2: case 14: *a = 1 + tp_unif(-0x1p-14, 0x1p-14); break;
    case 3: case 15: *a = 1 - tp_unif(0x1p-18, 0x1p-17); *b = tp_unif(0x1p-8, 0x1p-7); break;
    case 5: case 17: *b = tp_unif(0.5, 1); break;
    case 6: case 18: *a = tp_unif(1, 2); break;
    case 7: *b = tp_unif(1, 2); break;
    case 8: case 9: *b = tp_unif(1, 1.5); break;
    case 10: case 11: *b = tp_unif(0.5, 1); break;
    case 12: *a = tp_unif(0.25, 0.5); *b = tp_unif(1, 2); break;
    default: break;
    }
}

/* The parameters of the unsigned ops: shf's odd rotation, isetp's bounds. */
static void tp_arith_uparams(struct tp_state *s)
{
    int id = s->op->id;
    if (id == 20)
        s->prm_h.u[1] = tp_u32() | 1u;
    else if (id == 23)
        s->prm_h.u[0] = 1u + 2u * (tp_u32() % 16u); /* odd: the rotation's period is 32 steps */
    else
        s->prm_h.u[1] = tp_u32();
    if (id == 24) {
        /* Bounds and offsets spread over the loop's range, so about
         * half the compares hold and the parity depends on every one. */
        unsigned range = (unsigned)s->iters * 2u + 2u;
        for (int u = 0; u < 16; u++)
            s->prm_h.u[2 + u] = tp_u32() % range;
        for (int c = 0; c < 8; c++)
            s->prm_h.u[2 + 16 + c] = tp_u32() % (range / 2u);
    }
}

/* Fresh start values and parameters, in the ranges the checks assume. */
static void tp_arith_inputs(struct tp_state *s)
{
    const struct gb_tp_op *op = s->op;
    for (int k = 0; k < TP_SEEDS; k++)
        tp_arith_start(s, k);
    double a = 0, b = 0;
    tp_arith_fparams(op->id, &a, &b);
    switch (op->type) {
    case GB_TP_F32: s->prm_h.f[0] = (float)a; s->prm_h.f[1] = (float)b; break;
    case GB_TP_F64: s->prm_h.d[0] = a; s->prm_h.d[1] = b; break;
    case GB_TP_S32:
        /* idiv: a in [2^24, 2^25) keeps x + a/x growing; imod: a < 2^11 keeps
         * x + a%x + 1 below 2^31 for TP_MAX_STEPS steps. */
        s->prm_h.i[0] = op->id == 21 ? (int)((1u << 24) + tp_u32() % (1u << 24))
                                     : (int)((1u << 10) + tp_u32() % (1u << 10));
        s->prm_h.i[1] = 0;
        break;
    case GB_TP_U32: tp_arith_uparams(s); break;
    }
}

static enum gb_status tp_arith_upload(struct gb_point *p)
{
    struct tp_state *s = p->state;
    enum gb_status st = GB_OK;
    GB_CU_CHECK(st, gb_cu->cuMemcpyHtoD(s->in, &s->x0, sizeof s->x0));
    GB_CU_CHECK(st, gb_cu->cuMemcpyHtoD(s->prm, &s->prm_h, sizeof s->prm_h));
out:
    return st;
}

static enum gb_status tp_arith_setup(struct gb_point *p, void *ctx)
{
    (void)ctx;
    enum gb_status st;
    struct tp_state *s = calloc(1, sizeof *s);
    if (!s)
        return gb_error_set(GB_ERR_NOMEM, "out of host memory");
    p->state = s;
    s->divergent = -1;
    s->op = gb_tp_op_find(gb_point_str(p, "op"));
    if (!s->op)
        return gb_error_set(GB_ERR_UNSUPPORTED, "unknown op '%s'", gb_point_str(p, "op"));
    s->lat = strcmp(gb_point_str(p, "mode"), "lat") == 0;
    s->chains = s->lat ? 1 : s->op->chains;
    s->unroll = s->op->unroll;
    s->elem = s->op->type == GB_TP_F64 ? 8 : 4;
    if ((st = gb_gpu_function(p->module, "tp_arith", &s->f)) != GB_OK || (st = tp_shape(p, s->lat)) != GB_OK ||
        (st = tp_alloc_common(p)) != GB_OK || (st = gb_gpu_alloc(p->gpu, sizeof s->x0, &s->in)) != GB_OK ||
        (st = gb_gpu_alloc(p->gpu, sizeof s->prm_h, &s->prm)) != GB_OK)
        return st;
    /* Size the work with throw-away inputs, then draw the real ones (the
     * compare bounds depend on the iteration count). */
    s->iters = 16;
    tp_arith_inputs(s);
    if ((st = tp_arith_upload(p)) != GB_OK)
        return st;
    double target = s->lat ? (p->quick ? 5e4 : 2e5) : (p->quick ? 5e5 : 2e6);
    if ((st = tp_calibrate(p, target)) != GB_OK)
        return st;
    tp_arith_inputs(s);
    if ((st = tp_arith_upload(p)) != GB_OK)
        return st;
    if (s->op->type == GB_TP_F32 || s->op->type == GB_TP_F64)
        p->flops = (double)s->grid * s->block * s->chains * (double)s->iters * s->unroll;
    return gb_gpu_sync(p->gpu);
}

static enum gb_status tp_poison_out(struct gb_point *p, void *ctx)
{
    (void)ctx;
    struct tp_state *s = p->state;
    return gb_gpu_fill_u32(p->gpu, s->out, s->n_out * s->elem / 4, GB_POISON);
}

/* The host's chain for seed value x (by type), `steps` steps. */
static float tp_ref_f32(const struct gb_tp_op *op, float x, float a, float b, long steps)
{
    for (long k = 0; k < steps; k++) {
        switch (op->id) {
        case 1: x = x + a; break;
        case 2: x = x * a; break;
        case 3: x = fmaf(x, a, b); break;
        case 4: x = 1.0f / x; break;
        case 5: x = sqrtf(x); x = x + b; break;
        case 6: x = a / x; break;
        default: break;
        }
    }
    return x;
}

static double tp_ref_exact_math(const struct gb_tp_op *op, double x, double a, double b, long steps)
{
    for (long k = 0; k < steps; k++) {
        switch (op->id) {
        case 7: x = 1.0 / sqrt(x) + b; break;
        case 8: case 9: x = sin(x) + b; break;
        case 10: case 11: x = exp(-x) + b; break;
        case 12: x = a / x + b; break;
        default: break;
        }
    }
    return x;
}

static double tp_ref_f64(const struct gb_tp_op *op, double x, double a, double b, long steps)
{
    for (long k = 0; k < steps; k++) {
        switch (op->id) {
        case 13: x = x + a; break;
        case 14: x = x * a; break;
        case 15: x = fma(x, a, b); break;
        case 16: x = 1.0 / x; break;
        case 17: x = sqrt(x); x = x + b; break;
        case 18: x = a / x; break;
        default: break;
        }
    }
    return x;
}

static unsigned tp_ref_int(const struct gb_tp_op *op, unsigned x, unsigned a, unsigned b, long steps)
{
    unsigned y = b;
    for (long k = 0; k < steps; k++) {
        unsigned t;
        switch (op->id) {
        case 19: t = x + y; y = x; x = t; break;
        case 20: t = x * y; y = x; x = t; break;
        case 21: x = (unsigned)((int)x + (int)a / (int)x); break;
        case 22: x = (unsigned)((int)x + (int)a % (int)x + 1); break;
        case 23: x = (x << (a & 31u)) | (x >> ((32u - (a & 31u)) & 31u)); break;
        default: break;
        }
    }
    return x;
}

static enum gb_status tp_arith_verify(struct gb_point *p, void *ctx)
{
    (void)ctx;
    struct tp_state *s = p->state;
    const struct gb_tp_op *op = s->op;
    enum gb_status st = GB_OK;
    long steps = (long)s->iters * s->unroll;
    size_t n_seeds = s->n_out < TP_SEEDS ? s->n_out : TP_SEEDS;
    double ref[TP_SEEDS], tol = 0;
    unsigned char *h = malloc(s->n_out * s->elem);
    unsigned parity[8] = {0};
    if (!h)
        return gb_error_set(GB_ERR_NOMEM, "out of host memory");
    GB_CU_CHECK(st, gb_cu->cuMemcpyDtoH(h, s->out, s->n_out * s->elem));
    if (op->id == 24) {
        for (int c = 0; c < s->chains; c++)
            for (long i = 0; i < s->iters; i++)
                for (int u = 0; u < 16; u++)
                    parity[c] ^= s->prm_h.u[2 + u] < (unsigned)i + s->prm_h.u[2 + 16 + c];
    } else if (op->check == GB_TP_BOUND) {
        tol = 2.0 * op->eps / (1.0 - op->lip);
    }
    for (size_t k = 0; k < n_seeds && op->id != 24; k++) {
        switch (op->type) {
        case GB_TP_F32:
            if (op->check == GB_TP_BOUND)
                ref[k] = tp_ref_exact_math(op, s->x0.f[k], s->prm_h.f[0], s->prm_h.f[1], steps);
            else
                ref[k] = tp_ref_f32(op, s->x0.f[k], s->prm_h.f[0], s->prm_h.f[1], steps);
            break;
        case GB_TP_F64: ref[k] = tp_ref_f64(op, s->x0.d[k], s->prm_h.d[0], s->prm_h.d[1], steps); break;
        default: ref[k] = tp_ref_int(op, s->x0.u[k], s->prm_h.u[0], s->prm_h.u[1], steps); break;
        }
    }
    for (size_t e = 0; e < s->n_out; e++) {
        size_t t = e / (size_t)s->chains, c = e % (size_t)s->chains;
        size_t seed = (t * (size_t)s->chains + c) % TP_SEEDS;
        int bad;
        double want, got;
        if (op->id == 24) {
            unsigned g = ((unsigned *)h)[e];
            unsigned w = (s->x0.u[seed] & 1u) ^ parity[c];
            bad = g != w;
            want = w;
            got = g;
        } else if (op->type == GB_TP_F32) {
            float g = ((float *)h)[e], w = (float)ref[seed];
            got = g;
            want = ref[seed];
            bad = op->check == GB_TP_BOUND ? !(fabs(got - want) <= tol) : memcmp(&g, &w, 4) != 0;
        } else if (op->type == GB_TP_F64) {
            double g = ((double *)h)[e];
            got = g;
            want = ref[seed];
            bad = memcmp(&g, &want, 8) != 0;
        } else {
            unsigned g = ((unsigned *)h)[e];
            got = g;
            want = (unsigned)ref[seed];
            bad = g != (unsigned)ref[seed];
        }
        if (bad) {
            st = gb_error_set(GB_ERR_VERIFY, "op %s: thread %zu chain %zu after %ld steps: expected %.9g, got %.9g%s",
                              op->name, t, c, steps, want, got,
                              op->check == GB_TP_BOUND ? " (outside the error bound)" : "");
            goto out;
        }
    }
    st = tp_rate_metrics(p, (double)s->grid * s->block * s->chains * (double)steps,
                         gb_tp_doc_rate(op, p->gpu->info.cc_major, p->gpu->info.cc_minor));
out:
    free(h);
    return st;
}

/* ---- shared memory ---- */

static const struct gb_axis_def tp_axes_smem[] = {
    {"ways", GB_AXIS_INT, "1:32", "1,2,32", 1, 32, NULL,
     "n of the n-way bank conflict: lane l reads bank l/n, row l%n (n distinct words per bank)"},
};

static int tp_smem_kopts(const struct gb_point *p, void *ctx, char opts[][GB_OPT_LEN], int max)
{
    (void)ctx;
    (void)p;
    if (max < 2)
        return 0;
    snprintf(opts[0], GB_OPT_LEN, "-DTP_KERNEL=2");
    snprintf(opts[1], GB_OPT_LEN, "-DUNROLL=%d", TP_SMEM_UNROLL);
    return 2;
}

static enum gb_status tp_mem_setup(struct gb_point *p, int kernel)
{
    enum gb_status st;
    struct tp_state *s = calloc(1, sizeof *s);
    if (!s)
        return gb_error_set(GB_ERR_NOMEM, "out of host memory");
    p->state = s;
    s->chains = 1;
    s->elem = 4;
    s->unroll = kernel == 2 ? TP_SMEM_UNROLL : TP_CONST_UNROLL;
    s->n_words = kernel == 2 ? TP_SMEM_WORDS : TP_CONST_WORDS;
    s->divergent = -1;
    if (kernel == 2)
        s->ways = strcmp(p->bench->name, "smem_broadcast") == 0 ? 0 : (int)gb_point_int(p, "ways");
    else
        s->divergent = strcmp(gb_point_str(p, "pattern"), "divergent") == 0;
    if (!(s->words = malloc(s->n_words * sizeof *s->words)))
        return gb_error_set(GB_ERR_NOMEM, "out of host memory");
    unsigned seed = (unsigned)rand();
    for (size_t i = 0; i < s->n_words; i++)
        s->words[i] = gb_fill_word(seed, i);
    if ((st = gb_gpu_function(p->module, kernel == 2 ? "tp_smem" : "tp_const", &s->f)) != GB_OK ||
        (st = tp_shape(p, 0)) != GB_OK || (st = tp_alloc_common(p)) != GB_OK)
        return st;
    if (kernel == 2) {
        if ((st = gb_gpu_alloc(p->gpu, s->n_words * 4, &s->in)) != GB_OK)
            return st;
        GB_CU_CHECK(st, gb_cu->cuMemcpyHtoD(s->in, s->words, s->n_words * 4));
    } else {
        CUdeviceptr tab;
        size_t bytes = 0;
        unsigned b0 = tp_u32() % 32u;
        GB_CU_CHECK(st, gb_cu->cuModuleGetGlobal(&tab, &bytes, p->module, "tp_const_tab"));
        if (bytes != s->n_words * 4)
            return gb_error_set(GB_ERR_UNSUPPORTED, "tp_const_tab has %zu bytes, expected %zu", bytes,
                                s->n_words * 4);
        GB_CU_CHECK(st, gb_cu->cuMemcpyHtoD(tab, s->words, bytes));
        for (int l = 0; l < 32; l++)
            s->base[l] = s->divergent ? (unsigned)l : b0;
        if ((st = gb_gpu_alloc(p->gpu, sizeof s->base, &s->in)) != GB_OK)
            return st;
        GB_CU_CHECK(st, gb_cu->cuMemcpyHtoD(s->in, s->base, sizeof s->base));
    }
    if ((st = tp_calibrate(p, p->quick ? 5e5 : 2e6)) != GB_OK)
        return st;
    return gb_gpu_sync(p->gpu);
out:
    return st;
}

static enum gb_status tp_smem_setup(struct gb_point *p, void *ctx)
{
    (void)ctx;
    return tp_mem_setup(p, 2);
}

/* Each lane's sum is the same in every warp: 32 references check every thread. */
static enum gb_status tp_mem_verify(struct gb_point *p, void *ctx)
{
    (void)ctx;
    struct tp_state *s = p->state;
    enum gb_status st = GB_OK;
    unsigned ref[32], *h = malloc(s->n_out * sizeof *h);
    if (!h)
        return gb_error_set(GB_ERR_NOMEM, "out of host memory");
    GB_CU_CHECK(st, gb_cu->cuMemcpyDtoH(h, s->out, s->n_out * sizeof *h));
    for (unsigned l = 0; l < 32; l++) {
        unsigned acc = 0;
        for (long i = 0; i < s->iters; i++)
            for (int u = 0; u < s->unroll; u++) {
                size_t idx;
                if (s->divergent < 0) {
                    size_t off = s->ways ? (l % (unsigned)s->ways) * 32u + l / (unsigned)s->ways : 0u;
                    idx = (size_t)(i % TP_SMEM_ROWS) * 32u + off + (size_t)u * 32u;
                } else {
                    idx = s->base[l] + (size_t)((unsigned)i * TP_CONST_UNROLL % 256u) + (size_t)u;
                }
                acc += s->words[idx];
            }
        ref[l] = acc;
    }
    for (size_t t = 0; t < s->n_out; t++)
        if (h[t] != ref[t & 31]) {
            st = gb_error_set(GB_ERR_VERIFY, "thread %zu: sum of its %ld loads is %u, expected %u", t,
                              (long)s->iters * s->unroll, h[t], ref[t & 31]);
            goto out;
        }
    {
        double loads = (double)s->n_out * s->iters * s->unroll, r = NAN;
        if ((st = tp_rate_metrics(p, loads, 0)) != GB_OK)
            goto out;
        for (int m = 0; m < p->n_metrics; m++)
            if (strcmp(p->metrics[m].name, "ops_per_clk_sm") == 0)
                r = p->metrics[m].value;
        if ((st = gb_point_metric(p, "bytes_per_clk_sm", 4.0 * r)) != GB_OK)
            goto out;
        if (s->divergent < 0) {
            /* The guide's shared memory: 32 banks, each 32 bits per clock,
             * so an n-way conflict serves 32 / n loads per clock. */
            double d = 32.0 / (s->ways ? s->ways : 1);
            if ((st = gb_point_metric(p, "doc_ops_per_clk_sm", d)) != GB_OK ||
                (st = gb_point_metric(p, "doc_bytes_per_clk_sm", 4.0 * d)) != GB_OK ||
                (st = gb_point_metric(p, "ratio", r / d)) != GB_OK)
                goto out;
        }
    }
out:
    free(h);
    return st;
}

/* ---- constant memory ---- */

static const struct gb_axis_def tp_axes_const[] = {
    {"pattern", GB_AXIS_STR, "uniform,divergent", NULL, 0, 0, "uniform,divergent",
     "uniform: all lanes of a warp read one address; divergent: each lane its own (32 per warp)"},
};

static int tp_const_kopts(const struct gb_point *p, void *ctx, char opts[][GB_OPT_LEN], int max)
{
    (void)ctx;
    (void)p;
    if (max < 2)
        return 0;
    snprintf(opts[0], GB_OPT_LEN, "-DTP_KERNEL=3");
    snprintf(opts[1], GB_OPT_LEN, "-DUNROLL=%d", TP_CONST_UNROLL);
    return 2;
}

static enum gb_status tp_const_setup(struct gb_point *p, void *ctx)
{
    (void)ctx;
    return tp_mem_setup(p, 3);
}

static const struct gb_bench tp_benches[] = {
    {.name = "arith",
     .help = "operations per clock per SM (tput) and cycles per dependent op (lat) of one instruction",
     .kernel_file = "throughput.cu",
     .kernel_opts = tp_arith_kopts,
     .axes = tp_axes_arith,
     .n_axes = 2,
     .cache = GB_CACHE_HOT,
     .setup = tp_arith_setup,
     .poison = tp_poison_out,
     .launch = tp_launch,
     .verify = tp_arith_verify,
     .teardown = tp_teardown},
    {.name = "smem",
     .help = "32-bit shared-memory loads under an n-way bank conflict",
     .kernel_file = "throughput.cu",
     .kernel_opts = tp_smem_kopts,
     .axes = tp_axes_smem,
     .n_axes = 1,
     .cache = GB_CACHE_HOT,
     .setup = tp_smem_setup,
     .poison = tp_poison_out,
     .launch = tp_launch,
     .verify = tp_mem_verify,
     .teardown = tp_teardown},
    {.name = "smem_broadcast",
     .help = "32-bit shared-memory loads, every lane of a warp reading the same word",
     .kernel_file = "throughput.cu",
     .kernel_opts = tp_smem_kopts,
     .n_axes = 0,
     .cache = GB_CACHE_HOT,
     .setup = tp_smem_setup,
     .poison = tp_poison_out,
     .launch = tp_launch,
     .verify = tp_mem_verify,
     .teardown = tp_teardown},
    {.name = "const",
     .help = "32-bit __constant__ loads: one address per warp or one per lane",
     .kernel_file = "throughput.cu",
     .kernel_opts = tp_const_kopts,
     .axes = tp_axes_const,
     .n_axes = 1,
     .cache = GB_CACHE_HOT,
     .setup = tp_const_setup,
     .poison = tp_poison_out,
     .launch = tp_launch,
     .verify = tp_mem_verify,
     .teardown = tp_teardown},
};

static const struct gb_chart_spec tp_charts[] = {
    {.name = "throughput-arith",
     .title = "Operations per clock per SM: measured and documented",
     .kind = GB_CHART_BAR,
     .benches = "arith",
     .where = "mode=tput",
     .x = "op",
     .ys = "measured=metric:ops_per_clk_sm;CUDA C++ Programming Guide=metric:doc_ops_per_clk_sm",
     .x_label = "operation",
     .y_label = "operations per clock per SM",
     .log_y = 1},
    {.name = "throughput-latency",
     .title = "Dependent chain: cycles per operation (one warp)",
     .kind = GB_CHART_BAR,
     .benches = "arith",
     .where = "mode=lat",
     .x = "op",
     .y = "metric:clk_per_op",
     .x_label = "operation",
     .y_label = "cycles per operation",
     .log_y = 1},
    {.name = "throughput-smem",
     .title = "Shared memory bandwidth under n-way bank conflicts",
     .kind = GB_CHART_LINE,
     .benches = "smem",
     .x = "ways",
     .ys = "measured=metric:bytes_per_clk_sm;32 banks x 4 B / n=metric:doc_bytes_per_clk_sm",
     .x_label = "n (n-way bank conflict)",
     .y_label = "bytes per clock per SM",
     .log_x = 1,
     .log_y = 1,
     .refs = "broadcast (all lanes one word)=bench:smem_broadcast"},
};

/* What its findings (report.md) compare: each bench by its measured rate against the guide. */
static const struct gb_findings_rule tp_findings = {
    .metrics = {"ratio", "ops_per_clk_sm"},
    .metric_units = {" x the guide", " ops/clock/SM"},
    .source = "the CUDA C Programming Guide's arithmetic-instruction throughput table, after "
              "Filipovic, \"GPU Hardware Performance\" (slides, 2010); values are measured over "
              "the guide's operations per clock per SM",
};

const struct gb_suite gb_suite_throughput = {
    .name = "throughput",
    .help = "instruction throughput (ops per clock per SM) and latency against the CUDA C++ Programming Guide, shared "
            "memory under bank conflicts, constant memory broadcast against divergence",
    .benches = tp_benches,
    .n_benches = (int)(sizeof tp_benches / sizeof tp_benches[0]),
    .charts = tp_charts,
    .n_charts = (int)(sizeof tp_charts / sizeof tp_charts[0]),
    .findings = &tp_findings,
};
