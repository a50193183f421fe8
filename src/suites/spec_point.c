/* spec_point.c - what a point of a spec bench evaluates to: its defines,
 * kernel name, launch geometry, buffer sizes, scalars, bytes and flops,
 * each checked (a count, grid, block or shared-memory size must be a
 * non-negative integer), and the -D options and name expressions it is
 * compiled with. No GPU is needed. */
#include <float.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "suites/spec_internal.h"

/* The columns of the type table (kernels/spec_data.h) the host reads. */
static const struct {
    const char *name, *alias, *range;
    double rtol, atol;
} gb_type_rows[] = {
#define GB_TYPE_ROW(id, nm, al, sz, kd, eb, mb, fn, rt, at, rg) {nm, al, rg, rt, at},
    GB_SD_TYPES(GB_TYPE_ROW)
#undef GB_TYPE_ROW
};

static int gb_type_known(enum gb_spec_type t)
{
    return (unsigned)t < (unsigned)GB_SD_N_TYPES;
}

size_t gb_spec_type_size(enum gb_spec_type t)
{
    return (size_t)gb_sd_size((int)t);
}

int gb_spec_type_float(enum gb_spec_type t)
{
    return gb_sd_is_float((int)t);
}

int gb_spec_type_holds(enum gb_spec_type t, double x, const char **range)
{
    struct gb_sd_fmt f = gb_sd_fmt_of((int)t);
    int ok = isfinite(x);
    if (f.kind == GB_SD_IEEE || f.kind == GB_SD_SMALL) {
        ok = ok && fabs(x) <= gb_sd_max(f);
    } else {
        /* two's complement of size bytes: [-2^(bits-1), 2^(bits-1)) or [0, 2^bits) */
        double lim = ldexp(1.0, 8 * f.size - (f.kind == GB_SD_SIGNED));
        ok = ok && x == floor(x) && x >= (f.kind == GB_SD_SIGNED ? -lim : 0) && x < lim;
    }
    if (range)
        *range = gb_type_known(t) ? gb_type_rows[t].range : "?";
    return ok;
}

const char *gb_spec_type_name(enum gb_spec_type t)
{
    return gb_type_known(t) ? gb_type_rows[t].name : "?";
}

int gb_spec_type_parse(const char *name)
{
    for (int i = 0; i < GB_SD_N_TYPES; i++)
        if (strcmp(name, gb_type_rows[i].name) == 0 || (gb_type_rows[i].alias[0] && strcmp(name, gb_type_rows[i].alias) == 0))
            return i;
    return -1;
}

void gb_spec_type_names(char *buf, size_t n)
{
    size_t len = 0;
    buf[0] = '\0';
    for (int pass = 0; pass < 2; pass++)
        for (int i = 0; i < GB_SD_N_TYPES && len < n; i++) {
            const char *w = pass ? gb_type_rows[i].alias : gb_type_rows[i].name;
            int k = w[0] ? snprintf(buf + len, n - len, "%s%s", len ? ", " : "", w) : 0;
            len += k > 0 ? (size_t)k : 0;
        }
}

void gb_spec_type_tolerance(enum gb_spec_type t, double *rtol, double *atol)
{
    *rtol = gb_type_known(t) ? gb_type_rows[t].rtol : 0;
    *atol = gb_type_known(t) ? gb_type_rows[t].atol : 0;
}

void gb_spec_point_label(const struct gb_spec_bench *b, const struct gb_point *p, char *buf, size_t n)
{
    size_t len = 0;
    buf[0] = '\0';
    for (int a = 0; a < b->n_axes && len < n; a++) {
        int w = snprintf(buf + len, n - len, "%s%s=%s", a ? " " : "", b->axes[a].name,
                         gb_point_str(p, b->axes[a].name));
        len += w > 0 ? (size_t)w : 0;
    }
}

/* What the current check is about, for its message. */
struct gb_pv_ctx {
    const struct gb_spec_bench *b;
    const struct gb_point *p;
    const char *pre;             /* "" or "reference." */
};

static enum gb_status gb_pv_fail(const struct gb_pv_ctx *c, const char *field, const struct gb_expr *e, double x,
                                 const char *what)
{
    char label[256];
    gb_spec_point_label(c->b, c->p, label, sizeof label);
    return gb_error_set(GB_ERR_USAGE, "%s: benches[%d].%s%s: \"%s\" = %.10g at %s is not %s", c->b->spec->file,
                        c->b->index, c->pre, field, gb_expr_text(e), x, label, what);
}

