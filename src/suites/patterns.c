/* patterns.c - suite `patterns`: eight patterns of inefficient behaviour
 * (Eschweiler, Becker and Wolf, "Patterns of inefficient performance
 * behavior in GPU applications"), each a benchmark with a `variant` axis:
 * `original` shows the inefficiency, `revised` removes it. Both variants of
 * a pattern compute the same result: every verification run checks the
 * measured variant against a host reference, then runs the other variant on
 * the same input and requires the two outputs to be equal word for word.
 * The kernels are in kernels/patterns.cu; docs/suites.md says what each
 * pattern asks and which choices the paper left open.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gpubound/occupancy.h"
#include "gpubound/chart_spec.h"
#include "suites/gf256.h"
#include "suites/suites.h"

#define PT_FILE "patterns.cu"

/* Kernel constants the host must agree with (kernels/patterns.cu). */
#define RS_N 1024
#define RS_K 32
#define RS_NPAR 8
#define RS_BLOCK 256
#define GM_BLOCK 256
#define CO_BLOCK 256
#define CO_TILE 16384
#define RI_BLOCK 512
#define RI_TAB_WORDS (1u << 20)
#define BD_D 16
#define BD_Q 128
#define BD_BLOCK 256

/* Everything a pattern's point holds; each bench uses what it needs. */
struct pt_state {
    unsigned seed;
    int revised;
    CUfunction f[2];           /* [0] the measured variant, [1] the other one */
    /* Launches variant k (0 the measured, 1 the other) into out[k]. */
    enum gb_status (*launch_k)(struct gb_point *p, int k);
    CUdeviceptr in[4];
    CUdeviceptr out[2];        /* out[0] for the measured variant, out[1] for the other */
    size_t out_words;          /* 32-bit words of one output */
    unsigned long long n;      /* elements, codewords, items or threads */
    unsigned grid, block;
    unsigned ways, pad;        /* bank conflicts */
    /* host copies of inputs, for the reference */
    float *ha, *hb;
    double *hxd, *hqd;
    float *hxf, *hqf;
    /* scattered host copy */
    void *host;
    int pinned;
    size_t bytes, chunk;
    unsigned chunks;
    /* register imbalance */
    unsigned iters;
    CUdeviceptr probe;
    int ri_state, ri_inreg;
};

static int pt_is_revised(const struct gb_point *p)
{
    return strcmp(gb_point_str(p, "variant"), "revised") == 0;
}

static void pt_teardown(struct gb_point *p, void *ctx)
{
    (void)ctx;
    struct pt_state *s = p->state;
    if (!s)
        return;
    for (int i = 0; i < 4; i++)
        gb_gpu_free(p->gpu, s->in[i]);
    gb_gpu_free(p->gpu, s->out[0]);
    gb_gpu_free(p->gpu, s->out[1]);
    gb_gpu_free(p->gpu, s->probe);
    free(s->ha);
    free(s->hb);
    free(s->hxf);
    free(s->hqf);
    free(s->hxd);
    free(s->hqd);
    if (s->host) {
        if (s->pinned)
            gb_cu->cuMemFreeHost(s->host);
        else
            free(s->host);
    }
    free(s);
    p->state = NULL;
}

static enum gb_status pt_new(struct gb_point *p, enum gb_status (*launch_k)(struct gb_point *p, int k),
                             struct pt_state **out)
{
    struct pt_state *s = calloc(1, sizeof *s);
    if (!s)
        return gb_error_set(GB_ERR_NOMEM, "out of host memory");
    p->state = s;
    s->seed = (unsigned)rand() | 1u;
    s->revised = pt_is_revised(p);
    s->launch_k = launch_k;
    *out = s;
    return GB_OK;
}

/* The entry points of the measured variant (f[0]) and of the other (f[1]). */
static enum gb_status pt_functions(struct gb_point *p, CUmodule other, const char *original,
                                   const char *revised)
{
    struct pt_state *s = p->state;
    enum gb_status st;
    if ((st = gb_gpu_function(p->module, s->revised ? revised : original, &s->f[0])) != GB_OK)
        return st;
    return gb_gpu_function(other ? other : p->module, s->revised ? original : revised, &s->f[1]);
}

static enum gb_status pt_poison(struct gb_point *p, void *ctx)
{
    (void)ctx;
    struct pt_state *s = p->state;
    return gb_gpu_fill_u32(p->gpu, s->out[0], s->out_words, GB_POISON);
}

/* Allocates out[0] and out[1], of out_words 32-bit words each. */
static enum gb_status pt_alloc_outputs(struct gb_point *p)
{
    struct pt_state *s = p->state;
    enum gb_status st = gb_gpu_alloc(p->gpu, s->out_words * 4, &s->out[0]);
    if (st == GB_OK)
        st = gb_gpu_alloc(p->gpu, s->out_words * 4, &s->out[1]);
    return st;
}

/* A new device buffer holding a copy of `bytes` bytes of host memory. */
static enum gb_status pt_upload(struct gb_gpu *g, const void *h, size_t bytes, CUdeviceptr *d)
{
    enum gb_status st = gb_gpu_alloc(g, bytes, d);
    if (st != GB_OK)
        return st;
    GB_CU_CHECK(st, gb_cu->cuMemcpyHtoD(*d, h, bytes));
out:
    return st;
}

/* Launches variant k on the point's one-dimensional grid. */
static enum gb_status pt_launch_grid(struct gb_point *p, int k, void **args)
{
    struct pt_state *s = p->state;
    return gb_gpu_launch(p->gpu, s->f[k], s->grid, 1, 1, s->block, 1, 1, 0, args);
}

/* The timed launch: the measured variant into out[0]. */
static enum gb_status pt_launch(struct gb_point *p, void *ctx)
{
    (void)ctx;
    struct pt_state *s = p->state;
    return s->launch_k(p, 0);
}

/* Runs the other variant into out[1] (poisoned first) and requires its output
 * to equal the measured variant's, word for word. */
static enum gb_status pt_cross_check(struct gb_point *p)
{
    struct pt_state *s = p->state;
    uint64_t bad = 0;
    enum gb_status st;
    if ((st = gb_gpu_fill_u32(p->gpu, s->out[1], s->out_words, GB_POISON)) != GB_OK ||
        (st = s->launch_k(p, 1)) != GB_OK || (st = gb_gpu_sync(p->gpu)) != GB_OK ||
        (st = gb_gpu_count_diff(p->gpu, s->out[0], s->out[1], s->out_words, &bad)) != GB_OK)
        return st;
    if (bad)
        return gb_error_set(GB_ERR_VERIFY, "the %s variant's output differs from this one's in %llu of %zu words",
                            s->revised ? "original" : "revised", (unsigned long long)bad, s->out_words);
    return GB_OK;
}

