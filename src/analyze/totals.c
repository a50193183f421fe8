/* totals.c - an analysis's per-thread counts evaluated at one point
 * (gb_analysis_totals in gpubound/analyze.h). */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "gpubound/analyze.h"

struct tctx {
    const struct gb_kernel_analysis *a;
    gb_cexpr_lookup lookup;
    void *ctx;
    int depth;
};

static enum gb_status t_lookup(void *p, const char *name, double *v, int *is_int)
{
    struct tctx *t = p;
    for (size_t i = t->a->n_locals; i-- > 0;)
        if (strcmp(t->a->local_names[i], name) == 0) {
            if (t->depth > 16)
                return gb_error_set(GB_ERR_FORMAT, "%s is defined through itself", name);
            t->depth++;
            enum gb_status st = gb_cexpr_eval(t->a->local_inits[i], GB_CEXPR_C, t_lookup, t, v);
            t->depth--;
            *is_int = *v == floor(*v);
            return st;
        }
    if (!t->lookup)
        return gb_error_set(GB_ERR_FORMAT, "%s is not known", name);
    return t->lookup(t->ctx, name, v, is_int);
}

/* The value of one counted place, or NaN with the reason in `why`. */
static double count_value(struct tctx *t, const struct gb_kcount *k, char *why, size_t wn)
{
    double v;
    if (!k->decided) {
        if (!why[0])
            snprintf(why, wn, "line %d lies in a loop whose count the analysis cannot read",
                     k->line);
        return NAN;
    }
    if (gb_cexpr_eval(k->count, GB_CEXPR_C, t_lookup, t, &v) != GB_OK) {
        if (!why[0])
            snprintf(why, wn, "line %d: %s", k->line, gb_error_message());
        return NAN;
    }
    return v;
}

/* The elements one access instruction of x takes (1 unless vectorized), or
 * NaN with the reason in `why`. */
static double vector_width(struct tctx *t, const struct gb_kaccess *x, char *why, size_t wn)
{
    double v;
    if (!x->vector[0])
        return 1;
    if (gb_cexpr_eval(x->vector, GB_CEXPR_C, t_lookup, t, &v) != GB_OK || !(v >= 1)) {
        if (!why[0])
            snprintf(why, wn, "line %d: the vector width: %.120s", x->at.line,
                     gb_error_message());
        return NAN;
    }
    return v;
}

/* The threads of a block that reach atomic x, with the thread indices of
 * x->zero_dims at 0: the product of blockDim over the other dimensions
 * (from the lookup; a dimension it does not know is 1, a launch of fewer
 * dimensions). */
static double zero_dims_threads(struct tctx *t, const struct gb_katomic *x, char *why, size_t wn)
{
    double n = 1;
    for (int d = 0; d < 3; d++) {
        if (x->zero_dims >> d & 1)
            continue;
        char name[16];
        double v;
        int is_int;
        snprintf(name, sizeof name, "blockDim.%c", "xyz"[d]);
        if (t->lookup(t->ctx, name, &v, &is_int) != GB_OK) {
            gb_error_clear();
            continue;
        }
        if (!(v >= 1)) {
            if (!why[0])
                snprintf(why, wn, "line %d: %s = %g", x->at.line, name, v);
            return NAN;
        }
        n *= v;
    }
    return n;
}

void gb_analysis_totals(const struct gb_kernel_analysis *a, gb_cexpr_lookup lookup, void *ctx,
                        struct gb_analysis_totals *out)
{
    struct tctx t = {a, lookup, ctx, 0};
    memset(out, 0, sizeof *out);
    for (size_t i = 0; i < a->n_ops; i++)
        out->ops += a->ops[i].n * count_value(&t, &a->ops[i].at, out->why_ops, sizeof out->why_ops);
    for (size_t i = 0; i < a->n_acc; i++) {
        const struct gb_kaccess *x = &a->acc[i];
        int per = x->loads + x->stores;
        if (x->space == GB_KSPACE_GLOBAL) {
            double c = count_value(&t, &x->at, out->why_global, sizeof out->why_global);
            out->global_accesses += per * c;
            out->global_bytes += per * c * x->elem_bytes;
        } else {
            out->shared_accesses += per *
                                    count_value(&t, &x->at, out->why_shared, sizeof out->why_shared) /
                                    vector_width(&t, x, out->why_shared, sizeof out->why_shared);
        }
    }
    for (size_t i = 0; i < a->n_atomics; i++) {
        const struct gb_katomic *x = &a->atomics[i];
        double c = count_value(&t, &x->at, out->why_atomics, sizeof out->why_atomics);
        if (x->zero_dims)
            out->atomics_block += c * zero_dims_threads(&t, x, out->why_atomics, sizeof out->why_atomics);
        else
            out->atomics_thread += c;
    }
    for (size_t i = 0; i < a->n_barriers; i++)
        out->barriers += count_value(&t, &a->barriers[i].at, out->why_barriers,
                                     sizeof out->why_barriers);
    /* A loop with no count makes its body's count unknown even when it
     * holds no access: the kernel's work is then not fully counted. */
    for (size_t i = 0; i < a->n_loops; i++)
        if (!a->loops[i].trips[0] && !out->why_ops[0])
            snprintf(out->why_ops, sizeof out->why_ops, "line %d: %s", a->loops[i].at.line,
                     a->loops[i].why);
    if (out->why_ops[0])
        out->ops = NAN;
    if (out->why_global[0])
        out->global_bytes = out->global_accesses = NAN;
    if (out->why_shared[0])
        out->shared_accesses = NAN;
    if (out->why_atomics[0])
        out->atomics_thread = out->atomics_block = NAN;
    if (out->why_barriers[0])
        out->barriers = NAN;
    gb_error_clear();
}
