/* ubench.c - suite `ubench`: block geometry against performance.
 *
 * The fifteen micro-kernels of uBench (Torres, Gonzalez-Escribano and
 * Llanos, J. Supercomputing 2013, section 4.2) and the two versions of
 * Cannon's matrix multiply of its section 5.5, each swept over the 184
 * block shapes rows x cols of the paper, three data sizes computed from the
 * device, and three L1/shared-memory carveouts. Kernels are in
 * kernels/ubench.cu; one module serves every shape (the shape is a launch
 * parameter). The array, its input and the host reference are made once per
 * bench and size and shared by the points that follow (share_by "size");
 * each point poisons what it checks and a check kernel compares every
 * element with the reference on the GPU. Every kernel but uBench-0 writes
 * the same outputs at every launch from inputs it never changes, so the
 * check reads what the last timed launch left (verify_last): no launch of
 * its own. uBench-0 stores only in a verification launch of its own.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gpubound/occupancy.h"
#include "gpubound/chart_spec.h"
#include "suites/suites.h"
#include "suites/ubench.h"

/* ---- pure parts (ubench.h) ---- */

const int gb_ubench_dims[GB_UBENCH_N_DIMS] = {1,   2,   3,   4,   6,   8,   12,  16,  24,  32,
                                              48,  64,  96,  128, 192, 256, 384, 512, 768, 1024};

#define UB_DIMS "1,2,3,4,6,8,12,16,24,32,48,64,96,128,192,256,384,512,768,1024"

static int ub_is_dim(long v)
{
    for (int i = 0; i < GB_UBENCH_N_DIMS; i++)
        if (gb_ubench_dims[i] == v)
            return 1;
    return 0;
}

int gb_ubench_shape_ok(long rows, long cols)
{
    return ub_is_dim(rows) && ub_is_dim(cols) && rows * cols <= GB_UBENCH_MAX_BLOCK;
}

int gb_ubench_shapes(int *rows, int *cols, int max)
{
    int n = 0;
    for (int r = 0; r < GB_UBENCH_N_DIMS; r++)
        for (int c = 0; c < GB_UBENCH_N_DIMS; c++) {
            if (!gb_ubench_shape_ok(gb_ubench_dims[r], gb_ubench_dims[c]))
                continue;
            if (n < max) {
                rows[n] = gb_ubench_dims[r];
                cols[n] = gb_ubench_dims[c];
            }
            n++;
        }
    return n;
}

long gb_ubench_max_resident(const struct gb_device_info *d)
{
    return (long)d->sm_count * d->max_threads_per_sm;
}

long gb_ubench_side(const struct gb_device_info *d, const char *size, enum gb_ubench_load load)
{
    long mt = gb_ubench_max_resident(d);
    long n = 96;              /* 3 * 2^5 */
    const long cap = 24576;   /* 3 * 2^13: n * n stays below 2^31 (32-bit indices) */
    if (mt <= 0 || !size)
        return 0;
    if (strcmp(size, "small") == 0) {
        while (2 * n <= cap && (2 * n) * (2 * n) < mt)
            n *= 2;
        return n;
    }
    long factor;
    if (strcmp(size, "medium") == 0)
        factor = 1;
    else if (strcmp(size, "large") == 0)
        factor = load == GB_UBENCH_WRITE ? 128 : load == GB_UBENCH_OVERLOAD ? 32 : 8;
    else
        return 0;
    /* medium: n^2 > MT; large: n^2 >= factor x MT. */
    while (n < cap && (factor == 1 ? n * n <= mt : n * n < factor * mt))
        n *= 2;
    return n;
}

uint32_t gb_ubench_overload(uint32_t x, uint32_t k)
{
    for (unsigned i = 0; i < GB_UBENCH_OVERLOAD_ITERS; i++)
        x = x * x + k;
    return x;
}

/* ---- the benches ---- */

/* What element i must hold after a launch (kernels/ubench.cu, ub_expect). */
enum ub_check {
    UB_CK_FULL = 0, UB_CK_DIAG, UB_CK_CORNER, UB_CK_FIRST, UB_CK_COL, UB_CK_ROW, UB_CK_CHUNK,
    UB_CK_WINDOW, UB_CK_REF,
};

