/* occupancy.c - the occupancy calculation of CUDA's cuda_occupancy.h
 * (CUDA 13.0), ported to C for compute capability 7.0 and later.
 *
 * Each step below names the function of cuda_occupancy.h it follows. What
 * that header supports and this port leaves out: partitioned global caching
 * (cc 5.2 and 6.x only), the cache-config preference of Kepler, and
 * "virtual resources" (0 for ordinary kernels).
 */
#include <limits.h>
#include <stdlib.h>

#include "gpubound/occupancy.h"

/* cudaOccSubPartitionsPerMultiprocessor: 4 on every cc >= 7.0. */
#define SUB_PARTITIONS 4
/* cudaOccRegAllocationMaxPerThread: 256 on cc >= 7.0 (the compiler's own
 * limit is 255). */
#define HW_MAX_REGS_PER_THREAD 256

static int min_int(int a, int b)
{
    return a < b ? a : b;
}

static long round_up(long x, long unit)
{
    return (x + unit - 1) / unit * unit;
}

/* The L1/shared splits a cc supports, in KiB, ascending
 * (cudaOccAlignUpShmemSizeVoltaPlus). NULL for a cc the header does not know. */
static const int *smem_configs(int major, int minor, int *n)
{
    static const int turing[] = {32, 64};
    static const int volta[] = {0, 8, 16, 32, 64, 96};
    static const int ga100[] = {0, 8, 16, 32, 64, 100, 132, 164};
    static const int ga10x[] = {0, 8, 16, 32, 64, 100};
    static const int hopper[] = {0, 8, 16, 32, 64, 100, 132, 164, 196, 228};
#define GB_CONFIGS(a) (*n = (int)(sizeof(a) / sizeof(a)[0]), (a))
    switch (major) {
    case 7:
        return minor == 5 ? GB_CONFIGS(turing) : GB_CONFIGS(volta);
    case 8:
        return minor == 0 || minor == 7 ? GB_CONFIGS(ga100) : GB_CONFIGS(ga10x);
    case 9:
        return GB_CONFIGS(hopper);
    case 10:
    case 11:
        if (minor == 0 || minor == 1 || minor == 3)
            return GB_CONFIGS(hopper);
        return NULL;
    case 12:
        if (minor == 0 || minor == 1)
            return GB_CONFIGS(ga10x);
        return NULL;
    default:
        return NULL;
    }
#undef GB_CONFIGS
}

/* The smallest supported split holding `bytes`; -1 when none does. */
static long align_up_smem(const int *configs, int n, long bytes)
{
    for (int i = 0; i < n; i++)
        if (bytes <= (long)configs[i] * 1024)
            return (long)configs[i] * 1024;
    return -1;
}

/* cudaOccMaxBlocksPerMultiprocessor, used when the device info lacks it. */
static int default_max_blocks(int major, int minor)
{
    switch (major) {
    case 7:
        return minor == 5 ? 16 : 32;
    case 8:
        return minor == 0 ? 32 : minor == 9 ? 24 : 16;
    case 10:
        return minor == 1 ? 24 : 32;
    case 11:
        return minor == 0 ? 24 : 32;
    case 12:
        return 24;
    default:
        return 32;
    }
}

/* cudaOccMaxBlocksPerSMBlockBarrierLimit with one barrier per block. */
static int barrier_limit(int major, int minor, int blocks_limit)
{
    switch (major) {
    case 8:
        return minor == 0 ? 2 * blocks_limit : blocks_limit;
    case 10:
        return minor == 1 ? blocks_limit : 2 * blocks_limit;
    case 11:
        return minor == 0 ? blocks_limit : 2 * blocks_limit;
    case 12:
        return blocks_limit;
    default:
        return 2 * blocks_limit;
    }
}

const char *gb_occupancy_limit_name(enum gb_occ_limit limit)
{
    switch (limit) {
    case GB_OCC_LIMIT_WARPS: return "warps";
    case GB_OCC_LIMIT_REGS: return "registers";
    case GB_OCC_LIMIT_SMEM: return "shared memory";
    case GB_OCC_LIMIT_BLOCKS: return "blocks";
    case GB_OCC_LIMIT_BARRIERS: return "barriers";
    case GB_OCC_LIMIT_NONE: break;
    }
    return "none";
}

