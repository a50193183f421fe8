/* lpbm_terms.c - the breakdown model's terms as one table, and the
 * resources form's predictors: each measured count over the machine's
 * measured roof, with the launch's parallelism (gpubound/lpbm.h). */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "gpubound/lpbm.h"
#include "gpubound/roofline.h"
#include "lpbm_internal.h"

#define F_FORMULA (1u << GB_LPBM_FORMULA)
#define F_COUNTERS (1u << GB_LPBM_COUNTERS)
#define F_RESOURCES (1u << GB_LPBM_RESOURCES)
#define F_LPBM (F_FORMULA | F_COUNTERS)

static const struct gb_lpbm_term_row gb_lpbm_rows[GB_LPBM_TERMS] = {
    {"PUT", "PUT: processing units", "instruction slots per resident warp",
     "operations per thread x max(waves, 1)", "",
     "the processing units: the time follows the operations each resident warp issues, so "
     "fewer instructions per result (or more independent work per thread) is what helps", F_LPBM},
    {"G2ST", "G2ST: global to shared", "bytes", "global bytes per thread x warps in the launch", "",
     "global-to-shared transfer: the time follows the bytes each warp moves from global "
     "memory, so more reuse on chip (larger tiles), coalescing or fewer bytes is what helps", F_LPBM},
    {"S2PT", "S2PT: shared to private", "accesses per resident warp",
     "shared accesses per thread x max(waves, 1)", "",
     "shared-to-private transfer: the time follows the shared-memory accesses per resident "
     "warp, so keeping operands in registers (register blocking) or fewer bank conflicts is "
     "what helps", F_LPBM},
    {"ATOM", "ATOM: atomics", "atomics (resources form: ns at the roof)",
     "the analysis's atomic operations of the launch (resources form: the global atomic and "
     "reduction warp instructions where recorded, else the analysis's count in warp "
     "instructions, over the atomic roof)",
     "atom_global_one",
     "atomics: the time follows the atomic operations of the launch, which the memory system "
     "serializes on one address, so fewer of them (more work per block, or a per-block "
     "partial result combined in a second pass) is what helps", F_LPBM | F_RESOURCES},
    {"SYNC", "SYNC: barrier stages", "barriers", "barriers on a thread's path (resources form: x "
     "waves)", "",
     "barrier stages: the time follows the barriers on each thread's path, each a round of "
     "latency between dependent stages, so fewer stages (more work between barriers, warp "
     "shuffles in place of shared-memory rounds) is what helps", F_LPBM | F_RESOURCES},
    {"FIX", "FIX: fixed per launch", "launches", "1 (breakdown --intercept)", "",
     "a fixed time per launch: the launch's latency floor (launch, the last wave's tail, "
     "dependent stages), so more work per launch (fusing launches, larger batches) is what "
     "helps", F_LPBM},
    {"DRAM", "DRAM: bytes over the DRAM roof", "ns at the roof",
     "32 x DRAM sectors read and written / DRAM roof (0 on a hot run whose DRAM bytes fit in "
     "75% of L2)", "dram",
     "DRAM bandwidth: the time follows the bytes that reach DRAM (dram__sectors), so fewer "
     "bytes (reuse in L2 or on chip, smaller types) is what helps; more parallelism does not",
     F_RESOURCES},
    {"L2", "L2: bytes over the L2 roof (its busiest slice's where camped)", "ns at the roof",
     "32 x L2 sectors / L2 roof; where the busiest L2 slice carries 1.5 times the mean "
     "slice's sectors or more, times that ratio (lts__t_sectors.max / .avg): the busiest "
     "slice's time", "l2",
     "L2 bandwidth: the time follows the sectors through L2 (lts__t_sectors), so fewer "
     "sectors (coalescing, reuse on chip in shared memory or registers) is what helps; where "
     "they crowd one slice (atomics on a few hot addresses), spreading them (per-block or "
     "per-warp partial results, more copies of a hot counter) is what helps",
     F_RESOURCES},
    {"SHM", "SHM: shared wavefronts over the shared roof", "ns at the roof",
     "shared wavefronts (loads, stores and atomics) / SM fill / (shared roof / 128 bytes)", "smem",
     "shared memory: the time follows the shared-memory wavefronts (l1tex shared wavefronts), "
     "so fewer of them (no bank conflicts, operands kept in registers) or a fuller grid is "
     "what helps", F_RESOURCES},
    {"INST", "INST: instructions over the issue rate", "ns at the roof",
     "warp instructions / SM fill / (FP32 roof / 64)", "fp32",
     "instruction issue: the time follows the warp instructions executed "
     "(smsp__inst_executed), so fewer instructions per result (less index arithmetic, "
     "unrolling, vector loads) or a fuller grid is what helps", F_RESOURCES},
    {"LAT", "LAT: load round trips per warp x waves", "round trips",
     "global load instructions per warp / the loads a thread keeps in flight together (the "
     "largest group of independent loads in its PTX; 1 where not read) x waves", "",
     "memory latency: the time follows the dependent global loads each warp waits for, wave "
     "after wave, so more loads in flight per warp (more independent work per thread, more "
     "resident warps) is what helps", F_RESOURCES},
    {"LAUNCH", "LAUNCH: launch floor", "ns", "a + B / b, the ceilings run's launch line",
     "launch",
     "the launch floor: the launch and its blocks' start cost more than the work, so more "
     "work per launch (fusing launches, more work per block) is what helps", F_RESOURCES},
    {"PIPE", "PIPE: the busiest pipe over its rate", "ns at the roof",
     "the largest of the FMA, ALU, FP64, XU and LSU pipes' warp instructions over the pipe's "
     "rate / SM fill", "fp32, fp64, mufu",
     "one execution pipe: the time follows the instructions of the busiest pipe (FP64, the "
     "special-function unit, integer or load/store), so fewer of those instructions (single "
     "precision, intrinsics, fewer address computations) or a fuller grid is what helps",
     F_RESOURCES},
    {"ILAT", "ILAT: instructions per warp x waves", "instructions",
     "warp instructions / warps in the launch x waves", "",
     "instruction latency: the time follows the chain of instructions each warp issues, wave "
     "after wave, with too few warps per SM to hide the pipelines' latency, so more resident "
     "warps per SM (a larger grid, fewer registers) or more independent work per thread is what "
     "helps", F_RESOURCES},
    {"DLAT", "DLAT: load round trips that miss L2", "round trips",
     "LAT's round trips x the share of L2 sectors that go on to DRAM "
     "(0 on a hot run whose DRAM bytes fit in 75% of L2)", "",
     "DRAM latency: the time follows the dependent global loads each warp waits for that miss "
     "L2, each a DRAM round trip longer than an L2 hit, so more loads in flight per warp, more "
     "resident warps or data that stays in L2 is what helps", F_RESOURCES},
    {"SLAT", "SLAT: global sectors per warp x waves", "sectors",
     "global load and store sectors (l1tex) per warp x waves", "",
     "scattered accesses: the time follows the sectors each warp's global loads and stores "
     "touch, which L1 handles one after another, wave after wave, so coalesced accesses "
     "(neighbouring threads on neighbouring addresses, wider types) or fewer accesses per warp "
     "is what helps", F_RESOURCES},
};

