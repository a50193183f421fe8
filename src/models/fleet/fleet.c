/* fleet.c - which GPU of a fleet is not like the others (gpubound/fleet.h).
 *
 * Per point: the fleet median M of the members' medians, each member's
 * ratio to it with its interval, and the outlier rule: the difference
 * |median - M| must exceed both the member's own 95% interval (M outside
 * it: the difference is not sampling noise of that GPU's measurement) and
 * GB_FLEET_Z robust standard deviations of the fleet (the difference is
 * unusual among these GPUs, not the common spread of the fleet).
 *
 * The robust standard deviation is 1.4826 x MAD, the median absolute
 * deviation from M, which estimates the standard deviation of normal data
 * and which a few slow GPUs cannot inflate (a standard deviation would:
 * one GPU 20% slow among eight raises it enough to hide itself). With
 * Z = 3.5 this is Iglewicz and Hoaglin's modified z-score test; for
 * normally spread GPUs it flags about 1 in 2000 members by chance. When
 * more than half of the medians are equal the MAD is 0; then the mean
 * absolute deviation (x 1.2533, the same normal scaling) stands in. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gpubound/fleet.h"
#include "gpubound/numbers.h"

/* The robust standard deviation of the present medians around m. */
static double gb_robust_sd(const struct gb_fleet_cell *cells, size_t n, double m, double *scratch)
{
    size_t k = 0;
    double mean_ad = 0;
    for (size_t i = 0; i < n; i++)
        if (cells[i].present) {
            scratch[k] = fabs(cells[i].median - m);
            mean_ad += scratch[k++];
        }
    double mad = gb_stats_median(scratch, k);
    if (mad > 0)
        return 1.4826 * mad;
    return 1.2533 * mean_ad / (double)k;
}

/* The member's verdict at a point of fleet median m and robust sd. */
static void gb_cell_judge(struct gb_fleet_cell *c, double m, double sd, int n_present)
{
    c->ratio = c->median / m;
    c->ratio_lo = c->lo / m;
    c->ratio_hi = c->hi / m;
    c->z = sd > 0 ? (c->median - m) / sd : NAN;
    c->flag = 0;
    int outside_ci = m < c->lo || m > c->hi;
    if (n_present >= GB_FLEET_MIN_MEMBERS && sd > 0 && outside_ci && fabs(c->z) > GB_FLEET_Z)
        c->flag = c->median > m ? 1 : -1;
}

enum gb_status gb_fleet_point_stats(struct gb_fleet_cell *cells, size_t n, double *fleet_median,
                                    double *robust_sd)
{
    double *v = malloc((n ? n : 1) * sizeof *v);
    size_t k = 0;
    *fleet_median = *robust_sd = NAN;
    if (!v)
        return gb_error_set(GB_ERR_NOMEM, "out of host memory");
    for (size_t i = 0; i < n; i++) {
        struct gb_fleet_cell *c = &cells[i];
        c->ratio = c->ratio_lo = c->ratio_hi = c->z = NAN;
        c->flag = 0;
        if (c->present && !(isfinite(c->median) && c->median > 0))
            c->present = 0; /* a median that cannot be compared is not a measurement */
        if (c->present)
            v[k++] = c->median;
    }
    if (k > 0) {
        double m = gb_stats_median(v, k);
        double sd = gb_robust_sd(cells, n, m, v);
        for (size_t i = 0; i < n; i++)
            if (cells[i].present)
                gb_cell_judge(&cells[i], m, sd, (int)k);
        *fleet_median = m;
        *robust_sd = sd;
    }
    free(v);
    return GB_OK;
}

/* ---- the adapter: a fleet run's records into points ---- */

/* The identity of a record's point, without its rank: suite, bench,
 * cache and the axes sorted by name. */
static char *gb_point_key(const struct gb_record *r)
{
    return gb_record_point_key(r, NULL);
}

static void gb_point_label(const struct gb_record *r, char *buf, size_t n)
{
    size_t len = (size_t)snprintf(buf, n, "%s/%s", r->suite, r->bench);
    for (int a = 0; a < r->n_axes && len < n; a++)
        len += (size_t)snprintf(buf + len, n - len, " %s=%s", r->axes[a].name, r->axes[a].value);
    if (r->cache == GB_CACHE_COLD && len < n)
        snprintf(buf + len, n - len, " (cold)");
}

/* The member index of rank `rank` (members sorted by rank), or -1. */
static long gb_member_index(const struct gb_fleet_report *r, int rank)
{
    size_t lo = 0, hi = r->n_members;
    while (lo < hi) {
        size_t mid = (lo + hi) / 2;
        if (r->members[mid].rank == rank)
            return (long)mid;
        if (r->members[mid].rank < rank)
            lo = mid + 1;
        else
            hi = mid;
    }
    return -1;
}

struct gb_keyed_rec {
    char *key;
    size_t index;
};

