/* check.c - the consistency of a loaded run: what its records say against
 * each other and against run.json (results.h, gb_run_check).
 *
 * Errors (the run is refused, exit 1): statistics that contradict each
 * other (ci_lo > ci_hi, min > median), an interval reaching 0 or a median
 * or kept sample of 0 in a measured record, the same point recorded twice, and
 * derived values that are not finite (a zero median with bytes moved).
 * Warnings (printed, and written into report.md): a record count that
 * differs from run.json's, GB/s or GFLOP/s that do not follow from the
 * median and the bytes or operations, a median outside its interval, and
 * axis values outside their suite's domain (gb_run_check_axes). */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gpubound/numbers.h"
#include "gpubound/results.h"
#include "util/text.h"

#define GB_MAX_WARNINGS 20

enum gb_status gb_run_warn(struct gb_run *run, const char *fmt, ...)
{
    char raw[1024], buf[1024];
    va_list ap;
    if (run->n_warnings_total++ >= GB_MAX_WARNINGS)
        return GB_OK; /* counted: n_warnings_total - n_warnings were left out */
    va_start(ap, fmt);
    vsnprintf(raw, sizeof raw, fmt, ap);
    va_end(ap);
    gb_text_escape(buf, sizeof buf, raw); /* one line, whatever a value holds */
    char **w = realloc(run->warnings, (run->n_warnings + 1) * sizeof *w);
    if (!w)
        return gb_error_set(GB_ERR_NOMEM, "out of host memory");
    run->warnings = w;
    if (!(w[run->n_warnings] = strdup(buf)))
        return gb_error_set(GB_ERR_NOMEM, "out of host memory");
    run->n_warnings++;
    return GB_OK;
}

/* "suite/bench axis=value ... (cache)" of record i, for messages. */
static void gb_rec_name(const struct gb_run *run, size_t i, char *buf, size_t n)
{
    const struct gb_record *r = &run->records[i];
    size_t len = (size_t)snprintf(buf, n, "record %zu (%s/%s", i, r->suite, r->bench);
    for (int a = 0; a < r->n_axes && len < n; a++)
        len += (size_t)snprintf(buf + len, n - len, " %s=%s", r->axes[a].name, r->axes[a].value);
    if (len < n)
        snprintf(buf + len, n - len, ", %s)", gb_cache_mode_name(r->cache));
}

/* Whether `got` follows from `want` (both finite) to 1e-6. */
static int gb_agrees(double got, double want)
{
    return fabs(got - want) <= 1e-6 * fmax(fabs(got), fabs(want)) + 1e-12;
}