const struct gb_lpbm_term_row *gb_lpbm_term_info(enum gb_lpbm_term t)
{
    return (unsigned)t < GB_LPBM_TERMS ? &gb_lpbm_rows[t] : NULL;
}

int gb_lpbm_form_has(enum gb_lpbm_form form, enum gb_lpbm_term t)
{
    return (unsigned)t < GB_LPBM_TERMS && (unsigned)form < 3 && (gb_lpbm_rows[t].forms >> form) & 1;
}

double gb_lpbm_heldout_ns(const struct gb_lpbm_bench_model *m, size_t i)
{
    double rel = m->held.rel ? m->held.rel[i] : NAN;
    return isfinite(rel) ? m->pts[i].time_ns * (1 + rel) : NAN;
}

int gb_lpbm_model_has(const struct gb_lpbm_bench_model *m, enum gb_lpbm_term t)
{
    return gb_lpbm_form_has(m->form, t) || (t == GB_LPBM_FIX && m->intercept);
}

unsigned gb_lpbm_roof_terms(enum gb_lpbm_form form)
{
    return form == GB_LPBM_RESOURCES ? 1u << GB_LPBM_DRAM | 1u << GB_LPBM_L2 | 1u << GB_LPBM_SHM |
                                           1u << GB_LPBM_INST | 1u << GB_LPBM_PIPE
                                     : 0;
}

static double per_ns(const struct gb_ceilings *c, int roof, double scale)
{
    double v = c->value[roof];
    return isfinite(v) && v > 0 ? v / scale : NAN;
}

