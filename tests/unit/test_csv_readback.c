/* results.csv of every committed run, read back cell by cell and checked
 * against the same run's results.json as the loader reads it: every axis,
 * every fixed column and every metric column holds the record's value
 * (numbers exactly: both files print 17 significant digits; an empty cell
 * is a null number). Nothing else in the program reads the CSV, so this is
 * what keeps its columns honest. */
#include <glob.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "gpubound/results.h"

#define MAX_COLS 256

/* Splits one RFC 4180 line in place into cells (quotes removed, "" -> ").
 * Returns the cell count. */
static int split_csv(char *line, char **cells)
{
    int n = 0;
    char *r = line, *w = line;
    for (;;) {
        assert_true(n < MAX_COLS);
        cells[n++] = w;
        if (*r == '"') {
            r++;
            for (;;) {
                assert_true(*r != '\0'); /* an unterminated quote */
                if (r[0] == '"' && r[1] == '"') {
                    *w++ = '"';
                    r += 2;
                } else if (*r == '"') {
                    r++;
                    break;
                } else {
                    *w++ = *r++;
                }
            }
        } else {
            while (*r && *r != ',' && *r != '\n' && *r != '\r')
                *w++ = *r++;
        }
        if (*r != ',') {
            *w = '\0';
            return n;
        }
        *w++ = '\0';
        r++;
    }
}

static void check_num(const char *cell, double v, const char *col, size_t row)
{
    if (!*cell) {
        if (isfinite(v))
            fail_msg("row %zu, %s: empty cell, record has %.17g", row, col, v);
        return;
    }
    char *end;
    double c = strtod(cell, &end);
    if (*end || c != v)
        fail_msg("row %zu, %s: cell '%s', record has %.17g", row, col, cell, v);
}

static void check_int(const char *cell, int v, const char *col, size_t row)
{
    char want[32];
    snprintf(want, sizeof want, "%d", v);
    if (strcmp(cell, want) != 0)
        fail_msg("row %zu, %s: cell '%s', record has %d", row, col, cell, v);
}

/* The value of fixed column `col` in `r`; 1 when `col` is a fixed column. */
static int fixed_cell(const struct gb_record *r, const char *col, const char *cell, size_t row)
{
    static const char *const dnames[] = {"min_ns", "median_ns", "mean_ns", "stddev_ns", "ci_lo_ns",
                                         "ci_hi_ns", "bytes", "flops", "bw_gbs", "gflops",
                                         "sm_mhz_before", "sm_mhz_after", "wall_s", "timed_s"};
    const double dvals[] = {r->time_ns.min, r->time_ns.median, r->time_ns.mean, r->time_ns.stddev, r->time_ns.ci_lo,
                            r->time_ns.ci_hi, r->bytes, r->flops, r->bw_gbs, r->gflops,
                            r->sm_mhz_before, r->sm_mhz_after, r->wall_s, r->timed_s};
    /* The tail: batch time, empty when the point was not batched. */
    static const char *const bnames[] = {"batch_min_ns", "batch_median_ns", "batch_mean_ns",
                                         "batch_stddev_ns", "batch_ci_lo_ns", "batch_ci_hi_ns"};
    const double bvals[] = {r->batch_time_ns.min, r->batch_time_ns.median, r->batch_time_ns.mean,
                            r->batch_time_ns.stddev, r->batch_time_ns.ci_lo, r->batch_time_ns.ci_hi};
    for (size_t i = 0; i < sizeof dnames / sizeof dnames[0]; i++)
        if (strcmp(col, dnames[i]) == 0) {
            check_num(cell, dvals[i], col, row);
            return 1;
        }
    for (size_t i = 0; i < sizeof bnames / sizeof bnames[0]; i++)
        if (strcmp(col, bnames[i]) == 0) {
            check_num(cell, r->batch > 1 ? bvals[i] : NAN, col, row);
            return 1;
        }
    if (strcmp(col, "time_source") == 0)
        assert_string_equal(cell, r->time_source);
    else if (strcmp(col, "cold_flush") == 0)
        assert_string_equal(cell, r->cold_flush);
    else if (strcmp(col, "status") == 0)
        assert_string_equal(cell, gb_record_status_name(r->status));
    else if (strcmp(col, "reason") == 0)
        assert_string_equal(cell, r->reason);
    else if (strcmp(col, "cache") == 0)
        assert_string_equal(cell, gb_cache_mode_name(r->cache));
    else if (strcmp(col, "samples") == 0)
        check_int(cell, r->samples, col, row);
    else if (strcmp(col, "converged") == 0)
        check_int(cell, r->converged, col, row);
    else if (strcmp(col, "batch") == 0)
        check_int(cell, r->batch, col, row);
    else if (strcmp(col, "throttled") == 0)
        check_int(cell, r->throttled, col, row);
    else
        return 0;
    return 1;
}

