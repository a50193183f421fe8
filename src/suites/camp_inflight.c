/* camp_inflight.c - the bytes one thread keeps in flight, behind
 * CampProf's application line with the kernel's own knee
 * (gpubound/camp_inflight.h): the camping suite's read kernel's
 * (gb_camp_model_inflight) and a kernel-spec point's (gb_camp_apps_inflight),
 * each read from its kernel's PTX (gpubound/ptx.h). */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gpubound/bench_inflight.h"
#include "gpubound/camp_counts.h"
#include "gpubound/camp_inflight.h"
#include "gpubound/campprof.h"
#include "gpubound/lpbm_input.h"
#include "gpubound/numbers.h"
#include "gpubound/ptx.h"
#include "gpubound/spec.h"
#include "gpubound/suite.h"

/* "sm_90" of a device whose compute capability is known into `arch`;
 * 0 (and "") when it is not. */
static int device_arch(const struct gb_device_info *d, int known, char *arch, size_t n)
{
    arch[0] = '\0';
    if (!known || d->cc_major <= 0)
        return 0;
    gb_device_arch(d, arch, n);
    return 1;
}

enum gb_status gb_camp_model_inflight(struct gb_camp_model *m, const char *arch)
{
    const struct gb_camp_equation *eq = &m->eq[GB_CAMP_READ][GB_CAMP_SPREAD];
    const struct gb_suite *suite = gb_suite_find(GB_CAMP_SUITE);
    const struct gb_bench *b = suite ? gb_bench_find(suite, "read") : NULL;
    double v[GB_CAMP_N_WIDTHS];
    char own[16];
    int n = 0;
    enum gb_status st;
    m->inflight_product = NAN;
    if (!arch && !device_arch(&m->device, m->has_device, own, sizeof own))
        return gb_error_set(GB_ERR_FORMAT, "the model does not name its GPU's compute capability");
    if (!arch)
        arch = own;
    if (!b)
        return gb_error_set(GB_ERR_UNSUPPORTED, "the camping suite's read kernel is not in this build");
    for (int c = 0; c < GB_CAMP_N_WIDTHS; c++) {
        double knee = gb_camp_eq_lt_term(eq, "knee", c);
        struct gb_kv width = {.name = "width"};
        struct gb_ptx_inflight in = {0};
        if (!(knee > 0))
            continue;
        snprintf(width.value, sizeof width.value, "%d", gb_camp_class_width(c));
        if ((st = gb_bench_inflight(b, &width, 1, arch, "camp_read", &in)) != GB_OK)
            return st;
        if (!(in.bytes > 0))
            return gb_error_set(GB_ERR_FORMAT, "the camping suite's read kernel shows no global load");
        v[n++] = knee * in.bytes;
    }
    if (n == 0)
        return gb_error_set(GB_ERR_FORMAT, "the model's spread reads have no knee (its form has none)");
    m->inflight_product = gb_stats_median(v, (size_t)n);
    return GB_OK;
}

/* A coalesced load of W bytes per thread touches W 32-byte sectors per
 * warp request; a scattered one more, each of which is in flight. */
static double sector_factor(const struct gb_camp_counts *c, const struct gb_ptx_inflight *in)
{
    double requests = 0;
    for (int k = 0; k < GB_CAMP_N_WIDTHS; k++)
        requests += c->ld[k];
    double per = requests > 0 ? c->ld_sectors / requests : NAN;
    double width = in->loads > 0 ? in->bytes / in->loads : NAN;
    return per > width && width > 0 ? per / width : 1;
}

/* What reading a run's configurations needs: its suite (its spec's
 * kernels), the GPU's arch, and the points of one bench (their counts of
 * atomics), read on first need. */
struct reader {
    const struct gb_run *run;
    struct gb_suite *suite;
    char arch[16];
    struct gb_lpbm_spec *spec;
    struct gb_lpbm_input in;
    int in_read;     /* 1: `in` holds bench's points; -1: they could not be read (why) */
    char bench[64], why[256];
};

static void reader_release(struct reader *x)
{
    gb_spec_suite_free(x->suite);
    gb_lpbm_input_release(&x->in);
    gb_lpbm_spec_free(x->spec);
}

/* Record r's point among its bench's (read on first need), or NULL with
 * the error said. */