void gb_lpbm_roofs_set(struct gb_lpbm_point *p, const struct gb_ceilings *c)
{
    p->roof_dram = per_ns(c, GB_ROOF_DRAM, 1);        /* GB/s = bytes/ns */
    p->roof_l2 = per_ns(c, GB_ROOF_L2, 1);
    p->roof_l2_write = per_ns(c, GB_ROOF_L2_WRITE, 1);
    p->roof_shared = per_ns(c, GB_ROOF_SMEM, 128);    /* a wavefront moves 128 bytes */
    p->roof_inst = per_ns(c, GB_ROOF_FP32, 64);       /* 32 lanes x 2 flops per FMA */
    p->roof_atom = per_ns(c, GB_ROOF_ATOM_GLOBAL_ONE, 1);
    p->roof_fp64 = per_ns(c, GB_ROOF_FP64, 64);       /* 32 lanes x 2 flops per DFMA */
    p->roof_mufu = per_ns(c, GB_ROOF_MUFU, 32);       /* 32 lanes, one op each */
    p->launch_a_ns = c->launch_a_ns;
    p->launch_b = c->launch_b_blocks_per_ns;
}

static int has_rate(double rate)
{
    return isfinite(rate) && rate > 0;
}

/* The roof a resources-form roof term's count goes over (per ns) and that
 * count's unit; NaN and NULL for a term that goes over no roof. */
static double term_roof(const struct gb_lpbm_point *p, enum gb_lpbm_term t, const char **unit)
{
    const char *u = NULL;
    double rate = NAN;
    switch (t) {
    case GB_LPBM_DRAM: u = "byte", rate = p->roof_dram; break;
    case GB_LPBM_L2: u = "byte", rate = p->roof_l2; break;
    case GB_LPBM_SHM: u = "shared wavefront", rate = p->roof_shared; break;
    case GB_LPBM_INST: u = "warp instruction", rate = p->roof_inst; break;
    case GB_LPBM_ATOM: u = "atomic warp instruction", rate = p->roof_atom; break;
    default: break;
    }
    if (unit)
        *unit = u;
    return rate;
}

/* Term t's count over its roof; the count itself when there is no rate
 * (its coefficient is then a time per unit: the guide publishes no L2 or
 * atomic rate). */
static double at_roof(const struct gb_lpbm_point *p, enum gb_lpbm_term t, double count)
{
    double rate = term_roof(p, t, NULL);
    return has_rate(rate) ? count / rate : count;
}

const char *gb_lpbm_term_bare_unit(const struct gb_lpbm_point *p, enum gb_lpbm_term t)
{
    const char *unit;
    return has_rate(term_roof(p, t, &unit)) ? NULL : unit;
}

static int bad_count(double v)
{
    return !isfinite(v) || v < 0;
}

/* The busiest pipe's time: each pipe's warp instructions over its rate.
 * The ALU and LSU pipes run at a half and a quarter of the FMA pipe's
 * rate (the CUDA guide's throughputs for cc 8.0 to 9.0: 64 integer and 32
 * load/store lanes per SM against 128 FP32). 0 when not recorded. */
static double busiest_pipe(const struct gb_lpbm_point *p)
{
    const double rate[GB_LPBM_PIPES] = {p->roof_inst, p->roof_inst / 2, p->roof_fp64,
                                        p->roof_mufu, p->roof_inst / 4};
    double most = 0;
    for (int k = 0; k < GB_LPBM_PIPES; k++)
        if (!bad_count(p->c_pipe[k]) && isfinite(rate[k]) && rate[k] > 0)
            most = fmax(most, p->c_pipe[k] / rate[k]);
    return most;
}

/* The share of the L2 sectors that went on to DRAM (at most 1): the share
 * of the load round trips that pay a DRAM latency on top of L2's. */
static double miss_share(const struct gb_lpbm_point *p)
{
    return p->c_l2_sectors > 0 ? fmin(1, p->c_dram_sectors / p->c_l2_sectors) : 0;
}

/* The launch's global load round trips: its load warp instructions over
 * the loads a thread keeps in flight together, where read (a group of
 * independent loads waits for one latency, not one each). */
static double round_trips(const struct gb_lpbm_point *p)
{
    double g = p->c_loads_in_flight;
    return p->c_global_ld_inst / (isfinite(g) && g > 1 ? g : 1);
}

/* The L2's time: its sectors over the L2 roof; with the roof of stores
 * and the stores' sectors, the loads' (and the rest's) over the L2 roof
 * and the stores' over theirs, one after the other in the same slices. */
