/* lpbm_input.c - a run's records, its spec and the kernel's source turned
 * into the breakdown model's configurations (gpubound/lpbm_input.h). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gpubound/lpbm_input.h"
#include "gpubound/occupancy.h"
#include "lpbm_internal.h"

/* The -D defines the analysis parses with: the axes, then the spec's defines. */

/* The names a point's expressions may use. */
struct env {
    const struct gb_spec_bench_text *b;
    const struct gb_record *r;
    int depth;
    const struct gb_kernel_analysis *a;   /* the kernel's parameters, in order */
};

static enum gb_status spec_lookup(void *ctx, const char *name, double *v, int *is_int);

static enum gb_status eval_spec(struct env *e, const char *text, double *v)
{
    if (++e->depth > 16) {
        e->depth--;
        return gb_error_set(GB_ERR_FORMAT, "'%s' is defined through itself", text);
    }
    enum gb_status st = gb_cexpr_eval(text, GB_CEXPR_SPEC, spec_lookup, e, v);
    e->depth--;
    return st;
}

static enum gb_status spec_lookup(void *ctx, const char *name, double *v, int *is_int)
{
    struct env *e = ctx;
    *is_int = 0;
    const char *ax = gb_record_axis(e->r, name);
    if (ax) {
        char *end;
        *v = strtod(ax, &end);
        *is_int = *v == floor(*v);
        return *end ? gb_error_set(GB_ERR_FORMAT, "axis %s=%s is not a number", name, ax) : GB_OK;
    }
    for (int i = 0; i < e->b->n_defines; i++)
        if (strcmp(e->b->define_names[i], name) == 0) {
            enum gb_status st = eval_spec(e, e->b->define_exprs[i], v);
            *is_int = *v == floor(*v);
            return st;
        }
    return gb_error_set(GB_ERR_FORMAT, "'%s' is neither an axis nor a define", name);
}

/* The bytes of the bench's buffers at the point (every buffer argument's
 * count x its element's bytes): the most a launch can touch, whatever its
 * counters say it moved; NaN where a count cannot be evaluated. */
static double footprint(struct env *e)
{
    double sum = 0, v;
    for (int i = 0; i < e->b->n_args; i++)
        if (e->b->arg_counts[i]) {
            if (eval_spec(e, e->b->arg_counts[i], &v) != GB_OK || !(v >= 0))
                return NAN;
            sum += v * e->b->arg_elem_bytes[i];
        }
    return sum;
}

/* Block (which = 0) or grid (1) extent along dim d. */
static enum gb_status launch_dim(struct env *e, int which, int d, double *v)
{
    return eval_spec(e, which ? e->b->grid[d] : e->b->block[d], v);
}

static enum gb_status source_lookup(void *ctx, const char *name, double *v, int *is_int)
{
    struct env *e = ctx;
    static const char *const dims = "xyz";
    *is_int = 1;
    if (strcmp(name, "warpSize") == 0)
        return *v = 32, GB_OK;
    if ((!strncmp(name, "blockDim.", 9) || !strncmp(name, "gridDim.", 8))) {
        const char *dot = strchr(name, '.');
        const char *d = strchr(dims, dot[1]);
        if (d && dot[1] && !dot[2])
            return launch_dim(e, name[0] == 'g', (int)(d - dims), v);
    }
    if (!strncmp(name, "threadIdx", 9) || !strncmp(name, "blockIdx", 8))
        return gb_error_set(GB_ERR_FORMAT, "the count depends on %s (it differs between threads)",
                            name);
    /* A kernel parameter is the spec's argument in the same position. */
    for (size_t i = 0; e->a && i < e->a->n_params; i++)
        if (strcmp(e->a->params[i], name) == 0) {
            if ((int)i < e->b->n_args && e->b->arg_values[i])
                return eval_spec(e, e->b->arg_values[i], v);
            return gb_error_set(GB_ERR_FORMAT, "parameter %s is not a scalar argument of the "
                                "spec", name);
        }
    return spec_lookup(ctx, name, v, is_int);
}