static const struct gb_lpbm_point *reader_point(struct reader *x, const struct gb_record *r)
{
    char path[4096];
    if (x->in_read && strcmp(x->bench, r->bench) != 0) {
        gb_lpbm_input_release(&x->in);
        x->in_read = 0;
    }
    if (!x->in_read) {
        snprintf(x->bench, sizeof x->bench, "%s", r->bench);
        int ok = (x->spec || (gb_lpbm_spec_locate(x->run, NULL, path, sizeof path) == GB_OK &&
                              gb_lpbm_spec_load(path, &x->spec) == GB_OK)) &&
                 gb_lpbm_input_points(x->run, x->spec, r->bench, gb_lpbm_counters_get, NULL, &x->in) == GB_OK;
        x->in_read = ok ? 1 : -1;
        if (!ok)
            snprintf(x->why, sizeof x->why, "%s", gb_error_message());
    }
    if (x->in_read < 0) {
        gb_error_set(GB_ERR_FORMAT, "%s", x->why);
        return NULL;
    }
    size_t at = (size_t)(r - x->run->records);
    for (size_t i = 0; i < x->in.n; i++)
        if (x->in.pts[i].record == at)
            return &x->in.pts[i];
    gb_error_set(GB_ERR_FORMAT, "%s's configuration has no counts", r->bench);
    return NULL;
}

/* The kernel's global atomic and reduction warp instructions per global
 * load warp instruction at record r (`in_ptx` of them in its PTX): the
 * profiler's count where recorded (*measured 1), else the source
 * analysis's; GB_ERR_UNSUPPORTED saying so where they cannot be counted. */
static enum gb_status atomic_share(struct reader *x, const struct gb_record *r, const struct gb_camp_counts *c,
                                   int in_ptx, double *share, int *measured)
{
    const struct gb_lpbm_point *p = reader_point(x, r);
    double loads = 0;
    for (int k = 0; k < GB_CAMP_N_WIDTHS; k++)
        loads += c->ld[k];
    if (p && isfinite(p->c_global_ld_inst) && p->c_global_ld_inst > 0)
        loads = p->c_global_ld_inst;
    *measured = p && isfinite(p->c_global_atom);
    double atom = !p ? NAN : *measured ? p->c_global_atom : p->atomics_warp;
    *share = atom / loads;
    if (!isfinite(atom) || !(loads > 0))
        return gb_error_set(GB_ERR_UNSUPPORTED, "%s's kernel has global atomics or reductions (%d in its PTX) "
                            "that could not be counted (%s)", r->bench, in_ptx,
                            p ? "no counter and no source analysis of them" : gb_error_message());
    return GB_OK;
}

/* The error that keeps the suite's knee for atomics at `share` of the loads. */
static enum gb_status atomics_keep(const char *bench, double share, int measured)
{
    return gb_error_set(GB_ERR_UNSUPPORTED, "%s's kernel issues %.3g global atomic or reduction warp "
                        "instructions per global load (%s; at %.2g or more the L2's atomic units, not its "
                        "loads' latency, set how its time follows the warps)", bench, share,
                        measured ? "its counters" : "the source analysis", GB_CAMP_ATOMIC_SHARE);
}

/* The bytes in flight of record r (a point of x's suite's bench) with its
 * counts c, and its atomics' share of its loads (0: none in its PTX). */
static enum gb_status record_inflight(struct reader *x, const struct gb_record *r, const struct gb_camp_counts *c,
                                      double *bytes, double *share, int *measured)
{
    const struct gb_bench *b = gb_bench_find(x->suite, r->bench);
    struct gb_ptx_inflight in = {0};
    enum gb_status st;
    *bytes = NAN;
    *share = 0;
    *measured = 0;
    if (!b)
        return gb_error_set(GB_ERR_FORMAT, "the spec has no bench %s", r->bench);
    if ((st = gb_bench_inflight(b, r->axes, r->n_axes, x->arch, NULL, &in)) != GB_OK)
        return st;
    if (!(in.bytes > 0))
        return gb_error_set(GB_ERR_FORMAT, "%s's kernel has no global load", r->bench);
    if (in.atomics > 0 && (st = atomic_share(x, r, c, in.atomics, share, measured)) != GB_OK)
        return st;
    *bytes = in.bytes * sector_factor(c, &in);
    return GB_OK;
}

/* The suite the run's spec makes (it owns the spec), or NULL with `why` said. */
static struct gb_suite *run_suite(const struct gb_run *run, char *why, size_t n)
{
    struct gb_suite *suite = NULL;
    if (gb_run_spec_suite(run, NULL, &suite) != GB_OK)
        snprintf(why, n, "%s", gb_error_message());
    return suite;
}

