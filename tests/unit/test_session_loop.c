/* The session's run loop (session_loop.h) driven with a fake harness:
 * each class of failure a point can end with is written with its reason
 * and the loop does what it must: a compile error or a refused launch
 * stays inside its point; a fault writes the point, frees the shared state
 * and stops with the item a new process goes on from; that process reopens
 * the run directory (gb_session_resume_open: the records written back, a
 * directory of another run refused), skips the items before and goes on; a
 * hang writes the hung point and stops with the reason in run.json; an
 * interruption stops. The records and run.json are read back from disk,
 * compile_log and restarts_after_fault included. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "gpubound/measure.h"
#include "gpubound/session.h"
#include "measure/session_loop.h"

#define LOG2 "bad.cu(3): error: #error directive: \"case two\"\n1 error detected in the compilation of \"bad.cu\".\n"

/* What the fakes saw. */
static int measured[16], n_measured, share_freed;
static int interrupt_at;

static enum gb_status fake_setup(struct gb_point *p, void *ctx)
{
    (void)p;
    (void)ctx;
    return GB_OK;
}

static void fake_share_teardown(struct gb_gpu *g, void *ctx, void *shared)
{
    (void)g;
    (void)ctx;
    (void)shared;
    share_freed++;
}

static const struct gb_axis_def fake_axes[] = {
    {"case", GB_AXIS_INT, "1,2,3,4,5,6,7", NULL, 1, 100, NULL, "which failure"},
};

static const struct gb_bench fake_benches[] = {
    {.name = "pts", .help = "fake points", .axes = fake_axes, .n_axes = 1, .setup = fake_setup,
     .launch = fake_setup, .verify = fake_setup, .share_teardown = fake_share_teardown, .timeout_s = 2},
};

static const struct gb_suite fake_suite = {.name = "fakefail", .help = "failure classes", .benches = fake_benches,
                                           .n_benches = 1};

static void rec_ok(struct gb_record *rec)
{
    rec->status = GB_REC_OK;
    rec->samples = 10;
    rec->converged = 1;
    rec->batch = 1;
    rec->time_ns.min = 990;
    rec->time_ns.median = rec->time_ns.mean = 1000;
    rec->time_ns.stddev = 5;
    rec->time_ns.ci_lo = 995;
    rec->time_ns.ci_hi = 1005;
    rec->bytes = rec->flops = rec->bw_gbs = rec->gflops = NAN;
    snprintf(rec->time_source, sizeof rec->time_source, "events");
}

static void rec_error(struct gb_record *rec, const char *why)
{
    rec->status = GB_REC_ERROR;
    rec->batch = 1;
    rec->time_ns.min = rec->time_ns.median = rec->time_ns.mean = rec->time_ns.stddev = rec->time_ns.ci_lo = rec->time_ns.ci_hi = NAN;
    rec->bytes = rec->flops = rec->bw_gbs = rec->gflops = NAN;
    snprintf(rec->reason, sizeof rec->reason, "%s", why);
}

/* Case 1, 5: ok; 2: compile error with its log; 3: a refused launch; 4: a
 * fault; 6: a hang; 7 must never be measured (the hang stopped the run). */
static enum gb_status fake_measure(void *ctx, struct gb_gpu *g, struct gb_point *p, const struct gb_measure_opts *o,
                                   struct gb_record *rec)
{
    (void)ctx;
    (void)g;
    (void)o;
    long c = gb_point_int(p, "case");
    measured[n_measured++] = (int)c;
    if (c == interrupt_at)
        return gb_error_set(GB_ERR_INTERRUPTED, "interrupted");
    switch (c) {
    case 2:
        rec_error(rec, "kernel bad.cu failed to compile for sm_90 with -DCASE=2: bad.cu(3): error: #error directive");
        assert_int_equal(gb_record_set_compile_log(rec, LOG2), GB_OK);
        return GB_OK;
    case 3:
        rec_error(rec, "the driver refused the launch (block, registers or shared memory): cuLaunchKernel failed");
        return GB_OK;
    case 4:
        rec_error(rec, "faulted: the context is lost, the run goes on in a fresh process: an illegal memory access");
        return GB_ERR_DEVICE_LOST;
    case 6:
        rec_error(rec, "hung: the GPU did not finish within the point's limit of 2 s (timeout_s)");
        return GB_ERR_TIMEOUT;
    case 7:
        fail_msg("a point after the hung one was measured");
        return GB_OK;
    default:
        rec_ok(rec);
        return GB_OK;
    }
}

