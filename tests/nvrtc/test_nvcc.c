/* The nvcc backend (src/gpu/nvcc.c, run --compiler nvcc): a program with a
 * name expression, a header and -D options compiles to a cubin whose
 * lowered name NVRTC gave, defines reach the kernel (not the runtime's
 * headers), a compile error is one line naming the kernel and nvcc, and
 * the module key differs from NVRTC's for the same program. Skipped (with
 * the reason) where the toolkit has no nvcc. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "gpubound/gpu.h"

static const char kernel_src[] =
    "#include \"scale.h\"\n"
    "template <int K> __global__ void scale(float *y, const float *x, int count)\n"
    "{\n"
    "    int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
    "    if (i < count) y[i] = SCALE(x[i]) * K + n;\n"
    "}\n"
    "template __global__ void scale<3>(float *, const float *, int);\n";
static const char header_src[] = "#define SCALE(v) ((v) * 2.0f)\n";

static int have_nvcc(void)
{
    char ver[32];
    if (gb_nvcc_version(ver, sizeof ver) != GB_OK) {
        printf("# nvcc not found: %s\n", gb_error_message());
        return 0;
    }
    return 1;
}

static void program(struct gb_nvrtc_program *x, const char **hn, const char **hs, char exprs[][GB_KERNEL_NAME_LEN])
{
    hn[0] = "scale.h";
    hs[0] = header_src;
    snprintf(exprs[0], GB_KERNEL_NAME_LEN, "scale<3>");
    *x = (struct gb_nvrtc_program){.name = "scale.cu", .source = kernel_src, .n_headers = 1,
                                   .header_names = hn, .header_sources = hs, .n_exprs = 1,
                                   .exprs = (const char (*)[GB_KERNEL_NAME_LEN])exprs, .user = 1};
}

/* A cubin is an ELF file: its magic, and the lowered name inside it. */
static int elf_holds(const char *cubin, size_t size, const char *name)
{
    if (size < 4 || memcmp(cubin, "\x7f" "ELF", 4) != 0)
        return 0;
    size_t n = strlen(name);
    for (size_t i = 0; i + n <= size; i++)
        if (memcmp(cubin + i, name, n) == 0)
            return 1;
    return 0;
}

static void test_compiles_with_names(void **state)
{
    (void)state;
    if (!have_nvcc())
        skip();
    struct gb_nvrtc_program x;
    const char *hn[1], *hs[1], *opts[] = {"-Dn=7", "-DUNUSED"};
    char exprs[1][GB_KERNEL_NAME_LEN], *cubin = NULL, **lowered = NULL, *log = NULL;
    size_t size = 0;
    program(&x, hn, hs, exprs);
    gb_compiler_set(GB_COMPILER_NVCC);
    enum gb_status st = gb_nvrtc_compile_program(&x, "sm_90", opts, 2, &cubin, &size, &lowered, &log);
    gb_compiler_set(GB_COMPILER_NVRTC);
    if (st != GB_OK)
        printf("# %s\n%s\n", gb_error_message(), log ? log : "");
    assert_int_equal(st, GB_OK);
    assert_non_null(lowered);
    assert_string_equal(lowered[0], "_Z5scaleILi3EEvPfPKfi");
    assert_true(elf_holds(cubin, size, lowered[0]));
    free(lowered[0]);
    free(lowered);
    free(cubin);
    free(log);
}

static void test_error_is_one_line(void **state)
{
    (void)state;
    if (!have_nvcc())
        skip();
    struct gb_nvrtc_program x = {.name = "broken.cu",
                                 .source = "extern \"C\" __global__ void k() { undeclared_thing(); }\n"};
    char *cubin = NULL, *log = NULL;
    size_t size = 0;
    assert_int_equal(gb_nvcc_compile_program(&x, "sm_90", NULL, 0, &cubin, &size, &log), GB_ERR_COMPILE);
    const char *msg = gb_error_message();
    assert_null(strchr(msg, '\n'));
    assert_non_null(strstr(msg, "broken.cu"));
    assert_non_null(strstr(msg, "nvcc"));
    assert_non_null(strstr(msg, "undeclared_thing"));
    assert_non_null(log);
    assert_null(cubin);
    free(log);
}

