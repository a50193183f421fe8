/* test_campprof_records.c - the record adapter of CampProf
 * (src/models/campprof/campprof_records.c) on the synthetic camping run of
 * tests/data/runs/camping-fixture: its records become the observations
 * make.py built them from (counts, warps, times, sorted by warps), and a
 * record that lacks a metric the model needs is an error naming the metric,
 * never a count of zero. The metric names are spelled out here on purpose,
 * as the independent check of gpubound/camp_counts.h's table.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gpubound/campprof.h"

#ifndef GB_TEST_DATA
#error "GB_TEST_DATA must name the tests/data directory"
#endif

#define FIXTURE GB_TEST_DATA "/runs/camping-fixture"

static struct gb_run *load_fixture(void)
{
    struct gb_run *run = NULL;
    assert_int_equal(gb_run_load(FIXTURE, &run), GB_OK);
    return run;
}

/* Removes metric `name` from record `r`; asserts it was there. */
static void drop_metric(struct gb_record *r, const char *name)
{
    for (int i = 0; i < r->n_metrics; i++)
        if (strcmp(r->metrics[i].name, name) == 0) {
            memmove(&r->metrics[i], &r->metrics[i + 1],
                    (size_t)(r->n_metrics - i - 1) * sizeof r->metrics[0]);
            r->n_metrics--;
            return;
        }
    fail_msg("the record has no metric %s", name);
}

static struct gb_record *find_record(struct gb_run *run, const char *bench, const char *warps)
{
    for (size_t i = 0; i < run->n_records; i++) {
        struct gb_record *r = &run->records[i];
        const char *w = gb_record_axis(r, "warps");
        if (strcmp(r->bench, bench) == 0 && w && strcmp(w, warps) == 0 && r->status == GB_REC_OK)
            return r;
    }
    fail_msg("no %s record at %s warps", bench, warps);
    return NULL;
}

static void test_metric_names(void **state)
{
    (void)state;
    static const char *const ld[] = {"ld_req_1", "ld_req_2", "ld_req_4", "ld_req_8", "ld_req_16"};
    static const char *const st[] = {"st_req_1", "st_req_2", "st_req_4", "st_req_8", "st_req_16"};
    for (int c = 0; c < GB_CAMP_N_WIDTHS; c++) {
        assert_string_equal(gb_camp_req_metric(0, c), ld[c]);
        assert_string_equal(gb_camp_req_metric(1, c), st[c]);
        assert_int_equal(gb_camp_width_class(gb_camp_class_width(c)), c);
    }
    assert_null(gb_camp_req_metric(0, -1));
    assert_null(gb_camp_req_metric(1, GB_CAMP_N_WIDTHS));
    assert_string_equal(gb_camp_sectors_metric(0), "ld_sectors");
    assert_string_equal(gb_camp_sectors_metric(1), "st_sectors");
    assert_string_equal(GB_CAMP_METRIC_ACTIVE_WARPS, "active_warps");
}

/* The applications of make.py's APPS: counts by width, warps 8..64. */
static void test_apps_from_fixture(void **state)
{
    (void)state;
    static const struct {
        const char *bench;
        double ld4, ld8, st4;
    } want[] = {
        {"gem", 4194304, 0, 65536},
        {"clique", 6291456, 1048576, 131072},
        {"transpose_coalesced", 2097152, 0, 2097152},
        {"transpose_diagonal", 2097152, 0, 2097152},
    };
    struct gb_run *run = load_fixture();
    struct gb_camp_app *apps = NULL;
    size_t n = 0;
    assert_int_equal(gb_camp_records_apps(run, &apps, &n), GB_OK);
    assert_int_equal(n, 4);
    for (size_t a = 0; a < n; a++) {
        const struct gb_camp_app *g = &apps[a];
        assert_string_equal(g->bench, want[a].bench);
        assert_string_equal(g->label, want[a].bench);
        assert_non_null(g->title);
        assert_int_equal(g->n, 8);
        for (size_t i = 0; i < g->n; i++) {
            const struct gb_camp_obs *o = &g->obs[i];
            char warps[16];
            assert_true(o->warps == 8.0 * (double)(i + 1)); /* ascending */
            snprintf(warps, sizeof warps, "%d", 8 * (int)(i + 1));
            const struct gb_record *r = find_record(run, g->bench, warps);
            assert_true(o->time_ns == r->time_ns.median);
            assert_true(g->ci_lo_ns[i] == r->time_ns.ci_lo && g->ci_hi_ns[i] == r->time_ns.ci_hi);
            assert_true(o->counts.ld[2] == want[a].ld4);
            assert_true(o->counts.ld[3] == want[a].ld8);
            assert_true(o->counts.st[2] == want[a].st4);
            assert_true(o->counts.ld[0] == 0 && o->counts.ld[1] == 0 && o->counts.ld[4] == 0);
            assert_true(o->counts.st[0] == 0 && o->counts.st[1] == 0 && o->counts.st[3] == 0 &&
                        o->counts.st[4] == 0);
            assert_true(o->counts.ld_sectors == gb_record_metric(r, "ld_sectors", NAN));
        }
    }
    gb_camp_apps_free(apps, n);
    gb_run_free(run);
}