/* Columns: suite, bench, the axes up to the first "status", then fixed
 * columns and metrics, then time_source and the batch time. */
static void check_row(const struct gb_record *r, char **head, char **cells, int n, size_t row)
{
    assert_string_equal(cells[0], r->suite);
    assert_string_equal(cells[1], r->bench);
    int c = 2;
    for (; c < n && strcmp(head[c], "status") != 0; c++) {
        const char *name = strncmp(head[c], "axis_", 5) == 0 ? head[c] + 5 : head[c];
        const char *v = gb_record_axis(r, name);
        if (strcmp(cells[c], v ? v : "") != 0)
            fail_msg("row %zu, axis %s: cell '%s', record has '%s'", row, name, cells[c], v ? v : "");
    }
    assert_true(c < n); /* a status column */
    for (; c < n; c++) {
        if (fixed_cell(r, head[c], cells[c], row))
            continue;
        assert_string_not_equal(head[c], "metrics"); /* a finished run has one column per metric */
        check_num(cells[c], gb_record_metric(r, head[c], NAN), head[c], row);
    }
}

/* Checks the CSV in `f` (from its start) against the records of `run`. */
static void check_csv(FILE *f, const struct gb_run *run, const char *path)
{
    char *hline = NULL, *line = NULL, *head[MAX_COLS], *cells[MAX_COLS];
    size_t hn = 0, ln = 0, row = 0;
    assert_true(getline(&hline, &hn, f) > 0);
    int nh = split_csv(hline, head);
    while (getline(&line, &ln, f) > 0) {
        assert_true(row < run->n_records);
        int n = split_csv(line, cells);
        if (n != nh)
            fail_msg("%s row %zu: %d cells, header has %d", path, row + 1, n, nh);
        check_row(&run->records[row], head, cells, n, row + 1);
        row++;
    }
    if (row != run->n_records)
        fail_msg("%s: %zu rows, results.json has %zu records", path, row, run->n_records);
    free(line);
    free(hline);
}

/* The union of the records' axis names, in first-seen order. */
static int axis_union(const struct gb_run *run, const char **axes, int max)
{
    int n = 0;
    for (size_t i = 0; i < run->n_records; i++)
        for (int a = 0; a < run->records[i].n_axes; a++) {
            const char *name = run->records[i].axes[a].name;
            int seen = 0;
            for (int k = 0; k < n && !seen; k++)
                seen = strcmp(axes[k], name) == 0;
            if (!seen) {
                assert_true(n < max);
                axes[n++] = name;
            }
        }
    return n;
}

/* The committed CSV, and one written now from the loaded records by the
 * writer (gb_records_write_csv), both against results.json. */
static void check_run(const char *dir)
{
    char path[4200];
    struct gb_run *run = NULL;
    assert_int_equal(gb_run_load(dir, &run), GB_OK);
    snprintf(path, sizeof path, "%s/results.csv", dir);
    FILE *f = fopen(path, "r");
    assert_non_null(f);
    check_csv(f, run, path);
    fclose(f);
    const char *axes[MAX_COLS];
    int n_axes = axis_union(run, axes, MAX_COLS);
    f = tmpfile();
    assert_non_null(f);
    assert_int_equal(gb_records_write_csv(f, run->records, run->n_records, axes, n_axes), GB_OK);
    rewind(f);
    check_csv(f, run, "a CSV written now");
    fclose(f);
    gb_run_free(run);
}

