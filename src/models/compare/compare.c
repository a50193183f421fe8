/* compare.c - runs compared point by point (compare.h): matching, pooling
 * the runs of a side, the verdict, the anchors and the summary. The rank
 * statistics are in compare_stats.c. */
#include <gsl/gsl_cdf.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gpubound/compare.h"
#include "gpubound/numbers.h"

void gb_cmp_opts_default(struct gb_cmp_opts *o)
{
    memset(o, 0, sizeof *o);
    o->alpha = 0.01;
    o->threshold = 0.02;
}

const char *gb_cmp_verdict_name(enum gb_cmp_verdict v)
{
    return v == GB_CMP_FASTER ? "faster" : v == GB_CMP_SLOWER ? "slower" : "no change";
}

const char *gb_cmp_lost_name(enum gb_cmp_lost w)
{
    return w == GB_CMP_LOST_FAILED ? "failed" : w == GB_CMP_LOST_SKIPPED ? "skipped" : "missing";
}

const char *gb_cmp_method_name(enum gb_cmp_method m)
{
    return m == GB_CMP_RANKS ? "ranks-exact" : m == GB_CMP_RANKS_NORMAL ? "ranks-normal" : "summary";
}

/* ---- matching ---- */

/* A record of a side, with the key it is matched on. */
struct gb_cmp_entry {
    char *key;
    const struct gb_record *r;
};

struct gb_cmp_side {
    struct gb_cmp_entry *e;
    size_t n, cap;
};

/* The pair whose base (side 0) or new (side 1) bench `r` is, or -1. */
static int gb_cmp_pair_of(const struct gb_cmp_opts *o, const struct gb_record *r, int side)
{
    char name[128];
    snprintf(name, sizeof name, "%s/%s", r->suite, r->bench);
    for (int k = 0; k < o->n_pairs; k++)
        if (strcmp(side ? o->pairs[k].new_ : o->pairs[k].base, name) == 0)
            return k;
    return -1;
}

/* The key of a record: its bench (or its pair's number), cache mode and
 * axes sorted by name, joined by bytes that names cannot hold; a fleet
 * run's record adds its rank, so that GPUs are compared one by one. */
static char *gb_cmp_key(const struct gb_record *r, int pair)
{
    char as[32];
    snprintf(as, sizeof as, "\x03pair%d", pair);
    char *k = gb_record_point_key(r, pair < 0 ? NULL : as);
    if (!k || !r->fleet)
        return k;
    size_t n = strlen(k);
    char *f = realloc(k, n + 24);
    if (!f) {
        free(k);
        return NULL;
    }
    snprintf(f + n, 24, "\x03rank%d", r->fleet_rank);
    return f;
}

static int gb_cmp_entry_order(const void *a, const void *b)
{
    return strcmp(((const struct gb_cmp_entry *)a)->key, ((const struct gb_cmp_entry *)b)->key);
}

static void gb_cmp_side_free(struct gb_cmp_side *s)
{
    for (size_t i = 0; i < s->n; i++)
        free(s->e[i].key);
    free(s->e);
    memset(s, 0, sizeof *s);
}

/* The measured records of a side's runs (measured = 0: the others:
 * failed, skipped or stopped by an error), keyed and sorted. */
static enum gb_status gb_cmp_side_make(const struct gb_run *const *runs, int n_runs, int side, int measured,
                                       const struct gb_cmp_opts *o, struct gb_cmp_side *s)
{
    memset(s, 0, sizeof *s);
    for (int k = 0; k < n_runs; k++)
        for (size_t i = 0; i < runs[k]->n_records; i++) {
            const struct gb_record *r = &runs[k]->records[i];
            int pair = o->n_pairs > 0 ? gb_cmp_pair_of(o, r, side) : -1;
            if ((r->status == GB_REC_OK) != measured || (o->n_pairs > 0 && pair < 0))
                continue;
            if (s->n == s->cap) {
                size_t c = s->cap ? 2 * s->cap : 256;
                struct gb_cmp_entry *p = realloc(s->e, c * sizeof *p);
                if (!p)
                    goto oom;
                s->e = p;
                s->cap = c;
            }
            if (!(s->e[s->n].key = gb_cmp_key(r, pair)))
                goto oom;
            s->e[s->n++].r = r;
        }
    if (s->n)
        qsort(s->e, s->n, sizeof *s->e, gb_cmp_entry_order);
    return GB_OK;
oom:
    gb_cmp_side_free(s);
    return gb_error_set(GB_ERR_NOMEM, "out of host memory comparing runs");
}