/* The launch arguments after (array, n). */
enum ub_args {
    UB_ARGS_VERIFY,   /* value, verify flag (uBench-0) */
    UB_ARGS_VALUE,    /* value */
    UB_ARGS_SEED,     /* seed, k: the value is the overload of the seed */
    UB_ARGS_NONE,     /* reads: nothing more */
    UB_ARGS_K,        /* reads with the overload: k */
    UB_ARGS_CANNON,   /* (a, b, c, n) */
};

/* The host reference a bench's shared state holds. */
enum ub_ref { UB_REF_NONE, UB_REF_COLSUM, UB_REF_ROWSUM, UB_REF_PREFIX, UB_REF_CANNON };

struct ub_kind {
    const char *entry;
    enum gb_ubench_load load;
    enum ub_check check;
    enum ub_args args;
    enum ub_ref ref;
    int overload_ref;     /* the reference sums go through the overload loop */
    int write_bytes;      /* records bytes: the array written once per launch */
    unsigned stride;      /* pattern D(s) */
};

/* Indexed like ub_benches. */
static const struct ub_kind ub_kinds[] = {
    {"ubench0", GB_UBENCH_WRITE, UB_CK_FULL, UB_ARGS_VERIFY, UB_REF_NONE, 0, 0, 0},
    {"ubench1", GB_UBENCH_WRITE, UB_CK_FULL, UB_ARGS_VALUE, UB_REF_NONE, 0, 1, 0},
    {"ubench2", GB_UBENCH_WRITE, UB_CK_FULL, UB_ARGS_VALUE, UB_REF_NONE, 0, 1, 0},
    {"ubench3", GB_UBENCH_OVERLOAD, UB_CK_FULL, UB_ARGS_SEED, UB_REF_NONE, 0, 1, 0},
    {"ubench4", GB_UBENCH_OVERLOAD, UB_CK_FULL, UB_ARGS_SEED, UB_REF_NONE, 0, 1, 0},
    {"ubench5", GB_UBENCH_WRITE, UB_CK_DIAG, UB_ARGS_VALUE, UB_REF_NONE, 0, 0, 0},
    {"ubench6", GB_UBENCH_WRITE, UB_CK_CORNER, UB_ARGS_VALUE, UB_REF_NONE, 0, 0, 0},
    {"ubench7", GB_UBENCH_OVERLOAD, UB_CK_FIRST, UB_ARGS_SEED, UB_REF_NONE, 0, 0, 0},
    {"ubench8", GB_UBENCH_READ, UB_CK_COL, UB_ARGS_NONE, UB_REF_COLSUM, 0, 0, 0},
    {"ubench9", GB_UBENCH_READ, UB_CK_ROW, UB_ARGS_NONE, UB_REF_ROWSUM, 0, 0, 0},
    {"ubench10", GB_UBENCH_READ, UB_CK_COL, UB_ARGS_K, UB_REF_COLSUM, 1, 0, 0},
    {"ubench11", GB_UBENCH_READ, UB_CK_ROW, UB_ARGS_K, UB_REF_ROWSUM, 1, 0, 0},
    {"ubench12", GB_UBENCH_READ, UB_CK_CHUNK, UB_ARGS_NONE, UB_REF_PREFIX, 0, 0, 0},
    {"ubench13", GB_UBENCH_READ, UB_CK_WINDOW, UB_ARGS_NONE, UB_REF_PREFIX, 0, 0, 1},
    {"ubench14", GB_UBENCH_READ, UB_CK_WINDOW, UB_ARGS_NONE, UB_REF_PREFIX, 0, 0, 32},
    {"cannon_direct", GB_UBENCH_READ, UB_CK_REF, UB_ARGS_CANNON, UB_REF_CANNON, 0, 0, 0},
    {"cannon_shifted", GB_UBENCH_READ, UB_CK_REF, UB_ARGS_CANNON, UB_REF_CANNON, 0, 0, 0},
};

#define UB_N_BENCHES ((int)(sizeof ub_kinds / sizeof ub_kinds[0]))

static const struct gb_bench ub_benches[UB_N_BENCHES];

static const struct ub_kind *ub_kind_of(const struct gb_point *p)
{
    return &ub_kinds[p->bench - ub_benches];
}

