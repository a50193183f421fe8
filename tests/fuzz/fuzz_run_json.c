/* fuzz_run_json.c - libFuzzer target: the input as a run's run.json (the
 * device section and counts), with an empty results.json. */
#include "fuzz_common.h"

#include "gpubound/results.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    struct gb_run *run = NULL;
    fuzz_write("run.json", data, size);
    fuzz_write("results.json", (const uint8_t *)"[\n]\n", 4);
    if (gb_run_load(fuzz_dir(), &run) == GB_OK)
        gb_run_free(run);
    return 0;
}