/* "suite/bench axis=value ... (hot)"; with a pair "suite/base vs new ...". */
static void gb_cmp_name(const struct gb_record *b, const struct gb_record *n, char *buf, size_t size)
{
    size_t len;
    if (n && strcmp(b->bench, n->bench) != 0)
        len = (size_t)snprintf(buf, size, "%s/%s vs %s", b->suite, b->bench, n->bench);
    else
        len = (size_t)snprintf(buf, size, "%s/%s", b->suite, b->bench);
    for (int a = 0; a < b->n_axes && len < size; a++)
        len += (size_t)snprintf(buf + len, size - len, " %s=%s", b->axes[a].name, b->axes[a].value);
    if (b->fleet && len < size)
        len += (size_t)snprintf(buf + len, size - len, " rank=%d", b->fleet_rank);
    if (len < size)
        snprintf(buf + len, size - len, " (%s)", gb_cache_mode_name(b->cache));
}

/* ---- one matched point ---- */

/* What a side holds of one point: its records [first, first + n). */
struct gb_cmp_group {
    const struct gb_cmp_entry *e;
    size_t n;
};

static int gb_cmp_has_samples(const struct gb_cmp_group *g)
{
    for (size_t i = 0; i < g->n; i++)
        if (g->e[i].r->n_sample_ns < 1)
            return 0;
    return 1;
}

/* The group's samples pooled into a new array of *n. */
static double *gb_cmp_pool(const struct gb_cmp_group *g, int *n)
{
    size_t tot = 0;
    for (size_t i = 0; i < g->n; i++)
        tot += (size_t)g->e[i].r->n_sample_ns;
    double *v = malloc((tot ? tot : 1) * sizeof *v), *p = v;
    if (!v)
        return NULL;
    for (size_t i = 0; i < g->n; i++) {
        memcpy(p, g->e[i].r->sample_ns, (size_t)g->e[i].r->n_sample_ns * sizeof *v);
        p += g->e[i].r->n_sample_ns;
    }
    *n = (int)tot;
    return v;
}

/* A side's summary of one point: the median of its records' medians and
 * the hull of their 95% intervals. */
static void gb_cmp_group_summary(const struct gb_cmp_group *g, double *med, double *lo, double *hi)
{
    double m[64];
    int k = 0;
    *lo = INFINITY;
    *hi = -INFINITY;
    for (size_t i = 0; i < g->n; i++) {
        const struct gb_record *r = g->e[i].r;
        if (k < 64)
            m[k++] = r->time_ns.median;
        *lo = fmin(*lo, r->time_ns.ci_lo);
        *hi = fmax(*hi, r->time_ns.ci_hi);
    }
    *med = gb_stats_median(m, (size_t)k);
}

/* The summary method: the ratio of medians, with the log-scale standard
 * errors read from each side's 95% interval of its median. */
static void gb_cmp_summary(const struct gb_cmp_group *gb, const struct gb_cmp_group *gn, double alpha,
                           struct gb_cmp_point *pt)
{
    double mb, lob, hib, mn, lon, hin;
    const double z95 = gsl_cdf_ugaussian_Qinv(0.025);
    gb_cmp_group_summary(gb, &mb, &lob, &hib);
    gb_cmp_group_summary(gn, &mn, &lon, &hin);
    struct gb_cmp_stat *s = &pt->s;
    memset(s, 0, sizeof *s);
    s->method = GB_CMP_SUMMARY;
    pt->base_ns = mb;
    pt->new_ns = mn;
    s->ratio = mn / mb;
    double se = hypot(log(hib / lob), log(hin / lon)) / (2 * z95);
    s->few = !(mb > 0 && mn > 0 && isfinite(se));
    s->u = NAN;
    if (s->few) {
        s->lo = s->hi = s->p = NAN;
        return;
    }
    double z = gsl_cdf_ugaussian_Qinv(alpha / 2);
    s->lo = s->ratio * exp(-z * se);
    s->hi = s->ratio * exp(z * se);
    s->p = se > 0 ? fmin(1.0, 2 * gsl_cdf_ugaussian_Q(fabs(log(s->ratio)) / se)) : (s->ratio == 1 ? 1.0 : 0.0);
}