const char *gb_occupancy_axis_name(enum gb_occupancy_axis axis)
{
    switch (axis) {
    case GB_OCC_AXIS_THREADS: return "threads";
    case GB_OCC_AXIS_REGS: return "regs";
    case GB_OCC_AXIS_SMEM: return "smem";
    }
    return "?";
}

static enum gb_status check_device(const struct gb_device_info *d)
{
    if (d->cc_major < 7)
        return gb_error_set(GB_ERR_UNSUPPORTED,
                            "occupancy: compute capability %d.%d is below 7.0, which the calculator "
                            "does not cover", d->cc_major, d->cc_minor);
    int n;
    if (!smem_configs(d->cc_major, d->cc_minor, &n))
        return gb_error_set(GB_ERR_UNSUPPORTED,
                            "occupancy: compute capability %d.%d is unknown to the calculator",
                            d->cc_major, d->cc_minor);
    if (d->warp_size <= 0 || d->max_threads_per_block <= 0 || d->max_threads_per_sm <= 0 ||
        d->regs_per_block <= 0 || d->regs_per_sm <= 0 || d->smem_per_block <= 0 ||
        d->smem_per_sm <= 0 || d->smem_reserved_per_block < 0 || d->smem_per_block_optin < 0)
        return gb_error_set(GB_ERR_USAGE, "occupancy: the device's limits are incomplete");
    return GB_OK;
}

static enum gb_status check_input(const struct gb_occupancy_input *in)
{
    if (in->threads_per_block < 1)
        return gb_error_set(GB_ERR_USAGE, "occupancy: a block needs at least one thread");
    if (in->regs_per_thread < 0 || in->static_smem_bytes < 0 || in->dyn_smem_bytes < 0 ||
        in->max_dyn_smem_bytes < GB_OCC_MAX_DYN_UNSET)
        return gb_error_set(GB_ERR_USAGE, "occupancy: registers and shared memory cannot be negative");
    if (in->carveout_pct < -1 || in->carveout_pct > 100)
        return gb_error_set(GB_ERR_USAGE,
                            "occupancy: carveout %d%% is not -1 (default) or 0..100", in->carveout_pct);
    return GB_OK;
}

/* cudaOccMaxBlocksPerSMRegsLimit; sets out->regs_per_block. */
static int blocks_by_regs(const struct gb_device_info *dev, const struct gb_occupancy_input *in,
                          int warps_per_block, struct gb_occupancy_result *out)
{
    const int warp = dev->warp_size;
    const int reg_unit = dev->reg_alloc_unit > 0 ? dev->reg_alloc_unit : 256;
    long regs_per_warp = round_up((long)in->regs_per_thread * warp, reg_unit);
    long regs_per_block = regs_per_warp * warps_per_block;
    /* The hardware's per-block check assumes every sub-partition gets the
     * same number of warps. */
    long regs_assumed = regs_per_warp * round_up(warps_per_block, SUB_PARTITIONS);
    out->regs_per_block = (int)regs_per_block;
    if (dev->regs_per_block < regs_assumed || dev->regs_per_block < regs_per_block ||
        in->regs_per_thread > HW_MAX_REGS_PER_THREAD)
        return 0;
    if (regs_per_warp > 0) {
        int warps_per_sub = (int)((dev->regs_per_sm / SUB_PARTITIONS) / regs_per_warp);
        return warps_per_sub * SUB_PARTITIONS / warps_per_block;
    }
    return INT_MAX;
}

/* cudaOccMaxBlocksPerSMSmemLimit, with the per-kernel opt-in
 * (FUNC_SHMEM_LIMIT_OPTIN) that the runtime's attributes carry: *lim and
 * the shared memory per SM of the split used (*smem_sm); sets
 * out->smem_per_block. GB_ERR_UNSUPPORTED when no split fits. */
