/* achieved.c - the warps per SM a launch keeps resident, from its grid and
 * the occupancy limit (include/gpubound/occupancy.h). */
#include "gpubound/occupancy.h"

#include <string.h>

#include "gpubound/status.h"

enum gb_status gb_occupancy_achieved(long grid_blocks, int warps_per_block, int blocks_per_sm,
                                     int sm_count, struct gb_occupancy_achieved *out)
{
    memset(out, 0, sizeof *out);
    if (grid_blocks < 1 || warps_per_block < 1 || blocks_per_sm < 1 || sm_count < 1)
        return gb_error_set(GB_ERR_USAGE, "achieved warps need a grid, warps per block, resident "
                            "blocks per SM and SMs of at least 1 (got %ld, %d, %d, %d)", grid_blocks,
                            warps_per_block, blocks_per_sm, sm_count);
    const long wave = (long)blocks_per_sm * sm_count;
    out->limit_warps = blocks_per_sm * warps_per_block;
    out->full_waves = grid_blocks / wave;
    out->tail_blocks = grid_blocks % wave;
    out->tail_warps_per_sm = (double)out->tail_blocks * warps_per_block / sm_count;
    double waves = (double)out->full_waves + (out->tail_blocks > 0);
    out->warps_per_sm = ((double)out->full_waves * out->limit_warps + out->tail_warps_per_sm) / waves;
    if (out->full_waves == 0)
        out->bound |= GB_ACHIEVED_GRID;
    else if (out->tail_blocks > 0)
        out->bound |= GB_ACHIEVED_TAIL;
    return GB_OK;
}
