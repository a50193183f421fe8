/* Every kernel source compiles for sm_80, sm_90 and sm_100 with every set
 * of options a suite uses for any planned point (full and quick sweeps).
 * Sources no suite compiles (gpubound's helpers) compile with no options. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "gpubound/measure.h"

#define MAX_SETS 4096

struct compile_set {
    const char *file;           /* the kernel's name */
    const char *source;
    char opts[16][GB_OPT_LEN];
    int n;
};

static struct compile_set sets[MAX_SETS];
static int n_sets;

static int same(const struct compile_set *a, const struct compile_set *b)
{
    if (strcmp(a->file, b->file) || strcmp(a->source, b->source) || a->n != b->n)
        return 0;
    for (int i = 0; i < a->n; i++)
        if (strcmp(a->opts[i], b->opts[i]))
            return 0;
    return 1;
}

static void collect(int quick)
{
    struct gb_plan plan;
    assert_int_equal(gb_plan_build(NULL, 0, NULL, 0, quick, &plan), GB_OK);
    for (size_t i = 0; i < plan.n; i++) {
        const struct gb_bench *b = plan.items[i].bench;
        const char *name, *source;
        assert_int_equal(gb_bench_kernel(b, &name, &source), GB_OK);
        if (!source)
            continue;
        struct gb_point p;
        struct compile_set cs;
        memset(&cs, 0, sizeof cs);
        gb_plan_point(&plan.items[i], quick, &p);
        cs.file = name;
        cs.source = source;
        cs.n = b->kernel_opts ? b->kernel_opts(&p, b->ctx, cs.opts, 16) : 0;
        gb_point_release(&p);
        int dup = 0;
        for (int k = 0; k < n_sets && !dup; k++)
            dup = same(&sets[k], &cs);
        if (!dup) {
            assert_true(n_sets < MAX_SETS);
            sets[n_sets++] = cs;
        }
    }
    gb_plan_release(&plan);
}

static void compile(const char *file, const char *src, const char *const *opts, int n, const char *arch)
{
    char *cubin = NULL;
    size_t size = 0;
    assert_non_null(src);
    enum gb_status st = gb_nvrtc_compile(file, src, arch, opts, n, &cubin, &size);
    if (st != GB_OK)
        fail_msg("%s for %s: %s", file, arch, gb_error_message());
    assert_true(size > 0);
    free(cubin);
}

static void test_every_kernel(void **state)
{
    (void)state;
    static const char *const archs[] = {"sm_80", "sm_90", "sm_100"};
    collect(0);
    collect(1);
    assert_true(n_sets > 0);
    for (int a = 0; a < 3; a++)
        for (int k = 0; k < n_sets; k++) {
            const char *optp[16];
            for (int i = 0; i < sets[k].n; i++)
                optp[i] = sets[k].opts[i];
            compile(sets[k].file, sets[k].source, optp, sets[k].n, archs[a]);
        }
    /* Every embedded source is compiled at least once. */
    for (int i = 0; gb_kernel_source_name(i); i++) {
        const char *name = gb_kernel_source_name(i);
        int used = 0;
        for (int k = 0; k < n_sets && !used; k++)
            used = strcmp(sets[k].file, name) == 0;
        if (!used)
            for (int a = 0; a < 3; a++)
                compile(name, gb_kernel_source(name), NULL, 0, archs[a]);
    }
}

static void test_compile_error_is_reported(void **state)
{
    (void)state;
    char *cubin = NULL;
    size_t size = 0;
    enum gb_status st = gb_nvrtc_compile("broken.cu", "extern \"C\" __global__ void k() { undeclared_thing(); }",
                                         "sm_90", NULL, 0, &cubin, &size);
    assert_int_equal(st, GB_ERR_COMPILE);
    assert_null(cubin);
    assert_non_null(strstr(gb_error_message(), "broken.cu"));
    assert_non_null(strstr(gb_error_message(), "undeclared_thing"));
}

/* The device tier's kernel mutants (tests/device/kernel_mutants.sh) compile,
 * and each changes the code: a define that no longer reaches the kernel
 * would leave the cubin as it was and the device test proving nothing. */
static void test_mutants_compile(void **state)
{
    (void)state;
    static const char *const mutants[][2] = {
        {"patterns.cu", "-DGB_MUTANT_RS_WALK"},
        {"camping.cu", "-DGB_MUTANT_CAMP_COLUMNS"},
        {"camping.cu", "-DGB_MUTANT_CLIQUE"},
    };
    for (size_t i = 0; i < sizeof mutants / sizeof mutants[0]; i++) {
        const char *src = gb_kernel_source(mutants[i][0]);
        char *plain = NULL, *mut = NULL;
        size_t n_plain = 0, n_mut = 0;
        const char *opt = mutants[i][1];
        assert_non_null(src);
        assert_int_equal(gb_nvrtc_compile(mutants[i][0], src, "sm_90", NULL, 0, &plain, &n_plain), GB_OK);
        if (gb_nvrtc_compile(mutants[i][0], src, "sm_90", &opt, 1, &mut, &n_mut) != GB_OK)
            fail_msg("%s %s: %s", mutants[i][0], opt, gb_error_message());
        assert_true(n_plain != n_mut || memcmp(plain, mut, n_plain) != 0);
        free(plain);
        free(mut);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_every_kernel),
        cmocka_unit_test(test_compile_error_is_reported),
        cmocka_unit_test(test_mutants_compile),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
