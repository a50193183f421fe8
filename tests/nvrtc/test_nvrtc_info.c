/* gpu/nvrtc_info.h against NVRTC itself: a compile with -Xptxas=-v keeps
 * ptxas's report, whose figures match what the kernels must take: static
 * shared memory as declared, a register cap that forces spills, and a
 * compile error with its log. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "gpu/nvrtc_info.h"

static const char src[] =
    "template <int N> __global__ void tile(float *p) {\n"
    "    __shared__ float s[N * 64];\n"
    "    s[threadIdx.x] = p[threadIdx.x]; __syncthreads(); p[threadIdx.x] = s[N * 64 - 1 - threadIdx.x];\n"
    "}\n"
    "extern \"C\" __global__ void heavy(float *p) {\n"
    "    float v[32];\n"
    "#pragma unroll\n"
    "    for (int i = 0; i < 32; i++) v[i] = p[i * blockDim.x + threadIdx.x];\n"
    "    float acc = 0;\n"
    "#pragma unroll\n"
    "    for (int i = 0; i < 32; i++)\n"
    "#pragma unroll\n"
    "        for (int j = 0; j < 32; j++) acc += v[i] * v[j] * (float)(i ^ j);\n"
    "    p[threadIdx.x] = acc;\n"
    "}\n";

static void compile(const char *const *opts, int n_opts, struct gb_nvrtc_info *info)
{
    char exprs[2][GB_KERNEL_NAME_LEN] = {"tile<4>", "heavy"};
    struct gb_nvrtc_program prog = {.name = "t.cu", .source = src, .n_exprs = 2,
                                    .exprs = (const char (*)[GB_KERNEL_NAME_LEN])exprs};
    if (gb_nvrtc_info(&prog, "sm_90", opts, n_opts, info) != GB_OK)
        fail_msg("%s", gb_error_message());
}

static void test_report(void **state)
{
    (void)state;
    struct gb_nvrtc_info info;
    compile(NULL, 0, &info);
    assert_int_equal(info.n_lowered, 2);
    const struct gb_kernel_res *t = gb_nvrtc_info_find(&info, info.lowered[0]);
    const struct gb_kernel_res *h = gb_nvrtc_info_find(&info, "heavy");
    assert_non_null(t);
    assert_non_null(h);
    assert_int_equal(t->smem, 4 * 64 * 4);
    assert_int_equal(t->barriers, 1);
    assert_true(t->regs > 0 && t->regs <= 255);
    assert_int_equal(t->spill_stores, 0);
    assert_int_equal(h->smem, 0);
    gb_nvrtc_info_free(&info);
}

/* 24 registers (the least ptxas allows on sm_90) cannot hold 32 live
 * values: ptxas spills, and says so. */
static void test_spills(void **state)
{
    (void)state;
    struct gb_nvrtc_info info;
    const char *opts[] = {"--maxrregcount=24"};
    compile(opts, 1, &info);
    const struct gb_kernel_res *h = gb_nvrtc_info_find(&info, "heavy");
    assert_non_null(h);
    assert_true(h->regs <= 24);
    assert_true(h->spill_stores > 0);
    assert_true(h->spill_loads > 0);
    assert_true(h->stack_frame > 0);
    gb_nvrtc_info_free(&info);
}

static void test_compile_error(void **state)
{
    (void)state;
    struct gb_nvrtc_info info;
    struct gb_nvrtc_program prog = {.name = "bad.cu", .source = "__global__ void k() { int x = }\n"};
    assert_int_equal(gb_nvrtc_info(&prog, "sm_90", NULL, 0, &info), GB_ERR_COMPILE);
    assert_non_null(strstr(gb_error_message(), "bad.cu(1): error"));
    assert_non_null(info.log);
    assert_non_null(strstr(info.log, "errors detected in the compilation of \"bad.cu\""));
    assert_int_equal(info.n_res, 0);
    gb_nvrtc_info_free(&info);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_report),
        cmocka_unit_test(test_spills),
        cmocka_unit_test(test_compile_error),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
