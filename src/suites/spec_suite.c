/* spec_suite.c - a parsed kernel spec as a heap suite: one gb_bench row per
 * bench of the spec (ctx = the parsed bench), its charts, its registration,
 * and the copy of the spec a run directory keeps. */
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gpubound/chart_spec.h"
#include "gpubound/occupancy.h"
#include "suites/spec_internal.h"
#include "util/fs.h"

/* The suite and what it owns; `suite` first, so that the registry's
 * pointer is the storage's. */
struct gb_spec_suite {
    struct gb_suite suite;
    struct gb_spec *spec;
    struct gb_bench *rows;
    struct gb_chart_spec *charts;
    char **strings;              /* the charts' strings */
    int n_strings, cap_strings;
};

/* Per-point state: what setup made. */
#define GB_SPEC_STATE(p) ((struct gb_spec_state *)(p)->state)

/* Axes and defines of a point, without the rest. */
static enum gb_status gb_scope_values(const struct gb_spec_bench *b, const struct gb_point *p, double *v)
{
    enum gb_status st = GB_OK;
    for (int a = 0; a < b->n_axes; a++)
        v[a] = (double)gb_point_int(p, b->axes[a].name);
    for (int i = 0; i < b->n_defines && st == GB_OK; i++)
        st = gb_expr_eval(b->defines[i].expr, v, &v[b->n_axes + i]);
    return st;
}

/* ---- the row's callbacks ---- */

static int gb_spec_kernel_opts(const struct gb_point *p, void *ctx, char opts[][GB_OPT_LEN], int max)
{
    const struct gb_spec_bench *b = ctx;
    struct gb_spec_values pv;
    memset(&pv, 0, sizeof pv);
    /* A define that cannot be evaluated is left out: the point's check says why. */
    if (gb_scope_values(b, p, pv.v) != GB_OK) {
        struct gb_spec_bench axes_only = *b;
        axes_only.n_defines = 0;
        return gb_spec_opts(&axes_only, &pv, 0, opts, max);
    }
    return gb_spec_opts(b, &pv, 0, opts, max);
}

static void gb_spec_fill_program(const struct gb_spec *spec, struct gb_nvrtc_program *prog)
{
    prog->name = spec->sources[0].name;
    prog->source = spec->sources[0].text;
    prog->n_headers = spec->n_headers;
    prog->header_names = spec->header_names;
    prog->header_sources = spec->header_texts;
    prog->user = 1;
}

static enum gb_status gb_spec_kernel_program(void *ctx, const char *const *opts, int n_opts,
                                             struct gb_nvrtc_program *prog, char exprs[][GB_KERNEL_NAME_LEN],
                                             int max)
{
    const struct gb_spec_bench *b = ctx;
    gb_spec_fill_program(b->spec, prog);
    prog->n_exprs = gb_spec_program_exprs(b, opts, n_opts, exprs, max);
    prog->exprs = (const char (*)[GB_KERNEL_NAME_LEN])exprs;
    if (prog->n_exprs == 0)
        return gb_error_set(GB_ERR_USAGE, "%s: benches[%d].kernel: \"%s\" cannot be evaluated for this point",
                            b->spec->file, b->index, b->launch.kernel.text);
    return GB_OK;
}

static int gb_spec_admit(const struct gb_point *p, void *ctx, char *why, size_t n)
{
    const struct gb_spec_bench *b = ctx;
    double v[GB_SPEC_MAX_NAMES] = {0}, x;
    /* A point whose defines fail is kept: its check says why, as an error. */
    if (gb_scope_values(b, p, v) != GB_OK)
        return 1;
    for (int i = 0; i < b->n_restrict; i++)
        if (gb_expr_eval(b->restrict_[i], v, &x) != GB_OK || x == 0 || isnan(x)) {
            snprintf(why, n, "restriction \"%s\" is false", gb_expr_text(b->restrict_[i]));
            return 0;
        }
    return 1;
}

static void gb_spec_teardown(struct gb_point *p, void *ctx)
{
    (void)ctx;
    struct gb_spec_state *s = GB_SPEC_STATE(p);
    if (!s)
        return;
    gb_spec_args_release(s);
    free(s);
    p->state = NULL;
}