struct fixture {
    char dir[64];
    struct gb_plan plan;
    struct gb_run_info info;
    struct gb_run_writer *w;
    struct gb_measure_share share;
    struct gb_gpu gpu;
    struct gb_measure_opts mo;
    struct gb_session_loop loop;
};

static void fixture_open(struct fixture *f)
{
    static const char *const sel[] = {"fakefail"};
    static int added;
    memset(f, 0, sizeof *f);
    if (!added++)
        assert_int_equal(gb_suite_add(&fake_suite), GB_OK);
    assert_int_equal(gb_plan_build(sel, 1, NULL, 0, 0, &f->plan), GB_OK);
    assert_int_equal((int)f->plan.n, 7);
    snprintf(f->dir, sizeof f->dir, "/tmp/gb-loop-XXXXXX");
    assert_non_null(mkdtemp(f->dir));
    gb_run_info_init(&f->info, "gpubound run fakefail", "13.0");
    assert_int_equal(gb_run_writer_open(f->dir, &f->info, f->plan.axes, f->plan.n_axes, &f->w), GB_OK);
    gb_measure_opts_default(&f->mo);
    /* A shared state held from before: a fault must free it before the context goes. */
    f->share.bench = &fake_benches[0];
    f->share.state = &f->share;
    f->loop = (struct gb_session_loop){.plan = &f->plan, .gpu = &f->gpu, .w = f->w, .info = &f->info,
                                       .mo = &f->mo, .share = &f->share, .measure = fake_measure,
                                       .ctx = &f->share};
    n_measured = share_freed = 0;
    interrupt_at = 0;
}

/* Closes the writer and loads the run back; the caller frees it. */
static struct gb_run *fixture_close(struct fixture *f)
{
    struct gb_run *run = NULL;
    assert_int_equal(gb_run_writer_close(f->w, &f->info), GB_OK);
    f->w = NULL;
    assert_int_equal(gb_run_load(f->dir, &run), GB_OK);
    gb_plan_release(&f->plan);
    return run;
}

static void fixture_remove(const struct fixture *f)
{
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf %s", f->dir);
    assert_int_equal(system(cmd), 0);
}

/* The first process: points 1..4 measured, the fault at 4 written, the
 * shared state freed, and the loop stops for a new process from item 4. */
static void run_to_fault(struct fixture *f)
{
    enum gb_status measure_st;
    size_t next = 0;
    assert_int_equal(gb_session_loop_run(&f->loop, &measure_st, &next), GB_OK);
    assert_int_equal(measure_st, GB_ERR_DEVICE_LOST);
    assert_int_equal((int)next, 4);
    assert_int_equal(n_measured, 4);
    assert_int_equal(measured[3], 4);
    assert_int_equal(share_freed, 1);
    assert_null(f->share.state);
    assert_non_null(strstr(f->info.incomplete_reason, "fakefail/pts case=4 faulted; the run goes on from point 5 of 7"));
    assert_int_equal(f->info.points_ok, 1);
    assert_int_equal(f->info.points_failed, 3);
    f->info.timed_s = 0.25;
    f->info.modules_compiled = 3;
    assert_int_equal(gb_run_writer_close(f->w, &f->info), GB_OK);
    f->w = NULL;
}

static void test_fault_stops_for_a_new_process(void **state)
{
    (void)state;
    struct fixture f;
    struct gb_run *run = NULL;
    fixture_open(&f);
    run_to_fault(&f);
    assert_int_equal(gb_run_load(f.dir, &run), GB_OK);
    assert_int_equal((int)run->n_records, 4);
    assert_non_null(strstr(run->records[3].reason, "faulted"));
    assert_int_equal(run->info.complete, 0);
    assert_int_equal(run->info.restarts_after_fault, 0);
    gb_run_free(run);
    gb_plan_release(&f.plan);
    fixture_remove(&f);
}

