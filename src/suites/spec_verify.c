/* spec_verify.c - what a spec bench's outputs are compared with, and the
 * comparison, both on the device.
 *
 * The reference of a problem is made once and kept with its inputs
 * (spec_cache.h), on the device:
 *   - a reference kernel runs on the problem's inputs into the problem's
 *     reference buffers (at the setup of its first point);
 *   - reference files are read (raw little-endian values of one size) and
 *     uploaded;
 *   - "first": the first point of each problem (the values of the problem
 *     axes) whose outputs are all written becomes the reference of the
 *     points of that problem after it (its outputs copied on the device).
 *     The inputs of one problem are the same for every configuration
 *     (spec_args.c generates them so).
 * The comparison kernel (kernels/spec_data.cu) applies the rule of
 * gb_spec_match to every element and returns only the count of mismatches
 * and the first mismatching index; the host then reads that element of
 * both. An element matches when |got - expected| <= atol + rtol *
 * |expected| (two NaNs match: both left it unwritten or both computed it
 * so); integers without a tolerance bit for bit. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "suites/spec_internal.h"

/* Uploads reference file of output i into the problem's reference; a size
 * that differs fails the point. */
static enum gb_status gb_ref_file(const struct gb_spec_bench *b, int i, size_t bytes, CUdeviceptr dst)
{
    const struct gb_spec_arg *a = &b->args[i];
    enum gb_status st = GB_OK;
    FILE *f = gb_spec_open_data(a->ref_file);
    void *h = malloc(bytes ? bytes : 1);
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
    if (bytes)
        GB_CU_CHECK(st, gb_cu->cuMemcpyHtoD(dst, h, bytes));
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
                                    .n_exprs = 1, .exprs = (const char (*)[GB_KERNEL_NAME_LEN])exprs,
                                    .user = 1};
    enum gb_status st = gb_gpu_module_program(p->gpu, &prog, optp, n, &m, &lowered);
    if (st != GB_OK)
        return st;
    return gb_gpu_function(m, lowered[0], &s->ref_f);
}

/* Runs the reference kernel on the problem's inputs into its reference
 * buffers (the launch's parameters point at s->buf: the outputs' are
 * pointed at the reference buffers while it runs). */
static enum gb_status gb_ref_kernel(const struct gb_spec_bench *b, struct gb_point *p, struct gb_spec_state *s)
{
    enum gb_status st = GB_OK;
    struct gb_spec_problem *pr = s->prob;
    if (!s->ref_f && (st = gb_ref_function(b, p, s)) != GB_OK)
        return st;
    if (s->pv.ref_max_smem >= 0)
        GB_CU_CHECK(st, gb_cu->cuFuncSetAttribute(s->ref_f, CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES,
                                                  (int)s->pv.ref_max_smem));
    for (int i = 0; i < b->n_args && st == GB_OK; i++) {
        size_t bytes = s->pv.count[i] * gb_spec_type_size(b->args[i].type);
        if (!b->args[i].output)
            continue;
        if (pr->init[i] && bytes)
            GB_CU_CHECK(st, gb_cu->cuMemcpyDtoDAsync(pr->ref[i], pr->init[i], bytes, p->gpu->stream));
        else if (bytes)
            st = gb_spec_poison_buffer(p->gpu, b->args[i].type, pr->ref[i], bytes);
        s->buf[i] = pr->ref[i];
    }
    if (st == GB_OK && (st = gb_spec_launch_kernel(p, s, s->ref_f, s->pv.ref_grid, s->pv.ref_block,
                                                   s->pv.ref_smem)) == GB_OK)
        st = gb_gpu_sync(p->gpu);
out:
    for (int i = 0; i < b->n_args; i++)
        if (!b->args[i].scalar)
            s->buf[i] = pr->data[i];
    return st;
}

enum gb_status gb_spec_reference(const struct gb_spec_bench *b, struct gb_point *p, struct gb_spec_state *s)
{
    enum gb_status st = GB_OK;
    s->ref_is_self = 0;
    if (s->prob->ref_made)
        return GB_OK;
    if (b->ref_kind == GB_SR_FIRST) {
        s->ref_is_self = 1;
        return GB_OK;
    }
    if (b->ref_kind == GB_SR_KERNEL)
        st = gb_ref_kernel(b, p, s);
    for (int i = 0; i < b->n_args && st == GB_OK && b->ref_kind == GB_SR_FILES; i++)
        if (b->args[i].output)
            st = gb_ref_file(b, i, s->pv.count[i] * gb_spec_type_size(b->args[i].type), s->prob->ref[i]);
    if (st == GB_OK)
        s->prob->ref_made = 1;
    return st;
}

/* ---- the comparison ---- */

int gb_spec_match(const struct gb_spec_arg *a, const void *got, const void *exp, size_t i)
{
    return gb_sd_match((int)a->type, a->rtol, a->atol, got, exp, i);
}

/* Runs the comparison kernel on output i: with `exp`, the elements that
 * differ from it; without, those that still hold the poison. *bad their
 * count, *first the first one's index. */
