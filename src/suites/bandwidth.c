/* bandwidth.c - suite `bandwidth`: how fast device memory streams.
 *
 * Read, write and copy kernels at 4, 8 and 16 bytes per thread access over
 * a buffer many times the L2, and the driver's device-to-device copy as the
 * reference. Bytes are those the kernel must move: the buffer once for read
 * and write, twice (read + write) for copies, plus the read kernel's
 * per-thread checksums.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gpubound/chart_spec.h"
#include "suites/suites.h"

struct bw_state {
    CUdeviceptr a, b, sums;
    size_t bytes;              /* size of one buffer */
    size_t n_sums;             /* read: checksums written */
    unsigned grid, block;
    unsigned seed;
    CUfunction f, check;
};

static const struct gb_axis_def bw_axes_width[] = {
    {"width", GB_AXIS_INT, "4,8,16", NULL, 4, 16, NULL, "bytes each thread moves per access (4, 8, 16)"},
    {"grid", GB_AXIS_STR, "stride,flat", NULL, 0, 0, "stride,flat",
     "stride: persistent grid, grid-stride loop, 4 accesses in flight; flat: one access per thread"},
    {"bytes", GB_AXIS_INT, "2G", "256M", 1 << 20, 1L << 40, NULL, "size of each buffer in bytes (binary K/M/G or KiB/MiB/GiB: 1K = 1024)"},
};
static const struct gb_axis_def bw_axes_dtod[] = {
    {"bytes", GB_AXIS_INT, "2G", "256M", 1 << 20, 1L << 40, NULL, "size of each buffer in bytes (binary K/M/G or KiB/MiB/GiB: 1K = 1024)"},
};

static int bw_opts(const struct gb_point *p, void *ctx, char opts[][GB_OPT_LEN], int max)
{
    (void)ctx;
    (void)max;
    snprintf(opts[0], GB_OPT_LEN, "-DWIDTH=%ld", gb_point_int(p, "width"));
    snprintf(opts[1], GB_OPT_LEN, "-DFLAT=%d", strcmp(gb_point_str(p, "grid"), "flat") == 0);
    return 2;
}

static void bw_teardown(struct gb_point *p, void *ctx)
{
    (void)ctx;
    struct bw_state *s = p->state;
    if (!s)
        return;
    gb_gpu_free(p->gpu, s->a);
    gb_gpu_free(p->gpu, s->b);
    gb_gpu_free(p->gpu, s->sums);
    free(s);
    p->state = NULL;
}

/* Common set-up: buffers, fresh input, launch shape. `nbuf` buffers of `bytes`. */
static enum gb_status bw_setup_common(struct gb_point *p, int nbuf, const char *kernel)
{
    enum gb_status st;
    struct bw_state *s = calloc(1, sizeof *s);
    struct gb_gpu *g = p->gpu;
    long width = gb_point_int(p, "width");
    if (!s)
        return gb_error_set(GB_ERR_NOMEM, "out of host memory");
    p->state = s;
    s->bytes = (size_t)gb_point_int(p, "bytes");
    if (width && (width != 4 && width != 8 && width != 16))
        return gb_error_set(GB_ERR_UNSUPPORTED, "width %ld is not 4, 8 or 16", width);
    if (s->bytes % 64)
        return gb_error_set(GB_ERR_UNSUPPORTED, "bytes must be a multiple of 64");
    s->seed = (unsigned)rand() | 1u;
    if ((st = gb_gpu_alloc(g, s->bytes, &s->a)) != GB_OK)
        return st;
    if (nbuf > 1 && (st = gb_gpu_alloc(g, s->bytes, &s->b)) != GB_OK)
        return st;
    if ((st = gb_gpu_fill_random(g, s->a, s->bytes / 4, s->seed)) != GB_OK)
        return st;
    if (strcmp(gb_point_str(p, "grid"), "flat") == 0) {
        /* One access per thread: blocks of 128 cover the buffer once. */
        unsigned long long n = s->bytes / (unsigned long long)width;
        s->block = 128;
        if ((n + s->block - 1) / s->block > (unsigned long long)g->info.max_grid_dim[0])
            return gb_error_set(GB_ERR_UNSUPPORTED, "buffer too large for a flat grid");
        s->grid = (unsigned)((n + s->block - 1) / s->block);
    } else {
        /* As many threads as the device holds at once; grid-stride loops do the rest. */
        s->block = 256;
        s->grid = (unsigned)(g->info.sm_count * (g->info.max_threads_per_sm / (int)s->block));
    }
    if (kernel) {
        if ((st = gb_gpu_function(p->module, kernel, &s->f)) != GB_OK)
            return st;
    }
    return gb_gpu_sync(g);
}

static unsigned long long bw_elems(const struct gb_point *p)
{
    const struct bw_state *s = p->state;
    return s->bytes / (unsigned long long)gb_point_int(p, "width");
}

/* ---- read ---- */