static int gb_cmp_keyed(const void *a, const void *b)
{
    const struct gb_keyed_rec *x = a, *y = b;
    int c = strcmp(x->key, y->key);
    return c ? c : (x->index > y->index) - (x->index < y->index);
}

static enum gb_status gb_point_new(struct gb_fleet_report *r, const struct gb_record *rec, size_t first)
{
    struct gb_fleet_point *p = &r->points[r->n_points];
    memset(p, 0, sizeof *p);
    gb_point_label(rec, p->label, sizeof p->label);
    snprintf(p->suite, sizeof p->suite, "%s", rec->suite);
    p->first = first;
    p->cells = calloc(r->n_members, sizeof *p->cells);
    p->status = malloc(r->n_members * sizeof *p->status);
    if (!p->cells || !p->status) {
        free(p->cells);
        free(p->status);
        return gb_error_set(GB_ERR_NOMEM, "out of host memory");
    }
    for (size_t m = 0; m < r->n_members; m++)
        p->status[m] = -1;
    r->n_points++;
    return GB_OK;
}

/* Puts record `i` of `run` into the current point's cell of its member. */
static enum gb_status gb_point_add(struct gb_fleet_report *r, const struct gb_run *run, size_t i)
{
    const struct gb_record *rec = &run->records[i];
    long m = rec->fleet ? gb_member_index(r, rec->fleet_rank) : -1;
    if (m < 0)
        return gb_error_set(GB_ERR_FORMAT, "%s: record %zu (%s/%s) %s", run->records_file, i, rec->suite,
                            rec->bench, rec->fleet ? "names a rank run.json's fleet section does not list"
                                                   : "has no fleet rank: not a fleet run's record");
    struct gb_fleet_point *p = &r->points[r->n_points - 1];
    p->status[m] = (int)rec->status;
    struct gb_fleet_cell *c = &p->cells[m];
    c->present = rec->status == GB_REC_OK;
    c->median = rec->time_ns.median;
    c->lo = rec->time_ns.ci_lo;
    c->hi = rec->time_ns.ci_hi;
    return GB_OK;
}

/* Records grouped into points, in the order each point first appears. */
static enum gb_status gb_fleet_group(const struct gb_run *run, struct gb_fleet_report *r)
{
    size_t n = run->n_records, made = 0;
    enum gb_status st = GB_OK;
    struct gb_keyed_rec *k = calloc(n + 1, sizeof *k);
    if (!k || !(r->points = calloc(n + 1, sizeof *r->points))) {
        free(k);
        return gb_error_set(GB_ERR_NOMEM, "out of host memory");
    }
    for (; made < n; made++) {
        k[made].index = made;
        if (!(k[made].key = gb_point_key(&run->records[made]))) {
            st = gb_error_set(GB_ERR_NOMEM, "out of host memory");
            goto out;
        }
    }
    qsort(k, n, sizeof *k, gb_cmp_keyed);
    for (size_t i = 0; i < n && st == GB_OK; i++) {
        if (i == 0 || strcmp(k[i].key, k[i - 1].key) != 0)
            st = gb_point_new(r, &run->records[k[i].index], k[i].index);
        if (st == GB_OK)
            st = gb_point_add(r, run, k[i].index);
    }
out:
    for (size_t i = 0; i < made; i++)
        free(k[i].key);
    free(k);
    return st;
}

static int gb_cmp_member(const void *a, const void *b)
{
    const struct gb_fleet_member *x = a, *y = b;
    return (x->rank > y->rank) - (x->rank < y->rank);
}

static int gb_cmp_point(const void *a, const void *b)
{
    const struct gb_fleet_point *x = a, *y = b;
    return (x->first > y->first) - (x->first < y->first);
}

/* One member's summary over the points. */
static void gb_fleet_summarize(struct gb_fleet_report *r, size_t m)
{
    struct gb_fleet_summary *s = &r->summary[m];
    double log_sum = 0, worst = -1;
    s->min_ratio = INFINITY;
    s->max_ratio = -INFINITY;
    s->shares_gpu_with = -1;
    for (size_t k = 0; k < m && s->shares_gpu_with < 0; k++)
        if (r->members[m].info.has_device && r->members[k].info.has_device &&
            strcmp(r->members[m].info.device.uuid, r->members[k].info.device.uuid) == 0)
            s->shares_gpu_with = r->members[k].rank;
    for (size_t p = 0; p < r->n_points; p++) {
        const struct gb_fleet_cell *c = &r->points[p].cells[m];
        int status = r->points[p].status[m];
        if (status < 0) {
            s->missing++;
            continue;
        }
        if (!c->present) {
            s->failed += status != GB_REC_SKIPPED;
            continue;
        }
        s->measured++;
        log_sum += log(c->ratio);
        s->min_ratio = fmin(s->min_ratio, c->ratio);
        s->max_ratio = fmax(s->max_ratio, c->ratio);
        s->slow += c->flag > 0;
        s->fast += c->flag < 0;
        double dev = isfinite(c->z) ? fabs(c->z) : fabs(log(c->ratio));
        if (dev > worst) {
            worst = dev;
            s->worst = p;
        }
    }
    s->geo_ratio = s->measured ? exp(log_sum / s->measured) : NAN;
    if (!s->measured)
        s->min_ratio = s->max_ratio = NAN;
}