/* What one bench at one size keeps from point to point. */
struct ub_shared {
    unsigned n;
    CUdeviceptr a, b, c;      /* the array; Cannon: a x b -> c */
    CUdeviceptr ref;          /* the reference on the device */
    uint32_t *href;           /* and on the host (for messages) */
    size_t nref;
    CUdeviceptr out;          /* the check's counters: bad elements, first bad index */
    uint32_t k;               /* the overload constant of the reads */
    CUfunction check;
};

/* One point: the launch and the check. */
struct ub_point {
    CUfunction f;
    unsigned n, gx, gy, bx, by;
    unsigned value, seed, k;
    int verify;
    CUdeviceptr arr;          /* the array the kernel runs on (Cannon: a) */
    void *args[6];
    int n_args;
    /* check parameters */
    CUdeviceptr checked;
    int mode;
    unsigned cvalue, p0, p1, p2;
};

/* A fresh non-zero word that is not the poison pattern. */
static uint32_t ub_rand_word(void)
{
    for (;;) {
        uint32_t w = ((uint32_t)rand() << 16) ^ (uint32_t)rand() ^ ((uint32_t)rand() << 8);
        if (w != 0 && w != GB_POISON && ~w != GB_POISON)
            return w;
    }
}

static void ub_share_teardown(struct gb_gpu *g, void *ctx, void *state)
{
    (void)ctx;
    struct ub_shared *sh = state;
    if (!sh)
        return;
    gb_gpu_free(g, sh->a);
    gb_gpu_free(g, sh->b);
    gb_gpu_free(g, sh->c);
    gb_gpu_free(g, sh->ref);
    gb_gpu_free(g, sh->out);
    free(sh->href);
    free(sh);
}

/* c = a x b (mod 2^32), n x n row-major; i-k-j so the inner loop streams. */
static void ub_matmul_host(const uint32_t *a, const uint32_t *b, uint32_t *c, size_t n)
{
    memset(c, 0, n * n * sizeof *c);
    for (size_t i = 0; i < n; i++)
        for (size_t k = 0; k < n; k++) {
            uint32_t aik = a[i * n + k];
            const uint32_t *bk = b + k * n;
            uint32_t *ci = c + i * n;
            for (size_t j = 0; j < n; j++)
                ci[j] += aik * bk[j];
        }
}

static enum gb_status ub_download(struct gb_gpu *g, CUdeviceptr d, size_t words, uint32_t **out)
{
    enum gb_status st = GB_OK;
    *out = malloc(words * sizeof **out);
    if (!*out)
        return gb_error_set(GB_ERR_NOMEM, "out of host memory (%zu MB for a reference)", words * 4 >> 20);
    if ((st = gb_gpu_sync(g)) != GB_OK)
        goto out;
    GB_CU_CHECK(st, gb_cu->cuMemcpyDtoH(*out, d, words * sizeof **out));
out:
    if (st != GB_OK) {
        free(*out);
        *out = NULL;
    }
    return st;
}

/* The input and its reference, made once for a bench and a size. */
static enum gb_status ub_share_setup(struct gb_point *p, void *ctx, void **state)
{
    enum gb_status st = GB_OK;
    struct gb_gpu *g = p->gpu;
    const struct ub_kind *kd = ub_kind_of(p);
    struct ub_shared *sh = calloc(1, sizeof *sh);
    uint32_t *host = NULL, *host_b = NULL;
    const char *size = gb_point_str(p, "size");
    *state = NULL;
    if (!sh)
        return gb_error_set(GB_ERR_NOMEM, "out of host memory");
    long n = gb_ubench_side(&g->info, size, kd->load);
    if (n <= 0) {
        st = gb_error_set(GB_ERR_UNSUPPORTED, "no %s size on this device (its SM count and threads per SM are unknown)",
                          size);
        goto out;
    }
    sh->n = (unsigned)n;
    size_t nn = (size_t)n * (size_t)n;
    if ((st = gb_gpu_function(p->module, "ub_check", &sh->check)) != GB_OK ||
        (st = gb_gpu_alloc(g, nn * 4, &sh->a)) != GB_OK || (st = gb_gpu_alloc(g, 16, &sh->out)) != GB_OK)
        goto out;
    if (kd->ref == UB_REF_NONE)
        goto out;   /* write kernels: each point poisons and checks against its own value */

