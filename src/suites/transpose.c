/* transpose.c - suite `transpose`: how close a matrix transpose comes to a copy.
 *
 * The series of the slides (GPU Hardware Performance, after NVIDIA's SDK
 * transpose example): a naive transpose (coalesced reads, writes down the
 * columns), the tile through shared memory (coalesced both ways, bank
 * conflicts on the column reads), the padded tile (no bank conflicts) and
 * diagonal block order (against partition camping), over the slides' tile
 * and block shapes; the copies with the same access shapes (the slides'
 * ceiling); transposes of our own design with 16-byte accesses; and the
 * driver's device-to-device copy as the reference.
 *
 * Matrices are square (n x n) or rectangular (n x 2n, 2n x n), over sizes
 * that are multiples of 512, 256 or 128 and sizes that are not. Bytes are
 * the matrix read once and written once. Every point is verified: each
 * output word against the generator of the input (a GPU check), the words
 * after the output against the poison, and three output rows against the
 * host's own computation of the generator. Samples are hot (back to back)
 * and the default matrices are at least twice the L2 (input and output
 * together), so that they measure device memory in its steady state; a cold
 * sample would start with an L2 full of the flush's dirty lines, whose
 * write-back shares the kernel's bandwidth.
 */
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gpubound/chart_spec.h"
#include "suites/suites.h"

#define TR_GUARD_WORDS 1024              /* poisoned words after the output */
#define TR_SMEM_STATIC (48 * 1024)       /* the kernels' static shared tiles */
#define TR_FAST_THREADS 256

enum tr_kind {
    TR_DTOD = 0,
    TR_COPY_TILE,
    TR_COPY_SMEM,
    TR_COPY_VEC,
    TR_COPY_FLAT,
    TR_NAIVE,
    TR_COALESCED,
    TR_PADDED,
    TR_DIAGONAL,
    TR_FAST,
};

struct tr_state {
    CUdeviceptr in, out, res;
    int rows, cols;              /* the input matrix; a transpose writes cols x rows */
    int elem;                    /* bytes per element */
    size_t bytes;                /* one matrix */
    unsigned seed;
    int transposed;
    enum tr_kind kind;
    CUfunction f, check;
    unsigned grid[2], block[2];
    int group;                   /* kernels with a block order: tile columns per group */
    int takes_group;
};

/* ---- axes ---- */

#define TR_SIZES "4000,4096,4097,4160,4224,4352,6144,8192,8193,8320,8448,12288,16384"
#define TR_SIZES_QUICK "1025,2048"
#define TR_TILES "8x8,16x4,16x8,16x16,32x4,32x8,32x16,32x32,48x8,48x12,48x16,64x8,64x16"
#define TR_DESIGNS "reg,reg-sq,reg-sq-cs,smem,smem-sq,smem-sq-cs"

#define TR_AX_TILE(def)                                                                    \
    {"tile", GB_AXIS_STR, def, NULL, 0, 0, TR_TILES,                                       \
     "TxR: a TxT tile per block of T x R threads, T/R elements per thread"}
#define TR_AX_SHAPE                                                                        \
    {"shape", GB_AXIS_STR, "square,wide", NULL, 0, 0, "square,wide,tall",                  \
     "input rows x columns: square n x n, wide n x 2n, tall 2n x n"}
#define TR_AX_ELEM {"elem", GB_AXIS_STR, "4", NULL, 0, 0, "4,8,16", "bytes per element"}
#define TR_AX_N                                                                            \
    {"n", GB_AXIS_INT, TR_SIZES, TR_SIZES_QUICK, 1, 65536, NULL,                           \
     "matrix size n (see shape)"}

static const struct gb_axis_def tr_axes_dtod[] = {TR_AX_SHAPE, TR_AX_ELEM, TR_AX_N};
static const struct gb_axis_def tr_axes_copy[] = {
    {"kind", GB_AXIS_STR, "tile,smem,vec,flat", NULL, 0, 0, "tile,smem,vec,flat",
     "tile: the slides' copy (tile blocks, one element per access); smem: through a shared tile; "
     "vec: the 16-byte accesses and blocks of fast/reg; flat: one 16-byte access per thread over "
     "the matrix as one array"},
    TR_AX_TILE("32x8"), TR_AX_SHAPE, TR_AX_ELEM, TR_AX_N};
