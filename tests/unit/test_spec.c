/* Kernel spec files: a valid spec parses into what it says (axes, defines,
 * launch, arguments, reference), every class of bad spec gives its one-line
 * message naming the file and the field, a point's values are checked
 * (non-integer grids, negative counts), restrictions leave points out with
 * the failing expression as the reason, and the suite made from a spec is
 * registered and planned like any other. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <math.h>
#include <stdint.h>
#include <cmocka.h>

#include "gpubound/chart_spec.h"
#include "gpubound/measure.h"
#include "gpubound/spec.h"
#include "suites/spec_internal.h"

static char dir[256];
static char path[512];

static const char *kernel_cu =
    "extern \"C\" __global__ void k(float *y, const float *x, int n) { }\n"
    "extern \"C\" __global__ void k_ref(float *y, const float *x, int n) { }\n"
    "template <int B> __global__ void kt(float *y, const float *x, int n) { }\n";

static void write_file(const char *name, const char *text)
{
    char p[600];
    snprintf(p, sizeof p, "%s/%s", dir, name);
    FILE *f = fopen(p, "w");
    assert_non_null(f);
    fputs(text, f);
    fclose(f);
}

static int setup(void **state)
{
    (void)state;
    snprintf(dir, sizeof dir, "/tmp/gb-spec-XXXXXX");
    assert_non_null(mkdtemp(dir));
    snprintf(path, sizeof path, "%s/t.json", dir);
    write_file("k.cu", kernel_cu);
    write_file("h.cuh", "#pragma once\n");
    write_file("in.bin", "abcdefgh");
    return 0;
}

static int teardown(void **state)
{
    (void)state;
    char cmd[600];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    return system(cmd) == 0 ? 0 : -1;
}

/* A valid bench, with `bench_extra` spliced into the bench object and
 * `args` as its argument list. */
#define ARGS_OK                                                                                            \
    "[{\"name\": \"y\", \"type\": \"float\", \"count\": \"n\", \"output\": true},"                         \
    " {\"name\": \"x\", \"type\": \"float\", \"count\": \"n\", \"init\": {\"random\": [-1, 1]}},"          \
    " {\"name\": \"n\", \"type\": \"int\", \"value\": \"n\"}]"

static void spec_text(char *buf, size_t n, const char *top, const char *bench_extra, const char *grid, const char *args)
{
    snprintf(buf, n,
             "{\"suite\": \"t\", \"source\": %s,\n"
             " \"benches\": [{\"name\": \"b\", \"kernel\": \"k\",\n"
             "   \"axes\": [{\"name\": \"block_size_x\", \"values\": [32, 64, 2048]},\n"
             "            {\"name\": \"n\", \"values\": \"1K:4K:*2\", \"quick\": [1000]}],\n"
             "   %s%s\"args\": %s%s}]}\n",
             top ? top : "\"k.cu\"", grid ? grid : "\"grid\": [\"ceil(n / block_size_x)\"], ",
             "", args ? args : ARGS_OK, bench_extra ? bench_extra : "");
}

static enum gb_status load_text(const char *text, struct gb_spec **out)
{
    write_file("t.json", text);
    return gb_spec_load(path, out);
}

/* The spec with `extra` appended to the bench must fail with `msg`, which
 * is the message after "<file>: ". */
static void bad(const char *top, const char *extra, const char *grid, const char *args, const char *msg)
{
    char text[4096], want[1200];
    struct gb_spec *s = NULL;
    spec_text(text, sizeof text, top, extra, grid, args);
    enum gb_status st = load_text(text, &s);
    if (st != GB_ERR_USAGE)
        fail_msg("expected a usage error for %s%s, got %d (%s)", extra ? extra : "", args ? args : "", st,
                 gb_error_message());
    assert_null(s);
    snprintf(want, sizeof want, "%s: %s", path, msg);
    if (strcmp(gb_error_message(), want) != 0)
        fail_msg("message\n  %s\nexpected\n  %s", gb_error_message(), want);
    assert_null(strchr(gb_error_message(), '\n'));
}

static void bad_raw(const char *text, const char *msg)
{
    char want[1200];
    struct gb_spec *s = NULL;
    assert_int_equal(load_text(text, &s), GB_ERR_USAGE);
    snprintf(want, sizeof want, "%s: %s", path, msg);
    if (strncmp(gb_error_message(), want, strlen(want)) != 0)
        fail_msg("message\n  %s\nexpected it to start with\n  %s", gb_error_message(), want);
}

static void test_valid_spec(void **state)
{
    (void)state;
    char text[4096];
    struct gb_spec *s = NULL;
    spec_text(text, sizeof text, "[\"k.cu\", \"h.cuh\"]",
              ", \"defines\": {\"TILE\": \"block_size_x * 2\"}, \"dynamic_smem\": \"TILE * 4\", "
              "\"restrictions\": [\"block_size_x <= 1024\"], \"bytes\": \"8 * n\", \"flops\": \"2 * n\", "
              "\"cache\": \"cold\", \"timeout_s\": 5, \"reference\": {\"kernel\": \"k_ref\", \"block\": [\"128\"]}",
              NULL, NULL);
    if (load_text(text, &s) != GB_OK)
        fail_msg("%s", gb_error_message());
    assert_string_equal(gb_spec_name(s), "t");
    assert_int_equal(s->n_sources, 2);
    assert_string_equal(s->sources[1].name, "h.cuh");
    assert_int_equal(s->n_benches, 1);
    struct gb_spec_bench *b = &s->benches[0];
    assert_int_equal(b->n_axes, 2);
    assert_string_equal(b->axes[0].values, "32,64,2048");
    assert_string_equal(b->axes[1].values, "1K:4K:*2");
    assert_string_equal(b->axes[1].quick, "1000");
    assert_string_equal(b->axes[0].help, "-Dblock_size_x");
    assert_int_equal(b->n_defines, 1);
    assert_string_equal(b->defines[0].name, "TILE");
    assert_int_equal(b->n_args, 3);
    assert_true(b->args[0].output);
    assert_int_equal(b->args[0].init, GB_SI_NONE);
    assert_true(b->args[0].rtol == 1e-4 && b->args[0].atol == 1e-5);
    assert_int_equal(b->args[1].init, GB_SI_RANDOM);
    assert_true(b->args[2].scalar);
    assert_int_equal(b->cache, GB_CACHE_COLD);
    assert_true(b->timeout_s == 5);
    assert_int_equal(b->ref_kind, GB_SR_KERNEL);
    /* The default problem axes: every axis not named block_size_*. */
    assert_int_equal(b->problem_mask, 2u);
    /* The default block is block_size_x by 1 by 1. */
    assert_string_equal(gb_expr_text(b->launch.block[0]), "block_size_x");
    assert_string_equal(gb_expr_text(b->launch.block[1]), "1");
    gb_spec_free(s);
}

