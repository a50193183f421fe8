/* summary.c - the table a run leaves on the terminal: one row per record. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "gpubound/report.h"
#include "gpubound/table.h"

/* Names in order of first appearance, without repeats. */
struct gb_names {
    const char **v;
    size_t n, cap;
};

static enum gb_status gb_names_add(struct gb_names *s, const char *name)
{
    for (size_t i = 0; i < s->n; i++)
        if (strcmp(s->v[i], name) == 0)
            return GB_OK;
    if (s->n == s->cap) {
        size_t cap = s->cap ? 2 * s->cap : 16;
        const char **nv = realloc(s->v, cap * sizeof *nv);
        if (!nv)
            return gb_error_set(GB_ERR_NOMEM, "out of memory building the summary");
        s->v = nv;
        s->cap = cap;
    }
    s->v[s->n++] = name;
    return GB_OK;
}

static int gb_rec_selected(const struct gb_record *r, const char *suite)
{
    return !suite || strcmp(r->suite, suite) == 0;
}

static void gb_note_add(char *buf, size_t n, const char *what)
{
    size_t len = strlen(buf);
    if (!what[0] || len + 1 >= n)
        return;
    snprintf(buf + len, n - len, "%s%s", len ? "; " : "", what);
}

/* What the columns of a summary are, from a first pass over the records. */
struct gb_sum {
    const char *suite;          /* NULL: every suite, with a suite column */
    struct gb_names axes, metrics;
    int any_bytes, any_flops, any_note, any_hot, any_cold, show_peak, in_ms;
    double peak, ns_per_unit;
};

static enum gb_status gb_sum_scan(const struct gb_run *run, struct gb_sum *sm)
{
    enum gb_status st;
    double max_median = 0;
    for (size_t i = 0; i < run->n_records; i++) {
        const struct gb_record *r = &run->records[i];
        if (!gb_rec_selected(r, sm->suite))
            continue;
        for (int a = 0; a < r->n_axes; a++)
            if ((st = gb_names_add(&sm->axes, r->axes[a].name)) != GB_OK)
                return st;
        for (int m = 0; m < r->n_metrics; m++)
            if ((st = gb_names_add(&sm->metrics, r->metrics[m].name)) != GB_OK)
                return st;
        if (r->cache == GB_CACHE_COLD)
            sm->any_cold = 1;
        else
            sm->any_hot = 1;
        if (r->reason[0] || r->throttled || (r->status == GB_REC_OK && !r->converged))
            sm->any_note = 1;
        if (r->status != GB_REC_OK)
            continue;
        sm->any_bytes |= r->bytes > 0;
        sm->any_flops |= r->flops > 0;
        if (r->time_ns.median > max_median)
            max_median = r->time_ns.median;
    }
    sm->in_ms = max_median >= 10e6;
    sm->ns_per_unit = sm->in_ms ? 1e6 : 1e3;
    sm->peak = run->info.has_device ? run->info.device.mem_peak_gbs : 0;
    sm->show_peak = sm->any_bytes && sm->peak > 0;
    return GB_OK;
}

static enum gb_status gb_sum_metric_columns(struct gb_table *t, const struct gb_sum *sm)
{
    enum gb_status st = GB_OK;
    for (size_t m = 0; m < sm->metrics.n && st == GB_OK; m++) {
        /* A metric named like an axis of another suite of the run (ubench's
         * metric n, transpose's axis n) gets a column of its own name. */
        char name[96];
        int clash = 0;
        for (size_t a = 0; a < sm->axes.n && !clash; a++)
            clash = strcmp(sm->axes.v[a], sm->metrics.v[m]) == 0;
        snprintf(name, sizeof name, clash ? "%s (metric)" : "%s", sm->metrics.v[m]);
        st = gb_table_column(t, name, NULL);
    }
    return st;
}

static enum gb_status gb_sum_columns(struct gb_table *t, const struct gb_sum *sm)
{
    enum gb_status st = GB_OK;
    if ((!sm->suite && (st = gb_table_column(t, "suite", NULL)) != GB_OK) ||
        (st = gb_table_column(t, "bench", NULL)) != GB_OK)
        return st;
    for (size_t a = 0; a < sm->axes.n; a++)
        if ((st = gb_table_column(t, sm->axes.v[a], NULL)) != GB_OK)
            return st;
    /* The hot/cold column keeps its name unless an axis has taken it. */
    int cache_axis = 0;
    for (size_t a = 0; a < sm->axes.n; a++)
        cache_axis |= strcmp(sm->axes.v[a], "cache") == 0;
    if ((sm->any_hot && sm->any_cold &&
         (st = gb_table_column(t, cache_axis ? "cache mode" : "cache", NULL)) != GB_OK) ||
        (st = gb_table_column(t, "status", NULL)) != GB_OK ||
        (st = gb_table_column(t, "median", sm->in_ms ? "ms" : "\xc2\xb5s")) != GB_OK ||
        (st = gb_table_column(t, "samples", NULL)) != GB_OK ||
        (sm->any_bytes && (st = gb_table_column(t, "GB/s", NULL)) != GB_OK) ||
        (sm->show_peak && (st = gb_table_column(t, "% peak", NULL)) != GB_OK) ||
        (sm->any_flops && (st = gb_table_column(t, "GFLOP/s", NULL)) != GB_OK) ||
        (st = gb_sum_metric_columns(t, sm)) != GB_OK)
        return st;
    return sm->any_note ? gb_table_column(t, "note", NULL) : GB_OK;
}

