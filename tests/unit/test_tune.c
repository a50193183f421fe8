/* test_tune.c - the tuner (models/tune/) on synthetic response surfaces
 * through the simulated-measurement seam (gb_tune_drive): a known optimum,
 * noise and restrictions; each strategy finds the optimum within its
 * budget at its expected rate; a search cut short and resumed from its
 * recorded points goes on exactly as it would have; the breakdown steers
 * the model strategy where it explains the data and the fallback takes
 * over, said, where it does not; the answer; bad input. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gpubound/tune.h"
#include "models/tune/tune_internal.h"

/* ---- a synthetic space: axes a (8 levels), b (8), c (4), with a
 * restriction (a + b <= 12) ---- */

struct surface {
    struct gb_tune_space space;
    int lv[512][3];
    double truth[512];           /* the noiseless time, ns */
    size_t n, opt;
    int rugged;
    uint64_t noise_state;
    double samples[512][5];
};

static double bowl(const int *l, int rugged)
{
    double t = 1000.0 * (1 + 0.05 * (l[0] - 5) * (l[0] - 5) + 0.03 * (l[1] - 2) * (l[1] - 2) + 0.1 * abs(l[2] - 1));
    if (rugged) /* deterministic bumps of up to 8%, none at the optimum */
        t *= 1 + 0.08 * fabs(sin(l[0] * 12.9898 + l[1] * 78.233 + l[2] * 37.719)) * !(l[0] == 5 && l[1] == 2 && l[2] == 1);
    return t;
}

static void surface_init(struct surface *s, int rugged)
{
    static char vals[512][3][8];
    static const char *rows[512][3];
    const char *const *rowp[512];
    const char *axes[3] = {"a", "b", "c"};
    memset(s, 0, sizeof *s);
    s->rugged = rugged;
    for (int a = 0; a < 8; a++)
        for (int b = 0; b < 8; b++)
            for (int c = 0; c < 4; c++) {
                if (a + b > 12)
                    continue; /* the restriction */
                int l[3] = {a, b, c};
                memcpy(s->lv[s->n], l, sizeof l);
                s->truth[s->n] = bowl(l, rugged);
                if (s->truth[s->n] < s->truth[s->opt])
                    s->opt = s->n;
                for (int k = 0; k < 3; k++) {
                    /* values as numbers that sort like the levels: 2^level */
                    snprintf(vals[s->n][k], sizeof vals[s->n][k], "%d", 1 << l[k]);
                    rows[s->n][k] = vals[s->n][k];
                }
                rowp[s->n] = rows[s->n];
                s->n++;
            }
    assert_int_equal(gb_tune_space_init(&s->space, axes, 3, rowp, s->n), GB_OK);
}

static double noise(struct surface *s)
{
    s->noise_state ^= s->noise_state >> 12;
    s->noise_state ^= s->noise_state << 25;
    s->noise_state ^= s->noise_state >> 27;
    double u = ((s->noise_state * 2685821657736338717ULL) >> 11) * (1.0 / 9007199254740992.0);
    return (u - 0.5) * 0.01; /* +-0.5% */
}

/* The simulated measurement: the truth with noise, five samples. */
static enum gb_status measure(void *ctx, size_t idx, struct gb_tune_obs *o)
{
    struct surface *s = ctx;
    double *smp = s->samples[idx];
    for (int k = 0; k < 5; k++)
        smp[k] = s->truth[idx] * (1 + noise(s));
    o->ok = 1;
    o->time_ns = s->truth[idx] * (1 + noise(s) * 0.2);
    o->lo_ns = o->time_ns * 0.995;
    o->hi_ns = o->time_ns * 1.005;
    o->samples = smp;
    o->n_samples = 5;
    return GB_OK;
}

/* Runs `strategy` with `budget` over `seeds` seeds; the share of seeds whose
 * best is within 2% of the optimum. */
