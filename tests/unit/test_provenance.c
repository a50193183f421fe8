/* Checked provenance (docs/results-format.md, "sha256"): SHA-256 against
 * FIPS 180-2's vectors (independent of the code under test); the digests a
 * plan records (a built-in suite's embedded kernels, a spec's file, sources,
 * init and reference files, and its measured part), read back from
 * run.json; and the breakdown's check of the spec it reads against them
 * (an unchanged spec passes, an edited spec or source is refused naming
 * both digests, a changed "lpbm" hint passes, a run without digests is
 * unchecked). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "gpubound/lpbm_input.h"
#include "gpubound/measure.h"
#include "gpubound/spec.h"
#include "results/json.h"
#include "util/fs.h"
#include "util/sha256.h"

static char dir[256];

#define SHA_ABC "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
#define SHA_EMPTY "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"
#define SHA_448 "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1"
#define SHA_MILLION_A "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0"

static const char *kernel_cu = "extern \"C\" __global__ void k(float *y, const float *x, int n) { }\n";

/* The spec, with `extra` spliced into its bench. */
static void spec_text(char *buf, size_t n, const char *extra, const char *bytes)
{
    snprintf(buf, n,
             "{\"suite\": \"prov\", \"source\": \"k.cu\", \"_comment\": \"a spec of the provenance test\",\n"
             " \"benches\": [{\"name\": \"b\", \"kernel\": \"k\", %s\n"
             "  \"axes\": [{\"name\": \"block_size_x\", \"values\": [32, 64]}, {\"name\": \"n\", \"values\": [1024]}],\n"
             "  \"block\": [\"block_size_x\"], \"grid\": [\"ceil(n / block_size_x)\"],\n"
             "  \"args\": [{\"name\": \"y\", \"type\": \"float\", \"count\": \"n\", \"output\": true},\n"
             "           {\"name\": \"x\", \"type\": \"float\", \"count\": \"n\", \"init\": {\"file\": \"in.bin\"}},\n"
             "           {\"name\": \"n\", \"type\": \"int\", \"value\": \"n\"}],\n"
             "  \"reference\": {\"files\": {\"y\": \"data/ref.bin\"}}, \"problem_axes\": [\"n\"],\n"
             "  \"bytes\": \"%s\"}]}\n",
             extra, bytes);
}

static void write_at(const char *sub, const char *name, const char *text)
{
    char p[600];
    snprintf(p, sizeof p, "%s/%s%s%s", dir, sub, sub[0] ? "/" : "", name);
    FILE *f = fopen(p, "w");
    assert_non_null(f);
    fputs(text, f);
    fclose(f);
}

/* A spec directory `sub` of dir: the spec (spec.json), its source, its
 * init file ("abc") and its reference file (empty). */
static void spec_dir(const char *sub, const char *extra, const char *bytes, const char *cu)
{
    char p[600], text[4096];
    snprintf(p, sizeof p, "%s/%s/data", dir, sub);
    assert_int_equal(gb_mkdir_p(p), GB_OK);
    spec_text(text, sizeof text, extra, bytes);
    write_at(sub, "spec.json", text);
    write_at(sub, "k.cu", cu);
    write_at(sub, "in.bin", "abc");
    write_at(sub, "data/ref.bin", "");
}

static int setup(void **state)
{
    (void)state;
    snprintf(dir, sizeof dir, "/tmp/gb-prov-XXXXXX");
    assert_non_null(mkdtemp(dir));
    spec_dir("same", "", "8 * n", kernel_cu);
    spec_dir("hint", "\"lpbm\": {\"note\": \"added after the run\"}, \"_why\": \"a comment\",", "8 * n", kernel_cu);
    spec_dir("bytes", "", "12 * n", kernel_cu);
    char edited[512];
    snprintf(edited, sizeof edited, "%s// edited after the run\n", kernel_cu);
    spec_dir("source", "", "8 * n", edited);
    return 0;
}

