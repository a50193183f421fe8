/* occupancy_truth.h - the kernel variants and launch inputs that
 * `gpubound occupancy --record-truth` asks the driver about. Shared with the
 * nvrtc test tier, which compiles every variant for several architectures.
 * Include only where every table is used. */
#ifndef GB_OCCUPANCY_TRUTH_H
#define GB_OCCUPANCY_TRUTH_H

#include <stddef.h>
#include <stdio.h>

#define GB_TRUTH_N(a) (sizeof(a) / sizeof(a)[0])

/* Register pressure: NACC accumulators of kernels/occupancy.cu, capped with
 * --maxrregcount (ptxas raises caps below its minimum, 24 on sm_90). */
static const struct {
    int nacc, maxrreg;
} gb_truth_regs[] = {
    {1, 255},   {8, 255},   {32, 16},   {48, 32},   {49, 33},   {53, 37},   {56, 40},
    {64, 48},   {72, 56},   {80, 64},   {88, 72},   {96, 80},   {112, 96},  {120, 104},
    {144, 128}, {184, 168}, {216, 200}, {248, 232}, {264, 255},
};

/* Static shared memory (-DSMEM_BYTES); each register variant is compiled
 * with two of these, gb_truth_static_pick(variant, 0 or 1). */
static const int gb_truth_static[] = {0, 1, 100, 1000, 4096, 12288, 24000, 40000, 48128, 49152};

/* Launch-time inputs, varied on every compiled variant. */
static const int gb_truth_threads[] = {1,   32,  33,  64,  96,  100, 128, 160, 192,
                                       256, 288, 384, 512, 640, 768, 1000, 1024};
static const int gb_truth_carveout[] = {-1, 0, 25, 50, 100};

/* Index into gb_truth_static of register variant `ri`'s pick `k` (0 or 1);
 * -1 when pick 1 would repeat pick 0. */
static inline int gb_truth_static_pick(size_t ri, int k)
{
    size_t a = ri % GB_TRUTH_N(gb_truth_static);
    size_t b = (3 * ri + 5) % GB_TRUTH_N(gb_truth_static);
    if (k == 0)
        return (int)a;
    return b == a ? -1 : (int)b;
}

/* The NVRTC options of register variant `ri` with static pick `pick`
 * (an index into gb_truth_static): three strings written into `o`. */
static inline void gb_truth_variant_opts(size_t ri, int pick, char o[3][32])
{
    snprintf(o[0], 32, "-DNACC=%d", gb_truth_regs[ri].nacc);
    snprintf(o[1], 32, "-DSMEM_BYTES=%d", gb_truth_static[pick]);
    snprintf(o[2], 32, "--maxrregcount=%d", gb_truth_regs[ri].maxrreg);
}

#endif
