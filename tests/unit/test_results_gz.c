/* A run whose records are stored as results.json.gz loads exactly as the
 * plain one; a .gz cut short is a cut run; a file that is not gzip is an
 * error, not an empty run. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <zlib.h>
#include <cmocka.h>

#include "gpubound/results.h"
#include "results/open.h"

#define RUN GB_SOURCE_DIR "/data/h200/bandwidth-2026-11-21-a"

static char *slurp(const char *path, size_t *n)
{
    FILE *f = fopen(path, "rb");
    assert_non_null(f);
    assert_int_equal(fseek(f, 0, SEEK_END), 0);
    long len = ftell(f);
    assert_true(len > 0);
    rewind(f);
    char *b = malloc((size_t)len);
    assert_non_null(b);
    assert_int_equal(fread(b, 1, (size_t)len, f), (size_t)len);
    fclose(f);
    *n = (size_t)len;
    return b;
}

static void put(const char *path, const void *data, size_t n)
{
    FILE *f = fopen(path, "wb");
    assert_non_null(f);
    assert_int_equal(fwrite(data, 1, n, f), n);
    assert_int_equal(fclose(f), 0);
}

/* A run directory holding RUN's run.json and its records gzip-compressed,
 * the compressed file cut to `keep` bytes (0: whole). */
static void make_gz_run(char *dir, size_t n, size_t keep)
{
    char path[512], gz[512];
    size_t len;
    snprintf(dir, n, "/tmp/gb-test-gz-XXXXXX");
    assert_non_null(mkdtemp(dir));
    char *info = slurp(RUN "/run.json", &len);
    snprintf(path, sizeof path, "%s/run.json", dir);
    put(path, info, len);
    free(info);
    char *text = slurp(RUN "/results.json", &len);
    snprintf(gz, sizeof gz, "%s/results.json.gz", dir);
    gzFile z = gzopen(gz, "wb9");
    assert_non_null(z);
    assert_int_equal(gzwrite(z, text, (unsigned)len), (int)len);
    assert_int_equal(gzclose(z), Z_OK);
    free(text);
    if (keep) {
        char *c = slurp(gz, &len);
        assert_true(keep < len);
        put(gz, c, keep);
        free(c);
    }
}

static void remove_run(const char *dir)
{
    char path[512];
    snprintf(path, sizeof path, "%s/run.json", dir);
    unlink(path);
    snprintf(path, sizeof path, "%s/results.json.gz", dir);
    unlink(path);
    rmdir(dir);
}

static void test_gz_equals_plain(void **state)
{
    (void)state;
    char dir[64];
    struct gb_run *plain = NULL, *gz = NULL;
    make_gz_run(dir, sizeof dir, 0);
    assert_int_equal(gb_run_load(RUN, &plain), GB_OK);
    assert_int_equal(gb_run_load(dir, &gz), GB_OK);
    assert_true(plain->n_records > 10);
    assert_int_equal(gz->n_records, plain->n_records);
    assert_false(gz->truncated);
    for (size_t i = 0; i < plain->n_records; i++) {
        assert_string_equal(gz->records[i].bench, plain->records[i].bench);
        assert_memory_equal(&gz->records[i].time_ns.median, &plain->records[i].time_ns.median, sizeof(double));
        assert_memory_equal(&gz->records[i].time_ns.ci_hi, &plain->records[i].time_ns.ci_hi, sizeof(double));
    }
    gb_run_free(plain);
    gb_run_free(gz);
    remove_run(dir);
}

static void test_gz_cut(void **state)
{
    (void)state;
    char dir[64];
    struct gb_run *full = NULL, *cut = NULL;
    assert_int_equal(gb_run_load(RUN, &full), GB_OK);
    make_gz_run(dir, sizeof dir, 1500);
    assert_int_equal(gb_run_load(dir, &cut), GB_OK);
    assert_true(cut->truncated);
    assert_true(cut->n_records < full->n_records);
    gb_run_free(full);
    gb_run_free(cut);
    remove_run(dir);
}

static void test_not_gzip(void **state)
{
    (void)state;
    char dir[64], gz[512];
    struct gb_run *run = NULL;
    make_gz_run(dir, sizeof dir, 0);
    snprintf(gz, sizeof gz, "%s/results.json.gz", dir);
    put(gz, "[\n]\n", 4);
    assert_int_equal(gb_run_load(dir, &run), GB_ERR_FORMAT);
    assert_null(run);
    remove_run(dir);
}

/* The 1 GiB cap holds on the decompressed total, not on one read: a file of
 * 1025 gzip members of 1 MiB of blanks each (about 1 MB on disk) is refused
 * as too large before it is parsed, although no single read reaches 1 GiB. */
static void test_gz_cap_total(void **state)
{
    (void)state;
    char dir[64], gz[512], path[512];
    size_t len, blank = (size_t)1 << 20;
    FILE *f = NULL;
    make_gz_run(dir, sizeof dir, 0);
    snprintf(gz, sizeof gz, "%s/results.json.gz", dir);
    char *text = malloc(blank);
    assert_non_null(text);
    memset(text, ' ', blank);
    gzFile z = gzopen(gz, "wb9");
    assert_non_null(z);
    assert_int_equal(gzwrite(z, text, (unsigned)blank), (int)blank);
    assert_int_equal(gzclose(z), Z_OK);
    free(text);
    char *member = slurp(gz, &len);
    FILE *out = fopen(gz, "wb");
    assert_non_null(out);
    for (size_t i = 0; i <= GB_RECORDS_MAX_BYTES / blank; i++)
        assert_int_equal(fwrite(member, 1, len, out), len);
    assert_int_equal(fclose(out), 0);
    free(member);
    assert_int_equal(gb_results_open(dir, path, sizeof path, &f), GB_ERR_FORMAT);
    assert_null(f);
    assert_non_null(strstr(gb_error_message(), "decompresses to more than 1073741824 bytes"));
    remove_run(dir);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_gz_equals_plain),
        cmocka_unit_test(test_gz_cut),
        cmocka_unit_test(test_not_gzip),
        cmocka_unit_test(test_gz_cap_total),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