static const struct gb_spec_bench_text *find_bench(const struct gb_lpbm_spec *s, const char *bench)
{
    for (size_t i = 0; i < s->n; i++)
        if (strcmp(s->b[i].name, bench) == 0)
            return &s->b[i];
    return NULL;
}

static int is_problem_axis(const struct gb_spec_bench_text *b, const char *axis)
{
    for (int i = 0; i < b->n_axes; i++)
        if (strcmp(b->axes[i], axis) == 0)
            return (b->problem_mask >> i) & 1;
    return strncmp(axis, "block_size_", 11) != 0;
}

static void point_labels(const struct gb_spec_bench_text *b, const struct gb_record *r,
                         struct gb_lpbm_point *p)
{
    size_t lc = 0, lp = 0;
    for (int i = 0; i < r->n_axes; i++) {
        const struct gb_kv *kv = &r->axes[i];
        if (is_problem_axis(b, kv->name))
            lp += (size_t)snprintf(p->problem + lp, lp < sizeof p->problem ? sizeof p->problem - lp : 0,
                                   "%s%s=%s", lp ? " " : "", kv->name, kv->value);
        else
            lc += (size_t)snprintf(p->config + lc, lc < sizeof p->config ? sizeof p->config - lc : 0,
                                   "%s%s=%s", lc ? " " : "", kv->name, kv->value);
    }
}

/* Active warps per SM: the record's, else the occupancy calculator's from
 * the record's registers and shared memory on the run's device. */
static double active_warps(const struct gb_run *run, const struct gb_record *r, double threads)
{
    double aw = gb_record_metric(r, "active_warps_per_sm", NAN);
    if (isfinite(aw) || !run->info.has_device)
        return aw;
    struct gb_occupancy_input in = {
        .threads_per_block = (int)threads,
        .regs_per_thread = (int)gb_record_metric(r, "regs", NAN),
        .static_smem_bytes = (int)gb_record_metric(r, "smem_static_bytes", 0),
        .dyn_smem_bytes = (int)gb_record_metric(r, "smem_dynamic_bytes", 0),
        .max_dyn_smem_bytes = -1,
        .carveout_pct = -1,
    };
    struct gb_occupancy_result res;
    if (!isfinite(gb_record_metric(r, "regs", NAN)) ||
        gb_occupancy_compute(&run->info.device, &in, &res) != GB_OK) {
        gb_error_clear();
        return NAN;
    }
    return res.active_warps;
}

static enum gb_status point_launch(const struct gb_run *run, struct env *e, struct gb_lpbm_point *p)
{
    double bd[3], gd[3];
    enum gb_status st;
    for (int d = 0; d < 3; d++)
        if ((st = launch_dim(e, 0, d, &bd[d])) || (st = launch_dim(e, 1, d, &gd[d])))
            return gb_error_set(st, "%s %s: the launch: %s", p->config, p->problem,
                                gb_error_message());
    p->block_threads = gb_record_metric(e->r, "block_threads", bd[0] * bd[1] * bd[2]);
    p->grid_blocks = gb_record_metric(e->r, "grid_blocks", gd[0] * gd[1] * gd[2]);
    p->active_warps_per_sm = active_warps(run, e->r, p->block_threads);
    p->sm_count = run->info.has_device ? run->info.device.sm_count : 0;
    p->warp_size = run->info.has_device && run->info.device.warp_size ? run->info.device.warp_size
                                                                      : 32;
    if (!isfinite(p->active_warps_per_sm))
        return gb_error_set(GB_ERR_FORMAT, "%s %s: the record has no active_warps_per_sm (nor "
                            "regs for the occupancy calculator)", p->config, p->problem);
    if (p->sm_count < 1)
        return gb_error_set(GB_ERR_FORMAT, "run.json names no device with an SM count");
    return GB_OK;
}