/* Requires out[0] to hold the fill words of the point's seed (the input of a
 * copy), then cross-checks; `what` ends the message of a mismatch. */
static enum gb_status pt_verify_fill(struct gb_point *p, const char *what)
{
    struct pt_state *s = p->state;
    uint64_t bad = 0;
    enum gb_status st = gb_gpu_count_diff_fill(p->gpu, s->out[0], s->out_words, s->seed, &bad);
    if (st != GB_OK)
        return st;
    if (bad)
        return gb_error_set(GB_ERR_VERIFY, "%llu of %zu %s", (unsigned long long)bad, s->out_words, what);
    return pt_cross_check(p);
}

/* Copies `bytes` bytes of device memory to a new host buffer. */
static enum gb_status pt_fetch(CUdeviceptr d, size_t bytes, void **out)
{
    enum gb_status st = GB_OK;
    void *h = malloc(bytes ? bytes : 1);
    *out = NULL;
    if (!h)
        return gb_error_set(GB_ERR_NOMEM, "out of host memory (%zu bytes)", bytes);
    GB_CU_CHECK(st, gb_cu->cuMemcpyDtoH(h, d, bytes));
    *out = h;
    return GB_OK;
out:
    free(h);
    return st;
}

/* A float in [1, 2) and one in [-1, 1) from a fill word: never zero, never special. */
static float pt_unit_float(uint32_t w)
{
    union { uint32_t u; float f; } v = {0x3f800000u | (w >> 9)};
    return v.f;
}

static double pt_signed_double(uint32_t hi, uint32_t lo)
{
    double u = ((double)(hi >> 5) * 67108864.0 + (double)(lo >> 6)) / 9007199254740992.0;
    return 2.0 * u - 1.0;
}

/* ========================================================================
 * Reed-Solomon: bank conflicts and wait at barrier
 * ======================================================================== */

struct rs_code {
    unsigned char alpha[255];            /* alpha^i */
    unsigned char logp[RS_K][RS_NPAR];   /* log of the parity matrix; 255 = zero */
    unsigned char mulg[RS_NPAR][256];    /* x * g_j for the host's LFSR encoder */
};

/* The systematic encoder: parity r(x) = m(x) x^NPAR mod g(x), g(x) = prod
 * (x - alpha^i), i < NPAR; m_0 is the highest-degree message symbol. */
static void rs_lfsr(const struct rs_code *c, const unsigned char *m, unsigned char *r)
{
    memset(r, 0, RS_NPAR);
    for (int k = 0; k < RS_K; k++) {
        unsigned fb = m[k] ^ r[RS_NPAR - 1];
        for (int j = RS_NPAR - 1; j > 0; j--)
            r[j] = (unsigned char)(r[j - 1] ^ c->mulg[j][fb]);
        r[0] = c->mulg[0][fb];
    }
}

static void rs_code_init(struct rs_code *c)
{
    unsigned char log[256], g[RS_NPAR + 1];
    unsigned v = 1;
    memset(log, 0, sizeof log);
    for (int i = 0; i < 255; i++) {
        c->alpha[i] = (unsigned char)v;
        log[v] = (unsigned char)i;
        v = gb_gf_xtime(v);
    }
    /* g(x) = prod_{i<NPAR} (x + alpha^i), coefficients g[0..NPAR], g[NPAR] = 1. */
    memset(g, 0, sizeof g);
    g[0] = 1;
    for (int i = 0; i < RS_NPAR; i++) {
        for (int j = i + 1; j > 0; j--)
            g[j] = (unsigned char)(g[j - 1] ^ gb_gf_mul(g[j], c->alpha[i]));
        g[0] = (unsigned char)gb_gf_mul(g[0], c->alpha[i]);
    }
    for (int j = 0; j < RS_NPAR; j++)
        for (unsigned x = 0; x < 256; x++)
            c->mulg[j][x] = (unsigned char)gb_gf_mul(x, g[j]);
    /* Row k of the parity matrix is the parity of the unit message e_k. */
    for (int k = 0; k < RS_K; k++) {
        unsigned char m[RS_K], r[RS_NPAR];
        memset(m, 0, sizeof m);
        m[k] = 1;
        rs_lfsr(c, m, r);
        for (int j = 0; j < RS_NPAR; j++)
            c->logp[k][j] = r[j] ? log[r[j]] : 255;
    }
}

static const struct gb_axis_def bank_axes[] = {
    {"ways", GB_AXIS_STR, "1,2,4,8,16,32", "1,32", 0, 0, "1,2,4,8,16,32",
     "original: how many lanes of a warp write distinct words of one bank at each step"},
    {"pad", GB_AXIS_INT, "0,1", NULL, 0, 1, NULL, "1: one padding word per table row of 32 (the fix)"},
    {"codewords", GB_AXIS_INT, "1M", "256K", 256, 1L << 26, NULL,
     "RS(40,32) codewords encoded, one per thread (multiple of 256)"},
    {"variant", GB_AXIS_STR, "original,revised", NULL, 0, 0, "original,revised",
     "original: every thread initialises the table; revised: one thread does"},
};

static const struct gb_axis_def barrier_axes[] = {
    {"codewords", GB_AXIS_INT, "1M", "256K", 256, 1L << 26, NULL,
     "RS(40,32) codewords encoded, one per thread (multiple of 256)"},
    {"variant", GB_AXIS_STR, "original,revised", NULL, 0, 0, "original,revised",
     "original: one thread initialises the table while the block waits; revised: all threads share it"},
};

static enum gb_status rs_launch_k(struct gb_point *p, int k)
{
    struct pt_state *s = p->state;
    unsigned ncw = (unsigned)s->n;
    void *args[] = {&s->in[0], &s->out[k], &ncw, &s->ways, &s->pad};
    return pt_launch_grid(p, k, args);
}

