/* fuzz_results_gz.c - libFuzzer target: the input as results.json.gz (the
 * compressed form src/results/open.c reads), beside a valid run.json. */
#include "fuzz_common.h"

#include "gpubound/results.h"

static const char RUN_JSON[] =
    "{\"tool\":{\"version\":\"0.1.0\"},\"started_utc\":\"2026-11-21T12:00:00Z\",\"complete\":false}\n";

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    struct gb_run *run = NULL;
    fuzz_write("run.json", (const uint8_t *)RUN_JSON, sizeof RUN_JSON - 1);
    fuzz_remove("results.json");
    fuzz_write("results.json.gz", data, size);
    if (gb_run_load(fuzz_dir(), &run) == GB_OK)
        gb_run_free(run);
    return 0;
}
