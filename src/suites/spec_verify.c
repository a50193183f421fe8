/* spec_verify.c - what a spec bench's outputs are compared with, and the
 * comparison.
 *
 * The reference of a point is made before its verification launch (the
 * harness poisons the outputs, launches once, then calls verify):
 *   - a reference kernel runs on the point's inputs into buffers of its own;
 *   - reference files are read (raw little-endian values of one size);
 *   - "first": the first point of each problem (the values of the problem
 *     axes) whose outputs are all written becomes the reference of the
 *     points of that problem after it. The inputs of one problem are the
 *     same for every configuration (spec_args.c seeds them so).
 * An element matches when |got - expected| <= atol + rtol * |expected|
 * (two NaNs match: both left it unwritten or both computed it so). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "suites/spec_internal.h"

/* The reference outputs of one problem, held while a run lasts. */
struct gb_spec_first {
    char key[512];
    void *out[GB_SPEC_MAX_ARGS];
    size_t bytes[GB_SPEC_MAX_ARGS];
    struct gb_spec_first *next;
};

void gb_spec_firsts_release(struct gb_spec_bench *b)
{
    for (struct gb_spec_first *f = b->firsts, *next; f; f = next) {
        next = f->next;
        for (int i = 0; i < GB_SPEC_MAX_ARGS; i++)
            free(f->out[i]);
        free(f);
    }
    b->firsts = NULL;
}

static void gb_problem_key(const struct gb_spec_bench *b, const struct gb_point *p, char *key, size_t n)
{
    size_t len = 0;
    key[0] = '\0';
    for (int a = 0; a < b->n_axes && len < n; a++)
        if (b->problem_mask & (1u << a)) {
            int w = snprintf(key + len, n - len, "%s%s=%s", len ? " " : "", b->axes[a].name,
                             gb_point_str(p, b->axes[a].name));
            len += w > 0 ? (size_t)w : 0;
        }
}

static struct gb_spec_first *gb_first_find(const struct gb_spec_bench *b, const char *key)
{
    for (struct gb_spec_first *f = b->firsts; f; f = f->next)
        if (strcmp(f->key, key) == 0)
            return f;
    return NULL;
}

/* Reads reference file of output i; a size that differs fails the point. */
static enum gb_status gb_ref_file(const struct gb_spec_bench *b, int i, size_t bytes, void **out)
{
    const struct gb_spec_arg *a = &b->args[i];
    enum gb_status st = GB_OK;
    FILE *f = gb_spec_open_data(a->ref_file);
    void *h = malloc(bytes ? bytes : 1);
    *out = NULL;
    if (!h || !f) {
        st = h ? gb_error_set(GB_ERR_USAGE, "%s: benches[%d].reference.files.%s: cannot read %s", b->spec->file,
                              b->index, a->name, a->ref_file)
               : gb_error_set(GB_ERR_NOMEM, "out of host memory");
        goto out;
    }
    size_t n = fread(h, 1, bytes, f);
    if (n != bytes || fgetc(f) != EOF) {
        st = gb_error_set(GB_ERR_VERIFY, "reference file %s is not %zu %s values (output %s's size here): it is "
                          "for another problem size", a->ref_file, bytes / gb_spec_type_size(a->type),
                          gb_spec_type_name(a->type), a->name);
        goto out;
    }
    *out = h;
    h = NULL;
out:
    if (f)
        fclose(f);
    free(h);
    return st;
}

/* The reference kernel's function: in the bench's module, or its own. */
static enum gb_status gb_ref_function(const struct gb_spec_bench *b, struct gb_point *p, struct gb_spec_state *s)
{
    char opts[GB_SPEC_MAX_NAMES][GB_OPT_LEN], exprs[1][GB_KERNEL_NAME_LEN];
    const char *optp[GB_SPEC_MAX_NAMES], *hn[GB_SPEC_MAX_SOURCES], *hs[GB_SPEC_MAX_SOURCES];
    const char *const *lowered = NULL;
    CUmodule m;
    const struct gb_spec *spec = b->spec;
    int n = gb_spec_opts(b, &s->pv, 1, opts, GB_SPEC_MAX_NAMES), nh = 0;
    for (int i = 0; i < n; i++)
        optp[i] = opts[i];
    for (int i = 0; i < spec->n_sources; i++)
        if (i != b->ref.source) {
            hn[nh] = spec->sources[i].name;
            hs[nh++] = spec->sources[i].text;
        }
    snprintf(exprs[0], sizeof exprs[0], "%s", s->pv.ref_kernel);
    struct gb_nvrtc_program prog = {.name = spec->sources[b->ref.source].name,
                                    .source = spec->sources[b->ref.source].text,
                                    .n_headers = nh, .header_names = hn, .header_sources = hs,
                                    .n_exprs = 1, .exprs = (const char (*)[GB_KERNEL_NAME_LEN])exprs};
    enum gb_status st = gb_gpu_module_program(p->gpu, &prog, optp, n, &m, &lowered);
    if (st != GB_OK)
        return st;
    return gb_gpu_function(m, lowered[0], &s->ref_f);
}