static enum gb_status rs_setup(struct gb_point *p, const char *original, const char *revised)
{
    struct pt_state *s = NULL;
    struct gb_gpu *g = p->gpu;
    enum gb_status st = pt_new(p, rs_launch_k, &s);
    struct rs_code code;
    CUdeviceptr cptr;
    size_t csize;
    if (st != GB_OK)
        return st;
    s->n = (unsigned long long)gb_point_int(p, "codewords");
    if (s->n % RS_BLOCK)
        return gb_error_set(GB_ERR_UNSUPPORTED, "codewords must be a multiple of %d", RS_BLOCK);
    s->ways = strcmp(p->bench->name, "bank_conflict") == 0 ? (unsigned)atoi(gb_point_str(p, "ways")) : 1;
    s->pad = (unsigned)gb_point_int(p, "pad");
    s->block = RS_BLOCK;
    s->grid = (unsigned)(s->n / RS_BLOCK);
    s->out_words = 2 * s->n;
    rs_code_init(&code);
    GB_CU_CHECK(st, gb_cu->cuModuleGetGlobal(&cptr, &csize, p->module, "c_logp"));
    if (csize != sizeof code.logp)
        return gb_error_set(GB_ERR_UNSUPPORTED, "c_logp is %zu bytes, expected %zu", csize, sizeof code.logp);
    GB_CU_CHECK(st, gb_cu->cuMemcpyHtoD(cptr, code.logp, sizeof code.logp));
    if ((st = gb_gpu_alloc(g, s->n * RS_K, &s->in[0])) != GB_OK || (st = pt_alloc_outputs(p)) != GB_OK ||
        (st = gb_gpu_fill_random(g, s->in[0], s->n * RS_K / 4, s->seed)) != GB_OK ||
        (st = pt_functions(p, NULL, original, revised)) != GB_OK)
        return st;
    return gb_gpu_sync(g);
out:
    return st;
}

static enum gb_status bank_setup(struct gb_point *p, void *ctx)
{
    (void)ctx;
    return rs_setup(p, "bank_every_thread", "bank_one_thread");
}

static enum gb_status barrier_setup(struct gb_point *p, void *ctx)
{
    (void)ctx;
    return rs_setup(p, "bank_one_thread", "barrier_all_threads");
}

static enum gb_status rs_verify(struct gb_point *p, void *ctx)
{
    (void)ctx;
    struct pt_state *s = p->state;
    struct rs_code code;
    uint32_t *par = NULL;
    enum gb_status st;
    rs_code_init(&code);
    if ((st = pt_fetch(s->out[0], s->out_words * 4, (void **)&par)) != GB_OK)
        return st;
    for (unsigned long long cw = 0; cw < s->n; cw++) {
        unsigned char m[RS_K], r[RS_NPAR];
        for (int w = 0; w < RS_K / 4; w++) {
            uint32_t word = gb_fill_word(s->seed, (uint64_t)w * s->n + cw);
            for (int b = 0; b < 4; b++)
                m[4 * w + b] = code.alpha[((word >> (8 * b)) & 0xffu) % 255u];
        }
        rs_lfsr(&code, m, r);
        uint32_t want0 = r[0] | (uint32_t)r[1] << 8 | (uint32_t)r[2] << 16 | (uint32_t)r[3] << 24;
        uint32_t want1 = r[4] | (uint32_t)r[5] << 8 | (uint32_t)r[6] << 16 | (uint32_t)r[7] << 24;
        if (par[cw] != want0 || par[s->n + cw] != want1) {
            st = gb_error_set(GB_ERR_VERIFY, "codeword %llu: parity %08x %08x, the host's encoder gives %08x %08x",
                              cw, par[cw], par[s->n + cw], want0, want1);
            break;
        }
    }
    free(par);
    return st != GB_OK ? st : pt_cross_check(p);
}

/* ========================================================================
 * Excessive global memory usage and replication copy: float arrays A, B
 * ======================================================================== */

static const struct gb_axis_def global_axes[] = {
    {"load", GB_AXIS_STR, "ca,cg", "ca", 0, 0, "ca,cg",
     "cache operator of the global loads: ca (L1 and L2, as plain loads) or cg (L2 only)"},
    {"elements", GB_AXIS_INT, "32M", "8M", 1024, 1L << 30, NULL, "elements of A, B and the output (float)"},
    {"variant", GB_AXIS_STR, "original,revised", NULL, 0, 0, "original,revised",
     "original: operands read from global memory where used; revised: staged in shared memory"},
};

static const struct gb_axis_def replication_axes[] = {
    {"elements", GB_AXIS_INT, "32M", "8M", 1024, 1L << 30, NULL, "elements of A, B and the output (float)"},
    {"variant", GB_AXIS_STR, "original,revised", NULL, 0, 0, "original,revised",
     "original: A, B and the sum staged through shared memory; revised: global memory directly"},
};

static enum gb_status ab_launch_k(struct gb_point *p, int k)
{
    struct pt_state *s = p->state;
    void *args[] = {&s->in[0], &s->in[1], &s->out[k], &s->n};
    return pt_launch_grid(p, k, args);
}

static enum gb_status ab_setup(struct gb_point *p, const char *original, const char *revised)
{
    struct pt_state *s = NULL;
    struct gb_gpu *g = p->gpu;
    enum gb_status st = pt_new(p, ab_launch_k, &s);
    if (st != GB_OK)
        return st;
    s->n = (unsigned long long)gb_point_int(p, "elements");
    s->block = GM_BLOCK;
    if ((s->n + GM_BLOCK - 1) / GM_BLOCK > (unsigned long long)g->info.max_grid_dim[0])
        return gb_error_set(GB_ERR_UNSUPPORTED, "too many elements for one grid");
    s->grid = (unsigned)((s->n + GM_BLOCK - 1) / GM_BLOCK);
    s->out_words = s->n;
    s->ha = malloc(s->n * sizeof(float));
    s->hb = malloc(s->n * sizeof(float));
    if (!s->ha || !s->hb)
        return gb_error_set(GB_ERR_NOMEM, "out of host memory for %llu elements", s->n);
    for (unsigned long long i = 0; i < s->n; i++) {
        s->ha[i] = pt_unit_float(gb_fill_word(s->seed, i));
        s->hb[i] = pt_unit_float(gb_fill_word(s->seed ^ 0x5bd1e995u, i));
    }
    if ((st = pt_upload(g, s->ha, s->n * 4, &s->in[0])) != GB_OK ||
        (st = pt_upload(g, s->hb, s->n * 4, &s->in[1])) != GB_OK || (st = pt_alloc_outputs(p)) != GB_OK ||
        (st = pt_functions(p, NULL, original, revised)) != GB_OK)
        return st;
    p->bytes = 12.0 * (double)s->n;   /* A and B read once, the result written once */
    return gb_gpu_sync(g);
}

static enum gb_status global_setup(struct gb_point *p, void *ctx)
{
    (void)ctx;
    char o[64], r[64];
    const char *load = gb_point_str(p, "load");
    snprintf(o, sizeof o, "global_original_%s", load);
    snprintf(r, sizeof r, "global_revised_%s", load);
    return ab_setup(p, o, r);
}

static enum gb_status replication_setup(struct gb_point *p, void *ctx)
{
    (void)ctx;
    return ab_setup(p, "replication_original", "replication_revised");
}

/* Compares out[0] with the host's f(a, b), bit for bit: both kernels and the
 * reference use the same IEEE single-precision operations in the same order. */