static void test_bad_fields(void **state)
{
    (void)state;
    /* missing and mistyped fields */
    bad(NULL, NULL, "", NULL, "benches[0]: the field \"grid\" is missing (blocks per dimension, e.g. "
                              "[\"ceil(n / block_size_x)\"])");
    bad(NULL, NULL, "\"grid\": \"n\", ", NULL, "benches[0].grid: must be a list of 1 to 3 expressions (x, y, z), "
                                               "not a string");
    bad(NULL, NULL, "\"grid\": [true], ", NULL,
        "benches[0].grid[0]: must be an expression (a string or a number), not a boolean");
    bad(NULL, ", \"gird\": [1]", NULL, NULL,
        "benches[0]: unknown field \"gird\" (known: name, help, kernel, axes, defines, block, grid, dynamic_smem, "
        "max_dynamic_smem, restrictions, args, reference, problem_axes, bytes, flops, cache, timeout_s, lpbm)");
    bad(NULL, ", \"cache\": \"warm\"", NULL, NULL, "benches[0].cache: \"warm\" is not hot or cold");
    bad(NULL, ", \"timeout_s\": -1", NULL, NULL, "benches[0].timeout_s: -1 is out of range (0.001 to 3600)");
    bad(NULL, NULL, NULL, "\"y\"", "benches[0].args: must be a list of 1 to 32 arguments, not a string");
    /* unknown names in expressions */
    bad(NULL, NULL, "\"grid\": [\"ceil(n / bsx)\"], ", NULL,
        "benches[0].grid[0]: \"ceil(n / bsx)\": unknown name \"bsx\"");
    bad(NULL, ", \"bytes\": \"4 * m\"", NULL, NULL, "benches[0].bytes: \"4 * m\": unknown name \"m\"");
    bad(NULL, ", \"restrictions\": [\"block_size_x <= (1024\"]", NULL, NULL,
        "benches[0].restrictions[0]: \"block_size_x <= (1024\": unbalanced parentheses");
    bad(NULL, ", \"restrictions\": \"n > 1\"", NULL, NULL,
        "benches[0].restrictions: must be a list of at most 32 conditions, not a string");
    /* a define is in scope after itself only */
    bad(NULL, ", \"defines\": {\"A\": \"B\", \"B\": \"1\"}", NULL, NULL,
        "benches[0].defines.A: \"B\": unknown name \"B\"");
}

static void test_bad_args(void **state)
{
    (void)state;
    bad(NULL, NULL, NULL, "[{\"name\": \"y\", \"type\": \"quad\", \"count\": \"n\", \"output\": true}]",
        "benches[0].args[0].type: \"quad\" is not a type (float, double, int, uint, long, ulong, half, bfloat16, "
        "fp8_e4m3, fp8_e5m2, int8, uint8, int16, uint16, int32, uint32, int64, uint64, float16, bf16)");
    bad(NULL, NULL, NULL, "[{\"name\": \"y\", \"type\": \"float\", \"output\": true}]",
        "benches[0].args[0]: give \"count\" (a buffer of that many elements) or \"value\" (a scalar), not neither");
    bad(NULL, NULL, NULL, "[{\"name\": \"y\", \"type\": \"float\", \"count\": \"n\", \"value\": 1}]",
        "benches[0].args[0]: give \"count\" (a buffer of that many elements) or \"value\" (a scalar), not both");
    bad(NULL, NULL, NULL, "[{\"name\": \"y\", \"type\": \"float\", \"count\": \"n\", \"output\": true, "
                          "\"init\": {\"random\": [1]}}]",
        "benches[0].args[0].init.random: must be a list of two numbers, [lo, hi]");
    bad(NULL, NULL, NULL, "[{\"name\": \"y\", \"type\": \"float\", \"count\": \"n\", \"output\": true, "
                          "\"init\": {\"gauss\": 1}}]",
        "benches[0].args[0].init: unknown init \"gauss\" (random, constant, iota or file)");
    bad(NULL, NULL, NULL, "[{\"name\": \"y\", \"type\": \"float\", \"count\": \"n\", \"output\": true, "
                          "\"init\": {\"random\": [2, 1]}}]",
        "benches[0].args[0].init.random: lo (2) must not be above hi (1)");
    bad(NULL, NULL, NULL, "[{\"name\": \"y\", \"type\": \"float\", \"count\": \"n\", \"output\": true, "
                          "\"init\": {\"file\": \"nope.bin\"}}]",
        "benches[0].args[0].init.file: cannot read \"nope.bin\": No such file or directory");
    bad(NULL, NULL, NULL, "[{\"name\": \"y\", \"type\": \"int\", \"count\": \"n\", \"output\": true, "
                          "\"init\": {\"random\": [0, 0]}}]",
        "benches[0].args[0].init.random: [0, 0] leaves no non-zero integer to draw");
    bad(NULL, NULL, NULL, "[{\"name\": \"x\", \"type\": \"float\", \"count\": \"n\"}]",
        "benches[0].args: no argument is an output (\"output\": true): there is nothing to verify");
    bad(NULL, NULL, NULL, "[{\"name\": \"n\", \"type\": \"int\", \"value\": \"n\", \"output\": true}]",
        "benches[0].args[0]: a scalar (\"value\") takes no \"output\"; buffers have a \"count\"");
    bad(NULL, NULL, NULL, "[{\"name\": \"x\", \"type\": \"float\", \"count\": \"n\", \"rtol\": 0.1}, "
                          "{\"name\": \"y\", \"type\": \"float\", \"count\": \"n\", \"output\": true}]",
        "benches[0].args[0]: rtol and atol belong to outputs (\"output\": true)");
}

