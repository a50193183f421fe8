/* camping_calc.c - the pure parts of suite `camping` (see camping.h). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_sort.h>

#include "gpubound/numbers.h"
#include "gpubound/occupancy.h"
#include "suites/camping.h"

/* ---- pinning ---- */

/* The SM's shared memory under the 100% carveout: the largest split. */
static long camp_smem_sm(const struct gb_device_info *d)
{
    return d->smem_per_sm;
}

/* The per-block shared memory that lets exactly k blocks share the SM, and
 * the calculator's answer for it. GB_ERR_UNSUPPORTED when no dynamic size
 * does (the static part alone is too large). */
static enum gb_status camp_pin_try(const struct gb_device_info *d, int warps, int k, int regs, int static_smem,
                                   struct gb_camp_pin *out, struct gb_occupancy_result *r)
{
    const int unit = d->smem_alloc_unit > 0 ? d->smem_alloc_unit : (d->cc_major <= 7 ? 256 : 128);
    const int wpb = warps / k;
    /* The block's allocation: the largest multiple of the unit that still
     * lets k blocks share the SM; then k + 1 do not fit whenever the SM's
     * memory divided by k(k+1) exceeds one unit. */
    long alloc = camp_smem_sm(d) / k / unit * unit;
    long dyn = alloc - static_smem - d->smem_reserved_per_block;
    if (dyn < 0 || dyn > (long)d->smem_per_block_optin - static_smem)
        return GB_ERR_UNSUPPORTED;
    struct gb_occupancy_input in = {
        .threads_per_block = wpb * d->warp_size,
        .regs_per_thread = regs,
        .static_smem_bytes = static_smem,
        .dyn_smem_bytes = (int)dyn,
        .max_dyn_smem_bytes = (int)dyn,
        .carveout_pct = 100,
    };
    enum gb_status st = gb_occupancy_compute(d, &in, r);
    if (st != GB_OK)
        return st;
    out->warps = warps;
    out->blocks_per_sm = k;
    out->warps_per_block = wpb;
    out->dyn_smem_bytes = (int)dyn;
    return GB_OK;
}

enum gb_status gb_camp_pin(const struct gb_device_info *dev, int warps, int regs_per_thread, int static_smem_bytes,
                           struct gb_camp_pin *out)
{
    memset(out, 0, sizeof *out);
    if (warps < 1)
        return gb_error_set(GB_ERR_USAGE, "camping: active warps per SM must be at least 1");
    if (dev->warp_size <= 0 || dev->max_threads_per_sm <= 0 || dev->max_threads_per_block <= 0)
        return gb_error_set(GB_ERR_USAGE, "camping: the device's limits are incomplete");
    const int max_warps = dev->max_threads_per_sm / dev->warp_size;
    const int max_wpb = dev->max_threads_per_block / dev->warp_size;
    const int max_blocks = dev->max_blocks_per_sm > 0 ? dev->max_blocks_per_sm : 32;
    if (warps > max_warps)
        return gb_error_set(GB_ERR_UNSUPPORTED, "warps=%d: this GPU holds at most %d warps per SM", warps,
                            max_warps);
    struct gb_camp_pin first;
    struct gb_occupancy_result first_r;
    int tried = 0;
    for (int k = 1; k <= max_blocks && k <= warps; k++) {
        struct gb_camp_pin pin;
        struct gb_occupancy_result r;
        if (warps % k || warps / k > max_wpb)
            continue;
        enum gb_status st = camp_pin_try(dev, warps, k, regs_per_thread, static_smem_bytes, &pin, &r);
        if (st == GB_ERR_UNSUPPORTED)
            continue;
        if (st != GB_OK)
            return st;
        if (r.active_warps == warps) {
            *out = pin;
            return GB_OK;
        }
        if (!tried++) {
            first = pin;
            first_r = r;
        }
    }
    if (!tried)
        return gb_error_set(GB_ERR_UNSUPPORTED,
                            "warps=%d cannot be pinned exactly: it is no product of at most %d equal blocks "
                            "of at most %d warps",
                            warps, max_blocks, max_wpb);
    /* Equal blocks exist, but the calculator disagrees: a kernel that needs
     * more than the pinning allows (registers, static shared memory). */
    return gb_error_set(GB_ERR_VERIFY,
                        "warps=%d not realised: the occupancy calculator gives %d active warps per SM for %d "
                        "blocks of %d warps (%d registers per thread, %d B static and %d B dynamic shared "
                        "memory per block; limited by %s)",
                        warps, first_r.active_warps, first.blocks_per_sm, first.warps_per_block, regs_per_thread,
                        static_smem_bytes, first.dyn_smem_bytes, gb_occupancy_limit_name(first_r.limit));
}

