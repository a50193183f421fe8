/* camping.c - suite `camping`: partition camping, after Aji, Daga and Feng,
 * "Bounding the Effect of Partition Camping in GPU Kernels" (CF'11).
 *
 *   read, write   the paper's micro-benchmarks (its Figures 4 and 5): every
 *                 warp issues a fixed number of requests of 2, 4, 8 or 16
 *                 bytes per thread, spread over every memory partition or
 *                 camped on one L2 slice, at a pinned number of active
 *                 warps per SM;
 *   discover      the search for the worst address distribution: column
 *                 order at many pitches, offsets and footprints, and a
 *                 timing probe that finds lines sharing one L2 slice;
 *   gem, clique, transpose_*   the validation applications (camping_apps.c).
 *
 * Every point records the active warps per SM it realised and the exact
 * per-launch counts of warp-level global requests by width and of sectors
 * (camping_calc.c), which the CampProf model scales by.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>


#include "gpubound/numbers.h"
#include "gpubound/chart_spec.h"
#include "suites/camping_int.h"
#include "suites/suites.h"

/* ---- pinning on the device ---- */

enum gb_status camp_pin_func(struct gb_gpu *g, CUfunction f, int warps, struct gb_camp_pin *pin)
{
    enum gb_status st = GB_OK;
    int regs = 0, static_smem = 0, blocks = 0;
    GB_CU_CHECK(st, gb_cu->cuFuncGetAttribute(&regs, CU_FUNC_ATTRIBUTE_NUM_REGS, f));
    GB_CU_CHECK(st, gb_cu->cuFuncGetAttribute(&static_smem, CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES, f));
    if ((st = gb_camp_pin(&g->info, warps, regs, static_smem, pin)) != GB_OK)
        goto out;
    GB_CU_CHECK(st, gb_cu->cuFuncSetAttribute(f, CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES,
                                              pin->dyn_smem_bytes));
    GB_CU_CHECK(st, gb_cu->cuFuncSetAttribute(f, CU_FUNC_ATTRIBUTE_PREFERRED_SHARED_MEMORY_CARVEOUT, 100));
    GB_CU_CHECK(st, gb_cu->cuOccupancyMaxActiveBlocksPerMultiprocessor(
                        &blocks, f, pin->warps_per_block * g->info.warp_size, (size_t)pin->dyn_smem_bytes));
    if (blocks * pin->warps_per_block != warps)
        st = gb_error_set(GB_ERR_VERIFY,
                          "warps=%d not realised: the occupancy calculator gives %d blocks of %d warps per SM, "
                          "the driver's cuOccupancyMaxActiveBlocksPerMultiprocessor %d blocks (%d active warps) "
                          "with %d registers per thread, %d B static and %d B dynamic shared memory per block",
                          warps, pin->blocks_per_sm, pin->warps_per_block, blocks, blocks * pin->warps_per_block,
                          regs, static_smem, pin->dyn_smem_bytes);
out:
    return st;
}

enum gb_status camp_pin_point(struct gb_point *p, CUfunction f, int warps, struct gb_camp_pin *pin)
{
    enum gb_status st = camp_pin_func(p->gpu, f, warps, pin);
    if (st == GB_OK)
        st = gb_point_metric(p, GB_CAMP_METRIC_ACTIVE_WARPS, warps);
    return st;
}

enum gb_status camp_check_sms(struct gb_gpu *g, CUdeviceptr smid, unsigned grid, int per_sm)
{
    enum gb_status st = GB_OK;
    enum { MAX_SM = 4096 };
    uint32_t *ids = malloc(grid * sizeof *ids);
    int *count = calloc(MAX_SM, sizeof *count);
    if (!ids || !count) {
        st = gb_error_set(GB_ERR_NOMEM, "out of host memory");
        goto out;
    }
    GB_CU_CHECK(st, gb_cu->cuMemcpyDtoH(ids, smid, grid * sizeof *ids));
    int used = 0;
    for (unsigned i = 0; i < grid; i++) {
        if (ids[i] >= MAX_SM) {
            st = gb_error_set(GB_ERR_VERIFY, "block %u reports SM id %u", i, ids[i]);
            goto out;
        }
        used += count[ids[i]]++ == 0;
    }
    for (int i = 0; i < MAX_SM; i++)
        if (count[i] && count[i] != per_sm) {
            st = gb_error_set(GB_ERR_VERIFY,
                              "the pinning did not hold: SM %d ran %d blocks of the grid, not %d (blocks were "
                              "not resident %d per SM at once)",
                              i, count[i], per_sm, per_sm);
            goto out;
        }
    if (used != g->info.sm_count)
        st = gb_error_set(GB_ERR_VERIFY, "the grid ran on %d SMs, not on all %d", used, g->info.sm_count);
out:
    free(ids);
    free(count);
    return st;
}

/* Times `launch` on the point's stream: the median over 5 samples of the
 * mean of n back-to-back launches, n chosen so that a sample lasts about
 * 200 us. Used for the references the discovery compares against. */
static enum gb_status camp_time(struct gb_point *p, enum gb_status (*launch)(struct gb_point *, void *), double *ns)
{
    enum gb_status st = GB_OK;
    struct gb_gpu *g = p->gpu;
    CUevent ev[2] = {0, 0};
    double t[5];
    int n = 1;
    GB_CU_CHECK(st, gb_cu->cuEventCreate(&ev[0], CU_EVENT_DEFAULT));
    GB_CU_CHECK(st, gb_cu->cuEventCreate(&ev[1], CU_EVENT_DEFAULT));
    for (int rep = -1; rep < 5; rep++) {
        float ms = 0;
        GB_CU_CHECK(st, gb_cu->cuEventRecord(ev[0], g->stream));
        for (int i = 0; i < n; i++)
            if ((st = launch(p, p->bench->ctx)) != GB_OK)
                goto out;
        GB_CU_CHECK(st, gb_cu->cuEventRecord(ev[1], g->stream));
        GB_CU_CHECK(st, gb_cu->cuEventSynchronize(ev[1]));
        GB_CU_CHECK(st, gb_cu->cuEventElapsedTime(&ms, ev[0], ev[1]));
        double per = ms * 1e6 / n;
        if (rep < 0) {
            /* The first sample only sizes the others (and warms up). */
            n = (int)ceil(200e3 / fmax(per, 1.0));
            n = n < 1 ? 1 : n > 200 ? 200 : n;
        } else {
            t[rep] = per;
        }
    }
    *ns = gb_stats_median(t, 5);
out:
    if (ev[0])
        gb_cu->cuEventDestroy(ev[0]);
    if (ev[1])
        gb_cu->cuEventDestroy(ev[1]);
    return st;
}

/* ---- the slice-conflict probe ---- */

#define PROBE_BATCH 256      /* probe launches per synchronisation */
#define PROBE_MAX 16384      /* candidate lines paired with the anchor at most */
#define PROBE_MIN 1024       /* candidates before the classification may end the search */
#define PROBE_ITERS 64       /* requests per warp of one probe launch (about 40 us for a fast pair on an H200) */
#define SPREAD_MAX_PAIRS 16384 /* pair tests the greedy choice of the spread set may spend */
#define SPREAD_CHUNK 32      /* pair tests per synchronisation of the greedy choice */