static void test_bad_names_and_duplicates(void **state)
{
    (void)state;
    bad(NULL, NULL, NULL, "[{\"name\": \"y\", \"type\": \"float\", \"count\": \"n\", \"output\": true}, "
                          "{\"name\": \"y\", \"type\": \"float\", \"count\": \"n\"}]",
        "benches[0].args[1].name: a second argument named \"y\"");
    bad(NULL, ", \"defines\": {\"n\": \"1\"}", NULL, NULL, "benches[0].defines.n: \"n\" is an axis or define already");
    bad(NULL, ", \"defines\": {\"pi\": \"1\"}", NULL, NULL,
        "benches[0].defines.pi: \"pi\" is a function or constant of the expressions; choose another name");
    bad_raw("{\"suite\": \"t\", \"source\": \"k.cu\", \"benches\": [{\"name\": \"b\", \"kernel\": \"k\", "
            "\"axes\": [{\"name\": \"n\", \"values\": [1]}, {\"name\": \"n\", \"values\": [2]}], \"grid\": [1], "
            "\"args\": " ARGS_OK "}]}",
            "benches[0].axes[1].name: a second axis named \"n\"");
    bad_raw("{\"suite\": \"t\", \"source\": \"k.cu\", \"benches\": [{\"name\": \"b\", \"kernel\": \"k\", "
            "\"axes\": [{\"name\": \"n\", \"values\": [1]}], \"grid\": [1], \"args\": " ARGS_OK "}, "
            "{\"name\": \"b\", \"kernel\": \"k\", \"axes\": [{\"name\": \"n\", \"values\": [1]}], \"grid\": [1], "
            "\"args\": " ARGS_OK "}]}",
            "benches[1]: a second bench named \"b\"");
    bad_raw("{\"suite\": \"t\", \"source\": \"k.cu\", \"benches\": [{\"name\": \"b\", \"kernel\": \"k\", "
            "\"axes\": [{\"name\": \"1x\", \"values\": [1]}], \"grid\": [1], \"args\": " ARGS_OK "}]}",
            "benches[0].axes[0].name: \"1x\" is not a name");
    bad_raw("{\"suite\": \"t\", \"source\": \"k.cu\", \"benches\": [{\"name\": \"b\", \"kernel\": \"k\", "
            "\"axes\": [{\"name\": \"n\", \"values\": \"1:x\"}], \"grid\": [1], \"args\": " ARGS_OK "}]}",
            "benches[0].axes[0].values: ");
    bad_raw("{\"suite\": \"T T\", \"source\": \"k.cu\", \"benches\": []}",
            "suite: \"T T\" is not a suite name (1 to 31 of a-z, 0-9, '_', '-')");
    bad_raw("{\"suite\": \"t\", \"source\": \"nope.cu\", \"benches\": []}",
            "source: cannot read \"nope.cu\": No such file or directory");
    bad_raw("{\"suite\": \"t\", \"source\": \"../k.cu\", \"benches\": []}",
            "source: \"../k.cu\" is not a file inside the spec's directory");
    bad_raw("{\"suite\": \"t\", \"source\": \"k.cu\", \"benches\": []}",
            "benches: must be a list of 1 to 64 benches, not an array");
    bad_raw("{\"suite\": \"t\", \"suite\": \"u\"}", "line 1, column");
    bad_raw("{\"suite\": \"t\",", "line 1, column");
    bad_raw("[1]", "the spec must be a JSON object, not an array");
    bad_raw("{\"suite\": \"t\", \"source\": \"k.cu\", \"benchs\": []}",
            "unknown field \"benchs\" (known: suite, help, source, benches)");
}

static void test_bad_reference(void **state)
{
    (void)state;
    bad(NULL, ", \"reference\": {\"kernel\": \"k_naive\"}", NULL, NULL,
        "benches[0].reference.kernel: \"k_naive\": no kernel named k_naive in k.cu");
    bad(NULL, ", \"reference\": {\"files\": {\"x\": \"in.bin\"}}", NULL, NULL,
        "benches[0].reference.files.x: \"x\" is not an output of the bench");
    bad(NULL, ", \"reference\": {\"files\": {\"y\": \"out.bin\"}}", NULL, NULL,
        "benches[0].reference.files.y: cannot read \"out.bin\": No such file or directory");
    bad(NULL, ", \"reference\": \"last\"", NULL, NULL,
        "benches[0].reference: must be \"first\", {\"kernel\": ...} or {\"files\": {\"OUTPUT\": \"file.bin\"}}");
    bad(NULL, ", \"reference\": {\"kernel\": \"k_ref\", \"grid\": [\"m\"]}", NULL, NULL,
        "benches[0].reference.grid[0]: \"m\": unknown name \"m\"");
    bad(NULL, ", \"problem_axes\": [\"m\"]", NULL, NULL, "benches[0].problem_axes[0]: \"m\" is not an axis of the bench");
    /* the bench's own kernel too, and a template name's braces */
    bad_raw("{\"suite\": \"t\", \"source\": \"k.cu\", \"benches\": [{\"name\": \"b\", \"kernel\": \"kk\", "
            "\"axes\": [{\"name\": \"n\", \"values\": [1]}], \"grid\": [1], \"args\": " ARGS_OK "}]}",
            "benches[0].kernel: \"kk\": no kernel named kk in k.cu");
    bad_raw("{\"suite\": \"t\", \"source\": \"k.cu\", \"benches\": [{\"name\": \"b\", \"kernel\": \"kt<{n>\", "
            "\"axes\": [{\"name\": \"n\", \"values\": [1]}], \"grid\": [1], \"args\": " ARGS_OK "}]}",
            "benches[0].kernel: \"kt<{n>\": a '{' without its '}'");
    bad_raw("{\"suite\": \"t\", \"source\": \"k.cu\", \"benches\": [{\"name\": \"b\", \"kernel\": \"kt<{m}>\", "
            "\"axes\": [{\"name\": \"n\", \"values\": [1]}], \"grid\": [1], \"args\": " ARGS_OK "}]}",
            "benches[0].kernel: \"kt<{m}>\": unknown name \"m\"");
}

