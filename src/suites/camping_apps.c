/* camping_apps.c - the validation applications of suite `camping`: the
 * CampProf paper's three applications rebuilt as kernels with known access
 * patterns (kernels/camping.cu): a GEM-like electrostatics kernel, a
 * clique-counter-like graph kernel, and the SDK's transposeCoalesced and
 * transposeDiagonal. Each runs at a pinned number of active warps per SM
 * over a fixed problem, is verified against a host reference (or an exact
 * invariant), and records its exact request counts.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "suites/camping_int.h"

const struct gb_axis_def camp_axes_app[1] = {
    {"warps", GB_AXIS_INT, "1:16,18:64:2", "4,32", 1, 64, NULL,
     "active warps per SM, pinned (1..the GPU's maximum; values no equal blocks realise are skipped)"},
};

struct camp_app {
    struct gb_camp_pin pin;
    unsigned grid, block;
    CUfunction f;
    CUdeviceptr in, in2, out, smid, scratch;
    int smid_on;
    unsigned seed;
    uint32_t n_surf, n_comp;      /* gem */
    float *h_surf, *h_comp;
    uint32_t n;                   /* clique: vertices; transpose: matrix side */
    uint32_t passes;              /* transpose: whole transposes per launch */
    uint32_t *h_row, *h_col, *h_ref;
    size_t m;
};

void camp_app_teardown(struct gb_point *p, void *ctx)
{
    (void)ctx;
    struct camp_app *s = p->state;
    if (!s)
        return;
    gb_gpu_free(p->gpu, s->in);
    gb_gpu_free(p->gpu, s->in2);
    gb_gpu_free(p->gpu, s->out);
    gb_gpu_free(p->gpu, s->smid);
    gb_gpu_free(p->gpu, s->scratch);
    free(s->h_surf);
    free(s->h_comp);
    free(s->h_row);
    free(s->h_col);
    free(s->h_ref);
    free(s);
    p->state = NULL;
}

/* Common set-up: the state, the kernel pinned at the point's warps, the SM
 * record and scratch. */
static enum gb_status camp_app_begin(struct gb_point *p, const char *kernel, struct camp_app **out)
{
    enum gb_status st;
    struct gb_gpu *g = p->gpu;
    struct camp_app *s = calloc(1, sizeof *s);
    *out = s;
    if (!s)
        return gb_error_set(GB_ERR_NOMEM, "out of host memory");
    p->state = s;
    s->seed = (unsigned)rand() | 1u;
    if ((st = gb_gpu_function(p->module, kernel, &s->f)) != GB_OK ||
        (st = camp_pin_point(p, s->f, (int)gb_point_int(p, "warps"), &s->pin)) != GB_OK)
        return st;
    s->grid = (unsigned)(g->info.sm_count * s->pin.blocks_per_sm);
    s->block = (unsigned)(s->pin.warps_per_block * g->info.warp_size);
    if ((st = gb_gpu_alloc(g, s->grid * 4, &s->smid)) != GB_OK || (st = gb_gpu_alloc(g, 64, &s->scratch)) != GB_OK)
        return st;
    s->smid_on = 1;
    return GB_OK;
}

static enum gb_status camp_app_counts(struct gb_point *p, const struct gb_camp_counts *c)
{
    p->bytes = 32.0 * (c->ld_sectors + c->st_sectors);
    return gb_camp_counts_record(c, p);
}

static enum gb_status camp_app_sms(struct gb_point *p)
{
    struct camp_app *s = p->state;
    enum gb_status st = camp_check_sms(p->gpu, s->smid, s->grid, s->pin.blocks_per_sm);
    s->smid_on = 0;
    return st;
}

static uint64_t camp_app_rng(uint64_t *x)
{
    *x ^= *x >> 12;
    *x ^= *x << 25;
    *x ^= *x >> 27;
    return *x * 0x2545F4914F6CDD1DULL;
}

/* A float in [lo, hi) from the generator. */
static float camp_app_unif(uint64_t *x, float lo, float hi)
{
    return lo + (hi - lo) * (float)((camp_app_rng(x) >> 40) * (1.0 / 16777216.0));
}

/* ---- gem ---- */