static enum gb_status gb_compare_device(const struct gb_spec_bench *b, struct gb_point *p, struct gb_spec_state *s,
                                        int i, CUdeviceptr exp, uint64_t *bad, uint64_t *first)
{
    enum gb_status st = GB_OK;
    const struct gb_spec_arg *a = &b->args[i];
    CUdeviceptr got = s->buf[i], out = s->dev->result;
    unsigned long long n = s->pv.count[i], res[2] = {0, 0};
    int type = (int)a->type;
    double rtol = a->rtol, atol = a->atol;
    void *args[] = {&got, &exp, &n, &type, &rtol, &atol, &out};
    size_t blocks = (n + 255) / 256, cap = (size_t)(p->gpu->info.sm_count > 0 ? p->gpu->info.sm_count : 1) * 8;
    GB_CU_CHECK(st, gb_cu->cuMemsetD32Async(out, 0, 2, p->gpu->stream));
    GB_CU_CHECK(st, gb_cu->cuMemsetD32Async(out + sizeof(uint64_t), 0xFFFFFFFFu, 2, p->gpu->stream));
    if ((st = gb_gpu_launch(p->gpu, s->dev->compare, (unsigned)(blocks < cap ? (blocks ? blocks : 1) : cap), 1, 1,
                            256, 1, 1, 0, args)) != GB_OK ||
        (st = gb_gpu_sync(p->gpu)) != GB_OK)
        goto out;
    GB_CU_CHECK(st, gb_cu->cuMemcpyDtoH(res, out, sizeof res));
    *bad = res[0];
    *first = res[1];
out:
    return st;
}

/* Element k of device array d (of output i's type) on the host, as a double. */
static enum gb_status gb_read_element(const struct gb_spec_arg *a, CUdeviceptr d, uint64_t k, double *x)
{
    enum gb_status st = GB_OK;
    uint64_t word = 0;
    size_t sz = gb_spec_type_size(a->type);
    GB_CU_CHECK(st, gb_cu->cuMemcpyDtoH(&word, d + k * sz, sz));
    *x = gb_sd_load(&word, (int)a->type, 0);
out:
    return st;
}

static enum gb_status gb_compare_one(const struct gb_spec_bench *b, struct gb_point *p, struct gb_spec_state *s,
                                     int i)
{
    const struct gb_spec_arg *a = &b->args[i];
    uint64_t bad = 0, first = 0;
    double e = NAN, g = NAN;
    enum gb_status st = gb_compare_device(b, p, s, i, s->prob->ref[i], &bad, &first);
    if (st != GB_OK || !bad)
        return st;
    if ((st = gb_read_element(a, s->prob->ref[i], first, &e)) != GB_OK ||
        (st = gb_read_element(a, s->buf[i], first, &g)) != GB_OK)
        return st;
    return gb_error_set(GB_ERR_VERIFY, "output %s: index %zu: expected %.9g, got %.9g (%zu of %zu values differ; "
                        "rtol %g, atol %g)", a->name, (size_t)first, e, g, (size_t)bad, s->pv.count[i], a->rtol,
                        a->atol);
}

/* A point that is its problem's first: every output must have been
 * written; its outputs become the problem's reference. */
static enum gb_status gb_keep_first(struct gb_spec_bench *b, struct gb_point *p, struct gb_spec_state *s)
{
    enum gb_status st = GB_OK;
    struct gb_spec_problem *pr = s->prob;
    for (int i = 0; i < b->n_args && st == GB_OK; i++) {
        uint64_t bad = 0, first = 0;
        if (!b->args[i].output || s->pv.count[i] == 0)
            continue;
        if ((st = gb_compare_device(b, p, s, i, 0, &bad, &first)) == GB_OK && bad)
            st = gb_error_set(GB_ERR_VERIFY, "output %s: index %zu was not written (it holds the poison); the first "
                              "configuration of %s must write every output value (reference \"first\")",
                              b->args[i].name, (size_t)first, pr->key[0] ? pr->key : "the problem");
    }
    for (int i = 0; i < b->n_args && st == GB_OK; i++) {
        size_t bytes = s->pv.count[i] * gb_spec_type_size(b->args[i].type);
        if (b->args[i].output && bytes)
            GB_CU_CHECK(st, gb_cu->cuMemcpyDtoDAsync(pr->ref[i], s->buf[i], bytes, p->gpu->stream));
    }
    if (st == GB_OK && (st = gb_gpu_sync(p->gpu)) == GB_OK)
        pr->ref_made = 1;
out:
    return st;
}

enum gb_status gb_spec_compare(struct gb_spec_bench *b, struct gb_point *p, struct gb_spec_state *s)
{
    enum gb_status st = GB_OK;
    if (s->ref_is_self)
        st = gb_keep_first(b, p, s);
    for (int i = 0; i < b->n_args && st == GB_OK && !s->ref_is_self; i++)
        if (b->args[i].output && s->pv.count[i])
            st = gb_compare_one(b, p, s, i);
    /* A wrong kernel may have written its inputs too: the next point of
     * the problem gets them made again (the same values; the reference is
     * kept). */
    if (st == GB_ERR_VERIFY)
        s->prob->made = 0;
    return st;
}