/* The fit's samples: every ok record of the equation, with its count. */
static void test_samples_from_fixture(void **state)
{
    (void)state;
    struct gb_run *run = load_fixture();
    struct gb_camp_sample *s = NULL;
    size_t n = 0;
    assert_int_equal(gb_camp_records_samples(run, GB_CAMP_WRITE, GB_CAMP_CAMPED, GB_CAMP_LEVEL_UNKNOWN, &s, &n), GB_OK);
    assert_int_equal(n, 36); /* 4 widths x 9 warps */
    for (size_t i = 0; i < n; i++) {
        assert_true(s[i].instr == 132.0 * 1024.0 * s[i].warps);
        assert_true(s[i].wclass >= 1 && s[i].wclass < GB_CAMP_N_WIDTHS);
        assert_true(s[i].time_ns > 0);
    }
    free(s);
    /* The read that failed verification is left out. */
    assert_int_equal(gb_camp_records_samples(run, GB_CAMP_READ, GB_CAMP_SPREAD, GB_CAMP_LEVEL_UNKNOWN, &s, &n), GB_OK);
    assert_int_equal(n, 36);
    free(s);
    gb_run_free(run);
}

/* A missing count is an error that names it, not a zero. */
static void test_missing_metric(void **state)
{
    (void)state;
    struct gb_run *run = load_fixture();
    struct gb_camp_app *apps = NULL;
    struct gb_camp_obs o;
    size_t n = 0;

    /* A count of zero is still a count. */
    struct gb_record *r = find_record(run, "gem", "16");
    assert_true(gb_record_metric(r, "st_req_8", NAN) == 0);
    assert_int_equal(gb_camp_record_obs(r, &o), GB_OK);
    drop_metric(r, "st_req_8");
    assert_int_equal(gb_camp_record_obs(r, &o), GB_ERR_FORMAT);
    assert_non_null(strstr(gb_error_message(), "camping/gem record at 16 warps lacks the metric st_req_8"));
    assert_int_equal(gb_camp_records_apps(run, &apps, &n), GB_ERR_FORMAT);
    assert_null(apps);
    assert_non_null(strstr(gb_error_message(), FIXTURE ": the camping/gem record"));
    assert_non_null(strstr(gb_error_message(), "st_req_8"));

    /* Without any count the message says which metrics it needs. */
    r = find_record(run, "clique", "24");
    for (int c = 0; c < GB_CAMP_N_WIDTHS; c++)
        for (int is_store = 0; is_store < 2; is_store++)
            if (!isnan(gb_record_metric(r, gb_camp_req_metric(is_store, c), NAN)))
                drop_metric(r, gb_camp_req_metric(is_store, c));
    assert_int_equal(gb_camp_record_obs(r, &o), GB_ERR_FORMAT);
    assert_non_null(strstr(gb_error_message(), "lacks the ld_req_<width> and st_req_<width> metrics"));
    gb_run_free(run);

    /* The fit: a micro-benchmark without its instruction count. */
    run = load_fixture();
    struct gb_camp_sample *s = NULL;
    r = find_record(run, "read", "4");
    char name[32];
    snprintf(name, sizeof name, "ld_req_%s", gb_record_axis(r, "width"));
    drop_metric(r, name);
    assert_int_equal(gb_camp_records_samples(run, GB_CAMP_READ,
                                             strcmp(gb_record_axis(r, "pattern"), "spread") == 0
                                                 ? GB_CAMP_SPREAD
                                                 : GB_CAMP_CAMPED,
                                             GB_CAMP_LEVEL_UNKNOWN, &s, &n),
                     GB_ERR_FORMAT);
    assert_null(s);
    assert_non_null(strstr(gb_error_message(), name));
    gb_run_free(run);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_metric_names),
        cmocka_unit_test(test_apps_from_fixture),
        cmocka_unit_test(test_samples_from_fixture),
        cmocka_unit_test(test_missing_metric),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