/* The kernel's function (and the reference's, when it shares the module). */
static enum gb_status gb_spec_functions(const struct gb_spec_bench *b, struct gb_point *p, struct gb_spec_state *s)
{
    char opts[GB_SPEC_MAX_NAMES][GB_OPT_LEN], exprs[2][GB_KERNEL_NAME_LEN];
    const char *optp[GB_SPEC_MAX_NAMES];
    const char *const *lowered = NULL;
    struct gb_nvrtc_program prog;
    CUmodule m;
    enum gb_status st;
    int n = gb_spec_opts(b, &s->pv, 0, opts, GB_SPEC_MAX_NAMES);
    for (int i = 0; i < n; i++)
        optp[i] = opts[i];
    memset(&prog, 0, sizeof prog);
    /* The harness compiled this module already (gb_bench_module): a lookup in memory. */
    if ((st = gb_spec_kernel_program((void *)b, optp, n, &prog, exprs, 2)) != GB_OK ||
        (st = gb_gpu_module_program(p->gpu, &prog, optp, n, &m, &lowered)) != GB_OK ||
        (st = gb_gpu_function(m, lowered[0], &s->f)) != GB_OK)
        return st;
    if (prog.n_exprs > 1)
        st = gb_gpu_function(m, lowered[1], &s->ref_f);
    return st;
}

/* What the compiled kernel takes: registers, shared memory, occupancy; and
 * the bytes of its buffers (what a hot run can keep in L2). */
static enum gb_status gb_spec_metrics(struct gb_point *p, const struct gb_spec_bench *b,
                                      struct gb_spec_state *s)
{
    enum gb_status st = GB_OK;
    int regs = 0, smem = 0, max_dyn = 0;
    struct gb_occupancy_result occ;
    unsigned threads = s->pv.block[0] * s->pv.block[1] * s->pv.block[2];
    double blocks = (double)s->pv.grid[0] * s->pv.grid[1] * s->pv.grid[2];
    GB_CU_CHECK(st, gb_cu->cuFuncGetAttribute(&regs, CU_FUNC_ATTRIBUTE_NUM_REGS, s->f));
    GB_CU_CHECK(st, gb_cu->cuFuncGetAttribute(&smem, CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES, s->f));
    GB_CU_CHECK(st, gb_cu->cuFuncGetAttribute(&max_dyn, CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES, s->f));
    struct gb_occupancy_input in = {.threads_per_block = threads > 0 && threads <= INT_MAX ? (int)threads : 1,
                                    .regs_per_thread = regs,
                                    .static_smem_bytes = smem,
                                    .dyn_smem_bytes = (int)s->pv.smem,
                                    .carveout_pct = -1};
    in.max_dyn_smem_bytes = max_dyn; /* ISSUE14-ITEM5: the kernel's attribute, as the calculator takes it */
    double warps = NAN;
    if (threads > 0 && gb_occupancy_compute(&p->gpu->info, &in, &occ) == GB_OK)
        warps = occ.active_warps;
    if ((st = gb_point_metric(p, "regs", regs)) != GB_OK ||
        (st = gb_point_metric(p, "smem_static_bytes", smem)) != GB_OK ||
        (st = gb_point_metric(p, "smem_dynamic_bytes", s->pv.smem)) != GB_OK ||
        (st = gb_point_metric(p, "max_dynamic_smem_bytes", max_dyn)) != GB_OK ||
        (st = gb_point_metric(p, "active_warps_per_sm", warps)) != GB_OK ||
        (st = gb_point_metric(p, "block_threads", threads)) != GB_OK)
        goto out;
    if ((st = gb_point_metric(p, "grid_blocks", blocks)) != GB_OK)
        goto out;
    struct gb_spec_need need;   /* the problem's buffers, as the cache allocates them */
    gb_spec_need_of(b, &s->pv, &need);
    double buffers = 0;
    for (int i = 0; i < b->n_args; i++)
        buffers += need.buffer[i] ? (double)need.bytes[i] : 0;
    st = gb_point_metric(p, "buffer_bytes", buffers);
out:
    return st;
}