    /* Fresh non-zero input, read back for the host reference. */
    if ((st = gb_gpu_fill_random(g, sh->a, nn, ub_rand_word())) != GB_OK ||
        (st = ub_download(g, sh->a, nn, &host)) != GB_OK)
        goto out;
    sh->k = ub_rand_word() | 1u;
    switch (kd->ref) {
    case UB_REF_COLSUM:
    case UB_REF_ROWSUM:
        sh->nref = (size_t)n;
        if (!(sh->href = calloc(sh->nref, sizeof *sh->href))) {
            st = gb_error_set(GB_ERR_NOMEM, "out of host memory");
            goto out;
        }
        for (size_t r = 0; r < (size_t)n; r++)
            for (size_t c = 0; c < (size_t)n; c++)
                sh->href[kd->ref == UB_REF_COLSUM ? c : r] += host[r * (size_t)n + c] & 0xFFFFu;
        if (kd->overload_ref)
            for (size_t i = 0; i < sh->nref; i++)
                sh->href[i] = gb_ubench_overload(sh->href[i], sh->k);
        break;
    case UB_REF_PREFIX:
        /* Prefix sums of the inputs (mod 2^32): any chunk or window sum in O(1). */
        sh->nref = nn + 1;
        if (!(sh->href = malloc(sh->nref * sizeof *sh->href))) {
            st = gb_error_set(GB_ERR_NOMEM, "out of host memory");
            goto out;
        }
        sh->href[0] = 0;
        for (size_t i = 0; i < nn; i++)
            sh->href[i + 1] = sh->href[i] + (host[i] & 0xFFFFu);
        break;
    case UB_REF_CANNON:
        sh->nref = nn;
        if ((st = gb_gpu_alloc(g, nn * 4, &sh->b)) != GB_OK || (st = gb_gpu_alloc(g, nn * 4, &sh->c)) != GB_OK ||
            (st = gb_gpu_fill_random(g, sh->b, nn, ub_rand_word())) != GB_OK ||
            (st = ub_download(g, sh->b, nn, &host_b)) != GB_OK)
            goto out;
        if (!(sh->href = malloc(nn * sizeof *sh->href))) {
            st = gb_error_set(GB_ERR_NOMEM, "out of host memory");
            goto out;
        }
        ub_matmul_host(host, host_b, sh->href, (size_t)n);
        break;
    case UB_REF_NONE:
        break;
    }
    if ((st = gb_gpu_alloc(g, sh->nref * 4, &sh->ref)) != GB_OK)
        goto out;
    GB_CU_CHECK(st, gb_cu->cuMemcpyHtoD(sh->ref, sh->href, sh->nref * 4));
out:
    free(host);
    free(host_b);
    if (st != GB_OK) {
        ub_share_teardown(g, ctx, sh);
        return st;
    }
    *state = sh;
    return GB_OK;
}

static int ub_carveout(const char *cache)
{
    if (strcmp(cache, "min") == 0)
        return 0;      /* CU_SHAREDMEM_CARVEOUT_MAX_L1: the least shared memory, the most L1 */
    if (strcmp(cache, "max") == 0)
        return 100;    /* CU_SHAREDMEM_CARVEOUT_MAX_SHARED */
    return -1;         /* CU_SHAREDMEM_CARVEOUT_DEFAULT */
}

/* Occupancy of the shape and whether it is the kernel's best, from the
 * project's calculator with the function's own registers and shared memory. */
