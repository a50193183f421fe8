/* ceilings.c - suite `ceilings`: the machine's roofs that the other
 * suites do not measure (include/gpubound/roofline.h names every roof and
 * the bench that measures it; DRAM, FP32, FP64, integer and special
 * functions come from suites bandwidth and throughput).
 *
 * L2 read (every SM reading a working set of a share of the L2 over and
 * over, several loads in flight) and write (many passes over the set),
 * loads and stores that bypass L1; conflict-free
 * shared-memory loads of 4, 8 and 16 bytes; f16x2 and bf16x2 FMA chains;
 * tensor-core mma.sync (fp16, bf16, fp8 e4m3 from sm_89) and warpgroup
 * wgmma m64n256k16 (bf16, fp16; sm_90a only); global and shared
 * atomicAdd at one, a few and distinct addresses; one thread's chain of
 * dependent loads through the L2 and through DRAM (the round trip's
 * latency); and a launch that does
 * one store per block over a range of grid sizes (the launch-overhead fit
 * is the model's: src/models/roofline/roofs.c).
 *
 * The work of every point is sized from its guide figure (or a generous
 * estimate) so that a launch lasts about a millisecond (a fifth under
 * --quick). Every result is checked against a closed form: see each
 * bench's verify. Each point records `guide_rate`, the roof's guide figure
 * in the unit of its derived rate (GB/s or G/s), where one is published.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gpubound/chart_spec.h"
#include "gpubound/roofline.h"
#include "suites/ceilings_ref.h"
#include "suites/suites.h"
#include "util/mix.h"

#define CK_BLOCK 256
#define CK_CHAINS 8             /* hfma2 chains per thread */
#define CK_MMA_CHAINS 4         /* mma accumulators per warp */
#define CK_UNROLL 16
#define CK_ATOM_UNROLL 4
#define CK_SMEM_ROWS 32
#define CK_FEW 64               /* addresses of atomic_global addrs=few */
#define CK_MAX_ITERS (1 << 20)

struct ck_state {
    CUfunction f, check;
    CUdeviceptr buf, out, prm, bad;
    size_t buf_words, out_words;
    unsigned grid, block;
    int iters, passes, roof;
    unsigned seed, addrs;
    unsigned prm_h[2 + CK_CHAINS];
    int hv[2 + 2 * CK_CHAINS];  /* hfma2: c (high, low half), then each chain's x0 halves */
    unsigned *words;            /* smem: the table each block loads */
    unsigned n_chunks;          /* l2_read: chunks of the working set */
    unsigned *next;             /* latency: the cycle, line to next line */
    unsigned n_lines, start, starts; /* latency: its lines, the last poison's start word, poisons */
    long *ref;                  /* wgmma: A B, 64 x 256 */
};

static int ck_width_opts(const struct gb_point *p, void *ctx, char opts[][GB_OPT_LEN], int max)
{
    (void)ctx;
    (void)max;
    snprintf(opts[0], GB_OPT_LEN, "-DWIDTH=%ld", gb_point_int(p, "width"));
    snprintf(opts[1], GB_OPT_LEN, "-DUNROLL=%d", CK_UNROLL);
    return 2;
}

static int ck_l2_read_opts(const struct gb_point *p, void *ctx, char opts[][GB_OPT_LEN], int max)
{
    (void)ctx;
    (void)max;
    snprintf(opts[0], GB_OPT_LEN, "-DWIDTH=%ld", gb_point_int(p, "width"));
    snprintf(opts[1], GB_OPT_LEN, "-DLOADS=%ld", gb_point_int(p, "loads"));
    return 2;
}

static int ck_hfma2_opts(const struct gb_point *p, void *ctx, char opts[][GB_OPT_LEN], int max)
{
    (void)ctx;
    (void)max;
    snprintf(opts[0], GB_OPT_LEN, "-DHALF=%d", strcmp(gb_point_str(p, "type"), "bf16x2") == 0 ? 2 : 1);
    snprintf(opts[1], GB_OPT_LEN, "-DCHAINS=%d", CK_CHAINS);
    snprintf(opts[2], GB_OPT_LEN, "-DUNROLL=%d", CK_UNROLL);
    return 3;
}

static int ck_mma_type(const struct gb_point *p)
{
    const char *t = gb_point_str(p, "type");
    return strcmp(t, "fp8") == 0 ? 3 : strcmp(t, "bf16") == 0 ? 2 : 1;
}

static int ck_mma_opts(const struct gb_point *p, void *ctx, char opts[][GB_OPT_LEN], int max)
{
    (void)ctx;
    (void)max;
    snprintf(opts[0], GB_OPT_LEN, "-DMMA=%d", ck_mma_type(p));
    snprintf(opts[1], GB_OPT_LEN, "-DCHAINS=%d", CK_MMA_CHAINS);
    snprintf(opts[2], GB_OPT_LEN, "-DUNROLL=%d", CK_UNROLL / 2);
    return 3;
}

static int ck_atom_opts(const struct gb_point *p, void *ctx, char opts[][GB_OPT_LEN], int max)
{
    (void)ctx;
    (void)max;
    (void)p;
    snprintf(opts[0], GB_OPT_LEN, "-DUNROLL=%d", CK_ATOM_UNROLL);
    return 1;
}

static void ck_teardown(struct gb_point *p, void *ctx)
{
    (void)ctx;
    struct ck_state *s = p->state;
    if (!s)
        return;
    gb_gpu_free(p->gpu, s->buf);
    gb_gpu_free(p->gpu, s->out);
    gb_gpu_free(p->gpu, s->prm);
    gb_gpu_free(p->gpu, s->bad);
    free(s->words);
    free(s->next);
    free(s->ref);
    free(s);
    p->state = NULL;
}

/* State, kernel and a full-device grid of `block` threads (one wave). */
static enum gb_status ck_begin(struct gb_point *p, const char *kernel, int roof, unsigned block)
{
    enum gb_status st = GB_OK;
    struct ck_state *s = calloc(1, sizeof *s);
    int n = 0;
    if (!s)
        return gb_error_set(GB_ERR_NOMEM, "out of host memory");
    p->state = s;
    s->roof = roof;
    s->seed = (unsigned)rand() | 1u;
    s->block = block;
    if ((st = gb_gpu_function(p->module, kernel, &s->f)) != GB_OK)
        return st;
    GB_CU_CHECK(st, gb_cu->cuOccupancyMaxActiveBlocksPerMultiprocessor(&n, s->f, (int)s->block, 0));
    s->grid = (unsigned)(p->gpu->info.sm_count * (n > 0 ? n : 1));
out:
    return st;
}