/* Why a point failed, an unconverged stopping rule, a dropped clock. */
static enum gb_status gb_sum_note(struct gb_table *t, const struct gb_record *r)
{
    char note[512] = "";
    char buf[96];
    gb_note_add(note, sizeof note, r->reason);
    if (r->status == GB_REC_OK && !r->converged && r->samples > 0)
        gb_note_add(note, sizeof note, "stopping rule not met");
    if (r->throttled) {
        snprintf(buf, sizeof buf, "SM clock dropped %.0f -> %.0f MHz", r->sm_mhz_before,
                 r->sm_mhz_after);
        gb_note_add(note, sizeof note, buf);
    }
    return gb_table_cell_text(t, note[0] ? note : NULL);
}

/* The median ± the larger side of its CI (the CI of a median is not
 * symmetric), empty for a record that was not measured. */
static enum gb_status gb_sum_median(struct gb_table *t, const struct gb_record *r, double unit)
{
    if (r->status != GB_REC_OK || !(r->time_ns.median > 0))
        return gb_table_cell_empty(t);
    double half = NAN;
    if (r->time_ns.ci_hi > r->time_ns.ci_lo && r->time_ns.ci_lo > 0)
        half = fmax(r->time_ns.median - r->time_ns.ci_lo, r->time_ns.ci_hi - r->time_ns.median);
    return gb_table_cell_ci(t, r->time_ns.median / unit, half / unit);
}

static enum gb_status gb_sum_row(struct gb_table *t, const struct gb_record *r, const struct gb_sum *sm)
{
    enum gb_status st;
    int ok = r->status == GB_REC_OK;
    int has_bw = ok && r->bytes > 0 && r->bw_gbs > 0;
    int has_fl = ok && r->flops > 0 && r->gflops > 0;
    if ((st = gb_table_row(t)) != GB_OK ||
        (!sm->suite && (st = gb_table_cell_text(t, r->suite)) != GB_OK) ||
        (st = gb_table_cell_text(t, r->bench)) != GB_OK)
        return st;
    for (size_t a = 0; a < sm->axes.n; a++)
        if ((st = gb_table_cell_text(t, gb_record_axis(r, sm->axes.v[a]))) != GB_OK)
            return st;
    if ((sm->any_hot && sm->any_cold &&
         (st = gb_table_cell_text(t, gb_cache_mode_name(r->cache))) != GB_OK) ||
        (st = gb_table_cell_text(t, gb_record_status_name(r->status))) != GB_OK ||
        (st = gb_sum_median(t, r, sm->ns_per_unit)) != GB_OK ||
        (st = ok ? gb_table_cell_int(t, r->samples) : gb_table_cell_empty(t)) != GB_OK ||
        (sm->any_bytes && (st = gb_table_cell_num(t, has_bw ? r->bw_gbs : NAN, 4)) != GB_OK) ||
        (sm->show_peak &&
         (st = gb_table_cell_num(t, has_bw ? 100.0 * r->bw_gbs / sm->peak : NAN, 3)) != GB_OK) ||
        (sm->any_flops && (st = gb_table_cell_num(t, has_fl ? r->gflops : NAN, 4)) != GB_OK))
        return st;
    for (size_t m = 0; m < sm->metrics.n; m++)
        if ((st = gb_table_cell_num(t, gb_record_metric(r, sm->metrics.v[m], NAN), 4)) != GB_OK)
            return st;
    return sm->any_note ? gb_sum_note(t, r) : GB_OK;
}

enum gb_status gb_report_summary_table(const struct gb_run *run, const char *suite,
                                       struct gb_table **out)
{
    enum gb_status st;
    struct gb_table *t = NULL;
    struct gb_sum sm = {.suite = suite};

    *out = NULL;
    if ((st = gb_sum_scan(run, &sm)) != GB_OK)
        goto out;
    if (!(t = gb_table_new())) {
        st = gb_error_set(GB_ERR_NOMEM, "out of memory building the summary");
        goto out;
    }
    if ((st = gb_sum_columns(t, &sm)) != GB_OK)
        goto out;
    for (size_t i = 0; i < run->n_records; i++)
        if (gb_rec_selected(&run->records[i], suite) &&
            (st = gb_sum_row(t, &run->records[i], &sm)) != GB_OK)
            goto out;
    *out = t;
    t = NULL;
out:
    gb_table_free(t);
    free(sm.axes.v);
    free(sm.metrics.v);
    return st;
}