static enum gb_status ab_verify(struct gb_point *p, int global_expr)
{
    struct pt_state *s = p->state;
    float *out = NULL;
    enum gb_status st = pt_fetch(s->out[0], s->n * 4, (void **)&out);
    if (st != GB_OK)
        return st;
    for (unsigned long long i = 0; i < s->n; i++) {
        float a = s->ha[i], b = s->hb[i], want;
        if (global_expr) {
            float sum = a + b;
            float r = sum * a;
            r = r * b;
            want = r / (a + b);
        } else {
            want = a + b;
        }
        if (memcmp(&out[i], &want, sizeof want) != 0) {
            st = gb_error_set(GB_ERR_VERIFY, "element %llu: %.9g, the host computes %.9g", i, (double)out[i],
                              (double)want);
            break;
        }
    }
    free(out);
    return st != GB_OK ? st : pt_cross_check(p);
}

static enum gb_status global_verify(struct gb_point *p, void *ctx)
{
    (void)ctx;
    return ab_verify(p, 1);
}

static enum gb_status replication_verify(struct gb_point *p, void *ctx)
{
    (void)ctx;
    return ab_verify(p, 0);
}

/* ========================================================================
 * Memory coalescing
 * ======================================================================== */

static const struct gb_axis_def coalesce_axes[] = {
    {"width", GB_AXIS_INT, "4,8", "4", 4, 8, NULL,
     "original: bytes each thread copies per access (4 or 8); the revised copies 16"},
    {"bytes", GB_AXIS_INT, "16M,512M", NULL, 1 << 20, 1L << 36, NULL,
     "bytes copied (multiple of 16 KiB); 16M stays in the L2"},
    {"variant", GB_AXIS_STR, "original,revised", NULL, 0, 0, "original,revised",
     "original: narrow copies from global to shared memory; revised: 16-byte copies"},
};

static enum gb_status coalesce_launch_k(struct gb_point *p, int k)
{
    struct pt_state *s = p->state;
    void *args[] = {&s->in[0], &s->out[k]};
    return pt_launch_grid(p, k, args);
}

static enum gb_status coalesce_setup(struct gb_point *p, void *ctx)
{
    (void)ctx;
    struct pt_state *s = NULL;
    struct gb_gpu *g = p->gpu;
    enum gb_status st = pt_new(p, coalesce_launch_k, &s);
    char o[32];
    long width = gb_point_int(p, "width");
    if (st != GB_OK)
        return st;
    if (width != 4 && width != 8)
        return gb_error_set(GB_ERR_UNSUPPORTED, "width must be 4 or 8 (the revised kernel copies 16)");
    s->bytes = (size_t)gb_point_int(p, "bytes");
    if (s->bytes % CO_TILE)
        return gb_error_set(GB_ERR_UNSUPPORTED, "bytes must be a multiple of %d", CO_TILE);
    if (s->bytes / CO_TILE > (size_t)g->info.max_grid_dim[0])
        return gb_error_set(GB_ERR_UNSUPPORTED, "too many bytes for one grid");
    s->block = CO_BLOCK;
    s->grid = (unsigned)(s->bytes / CO_TILE);
    s->out_words = s->bytes / 4;
    if ((st = gb_gpu_alloc(g, s->bytes, &s->in[0])) != GB_OK || (st = pt_alloc_outputs(p)) != GB_OK ||
        (st = gb_gpu_fill_random(g, s->in[0], s->bytes / 4, s->seed)) != GB_OK)
        return st;
    snprintf(o, sizeof o, "coalesce_copy%ld", width);
    if ((st = pt_functions(p, NULL, o, "coalesce_copy16")) != GB_OK)
        return st;
    p->bytes = 2.0 * (double)s->bytes;
    return gb_gpu_sync(g);
}

static enum gb_status coalesce_verify(struct gb_point *p, void *ctx)
{
    (void)ctx;
    return pt_verify_fill(p, "copied words differ from the input");
}

/* ========================================================================
 * Scattered host copy
 * ======================================================================== */

static const struct gb_axis_def scattered_axes[] = {
    {"memory", GB_AXIS_STR, "pageable,pinned", "pinned", 0, 0, "pageable,pinned",
     "host buffer: pageable (malloc) or pinned (cuMemHostAlloc)"},
    {"chunks", GB_AXIS_INT, "1024", NULL, 2, 1 << 20, NULL, "original: transfers the buffer is cut into"},
    {"bytes", GB_AXIS_INT, "1M", NULL, 4096, 1L << 32, NULL, "bytes copied from host to device"},
    {"variant", GB_AXIS_STR, "original,revised", NULL, 0, 0, "original,revised",
     "original: one transfer per chunk; revised: one transfer of everything"},
};

static enum gb_status scattered_copy(struct gb_point *p, int one_transfer, CUdeviceptr dst)
{
    struct pt_state *s = p->state;
    enum gb_status st = GB_OK;
    if (one_transfer) {
        GB_CU_CHECK(st, gb_cu->cuMemcpyHtoDAsync(dst, s->host, s->bytes, p->gpu->stream));
    } else {
        for (unsigned c = 0; c < s->chunks; c++)
            GB_CU_CHECK(st, gb_cu->cuMemcpyHtoDAsync(dst + c * s->chunk, (const char *)s->host + c * s->chunk,
                                                     s->chunk, p->gpu->stream));
    }
out:
    return st;
}

/* The measured variant (k = 0) copies as its `variant` says, the other the other way. */
static enum gb_status scattered_launch_k(struct gb_point *p, int k)
{
    struct pt_state *s = p->state;
    return scattered_copy(p, k ? !s->revised : s->revised, s->out[k]);
}

static enum gb_status scattered_setup(struct gb_point *p, void *ctx)
{
    (void)ctx;
    struct pt_state *s = NULL;
    enum gb_status st = pt_new(p, scattered_launch_k, &s);
    if (st != GB_OK)
        return st;
    s->bytes = (size_t)gb_point_int(p, "bytes");
    s->chunks = (unsigned)gb_point_int(p, "chunks");
    if (s->bytes % ((size_t)s->chunks * 4))
        return gb_error_set(GB_ERR_UNSUPPORTED, "bytes (%zu) must be a multiple of 4 x chunks (%u)", s->bytes,
                            s->chunks);
    s->chunk = s->bytes / s->chunks;
    s->pinned = strcmp(gb_point_str(p, "memory"), "pinned") == 0;
    /* The driver stages pageable memory through its own buffers; such copies
     * cannot be captured in a graph. */
    p->no_graph = !s->pinned;
    if (s->pinned) {
        GB_CU_CHECK(st, gb_cu->cuMemHostAlloc(&s->host, s->bytes, 0));
    } else if (!(s->host = malloc(s->bytes))) {
        return gb_error_set(GB_ERR_NOMEM, "out of host memory (%zu bytes)", s->bytes);
    }
    for (size_t i = 0; i < s->bytes / 4; i++)
        ((uint32_t *)s->host)[i] = gb_fill_word(s->seed, i);
    s->out_words = s->bytes / 4;
    if ((st = pt_alloc_outputs(p)) != GB_OK)
        return st;
    p->bytes = (double)s->bytes;
    return GB_OK;
out:
    return st;
}