static double found_rate(struct surface *s, const char *strategy, size_t budget, int seeds, size_t k)
{
    int found = 0;
    for (int seed = 1; seed <= seeds; seed++) {
        struct gb_tune *t = NULL;
        struct gb_tune_opts o = {.strategy = strategy, .budget = budget, .seed = (unsigned)seed};
        struct gb_tune_answer a;
        s->noise_state = 0x9e3779b97f4a7c15ull * (uint64_t)seed;
        assert_int_equal(gb_tune_new(&s->space, &o, &t), GB_OK);
        assert_int_equal(gb_tune_drive(t, k, measure, s), GB_OK);
        assert_int_equal(gb_tune_n_obs(t), budget);
        assert_int_equal(gb_tune_answer(t, 0.01, 0.02, &a), GB_OK);
        found += s->truth[a.best] <= s->truth[s->opt] * 1.02;
        gb_tune_free(t);
    }
    return (double)found / seeds;
}

static void test_space(void **st)
{
    (void)st;
    struct surface s;
    surface_init(&s, 0);
    assert_int_equal(s.space.n, 8 * 8 * 4 - 3 * 4); /* 3 (a, b) pairs with a + b > 12 */
    assert_int_equal(s.space.n_levels[0], 8);
    assert_int_equal(s.space.n_levels[2], 4);
    /* numeric order, not string order: "16" after "2" */
    assert_int_equal(s.space.level[s.opt * 3 + 0], 5);
    assert_true(fabs(s.space.u[s.opt * 3 + 0] - 5.0 / 7.0) < 1e-12);
    gb_tune_space_release(&s.space);
}

static void test_exhaustive(void **st)
{
    (void)st;
    struct surface s;
    surface_init(&s, 1);
    assert_true(found_rate(&s, "exhaustive", s.n, 2, 8) == 1.0);
    /* half the space in the sweep's order never reaches the optimum
     * at a = 5 (the last levels of a) */
    assert_true(found_rate(&s, "exhaustive", s.n / 2, 2, 8) == 0.0);
    gb_tune_space_release(&s.space);
}

static void test_random(void **st)
{
    (void)st;
    struct surface s;
    surface_init(&s, 0);
    /* a unique optimum, half the space: found with probability 1/2 */
    double r = found_rate(&s, "random", s.n / 2, 40, 4);
    print_message("random, budget n/2: %.2f\n", r);
    assert_true(r >= 0.25 && r <= 0.75);
    gb_tune_space_release(&s.space);
}

static void test_anneal(void **st)
{
    (void)st;
    struct surface s;
    surface_init(&s, 0);
    double r = found_rate(&s, "anneal", s.n / 4, 20, 1);
    print_message("anneal, budget n/4: %.2f\n", r);
    assert_true(r >= 0.8);
    gb_tune_space_release(&s.space);
}

static void test_model(void **st)
{
    (void)st;
    struct surface s;
    surface_init(&s, 0);
    double r = found_rate(&s, "model", s.n / 10, 20, 3);
    print_message("model, budget n/10 (%zu): %.2f\n", s.n / 10, r);
    assert_true(r >= 0.9);
    surface_init(&s, 1);
    r = found_rate(&s, "model", s.n / 5, 20, 3);
    print_message("model, rugged, budget n/5: %.2f\n", r);
    assert_true(r >= 0.8);
    /* random at the same budget does worse on the same surface */
    assert_true(found_rate(&s, "random", s.n / 5, 20, 3) < r);
    gb_tune_space_release(&s.space);
}

/* The model strategy's start is sized to the space: 2 per axis of more
 * than one level and 2 more, at most a tenth of the space (at least
 * GB_TUNE_MIN_START) and half the budget. */
