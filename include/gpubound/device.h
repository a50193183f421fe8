/* device.h - what gpubound knows about a GPU: its identity and every limit
 * an occupancy calculation or a bandwidth ceiling needs.
 *
 * The struct is plain data: it is filled from the driver on a GPU machine
 * (gb_device_query, gpubound/gpu.h), written into run.json, and read back
 * on machines without a GPU, so the models and reports can use the limits
 * of the device that was measured. What needs no GPU lives here: the
 * limits of each compute capability (src/models/occupancy/cc_table.c).
 */
#ifndef GPUBOUND_DEVICE_H
#define GPUBOUND_DEVICE_H

#include "gpubound/api.h"

#include <stddef.h>
#include <stdint.h>

#include "gpubound/status.h"

struct gb_device_info {
    int ordinal;
    char name[128];
    char uuid[48];              /* "GPU-xxxxxxxx-xxxx-..." */
    char pci_bus_id[32];
    int cc_major, cc_minor;
    int sm_count;
    int warp_size;
    int max_threads_per_block;
    int max_block_dim[3];
    int max_grid_dim[3];
    int max_threads_per_sm;
    int max_blocks_per_sm;
    int regs_per_sm;            /* 32-bit registers */
    int regs_per_block;
    int max_regs_per_thread;    /* 255 on cc >= 7.0 */
    int reg_alloc_unit;         /* registers per warp allocation granule (256) */
    int smem_per_sm;            /* bytes, the largest carveout */
    int smem_per_block;         /* bytes without opt-in (48 KiB) */
    int smem_per_block_optin;   /* bytes with cuFuncSetAttribute opt-in */
    int smem_reserved_per_block;/* bytes the driver reserves per block (1 KiB on cc >= 8.0) */
    int smem_alloc_unit;        /* shared-memory allocation granule in bytes */
    int sm_clock_max_mhz;       /* from the driver's clock-rate attribute */
    int mem_clock_max_mhz;
    int mem_bus_width_bits;
    double mem_peak_gbs;        /* theoretical: 2 * mem clock * bus width / 8 */
    int64_t l2_bytes;
    int64_t total_mem_bytes;
    int ecc_enabled;
    int driver_version;         /* e.g. 13000 */
};

/* Fills the limits of a compute capability from the built-in table, for
 * planning without a GPU (name, uuid, clocks and memory are left empty).
 * Returns GB_ERR_USAGE for a compute capability the table does not know. */
GB_API enum gb_status gb_device_from_cc(int cc_major, int cc_minor, struct gb_device_info *info);

#endif