static enum gb_status scattered_verify(struct gb_point *p, void *ctx)
{
    (void)ctx;
    return pt_verify_fill(p, "words on the device differ from the host buffer");
}

/* ========================================================================
 * Thread register imbalance
 * ======================================================================== */

static const struct gb_axis_def register_axes[] = {
    {"iters", GB_AXIS_INT, "256", "64", 1, 1 << 20, NULL, "loop iterations per thread"},
    {"variant", GB_AXIS_STR, "original,revised", NULL, 0, 0, "original,revised",
     "original: all state in registers, one block per SM fewer; revised: part in shared memory, every block slot used"},
};

/* Register caps for the device, from the occupancy calculator, for blocks of
 * RI_BLOCK threads: `fit` is the most registers per thread at which the SM
 * holds as many blocks as its thread slots allow; `over` the most at which it
 * holds one block fewer. 0 when the calculator cannot say. */
static void ri_caps(const struct gb_device_info *dev, int *fit, int *over, int *full)
{
    struct gb_occupancy_input in = {RI_BLOCK, 0, 0, 0, -1, -1};
    struct gb_occupancy_result r;
    *fit = *over = *full = 0;
    if (gb_occupancy_compute(dev, &in, &r) != GB_OK || r.active_blocks < 1)
        return;
    *full = r.active_blocks;
    for (int regs = 1; regs <= 255; regs++) {
        in.regs_per_thread = regs;
        if (gb_occupancy_compute(dev, &in, &r) != GB_OK)
            return;
        if (r.active_blocks >= *full)
            *fit = regs;
        if (r.active_blocks >= *full - 1 && *full > 1)
            *over = regs;
    }
    if (*over <= *fit)   /* one block per SM: nothing to lose */
        *over = *fit < 128 ? 2 * *fit : 255;
}

/* The compile options of one variant; both variants share RI_STATE, so they
 * compute the same result. */
static int ri_opts_for(const struct gb_point *p, int revised, char opts[][GB_OPT_LEN])
{
    struct gb_device_info cc90;
    const struct gb_device_info *dev = p->gpu ? &p->gpu->info : NULL;
    int fit, over, full;
    if (!dev) {
        /* The nvrtc test tier plans without a GPU: the limits of an sm_90 part. */
        memset(&cc90, 0, sizeof cc90);
        gb_device_from_cc(9, 0, &cc90);
        dev = &cc90;
    }
    ri_caps(dev, &fit, &over, &full);
    if (fit < 16) {
        fit = 32;
        over = 40;
    }
    int state = (fit + over) / 2 - 8, inreg = fit - 12;
    if (state < 4)
        state = 4;
    if (inreg < 2)
        inreg = 2;
    if (inreg > state)
        inreg = state;
    snprintf(opts[0], GB_OPT_LEN, "-DRI_STATE=%d", state);
    snprintf(opts[1], GB_OPT_LEN, "-DRI_INREG=%d", revised ? inreg : state);
    snprintf(opts[2], GB_OPT_LEN, "--maxrregcount=%d", revised ? fit : over);
    return 3;
}

static int register_opts(const struct gb_point *p, void *ctx, char opts[][GB_OPT_LEN], int max)
{
    (void)ctx;
    (void)max;
    return ri_opts_for(p, pt_is_revised(p), opts);
}

struct ri_func_info {
    int regs, local, smem, blocks, driver_blocks;
    double occupancy;
};

static enum gb_status ri_func_info(struct gb_gpu *g, CUfunction f, struct ri_func_info *fi)
{
    enum gb_status st = GB_OK;
    struct gb_occupancy_input in = {RI_BLOCK, 0, 0, 0, -1, -1};
    struct gb_occupancy_result r;
    GB_CU_CHECK(st, gb_cu->cuFuncGetAttribute(&fi->regs, CU_FUNC_ATTRIBUTE_NUM_REGS, f));
    GB_CU_CHECK(st, gb_cu->cuFuncGetAttribute(&fi->local, CU_FUNC_ATTRIBUTE_LOCAL_SIZE_BYTES, f));
    GB_CU_CHECK(st, gb_cu->cuFuncGetAttribute(&fi->smem, CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES, f));
    GB_CU_CHECK(st, gb_cu->cuOccupancyMaxActiveBlocksPerMultiprocessor(&fi->driver_blocks, f, RI_BLOCK, 0));
    in.regs_per_thread = fi->regs;
    in.static_smem_bytes = fi->smem;
    if ((st = gb_occupancy_compute(&g->info, &in, &r)) != GB_OK)
        return st;
    fi->blocks = r.active_blocks;
    fi->occupancy = r.occupancy;
out:
    return st;
}

static unsigned ri_gcd(unsigned a, unsigned b)
{
    while (b) {
        unsigned t = a % b;
        a = b;
        b = t;
    }
    return a;
}

static enum gb_status register_launch_k(struct gb_point *p, int k)
{
    struct pt_state *s = p->state;
    unsigned mask = RI_TAB_WORDS - 1;
    void *args[] = {&s->in[0], &s->in[1], &mask, &s->iters, &s->out[k], &s->probe};
    return pt_launch_grid(p, k, args);
}

