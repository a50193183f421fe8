/* test_camp_point.c - what `camp predict --from-point` and `camp detect`
 * take from records, in the model (models/campprof/): the one record a
 * point's name picks, that record as an Nsight Compute launch, and the
 * spread and camped references among profiled records. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "gpubound/camp_detect.h"
#include "gpubound/campprof.h"

/* Record i of `run`: camping/BENCH with the axes, a time and, when
 * `sectors` > 0, its L2 sectors as a counter. */
static struct gb_record *add(struct gb_run *run, const char *bench, const char *pattern, const char *width,
                             const char *warps, double sectors)
{
    struct gb_record *r = &run->records[run->n_records++];
    memset(r, 0, sizeof *r);
    snprintf(r->suite, sizeof r->suite, "camping");
    snprintf(r->bench, sizeof r->bench, "%s", bench);
    r->status = GB_REC_OK;
    assert_int_equal(gb_record_set_axis(r, "pattern", pattern), GB_OK);
    assert_int_equal(gb_record_set_axis(r, "width", width), GB_OK);
    assert_int_equal(gb_record_set_axis(r, "warps", warps), GB_OK);
    r->time_ns.median = 1000;
    if (sectors > 0)
        assert_int_equal(gb_counters_set(&r->counters, "lts__t_sectors.sum", sectors), GB_OK);
    return r;
}

static struct gb_run *camping_run(void)
{
    struct gb_run *run = calloc(1, sizeof *run);
    assert_non_null(run);
    assert_non_null(run->records = calloc(8, sizeof *run->records));
    add(run, "read", "spread", "8", "32", 100);
    add(run, "read", "spread", "4", "64", 200);
    add(run, "read", "camped", "4", "64", 300);
    add(run, "read", "camped", "4", "32", 0);     /* no counters */
    add(run, "write", "spread", "4", "64", 400);
    return run;
}

static void finds_one_point(void **state)
{
    (void)state;
    struct gb_run *run = camping_run();
    const struct gb_record *hit = NULL;
    size_t n = 0;
    gb_camp_point_find(run, "camping/read", "width=4,warps=64,pattern=camped", &hit, &n);
    assert_int_equal(n, 1);
    assert_ptr_equal(hit, &run->records[2]);
    gb_camp_point_find(run, "camping/read", "width=4", &hit, &n);
    assert_int_equal(n, 3);
    gb_camp_point_find(run, "camping/read", "", &hit, &n);
    assert_int_equal(n, 4);
    gb_camp_point_find(run, "camping/read", "width", &hit, &n);  /* no '=': matches nothing */
    assert_int_equal(n, 0);
    gb_camp_point_find(run, "camping/copy", "", &hit, &n);
    assert_int_equal(n, 0);
    gb_run_free(run);
}

static void point_as_a_launch(void **state)
{
    (void)state;
    struct gb_run *run = camping_run();
    struct gb_ncu_report *rep = NULL;
    assert_int_equal(gb_record_set_metric(&run->records[2], "block_threads", 256), GB_OK);
    assert_int_equal(gb_camp_point_report(&run->records[2], &rep), GB_OK);
    assert_int_equal(rep->n_launches, 1);
    assert_string_equal(rep->launches[0].kernel, "camping/read");
    assert_true(gb_ncu_value(&rep->launches[0], "lts__t_sectors.sum", NAN) == 300);
    assert_true(gb_ncu_value(&rep->launches[0], GB_NCU_BLOCK, NAN) == 256);
    assert_true(gb_ncu_value(&rep->launches[0], GB_NCU_TIME, NAN) == 1000);
    assert_true(isnan(gb_ncu_value(&rep->launches[0], GB_NCU_GRID, NAN)));  /* not recorded: absent */
    gb_ncu_free(rep);
    assert_int_equal(gb_camp_point_report(&run->records[3], &rep), GB_ERR_FORMAT);
    assert_null(rep);
    assert_string_equal(gb_error_message(), "the point has no counters");
    gb_run_free(run);
}

static void picks_the_references(void **state)
{
    (void)state;
    struct gb_run *run = camping_run();
    /* width 4 and 64 warps preferred over the first spread record */
    assert_ptr_equal(gb_camp_detect_ref(run->records, run->n_records, "spread"), &run->records[1]);
    assert_ptr_equal(gb_camp_detect_ref(run->records, run->n_records, "camped"), &run->records[2]);
    assert_null(gb_camp_detect_ref(run->records, 1, "camped"));
    /* a camped record without counters is no reference */
    assert_null(gb_camp_detect_ref(run->records + 3, 1, "camped"));
    assert_int_equal(gb_camp_detect_n_refs(run->records, run->n_records), 2);
    assert_int_equal(gb_camp_detect_n_refs(run->records + 3, 2), 1);  /* read, then write */
    assert_int_equal(gb_camp_detect_n_refs(run->records + 4, 1), 0);
    assert_string_equal(gb_camp_detect_metrics[0], "lts__t_sectors.sum");
    assert_string_equal(gb_camp_detect_ref_sets[0], "pattern=spread,camped");
    gb_run_free(run);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(finds_one_point),
        cmocka_unit_test(point_as_a_launch),
        cmocka_unit_test(picks_the_references),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
