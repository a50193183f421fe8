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
#include <unistd.h>
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
    bad(NULL, NULL, NULL, "[{\"name\": \"y\", \"type\": \"half\", \"count\": \"n\", \"output\": true}]",
        "benches[0].args[0].type: \"half\" is not a type (float, double, int, uint, long, ulong, int32, uint32, "
        "int64, uint64)");
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
    struct gb_chart_set set = {s->name, s->help, s->charts, s->n_charts};
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
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
