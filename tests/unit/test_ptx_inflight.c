/* test_ptx_inflight.c - the loads a thread keeps in flight, read from PTX
 * (src/analyze/ptx_inflight.c), on hand-written entries:
 * 1. two independent loads before their use: one group of two (8 bytes);
 * 2. vector loads count their width (two .v4.f32: 32 bytes);
 * 3. a load whose address is another's value (a pointer chase, and an
 *    index loaded then scaled into an address) starts a group of its own;
 * 4. a global store, a barrier and a label each end the group; a shared
 *    store, a use of a loaded value and ld.param / ld.shared do not count
 *    or end it;
 * 5. the entry is found by its name among several; a missing one, or a
 *    body that does not close, is GB_ERR_FORMAT.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "gpubound/ptx.h"

#define HEAD ".version 8.0\n.target sm_90\n.address_size 64\n"

static struct gb_ptx_inflight of(const char *ptx, const char *entry)
{
    struct gb_ptx_inflight r;
    assert_int_equal(gb_ptx_inflight(ptx, entry, &r), GB_OK);
    return r;
}

static void two_independent(void **state)
{
    (void)state;
    const char *ptx = HEAD ".visible .entry triad(\n .param .u64 a\n)\n{\n"
                      "\t.reg .f32 %f<5>;\n"
                      "\tld.param.u64 %rd1, [a];\n"
                      "\tld.global.f32 %f1, [%rd3];\n"
                      "\tld.global.f32 %f2, [%rd4];\n"
                      "\tfma.rn.f32 %f3, %f2, %f4, %f1;\n"
                      "\tst.global.f32 [%rd5], %f3;\n"
                      "\tret;\n}\n";
    struct gb_ptx_inflight r = of(ptx, "triad");
    assert_true(r.bytes == 8);
    assert_int_equal(r.loads, 2);
    assert_int_equal(r.groups, 1);
}

static void vector_width(void **state)
{
    (void)state;
    const char *ptx = HEAD ".visible .entry k()\n{\n"
                      "\tld.global.nc.v4.f32 {%f1, %f2, %f3, %f4}, [%rd3];\n"
                      "\tld.global.v4.f32 {%f5, %f6, %f7, %f8}, [%rd4+16];\n"
                      "\tadd.f32 %f9, %f1, %f5;\n"
                      "\tld.global.u8 %rs1, [%rd6];\n"
                      "\tst.global.f32 [%rd5], %f9;\n}\n";
    struct gb_ptx_inflight r = of(ptx, NULL);
    assert_true(r.bytes == 33);
    assert_int_equal(r.loads, 3);
}

static void dependent_addresses(void **state)
{
    (void)state;
    /* A chase: the second load's address is the first's value. */
    const char *chase = HEAD ".visible .entry chase()\n{\n"
                        "\tld.global.u64 %rd2, [%rd1];\n"
                        "\tld.global.u64 %rd3, [%rd2];\n"
                        "\tld.global.u64 %rd4, [%rd3];\n}\n";
    struct gb_ptx_inflight r = of(chase, "chase");
    assert_true(r.bytes == 8);
    assert_int_equal(r.loads, 1);
    assert_int_equal(r.groups, 3);
    /* An index loaded, scaled and added into an address. */
    const char *gather = HEAD ".visible .entry gather()\n{\n"
                         "\tld.global.u32 %r1, [%rd1];\n"
                         "\tld.global.f32 %f9, [%rd8];\n"
                         "\tmul.wide.u32 %rd2, %r1, 4;\n"
                         "\tadd.s64 %rd3, %rd7, %rd2;\n"
                         "\tld.global.f32 %f1, [%rd3];\n}\n";
    r = of(gather, "gather");
    assert_true(r.bytes == 8);
    assert_int_equal(r.loads, 2);
    assert_int_equal(r.groups, 2);
}

