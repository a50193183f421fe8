/* camping.h - the pure parts of suite `camping` (src/suites/camping*.c):
 * pinning a number of active warps per SM, the per-launch counts of
 * warp-level global memory requests each kernel issues, the clique graph
 * and its host reference, and the classification of the slice-conflict
 * probe's timings. No GPU is needed for any of it; unit tests call it
 * directly. Thread-safe unless said otherwise.
 */
#ifndef GB_SUITES_CAMPING_H
#define GB_SUITES_CAMPING_H

#include <stddef.h>
#include <stdint.h>

#include "gpubound/camp_counts.h"
#include "gpubound/device.h"
#include "gpubound/status.h"
#include "gpubound/suite.h"

/* ---- pinning active warps per SM ----
 * `warps` active warps per SM are realised as blocks_per_sm equal blocks of
 * warps_per_block warps, with a grid of (SM count x blocks_per_sm) blocks,
 * each block holding dyn_smem_bytes of dynamic shared memory so that no
 * more than blocks_per_sm blocks fit on one SM (the SM's shared memory under
 * the 100% carveout divided by blocks_per_sm, in allocation units). The
 * smallest such blocks_per_sm is chosen. */
struct gb_camp_pin {
    int warps;
    int blocks_per_sm;
    int warps_per_block;
    int dyn_smem_bytes;
};

/* Finds the pinning of `warps` for a kernel with `regs_per_thread` registers
 * and `static_smem_bytes` of static shared memory on `dev`, and checks it
 * with the occupancy calculator (gb_occupancy_compute, carveout 100%, the
 * maximum dynamic shared memory opted in equal to what is used): only a
 * configuration whose calculated active warps per SM equal `warps` is
 * returned. GB_ERR_UNSUPPORTED with the reason when no equal blocks make
 * `warps` (more than the GPU holds, or e.g. 37 on a GPU with at most 32
 * warps per block: a prime above 32); GB_ERR_VERIFY with the calculator's
 * answer and its limit when equal blocks exist but the calculator gives
 * another number of active warps for every one of them; GB_ERR_USAGE for
 * warps < 1. */
enum gb_status gb_camp_pin(const struct gb_device_info *dev, int warps, int regs_per_thread,
                           int static_smem_bytes, struct gb_camp_pin *out);

/* Every warps value gb_camp_pin can realise, ascending, into out[0..max-1];
 * returns how many there are (which may exceed max). */
int gb_camping_pinnable_warps(const struct gb_device_info *dev, int regs_per_thread, int static_smem_bytes,
                          int *out, int max);

/* ---- counted requests ----
 * Per launch: warp-level global load and store instructions by the bytes
 * each thread accesses (2, 4, 8, 16), and the 32-byte sectors they touch,
 * in struct gb_camp_counts (gpubound/camp_counts.h, indexed by
 * gb_camp_width_class). */

/* Adds `requests` instructions of `width` bytes per thread, `sectors` in
 * all; a width that is no class (not 1, 2, 4, 8 or 16) adds nothing. */
void gb_camp_counts_add(struct gb_camp_counts *c, int is_store, int width, double requests, double sectors);

/* 32-byte sectors the bytes [lo, hi) touch (0 when hi <= lo). */
uint64_t gb_camp_sectors(uint64_t lo, uint64_t hi);

/* camp_read: `requests` warp-level loads of `width` bytes per thread (each
 * 32 * width contiguous or line-table bytes, 32-byte aligned: `width`
 * sectors), then one 8-byte checksum store per warp of the grid
 * (`grid_warps`). */
