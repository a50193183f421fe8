/* occupancy.h - how many blocks of a kernel fit on one SM, and why no more:
 * the calculation cudaOccupancyMaxActiveBlocksPerMultiprocessor does, for
 * compute capability 7.0 and later, from a device's limits and a kernel's
 * resources, without a GPU.
 *
 * The logic is a port of the CUDA toolkit's occupancy calculator
 * (cuda_occupancy.h, CUDA 13.0): registers are allocated per warp in units
 * of reg_alloc_unit (256) and the per-block check rounds the warps up to the
 * four SM sub-partitions; shared memory is allocated per block in units of
 * smem_alloc_unit (256 bytes on 7.x, 128 after) including the driver's
 * per-block reservation (1 KiB on 8.0 and later); the SM's shared memory is
 * the smallest supported L1/shared split ("carveout") that holds the
 * preferred percentage, or, when one block needs more than that, the
 * smallest split that holds one block. Each kernel is assumed to use one
 * block barrier (what the CUDA runtime assumes).
 *
 * Pure computation; thread-safe.
 */
#ifndef GPUBOUND_OCCUPANCY_H
#define GPUBOUND_OCCUPANCY_H

#include "gpubound/api.h"

#include <stddef.h>

#include "gpubound/device.h"
#include "gpubound/status.h"

/* What limits the number of resident blocks (bits; several can bind at once). */
enum gb_occ_limit {
    GB_OCC_LIMIT_NONE = 0,
    GB_OCC_LIMIT_WARPS = 1 << 0,     /* threads (warps) per SM, or the block is too large */
    GB_OCC_LIMIT_REGS = 1 << 1,      /* registers per SM, or per block */
    GB_OCC_LIMIT_SMEM = 1 << 2,      /* shared memory per SM, or per block */
    GB_OCC_LIMIT_BLOCKS = 1 << 3,    /* resident blocks per SM */
    GB_OCC_LIMIT_BARRIERS = 1 << 4,  /* block barriers per SM (cc >= 9.0) */
};

/* Special values of gb_occupancy_input.max_dyn_smem_bytes. */
#define GB_OCC_MAX_DYN_AS_REQUESTED (-1)
#define GB_OCC_MAX_DYN_UNSET (-2)

/* The kernel and launch whose occupancy is asked. */
struct gb_occupancy_input {
    int threads_per_block;    /* >= 1; not necessarily a multiple of the warp size */
    int regs_per_thread;      /* registers per thread as compiled (CU_FUNC_ATTRIBUTE_NUM_REGS), >= 0 */
    int static_smem_bytes;    /* static shared memory (CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES), >= 0 */
    int dyn_smem_bytes;       /* dynamic shared memory per block at launch, >= 0 */
    int max_dyn_smem_bytes;   /* the kernel's CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES
                               * (what cuFuncGetAttribute reads back), or
                               * GB_OCC_MAX_DYN_AS_REQUESTED (-1): equal to dyn_smem_bytes
                               * (opted in for exactly what the launch uses), or
                               * GB_OCC_MAX_DYN_UNSET (-2): never set, the driver's default
                               * dev->smem_per_block - static_smem_bytes. A launch asking more
                               * dynamic shared memory than this fits 0 blocks (limit: shared
                               * memory): the driver refuses to launch it. */
    int carveout_pct;         /* preferred shared-memory carveout in percent of the SM's
                               * maximum (CU_FUNC_ATTRIBUTE_PREFERRED_SHARED_MEMORY_CARVEOUT),
                               * 0..100, or -1 for the default (the maximum) */
};

/* The answer. Per-limit block counts are INT_MAX where a resource is unused. */
struct gb_occupancy_result {
    int active_blocks;        /* resident blocks per SM; 0: the block cannot run */
    int active_warps;         /* active_blocks * warps_per_block */
    int max_warps;            /* max_threads_per_sm / warp_size */
    double occupancy;         /* active_warps / max_warps, 0..1 */
    unsigned limits;          /* every enum gb_occ_limit bit whose limit equals active_blocks */
    enum gb_occ_limit limit;  /* the first binding one in the order warps, registers,
                               * shared memory, blocks, barriers */
    int blocks_by_warps;
    int blocks_by_regs;
    int blocks_by_smem;
    int blocks_by_blocks;
    int blocks_by_barriers;
    int warps_per_block;
    int regs_per_block;       /* registers allocated to one block */
    int smem_per_block;       /* shared memory allocated to one block, bytes, the
                               * driver's reservation included */
    int smem_per_sm;          /* the SM's shared memory under this kernel's carveout, bytes
                               * (0 when the block cannot run) */
};