static enum gb_status gb_pv_eval(const struct gb_pv_ctx *c, const char *field, const struct gb_expr *e,
                                 const double *v, double *x)
{
    enum gb_status st = gb_expr_eval(e, v, x);
    if (st == GB_OK && !isfinite(*x))
        return gb_pv_fail(c, field, e, *x, "a number");
    return st;
}

/* A non-negative integer of at most `max`. */
static enum gb_status gb_pv_count(const struct gb_pv_ctx *c, const char *field, const struct gb_expr *e,
                                  const double *v, double max, double *x)
{
    enum gb_status st = gb_pv_eval(c, field, e, v, x);
    if (st == GB_OK && (*x < 0 || *x != floor(*x)))
        return gb_pv_fail(c, field, e, *x, "a non-negative integer");
    if (st == GB_OK && *x > max) {
        char what[64];
        snprintf(what, sizeof what, "at most %.0f", max);
        return gb_pv_fail(c, field, e, *x, what);
    }
    return st;
}

enum gb_status gb_spec_name_eval(const struct gb_spec_name *nm, const double *v, char *buf, size_t n)
{
    size_t len = 0;
    buf[0] = '\0';
    for (int k = 0; k <= nm->n_parts; k++) {
        int w = snprintf(buf + len, n - len, "%s", nm->lit[k]);
        len += w > 0 ? (size_t)w : 0;
        if (k == nm->n_parts || len >= n)
            break;
        double x;
        enum gb_status st = gb_expr_eval(nm->part[k], v, &x);
        if (st != GB_OK)
            return st;
        if (!isfinite(x) || x != floor(x) || fabs(x) > 9e15)
            return gb_error_set(GB_ERR_USAGE, "{%s} = %.10g is not an integer", gb_expr_text(nm->part[k]), x);
        w = snprintf(buf + len, n - len, "%lld", (long long)x);
        len += w > 0 ? (size_t)w : 0;
    }
    if (len >= n)
        return gb_error_set(GB_ERR_USAGE, "the kernel name is longer than %zu characters", n - 1);
    return GB_OK;
}

/* Defines in order, each over what comes before it. */
static enum gb_status gb_pv_defines(const struct gb_pv_ctx *c, const struct gb_spec_define *d, int n, double *v,
                                    int first)
{
    enum gb_status st = GB_OK;
    char field[64];
    for (int i = 0; i < n && st == GB_OK; i++) {
        snprintf(field, sizeof field, "defines.%s", d[i].name);
        st = gb_pv_eval(c, field, d[i].expr, v, &v[first + i]);
    }
    return st;
}

/* A kernel's name and launch under the scope's values `v`. */
static enum gb_status gb_pv_launch(const struct gb_pv_ctx *c, const struct gb_spec_launch *l, const double *v,
                                   char *kernel, unsigned grid[3], unsigned block[3], unsigned *smem, long *max_smem)
{
    enum gb_status st;
    char field[32];
    double x;
    if ((st = gb_spec_name_eval(&l->kernel, v, kernel, GB_KERNEL_NAME_LEN)) != GB_OK) {
        char why[256], label[256];
        snprintf(why, sizeof why, "%s", gb_error_message());
        gb_spec_point_label(c->b, c->p, label, sizeof label);
        return gb_error_set(GB_ERR_USAGE, "%s: benches[%d].%skernel: \"%s\" at %s: %s", c->b->spec->file,
                            c->b->index, c->pre, l->kernel.text, label, why);
    }
    for (int d = 0; d < 3; d++) {
        snprintf(field, sizeof field, "grid[%d]", d);
        if ((st = gb_pv_count(c, field, l->grid[d], v, (double)UINT_MAX, &x)) != GB_OK)
            return st;
        grid[d] = (unsigned)x;
        snprintf(field, sizeof field, "block[%d]", d);
        if ((st = gb_pv_count(c, field, l->block[d], v, (double)UINT_MAX, &x)) != GB_OK)
            return st;
        block[d] = (unsigned)x;
    }
    x = 0;
    if (l->smem && (st = gb_pv_count(c, "dynamic_smem", l->smem, v, (double)INT_MAX, &x)) != GB_OK)
        return st;
    *smem = (unsigned)x;
    /* Unset: opt in only when the launch needs more than the default 48 KiB. */
    *max_smem = *smem > 48 * 1024 ? (long)*smem : -1;
    if (l->max_smem && (st = gb_pv_count(c, "max_dynamic_smem", l->max_smem, v, (double)INT_MAX, &x)) != GB_OK)
        return st;
    if (l->max_smem)
        *max_smem = (long)x;
    return GB_OK;
}