static const struct gb_axis_def tr_axes_naive[] = {TR_AX_TILE("32x8"), TR_AX_SHAPE, TR_AX_ELEM, TR_AX_N};
static const struct gb_axis_def tr_axes_tiled[] = {TR_AX_TILE("16x16,32x8,48x16"), TR_AX_SHAPE,
                                                   TR_AX_ELEM, TR_AX_N};
static const struct gb_axis_def tr_axes_fast[] = {
    {"design", GB_AXIS_STR, "reg,reg-sq,smem,smem-sq,smem-sq-cs", NULL, 0, 0, TR_DESIGNS,
     "reg: registers only, 8 rows x 16 bytes per thread; smem: 16x16 units through swizzled shared "
     "memory; -sq: blocks in square groups; -cs: streaming loads and stores"},
    TR_AX_SHAPE, TR_AX_ELEM, TR_AX_N};

#define TR_N_AXES(a) ((int)(sizeof(a) / sizeof((a)[0])))

static int tr_elem(const struct gb_point *p)
{
    int e = atoi(gb_point_str(p, "elem"));
    return e ? e : 4;
}

/* The tile axis "TxR"; 32x8 when the bench has none. */
static void tr_tile(const struct gb_point *p, int *t, int *r)
{
    const char *s = gb_point_str(p, "tile");
    *t = 32;
    *r = 8;
    if (*s && sscanf(s, "%dx%d", t, r) != 2) {
        *t = 32;
        *r = 8;
    }
}

/* One module per (element size, tile): every kernel of transpose.cu is in it. */
static int tr_opts(const struct gb_point *p, void *ctx, char opts[][GB_OPT_LEN], int max)
{
    (void)ctx;
    int t, r;
    (void)max;
    tr_tile(p, &t, &r);
    snprintf(opts[0], GB_OPT_LEN, "-DELEM=%d", tr_elem(p));
    snprintf(opts[1], GB_OPT_LEN, "-DTILE=%d", t);
    snprintf(opts[2], GB_OPT_LEN, "-DBLOCK_ROWS=%d", r);
    return 3;
}

/* ---- set-up ---- */

static void tr_teardown(struct gb_point *p, void *ctx)
{
    (void)ctx;
    struct tr_state *s = p->state;
    if (!s)
        return;
    gb_gpu_free(p->gpu, s->in);
    gb_gpu_free(p->gpu, s->out);
    gb_gpu_free(p->gpu, s->res);
    free(s);
    p->state = NULL;
}

static unsigned tr_div_up(long long a, long long b)
{
    return (unsigned)((a + b - 1) / b);
}

/* Registers, static shared memory and resident blocks per SM of the kernel. */
static enum gb_status tr_kernel_metrics(struct gb_point *p, unsigned threads, int *blocks_per_sm)
{
    struct tr_state *s = p->state;
    enum gb_status st = GB_OK;
    int regs = 0, smem = 0, nb = 0;
    GB_CU_CHECK(st, gb_cu->cuFuncGetAttribute(&regs, CU_FUNC_ATTRIBUTE_NUM_REGS, s->f));
    GB_CU_CHECK(st, gb_cu->cuFuncGetAttribute(&smem, CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES, s->f));
    GB_CU_CHECK(st, gb_cu->cuOccupancyMaxActiveBlocksPerMultiprocessor(&nb, s->f, (int)threads, 0));
    if ((st = gb_point_metric(p, "regs", regs)) != GB_OK || (st = gb_point_metric(p, "smem_bytes", smem)) != GB_OK ||
        (st = gb_point_metric(p, "blocks_per_sm", nb)) != GB_OK)
        goto out;
    *blocks_per_sm = nb;
out:
    return st;
}

/* The slides' kernels: TxT tiles, T x R threads. `pad` is the padding of the
 * shared tile, or -1 when the kernel has none. */