static enum gb_status gb_spec_setup(struct gb_point *p, void *ctx)
{
    struct gb_spec_bench *b = ctx;
    enum gb_status st;
    struct gb_spec_state *s = calloc(1, sizeof *s);
    if (!s)
        return gb_error_set(GB_ERR_NOMEM, "out of host memory");
    p->state = s;
    if ((st = gb_spec_point_values(b, p, &s->pv)) != GB_OK || (st = gb_spec_functions(b, p, s)) != GB_OK)
        return st;
    if (s->pv.max_smem >= 0)
        GB_CU_CHECK(st, gb_cu->cuFuncSetAttribute(s->f, CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES,
                                                  (int)s->pv.max_smem));
    if ((st = gb_spec_metrics(p, b, s)) != GB_OK || (st = gb_spec_args_setup(b, p, s)) != GB_OK ||
        (st = gb_spec_reference(b, p, s)) != GB_OK)
        goto out;
    p->bytes = s->pv.bytes;
    p->flops = s->pv.flops;
    st = gb_gpu_sync(p->gpu);
out:
    return st;
}

static enum gb_status gb_spec_poison(struct gb_point *p, void *ctx)
{
    return gb_spec_args_poison(ctx, p, GB_SPEC_STATE(p));
}

static enum gb_status gb_spec_launch(struct gb_point *p, void *ctx)
{
    (void)ctx;
    struct gb_spec_state *s = GB_SPEC_STATE(p);
    return gb_spec_launch_kernel(p, s, s->f, s->pv.grid, s->pv.block, s->pv.smem);
}

static enum gb_status gb_spec_verify(struct gb_point *p, void *ctx)
{
    return gb_spec_compare(ctx, p, GB_SPEC_STATE(p));
}

int gb_spec_bench_is(const struct gb_bench *b)
{
    return b && b->setup == gb_spec_setup;
}

/* ---- charts ---- */

static const char *gb_keep(struct gb_spec_suite *ss, char *s)
{
    if (!s)
        return NULL;
    if (ss->n_strings == ss->cap_strings) {
        int cap = ss->cap_strings ? 2 * ss->cap_strings : 32;
        char **v = realloc(ss->strings, (size_t)cap * sizeof *v);
        if (!v) {
            free(s);
            return NULL;
        }
        ss->strings = v;
        ss->cap_strings = cap;
    }
    return ss->strings[ss->n_strings++] = s;
}

static const char *gb_fmt(struct gb_spec_suite *ss, const char *fmt, const char *a, const char *b)
{
    size_t n = strlen(fmt) + strlen(a) + strlen(b) + 1;
    char *s = malloc(n);
    if (s)
        snprintf(s, n, fmt, a, b);
    return gb_keep(ss, s);
}

/* Whether an axis's default values span a factor of 8 or more (log scale). */
static int gb_axis_wide(const struct gb_axis_def *a)
{
    char **vals = NULL;
    int n = 0, wide = 0;
    long lo = LONG_MAX, hi = LONG_MIN, v;
    if (gb_axis_expand(a, a->values, &vals, &n) != GB_OK)
        return 0;
    for (int i = 0; i < n; i++) {
        if (gb_axis_parse_int(vals[i], &v) == GB_OK) {
            lo = v < lo ? v : lo;
            hi = v > hi ? v : hi;
        }
        free(vals[i]);
    }
    free(vals);
    wide = n > 2 && lo > 0 && hi >= 8 * lo;
    return wide;
}

/* One chart of bench b: y against its first axis, a line per value of its
 * second, a chart per combination of the others. */
static int gb_chart_of(struct gb_spec_suite *ss, const struct gb_spec_bench *b, struct gb_chart_spec *c,
                       const char *what, const char *y, const char *y_label)
{
    char split[512] = "";
    for (int a = 2; a < b->n_axes; a++)
        snprintf(split + strlen(split), sizeof split - strlen(split), "%s%s", a > 2 ? "," : "", b->axes[a].name);
    memset(c, 0, sizeof *c);
    c->name = gb_fmt(ss, "%s-%s", ss->spec->suite, b->name);
    c->name = c->name ? gb_fmt(ss, "%s-%s", c->name, what) : NULL;
    c->title = gb_fmt(ss, "%s/%s", ss->spec->suite, b->name);
    c->title = c->title ? gb_fmt(ss, "%s: %s", c->title, y_label) : NULL;
    c->kind = GB_CHART_LINE;
    c->benches = gb_keep(ss, strdup(b->name));
    c->split = split[0] ? gb_keep(ss, strdup(split)) : NULL;
    c->x = b->axes[0].name;
    c->series = b->n_axes > 1 ? b->axes[1].name : NULL;
    c->y = y;
    c->x_label = b->axes[0].name;
    c->y_label = y_label;
    c->log_x = gb_axis_wide(&b->axes[0]);
    c->log_y = strcmp(what, "time") == 0;
    c->table = 1;
    if (strcmp(what, "bw") == 0)
        c->refs = "theoretical peak=device:mem_peak_gbs";
    return c->name && c->title && c->benches && (!split[0] || c->split) ? 0 : -1;
}

