/* Counters without a GPU: the metric-name table and its checks, the
 * rollups asked for, the decoding of the profiler's value rows (built here
 * in the layout cuptiProfilerHostEvaluateToGpuValues documents: one double
 * per requested metric, in request order, one row per range), the spread
 * of an instanced metric from rollups or instances, camp detect's verdict,
 * and a record's counters through results.json and back. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "gpubound/camp_detect.h"
#include "gpubound/campprof.h"
#include "gpubound/counters.h"
#include "gpubound/results.h"
#include "results/json.h"

static void test_default_set(void **state)
{
    (void)state;
    size_t n;
    char why[256];
    const char *const *d = gb_counter_default_set(&n);
    assert_true(n >= 20);
    int campprof = 0;
    for (size_t i = 0; i < n; i++) {
        assert_int_equal(gb_counter_name_check(d[i], why, sizeof why), 0);
        for (size_t j = 0; j < i; j++)
            assert_string_not_equal(d[i], d[j]);
        campprof += !strcmp(d[i], GB_NCU_LD_REQUESTS) + !strcmp(d[i], GB_NCU_ST_REQUESTS) +
                    !strcmp(d[i], GB_NCU_LD_SECTORS) + !strcmp(d[i], GB_NCU_ST_SECTORS);
    }
    assert_int_equal(campprof, 4);
}

static void test_name_check(void **state)
{
    (void)state;
    char why[256], longname[200];
    const char *good[] = {"dram__sectors_read.sum", "lts__t_sectors.avg.pct_of_peak_sustained_elapsed",
                          "smsp__inst_executed", "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum"};
    const char *bad[] = {"", "BAD", "foo__x.sum", "dram__", "dram__.sum", "dram__x..sum", "dram__x.",
                         "dram_sectors.sum", "dram__sectors read.sum"};
    for (size_t i = 0; i < sizeof good / sizeof good[0]; i++)
        assert_int_equal(gb_counter_name_check(good[i], why, sizeof why), 0);
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        why[0] = '\0';
        assert_int_equal(gb_counter_name_check(bad[i], why, sizeof why), -1);
        assert_true(strlen(why) > 10 && !strchr(why, '\n'));
    }
    memset(longname, 'a', sizeof longname);
    memcpy(longname, "dram__", 6);
    longname[GB_COUNTER_NAME_MAX + 1] = '\0';
    assert_int_equal(gb_counter_name_check(longname, why, sizeof why), -1);
    longname[GB_COUNTER_NAME_MAX] = '\0';
    assert_int_equal(gb_counter_name_check(longname, why, sizeof why), 0);
}

static void test_names_parse(void **state)
{
    (void)state;
    char **v;
    size_t n, nd;
    gb_counter_default_set(&nd);
    assert_int_equal(gb_counter_names_parse("default,dram__sectors_read.sum,default", &v, &n), GB_OK);
    assert_int_equal(n, nd);
    gb_counter_names_free(v, n);
    assert_int_equal(gb_counter_names_parse("lts__t_sectors.sum,dram__x.sum,lts__t_sectors.sum", &v, &n), GB_OK);
    assert_int_equal(n, 2);
    assert_string_equal(v[1], "dram__x.sum");
    gb_counter_names_free(v, n);
    assert_int_equal(gb_counter_names_parse("dram__x.sum,Nope", &v, &n), GB_ERR_USAGE);
    assert_non_null(strstr(gb_error_message(), "'Nope'"));
    assert_null(v);
    assert_int_equal(gb_counter_names_parse("", &v, &n), GB_ERR_USAGE);
}

static void test_request_adds_rollups(void **state)
{
    (void)state;
    char *names[] = {"dram__sectors_read.sum", "smsp__inst_executed.sum", "lts__t_sectors.max",
                     "dram__sectors_read.avg"};
    char **req;
    size_t n;
    assert_int_equal(gb_counter_request(names, 4, &req, &n), GB_OK);
    const char *want[] = {"dram__sectors_read.sum", "dram__sectors_read.avg", "dram__sectors_read.max",
                          "dram__sectors_read.min", "smsp__inst_executed.sum", "lts__t_sectors.max"};
    assert_int_equal(n, 6);
    for (size_t i = 0; i < n; i++)
        assert_string_equal(req[i], want[i]);
    gb_counter_names_free(req, n);
}

static void test_decode(void **state)
{
    (void)state;
    char *req[] = {"smsp__inst_executed.sum", "lts__t_sectors.sum", "lts__t_sectors.max"};
    /* two ranges (two kernels of one launch) */
    const double rows[] = {100, 960, 40, 28, 40, 2};
    const double inst1[] = {1, 2, 3, 4, 10, 20, 30, 40};  /* lts__t_sectors.sum: 4 instances x 2 ranges */
    const double *inst[] = {NULL, inst1, NULL};
    const int inst_n[] = {0, 4, 0};
    struct gb_counters c = {0};
    assert_int_equal(gb_counter_decode(req, 3, rows, 2, inst, inst_n, &c), GB_OK);
    assert_int_equal(c.n, 3);
    assert_true(gb_counters_find(&c, "smsp__inst_executed.sum")->value == 128);
    assert_true(gb_counters_find(&c, "lts__t_sectors.sum")->value == 1000);
    assert_true(gb_counters_find(&c, "lts__t_sectors.max")->value == 42);
    const struct gb_counter *k = gb_counters_find(&c, "lts__t_sectors.sum");
    assert_int_equal(k->n_inst, 4);
    assert_true(k->inst[0] == 11 && k->inst[3] == 44);
    gb_counters_release(&c);
    const double nan_row[] = {1, NAN, 3};
    assert_int_equal(gb_counter_decode(req, 3, nan_row, 1, NULL, NULL, &c), GB_ERR_FORMAT);
    assert_non_null(strstr(gb_error_message(), "lts__t_sectors.sum"));
    gb_counters_release(&c);
    assert_int_equal(gb_counter_decode(req, 3, rows, 0, NULL, NULL, &c), GB_ERR_FORMAT);
}