struct camp_probe_ctx {
    struct gb_gpu *g;
    CUfunction f;
    CUdeviceptr base, sink, table;
    unsigned grid, block, smem;
    uint32_t *host;          /* PROBE_BATCH * CAMP_MAX_LINES entries */
    CUevent ev[PROBE_BATCH + 1];
};

/* Times n probe launches (n <= PROBE_BATCH), launch i over the k lines
 * tab[i*k .. i*k+k-1] (k <= CAMP_MAX_LINES), in ns each. */
static enum gb_status camp_probe_batch(struct camp_probe_ctx *c, const uint32_t *tab, unsigned k, int n, double *t)
{
    enum gb_status st = GB_OK;
    unsigned iters = PROBE_ITERS;
    GB_CU_CHECK(st, gb_cu->cuMemcpyHtoD(c->table, tab, (size_t)n * k * sizeof *tab));
    GB_CU_CHECK(st, gb_cu->cuEventRecord(c->ev[0], c->g->stream));
    for (int i = 0; i < n; i++) {
        CUdeviceptr lines = c->table + (CUdeviceptr)i * k * sizeof *tab;
        void *args[] = {&c->base, &lines, &k, &iters, &c->sink};
        if ((st = gb_gpu_launch(c->g, c->f, c->grid, 1, 1, c->block, 1, 1, c->smem, args)) != GB_OK)
            goto out;
        GB_CU_CHECK(st, gb_cu->cuEventRecord(c->ev[i + 1], c->g->stream));
    }
    GB_CU_CHECK(st, gb_cu->cuEventSynchronize(c->ev[n]));
    for (int i = 0; i < n; i++) {
        float ms = 0;
        GB_CU_CHECK(st, gb_cu->cuEventElapsedTime(&ms, c->ev[i], c->ev[i + 1]));
        t[i] = ms * 1e6;
    }
out:
    return st;
}

/* Pair tests (a, b[i]) for i < n (any n), times into t. */
static enum gb_status camp_probe_pairs(struct camp_probe_ctx *c, uint64_t a, const uint64_t *b, int n, double *t)
{
    enum gb_status st = GB_OK;
    for (int done = 0; done < n && st == GB_OK; done += PROBE_BATCH) {
        int m = n - done < PROBE_BATCH ? n - done : PROBE_BATCH;
        for (int i = 0; i < m; i++) {
            c->host[2 * i] = (uint32_t)a;
            c->host[2 * i + 1] = (uint32_t)b[done + i];
        }
        st = camp_probe_batch(c, c->host, 2, m, t + done);
    }
    return st;
}

/* The probe kernel over the k lines of `set`: the median of 16 launches. */
static enum gb_status camp_probe_set(struct camp_probe_ctx *c, const uint32_t *set, int k, double *ns)
{
    enum { N = 16 };
    double t[N];
    enum gb_status st;
    for (int i = 0; i < N; i++)
        memcpy(c->host + (size_t)i * k, set, (size_t)k * sizeof *set);
    if ((st = camp_probe_batch(c, c->host, (unsigned)k, N, t)) != GB_OK)
        return st;
    *ns = gb_stats_median(t, N);
    return GB_OK;
}

/* One search of camp_find: the probe, the candidates paired with the
 * anchor and their times, and the classification of those times. */
struct camp_search {
    struct camp_probe_ctx c;
    int n_ev;                /* events of c created so far */
    uint64_t anchor, n_lines;
    int want;
    uint64_t *cand;          /* candidate lines in test order (PROBE_MAX) */
    double *t;               /* their pair times with the anchor */
    int *slow;               /* indices of the candidates above the threshold */
    unsigned char *in_set;   /* n_lines flags: line taken into the set being built */
    int tested, usable, n_slow;
    double med, slowest, thr;
    int same;                /* lines of the camped set confirmed in the anchor's slice */
};

static void camp_search_close(struct camp_search *s)
{
    for (int i = 0; i < s->n_ev; i++)
        gb_cu->cuEventDestroy(s->c.ev[i]);
    gb_gpu_free(s->c.g, s->c.sink);
    gb_gpu_free(s->c.g, s->c.table);
    free(s->c.host);
    free(s->cand);
    free(s->t);
    free(s->slow);
    free(s->in_set);
    memset(s, 0, sizeof *s);
}

/* Takes what a search needs: host arrays, the probe kernel pinned to all
 * the warps an SM holds, its device buffers and events. The caller closes
 * `s` whatever this returns. */
static enum gb_status camp_search_open(struct camp_search *s, struct gb_gpu *g, CUmodule m, CUdeviceptr base,
                                       size_t window, uint64_t anchor, int want)
{
    enum gb_status st = GB_OK;
    struct gb_camp_pin pin;
    memset(s, 0, sizeof *s);
    s->c.g = g;
    s->anchor = anchor;
    s->want = want;
    s->n_lines = window / CAMP_LINE_BYTES;
    s->cand = malloc(PROBE_MAX * sizeof *s->cand);
    s->t = malloc(PROBE_MAX * sizeof *s->t);
    s->slow = malloc(PROBE_MAX * sizeof *s->slow);
    s->in_set = calloc((size_t)s->n_lines, 1);
    s->c.host = malloc((size_t)PROBE_BATCH * CAMP_MAX_LINES * sizeof *s->c.host);
    if (!s->cand || !s->t || !s->slow || !s->in_set || !s->c.host)
        return gb_error_set(GB_ERR_NOMEM, "out of host memory");
    if (want < 4 || want > CAMP_MAX_LINES || (want & (want - 1)) || anchor >= s->n_lines ||
        s->n_lines < (uint64_t)PROBE_MIN + 1 || s->n_lines > 0xFFFFFFFFULL)
        return gb_error_set(GB_ERR_UNSUPPORTED,
                            "camping: the slice probe needs a window of %d lines to 512 GiB, an anchor inside it "
                            "and a set of 4..%d lines (a power of two)",
                            PROBE_MIN + 1, CAMP_MAX_LINES);
    s->c.base = base;
    /* All warps the SM holds, as the micro-benchmarks' 64 warps. */
    if ((st = gb_gpu_function(m, "camp_probe", &s->c.f)) != GB_OK ||
        (st = camp_pin_func(g, s->c.f, g->info.max_threads_per_sm / g->info.warp_size, &pin)) != GB_OK ||
        (st = gb_gpu_alloc(g, 64, &s->c.sink)) != GB_OK ||
        (st = gb_gpu_alloc(g, (size_t)PROBE_BATCH * CAMP_MAX_LINES * sizeof *s->c.host, &s->c.table)) != GB_OK)
        goto out;
    s->c.grid = (unsigned)(g->info.sm_count * pin.blocks_per_sm);
    s->c.block = (unsigned)(pin.warps_per_block * g->info.warp_size);
    s->c.smem = (unsigned)pin.dyn_smem_bytes;
    for (; s->n_ev <= PROBE_BATCH; s->n_ev++)
        GB_CU_CHECK(st, gb_cu->cuEventCreate(&s->c.ev[s->n_ev], CU_EVENT_DEFAULT));
out:
    return st;
}