/* Computes the occupancy of `in` on the device `dev` (from gb_device_query or
 * gb_device_from_cc; the cc, warp size, thread, block, register and shared
 * memory limits must be set; reg_alloc_unit and smem_alloc_unit default to
 * the values of the cc when 0).
 * GB_ERR_USAGE for a negative resource, threads_per_block < 1, a carveout
 * outside -1..100 or incomplete device limits; GB_ERR_UNSUPPORTED for a
 * compute capability below 7.0 or unknown to the calculator. A block too
 * large to run is not an error: active_blocks is 0 and `limit` says why. */
GB_API enum gb_status gb_occupancy_compute(const struct gb_device_info *dev,
                                    const struct gb_occupancy_input *in,
                                    struct gb_occupancy_result *out);

/* "warps", "registers", "shared memory", "blocks", "barriers" or "none"
 * for a single bit. */
GB_API const char *gb_occupancy_limit_name(enum gb_occ_limit limit);

/* The three graphs of the CUDA Occupancy Calculator: one input varied, the
 * others held at `in`. */
enum gb_occupancy_axis {
    GB_OCC_AXIS_THREADS = 0,  /* threads per block: warp_size, 2*warp_size, .. max_threads_per_block */
    GB_OCC_AXIS_REGS,         /* registers per thread: 1 .. max_regs_per_thread */
    GB_OCC_AXIS_SMEM,         /* dynamic shared memory per block: 0, smem_alloc_unit, ..
                               * up to smem_per_block_optin - static_smem_bytes (the last
                               * point exactly that); with max_dyn_smem_bytes
                               * GB_OCC_MAX_DYN_AS_REQUESTED each point is opted in to its
                               * value, otherwise the attribute is held (points above it: 0) */
};

struct gb_occupancy_point {
    int value;                /* the varied input's value */
    int active_blocks;
    int active_warps;
    double occupancy;
    unsigned limits;          /* enum gb_occ_limit bits, as in the result */
};

/* Evaluates gb_occupancy_compute along `axis`. On success *points is a
 * malloc'ed array of *n points (the caller frees it) in increasing value.
 * Errors as gb_occupancy_compute (for the held inputs), GB_ERR_NOMEM. */
GB_API enum gb_status gb_occupancy_sweep(const struct gb_device_info *dev,
                                  const struct gb_occupancy_input *in,
                                  enum gb_occupancy_axis axis,
                                  struct gb_occupancy_point **points, size_t *n);

/* "threads", "regs" or "smem". */
GB_API const char *gb_occupancy_axis_name(enum gb_occupancy_axis axis);

/* ---- achieved warps: what a launch really keeps resident ---- */

/* What bounds the achieved warps per SM below the occupancy limit (bits). */
enum gb_achieved_bound {
    GB_ACHIEVED_LIMIT = 0,        /* every wave full: the occupancy limit itself */
    GB_ACHIEVED_GRID = 1 << 0,    /* the grid is smaller than one full wave */
    GB_ACHIEVED_TAIL = 1 << 1,    /* the last of several waves is partial */
};

/* The achieved warps per SM of a launch. The grid runs in waves of
 * blocks_per_sm * sm_count blocks; a full wave keeps blocks_per_sm *
 * warps_per_block warps on every SM, the last, partial one tail_blocks *
 * warps_per_block / sm_count on average (idle SMs count 0). Each wave is
 * taken to last as long as any other, so the mean over the launch is
 *     (full_waves * limit + tail_warps_per_sm) / (full_waves + (tail > 0))
 * the quantity sm__warps_active.avg per elapsed cycle measures. */
struct gb_occupancy_achieved {
    double warps_per_sm;          /* the mean over the launch */
    int limit_warps;              /* blocks_per_sm * warps_per_block */
    long full_waves;
    long tail_blocks;             /* blocks of the partial last wave (0: none) */
    double tail_warps_per_sm;     /* its warps per SM, averaged over every SM */
    unsigned bound;               /* enum gb_achieved_bound bits */
};

/* The achieved warps per SM of `grid_blocks` blocks of `warps_per_block`
 * warps with at most `blocks_per_sm` resident per SM (the occupancy
 * calculator's active_blocks) on `sm_count` SMs. GB_ERR_USAGE unless every
 * argument is >= 1. Pure; thread-safe. */
GB_API enum gb_status gb_occupancy_achieved(long grid_blocks, int warps_per_block, int blocks_per_sm,
                                            int sm_count, struct gb_occupancy_achieved *out);

#endif