int gb_camping_pinnable_warps(const struct gb_device_info *dev, int regs_per_thread, int static_smem_bytes, int *out,
                          int max)
{
    int n = 0;
    if (dev->warp_size <= 0 || dev->max_threads_per_sm <= 0)
        return 0;
    for (int w = 1; w <= dev->max_threads_per_sm / dev->warp_size; w++) {
        struct gb_camp_pin pin;
        if (gb_camp_pin(dev, w, regs_per_thread, static_smem_bytes, &pin) == GB_OK) {
            if (n < max)
                out[n] = w;
            n++;
        }
    }
    return n;
}

/* ---- counts ---- */

void gb_camp_counts_add(struct gb_camp_counts *c, int is_store, int width, double requests, double sectors)
{
    int i = gb_camp_width_class(width);
    if (i < 0)
        return;
    if (is_store) {
        c->st[i] += requests;
        c->st_sectors += sectors;
    } else {
        c->ld[i] += requests;
        c->ld_sectors += sectors;
    }
}

uint64_t gb_camp_sectors(uint64_t lo, uint64_t hi)
{
    if (hi <= lo)
        return 0;
    return (hi - 1) / 32 - lo / 32 + 1;
}

void gb_camp_counts_read(struct gb_camp_counts *c, int width, double requests, double grid_warps)
{
    /* 32 lanes x width bytes, 32-byte aligned: width sectors per request. */
    gb_camp_counts_add(c, 0, width, requests, requests * width);
    gb_camp_counts_add(c, 1, 8, grid_warps, grid_warps * 8);
}

void gb_camp_counts_write(struct gb_camp_counts *c, int width, double requests)
{
    gb_camp_counts_add(c, 1, width, requests, requests * width);
}

void gb_camp_counts_gem(struct gb_camp_counts *c, uint64_t n_surf, uint64_t n_comp)
{
    double groups = (double)(n_surf / 32);
    /* Per group of 32 points: its coordinates (16 B per lane, 16 sectors),
     * every component (one address for the whole warp: one sector), and the
     * 32 potentials (4 B per lane, 4 sectors). */
    gb_camp_counts_add(c, 0, 16, groups, groups * 16);
    gb_camp_counts_add(c, 0, 16, groups * (double)n_comp, groups * (double)n_comp);
    gb_camp_counts_add(c, 1, 4, groups, groups * 4);
}

void gb_camp_counts_transpose(struct gb_camp_counts *c, uint64_t n, uint64_t passes)
{
    double rows = (double)(n / 32) * (double)(n / 32) * 32.0 * (double)passes;  /* 32 rows a tile */
    gb_camp_counts_add(c, 0, 4, rows, rows * 4);
    gb_camp_counts_add(c, 1, 4, rows, rows * 4);
}

/* One warp-level 4-byte load of `lanes` consecutive entries from entry `first`. */
static void camp_list_load(struct gb_camp_counts *c, uint64_t first, uint64_t lanes)
{
    gb_camp_counts_add(c, 0, 4, 1, (double)gb_camp_sectors(first * 4, (first + lanes) * 4));
}