enum gb_status camp_gem_setup(struct gb_point *p, void *ctx)
{
    (void)ctx;
    struct camp_app *s;
    enum gb_status st = camp_app_begin(p, "camp_gem", &s);
    struct gb_gpu *g = p->gpu;
    if (st != GB_OK)
        return st;
    s->n_surf = p->quick ? 1u << 18 : 1u << 20;
    s->n_comp = p->quick ? 256 : 512;
    s->h_surf = malloc((size_t)s->n_surf * 4 * sizeof(float));
    s->h_comp = malloc((size_t)s->n_comp * 4 * sizeof(float));
    if (!s->h_surf || !s->h_comp)
        return gb_error_set(GB_ERR_NOMEM, "out of host memory");
    uint64_t x = (uint64_t)s->seed * 0x9E3779B97F4A7C15ULL | 1;
    for (uint32_t i = 0; i < s->n_surf; i++) {
        for (int k = 0; k < 3; k++)
            s->h_surf[4 * i + k] = camp_app_unif(&x, 0.0f, 1.0f);
        s->h_surf[4 * i + 3] = 0.0f;
    }
    for (uint32_t j = 0; j < s->n_comp; j++) {
        for (int k = 0; k < 3; k++)
            s->h_comp[4 * j + k] = camp_app_unif(&x, 0.0f, 1.0f);
        s->h_comp[4 * j + 3] = camp_app_unif(&x, 0.1f, 1.0f);
    }
    if ((st = gb_gpu_alloc(g, (size_t)s->n_surf * 16, &s->in)) != GB_OK ||
        (st = gb_gpu_alloc(g, (size_t)s->n_comp * 16, &s->in2)) != GB_OK ||
        (st = gb_gpu_alloc(g, (size_t)s->n_surf * 4, &s->out)) != GB_OK)
        return st;
    GB_CU_CHECK(st, gb_cu->cuMemcpyHtoD(s->in, s->h_surf, (size_t)s->n_surf * 16));
    GB_CU_CHECK(st, gb_cu->cuMemcpyHtoD(s->in2, s->h_comp, (size_t)s->n_comp * 16));
    struct gb_camp_counts c;
    memset(&c, 0, sizeof c);
    gb_camp_counts_gem(&c, s->n_surf, s->n_comp);
    p->flops = 10.0 * s->n_surf * (double)s->n_comp;
    st = camp_app_counts(p, &c);
out:
    return st;
}

enum gb_status camp_gem_poison(struct gb_point *p, void *ctx)
{
    (void)ctx;
    struct camp_app *s = p->state;
    return gb_gpu_fill_u32(p->gpu, s->out, s->n_surf, GB_POISON);
}

enum gb_status camp_gem_launch(struct gb_point *p, void *ctx)
{
    (void)ctx;
    struct camp_app *s = p->state;
    CUdeviceptr smid = s->smid_on ? s->smid : 0;
    void *args[] = {&s->in, &s->in2, &s->n_surf, &s->n_comp, &s->out, &smid};
    return gb_gpu_launch(p->gpu, s->f, s->grid, 1, 1, s->block, 1, 1, (unsigned)s->pin.dyn_smem_bytes, args);
}