/* A point of the first bench of `s` with the given axis values. */
static void point_of(struct gb_suite *suite, const char *const *vals, struct gb_plan_item *it, struct gb_point *p)
{
    const struct gb_bench *row = &suite->benches[0];
    memset(it, 0, sizeof *it);
    it->suite = suite;
    it->bench = row;
    it->n_axes = row->n_axes;
    for (int a = 0; a < row->n_axes; a++) {
        it->axis_name[a] = row->axes[a].name;
        it->axis_value[a] = (char *)vals[a];
    }
    gb_plan_point(it, 0, p);
}

static struct gb_suite *suite_of(const char *text)
{
    struct gb_spec *s = NULL;
    struct gb_suite *suite = NULL;
    if (load_text(text, &s) != GB_OK)
        fail_msg("%s", gb_error_message());
    assert_int_equal(gb_spec_suite(s, &suite), GB_OK);
    return suite;
}

static void test_point_values(void **state)
{
    (void)state;
    char text[4096], opts[16][GB_OPT_LEN], exprs[4][GB_KERNEL_NAME_LEN];
    struct gb_plan_item it;
    struct gb_point p;
    struct gb_spec_values pv;
    spec_text(text, sizeof text, NULL,
              ", \"defines\": {\"TILE\": \"block_size_x * 2\"}, \"dynamic_smem\": \"TILE * 4096\", "
              "\"bytes\": \"8 * n\", \"reference\": {\"kernel\": \"k_ref\", \"block\": [\"128\"]}",
              NULL, NULL);
    struct gb_suite *suite = suite_of(text);
    const struct gb_bench *row = &suite->benches[0];
    const char *v1[] = {"64", "1000"};
    point_of(suite, v1, &it, &p);
    assert_int_equal(gb_spec_point_values(row->ctx, &p, &pv), GB_OK);
    assert_int_equal(pv.grid[0], 16);
    assert_int_equal(pv.grid[1], 1);
    assert_int_equal(pv.block[0], 64);
    assert_int_equal(pv.smem, 128 * 4096);
    assert_int_equal(pv.max_smem, 128 * 4096);   /* above 48 KiB: opted in for the request */
    assert_int_equal(pv.count[0], 1000);
    assert_true(pv.scalar[2] == 1000);
    assert_true(pv.bytes == 8000);
    assert_string_equal(pv.kernel, "k");
    assert_string_equal(pv.ref_kernel, "k_ref");
    assert_int_equal(pv.ref_block[0], 128);
    assert_int_equal(pv.ref_grid[0], 16);        /* the bench's grid when the reference gives none */
    assert_int_equal(gb_spec_check_point(&p), GB_OK);
    int n = row->kernel_opts(&p, row->ctx, opts, 16);
    assert_int_equal(n, 3);
    assert_string_equal(opts[0], "-Dblock_size_x=64");
    assert_string_equal(opts[1], "-Dn=1000");
    assert_string_equal(opts[2], "-DTILE=128");
    /* The reference shares the module: both names are lowered with it. */
    const char *optp[3] = {opts[0], opts[1], opts[2]};
    struct gb_nvrtc_program prog;
    memset(&prog, 0, sizeof prog);
    assert_int_equal(row->kernel_program(row->ctx, optp, 3, &prog, exprs, 4), GB_OK);
    assert_int_equal(prog.n_exprs, 2);
    assert_string_equal(prog.exprs[0], "k");
    assert_string_equal(prog.exprs[1], "k_ref");
    assert_string_equal(prog.name, "k.cu");
    gb_point_release(&p);
    gb_spec_suite_free(suite);
}

static void test_point_errors(void **state)
{
    (void)state;
    char text[4096], want[1024];
    struct gb_plan_item it;
    struct gb_point p;
    spec_text(text, sizeof text, NULL, NULL, "\"grid\": [\"n / 3\"], ", NULL);
    struct gb_suite *suite = suite_of(text);
    const char *v1[] = {"64", "1000"};
    point_of(suite, v1, &it, &p);
    assert_int_equal(gb_spec_check_point(&p), GB_ERR_USAGE);
    snprintf(want, sizeof want, "%s: benches[0].grid[0]: \"n / 3\" = 333.3333333 at block_size_x=64 n=1000 is not "
             "a non-negative integer", path);
    assert_string_equal(gb_error_message(), want);
    gb_point_release(&p);
    gb_spec_suite_free(suite);

    spec_text(text, sizeof text, NULL, NULL, NULL,
              "[{\"name\": \"y\", \"type\": \"float\", \"count\": \"n - 2000\", \"output\": true}]");
    suite = suite_of(text);
    point_of(suite, v1, &it, &p);
    assert_int_equal(gb_spec_check_point(&p), GB_ERR_USAGE);
    assert_non_null(strstr(gb_error_message(), "benches[0].args[0].count: \"n - 2000\" = -1000 at "
                                                "block_size_x=64 n=1000 is not a non-negative integer"));
    gb_point_release(&p);
    gb_spec_suite_free(suite);

    spec_text(text, sizeof text, NULL, ", \"kernel\": \"kt<{n / 3}>\"", NULL, NULL);
    /* (the second "kernel" key is a duplicate: JSON refuses it) */
    struct gb_spec *s = NULL;
    assert_int_equal(load_text(text, &s), GB_ERR_USAGE);
    assert_non_null(strstr(gb_error_message(), "duplicate"));
}