static void test_model_start(void **st)
{
    (void)st;
    struct surface s;
    surface_init(&s, 0);
    assert_int_equal(gb_tune_model_start(&s.space, s.n), 2 * 3 + 2);
    assert_int_equal(gb_tune_model_start(&s.space, 10), 5);
    assert_int_equal(gb_tune_model_start(&s.space, 1), 1);
    gb_tune_space_release(&s.space);
    /* 24 configurations over a, b and a fixed n: a tenth is 3, raised to
     * the breakdown's 5; the fixed axis counts for nothing (2 x 2 + 2 = 6) */
    static char vals[24][3][8];
    const char *rows[24][3], *const *rowp[24], *axes[3] = {"a", "b", "n"};
    struct gb_tune_space sp;
    for (int i = 0; i < 24; i++) {
        snprintf(vals[i][0], 8, "%d", i % 6);
        snprintf(vals[i][1], 8, "%d", i / 6);
        snprintf(vals[i][2], 8, "4096");
        for (int k = 0; k < 3; k++)
            rows[i][k] = vals[i][k];
        rowp[i] = rows[i];
    }
    assert_int_equal(gb_tune_space_init(&sp, axes, 3, rowp, 24), GB_OK);
    assert_int_equal(GB_TUNE_MIN_START, 5);
    assert_int_equal(gb_tune_model_start(&sp, 24), 5);
    assert_int_equal(gb_tune_model_start(&sp, 8), 4);
    gb_tune_space_release(&sp);
}

/* The start is exactly what gb_tune_model_start says, whatever the batch:
 * asked for 4 at a time with a start of 5, the strategy proposes 4, then
 * the 1 the start still owes, then asks its model. */
static void test_model_start_exact(void **st)
{
    (void)st;
    struct surface s;
    struct gb_tune *t = NULL;
    size_t want[8], n = 0;
    surface_init(&s, 0);
    struct gb_tune_opts o = {.strategy = "model", .budget = 10, .seed = 1};
    assert_int_equal(gb_tune_model_start(&s.space, 10), 5);
    assert_int_equal(gb_tune_new(&s.space, &o, &t), GB_OK);
    assert_int_equal(gb_tune_next(t, 4, want, &n), GB_OK);
    assert_int_equal(n, 4);
    for (size_t i = 0; i < n; i++) {
        struct gb_tune_obs ob = {.idx = want[i]};
        assert_int_equal(measure(&s, want[i], &ob), GB_OK);
        ob.idx = want[i];
        assert_int_equal(gb_tune_observe(t, &ob), GB_OK);
    }
    assert_int_equal(gb_tune_next(t, 4, want, &n), GB_OK);
    assert_int_equal(n, 1);
    struct gb_tune_obs ob = {.idx = want[0]};
    assert_int_equal(measure(&s, want[0], &ob), GB_OK);
    ob.idx = want[0];
    assert_int_equal(gb_tune_observe(t, &ob), GB_OK);
    assert_int_equal(gb_tune_next(t, 4, want, &n), GB_OK);
    assert_true(n >= 1);
    assert_string_equal(gb_tune_surrogate_used(t), "gaussian-process");
    gb_tune_free(t);
    gb_tune_space_release(&s.space);
}

/* ---- a large space: 6 x 6 x 6 x 3 x 3 = 1944 configurations, a rugged
 * bowl with a unique optimum ---- */

static double big_truth(const int *l)
{
    double t = 1 + 0.04 * (l[0] - 4) * (l[0] - 4) + 0.03 * (l[1] - 1) * (l[1] - 1) + 0.02 * (l[2] - 3) * (l[2] - 3) +
               0.06 * abs(l[3] - 2) + 0.05 * l[4];
    int opt = l[0] == 4 && l[1] == 1 && l[2] == 3 && l[3] == 2 && l[4] == 0;
    return 1000.0 * t * (1 + 0.06 * fabs(sin(l[0] * 12.9898 + l[1] * 78.233 + l[2] * 37.719 + l[3] * 4.1 + l[4])) * !opt);
}

struct big {
    struct gb_tune_space space;
    double truth[1944];
    size_t n, opt;
};

static enum gb_status big_measure(void *ctx, size_t idx, struct gb_tune_obs *o)
{
    struct big *b = ctx;
    o->ok = 1;
    o->time_ns = b->truth[idx];
    o->lo_ns = o->time_ns * 0.995;
    o->hi_ns = o->time_ns * 1.005;
    return GB_OK;
}

