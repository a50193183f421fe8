/* test_runs.h - what the report tests share: made-up records, a written
 * file read back whole, and a table's rows as parsed JSON. Include after
 * <cmocka.h>. */
#ifndef GB_TEST_RUNS_H
#define GB_TEST_RUNS_H

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "gpubound/report.h"
#include "gpubound/results.h"
#include "gpubound/suite.h"

/* The chart set of a suite (a compound literal: valid in the enclosing block). */
#define TEST_SET(s) (&(struct gb_chart_set){(s)->name, (s)->help, (s)->charts, (s)->n_charts, (s)->findings})

/* The charts the suite table declares for the suites of the run, as
 * `gpubound report` finds them for a run without charts.json. */
static inline enum gb_status test_book(const struct gb_run *run, struct gb_chart_book *book)
{
    enum gb_status st = GB_OK;
    gb_chart_book_init(book);
    for (size_t i = 0; i < run->n_records && st == GB_OK; i++) {
        const struct gb_suite *s = gb_suite_find(run->records[i].suite);
        if (s && !gb_chart_book_find(book, s->name))
            st = gb_chart_book_add(book, TEST_SET(s));
    }
    return st;
}

/* gb_report_write_book with the charts of test_book. */
static inline enum gb_status test_report_write(const struct gb_run *run, const char *dir,
                                               struct gb_report_result *res)
{
    struct gb_chart_book book;
    enum gb_status st = test_book(run, &book);
    if (st == GB_OK)
        st = gb_report_write_book(run, &book, NULL, dir, res);
    gb_chart_book_release(&book);
    return st;
}

/* A measured record of `bench` in `suite`: converged after 10 samples, a
 * median of `ns` with a 95% CI from 0.99 ns to 1.01 ns, no bandwidth or
 * flop rate, no axes. */
static inline void test_record(struct gb_record *r, const char *suite, const char *bench, double ns)
{
    memset(r, 0, sizeof *r);
    snprintf(r->suite, sizeof r->suite, "%s", suite);
    snprintf(r->bench, sizeof r->bench, "%s", bench);
    r->status = GB_REC_OK;
    r->samples = 10;
    r->converged = 1;
    r->time_ns.median = ns;
    r->time_ns.ci_lo = ns * 0.99;
    r->time_ns.ci_hi = ns * 1.01;
    r->bw_gbs = r->gflops = NAN;
}

/* The whole of a file that a test wrote (the test fails when it cannot be
 * read); its length in *len when len is not NULL. */
static inline char *slurp(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        fail_msg("%s was not written", path);
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *buf = malloc((size_t)n + 1);
    assert_non_null(buf);
    assert_int_equal(fread(buf, 1, (size_t)n, f), (size_t)n);
    buf[n] = '\0';
    fclose(f);
    if (len)
        *len = (size_t)n;
    return buf;
}

/* A table as parsed JSON (an array of row objects); the table is kept. */
static inline json_t *table_json(const struct gb_table *t)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    assert_int_equal(gb_table_print(t, f, GB_FORMAT_JSON, 0), GB_OK);
    fclose(f);
    json_error_t err;
    json_t *doc = json_loads(buf, 0, &err);
    if (!doc)
        fail_msg("table JSON does not parse: %s\n%s", err.text, buf);
    free(buf);
    return doc;
}

/* Column `key` of a JSON row: a number (NAN for null) or a string ("" for null). */
static inline double num(json_t *row, const char *key)
{
    json_t *v = json_object_get(row, key);
    if (!v)
        fail_msg("no column '%s'", key);
    return json_is_number(v) ? json_number_value(v) : NAN;
}

static inline const char *str(json_t *row, const char *key)
{
    json_t *v = json_object_get(row, key);
    if (!v)
        fail_msg("no column '%s'", key);
    return json_is_string(v) ? json_string_value(v) : "";
}

#endif