/* A data file of `have` bytes that buffer i, `count` elements, reads. */
static enum gb_status gb_pv_file(const struct gb_pv_ctx *c, int i, size_t count, const char *field,
                                 const char *file, long long have)
{
    const struct gb_spec_arg *a = &c->b->args[i];
    size_t sz = gb_spec_type_size(a->type);
    if (have >= 0 && (unsigned long long)have == (unsigned long long)count * sz)
        return GB_OK;
    char label[256];
    gb_spec_point_label(c->b, c->p, label, sizeof label);
    return gb_error_set(GB_ERR_USAGE, "%s: benches[%d].%s: %s holds %lld bytes; %s needs %zu (%zu %s values) at %s",
                        c->b->spec->file, c->b->index, field, file, have, a->name, count * sz, count,
                        gb_spec_type_name(a->type), label);
}

/* What buffer i is filled from or compared with, checked without a GPU:
 * an iota's last element fits the type (its start was checked when the
 * spec was read); an init or reference file holds exactly the buffer. */
static enum gb_status gb_pv_init(const struct gb_pv_ctx *c, int i, size_t count)
{
    const struct gb_spec_arg *a = &c->b->args[i];
    const char *range;
    char field[96];
    enum gb_status st = GB_OK;
    if (a->scalar)
        return GB_OK;
    if (a->init == GB_SI_FILE) {
        snprintf(field, sizeof field, "args[%d].init.file", i);
        st = gb_pv_file(c, i, count, field, a->file, a->file_size);
    }
    if (st == GB_OK && c->b->ref_kind == GB_SR_FILES && a->output && a->ref_file) {
        snprintf(field, sizeof field, "reference.files.%s", a->name);
        st = gb_pv_file(c, i, count, field, a->ref_file, a->ref_size);
    }
    if (st != GB_OK || a->init != GB_SI_IOTA || count == 0)
        return st;
    double last = a->a + a->b * (double)(count - 1);
    if (gb_spec_type_holds(a->type, gb_spec_type_float(a->type) ? last : trunc(last), &range))
        return GB_OK;
    char label[256];
    gb_spec_point_label(c->b, c->p, label, sizeof label);
    return gb_error_set(GB_ERR_USAGE, "%s: benches[%d].args[%d].init.iota: element %zu = %.10g at %s is not %s",
                        c->b->spec->file, c->b->index, i, count - 1, last, label, range);
}

/* Buffer counts, scalars, bytes and flops. */
static enum gb_status gb_pv_args(const struct gb_pv_ctx *c, struct gb_spec_values *out)
{
    const struct gb_spec_bench *b = c->b;
    enum gb_status st = GB_OK;
    char field[64];
    double x;
    for (int i = 0; i < b->n_args && st == GB_OK; i++) {
        const struct gb_spec_arg *a = &b->args[i];
        if (!a->scalar) {
            snprintf(field, sizeof field, "args[%d].count", i);
            st = gb_pv_count(c, field, a->count, out->v, 1e12 / (double)gb_spec_type_size(a->type), &x);
            if (st == GB_OK) /* a refused count may be anything, inf included */
                out->count[i] = (size_t)x;
            continue;
        }
        snprintf(field, sizeof field, "args[%d].value", i);
        if ((st = gb_pv_eval(c, field, a->value, out->v, &x)) != GB_OK)
            break;
        out->scalar[i] = x;
        const char *range;
        if (!gb_spec_type_float(a->type) && x != floor(x))
            st = gb_pv_fail(c, field, a->value, x, "an integer (the argument is an integer type)");
        else if (!gb_spec_type_holds(a->type, x, &range))
            st = gb_pv_fail(c, field, a->value, x, range);
    }
    for (int i = 0; i < b->n_args && st == GB_OK; i++)
        st = gb_pv_init(c, i, out->count[i]);
    out->bytes = out->flops = 0;
    if (st == GB_OK && b->bytes && (st = gb_pv_eval(c, "bytes", b->bytes, out->v, &out->bytes)) == GB_OK &&
        out->bytes < 0)
        st = gb_pv_fail(c, "bytes", b->bytes, out->bytes, "a non-negative number");
    if (st == GB_OK && b->flops && (st = gb_pv_eval(c, "flops", b->flops, out->v, &out->flops)) == GB_OK &&
        out->flops < 0)
        st = gb_pv_fail(c, "flops", b->flops, out->flops, "a non-negative number");
    return st;
}