/* The samples method; GB_ERR_NOMEM, or GB_ERR_USAGE for a sample <= 0. */
static enum gb_status gb_cmp_ranks(const struct gb_cmp_group *gb, const struct gb_cmp_group *gn, double alpha,
                                   struct gb_cmp_point *pt)
{
    enum gb_status st = GB_OK;
    double *x = gb_cmp_pool(gb, &pt->n_base), *y = x ? gb_cmp_pool(gn, &pt->n_new) : NULL;
    if (!x || !y)
        st = gb_error_set(GB_ERR_NOMEM, "out of host memory comparing %s", pt->name);
    else if ((st = gb_cmp_samples(x, pt->n_base, y, pt->n_new, alpha, &pt->s)) == GB_OK) {
        pt->base_ns = gb_stats_median(x, (size_t)pt->n_base);
        pt->new_ns = gb_stats_median(y, (size_t)pt->n_new);
    }
    free(x);
    free(y);
    return st;
}

/* The mean SM clock of a side's records (0 when none was read), whether
 * any throttled and whether all converged. */
static double gb_cmp_clock(const struct gb_cmp_group *g, int *throttled, int *converged)
{
    double sum = 0;
    int k = 0;
    *throttled = 0;
    *converged = 1;
    for (size_t i = 0; i < g->n; i++) {
        const struct gb_record *r = g->e[i].r;
        *throttled |= r->throttled;
        *converged &= r->converged;
        if (r->sm_mhz_before > 0 && r->sm_mhz_after > 0) {
            sum += 0.5 * (r->sm_mhz_before + r->sm_mhz_after);
            k++;
        }
    }
    return k ? sum / k : 0;
}

static void gb_cmp_warnings(const struct gb_cmp_group *gb, const struct gb_cmp_group *gn, struct gb_cmp_point *pt)
{
    int tb, tn, cb, cn;
    pt->mhz_base = gb_cmp_clock(gb, &tb, &cb);
    pt->mhz_new = gb_cmp_clock(gn, &tn, &cn);
    pt->warn = 0;
    if (tb || tn)
        pt->warn |= GB_CMP_WARN_THROTTLED;
    if (cb != cn)
        pt->warn |= GB_CMP_WARN_CONVERGED;
    if (pt->mhz_base > 0 && pt->mhz_new > 0 && fabs(pt->mhz_new - pt->mhz_base) > 0.03 * pt->mhz_base)
        pt->warn |= GB_CMP_WARN_CLOCK;
    if (pt->s.few)
        pt->warn |= GB_CMP_WARN_FEW;
}

static enum gb_cmp_verdict gb_cmp_verdict(const struct gb_cmp_stat *s, double threshold)
{
    if (s->few || !(s->lo > 1.0 || s->hi < 1.0))
        return GB_CMP_SAME;
    if (s->ratio > 1.0 + threshold)
        return GB_CMP_SLOWER;
    if (s->ratio < 1.0 - threshold)
        return GB_CMP_FASTER;
    return GB_CMP_SAME;
}

static enum gb_status gb_cmp_point(const struct gb_cmp_group *gb, const struct gb_cmp_group *gn,
                                   const struct gb_cmp_opts *o, struct gb_cmp_point *pt)
{
    enum gb_status st = GB_OK;
    memset(pt, 0, sizeof *pt);
    gb_cmp_name(gb->e[0].r, gn->e[0].r, pt->name, sizeof pt->name);
    if (gb_cmp_has_samples(gb) && gb_cmp_has_samples(gn))
        st = gb_cmp_ranks(gb, gn, o->alpha, pt);
    else
        gb_cmp_summary(gb, gn, o->alpha, pt);
    if (st != GB_OK)
        return st;
    pt->median_ratio = pt->new_ns / pt->base_ns;
    gb_cmp_warnings(gb, gn, pt);
    pt->verdict = gb_cmp_verdict(&pt->s, o->threshold);
    double a = o->anchor_base_gbs > 0 && o->anchor_new_gbs > 0 ? o->anchor_new_gbs / o->anchor_base_gbs : NAN;
    pt->anchored = pt->s.ratio * a;
    pt->anchored_lo = pt->s.lo * a;
    pt->anchored_hi = pt->s.hi * a;
    return GB_OK;
}