/* The guide figure of the point's roof, in G/s (or GB/s), or `fallback`. */
static double ck_guide(const struct gb_point *p, double fallback)
{
    struct ck_state *s = p->state;
    double g = gb_roof_guide(s->roof, &p->gpu->info, NULL);
    return g > 0 ? g : fallback;
}

/* Loop iterations that make `per_iter` operations per iteration last
 * about a millisecond (0.2 ms quick) at `rate` per ns. */
static int ck_iters(const struct gb_point *p, double per_iter, double rate)
{
    double target_ns = p->quick ? 2e5 : 1e6;
    double it = ceil(target_ns * rate / fmax(per_iter, 1.0));
    return (int)fmin(fmax(it, 1.0), (double)CK_MAX_ITERS);
}

static enum gb_status ck_guide_metric(struct gb_point *p)
{
    struct ck_state *s = p->state;
    double g = gb_roof_guide(s->roof, &p->gpu->info, NULL);
    return g > 0 ? gb_point_metric(p, "guide_rate", g) : GB_OK;
}

static enum gb_status ck_poison_out(struct gb_point *p, void *ctx)
{
    (void)ctx;
    struct ck_state *s = p->state;
    return gb_gpu_fill_u32(p->gpu, s->out, s->out_words, GB_POISON);
}

static unsigned long long ck_threads(const struct ck_state *s)
{
    return (unsigned long long)s->grid * s->block;
}

/* ---- L2 ---- */

static const struct gb_axis_def ck_axes_l2[] = {
    {"width", GB_AXIS_INT, "4,8,16", "16", 4, 16, "4,8,16", "bytes each thread moves per access"},
    {"share", GB_AXIS_INT, "25,50", "50", 1, 75, NULL, "working set, percent of the device's L2 size"},
};

static const struct gb_axis_def ck_axes_l2_read[] = {
    {"width", GB_AXIS_INT, "8,16", "16", 4, 16, "4,8,16", "bytes each thread loads per access"},
    {"share", GB_AXIS_INT, "4,8,16,25,50", "8,25", 1, 75, NULL, "working set, percent of the device's L2 size"},
    {"loads", GB_AXIS_INT, "4,8,16", "8", 1, 32, "1,2,4,8,16,32", "loads in flight per thread (one chunk)"},
    {"blocks_per_sm", GB_AXIS_INT, "2,4,8", "4", 1, 8, NULL, "blocks of 256 threads per SM"},
};

/* The grid of `per_sm` resident blocks per SM of s->block threads;
 * GB_ERR_UNSUPPORTED when fewer fit. */
static enum gb_status ck_grid_per_sm(struct gb_point *p, long per_sm)
{
    enum gb_status st = GB_OK;
    struct ck_state *s = p->state;
    int n = 0;
    GB_CU_CHECK(st, gb_cu->cuOccupancyMaxActiveBlocksPerMultiprocessor(&n, s->f, (int)s->block, 0));
    if (n < per_sm)
        return gb_error_set(GB_ERR_UNSUPPORTED, "%d blocks of %u threads fit an SM, fewer than blocks_per_sm=%ld",
                            n, s->block, per_sm);
    s->grid = (unsigned)(p->gpu->info.sm_count * per_sm);
out:
    return st;
}

static enum gb_status ck_l2_read_setup(struct gb_point *p, void *ctx)
{
    (void)ctx;
    enum gb_status st;
    if ((st = ck_begin(p, "ck_l2_read", GB_ROOF_L2, CK_BLOCK)) != GB_OK ||
        (st = ck_grid_per_sm(p, gb_point_int(p, "blocks_per_sm"))) != GB_OK)
        return st;
    struct ck_state *s = p->state;
    size_t chunk_words = (size_t)s->block * (size_t)gb_point_int(p, "loads") * (size_t)gb_point_int(p, "width") / 4;
    double ws = (double)p->gpu->info.l2_bytes * (double)gb_point_int(p, "share") / 100.0;
    s->n_chunks = (unsigned)(ws / 4.0 / (double)chunk_words);
    if (s->n_chunks < 2)
        return gb_error_set(GB_ERR_UNSUPPORTED, "the L2 (%lld bytes) is too small for this share",
                            (long long)p->gpu->info.l2_bytes);
    s->buf_words = s->n_chunks * chunk_words;
    /* Chunks each block reads: about a millisecond at a generous 20 TB/s. */
    s->passes = ck_iters(p, (double)s->grid * (double)chunk_words * 4.0, 2e4);
    s->out_words = (size_t)ck_threads(s) * 2;
    if ((st = gb_gpu_alloc(p->gpu, s->buf_words * 4, &s->buf)) != GB_OK ||
        (st = gb_gpu_fill_random(p->gpu, s->buf, s->buf_words, s->seed)) != GB_OK ||
        (st = gb_gpu_alloc(p->gpu, s->out_words * 4, &s->out)) != GB_OK)
        return st;
    p->bytes = (double)s->grid * s->passes * (double)chunk_words * 4.0 + (double)s->out_words * 4.0;
    return gb_gpu_sync(p->gpu);
}

static enum gb_status ck_l2_write_setup(struct gb_point *p, void *ctx)
{
    (void)ctx;
    enum gb_status st;
    if ((st = ck_begin(p, "ck_l2_write", GB_ROOF_L2_WRITE, CK_BLOCK)) != GB_OK)
        return st;
    struct ck_state *s = p->state;
    double ws = (double)p->gpu->info.l2_bytes * (double)gb_point_int(p, "share") / 100.0;
    s->buf_words = (size_t)(ws / 4.0) & ~(size_t)1023;
    if (s->buf_words < 1024)
        return gb_error_set(GB_ERR_UNSUPPORTED, "the L2 (%lld bytes) is too small for this share",
                            (long long)p->gpu->info.l2_bytes);
    /* Passes for about a millisecond at a generous 20 TB/s. */
    s->passes = ck_iters(p, (double)s->buf_words * 4.0, 2e4);
    if ((st = gb_gpu_alloc(p->gpu, s->buf_words * 4, &s->buf)) != GB_OK ||
        (st = gb_gpu_fill_random(p->gpu, s->buf, s->buf_words, s->seed)) != GB_OK ||
        (st = gb_gpu_alloc(p->gpu, 8, &s->bad)) != GB_OK ||
        (st = gb_gpu_function(p->module, "ck_l2_check", &s->check)) != GB_OK)
        return st;
    p->bytes = (double)s->buf_words * 4.0 * s->passes;
    return gb_gpu_sync(p->gpu);
}

static enum gb_status ck_l2_write_poison(struct gb_point *p, void *ctx)
{
    (void)ctx;
    struct ck_state *s = p->state;
    return gb_gpu_fill_u32(p->gpu, s->buf, s->buf_words, GB_POISON);
}