/* Warms up (clocks), then times the anchor with itself: one slice for sure. */
static enum gb_status camp_search_same(struct camp_search *s, struct camp_found *out)
{
    enum gb_status st;
    uint64_t self[64];
    double tb[64];
    for (int i = 0; i < 64; i++)
        self[i] = s->anchor;
    if ((st = camp_probe_pairs(&s->c, s->anchor, self, 64, tb)) != GB_OK ||
        (st = camp_probe_pairs(&s->c, s->anchor, self, 64, tb)) != GB_OK)
        return st;
    out->t_same_ns = gb_stats_median(tb, 64);
    return GB_OK;
}

/* The pair test of the anchor with the lines after it (wrapping in the
 * window), a batch at a time; at least PROBE_MIN, then until want - 1 (and a
 * margin of 8) classify as the anchor's slice, or the times are not bimodal,
 * or PROBE_MAX lines (or the window) are done. Leaves the classification of
 * every tested line in `s`. */
static enum gb_status camp_search_scan(struct camp_search *s, const struct camp_found *out)
{
    enum gb_status st;
    int max_tested = PROBE_MAX;
    if ((uint64_t)max_tested > s->n_lines - 1)
        max_tested = (int)(s->n_lines - 1);
    s->med = s->slowest = NAN;
    s->thr = INFINITY;
    while (s->tested < max_tested) {
        int n = max_tested - s->tested < PROBE_BATCH ? max_tested - s->tested : PROBE_BATCH;
        for (int i = 0; i < n; i++)
            s->cand[s->tested + i] = (s->anchor + 1 + (uint64_t)(s->tested + i)) % s->n_lines;
        if ((st = camp_probe_pairs(&s->c, s->anchor, s->cand + s->tested, n, s->t + s->tested)) != GB_OK)
            return st;
        s->tested += n;
        if (s->tested < PROBE_MIN)
            continue;
        s->usable = gb_camp_probe_threshold(s->t, s->tested, out->t_same_ns, &s->med, &s->slowest, &s->thr);
        if (!s->usable || gb_camp_probe_above(s->t, s->tested, s->thr, s->slow, 0) >= s->want - 1 + 8)
            break;
    }
    s->usable = gb_camp_probe_threshold(s->t, s->tested, out->t_same_ns, &s->med, &s->slowest, &s->thr);
    s->n_slow = gb_camp_probe_above(s->t, s->tested, s->thr, s->slow, PROBE_MAX);
    return GB_OK;
}

/* Confirms the slow candidates: two more pair tests each; a line joins the
 * anchor's slice when the median of its three times is above the threshold.
 * The camped set: the anchor and the first confirmed lines, then (when too
 * few) the slowest of the rest, which `same` does not count. */
static enum gb_status camp_search_camped(struct camp_search *s, struct camp_found *out)
{
    enum gb_status st;
    int n_camped = 1;
    out->camped[0] = (uint32_t)s->anchor;
    s->in_set[s->anchor] = 1;
    if (s->usable && s->n_slow > 0) {
        int n_conf = s->n_slow < PROBE_BATCH ? s->n_slow : PROBE_BATCH;
        uint64_t lines[PROBE_BATCH];
        double rt[2][PROBE_BATCH];
        for (int i = 0; i < n_conf; i++)
            lines[i] = s->cand[s->slow[i]];
        for (int r = 0; r < 2; r++)
            if ((st = camp_probe_pairs(&s->c, s->anchor, lines, n_conf, rt[r])) != GB_OK)
                return st;
        for (int i = 0; i < n_conf && n_camped < s->want; i++) {
            double v[3] = {s->t[s->slow[i]], rt[0][i], rt[1][i]};
            if (gb_stats_median(v, 3) > s->thr) {
                out->camped[n_camped++] = (uint32_t)lines[i];
                s->in_set[lines[i]] = 1;
                s->same++;
            }
        }
    }
    while (n_camped < s->want) {
        /* Too few: the slowest candidates not yet in the set. */
        int best = -1;
        for (int i = 0; i < s->tested; i++)
            if (!s->in_set[s->cand[i]] && (best < 0 || s->t[i] > s->t[best]))
                best = i;
        if (best < 0)
            return gb_error_set(GB_ERR_UNSUPPORTED, "camping: the slice probe tested too few lines for a set of %d",
                                s->want);
        out->camped[n_camped++] = (uint32_t)s->cand[best];
        s->in_set[s->cand[best]] = 1;
    }
    return GB_OK;
}

/* Whether line x's pair test with every line of the spread set taken so
 * far (from index `first`) is fast: *ok is 1 when all are. */
static enum gb_status camp_search_apart(struct camp_search *s, const struct camp_found *out, uint64_t x, int first,
                                        int n_spread, int *pairs, int *ok)
{
    enum gb_status st;
    double tb[SPREAD_CHUNK];
    *ok = 1;
    for (int j0 = first; j0 < n_spread && *ok; j0 += SPREAD_CHUNK) {
        int n = n_spread - j0 < SPREAD_CHUNK ? n_spread - j0 : SPREAD_CHUNK;
        uint64_t other[SPREAD_CHUNK];
        for (int j = 0; j < n; j++)
            other[j] = out->spread[j0 + j];
        if ((st = camp_probe_pairs(&s->c, x, other, n, tb)) != GB_OK)
            return st;
        *pairs += n;
        for (int j = 0; j < n; j++)
            *ok &= tb[j] <= s->thr;
    }
    return GB_OK;
}

/* The spread set, greedily: the anchor, then the lines after it, each taken
 * when its pair test with every line taken so far is fast (different
 * slices). Lines the anchor's test put in its slice are skipped untested.
 * When the pair-test budget runs out first, the set is completed with the
 * next lines, which `spread_distinct` does not count. */
static enum gb_status camp_search_spread(struct camp_search *s, struct camp_found *out)
{
    enum gb_status st;
    int n_spread = 1, pairs = 0;
    memset(s->in_set, 0, (size_t)s->n_lines);
    out->spread[0] = (uint32_t)s->anchor;
    s->in_set[s->anchor] = 1;
    for (uint64_t d = 1; d < s->n_lines && n_spread < s->want && s->usable && pairs < SPREAD_MAX_PAIRS; d++) {
        uint64_t x = (s->anchor + d) % s->n_lines;
        if (d <= (uint64_t)s->tested && s->t[d - 1] > s->thr)
            continue;
        /* Against the lines taken after the anchor (the anchor's own test
         * is known for the first `tested` lines). */
        int ok;
        if ((st = camp_search_apart(s, out, x, d <= (uint64_t)s->tested ? 1 : 0, n_spread, &pairs, &ok)) != GB_OK)
            return st;
        if (ok) {
            out->spread[n_spread++] = (uint32_t)x;
            s->in_set[x] = 1;
        }
    }
    out->spread_distinct = n_spread;
    for (uint64_t d = 1; d < s->n_lines && n_spread < s->want; d++) {
        uint64_t x = (s->anchor + d) % s->n_lines;
        if (!s->in_set[x]) {
            out->spread[n_spread++] = (uint32_t)x;
            s->in_set[x] = 1;
        }
    }
    return GB_OK;
}