static int teardown(void **state)
{
    (void)state;
    char cmd[600];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    return system(cmd) == 0 ? 0 : -1;
}

static void test_vectors(void **state)
{
    (void)state;
    char hex[GB_SHA256_HEX], p[600];
    assert_int_equal(gb_sha256_hex("abc", 3, hex), GB_OK);
    assert_string_equal(hex, SHA_ABC);
    assert_int_equal(gb_sha256_hex("", 0, hex), GB_OK);
    assert_string_equal(hex, SHA_EMPTY);
    const char *m448 = "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq";
    assert_int_equal(gb_sha256_hex(m448, strlen(m448), hex), GB_OK);
    assert_string_equal(hex, SHA_448);
    /* A file larger than one read: a million 'a'. */
    char *a = malloc(1000000);
    assert_non_null(a);
    memset(a, 'a', 1000000);
    snprintf(p, sizeof p, "%s/million", dir);
    FILE *f = fopen(p, "wb");
    assert_non_null(f);
    assert_int_equal(fwrite(a, 1, 1000000, f), 1000000);
    fclose(f);
    free(a);
    assert_int_equal(gb_sha256_file(p, hex), GB_OK);
    assert_string_equal(hex, SHA_MILLION_A);
    snprintf(p, sizeof p, "%s/none", dir);
    assert_int_equal(gb_sha256_file(p, hex), GB_ERR_IO);
    assert_true(gb_sha256_is_hex(SHA_ABC));
    assert_false(gb_sha256_is_hex("BA7816BF8F01CFEA414140DE5DAE2223B00361A396177A9CB410FF61F20015AD"));
    assert_false(gb_sha256_is_hex(SHA_ABC "0"));
}

static void test_hash_list(void **state)
{
    (void)state;
    struct gb_file_hashes *l = calloc(1, sizeof *l);
    char name[200];
    assert_non_null(l);
    assert_int_equal(gb_file_hashes_set(l, "a.cu", SHA_ABC), GB_OK);
    assert_int_equal(gb_file_hashes_set(l, "a.cu", SHA_EMPTY), GB_OK); /* replaced */
    assert_int_equal(l->n, 1);
    assert_string_equal(gb_file_hashes_get(l, "a.cu"), SHA_EMPTY);
    assert_null(gb_file_hashes_get(l, "b.cu"));
    assert_int_equal(gb_file_hashes_set(l, "b.cu", "abc"), GB_ERR_USAGE);
    memset(name, 'x', 128);
    name[128] = '\0';
    assert_int_equal(gb_file_hashes_set(l, name, SHA_ABC), GB_ERR_USAGE); /* 128 bytes: one too many */
    name[127] = '\0';
    assert_int_equal(gb_file_hashes_set(l, name, SHA_ABC), GB_OK);
    for (int i = l->n; i < GB_RUN_MAX_HASHES; i++) {
        snprintf(name, sizeof name, "f%d", i);
        assert_int_equal(gb_file_hashes_set(l, name, SHA_ABC), GB_OK);
    }
    assert_int_equal(gb_file_hashes_set(l, "one more", SHA_ABC), GB_ERR_USAGE);
    assert_int_equal(gb_file_hashes_set(l, "f3", SHA_448), GB_OK); /* a full list still replaces */
    free(l);
}