static enum gb_status ub_occupancy(struct gb_point *p, CUfunction f, int threads, int carveout)
{
    enum gb_status st = GB_OK;
    int regs = 0, smem = 0;
    struct gb_occupancy_input in;
    struct gb_occupancy_result r;
    GB_CU_CHECK(st, gb_cu->cuFuncGetAttribute(&regs, CU_FUNC_ATTRIBUTE_NUM_REGS, f));
    GB_CU_CHECK(st, gb_cu->cuFuncGetAttribute(&smem, CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES, f));
    memset(&in, 0, sizeof in);
    in.regs_per_thread = regs;
    in.static_smem_bytes = smem;
    in.max_dyn_smem_bytes = -1;
    in.carveout_pct = carveout;
    in.threads_per_block = threads;
    if ((st = gb_point_metric(p, "regs", regs)) != GB_OK)
        goto out;
    if (gb_occupancy_compute(&p->gpu->info, &in, &r) != GB_OK)
        return GB_OK;   /* a device the calculator does not know: no occupancy metrics */
    double best = 0;
    int warp = p->gpu->info.warp_size > 0 ? p->gpu->info.warp_size : 32;
    for (int t = warp; t <= p->gpu->info.max_threads_per_block; t += warp) {
        struct gb_occupancy_result rt;
        in.threads_per_block = t;
        if (gb_occupancy_compute(&p->gpu->info, &in, &rt) == GB_OK && rt.occupancy > best)
            best = rt.occupancy;
    }
    if ((st = gb_point_metric(p, "occupancy", r.occupancy)) == GB_OK)
        st = gb_point_metric(p, "max_occupancy", r.occupancy >= best - 1e-9 && r.occupancy > 0);
out:
    return st;
}

static enum gb_status ub_setup(struct gb_point *p, void *ctx)
{
    (void)ctx;
    enum gb_status st = GB_OK;
    const struct ub_kind *kd = ub_kind_of(p);
    struct ub_shared *sh = p->shared;
    struct gb_gpu *g = p->gpu;
    struct ub_point *s = calloc(1, sizeof *s);
    long rows = gb_point_int(p, "rows"), cols = gb_point_int(p, "cols");
    if (!s)
        return gb_error_set(GB_ERR_NOMEM, "out of host memory");
    p->state = s;
    if (!sh)
        return gb_error_set(GB_ERR_USAGE, "%s: no shared state (share_setup was not run)", p->bench->name);
    if (rows * cols > g->info.max_threads_per_block)
        return gb_error_set(GB_ERR_UNSUPPORTED, "%ld x %ld threads exceed the device's %d per block", rows, cols,
                            g->info.max_threads_per_block);
    s->n = sh->n;
    s->bx = (unsigned)cols;
    s->by = (unsigned)rows;
    s->gx = (s->n + s->bx - 1) / s->bx;
    s->gy = (s->n + s->by - 1) / s->by;
    if ((long)s->gy > g->info.max_grid_dim[1] || (long)s->gx > g->info.max_grid_dim[0])
        return gb_error_set(GB_ERR_UNSUPPORTED, "a grid of %u x %u blocks exceeds the device's limits", s->gx, s->gy);
    if ((st = gb_gpu_function(p->module, kd->entry, &s->f)) != GB_OK)
        return st;
    int carveout = ub_carveout(gb_point_str(p, "cache"));
    GB_CU_CHECK(st, gb_cu->cuFuncSetAttribute(s->f, CU_FUNC_ATTRIBUTE_PREFERRED_SHARED_MEMORY_CARVEOUT, carveout));

    /* Fresh values for this point; the checked value is never the poison. */
    s->arr = sh->a;
    s->value = ub_rand_word();
    s->seed = ub_rand_word();
    s->k = ub_rand_word() | 1u;
    if (kd->args == UB_ARGS_SEED) {
        while ((s->value = gb_ubench_overload(s->seed, s->k)) == GB_POISON || ~s->value == GB_POISON)
            s->seed = ub_rand_word();
    }
    if (kd->args == UB_ARGS_K)
        s->k = sh->k;   /* the reference was computed with it */
    int na = 0;
    if (kd->args == UB_ARGS_CANNON) {
        s->args[na++] = &sh->a;
        s->args[na++] = &sh->b;
        s->args[na++] = &sh->c;
        s->args[na++] = &s->n;
    } else {
        s->args[na++] = &s->arr;
        s->args[na++] = &s->n;
        if (kd->args == UB_ARGS_VALUE || kd->args == UB_ARGS_VERIFY)
            s->args[na++] = &s->value;
        if (kd->args == UB_ARGS_VERIFY)
            s->args[na++] = &s->verify;
        if (kd->args == UB_ARGS_SEED) {
            s->args[na++] = &s->seed;
            s->args[na++] = &s->k;
        }
        if (kd->args == UB_ARGS_K)
            s->args[na++] = &s->k;
    }
    s->n_args = na;