/* A per-launch spec expression over the launch's threads, or NaN. */
static double per_thread(struct env *e, const char *expr, double threads)
{
    double v;
    if (!expr[0] || eval_spec(e, expr, &v) != GB_OK || !(threads > 0)) {
        gb_error_clear();
        return NAN;
    }
    return v / threads;
}

static void parse_defines(struct env *e, char defs[][200], size_t *nd, char *line, size_t ln);

/* The analysis of e->r's own preprocessed source (lpbm_variants.c). */
static const struct gb_kernel_analysis *point_analysis(struct gb_lpbm_input *in, const char *dir,
                                                       struct env *e)
{
    char defs[GB_LPBM_DEFINES][200], line[1024];
    size_t nd;
    if (!in->analysed)
        return NULL;
    parse_defines(e, defs, &nd, line, sizeof line);
    return gb_lpbm_variant_get(in, dir, defs, nd);
}

static void point_counts(struct gb_lpbm_input *in, const char *dir, struct env *e,
                         struct gb_lpbm_point *p, char src[3][16])
{
    struct gb_analysis_totals t;
    double threads = p->block_threads * p->grid_blocks;
    const struct gb_spec_bench_text *b = e->b;
    e->a = point_analysis(in, dir, e);
    if (e->a) {
        gb_analysis_totals(e->a, source_lookup, e, &t);
    } else {
        t.ops = t.global_bytes = t.shared_accesses = NAN;
    }
    const double an[3] = {t.ops, t.global_bytes, t.shared_accesses};
    const char *const lp[3] = {b->lpbm[GB_SPEC_LPBM_OPS], b->lpbm[GB_SPEC_LPBM_GLOBAL],
                               b->lpbm[GB_SPEC_LPBM_SHARED]};
    const char *const fb[3] = {b->flops, b->bytes, ""};
    double *dst[3] = {&p->ops, &p->global_bytes, &p->shared_accesses};
    for (int k = 0; k < 3; k++) {
        *dst[k] = an[k];
        snprintf(src[k], 16, "analysis");
        if (!isfinite(*dst[k]) && isfinite(*dst[k] = per_thread(e, lp[k], threads)))
            snprintf(src[k], 16, "spec lpbm");
        else if (!isfinite(*dst[k]) && isfinite(*dst[k] = per_thread(e, fb[k], threads)))
            snprintf(src[k], 16, k ? "spec bytes" : "spec flops");
        else if (!isfinite(*dst[k]))
            snprintf(src[k], 16, "none");
    }
    int counted = e->a && isfinite(t.atomics_thread) && isfinite(t.atomics_block);
    p->atomics = counted ? t.atomics_thread * threads + t.atomics_block * p->grid_blocks : 0;
    p->atomics_warp = counted && p->warp_size > 0
                          ? t.atomics_thread * threads / p->warp_size + t.atomics_block * p->grid_blocks
                          : NAN;
    p->barriers = e->a && isfinite(t.barriers) ? t.barriers : 0;
    if (in->analysed && !in->analysis_why[0]) {
        const char *why = t.why_ops[0] ? t.why_ops : t.why_global[0] ? t.why_global : t.why_shared;
        snprintf(in->analysis_why, sizeof in->analysis_why, "%s", why);
    }
}

/* Every axis NAME=value and every define, as the -D defines of e->r (the
 * analysis parses the source once per preprocessed variant, lpbm_variants.c;
 * its counts stay symbolic in the rest). */