/* The digests a spec plan records, and run.json's round trip of them. */
static void test_plan_spec(void **state)
{
    (void)state;
    char p[600], *sel = NULL, hex[GB_SHA256_HEX];
    struct gb_plan plan;
    struct gb_run_info *in = calloc(2, sizeof *in), *back = in + 1;
    assert_non_null(in);
    snprintf(p, sizeof p, "%s/same/spec.json", dir);
    assert_int_equal(gb_spec_register_path(p, &sel), GB_OK);
    const char *sels[] = {sel};
    assert_int_equal(gb_plan_build(sels, 1, NULL, 0, 0, &plan), GB_OK);
    assert_int_equal(gb_plan_hashes(&plan, in), GB_OK);
    assert_int_equal(in->spec_sha256.n, 4);
    assert_int_equal(gb_sha256_file(p, hex), GB_OK);
    assert_string_equal(in->spec_sha256.h[0].name, "prov/spec.json");
    assert_string_equal(in->spec_sha256.h[0].sha256, hex);
    assert_string_equal(in->spec_sha256.h[1].name, "prov/k.cu");
    assert_int_equal(gb_sha256_hex(kernel_cu, strlen(kernel_cu), hex), GB_OK);
    assert_string_equal(in->spec_sha256.h[1].sha256, hex);
    assert_string_equal(gb_file_hashes_get(&in->spec_sha256, "prov/in.bin"), SHA_ABC);
    assert_string_equal(gb_file_hashes_get(&in->spec_sha256, "prov/data/ref.bin"), SHA_EMPTY);
    assert_int_equal(in->spec_measured_sha256.n, 1);
    assert_string_equal(in->spec_measured_sha256.h[0].name, "prov/spec.json");
    /* The tool's own kernels, and no built-in bench's. */
    assert_int_equal(in->kernel_sha256.n, 2);
    assert_non_null(gb_file_hashes_get(&in->kernel_sha256, "util.cu"));
    assert_non_null(gb_file_hashes_get(&in->kernel_sha256, "flush_code.cu"));

    /* run.json keeps them: written and read back equal. */
    snprintf(in->tool_version, sizeof in->tool_version, "1");
    snprintf(in->started_utc, sizeof in->started_utc, "2026-01-01T00:00:00Z");
    json_t *o = gb_run_info_to_json(in);
    char why[512];
    assert_non_null(json_object_get(json_object_get(o, "sha256"), "spec_measured"));
    assert_int_equal(gb_run_info_from_json(o, back, "run.json", why, sizeof why), 0);
    assert_memory_equal(&back->spec_sha256, &in->spec_sha256, sizeof in->spec_sha256);
    assert_memory_equal(&back->spec_measured_sha256, &in->spec_measured_sha256, sizeof in->spec_measured_sha256);
    assert_memory_equal(&back->kernel_sha256, &in->kernel_sha256, sizeof in->kernel_sha256);
    /* A digest that is not one is refused, naming the file. */
    json_object_set_new(json_object_get(json_object_get(o, "sha256"), "kernels"), "util.cu", json_string("abc"));
    assert_int_equal(gb_run_info_from_json(o, back, "run.json", why, sizeof why), -1);
    assert_non_null(strstr(why, "$.sha256.kernels.util.cu: not a SHA-256 digest"));
    json_object_set_new(json_object_get(o, "sha256"), "kernels", json_integer(1));
    assert_int_equal(gb_run_info_from_json(o, back, "run.json", why, sizeof why), -1);
    assert_non_null(strstr(why, "$.sha256.kernels is not an object"));
    json_decref(o);
    /* None recorded: no "sha256" at all, as in runs recorded before it. */
    memset(back, 0, sizeof *back);
    o = gb_run_info_to_json(back);
    assert_null(json_object_get(o, "sha256"));
    json_decref(o);
    gb_plan_release(&plan);
    free(sel);
    free(in);
}

static void test_plan_builtin(void **state)
{
    (void)state;
    struct gb_plan plan;
    const char *sel[] = {"bandwidth"};
    char hex[GB_SHA256_HEX];
    struct gb_run_info *in = calloc(1, sizeof *in);
    assert_non_null(in);
    assert_int_equal(gb_plan_build(sel, 1, NULL, 0, 0, &plan), GB_OK);
    assert_int_equal(gb_plan_hashes(&plan, in), GB_OK);
    assert_int_equal(in->spec_sha256.n, 0);
    assert_int_equal(in->kernel_sha256.n, 3);
    const char *text = gb_kernel_source("bandwidth.cu");
    assert_non_null(text);
    assert_int_equal(gb_sha256_hex(text, strlen(text), hex), GB_OK);
    assert_string_equal(gb_file_hashes_get(&in->kernel_sha256, "bandwidth.cu"), hex);
    gb_plan_release(&plan);
    free(in);
}