static double big_rate(struct big *b, const char *strategy, size_t budget, int seeds)
{
    int found = 0;
    for (int seed = 1; seed <= seeds; seed++) {
        struct gb_tune *t = NULL;
        struct gb_tune_opts o = {.strategy = strategy, .budget = budget, .seed = (unsigned)seed};
        struct gb_tune_answer a;
        assert_int_equal(gb_tune_new(&b->space, &o, &t), GB_OK);
        assert_int_equal(gb_tune_drive(t, 4, big_measure, b), GB_OK);
        assert_int_equal(gb_tune_answer(t, 0.01, 0.02, &a), GB_OK);
        found += b->truth[a.best] <= b->truth[b->opt] * 1.02;
        gb_tune_free(t);
    }
    return (double)found / seeds;
}

/* On a space of thousands the model strategy finds the optimum within 2%
 * in 5% of it on most seeds, where random sampling rarely does. */
static void test_model_large(void **st)
{
    (void)st;
    static struct big b;
    static char vals[1944][5][4];
    static const char *rows[1944][5];
    static const char *const *rowp[1944];
    const char *axes[5] = {"p", "q", "r", "s", "t"};
    const int nl[5] = {6, 6, 6, 3, 3};
    memset(&b, 0, sizeof b);
    for (size_t i = 0; i < 1944; i++) {
        int l[5];
        size_t r = i;
        for (int k = 4; k >= 0; k--) {
            l[k] = (int)(r % (size_t)nl[k]);
            r /= (size_t)nl[k];
            snprintf(vals[i][k], sizeof vals[i][k], "%d", l[k]);
            rows[i][k] = vals[i][k];
        }
        rowp[i] = rows[i];
        b.truth[i] = big_truth(l);
        if (b.truth[i] < b.truth[b.opt])
            b.opt = i;
    }
    b.n = 1944;
    assert_int_equal(gb_tune_space_init(&b.space, axes, 5, rowp, b.n), GB_OK);
    assert_int_equal(gb_tune_model_start(&b.space, 97), 12);
    double m = big_rate(&b, "model", 97, 6), r = big_rate(&b, "random", 97, 6);
    print_message("large space, budget 97 of 1944: model %.2f, random %.2f\n", m, r);
    assert_true(m >= 0.8);
    assert_true(m > r);
    gb_tune_space_release(&b.space);
}

/* The acquisition: the lower confidence bound on the log time prefers a
 * slightly slower prediction that may well be much faster, and not one
 * that is surely slower. */
static void test_model_lcb(void **st)
{
    (void)st;
    double sure = gb_tune_model_lcb(100, 99, 101);
    assert_true(gb_tune_model_lcb(105, 50, 220) < sure);
    assert_true(gb_tune_model_lcb(140, 120, 163) > sure);
    assert_true(fabs(gb_tune_model_lcb(100, 0, 0) - log(100.0)) < 1e-12);
    /* one standard deviation of the log: a 95% interval of e^(+-1.96) */
    assert_true(fabs(gb_tune_model_lcb(100, 100 * exp(-1.96), 100 * exp(1.96)) - (log(100.0) - 1)) < 1e-9);
}

/* The Gaussian process fits each axis's length scale: on times that vary
 * along axis a only, b's scale comes out long (b hardly matters) and a's
 * short. */
