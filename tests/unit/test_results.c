/* Run directories: write, read back equal, and a file cut at any byte. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <cmocka.h>

#include "gpubound/results.h"

static void make_tmp(char *buf, size_t n)
{
    snprintf(buf, n, "/tmp/gb-test-results-XXXXXX");
    assert_non_null(mkdtemp(buf));
}

static void fill_info(struct gb_run_info *info)
{
    gb_run_info_init(info, "gpubound run bandwidth --out x", "12.9");
    info->has_device = 1;
    snprintf(info->device.name, sizeof info->device.name, "Test GPU");
    info->device.cc_major = 9;
    info->device.sm_count = 132;
    info->device.mem_peak_gbs = 4915.2;
    info->device.l2_bytes = 62914560;
    info->device.max_block_dim[0] = 1024;
}

static void fill_record(struct gb_record *r, int i)
{
    memset(r, 0, sizeof *r);
    snprintf(r->suite, sizeof r->suite, "bandwidth");
    snprintf(r->bench, sizeof r->bench, i % 2 ? "read" : "copy");
    char v[16];
    snprintf(v, sizeof v, "%d", 4 << (i % 3));
    assert_int_equal(gb_record_set_axis(r, "width", v), GB_OK);
    assert_int_equal(gb_record_set_axis(r, "bytes", "2G"), GB_OK);
    r->status = i == 3 ? GB_REC_FAILED : GB_REC_OK;
    if (i == 3)
        snprintf(r->reason, sizeof r->reason, "12 of 100 words differ, \"quoted\", with commas");
    r->cache = i % 2 ? GB_CACHE_COLD : GB_CACHE_HOT;
    r->samples = 10 + i;
    r->converged = i % 2;
    r->batch = 1 + i;
    r->time_ns.min = 1000.0 + i / 3.0;
    r->time_ns.median = 1001.123456789012 + i;
    r->time_ns.mean = 1002.5;
    r->time_ns.stddev = 0.1 / 3.0;
    r->time_ns.ci_lo = 1000.9;
    r->time_ns.ci_hi = 1001.7;
    r->bytes = 2147483648.0;
    r->flops = i == 2 ? NAN : 0.0;
    r->bw_gbs = r->bytes / r->time_ns.median;
    r->gflops = NAN;
    r->sm_mhz_before = 1980;
    r->sm_mhz_after = 1755;
    r->throttled = i == 1;
    r->wall_s = 0.25;
    r->timed_s = 0.125;
    assert_int_equal(gb_record_set_metric(r, "occupancy", 0.5 + i), GB_OK);
}

static void assert_record_equal(const struct gb_record *a, const struct gb_record *b)
{
    assert_string_equal(a->suite, b->suite);
    assert_string_equal(a->bench, b->bench);
    assert_int_equal(a->n_axes, b->n_axes);
    for (int i = 0; i < a->n_axes; i++) {
        assert_string_equal(a->axes[i].name, b->axes[i].name);
        assert_string_equal(a->axes[i].value, b->axes[i].value);
    }
    assert_int_equal(a->status, b->status);
    assert_string_equal(a->reason, b->reason);
    assert_int_equal(a->cache, b->cache);
    assert_int_equal(a->samples, b->samples);
    assert_int_equal(a->converged, b->converged);
    assert_int_equal(a->batch, b->batch);
    const double x[] = {a->time_ns.min, a->time_ns.median, a->time_ns.mean, a->time_ns.stddev, a->time_ns.ci_lo, a->time_ns.ci_hi, a->bytes,
                        a->flops, a->bw_gbs, a->gflops, a->sm_mhz_before, a->sm_mhz_after, a->wall_s, a->timed_s};
    const double y[] = {b->time_ns.min, b->time_ns.median, b->time_ns.mean, b->time_ns.stddev, b->time_ns.ci_lo, b->time_ns.ci_hi, b->bytes,
                        b->flops, b->bw_gbs, b->gflops, b->sm_mhz_before, b->sm_mhz_after, b->wall_s, b->timed_s};
    for (size_t i = 0; i < sizeof x / sizeof x[0]; i++)
        assert_true((isnan(x[i]) && isnan(y[i])) || x[i] == y[i]); /* bit-exact round trip */
    assert_int_equal(a->throttled, b->throttled);
    assert_int_equal(a->n_metrics, b->n_metrics);
    assert_true(a->metrics[0].value == b->metrics[0].value);
}

static void copy_file(const char *from, const char *to, long limit)
{
    FILE *f = fopen(from, "rb"), *g = fopen(to, "wb");
    assert_non_null(f);
    assert_non_null(g);
    int c;
    long n = 0;
    while ((limit < 0 || n < limit) && (c = fgetc(f)) != EOF) {
        fputc(c, g);
        n++;
    }
    fclose(f);
    fclose(g);
}

