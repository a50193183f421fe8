/* fuzz_ncu.c - libFuzzer target: the input as an Nsight Compute CSV
 * export (raw or details page); every launch's shape is read. */
#include "fuzz_common.h"

#include "gpubound/ncu.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    struct gb_ncu_report *r = NULL;
    const char *path = fuzz_write("export.csv", data, size);
    if (gb_ncu_load(path, &r) != GB_OK)
        return 0;
    for (size_t i = 0; i < r->n_launches; i++) {
        (void)gb_ncu_dim_product(r->launches[i].block);
        (void)gb_ncu_dim_product(r->launches[i].grid);
        (void)gb_ncu_value(&r->launches[i], "gpu__time_duration.sum", 0);
    }
    gb_ncu_free(r);
    return 0;
}