static void set_rollups(struct gb_counters *c, const char *base, double sum, double avg, double max, double min)
{
    char name[128];
    const char *r[] = {"sum", "avg", "max", "min"};
    const double v[] = {sum, avg, max, min};
    for (int i = 0; i < 4; i++) {
        snprintf(name, sizeof name, "%s.%s", base, r[i]);
        assert_int_equal(gb_counters_set(c, name, v[i]), GB_OK);
    }
}

static void test_spread(void **state)
{
    (void)state;
    struct gb_counters c = {0};
    struct gb_counter_spread s;
    set_rollups(&c, "lts__t_sectors", 9600, 100, 9600, 0);
    assert_int_equal(gb_counter_spread_of(&c, "lts__t_sectors", &s), GB_OK);
    assert_true(s.units == 96 && s.max_mean == 96 && isinf(s.max_min) && s.effective == 1);
    assert_int_equal(s.top[0], -1);
    assert_int_equal(gb_counter_spread_of(&c, "dram__sectors_read", &s), GB_ERR_UNSUPPORTED);
    const double inst[] = {1, 5, 3, 5};
    assert_int_equal(gb_counters_set_instances(&c, "dram__sectors_read.sum", inst, 4), GB_OK);
    assert_int_equal(gb_counter_spread_of(&c, "dram__sectors_read", &s), GB_OK);
    assert_true(s.units == 4 && s.sum == 14 && s.max == 5 && s.min == 1 && s.max_min == 5);
    assert_true(s.top[0] == 1 && s.top[1] == 3 && s.top[2] == 2 && s.top[3] == 0);
    gb_counters_release(&c);
}

static void test_detect(void **state)
{
    (void)state;
    struct gb_counters spread = {0}, camped = {0}, point = {0}, quiet = {0};
    struct gb_camp_detect d;
    char line[256];
    set_rollups(&spread, "lts__t_sectors", 96000, 1000, 1020, 980);
    set_rollups(&camped, "lts__t_sectors", 96000, 1000, 96000, 0);
    set_rollups(&point, "lts__t_sectors", 48000, 500, 12000, 0);   /* 4 slices */
    set_rollups(&quiet, "lts__t_sectors", 96, 1, 96, 0);
    gb_camp_detect(&point, &spread, &camped, &d);
    assert_true(d.u[0].judged && d.u[0].is_camped && d.u[0].on == 4);
    /* The busiest slice's share: 12000 of 48000 sectors; the references' 1020
     * and 96000 of 96000. */
    assert_true(fabs(d.u[0].share - (0.25)) < 1e-12);
    assert_true(fabs(d.u[0].share_spread - (1020.0 / 96000.0)) < 1e-12);
    assert_true(fabs(d.u[0].share_camped - (1.0)) < 1e-12);
    gb_camp_detect_verdict(&d.u[0], line, sizeof line);
    assert_non_null(strstr(line, "camped on 4 of 96 slices"));
    assert_false(d.u[1].have);
    gb_camp_detect(&spread, &spread, &camped, &d);
    assert_true(d.u[0].judged && !d.u[0].is_camped);
    gb_camp_detect_verdict(&d.u[0], line, sizeof line);
    assert_non_null(strstr(line, "not camped"));
    gb_camp_detect(&quiet, &spread, &camped, &d);
    assert_false(d.u[0].judged);
    /* The H100's camped set on DRAM: 1640 sectors over 40 partitions, max/mean
     * 2.1 times the reference's, too little traffic to judge (41 per partition). */
    struct gb_counters edge = {0};
    set_rollups(&edge, "lts__t_sectors", 1640, 41, 160, 0);
    gb_camp_detect(&edge, &spread, &camped, &d);
    assert_false(d.u[0].judged);
    gb_counters_release(&edge);
    gb_camp_detect(&point, NULL, NULL, &d);
    assert_false(d.u[0].judged);
    assert_true(fabs(d.u[0].share - (0.25)) < 1e-12);
    assert_true(isnan(d.u[0].share_spread) && isnan(d.u[0].share_camped));
    gb_counters_release(&spread);
    gb_counters_release(&camped);
    gb_counters_release(&point);
    gb_counters_release(&quiet);
}