static enum gb_status tr_setup_tiled(struct gb_point *p, const char *kernel, int pad)
{
    struct tr_state *s = p->state;
    const struct gb_device_info *d = &p->gpu->info;
    enum gb_status st;
    int t, r, nb;
    tr_tile(p, &t, &r);
    if (t % r)
        return gb_error_set(GB_ERR_UNSUPPORTED, "tile %dx%d: the thread rows must divide the tile edge", t, r);
    if (t * r > d->max_threads_per_block)
        return gb_error_set(GB_ERR_UNSUPPORTED, "tile %dx%d: %d threads per block, more than the device's %d",
                            t, r, t * r, d->max_threads_per_block);
    if (pad >= 0 && (long)t * (t + pad) * s->elem > TR_SMEM_STATIC)
        return gb_error_set(GB_ERR_UNSUPPORTED,
                            "tile %dx%d of %d-byte elements needs %ld bytes of shared memory, more than "
                            "a static allocation's %d", t, r, s->elem, (long)t * (t + pad) * s->elem,
                            TR_SMEM_STATIC);
    s->grid[0] = tr_div_up(s->cols, t);
    s->grid[1] = tr_div_up(s->rows, t);
    if (s->grid[0] > (unsigned)d->max_grid_dim[0] || s->grid[1] > (unsigned)d->max_grid_dim[1])
        return gb_error_set(GB_ERR_UNSUPPORTED, "a %d x %d matrix needs a grid of %u x %u tiles, more than "
                            "the device allows", s->rows, s->cols, s->grid[0], s->grid[1]);
    s->block[0] = (unsigned)t;
    s->block[1] = (unsigned)r;
    if ((st = gb_gpu_function(p->module, kernel, &s->f)) != GB_OK)
        return st;
    return tr_kernel_metrics(p, (unsigned)(t * r), &nb);
}

/* Kernels of our own design: 256 threads per block, a 1-D grid of tw x th
 * tiles in groups (see block_tile in transpose.cu). `square`: groups that
 * make the resident blocks a square of elements; else row-major order. */
static enum gb_status tr_setup_vec(struct gb_point *p, const char *kernel, int tw, int th, int square)
{
    struct tr_state *s = p->state;
    const struct gb_device_info *d = &p->gpu->info;
    enum gb_status st;
    int nb = 0, v = 16 / s->elem;
    unsigned nbx = tr_div_up(s->cols, tw), nby = tr_div_up(s->rows, th);
    if ((unsigned long long)nbx * nby > (unsigned long long)d->max_grid_dim[0] ||
        (unsigned long long)nbx * nby > INT_MAX)
        return gb_error_set(GB_ERR_UNSUPPORTED, "a %d x %d matrix needs %llu blocks, more than a 1-D grid "
                            "holds", s->rows, s->cols, (unsigned long long)nbx * nby);
    if ((st = gb_gpu_function(p->module, kernel, &s->f)) != GB_OK ||
        (st = tr_kernel_metrics(p, TR_FAST_THREADS, &nb)) != GB_OK)
        return st;
    s->grid[0] = nbx * nby;
    s->grid[1] = 1;
    s->block[0] = TR_FAST_THREADS;
    s->block[1] = 1;
    s->takes_group = 1;
    s->group = (int)nbx;
    if (square) {
        /* Resident blocks: C = SMs x blocks per SM; g groups of C/g blocks
         * cover g*tw columns by (C/g)*th rows, equal when g = sqrt(C*th/tw). */
        double c = (double)d->sm_count * (nb > 0 ? nb : 1);
        long g = lround(sqrt(c * th / tw));
        s->group = (int)(g < 1 ? 1 : g > (long)nbx ? (long)nbx : g);
    }
    if ((st = gb_point_metric(p, "group", s->group)) != GB_OK ||
        (st = gb_point_metric(p, "vec_loads", s->cols % v == 0)) != GB_OK)
        return st;
    return gb_point_metric(p, "vec_stores", (s->transposed ? s->rows : s->cols) % v == 0);
}

/* One thread per 16-byte vector of the matrix, and one for the words after the last. */
static enum gb_status tr_setup_flat(struct gb_point *p)
{
    struct tr_state *s = p->state;
    const struct gb_device_info *d = &p->gpu->info;
    enum gb_status st;
    int nb;
    unsigned long long threads = s->bytes / 16 + 1, blocks = (threads + 255) / 256;
    if (blocks > (unsigned long long)d->max_grid_dim[0])
        return gb_error_set(GB_ERR_UNSUPPORTED, "a %d x %d matrix needs %llu blocks, more than a 1-D grid "
                            "holds", s->rows, s->cols, blocks);
    s->grid[0] = (unsigned)blocks;
    s->grid[1] = 1;
    s->block[0] = 256;
    s->block[1] = 1;
    if ((st = gb_gpu_function(p->module, "tr_copy_flat", &s->f)) != GB_OK)
        return st;
    return tr_kernel_metrics(p, 256, &nb);
}

