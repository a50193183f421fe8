/* fuzz_lpbm.c - libFuzzer target: the breakdown's files. The input is read
 * as an lpbm-model.json (the guard's count of the points it was fitted on)
 * and as the spec the breakdown reads beside a run (gb_lpbm_spec_load). */
#include "fuzz_common.h"

#include "gpubound/lpbm.h"
#include "gpubound/lpbm_input.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    size_t points;
    struct gb_lpbm_spec *spec = NULL;
    (void)gb_lpbm_model_points(fuzz_write("lpbm-model.json", data, size), &points);
    if (gb_lpbm_spec_load(fuzz_write("spec.json", data, size), &spec) == GB_OK)
        gb_lpbm_spec_free(spec);
    return 0;
}