enum gb_status camp_find(struct gb_gpu *g, CUmodule m, CUdeviceptr base, size_t window, uint64_t anchor, int want,
                         struct camp_found *out)
{
    enum gb_status st;
    struct camp_search s;
    memset(out, 0, sizeof *out);
    if ((st = camp_search_open(&s, g, m, base, window, anchor, want)) != GB_OK ||
        (st = camp_search_same(&s, out)) != GB_OK || (st = camp_search_scan(&s, out)) != GB_OK ||
        (st = camp_search_camped(&s, out)) != GB_OK || (st = camp_search_spread(&s, out)) != GB_OK)
        goto out;
    /* Both sets through the same kernel. */
    if ((st = camp_probe_set(&s.c, out->camped, want, &out->t_set_camped_ns)) != GB_OK ||
        (st = camp_probe_set(&s.c, out->spread, want, &out->t_set_spread_ns)) != GB_OK)
        goto out;
    out->lines = want;
    out->tested = s.tested;
    out->same = s.same;
    out->usable = s.usable;
    out->t_pair_ns = s.med;
    out->t_slow_ns = s.slowest;
out:
    camp_search_close(&s);
    return st;
}

/* The camped set of read and write: found once per process, in a window of
 * its own that later points reuse (the lines that share a slice are a
 * property of the physical pages, so the set belongs to this allocation). */
static struct {
    CUcontext ctx;
    CUdeviceptr buf;
    int tried;
    enum gb_status st;
    char msg[512];
    struct camp_found found;
} camp_pool;

static enum gb_status camp_pool_get(struct gb_point *p, CUdeviceptr *buf, const struct camp_found **found)
{
    struct gb_gpu *g = p->gpu;
    enum gb_status st;
    if (camp_pool.tried && camp_pool.ctx == g->ctx) {
        *buf = camp_pool.buf;
        *found = &camp_pool.found;
        return camp_pool.st == GB_OK ? GB_OK : gb_error_set(camp_pool.st, "%s", camp_pool.msg);
    }
    /* A new context: the old window went with the old one. */
    memset(&camp_pool, 0, sizeof camp_pool);
    camp_pool.ctx = g->ctx;
    camp_pool.tried = 1;
    if ((st = gb_gpu_alloc(g, CAMP_WINDOW, &camp_pool.buf)) == GB_OK &&
        (st = gb_gpu_fill_random(g, camp_pool.buf, CAMP_WINDOW / 4, 0x5eed)) == GB_OK)
        st = camp_find(g, p->module, camp_pool.buf, CAMP_WINDOW, 0, CAMP_SET_LINES, &camp_pool.found);
    camp_pool.st = st;
    if (st != GB_OK) {
        snprintf(camp_pool.msg, sizeof camp_pool.msg, "%s", gb_error_message());
        if (camp_pool.buf)
            gb_gpu_free(g, camp_pool.buf);
        camp_pool.buf = 0;
    }
    *buf = camp_pool.buf;
    *found = &camp_pool.found;
    return st;
}

/* ---- read and write ---- */

static const struct gb_axis_def camp_axes_mb[] = {
    {"pattern", GB_AXIS_STR, "spread,camped", NULL, 0, 0, "spread,camped",
     "spread: requests over every L2 slice; camped: every request on one slice (camp_pitch picks the class)"},
    {"width", GB_AXIS_STR, "2,4,8,16", "4,16", 0, 0, "2,4,8,16", "bytes each thread accesses per request"},
    {"warps", GB_AXIS_INT, "1:16,18:64:2", "1,8,32,64", 1, 64, NULL,
     "active warps per SM, pinned (1..the GPU's maximum; values no equal blocks realise are skipped)"},
    {"camp_pitch", GB_AXIS_INT, "0", NULL, 0, 1L << 30, NULL,
     "0: 64 lines of one L2 slice (slice probe) vs 64 consecutive lines; P: DRAM column order, pitch P, vs a stream"},
};

static const struct gb_axis_def camp_axes_discover[] = {
    {"width", GB_AXIS_STR, "4", NULL, 0, 0, "2,4,8,16", "bytes each thread reads per request"},
    {"footprint", GB_AXIS_INT, "1G,16M", "256M,16M", 1L << 20, 1L << 40, NULL,
     "bytes the pattern spans (larger and smaller than the L2); for pitch=0 the window the probe searches"},
    {"offset", GB_AXIS_INT, "0,2176", "0", 0, 1L << 30, NULL,
     "bytes from the buffer's start to the pattern's (pitch=0: the anchor line)"},
    {"pitch", GB_AXIS_INT,
     "0,128,1152,4K,4224,7936,8K,8448,12K,16K,16512,32512,32K,33024,40K,64K,65664,128K", "0,128,4K,4224,64K", 0,
     1L << 30, NULL,
     "0 = slice probe; 32 x width = row order; P = column order, concurrent warps P bytes apart (multiple of 128)"},
};

int camp_opts(const struct gb_point *p, void *ctx, char opts[][GB_OPT_LEN], int max)
{
    (void)ctx;
    (void)max;
    const char *w = gb_point_str(p, "width");
    snprintf(opts[0], GB_OPT_LEN, "-DWIDTH=%s", *w ? w : "4");
    return 1;
}

static uint64_t camp_pow2_floor(uint64_t x)
{
    uint64_t r = 1;
    while (r <= x / 2)
        r <<= 1;
    return r;
}

static unsigned camp_log2(uint64_t x)
{
    unsigned l = 0;
    while ((1ULL << l) < x)
        l++;
    return l;
}

void camp_teardown(struct gb_point *p, void *ctx)
{
    (void)ctx;
    struct camp_state *s = p->state;
    if (!s)
        return;
    gb_gpu_free(p->gpu, s->own);
    gb_gpu_free(p->gpu, s->sums);
    gb_gpu_free(p->gpu, s->smid);
    gb_gpu_free(p->gpu, s->scratch);
    free(s);
    p->state = NULL;
}

/* Sets the line table of the module's camp_lines. */
static enum gb_status camp_set_lines(CUmodule m, const uint32_t *lines, int n)
{
    enum gb_status st = GB_OK;
    CUdeviceptr d;
    size_t bytes = 0;
    GB_CU_CHECK(st, gb_cu->cuModuleGetGlobal(&d, &bytes, m, "camp_lines"));
    if (bytes < n * sizeof *lines)
        return gb_error_set(GB_ERR_UNSUPPORTED, "camping: camp_lines holds %zu bytes", bytes);
    GB_CU_CHECK(st, gb_cu->cuMemcpyHtoD(d, lines, n * sizeof *lines));
out:
    return st;
}

