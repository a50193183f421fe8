/* tune.c - the tuning space and the tuner: proposals through a strategy
 * row, observations, the budget (gpubound/tune.h). */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gpubound/tune.h"
#include "tune_internal.h"
#include "util/mix.h"

/* ---- the space ---- */

static int gb_is_number(const char *s, double *v)
{
    char *end;
    *v = strtod(s, &end);
    return end != s && *end == '\0' && isfinite(*v);
}

/* The distinct values of axis a in first-seen order, then each
 * configuration's rank among them (numeric order when all are numbers). */
static enum gb_status gb_space_axis(struct gb_tune_space *s, int a, const char *const *const *values)
{
    const char **seen = calloc(s->n, sizeof *seen);
    double *num = calloc(s->n, sizeof *num);
    int *rank = calloc(s->n, sizeof *rank);
    size_t n_seen = 0;
    int numeric = 1;
    enum gb_status st = GB_OK;
    if (!seen || !num || !rank) {
        st = gb_error_set(GB_ERR_NOMEM, "out of host memory building the tuning space");
        goto out;
    }
    for (size_t i = 0; i < s->n; i++) {
        size_t k = 0;
        while (k < n_seen && strcmp(seen[k], values[i][a]) != 0)
            k++;
        if (k == n_seen) {
            seen[n_seen] = values[i][a];
            numeric &= gb_is_number(values[i][a], &num[n_seen]);
            n_seen++;
        }
        s->level[i * (size_t)s->n_axes + (size_t)a] = (int)k;
    }
    /* The rank of each distinct value. */
    for (size_t k = 0; k < n_seen; k++) {
        int r = 0;
        for (size_t m = 0; m < n_seen; m++)
            r += numeric ? (num[m] < num[k]) : (m < k);
        rank[k] = r;
    }
    s->n_levels[a] = (int)n_seen;
    for (size_t i = 0; i < s->n; i++) {
        size_t at = i * (size_t)s->n_axes + (size_t)a;
        s->level[at] = rank[s->level[at]];
        s->u[at] = n_seen > 1 ? (double)s->level[at] / (double)(n_seen - 1) : 0.0;
    }
out:
    free(seen);
    free(num);
    free(rank);
    return st;
}

enum gb_status gb_tune_space_init(struct gb_tune_space *s, const char *const *axes, int n_axes,
                                  const char *const *const *values, size_t n)
{
    enum gb_status st = GB_OK;
    memset(s, 0, sizeof *s);
    if (n == 0)
        return gb_error_set(GB_ERR_USAGE, "the tuning space is empty: no configuration is allowed");
    if (n_axes < 0 || n_axes > GB_TUNE_MAX_AXES)
        return gb_error_set(GB_ERR_USAGE, "the tuning space has %d axes, more than the %d a tuner takes", n_axes,
                            GB_TUNE_MAX_AXES);
    s->n = n;
    s->n_axes = n_axes;
    s->level = calloc(n * (size_t)(n_axes ? n_axes : 1), sizeof *s->level);
    s->u = calloc(n * (size_t)(n_axes ? n_axes : 1), sizeof *s->u);
    if (!s->level || !s->u) {
        st = gb_error_set(GB_ERR_NOMEM, "out of host memory building the tuning space");
        goto out;
    }
    for (int a = 0; a < n_axes && st == GB_OK; a++) {
        if (snprintf(s->axis[a], sizeof s->axis[a], "%s", axes[a]) >= (int)sizeof s->axis[a])
            st = gb_error_set(GB_ERR_USAGE, "axis name '%.40s...' is too long for the tuner", axes[a]);
        else
            st = gb_space_axis(s, a, values);
    }
out:
    if (st != GB_OK)
        gb_tune_space_release(s);
    return st;
}

void gb_tune_space_release(struct gb_tune_space *s)
{
    free(s->level);
    free(s->u);
    memset(s, 0, sizeof *s);
}

double gb_tune_space_dist2(const struct gb_tune_space *s, size_t i, size_t j)
{
    double d = 0;
    for (int a = 0; a < s->n_axes; a++) {
        double x = s->u[i * (size_t)s->n_axes + (size_t)a] - s->u[j * (size_t)s->n_axes + (size_t)a];
        d += x * x;
    }
    return d;
}

/* ---- the tuner ---- */