    s->checked = kd->check == UB_CK_REF ? sh->c : sh->a;
    s->mode = kd->check;
    s->cvalue = s->value;
    switch (kd->check) {
    case UB_CK_DIAG: s->p0 = (unsigned)(rows * cols) < s->n ? (unsigned)(rows * cols) : s->n; break;
    case UB_CK_CORNER: s->p0 = (unsigned)rows; s->p1 = (unsigned)cols; break;
    case UB_CK_CHUNK: s->p0 = (unsigned)(rows * cols); break;
    case UB_CK_WINDOW:
        s->p0 = (unsigned)rows;
        s->p1 = (unsigned)cols;
        s->p2 = s->gx;
        s->cvalue = kd->stride;
        break;
    default: break;
    }

    double threads = (double)s->gx * s->gy * (double)(rows * cols);
    if ((st = gb_point_metric(p, "threads", threads)) != GB_OK || (st = gb_point_metric(p, "n", s->n)) != GB_OK)
        return st;
    if (kd->write_bytes)
        p->bytes = (double)s->n * s->n * 4.0;
    if ((st = ub_occupancy(p, s->f, (int)(rows * cols), carveout)) != GB_OK)
        return st;
out:
    return st;
}

static void ub_teardown(struct gb_point *p, void *ctx)
{
    (void)ctx;
    free(p->state);
    p->state = NULL;
}

static enum gb_status ub_run_check(struct gb_point *p, int poison)
{
    struct ub_point *s = p->state;
    struct ub_shared *sh = p->shared;
    struct gb_gpu *g = p->gpu;
    CUdeviceptr ref = sh->ref;
    void *args[] = {&s->checked, &s->n, &s->mode, &poison, &s->cvalue, &s->p0, &s->p1, &s->p2, &ref, &sh->out};
    size_t nn = (size_t)s->n * s->n;
    unsigned grid = (unsigned)((nn + 255) / 256);
    unsigned cap = (unsigned)(g->info.sm_count > 0 ? g->info.sm_count * 8 : 1024);
    return gb_gpu_launch(g, sh->check, grid < cap ? grid : cap, 1, 1, 256, 1, 1, 0, args);
}

static enum gb_status ub_poison(struct gb_point *p, void *ctx)
{
    (void)ctx;
    struct ub_point *s = p->state;
    s->verify = 1;   /* uBench-0 stores only in the verification launch */
    return ub_run_check(p, 1);
}

static enum gb_status ub_launch(struct gb_point *p, void *ctx)
{
    (void)ctx;
    struct ub_point *s = p->state;
    return gb_gpu_launch(p->gpu, s->f, s->gx, s->gy, 1, s->bx, s->by, 1, 0, s->args);
}

/* What the check expects at element i, on the host (the kernel's ub_expect). */
static uint32_t ub_expect_host(const struct ub_point *s, const struct ub_shared *sh, size_t i, uint32_t got)
{
    size_t n = s->n, nn = n * n, row = i / n, col = i % n;
    uint32_t hi;
    const uint32_t *r = sh->href;
    switch (s->mode) {
    case UB_CK_FULL: return s->cvalue;
    case UB_CK_DIAG: return (i % (n + 1) == 0 && i / (n + 1) < s->p0) ? s->cvalue : GB_POISON;
    case UB_CK_CORNER: return (row % s->p0 == 0 && col % s->p1 == 0) ? s->cvalue : GB_POISON;
    case UB_CK_FIRST: return i == 0 ? s->cvalue : GB_POISON;
    case UB_CK_REF: return r[i];
    case UB_CK_COL: hi = r[col]; break;
    case UB_CK_ROW: hi = r[row]; break;
    case UB_CK_CHUNK: {
        size_t start = i / s->p0 * s->p0;
        hi = r[start + s->p0] - r[start];
        break;
    }
    case UB_CK_WINDOW: {
        size_t lin = (row / s->p0) * s->p2 + col / s->p1, start = (size_t)(((unsigned long long)lin * s->cvalue) % nn),
               end = start + n;
        hi = end <= nn ? r[end] - r[start] : r[nn] - r[start] + r[end - nn];
        break;
    }
    default: return 0;
    }
    return (got & 0xFFFFu) | (hi << 16);
}

