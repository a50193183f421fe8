/* Records say where their time came from and keep batch time apart: the
 * fields round-trip through results.json, fill the last columns of
 * results.csv, and a record written before they existed loads as what it
 * was (events; events-graph when batched). */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "gpubound/results.h"

static void make_tmp(char *buf, size_t n)
{
    snprintf(buf, n, "/tmp/gb-test-timesrc-XXXXXX");
    assert_non_null(mkdtemp(buf));
}

static void fill(struct gb_record *r, int batch)
{
    memset(r, 0, sizeof *r);
    snprintf(r->suite, sizeof r->suite, "bandwidth");
    snprintf(r->bench, sizeof r->bench, "read");
    assert_int_equal(gb_record_set_axis(r, "width", "4"), GB_OK);
    r->status = GB_REC_OK;
    r->samples = 20;
    r->batch = batch;
    r->time_ns.min = 2000.0;
    r->time_ns.median = 2100.5;
    r->time_ns.mean = 2101.0;
    r->time_ns.stddev = 3.0;
    r->time_ns.ci_lo = 2099.0;
    r->time_ns.ci_hi = 2102.25;
    r->bytes = r->flops = r->bw_gbs = r->gflops = NAN;
    snprintf(r->time_source, sizeof r->time_source, "%s", batch > 1 ? "events-graph" : "events");
    r->batch_time_ns.min = r->batch_time_ns.median = r->batch_time_ns.mean = NAN;
    r->batch_time_ns.stddev = r->batch_time_ns.ci_lo = r->batch_time_ns.ci_hi = NAN;
    if (batch > 1) {
        r->batch_time_ns.min = 1900.0;
        r->batch_time_ns.median = 1950.75;
        r->batch_time_ns.mean = 1951.0;
        r->batch_time_ns.stddev = 2.0;
        r->batch_time_ns.ci_lo = 1949.5;
        r->batch_time_ns.ci_hi = 1952.125;
    }
}

static void assert_same(double a, double b)
{
    assert_true((isnan(a) && isnan(b)) || a == b);
}

static void assert_batch_equal(const struct gb_record *a, const struct gb_record *b)
{
    assert_string_equal(a->time_source, b->time_source);
    assert_same(a->batch_time_ns.min, b->batch_time_ns.min);
    assert_same(a->batch_time_ns.median, b->batch_time_ns.median);
    assert_same(a->batch_time_ns.mean, b->batch_time_ns.mean);
    assert_same(a->batch_time_ns.stddev, b->batch_time_ns.stddev);
    assert_same(a->batch_time_ns.ci_lo, b->batch_time_ns.ci_lo);
    assert_same(a->batch_time_ns.ci_hi, b->batch_time_ns.ci_hi);
}

/* The n-th comma-separated field of a CSV line without quotes. */
static void csv_field(const char *line, int n, char *out, size_t cap)
{
    const char *p = line;
    for (int i = 0; i < n && p; i++) {
        p = strchr(p, ',');
        if (p)
            p++;
    }
    assert_non_null(p);
    size_t len = strcspn(p, ",\n");
    assert_true(len < cap);
    memcpy(out, p, len);
    out[len] = '\0';
}

static int csv_columns(const char *line)
{
    int n = 1;
    for (const char *p = line; *p; p++)
        n += *p == ',';
    return n;
}

static void test_round_trip_and_csv(void **state)
{
    (void)state;
    char dir[64], path[256], line[4096], cell[64];
    struct gb_run_info info;
    struct gb_run_writer *w;
    struct gb_record recs[2];
    const char *axes[] = {"width"};
    make_tmp(dir, sizeof dir);
    gb_run_info_init(&info, "gpubound run bandwidth", "13.0");
    fill(&recs[0], 1);
    fill(&recs[1], 38);
    assert_int_equal(gb_record_set_axis(&recs[1], "width", "8"), GB_OK); /* two points, not one twice */
    assert_int_equal(gb_run_writer_open(dir, &info, axes, 1, &w), GB_OK);
    for (int i = 0; i < 2; i++)
        assert_int_equal(gb_run_writer_add(w, &recs[i]), GB_OK);
    assert_int_equal(gb_run_writer_close(w, &info), GB_OK);

    struct gb_run *run;
    assert_int_equal(gb_run_load(dir, &run), GB_OK);
    assert_int_equal(run->n_records, 2);
    for (int i = 0; i < 2; i++)
        assert_batch_equal(&recs[i], &run->records[i]);
    assert_true(isnan(run->records[0].batch_time_ns.median)); /* null when not batched */
    gb_run_free(run);

    /* The new columns close each row, after the metrics. */
    snprintf(path, sizeof path, "%s/results.csv", dir);
    FILE *f = fopen(path, "r");
    assert_non_null(f);
    assert_non_null(fgets(line, sizeof line, f));
    assert_non_null(strstr(line, ",timed_s,time_source,batch_min_ns,batch_median_ns,batch_mean_ns,"
                                 "batch_stddev_ns,batch_ci_lo_ns,batch_ci_hi_ns,cold_flush\n"));
    const int cols = csv_columns(line);
    assert_non_null(fgets(line, sizeof line, f));
    assert_int_equal(csv_columns(line), cols);
    csv_field(line, cols - 8, cell, sizeof cell);
    assert_string_equal(cell, "events");
    csv_field(line, cols - 6, cell, sizeof cell);
    assert_string_equal(cell, ""); /* no batch median */
    assert_non_null(fgets(line, sizeof line, f));
    csv_field(line, cols - 8, cell, sizeof cell);
    assert_string_equal(cell, "events-graph");
    csv_field(line, cols - 7, cell, sizeof cell);
    assert_true(strtod(cell, NULL) == 1900.0);
    csv_field(line, cols - 6, cell, sizeof cell);
    assert_true(strtod(cell, NULL) == 1950.75);
    csv_field(line, cols - 2, cell, sizeof cell);
    assert_true(strtod(cell, NULL) == 1952.125);
    fclose(f);
}