static void test_committed_runs(void **state)
{
    (void)state;
    glob_t g;
    assert_int_equal(glob(GB_SOURCE_DIR "/data/*/*/results.csv", 0, NULL, &g), 0);
    assert_true(g.gl_pathc >= 3); /* the committed runs that keep their CSV */
    for (size_t i = 0; i < g.gl_pathc; i++) {
        char dir[4096];
        snprintf(dir, sizeof dir, "%s", g.gl_pathv[i]);
        *strrchr(dir, '/') = '\0';
        check_run(dir);
    }
    globfree(&g);
}

/* The file's bytes (malloc'ed, NUL-terminated), and their count in *len. */
static char *slurp(FILE *f, size_t *len)
{
    char *buf = NULL;
    size_t cap = 0, n = 0, got;
    do {
        if (n + 65536 > cap) {
            cap = 2 * cap + 65536;
            buf = realloc(buf, cap + 1);
            assert_non_null(buf);
        }
        got = fread(buf + n, 1, 65536, f);
        n += got;
    } while (got > 0);
    buf[n] = '\0';
    *len = n;
    return buf;
}

/* Every committed results.csv of the current columns (its last column is
 * cold_flush) is what the writer makes now of the same records, byte for
 * byte: the columns, their order and every number's text are the writer's
 * (the record table drives them, and a change to it shows here). */
static void test_writer_reproduces_committed(void **state)
{
    (void)state;
    glob_t g;
    int checked = 0;
    assert_int_equal(glob(GB_SOURCE_DIR "/data/*/*/results.csv", 0, NULL, &g), 0);
    for (size_t i = 0; i < g.gl_pathc; i++) {
        char dir[4096], *cells[MAX_COLS];
        const char *axes[MAX_COLS];
        size_t committed_len, now_len;
        struct gb_run *run = NULL;
        FILE *f = fopen(g.gl_pathv[i], "r");
        assert_non_null(f);
        char *committed = slurp(f, &committed_len);
        fclose(f);
        char *nl = strchr(committed, '\n');
        assert_non_null(nl);
        size_t head_len = (size_t)(nl - committed);
        if (head_len < 11 || strncmp(nl - 11, ",cold_flush", 11) != 0) {
            free(committed);
            continue;
        }
        char *header = strndup(committed, head_len);
        int n = split_csv(header, cells), n_axes = 0;
        for (int k = 2; k < n && strcmp(cells[k], "status") != 0; k++)
            axes[n_axes++] = strncmp(cells[k], "axis_", 5) == 0 ? cells[k] + 5 : cells[k];
        snprintf(dir, sizeof dir, "%s", g.gl_pathv[i]);
        *strrchr(dir, '/') = '\0';
        assert_int_equal(gb_run_load(dir, &run), GB_OK);
        f = tmpfile();
        assert_non_null(f);
        assert_int_equal(gb_records_write_csv(f, run->records, run->n_records, axes, n_axes), GB_OK);
        rewind(f);
        char *now = slurp(f, &now_len);
        fclose(f);
        if (now_len != committed_len || memcmp(now, committed, now_len) != 0)
            fail_msg("%s: the writer now makes other bytes of the same records", g.gl_pathv[i]);
        checked++;
        free(now);
        free(header);
        free(committed);
        gb_run_free(run);
    }
    globfree(&g);
    assert_true(checked >= 1);
}

int main(void)
{
    const struct CMUnitTest tests[] = {cmocka_unit_test(test_committed_runs),
                                       cmocka_unit_test(test_writer_reproduces_committed)};
    return cmocka_run_group_tests(tests, NULL, NULL);
}
