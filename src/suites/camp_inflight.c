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

#include "gpubound/camp_counts.h"
#include "gpubound/camp_inflight.h"
#include "gpubound/campprof.h"
#include "gpubound/lpbm_input.h"
#include "gpubound/numbers.h"
#include "gpubound/ptx.h"
#include "gpubound/spec.h"
#include "gpubound/suite.h"

/* The largest group of bench b's kernel at `axes`: its .entry is the
 * lowered name of the bench's kernel, else `entry`. */
static enum gb_status bench_inflight(const struct gb_bench *b, const struct gb_kv *axes, int n_axes, const char *arch,
                                     const char *entry, struct gb_ptx_inflight *out)
{
    char *ptx = NULL, lowered[GB_KERNEL_NAME_LEN];
    enum gb_status st = gb_bench_ptx(b, axes, n_axes, arch, &ptx, lowered, sizeof lowered);
    if (st == GB_OK)
        st = gb_ptx_inflight(ptx, lowered[0] ? lowered : entry, out);
    free(ptx);
    return st;
}

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
        if ((st = bench_inflight(b, &width, 1, arch, "camp_read", &in)) != GB_OK)
            return st;
        if (!(in.bytes > 0))
            return gb_error_set(GB_ERR_FORMAT, "the camping suite's read kernel shows no global load");
        v[n++] = knee * in.bytes;
    }
    if (n == 0)
        return gb_error_set(GB_ERR_FORMAT, "the model's spread reads have no knee (its form has none)");
    qsort(v, (size_t)n, sizeof *v, gb_stats_cmp_double);
    m->inflight_product = n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
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

/* The bytes in flight of record r (a point of `suite`'s bench) with its counts c. */
static enum gb_status record_inflight(const struct gb_suite *suite, const struct gb_record *r, const char *arch,
                                      const struct gb_camp_counts *c, double *bytes)
{
    const struct gb_bench *b = gb_bench_find(suite, r->bench);
    struct gb_ptx_inflight in = {0};
    enum gb_status st;
    *bytes = NAN;
    if (!b)
        return gb_error_set(GB_ERR_FORMAT, "the spec has no bench %s", r->bench);
    if ((st = bench_inflight(b, r->axes, r->n_axes, arch, NULL, &in)) != GB_OK)
        return st;
    if (!(in.bytes > 0))
        return gb_error_set(GB_ERR_FORMAT, "%s's kernel has no global load", r->bench);
    *bytes = in.bytes * sector_factor(c, &in);
    return GB_OK;
}

/* The suite the run's spec makes (it owns the spec), or NULL with `why` said. */
static struct gb_suite *run_suite(const struct gb_run *run, char *why, size_t n)
{
    char path[4096];
    struct gb_spec *spec = NULL;
    struct gb_suite *suite = NULL;
    if (gb_lpbm_spec_locate(run, NULL, path, sizeof path) != GB_OK || gb_spec_load(path, &spec) != GB_OK ||
        gb_spec_suite(spec, &suite) != GB_OK) {
        snprintf(why, n, "%s", gb_error_message());
        return NULL;
    }
    return suite;
}

void gb_camp_apps_inflight(const struct gb_run *run, struct gb_camp_app *apps, size_t n_apps, size_t *missing,
                           char *why, size_t n)
{
    struct gb_suite *suite = NULL;
    char arch[16];
    int tried = 0;
    *missing = 0;
    if (n)
        why[0] = '\0';
    device_arch(&run->info.device, run->info.has_device, arch, sizeof arch);
    for (size_t a = 0; a < n_apps; a++)
        for (size_t i = 0; i < apps[a].n; i++) {
            struct gb_camp_obs *o = &apps[a].obs[i];
            const struct gb_record *r = o->record < run->n_records ? &run->records[o->record] : NULL;
            if (!r || strcmp(r->suite, GB_CAMP_SUITE) == 0)
                continue;
            if (!tried++)
                suite = arch[0] ? run_suite(run, why, n) : NULL;
            if (!arch[0] && n && !why[0])
                snprintf(why, n, "the run does not name its GPU's compute capability");
            if (!suite || record_inflight(suite, r, arch, &o->counts, &o->inflight_bytes) != GB_OK) {
                if (suite && n && !why[0])
                    snprintf(why, n, "%s", gb_error_message());
                (*missing)++;
            }
        }
    gb_spec_suite_free(suite);
}

enum gb_status gb_camp_point_inflight(const struct gb_run *run, const struct gb_record *r,
                                      const struct gb_camp_counts *c, double *bytes)
{
    char why[256], arch[16];
    *bytes = NAN;
    if (!device_arch(&run->info.device, run->info.has_device, arch, sizeof arch))
        return gb_error_set(GB_ERR_FORMAT, "the run does not name its GPU's compute capability");
    struct gb_suite *suite = run_suite(run, why, sizeof why);
    if (!suite)
        return gb_error_set(GB_ERR_FORMAT, "%s", why);
    enum gb_status st = record_inflight(suite, r, arch, c, bytes);
    gb_spec_suite_free(suite);
    return st;
}
