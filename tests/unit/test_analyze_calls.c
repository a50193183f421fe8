/* test_analyze_calls.c - the source analysis follows calls of device
 * functions defined in the source: a helper's loops, accesses, operations
 * and barriers are counted at the call, inside the loops around it, with
 * its parameters standing for the call's arguments (counts made by hand on
 * tests/data/lpbm/calls.cu and corpus/transpose/transpose.cu). */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "gpubound/analyze.h"

struct sizes {
    double n_def, m_def, m_param, size, block;
};

static enum gb_status lookup(void *ctx, const char *name, double *v, int *is_int)
{
    const struct sizes *z = ctx;
    *is_int = 1;
    if (!strcmp(name, "N"))
        return *v = z->n_def, GB_OK;
    if (!strcmp(name, "M"))
        return *v = z->m_def, GB_OK;
    if (!strcmp(name, "m"))
        return *v = z->m_param, GB_OK;
    if (!strcmp(name, "size"))
        return *v = z->size, GB_OK;
    if (!strcmp(name, "tile") || !strcmp(name, "block_rows")) /* the transpose's -D defines */
        return *v = name[0] == 't' ? 32 : 8, GB_OK;
    if (!strcmp(name, "blockDim.x"))
        return *v = z->block, GB_OK;
    return gb_error_set(GB_ERR_FORMAT, "unknown %s", name);
}

static void near(double got, double want)
{
    if (!(fabs(got - want) <= 1e-9 * fabs(want))) {
        print_error("got %.10g, want %.10g\n", got, want);
        fail();
    }
}

static int has_note(const struct gb_kernel_analysis *a, const char *part)
{
    for (size_t i = 0; i < a->n_notes; i++)
        if (strstr(a->notes[i], part))
            return 1;
    return 0;
}

static void analyse(const char *file, const char *const *defs, size_t nd, const char *kernel,
                    struct gb_kernel_analysis *a)
{
    if (!gb_analysis_available(NULL, 0))
        skip();
    assert_int_equal(gb_analysis_run(file, NULL, defs, nd, kernel, a), GB_OK);
}

/* The barrier and the loops live in tile_step, called in a loop of N trips:
 * the barrier counts N times; the helper's loop over its parameter m runs
 * the argument 2 * M times (not the kernel's own m), its local half = m / 2
 * M times; t is the kernel's shared array, reached through a parameter. */
static void test_helper_in_loop(void **state)
{
    (void)state;
    static const struct sizes cases[] = {{3, 5, 1000, 0, 64}, {1, 16, 7, 0, 128}, {0, 2, 3, 0, 32}};
    const char *defs[] = {"N=3", "M=5"};
    struct gb_kernel_analysis a;
    analyse(GB_TEST_DATA "/lpbm/calls.cu", defs, 2, "in_loop", &a);
    assert_int_equal(a.n_loops, 3);
    assert_int_equal(a.n_barriers, 1);
    assert_int_equal(a.loops[1].depth, 1);
    assert_false(has_note(&a, "tile_step is not followed"));
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
        const struct sizes *z = &cases[c];
        struct gb_analysis_totals t;
        double n = z->n_def, m = 2 * z->m_def;
        gb_analysis_totals(&a, lookup, (void *)z, &t);
        near(t.barriers, n);
        near(t.ops, n * (m + 1));
        near(t.global_accesses, n * (m + m / 2 + 1) + 1);
        near(t.global_bytes, 4 * (n * (m + m / 2 + 1) + 1));
        near(t.shared_accesses, 1 + n * (2 * m + 1));
    }
    gb_analysis_release(&a);
}

/* halve calls itself: the recursive call is not followed (a note says
 * so), the body is counted once. */
static void test_recursive_helper(void **state)
{
    (void)state;
    const char *defs[] = {"N=4"};
    struct sizes z = {4, 0, 0, 0, 32};
    struct gb_kernel_analysis a;
    struct gb_analysis_totals t;
    analyse(GB_TEST_DATA "/lpbm/calls.cu", defs, 1, "recursive", &a);
    assert_true(has_note(&a, "the recursive call of halve is not followed"));
    gb_analysis_totals(&a, lookup, &z, &t);
    near(t.ops, 1);
    near(t.global_accesses, 2);
    assert_int_equal(a.n_ops, 1);
    gb_analysis_release(&a);
}

/* scaled is called twice in one statement: its load and its operation
 * count twice. */
static void test_helper_twice(void **state)
{
    (void)state;
    struct sizes z = {0, 0, 0, 0, 32};
    struct gb_kernel_analysis a;
    struct gb_analysis_totals t;
    analyse(GB_TEST_DATA "/lpbm/calls.cu", NULL, 0, "twice", &a);
    gb_analysis_totals(&a, lookup, &z, &t);
    near(t.ops, 3);
    near(t.global_accesses, 3);
    assert_int_equal(a.n_acc, 3);
    assert_string_equal(a.acc[1].array, "in");
    gb_analysis_release(&a);
}

/* The corpus's tiled transpose does its work in the template transpose_tile:
 * a tile of T x T through T / R rows per thread, one barrier, the tile in
 * shared memory. */
static void test_transpose_tile(void **state)
{
    (void)state;
    const char *defs[] = {"tile=32", "block_rows=8", "n=1024"};
    struct sizes z = {0, 0, 0, 1024, 256};
    struct gb_kernel_analysis a;
    struct gb_analysis_totals t;
    analyse(GB_SOURCE_DIR "/corpus/transpose/transpose.cu", defs, 3, "transpose_padded", &a);
    gb_analysis_totals(&a, lookup, &z, &t);
    assert_int_equal(a.n_loops, 2);
    near(t.barriers, 1);
    near(t.global_accesses, 8);
    near(t.global_bytes, 32);
    near(t.shared_accesses, 8);
    gb_analysis_release(&a);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_helper_in_loop),
        cmocka_unit_test(test_recursive_helper),
        cmocka_unit_test(test_helper_twice),
        cmocka_unit_test(test_transpose_tile),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