static enum gb_status ck_l2_read_launch(struct gb_point *p, void *ctx)
{
    (void)ctx;
    struct ck_state *s = p->state;
    void *args[] = {&s->buf, &s->n_chunks, &s->passes, &s->out};
    return gb_gpu_launch(p->gpu, s->f, s->grid, 1, 1, s->block, 1, 1, 0, args);
}

static enum gb_status ck_l2_write_launch(struct gb_point *p, void *ctx)
{
    (void)ctx;
    struct ck_state *s = p->state;
    unsigned long long n = s->buf_words;
    void *args[] = {&s->buf, &n, &s->passes, &s->seed};
    return gb_gpu_launch(p->gpu, s->f, s->grid, 1, 1, s->block, 1, 1, 0, args);
}

/* The per-thread sums add up to the sums of the chunks each block read
 * (the words are gb_fill_word's pattern). */
static enum gb_status ck_l2_read_verify(struct gb_point *p, void *ctx)
{
    (void)ctx;
    struct ck_state *s = p->state;
    size_t n = (size_t)ck_threads(s), per = s->buf_words / s->n_chunks;
    uint64_t *h = malloc(n * sizeof *h), *chunk = calloc(s->n_chunks, sizeof *chunk), got = 0, want;
    enum gb_status st = GB_OK;
    if (!h || !chunk) {
        st = gb_error_set(GB_ERR_NOMEM, "out of host memory");
        goto out;
    }
    GB_CU_CHECK(st, gb_cu->cuMemcpyDtoH(h, s->out, n * sizeof *h));
    for (size_t i = 0; i < n; i++)
        got += h[i];
    for (size_t w = 0; w < s->buf_words; w++)
        chunk[w / per] += gb_fill_word(s->seed, w);
    want = gb_ck_l2_read_expect(chunk, s->n_chunks, s->grid, s->passes);
    if (got != want)
        st = gb_error_set(GB_ERR_VERIFY, "L2 read checksum %llu differs from the sum of the chunks read, %llu",
                          (unsigned long long)got, (unsigned long long)want);
    else
        st = ck_guide_metric(p);
out:
    free(h);
    free(chunk);
    return st;
}

/* Every word holds the last pass's pattern. */
static enum gb_status ck_l2_write_verify(struct gb_point *p, void *ctx)
{
    (void)ctx;
    struct ck_state *s = p->state;
    unsigned long long n = s->buf_words, bad = 0;
    unsigned last = s->seed + (unsigned)s->passes - 1u;
    enum gb_status st = GB_OK;
    void *args[] = {&s->buf, &n, &last, &s->bad};
    GB_CU_CHECK(st, gb_cu->cuMemsetD32Async(s->bad, 0, 2, p->gpu->stream));
    if ((st = gb_gpu_launch(p->gpu, s->check, s->grid, 1, 1, s->block, 1, 1, 0, args)) != GB_OK ||
        (st = gb_gpu_sync(p->gpu)) != GB_OK)
        goto out;
    GB_CU_CHECK(st, gb_cu->cuMemcpyDtoH(&bad, s->bad, sizeof bad));
    if (bad)
        st = gb_error_set(GB_ERR_VERIFY, "%llu of %llu words differ from the last pass's pattern", bad, n);
    else
        st = ck_guide_metric(p);
out:
    return st;
}

/* ---- shared memory ---- */

static const struct gb_axis_def ck_axes_smem[] = {
    {"width", GB_AXIS_INT, "4,8,16", "4,16", 4, 16, "4,8,16", "bytes each lane loads per access (a warp: 32 consecutive)"},
};

static enum gb_status ck_smem_setup(struct gb_point *p, void *ctx)
{
    (void)ctx;
    enum gb_status st;
    if ((st = ck_begin(p, "ck_smem", GB_ROOF_SMEM, CK_BLOCK)) != GB_OK)
        return st;
    struct ck_state *s = p->state;
    long width = gb_point_int(p, "width");
    s->buf_words = (size_t)CK_SMEM_ROWS * 32 * (size_t)(width / 4);
    if (!(s->words = malloc(s->buf_words * sizeof *s->words)))
        return gb_error_set(GB_ERR_NOMEM, "out of host memory");
    for (size_t i = 0; i < s->buf_words; i++)
        s->words[i] = gb_fill_word(s->seed, i);
    s->out_words = (size_t)ck_threads(s);
    s->iters = ck_iters(p, (double)ck_threads(s) * CK_UNROLL * (double)width, ck_guide(p, 4e4));
    if ((st = gb_gpu_alloc(p->gpu, s->buf_words * 4, &s->buf)) != GB_OK ||
        (st = gb_gpu_alloc(p->gpu, s->out_words * 4, &s->out)) != GB_OK)
        return st;
    GB_CU_CHECK(st, gb_cu->cuMemcpyHtoD(s->buf, s->words, s->buf_words * 4));
    p->bytes = (double)ck_threads(s) * s->iters * CK_UNROLL * (double)width;
    st = gb_gpu_sync(p->gpu);
out:
    return st;
}

static enum gb_status ck_smem_launch(struct gb_point *p, void *ctx)
{
    (void)ctx;
    struct ck_state *s = p->state;
    void *args[] = {&s->buf, &s->iters, &s->out};
    return gb_gpu_launch(p->gpu, s->f, s->grid, 1, 1, s->block, 1, 1, 0, args);
}

/* Lane l's sum: every row r it visited, times its visits, of the words of
 * element r * 32 + l. The same in every warp. */
static enum gb_status ck_smem_verify(struct gb_point *p, void *ctx)
{
    (void)ctx;
    struct ck_state *s = p->state;
    enum gb_status st = GB_OK;
    unsigned per = (unsigned)(s->buf_words / (CK_SMEM_ROWS * 32)), ref[32] = {0};
    unsigned long long visits[CK_SMEM_ROWS] = {0};
    unsigned *h = malloc(s->out_words * sizeof *h);
    if (!h)
        return gb_error_set(GB_ERR_NOMEM, "out of host memory");
    for (long i = 0; i < s->iters; i++)
        for (int u = 0; u < CK_UNROLL; u++)
            visits[((unsigned)i * CK_UNROLL % CK_SMEM_ROWS + (unsigned)u) % CK_SMEM_ROWS]++;
    for (unsigned l = 0; l < 32; l++)
        for (unsigned r = 0; r < CK_SMEM_ROWS; r++) {
            unsigned w = 0;
            for (unsigned k = 0; k < per; k++)
                w += s->words[(r * 32 + l) * per + k];
            ref[l] += (unsigned)(visits[r] * w);
        }
    GB_CU_CHECK(st, gb_cu->cuMemcpyDtoH(h, s->out, s->out_words * sizeof *h));
    for (size_t t = 0; t < s->out_words; t++)
        if (h[t] != ref[t & 31]) {
            st = gb_error_set(GB_ERR_VERIFY, "thread %zu: sum of its shared loads is %u, expected %u", t, h[t],
                              ref[t & 31]);
            goto out;
        }
    st = ck_guide_metric(p);
out:
    free(h);
    return st;
}

