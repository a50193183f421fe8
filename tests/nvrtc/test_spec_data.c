/* The spec benches' data kernels (kernels/spec_data.cu: the generator and
 * the comparison, with kernels/spec_data.h pasted in) compile for every
 * architecture gpubound supports, and the cubin holds both entry points
 * under the names the host looks up (src/suites/spec_args.c). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "gpubound/gpu.h"
#include "gpubound/measure.h"

static void test_compiles_everywhere(void **state)
{
    (void)state;
    static const char *const archs[] = {"sm_80", "sm_90", "sm_100"};
    static const char *const names[] = {"gb_spec_fill", "gb_spec_compare"};
    const char *src = gb_kernel_source("spec_data.cu");
    assert_non_null(src);
    /* the header is pasted in: one string for NVRTC */
    assert_null(strstr(src, "#include \"spec_data.h\""));
    assert_non_null(strstr(src, "gb_sd_match"));
    for (int a = 0; a < 3; a++) {
        char *cubin = NULL;
        size_t size = 0;
        if (gb_nvrtc_compile("spec_data.cu", src, archs[a], NULL, 0, &cubin, &size) != GB_OK)
            fail_msg("spec_data.cu for %s: %s", archs[a], gb_error_message());
        for (int k = 0; k < 2; k++)
            if (!memmem(cubin, size, names[k], strlen(names[k]) + 1))
                fail_msg("spec_data.cu for %s: no entry point %s", archs[a], names[k]);
        free(cubin);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_compiles_everywhere),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