static enum gb_status blocks_by_smem(const struct gb_device_info *dev,
                                     const struct gb_occupancy_input *in, int *lim, long *smem_sm,
                                     struct gb_occupancy_result *out)
{
    const int major = dev->cc_major, minor = dev->cc_minor;
    int n_configs = 0;
    const int *configs = smem_configs(major, minor, &n_configs);
    const int smem_unit = dev->smem_alloc_unit > 0 ? dev->smem_alloc_unit : (major <= 7 ? 256 : 128);
    long max_dyn = in->max_dyn_smem_bytes;
    long dflt = dev->smem_per_block > in->static_smem_bytes ? (long)dev->smem_per_block - in->static_smem_bytes : 0;
    if (max_dyn == GB_OCC_MAX_DYN_AS_REQUESTED)
        max_dyn = in->dyn_smem_bytes;
    else if (max_dyn < dflt)
        /* The attribute opts in above the default; set below it, it does not
         * lower the default (the driver's answers: data/h200/occupancy-2026-11-23). */
        max_dyn = dflt;
    long static_total = (long)in->static_smem_bytes + dev->smem_reserved_per_block;
    long alloc = round_up(static_total + in->dyn_smem_bytes, smem_unit);
    long max_usage = static_total + max_dyn;
    long limit_per_block = max_usage > dev->smem_per_block ? dev->smem_per_block_optin
                                                           : dev->smem_per_block;
    if (major >= 8)
        limit_per_block += dev->smem_reserved_per_block;
    /* cudaOccSMemPreferenceVoltaPlus: the preferred split. */
    long pref = in->carveout_pct < 0 ? (long)dev->smem_per_sm
                                     : (long)in->carveout_pct * dev->smem_per_sm / 100;
    pref = align_up_smem(configs, n_configs, pref);
    *smem_sm = 0;
    if (pref < 0)
        return gb_error_set(GB_ERR_UNSUPPORTED,
                            "occupancy: %d bytes of shared memory per SM is more than "
                            "compute capability %d.%d supports",
                            dev->smem_per_sm, major, minor);
    out->smem_per_block = (int)alloc;
    if (in->dyn_smem_bytes > max_dyn || alloc > limit_per_block) {
        *lim = 0;
        return GB_OK;
    }
    if (pref >= alloc) {
        *smem_sm = pref;
    } else {
        /* The preference is ignored when one block needs more: the
         * smallest split that holds one block is used. */
        *smem_sm = align_up_smem(configs, n_configs, alloc);
        if (*smem_sm < 0)
            return gb_error_set(GB_ERR_UNSUPPORTED,
                                "occupancy: a block's %ld bytes of shared memory exceed "
                                "every split compute capability %d.%d supports",
                                alloc, major, minor);
    }
    *lim = alloc > 0 ? (int)(*smem_sm / alloc) : INT_MAX;
    return GB_OK;
}

/* The resident blocks: the least of the limits, which of them bind, and
 * (cc >= 9.0) the barriers' limit; fills the rest of `out`. */
static void combine_limits(const struct gb_device_info *dev, int warps_per_block, long smem_sm,
                           struct gb_occupancy_result *out)
{
    const int lim_warps = out->blocks_by_warps, lim_regs = out->blocks_by_regs,
              lim_smem = out->blocks_by_smem, lim_blocks = out->blocks_by_blocks;
    int blocks = min_int(lim_regs, min_int(lim_smem, min_int(lim_warps, lim_blocks)));
    unsigned limits = 0;
    if (blocks == lim_warps)
        limits |= GB_OCC_LIMIT_WARPS;
    if (blocks == lim_regs)
        limits |= GB_OCC_LIMIT_REGS;
    if (blocks == lim_smem)
        limits |= GB_OCC_LIMIT_SMEM;
    if (blocks == lim_blocks)
        limits |= GB_OCC_LIMIT_BLOCKS;
    int lim_bars = INT_MAX;
    if (dev->cc_major >= 9) {
        lim_bars = barrier_limit(dev->cc_major, dev->cc_minor, lim_blocks);
        blocks = min_int(blocks, lim_bars);
        if (blocks == lim_bars)
            limits |= GB_OCC_LIMIT_BARRIERS;
    }
    out->active_blocks = blocks;
    out->warps_per_block = warps_per_block;
    out->active_warps = blocks * warps_per_block;
    out->max_warps = dev->max_threads_per_sm / dev->warp_size;
    out->occupancy = out->max_warps > 0 ? (double)out->active_warps / out->max_warps : 0.0;
    out->limits = limits;
    out->limit = GB_OCC_LIMIT_NONE;
    for (unsigned bit = 1; bit <= GB_OCC_LIMIT_BARRIERS; bit <<= 1) {
        if (limits & bit) {
            out->limit = (enum gb_occ_limit)bit;
            break;
        }
    }
    out->blocks_by_barriers = lim_bars;
    out->smem_per_sm = blocks > 0 ? (int)smem_sm : 0;
}

enum gb_status gb_occupancy_compute(const struct gb_device_info *dev,
                                    const struct gb_occupancy_input *in,
                                    struct gb_occupancy_result *out)
{
    enum gb_status st;
    long smem_sm = 0;
    int lim_smem = 0;