/* ---- 16-bit FMA ---- */

static const struct gb_axis_def ck_axes_hfma2[] = {
    {"type", GB_AXIS_STR, "f16x2,bf16x2", NULL, 0, 0, "f16x2,bf16x2", "fma.rn.f16x2 or fma.rn.bf16x2"},
};

static enum gb_status ck_hfma2_setup(struct gb_point *p, void *ctx)
{
    (void)ctx;
    enum gb_status st;
    int bf = strcmp(gb_point_str(p, "type"), "bf16x2") == 0;
    if ((st = ck_begin(p, "ck_hfma2", bf ? GB_ROOF_BF16 : GB_ROOF_FP16, CK_BLOCK)) != GB_OK)
        return st;
    struct ck_state *s = p->state;
    s->hv[0] = 64 + rand() % 64;
    s->hv[1] = s->hv[0] - 1;
    for (int k = 0; k < 2 * CK_CHAINS; k++)
        s->hv[2 + k] = 1 + rand() % 63;
    s->prm_h[0] = gb_ck_half_bits(bf, -1) * 0x10001u;
    s->prm_h[1] = gb_ck_half_bits(bf, s->hv[0]) << 16 | gb_ck_half_bits(bf, s->hv[1]);
    for (int k = 0; k < CK_CHAINS; k++)
        s->prm_h[2 + k] = gb_ck_half_bits(bf, s->hv[2 + 2 * k]) << 16 | gb_ck_half_bits(bf, s->hv[3 + 2 * k]);
    s->out_words = (size_t)ck_threads(s) * CK_CHAINS;
    /* 4 flops per step per chain: 2 halves x (multiply + add). */
    double per_iter = (double)ck_threads(s) * CK_CHAINS * CK_UNROLL * 4.0;
    s->iters = ck_iters(p, per_iter, ck_guide(p, 5e4));
    if ((st = gb_gpu_alloc(p->gpu, sizeof s->prm_h, &s->prm)) != GB_OK ||
        (st = gb_gpu_alloc(p->gpu, s->out_words * 4, &s->out)) != GB_OK)
        return st;
    GB_CU_CHECK(st, gb_cu->cuMemcpyHtoD(s->prm, s->prm_h, sizeof s->prm_h));
    p->flops = (double)ck_threads(s) * CK_CHAINS * ((double)s->iters * CK_UNROLL + 1.0) * 4.0;
    st = gb_gpu_sync(p->gpu);
out:
    return st;
}

static enum gb_status ck_iters_launch(struct gb_point *p, void *ctx)
{
    (void)ctx;
    struct ck_state *s = p->state;
    void *args[] = {&s->prm, &s->iters, &s->out};
    return gb_gpu_launch(p->gpu, s->f, s->grid, 1, 1, s->block, 1, 1, 0, args);
}

/* An odd number of steps x -> c - x leaves c - x0 in each half. */
static enum gb_status ck_hfma2_verify(struct gb_point *p, void *ctx)
{
    (void)ctx;
    struct ck_state *s = p->state;
    int bf = s->roof == GB_ROOF_BF16;
    enum gb_status st = GB_OK;
    unsigned *h = malloc(s->out_words * sizeof *h), want[CK_CHAINS];
    if (!h)
        return gb_error_set(GB_ERR_NOMEM, "out of host memory");
    for (int k = 0; k < CK_CHAINS; k++)
        want[k] = gb_ck_half_bits(bf, s->hv[0] - s->hv[2 + 2 * k]) << 16 | gb_ck_half_bits(bf, s->hv[1] - s->hv[3 + 2 * k]);
    GB_CU_CHECK(st, gb_cu->cuMemcpyDtoH(h, s->out, s->out_words * sizeof *h));
    for (size_t e = 0; e < s->out_words; e++)
        if (h[e] != want[e % CK_CHAINS]) {
            st = gb_error_set(GB_ERR_VERIFY, "thread %zu chain %zu: 0x%08x after %ld steps, expected 0x%08x",
                              e / CK_CHAINS, e % CK_CHAINS, h[e], (long)s->iters * CK_UNROLL + 1,
                              want[e % CK_CHAINS]);
            goto out;
        }
    st = ck_guide_metric(p);
out:
    free(h);
    return st;
}

/* ---- tensor cores ---- */

static const struct gb_axis_def ck_axes_mma[] = {
    {"type", GB_AXIS_STR, "fp16,bf16,fp8", NULL, 0, 0, "fp16,bf16,fp8",
     "mma.sync m16n8k16 f16 or bf16, or m16n8k32 e4m3 (sm_89 and later), fp32 accumulate"},
};

static enum gb_status ck_mma_setup(struct gb_point *p, void *ctx)
{
    (void)ctx;
    enum gb_status st;
    int type = ck_mma_type(p), k_dim = type == 3 ? 32 : 16;
    int roof = type == 3 ? GB_ROOF_TC_FP8 : type == 2 ? GB_ROOF_TC_BF16 : GB_ROOF_TC_FP16;
    if (type == 3 && 10 * p->gpu->info.cc_major + p->gpu->info.cc_minor < 89)
        return gb_error_set(GB_ERR_UNSUPPORTED, "fp8 mma.sync needs compute capability 8.9 or later");
    if ((st = ck_begin(p, "ck_mma_kernel", roof, CK_BLOCK)) != GB_OK)
        return st;
    struct ck_state *s = p->state;
    int a = (rand() % 2 ? 1 : -1), b = (rand() % 2 ? 1 : 2);
    /* Every element of a register the same value: fp16, bf16 or e4m3 (1 = 0x38, 2 = 0x40). */
    if (type == 3) {
        s->prm_h[0] = (a < 0 ? 0xb8u : 0x38u) * 0x01010101u;
        s->prm_h[1] = (b == 2 ? 0x40u : 0x38u) * 0x01010101u;
    } else {
        s->prm_h[0] = gb_ck_half_bits(type == 2, a) * 0x10001u;
        s->prm_h[1] = gb_ck_half_bits(type == 2, b) * 0x10001u;
    }
    for (int k = 0; k < CK_MMA_CHAINS; k++) {
        float c0 = (float)(rand() % 1000 - 500);
        memcpy(&s->prm_h[2 + k], &c0, 4);
    }
    s->addrs = (unsigned)(a * b * k_dim); /* what each mma adds, as a signed int */
    s->out_words = (size_t)ck_threads(s) * CK_MMA_CHAINS * 4;
    double per_mma = 2.0 * 16 * 8 * k_dim, warps = (double)ck_threads(s) / 32.0;
    s->iters = ck_iters(p, warps * CK_MMA_CHAINS * (CK_UNROLL / 2) * per_mma, ck_guide(p, 2e6));
    /* Keep every accumulator exact in fp32: |c0 + steps x 2 x k| < 2^24. */
    s->iters = (int)fmin(s->iters, (double)(1 << 23) / (2.0 * k_dim * CK_MMA_CHAINS * (CK_UNROLL / 2)));
    if ((st = gb_gpu_alloc(p->gpu, sizeof s->prm_h, &s->prm)) != GB_OK ||
        (st = gb_gpu_alloc(p->gpu, s->out_words * 4, &s->out)) != GB_OK)
        return st;
    GB_CU_CHECK(st, gb_cu->cuMemcpyHtoD(s->prm, s->prm_h, sizeof s->prm_h));
    p->flops = warps * CK_MMA_CHAINS * (CK_UNROLL / 2) * (double)s->iters * per_mma;
    st = gb_gpu_sync(p->gpu);
out:
    return st;
}

