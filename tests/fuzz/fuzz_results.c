/* fuzz_results.c - libFuzzer target: the input as a run's results.json,
 * beside a valid run.json; the run is loaded (range and consistency
 * checks) and, when it loads, summarized as the report would. */
#include "fuzz_common.h"

#include "gpubound/report.h"
#include "gpubound/results.h"

static const char RUN_JSON[] =
    "{\"format\":\"gpubound-run/1\",\"tool\":{\"name\":\"gpubound\",\"version\":\"0.1.0\"},"
    "\"started_utc\":\"2026-11-21T12:00:00Z\",\"complete\":true,\"points_ok\":2,\"points_failed\":0,"
    "\"device\":{\"name\":\"GPU\",\"compute_capability\":\"9.0\",\"sm_count\":132,\"warp_size\":32,"
    "\"max_threads_per_block\":1024,\"max_threads_per_sm\":2048,\"max_blocks_per_sm\":32,"
    "\"mem_peak_gbs\":4800.0}}\n";

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    struct gb_run *run = NULL;
    fuzz_write("run.json", (const uint8_t *)RUN_JSON, sizeof RUN_JSON - 1);
    fuzz_write("results.json", data, size);
    if (gb_run_load(fuzz_dir(), &run) == GB_OK) {
        struct gb_table *t = NULL;
        if (gb_report_summary_table(run, NULL, &t) == GB_OK)
            gb_table_free(t);
        gb_run_free(run);
    }
    return 0;
}