static enum gb_status register_setup(struct gb_point *p, void *ctx)
{
    (void)ctx;
    struct pt_state *s = NULL;
    struct gb_gpu *g = p->gpu;
    enum gb_status st = pt_new(p, register_launch_k, &s);
    char opts[4][GB_OPT_LEN];
    const char *optp[4];
    CUmodule other;
    struct ri_func_info fi[2];
    if (st != GB_OK)
        return st;
    int n = ri_opts_for(p, !s->revised, opts);
    for (int i = 0; i < n; i++)
        optp[i] = opts[i];
    if ((st = gb_gpu_module(g, PT_FILE, optp, n, &other)) != GB_OK ||
        (st = pt_functions(p, other, "register_imbalance", "register_imbalance")) != GB_OK ||
        (st = ri_func_info(g, s->f[0], &fi[0])) != GB_OK || (st = ri_func_info(g, s->f[1], &fi[1])) != GB_OK)
        return st;
    if (fi[0].blocks < 1 || fi[1].blocks < 1)
        return gb_error_set(GB_ERR_UNSUPPORTED, "a block of %d threads does not fit on an SM", RI_BLOCK);
    /* The same grid for both variants: a whole number of full waves of each. */
    unsigned lcm = (unsigned)fi[0].blocks / ri_gcd((unsigned)fi[0].blocks, (unsigned)fi[1].blocks) *
                   (unsigned)fi[1].blocks;
    s->grid = lcm * (unsigned)g->info.sm_count * 2u;
    s->block = RI_BLOCK;
    s->n = (unsigned long long)s->grid * RI_BLOCK;
    s->iters = (unsigned)gb_point_int(p, "iters");
    s->out_words = s->n;
    if ((st = gb_gpu_alloc(g, s->n * 4, &s->in[0])) != GB_OK ||
        (st = gb_gpu_alloc(g, RI_TAB_WORDS * 4, &s->in[1])) != GB_OK ||
        (st = pt_alloc_outputs(p)) != GB_OK || (st = gb_gpu_alloc(g, (size_t)s->grid * 3 * 8, &s->probe)) != GB_OK ||
        (st = gb_gpu_fill_random(g, s->in[0], s->n, s->seed)) != GB_OK ||
        (st = gb_gpu_fill_random(g, s->in[1], RI_TAB_WORDS, s->seed ^ 0x68e31da4u)) != GB_OK)
        return st;
    {
        /* RI_STATE from the options, for the host reference. */
        s->ri_state = atoi(opts[0] + strlen("-DRI_STATE="));
    }
    if ((st = gb_point_metric(p, "regs", fi[0].regs)) != GB_OK ||
        (st = gb_point_metric(p, "spill_bytes", fi[0].local)) != GB_OK ||
        (st = gb_point_metric(p, "blocks_per_sm", fi[0].blocks)) != GB_OK ||
        (st = gb_point_metric(p, "blocks_per_sm_driver", fi[0].driver_blocks)) != GB_OK ||
        (st = gb_point_metric(p, "occ_theoretical", fi[0].occupancy)) != GB_OK)
        return st;
    return gb_gpu_sync(g);
}

/* The output poisoned, the timing probe zeroed (a block that did not write it is caught). */
static enum gb_status register_poison(struct gb_point *p, void *ctx)
{
    struct pt_state *s = p->state;
    enum gb_status st = pt_poison(p, ctx);
    if (st == GB_OK)
        st = gb_gpu_fill_u32(p->gpu, s->probe, (size_t)s->grid * 3 * 2, 0);
    return st;
}

/* The kernel's arithmetic for one thread, on the host. */
static uint32_t ri_reference(uint32_t s0, const uint32_t *tab, unsigned iters, int state)
{
    uint32_t x[256], g = s0, acc;
    for (int k = 0; k < state; k++)
        x[k] = s0 * (2u * (uint32_t)k + 1u) + (uint32_t)k;
    for (unsigned it = 0; it < iters; it++) {
        g ^= tab[(g ^ it) & (RI_TAB_WORDS - 1)];
        for (int k = 0; k < state; k++) {
            uint32_t v = (x[k] ^ g) * 0x9E3779B1u + (uint32_t)k;
            g += v >> 7;
            x[k] = v;
        }
    }
    acc = g;
    for (int k = 0; k < state; k++)
        acc = (acc << 5 | acc >> 27) ^ x[k];
    return acc;
}

/* A block's start (+1) or end (-1) on an SM, for the sweep below. */
struct ri_event {
    uint64_t sm, t;
    int delta;
};

static int ri_cmp_event(const void *a, const void *b)
{
    const struct ri_event *x = a, *y = b;
    if (x->sm != y->sm)
        return (x->sm > y->sm) - (x->sm < y->sm);
    if (x->t != y->t)
        return (x->t > y->t) - (x->t < y->t);
    return x->delta - y->delta;   /* at a tie an end comes first */
}

/* Achieved occupancy from the blocks' start and end times: the warps that
 * were resident, integrated over time, over what the SMs could hold for the
 * whole kernel; and the most blocks seen resident on one SM at once. SM ids
 * (%smid) are only labels: they need not be below the SM count. */
static enum gb_status ri_occupancy(struct gb_point *p)
{
    struct pt_state *s = p->state;
    const struct gb_device_info *d = &p->gpu->info;
    uint64_t *pr = NULL;
    struct ri_event *ev = NULL;
    enum gb_status st = pt_fetch(s->probe, (size_t)s->grid * 3 * 8, (void **)&pr);
    if (st != GB_OK)
        return st;
    ev = malloc((size_t)s->grid * 2 * sizeof *ev);
    if (!ev) {
        st = gb_error_set(GB_ERR_NOMEM, "out of host memory");
        goto out;
    }
    uint64_t t_lo = UINT64_MAX, t_hi = 0;
    double busy = 0;
    for (unsigned b = 0; b < s->grid; b++) {
        uint64_t sm = pr[3 * b], t0 = pr[3 * b + 1], t1 = pr[3 * b + 2];
        if (t1 < t0 || t0 == 0) {
            st = gb_error_set(GB_ERR_VERIFY, "block %u left a bad timing probe (SM %llu, %llu..%llu ns)", b,
                              (unsigned long long)sm, (unsigned long long)t0, (unsigned long long)t1);
            goto out;
        }
        t_lo = t0 < t_lo ? t0 : t_lo;
        t_hi = t1 > t_hi ? t1 : t_hi;
        busy += (double)(t1 - t0);
        ev[2 * b] = (struct ri_event){sm, t0, 1};
        ev[2 * b + 1] = (struct ri_event){sm, t1, -1};
    }
    double warps = RI_BLOCK / (double)d->warp_size, max_warps = d->max_threads_per_sm / (double)d->warp_size;
    if (t_hi > t_lo &&
        (st = gb_point_metric(p, "occ_achieved", busy * warps / ((double)(t_hi - t_lo) * d->sm_count * max_warps))) !=
            GB_OK)
        goto out;
    qsort(ev, (size_t)s->grid * 2, sizeof *ev, ri_cmp_event);
    int most = 0, cur = 0;
    for (size_t i = 0; i < (size_t)s->grid * 2; i++) {
        if (i > 0 && ev[i].sm != ev[i - 1].sm)
            cur = 0;
        cur += ev[i].delta;
        most = cur > most ? cur : most;
    }
    st = gb_point_metric(p, "resident_max", most);
out:
    free(ev);
    free(pr);
    return st;
}