static enum gb_status ub_verify(struct gb_point *p, void *ctx)
{
    (void)ctx;
    enum gb_status st = GB_OK;
    struct ub_point *s = p->state;
    struct ub_shared *sh = p->shared;
    struct gb_gpu *g = p->gpu;
    unsigned long long c[2] = {0, 0};
    s->verify = 0;   /* the timed launches of uBench-0 store nothing */
    GB_CU_CHECK(st, gb_cu->cuMemsetD32Async(sh->out, 0, 2, g->stream));
    GB_CU_CHECK(st, gb_cu->cuMemsetD32Async(sh->out + 8, 0xFFFFFFFFu, 2, g->stream));
    if ((st = ub_run_check(p, 0)) != GB_OK || (st = gb_gpu_sync(g)) != GB_OK)
        goto out;
    GB_CU_CHECK(st, gb_cu->cuMemcpyDtoH(c, sh->out, sizeof c));
    if (c[0]) {
        uint32_t got = 0;
        size_t i = (size_t)c[1];
        GB_CU_CHECK(st, gb_cu->cuMemcpyDtoH(&got, s->checked + i * 4, 4));
        st = gb_error_set(GB_ERR_VERIFY,
                          "%llu of %llu elements wrong (n %u, block %u x %u); first at row %zu, col %zu: "
                          "expected 0x%08x, got 0x%08x",
                          c[0], (unsigned long long)s->n * s->n, s->n, s->by, s->bx, i / s->n, i % s->n,
                          ub_expect_host(s, sh, i, got), got);
    }
out:
    return st;
}

static int ub_admit(const struct gb_point *p, void *ctx, char *why, size_t n)
{
    (void)ctx;
    long rows = gb_point_int(p, "rows"), cols = gb_point_int(p, "cols");
    if (rows * cols <= GB_UBENCH_MAX_BLOCK)
        return 1;
    snprintf(why, n, "a block of rows %ld x cols %ld = %ld threads exceeds %d threads per block", rows, cols,
             rows * cols, GB_UBENCH_MAX_BLOCK);
    return 0;
}

static const struct gb_axis_def ub_axes[] = {
    {"size", GB_AXIS_STR, "small,medium,large", NULL, 0, 0, "small,medium,large",
     "total threads below (small), slightly above (medium) or far above (large) the device's resident threads"},
    {"cache", GB_AXIS_STR, "min,default,max", "default", 0, 0, "min,default,max",
     "preferred shared-memory carveout: min (most L1), default, max (least L1)"},
    {"rows", GB_AXIS_INT, UB_DIMS, "1,8,32", 1, 1024, UB_DIMS, "block rows (blockDim.y)"},
    {"cols", GB_AXIS_INT, UB_DIMS, "1,32,256", 1, 1024, UB_DIMS, "block columns (blockDim.x)"},
};

/* Cannon's host reference is O(n^3): --quick leaves out its large size. */
static const struct gb_axis_def ub_axes_cannon[] = {
    {"size", GB_AXIS_STR, "small,medium,large", "small,medium", 0, 0, "small,medium,large",
     "total threads below (small), slightly above (medium) or far above (large) the device's resident threads"},
    {"cache", GB_AXIS_STR, "min,default,max", "default", 0, 0, "min,default,max",
     "preferred shared-memory carveout: min (most L1), default, max (least L1)"},
    {"rows", GB_AXIS_INT, UB_DIMS, "1,8,32", 1, 1024, UB_DIMS, "block rows (blockDim.y)"},
    {"cols", GB_AXIS_INT, UB_DIMS, "1,32,256", 1, 1024, UB_DIMS, "block columns (blockDim.x)"},
};

/* Every bench: many short points, so a 1% stopping rule, few samples, a
 * short warm-up, a host synchronisation every millisecond and graph
 * samples of 100 us; buffers and the host reference made once per size
 * and shared by the points that follow. */