static void parse_defines(struct env *e, char defs[][200], size_t *nd, char *line, size_t ln)
{
    size_t len = 0;
    *nd = 0;
    for (int i = 0; i < e->r->n_axes && *nd < GB_LPBM_DEFINES; i++)
        snprintf(defs[(*nd)++], 200, "%s=%s", e->r->axes[i].name, e->r->axes[i].value);
    for (int i = 0; i < e->b->n_defines && *nd < GB_LPBM_DEFINES; i++) {
        double v;
        if (eval_spec(e, e->b->define_exprs[i], &v) == GB_OK)
            snprintf(defs[(*nd)++], 200, "%s=%.17g", e->b->define_names[i], v);
        gb_error_clear();
    }
    line[0] = '\0';
    for (size_t i = 0; i < *nd && len < ln; i++)
        len += (size_t)snprintf(line + len, ln - len, "%s-D%s", i ? " " : "", defs[i]);
}

static void run_analysis(struct gb_lpbm_input *in, const struct gb_lpbm_spec *s, struct env *e)
{
    char defs[GB_LPBM_DEFINES][200];
    const char *ptrs[GB_LPBM_DEFINES];
    size_t nd;
    parse_defines(e, defs, &nd, in->defines, sizeof in->defines);
    for (size_t i = 0; i < nd; i++)
        ptrs[i] = defs[i];
    snprintf(in->source, sizeof in->source, "%s", e->b->source);
    if (gb_analysis_run(in->source, s->dir, ptrs, nd, e->b->kernel, &in->analysis) == GB_OK) {
        in->analysed = 1;
        gb_lpbm_variant_key(gb_lpbm_variants_text(in), defs, nd, in->variant_key0,
                            sizeof in->variant_key0);
    } else
        snprintf(in->analysis_why, sizeof in->analysis_why, "%s", gb_error_message());
    gb_error_clear();
}

/* A bench sweeps launch configurations when two of its records of one
 * problem size differ in their block size or their grid: a block-size
 * sweep, or a grid fixed by the launch (so many blocks per SM) at one
 * block size. */
static enum gb_status check_sweep(const struct gb_lpbm_input *in)
{
    for (size_t i = 0; i < in->n; i++)
        for (size_t k = i + 1; k < in->n; k++)
            if (in->pts[k].block_threads != in->pts[i].block_threads ||
                (in->pts[k].grid_blocks != in->pts[i].grid_blocks &&
                 !strcmp(in->pts[k].problem, in->pts[i].problem)))
                return GB_OK;
    return gb_error_set(GB_ERR_USAGE, "bench %s/%s sweeps no launch configuration (every "
                        "measured configuration of a problem size has %g threads per block and "
                        "the same grid); the breakdown compares launch configurations: sweep "
                        "the block size or the grid", in->suite, in->bench,
                        in->n ? in->pts[0].block_threads : 0.0);
}

/* The counter counts of `p`, none measured yet (NaN): a record's
 * counters fill them (gb_lpbm_counters_fill), a prediction's the measured
 * configurations' model of each (lpbm_predict.c). */
static void counts_unmeasured(struct gb_lpbm_point *p)
{
    p->c_inst = p->c_global_sectors = p->c_shared_wavefronts = NAN;
    p->c_dram_sectors = p->c_l2_sectors = p->c_global_ld_inst = p->c_l2_write_sectors = NAN;
    p->c_l2_slice_imbalance = NAN;
    for (int k = 0; k < GB_LPBM_PIPES; k++)
        p->c_pipe[k] = NAN;
    p->c_global_atom = p->c_shared_atom_wavefronts = p->c_loads_in_flight = NAN;
}