static void test_restrictions(void **state)
{
    (void)state;
    char text[4096], why[256] = "";
    struct gb_plan_item it;
    struct gb_point p;
    spec_text(text, sizeof text, NULL, ", \"restrictions\": [\"block_size_x <= 1024\", \"n % 2 == 0\"]", NULL, NULL);
    struct gb_spec *s = NULL;
    assert_int_equal(load_text(text, &s), GB_ERR_USAGE);
    assert_non_null(strstr(gb_error_message(), "restrictions[1]: \"n % 2 == 0\": unexpected character '%'"));

    spec_text(text, sizeof text, NULL, ", \"restrictions\": [\"block_size_x <= 1024\", \"n >= 2048 || block_size_x "
                                       "== 32\"]", NULL, NULL);
    struct gb_suite *suite = suite_of(text);
    const struct gb_bench *row = &suite->benches[0];
    const char *big[] = {"2048", "4096"}, *small[] = {"64", "1024"}, *ok[] = {"64", "2048"};
    point_of(suite, big, &it, &p);
    assert_int_equal(row->admit(&p, row->ctx, why, sizeof why), 0);
    assert_string_equal(why, "restriction \"block_size_x <= 1024\" is false");
    gb_point_release(&p);
    point_of(suite, small, &it, &p);
    assert_int_equal(row->admit(&p, row->ctx, why, sizeof why), 0);
    assert_string_equal(why, "restriction \"n >= 2048 || block_size_x == 32\" is false");
    gb_point_release(&p);
    point_of(suite, ok, &it, &p);
    assert_int_equal(row->admit(&p, row->ctx, why, sizeof why), 1);
    gb_point_release(&p);

    /* Registered and planned: 3 x 3 combinations, those the restrictions allow. */
    assert_int_equal(gb_suite_register(suite, gb_spec_suite_free), GB_OK);
    struct gb_plan plan;
    const char *sel[] = {"t"};
    assert_int_equal(gb_plan_build(sel, 1, NULL, 0, 0, &plan), GB_OK);
    /* block 32: n 1K, 2K, 4K; block 64: 2K, 4K; block 2048: none */
    assert_int_equal(plan.n, 5);
    gb_plan_release(&plan);
    const char *sets[] = {"block_size_x=2048"};
    assert_int_equal(gb_plan_build(sel, 1, sets, 1, 0, &plan), GB_ERR_USAGE);
    assert_string_equal(gb_error_message(), "t/b: no point to measure: restriction \"block_size_x <= 1024\" is false");
    gb_suites_release();
}

static void test_register_path(void **state)
{
    (void)state;
    char text[4096], arg[600], *sel = NULL;
    spec_text(text, sizeof text, NULL, NULL, NULL, NULL);
    write_file("t.json", text);
    assert_true(gb_spec_is_path(path));
    assert_true(gb_spec_is_path("x.json"));
    assert_true(gb_spec_is_path("x.json/b"));
    assert_false(gb_spec_is_path("bandwidth/read"));
    assert_false(gb_spec_is_path("bandwidth"));
    snprintf(arg, sizeof arg, "%s/b", path);
    assert_int_equal(gb_spec_register_path(arg, &sel), GB_OK);
    assert_string_equal(sel, "t/b");
    free(sel);
    /* The same file again is the same suite. */
    assert_int_equal(gb_spec_register_path(path, &sel), GB_OK);
    assert_string_equal(sel, "t");
    free(sel);
    const struct gb_suite *s = gb_suite_find("t");
    assert_non_null(s);
    assert_non_null(gb_spec_of_suite(s));
    assert_null(gb_spec_of_suite(gb_suite_find("bandwidth")));
    assert_int_equal(s->n_charts, 1);
    assert_string_equal(s->charts[0].name, "t-b-time");
    assert_string_equal(s->charts[0].x, "block_size_x");
    assert_string_equal(s->charts[0].series, "n");
    /* The charts go into a run's charts.json and come back (report reads them so). */
    struct gb_chart_book book, back;
    struct gb_chart_set set = {s->name, s->help, s->charts, s->n_charts, s->findings};
    int found = 0;
    gb_chart_book_init(&book);
    gb_chart_book_init(&back);
    assert_int_equal(gb_chart_book_add(&book, &set), GB_OK);
    assert_int_equal(gb_chart_book_write(&book, dir), GB_OK);
    if (gb_chart_book_load(dir, &back, &found) != GB_OK)
        fail_msg("%s", gb_error_message());
    assert_true(found);
    const struct gb_chart_set *got = gb_chart_book_find(&back, "t");
    assert_non_null(got);
    assert_int_equal(got->n_charts, 1);
    assert_string_equal(got->charts[0].y, "median_ns");
    assert_true(got->charts[0].log_y);
    gb_chart_book_release(&book);
    gb_chart_book_release(&back);
    /* A spec named like a built-in suite is refused. */
    char other[4096];
    spec_text(other, sizeof other, NULL, NULL, NULL, NULL);
    char *at = strstr(other, "\"t\"");
    memmove(at + 11, at + 3, strlen(at + 3) + 1);
    memcpy(at, "\"bandwidth\"", 11);
    write_file("t.json", other);
    assert_int_equal(gb_spec_register_path(path, &sel), GB_ERR_USAGE);
    assert_non_null(strstr(gb_error_message(), "suite: \"bandwidth\" is the name of a built-in suite already"));
    gb_suites_release();
}

static void test_save_copy(void **state)
{
    (void)state;
    char text[4096], run[600], p2[700];
    struct gb_spec *s = NULL;
    spec_text(text, sizeof text, "[\"k.cu\", \"h.cuh\"]", NULL, NULL, NULL);
    assert_int_equal(load_text(text, &s), GB_OK);
    snprintf(run, sizeof run, "%s/run", dir);
    assert_int_equal(gb_spec_save_copy(s, run), GB_OK);
    snprintf(p2, sizeof p2, "%s/spec/t/t.json", run);
    assert_int_equal(access(p2, R_OK), 0);
    snprintf(p2, sizeof p2, "%s/spec/t/h.cuh", run);
    assert_int_equal(access(p2, R_OK), 0);
    gb_spec_free(s);
}

/* The point {block_size_x, n} of a spec made by spec_text must be refused
 * before any GPU work with a message holding `msg` (NULL: must pass). */
static void point_check(const char *extra, const char *args, const char *const *vals, const char *msg)
{
    char text[4096];
    struct gb_plan_item it;
    struct gb_point p;
    spec_text(text, sizeof text, NULL, extra, NULL, args);
    struct gb_suite *suite = suite_of(text);
    point_of(suite, vals, &it, &p);
    enum gb_status st = gb_spec_check_point(&p);
    if (!msg && st != GB_OK)
        fail_msg("%s: %s", args, gb_error_message());
    if (msg && (st != GB_ERR_USAGE || !strstr(gb_error_message(), msg)))
        fail_msg("%s: got %d \"%s\", expected \"%s\"", args, st, st ? gb_error_message() : "", msg);
    if (msg)
        assert_null(strchr(gb_error_message(), '\n'));
    gb_point_release(&p);
    gb_spec_suite_free(suite);
}

#define OUT_Y "{\"name\": \"y\", \"type\": \"float\", \"count\": \"n\", \"output\": true}"

/* Every scalar is a value of its type (a cast of one that is not is
 * undefined), and so are the values an init puts into a buffer. */