static enum gb_status gb_spec_charts(struct gb_spec_suite *ss)
{
    const struct gb_spec *spec = ss->spec;
    int n = 0;
    if (!(ss->charts = calloc((size_t)spec->n_benches * 3, sizeof *ss->charts)))
        return gb_error_set(GB_ERR_NOMEM, "out of host memory");
    for (int i = 0; i < spec->n_benches; i++) {
        const struct gb_spec_bench *b = &spec->benches[i];
        if (gb_chart_of(ss, b, &ss->charts[n++], "time", "median_ns", "time per launch (ns)") ||
            (b->flops && gb_chart_of(ss, b, &ss->charts[n++], "gflops", "gflops", "GFLOP/s")) ||
            (b->bytes && gb_chart_of(ss, b, &ss->charts[n++], "bw", "bw_gbs", "throughput (GB/s)")))
            return gb_error_set(GB_ERR_NOMEM, "out of host memory");
    }
    ss->suite.charts = ss->charts;
    ss->suite.n_charts = n;
    return GB_OK;
}

/* ---- the suite ---- */

void gb_spec_suite_free(struct gb_suite *s)
{
    struct gb_spec_suite *ss = (struct gb_spec_suite *)s;
    if (!ss)
        return;
    gb_spec_free(ss->spec);
    free(ss->rows);
    free(ss->charts);
    for (int i = 0; i < ss->n_strings; i++)
        free(ss->strings[i]);
    free(ss->strings);
    free(ss);
}

static void gb_spec_row(const struct gb_spec *spec, struct gb_spec_bench *b, struct gb_bench *row)
{
    memset(row, 0, sizeof *row);
    row->name = b->name;
    row->help = b->help;
    row->kernel_source = spec->sources[0].text;
    row->kernel_name = spec->sources[0].name;
    row->kernel_opts = gb_spec_kernel_opts;
    row->kernel_program = gb_spec_kernel_program;
    row->axes = b->axes;
    row->n_axes = b->n_axes;
    row->cache = b->cache;
    row->setup = gb_spec_setup;
    row->poison = gb_spec_poison;
    row->launch = gb_spec_launch;
    row->verify = gb_spec_verify;
    row->teardown = gb_spec_teardown;
    row->admit = gb_spec_admit;
    row->timeout_s = b->timeout_s;
    row->ctx = b;
}

enum gb_status gb_spec_suite(struct gb_spec *spec, struct gb_suite **out)
{
    enum gb_status st;
    struct gb_spec_suite *ss = calloc(1, sizeof *ss);
    *out = NULL;
    if (!ss) {
        gb_spec_free(spec);
        return gb_error_set(GB_ERR_NOMEM, "out of host memory");
    }
    ss->spec = spec;
    spec->n_headers = 0;
    for (int i = 1; i < spec->n_sources; i++) {
        spec->header_names[spec->n_headers] = spec->sources[i].name;
        spec->header_texts[spec->n_headers++] = spec->sources[i].text;
    }
    if (!(ss->rows = calloc((size_t)spec->n_benches, sizeof *ss->rows))) {
        st = gb_error_set(GB_ERR_NOMEM, "out of host memory");
        goto out;
    }
    for (int i = 0; i < spec->n_benches; i++)
        gb_spec_row(spec, &spec->benches[i], &ss->rows[i]);
    ss->suite.name = spec->suite;
    ss->suite.help = spec->help;
    ss->suite.benches = ss->rows;
    ss->suite.n_benches = spec->n_benches;
    if ((st = gb_spec_charts(ss)) != GB_OK)
        goto out;
    *out = &ss->suite;
    ss = NULL;
out:
    gb_spec_suite_free(ss ? &ss->suite : NULL);
    return st;
}