/* The configurations that keep the suite's knee, by reason: their kernel's
 * global atomics, or loads in flight that could not be read (the first
 * such reason in `unread`). */
struct kept {
    size_t atomics, unread;
    char atomic_why[256], unread_why[160];
};

static void kept_one(struct kept *k, enum gb_status st, const char *msg)
{
    int atomic = st == GB_ERR_UNSUPPORTED;
    size_t *count = atomic ? &k->atomics : &k->unread;
    char *why = atomic ? k->atomic_why : k->unread_why;
    if ((*count)++ == 0)
        snprintf(why, atomic ? sizeof k->atomic_why : sizeof k->unread_why, "%s", msg);
}

/* `why` (n bytes): each reason with its count. */
static void kept_why(const struct kept *k, char *why, size_t n)
{
    if (!n)
        return;
    if (k->atomics && k->unread)
        snprintf(why, n, "%zu because %s; %zu because their loads in flight could not be read (%s)",
                 k->atomics, k->atomic_why, k->unread, k->unread_why);
    else if (k->atomics)
        snprintf(why, n, "%s", k->atomic_why);
    else
        snprintf(why, n, "their loads in flight could not be read (%s)", k->unread_why);
}

/* Application `app`'s configurations' bytes in flight; all NaN, and the
 * reason kept, where the median of their atomics' shares of their loads is
 * GB_CAMP_ATOMIC_SHARE or more: one application's line takes one shape. */
static void app_inflight(struct reader *x, struct gb_camp_app *app, struct kept *k, const char *spec_why)
{
    double *share = calloc(app->n ? app->n : 1, sizeof *share), med;
    size_t ns = 0;
    int measured = 0, m;
    for (size_t i = 0; i < app->n; i++) {
        struct gb_camp_obs *o = &app->obs[i];
        const struct gb_record *r = o->record < x->run->n_records ? &x->run->records[o->record] : NULL;
        if (!r || strcmp(r->suite, GB_CAMP_SUITE) == 0)
            continue;
        enum gb_status st = !x->arch[0] || !x->suite || !share
                                ? GB_ERR_FORMAT
                                : record_inflight(x, r, &o->counts, &o->inflight_bytes, &share[ns], &m);
        if (st != GB_OK)
            kept_one(k, st, !x->arch[0] ? "the run does not name its GPU's compute capability"
                            : !x->suite ? spec_why : !share ? "out of host memory" : gb_error_message());
        else
            ns++, measured |= m;
    }
    if (ns && (med = gb_stats_median(share, ns)) >= GB_CAMP_ATOMIC_SHARE) {
        atomics_keep(app->bench, med, measured);
        for (size_t i = 0; i < app->n; i++)
            if (isfinite(app->obs[i].inflight_bytes))
                app->obs[i].inflight_bytes = NAN, kept_one(k, GB_ERR_UNSUPPORTED, gb_error_message());
    }
    free(share);
}

void gb_camp_apps_inflight(const struct gb_run *run, struct gb_camp_app *apps, size_t n_apps, size_t *missing,
                           char *why, size_t n)
{
    struct reader x = {.run = run};
    struct kept k = {0};
    char spec_why[160] = "";
    device_arch(&run->info.device, run->info.has_device, x.arch, sizeof x.arch);
    if (x.arch[0])
        x.suite = run_suite(run, spec_why, sizeof spec_why);
    for (size_t a = 0; a < n_apps; a++)
        app_inflight(&x, &apps[a], &k, spec_why);
    reader_release(&x);
    *missing = k.atomics + k.unread;
    if (n)
        why[0] = '\0';
    if (*missing)
        kept_why(&k, why, n);
}

enum gb_status gb_camp_point_inflight(const struct gb_run *run, const struct gb_record *r,
                                      const struct gb_camp_counts *c, double *bytes)
{
    struct reader x = {.run = run};
    char why[256];
    double share;
    int measured;
    *bytes = NAN;
    if (!device_arch(&run->info.device, run->info.has_device, x.arch, sizeof x.arch))
        return gb_error_set(GB_ERR_FORMAT, "the run does not name its GPU's compute capability");
    if (!(x.suite = run_suite(run, why, sizeof why)))
        return gb_error_set(GB_ERR_FORMAT, "%s", why);
    enum gb_status st = record_inflight(&x, r, c, bytes, &share, &measured);
    if (st == GB_OK && share >= GB_CAMP_ATOMIC_SHARE) {
        *bytes = NAN;
        st = atomics_keep(r->bench, share, measured);
    }
    reader_release(&x);
    return st;
}