static long file_size(const char *path)
{
    struct stat sb;
    assert_int_equal(stat(path, &sb), 0);
    return (long)sb.st_size;
}

static void test_round_trip(void **state)
{
    (void)state;
    char dir[64], path[256];
    struct gb_run_info info;
    struct gb_run_writer *w;
    struct gb_record recs[5];
    const char *axes[] = {"width", "bytes"};
    make_tmp(dir, sizeof dir);
    fill_info(&info);
    assert_int_equal(gb_run_writer_open(dir, &info, axes, 2, &w), GB_OK);
    for (int i = 0; i < 5; i++) {
        fill_record(&recs[i], i);
        assert_int_equal(gb_run_writer_add(w, &recs[i]), GB_OK);
    }
    info.complete = 1;
    info.points_ok = 4;
    info.points_failed = 1;
    info.wall_s = 12.5;
    info.timed_s = 3.25;
    gb_utc_now(info.finished_utc, sizeof info.finished_utc);
    assert_int_equal(gb_run_writer_close(w, &info), GB_OK);

    struct gb_run *run;
    assert_int_equal(gb_run_load(dir, &run), GB_OK);
    assert_int_equal(run->n_records, 5);
    assert_false(run->truncated);
    for (int i = 0; i < 5; i++)
        assert_record_equal(&recs[i], &run->records[i]);
    assert_string_equal(run->info.command_line, info.command_line);
    assert_string_equal(run->info.device.name, "Test GPU");
    assert_int_equal(run->info.device.sm_count, 132);
    assert_true(run->info.device.mem_peak_gbs == 4915.2);
    assert_int_equal(run->info.complete, 1);
    assert_int_equal(run->info.points_failed, 1);
    assert_true(run->info.wall_s == 12.5);
    gb_run_free(run);

    /* The final CSV has a column per axis and per metric, and quotes text. */
    snprintf(path, sizeof path, "%s/results.csv", dir);
    FILE *f = fopen(path, "r");
    char line[4096];
    assert_non_null(fgets(line, sizeof line, f));
    /* The axis "bytes" would clash with the fixed column of that name. */
    assert_non_null(strstr(line, "suite,bench,width,axis_bytes,status"));
    assert_non_null(strstr(line, ",occupancy"));
    int rows = 0, quoted = 0;
    while (fgets(line, sizeof line, f)) {
        rows++;
        quoted |= strstr(line, "\"12 of 100 words differ, \"\"quoted\"\", with commas\"") != NULL;
    }
    fclose(f);
    assert_int_equal(rows, 5);
    assert_true(quoted);
    for (int i = 0; i < 5; i++)
        gb_record_release(&recs[i]);
}

/* A run killed at any byte of results.json keeps every complete record. */
static void test_cut_mid_write(void **state)
{
    (void)state;
    char dir[64], cut[64], from[256], to[256];
    struct gb_run_info info;
    struct gb_run_writer *w;
    struct gb_record rec;
    const char *axes[] = {"width", "bytes"};
    make_tmp(dir, sizeof dir);
    make_tmp(cut, sizeof cut);
    fill_info(&info);
    assert_int_equal(gb_run_writer_open(dir, &info, axes, 2, &w), GB_OK);
    long after[4];
    snprintf(from, sizeof from, "%s/results.json", dir);
    for (int i = 0; i < 3; i++) {
        fill_record(&rec, i);
        assert_int_equal(gb_run_writer_add(w, &rec), GB_OK);
        gb_record_release(&rec);
        after[i] = file_size(from); /* flushed: what a killed process leaves */
    }
    snprintf(to, sizeof to, "%s/run.json", cut);
    snprintf(from, sizeof from, "%s/run.json", dir);
    copy_file(from, to, -1);
    snprintf(from, sizeof from, "%s/results.json", dir);
    snprintf(to, sizeof to, "%s/results.json", cut);
    /* Every cut inside the third record, and at its end. */
    for (long n = after[1] + 1; n <= after[2]; n++) {
        copy_file(from, to, n);
        struct gb_run *run;
        assert_int_equal(gb_run_load(cut, &run), GB_OK);
        assert_true(run->truncated);
        assert_int_equal(run->n_records, n == after[2] ? 3 : 2);
        fill_record(&rec, 1);
        assert_record_equal(&rec, &run->records[1]);
        gb_record_release(&rec);
        assert_int_equal(run->info.complete, 0);
        gb_run_free(run);
    }
    /* Cut before any record: an empty run, still loadable. */
    copy_file(from, to, 2);
    struct gb_run *run;
    assert_int_equal(gb_run_load(cut, &run), GB_OK);
    assert_int_equal(run->n_records, 0);
    gb_run_free(run);
    assert_int_equal(gb_run_writer_close(w, &info), GB_OK);
}

