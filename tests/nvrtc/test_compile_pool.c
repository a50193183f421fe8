/* The compile pool (src/measure/compile_pool.h) with NVRTC and no GPU: a
 * plan's distinct modules are compiled once each, on host threads, into the
 * disk cache; the GPU thread's take() gets a compiled module's cubin, a
 * failed one's message and NVRTC's log (the kernel and the first error
 * named), and compiles a module itself when it needs it before the pool
 * reached it; a second pool over the same plan finds everything cached. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "gpubound/measure.h"
#include "measure/compile_pool.h"

static const char pool_src[] =
    "extern \"C\" __global__ void k(int *o)\n"
    "{\n"
    "    int acc = 0;\n"
    "#pragma unroll\n"
    "    for (int i = 0; i < V * 8; i++)\n"
    "        acc += (o[i] * (i + V)) ^ (acc >> 3);\n"
    "    o[threadIdx.x] = acc;\n"
    "}\n"
    "#if V == 3\n"
    "#error \"V three is refused\"\n"
    "#endif\n";

static int pool_opts(const struct gb_point *p, void *ctx, char opts[][GB_OPT_LEN], int max)
{
    (void)ctx;
    if (max < 1)
        return 0;
    snprintf(opts[0], GB_OPT_LEN, "-DV=%ld", gb_point_int(p, "v"));
    return 1;
}

static enum gb_status nothing(struct gb_point *p, void *ctx)
{
    (void)p;
    (void)ctx;
    return GB_OK;
}

static const struct gb_axis_def axes_a[] = {{"v", GB_AXIS_INT, "1,2,3,4,5,6", NULL, 1, 100, NULL, "a define"}};
static const struct gb_axis_def axes_b[] = {{"v", GB_AXIS_INT, "2,4", NULL, 1, 100, NULL, "a define"}};

/* Two benches of the same source: bench b's points need modules a's have. */
static const struct gb_bench pool_benches[] = {
    {.name = "a", .kernel_source = pool_src, .kernel_name = "pooltest.cu", .kernel_opts = pool_opts,
     .axes = axes_a, .n_axes = 1, .setup = nothing, .launch = nothing, .verify = nothing},
    {.name = "b", .kernel_source = pool_src, .kernel_name = "pooltest.cu", .kernel_opts = pool_opts,
     .axes = axes_b, .n_axes = 1, .setup = nothing, .launch = nothing, .verify = nothing},
};
static const struct gb_suite pool_suite = {.name = "pooltest", .help = "compile pool", .benches = pool_benches,
                                           .n_benches = 2};

static void key_of(int v, char key[GB_MODULE_KEY_LEN])
{
    char opt[GB_OPT_LEN];
    const char *optp[] = {opt};
    snprintf(opt, sizeof opt, "-DV=%d", v);
    assert_int_equal(gb_module_key("sm_90", &(struct gb_nvrtc_program){.name = "pooltest.cu", .source = pool_src}, optp, 1, key), GB_OK);
}

static enum gb_status take(struct gb_compile_pool *pool, int v, char **cubin, size_t *size, char **log, double *w)
{
    char key[GB_MODULE_KEY_LEN];
    const struct gb_compile_ahead *a = gb_compile_pool_ahead(pool);
    key_of(v, key);
    return a->take(a->ctx, key, cubin, size, log, w);
}

static char cache_dirs[2][64];
static int n_cache_dirs;

static void fresh_cache(void)
{
    char *dir = cache_dirs[n_cache_dirs++];
    snprintf(dir, sizeof cache_dirs[0], "/tmp/gb-pool-XXXXXX");
    assert_non_null(mkdtemp(dir));
    setenv("GPUBOUND_CACHE_DIR", dir, 1);
}

static void build_plan(struct gb_plan *plan)
{
    static const char *const sel[] = {"pooltest"};
    static int added;
    if (!added++)
        assert_int_equal(gb_suite_add(&pool_suite), GB_OK);
    assert_int_equal(gb_plan_build(sel, 1, NULL, 0, 0, plan), GB_OK);
    assert_int_equal((int)plan->n, 8);
}