static enum gb_status register_verify(struct gb_point *p, void *ctx)
{
    (void)ctx;
    struct pt_state *s = p->state;
    uint32_t *out = NULL, *tab = NULL;
    enum gb_status st;
    if ((st = pt_fetch(s->out[0], s->n * 4, (void **)&out)) != GB_OK ||
        (st = pt_fetch(s->in[1], RI_TAB_WORDS * 4, (void **)&tab)) != GB_OK)
        goto out;
    /* The host follows every 61st thread and every thread of the last block:
     * the whole grid would take the host minutes. The other variant is
     * compared on every thread below. */
    for (unsigned long long t = 0; t < s->n; t += (t + RI_BLOCK >= s->n ? 1 : 61)) {
        uint32_t want = ri_reference(gb_fill_word(s->seed, t), tab, s->iters, s->ri_state);
        if (out[t] != want) {
            st = gb_error_set(GB_ERR_VERIFY, "thread %llu: %08x, the host computes %08x", t, out[t], want);
            goto out;
        }
    }
    if ((st = ri_occupancy(p)) != GB_OK)
        goto out;
    st = pt_cross_check(p);
out:
    free(out);
    free(tab);
    return st;
}

/* ========================================================================
 * Branch diverging
 * ======================================================================== */

static const struct gb_axis_def diverge_axes[] = {
    {"items", GB_AXIS_INT, "4M", "1M", 512, 1L << 30, NULL,
     "vectors, half single and half double precision (multiple of 512)"},
    {"variant", GB_AXIS_STR, "original,revised", NULL, 0, 0, "original,revised",
     "original: the two kinds alternate between lanes; revised: each warp gets one kind"},
};

static enum gb_status diverge_launch_k(struct gb_point *p, int k)
{
    struct pt_state *s = p->state;
    unsigned half = (unsigned)(s->n / 2);
    void *args[] = {&s->in[0], &s->in[1], &s->in[2], &s->in[3], &s->out[k], &half};
    return pt_launch_grid(p, k, args);
}

/* A non-zero float and double in [-1, 1) for element i of the fill words of
 * `seed`, with `zero` standing in for an exact zero. */
static float pt_random_float(unsigned seed, size_t i, float zero)
{
    float v = (float)pt_signed_double(gb_fill_word(seed, 2 * i), gb_fill_word(seed, 2 * i + 1));
    return v == 0.0f ? zero : v;
}

static double pt_random_double(unsigned seed, size_t i, double zero)
{
    double v = pt_signed_double(gb_fill_word(seed, 2 * i), gb_fill_word(seed, 2 * i + 1));
    return v == 0.0 ? zero : v;
}

static enum gb_status diverge_setup(struct gb_point *p, void *ctx)
{
    (void)ctx;
    struct pt_state *s = NULL;
    struct gb_gpu *g = p->gpu;
    enum gb_status st = pt_new(p, diverge_launch_k, &s);
    if (st != GB_OK)
        return st;
    s->n = (unsigned long long)gb_point_int(p, "items");
    if (s->n % 512)
        return gb_error_set(GB_ERR_UNSUPPORTED, "items must be a multiple of 512");
    if (s->n / BD_BLOCK > (unsigned long long)g->info.max_grid_dim[0] || s->n > 0xffffffffull)
        return gb_error_set(GB_ERR_UNSUPPORTED, "too many items");
    size_t half = s->n / 2, nx = half * BD_D, nq = BD_Q * BD_D;
    s->block = BD_BLOCK;
    s->grid = (unsigned)(s->n / BD_BLOCK);
    s->out_words = s->n * 2;
    s->hxf = malloc(nx * sizeof *s->hxf);
    s->hxd = malloc(nx * sizeof *s->hxd);
    s->hqf = malloc(nq * sizeof *s->hqf);
    s->hqd = malloc(nq * sizeof *s->hqd);
    if (!s->hxf || !s->hxd || !s->hqf || !s->hqd)
        return gb_error_set(GB_ERR_NOMEM, "out of host memory for %llu items", s->n);
    for (size_t i = 0; i < nx; i++) {
        s->hxf[i] = pt_random_float(s->seed, i, 0.5f);
        s->hxd[i] = pt_random_double(s->seed ^ 0x1234567u, i, 0.5);
    }
    for (size_t i = 0; i < nq; i++) {
        s->hqf[i] = pt_random_float(s->seed ^ 0x89abcdu, i, 0.25f);
        s->hqd[i] = pt_random_double(s->seed ^ 0xfedcbau, i, 0.25);
    }
    if ((st = pt_upload(g, s->hxf, nx * 4, &s->in[0])) != GB_OK ||
        (st = pt_upload(g, s->hxd, nx * 8, &s->in[1])) != GB_OK ||
        (st = pt_upload(g, s->hqf, nq * 4, &s->in[2])) != GB_OK ||
        (st = pt_upload(g, s->hqd, nq * 8, &s->in[3])) != GB_OK || (st = pt_alloc_outputs(p)) != GB_OK ||
        (st = pt_functions(p, NULL, "diverge_original", "diverge_revised")) != GB_OK)
        return st;
    p->flops = 3.0 * BD_D * BD_Q * (double)s->n;
    return gb_gpu_sync(g);
}

static double bd_reference(const struct pt_state *s, size_t item)
{
    size_t half = s->n / 2, j = item >> 1;
    if ((item & 1) == 0) {
        float best = 3.0e38f;
        for (int q = 0; q < BD_Q; q++) {
            float acc = 0.0f;
            for (int d = 0; d < BD_D; d++) {
                float t = s->hxf[(size_t)d * half + j] - s->hqf[q * BD_D + d];
                acc += t * t;
            }
            best = fminf(best, acc);
        }
        return (double)sqrtf(best);
    }
    double best = 1.0e300;
    for (int q = 0; q < BD_Q; q++) {
        double acc = 0.0;
        for (int d = 0; d < BD_D; d++) {
            double t = s->hxd[(size_t)d * half + j] - s->hqd[q * BD_D + d];
            acc += t * t;
        }
        best = fmin(best, acc);
    }
    return sqrt(best);
}

static enum gb_status diverge_verify(struct gb_point *p, void *ctx)
{
    (void)ctx;
    struct pt_state *s = p->state;
    double *out = NULL;
    enum gb_status st = pt_fetch(s->out[0], s->n * 8, (void **)&out);
    if (st != GB_OK)
        return st;
    /* The host follows the first and last 2048 items and every 257th between
     * them; the other variant is compared on every item below. The device may
     * contract t*t + acc into one fused operation, so the host's result is
     * matched to a relative 1e-5 (single) or 1e-12 (double). */
    for (size_t i = 0; i < s->n; i += (i < 2048 || i + 2048 >= s->n) ? 1 : 257) {
        double want = bd_reference(s, i), got = out[i];
        double tol = (i & 1 ? 1e-12 : 1e-5) * fmax(1.0, fabs(want));
        if (!(fabs(got - want) <= tol)) {
            st = gb_error_set(GB_ERR_VERIFY, "item %zu: distance %.17g, the host computes %.17g", i, got, want);
            break;
        }
    }
    free(out);
    return st != GB_OK ? st : pt_cross_check(p);
}

/* ======================================================================== */

#define PT_N_AXES(a) (int)(sizeof a / sizeof a[0])

