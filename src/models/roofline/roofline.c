/* roofline.c - every point of a run placed under the roofs
 * (include/gpubound/roofline.h). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gpubound/roofline.h"

/* A roof's value in its unit per ns (GB/s = bytes per ns, G/s = ops per
 * ns), or NAN when it bounds nothing. */
static double gb_roof_rate(const struct gb_ceilings *c, int roof)
{
    if (roof < 0 || roof >= GB_N_ROOFS)
        return NAN;
    double v = c->value[roof];
    return v > 0 ? v : NAN;
}

void gb_roofline_place(const struct gb_ceilings *c, struct gb_roofline_point *pt)
{
    double peak = pt->ops > 0 ? gb_roof_rate(c, pt->pipe) : NAN;
    pt->bound_ns = 0;
    pt->binding = -1;
    pt->achieved = pt->ops > 0 && pt->time_ns > 0 ? pt->ops / pt->time_ns : 0;
    if (isfinite(peak)) {
        pt->bound_ns = pt->ops / peak;
        pt->binding = pt->pipe;
    }
    for (int l = 0; l < GB_N_LEVELS; l++) {
        double b = pt->bytes[l], bw = gb_roof_rate(c, gb_roof_of_level((enum gb_roof_level)l));
        pt->intensity[l] = b > 0 && pt->ops > 0 ? pt->ops / b : NAN;
        pt->attainable[l] = NAN;
        if (!(b > 0) || !isfinite(bw))
            continue;
        if (isfinite(pt->intensity[l]))
            pt->attainable[l] = isfinite(peak) ? fmin(peak, bw * pt->intensity[l]) : bw * pt->intensity[l];
        if (b / bw > pt->bound_ns) {
            pt->bound_ns = b / bw;
            pt->binding = gb_roof_of_level((enum gb_roof_level)l);
        }
    }
    pt->fraction = pt->time_ns > 0 && pt->binding >= 0 ? pt->bound_ns / pt->time_ns : NAN;
    pt->above = pt->fraction > 1.0;
}

static double gb_counter_pair(const struct gb_record *r, const char *a, const char *b)
{
    double x = gb_record_counter(r, a, NAN), y = gb_record_counter(r, b, NAN);
    return isfinite(x) && isfinite(y) ? x + y : NAN;
}

int gb_hot_in_l2(double dram_bytes, int hot, double l2_bytes)
{
    return hot && l2_bytes > 0 && dram_bytes >= 0 && dram_bytes <= GB_HOT_L2_FITS * l2_bytes;
}

double gb_hot_held_bytes(double dram_bytes, double footprint)
{
    return footprint > 0 && footprint < dram_bytes ? footprint : dram_bytes;
}

double gb_hot_dram_floor(double dram_bytes, double l2_bytes)
{
    return l2_bytes > 0 ? fmax(0, dram_bytes - l2_bytes) : dram_bytes;
}

/* A hot point of record r (with counters) placed above the DRAM roof by
 * the bytes the counter pass counted is placed again on gb_hot_dram_floor's
 * bytes (of the bytes the hot-cache rule weighs: no more than the buffers'
 * where the record has them); 1 when it was. */
static int gb_roofline_partly_in_l2(const struct gb_record *r, const struct gb_ceilings *c, double l2_bytes,
                                    struct gb_roofline_point *pt)
{
    if (r->cache != GB_CACHE_HOT || !pt->above || pt->binding != GB_ROOF_DRAM)
        return 0;
    double held = gb_hot_held_bytes(pt->bytes[GB_LEVEL_DRAM], gb_record_metric(r, "buffer_bytes", NAN));
    double floor = gb_hot_dram_floor(held, l2_bytes);
    if (!(pt->bytes[GB_LEVEL_DRAM] > floor))
        return 0;
    pt->bytes[GB_LEVEL_DRAM] = floor;
    gb_roofline_place(c, pt);
    pt->partly_in_l2 = 1;
    return 1;
}

/* Bytes per level from the record's counters (docs/counters.md's default
 * set); a hot run's data that stays in L2 moves no DRAM bytes (gb_hot_in_l2).
 * Returns 1 when that rule set the DRAM bytes to 0. */