/* Streams cover a buffer of at least 4 L2s (and 256 MiB), a power of two:
 * a line comes back only after that many bytes, long evicted. */
static size_t camp_stream_bytes(const struct gb_gpu *g)
{
    uint64_t want = (uint64_t)g->info.l2_bytes * 4;
    if (want < (256ULL << 20))
        want = 256ULL << 20;
    uint64_t b = camp_pow2_floor(want);
    return (size_t)(b < want ? b * 2 : b);
}

static enum gb_status camp_mb_setup(struct gb_point *p, int store)
{
    enum gb_status st;
    struct gb_gpu *g = p->gpu;
    struct camp_state *s = calloc(1, sizeof *s);
    if (!s)
        return gb_error_set(GB_ERR_NOMEM, "out of host memory");
    p->state = s;
    s->width = atoi(gb_point_str(p, "width"));
    s->warps = (int)gb_point_int(p, "warps");
    s->store = store;
    int camped = strcmp(gb_point_str(p, "pattern"), "camped") == 0;
    long camp_pitch = gb_point_int(p, "camp_pitch");
    const uint64_t req = 32ULL * (uint64_t)s->width;
    if (gb_camp_width_class(s->width) < GB_CAMP_RECORDED_CLASS_MIN)
        return gb_error_set(GB_ERR_UNSUPPORTED, "width %d is not 2, 4, 8 or 16", s->width);
    if ((st = gb_gpu_function(p->module, store ? "camp_write" : "camp_read", &s->f)) != GB_OK ||
        (st = camp_pin_point(p, s->f, s->warps, &s->pin)) != GB_OK)
        return st;
    s->grid = (unsigned)(g->info.sm_count * s->pin.blocks_per_sm);
    s->block = (unsigned)(s->pin.warps_per_block * g->info.warp_size);
    const uint64_t G = (uint64_t)s->grid * (uint64_t)s->pin.warps_per_block;
    s->seed = (unsigned)rand() | 1u;
    s->geo.total = G * CAMP_ITERS;

    if (camp_pitch > 0) {
        /* The DRAM class: a stream over a buffer of several L2s (spread)
         * against column order with a pitch of camp_pitch bytes (camped). */
        s->buf_bytes = camp_stream_bytes(g);
        if ((st = gb_gpu_alloc(g, s->buf_bytes, &s->own)) != GB_OK)
            return st;
        s->base = s->own;
        s->rotate = 1;
        p->no_graph = 1; /* every launch starts where the last one ended */
        if (!camped) {
            s->geo.cls = CAMP_CLS_ROWS;
            s->geo.nq = s->buf_bytes / req;
        } else {
            if (camp_pitch % 128 || (uint64_t)camp_pitch < req)
                return gb_error_set(GB_ERR_UNSUPPORTED,
                                    "camp_pitch=%ld: a pitch must be a multiple of 128 bytes and at least 32 x "
                                    "width = %llu bytes",
                                    camp_pitch, (unsigned long long)req);
            uint64_t rows = camp_pow2_floor(s->buf_bytes / (uint64_t)camp_pitch);
            s->geo.cls = CAMP_CLS_COLUMNS;
            s->geo.pitch = (uint64_t)camp_pitch;
            s->geo.rows_log2 = camp_log2(rows);
            s->geo.nq = rows * ((uint64_t)camp_pitch / req);
        }
        if (!store && (st = gb_gpu_fill_random(g, s->base, s->buf_bytes / 4, s->seed)) != GB_OK)
            return st;
    } else {
        /* The L2-slice class: every request on the lines of one slice
         * (camped) or on as many consecutive lines (spread), found once per
         * run by the slice probe. */
        const struct camp_found *found;
        if ((st = camp_pool_get(p, &s->base, &found)) != GB_OK)
            return st;
        s->buf_bytes = CAMP_WINDOW;
        s->geo.cls = CAMP_CLS_LINES;
        s->geo.lines = (uint32_t)found->lines;
        s->geo.nq = 2ULL * found->lines;
        s->n_lines = found->lines;
        memcpy(s->lines, camped ? found->camped : found->spread, (size_t)found->lines * sizeof *s->lines);
        if ((st = camp_set_lines(p->module, s->lines, s->n_lines)) != GB_OK)
            return st;
        /* Fresh data in the window for this point. */
        if (!store && (st = gb_gpu_fill_random(g, s->base, s->buf_bytes / 4, s->seed)) != GB_OK)
            return st;
        /* How many of the camped set's lines besides the anchor the probe
         * confirmed in the anchor's slice (all: set size - 1). */
        if ((st = gb_point_metric(p, "same_slice", found->same)) != GB_OK ||
            (st = gb_point_metric(p, "spread_slices", found->spread_distinct)) != GB_OK)
            return st;
    }
    if (!store) {
        s->n_sums = G * 32;
        if ((st = gb_gpu_alloc(g, s->n_sums * 8, &s->sums)) != GB_OK)
            return st;
    }
    if ((st = gb_gpu_alloc(g, s->grid * 4, &s->smid)) != GB_OK || (st = gb_gpu_alloc(g, 64, &s->scratch)) != GB_OK)
        return st;
    s->smid_on = 1;

    struct gb_camp_counts cnt;
    memset(&cnt, 0, sizeof cnt);
    if (store)
        gb_camp_counts_write(&cnt, s->width, (double)s->geo.total);
    else
        gb_camp_counts_read(&cnt, s->width, (double)s->geo.total, (double)G);
    if ((st = gb_camp_counts_record(&cnt, p)) != GB_OK)
        return st;
    p->bytes = 32.0 * (cnt.ld_sectors + cnt.st_sectors);
    return gb_gpu_sync(g);
}

static enum gb_status camp_read_setup(struct gb_point *p, void *ctx)
{
    (void)ctx;
    return camp_mb_setup(p, 0);
}

static enum gb_status camp_write_setup(struct gb_point *p, void *ctx)
{
    (void)ctx;
    return camp_mb_setup(p, 1);
}

static enum gb_status camp_mb_poison(struct gb_point *p, void *ctx)
{
    (void)ctx;
    struct camp_state *s = p->state;
    if (s->store)
        return gb_gpu_fill_u32(p->gpu, s->base, s->buf_bytes / 4, GB_POISON);
    return gb_gpu_fill_u32(p->gpu, s->sums, s->n_sums * 2, GB_POISON);
}

static enum gb_status camp_mb_launch(struct gb_point *p, void *ctx)
{
    (void)ctx;
    struct camp_state *s = p->state;
    CUdeviceptr smid = s->smid_on ? s->smid : 0;
    void *args_r[] = {&s->base, &s->geo, &s->sums, &smid};
    void *args_w[] = {&s->base, &s->geo, &s->seed, &smid};
    enum gb_status st = gb_gpu_launch(p->gpu, s->f, s->grid, 1, 1, s->block, 1, 1,
                                      (unsigned)s->pin.dyn_smem_bytes, s->store ? args_w : args_r);
    s->geo_last = s->geo;
    if (s->rotate)
        s->geo.q0 = (s->geo.q0 + s->geo.total) % s->geo.nq;
    return st;
}