enum gb_status camp_gem_verify(struct gb_point *p, void *ctx)
{
    (void)ctx;
    struct camp_app *s = p->state;
    enum gb_status st;
    float *phi = malloc((size_t)s->n_surf * sizeof *phi);
    if (!phi)
        return gb_error_set(GB_ERR_NOMEM, "out of host memory");
    if ((st = camp_app_sms(p)) != GB_OK)
        goto out;
    GB_CU_CHECK(st, gb_cu->cuMemcpyDtoH(phi, s->out, (size_t)s->n_surf * sizeof *phi));
    /* Every potential written; 4096 of them (spread over all, first and
     * last included) against a double-precision host reference. */
    for (uint32_t i = 0; i < s->n_surf; i++) {
        uint32_t w;
        memcpy(&w, &phi[i], sizeof w);
        if (w == GB_POISON) {
            st = gb_error_set(GB_ERR_VERIFY, "potential %u was not written", i);
            goto out;
        }
    }
    const uint32_t checks = 4096, step = s->n_surf / checks;
    for (uint32_t k = 0; k < checks; k++) {
        uint32_t i = k == checks - 1 ? s->n_surf - 1 : k * step + (k * 7919u) % step;
        double ref = 0;
        for (uint32_t j = 0; j < s->n_comp; j++) {
            double dx = (double)s->h_comp[4 * j] - s->h_surf[4 * i], dy = (double)s->h_comp[4 * j + 1] - s->h_surf[4 * i + 1],
                   dz = (double)s->h_comp[4 * j + 2] - s->h_surf[4 * i + 2];
            ref += s->h_comp[4 * j + 3] / sqrt(dx * dx + dy * dy + dz * dz + (double)1e-3f);
        }
        if (!(fabs(phi[i] - ref) <= 1e-4 * ref)) {
            st = gb_error_set(GB_ERR_VERIFY, "potential %u is %.9g, the host reference %.9g", i, (double)phi[i], ref);
            goto out;
        }
    }
out:
    free(phi);
    return st;
}

/* ---- clique ---- */

enum gb_status camp_clique_setup(struct gb_point *p, void *ctx)
{
    (void)ctx;
    struct camp_app *s;
    enum gb_status st = camp_app_begin(p, "camp_clique", &s);
    struct gb_gpu *g = p->gpu;
    if (st != GB_OK)
        return st;
    s->n = p->quick ? 1u << 15 : 1u << 17;
    if ((st = gb_camp_graph_make(s->n, s->seed, &s->h_row, &s->h_col, &s->m)) != GB_OK)
        return st;
    if (!(s->h_ref = malloc((size_t)s->n * sizeof *s->h_ref)))
        return gb_error_set(GB_ERR_NOMEM, "out of host memory");
    gb_camp_clique_ref(s->h_row, s->h_col, s->n, s->h_ref);
    uint64_t total = 0;
    for (uint32_t v = 0; v < s->n; v++)
        total += s->h_ref[v];
    if (!total)
        return gb_error_set(GB_ERR_UNSUPPORTED, "camping: the clique graph has no 3-clique to count");
    if ((st = gb_gpu_alloc(g, ((size_t)s->n + 1) * 4, &s->in)) != GB_OK ||
        (st = gb_gpu_alloc(g, s->m * 4, &s->in2)) != GB_OK || (st = gb_gpu_alloc(g, (size_t)s->n * 4, &s->out)) != GB_OK)
        return st;
    GB_CU_CHECK(st, gb_cu->cuMemcpyHtoD(s->in, s->h_row, ((size_t)s->n + 1) * 4));
    GB_CU_CHECK(st, gb_cu->cuMemcpyHtoD(s->in2, s->h_col, s->m * 4));
    struct gb_camp_counts c;
    memset(&c, 0, sizeof c);
    gb_camp_counts_clique(&c, s->h_row, s->h_col, s->n);
    st = camp_app_counts(p, &c);
out:
    return st;
}

enum gb_status camp_clique_poison(struct gb_point *p, void *ctx)
{
    (void)ctx;
    struct camp_app *s = p->state;
    return gb_gpu_fill_u32(p->gpu, s->out, s->n, GB_POISON);
}

enum gb_status camp_clique_launch(struct gb_point *p, void *ctx)
{
    (void)ctx;
    struct camp_app *s = p->state;
    CUdeviceptr smid = s->smid_on ? s->smid : 0;
    void *args[] = {&s->in, &s->in2, &s->n, &s->out, &smid};
    return gb_gpu_launch(p->gpu, s->f, s->grid, 1, 1, s->block, 1, 1, (unsigned)s->pin.dyn_smem_bytes, args);
}

enum gb_status camp_clique_verify(struct gb_point *p, void *ctx)
{
    (void)ctx;
    struct camp_app *s = p->state;
    enum gb_status st;
    uint32_t *got = malloc((size_t)s->n * sizeof *got);
    if (!got)
        return gb_error_set(GB_ERR_NOMEM, "out of host memory");
    if ((st = camp_app_sms(p)) != GB_OK)
        goto out;
    GB_CU_CHECK(st, gb_cu->cuMemcpyDtoH(got, s->out, (size_t)s->n * sizeof *got));
    for (uint32_t v = 0; v < s->n; v++)
        if (got[v] != s->h_ref[v]) {
            st = gb_error_set(GB_ERR_VERIFY, "vertex %u: %u 3-cliques counted, the host reference has %u", v,
                              got[v], s->h_ref[v]);
            goto out;
        }
out:
    free(got);
    return st;
}