void gb_camp_counts_read(struct gb_camp_counts *c, int width, double requests, double grid_warps);
/* camp_write: `requests` warp-level stores of `width` bytes per thread. */
void gb_camp_counts_write(struct gb_camp_counts *c, int width, double requests);
/* camp_gem over n_surf points (a multiple of 32) and n_comp components. */
void gb_camp_counts_gem(struct gb_camp_counts *c, uint64_t n_surf, uint64_t n_comp);
/* camp_transpose_* of an n x n matrix (n a multiple of 32), `passes` times. */
void gb_camp_counts_transpose(struct gb_camp_counts *c, uint64_t n, uint64_t passes);
/* camp_clique over the CSR graph (row[n + 1], col): follows the kernel's
 * warp-uniform loops over the degrees. `row` and `col` are assumed to start
 * at 32-byte aligned device addresses. */
void gb_camp_counts_clique(struct gb_camp_counts *c, const uint32_t *row, const uint32_t *col, uint32_t n);

/* Records the counts as the point's metrics ld_req_2 .. ld_req_16,
 * st_req_2 .. st_req_16, ld_sectors, st_sectors (zeros included; the names
 * of gpubound/camp_counts.h, classes from GB_CAMP_RECORDED_CLASS_MIN);
 * gb_point_metric's failure. */
enum gb_status gb_camp_counts_record(const struct gb_camp_counts *c, struct gb_point *p);

/* ---- the clique graph ---- */

/* A graph of n vertices in CSR form: vertex v has 8..40 distinct
 * neighbours (never itself), three in four within 512 of v (mod n), the
 * rest anywhere, each list sorted ascending. *row (n + 1 entries) and *col
 * are malloc'ed (the caller frees both); *m is the number of entries.
 * Deterministic in `seed`. n >= 2048. */
enum gb_status gb_camp_graph_make(uint32_t n, uint64_t seed, uint32_t **row, uint32_t **col, size_t *m);

/* What camp_clique computes, by merging sorted lists: count[v] = the
 * number of pairs (u, w) with u in N(v), u > v, w in N(v) and N(u), w > u. */
void gb_camp_clique_ref(const uint32_t *row, const uint32_t *col, uint32_t n, uint32_t *count);

/* ---- values and verification ---- */

/* The value camp_write stores at 32-bit word i (the device's camp_pat). */
uint32_t gb_camp_pat(uint32_t seed, uint64_t i);

/* Visits of half-line h (0 .. 2*lines-1) of a line table by `total`
 * requests of `halves` half-lines each, starting at chunk q0. */
uint64_t gb_camp_halfline_visits(uint64_t h, uint64_t q0, uint64_t halves, uint64_t lines, uint64_t total);

/* ---- the slice-conflict probe ----
 * The pair test: every warp of a full grid (all warps the SM holds) loads,
 * request after request, the anchor line and a candidate line in turn
 * (one 128-byte line per warp-level request, cached in L2 only). Two lines
 * of one L2 slice queue at that slice; lines of two slices are served in
 * parallel, so a same-slice pair takes about twice the time of a pair
 * spread over two slices, and the times of many candidates are bimodal.
 *
 * gb_camp_probe_threshold classifies the pair times t[0..n-1]: *median is
 * the median (most candidates lie in other slices), *slowest the slowest
 * candidate time, ignoring times above 1.5 x t_same (the anchor paired with
 * itself: one slice for sure; nothing should be slower, so such a time is a
 * disturbed launch) when t_same is finite, and *threshold the midpoint
 * between the two: a candidate slower than it shares the anchor's slice.
 * Returns 1 when the times are bimodal enough to classify: the slowest is
 * at least 25% above the median and (when t_same is finite) the anchor with
 * itself lies above the threshold. Otherwise returns 0 with *threshold =
 * +inf (the probe cannot tell slices apart). *median and *slowest are
 * always set (NAN for n < 1). */
int gb_camp_probe_threshold(const double *t, int n, double t_same, double *median, double *slowest,
                            double *threshold);

/* The indices i (ascending) with t[i] > threshold, into out[0..max-1];
 * returns how many there are (which may exceed max). */
int gb_camp_probe_above(const double *t, int n, double threshold, int *out, int max);

#endif
