/* fuzz_model.c - libFuzzer target: the input as a CampProf model file; a
 * model that loads predicts a small kernel over the warps its device
 * allows (the int arithmetic on the device limits). */
#include "fuzz_common.h"

#include "gpubound/campprof.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static struct gb_camp_model m;
    const char *path = fuzz_write("model.json", data, size);
    if (gb_camp_model_load(path, &m) != GB_OK)
        return 0;
    struct gb_camp_counts c;
    memset(&c, 0, sizeof c);
    c.ld[gb_camp_width_class(4)] = 4096;
    c.st[gb_camp_width_class(4)] = 4096;
    int warps[64];
    struct gb_camp_row rows[64];
    size_t n = 0;
    double degree;
    for (int w = 1; w <= 64; w++)
        warps[n++] = w;
    (void)gb_camp_predict(&m, &c, warps, n, 8, 1e5, rows, &degree);
    if (m.has_device) {
        static int cw[8192]; /* max_threads_per_sm / warp_size, at most 8192 by the ranges */
        struct gb_camp_config cfg = {256, 32, 0, 1024};
        size_t ncw = 0;
        int cfgw = 0;
        (void)gb_camp_allowed_warps(&m.device, &cfg, cw, &ncw, &cfgw);
    }
    return 0;
}