/* Sum over the line table of camp_read's visits times the values read (a
 * 16-bit read adds each half of a word on its own). */
static enum gb_status camp_lines_ref(struct gb_point *p, uint64_t *want)
{
    struct camp_state *s = p->state;
    enum gb_status st = GB_OK;
    uint32_t w[CAMP_LINE_BYTES / 4];
    const uint64_t halves = 32ULL * (uint64_t)s->width / 64;
    uint64_t sum = 0;
    for (int l = 0; l < s->n_lines; l++) {
        GB_CU_CHECK(st, gb_cu->cuMemcpyDtoH(w, s->base + (CUdeviceptr)s->lines[l] * CAMP_LINE_BYTES, sizeof w));
        for (int h = 0; h < 2; h++) {
            uint64_t v = 0;
            for (int k = 0; k < 16; k++) {
                uint32_t x = w[h * 16 + k];
                v += s->width == 2 ? (uint64_t)(x & 0xffffu) + (x >> 16) : x;
            }
            uint64_t visits = gb_camp_halfline_visits((uint64_t)(2 * l + h), s->geo_last.q0, halves,
                                                      (uint64_t)s->n_lines, s->geo_last.total);
            sum += v * visits;
        }
    }
    *want = sum;
out:
    return st;
}

static enum gb_status camp_read_verify(struct gb_point *p, void *ctx)
{
    (void)ctx;
    struct camp_state *s = p->state;
    struct gb_gpu *g = p->gpu;
    enum gb_status st = GB_OK;
    uint64_t *h = malloc(s->n_sums * sizeof *h), got = 0, want = 0;
    if (!h)
        return gb_error_set(GB_ERR_NOMEM, "out of host memory");
    if ((st = camp_check_sms(g, s->smid, s->grid, s->pin.blocks_per_sm)) != GB_OK)
        goto out;
    s->smid_on = 0;
    GB_CU_CHECK(st, gb_cu->cuMemcpyDtoH(h, s->sums, s->n_sums * sizeof *h));
    for (size_t i = 0; i < s->n_sums; i++)
        got += h[i];
    if (s->geo_last.cls == CAMP_CLS_LINES) {
        if ((st = camp_lines_ref(p, &want)) != GB_OK)
            goto out;
    } else {
        CUfunction ref;
        unsigned long long n_words = s->buf_bytes / 4;
        void *args[] = {&s->base, &n_words, &s->geo_last, &s->scratch};
        GB_CU_CHECK(st, gb_cu->cuMemsetD32Async(s->scratch, 0, 2, g->stream));
        if ((st = gb_gpu_function(p->module, "camp_ref_read", &ref)) != GB_OK ||
            (st = gb_gpu_launch(g, ref, (unsigned)g->info.sm_count * 8, 1, 1, 256, 1, 1, 0, args)) != GB_OK ||
            (st = gb_gpu_sync(g)) != GB_OK)
            goto out;
        GB_CU_CHECK(st, gb_cu->cuMemcpyDtoH(&want, s->scratch, sizeof want));
    }
    if (got != want)
        st = gb_error_set(GB_ERR_VERIFY, "the read checksums add up to %llu, the reference to %llu",
                          (unsigned long long)got, (unsigned long long)want);
out:
    free(h);
    return st;
}

static enum gb_status camp_write_verify(struct gb_point *p, void *ctx)
{
    (void)ctx;
    struct camp_state *s = p->state;
    struct gb_gpu *g = p->gpu;
    enum gb_status st = GB_OK;
    uint32_t *h = NULL;
    if ((st = camp_check_sms(g, s->smid, s->grid, s->pin.blocks_per_sm)) != GB_OK)
        return st;
    s->smid_on = 0;
    if (s->geo_last.cls == CAMP_CLS_LINES) {
        /* On the host: the table's lines hold the pattern, every other word
         * of the window is still poison. */
        size_t n_words = s->buf_bytes / 4, bad = 0, first = (size_t)-1;
        unsigned char *in_set = calloc(s->buf_bytes / CAMP_LINE_BYTES, 1);
        h = malloc(s->buf_bytes);
        if (!h || !in_set) {
            free(in_set);
            st = gb_error_set(GB_ERR_NOMEM, "out of host memory");
            goto out;
        }
        for (int l = 0; l < s->n_lines; l++)
            in_set[s->lines[l]] = 1;
        CUresult r = gb_cu->cuMemcpyDtoH(h, s->base, s->buf_bytes);
        if (r != CUDA_SUCCESS) {
            free(in_set);
            st = gb_cuda_fail(r, "cuMemcpyDtoH", __FILE__, __LINE__);
            goto out;
        }
        for (size_t j = 0; j < n_words; j++) {
            uint32_t want = in_set[j * 4 / CAMP_LINE_BYTES] ? gb_camp_pat(s->seed, j) : GB_POISON;
            if (h[j] != want) {
                bad++;
                if (first == (size_t)-1)
                    first = j;
            }
        }
        free(in_set);
        if (bad)
            st = gb_error_set(GB_ERR_VERIFY, "%zu of %zu words of the camped window are wrong (first at word %zu)",
                              bad, n_words, first);
    } else {
        CUfunction chk;
        unsigned long long n_words = s->buf_bytes / 4, bad = 0;
        void *args[] = {&s->base, &n_words, &s->geo_last, &s->seed, &s->scratch};
        GB_CU_CHECK(st, gb_cu->cuMemsetD32Async(s->scratch, 0, 2, g->stream));
        if ((st = gb_gpu_function(p->module, "camp_check_write", &chk)) != GB_OK ||
            (st = gb_gpu_launch(g, chk, (unsigned)g->info.sm_count * 8, 1, 1, 256, 1, 1, 0, args)) != GB_OK ||
            (st = gb_gpu_sync(g)) != GB_OK)
            goto out;
        GB_CU_CHECK(st, gb_cu->cuMemcpyDtoH(&bad, s->scratch, sizeof bad));
        if (bad)
            st = gb_error_set(GB_ERR_VERIFY, "%llu of %llu words differ from the pattern (written) or the poison "
                              "(not written)", bad, n_words);
    }
out:
    free(h);
    return st;
}

/* ---- discover ---- */

/* What the slice probe found, as the point's metrics. */
static enum gb_status camp_found_metrics(struct gb_point *p, const struct camp_found *found)
{
    enum gb_status st;
    if ((st = gb_point_metric(p, "candidates", found->tested)) != GB_OK ||
        (st = gb_point_metric(p, "same_slice", found->same)) != GB_OK ||
        (st = gb_point_metric(p, "pair_ratio", found->t_slow_ns / found->t_pair_ns)) != GB_OK ||
        (st = gb_point_metric(p, "spread_slices", found->spread_distinct)) != GB_OK ||
        (st = gb_point_metric(p, "probe_slowdown", found->t_set_camped_ns / found->t_set_spread_ns)) != GB_OK)
        return st;
    return gb_point_metric(p, "set_lines", found->lines);
}