/* Without the defines the kernel does not compile: they reach it. */
static void test_defines_reach_the_kernel(void **state)
{
    (void)state;
    if (!have_nvcc())
        skip();
    struct gb_nvrtc_program x;
    const char *hn[1], *hs[1];
    char exprs[1][GB_KERNEL_NAME_LEN], *cubin = NULL;
    size_t size = 0;
    program(&x, hn, hs, exprs);
    assert_int_equal(gb_nvcc_compile_program(&x, "sm_90", NULL, 0, &cubin, &size, NULL), GB_ERR_COMPILE);
    assert_non_null(strstr(gb_error_message(), "\"n\""));
}

/* nvcc leaves "#pragma unroll NAME" unexpanded: the define is also a constant. */
static void test_pragma_argument(void **state)
{
    (void)state;
    if (!have_nvcc())
        skip();
    struct gb_nvrtc_program x = {.name = "unrolled.cu", .user = 1,
                                 .source = "extern \"C\" __global__ void k(float *y, int count)\n"
                                           "{\n"
                                           "#pragma unroll unroll\n"
                                           "    for (int i = 0; i < count; i++) y[i] += 1.0f;\n"
                                           "}\n"};
    const char *opts[] = {"-Dunroll=4"};
    char *cubin = NULL;
    size_t size = 0;
    assert_int_equal(gb_nvcc_compile_program(&x, "sm_90", opts, 1, &cubin, &size, NULL), GB_OK);
    assert_true(elf_holds(cubin, size, "k"));
    free(cubin);
}

/* A source that includes the half type's header after an axis named a
 * (a parameter name of that header):
 * the header comes first, so the define does not reach it. */
static void test_narrow_header_first(void **state)
{
    (void)state;
    if (!have_nvcc())
        skip();
    struct gb_nvrtc_program x = {.name = "half.cu", .user = 1,
                                 .source = "#include <cuda_fp16.h>\n"
                                           "extern \"C\" __global__ void k(__half *y) { y[0] = __float2half((float)a); }\n"};
    const char *opts[] = {"-Da=3"};
    char *cubin = NULL;
    size_t size = 0;
    assert_int_equal(gb_nvcc_compile_program(&x, "sm_90", opts, 1, &cubin, &size, NULL), GB_OK);
    free(cubin);
    assert_true(gb_nvcc_take_cpu_s() > 0);
    assert_true(gb_nvcc_take_cpu_s() == 0);
}

static void test_key_differs(void **state)
{
    (void)state;
    if (!have_nvcc())
        skip();
    struct gb_nvrtc_program x;
    const char *hn[1], *hs[1], *opts[] = {"-Dn=7"};
    char exprs[1][GB_KERNEL_NAME_LEN], k1[GB_MODULE_KEY_LEN], k2[GB_MODULE_KEY_LEN], k3[GB_MODULE_KEY_LEN], d[64];
    program(&x, hn, hs, exprs);
    gb_compiler_set(GB_COMPILER_NVRTC);
    assert_int_equal(gb_module_key("sm_90", &x, opts, 1, k1), GB_OK);
    gb_compiler_set(GB_COMPILER_NVCC);
    assert_int_equal(gb_module_key("sm_90", &x, opts, 1, k2), GB_OK);
    assert_int_equal(gb_compiler_describe(d, sizeof d), GB_OK);
    x.user = 0; /* gpubound's own kernels stay NVRTC's */
    assert_int_equal(gb_module_key("sm_90", &x, opts, 1, k3), GB_OK);
    gb_compiler_set(GB_COMPILER_AUTO);
    assert_int_equal(gb_compiler_for(1), GB_COMPILER_NVCC);
    assert_int_equal(gb_compiler_for(0), GB_COMPILER_NVRTC);
    gb_compiler_set(GB_COMPILER_NVRTC);
    assert_int_equal(gb_compiler_for(1), GB_COMPILER_NVRTC);
    assert_string_not_equal(k1, k2);
    assert_string_equal(k1, k3);
    assert_int_equal(strncmp(d, "nvcc ", 5), 0);
    assert_int_equal(gb_compiler_parse("nvcc"), GB_COMPILER_NVCC);
    assert_int_equal(gb_compiler_parse("clang"), -1);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_compiles_with_names),
        cmocka_unit_test(test_error_is_one_line),
        cmocka_unit_test(test_defines_reach_the_kernel),
        cmocka_unit_test(test_pragma_argument),
        cmocka_unit_test(test_narrow_header_first),
        cmocka_unit_test(test_key_differs),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