/* Every element of accumulator k holds c0[k] + mmas x K x a x b. */
static enum gb_status ck_mma_verify(struct gb_point *p, void *ctx)
{
    (void)ctx;
    struct ck_state *s = p->state;
    enum gb_status st = GB_OK;
    float *h = malloc(s->out_words * sizeof *h);
    double steps = (double)s->iters * (CK_UNROLL / 2);
    if (!h)
        return gb_error_set(GB_ERR_NOMEM, "out of host memory");
    GB_CU_CHECK(st, gb_cu->cuMemcpyDtoH(h, s->out, s->out_words * sizeof *h));
    for (size_t e = 0; e < s->out_words; e++) {
        float c0;
        memcpy(&c0, &s->prm_h[2 + (e / 4) % CK_MMA_CHAINS], 4);
        double want = (double)c0 + steps * (double)(int)s->addrs;
        if ((double)h[e] != want) {
            st = gb_error_set(GB_ERR_VERIFY, "accumulator element %zu is %.9g after %.0f mma, expected %.9g", e,
                              (double)h[e], steps, want);
            goto out;
        }
    }
    st = ck_guide_metric(p);
out:
    free(h);
    return st;
}

/* ---- tensor cores, warpgroup MMA ---- */

#define CK_WG_UNROLL 8
#define CK_WG_FLOPS (2.0 * GB_CK_WG_M * GB_CK_WG_N * GB_CK_WG_K) /* per wgmma */

static const struct gb_axis_def ck_axes_wgmma[] = {
    {"type", GB_AXIS_STR, "bf16,fp16", "bf16", 0, 0, "bf16,fp16",
     "wgmma.mma_async m64n256k16, bf16 or fp16 operands in shared memory, fp32 accumulate (sm_90a)"},
    {"blocks_per_sm", GB_AXIS_INT, "1,2,3", "2", 1, 4, NULL, "warpgroups (blocks of 128 threads) per SM"},
};

/* The kernel needs the architecture-specific target sm_90a: the last
 * --gpu-architecture wins, and gb_bench_module skips the point on a GPU
 * of another architecture. */
static int ck_wgmma_opts(const struct gb_point *p, void *ctx, char opts[][GB_OPT_LEN], int max)
{
    (void)ctx;
    (void)max;
    snprintf(opts[0], GB_OPT_LEN, "-DWG_TYPE=%d", strcmp(gb_point_str(p, "type"), "fp16") == 0 ? 1 : 2);
    snprintf(opts[1], GB_OPT_LEN, "-DUNROLL=%d", CK_WG_UNROLL);
    snprintf(opts[2], GB_OPT_LEN, "--gpu-architecture=sm_90a");
    return 3;
}

/* The operands' image in device memory, the product A B on the host. */
static enum gb_status ck_wgmma_operands(struct gb_point *p, int bf16, long *most)
{
    enum gb_status st = GB_OK;
    struct ck_state *s = p->state;
    int *a = malloc(GB_CK_WG_M * GB_CK_WG_K * sizeof *a), *b = malloc(GB_CK_WG_K * GB_CK_WG_N * sizeof *b);
    uint16_t *img = calloc(GB_CK_WG_IMAGE_BYTES / 2, sizeof *img);
    s->ref = malloc(GB_CK_WG_M * GB_CK_WG_N * sizeof *s->ref);
    if (!a || !b || !img || !s->ref) {
        st = gb_error_set(GB_ERR_NOMEM, "out of host memory");
        goto out;
    }
    gb_ck_wg_operands(s->seed, a, b);
    gb_ck_wg_image(bf16, a, b, img);
    *most = gb_ck_wg_product(a, b, s->ref);
    if ((st = gb_gpu_alloc(p->gpu, GB_CK_WG_IMAGE_BYTES, &s->prm)) != GB_OK)
        goto out;
    GB_CU_CHECK(st, gb_cu->cuMemcpyHtoD(s->prm, img, GB_CK_WG_IMAGE_BYTES));
out:
    free(a);
    free(b);
    free(img);
    return st;
}

static enum gb_status ck_wgmma_setup(struct gb_point *p, void *ctx)
{
    (void)ctx;
    enum gb_status st;
    int bf16 = strcmp(gb_point_str(p, "type"), "fp16") != 0;
    long most = 1;
    if (p->gpu->info.cc_major != 9 || p->gpu->info.cc_minor != 0)
        return gb_error_set(GB_ERR_UNSUPPORTED, "wgmma is compiled for sm_90a: it needs compute capability 9.0, "
                            "this GPU is %d.%d", p->gpu->info.cc_major, p->gpu->info.cc_minor);
    if ((st = ck_begin(p, "ck_wgmma_kernel", bf16 ? GB_ROOF_TC_BF16 : GB_ROOF_TC_FP16, 128)) != GB_OK)
        return st;
    struct ck_state *s = p->state;
    if ((st = ck_grid_per_sm(p, gb_point_int(p, "blocks_per_sm"))) != GB_OK ||
        (st = ck_wgmma_operands(p, bf16, &most)) != GB_OK)
        return st;
    s->out_words = (size_t)s->grid * GB_CK_WG_M * GB_CK_WG_N;
    s->iters = ck_iters(p, (double)s->grid * CK_WG_UNROLL * CK_WG_FLOPS, ck_guide(p, 1e6));
    /* Every accumulator stays an integer below 2^20: exact in fp32, with
     * room to spare for the tensor cores' own accumulation. */
    s->iters = (int)fmax(1.0, fmin(s->iters, (double)(1 << 20) / (CK_WG_UNROLL * (double)(most > 0 ? most : 1))));
    if ((st = gb_gpu_alloc(p->gpu, s->out_words * 4, &s->out)) != GB_OK)
        return st;
    p->flops = (double)s->grid * s->iters * CK_WG_UNROLL * CK_WG_FLOPS;
    return gb_gpu_sync(p->gpu);
}