static void test_gp_scales(void **st)
{
    (void)st;
    struct surface s;
    struct gb_tune_surrogate g;
    struct gb_tune_obs obs[64];
    size_t n = 0;
    char why[256];
    surface_init(&s, 0);
    for (size_t i = 0; i < s.n && n < 64; i += 3) {
        const int *l = s.lv[i];
        obs[n++] = (struct gb_tune_obs){.idx = i, .ok = 1, .time_ns = 1000 * exp(0.4 * sin(l[0] * 0.9)),
                                        .lo_ns = 0, .hi_ns = 0};
    }
    assert_int_equal(gb_tune_surrogate_gp(&g), GB_OK);
    assert_int_equal(g.fit(g.ctx, &s.space, obs, n, why, sizeof why), GB_OK);
    double ell[3];
    gb_tune_gp_scales(&g, ell, 3);
    print_message("length scales: a %.2f, b %.2f, c %.2f\n", ell[0], ell[1], ell[2]);
    assert_true(ell[0] <= 0.6);
    assert_true(ell[1] >= 2.0 && ell[2] >= 2.0);
    g.release(g.ctx);
    gb_tune_space_release(&s.space);
}

/* A search observed again up to m points (its recorded points) and driven
 * on proposes exactly what the uninterrupted search did. */
static void test_resume(void **st)
{
    (void)st;
    struct surface s;
    surface_init(&s, 1);
    for (const struct gb_tune_strategy *row = gb_tune_strategies; row->name; row++) {
        struct gb_tune *a = NULL, *b = NULL;
        struct gb_tune_opts o = {.strategy = row->name, .budget = 30, .seed = 7};
        s.noise_state = 42;
        assert_int_equal(gb_tune_new(&s.space, &o, &a), GB_OK);
        assert_int_equal(gb_tune_drive(a, 3, measure, &s), GB_OK);
        assert_int_equal(gb_tune_new(&s.space, &o, &b), GB_OK);
        /* the points recorded before the kill: 13; batches of 3 (the model's
         * start of 8 as 3, 3 and 2), so the kill leaves 2 of a batch owed
         * (the model's: 1) */
        struct gb_tune_obs rec[13];
        size_t pend[3], n_pend = 0, i = 13;
        for (size_t j = 0; j < 13; j++)
            rec[j] = *gb_tune_obs_at(a, j);
        assert_int_equal(gb_tune_replay(b, 3, rec, 13, pend, &n_pend), GB_OK);
        assert_int_equal(gb_tune_n_obs(b), 13);
        assert_int_equal(n_pend, strcmp(row->name, "anneal") == 0 ? 0 : strcmp(row->name, "model") == 0 ? 1 : 2);
        for (size_t j = 0; j < n_pend; j++, i++) {
            assert_int_equal(pend[j], gb_tune_obs_at(a, i)->idx);
            assert_int_equal(gb_tune_observe(b, gb_tune_obs_at(a, i)), GB_OK);
        }
        while (i < 30) {
            size_t want[3], n = 0;
            assert_int_equal(gb_tune_next(b, 3, want, &n), GB_OK);
            assert_true(n > 0);
            for (size_t j = 0; j < n; j++, i++) {
                const struct gb_tune_obs *was = gb_tune_obs_at(a, i);
                assert_int_equal(want[j], was->idx);
                assert_int_equal(gb_tune_observe(b, was), GB_OK);
            }
        }
        /* another seed does not propose what was recorded */
        struct gb_tune *c = NULL;
        struct gb_tune_opts o2 = o;
        o2.seed = 8;
        assert_int_equal(gb_tune_new(&s.space, &o2, &c), GB_OK);
        if (strcmp(row->name, "exhaustive") != 0)
            assert_int_equal(gb_tune_replay(c, 3, rec, 13, pend, &n_pend), GB_ERR_FORMAT);
        gb_tune_free(c);
        gb_tune_free(a);
        gb_tune_free(b);
    }
    gb_tune_space_release(&s.space);
}