#define UB_BENCH(name_, help_, axes_, last_)         \
    {.name = name_,                                  \
     .help = help_,                                  \
     .kernel_file = "ubench.cu",                     \
     .axes = axes_,                                  \
     .n_axes = 4,                                    \
     .cache = GB_CACHE_HOT,                          \
     .setup = ub_setup,                              \
     .poison = ub_poison,                            \
     .launch = ub_launch,                            \
     .verify = ub_verify,                            \
     .verify_last = last_,                           \
     .teardown = ub_teardown,                        \
     .sampling = {.rel_ci = 0.01,                    \
                  .max_time_s = 0.01,                \
                  .min_samples = 6,                  \
                  .max_samples = 200,                \
                  .warmup_launches = 1,              \
                  .chunk_s = 0.001,                  \
                  .batch_target_ns = 100000.0},      \
     .share_by = "size",                             \
     .share_setup = ub_share_setup,                  \
     .share_teardown = ub_share_teardown,            \
     .admit = ub_admit}

static const struct gb_bench ub_benches[UB_N_BENCHES] = {
    UB_BENCH("ubench0", "no computation, no data access: the block scheduler alone", ub_axes, 0),
    UB_BENCH("ubench1", "write a constant, pattern I (2-D coordinates)", ub_axes, 1),
    UB_BENCH("ubench2", "write a constant, pattern II (linear index)", ub_axes, 1),
    UB_BENCH("ubench3", "uBench-1 with a 1000-iteration overload loop", ub_axes, 1),
    UB_BENCH("ubench4", "uBench-2 with a 1000-iteration overload loop", ub_axes, 1),
    UB_BENCH("ubench5", "write a constant, pattern III (the diagonal, by index in the block)", ub_axes, 1),
    UB_BENCH("ubench6", "pattern IV: one thread per block writes", ub_axes, 1),
    UB_BENCH("ubench7", "pattern V: every thread writes the first element a value of a 1000-iteration loop",
             ub_axes, 1),
    UB_BENCH("ubench8", "sum of the thread's column (read pattern A), write pattern I", ub_axes, 1),
    UB_BENCH("ubench9", "sum of the thread's row (read pattern B), write pattern I", ub_axes, 1),
    UB_BENCH("ubench10", "uBench-8 with a 1000-iteration overload loop", ub_axes, 1),
    UB_BENCH("ubench11", "uBench-9 with a 1000-iteration overload loop", ub_axes, 1),
    UB_BENCH("ubench12", "sum of the block's chunk (read pattern C), write pattern II", ub_axes, 1),
    UB_BENCH("ubench13", "sum of a window starting at block index x 1 (read pattern D(1)), write pattern I",
             ub_axes, 1),
    UB_BENCH("ubench14", "sum of a window starting at block index x 32 (read pattern D(32)), write pattern I",
             ub_axes, 1),
    UB_BENCH("cannon_direct", "Cannon's matrix multiply, every block starting at k = 0", ub_axes_cannon, 1),
    UB_BENCH("cannon_shifted", "Cannon's matrix multiply, block (x, y) starting x + y segments along",
             ub_axes_cannon, 1),
};

/* The paper's Figure 1 for every bench, size and carveout. */
static const struct gb_chart_spec ub_charts[] = {
    {.name = "shape",
     .title = "Time by block shape",
     .kind = GB_CHART_HEAT,
     .split = "bench,size,cache",
     .primary = "size=large,cache=default",
     .row = "rows",
     .col = "cols",
     .y = "median_ns",
     .x_label = "columns (blockDim.x)",
     .y_label = "rows (blockDim.y)",
     .flag = "metric:max_occupancy",
     .flag_label = "maximum occupancy"},
};

/* What its findings (report.md) compare: each bench by time at the large size and default carveout. */
static const struct gb_findings_rule ub_findings = {
    .where = {"size=large", "cache=default"},
    .by_time = 1,
    .source = "Torres, Gonzalez-Escribano, Llanos, \"uBench: exposing the impact of CUDA block "
              "geometry in terms of performance\", J. Supercomputing 2013 (docs/suites.md checks "
              "each of its conclusions)",
};

const struct gb_suite gb_suite_ubench = {
    .name = "ubench",
    .help = "uBench: block shape (rows x cols) against time for fifteen access patterns and Cannon's matrix "
            "multiply, at three data sizes and three L1/shared-memory carveouts",
    .benches = ub_benches,
    .n_benches = UB_N_BENCHES,
    .charts = ub_charts,
    .n_charts = (int)(sizeof ub_charts / sizeof ub_charts[0]),
    .findings = &ub_findings,
};