static void test_type_ranges(void **state)
{
    (void)state;
    const char *v[] = {"64", "1024"};
    static const struct {
        const char *type, *value, *msg; /* msg NULL: accepted */
    } cases[] = {
        {"long", "2^63", "\"2^63\" = 9.223372037e+18 at block_size_x=64 n=1024 is not a long (-2^63 to 2^63-1)"},
        {"long", "-2^63 - 4096", "is not a long"},
        {"long", "2^62", NULL},
        {"long", "-2^63", NULL},
        {"int64", "2^63", "is not a long"},
        {"ulong", "2^64", "is not a ulong (0 to 2^64-1)"},
        {"ulong", "-1", "is not a ulong"},
        {"ulong", "2^63", NULL},
        {"int", "2^31", "is not an int (-2^31 to 2^31-1)"},
        {"int", "-2^31 - 1", "is not an int"},
        {"int", "2^31 - 1", NULL},
        {"int", "-2^31", NULL},
        {"uint", "2^32", "is not a uint (0 to 2^32-1)"},
        {"uint", "-1", "is not a uint"},
        {"uint", "2^32 - 1", NULL},
        {"float", "1e300", "\"1e300\" = 1e+300 at block_size_x=64 n=1024 is not a finite float (at most 3.4e38 in "
                           "magnitude)"},
        {"float", "-1e39", "is not a finite float"},
        {"float", "3.4e38", NULL},
        {"double", "1e300", NULL},
        {"double", "n / 0", "is not a number"},
        {"int", "n / 3", "is not an integer (the argument is an integer type)"},
    };
    char args[512];
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        snprintf(args, sizeof args, "[" OUT_Y ", {\"name\": \"s\", \"type\": \"%s\", \"value\": \"%s\"}]",
                 cases[i].type, cases[i].value);
        point_check(NULL, args, v, cases[i].msg);
    }
    /* Init values: constants and random bounds when the spec is read, an
     * iota's last element per point. */
    bad(NULL, NULL, NULL, "[" OUT_Y ", {\"name\": \"x\", \"type\": \"int\", \"count\": \"n\", \"init\": {\"constant\": "
                          "3e9}}]", "benches[0].args[1].init.constant: 3000000000 is not an int (-2^31 to 2^31-1)");
    bad(NULL, NULL, NULL, "[" OUT_Y ", {\"name\": \"x\", \"type\": \"float\", \"count\": \"n\", \"init\": {\"random\": "
                          "[-1e300, 1]}}]",
        "benches[0].args[1].init.random: lo -1e+300 is not a finite float (at most 3.4e38 in magnitude)");
    bad(NULL, NULL, NULL, "[" OUT_Y ", {\"name\": \"x\", \"type\": \"uint\", \"count\": \"n\", \"init\": {\"random\": "
                          "[1, 5e9]}}]", "benches[0].args[1].init.random: hi 5000000000 is not a uint (0 to 2^32-1)");
    bad(NULL, NULL, NULL, "[" OUT_Y ", {\"name\": \"x\", \"type\": \"ulong\", \"count\": \"n\", \"init\": {\"iota\": "
                          "[-1, 1]}}]", "benches[0].args[1].init.iota: start -1 is not a ulong (0 to 2^64-1)");
    point_check(NULL, "[" OUT_Y ", {\"name\": \"x\", \"type\": \"int\", \"count\": \"n\", \"init\": {\"iota\": "
                      "[0, 3e6]}}]", v, "benches[0].args[1].init.iota: element 1023 = 3069000000 at block_size_x=64 "
                      "n=1024 is not an int");
    point_check(NULL, "[" OUT_Y ", {\"name\": \"x\", \"type\": \"int\", \"count\": \"n\", \"init\": {\"iota\": "
                      "[0, 2e6]}}]", v, NULL);
    point_check(NULL, "[" OUT_Y ", {\"name\": \"x\", \"type\": \"uint\", \"count\": \"n\", \"init\": {\"iota\": "
                      "[1023, -1]}}]", v, NULL);
}

/* Init and reference files: inside the spec's directory, regular, of the
 * exact size each point needs, all decided without opening them. */
