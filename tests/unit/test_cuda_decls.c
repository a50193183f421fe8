/* test_cuda_decls.c - gpubound's own declarations of the driver and NVRTC
 * (include/gpubound/cuda_decls.h, src/gpu/nvrtc_decls.h, used by a build
 * without the CUDA toolkit's headers) agree with the toolkit's: compiled
 * with <cuda.h> and <nvrtc.h> first and GB_CUDA_DECLS_CHECK, every constant
 * is a static assertion and every prototype a redeclaration, so a wrong
 * value or signature does not compile. At run time: the lists are not
 * empty, and the table of entry points has the same size under both. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>

#include <cuda.h>
#include <nvrtc.h>

#define GB_CUDA_DECLS_CHECK 1
#include "gpubound/cuda_decls.h"
#include "gpu/nvrtc_decls.h"
#undef GB_CUDA_DECLS_CHECK

#include <cmocka.h>

#include "gpubound/gpu.h"

#define GB_COUNT(name, value) +1
static const int gb_n_cu = 0 GB_CU_CONSTANTS(GB_COUNT);
static const int gb_n_nvrtc = 0 GB_NVRTC_CONSTANTS(GB_COUNT);
#undef GB_COUNT

static void test_lists(void **state)
{
    (void)state;
    assert_true(gb_n_cu >= 60);
    assert_int_equal(gb_n_nvrtc, 2);
    /* An enum of the driver is passed as an int (the own declarations' typedefs). */
    assert_int_equal(sizeof(CUdevice_attribute), sizeof(int));
    assert_int_equal(sizeof(CUresult), sizeof(int));
    assert_int_equal(sizeof(CUdeviceptr), sizeof(unsigned long long));
    assert_int_equal(sizeof(CUuuid), 16);
}

/* The prototypes name every entry point of gpu.h's table (a name without
 * one would not compile here), one pointer each. */
#define GB_SIZE(name) +sizeof(__typeof__(&name))
#define GB_ONE(name) +1
static void test_table(void **state)
{
    (void)state;
    size_t n = 0 GB_CUDA_FUNCS(GB_ONE);
    assert_true(n >= 50);
    assert_int_equal(sizeof(struct gb_cuda_api), (size_t)(0 GB_CUDA_FUNCS(GB_SIZE)));
    assert_int_equal(sizeof(struct gb_cuda_api), n * sizeof(void *));
}
#undef GB_SIZE
#undef GB_ONE

int main(void)
{
    const struct CMUnitTest tests[] = {cmocka_unit_test(test_lists), cmocka_unit_test(test_table)};
    return cmocka_run_group_tests(tests, NULL, NULL);
}