static void write_text(const char *path, const char *text)
{
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fputs(text, f);
    fclose(f);
}

static void test_malformed(void **state)
{
    (void)state;
    char dir[64], path[256];
    struct gb_run *run = NULL;
    struct gb_run_info info;
    make_tmp(dir, sizeof dir);
    /* No run.json at all. */
    assert_int_equal(gb_run_load(dir, &run), GB_ERR_IO);
    assert_non_null(strstr(gb_error_message(), "not a gpubound run directory"));
    /* run.json that is not JSON. */
    snprintf(path, sizeof path, "%s/run.json", dir);
    write_text(path, "{ not json");
    assert_int_equal(gb_run_load(dir, &run), GB_ERR_FORMAT);
    assert_non_null(strstr(gb_error_message(), "run.json"));
    /* A good run.json with a corrupted record in the middle (not a cut). */
    fill_info(&info);
    FILE *f = fopen(path, "w");
    gb_run_info_write_json(f, &info);
    fclose(f);
    snprintf(path, sizeof path, "%s/results.json", dir);
    write_text(path, "[\n{\"suite\":\"a\",\"bench\":\"b\",\"status\":\"ok\"},\n{garbage},\n"
                     "{\"suite\":\"a\",\"bench\":\"c\",\"status\":\"ok\"}\n]\n");
    assert_int_equal(gb_run_load(dir, &run), GB_ERR_FORMAT);
    /* A record of the wrong shape. */
    write_text(path, "[\n{\"suite\":\"a\",\"bench\":\"b\",\"status\":\"sideways\"}\n]\n");
    assert_int_equal(gb_run_load(dir, &run), GB_ERR_FORMAT);
    assert_non_null(strstr(gb_error_message(), "sideways"));
    write_text(path, "{\"suite\":\"a\"}\n");
    assert_int_equal(gb_run_load(dir, &run), GB_ERR_FORMAT);
    assert_null(run);
}

static void test_dir_prepare(void **state)
{
    (void)state;
    char dir[64], path[256];
    make_tmp(dir, sizeof dir);
    assert_int_equal(gb_run_dir_prepare(dir), GB_OK); /* empty: fine */
    snprintf(path, sizeof path, "%s/new/deeper", dir);
    assert_int_equal(gb_run_dir_prepare(path), GB_OK); /* created with parents */
    assert_int_equal(gb_run_dir_prepare(dir), GB_ERR_USAGE); /* now not empty */
    assert_non_null(strstr(gb_error_message(), "not empty"));
    snprintf(path, sizeof path, "%s/file", dir);
    write_text(path, "x");
    assert_int_equal(gb_run_dir_prepare(path), GB_ERR_USAGE);
    assert_non_null(strstr(gb_error_message(), "not a directory"));
    if (geteuid() != 0) { /* root writes anywhere */
        snprintf(path, sizeof path, "%s/ro", dir);
        mkdir(path, 0555);
        assert_int_equal(gb_run_dir_prepare(path), GB_ERR_USAGE);
    }
}

static void test_record_accessors(void **state)
{
    (void)state;
    struct gb_record r;
    memset(&r, 0, sizeof r);
    assert_int_equal(gb_record_set_axis(&r, "width", "16"), GB_OK);
    assert_int_equal(gb_record_set_axis(&r, "mode", "x"), GB_OK);
    assert_int_equal(gb_record_set_axis(&r, "width", "8"), GB_OK);
    assert_int_equal(r.n_axes, 2);
    assert_string_equal(gb_record_axis(&r, "width"), "8");
    assert_true(gb_record_axis_num(&r, "width", -1) == 8.0);
    assert_true(gb_record_axis_num(&r, "mode", -1) == -1.0);
    assert_null(gb_record_axis(&r, "none"));
    char longv[100];
    memset(longv, 'x', sizeof longv - 1);
    longv[99] = '\0';
    assert_int_equal(gb_record_set_axis(&r, "long", longv), GB_ERR_USAGE);
    /* Records grow: no count of metrics is too many; a name too long is an error. */
    for (int i = 0; i < 3 * GB_MAX_METRICS; i++) {
        char name[16];
        snprintf(name, sizeof name, "m%d", i);
        assert_int_equal(gb_record_set_metric(&r, name, i), GB_OK);
    }
    assert_int_equal(r.n_metrics, 3 * GB_MAX_METRICS);
    assert_true(gb_record_metric(&r, "m3", -1) == 3.0);
    assert_true(gb_record_metric(&r, "m70", -1) == 70.0);
    assert_int_equal(gb_record_set_metric(&r, longv, 1), GB_ERR_USAGE);
    assert_int_equal(r.n_metrics, 3 * GB_MAX_METRICS);

    /* A copy is independent of its source; release leaves a zeroed record. */
    struct gb_record c;
    assert_int_equal(gb_record_copy(&c, &r), GB_OK);
    assert_int_equal(gb_record_set_metric(&c, "m3", -3), GB_OK);
    assert_int_equal(gb_record_set_axis(&c, "width", "2"), GB_OK);
    assert_true(gb_record_metric(&r, "m3", -1) == 3.0);
    assert_string_equal(gb_record_axis(&r, "width"), "8");
    gb_record_release(&r);
    assert_int_equal(r.n_axes, 0);
    assert_int_equal(r.n_metrics, 0);
    assert_null(r.metrics);
    assert_true(gb_record_metric(&c, "m3", -1) == -3.0);
    gb_record_release(&c);
    gb_record_release(&c); /* twice is safe */
}