/* The requests and sectors of the point's reads (G warps), as its metrics
 * and its bytes. */
static enum gb_status camp_discover_counts(struct gb_point *p, double G)
{
    struct camp_state *s = p->state;
    enum gb_status st;
    struct gb_camp_counts cnt;
    memset(&cnt, 0, sizeof cnt);
    gb_camp_counts_read(&cnt, s->width, (double)s->geo.total, G);
    const int wc = gb_camp_width_class(s->width), c8 = gb_camp_width_class(8);
    if ((st = gb_point_metric(p, gb_camp_req_metric(0, wc), cnt.ld[wc])) != GB_OK ||
        (st = gb_point_metric(p, GB_CAMP_METRIC_LD_SECTORS, cnt.ld_sectors)) != GB_OK ||
        (st = gb_point_metric(p, gb_camp_req_metric(1, c8), cnt.st[c8])) != GB_OK ||
        (st = gb_point_metric(p, GB_CAMP_METRIC_ST_SECTORS, cnt.st_sectors)) != GB_OK)
        return st;
    p->bytes = 32.0 * (cnt.ld_sectors + cnt.st_sectors);
    return GB_OK;
}

static enum gb_status camp_discover_setup(struct gb_point *p, void *ctx)
{
    (void)ctx;
    enum gb_status st;
    struct gb_gpu *g = p->gpu;
    struct camp_state *s = calloc(1, sizeof *s);
    if (!s)
        return gb_error_set(GB_ERR_NOMEM, "out of host memory");
    p->state = s;
    s->width = atoi(gb_point_str(p, "width"));
    s->warps = g->info.max_threads_per_sm / g->info.warp_size;
    const uint64_t req = 32ULL * (uint64_t)s->width;
    const uint64_t footprint = (uint64_t)gb_point_int(p, "footprint");
    const uint64_t offset = (uint64_t)gb_point_int(p, "offset");
    const uint64_t pitch = (uint64_t)gb_point_int(p, "pitch");
    if (gb_camp_width_class(s->width) < GB_CAMP_RECORDED_CLASS_MIN)
        return gb_error_set(GB_ERR_UNSUPPORTED, "width %d is not 2, 4, 8 or 16", s->width);
    if (pitch && (pitch % 128 || pitch < req))
        return gb_error_set(GB_ERR_UNSUPPORTED,
                            "pitch=%llu: a pitch must be 0 (slice probe) or a multiple of 128 bytes of at least "
                            "32 x width = %llu bytes",
                            (unsigned long long)pitch, (unsigned long long)req);
    if (offset % 128)
        return gb_error_set(GB_ERR_UNSUPPORTED, "offset=%llu: an offset must be a multiple of 128 bytes",
                            (unsigned long long)offset);
    if (footprint / req >= (1ULL << 31))
        return gb_error_set(GB_ERR_UNSUPPORTED, "footprint=%llu: at most 2^31 requests of %llu bytes",
                            (unsigned long long)footprint, (unsigned long long)req);
    if (!pitch && offset >= footprint)
        return gb_error_set(GB_ERR_UNSUPPORTED, "offset=%llu: the anchor line must lie inside the footprint",
                            (unsigned long long)offset);
    if ((st = gb_gpu_function(p->module, "camp_read", &s->f)) != GB_OK ||
        (st = camp_pin_point(p, s->f, s->warps, &s->pin)) != GB_OK)
        return st;
    s->grid = (unsigned)(g->info.sm_count * s->pin.blocks_per_sm);
    s->block = (unsigned)(s->pin.warps_per_block * g->info.warp_size);
    const uint64_t G = (uint64_t)s->grid * (uint64_t)s->pin.warps_per_block;
    s->seed = (unsigned)rand() | 1u;
    s->n_sums = G * 32;
    if ((st = gb_gpu_alloc(g, s->n_sums * 8, &s->sums)) != GB_OK || (st = gb_gpu_alloc(g, 64, &s->scratch)) != GB_OK ||
        (st = gb_gpu_alloc(g, s->grid * 4, &s->smid)) != GB_OK)
        return st;

    double ref_ns = NAN, cand_ns = NAN;
    if (pitch == 0) {
        /* The slice probe over a window of `footprint` bytes, anchored at
         * the line at `offset`; the point times the camped set it finds,
         * against the spread set of as many lines. */
        struct camp_found found;
        s->buf_bytes = footprint;
        if ((st = gb_gpu_alloc(g, s->buf_bytes, &s->own)) != GB_OK)
            return st;
        s->base = s->own;
        if ((st = gb_gpu_fill_random(g, s->base, s->buf_bytes / 4, s->seed)) != GB_OK ||
            (st = camp_find(g, p->module, s->base, s->buf_bytes, offset / CAMP_LINE_BYTES, CAMP_SET_LINES, &found)) != GB_OK)
            return st;
        s->geo.cls = CAMP_CLS_LINES;
        s->geo.lines = (uint32_t)found.lines;
        s->geo.nq = 2ULL * found.lines;
        s->geo.total = G * CAMP_ITERS;
        s->n_lines = found.lines;
        if ((st = camp_set_lines(p->module, found.spread, found.lines)) != GB_OK ||
            (st = camp_time(p, camp_mb_launch, &ref_ns)) != GB_OK)
            return st;
        memcpy(s->lines, found.camped, (size_t)found.lines * sizeof *s->lines);
        if ((st = camp_set_lines(p->module, s->lines, s->n_lines)) != GB_OK ||
            (st = camp_time(p, camp_mb_launch, &cand_ns)) != GB_OK)
            return st;
        if ((st = camp_found_metrics(p, &found)) != GB_OK)
            return st;
    } else {
        /* Column order: 2^k rows of `pitch` bytes within the footprint,
         * read once, against row order over as many chunks. */
        uint64_t rows = camp_pow2_floor(footprint / pitch);
        if (footprint < pitch || rows * (pitch / req) <= G)
            return gb_error_set(GB_ERR_UNSUPPORTED, "footprint=%llu holds too few rows of pitch %llu",
                                (unsigned long long)footprint, (unsigned long long)pitch);
        s->buf_bytes = footprint;
        if ((st = gb_gpu_alloc(g, footprint + offset, &s->own)) != GB_OK)
            return st;
        s->base = s->own + offset;
        if ((st = gb_gpu_fill_random(g, s->base, s->buf_bytes / 4, s->seed)) != GB_OK)
            return st;
        uint64_t nq = rows * (pitch / req);
        s->geo.cls = CAMP_CLS_ROWS;
        s->geo.nq = camp_pow2_floor(nq) < nq ? camp_pow2_floor(nq) * 2 : nq;
        s->geo.total = nq;
        if ((st = camp_time(p, camp_mb_launch, &ref_ns)) != GB_OK)
            return st;
        s->geo.cls = CAMP_CLS_COLUMNS;
        s->geo.pitch = pitch;
        s->geo.rows_log2 = camp_log2(rows);
        s->geo.nq = nq;
        if ((st = camp_time(p, camp_mb_launch, &cand_ns)) != GB_OK)
            return st;
    }
    s->smid_on = 1;
    if ((st = gb_point_metric(p, "slowdown", cand_ns / ref_ns)) != GB_OK ||
        (st = gb_point_metric(p, "ref_ns", ref_ns)) != GB_OK)
        return st;

