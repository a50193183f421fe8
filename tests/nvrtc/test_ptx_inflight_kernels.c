/* The loads in flight of real kernels (gpubound/ptx.h) through NVRTC's PTX
 * (gb_bench_ptx), no GPU needed:
 * 1. the corpus triad (corpus/triad/spec.json): two independent loads a
 *    thread, float (8 bytes) or float4 (32 bytes), as its vector_width axis
 *    sets; elems_per_thread does not add to them (each element's store may
 *    alias the next one's loads);
 * 2. the corpus pointer chase (corpus/chase/spec.json): each load's address
 *    is the one before's value, so one load is in flight per chain (4
 *    bytes a thread at 1 chain, 16 with 4 independent chains);
 * 3. the camping suite's read kernel: four loads in flight (its unrolled
 *    loop) of `width` bytes each, 16 bytes at width 4 and 64 at width 16;
 * 4. a template kernel: its .entry is the lowered name, which gb_bench_ptx
 *    gives back;
 * 5. the breakdown's reader of a recorded run (gb_inflight_counter): the
 *    H200 corpus chase's records at 1 and 4 chains a thread give 1 and 4
 *    loads in flight, every other metric the record's own counter. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include <math.h>

#include "gpubound/bench_inflight.h"
#include "gpubound/lpbm_input.h"
#include "gpubound/ptx.h"
#include "gpubound/spec.h"
#include "gpubound/suite.h"

#ifndef GB_SOURCE_DIR
#error "GB_SOURCE_DIR must name the source directory"
#endif

/* The largest group of bench `bench` of `suite` at "a=1,b=2" (NAME=VALUE pairs). */
static struct gb_ptx_inflight at(const struct gb_suite *suite, const char *bench, const char *axes,
                                 const char *fallback)
{
    struct gb_kv kv[16];
    int n = 0;
    char buf[512], *save = NULL, *ptx = NULL, entry[GB_KERNEL_NAME_LEN];
    snprintf(buf, sizeof buf, "%s", axes);
    for (char *t = strtok_r(buf, ",", &save); t && n < 16; t = strtok_r(NULL, ",", &save), n++) {
        char *eq = strchr(t, '=');
        assert_non_null(eq);
        *eq = '\0';
        snprintf(kv[n].name, sizeof kv[n].name, "%s", t);
        snprintf(kv[n].value, sizeof kv[n].value, "%s", eq + 1);
    }
    const struct gb_bench *b = gb_bench_find(suite, bench);
    assert_non_null(b);
    if (gb_bench_ptx(b, kv, n, "sm_90", &ptx, entry, sizeof entry) != GB_OK)
        fail_msg("%s", gb_error_message());
    struct gb_ptx_inflight r;
    if (gb_ptx_inflight(ptx, entry[0] ? entry : fallback, &r) != GB_OK)
        fail_msg("%s", gb_error_message());
    free(ptx);
    return r;
}

static struct gb_suite *spec_suite(const char *path)
{
    struct gb_spec *spec = NULL;
    struct gb_suite *suite = NULL;
    if (gb_spec_load(path, &spec) != GB_OK || gb_spec_suite(spec, &suite) != GB_OK)
        fail_msg("%s", gb_error_message());
    return suite;
}

static void triad(void **state)
{
    (void)state;
    struct gb_suite *s = spec_suite(GB_SOURCE_DIR "/corpus/triad/spec.json");
    struct gb_ptx_inflight r = at(s, "triad", "block_size_x=256,elems_per_thread=1,vector_width=1,n=2097152", NULL);
    assert_true(r.bytes == 8);
    assert_int_equal(r.loads, 2);
    r = at(s, "triad", "block_size_x=256,elems_per_thread=1,vector_width=4,n=2097152", NULL);
    assert_true(r.bytes == 32);
    r = at(s, "triad", "block_size_x=256,elems_per_thread=4,vector_width=1,n=2097152", NULL);
    assert_true(r.bytes == 8);
    gb_spec_suite_free(s);
}

static void chase(void **state)
{
    (void)state;
    struct gb_suite *s = spec_suite(GB_SOURCE_DIR "/corpus/chase/spec.json");
    struct gb_ptx_inflight one = at(s, "chase", "block_size_x=128,chains_per_thread=1,table=1048576", NULL);
    struct gb_ptx_inflight four = at(s, "chase", "block_size_x=128,chains_per_thread=4,table=1048576", NULL);
    assert_int_equal(one.loads, 1);        /* one chain's steps wait for each other */
    assert_true(one.bytes == 4);
    assert_int_equal(four.loads, 4);       /* four chains' steps overlap */
    assert_true(four.bytes == 16);
    gb_spec_suite_free(s);
}

static void camping_read(void **state)
{
    (void)state;
    const struct gb_suite *s = gb_suite_find("camping");
    assert_non_null(s);
    struct gb_ptx_inflight r = at(s, "read", "width=4", "camp_read");
    assert_true(r.bytes == 16);
    assert_int_equal(r.loads, 4);
    r = at(s, "read", "width=16", "camp_read");
    assert_true(r.bytes == 64);
}

/* The first ok record of `run` whose axis `name` has `value`. */
static const struct gb_record *record_with(const struct gb_run *run, const char *name, const char *value)
{
    for (size_t i = 0; i < run->n_records; i++)
        for (int a = 0; a < run->records[i].n_axes; a++)
            if (!strcmp(run->records[i].axes[a].name, name) && !strcmp(run->records[i].axes[a].value, value) &&
                run->records[i].status == GB_REC_OK)
                return &run->records[i];
    fail_msg("no record with %s=%s", name, value);
    return NULL;
}

static void reader_of_run(void **state)
{
    (void)state;
    struct gb_run *run = NULL;
    if (gb_run_load(GB_SOURCE_DIR "/data/h200/corpus-2026-11-26/chase", &run) != GB_OK)
        fail_msg("%s", gb_error_message());
    struct gb_inflight_reader *x = gb_inflight_reader_new(run, NULL);
    assert_non_null(x);
    const struct gb_record *one = record_with(run, "chains_per_thread", "1");
    const struct gb_record *four = record_with(run, "chains_per_thread", "4");
    assert_true(gb_inflight_counter(x, one, 0, GB_LPBM_LOADS_IN_FLIGHT) == 1);
    assert_true(gb_inflight_counter(x, four, 0, GB_LPBM_LOADS_IN_FLIGHT) == 4);
    assert_true(gb_inflight_counter(x, four, 0, GB_LPBM_LOADS_IN_FLIGHT) == 4);   /* kept */
    double inst = gb_record_counter(four, "smsp__inst_executed.sum", NAN);
    assert_true(inst > 0 && gb_inflight_counter(x, four, 0, "smsp__inst_executed.sum") == inst);
    assert_true(isnan(gb_inflight_counter(NULL, four, 0, GB_LPBM_LOADS_IN_FLIGHT)));
    assert_true(isnan(gb_lpbm_counters_get(NULL, four, 0, GB_LPBM_LOADS_IN_FLIGHT)));
    gb_inflight_reader_free(x);
    /* a spec that is not the run's: its suite has no such bench, nothing is read */
    x = gb_inflight_reader_new(run, GB_SOURCE_DIR "/corpus/triad/spec.json");
    assert_true(isnan(gb_inflight_counter(x, four, 0, GB_LPBM_LOADS_IN_FLIGHT)));
    gb_inflight_reader_free(x);
    gb_run_free(run);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(triad),
        cmocka_unit_test(chase),
        cmocka_unit_test(camping_read),
        cmocka_unit_test(reader_of_run),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
