/* tune_strategies.c - the search methods, one row each
 * (gb_tune_strategies[]; docs/tuning.md says what each does). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gpubound/tune.h"
#include "tune_internal.h"

/* ---- exhaustive: every configuration in the space's order ---- */

static enum gb_status gb_exhaustive_next(struct gb_tune *t, void *state, size_t k, size_t *out, size_t *n_out)
{
    (void)state;
    for (size_t i = 0; i < t->space->n && *n_out < k; i++)
        if (!t->seen[i])
            out[(*n_out)++] = i;
    return GB_OK;
}

/* ---- random: a permutation of the space drawn from the seed ---- */

struct gb_random_state {
    size_t *perm;
};

static enum gb_status gb_random_init(struct gb_tune *t, void **state)
{
    struct gb_random_state *r = calloc(1, sizeof *r);
    if (!r || !(r->perm = malloc(t->space->n * sizeof *r->perm))) {
        free(r);
        return gb_error_set(GB_ERR_NOMEM, "out of host memory starting the random strategy");
    }
    for (size_t i = 0; i < t->space->n; i++)
        r->perm[i] = i;
    /* Drawn before any observation: the same seed, the same order. */
    for (size_t i = t->space->n; i > 1; i--) {
        size_t j = (size_t)(gb_tune_rand(t, 1, i) * (double)i);
        size_t x = r->perm[i - 1];
        r->perm[i - 1] = r->perm[j];
        r->perm[j] = x;
    }
    *state = r;
    return GB_OK;
}

static enum gb_status gb_random_next(struct gb_tune *t, void *state, size_t k, size_t *out, size_t *n_out)
{
    struct gb_random_state *r = state;
    for (size_t i = 0; i < t->space->n && *n_out < k; i++)
        if (!t->seen[r->perm[i]])
            out[(*n_out)++] = r->perm[i];
    return GB_OK;
}

static void gb_random_release(void *state)
{
    struct gb_random_state *r = state;
    if (r)
        free(r->perm);
    free(r);
}

/* ---- shared: space-filling picks ---- */

size_t gb_tune_farthest(struct gb_tune *t, const size_t *out, size_t n_out, unsigned salt)
{
    size_t best = t->space->n;
    double best_d = -1, best_tie = 0;
    for (size_t i = 0; i < t->space->n; i++) {
        int taken = t->seen[i];
        for (size_t j = 0; j < n_out && !taken; j++)
            taken = out[j] == i;
        if (taken)
            continue;
        double d = INFINITY;
        for (size_t m = 0; m < t->n_obs; m++)
            d = fmin(d, gb_tune_space_dist2(t->space, i, t->obs[m].idx));
        for (size_t j = 0; j < n_out; j++)
            d = fmin(d, gb_tune_space_dist2(t->space, i, out[j]));
        double tie = gb_tune_rand(t, salt + (unsigned)n_out, i);
        if (d > best_d + 1e-12 || (fabs(d - best_d) <= 1e-12 && tie > best_tie)) {
            best = i;
            best_d = d;
            best_tie = tie;
        }
    }
    return best;
}

/* ---- anneal: simulated annealing over neighbouring configurations ---- */

/* The start and end temperatures: a move this much slower (relative) is
 * taken with probability 1/e. */
#define GB_ANNEAL_T0 0.10
#define GB_ANNEAL_T1 0.002

struct gb_anneal_state {
    int have;
    size_t cur;
    double cur_ns;
};

static enum gb_status gb_anneal_init(struct gb_tune *t, void **state)
{
    (void)t;
    *state = calloc(1, sizeof(struct gb_anneal_state));
    return *state ? GB_OK : gb_error_set(GB_ERR_NOMEM, "out of host memory starting the anneal strategy");
}

/* The level distance (sum over axes of the level steps) of i and j. */
static int gb_level_dist(const struct gb_tune_space *s, size_t i, size_t j)
{
    int d = 0;
    for (int a = 0; a < s->n_axes; a++)
        d += abs(s->level[i * (size_t)s->n_axes + (size_t)a] - s->level[j * (size_t)s->n_axes + (size_t)a]);
    return d;
}

/* A random unmeasured configuration at the least level distance from c
 * (the space's restrictions leave some neighbours out). */
static size_t gb_anneal_neighbour(struct gb_tune *t, size_t c)
{
    int best_d = -1;
    size_t pick = t->space->n;
    double best_r = -1;
    for (size_t i = 0; i < t->space->n; i++) {
        if (t->seen[i])
            continue;
        int d = gb_level_dist(t->space, c, i);
        double r = gb_tune_rand(t, 3, i);
        if (best_d < 0 || d < best_d || (d == best_d && r > best_r)) {
            best_d = d;
            best_r = r;
            pick = i;
        }
    }
    return pick;
}

static enum gb_status gb_anneal_next(struct gb_tune *t, void *state, size_t k, size_t *out, size_t *n_out)
{
    struct gb_anneal_state *a = state;
    (void)k;
    size_t pick = a->have ? gb_anneal_neighbour(t, a->cur) : gb_tune_farthest(t, NULL, 0, 2);
    if (pick < t->space->n)
        out[(*n_out)++] = pick;
    return GB_OK;
}

static void gb_anneal_observe(struct gb_tune *t, void *state, const struct gb_tune_obs *o)
{
    struct gb_anneal_state *a = state;
    if (!o->ok)
        return;
    if (!a->have || o->time_ns < a->cur_ns) {
        a->have = 1;
        a->cur = o->idx;
        a->cur_ns = o->time_ns;
        return;
    }
    double frac = (double)t->n_obs / (double)t->budget;
    double temp = GB_ANNEAL_T0 * pow(GB_ANNEAL_T1 / GB_ANNEAL_T0, frac);
    double worse = (o->time_ns - a->cur_ns) / a->cur_ns;
    if (gb_tune_rand(t, 4, 0) < exp(-worse / temp)) {
        a->cur = o->idx;
        a->cur_ns = o->time_ns;
    }
}