/* Every block's 64 x 256 result is iters x UNROLL x A B, element by element. */
static enum gb_status ck_wgmma_verify(struct gb_point *p, void *ctx)
{
    (void)ctx;
    struct ck_state *s = p->state;
    enum gb_status st = GB_OK;
    float *h = malloc(s->out_words * sizeof *h);
    double steps = (double)s->iters * CK_WG_UNROLL;
    size_t tile = GB_CK_WG_M * GB_CK_WG_N;
    if (!h)
        return gb_error_set(GB_ERR_NOMEM, "out of host memory");
    GB_CU_CHECK(st, gb_cu->cuMemcpyDtoH(h, s->out, s->out_words * sizeof *h));
    for (size_t e = 0; e < s->out_words; e++) {
        double want = steps * (double)s->ref[e % tile];
        if ((double)h[e] != want) {
            st = gb_error_set(GB_ERR_VERIFY, "block %zu: D[%zu][%zu] is %.9g after %.0f wgmma, expected %.9g",
                              e / tile, e % tile / GB_CK_WG_N, e % GB_CK_WG_N, (double)h[e], steps, want);
            goto out;
        }
    }
    st = ck_guide_metric(p);
out:
    free(h);
    return st;
}

/* ---- atomics ---- */

static const struct gb_axis_def ck_axes_atom_global[] = {
    {"addrs", GB_AXIS_STR, "one,few,distinct", NULL, 0, 0, "one,few,distinct",
     "one: every thread adds to one counter; few: to one of 64; distinct: each to its own"},
};
static const struct gb_axis_def ck_axes_atom_shared[] = {
    {"addrs", GB_AXIS_STR, "one,distinct", NULL, 0, 0, "one,distinct",
     "one: every thread of a block adds to one word; distinct: each to its own"},
};

static enum gb_status ck_atom_setup(struct gb_point *p, int shared)
{
    enum gb_status st;
    const char *a = gb_point_str(p, "addrs");
    int one = strcmp(a, "one") == 0, few = strcmp(a, "few") == 0;
    int roof = shared ? (one ? GB_ROOF_ATOM_SHARED_ONE : GB_ROOF_ATOM_SHARED_DISTINCT)
                      : (one ? GB_ROOF_ATOM_GLOBAL_ONE : few ? GB_ROOF_ATOM_GLOBAL_FEW : GB_ROOF_ATOM_GLOBAL_DISTINCT);
    if ((st = ck_begin(p, shared ? "ck_atomic_shared" : "ck_atomic_global", roof, CK_BLOCK)) != GB_OK)
        return st;
    struct ck_state *s = p->state;
    s->addrs = one ? 1u : few ? CK_FEW : 0u;
    s->out_words = (size_t)ck_threads(s);
    /* A generous rate: one address serializes, distinct ones do not. */
    double rate = one && !shared ? 2.0 : one ? 50.0 : 500.0;
    s->iters = ck_iters(p, (double)ck_threads(s) * CK_ATOM_UNROLL, rate);
    if ((st = gb_gpu_alloc(p->gpu, s->out_words * 4, &s->out)) != GB_OK)
        return st;
    p->flops = (double)ck_threads(s) * s->iters * CK_ATOM_UNROLL;
    return gb_gpu_sync(p->gpu);
}

static enum gb_status ck_atom_global_setup(struct gb_point *p, void *ctx)
{
    (void)ctx;
    return ck_atom_setup(p, 0);
}

static enum gb_status ck_atom_shared_setup(struct gb_point *p, void *ctx)
{
    (void)ctx;
    return ck_atom_setup(p, 1);
}

static enum gb_status ck_atom_launch(struct gb_point *p, void *ctx)
{
    (void)ctx;
    struct ck_state *s = p->state;
    void *args[] = {&s->out, &s->addrs, &s->iters};
    return gb_gpu_launch(p->gpu, s->f, s->grid, 1, 1, s->block, 1, 1, 0, args);
}

/* Counter i: iters x unroll x the sum of 1 + (t & 3) over the threads t
 * that add to it (global: t over the grid, added to the poison the
 * counters start from; shared: t over a block, from zero). */
static enum gb_status ck_atom_verify(struct gb_point *p, void *ctx)
{
    (void)ctx;
    struct ck_state *s = p->state;
    int shared = s->roof == GB_ROOF_ATOM_SHARED_ONE || s->roof == GB_ROOF_ATOM_SHARED_DISTINCT;
    size_t n = s->out_words, span = shared ? s->block : n;
    unsigned *h = malloc(n * sizeof *h), *want = calloc(span, sizeof *want);
    unsigned steps = (unsigned)s->iters * CK_ATOM_UNROLL;
    enum gb_status st = GB_OK;
    if (!h || !want) {
        st = gb_error_set(GB_ERR_NOMEM, "out of host memory");
        goto out;
    }
    for (size_t t = 0; t < span; t++)
        want[t] = shared ? 0u : GB_POISON;
    for (size_t t = 0; t < span; t++)
        want[s->addrs ? t % s->addrs : t] += steps * (1u + (unsigned)(t & 3u));
    GB_CU_CHECK(st, gb_cu->cuMemcpyDtoH(h, s->out, n * sizeof *h));
    for (size_t i = 0; i < n; i++)
        if (h[i] != want[i % span]) {
            st = gb_error_set(GB_ERR_VERIFY, "counter %zu is %u after the atomic adds, expected %u", i, h[i],
                              want[i % span]);
            goto out;
        }
    st = ck_guide_metric(p);
out:
    free(h);
    free(want);
    return st;
}

/* ---- latency ---- */

#define CK_LAT_LINE_WORDS 32      /* a 128-byte line */
#define CK_LAT_LAUNCHES 64        /* launches after a poison that verify follows */
#define CK_LAT_LOADS 2000         /* dependent loads per launch (a fifth under --quick) */

static const struct gb_axis_def ck_axes_latency[] = {
    {"level", GB_AXIS_STR, "l2,dram", NULL, 0, 0, "l2,dram",
     "l2: a chain through an eighth of the L2; dram: through four times the L2"},
};

/* next[] one cycle through the n_lines lines (Sattolo's shuffle), and the
 * device image: each line's first word holds the next line's first word. */