/* ---- the whole comparison ---- */

/* The records of `s` from index *i with the same key: the next group. */
static struct gb_cmp_group gb_cmp_next_group(const struct gb_cmp_side *s, size_t i)
{
    struct gb_cmp_group g = {.e = &s->e[i], .n = 1};
    while (i + g.n < s->n && strcmp(s->e[i + g.n].key, s->e[i].key) == 0)
        g.n++;
    return g;
}

/* Why NEW has no measurement of the base point with key `key`: the
 * status of its records of the point in `bad` (failed before skipped),
 * else missing. */
static enum gb_cmp_lost gb_cmp_lost_why(const struct gb_cmp_side *bad, const char *key)
{
    struct gb_cmp_entry probe = {.key = (char *)key};
    const struct gb_cmp_entry *e = bad->n ? bsearch(&probe, bad->e, bad->n, sizeof *bad->e, gb_cmp_entry_order)
                                          : NULL;
    if (!e)
        return GB_CMP_LOST_MISSING;
    while (e > bad->e && strcmp(e[-1].key, key) == 0)
        e--;
    enum gb_cmp_lost why = GB_CMP_LOST_SKIPPED;
    for (; e < bad->e + bad->n && strcmp(e->key, key) == 0; e++)
        if (e->r->status != GB_REC_SKIPPED)
            why = GB_CMP_LOST_FAILED;
    return why;
}

static enum gb_status gb_cmp_push_lost(struct gb_cmp_result *out, enum gb_cmp_lost why)
{
    enum gb_cmp_lost *p = realloc(out->only_base_why, (out->n_only_base + 1) * sizeof *p);
    if (!p)
        return gb_error_set(GB_ERR_NOMEM, "out of host memory comparing runs");
    out->only_base_why = p;
    p[out->n_only_base] = why;
    out->n_lost[why]++;
    return GB_OK;
}

static enum gb_status gb_cmp_push_name(char ***list, size_t *n, const struct gb_record *r)
{
    char name[512];
    char **p = realloc(*list, (*n + 1) * sizeof *p);
    if (!p)
        return gb_error_set(GB_ERR_NOMEM, "out of host memory comparing runs");
    *list = p;
    gb_cmp_name(r, NULL, name, sizeof name);
    if (!(p[*n] = strdup(name)))
        return gb_error_set(GB_ERR_NOMEM, "out of host memory comparing runs");
    ++*n;
    return GB_OK;
}

static enum gb_status gb_cmp_push_point(struct gb_cmp_result *out, size_t *cap, const struct gb_cmp_group *gb,
                                        const struct gb_cmp_group *gn, const struct gb_cmp_opts *o)
{
    if (out->n_points == *cap) {
        size_t c = *cap ? 2 * *cap : 64;
        struct gb_cmp_point *p = realloc(out->points, c * sizeof *p);
        if (!p)
            return gb_error_set(GB_ERR_NOMEM, "out of host memory comparing runs");
        out->points = p;
        *cap = c;
    }
    enum gb_status st = gb_cmp_point(gb, gn, o, &out->points[out->n_points]);
    if (st == GB_OK)
        out->n_points++;
    return st;
}

/* Merges the two sorted sides: matched points and one-sided names, each
 * base-only point with why NEW has none (its records in `bad`). */
static enum gb_status gb_cmp_join(const struct gb_cmp_side *b, const struct gb_cmp_side *n,
                                  const struct gb_cmp_side *bad, const struct gb_cmp_opts *o,
                                  struct gb_cmp_result *out)
{
    size_t i = 0, j = 0, cap = 0;
    enum gb_status st = GB_OK;
    while (st == GB_OK && (i < b->n || j < n->n)) {
        int c = i >= b->n ? 1 : j >= n->n ? -1 : strcmp(b->e[i].key, n->e[j].key);
        struct gb_cmp_group gb = c <= 0 ? gb_cmp_next_group(b, i) : (struct gb_cmp_group){0};
        struct gb_cmp_group gn = c >= 0 ? gb_cmp_next_group(n, j) : (struct gb_cmp_group){0};
        if (c == 0)
            st = gb_cmp_push_point(out, &cap, &gb, &gn, o);
        else if (c < 0 && (st = gb_cmp_push_lost(out, gb_cmp_lost_why(bad, gb.e[0].key))) == GB_OK)
            st = gb_cmp_push_name(&out->only_base, &out->n_only_base, gb.e[0].r);
        else
            st = gb_cmp_push_name(&out->only_new, &out->n_only_new, gn.e[0].r);
        i += gb.n;
        j += gn.n;
    }
    return st;
}