static enum gb_status tr_setup(struct gb_point *p, enum tr_kind kind)
{
    enum gb_status st;
    struct gb_gpu *g = p->gpu;
    struct tr_state *s = calloc(1, sizeof *s);
    if (!s)
        return gb_error_set(GB_ERR_NOMEM, "out of host memory");
    p->state = s;
    s->kind = kind;
    s->elem = tr_elem(p);
    s->transposed = kind >= TR_NAIVE;
    long n = gb_point_int(p, "n");
    const char *shape = gb_point_str(p, "shape");
    long rows = n, cols = n;
    if (strcmp(shape, "wide") == 0)
        cols = 2 * n;
    else if (strcmp(shape, "tall") == 0)
        rows = 2 * n;
    if (n < 1 || rows > INT_MAX / 2 || cols > INT_MAX / 2)
        return gb_error_set(GB_ERR_UNSUPPORTED, "matrix size %ld is out of range", n);
    s->rows = (int)rows;
    s->cols = (int)cols;
    s->bytes = (size_t)rows * (size_t)cols * (size_t)s->elem;
    s->seed = (unsigned)rand() | 1u;
    if ((st = gb_gpu_alloc(g, s->bytes, &s->in)) != GB_OK ||
        (st = gb_gpu_alloc(g, s->bytes + 4 * TR_GUARD_WORDS, &s->out)) != GB_OK ||
        (st = gb_gpu_alloc(g, 16, &s->res)) != GB_OK ||
        (st = gb_gpu_fill_random(g, s->in, s->bytes / 4, s->seed)) != GB_OK ||
        (st = gb_gpu_function(p->module, "tr_check", &s->check)) != GB_OK)
        return st;
    p->bytes = 2.0 * (double)s->bytes;

    int v = 16 / s->elem;
    switch (kind) {
    case TR_DTOD: st = GB_OK; break;
    case TR_COPY_TILE: st = tr_setup_tiled(p, "tr_copy_tile", -1); break;
    case TR_COPY_SMEM: st = tr_setup_tiled(p, "tr_copy_smem", 0); break;
    case TR_COPY_VEC: st = tr_setup_vec(p, "tr_copy_vec", 16 * v, 128, 0); break;
    case TR_COPY_FLAT: st = tr_setup_flat(p); break;
    case TR_NAIVE: st = tr_setup_tiled(p, "tr_naive", -1); break;
    case TR_COALESCED: st = tr_setup_tiled(p, "tr_coalesced", 0); break;
    case TR_PADDED: st = tr_setup_tiled(p, "tr_padded", 1); break;
    case TR_DIAGONAL: st = tr_setup_tiled(p, "tr_diagonal", 1); break;
    case TR_FAST: {
        const char *d = gb_point_str(p, "design");
        int smem = strncmp(d, "smem", 4) == 0;
        int cs = strstr(d, "-cs") != NULL;
        const char *kernel = smem ? (cs ? "tr_fast_smem_cs" : "tr_fast_smem")
                                  : (cs ? "tr_fast_reg_cs" : "tr_fast_reg");
        /* Tiles: reg 16V columns x 128 rows; smem 16V x 16V (transpose.cu). */
        st = tr_setup_vec(p, kernel, 16 * v, smem ? 16 * v : 128, strstr(d, "-sq") != NULL);
        break;
    }
    }
    if (st != GB_OK)
        return st;
    return gb_gpu_sync(g);
}

