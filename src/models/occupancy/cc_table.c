/* cc_table.c - the limits of each compute capability, for planning and
 * occupancy questions without a GPU.
 *
 * Sources: the CUDA C++ Programming Guide's table of technical
 * specifications per compute capability (threads, blocks, registers and
 * shared memory per SM and per block), and CUDA 13.0's cuda_occupancy.h for
 * what the guide does not tabulate (resident blocks per SM where the two
 * differ, allocation granularities, the driver's per-block shared-memory
 * reservation). The shared-memory sizes are the values the driver reports
 * (CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_MULTIPROCESSOR and
 * ..._PER_BLOCK_OPTIN), which on cc >= 8.0 leave out the 1 KiB the driver
 * reserves per block from the per-block opt-in maximum.
 * Two entries rest on less certain ground (docs/models.md): 12.0's 24
 * resident blocks per SM follow cuda_occupancy.h where the Blackwell tuning
 * guide says 32, and 8.7's 1536 threads per SM follow the guide's table;
 * neither has been checked against a device yet.
 */
#include <stdio.h>
#include <string.h>

#include "gpubound/device.h"

struct cc_limits {
    int major, minor;
    int max_threads_per_sm;
    int max_blocks_per_sm;
    int smem_per_sm;            /* bytes */
    int smem_per_block_optin;   /* bytes */
    int smem_reserved_per_block;
    int smem_alloc_unit;
};

static const struct cc_limits cc_table[] = {
    /* cc     thr/SM blk/SM smem/SM  opt-in  reserved unit */
    {7, 0,   2048, 32,  98304,  98304,  0,    256},  /* Volta GV100 */
    {7, 2,   2048, 32,  98304,  98304,  0,    256},  /* Xavier */
    {7, 5,   1024, 16,  65536,  65536,  0,    256},  /* Turing */
    {8, 0,   2048, 32, 167936, 166912, 1024,  128},  /* A100 */
    {8, 6,   1536, 16, 102400, 101376, 1024,  128},  /* GA10x */
    {8, 7,   1536, 16, 167936, 166912, 1024,  128},  /* Orin */
    {8, 9,   1536, 24, 102400, 101376, 1024,  128},  /* Ada */
    {9, 0,   2048, 32, 233472, 232448, 1024,  128},  /* Hopper */
    {10, 0,  2048, 32, 233472, 232448, 1024,  128},  /* Blackwell B200/B300 class */
    {12, 0,  1536, 24, 102400, 101376, 1024,  128},  /* Blackwell GeForce/RTX PRO */
};

enum gb_status gb_device_from_cc(int cc_major, int cc_minor, struct gb_device_info *info)
{
    const struct cc_limits *c = NULL;
    for (size_t i = 0; i < sizeof cc_table / sizeof cc_table[0]; i++)
        if (cc_table[i].major == cc_major && cc_table[i].minor == cc_minor)
            c = &cc_table[i];
    if (!c) {
        char known[128] = "";
        size_t len = 0;
        for (size_t i = 0; i < sizeof cc_table / sizeof cc_table[0]; i++)
            len += (size_t)snprintf(known + len, sizeof known - len, "%s%d.%d", i ? ", " : "",
                                    cc_table[i].major, cc_table[i].minor);
        return gb_error_set(GB_ERR_USAGE, "compute capability %d.%d is not in the built-in table (%s)",
                            cc_major, cc_minor, known);
    }
    memset(info, 0, sizeof *info);
    info->cc_major = c->major;
    info->cc_minor = c->minor;
    info->warp_size = 32;
    info->max_threads_per_block = 1024;
    info->max_block_dim[0] = 1024;
    info->max_block_dim[1] = 1024;
    info->max_block_dim[2] = 64;
    info->max_grid_dim[0] = 2147483647;
    info->max_grid_dim[1] = 65535;
    info->max_grid_dim[2] = 65535;
    info->max_threads_per_sm = c->max_threads_per_sm;
    info->max_blocks_per_sm = c->max_blocks_per_sm;
    info->regs_per_sm = 65536;
    info->regs_per_block = 65536;
    info->max_regs_per_thread = 255;
    info->reg_alloc_unit = 256;
    info->smem_per_sm = c->smem_per_sm;
    info->smem_per_block = 49152;
    info->smem_per_block_optin = c->smem_per_block_optin;
    info->smem_reserved_per_block = c->smem_reserved_per_block;
    info->smem_alloc_unit = c->smem_alloc_unit;
    return GB_OK;
}