static void test_answer(void **st)
{
    (void)st;
    struct surface s;
    struct gb_tune *t = NULL;
    struct gb_tune_answer a;
    surface_init(&s, 0);
    struct gb_tune_opts o = {.strategy = "exhaustive", .budget = s.n, .seed = 1};
    assert_int_equal(gb_tune_new(&s.space, &o, &t), GB_OK);
    assert_int_equal(gb_tune_drive(t, 16, measure, &s), GB_OK);
    assert_int_equal(gb_tune_answer(t, 0.01, 0.02, &a), GB_OK);
    assert_int_equal(a.best, s.opt);
    assert_true(a.have_runner && s.truth[a.runner] >= s.truth[a.best]);
    /* the runner-up is 3% slower, well beyond the noise: they differ */
    assert_true(a.by_samples && a.differ && a.ratio > 1.02 && a.ratio_lo > 1);
    assert_false(a.have_pred);
    gb_tune_free(t);
    /* two configurations within the noise of each other do not differ */
    double same[5] = {1000, 1001, 999, 1000.5, 999.5}, same2[5] = {1000.2, 1000.9, 999.1, 1000.1, 999.7};
    struct gb_tune_opts o2 = {.strategy = "random", .budget = 2, .seed = 1};
    assert_int_equal(gb_tune_new(&s.space, &o2, &t), GB_OK);
    struct gb_tune_obs x = {.idx = 0, .ok = 1, .time_ns = 1000, .lo_ns = 999, .hi_ns = 1001, .samples = same, .n_samples = 5};
    struct gb_tune_obs y = {.idx = 1, .ok = 1, .time_ns = 1000.2, .lo_ns = 999, .hi_ns = 1001, .samples = same2, .n_samples = 5};
    assert_int_equal(gb_tune_observe(t, &x), GB_OK);
    assert_int_equal(gb_tune_observe(t, &y), GB_OK);
    assert_int_equal(gb_tune_observe(t, &y), GB_ERR_USAGE); /* measured already */
    assert_int_equal(gb_tune_answer(t, 0.01, 0.02, &a), GB_OK);
    assert_false(a.differ);
    gb_tune_free(t);
    gb_tune_space_release(&s.space);
}

/* ---- the breakdown as the surrogate ---- */

/* A launch sweep: block sizes 32..1024 and items per thread 1..8; the
 * launch's resident warps fall off below 256 threads a block (8 blocks an
 * SM) and above it (two then one block of 512, 1024). */
static int lpbm_inputs(void *ctx, size_t idx, struct gb_lpbm_point *p)
{
    const struct gb_tune_space *s = ctx;
    int lb = s->level[idx * 2], li = s->level[idx * 2 + 1];
    double block = 32 << lb, ilp = 1 << li, n = 1 << 22;
    memset(p, 0, sizeof *p);
    p->block_threads = block;
    p->grid_blocks = n / ilp / block;
    p->active_warps_per_sm = fmin(64, fmin(8, 2048 / block) * block / 32) * (block > 256 ? 0.5 : 1);
    p->sm_count = 132;
    p->warp_size = 32;
    p->ops = 12 * ilp;
    p->global_bytes = 8 * ilp;
    p->barriers = ilp;
    p->c_inst = p->c_global_sectors = p->c_shared_wavefronts = NAN;
    return gb_lpbm_predictors(p, GB_LPBM_FORMULA) == GB_OK;
}

struct lpbm_surface {
    struct gb_tune_space space;
    double truth[64];
    int lie;                     /* 1: times the breakdown cannot explain */
};

static enum gb_status lpbm_measure(void *ctx, size_t idx, struct gb_tune_obs *o)
{
    struct lpbm_surface *s = ctx;
    o->ok = 1;
    o->time_ns = s->truth[idx];
    o->lo_ns = o->time_ns * 0.998;
    o->hi_ns = o->time_ns * 1.002;
    return GB_OK;
}