static enum gb_status bw_read_setup(struct gb_point *p, void *ctx)
{
    (void)ctx;
    enum gb_status st = bw_setup_common(p, 1, "bw_read");
    struct bw_state *s = p->state;
    if (st != GB_OK)
        return st;
    /* Checksums: one per thread (stride) or one per block (flat). */
    s->n_sums = strcmp(gb_point_str(p, "grid"), "flat") == 0 ? s->grid : (size_t)s->grid * s->block;
    size_t sums = s->n_sums * 8;
    if ((st = gb_gpu_alloc(p->gpu, sums, &s->sums)) != GB_OK)
        return st;
    p->bytes = (double)s->bytes + (double)sums;
    return GB_OK;
}

static enum gb_status bw_read_poison(struct gb_point *p, void *ctx)
{
    (void)ctx;
    struct bw_state *s = p->state;
    return gb_gpu_fill_u32(p->gpu, s->sums, s->n_sums * 2, GB_POISON);
}

static enum gb_status bw_read_launch(struct gb_point *p, void *ctx)
{
    (void)ctx;
    struct bw_state *s = p->state;
    unsigned long long n = bw_elems(p);
    void *args[] = {&s->a, &n, &s->sums};
    return gb_gpu_launch(p->gpu, s->f, s->grid, 1, 1, s->block, 1, 1, 0, args);
}

static enum gb_status bw_read_verify(struct gb_point *p, void *ctx)
{
    (void)ctx;
    struct bw_state *s = p->state;
    size_t n = s->n_sums;
    uint64_t *h = malloc(n * sizeof *h), got = 0, want = 0;
    enum gb_status st = GB_OK;
    if (!h)
        return gb_error_set(GB_ERR_NOMEM, "out of host memory");
    GB_CU_CHECK(st, gb_cu->cuMemcpyDtoH(h, s->sums, n * sizeof *h));
    for (size_t i = 0; i < n; i++)
        got += h[i];
    if ((st = gb_gpu_sum_u32(p->gpu, s->a, s->bytes / 4, &want)) != GB_OK)
        goto out;
    if (got != want)
        st = gb_error_set(GB_ERR_VERIFY, "read checksum %llu differs from the reference sum %llu",
                          (unsigned long long)got, (unsigned long long)want);
out:
    free(h);
    return st;
}

/* ---- write ---- */

static enum gb_status bw_write_setup(struct gb_point *p, void *ctx)
{
    (void)ctx;
    enum gb_status st = bw_setup_common(p, 1, "bw_write");
    struct bw_state *s = p->state;
    if (st != GB_OK)
        return st;
    if ((st = gb_gpu_alloc(p->gpu, 8, &s->sums)) != GB_OK)
        return st;
    p->bytes = (double)s->bytes;
    return gb_gpu_function(p->module, "bw_check_write", &s->check);
}

static enum gb_status bw_write_poison(struct gb_point *p, void *ctx)
{
    (void)ctx;
    struct bw_state *s = p->state;
    return gb_gpu_fill_u32(p->gpu, s->a, s->bytes / 4, GB_POISON);
}

static enum gb_status bw_write_launch(struct gb_point *p, void *ctx)
{
    (void)ctx;
    struct bw_state *s = p->state;
    unsigned long long n = bw_elems(p);
    void *args[] = {&s->a, &n, &s->seed};
    return gb_gpu_launch(p->gpu, s->f, s->grid, 1, 1, s->block, 1, 1, 0, args);
}

static enum gb_status bw_write_verify(struct gb_point *p, void *ctx)
{
    (void)ctx;
    struct bw_state *s = p->state;
    unsigned long long n = bw_elems(p), bad = 0;
    enum gb_status st = GB_OK;
    void *args[] = {&s->a, &n, &s->seed, &s->sums};
    GB_CU_CHECK(st, gb_cu->cuMemsetD32Async(s->sums, 0, 2, p->gpu->stream));
    if ((st = gb_gpu_launch(p->gpu, s->check, s->grid, 1, 1, s->block, 1, 1, 0, args)) != GB_OK ||
        (st = gb_gpu_sync(p->gpu)) != GB_OK)
        goto out;
    GB_CU_CHECK(st, gb_cu->cuMemcpyDtoH(&bad, s->sums, sizeof bad));
    if (bad)
        st = gb_error_set(GB_ERR_VERIFY, "%llu of %llu written words are wrong", bad,
                          (unsigned long long)(s->bytes / 4));
out:
    return st;
}

/* ---- copy (kernel and driver) ---- */

static enum gb_status bw_copy_setup(struct gb_point *p, void *ctx)
{
    (void)ctx;
    enum gb_status st = bw_setup_common(p, 2, p->module ? "bw_copy" : NULL);
    struct bw_state *s = p->state;
    if (st != GB_OK)
        return st;
    p->bytes = 2.0 * (double)s->bytes;
    return GB_OK;
}