static enum gb_status build_point(struct gb_lpbm_input *in, const struct gb_run *run,
                                  const struct gb_lpbm_spec *spec, struct env *e, size_t ri,
                                  gb_lpbm_counter_fn counters, void *ctx, char src[3][16])
{
    struct gb_lpbm_point *p = &in->pts[in->n];
    enum gb_status st;
    memset(p, 0, sizeof *p);
    point_labels(e->b, e->r, p);
    p->record = ri;
    p->time_ns = e->r->time_ns.median;
    p->ci_lo_ns = e->r->time_ns.ci_lo;
    p->ci_hi_ns = e->r->time_ns.ci_hi;
    if ((st = point_launch(run, e, p)) != GB_OK)
        return st;
    point_counts(in, spec->dir, e, p, src);
    counts_unmeasured(p);
    p->hot = e->r->cache == GB_CACHE_HOT;
    p->l2_bytes = run->info.has_device ? (double)run->info.device.l2_bytes : 0;
    p->footprint_bytes = footprint(e);
    p->roof_dram = p->roof_l2 = p->roof_shared = p->roof_inst = p->roof_atom = NAN;
    p->roof_l2_write = NAN;
    p->roof_fp64 = p->roof_mufu = NAN;
    p->launch_a_ns = p->launch_b = NAN;
    if (counters && gb_lpbm_counters_fill(p, e->r, ri, counters, ctx))
        in->n_counters++;
    if (isfinite(p->c_inst) && isfinite(p->c_shared_wavefronts) && isfinite(p->c_dram_sectors) &&
        isfinite(p->c_l2_sectors) && isfinite(p->c_global_ld_inst))
        in->n_resources++;
    in->n++;
    return GB_OK;
}

/* The points of every ok record of `bench`, read (gb_lpbm_input_points);
 * `fit`: also held to what a fit needs (gb_lpbm_input_build). */
static enum gb_status input_read(const struct gb_run *run, const struct gb_lpbm_spec *spec, const char *bench,
                                 gb_lpbm_counter_fn counters, void *ctx, int fit, struct gb_lpbm_input *out)
{
    const struct gb_spec_bench_text *b = find_bench(spec, bench);
    const char *suite = gb_lpbm_spec_suite(spec);
    struct env e = {b, NULL, 0, NULL};
    char src[3][16] = {"", "", ""};
    enum gb_status st = GB_OK;
    memset(out, 0, sizeof *out);
    if (!b)
        return gb_error_set(GB_ERR_USAGE, "the spec of suite %s has no bench '%s'", suite,
                            bench);
    snprintf(out->suite, sizeof out->suite, "%s", suite);
    snprintf(out->bench, sizeof out->bench, "%s", bench);
    snprintf(out->kernel, sizeof out->kernel, "%s", b->kernel);
    snprintf(out->note, sizeof out->note, "%s", b->lpbm[GB_SPEC_LPBM_NOTE]);
    if (!(out->pts = calloc(run->n_records ? run->n_records : 1, sizeof *out->pts)))
        return gb_error_set(GB_ERR_NOMEM, "out of memory");
    for (size_t i = 0; i < run->n_records && st == GB_OK; i++) {
        const struct gb_record *r = &run->records[i];
        if (r->status != GB_REC_OK || strcmp(r->suite, suite) || strcmp(r->bench, bench))
            continue;
        e.r = r;
        if (!out->analysed && !out->analysis_why[0])
            run_analysis(out, spec, &e);
        st = build_point(out, run, spec, &e, i, counters, ctx, src);
    }
    if (st == GB_OK && out->n == 0)
        st = gb_error_set(GB_ERR_USAGE, "the run has no measured record of %s/%s", suite,
                          bench);
    if (st == GB_OK && fit)
        st = check_sweep(out);
    snprintf(out->sources, sizeof out->sources, "operations: %s; global bytes: %s; shared "
             "accesses: %s", src[0], src[1], src[2]);
    for (int k = 0; k < 3 && st == GB_OK && !out->formula_why[0]; k++)
        if (!strcmp(src[k], "none"))
            snprintf(out->formula_why, sizeof out->formula_why, "%s/%s: the %s count is neither analysed (%.300s) nor "
                              "given by the spec (add \"lpbm\": {\"%s\": \"...\"} to the bench, in the spec the run measured or "
                              "one given with --spec PATH: hints may be added after a run)",
                     suite, bench, k == 0 ? "operation" : k == 1 ? "global-byte"
                                                                               : "shared-access",
                              out->analysis_why[0] ? out->analysis_why : "no reason",
                              k == 0 ? "ops" : k == 1 ? "global_bytes" : "shared_accesses");
    /* the formula form's counts are needed only where the counters are not */
    if (st == GB_OK && fit && out->formula_why[0] && out->n_resources != (int)out->n)
        st = gb_error_set(GB_ERR_USAGE, "%s", out->formula_why);
    if (st != GB_OK)
        gb_lpbm_input_release(out);
    return st;
}