static enum gb_status tr_setup_dtod(struct gb_point *p, void *ctx) { (void)ctx; return tr_setup(p, TR_DTOD); }
static enum gb_status tr_setup_naive(struct gb_point *p, void *ctx) { (void)ctx; return tr_setup(p, TR_NAIVE); }
static enum gb_status tr_setup_coalesced(struct gb_point *p, void *ctx) { (void)ctx; return tr_setup(p, TR_COALESCED); }
static enum gb_status tr_setup_padded(struct gb_point *p, void *ctx) { (void)ctx; return tr_setup(p, TR_PADDED); }
static enum gb_status tr_setup_diagonal(struct gb_point *p, void *ctx) { (void)ctx; return tr_setup(p, TR_DIAGONAL); }
static enum gb_status tr_setup_fast(struct gb_point *p, void *ctx) { (void)ctx; return tr_setup(p, TR_FAST); }

static enum gb_status tr_setup_copy(struct gb_point *p, void *ctx)
{
    (void)ctx;
    const char *k = gb_point_str(p, "kind");
    return tr_setup(p, strcmp(k, "smem") == 0   ? TR_COPY_SMEM
                       : strcmp(k, "vec") == 0  ? TR_COPY_VEC
                       : strcmp(k, "flat") == 0 ? TR_COPY_FLAT
                                                : TR_COPY_TILE);
}

/* ---- launch, verify ---- */

static enum gb_status tr_poison(struct gb_point *p, void *ctx)
{
    (void)ctx;
    struct tr_state *s = p->state;
    return gb_gpu_fill_u32(p->gpu, s->out, s->bytes / 4 + TR_GUARD_WORDS, GB_POISON);
}

static enum gb_status tr_launch(struct gb_point *p, void *ctx)
{
    (void)ctx;
    struct tr_state *s = p->state;
    enum gb_status st = GB_OK;
    if (s->kind == TR_DTOD) {
        GB_CU_CHECK(st, gb_cu->cuMemcpyDtoDAsync(s->out, s->in, s->bytes, p->gpu->stream));
        return GB_OK;
    }
    void *args[] = {&s->in, &s->out, &s->rows, &s->cols, s->takes_group ? &s->group : NULL};
    return gb_gpu_launch(p->gpu, s->f, s->grid[0], s->grid[1], 1, s->block[0], s->block[1], 1, 0, args);
out:
    return st;
}

/* The word the output must hold at word index `w` of an orows x ocols output. */
static uint32_t tr_expected(const struct tr_state *s, unsigned long long w)
{
    unsigned long long words = (unsigned long long)s->elem / 4, e = w / words, k = w % words;
    unsigned long long orows = (unsigned long long)(s->transposed ? s->cols : s->rows);
    unsigned long long ocols = (unsigned long long)(s->transposed ? s->rows : s->cols);
    unsigned long long r = e / ocols, c = e % ocols;
    unsigned long long src = s->transposed ? c * orows + r : e;
    return gb_fill_word(s->seed, src * words + k);
}

/* Three whole output rows (first, middle, last) computed on the host. */
static enum gb_status tr_host_check(struct gb_point *p)
{
    struct tr_state *s = p->state;
    enum gb_status st = GB_OK;
    unsigned long long orows = (unsigned long long)(s->transposed ? s->cols : s->rows);
    unsigned long long ocols = (unsigned long long)(s->transposed ? s->rows : s->cols);
    unsigned long long words = (unsigned long long)s->elem / 4, row_words = ocols * words;
    unsigned long long pick[3] = {0, orows / 2, orows - 1};
    uint32_t *h = malloc(row_words * sizeof *h);
    if (!h)
        return gb_error_set(GB_ERR_NOMEM, "out of host memory");
    for (int i = 0; i < 3; i++) {
        unsigned long long w0 = pick[i] * row_words;
        GB_CU_CHECK(st, gb_cu->cuMemcpyDtoH(h, s->out + w0 * 4, row_words * 4));
        for (unsigned long long k = 0; k < row_words; k++)
            if (h[k] != tr_expected(s, w0 + k)) {
                st = gb_error_set(GB_ERR_VERIFY, "host check: output row %llu, word %llu holds 0x%08x, "
                                  "expected 0x%08x", pick[i], k, h[k], tr_expected(s, w0 + k));
                goto out;
            }
    }
out:
    free(h);
    return st;
}