static int gb_cmp_effect_order(const void *a, const void *b)
{
    const struct gb_cmp_point *x = a, *y = b;
    double ex = fabs(log(x->s.ratio)), ey = fabs(log(y->s.ratio));
    if (!isfinite(ex))
        ex = -1;
    if (!isfinite(ey))
        ey = -1;
    return ex != ey ? (ex < ey) - (ex > ey) : strcmp(x->name, y->name);
}

/* Counts, and the geometric mean of the ratios with its interval. */
static void gb_cmp_summarise(struct gb_cmp_result *r, double alpha)
{
    double sum = 0, sq = 0;
    size_t k = 0, last = 0;
    for (size_t i = 0; i < r->n_points; i++) {
        const struct gb_cmp_point *p = &r->points[i];
        r->n_faster += p->verdict == GB_CMP_FASTER;
        r->n_slower += p->verdict == GB_CMP_SLOWER;
        r->n_same += p->verdict == GB_CMP_SAME;
        r->n_summary += p->s.method == GB_CMP_SUMMARY;
        r->n_throttled += (p->warn & GB_CMP_WARN_THROTTLED) != 0;
        r->n_clock += (p->warn & GB_CMP_WARN_CLOCK) != 0;
        r->n_converged += (p->warn & GB_CMP_WARN_CONVERGED) != 0;
        if (p->s.ratio > 0 && isfinite(p->s.ratio)) {
            sum += log(p->s.ratio);
            k++;
            last = i;
        }
    }
    r->geomean = r->geomean_lo = r->geomean_hi = NAN;
    if (k == 0)
        return;
    double mean = sum / (double)k;
    for (size_t i = 0; i < r->n_points; i++)
        if (r->points[i].s.ratio > 0 && isfinite(r->points[i].s.ratio))
            sq += (log(r->points[i].s.ratio) - mean) * (log(r->points[i].s.ratio) - mean);
    r->geomean = exp(mean);
    if (k == 1) {
        r->geomean_lo = r->points[last].s.lo;
        r->geomean_hi = r->points[last].s.hi;
        return;
    }
    double h = gsl_cdf_tdist_Qinv(alpha / 2, (double)(k - 1)) * sqrt(sq / (double)(k - 1) / (double)k);
    r->geomean_lo = exp(mean - h);
    r->geomean_hi = exp(mean + h);
}

enum gb_status gb_cmp_runs(const struct gb_run *const *base, int n_base, const struct gb_run *const *new_,
                           int n_new, const struct gb_cmp_opts *o, struct gb_cmp_result *out)
{
    struct gb_cmp_side b = {0}, n = {0}, bad = {0};
    enum gb_status st;
    memset(out, 0, sizeof *out);
    if (n_base < 1 || n_new < 1)
        return gb_error_set(GB_ERR_USAGE, "comparing needs at least one run on each side");
    if ((st = gb_cmp_side_make(base, n_base, 0, 1, o, &b)) == GB_OK &&
        (st = gb_cmp_side_make(new_, n_new, 1, 1, o, &n)) == GB_OK &&
        (st = gb_cmp_side_make(new_, n_new, 1, 0, o, &bad)) == GB_OK)
        st = gb_cmp_join(&b, &n, &bad, o, out);
    gb_cmp_side_free(&b);
    gb_cmp_side_free(&n);
    gb_cmp_side_free(&bad);
    if (st != GB_OK) {
        gb_cmp_result_release(out);
        return st;
    }
    if (out->n_points)
        qsort(out->points, out->n_points, sizeof *out->points, gb_cmp_effect_order);
    gb_cmp_summarise(out, o->alpha);
    return GB_OK;
}

void gb_cmp_result_release(struct gb_cmp_result *r)
{
    for (size_t i = 0; i < r->n_only_base; i++)
        free(r->only_base[i]);
    for (size_t i = 0; i < r->n_only_new; i++)
        free(r->only_new[i]);
    free(r->only_base);
    free(r->only_base_why);
    free(r->only_new);
    free(r->points);
    memset(r, 0, sizeof *r);
}