const struct gb_tune_strategy *gb_tune_strategy_find(const char *name)
{
    for (const struct gb_tune_strategy *r = gb_tune_strategies; name && r->name; r++)
        if (strcmp(r->name, name) == 0)
            return r;
    return NULL;
}

void gb_tune_strategy_names(char *buf, size_t n)
{
    size_t len = 0;
    buf[0] = '\0';
    for (const struct gb_tune_strategy *r = gb_tune_strategies; r->name && len < n; r++)
        len += (size_t)snprintf(buf + len, n - len, "%s%s", r == gb_tune_strategies ? "" : ", ", r->name);
}

static enum gb_status gb_tune_surrogates_make(struct gb_tune *t, const struct gb_tune_opts *o)
{
    enum gb_status st;
    if (o->breakdown)
        t->sur[t->n_sur++] = *o->breakdown;
    else if (o->lpbm) {
        if ((st = gb_tune_surrogate_lpbm(o->lpbm, o->lpbm_ctx, &t->sur[t->n_sur])) != GB_OK)
            return st;
        t->n_sur++;
    }
    if ((st = gb_tune_surrogate_gp(&t->sur[t->n_sur])) != GB_OK)
        return st;
    t->n_sur++;
    return GB_OK;
}

enum gb_status gb_tune_new(const struct gb_tune_space *space, const struct gb_tune_opts *o, struct gb_tune **out)
{
    struct gb_tune *t = NULL;
    char names[128];
    enum gb_status st = GB_OK;
    *out = NULL;
    const struct gb_tune_strategy *row = gb_tune_strategy_find(o->strategy);
    gb_tune_strategy_names(names, sizeof names);
    if (!row)
        return gb_error_set(GB_ERR_USAGE, "unknown strategy '%.40s': the strategies are %s",
                            o->strategy ? o->strategy : "", names);
    if (o->budget == 0 || o->budget > space->n)
        return gb_error_set(GB_ERR_USAGE, "a budget of %zu measurements: it must be 1 to the space's %zu configurations",
                            o->budget, space->n);
    if (!(t = calloc(1, sizeof *t)) || !(t->seen = calloc(space->n, 1)) ||
        !(t->obs = calloc(o->budget, sizeof *t->obs))) {
        st = gb_error_set(GB_ERR_NOMEM, "out of host memory starting the tuner");
        goto out;
    }
    t->space = space;
    t->row = row;
    t->budget = o->budget;
    t->seed = o->seed;
    if (strcmp(row->name, "model") == 0 && (st = gb_tune_surrogates_make(t, o)) != GB_OK)
        goto out;
    if (row->init)
        st = row->init(t, &t->state);
out:
    if (st != GB_OK) {
        gb_tune_free(t);
        t = NULL;
    }
    *out = t;
    return st;
}

void gb_tune_free(struct gb_tune *t)
{
    if (!t)
        return;
    if (t->row && t->row->release)
        t->row->release(t->state);
    for (size_t i = 0; i < t->n_sur; i++)
        if (t->sur[i].release)
            t->sur[i].release(t->sur[i].ctx);
    for (size_t i = 0; i < t->n_obs; i++)
        free((void *)t->obs[i].samples);
    free(t->obs);
    free(t->seen);
    free(t);
}

enum gb_status gb_tune_next(struct gb_tune *t, size_t k, size_t *out, size_t *n_out)
{
    *n_out = 0;
    size_t left = t->budget - t->n_obs;
    if (k > left)
        k = left;
    if (k == 0)
        return GB_OK;
    enum gb_status st = t->row->next(t, t->state, k, out, n_out);
    if (*n_out > k)
        *n_out = k;
    return st;
}

enum gb_status gb_tune_observe(struct gb_tune *t, const struct gb_tune_obs *o)
{
    if (o->idx >= t->space->n || t->seen[o->idx])
        return gb_error_set(GB_ERR_USAGE, "configuration %zu is %s", o->idx,
                            o->idx >= t->space->n ? "outside the tuning space" : "measured already");
    if (t->n_obs >= t->budget)
        return gb_error_set(GB_ERR_USAGE, "the budget of %zu measurements is spent", t->budget);
    struct gb_tune_obs *c = &t->obs[t->n_obs];
    *c = *o;
    c->samples = NULL;
    c->n_samples = 0;
    if (o->samples && o->n_samples > 0) {
        double *s = malloc((size_t)o->n_samples * sizeof *s);
        if (!s)
            return gb_error_set(GB_ERR_NOMEM, "out of host memory keeping the samples");
        memcpy(s, o->samples, (size_t)o->n_samples * sizeof *s);
        c->samples = s;
        c->n_samples = o->n_samples;
    }
    if (c->ok && !(isfinite(c->time_ns) && c->time_ns > 0))
        c->ok = 0;
    t->seen[o->idx] = 1;
    t->n_obs++;
    if (t->row->observe)
        t->row->observe(t, t->state, c);
    return GB_OK;
}