static const struct gb_bench pt_benches[] = {
    {.name = "bank_conflict",
     .help = "Reed-Solomon table set-up: every thread writes the whole table (n-way bank conflicts) vs one thread",
     .kernel_file = PT_FILE,
     .axes = bank_axes,
     .n_axes = PT_N_AXES(bank_axes),
     .cache = GB_CACHE_HOT,
     .setup = bank_setup,
     .poison = pt_poison,
     .launch = pt_launch,
     .verify = rs_verify,
     .teardown = pt_teardown},
    {.name = "global_memory",
     .help = "(A+B)*A*B/(A+B): operands read from global memory where used vs staged in shared memory",
     .kernel_file = PT_FILE,
     .axes = global_axes,
     .n_axes = PT_N_AXES(global_axes),
     .cache = GB_CACHE_HOT,
     .setup = global_setup,
     .poison = pt_poison,
     .launch = pt_launch,
     .verify = global_verify,
     .teardown = pt_teardown},
    {.name = "replication_copy",
     .help = "A+B staged through shared memory vs read and written directly",
     .kernel_file = PT_FILE,
     .axes = replication_axes,
     .n_axes = PT_N_AXES(replication_axes),
     .cache = GB_CACHE_HOT,
     .setup = replication_setup,
     .poison = pt_poison,
     .launch = pt_launch,
     .verify = replication_verify,
     .teardown = pt_teardown},
    {.name = "coalescing",
     .help = "global to shared memory copies of 4 or 8 bytes per thread vs 16 bytes",
     .kernel_file = PT_FILE,
     .axes = coalesce_axes,
     .n_axes = PT_N_AXES(coalesce_axes),
     .cache = GB_CACHE_HOT,
     .setup = coalesce_setup,
     .poison = pt_poison,
     .launch = pt_launch,
     .verify = coalesce_verify,
     .teardown = pt_teardown},
    {.name = "scattered_copy",
     .help = "host to device: many small transfers vs one",
     .axes = scattered_axes,
     .n_axes = PT_N_AXES(scattered_axes),
     .cache = GB_CACHE_HOT,
     .setup = scattered_setup,
     .poison = pt_poison,
     .launch = pt_launch,
     .verify = scattered_verify,
     .teardown = pt_teardown},
    {.name = "register_imbalance",
     .help = "registers that cost a block slot per SM vs state partly in shared memory",
     .kernel_file = PT_FILE,
     .kernel_opts = register_opts,
     .axes = register_axes,
     .n_axes = PT_N_AXES(register_axes),
     .cache = GB_CACHE_HOT,
     .setup = register_setup,
     .poison = register_poison,
     .launch = pt_launch,
     .verify = register_verify,
     .teardown = pt_teardown},
    {.name = "barrier_wait",
     .help = "Reed-Solomon table set-up by one thread while the block waits vs shared out",
     .kernel_file = PT_FILE,
     .axes = barrier_axes,
     .n_axes = PT_N_AXES(barrier_axes),
     .cache = GB_CACHE_HOT,
     .setup = barrier_setup,
     .poison = pt_poison,
     .launch = pt_launch,
     .verify = rs_verify,
     .teardown = pt_teardown},
    {.name = "branch_divergence",
     .help = "distances of two kinds of vectors alternating between lanes vs aligned to warps",
     .kernel_file = PT_FILE,
     .axes = diverge_axes,
     .n_axes = PT_N_AXES(diverge_axes),
     .cache = GB_CACHE_HOT,
     .setup = diverge_setup,
     .poison = pt_poison,
     .launch = pt_launch,
     .verify = diverge_verify,
     .teardown = pt_teardown},
};

/* The paper's speedups (its Figure 9), GTX 480 (Fermi) and Tesla T10. */
#define PT_PAPER_FERMI                                                                                  \
    "bank_conflict:2.50,global_memory:1.20,replication_copy:1.03,coalescing:1.26,scattered_copy:17.48," \
    "register_imbalance:1.01,barrier_wait:1.36,branch_divergence:1.42"
#define PT_PAPER_TESLA                                                                                  \
    "bank_conflict:18.95,global_memory:2.53,replication_copy:1.01,coalescing:4.18,scattered_copy:63.09," \
    "register_imbalance:1.01,barrier_wait:2.89,branch_divergence:1.97"

static const struct gb_chart_spec pt_charts[] = {
    {.name = "patterns-speedup",
     .title = "Speedup of the revised kernel over the original, per pattern",
     .kind = GB_CHART_SPEEDUP,
     .x = "bench",
     .y = "median_ns",
     .x_label = "pattern",
     .y_label = "speedup (original time / revised time)",
     .log_y = 1,
     .where = "bank_conflict:ways=32,bank_conflict:pad=0,coalescing:width=4",
     .pair = "variant=original/revised",
     .ref_speedups = "paper: Fermi GTX 480=" PT_PAPER_FERMI ";paper: Tesla T10=" PT_PAPER_TESLA},
    {.name = "patterns-speedup-all",
     .title = "Speedup of the revised kernel at every measured point",
     .kind = GB_CHART_SPEEDUP,
     .x = "bench",
     .y = "median_ns",
     .x_label = "pattern and point",
     .y_label = "speedup (original time / revised time)",
     .log_y = 1,
     .pair = "variant=original/revised"},
    {.name = "patterns-bank-conflict",
     .title = "Bank conflicts: time of the kernel by conflict degree",
     .kind = GB_CHART_LINE,
     .benches = "bank_conflict",
     .x = "ways",
     .series = "pad",
     .series_label = "original, pad = {}",
     .y = "median_ns",
     .x_label = "lanes of a warp on one bank at each store of the original (ways)",
     .y_label = "median time per launch (ns)",
     .log_x = 1,
     .where = "variant=original"},
};

/* What its findings (report.md) compare: each bench by the speedup of its revised kernel. */
static const struct gb_findings_rule pt_findings = {
    .pair_axis = "variant",
    .pair_num = "original",
    .pair_den = "revised",
    .pair_what = "speedup of the revised kernel",
    .source = "Eschweiler, Becker, Wolf, \"Patterns of inefficient performance behavior in GPU "
              "applications\", PDP 2011 (the speedup tables below set its speedups beside ours)",
};

const struct gb_suite gb_suite_patterns = {
    .name = "patterns",
    .help = "eight patterns of inefficient behaviour, each an original kernel against a revised one "
            "(Eschweiler, Becker and Wolf), beside the paper's speedups on Fermi and Tesla",
    .benches = pt_benches,
    .n_benches = (int)(sizeof pt_benches / sizeof pt_benches[0]),
    .charts = pt_charts,
    .n_charts = (int)(sizeof pt_charts / sizeof pt_charts[0]),
    .findings = &pt_findings,
};