/* The statistics of one measured record. */
static enum gb_status gb_check_stats(struct gb_run *run, const char *file, size_t i)
{
    const struct gb_record *r = &run->records[i];
    char name[512];
    if (r->status != GB_REC_OK)
        return GB_OK;
    gb_rec_name(run, i, name, sizeof name);
    if (r->time_ns.ci_lo > r->time_ns.ci_hi)
        return gb_error_set(GB_ERR_FORMAT, "%s: $[%zu].time_ns.ci_lo = %.17g > ci_hi = %.17g: the "
                            "interval of %s is reversed", file, i, r->time_ns.ci_lo, r->time_ns.ci_hi, name);
    if (r->time_ns.min > r->time_ns.median)
        return gb_error_set(GB_ERR_FORMAT, "%s: $[%zu].time_ns.min = %.17g > median = %.17g in %s",
                            file, i, r->time_ns.min, r->time_ns.median, name);
    if (r->bytes > 0 && r->time_ns.median == 0)
        return gb_error_set(GB_ERR_FORMAT, "%s: $[%zu].time_ns.median = 0 with %.17g bytes: GB/s "
                            "would be infinite in %s", file, i, r->bytes, name);
    if (r->flops > 0 && r->time_ns.median == 0)
        return gb_error_set(GB_ERR_FORMAT, "%s: $[%zu].time_ns.median = 0 with %.17g operations: "
                            "GFLOP/s would be infinite in %s", file, i, r->flops, name);
    /* A time of 0 is no measurement: a ratio or a log of it would be
     * infinite, and an interval reaching 0 says nothing. */
    if (!(r->time_ns.ci_lo > 0) || !(r->time_ns.median > 0))
        return gb_error_set(GB_ERR_FORMAT, "%s: $[%zu].time_ns.%s = %.17g: a measured time must be above 0 in %s",
                            file, i, r->time_ns.ci_lo > 0 ? "median" : "ci_lo",
                            r->time_ns.ci_lo > 0 ? r->time_ns.median : r->time_ns.ci_lo, name);
    for (int k = 0; k < r->n_sample_ns; k++)
        if (!(r->sample_ns[k] > 0))
            return gb_error_set(GB_ERR_FORMAT, "%s: $[%zu].sample_ns[%d] = %.17g: a kept sample must be above 0 in %s",
                                file, i, k, r->sample_ns[k], name);
    double peak = run->info.has_device ? run->info.device.mem_peak_gbs : 0;
    if (peak > 0 && isfinite(r->bw_gbs) && !isfinite(100.0 * r->bw_gbs / peak))
        return gb_error_set(GB_ERR_FORMAT, "%s/run.json: $.device.mem_peak_gbs = %.17g: the %% of "
                            "peak = 100 * %.6g GB/s / peak is not finite for %s", run->dir, peak,
                            r->bw_gbs, name);
    enum gb_status st = GB_OK;
    if (r->time_ns.median < r->time_ns.ci_lo || r->time_ns.median > r->time_ns.ci_hi)
        st = gb_run_warn(run, "%s: $[%zu].time_ns.median = %.6g lies outside its interval [%.6g, "
                         "%.6g] in %s", file, i, r->time_ns.median, r->time_ns.ci_lo, r->time_ns.ci_hi, name);
    if (st == GB_OK && isfinite(r->bw_gbs) && r->bytes > 0 && r->time_ns.median > 0 &&
        !gb_agrees(r->bw_gbs, r->bytes / r->time_ns.median))
        st = gb_run_warn(run, "%s: $[%zu].bw_gbs = %.6g does not follow from bytes / median = "
                         "%.6g in %s", file, i, r->bw_gbs, r->bytes / r->time_ns.median, name);
    if (st == GB_OK && isfinite(r->gflops) && r->flops > 0 && r->time_ns.median > 0 &&
        !gb_agrees(r->gflops, r->flops / r->time_ns.median))
        st = gb_run_warn(run, "%s: $[%zu].gflops = %.6g does not follow from flops / median = "
                         "%.6g in %s", file, i, r->gflops, r->flops / r->time_ns.median, name);
    return st;
}

/* The kept samples against the median they summarise (samples are written
 * to 0.001 ns): their Harrell-Davis estimate (gb_stats_compute) or, in a
 * run recorded before gpubound reported it, the middle sample. */
static enum gb_status gb_check_samples(struct gb_run *run, const char *file, size_t i)
{
    const struct gb_record *r = &run->records[i];
    int n = r->n_sample_ns;
    if (r->status != GB_REC_OK || n < 1 || !isfinite(r->time_ns.median))
        return GB_OK;
    double *s = malloc((size_t)n * sizeof *s);
    if (!s)
        return gb_error_set(GB_ERR_NOMEM, "out of host memory");
    memcpy(s, r->sample_ns, (size_t)n * sizeof *s);
    double med = gb_stats_median(s, (size_t)n);
    free(s);
    double tol = 1e-3 + 1e-9 * fabs(r->time_ns.median);
    if (fabs(med - r->time_ns.median) <= tol)
        return GB_OK;
    /* Only a median that is not the middle sample pays for the estimate. */
    struct gb_sample_stats hd;
    enum gb_status st = gb_stats_compute(r->sample_ns, n, &hd);
    if (st != GB_OK)
        return st;
    if (fabs(hd.median - r->time_ns.median) <= tol)
        return GB_OK;
    char name[512];
    gb_rec_name(run, i, name, sizeof name);
    return gb_run_warn(run, "%s: $[%zu].time_ns.median = %.6g is neither the Harrell-Davis median of "
                       "its sample_ns (%.6g) nor their middle (%.6g) in %s", file, i, r->time_ns.median,
                       hd.median, med, name);
}