static enum gb_status ck_latency_chain(struct ck_state *s)
{
    size_t n = s->n_lines;
    enum gb_status st = GB_OK;
    unsigned *img = calloc(n * CK_LAT_LINE_WORDS, sizeof *img);
    s->next = malloc(n * sizeof *s->next);
    if (!img || !s->next) {
        free(img);
        return gb_error_set(GB_ERR_NOMEM, "out of host memory for a chain of %zu lines", n);
    }
    uint64_t x = s->seed;   /* splitmix64: the same chain for the same seed on every machine */
    for (size_t i = 0; i < n; i++)
        s->next[i] = (unsigned)i;
    for (size_t i = n - 1; i > 0; i--) {
        size_t j = (size_t)(gb_mix64_next(&x) % i);
        unsigned t = s->next[i];
        s->next[i] = s->next[j];
        s->next[j] = t;
    }
    for (size_t i = 0; i < n; i++)
        img[i * CK_LAT_LINE_WORDS] = s->next[i] * CK_LAT_LINE_WORDS;
    GB_CU_CHECK(st, gb_cu->cuMemcpyHtoD(s->buf, img, n * CK_LAT_LINE_WORDS * sizeof *img));
out:
    free(img);
    return st;
}

static enum gb_status ck_latency_setup(struct gb_point *p, void *ctx)
{
    (void)ctx;
    enum gb_status st;
    if ((st = ck_begin(p, "ck_latency", -1, 1)) != GB_OK)
        return st;
    struct ck_state *s = p->state;
    int dram = strcmp(gb_point_str(p, "level"), "dram") == 0;
    s->roof = dram ? GB_ROOF_LAT_DRAM : GB_ROOF_LAT_L2;
    s->grid = 1;
    double ws = (double)p->gpu->info.l2_bytes * (dram ? 4.0 : 0.125);
    s->n_lines = (unsigned)(ws / (4.0 * CK_LAT_LINE_WORDS));
    if (s->n_lines < 1024)
        return gb_error_set(GB_ERR_UNSUPPORTED, "the L2 (%lld bytes) is too small for a chain",
                            (long long)p->gpu->info.l2_bytes);
    /* The same loads at both levels, so that their times compare: about
     * half a millisecond to a millisecond. */
    s->iters = p->quick ? CK_LAT_LOADS / 5 : CK_LAT_LOADS;
    s->out_words = 1;
    if ((st = gb_gpu_alloc(p->gpu, (size_t)s->n_lines * CK_LAT_LINE_WORDS * 4, &s->buf)) != GB_OK ||
        (st = gb_gpu_alloc(p->gpu, 4, &s->out)) != GB_OK ||
        (st = ck_latency_chain(s)) != GB_OK)
        return st;
    if ((st = gb_point_metric(p, "loads", s->iters)) != GB_OK)  /* ns per load: the time over it */
        return st;
    return gb_gpu_sync(p->gpu);
}

/* A fresh start for each poison, away from the last one's lines. */
static enum gb_status ck_latency_poison(struct gb_point *p, void *ctx)
{
    (void)ctx;
    struct ck_state *s = p->state;
    enum gb_status st = GB_OK;
    s->starts++;
    s->start = (unsigned)((s->starts * 0x9E3779B1ull + s->seed) % s->n_lines) * CK_LAT_LINE_WORDS;
    GB_CU_CHECK(st, gb_cu->cuMemcpyHtoD(s->out, &s->start, sizeof s->start));
out:
    return st;
}

static enum gb_status ck_latency_launch(struct gb_point *p, void *ctx)
{
    (void)ctx;
    struct ck_state *s = p->state;
    void *args[] = {&s->buf, &s->iters, &s->out};
    return gb_gpu_launch(p->gpu, s->f, 1, 1, 1, 1, 1, 1, 0, args);
}

/* The chain stopped where whole launches of `steps` loads from the
 * poison's start lead (the host walks the same cycle). */
static enum gb_status ck_latency_verify(struct gb_point *p, void *ctx)
{
    (void)ctx;
    struct ck_state *s = p->state;
    enum gb_status st = GB_OK;
    unsigned got = 0, at = s->start / CK_LAT_LINE_WORDS;
    GB_CU_CHECK(st, gb_cu->cuMemcpyDtoH(&got, s->out, sizeof got));
    for (int l = 0; l < CK_LAT_LAUNCHES; l++) {
        for (int k = 0; k < s->iters; k++)
            at = s->next[at];
        if (got == at * CK_LAT_LINE_WORDS)
            return gb_point_metric(p, "chain_lines", s->n_lines);
    }
    st = gb_error_set(GB_ERR_VERIFY, "the chain stopped at word %u, which %d launches of %d loads from "
                      "word %u do not reach", got, CK_LAT_LAUNCHES, s->iters, s->start);
out:
    return st;
}

/* ---- launch ---- */

static const struct gb_axis_def ck_axes_launch[] = {
    {"blocks", GB_AXIS_INT, "1:1M:*4", "1,16,256,4K,64K", 1, 1L << 24, NULL,
     "blocks of 32 threads, each writing one word"},
};

static enum gb_status ck_launch_setup(struct gb_point *p, void *ctx)
{
    (void)ctx;
    enum gb_status st;
    if ((st = ck_begin(p, "ck_launch", GB_ROOF_LAUNCH, CK_BLOCK)) != GB_OK)
        return st;
    struct ck_state *s = p->state;
    s->block = 32;
    s->grid = (unsigned)gb_point_int(p, "blocks");
    if (s->grid > (unsigned)p->gpu->info.max_grid_dim[0])
        return gb_error_set(GB_ERR_UNSUPPORTED, "%u blocks exceed the grid's limit", s->grid);
    s->out_words = s->grid;
    if ((st = gb_gpu_alloc(p->gpu, s->out_words * 4, &s->out)) != GB_OK)
        return st;
    p->bytes = 4.0 * s->grid;
    return gb_gpu_sync(p->gpu);
}

static enum gb_status ck_launch_launch(struct gb_point *p, void *ctx)
{
    (void)ctx;
    struct ck_state *s = p->state;
    void *args[] = {&s->out, &s->seed};
    return gb_gpu_launch(p->gpu, s->f, s->grid, 1, 1, s->block, 1, 1, 0, args);
}

static enum gb_status ck_launch_verify(struct gb_point *p, void *ctx)
{
    (void)ctx;
    struct ck_state *s = p->state;
    enum gb_status st = GB_OK;
    unsigned *h = malloc(s->out_words * sizeof *h);
    if (!h)
        return gb_error_set(GB_ERR_NOMEM, "out of host memory");
    GB_CU_CHECK(st, gb_cu->cuMemcpyDtoH(h, s->out, s->out_words * sizeof *h));
    for (unsigned b = 0; b < s->grid; b++)
        if (h[b] != (b ^ s->seed)) {
            st = gb_error_set(GB_ERR_VERIFY, "block %u wrote 0x%08x, expected 0x%08x", b, h[b], b ^ s->seed);
            break;
        }
out:
    free(h);
    return st;
}