static void lpbm_surface_init(struct lpbm_surface *s, int lie)
{
    static char vals[64][2][8];
    static const char *rows[64][2];
    const char *const *rowp[64];
    const char *axes[2] = {"block", "ilp"};
    size_t n = 0;
    for (int b = 0; b < 6; b++)
        for (int i = 0; i < 4; i++, n++) {
            snprintf(vals[n][0], 8, "%d", 32 << b);
            snprintf(vals[n][1], 8, "%d", 1 << i);
            rows[n][0] = vals[n][0];
            rows[n][1] = vals[n][1];
            rowp[n] = rows[n];
        }
    memset(s, 0, sizeof *s);
    assert_int_equal(gb_tune_space_init(&s->space, axes, 2, rowp, n), GB_OK);
    for (size_t i = 0; i < n; i++) {
        struct gb_lpbm_point p;
        assert_true(lpbm_inputs(&s->space, i, &p));
        s->truth[i] = 0.8 * p.x[GB_LPBM_PUT] + 0.002 * p.x[GB_LPBM_G2ST] + 300 * p.x[GB_LPBM_SYNC];
        if (lie) /* the opposite order of the block sizes: no non-negative fit explains it */
            s->truth[i] = 1000.0 * (1 + 0.3 * (5 - s->space.level[i * 2]) * (5 - s->space.level[i * 2])) *
                          (1 + 0.4 * s->space.level[i * 2 + 1]);
    }
    s->lie = lie;
}

static void test_model_breakdown(void **st)
{
    (void)st;
    for (int lie = 0; lie <= 1; lie++) {
        struct lpbm_surface s;
        struct gb_tune *t = NULL;
        struct gb_tune_answer a;
        lpbm_surface_init(&s, lie);
        struct gb_tune_opts o = {.strategy = "model", .budget = 12, .seed = 3, .lpbm = lpbm_inputs,
                                 .lpbm_ctx = &s.space};
        assert_int_equal(gb_tune_new(&s.space, &o, &t), GB_OK);
        assert_int_equal(gb_tune_drive(t, 2, lpbm_measure, &s), GB_OK);
        assert_int_equal(gb_tune_answer(t, 0.01, 0.02, &a), GB_OK);
        size_t opt = 0;
        for (size_t i = 1; i < s.space.n; i++)
            if (s.truth[i] < s.truth[opt])
                opt = i;
        print_message("lie %d: surrogate %s (%s); best %zu, optimum %zu\n", lie, a.surrogate, a.note, a.best, opt);
        if (!lie) {
            assert_string_equal(a.surrogate, "breakdown");
            assert_int_equal(a.best, opt);
            /* the prediction's interval holds the truth of what it predicts */
            assert_true(a.have_pred && a.pred_lo <= s.truth[a.pred] * 1.001 && a.pred_hi >= s.truth[a.pred] * 0.999);
        } else {
            assert_string_equal(a.surrogate, "gaussian-process");
            assert_non_null(strstr(a.note, "breakdown: "));
        }
        gb_tune_free(t);
        gb_tune_space_release(&s.space);
    }
}

static void test_bad_input(void **st)
{
    (void)st;
    struct surface s;
    struct gb_tune *t = NULL;
    surface_init(&s, 0);
    struct gb_tune_opts o = {.strategy = "genetic", .budget = 10};
    assert_int_equal(gb_tune_new(&s.space, &o, &t), GB_ERR_USAGE);
    assert_non_null(strstr(gb_error_message(), "exhaustive, random, anneal, model"));
    o.strategy = "random";
    o.budget = 0;
    assert_int_equal(gb_tune_new(&s.space, &o, &t), GB_ERR_USAGE);
    o.budget = s.n + 1;
    assert_int_equal(gb_tune_new(&s.space, &o, &t), GB_ERR_USAGE);
    assert_null(t);
    struct gb_tune_space e;
    assert_int_equal(gb_tune_space_init(&e, NULL, 0, NULL, 0), GB_ERR_USAGE);
    gb_tune_space_release(&s.space);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_space),   cmocka_unit_test(test_exhaustive), cmocka_unit_test(test_random),
        cmocka_unit_test(test_anneal),  cmocka_unit_test(test_model),      cmocka_unit_test(test_resume),
        cmocka_unit_test(test_answer),  cmocka_unit_test(test_model_breakdown), cmocka_unit_test(test_bad_input),
        cmocka_unit_test(test_model_start),    cmocka_unit_test(test_model_start_exact),
        cmocka_unit_test(test_model_large),    cmocka_unit_test(test_model_lcb),
        cmocka_unit_test(test_gp_scales),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
