/* fuzz_spec.c - libFuzzer target: the input as a kernel spec file (beside
 * stand-in sources of the names the seed specs use). A spec that loads is
 * made into a suite, and the first value of every axis is checked as a point
 * (every expression evaluated) and against the restrictions. */
#include "fuzz_common.h"

#include "gpubound/measure.h"
#include "gpubound/spec.h"

static const char stub_source[] = "saxpy saxpy_naive partial_sums partial_sums_naive saxpy_wrong k k_ref\n";

static void fuzz_sources(void)
{
    static int done;
    static const char *const names[] = {"saxpy.cu", "reduce.cu", "common.cuh", "wrong.cu", "k.cu"};
    if (done)
        return;
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
        fuzz_write(names[i], (const uint8_t *)stub_source, sizeof stub_source - 1);
    done = 1;
}

/* The first value of each axis of bench `b`, as a plan would make it. */
static void fuzz_point(const struct gb_suite *s, const struct gb_bench *b)
{
    struct gb_plan_item it;
    struct gb_point p;
    char **vals[GB_MAX_AXES] = {0};
    int nv[GB_MAX_AXES] = {0}, ok = 1;
    char why[256];
    memset(&it, 0, sizeof it);
    it.suite = s;
    it.bench = b;
    it.n_axes = b->n_axes;
    for (int a = 0; a < b->n_axes && ok; a++) {
        ok = gb_axis_expand(&b->axes[a], b->axes[a].values, &vals[a], &nv[a]) == GB_OK && nv[a] > 0;
        it.axis_name[a] = b->axes[a].name;
        it.axis_value[a] = ok ? vals[a][0] : NULL;
    }
    if (ok) {
        gb_plan_point(&it, 0, &p);
        (void)gb_spec_check_point(&p);
        (void)b->admit(&p, b->ctx, why, sizeof why);
        gb_point_release(&p);
    }
    for (int a = 0; a < b->n_axes; a++) {
        for (int k = 0; k < nv[a]; k++)
            free(vals[a][k]);
        free(vals[a]);
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    struct gb_spec *spec = NULL;
    struct gb_suite *suite = NULL;
    fuzz_sources();
    const char *path = fuzz_write("spec.json", data, size);
    if (gb_spec_load(path, &spec) != GB_OK || gb_spec_suite(spec, &suite) != GB_OK)
        return 0;
    for (int i = 0; i < suite->n_benches; i++)
        fuzz_point(suite, &suite->benches[i]);
    gb_spec_suite_free(suite);
    return 0;
}