/* Runs the reference kernel into buffers of its own and copies them back. */
static enum gb_status gb_ref_kernel(const struct gb_spec_bench *b, struct gb_point *p, struct gb_spec_state *s)
{
    enum gb_status st = GB_OK;
    CUdeviceptr mine[GB_SPEC_MAX_ARGS] = {0}, theirs[GB_SPEC_MAX_ARGS] = {0};
    if (!s->ref_f && (st = gb_ref_function(b, p, s)) != GB_OK)
        return st;
    if (s->pv.ref_max_smem >= 0)
        GB_CU_CHECK(st, gb_cu->cuFuncSetAttribute(s->ref_f, CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES,
                                                  (int)s->pv.ref_max_smem));
    for (int i = 0; i < b->n_args && st == GB_OK; i++) {
        size_t bytes = s->pv.count[i] * gb_spec_type_size(b->args[i].type);
        if (!b->args[i].output)
            continue;
        if ((st = gb_gpu_alloc(p->gpu, bytes ? bytes : 16, &theirs[i])) != GB_OK)
            break;
        if (s->init_copy[i])
            GB_CU_CHECK(st, gb_cu->cuMemcpyDtoDAsync(theirs[i], s->init_copy[i], bytes, p->gpu->stream));
        else if (bytes)
            st = gb_spec_poison_buffer(p->gpu, b->args[i].type, theirs[i], bytes);
        mine[i] = s->buf[i];
        s->buf[i] = theirs[i]; /* the launch's parameters point at s->buf */
    }
    if (st == GB_OK && (st = gb_spec_launch_kernel(p, s, s->ref_f, s->pv.ref_grid, s->pv.ref_block,
                                                   s->pv.ref_smem)) == GB_OK)
        st = gb_gpu_sync(p->gpu);
    for (int i = 0; i < b->n_args && st == GB_OK; i++) {
        size_t bytes = s->pv.count[i] * gb_spec_type_size(b->args[i].type);
        if (!b->args[i].output)
            continue;
        if (!(s->host_ref[i] = malloc(bytes ? bytes : 1))) {
            st = gb_error_set(GB_ERR_NOMEM, "out of host memory");
            break;
        }
        if (bytes)
            GB_CU_CHECK(st, gb_cu->cuMemcpyDtoH(s->host_ref[i], theirs[i], bytes));
    }
out:
    for (int i = 0; i < b->n_args; i++)
        if (theirs[i]) {
            s->buf[i] = mine[i];
            gb_gpu_free(p->gpu, theirs[i]);
        }
    return st;
}

enum gb_status gb_spec_reference(const struct gb_spec_bench *b, struct gb_point *p, struct gb_spec_state *s)
{
    enum gb_status st = GB_OK;
    char key[512];
    if (b->ref_kind == GB_SR_KERNEL)
        return gb_ref_kernel(b, p, s);
    if (b->ref_kind == GB_SR_FILES) {
        for (int i = 0; i < b->n_args && st == GB_OK; i++)
            if (b->args[i].output)
                st = gb_ref_file(b, i, s->pv.count[i] * gb_spec_type_size(b->args[i].type), &s->host_ref[i]);
        return st;
    }
    gb_problem_key(b, p, key, sizeof key);
    struct gb_spec_first *f = gb_first_find(b, key);
    if (!f) {
        s->ref_is_self = 1;
        return GB_OK;
    }
    for (int i = 0; i < b->n_args; i++) {
        size_t bytes = s->pv.count[i] * gb_spec_type_size(b->args[i].type);
        if (!b->args[i].output)
            continue;
        if (f->bytes[i] != bytes)
            return gb_error_set(GB_ERR_VERIFY, "output %s: %zu bytes, but the first configuration of %s made %zu",
                                b->args[i].name, bytes, key, f->bytes[i]);
        if (!(s->host_ref[i] = malloc(bytes ? bytes : 1)))
            return gb_error_set(GB_ERR_NOMEM, "out of host memory");
        memcpy(s->host_ref[i], f->out[i], bytes);
    }
    return GB_OK;
}

/* ---- the comparison ---- */

static double gb_load(const void *h, enum gb_spec_type t, size_t i)
{
    switch (t) {
    case GB_ST_FLOAT: return ((const float *)h)[i];
    case GB_ST_DOUBLE: return ((const double *)h)[i];
    case GB_ST_INT: return ((const int32_t *)h)[i];
    case GB_ST_UINT: return ((const uint32_t *)h)[i];
    case GB_ST_LONG: return (double)((const int64_t *)h)[i];
    case GB_ST_ULONG: return (double)((const uint64_t *)h)[i];
    }
    return NAN;
}