const struct gb_spec *gb_spec_of_suite(const struct gb_suite *s)
{
    if (!s || s->n_benches < 1 || !gb_spec_bench_is(&s->benches[0]))
        return NULL;
    return ((const struct gb_spec_bench *)s->benches[0].ctx)->spec;
}

int gb_spec_is_path(const char *arg)
{
    size_t n = strlen(arg);
    FILE *f;
    if ((n >= 5 && strcmp(arg + n - 5, ".json") == 0) || strstr(arg, ".json/"))
        return 1;
    if (!strchr(arg, '/') || gb_is_dir(arg) || !(f = fopen(arg, "r")))
        return 0;
    fclose(f);
    return 1;
}

/* Whether two paths name the same file. */
static int gb_same_file(const char *a, const char *b)
{
    char *ra = realpath(a, NULL), *rb = realpath(b, NULL);
    int same = ra && rb && strcmp(ra, rb) == 0;
    free(ra);
    free(rb);
    return same;
}

enum gb_status gb_spec_register_path(const char *arg, char **selector)
{
    struct gb_spec *spec = NULL;
    struct gb_suite *suite = NULL;
    const char *bench = strstr(arg, ".json/");
    char *path = bench ? strndup(arg, (size_t)(bench - arg) + 5) : strdup(arg);
    enum gb_status st;
    *selector = NULL;
    if (!path)
        return gb_error_set(GB_ERR_NOMEM, "out of host memory");
    bench = bench ? bench + 6 : NULL;
    if ((st = gb_spec_load(path, &spec)) != GB_OK)
        goto out;
    const struct gb_suite *had = gb_suite_find(spec->suite);
    const struct gb_spec *had_spec = gb_spec_of_suite(had);
    if (had && !(had_spec && gb_same_file(had_spec->file, path))) {
        st = gb_error_set(GB_ERR_USAGE, "%s: suite: \"%s\" is the name of %s already; give the spec another name",
                          path, spec->suite, had_spec ? "another spec's suite" : "a built-in suite");
        goto out;
    }
    if (!had) {
        if ((st = gb_spec_suite(spec, &suite)) != GB_OK) {
            spec = NULL;
            goto out;
        }
        spec = NULL;
        if ((st = gb_suite_register(suite, gb_spec_suite_free)) != GB_OK)
            goto out;
        had = suite;
        suite = NULL;
    }
    size_t n = strlen(had->name) + (bench ? strlen(bench) + 1 : 0) + 1;
    if (!(*selector = malloc(n))) {
        st = gb_error_set(GB_ERR_NOMEM, "out of host memory");
        goto out;
    }
    snprintf(*selector, n, "%s%s%s", had->name, bench ? "/" : "", bench ? bench : "");
out:
    gb_spec_suite_free(suite);
    gb_spec_free(spec);
    free(path);
    return st;
}

/* ---- the copy a run keeps ---- */

static enum gb_status gb_copy_text(const char *dir, const char *name, const char *text)
{
    char path[GB_PATH_MAX];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    char *slash = strrchr(path, '/');
    enum gb_status st = GB_OK;
    if (slash) {
        *slash = '\0';
        st = gb_mkdir_p(path);
        *slash = '/';
    }
    return st == GB_OK ? gb_write_file_atomic(path, text, strlen(text)) : st;
}

enum gb_status gb_spec_save_copy(const struct gb_spec *s, const char *run_dir)
{
    char dir[GB_PATH_MAX];
    const char *base = strrchr(s->file, '/');
    enum gb_status st;
    snprintf(dir, sizeof dir, "%s/spec/%s", run_dir, s->suite);
    if ((st = gb_mkdir_p(dir)) != GB_OK || (st = gb_copy_text(dir, base ? base + 1 : s->file, s->text)) != GB_OK)
        return st;
    for (int i = 0; i < s->n_sources && st == GB_OK; i++)
        st = gb_copy_text(dir, s->sources[i].name, s->sources[i].text);
    return st;
}