/* A point's spread: max/min of the present medians, and whether the
 * interval of one member lies wholly above another's. */
static void gb_point_spread(struct gb_fleet_point *p, size_t n)
{
    double lo = INFINITY, hi = -INFINITY, top_lo = -INFINITY, low_hi = INFINITY;
    for (size_t m = 0; m < n; m++)
        if (p->cells[m].present) {
            lo = fmin(lo, p->cells[m].median);
            hi = fmax(hi, p->cells[m].median);
            top_lo = fmax(top_lo, p->cells[m].lo);
            low_hi = fmin(low_hi, p->cells[m].hi);
        }
    p->spread = p->n_present >= 2 ? hi / lo : NAN;
    p->apart = p->n_present >= 2 && top_lo > low_hi;
}

/* The suite entry named `suite`, added at the end when it is new. */
static struct gb_fleet_suite *gb_suite_of(struct gb_fleet_report *r, const char *suite)
{
    for (size_t s = 0; s < r->n_suites; s++)
        if (strcmp(r->suites[s].suite, suite) == 0)
            return &r->suites[s];
    struct gb_fleet_suite *s = &r->suites[r->n_suites++];
    snprintf(s->suite, sizeof s->suite, "%s", suite);
    s->spread_max = -INFINITY;
    return s;
}

/* Per suite: the spread of its points compared by two members or more. */
static enum gb_status gb_fleet_suites(struct gb_fleet_report *r)
{
    double *v = malloc((r->n_points + 1) * sizeof *v);
    if (!v || !(r->suites = calloc(r->n_points + 1, sizeof *r->suites))) {
        free(v);
        return gb_error_set(GB_ERR_NOMEM, "out of host memory");
    }
    for (size_t p = 0; p < r->n_points; p++) {
        const struct gb_fleet_point *pt = &r->points[p];
        struct gb_fleet_suite *s = gb_suite_of(r, pt->suite);
        if (!isfinite(pt->spread))
            continue;
        s->points++;
        s->apart += pt->apart;
        for (size_t m = 0; m < r->n_members; m++)
            if (pt->cells[m].flag) {
                s->flagged++;
                break;
            }
        if (pt->spread > s->spread_max) {
            s->spread_max = pt->spread;
            s->widest = p;
        }
    }
    for (size_t i = 0; i < r->n_suites; i++) {
        struct gb_fleet_suite *s = &r->suites[i];
        size_t k = 0;
        for (size_t p = 0; p < r->n_points; p++)
            if (isfinite(r->points[p].spread) && strcmp(r->points[p].suite, s->suite) == 0)
                v[k++] = r->points[p].spread;
        s->spread_median = k ? gb_stats_median(v, k) : NAN;
        if (!k)
            s->spread_max = NAN;
    }
    free(v);
    return GB_OK;
}

enum gb_status gb_fleet_analyze(const struct gb_run *run, struct gb_fleet_member *members, size_t n,
                                struct gb_fleet_report *out)
{
    enum gb_status st;
    memset(out, 0, sizeof *out);
    out->members = members;
    out->n_members = n;
    qsort(members, n, sizeof *members, gb_cmp_member);
    if (!(out->summary = calloc(n + 1, sizeof *out->summary)))
        return gb_error_set(GB_ERR_NOMEM, "out of host memory");
    if ((st = gb_fleet_group(run, out)) != GB_OK)
        return st;
    qsort(out->points, out->n_points, sizeof *out->points, gb_cmp_point);
    for (size_t p = 0; p < out->n_points && st == GB_OK; p++) {
        struct gb_fleet_point *pt = &out->points[p];
        st = gb_fleet_point_stats(pt->cells, n, &pt->fleet_median, &pt->robust_sd);
        for (size_t m = 0; m < n; m++)
            pt->n_present += pt->cells[m].present;
        gb_point_spread(pt, n);
    }
    for (size_t m = 0; m < n && st == GB_OK; m++)
        gb_fleet_summarize(out, m);
    return st == GB_OK ? gb_fleet_suites(out) : st;
}

void gb_fleet_report_release(struct gb_fleet_report *r)
{
    if (!r)
        return;
    for (size_t p = 0; p < r->n_points; p++) {
        free(r->points[p].cells);
        free(r->points[p].status);
    }
    free(r->points);
    free(r->summary);
    free(r->suites);
    free(r->members);
    memset(r, 0, sizeof *r);
}
