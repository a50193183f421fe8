/* summary.c - the table a run leaves on the terminal: one row per record. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "gpubound/report.h"

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

enum gb_status gb_report_summary_table(const struct gb_run *run, const char *suite,
                                       struct gb_table **out)
{
    enum gb_status st = GB_OK;
    struct gb_table *t = NULL;
    struct gb_names axes = {0}, metrics = {0};
    int any_bytes = 0, any_flops = 0, any_note = 0, any_hot = 0, any_cold = 0;
    double max_median = 0;

    *out = NULL;
    for (size_t i = 0; i < run->n_records; i++) {
        const struct gb_record *r = &run->records[i];
        if (!gb_rec_selected(r, suite))
            continue;
        for (int a = 0; a < r->n_axes; a++)
            if ((st = gb_names_add(&axes, r->axes[a].name)) != GB_OK)
                goto out;
        for (int m = 0; m < r->n_metrics; m++)
            if ((st = gb_names_add(&metrics, r->metrics[m].name)) != GB_OK)
                goto out;
        if (r->cache == GB_CACHE_COLD)
            any_cold = 1;
        else
            any_hot = 1;
        if (r->reason[0] || r->throttled || (r->status == GB_REC_OK && !r->converged))
            any_note = 1;
        if (r->status != GB_REC_OK)
            continue;
        if (r->bytes > 0)
            any_bytes = 1;
        if (r->flops > 0)
            any_flops = 1;
        if (r->median_ns > max_median)
            max_median = r->median_ns;
    }
    int in_ms = max_median >= 10e6;
    double ns_per_unit = in_ms ? 1e6 : 1e3;
    double peak = run->info.has_device ? run->info.device.mem_peak_gbs : 0;
    int show_peak = any_bytes && peak > 0;

    t = gb_table_new();
    if (!t) {
        st = gb_error_set(GB_ERR_NOMEM, "out of memory building the summary");
        goto out;
    }
    if (!suite && (st = gb_table_column(t, "suite", NULL)) != GB_OK)
        goto out;
    if ((st = gb_table_column(t, "bench", NULL)) != GB_OK)
        goto out;
    for (size_t a = 0; a < axes.n; a++)
        if ((st = gb_table_column(t, axes.v[a], NULL)) != GB_OK)
            goto out;
    /* The hot/cold column keeps its name unless an axis has taken it. */
    int cache_axis = 0;
    for (size_t a = 0; a < axes.n; a++)
        cache_axis |= strcmp(axes.v[a], "cache") == 0;
    if (any_hot && any_cold &&
        (st = gb_table_column(t, cache_axis ? "cache mode" : "cache", NULL)) != GB_OK)
        goto out;
    if ((st = gb_table_column(t, "status", NULL)) != GB_OK ||
        (st = gb_table_column(t, "median", in_ms ? "ms" : "\xc2\xb5s")) != GB_OK ||
        (st = gb_table_column(t, "samples", NULL)) != GB_OK)
        goto out;
    if (any_bytes && (st = gb_table_column(t, "GB/s", NULL)) != GB_OK)
        goto out;
    if (show_peak && (st = gb_table_column(t, "% peak", NULL)) != GB_OK)
        goto out;
    if (any_flops && (st = gb_table_column(t, "GFLOP/s", NULL)) != GB_OK)
        goto out;
    for (size_t m = 0; m < metrics.n; m++) {
        /* A metric named like an axis of another suite of the run (ubench's
         * metric n, transpose's axis n) gets a column of its own name. */
        char name[96];
        int clash = 0;
        for (size_t a = 0; a < axes.n && !clash; a++)
            clash = strcmp(axes.v[a], metrics.v[m]) == 0;
        snprintf(name, sizeof name, clash ? "%s (metric)" : "%s", metrics.v[m]);
        if ((st = gb_table_column(t, name, NULL)) != GB_OK)
            goto out;
    }
    if (any_note && (st = gb_table_column(t, "note", NULL)) != GB_OK)
        goto out;

    for (size_t i = 0; i < run->n_records; i++) {
        const struct gb_record *r = &run->records[i];
        int ok = r->status == GB_REC_OK;
        if (!gb_rec_selected(r, suite))
            continue;
        if ((st = gb_table_row(t)) != GB_OK)
            goto out;
        if (!suite && (st = gb_table_cell_text(t, r->suite)) != GB_OK)
            goto out;
        if ((st = gb_table_cell_text(t, r->bench)) != GB_OK)
            goto out;
        for (size_t a = 0; a < axes.n; a++)
            if ((st = gb_table_cell_text(t, gb_record_axis(r, axes.v[a]))) != GB_OK)
                goto out;
        if (any_hot && any_cold &&
            (st = gb_table_cell_text(t, gb_cache_mode_name(r->cache))) != GB_OK)
            goto out;
        if ((st = gb_table_cell_text(t, gb_record_status_name(r->status))) != GB_OK)
            goto out;
        if (ok && r->median_ns > 0) {
            /* The CI of a median is not symmetric; show its larger side. */
            double half = NAN;
            if (r->ci_hi_ns > r->ci_lo_ns && r->ci_lo_ns > 0)
                half = fmax(r->median_ns - r->ci_lo_ns, r->ci_hi_ns - r->median_ns);
            st = gb_table_cell_ci(t, r->median_ns / ns_per_unit, half / ns_per_unit);
        } else {
            st = gb_table_cell_empty(t);
        }
        if (st != GB_OK)
            goto out;
        st = ok ? gb_table_cell_int(t, r->samples) : gb_table_cell_empty(t);
        if (st != GB_OK)
            goto out;
        int has_bw = ok && r->bytes > 0 && r->bw_gbs > 0;
        if (any_bytes && (st = gb_table_cell_num(t, has_bw ? r->bw_gbs : NAN, 4)) != GB_OK)
            goto out;
        if (show_peak &&
            (st = gb_table_cell_num(t, has_bw ? 100.0 * r->bw_gbs / peak : NAN, 3)) != GB_OK)
            goto out;
        int has_fl = ok && r->flops > 0 && r->gflops > 0;
        if (any_flops && (st = gb_table_cell_num(t, has_fl ? r->gflops : NAN, 4)) != GB_OK)
            goto out;
        for (size_t m = 0; m < metrics.n; m++)
            if ((st = gb_table_cell_num(t, gb_record_metric(r, metrics.v[m], NAN), 4)) != GB_OK)
                goto out;
        if (any_note) {
            char note[512] = "";
            char buf[96];
            gb_note_add(note, sizeof note, r->reason);
            if (ok && !r->converged && r->samples > 0)
                gb_note_add(note, sizeof note, "stopping rule not met");
            if (r->throttled) {
                snprintf(buf, sizeof buf, "SM clock dropped %.0f -> %.0f MHz", r->sm_mhz_before,
                         r->sm_mhz_after);
                gb_note_add(note, sizeof note, buf);
            }
            if ((st = gb_table_cell_text(t, note[0] ? note : NULL)) != GB_OK)
                goto out;
        }
    }
    *out = t;
    t = NULL;
out:
    gb_table_free(t);
    free(axes.v);
    free(metrics.v);
    return st;
}