static enum gb_status bw_copy_poison(struct gb_point *p, void *ctx)
{
    (void)ctx;
    struct bw_state *s = p->state;
    return gb_gpu_fill_u32(p->gpu, s->b, s->bytes / 4, GB_POISON);
}

static enum gb_status bw_copy_launch(struct gb_point *p, void *ctx)
{
    (void)ctx;
    struct bw_state *s = p->state;
    unsigned long long n = bw_elems(p);
    void *args[] = {&s->a, &s->b, &n};
    return gb_gpu_launch(p->gpu, s->f, s->grid, 1, 1, s->block, 1, 1, 0, args);
}

static enum gb_status bw_dtod_launch(struct gb_point *p, void *ctx)
{
    (void)ctx;
    struct bw_state *s = p->state;
    enum gb_status st = GB_OK;
    GB_CU_CHECK(st, gb_cu->cuMemcpyDtoDAsync(s->b, s->a, s->bytes, p->gpu->stream));
out:
    return st;
}

static enum gb_status bw_copy_verify(struct gb_point *p, void *ctx)
{
    (void)ctx;
    struct bw_state *s = p->state;
    uint64_t bad = 0;
    enum gb_status st = gb_gpu_count_diff(p->gpu, s->a, s->b, s->bytes / 4, &bad);
    if (st == GB_OK && bad)
        st = gb_error_set(GB_ERR_VERIFY, "%llu of %llu copied words differ from the source",
                          (unsigned long long)bad, (unsigned long long)(s->bytes / 4));
    return st;
}

static const struct gb_bench bw_benches[] = {
    {.name = "read",
     .help = "stream a buffer into per-thread checksums",
     .kernel_file = "bandwidth.cu",
     .kernel_opts = bw_opts,
     .axes = bw_axes_width,
     .n_axes = 3,
     .cache = GB_CACHE_HOT,
     .setup = bw_read_setup,
     .poison = bw_read_poison,
     .launch = bw_read_launch,
     .verify = bw_read_verify,
     .teardown = bw_teardown},
    {.name = "write",
     .help = "stream a pattern into a buffer",
     .kernel_file = "bandwidth.cu",
     .kernel_opts = bw_opts,
     .axes = bw_axes_width,
     .n_axes = 3,
     .cache = GB_CACHE_HOT,
     .setup = bw_write_setup,
     .poison = bw_write_poison,
     .launch = bw_write_launch,
     .verify = bw_write_verify,
     .teardown = bw_teardown},
    {.name = "copy",
     .help = "copy one buffer into another with a kernel",
     .kernel_file = "bandwidth.cu",
     .kernel_opts = bw_opts,
     .axes = bw_axes_width,
     .n_axes = 3,
     .cache = GB_CACHE_HOT,
     .setup = bw_copy_setup,
     .poison = bw_copy_poison,
     .launch = bw_copy_launch,
     .verify = bw_copy_verify,
     .teardown = bw_teardown},
    {.name = "dtod",
     .help = "the driver's device-to-device copy (cuMemcpyDtoDAsync), the reference",
     .axes = bw_axes_dtod,
     .n_axes = 1,
     .cache = GB_CACHE_HOT,
     .setup = bw_copy_setup,
     .poison = bw_copy_poison,
     .launch = bw_dtod_launch,
     .verify = bw_copy_verify,
     .teardown = bw_teardown},
};

/* One bar chart per grid shape: kernels along x, one bar per access width. */
#define BW_CHART(stem, shape, what)                                                        \
    {.name = stem,                                                                          \
     .title = "Device memory bandwidth: " what,                                             \
     .kind = GB_CHART_BAR,                                                                  \
     .benches = "read,write,copy",                                                          \
     .where = "grid=" shape,                                                                \
     .x = "bench",                                                                          \
     .series = "width",                                                                     \
     .series_label = "{} B per thread",                                                     \
     .y = "bw_gbs",                                                                         \
     .x_label = "kernel",                                                                   \
     .y_label = "bandwidth (GB/s, 1e9 bytes/s)",                                            \
     .refs = "theoretical peak=device:mem_peak_gbs;driver copy=bench:dtod"}

static const struct gb_chart_spec bw_charts[] = {
    BW_CHART("bandwidth-stride", "stride", "persistent grid-stride kernels"),
    BW_CHART("bandwidth-flat", "flat", "one access per thread"),
};

/* What its findings (report.md) compare: the highest bandwidth against the peak, then each bench by GB/s. */
static const struct gb_findings_rule bw_findings = {.peak = 1};

const struct gb_suite gb_suite_bandwidth = {
    .name = "bandwidth",
    .help = "streaming read/write/copy bandwidth of device memory against the theoretical peak and the driver's copy",
    .benches = bw_benches,
    .n_benches = (int)(sizeof bw_benches / sizeof bw_benches[0]),
    .charts = bw_charts,
    .n_charts = (int)(sizeof bw_charts / sizeof bw_charts[0]),
    .findings = &bw_findings,
};