static double l2_time(const struct gb_lpbm_point *p)
{
    double w = p->c_l2_write_sectors;
    if (!has_rate(p->roof_l2) || !has_rate(p->roof_l2_write) || bad_count(w) || w > p->c_l2_sectors)
        return at_roof(p, GB_LPBM_L2, 32 * p->c_l2_sectors);
    return 32 * (p->c_l2_sectors - w) / p->roof_l2 + 32 * w / p->roof_l2_write;
}

/* The L2's time on its busiest slice: in a bench whose slices are uneven
 * (p->l2_camped: accesses crowding a few addresses) the slice that holds
 * them sets the time, as if every slice carried as much; a spread bench
 * (1.0 to 1.1) keeps the even share, the ratio's noise left out of it. */
static double l2_busiest_time(const struct gb_lpbm_point *p)
{
    double k = p->c_l2_slice_imbalance;
    return l2_time(p) * (p->l2_camped && isfinite(k) && k > 1 ? k : 1);
}

enum gb_status gb_lpbm_resources(struct gb_lpbm_point *p, double wf_wg)
{
    if (bad_count(p->c_inst) || bad_count(p->c_shared_wavefronts) || bad_count(p->c_dram_sectors) ||
        bad_count(p->c_l2_sectors) || bad_count(p->c_global_ld_inst))
        return gb_error_set(GB_ERR_FORMAT, "%s %s: the record lacks a counter the resources form "
                            "needs (instructions, shared wavefronts, DRAM and L2 sectors, global "
                            "loads); record with run --counters or use --form formula",
                            p->config, p->problem);
    double per_sm = floor(p->active_warps_per_sm / wf_wg);
    double s = (per_sm >= 1 ? per_sm : 1) * p->sm_count, b = p->grid_blocks > 0 ? p->grid_blocks : 1;
    p->waves = ceil(b / s);
    p->fill = b / (s * p->waves);
    p->fill_sm = b / (p->sm_count * ceil(b / p->sm_count));
    double dram_bytes = 32 * p->c_dram_sectors;
    /* a hot run keeps in L2 what its buffers hold, when they fit, however
     * many DRAM bytes the counter pass (caches flushed) saw it move */
    int in_l2 = gb_hot_in_l2(gb_hot_held_bytes(dram_bytes, p->footprint_bytes), p->hot, p->l2_bytes);
    p->x[GB_LPBM_DRAM] = in_l2 ? 0 : at_roof(p, GB_LPBM_DRAM, dram_bytes);
    p->x[GB_LPBM_L2] = l2_busiest_time(p);
    double shared = p->c_shared_wavefronts +
                    (bad_count(p->c_shared_atom_wavefronts) ? 0 : p->c_shared_atom_wavefronts);
    p->x[GB_LPBM_SHM] = at_roof(p, GB_LPBM_SHM, shared / p->fill_sm);
    p->x[GB_LPBM_INST] = at_roof(p, GB_LPBM_INST, p->c_inst / p->fill_sm);
    p->x[GB_LPBM_PIPE] = busiest_pipe(p) / p->fill_sm;
    p->x[GB_LPBM_LAT] = p->wf_ndr > 0 ? round_trips(p) / p->wf_ndr * p->waves : 0;
    p->x[GB_LPBM_DLAT] = p->x[GB_LPBM_LAT] * (in_l2 ? 0 : miss_share(p));
    p->x[GB_LPBM_SLAT] = p->wf_ndr > 0 && !bad_count(p->c_global_sectors)
                             ? p->c_global_sectors / p->wf_ndr * p->waves : 0;
    p->x[GB_LPBM_ILAT] = p->wf_ndr > 0 ? p->c_inst / p->wf_ndr * p->waves : 0;
    p->x[GB_LPBM_SYNC] = bad_count(p->barriers) ? 0 : p->barriers * p->waves;
    /* measured global atomic warp instructions where recorded, else the
     * analysis's count in the same unit */
    double atom = !bad_count(p->c_global_atom) ? p->c_global_atom
                  : bad_count(p->atomics_warp) ? 0 : p->atomics_warp;
    p->x[GB_LPBM_ATOM] = at_roof(p, GB_LPBM_ATOM, atom);
    p->x[GB_LPBM_LAUNCH] = isfinite(p->launch_a_ns) && isfinite(p->launch_b) && p->launch_b > 0
                               ? p->launch_a_ns + b / p->launch_b : 0;
    p->x[GB_LPBM_FIX] = p->intercept ? 1 : 0;
    return GB_OK;
}
