/* The run-time suite registry: a heap suite registered at run time is
 * found like a built-in one, and its benches' ctx reaches their callbacks
 * through plan expansion (admit) and the per-point callbacks; a point's
 * metrics grow past any fixed count. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "gpubound/measure.h"

/* What a spec file would leave in ctx: here, the largest n it admits and
 * a define for the kernel, plus counters the test reads back. */
struct spec_ctx {
    long max_n;
    const char *define;
    int admit_calls;
    int opts_calls;
};

static int released;

static int spec_admit(const struct gb_point *p, void *ctx, char *why, size_t n)
{
    struct spec_ctx *c = ctx;
    c->admit_calls++;
    if (gb_point_int(p, "n") <= c->max_n)
        return 1;
    snprintf(why, n, "n=%ld is above the spec's %ld", gb_point_int(p, "n"), c->max_n);
    return 0;
}

static int spec_opts(const struct gb_point *p, void *ctx, char opts[][GB_OPT_LEN], int max)
{
    struct spec_ctx *c = ctx;
    c->opts_calls++;
    if (max < 2)
        return 0;
    snprintf(opts[0], GB_OPT_LEN, "%s", c->define);
    snprintf(opts[1], GB_OPT_LEN, "-DN=%ld", gb_point_int(p, "n"));
    return 2;
}

static enum gb_status spec_setup(struct gb_point *p, void *ctx)
{
    (void)ctx;
    p->bytes = 4.0 * (double)gb_point_int(p, "n");
    return GB_OK;
}

static enum gb_status spec_launch(struct gb_point *p, void *ctx)
{
    (void)p;
    (void)ctx;
    return GB_OK;
}

static enum gb_status spec_verify(struct gb_point *p, void *ctx)
{
    (void)p;
    (void)ctx;
    return GB_OK;
}

static const struct gb_axis_def spec_axes[] = {
    {"n", GB_AXIS_INT, "1,2,4,8,16", "1,2", 1, 1 << 20, NULL, "elements"},
};

static void spec_release(struct gb_suite *s)
{
    struct gb_bench *b = (struct gb_bench *)s->benches;
    for (int i = 0; i < s->n_benches; i++)
        free(b[i].ctx);
    free(b);
    free(s);
    released++;
}

/* A suite as suites/spec.c would make it: everything on the heap. */
static struct gb_suite *spec_suite(const char *name, long max_n)
{
    struct gb_suite *s = calloc(1, sizeof *s);
    struct gb_bench *b = calloc(1, sizeof *b);
    struct spec_ctx *c = calloc(1, sizeof *c);
    assert_non_null(s);
    assert_non_null(b);
    assert_non_null(c);
    c->max_n = max_n;
    c->define = "-DSPEC=1";
    *b = (struct gb_bench){
        .name = "scale",
        .help = "a kernel from source text",
        .kernel_source = "extern \"C\" __global__ void scale(float *x) { x[threadIdx.x] *= 2.0f; }",
        .kernel_name = "scale.cu",
        .kernel_opts = spec_opts,
        .axes = spec_axes,
        .n_axes = 1,
        .setup = spec_setup,
        .launch = spec_launch,
        .verify = spec_verify,
        .sampling = {.rel_ci = 0.02, .min_samples = 4},
        .admit = spec_admit,
        .ctx = c,
    };
    s->name = name;
    s->help = "a suite registered at run time";
    s->benches = b;
    s->n_benches = 1;
    return s;
}

static void test_builtin(void **state)
{
    (void)state;
    int n;
    const struct gb_suite *const *all = gb_suites(&n);
    assert_true(n >= 6);
    assert_string_equal(all[0]->name, "bandwidth");
    assert_ptr_equal(gb_suite_find("transpose"), all[5]);
    assert_null(gb_suite_find("nonesuch"));
    assert_int_equal(gb_suites_builtin_register(), GB_OK);
    int again;
    gb_suites(&again);
    assert_int_equal(again, n);
    /* A built-in suite cannot be added twice. */
    assert_int_equal(gb_suite_add(all[0]), GB_ERR_USAGE);
    assert_non_null(strstr(gb_error_message(), "registered already"));
}