const struct gb_tune_space *gb_tune_space(const struct gb_tune *t) { return t->space; }
size_t gb_tune_n_obs(const struct gb_tune *t) { return t->n_obs; }
const struct gb_tune_obs *gb_tune_obs_at(const struct gb_tune *t, size_t i) { return i < t->n_obs ? &t->obs[i] : NULL; }
int gb_tune_measured(const struct gb_tune *t, size_t idx) { return idx < t->space->n && t->seen[idx]; }
size_t gb_tune_budget(const struct gb_tune *t) { return t->budget; }
unsigned gb_tune_seed(const struct gb_tune *t) { return t->seed; }

struct gb_tune_surrogate *gb_tune_surrogates(struct gb_tune *t, size_t *n)
{
    *n = t->n_sur;
    return t->n_sur ? t->sur : NULL;
}

const char *gb_tune_surrogate_used(const struct gb_tune *t) { return t->sur_used; }
const char *gb_tune_surrogate_note(const struct gb_tune *t) { return t->sur_note; }

void gb_tune_surrogate_say(struct gb_tune *t, const char *used, const char *note)
{
    snprintf(t->sur_used, sizeof t->sur_used, "%s", used ? used : "");
    snprintf(t->sur_note, sizeof t->sur_note, "%s", note ? note : "");
}

double gb_tune_rand(const struct gb_tune *t, unsigned salt, size_t draw)
{
    uint64_t h = gb_mix64((uint64_t)t->seed);
    h = gb_mix64(h ^ (uint64_t)t->n_obs);
    h = gb_mix64(h ^ ((uint64_t)salt << 32));
    h = gb_mix64(h ^ (uint64_t)draw);
    return (double)(h >> 11) * (1.0 / 9007199254740992.0);
}

enum gb_status gb_tune_drive(struct gb_tune *t, size_t k, gb_tune_measure_fn measure, void *ctx)
{
    size_t *want = calloc(k ? k : 1, sizeof *want);
    enum gb_status st = GB_OK;
    if (!want)
        return gb_error_set(GB_ERR_NOMEM, "out of host memory driving the tuner");
    for (;;) {
        size_t n = 0;
        if ((st = gb_tune_next(t, k ? k : 1, want, &n)) != GB_OK || n == 0)
            break;
        for (size_t i = 0; i < n && st == GB_OK; i++) {
            struct gb_tune_obs o = {.idx = want[i]};
            if ((st = measure(ctx, want[i], &o)) == GB_OK) {
                o.idx = want[i];
                st = gb_tune_observe(t, &o);
            }
        }
        if (st != GB_OK)
            break;
    }
    free(want);
    return st;
}

enum gb_status gb_tune_replay(struct gb_tune *t, size_t k, const struct gb_tune_obs *obs, size_t n,
                              size_t *pending, size_t *n_pending)
{
    size_t i = 0, batch = 0;
    enum gb_status st = GB_OK;
    *n_pending = 0;
    while (i < n && st == GB_OK) {
        size_t got = 0, j = 0;
        if ((st = gb_tune_next(t, k, pending, &got)) != GB_OK)
            break;
        if (got == 0)
            return gb_error_set(GB_ERR_FORMAT, "the run records %zu point(s), more than this search proposes (%zu)", n, i);
        for (; j < got && i < n && st == GB_OK; j++, i++) {
            if (obs[i].idx != pending[j])
                return gb_error_set(GB_ERR_FORMAT,
                                    "recorded point %zu is configuration %zu, but the %s strategy with seed %u "
                                    "proposes configuration %zu there (batch %zu): the run was made with other options",
                                    i + 1, obs[i].idx + 1, t->row->name, t->seed, pending[j] + 1, batch + 1);
            st = gb_tune_observe(t, &obs[i]);
        }
        /* What the last batch still owes. */
        memmove(pending, pending + j, (got - j) * sizeof *pending);
        *n_pending = got - j;
        batch++;
    }
    return st;
}
