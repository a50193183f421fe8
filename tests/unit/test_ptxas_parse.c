/* ptxas's -v report as NVRTC's log holds it (gpu/nvrtc_info.h): each entry
 * function's registers, barriers, stack frame, spills and static shared
 * memory, taken apart by name. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <string.h>
#include <cmocka.h>

#include "gpu/nvrtc_info.h"

static const char log_two[] =
    "ptxas info    : 0 bytes gmem\n"
    "ptxas info    : Compiling entry function '_Z4tileILi16EEvPf' for 'sm_90'\n"
    "ptxas info    : Function properties for _Z4tileILi16EEvPf\n"
    "ptxas         .     40 bytes stack frame, 36 bytes spill stores, 28 bytes spill loads\n"
    "ptxas info    : Used 255 registers, used 1 barriers, 4352 bytes smem, 368 bytes cmem[0]\n"
    "ptxas info    : Compile time = 28.075 ms\n"
    "ptxas info    : Compiling entry function 'saxpy' for 'sm_90'\n"
    "ptxas info    : Function properties for saxpy\n"
    "ptxas         .     0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads\n"
    "ptxas info    : Used 10 registers, used 0 barriers, 380 bytes cmem[0]\n";

static void test_two_kernels(void **state)
{
    (void)state;
    struct gb_kernel_res r[4];
    int n = -1;
    gb_ptxas_parse(log_two, r, 4, &n);
    assert_int_equal(n, 2);
    assert_string_equal(r[0].name, "_Z4tileILi16EEvPf");
    assert_int_equal(r[0].regs, 255);
    assert_int_equal(r[0].barriers, 1);
    assert_int_equal(r[0].stack_frame, 40);
    assert_int_equal(r[0].spill_stores, 36);
    assert_int_equal(r[0].spill_loads, 28);
    assert_int_equal(r[0].smem, 4352);
    assert_string_equal(r[1].name, "saxpy");
    assert_int_equal(r[1].regs, 10);
    assert_int_equal(r[1].spill_stores, 0);
    assert_int_equal(r[1].smem, 0);
}

/* No report (a log of warnings only, or none), and more functions than room. */
static void test_empty_and_full(void **state)
{
    (void)state;
    struct gb_kernel_res r[1];
    int n = -1;
    gb_ptxas_parse("t.cu(3): warning #177-D: variable \"x\" was declared but never referenced\n", r, 1, &n);
    assert_int_equal(n, 0);
    gb_ptxas_parse(NULL, r, 1, &n);
    assert_int_equal(n, 0);
    gb_ptxas_parse(log_two, r, 1, &n);
    assert_int_equal(n, 1);
    assert_string_equal(r[0].name, "_Z4tileILi16EEvPf");
    assert_int_equal(r[0].regs, 255);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_two_kernels),
        cmocka_unit_test(test_empty_and_full),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
