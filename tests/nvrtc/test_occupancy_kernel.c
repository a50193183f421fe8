/* Every variant of kernels/occupancy.cu that `gpubound occupancy
 * --record-truth` compiles builds for sm_80, sm_90 and sm_100, so that a
 * recording on any of them cannot stop at a compile error. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <cmocka.h>

#include "measure/occupancy_truth.h"
#include "gpubound/gpu.h"

static void test_every_variant(void **state)
{
    (void)state;
    static const char *const archs[] = {"sm_80", "sm_90", "sm_100"};
    const char *src = gb_kernel_source("occupancy.cu");
    int compiled = 0;
    assert_non_null(src);
    /* Every launch-time table is non-empty (the recorder loops over them). */
    assert_true(GB_TRUTH_N(gb_truth_threads) > 0 && GB_TRUTH_N(gb_truth_carveout) > 0);
    for (size_t ri = 0; ri < GB_TRUTH_N(gb_truth_regs); ri++) {
        for (int k = 0; k < 2; k++) {
            int pick = gb_truth_static_pick(ri, k);
            if (pick < 0)
                continue;
            char o[3][32];
            gb_truth_variant_opts(ri, pick, o);
            const char *opts[] = {o[0], o[1], o[2]};
            for (int a = 0; a < 3; a++) {
                char *cubin = NULL;
                size_t size = 0;
                enum gb_status st = gb_nvrtc_compile("occupancy.cu", src, archs[a], opts, 3, &cubin, &size);
                if (st != GB_OK)
                    fail_msg("occupancy.cu %s %s %s for %s: %s", o[0], o[1], o[2], archs[a], gb_error_message());
                assert_true(size > 0);
                free(cubin);
                compiled++;
            }
        }
    }
    /* A few dozen variants per architecture, as the recorder promises. */
    assert_true(compiled >= 3 * 24 && compiled <= 3 * 48);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_every_variant),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