static void test_pool_compiles_once_and_keeps_logs(void **state)
{
    (void)state;
    struct gb_plan plan;
    struct gb_compile_pool *pool = NULL;
    struct gb_compile_pool_stats ps;
    char *cubin = NULL, *log = NULL;
    size_t size = 0;
    double waited = 0;
    fresh_cache();
    build_plan(&plan);
    assert_int_equal(gb_compile_pool_start(&plan, 0, "sm_90", 2, &pool), GB_OK);
    assert_non_null(pool);

    /* A compiled module: its cubin, once; asked again, the caller loads it itself. */
    assert_int_equal(take(pool, 1, &cubin, &size, &log, &waited), GB_OK);
    assert_non_null(cubin);
    assert_true(size > 0);
    free(cubin);
    assert_int_equal(take(pool, 1, &cubin, &size, &log, &waited), GB_ERR_UNSUPPORTED);
    /* The failing one: the kernel and the first error in the message, the whole log kept. */
    assert_int_equal(take(pool, 3, &cubin, &size, &log, &waited), GB_ERR_COMPILE);
    assert_null(cubin);
    assert_non_null(strstr(gb_error_message(), "kernel pooltest.cu failed to compile"));
    assert_non_null(strstr(gb_error_message(), "-DV=3"));
    assert_non_null(strstr(gb_error_message(), "V three is refused"));
    assert_null(strchr(gb_error_message(), '\n'));
    assert_non_null(log);
    assert_non_null(strstr(log, "V three is refused"));
    free(log);
    log = NULL;
    /* A module the plan does not have: not the pool's. */
    assert_int_equal(take(pool, 42, &cubin, &size, &log, &waited), GB_ERR_UNSUPPORTED);
    for (int v = 2; v <= 6; v++)
        if (v != 3) {
            assert_int_equal(take(pool, v, &cubin, &size, &log, &waited), GB_OK);
            free(cubin);
        }
    gb_compile_pool_stop(pool, &ps);
    /* 8 points, 6 distinct modules (b's share a's), one of which fails. */
    assert_int_equal(ps.jobs, 6);
    assert_int_equal(ps.compiled, 5);
    assert_int_equal(ps.failed, 1);
    assert_int_equal(ps.cached, 0);
    assert_true(ps.cpu_s > 0);
    assert_true(ps.threads >= 1 && ps.threads <= 2);

    /* A second pool over the same plan: every good module is in the disk cache. */
    assert_int_equal(gb_compile_pool_start(&plan, 0, "sm_90", 2, &pool), GB_OK);
    assert_int_equal(take(pool, 2, &cubin, &size, &log, &waited), GB_ERR_UNSUPPORTED);
    gb_compile_pool_stop(pool, &ps);
    assert_int_equal(ps.cached + ps.compiled + ps.failed <= 6, 1);
    assert_int_equal(ps.compiled, 0);
    gb_plan_release(&plan);
}

/* The GPU thread needs the last module first, while the only pool thread
 * compiles the first: it compiles it itself rather than wait for the queue. */
static void test_needed_before_the_pool_reached_it(void **state)
{
    (void)state;
    struct gb_plan plan;
    struct gb_compile_pool *pool = NULL;
    struct gb_compile_pool_stats ps;
    char *cubin = NULL, *log = NULL;
    size_t size = 0;
    double waited = 0;
    fresh_cache();
    build_plan(&plan);
    assert_int_equal(gb_compile_pool_start(&plan, 0, "sm_90", 1, &pool), GB_OK);
    assert_int_equal(take(pool, 6, &cubin, &size, &log, &waited), GB_OK);
    assert_non_null(cubin);
    free(cubin);
    /* And one the thread is compiling or has compiled: waited for, never twice. */
    assert_int_equal(take(pool, 1, &cubin, &size, &log, &waited), GB_OK);
    free(cubin);
    gb_compile_pool_stop(pool, &ps);
    assert_true(ps.taken_inline >= 1);
    assert_true(ps.compiled >= 2 && ps.compiled <= 5);
    assert_true(waited >= 0 && ps.wait_s == waited);
    gb_plan_release(&plan);
}

static void test_no_threads_no_pool(void **state)
{
    (void)state;
    struct gb_plan plan;
    struct gb_compile_pool *pool = (struct gb_compile_pool *)&plan;
    build_plan(&plan);
    assert_int_equal(gb_compile_pool_start(&plan, 0, "sm_90", 0, &pool), GB_OK);
    assert_null(pool);
    assert_null(gb_compile_pool_ahead(NULL));
    setenv("GPUBOUND_COMPILE_THREADS", "0", 1);
    assert_int_equal(gb_compile_pool_threads(), 0);
    setenv("GPUBOUND_COMPILE_THREADS", "3", 1);
    assert_int_equal(gb_compile_pool_threads(), 3);
    unsetenv("GPUBOUND_COMPILE_THREADS");
    assert_true(gb_compile_pool_threads() >= 1 && gb_compile_pool_threads() <= 8);
    gb_plan_release(&plan);
}

int main(void)
{
    char ver[32];
    if (gb_nvrtc_version(ver, sizeof ver) != GB_OK) {
        printf("skipped: %s\n", gb_error_message());
        return 0;
    }
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_pool_compiles_once_and_keeps_logs),
        cmocka_unit_test(test_needed_before_the_pool_reached_it),
        cmocka_unit_test(test_no_threads_no_pool),
    };
    int rc = cmocka_run_group_tests(tests, NULL, NULL);
    for (int i = 0; i < n_cache_dirs; i++) {
        char cmd[160];
        snprintf(cmd, sizeof cmd, "rm -rf %s", cache_dirs[i]);
        if (system(cmd) != 0)
            rc = 1;
    }
    return rc;
}