/* The new process: the run reopened, its 4 records written back and
 * counted, items 1..4 skipped; 5 and 6 measured, the hang at 6 stops it. */
static void test_each_failure_class(void **state)
{
    (void)state;
    struct fixture f;
    enum gb_status measure_st;
    size_t next = 0;
    struct gb_run_info info, prior;
    struct gb_session_resume rz = {.next = 4, .restarts = 1, .t_start = 1};
    fixture_open(&f);
    run_to_fault(&f);
    snprintf(rz.started_utc, sizeof rz.started_utc, "%s", f.info.started_utc);
    gb_run_info_init(&info, "gpubound run fakefail", "13.0");
    snprintf(info.started_utc, sizeof info.started_utc, "2099-01-01T00:00:00Z");
    assert_int_equal(gb_session_resume_open(f.dir, &rz, &f.plan, &info, &prior, &f.w), GB_OK);
    assert_string_equal(info.started_utc, f.info.started_utc);
    assert_int_equal(info.points_ok, 1);
    assert_int_equal(info.points_failed, 3);
    assert_int_equal(info.restarts_after_fault, 1);
    assert_true(info.timed_s == 0.25);
    assert_int_equal(prior.modules_compiled, 3);
    assert_string_equal(info.incomplete_reason, "");
    f.info = info;
    f.loop.w = f.w;
    f.loop.first = rz.next;
    n_measured = 0;
    assert_int_equal(gb_session_loop_run(&f.loop, &measure_st, &next), GB_OK);
    assert_int_equal(measure_st, GB_ERR_TIMEOUT);
    /* Items 5 and 6 measured, none before, 7 never. */
    assert_int_equal(n_measured, 2);
    assert_int_equal(measured[0], 5);
    assert_int_equal(measured[1], 6);
    assert_non_null(strstr(f.info.incomplete_reason, "fakefail/pts case=6 hung"));
    assert_non_null(strstr(f.info.incomplete_reason, "2 s"));
    assert_int_equal(f.info.points_ok, 2);
    assert_int_equal(f.info.points_failed, 4);

    struct gb_run *run = fixture_close(&f);
    assert_int_equal((int)run->n_records, 6);
    static const enum gb_record_status want[] = {GB_REC_OK, GB_REC_ERROR, GB_REC_ERROR, GB_REC_ERROR, GB_REC_OK,
                                                 GB_REC_ERROR};
    for (int i = 0; i < 6; i++) {
        assert_int_equal(run->records[i].status, want[i]);
        assert_int_equal((int)gb_record_axis_num(&run->records[i], "case", 0), i + 1);
    }
    /* The compile log comes back whole through the reload, and only on the point that failed to compile. */
    assert_non_null(run->records[1].compile_log);
    assert_string_equal(run->records[1].compile_log, LOG2);
    for (int i = 0; i < 6; i++)
        if (i != 1)
            assert_null(run->records[i].compile_log);
    assert_non_null(strstr(run->records[2].reason, "refused the launch"));
    assert_non_null(strstr(run->records[3].reason, "faulted"));
    assert_non_null(strstr(run->records[5].reason, "hung"));
    /* run.json says the run is incomplete and why, and that it restarted once. */
    assert_int_equal(run->info.complete, 0);
    assert_int_equal(run->info.restarts_after_fault, 1);
    assert_string_equal(run->info.incomplete_reason, f.info.incomplete_reason);
    gb_run_free(run);
    fixture_remove(&f);
}

/* A marker for another run, a count of records other than the marker's,
 * or a complete run is refused, and the directory is left as it was. */