/* The identity of a record: its point, and its rank in a fleet run (which
 * holds each point once per rank). */
static char *gb_rec_key(const struct gb_record *r)
{
    char *k = gb_record_point_key(r, NULL);
    if (!k || !r->fleet)
        return k;
    size_t n = strlen(k);
    char *f = realloc(k, n + 16);
    if (!f) {
        free(k);
        return NULL;
    }
    snprintf(f + n, 16, "\x03%d", r->fleet_rank);
    return f;
}

struct gb_keyed {
    char *key;
    size_t index;
};

static int gb_cmp_keyed(const void *a, const void *b)
{
    const struct gb_keyed *x = a, *y = b;
    int c = strcmp(x->key, y->key);
    return c ? c : (x->index > y->index) - (x->index < y->index);
}

/* The same point twice (n log n: sorted keys, neighbours compared). */
static enum gb_status gb_check_duplicates(const struct gb_run *run, const char *file)
{
    enum gb_status st = GB_OK;
    size_t n = run->n_records, made = 0;
    struct gb_keyed *k = calloc(n ? n : 1, sizeof *k);
    if (!k)
        return gb_error_set(GB_ERR_NOMEM, "out of host memory");
    for (; made < n; made++) {
        k[made].index = made;
        if (!(k[made].key = gb_rec_key(&run->records[made]))) {
            st = gb_error_set(GB_ERR_NOMEM, "out of host memory");
            goto out;
        }
    }
    qsort(k, n, sizeof *k, gb_cmp_keyed);
    for (size_t i = 1; i < n; i++)
        if (strcmp(k[i - 1].key, k[i].key) == 0) {
            char name[512];
            gb_rec_name(run, k[i].index, name, sizeof name);
            st = gb_error_set(GB_ERR_FORMAT, "%s: $[%zu] repeats the point of $[%zu]: %s is "
                              "recorded twice", file, k[i].index, k[i - 1].index, name);
            break;
        }
out:
    for (size_t i = 0; i < made; i++)
        free(k[i].key);
    free(k);
    return st;
}

/* run.json's count of points against the records. */
static enum gb_status gb_check_count(struct gb_run *run, const char *file)
{
    size_t ok, failed, skipped;
    gb_run_count_status(run, &ok, &failed, &skipped);
    const struct gb_run_info *in = &run->info;
    size_t dok = (size_t)in->points_ok, dfailed = (size_t)in->points_failed;
    if (!in->complete && ok <= dok && failed <= dfailed + skipped)
        return GB_OK; /* a run still going or killed: run.json was written before its end */
    /* Skipped points were counted as failed by earlier versions. */
    if (ok == dok && (failed == dfailed || failed + skipped == dfailed))
        return GB_OK;
    return gb_run_warn(run, "%s/run.json declares %d measured and %d failed points "
                       "(points_ok, points_failed); %s holds %zu and %zu", run->dir, in->points_ok,
                       in->points_failed, file, ok, failed);
}

enum gb_status gb_run_check(struct gb_run *run, const char *file)
{
    enum gb_status st;
    for (size_t i = 0; i < run->n_records; i++)
        if ((st = gb_check_stats(run, file, i)) != GB_OK || (st = gb_check_samples(run, file, i)) != GB_OK)
            return st;
    if ((st = gb_check_duplicates(run, file)) != GB_OK)
        return st;
    return gb_check_count(run, file);
}

enum gb_status gb_run_check_axes(struct gb_run *run, gb_axis_domain_fn fn, void *ctx)
{
    enum gb_status st = GB_OK;
    char why[512];
    for (size_t i = 0; i < run->n_records && st == GB_OK; i++) {
        const struct gb_record *r = &run->records[i];
        for (int a = 0; a < r->n_axes && st == GB_OK; a++) {
            if (fn(ctx, r->suite, r->bench, r->axes[a].name, r->axes[a].value, why, sizeof why) == 0)
                continue;
            st = gb_run_warn(run, "%s: $[%zu].axes.%s = \"%s\" is outside the suite's domain (%s)",
                             run->records_file[0] ? run->records_file : run->dir, i, r->axes[a].name,
                             r->axes[a].value, why);
        }
    }
    return st;
}