static enum gb_status tr_verify(struct gb_point *p, void *ctx)
{
    (void)ctx;
    struct tr_state *s = p->state;
    struct gb_gpu *g = p->gpu;
    enum gb_status st = GB_OK;
    unsigned long long res[2] = {0, 0};
    long long orows = s->transposed ? s->cols : s->rows, ocols = s->transposed ? s->rows : s->cols;
    long long guard = TR_GUARD_WORDS;
    unsigned gx = tr_div_up(ocols, 256), gy = (unsigned)(orows < 32768 ? orows : 32768);
    if (gx > 16)
        gx = 16;
    void *args[] = {&s->out, &orows, &ocols, &s->transposed, &s->seed, &guard, &s->res};
    GB_CU_CHECK(st, gb_cu->cuMemsetD32Async(s->res, 0, 2, g->stream));
    GB_CU_CHECK(st, gb_cu->cuMemsetD32Async(s->res + 8, 0xFFFFFFFFu, 2, g->stream));
    if ((st = gb_gpu_launch(g, s->check, gx, gy, 1, 256, 1, 1, 0, args)) != GB_OK ||
        (st = gb_gpu_sync(g)) != GB_OK)
        goto out;
    GB_CU_CHECK(st, gb_cu->cuMemcpyDtoH(res, s->res, sizeof res));
    if (res[0]) {
        unsigned long long words = (unsigned long long)s->elem / 4;
        unsigned long long total = (unsigned long long)orows * (unsigned long long)ocols * words;
        uint32_t got = 0;
        GB_CU_CHECK(st, gb_cu->cuMemcpyDtoH(&got, s->out + res[1] * 4, 4));
        if (res[1] >= total)
            st = gb_error_set(GB_ERR_VERIFY, "%llu wrong words; the %d guard words after the output "
                              "were overwritten (word %llu past the end holds 0x%08x)", res[0],
                              TR_GUARD_WORDS, res[1] - total, got);
        else
            st = gb_error_set(GB_ERR_VERIFY, "%llu of %llu output words are wrong; the first at output "
                              "row %llu, column %llu: 0x%08x, expected 0x%08x", res[0], total,
                              res[1] / words / (unsigned long long)ocols,
                              res[1] / words % (unsigned long long)ocols, got, tr_expected(s, res[1]));
        goto out;
    }
    st = tr_host_check(p);
out:
    return st;
}

/* ---- the suite ---- */

#define TR_BENCH(name_, help_, axes_, setup_) \
    {.name = name_,                           \
     .help = help_,                           \
     .kernel_file = "transpose.cu",           \
     .kernel_opts = tr_opts,                  \
     .axes = axes_,                           \
     .n_axes = TR_N_AXES(axes_),              \
     .cache = GB_CACHE_HOT,                   \
     .setup = setup_,                         \
     .poison = tr_poison,                     \
     .launch = tr_launch,                     \
     .verify = tr_verify,                     \
     .teardown = tr_teardown}

static const struct gb_bench tr_benches[] = {
    TR_BENCH("copy", "copy the matrix with the transposes' access shapes (the ceiling)", tr_axes_copy,
             tr_setup_copy),
    TR_BENCH("dtod", "the driver's device-to-device copy of the matrix (cuMemcpyDtoDAsync), the reference",
             tr_axes_dtod, tr_setup_dtod),
    TR_BENCH("naive", "transpose: coalesced reads, each warp's writes down a column", tr_axes_naive,
             tr_setup_naive),
    TR_BENCH("coalesced", "transpose through a shared tile: coalesced both ways, bank conflicts in between",
             tr_axes_tiled, tr_setup_coalesced),
    TR_BENCH("padded", "transpose through a shared tile padded by one element: no bank conflicts",
             tr_axes_tiled, tr_setup_padded),
    TR_BENCH("diagonal", "the padded transpose with blocks in diagonal order (against partition camping)",
             tr_axes_tiled, tr_setup_diagonal),
    TR_BENCH("fast", "transposes of our own design: 16-byte accesses, register-transposed units",
             tr_axes_fast, tr_setup_fast),
};

/* Records of the default configurations only; '?' lets through benches without the axis. */
#define TR_SLIDES_WHERE(shape) "shape=" shape ",elem=4,tile?=32x8,kind?=tile"
#define TR_FAST_WHERE(shape) "shape=" shape ",elem=4,tile?=32x8,kind?=vec"