#define CK_ROW(nm, hlp, opts, ax, su, po, la, ve)                                                   \
    {.name = nm, .help = hlp, .kernel_file = "ceilings.cu", .kernel_opts = opts, .axes = ax,         \
     .n_axes = (int)(sizeof ax / sizeof ax[0]), .cache = GB_CACHE_HOT, .setup = su, .poison = po,    \
     .launch = la, .verify = ve, .teardown = ck_teardown}

static const struct gb_bench ck_benches[] = {
    CK_ROW("l2_read", "every SM reads an L2-resident working set over and over (ld.global.cv, loads in flight)",
           ck_l2_read_opts, ck_axes_l2_read, ck_l2_read_setup, ck_poison_out, ck_l2_read_launch, ck_l2_read_verify),
    CK_ROW("l2_write", "write an L2-resident working set many times (st.global.cg)", ck_width_opts, ck_axes_l2,
           ck_l2_write_setup, ck_l2_write_poison, ck_l2_write_launch, ck_l2_write_verify),
    CK_ROW("smem", "conflict-free shared-memory loads of 4, 8 or 16 bytes per lane", ck_width_opts, ck_axes_smem,
           ck_smem_setup, ck_poison_out, ck_smem_launch, ck_smem_verify),
    CK_ROW("hfma2", "independent chains of f16x2 or bf16x2 FMA (4 flops each)", ck_hfma2_opts, ck_axes_hfma2,
           ck_hfma2_setup, ck_poison_out, ck_iters_launch, ck_hfma2_verify),
    CK_ROW("mma", "tensor-core mma.sync, fp32 accumulate, 4 accumulators per warp", ck_mma_opts, ck_axes_mma,
           ck_mma_setup, ck_poison_out, ck_iters_launch, ck_mma_verify),
    CK_ROW("wgmma", "tensor-core wgmma.mma_async m64n256k16 from shared memory, fp32 accumulate (sm_90a)",
           ck_wgmma_opts, ck_axes_wgmma, ck_wgmma_setup, ck_poison_out, ck_iters_launch, ck_wgmma_verify),
    CK_ROW("atomic_global", "global atomicAdd at one, 64 or distinct addresses (flops = atomic operations)",
           ck_atom_opts, ck_axes_atom_global, ck_atom_global_setup, ck_poison_out, ck_atom_launch,
           ck_atom_verify),
    CK_ROW("atomic_shared", "shared-memory atomicAdd at one or distinct addresses (flops = atomic operations)",
           ck_atom_opts, ck_axes_atom_shared, ck_atom_shared_setup, ck_poison_out, ck_atom_launch, ck_atom_verify),
    CK_ROW("latency", "one thread's chain of 2000 dependent loads past L1 (ld.global.cg) through L2 or DRAM: "
           "ns per load = the time over the metric loads", NULL, ck_axes_latency, ck_latency_setup,
           ck_latency_poison, ck_latency_launch, ck_latency_verify),
    CK_ROW("launch", "a launch of 1 to 1M blocks that each store one word: the fixed cost of a launch", NULL,
           ck_axes_launch, ck_launch_setup, ck_poison_out, ck_launch_launch, ck_launch_verify),
};

static const struct gb_chart_spec ck_charts[] = {
    {.name = "ceilings-l2",
     .title = "L2 bandwidth, working set in the L2",
     .kind = GB_CHART_BAR,
     .benches = "l2_read,l2_write",
     .x = "bench",
     .series = "width",
     .series_label = "{} B per thread",
     .y = "bw_gbs",
     .x_label = "kernel",
     .y_label = "bandwidth (GB/s, 1e9 bytes/s)",
     .refs = "DRAM theoretical peak=device:mem_peak_gbs"},
    {.name = "ceilings-smem",
     .title = "Shared-memory bandwidth, conflict-free",
     .kind = GB_CHART_BAR,
     .benches = "smem",
     .x = "width",
     .ys = "measured=bw_gbs;128 B per clock per SM=metric:guide_rate",
     .x_label = "bytes per lane per load",
     .y_label = "bandwidth (GB/s, 1e9 bytes/s)"},
    {.name = "ceilings-arith",
     .title = "16-bit FMA and tensor cores: measured and guide figures",
     .kind = GB_CHART_BAR,
     .benches = "hfma2,mma",
     .x = "type",
     .ys = "measured=gflops;guide or datasheet=metric:guide_rate",
     .x_label = "type",
     .y_label = "GFLOP/s",
     .log_y = 1},
    {.name = "ceilings-wgmma",
     .title = "Warpgroup MMA (wgmma m64n256k16), fp32 accumulate",
     .kind = GB_CHART_BAR,
     .benches = "wgmma",
     .x = "blocks_per_sm",
     .series = "type",
     .y = "gflops",
     .x_label = "warpgroups per SM",
     .y_label = "GFLOP/s"},
    {.name = "ceilings-atomics",
     .title = "Atomic adds per second",
     .kind = GB_CHART_BAR,
     .benches = "atomic_global,atomic_shared",
     .x = "addrs",
     .series = "bench",
     .y = "gflops",
     .x_label = "addresses",
     .y_label = "atomic operations (1e9 per s)",
     .log_y = 1},
    {.name = "ceilings-launch",
     .title = "Time of a launch that stores one word per block",
     .kind = GB_CHART_LINE,
     .benches = "launch",
     .x = "blocks",
     .y = "median_ns",
     .x_label = "blocks (32 threads)",
     .y_label = "kernel time (ns)",
     .log_x = 1,
     .log_y = 1},
};

/* What its findings (report.md) compare: each bench's configurations as one
 * set, by the rate of their work (GFLOP/s, else GB/s): its axes vary the
 * kernel (widths, loads, blocks per SM, types), and the work it counts
 * varies with them, so none of them is taken for a problem size. */
static const struct gb_findings_rule ck_findings = {.per_problem = 0};

const struct gb_suite gb_suite_ceilings = {
    .name = "ceilings",
    .help = "the roofs the other suites do not measure: L2 and shared-memory bandwidth, f16x2/bf16x2 FMA, "
            "tensor-core mma.sync and wgmma, global and shared atomics, and the fixed cost of a launch",
    .benches = ck_benches,
    .n_benches = (int)(sizeof ck_benches / sizeof ck_benches[0]),
    .charts = ck_charts,
    .n_charts = (int)(sizeof ck_charts / sizeof ck_charts[0]),
    .findings = &ck_findings,
};