    if ((st = camp_discover_counts(p, (double)G)) != GB_OK)
        return st;
    return gb_gpu_sync(g);
}

static enum gb_status camp_discover_poison(struct gb_point *p, void *ctx)
{
    (void)ctx;
    struct camp_state *s = p->state;
    return gb_gpu_fill_u32(p->gpu, s->sums, s->n_sums * 2, GB_POISON);
}

/* ---- the suite ---- */

#define CAMP_MB(name_, help_, setup_, verify_) \
    {.name = name_,                            \
     .help = help_,                            \
     .kernel_file = "camping.cu",              \
     .kernel_opts = camp_opts,                 \
     .axes = camp_axes_mb,                     \
     .n_axes = 4,                              \
     .cache = GB_CACHE_HOT,                    \
     .setup = setup_,                          \
     .poison = camp_mb_poison,                 \
     .launch = camp_mb_launch,                 \
     .verify = verify_,                        \
     .teardown = camp_teardown}

static const struct gb_bench camp_benches[] = {
    CAMP_MB("read", "a fixed number of reads per warp (CampProf Figures 4/5), spread or camped", camp_read_setup,
            camp_read_verify),
    CAMP_MB("write", "a fixed number of writes per warp, spread or camped", camp_write_setup, camp_write_verify),
    {.name = "discover",
     .help = "search for the address pattern that camps worst: pitches, offsets, footprints, L2-slice probe",
     .kernel_file = "camping.cu",
     .kernel_opts = camp_opts,
     .axes = camp_axes_discover,
     .n_axes = 4,
     .cache = GB_CACHE_HOT,
     .setup = camp_discover_setup,
     .poison = camp_discover_poison,
     .launch = camp_mb_launch,
     .verify = camp_read_verify,
     .teardown = camp_teardown},
    {.name = "gem",
     .help = "GEM-like electrostatics: every thread reads every component in the same order (no camping)",
     .kernel_file = "camping.cu",
     .kernel_opts = camp_opts,
     .axes = camp_axes_app,
     .n_axes = 1,
     .cache = GB_CACHE_HOT,
     .setup = camp_gem_setup,
     .poison = camp_gem_poison,
     .launch = camp_gem_launch,
     .verify = camp_gem_verify,
     .teardown = camp_app_teardown},
    {.name = "clique",
     .help = "clique-counter-like irregular graph kernel: 3-cliques from adjacency lists (partial camping)",
     .kernel_file = "camping.cu",
     .kernel_opts = camp_opts,
     .axes = camp_axes_app,
     .n_axes = 1,
     .cache = GB_CACHE_HOT,
     .setup = camp_clique_setup,
     .poison = camp_clique_poison,
     .launch = camp_clique_launch,
     .verify = camp_clique_verify,
     .teardown = camp_app_teardown},
    {.name = "transpose_coalesced",
     .help = "SDK transposeCoalesced: 32x32 tiles in row order (camped writes on old GPUs)",
     .kernel_file = "camping.cu",
     .kernel_opts = camp_opts,
     .axes = camp_axes_app,
     .n_axes = 1,
     .cache = GB_CACHE_HOT,
     .setup = camp_transpose_setup,
     .poison = camp_transpose_poison,
     .launch = camp_transpose_launch,
     .verify = camp_transpose_verify,
     .teardown = camp_app_teardown},
    {.name = "transpose_diagonal",
     .help = "SDK transposeDiagonal: the same tiles in diagonal block order",
     .kernel_file = "camping.cu",
     .kernel_opts = camp_opts,
     .axes = camp_axes_app,
     .n_axes = 1,
     .cache = GB_CACHE_HOT,
     .setup = camp_transpose_setup,
     .poison = camp_transpose_poison,
     .launch = camp_transpose_launch,
     .verify = camp_transpose_verify,
     .teardown = camp_app_teardown},
};

#define CAMP_MB_CHART(stem, bench, pat, what)                                                      \
    {.name = stem,                                                                                 \
     .title = "CampProf micro-benchmark: " what,                                                   \
     .kind = GB_CHART_LINE,                                                                        \
     .benches = bench,                                                                             \
     .where = "pattern=" pat,                                                                      \
     .x = "warps",                                                                                 \
     .series = "width",                                                                            \
     .series_label = "{} B per thread",                                                            \
     .y = "median_ns",                                                                             \
     .x_label = "active warps per SM",                                                             \
     .y_label = "time per launch (ns)"}

static const struct gb_chart_spec camp_charts[] = {
    CAMP_MB_CHART("camping-read-spread", "read", "spread", "reads spread over every partition"),
    CAMP_MB_CHART("camping-read-camped", "read", "camped", "reads camped on one L2 slice"),
    CAMP_MB_CHART("camping-write-spread", "write", "spread", "writes spread over every partition"),
    CAMP_MB_CHART("camping-write-camped", "write", "camped", "writes camped on one L2 slice"),
    {.name = "camping-apps",
     .title = "Validation applications: time against active warps per SM",
     .kind = GB_CHART_LINE,
     .benches = "gem,clique,transpose_coalesced,transpose_diagonal",
     .x = "warps",
     .series = "bench",
     .y = "median_ns",
     .x_label = "active warps per SM",
     .y_label = "time per launch (ns)",
     .log_y = 1},
    {.name = "camping-discover",
     .title = "Camping discovery: slowdown of each pattern against its spread reference",
     .kind = GB_CHART_BAR,
     .benches = "discover",
     .where = "offset=0",
     .x = "pitch",
     .series = "footprint",
     .series_label = "footprint {} B",
     .y = "metric:slowdown",
     .x_label = "pitch (bytes; 0 = L2-slice probe, 128 = row order)",
     .y_label = "time / spread reference"},
};

/* What its findings (report.md) compare: each bench by how much slower camped is than spread. */
static const struct gb_findings_rule camp_findings = {
    .pair_axis = "pattern",
    .pair_num = "camped",
    .pair_den = "spread",
    .pair_what = "camped over spread time",
    .source = "Aji, Daga, Feng, \"Bounding the Effect of Partition Camping in GPU Kernels\", "
              "CF'11 (the paper's micro-benchmarks camped about seven-fold on a GTX 280)",
};

const struct gb_suite gb_suite_camping = {
    .name = "camping",
    .help = "partition camping (CampProf): read/write micro-benchmarks spread and camped over pinned active warps, "
            "the camping discovery, and the validation applications",
    .benches = camp_benches,
    .n_benches = (int)(sizeof camp_benches / sizeof camp_benches[0]),
    .charts = camp_charts,
    .n_charts = (int)(sizeof camp_charts / sizeof camp_charts[0]),
    .findings = &camp_findings,
};