#define TR_SIZE_CHART(stem, shape, what, benches_, where_, series_)                        \
    {.name = stem,                                                                          \
     .title = "Matrix transpose: " what,                                                    \
     .kind = GB_CHART_LINE,                                                                 \
     .benches = benches_,                                                                   \
     .where = where_,                                                                       \
     .x = "n",                                                                              \
     .x_categories = 1,                                                                     \
     .series = series_,                                                                     \
     .series_label = "fast {}",                                                             \
     .y = "bw_gbs",                                                                         \
     .x_label = shape " matrix, n (4-byte elements)",                                       \
     .y_label = "throughput (GB/s, read + write)",                                          \
     .refs = "theoretical peak=device:mem_peak_gbs"}

#define TR_RATIO_CHART(stem, shape, ref, what)                                             \
    {.name = stem,                                                                          \
     .title = "Matrix transpose as a fraction of " what ", " shape " matrices",             \
     .kind = GB_CHART_LINE,                                                                 \
     .benches = "copy,naive,coalesced,padded,diagonal,fast",                                \
     .where = TR_FAST_WHERE(shape),                                                         \
     .x = "n",                                                                              \
     .x_categories = 1,                                                                     \
     .series = "design",                                                                    \
     .series_label = "fast {}",                                                             \
     .y = "bw_gbs",                                                                         \
     .relative_to = ref,                                                                    \
     .table = 1,                                                                            \
     .x_label = shape " matrix, n (4-byte elements)",                                       \
     .y_label = "throughput / throughput of " what,                                         \
     .refs = "equal=value:1"}

static const struct gb_chart_spec tr_charts[] = {
    TR_SIZE_CHART("transpose-slides-square", "square", "the slides' series, square matrices",
                  "copy,dtod,naive,coalesced,padded,diagonal", TR_SLIDES_WHERE("square"), "bench"),
    TR_SIZE_CHART("transpose-slides-wide", "wide", "the slides' series, n x 2n matrices",
                  "copy,dtod,naive,coalesced,padded,diagonal", TR_SLIDES_WHERE("wide"), "bench"),
    TR_SIZE_CHART("transpose-fast-square", "square", "designs with 16-byte accesses, square matrices",
                  "copy,dtod,padded,fast", TR_FAST_WHERE("square"), "design"),
    TR_SIZE_CHART("transpose-fast-wide", "wide", "designs with 16-byte accesses, n x 2n matrices",
                  "copy,dtod,padded,fast", TR_FAST_WHERE("wide"), "design"),
    TR_RATIO_CHART("transpose-of-dtod-square", "square", "dtod", "the driver's copy"),
    TR_RATIO_CHART("transpose-of-dtod-wide", "wide", "dtod", "the driver's copy"),
    TR_RATIO_CHART("transpose-of-copy-square", "square", "copy:kind=vec", "the vector copy"),
    {.name = "transpose-tiles",
     .title = "Transpose: tile and block shapes, 8192 x 8192",
     .kind = GB_CHART_BAR,
     .benches = "coalesced,padded,diagonal",
     .where = "shape=square,elem=4,n=8192",
     .x = "tile",
     .series = "bench",
     .y = "bw_gbs",
     .x_label = "tile edge x thread rows",
     .y_label = "throughput (GB/s, read + write)",
     .refs = "driver copy, best n=bench:dtod"},
};

/* What its findings (report.md) compare: at the largest square matrix, the highest bandwidth
 * against the peak, then each bench by GB/s. */
static const struct gb_findings_rule tr_findings = {
    .at_max = "n",
    .where = {"shape=square"},
    .peak = 1,
    .source = "Filipovic, \"GPU Hardware Performance\" (slides, 2010), after NVIDIA's "
              "\"Optimizing Matrix Transpose in CUDA\" (2009)",
};

const struct gb_suite gb_suite_transpose = {
    .name = "transpose",
    .help = "matrix transpose against a copy: the slides' series (naive, shared tile, padded, diagonal) and "
            "designs with 16-byte accesses, against the driver's device-to-device copy",
    .benches = tr_benches,
    .n_benches = (int)(sizeof tr_benches / sizeof tr_benches[0]),
    .charts = tr_charts,
    .n_charts = (int)(sizeof tr_charts / sizeof tr_charts[0]),
    .findings = &tr_findings,
};
