/* gb_measure_point's handling of each failure class, through a bench whose
 * setup fails the way a driver or NVRTC would (no GPU is touched: the bench
 * compiles nothing and fails before any launch): a compile error is
 * recorded with NVRTC's log and stays inside its point; a launch the driver
 * refuses stays inside its point with a reason saying so; a lost context
 * goes up (GB_ERR_DEVICE_LOST) after the point's teardown; a hang goes up
 * (GB_ERR_TIMEOUT) and nothing that could wait for the device runs; every
 * wait of a point is limited to its bench's timeout_s (10 s by default). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "gpubound/measure.h"

enum fail_mode { FAIL_COMPILE, FAIL_REFUSED, FAIL_LOST, FAIL_HANG, FAIL_VERIFY };

static int teardowns;

static enum gb_status bad_setup(struct gb_point *p, void *ctx)
{
    enum fail_mode m = *(enum fail_mode *)ctx;
    switch (m) {
    case FAIL_COMPILE:
        p->gpu->compile_log = strdup("k.cu(2): error: boom\n1 error detected\n");
        return gb_error_set(GB_ERR_COMPILE, "kernel k.cu failed to compile for sm_90 with -DX=1: k.cu(2): error: boom");
    case FAIL_REFUSED:
        return gb_error_set(GB_ERR_CUDA, "cuLaunchKernel failed at gpu.c:1: too many resources requested for launch "
                                         "(CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES)");
    case FAIL_LOST:
        return gb_error_set(GB_ERR_DEVICE_LOST, "cuStreamSynchronize failed at gpu.c:1: an illegal memory access "
                                                "was encountered (CUDA_ERROR_ILLEGAL_ADDRESS)");
    case FAIL_HANG:
        p->gpu->hung = 1;
        return gb_error_set(GB_ERR_TIMEOUT, "the GPU did not finish within the point's limit of 2 s");
    case FAIL_VERIFY:
        return gb_error_set(GB_ERR_VERIFY, "index 3: expected 1, got 2");
    }
    return GB_OK;
}

static enum gb_status never(struct gb_point *p, void *ctx)
{
    (void)p;
    (void)ctx;
    fail_msg("called after a failed setup");
    return GB_OK;
}

static void count_teardown(struct gb_point *p, void *ctx)
{
    (void)p;
    (void)ctx;
    teardowns++;
}

/* Runs one point of a bench that fails with `mode`. */
static enum gb_status run_point(enum fail_mode mode, double timeout_s, struct gb_gpu *g, struct gb_record *rec)
{
    static enum fail_mode m;
    m = mode;
    struct gb_bench b = {.name = "bad", .setup = bad_setup, .launch = never, .verify = never,
                         .teardown = count_teardown, .timeout_s = timeout_s, .ctx = &m};
    struct gb_point p = {.bench = &b, .gpu = g};
    struct gb_measure_opts o;
    gb_measure_opts_default(&o);
    memset(g, 0, sizeof *g);
    memset(rec, 0, sizeof *rec);
    teardowns = 0;
    enum gb_status st = gb_measure_point(g, &p, &o, rec);
    gb_point_release(&p);
    return st;
}

static void test_compile_error_keeps_log(void **state)
{
    (void)state;
    struct gb_gpu g;
    struct gb_record rec;
    assert_int_equal(run_point(FAIL_COMPILE, 0, &g, &rec), GB_OK);
    assert_int_equal(rec.status, GB_REC_ERROR);
    assert_non_null(strstr(rec.reason, "kernel k.cu failed to compile"));
    assert_non_null(strstr(rec.reason, "error: boom"));
    assert_non_null(rec.compile_log);
    assert_string_equal(rec.compile_log, "k.cu(2): error: boom\n1 error detected\n");
    assert_null(g.compile_log); /* moved, not copied: the next point starts clean */
    assert_int_equal(teardowns, 1);
    gb_record_release(&rec);
}

static void test_refused_launch_stays_in_point(void **state)
{
    (void)state;
    struct gb_gpu g;
    struct gb_record rec;
    assert_int_equal(run_point(FAIL_REFUSED, 0, &g, &rec), GB_OK);
    assert_int_equal(rec.status, GB_REC_ERROR);
    assert_non_null(strstr(rec.reason, "the driver refused the launch"));
    assert_non_null(strstr(rec.reason, "CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES"));
    assert_null(rec.compile_log);
    gb_record_release(&rec);
}

static void test_lost_context_goes_up(void **state)
{
    (void)state;
    struct gb_gpu g;
    struct gb_record rec;
    assert_int_equal(run_point(FAIL_LOST, 0, &g, &rec), GB_ERR_DEVICE_LOST);
    assert_int_equal(rec.status, GB_REC_ERROR);
    assert_non_null(strstr(rec.reason, "faulted"));
    assert_non_null(strstr(rec.reason, "CUDA_ERROR_ILLEGAL_ADDRESS"));
    assert_int_equal(teardowns, 1); /* the point's own state goes before the context does */
    gb_record_release(&rec);
}

static void test_hang_goes_up_untouched(void **state)
{
    (void)state;
    struct gb_gpu g;
    struct gb_record rec;
    assert_int_equal(run_point(FAIL_HANG, 2, &g, &rec), GB_ERR_TIMEOUT);
    assert_int_equal(rec.status, GB_REC_ERROR);
    assert_non_null(strstr(rec.reason, "hung"));
    assert_non_null(strstr(rec.reason, "limit of 2 s"));
    assert_true(g.wait_limit_s == 2.0);
    assert_int_equal(teardowns, 0); /* a free could wait for the running kernel */
    gb_record_release(&rec);
}

static void test_default_limit(void **state)
{
    (void)state;
    struct gb_gpu g;
    struct gb_record rec;
    assert_int_equal(run_point(FAIL_VERIFY, 0, &g, &rec), GB_OK);
    assert_int_equal(rec.status, GB_REC_FAILED);
    assert_true(g.wait_limit_s == GB_TIMEOUT_DEFAULT_S);
    assert_true(GB_TIMEOUT_DEFAULT_S == 10.0);
    gb_record_release(&rec);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_compile_error_keeps_log),
        cmocka_unit_test(test_refused_launch_stays_in_point),
        cmocka_unit_test(test_lost_context_goes_up),
        cmocka_unit_test(test_hang_goes_up_untouched),
        cmocka_unit_test(test_default_limit),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