static void test_heap_suite(void **state)
{
    (void)state;
    int n_before;
    gb_suites(&n_before);
    struct gb_suite *s = spec_suite("spec", 4);
    struct spec_ctx *c = s->benches[0].ctx;
    released = 0;
    assert_int_equal(gb_suite_register(s, spec_release), GB_OK);
    int n;
    const struct gb_suite *const *all = gb_suites(&n);
    assert_int_equal(n, n_before + 1);
    assert_ptr_equal(all[n - 1], s);
    assert_ptr_equal(gb_suite_find("spec"), s);
    assert_ptr_equal(gb_bench_find(s, "scale"), &s->benches[0]);

    /* A second suite of that name is refused and stays the caller's. */
    struct gb_suite *dup = spec_suite("spec", 1);
    assert_int_equal(gb_suite_register(dup, spec_release), GB_ERR_USAGE);
    spec_release(dup);
    assert_int_equal(released, 1);
    released = 0;

    /* Plan expansion hands the bench's ctx to admit. */
    struct gb_plan plan;
    const char *sel[] = {"spec"};
    assert_int_equal(gb_plan_build(sel, 1, NULL, 0, 0, &plan), GB_OK);
    assert_int_equal(c->admit_calls, 5);
    assert_int_equal(plan.n, 3);   /* n = 1, 2, 4 */
    assert_ptr_equal(plan.items[0].suite, s);
    assert_string_equal(plan.items[2].axis_value[0], "4");

    /* And the point's callbacks get it too. */
    struct gb_point p;
    const struct gb_bench *b = plan.items[2].bench;
    char opts[16][GB_OPT_LEN];
    gb_plan_point(&plan.items[2], 0, &p);
    assert_int_equal(b->kernel_opts(&p, b->ctx, opts, 16), 2);
    assert_int_equal(c->opts_calls, 1);
    assert_string_equal(opts[0], "-DSPEC=1");
    assert_string_equal(opts[1], "-DN=4");
    assert_int_equal(b->setup(&p, b->ctx), GB_OK);
    assert_true(p.bytes == 16.0);
    gb_point_release(&p);

    /* Its kernel is source text, named for messages and the cache. */
    const char *name, *source;
    assert_int_equal(gb_bench_kernel(b, &name, &source), GB_OK);
    assert_string_equal(name, "scale.cu");
    assert_ptr_equal(source, b->kernel_source);

    /* Its sampling policy lives in the row. */
    struct gb_measure_opts o, eff;
    gb_measure_opts_default(&o);
    gb_measure_opts_for(&o, b, &eff);
    assert_true(eff.rel_ci == 0.02);
    assert_int_equal(eff.min_samples, 4);
    assert_int_equal(eff.max_samples, o.max_samples);

    gb_plan_release(&plan);

    /* Every combination left out: a usage error with the first reason. */
    const char *big[] = {"n=8,16"};
    assert_int_equal(gb_plan_build(sel, 1, big, 1, 0, &plan), GB_ERR_USAGE);
    assert_non_null(strstr(gb_error_message(), "n=8 is above the spec's 4"));
    assert_int_equal(plan.n, 0);

    gb_suites_release();
    assert_int_equal(released, 1);
    /* The built-in suites come back; the heap suite is gone. */
    assert_null(gb_suite_find("spec"));
    assert_non_null(gb_suite_find("bandwidth"));
}

static void test_embedded_kernel(void **state)
{
    (void)state;
    const struct gb_bench *b = gb_bench_find(gb_suite_find("bandwidth"), "read");
    const char *name, *source;
    assert_int_equal(gb_bench_kernel(b, &name, &source), GB_OK);
    assert_string_equal(name, "bandwidth.cu");
    assert_ptr_equal(source, gb_kernel_source("bandwidth.cu"));
    /* The driver's own copy compiles nothing. */
    b = gb_bench_find(gb_suite_find("bandwidth"), "dtod");
    assert_int_equal(gb_bench_kernel(b, &name, &source), GB_OK);
    assert_null(name);
    assert_null(source);
    struct gb_bench bad = {.name = "bad", .kernel_file = "nonesuch.cu"};
    assert_int_equal(gb_bench_kernel(&bad, &name, &source), GB_ERR_USAGE);
    assert_non_null(strstr(gb_error_message(), "nonesuch.cu"));
}

static void test_point_metrics_grow(void **state)
{
    (void)state;
    struct gb_point p;
    memset(&p, 0, sizeof p);
    char name[64];
    for (int i = 0; i < 100; i++) {
        snprintf(name, sizeof name, "a_rather_long_metric_name_number_%d", i);
        assert_int_equal(gb_point_metric(&p, name, i), GB_OK);
    }
    assert_int_equal(gb_point_metric(&p, "a_rather_long_metric_name_number_7", 70), GB_OK);
    assert_int_equal(p.n_metrics, 100);
    assert_string_equal(p.metrics[99].name, "a_rather_long_metric_name_number_99");
    assert_true(p.metrics[99].value == 99);
    assert_true(p.metrics[7].value == 70);
    assert_int_equal(gb_point_metric(&p, "", 1), GB_ERR_USAGE);
    assert_int_equal(p.n_metrics, 100);
    gb_point_release(&p);
    assert_int_equal(p.n_metrics, 0);
    assert_null(p.metrics);
    gb_point_release(&p);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_builtin),
        cmocka_unit_test(test_heap_suite),
        cmocka_unit_test(test_embedded_kernel),
        cmocka_unit_test(test_point_metrics_grow),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