/* Whether element i still holds the poison. */
static int gb_poisoned(const void *h, enum gb_spec_type t, size_t i)
{
    size_t sz = gb_spec_type_size(t);
    const unsigned char *p = (const unsigned char *)h + i * sz;
    if (gb_spec_type_float(t))
        return isnan(gb_load(h, t, i));
    for (size_t k = 0; k < sz; k++)
        if (p[k] != 0xA5)
            return 0;
    return 1;
}

int gb_spec_match(const struct gb_spec_arg *a, const void *got, const void *exp, size_t i)
{
    size_t sz = gb_spec_type_size(a->type);
    if (!gb_spec_type_float(a->type) && a->rtol == 0 && a->atol == 0)
        return memcmp((const char *)got + i * sz, (const char *)exp + i * sz, sz) == 0;
    double g = gb_load(got, a->type, i), e = gb_load(exp, a->type, i);
    if (isnan(g) || isnan(e))
        return isnan(g) && isnan(e);
    return fabs(g - e) <= a->atol + a->rtol * fabs(e);
}

static enum gb_status gb_compare_one(const struct gb_spec_bench *b, int i, const void *got, const void *exp, size_t n)
{
    const struct gb_spec_arg *a = &b->args[i];
    size_t bad = 0, first = 0;
    for (size_t k = 0; k < n; k++)
        if (!gb_spec_match(a, got, exp, k) && bad++ == 0)
            first = k;
    if (!bad)
        return GB_OK;
    return gb_error_set(GB_ERR_VERIFY, "output %s: index %zu: expected %.9g, got %.9g (%zu of %zu values differ; "
                        "rtol %g, atol %g)", a->name, first, gb_load(exp, a->type, first),
                        gb_load(got, a->type, first), bad, n, a->rtol, a->atol);
}

/* A point that is its problem's first: every output must have been
 * written; its outputs become the reference of the points after it. */
static enum gb_status gb_keep_first(struct gb_spec_bench *b, struct gb_point *p, struct gb_spec_state *s,
                                    void *const *got)
{
    char key[512];
    gb_problem_key(b, p, key, sizeof key);
    for (int i = 0; i < b->n_args; i++) {
        if (!b->args[i].output)
            continue;
        for (size_t k = 0; k < s->pv.count[i]; k++)
            if (gb_poisoned(got[i], b->args[i].type, k))
                return gb_error_set(GB_ERR_VERIFY, "output %s: index %zu was not written (it holds the poison); "
                                    "the first configuration of %s must write every output value (reference "
                                    "\"first\")", b->args[i].name, k, key[0] ? key : "the problem");
    }
    struct gb_spec_first *f = calloc(1, sizeof *f);
    if (!f)
        return gb_error_set(GB_ERR_NOMEM, "out of host memory");
    snprintf(f->key, sizeof f->key, "%s", key);
    for (int i = 0; i < b->n_args; i++)
        if (b->args[i].output) {
            f->bytes[i] = s->pv.count[i] * gb_spec_type_size(b->args[i].type);
            if (!(f->out[i] = malloc(f->bytes[i] ? f->bytes[i] : 1))) {
                for (int k = 0; k < i; k++)
                    free(f->out[k]);
                free(f);
                return gb_error_set(GB_ERR_NOMEM, "out of host memory");
            }
            memcpy(f->out[i], got[i], f->bytes[i]);
        }
    f->next = b->firsts;
    b->firsts = f;
    return GB_OK;
}

enum gb_status gb_spec_compare(struct gb_spec_bench *b, struct gb_point *p, struct gb_spec_state *s)
{
    enum gb_status st = GB_OK;
    void *got[GB_SPEC_MAX_ARGS] = {0};
    for (int i = 0; i < b->n_args && st == GB_OK; i++) {
        size_t bytes = s->pv.count[i] * gb_spec_type_size(b->args[i].type);
        if (!b->args[i].output)
            continue;
        if (!(got[i] = malloc(bytes ? bytes : 1))) {
            st = gb_error_set(GB_ERR_NOMEM, "out of host memory");
            break;
        }
        if (bytes)
            GB_CU_CHECK(st, gb_cu->cuMemcpyDtoH(got[i], s->buf[i], bytes));
    }
    if (st == GB_OK && s->ref_is_self)
        st = gb_keep_first(b, p, s, got);
    for (int i = 0; i < b->n_args && st == GB_OK && !s->ref_is_self; i++)
        if (b->args[i].output)
            st = gb_compare_one(b, i, got[i], s->host_ref[i], s->pv.count[i]);
out:
    for (int i = 0; i < b->n_args; i++)
        free(got[i]);
    return st;
}