/* ---- transpose ---- */

enum gb_status camp_transpose_setup(struct gb_point *p, void *ctx)
{
    (void)ctx;
    struct camp_app *s;
    int diag = strcmp(p->bench->name, "transpose_diagonal") == 0;
    enum gb_status st = camp_app_begin(p, diag ? "camp_transpose_diagonal" : "camp_transpose_coalesced", &s);
    struct gb_gpu *g = p->gpu;
    if (st != GB_OK)
        return st;
    /* Both matrices together well inside the L2 (19 MB; --quick 8 MB), as
     * the slice-level micro-benchmarks are. */
    s->n = p->quick ? 1024 : 1536;
    s->passes = p->quick ? 8 : 16;
    size_t bytes = (size_t)s->n * s->n * 4;
    if ((st = gb_gpu_alloc(g, bytes, &s->in)) != GB_OK || (st = gb_gpu_alloc(g, bytes, &s->out)) != GB_OK ||
        (st = gb_gpu_fill_random(g, s->in, bytes / 4, s->seed)) != GB_OK)
        return st;
    struct gb_camp_counts c;
    memset(&c, 0, sizeof c);
    gb_camp_counts_transpose(&c, s->n, s->passes);
    if ((st = camp_app_counts(p, &c)) != GB_OK)
        return st;
    return gb_gpu_sync(g);
}

enum gb_status camp_transpose_poison(struct gb_point *p, void *ctx)
{
    (void)ctx;
    struct camp_app *s = p->state;
    return gb_gpu_fill_u32(p->gpu, s->out, (size_t)s->n * s->n, GB_POISON);
}

enum gb_status camp_transpose_launch(struct gb_point *p, void *ctx)
{
    (void)ctx;
    struct camp_app *s = p->state;
    CUdeviceptr smid = s->smid_on ? s->smid : 0;
    void *args[] = {&s->in, &s->out, &s->n, &s->passes, &smid};
    return gb_gpu_launch(p->gpu, s->f, s->grid, 1, 1, s->block, 1, 1, (unsigned)s->pin.dyn_smem_bytes, args);
}

enum gb_status camp_transpose_verify(struct gb_point *p, void *ctx)
{
    (void)ctx;
    struct camp_app *s = p->state;
    struct gb_gpu *g = p->gpu;
    enum gb_status st;
    unsigned long long bad = 0;
    uint64_t changed = 0;
    CUfunction chk;
    void *args[] = {&s->in, &s->out, &s->n, &s->scratch};
    if ((st = camp_app_sms(p)) != GB_OK)
        return st;
    GB_CU_CHECK(st, gb_cu->cuMemsetD32Async(s->scratch, 0, 2, g->stream));
    if ((st = gb_gpu_function(p->module, "camp_check_transpose", &chk)) != GB_OK ||
        (st = gb_gpu_launch(g, chk, (unsigned)g->info.sm_count * 8, 1, 1, 256, 1, 1, 0, args)) != GB_OK ||
        (st = gb_gpu_sync(g)) != GB_OK)
        goto out;
    GB_CU_CHECK(st, gb_cu->cuMemcpyDtoH(&bad, s->scratch, sizeof bad));
    if (bad) {
        st = gb_error_set(GB_ERR_VERIFY, "%llu of %llu elements are not the transpose of the input", bad,
                          (unsigned long long)s->n * s->n);
        goto out;
    }
    /* The input must be untouched (the check above compares against it). */
    if ((st = gb_gpu_count_diff_fill(g, s->in, (size_t)s->n * s->n, s->seed, &changed)) != GB_OK)
        goto out;
    if (changed)
        st = gb_error_set(GB_ERR_VERIFY, "%llu elements of the input changed", (unsigned long long)changed);
out:
    return st;
}