void gb_camp_counts_clique(struct gb_camp_counts *c, const uint32_t *row, const uint32_t *col, uint32_t n)
{
    for (uint32_t v = 0; v < n; v++) {
        /* row[v] and row[v + 1]: one address per warp each, one sector. */
        gb_camp_counts_add(c, 0, 4, 2, 2);
        uint32_t vb = row[v], dv = row[v + 1] - row[v];
        for (uint32_t c0 = 0; c0 < dv; c0 += 32) {
            uint32_t nk = dv - c0 < 32 ? dv - c0 : 32;
            camp_list_load(c, (uint64_t)vb + c0, nk);
            for (uint32_t k = 0; k < nk; k++) {
                uint32_t u = col[vb + c0 + k];
                if (u <= v)
                    continue;
                gb_camp_counts_add(c, 0, 4, 2, 2);
                uint32_t ub = row[u], du = row[u + 1] - row[u];
                for (uint32_t a0 = 0; a0 < dv; a0 += 32) {
                    camp_list_load(c, (uint64_t)vb + a0, dv - a0 < 32 ? dv - a0 : 32);
                    for (uint32_t b0 = 0; b0 < du; b0 += 32)
                        camp_list_load(c, (uint64_t)ub + b0, du - b0 < 32 ? du - b0 : 32);
                }
            }
        }
        /* Lane 0 stores the vertex's count. */
        gb_camp_counts_add(c, 1, 4, 1, 1);
    }
}

enum gb_status gb_camp_counts_record(const struct gb_camp_counts *c, struct gb_point *p)
{
    enum gb_status rc = GB_OK;
    for (int i = GB_CAMP_RECORDED_CLASS_MIN; i < GB_CAMP_N_WIDTHS && rc == GB_OK; i++)
        rc = gb_point_metric(p, gb_camp_req_metric(0, i), c->ld[i]);
    for (int i = GB_CAMP_RECORDED_CLASS_MIN; i < GB_CAMP_N_WIDTHS && rc == GB_OK; i++)
        rc = gb_point_metric(p, gb_camp_req_metric(1, i), c->st[i]);
    if (rc == GB_OK)
        rc = gb_point_metric(p, GB_CAMP_METRIC_LD_SECTORS, c->ld_sectors);
    if (rc == GB_OK)
        rc = gb_point_metric(p, GB_CAMP_METRIC_ST_SECTORS, c->st_sectors);
    return rc;
}

/* ---- the clique graph ---- */

static uint64_t camp_rng(uint64_t *s)
{
    /* xorshift64* */
    *s ^= *s >> 12;
    *s ^= *s << 25;
    *s ^= *s >> 27;
    return *s * 0x2545F4914F6CDD1DULL;
}

enum gb_status gb_camp_graph_make(uint32_t n, uint64_t seed, uint32_t **row_out, uint32_t **col_out, size_t *m_out)
{
    enum { DMIN = 8, DMAX = 40, NEAR = 512 };
    uint64_t s = seed * 0x9E3779B97F4A7C15ULL + 0x632BE59BD9B4E019ULL;
    uint32_t *row = NULL, *col = NULL;
    *row_out = *col_out = NULL;
    *m_out = 0;
    if (n < 2048)
        return gb_error_set(GB_ERR_USAGE, "camping: the clique graph needs at least 2048 vertices");
    if (!s)
        s = 1;
    row = malloc(((size_t)n + 1) * sizeof *row);
    col = malloc((size_t)n * DMAX * sizeof *col);
    if (!row || !col) {
        free(row);
        free(col);
        return gb_error_set(GB_ERR_NOMEM, "out of host memory");
    }
    size_t m = 0;
    for (uint32_t v = 0; v < n; v++) {
        row[v] = (uint32_t)m;
        uint32_t d = DMIN + (uint32_t)(camp_rng(&s) % (DMAX - DMIN + 1)), have = 0;
        uint32_t *list = col + m;
        while (have < d) {
            uint64_t r = camp_rng(&s);
            uint32_t u;
            if (r % 4 != 0)
                u = (uint32_t)(((uint64_t)v + n + (r >> 8) % (2 * NEAR + 1) - NEAR) % n);
            else
                u = (uint32_t)((r >> 8) % n);
            if (u == v)
                continue;
            /* Insertion into the sorted list, dropping repeats. */
            uint32_t i = have;
            int dup = 0;
            while (i > 0 && list[i - 1] >= u) {
                if (list[i - 1] == u) {
                    dup = 1;
                    break;
                }
                i--;
            }
            if (dup)
                continue;
            memmove(list + i + 1, list + i, (have - i) * sizeof *list);
            list[i] = u;
            have++;
        }
        m += d;
    }
    row[n] = (uint32_t)m;
    *row_out = row;
    *col_out = col;
    *m_out = m;
    return GB_OK;
}