enum gb_status gb_lpbm_input_build(const struct gb_run *run, const struct gb_lpbm_spec *spec,
                                   const char *bench, gb_lpbm_counter_fn counters, void *ctx,
                                   struct gb_lpbm_input *out)
{
    return input_read(run, spec, bench, counters, ctx, 1, out);
}

enum gb_status gb_lpbm_input_points(const struct gb_run *run, const struct gb_lpbm_spec *spec,
                                    const char *bench, gb_lpbm_counter_fn counters, void *ctx,
                                    struct gb_lpbm_input *out)
{
    return input_read(run, spec, bench, counters, ctx, 0, out);
}

void gb_lpbm_input_release(struct gb_lpbm_input *in)
{
    if (!in)
        return;
    free(in->pts);
    gb_analysis_release(&in->analysis);
    gb_lpbm_variants_free(in->variants);
    memset(in, 0, sizeof *in);
}

enum gb_status gb_lpbm_point_at(struct gb_lpbm_input *in, const struct gb_lpbm_spec *spec,
                                const struct gb_kv *axes, int n_axes, struct gb_lpbm_point *p)
{
    const struct gb_spec_bench_text *b = find_bench(spec, in->bench);
    struct gb_record r;
    char src[3][16];
    double bd[3], gd[3];
    enum gb_status st;
    if (!b || in->n == 0)
        return gb_error_set(GB_ERR_USAGE, "the spec has no bench '%s'", in->bench);
    memset(&r, 0, sizeof r);
    r.axes = (struct gb_kv *)axes;
    r.n_axes = n_axes;
    struct env e = {b, &r, 0, NULL};
    memset(p, 0, sizeof *p);
    point_labels(b, &r, p);
    for (int d = 0; d < 3; d++)
        if ((st = launch_dim(&e, 0, d, &bd[d])) || (st = launch_dim(&e, 1, d, &gd[d])))
            return gb_error_set(st, "%s %s: the launch: %s", p->config, p->problem, gb_error_message());
    for (int d = 0; d < 3; d++)
        if (!(bd[d] >= 1 && gd[d] >= 1 && bd[d] == floor(bd[d]) && gd[d] == floor(gd[d])))
            return gb_error_set(GB_ERR_USAGE, "%s %s: the launch is a block of %g x %g x %g threads "
                                "in a grid of %g x %g x %g blocks: a kernel launches whole blocks "
                                "and grids of at least 1 in each dimension; give axis values the "
                                "kernel can run at", p->config, p->problem, bd[0], bd[1], bd[2], gd[0],
                                gd[1], gd[2]);
    p->block_threads = bd[0] * bd[1] * bd[2];
    p->grid_blocks = gd[0] * gd[1] * gd[2];
    if (p->block_threads > GB_LPBM_MAX_BLOCK_THREADS)
        return gb_error_set(GB_ERR_USAGE, "%s %s: a block of %g threads: CUDA allows at most %d; "
                            "give axis values the kernel can run at", p->config, p->problem,
                            p->block_threads, GB_LPBM_MAX_BLOCK_THREADS);
    p->sm_count = in->pts[0].sm_count;
    p->warp_size = in->pts[0].warp_size;
    p->hot = in->pts[0].hot;
    p->l2_bytes = in->pts[0].l2_bytes;
    p->footprint_bytes = footprint(&e);
    p->time_ns = p->ci_lo_ns = p->ci_hi_ns = p->active_warps_per_sm = NAN;
    point_counts(in, spec->dir, &e, p, src);
    counts_unmeasured(p);
    return GB_OK;
}