/* gb_lpbm_spec_check of the spec in `sub` against the run that measured "same". */
static enum gb_status check(const struct gb_run *run, const char *sub, int *unchecked)
{
    char p[600];
    struct gb_lpbm_spec *s = NULL;
    snprintf(p, sizeof p, "%s/%s/spec.json", dir, sub);
    assert_int_equal(gb_lpbm_spec_load(p, &s), GB_OK);
    *unchecked = -1;
    enum gb_status st = gb_lpbm_spec_check(run, s, unchecked);
    gb_lpbm_spec_free(s);
    return st;
}

static void test_check(void **state)
{
    (void)state;
    char p[600], now[GB_SHA256_HEX], was[GB_SHA256_HEX], want[200];
    struct gb_spec *measured = NULL;
    struct gb_run *run = calloc(1, sizeof *run);
    int unchecked;
    assert_non_null(run);
    snprintf(run->dir, sizeof run->dir, "RUN");
    snprintf(p, sizeof p, "%s/same/spec.json", dir);
    assert_int_equal(gb_spec_load(p, &measured), GB_OK);
    assert_int_equal(gb_spec_hashes(measured, 1, &run->info.spec_sha256), GB_OK);
    assert_int_equal(gb_spec_measured_hash(measured, &run->info.spec_measured_sha256), GB_OK);
    gb_spec_free(measured);

    assert_int_equal(check(run, "same", &unchecked), GB_OK);
    assert_int_equal(unchecked, 0);
    /* Only what models read changed: still the spec measured. */
    assert_int_equal(check(run, "hint", &unchecked), GB_OK);
    assert_int_equal(unchecked, 0);
    /* What was measured changed: refused, both digests named. */
    assert_int_equal(check(run, "bytes", &unchecked), GB_ERR_FORMAT);
    snprintf(p, sizeof p, "%s/bytes/spec.json", dir);
    assert_int_equal(gb_sha256_file(p, now), GB_OK);
    snprintf(p, sizeof p, "%s/same/spec.json", dir);
    assert_int_equal(gb_sha256_file(p, was), GB_OK);
    snprintf(want, sizeof want, "bytes/spec.json is not the file the run measured (SHA-256 %.12s, RUN/run.json "
             "records %.12s for prov/spec.json)", now, was);
    assert_non_null(strstr(gb_error_message(), want));
    assert_int_equal(check(run, "source", &unchecked), GB_ERR_FORMAT);
    assert_non_null(strstr(gb_error_message(), "source/k.cu is not the file the run measured"));
    /* Without the measured part's digest, a changed hint is a changed file. */
    run->info.spec_measured_sha256.n = 0;
    assert_int_equal(check(run, "hint", &unchecked), GB_ERR_FORMAT);
    /* A run that kept digests, of no spec: the spec was not measured. */
    memset(&run->info, 0, sizeof run->info);
    assert_int_equal(gb_file_hashes_set(&run->info.kernel_sha256, "util.cu", SHA_ABC), GB_OK);
    assert_int_equal(check(run, "same", &unchecked), GB_ERR_FORMAT);
    assert_non_null(strstr(gb_error_message(), "records no prov/spec.json"));
    /* A run recorded before digests were kept: unchecked, not refused. */
    memset(&run->info, 0, sizeof run->info);
    assert_int_equal(check(run, "bytes", &unchecked), GB_OK);
    assert_int_equal(unchecked, 1);
    free(run);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_vectors),      cmocka_unit_test(test_hash_list),
        cmocka_unit_test(test_plan_spec),    cmocka_unit_test(test_plan_builtin),
        cmocka_unit_test(test_check),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
