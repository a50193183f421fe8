/* bench_inflight.c - the global loads a thread of a bench's kernel keeps
 * in flight, from its PTX, and the counter function that gives them to the
 * breakdown (gpubound/bench_inflight.h). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gpubound/bench_inflight.h"
#include "gpubound/gpu.h"
#include "gpubound/lpbm_input.h"
#include "gpubound/spec.h"

enum gb_status gb_bench_inflight(const struct gb_bench *b, const struct gb_kv *axes, int n_axes, const char *arch,
                                 const char *entry, struct gb_ptx_inflight *out)
{
    char *ptx = NULL, lowered[GB_KERNEL_NAME_LEN];
    enum gb_status st = gb_bench_ptx(b, axes, n_axes, arch, &ptx, lowered, sizeof lowered);
    if (st == GB_OK)
        st = gb_ptx_inflight(ptx, lowered[0] ? lowered : entry, out);
    free(ptx);
    return st;
}

#define IR_KEY 768

/* One point's loads in flight, by its bench and axis values. */
struct ir_entry {
    char key[IR_KEY];
    double loads;   /* NaN: could not be read */
};

struct gb_inflight_reader {
    struct gb_suite *spec_suite;   /* the run's spec's suite, or NULL */
    char arch[16];
    struct ir_entry *v;
    size_t n, cap;
};

enum gb_status gb_run_spec_suite(const struct gb_run *run, const char *spec, struct gb_suite **out)
{
    char path[4096];
    struct gb_spec *loaded = NULL;
    enum gb_status st;
    *out = NULL;
    if ((st = gb_lpbm_spec_locate(run, spec, path, sizeof path)) != GB_OK || (st = gb_spec_load(path, &loaded)) != GB_OK)
        return st;
    if ((st = gb_spec_suite(loaded, out)) != GB_OK)
        *out = NULL;
    return st;
}

struct gb_inflight_reader *gb_inflight_reader_new(const struct gb_run *run, const char *spec_given)
{
    struct gb_inflight_reader *x = calloc(1, sizeof *x);
    if (!x)
        return NULL;
    if (run->info.has_device && run->info.device.cc_major > 0)
        gb_device_arch(&run->info.device, x->arch, sizeof x->arch);
    (void)gb_run_spec_suite(run, spec_given, &x->spec_suite); /* none: the built-in suites */
    gb_error_clear();
    return x;
}

void gb_inflight_reader_free(struct gb_inflight_reader *x)
{
    if (!x)
        return;
    gb_spec_suite_free(x->spec_suite);
    free(x->v);
    free(x);
}

/* Record r's key: its suite, bench and axis values. */
static void ir_key(const struct gb_record *r, char *key, size_t n)
{
    size_t len = (size_t)snprintf(key, n, "%s/%s", r->suite, r->bench);
    for (int i = 0; i < r->n_axes && len < n; i++)
        len += (size_t)snprintf(key + len, n - len, " %s=%s", r->axes[i].name, r->axes[i].value);
}

/* Record r's loads in flight, read from its kernel's PTX; NaN where it
 * cannot be (the bench compiles no kernel, no NVRTC, no global load). */
static double ir_read(const struct gb_inflight_reader *x, const struct gb_record *r)
{
    const struct gb_suite *s = x->spec_suite && !strcmp(x->spec_suite->name, r->suite) ? x->spec_suite
                                                                                       : gb_suite_find(r->suite);
    const struct gb_bench *b = s && x->arch[0] ? gb_bench_find(s, r->bench) : NULL;
    struct gb_ptx_inflight in = {0};
    double loads = b && gb_bench_inflight(b, r->axes, r->n_axes, x->arch, NULL, &in) == GB_OK && in.loads > 0
                       ? in.loads : NAN;
    gb_error_clear();
    return loads;
}

static double ir_loads(struct gb_inflight_reader *x, const struct gb_record *r)
{
    char key[IR_KEY];
    ir_key(r, key, sizeof key);
    for (size_t i = 0; i < x->n; i++)
        if (!strcmp(x->v[i].key, key))
            return x->v[i].loads;
    double loads = ir_read(x, r);
    if (x->n == x->cap) {
        size_t cap = x->cap ? 2 * x->cap : 16;
        struct ir_entry *v = realloc(x->v, cap * sizeof *v);
        if (!v)
            return loads;
        x->v = v, x->cap = cap;
    }
    snprintf(x->v[x->n].key, IR_KEY, "%s", key);
    x->v[x->n++].loads = loads;
    return loads;
}

double gb_inflight_counter(void *ctx, const struct gb_record *r, size_t index, const char *metric)
{
    if (ctx && !strcmp(metric, GB_LPBM_LOADS_IN_FLIGHT))
        return ir_loads(ctx, r);
    return gb_lpbm_counters_get(NULL, r, index, metric);
}