/* ---- model: space-filling start, then the surrogate's lower confidence bound ---- */

struct gb_model_state {
    size_t n0;                   /* the space-filling sample */
    double *mean, *lo, *hi;      /* per configuration, the last prediction */
};

size_t gb_tune_model_start(const struct gb_tune_space *s, size_t budget)
{
    size_t free_axes = 0;
    for (int a = 0; a < s->n_axes; a++)
        free_axes += s->n_levels[a] > 1;
    size_t want = 2 * free_axes + 2, tenth = (s->n + 9) / 10;
    if (tenth < GB_TUNE_MIN_START)
        tenth = GB_TUNE_MIN_START;
    if (want > tenth)
        want = tenth;
    if (want > budget / 2)
        want = budget / 2;
    return want ? want : 1;
}

static enum gb_status gb_model_init(struct gb_tune *t, void **state)
{
    struct gb_model_state *m = calloc(1, sizeof *m);
    size_t n = t->space->n;
    if (!m || !(m->mean = calloc(n, sizeof(double))) || !(m->lo = calloc(n, sizeof(double))) ||
        !(m->hi = calloc(n, sizeof(double)))) {
        if (m) {
            free(m->mean);
            free(m->lo);
        }
        free(m);
        return gb_error_set(GB_ERR_NOMEM, "out of host memory starting the model strategy");
    }
    m->n0 = gb_tune_model_start(t->space, t->budget);
    *state = m;
    return GB_OK;
}

static void gb_model_release(void *state)
{
    struct gb_model_state *m = state;
    if (!m)
        return;
    free(m->mean);
    free(m->lo);
    free(m->hi);
    free(m);
}

/* Fits the first surrogate that will and predicts every configuration;
 * returns 0 when none fits (the tuner says why). */
int gb_tune_model_fit(struct gb_tune *t, double *mean, double *lo, double *hi)
{
    char why[256] = "", note[256] = "";
    for (size_t s = 0; s < t->n_sur; s++) {
        struct gb_tune_surrogate *g = &t->sur[s];
        if (g->fit(g->ctx, t->space, t->obs, t->n_obs, why, sizeof why) != GB_OK) {
            snprintf(note, sizeof note, "%s: %s", g->name, why);
            continue;
        }
        for (size_t i = 0; i < t->space->n; i++)
            g->predict(g->ctx, t->space, i, &mean[i], &lo[i], &hi[i]);
        gb_tune_surrogate_say(t, g->name, note);
        return 1;
    }
    gb_tune_surrogate_say(t, "", note);
    return 0;
}

double gb_tune_model_lcb(double mean, double lo, double hi)
{
    double sd = lo > 0 && hi > lo ? (log(hi) - log(lo)) / 3.92 : 0;
    return log(mean) - GB_TUNE_LCB_KAPPA * sd;
}

/* The unmeasured configuration not yet in out[] with the least lower
 * confidence bound on its log time. */
static size_t gb_model_pick(struct gb_tune *t, const struct gb_model_state *m, const size_t *out, size_t n_out)
{
    size_t pick = t->space->n;
    double best = INFINITY;
    for (size_t i = 0; i < t->space->n; i++) {
        int taken = t->seen[i] || !isfinite(m->mean[i]) || m->mean[i] <= 0;
        for (size_t j = 0; j < n_out && !taken; j++)
            taken = out[j] == i;
        if (taken)
            continue;
        double v = gb_tune_model_lcb(m->mean[i], m->lo[i], m->hi[i]);
        if (v < best) {
            best = v;
            pick = i;
        }
    }
    return pick;
}

static enum gb_status gb_model_next(struct gb_tune *t, void *state, size_t k, size_t *out, size_t *n_out)
{
    struct gb_model_state *m = state;
    int fitted = t->n_obs >= m->n0 && gb_tune_model_fit(t, m->mean, m->lo, m->hi);
    /* The start is n0 points whatever the batch: a batch that would run
     * past it stops there, and the model is asked once they are measured. */
    if (!fitted && t->n_obs < m->n0 && k > m->n0 - t->n_obs)
        k = m->n0 - t->n_obs;
    for (size_t j = 0; j < k; j++) {
        size_t pick = fitted ? gb_model_pick(t, m, out, *n_out) : gb_tune_farthest(t, out, *n_out, 5);
        if (pick >= t->space->n)
            pick = gb_tune_farthest(t, out, *n_out, 6);
        if (pick >= t->space->n)
            break;
        out[(*n_out)++] = pick;
    }
    return GB_OK;
}

const struct gb_tune_strategy gb_tune_strategies[] = {
    {.name = "exhaustive", .help = "every configuration, in the sweep's order", .next = gb_exhaustive_next},
    {.name = "random", .help = "configurations in an order drawn from the seed", .init = gb_random_init,
     .next = gb_random_next, .release = gb_random_release},
    {.name = "anneal", .help = "simulated annealing over neighbouring configurations", .init = gb_anneal_init,
     .next = gb_anneal_next, .observe = gb_anneal_observe, .release = free},
    {.name = "model", .help = "a space-filling sample, then the surrogate's lowest confidence bound, refitted",
     .init = gb_model_init, .next = gb_model_next, .release = gb_model_release},
    {.name = NULL},
};