static void test_data_files(void **state)
{
    (void)state;
    char p[700], q[700], args[512];
    const char *v[] = {"64", "1024"};
    static char k4[4096];
    FILE *f;
    snprintf(p, sizeof p, "%s/four.bin", dir);
    assert_non_null(f = fopen(p, "wb"));
    assert_int_equal(fwrite(k4, 1, sizeof k4, f), sizeof k4);
    fclose(f);
    snprintf(p, sizeof p, "%s/link-in.bin", dir);
    assert_int_equal(symlink("four.bin", p), 0);
    snprintf(p, sizeof p, "%s/link-out.bin", dir);
    assert_int_equal(symlink("/etc/passwd", p), 0);
    snprintf(p, sizeof p, "%s/sub", dir);
    assert_int_equal(mkdir(p, 0755), 0);
    snprintf(q, sizeof q, "%s/sub/up", dir);
    assert_int_equal(symlink("/etc", q), 0);
    snprintf(p, sizeof p, "%s/fifo.bin", dir);
    assert_int_equal(mkfifo(p, 0600), 0);
    static const struct {
        const char *file, *msg;
    } cases[] = {
        {"/etc/passwd", "\"/etc/passwd\" is not a file inside the spec's directory (a relative path without \"..\")"},
        {"../t.json", "\"../t.json\" is not a file inside the spec's directory (a relative path without \"..\")"},
        {"sub/../four.bin", "\"sub/../four.bin\" is not a file inside the spec's directory (a relative path "
                            "without \"..\")"},
        {"link-out.bin", "\"link-out.bin\" leads outside the spec's directory (to /etc/passwd through a symbolic "
                         "link); copy the file into it"},
        {"sub/up/passwd", "\"sub/up/passwd\" leads outside the spec's directory (to /etc/passwd through a "
                          "symbolic link); copy the file into it"},
        {"fifo.bin", "cannot read \"fifo.bin\": not a regular file (a FIFO, device or socket is not read)"},
        {"sub", "cannot read \"sub\": it is a directory"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char want[512], ref[256];
        snprintf(args, sizeof args, "[" OUT_Y ", {\"name\": \"x\", \"type\": \"float\", \"count\": \"n\", \"init\": "
                 "{\"file\": \"%s\"}}]", cases[i].file);
        snprintf(want, sizeof want, "benches[0].args[1].init.file: %s", cases[i].msg);
        bad(NULL, NULL, NULL, args, want);
        snprintf(ref, sizeof ref, ", \"reference\": {\"files\": {\"y\": \"%s\"}}", cases[i].file);
        snprintf(want, sizeof want, "benches[0].reference.files.y: %s", cases[i].msg);
        bad(NULL, ref, NULL, "[" OUT_Y "]", want);
    }
    /* Sizes: 4096 bytes are 1024 floats, not 1024 doubles nor 2048 floats;
     * in.bin (8 bytes) is 2 floats. */
    point_check(NULL, "[" OUT_Y ", {\"name\": \"x\", \"type\": \"float\", \"count\": \"n\", \"init\": {\"file\": "
                      "\"four.bin\"}}]", v, NULL);
    point_check(NULL, "[" OUT_Y ", {\"name\": \"x\", \"type\": \"float\", \"count\": \"n\", \"init\": {\"file\": "
                      "\"link-in.bin\"}}]", v, NULL);
    point_check(NULL, "[" OUT_Y ", {\"name\": \"x\", \"type\": \"double\", \"count\": \"n\", \"init\": {\"file\": "
                      "\"four.bin\"}}]", v, "four.bin holds 4096 bytes; x needs 8192 (1024 double values) at "
                      "block_size_x=64 n=1024");
    point_check(NULL, "[" OUT_Y ", {\"name\": \"x\", \"type\": \"float\", \"count\": \"n\", \"init\": {\"file\": "
                      "\"in.bin\"}}]", v, "benches[0].args[1].init.file: ");
    point_check(NULL, "[" OUT_Y ", {\"name\": \"x\", \"type\": \"float\", \"count\": \"n / 2\", \"init\": "
                      "{\"file\": \"four.bin\"}}]", v, "four.bin holds 4096 bytes; x needs 2048 (512 float values)");
    const char *v2[] = {"64", "2048"};
    point_check(", \"reference\": {\"files\": {\"y\": \"four.bin\"}}", "[" OUT_Y "]", v, NULL);
    point_check(", \"reference\": {\"files\": {\"y\": \"four.bin\"}}", "[" OUT_Y "]", v2,
                "benches[0].reference.files.y: ");
    point_check(", \"reference\": {\"files\": {\"y\": \"four.bin\"}}", "[" OUT_Y "]", v2,
                "four.bin holds 4096 bytes; y needs 8192 (2048 float values) at block_size_x=64 n=2048");
    /* Sources obey the same rule. */
    bad_raw("{\"suite\": \"t\", \"source\": \"link-out.bin\", \"benches\": []}",
            "source: \"link-out.bin\" leads outside the spec's directory");
    bad_raw("{\"suite\": \"t\", \"source\": \"fifo.bin\", \"benches\": []}",
            "source: cannot read \"fifo.bin\": not a regular file");
}

/* The harness gives a kernel at most 16 -D options: the axes, the defines
 * and the reference's defines together. */
static void test_define_limit(void **state)
{
    (void)state;
    static const struct {
        int axes, defines, ref_defines, ok;
    } cases[] = {{12, 4, 0, 1}, {12, 5, 0, 0}, {8, 8, 0, 1}, {8, 7, 1, 1}, {8, 8, 1, 0}, {1, 8, 7, 1}, {2, 8, 7, 0}};
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
        char text[8192], axes[2048] = "", defs[1024] = "", refd[1024] = "";
        for (int a = 0; a < cases[c].axes; a++) {
            char nm[16] = "n";
            if (a)
                snprintf(nm, sizeof nm, "a%d", a);
            snprintf(axes + strlen(axes), sizeof axes - strlen(axes), "%s{\"name\": \"%s\", \"values\": [8]}",
                     a ? ", " : "", nm);
        }
        for (int d = 0; d < cases[c].defines; d++)
            snprintf(defs + strlen(defs), sizeof defs - strlen(defs), "%s\"D%d\": %d", d ? ", " : "", d, d);
        for (int d = 0; d < cases[c].ref_defines; d++)
            snprintf(refd + strlen(refd), sizeof refd - strlen(refd), "%s\"R%d\": %d", d ? ", " : "", d, d);
        snprintf(text, sizeof text, "{\"suite\": \"t\", \"source\": \"k.cu\", \"benches\": [{\"name\": \"b\", "
                 "\"kernel\": \"k\", \"axes\": [%s], \"defines\": {%s}, \"grid\": [1], \"args\": [" OUT_Y "], "
                 "\"reference\": {\"kernel\": \"k_ref\", \"defines\": {%s}}}]}", axes, defs, refd);
        struct gb_spec *s = NULL;
        enum gb_status st = load_text(text, &s);
        if (cases[c].ok) {
            if (st != GB_OK)
                fail_msg("%d axes, %d defines, %d of the reference: %s", cases[c].axes, cases[c].defines,
                         cases[c].ref_defines, gb_error_message());
            gb_spec_free(s);
            continue;
        }
        char want[1024];
        snprintf(want, sizeof want, "%s: benches[0]: %d axes and %d defines (and %d of the reference) make more "
                 "than the 16 -D options a kernel can be given", path, cases[c].axes, cases[c].defines,
                 cases[c].ref_defines);
        assert_int_equal(st, GB_ERR_USAGE);
        assert_string_equal(gb_error_message(), want);
    }
}

/* A value given twice would be measured twice, and the run could not be
 * read back: refused in the spec and on the command line. */