/* More axes and metrics than a point holds (GB_MAX_AXES, GB_MAX_METRICS)
 * are written and read back equal, in JSON and as CSV columns. */
static void test_many_axes_metrics(void **state)
{
    (void)state;
    enum { N_AXES = GB_MAX_AXES + 9, N_METRICS = GB_MAX_METRICS * 2 + 5 };
    char dir[64], path[256], name[32], value[32];
    struct gb_run_info info;
    struct gb_run_writer *w;
    struct gb_record rec = {0};
    const char *axes[N_AXES];
    char axis_names[N_AXES][16];
    make_tmp(dir, sizeof dir);
    fill_info(&info);
    snprintf(rec.suite, sizeof rec.suite, "wide");
    snprintf(rec.bench, sizeof rec.bench, "many");
    for (int i = 0; i < N_AXES; i++) {
        snprintf(axis_names[i], sizeof axis_names[i], "axis%02d", i);
        axes[i] = axis_names[i];
        snprintf(value, sizeof value, "%d", 1000 + i);
        assert_int_equal(gb_record_set_axis(&rec, axes[i], value), GB_OK);
    }
    for (int i = 0; i < N_METRICS; i++) {
        snprintf(name, sizeof name, "metric_%02d", i);
        assert_int_equal(gb_record_set_metric(&rec, name, i / 7.0 + 1e-9 * i), GB_OK);
    }
    rec.time_ns.median = 123.5;
    rec.time_ns.min = rec.time_ns.ci_lo = 120; /* a measured record: times above 0 */
    rec.time_ns.ci_hi = 130;
    assert_int_equal(gb_run_writer_open(dir, &info, axes, N_AXES, &w), GB_OK);
    assert_int_equal(gb_run_writer_add(w, &rec), GB_OK);
    assert_int_equal(gb_run_writer_close(w, &info), GB_OK);

    struct gb_run *run;
    assert_int_equal(gb_run_load(dir, &run), GB_OK);
    assert_int_equal(run->n_records, 1);
    const struct gb_record *back = &run->records[0];
    assert_int_equal(back->n_axes, N_AXES);
    assert_int_equal(back->n_metrics, N_METRICS);
    for (int i = 0; i < N_AXES; i++)
        assert_string_equal(gb_record_axis(back, axes[i]), gb_record_axis(&rec, axes[i]));
    for (int i = 0; i < N_METRICS; i++) {
        assert_string_equal(back->metrics[i].name, rec.metrics[i].name);
        assert_true(back->metrics[i].value == rec.metrics[i].value); /* bit-exact */
    }
    gb_run_free(run);

    /* The final CSV: a column for every axis and every metric, and the values. */
    snprintf(path, sizeof path, "%s/results.csv", dir);
    FILE *f = fopen(path, "r");
    assert_non_null(f);
    char line[8192];
    assert_non_null(fgets(line, sizeof line, f));
    snprintf(name, sizeof name, ",axis%02d,", N_AXES - 1);
    assert_non_null(strstr(line, name));
    snprintf(name, sizeof name, ",metric_%02d,", N_METRICS - 1); /* the time-source columns follow */
    assert_non_null(strstr(line, name));
    assert_non_null(fgets(line, sizeof line, f));
    snprintf(value, sizeof value, ",%d,", 1000 + N_AXES - 1);
    assert_non_null(strstr(line, value));
    fclose(f);
    gb_record_release(&rec);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_round_trip),     cmocka_unit_test(test_cut_mid_write),
        cmocka_unit_test(test_malformed),      cmocka_unit_test(test_dir_prepare),
        cmocka_unit_test(test_record_accessors), cmocka_unit_test(test_many_axes_metrics),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