/* ---- one row per bench (large runs) ---- */

struct gb_bench_row {
    const char *suite, *bench;
    size_t n, ok, failed, skipped;
    double fastest_ns, slowest_ns;
};

static enum gb_status gb_bench_rows(const struct gb_run *run, const char *suite,
                                    struct gb_bench_row **out, size_t *n_out)
{
    struct gb_bench_row *v = calloc(run->n_records ? run->n_records : 1, sizeof *v);
    size_t n = 0;
    if (!v)
        return gb_error_set(GB_ERR_NOMEM, "out of memory building the summary");
    for (size_t i = 0; i < run->n_records; i++) {
        const struct gb_record *r = &run->records[i];
        size_t k;
        if (!gb_rec_selected(r, suite))
            continue;
        for (k = 0; k < n; k++)
            if (strcmp(v[k].bench, r->bench) == 0 && strcmp(v[k].suite, r->suite) == 0)
                break;
        if (k == n) {
            v[n].suite = r->suite;
            v[n].bench = r->bench;
            v[n].fastest_ns = INFINITY;
            n++;
        }
        v[k].n++;
        if (r->status == GB_REC_SKIPPED) {
            v[k].skipped++;
        } else if (r->status != GB_REC_OK) {
            v[k].failed++;
        } else {
            v[k].ok++;
            if (r->time_ns.median > 0) {
                v[k].fastest_ns = fmin(v[k].fastest_ns, r->time_ns.median);
                v[k].slowest_ns = fmax(v[k].slowest_ns, r->time_ns.median);
            }
        }
    }
    *out = v;
    *n_out = n;
    return GB_OK;
}

static enum gb_status gb_bench_table_fill(struct gb_table *t, const char *suite,
                                          const struct gb_bench_row *v, size_t n)
{
    enum gb_status st;
    double slowest = 0;
    for (size_t k = 0; k < n; k++)
        slowest = fmax(slowest, v[k].slowest_ns);
    double unit = slowest >= 10e6 ? 1e6 : 1e3;
    const char *uname = slowest >= 10e6 ? "ms" : "\xc2\xb5s";
    if ((!suite && (st = gb_table_column(t, "suite", NULL)) != GB_OK) ||
        (st = gb_table_column(t, "bench", NULL)) != GB_OK ||
        (st = gb_table_column(t, "points", NULL)) != GB_OK ||
        (st = gb_table_column(t, "measured", NULL)) != GB_OK ||
        (st = gb_table_column(t, "failed", NULL)) != GB_OK ||
        (st = gb_table_column(t, "skipped", NULL)) != GB_OK ||
        (st = gb_table_column(t, "fastest median", uname)) != GB_OK ||
        (st = gb_table_column(t, "slowest median", uname)) != GB_OK)
        return st;
    for (size_t k = 0; k < n; k++) {
        int any = isfinite(v[k].fastest_ns);
        if ((st = gb_table_row(t)) != GB_OK ||
            (!suite && (st = gb_table_cell_text(t, v[k].suite)) != GB_OK) ||
            (st = gb_table_cell_text(t, v[k].bench)) != GB_OK ||
            (st = gb_table_cell_int(t, (long long)v[k].n)) != GB_OK ||
            (st = gb_table_cell_int(t, (long long)v[k].ok)) != GB_OK ||
            (st = gb_table_cell_int(t, (long long)v[k].failed)) != GB_OK ||
            (st = gb_table_cell_int(t, (long long)v[k].skipped)) != GB_OK ||
            (st = gb_table_cell_num(t, any ? v[k].fastest_ns / unit : NAN, 4)) != GB_OK ||
            (st = gb_table_cell_num(t, any ? v[k].slowest_ns / unit : NAN, 4)) != GB_OK)
            return st;
    }
    return GB_OK;
}

enum gb_status gb_report_bench_table(const struct gb_run *run, const char *suite,
                                     struct gb_table **out)
{
    struct gb_bench_row *v = NULL;
    struct gb_table *t = NULL;
    size_t n = 0;
    enum gb_status st;
    *out = NULL;
    if ((st = gb_bench_rows(run, suite, &v, &n)) != GB_OK)
        return st;
    if (!(t = gb_table_new()))
        st = gb_error_set(GB_ERR_NOMEM, "out of memory building the summary");
    else if ((st = gb_bench_table_fill(t, suite, v, n)) == GB_OK) {
        *out = t;
        t = NULL;
    }
    gb_table_free(t);
    free(v);
    return st;
}