static void write_text(const char *path, const char *text)
{
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fputs(text, f);
    fclose(f);
}

/* Records from before the fields: batch > 1 was an event pair around a
 * graph, and its times were batch times. */
static void test_old_records(void **state)
{
    (void)state;
    char dir[64], path[256];
    make_tmp(dir, sizeof dir);
    char cmd[512];
    snprintf(cmd, sizeof cmd, "cp '%s/data/h200/bandwidth-2026-11-21-a/run.json' '%s/'", GB_SOURCE_DIR, dir);
    assert_int_equal(system(cmd), 0);
    snprintf(path, sizeof path, "%s/results.json", dir);
    write_text(path, "[\n"
                     "{\"suite\":\"s\",\"bench\":\"a\",\"status\":\"ok\",\"batch\":1,"
                     "\"time_ns\":{\"min\":10,\"median\":11,\"mean\":12,\"stddev\":1,\"ci_lo\":10.5,\"ci_hi\":11.5}},\n"
                     "{\"suite\":\"s\",\"bench\":\"b\",\"status\":\"ok\",\"batch\":38,"
                     "\"time_ns\":{\"min\":2,\"median\":2.25,\"mean\":2.5,\"stddev\":0.5,\"ci_lo\":2.125,\"ci_hi\":2.375}},\n"
                     "{\"suite\":\"s\",\"bench\":\"c\",\"status\":\"failed\",\"reason\":\"wrong\",\"batch\":1}\n"
                     "]\n");
    struct gb_run *run;
    assert_int_equal(gb_run_load(dir, &run), GB_OK);
    assert_int_equal(run->n_records, 3);
    const struct gb_record *a = &run->records[0], *b = &run->records[1], *c = &run->records[2];
    assert_string_equal(a->time_source, "events");
    assert_true(isnan(a->batch_time_ns.median));
    assert_true(a->time_ns.median == 11.0);
    assert_string_equal(b->time_source, "events-graph");
    assert_true(b->time_ns.median == 2.25); /* the primary time loads as before */
    assert_true(b->batch_time_ns.min == 2.0);
    assert_true(b->batch_time_ns.median == 2.25);
    assert_true(b->batch_time_ns.ci_lo == 2.125);
    assert_true(b->batch_time_ns.ci_hi == 2.375);
    assert_string_equal(c->time_source, ""); /* never timed */
    gb_run_free(run);
}

/* A committed run, recorded before the fields existed. */
static void test_committed_run(void **state)
{
    (void)state;
    struct gb_run *run;
    int batched = 0;
    assert_int_equal(gb_run_load(GB_SOURCE_DIR "/data/h200/patterns-2026-11-21", &run), GB_OK);
    for (size_t i = 0; i < run->n_records; i++) {
        const struct gb_record *r = &run->records[i];
        if (r->status != GB_REC_OK)
            continue;
        assert_string_equal(r->time_source, r->batch > 1 ? "events-graph" : "events");
        if (r->batch > 1) {
            batched++;
            assert_true(r->batch_time_ns.median == r->time_ns.median);
        } else {
            assert_true(isnan(r->batch_time_ns.median));
        }
    }
    assert_true(batched > 0);
    gb_run_free(run);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_round_trip_and_csv),
        cmocka_unit_test(test_old_records),
        cmocka_unit_test(test_committed_run),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