enum gb_status gb_spec_point_values(const struct gb_spec_bench *b, const struct gb_point *p,
                                    struct gb_spec_values *out)
{
    struct gb_pv_ctx c = {.b = b, .p = p, .pre = ""};
    enum gb_status st;
    memset(out, 0, sizeof *out);
    for (int a = 0; a < b->n_axes; a++)
        out->v[a] = (double)gb_point_int(p, b->axes[a].name);
    if ((st = gb_pv_defines(&c, b->defines, b->n_defines, out->v, b->n_axes)) != GB_OK ||
        (st = gb_pv_launch(&c, &b->launch, out->v, out->kernel, out->grid, out->block, &out->smem,
                           &out->max_smem)) != GB_OK ||
        (st = gb_pv_args(&c, out)) != GB_OK)
        return st;
    if (b->ref_kind != GB_SR_KERNEL)
        return GB_OK;
    c.pre = "reference.";
    memcpy(out->rv, out->v, sizeof out->rv);
    if ((st = gb_pv_defines(&c, b->ref.defines, b->ref.n_defines, out->rv, b->n_names)) != GB_OK)
        return st;
    return gb_pv_launch(&c, &b->ref, out->rv, out->ref_kernel, out->ref_grid, out->ref_block, &out->ref_smem,
                        &out->ref_max_smem);
}

enum gb_status gb_spec_check_point(const struct gb_point *p)
{
    struct gb_spec_values pv;
    if (!gb_spec_bench_is(p->bench))
        return GB_OK;
    return gb_spec_point_values(p->bench->ctx, p, &pv);
}

/* "-DNAME=value": integers as integers, other values exactly. */
static void gb_opt(char *buf, const char *name, double x)
{
    if (x == floor(x) && fabs(x) < 9e15)
        snprintf(buf, GB_OPT_LEN, "-D%s=%lld", name, (long long)x);
    else
        snprintf(buf, GB_OPT_LEN, "-D%s=%.17g", name, x);
}

int gb_spec_opts(const struct gb_spec_bench *b, const struct gb_spec_values *pv, int ref, char opts[][GB_OPT_LEN],
                 int max)
{
    int n = 0;
    for (int a = 0; a < b->n_axes && n < max; a++)
        gb_opt(opts[n++], b->axes[a].name, pv->v[a]);
    for (int i = 0; i < b->n_defines && n < max; i++)
        gb_opt(opts[n++], b->defines[i].name, pv->v[b->n_axes + i]);
    for (int i = 0; ref && i < b->ref.n_defines && n < max; i++)
        gb_opt(opts[n++], b->ref.defines[i].name, pv->rv[b->n_names + i]);
    return n;
}

/* Whether the reference kernel lives in the bench's own module. */
int gb_spec_ref_shared(const struct gb_spec_bench *b)
{
    return b->ref_kind == GB_SR_KERNEL && b->ref.source == b->launch.source && b->ref.n_defines == 0;
}

int gb_spec_program_exprs(const struct gb_spec_bench *b, const char *const *opts, int n_opts,
                          char exprs[][GB_KERNEL_NAME_LEN], int max)
{
    double v[GB_SPEC_MAX_NAMES] = {0};
    /* The scope's values, back from the options kernel_opts made. */
    for (int i = 0; i < n_opts; i++) {
        const char *eq = strchr(opts[i], '=');
        if (strncmp(opts[i], "-D", 2) != 0 || !eq)
            continue;
        for (int k = 0; k < b->n_names; k++)
            if (strlen(b->names[k]) == (size_t)(eq - opts[i] - 2) && !strncmp(b->names[k], opts[i] + 2, (size_t)(eq - opts[i] - 2)))
                v[k] = strtod(eq + 1, NULL);
    }
    if (max < 2 || gb_spec_name_eval(&b->launch.kernel, v, exprs[0], GB_KERNEL_NAME_LEN) != GB_OK)
        return 0;
    if (!gb_spec_ref_shared(b))
        return 1;
    return gb_spec_name_eval(&b->ref.kernel, v, exprs[1], GB_KERNEL_NAME_LEN) == GB_OK ? 2 : 0;
}