static void what_ends_a_group(void **state)
{
    (void)state;
    const char *store = HEAD ".visible .entry s()\n{\n"
                        "\tld.global.f32 %f1, [%rd1];\n"
                        "\tst.global.f32 [%rd2], %f1;\n"
                        "\tld.global.f32 %f2, [%rd3];\n}\n";
    assert_int_equal(of(store, "s").loads, 1);
    assert_int_equal(of(store, "s").groups, 2);
    const char *bar = HEAD ".visible .entry b()\n{\n"
                      "\tld.global.f32 %f1, [%rd1];\n"
                      "\tbar.sync 0;\n"
                      "\tld.global.f32 %f2, [%rd3];\n}\n";
    assert_int_equal(of(bar, "b").loads, 1);
    const char *label = HEAD ".visible .entry l()\n{\n"
                        "\tld.global.f32 %f1, [%rd1];\n"
                        "$L__BB0_2:\n"
                        "\tld.global.f32 %f2, [%rd3];\n}\n";
    assert_int_equal(of(label, "l").loads, 1);
    /* A shared store, a use and a guard do not end it; shared and param
     * loads are not global loads. */
    const char *keep = HEAD ".visible .entry k()\n{\n"
                       "\tld.param.u64 %rd1, [p];\n"
                       "\tld.global.L1::no_allocate.f32 %f1, [%rd1];\n"
                       "\tst.shared.f32 [%r4], %f1;\n"
                       "\tld.shared.f32 %f7, [%r5];\n"
                       "\tadd.f32 %f3, %f1, %f7;\n"
                       "\t@%p1 ld.global.f32 %f2, [%rd3]; // a guarded load\n"
                       "}\n";
    struct gb_ptx_inflight r = of(keep, "k");
    assert_int_equal(r.loads, 2);
    assert_true(r.bytes == 8);
}

static void entries(void **state)
{
    (void)state;
    const char *two = HEAD ".visible .entry ref()\n{\n\tld.global.f32 %f1, [%rd1];\n}\n"
                      ".visible .entry kern()\n{\n\tld.global.f64 %fd1, [%rd1];\n"
                      "\tld.global.f64 %fd2, [%rd2];\n}\n";
    assert_true(of(two, "kern").bytes == 16);
    assert_true(of(two, "ref").bytes == 4);
    assert_true(of(two, NULL).bytes == 4);
    struct gb_ptx_inflight r;
    assert_int_equal(gb_ptx_inflight(two, "other", &r), GB_ERR_FORMAT);
    assert_int_equal(gb_ptx_inflight(HEAD ".visible .entry k()\n{\n\tld.global.f32 %f1, [%rd1];\n", "k", &r),
                     GB_ERR_FORMAT);
    assert_int_equal(of(HEAD ".visible .entry k()\n{\n\tret;\n}\n", "k").loads, 0);
}

/* Global atomics and reductions are counted (generic ones too: their
 * address may be global); shared ones are not, and a load-only entry has
 * none. */
static void atomics(void **state)
{
    (void)state;
    const char *ptx = HEAD ".visible .entry k()\n{\n"
                      "\tld.global.u32 %r1, [%rd1];\n"
                      "\tatom.shared.add.u32 %r2, [%r3], 1;\n"
                      "\tatom.shared::cta.add.u32 %r4, [%r3], 1;\n"
                      "\tred.shared.add.u32 [%r3], 1;\n"
                      "\t@%p1 atom.global.add.u32 %r5, [%rd2], %r1;\n"
                      "\tred.global.add.f32 [%rd3], %f1;\n"
                      "\tatom.add.u32 %r6, [%rd4], 1;\n"
                      "}\n";
    assert_int_equal(of(ptx, "k").atomics, 3);
    const char *none = HEAD ".visible .entry n()\n{\n\tld.global.f32 %f1, [%rd1];\n"
                       "\tst.global.f32 [%rd2], %f1;\n}\n";
    assert_int_equal(of(none, "n").atomics, 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(two_independent),   cmocka_unit_test(vector_width), cmocka_unit_test(atomics),
        cmocka_unit_test(dependent_addresses), cmocka_unit_test(what_ends_a_group),
        cmocka_unit_test(entries),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