static void fill(struct gb_record *r)
{
    memset(r, 0, sizeof *r);
    strcpy(r->suite, "camping");
    strcpy(r->bench, "read");
    r->time_ns.min = r->time_ns.median = r->time_ns.mean = r->time_ns.stddev = r->time_ns.ci_lo = r->time_ns.ci_hi = NAN;
    r->batch_time_ns.min = r->batch_time_ns.median = NAN;
    assert_int_equal(gb_record_set_axis(r, "pattern", "camped"), GB_OK);
    assert_int_equal(gb_counters_set(&r->counters, "smsp__inst_executed.sum", 123456), GB_OK);
    const double inst[] = {0, 4096, 0.5, 7};
    assert_int_equal(gb_counters_set_instances(&r->counters, "dram__sectors_read.sum", inst, 4), GB_OK);
    assert_int_equal(gb_counters_set(&r->counters, "dram__sectors_read.sum", 4103.5), GB_OK);
}

static void test_json_round_trip(void **state)
{
    (void)state;
    struct gb_record r, back, copy;
    char why[512];
    fill(&r);
    json_t *o = gb_record_to_json(&r);
    assert_int_equal(gb_record_from_json(o, &back, "results.json", "$[0]", why, sizeof why), 0);
    assert_true(gb_record_has_counters(&back));
    assert_true(gb_record_counter(&back, "smsp__inst_executed.sum", -1) == 123456);
    assert_true(gb_record_counter(&back, "dram__sectors_read.sum", -1) == 4103.5);
    assert_true(gb_record_counter(&back, "lts__t_sectors.sum", -1) == -1);
    const double *v;
    assert_int_equal(gb_record_counter_instances(&back, "dram__sectors_read.sum", &v), 4);
    assert_true(v[1] == 4096 && v[2] == 0.5);
    assert_int_equal(gb_record_copy(&copy, &back), GB_OK);
    gb_record_release(&back);
    assert_true(gb_record_counter(&copy, "smsp__inst_executed.sum", -1) == 123456);
    gb_record_release(&copy);
    /* refused: a negative count, a bad name, an array of strings */
    json_object_set_new(json_object_get(o, "counters"), "smsp__inst_executed.sum", json_real(-1));
    assert_int_equal(gb_record_from_json(o, &back, "results.json", "$[0]", why, sizeof why), -1);
    assert_non_null(strstr(why, "counters.smsp__inst_executed.sum"));
    json_object_set_new(json_object_get(o, "counters"), "smsp__inst_executed.sum", json_real(1));
    json_object_set_new(json_object_get(o, "counters"), "Bad Name", json_real(1));
    assert_int_equal(gb_record_from_json(o, &back, "results.json", "$[0]", why, sizeof why), -1);
    assert_non_null(strstr(why, "Bad Name"));
    json_object_del(json_object_get(o, "counters"), "Bad Name");
    json_object_set_new(json_object_get(o, "counters"), "dram__sectors_read.sum", json_pack("[ss]", "a", "b"));
    assert_int_equal(gb_record_from_json(o, &back, "results.json", "$[0]", why, sizeof why), -1);
    json_decref(o);
    /* a record without counters writes none */
    gb_counters_release(&r.counters);
    o = gb_record_to_json(&r);
    assert_null(json_object_get(o, "counters"));
    json_decref(o);
    gb_record_release(&r);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_default_set),     cmocka_unit_test(test_name_check),
        cmocka_unit_test(test_names_parse),     cmocka_unit_test(test_request_adds_rollups),
        cmocka_unit_test(test_decode),          cmocka_unit_test(test_spread),
        cmocka_unit_test(test_detect),          cmocka_unit_test(test_json_round_trip),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
