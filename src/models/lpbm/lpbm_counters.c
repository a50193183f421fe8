/* lpbm_counters.c - the measured counts the counters form of the breakdown
 * reads (gpubound/lpbm_input.h): the metric names, spelled once, read from
 * each record's counters (run --counters). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gpubound/lpbm_input.h"
#include "gpubound/results.h"

/* Nsight Compute's names for what the counters form needs. */
#define GB_LPBM_M_INST "smsp__inst_executed.sum"
#define GB_LPBM_M_GLD "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum"
#define GB_LPBM_M_GST "l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum"
#define GB_LPBM_M_SHARED_SUM "l1tex__data_pipe_lsu_wavefronts_mem_shared.sum"
#define GB_LPBM_M_SHARED "l1tex__data_pipe_lsu_wavefronts_mem_shared"
/* and what the resources form adds */
#define GB_LPBM_M_DRAM_RD "dram__sectors_read.sum"
#define GB_LPBM_M_DRAM_WR "dram__sectors_write.sum"
#define GB_LPBM_M_L2 "lts__t_sectors.sum"
#define GB_LPBM_M_L2_WR "lts__t_sectors_op_write.sum"
#define GB_LPBM_M_L2_MAX "lts__t_sectors.max"
#define GB_LPBM_M_L2_AVG "lts__t_sectors.avg"
#define GB_LPBM_M_GLD_INST "smsp__inst_executed_op_global_ld.sum"
#define GB_LPBM_M_PIPE "smsp__inst_executed_pipe_"

int gb_lpbm_counters_fill(struct gb_lpbm_point *p, const struct gb_record *r, size_t index,
                          gb_lpbm_counter_fn fn, void *ctx)
{
    double inst = fn(ctx, r, index, GB_LPBM_M_INST);
    double ld = fn(ctx, r, index, GB_LPBM_M_GLD), st = fn(ctx, r, index, GB_LPBM_M_GST);
    double sh = fn(ctx, r, index, GB_LPBM_M_SHARED_SUM);
    if (!isfinite(sh)) /* run --counters' default set has loads and stores apart */
        sh = fn(ctx, r, index, GB_LPBM_M_SHARED "_op_ld.sum") + fn(ctx, r, index, GB_LPBM_M_SHARED "_op_st.sum");
    p->c_inst = inst;
    p->c_global_sectors = isfinite(ld) && isfinite(st) ? ld + st : NAN;
    p->c_shared_wavefronts = sh;
    p->c_dram_sectors = fn(ctx, r, index, GB_LPBM_M_DRAM_RD) + fn(ctx, r, index, GB_LPBM_M_DRAM_WR);
    p->c_l2_sectors = fn(ctx, r, index, GB_LPBM_M_L2);
    p->c_l2_write_sectors = fn(ctx, r, index, GB_LPBM_M_L2_WR);
    double l2_max = fn(ctx, r, index, GB_LPBM_M_L2_MAX), l2_avg = fn(ctx, r, index, GB_LPBM_M_L2_AVG);
    p->c_l2_slice_imbalance = isfinite(l2_max) && l2_avg > 0 ? l2_max / l2_avg : NAN;
    p->c_global_ld_inst = fn(ctx, r, index, GB_LPBM_M_GLD_INST);
    /* Either may be absent: the H100 and H200 profile the reductions' count
     * but refuse smsp__inst_executed_op_global_atom.sum (docs/counters.md). */
    double red = fn(ctx, r, index, "smsp__inst_executed_op_global_red.sum");
    double atom = fn(ctx, r, index, "smsp__inst_executed_op_global_atom.sum");
    p->c_global_atom = isfinite(red) || isfinite(atom) ? (isfinite(red) ? red : 0) + (isfinite(atom) ? atom : 0) : NAN;
    p->c_shared_atom_wavefronts = fn(ctx, r, index, GB_LPBM_M_SHARED "_op_atom.sum");
    p->c_loads_in_flight = fn(ctx, r, index, GB_LPBM_LOADS_IN_FLIGHT);
    static const char *const pipe[GB_LPBM_PIPES] = {"fma", "alu", "fp64", "xu", "lsu"};
    for (int k = 0; k < GB_LPBM_PIPES; k++) {
        char name[96];
        snprintf(name, sizeof name, GB_LPBM_M_PIPE "%s.sum", pipe[k]);
        p->c_pipe[k] = fn(ctx, r, index, name);
    }
    return isfinite(p->c_inst) && isfinite(p->c_global_sectors) && isfinite(sh);
}

double gb_lpbm_counters_get(void *ctx, const struct gb_record *r, size_t index,
                            const char *metric)
{
    (void)ctx;
    (void)index;
    return gb_record_counter(r, metric, NAN);
}