static int gb_roofline_bytes(const struct gb_record *r, double l2_bytes, double bytes[GB_N_LEVELS])
{
    bytes[GB_LEVEL_DRAM] = 32.0 * gb_counter_pair(r, "dram__sectors_read.sum", "dram__sectors_write.sum");
    double held = gb_hot_held_bytes(bytes[GB_LEVEL_DRAM], gb_record_metric(r, "buffer_bytes", NAN));
    int in_l2 = gb_hot_in_l2(held, r->cache == GB_CACHE_HOT, l2_bytes);
    if (in_l2)
        bytes[GB_LEVEL_DRAM] = 0;
    bytes[GB_LEVEL_L2] = 32.0 * gb_record_counter(r, "lts__t_sectors.sum", NAN);
    double glob = gb_counter_pair(r, "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum",
                                  "l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum");
    double shared = gb_counter_pair(r, "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum",
                                    "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum");
    bytes[GB_LEVEL_L1] = isfinite(glob) || isfinite(shared)
                             ? 32.0 * (isfinite(glob) ? glob : 0) + 128.0 * (isfinite(shared) ? shared : 0)
                             : NAN;
    return in_l2;
}

static int gb_roofline_pipe(const struct gb_record *r, const struct gb_roofline_opts *o)
{
    if (o && o->pipe >= 0)
        return o->pipe;
    double fp64 = gb_record_counter(r, "smsp__inst_executed_pipe_fp64.sum", NAN);
    double fma = gb_record_counter(r, "smsp__inst_executed_pipe_fma.sum", NAN);
    return fp64 > 0 && !(fma > fp64) ? GB_ROOF_FP64 : GB_ROOF_FP32;
}

static void gb_roofline_label(const struct gb_record *r, char *buf, size_t n)
{
    size_t len = (size_t)snprintf(buf, n, "%s/%s", r->suite, r->bench);
    for (int a = 0; a < r->n_axes && len < n; a++)
        len += (size_t)snprintf(buf + len, n - len, "%s%s=%s", a ? "," : " ", r->axes[a].name, r->axes[a].value);
}

enum gb_status gb_roofline_fit_run(const struct gb_run *run, const struct gb_ceilings *c,
                                   const struct gb_roofline_opts *o, struct gb_roofline *out)
{
    memset(out, 0, sizeof *out);
    double l2 = run->info.has_device ? (double)run->info.device.l2_bytes : 0;
    out->l2_bytes = l2;
    if (run->n_records && !(out->pts = calloc(run->n_records, sizeof *out->pts)))
        return gb_error_set(GB_ERR_NOMEM, "out of host memory");
    for (size_t i = 0; i < run->n_records; i++) {
        const struct gb_record *r = &run->records[i];
        if (r->status != GB_REC_OK || !(r->time_ns.median > 0)) {
            out->skipped++;
            continue;
        }
        struct gb_roofline_point *pt = &out->pts[out->n++];
        gb_roofline_label(r, pt->label, sizeof pt->label);
        pt->time_ns = r->time_ns.median;
        pt->ops = r->flops > 0 ? r->flops : 0;
        pt->pipe = pt->ops > 0 ? gb_roofline_pipe(r, o) : -1;
        for (int l = 0; l < GB_N_LEVELS; l++)
            pt->bytes[l] = NAN;
        if (gb_record_has_counters(r)) {
            out->hot_in_l2 += gb_roofline_bytes(r, l2, pt->bytes);
            out->from_counters++;
        } else {
            pt->bytes[GB_LEVEL_DRAM] = r->bytes > 0 ? r->bytes : NAN;
            out->without_counters++;
        }
        gb_roofline_place(c, pt);
        if (gb_record_has_counters(r))
            out->partly_in_l2 += gb_roofline_partly_in_l2(r, c, l2, pt);
    }
    return GB_OK;
}

void gb_roofline_release(struct gb_roofline *r)
{
    free(r->pts);
    memset(r, 0, sizeof *r);
}