static void test_resume_refuses_another_run(void **state)
{
    (void)state;
    struct fixture f;
    struct gb_run_info info, prior;
    struct gb_run_writer *w = (struct gb_run_writer *)&f;
    struct gb_session_resume rz = {.next = 4, .restarts = 1, .t_start = 1};
    struct gb_run *run = NULL;
    fixture_open(&f);
    run_to_fault(&f);
    gb_run_info_init(&info, "gpubound run fakefail", "13.0");
    snprintf(rz.started_utc, sizeof rz.started_utc, "1999-01-01T00:00:00Z");
    assert_int_equal(gb_session_resume_open(f.dir, &rz, &f.plan, &info, &prior, &w), GB_ERR_USAGE);
    assert_null(w);
    assert_non_null(strstr(gb_error_message(), "not the one started at 1999-01-01T00:00:00Z"));
    snprintf(rz.started_utc, sizeof rz.started_utc, "%s", f.info.started_utc);
    rz.next = 5;
    assert_int_equal(gb_session_resume_open(f.dir, &rz, &f.plan, &info, &prior, &w), GB_ERR_USAGE);
    assert_non_null(strstr(gb_error_message(), "holds 4 record(s)"));
    /* Nothing was rewritten: the four records are still there. */
    assert_int_equal(gb_run_load(f.dir, &run), GB_OK);
    assert_int_equal((int)run->n_records, 4);
    gb_run_free(run);
    /* A complete run is not resumed. */
    rz.next = 4;
    assert_int_equal(gb_session_resume_open(f.dir, &rz, &f.plan, &info, &prior, &w), GB_OK);
    info.complete = 1;
    assert_int_equal(gb_run_writer_close(w, &info), GB_OK);
    assert_int_equal(gb_session_resume_open(f.dir, &rz, &f.plan, &info, &prior, &w), GB_ERR_USAGE);
    assert_non_null(strstr(gb_error_message(), "complete run"));
    gb_plan_release(&f.plan);
    fixture_remove(&f);
}

static void test_interrupt_stops_unwritten(void **state)
{
    (void)state;
    struct fixture f;
    enum gb_status measure_st;
    fixture_open(&f);
    interrupt_at = 2;
    size_t next = 0;
    assert_int_equal(gb_session_loop_run(&f.loop, &measure_st, &next), GB_OK);
    assert_int_equal(measure_st, GB_ERR_INTERRUPTED);
    assert_int_equal((int)next, 1); /* not written: a new process would measure it again */
    assert_int_equal(share_freed, 0);
    assert_non_null(strstr(f.info.incomplete_reason, "interrupted before fakefail/pts case=2"));
    struct gb_run *run = fixture_close(&f);
    assert_int_equal((int)run->n_records, 1);
    gb_run_free(run);
    fixture_remove(&f);
}

/* A compile log longer than a record keeps is cut, and says so. */
static void test_compile_log_cut(void **state)
{
    (void)state;
    struct gb_record r, c;
    memset(&r, 0, sizeof r);
    char *big = malloc(3 * GB_COMPILE_LOG_MAX);
    assert_non_null(big);
    memset(big, 'x', 3 * GB_COMPILE_LOG_MAX - 1);
    big[3 * GB_COMPILE_LOG_MAX - 1] = '\0';
    assert_int_equal(gb_record_set_compile_log(&r, big), GB_OK);
    assert_true(strlen(r.compile_log) < GB_COMPILE_LOG_MAX);
    assert_non_null(strstr(r.compile_log, "[log cut]"));
    assert_int_equal(gb_record_copy(&c, &r), GB_OK);
    assert_ptr_not_equal(c.compile_log, r.compile_log);
    assert_string_equal(c.compile_log, r.compile_log);
    assert_int_equal(gb_record_set_compile_log(&r, NULL), GB_OK);
    assert_null(r.compile_log);
    gb_record_release(&r);
    gb_record_release(&c);
    free(big);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_fault_stops_for_a_new_process),
        cmocka_unit_test(test_each_failure_class),
        cmocka_unit_test(test_resume_refuses_another_run),
        cmocka_unit_test(test_interrupt_stops_unwritten),
        cmocka_unit_test(test_compile_log_cut),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
