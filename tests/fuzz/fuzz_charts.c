/* fuzz_charts.c - libFuzzer target: the input as a run's charts.json (the
 * chart specs stored with each run). */
#include "fuzz_common.h"

#include "gpubound/chart_spec.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    struct gb_chart_book book;
    int found = 0;
    fuzz_write("charts.json", data, size);
    gb_chart_book_init(&book);
    (void)gb_chart_book_load(fuzz_dir(), &book, &found);
    gb_chart_book_release(&book);
    return 0;
}