    *out = (struct gb_occupancy_result){0};
    if ((st = check_device(dev)) != GB_OK || (st = check_input(in)) != GB_OK)
        return st;
    const int warp = dev->warp_size;
    const int warps_per_block = (in->threads_per_block + warp - 1) / warp;
    const int lim_regs = blocks_by_regs(dev, in, warps_per_block, out);
    /* cudaOccMaxBlocksPerSMWarpsLimit. */
    const int lim_warps = in->threads_per_block > dev->max_threads_per_block
                              ? 0
                              : (dev->max_threads_per_sm / warp) / warps_per_block;
    /* cudaOccMaxBlocksPerMultiprocessor. */
    const int lim_blocks = dev->max_blocks_per_sm > 0 ? dev->max_blocks_per_sm
                                                      : default_max_blocks(dev->cc_major, dev->cc_minor);
    if ((st = blocks_by_smem(dev, in, &lim_smem, &smem_sm, out)) != GB_OK)
        return st;
    out->blocks_by_warps = lim_warps;
    out->blocks_by_regs = lim_regs;
    out->blocks_by_smem = lim_smem;
    out->blocks_by_blocks = lim_blocks;
    combine_limits(dev, warps_per_block, smem_sm, out);
    return GB_OK;
}

enum gb_status gb_occupancy_sweep(const struct gb_device_info *dev,
                                  const struct gb_occupancy_input *in,
                                  enum gb_occupancy_axis axis,
                                  struct gb_occupancy_point **points, size_t *n)
{
    enum gb_status st;
    struct gb_occupancy_result r;
    struct gb_occupancy_point *pts = NULL;
    size_t count = 0, cap;
    int lo, hi, step;

    *points = NULL;
    *n = 0;
    /* The held inputs must be valid on their own. */
    if ((st = gb_occupancy_compute(dev, in, &r)) != GB_OK)
        return st;
    switch (axis) {
    case GB_OCC_AXIS_THREADS:
        lo = step = dev->warp_size;
        hi = dev->max_threads_per_block;
        break;
    case GB_OCC_AXIS_REGS:
        lo = step = 1;
        hi = dev->max_regs_per_thread > 0 ? dev->max_regs_per_thread : 255;
        break;
    case GB_OCC_AXIS_SMEM:
        lo = 0;
        step = dev->smem_alloc_unit > 0 ? dev->smem_alloc_unit : (dev->cc_major <= 7 ? 256 : 128);
        hi = (dev->smem_per_block_optin > dev->smem_per_block ? dev->smem_per_block_optin
                                                               : dev->smem_per_block) -
             in->static_smem_bytes;
        if (hi < 0)
            hi = 0;
        break;
    default:
        return gb_error_set(GB_ERR_USAGE, "occupancy: unknown sweep axis %d", (int)axis);
    }
    cap = (size_t)((hi - lo) / step + 2);
    pts = malloc(cap * sizeof *pts);
    if (!pts)
        return gb_error_set(GB_ERR_NOMEM, "occupancy: out of memory for %zu points", cap);
    for (long v = lo; v <= hi; v += step) {
        struct gb_occupancy_input q = *in;
        int value = (int)v;
        switch (axis) {
        case GB_OCC_AXIS_THREADS: q.threads_per_block = value; break;
        case GB_OCC_AXIS_REGS: q.regs_per_thread = value; break;
        case GB_OCC_AXIS_SMEM: q.dyn_smem_bytes = value; break;
        }
        if ((st = gb_occupancy_compute(dev, &q, &r)) != GB_OK)
            goto out;
        pts[count++] = (struct gb_occupancy_point){value, r.active_blocks, r.active_warps,
                                                   r.occupancy, r.limits};
        /* The last shared-memory point is the exact maximum, even when it is
         * not a multiple of the allocation unit. */
        if (axis == GB_OCC_AXIS_SMEM && v < hi && v + step > hi) {
            q.dyn_smem_bytes = hi;
            if ((st = gb_occupancy_compute(dev, &q, &r)) != GB_OK)
                goto out;
            pts[count++] = (struct gb_occupancy_point){hi, r.active_blocks, r.active_warps,
                                                       r.occupancy, r.limits};
        }
    }
    *points = pts;
    *n = count;
    pts = NULL;
out:
    free(pts);
    return st;
}