static void test_repeated_values(void **state)
{
    (void)state;
    char text[4096];
    bad_raw("{\"suite\": \"t\", \"source\": \"k.cu\", \"benches\": [{\"name\": \"b\", \"kernel\": \"k\", "
            "\"axes\": [{\"name\": \"n\", \"values\": [64, 128, 64]}], \"grid\": [1], \"args\": " ARGS_OK "}]}",
            "benches[0].axes[0].values: axis n: the value 64 is given twice (as 64 and 64); each point is "
            "measured once");
    bad_raw("{\"suite\": \"t\", \"source\": \"k.cu\", \"benches\": [{\"name\": \"b\", \"kernel\": \"k\", "
            "\"axes\": [{\"name\": \"n\", \"values\": [1], \"quick\": \"1K,1024\"}], \"grid\": [1], "
            "\"args\": " ARGS_OK "}]}",
            "benches[0].axes[0].quick: axis n: the value 1024 is given twice (as 1K and 1024)");
    bad_raw("{\"suite\": \"t\", \"source\": \"k.cu\", \"benches\": [{\"name\": \"b\", \"kernel\": \"k\", "
            "\"axes\": [{\"name\": \"n\", \"values\": \"1:8,8:16\"}], \"grid\": [1], \"args\": " ARGS_OK "}]}",
            "benches[0].axes[0].values: axis n: the value 8 is given twice");
    spec_text(text, sizeof text, NULL, NULL, NULL, NULL);
    struct gb_suite *suite = suite_of(text);
    assert_int_equal(gb_suite_register(suite, gb_spec_suite_free), GB_OK);
    struct gb_plan plan;
    const char *sel[] = {"t"}, *twice[] = {"n=1024,1024"}, *suffix[] = {"n=2048,1K,2K"}, *fine[] = {"n=1K,2K"};
    assert_int_equal(gb_plan_build(sel, 1, twice, 1, 0, &plan), GB_ERR_USAGE);
    assert_string_equal(gb_error_message(), "axis n: the value 1024 is given twice (as 1024 and 1024); each point "
                                            "is measured once");
    assert_int_equal(gb_plan_build(sel, 1, suffix, 1, 0, &plan), GB_ERR_USAGE);
    assert_non_null(strstr(gb_error_message(), "the value 2K is given twice (as 2048 and 2K)"));
    assert_int_equal(gb_plan_build(sel, 1, fine, 1, 0, &plan), GB_OK);
    assert_int_equal(plan.n, 3 * 2); /* block_size_x 32, 64, 2048 by n 1K, 2K */
    gb_plan_release(&plan);
    gb_suites_release();
}

/* The verification rule against values worked out by hand. */
static void test_match_rule(void **state)
{
    (void)state;
    struct gb_spec_arg a;
    memset(&a, 0, sizeof a);
    a.type = GB_ST_DOUBLE;
    double exp[] = {100, 100, 100, NAN, NAN, 0, -100, 100, 100};
    double got[] = {100, NAN, 109, 100, NAN, 0.4, -109, 111, 91};
    /* rtol 0.1, atol 0: within 10% of the expected value. */
    a.rtol = 0.1;
    int want_r[] = {1, 0, 1, 0, 1, 0, 1, 0, 1};
    for (size_t i = 0; i < 9; i++)
        if (gb_spec_match(&a, got, exp, i) != want_r[i])
            fail_msg("rtol 0.1: %g against %g", got[i], exp[i]);
    /* atol 0.5, rtol 0: within 0.5. */
    a.rtol = 0;
    a.atol = 0.5;
    double got2[] = {100.4, 100.6, 99.6, 99.4, NAN, 0.4, -100.5, -100.51, 100};
    int want_a[] = {1, 0, 1, 0, 1, 1, 1, 0, 1};
    for (size_t i = 0; i < 9; i++)
        if (gb_spec_match(&a, got2, exp, i) != want_a[i])
            fail_msg("atol 0.5: %g against %g", got2[i], exp[i]);
    /* Floats: a NaN matches only a NaN. */
    a.type = GB_ST_FLOAT;
    a.rtol = 1e-4;
    a.atol = 1e-5;
    float fe[] = {1, NAN, NAN, 1}, fg[] = {NAN, 1, NAN, 1.00005f};
    int want_f[] = {0, 0, 1, 1};
    for (size_t i = 0; i < 4; i++)
        if (gb_spec_match(&a, fg, fe, i) != want_f[i])
            fail_msg("float: %g against %g", (double)fg[i], (double)fe[i]);
    /* Integers: bit for bit without a tolerance, else by it. */
    a.type = GB_ST_INT;
    a.rtol = a.atol = 0;
    int32_t ie[] = {7, 7, -3}, ig[] = {7, 8, -3};
    assert_true(gb_spec_match(&a, ig, ie, 0));
    assert_false(gb_spec_match(&a, ig, ie, 1));
    assert_true(gb_spec_match(&a, ig, ie, 2));
    a.atol = 1;
    assert_true(gb_spec_match(&a, ig, ie, 1));
    a.type = GB_ST_ULONG;
    a.atol = 0;
    uint64_t ue[] = {UINT64_MAX}, ug[] = {UINT64_MAX - 1};
    assert_false(gb_spec_match(&a, ug, ue, 0)); /* equal as doubles, not bit for bit */
    /* The spec's fields reach the rule as written: rtol from "rtol", atol
     * from "atol". */
    char text[4096];
    struct gb_spec *s = NULL;
    spec_text(text, sizeof text, NULL, NULL, NULL,
              "[{\"name\": \"y\", \"type\": \"double\", \"count\": \"n\", \"output\": true, \"rtol\": 0.25, "
              "\"atol\": 0.003}]");
    assert_int_equal(load_text(text, &s), GB_OK);
    assert_true(s->benches[0].args[0].rtol == 0.25);
    assert_true(s->benches[0].args[0].atol == 0.003);
    gb_spec_free(s);
    spec_text(text, sizeof text, NULL, NULL, NULL,
              "[{\"name\": \"y\", \"type\": \"double\", \"count\": \"n\", \"output\": true, \"rtol\": 0.25}]");
    assert_int_equal(load_text(text, &s), GB_OK);
    assert_true(s->benches[0].args[0].rtol == 0.25);
    assert_true(s->benches[0].args[0].atol == 1e-12);   /* the double default */
    gb_spec_free(s);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_valid_spec),
        cmocka_unit_test(test_bad_fields),
        cmocka_unit_test(test_bad_args),
        cmocka_unit_test(test_bad_names_and_duplicates),
        cmocka_unit_test(test_bad_reference),
        cmocka_unit_test(test_point_values),
        cmocka_unit_test(test_point_errors),
        cmocka_unit_test(test_restrictions),
        cmocka_unit_test(test_register_path),
        cmocka_unit_test(test_save_copy),
        cmocka_unit_test(test_type_ranges),
        cmocka_unit_test(test_data_files),
        cmocka_unit_test(test_define_limit),
        cmocka_unit_test(test_repeated_values),
        cmocka_unit_test(test_match_rule),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