void gb_camp_clique_ref(const uint32_t *row, const uint32_t *col, uint32_t n, uint32_t *count)
{
    for (uint32_t v = 0; v < n; v++) {
        uint32_t cnt = 0;
        const uint32_t *nv = col + row[v], *nv_end = col + row[v + 1];
        for (const uint32_t *pu = nv; pu < nv_end; pu++) {
            uint32_t u = *pu;
            if (u <= v)
                continue;
            const uint32_t *a = nv, *b = col + row[u], *b_end = col + row[u + 1];
            while (a < nv_end && b < b_end) {
                if (*a < *b)
                    a++;
                else if (*b < *a)
                    b++;
                else {
                    cnt += *a > u;
                    a++;
                    b++;
                }
            }
        }
        count[v] = cnt;
    }
}

/* ---- values ---- */

uint32_t gb_camp_pat(uint32_t seed, uint64_t i)
{
    uint64_t z = (i + 1ULL) * 0x9E3779B97F4A7C15ULL ^ ((uint64_t)seed * 0xD1B54A32D192ED03ULL);
    z ^= z >> 29;
    z *= 0xBF58476D1CE4E5B9ULL;
    z ^= z >> 32;
    uint32_t w = (uint32_t)z;
    return (w == 0u || w == 0xDEADBEEFu) ? 0x2545F491u : w;
}

uint64_t gb_camp_halfline_visits(uint64_t h, uint64_t q0, uint64_t halves, uint64_t lines, uint64_t total)
{
    uint64_t cycle = 2 * lines, visits = total * halves, start = (q0 * halves) % cycle;
    uint64_t d = (h + cycle - start) % cycle;
    return visits / cycle + (d < visits % cycle ? 1 : 0);
}

/* ---- the slice-conflict probe ---- */

int gb_camp_probe_threshold(const double *t, int n, double t_same, double *median, double *slowest,
                            double *threshold)
{
    *median = NAN;
    *slowest = NAN;
    *threshold = INFINITY;
    if (n < 1)
        return 0;
    double *s = malloc((size_t)n * sizeof *s);
    if (!s)
        return 0;
    memcpy(s, t, (size_t)n * sizeof *s);
    gsl_sort(s, 1, (size_t)n);
    *median = gb_stats_median_sorted(s, (size_t)n);
    const double cap = isfinite(t_same) ? 1.5 * t_same : INFINITY;
    double slow = *median;
    for (int i = n - 1; i >= 0; i--)
        if (s[i] <= cap) {
            slow = s[i];
            break;
        }
    free(s);
    *slowest = slow;
    if (!(*median > 0) || !(slow >= 1.25 * *median))
        return 0;
    const double thr = 0.5 * (*median + slow);
    if (isfinite(t_same) && !(t_same > thr))
        return 0;
    *threshold = thr;
    return 1;
}

int gb_camp_probe_above(const double *t, int n, double threshold, int *out, int max)
{
    int k = 0;
    for (int i = 0; i < n; i++)
        if (t[i] > threshold) {
            if (k < max)
                out[k] = i;
            k++;
        }
    return k;
}
