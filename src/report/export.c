/* export.c - a loaded run, or a comparison of runs, as one JSON document in
 * memory (include/gpubound/export.h), for bindings in other languages. The
 * records, run.json and the comparison are written by their own writers
 * (write.c, report/compare.c) into a memory stream: nothing here knows a
 * field name of theirs. */
#include <errno.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gpubound/compare_report.h"
#include "gpubound/export.h"
#include "gpubound/results.h"
#include "util/git_rev.h"

/* A memory stream and its buffer. */
struct gb_export_buf {
    FILE *f;
    char *text;
    size_t len;
};

static enum gb_status gb_export_open(struct gb_export_buf *b)
{
    memset(b, 0, sizeof *b);
    b->f = open_memstream(&b->text, &b->len);
    return b->f ? GB_OK : gb_error_set(GB_ERR_NOMEM, "cannot open a memory stream: %s", strerror(errno));
}

/* Closes the stream: on GB_OK *out takes the text, else it is freed. */
static enum gb_status gb_export_close(struct gb_export_buf *b, enum gb_status st, char **out)
{
    int ferr = ferror(b->f);
    if (fclose(b->f) != 0 || ferr)
        st = st != GB_OK ? st : gb_error_set(GB_ERR_NOMEM, "cannot write the document in memory");
    if (st != GB_OK) {
        free(b->text);
        return st;
    }
    *out = b->text;
    return GB_OK;
}

/* What gb_run_load says about the run beside its files, as compact JSON. */
static enum gb_status gb_export_meta(FILE *f, const struct gb_run *run)
{
    json_t *w = json_array();
    for (size_t i = 0; i < run->n_warnings; i++)
        json_array_append_new(w, json_string(run->warnings[i]));
    json_t *o = json_pack("{s:s, s:s, s:b, s:o, s:I}", "dir", run->dir, "records_file", run->records_file,
                          "truncated", run->truncated, "warnings", w, "warnings_total",
                          (json_int_t)run->n_warnings_total);
    int rc = o ? json_dumpf(o, f, JSON_COMPACT) : -1;
    json_decref(o);
    return rc == 0 ? GB_OK : gb_error_set(GB_ERR_NOMEM, "cannot write the run's metadata for %s", run->dir);
}

static enum gb_status gb_export_run_write(FILE *f, const struct gb_run *run)
{
    enum gb_status st;
    fputs("{\"format\":\"" GB_EXPORT_FORMAT "\",\"meta\":", f);
    if ((st = gb_export_meta(f, run)) != GB_OK)
        return st;
    fputs(",\"run\":", f);
    if ((st = gb_run_info_write_json(f, &run->info)) != GB_OK)
        return st;
    fputs(",\"records\":[", f);
    for (size_t i = 0; i < run->n_records && st == GB_OK; i++) {
        fputs(i ? ",\n" : "\n", f);
        st = gb_record_write_json(f, &run->records[i]);
    }
    fputs("]}\n", f);
    return st;
}

enum gb_status gb_export_run_json(const char *dir, char **out)
{
    struct gb_run *run = NULL;
    struct gb_export_buf b;
    enum gb_status st;
    if (!out)
        return gb_error_set(GB_ERR_USAGE, "gb_export_run_json: no place for the document");
    *out = NULL;
    if (!dir || !*dir)
        return gb_error_set(GB_ERR_USAGE, "gb_export_run_json: no run directory given");
    if ((st = gb_run_load(dir, &run)) != GB_OK)
        return st;
    if ((st = gb_export_open(&b)) == GB_OK)
        st = gb_export_close(&b, gb_export_run_write(b.f, run), out);
    gb_run_free(run);
    return st;
}

/* The runs of one side, loaded; freed by gb_export_side_free. */
static enum gb_status gb_export_side_load(const char *const *dirs, int n, struct gb_run ***out)
{
    enum gb_status st = GB_OK;
    if (!dirs || n < 1)
        return gb_error_set(GB_ERR_USAGE, "gb_export_compare_json: a side without runs");
    struct gb_run **runs = calloc((size_t)n, sizeof *runs);
    if (!runs)
        return gb_error_set(GB_ERR_NOMEM, "out of host memory");
    for (int i = 0; i < n && st == GB_OK; i++)
        st = dirs[i] && *dirs[i] ? gb_run_load(dirs[i], &runs[i])
                                 : gb_error_set(GB_ERR_USAGE, "gb_export_compare_json: an empty run directory name");
    *out = runs;
    return st;
}

static void gb_export_side_free(struct gb_run **runs, int n)
{
    for (int i = 0; runs && i < n; i++)
        gb_run_free(runs[i]);
    free(runs);
}

/* The side's directories as one label, joined by commas as on compare's command line. */
static char *gb_export_label(const char *const *dirs, int n)
{
    size_t len = 1;
    for (int i = 0; i < n; i++)
        len += strlen(dirs[i]) + 1;
    char *s = calloc(len, 1);
    for (int i = 0; s && i < n; i++) {
        if (i)
            strcat(s, ",");
        strcat(s, dirs[i]);
    }
    return s;
}

static const char *gb_export_device(const struct gb_run *r)
{
    return r->info.has_device ? r->info.device.name : "";
}

/* compare's default anchors: each GPU's peak memory bandwidth when the sides
 * ran on different GPUs and both peaks are known. */
static void gb_export_anchors(const struct gb_run *b, const struct gb_run *n, struct gb_cmp_opts *o,
                              struct gb_cmp_context *ctx)
{
    if (strcmp(ctx->base_device, ctx->new_device) == 0 || !b->info.has_device || !n->info.has_device ||
        b->info.device.mem_peak_gbs <= 0 || n->info.device.mem_peak_gbs <= 0)
        return;
    o->anchor_base_gbs = b->info.device.mem_peak_gbs;
    o->anchor_new_gbs = n->info.device.mem_peak_gbs;
    ctx->anchor_what = "peak memory bandwidth (run.json device.mem_peak_gbs)";
    ctx->anchored = 1;
}

/* Compares the loaded sides and writes the document. */
static enum gb_status gb_export_compare_write(struct gb_run **R[2], const int n[2], struct gb_cmp_context *ctx,
                                              char **out)
{
    struct gb_cmp_opts o;
    struct gb_cmp_result r;
    struct gb_export_buf b;
    gb_cmp_opts_default(&o);
    o.alpha = ctx->alpha;
    o.threshold = ctx->threshold;
    gb_export_anchors(R[0][0], R[1][0], &o, ctx);
    enum gb_status st = gb_cmp_runs((const struct gb_run *const *)R[0], n[0], (const struct gb_run *const *)R[1],
                                    n[1], &o, &r);
    if (st != GB_OK)
        return st;
    if (r.n_points == 0)
        st = gb_error_set(GB_ERR_USAGE, "no measured point of %s matches one of %s (%zu and %zu one-sided); "
                          "compare runs of the same suites", ctx->new_label, ctx->base_label, r.n_only_new,
                          r.n_only_base);
    if (st == GB_OK && (st = gb_export_open(&b)) == GB_OK)
        st = gb_export_close(&b, gb_report_compare_json(&r, ctx, b.f), out);
    gb_cmp_result_release(&r);
    return st;
}

enum gb_status gb_export_compare_json(const char *const *base, int n_base, const char *const *new_, int n_new,
                                      double alpha, double threshold, char **out)
{
    struct gb_run **R[2] = {NULL, NULL};
    const int n[2] = {n_base, n_new};
    char *label[2] = {NULL, NULL};
    struct gb_cmp_context ctx = {.alpha = alpha, .threshold = threshold};
    enum gb_status st;
    if (!out)
        return gb_error_set(GB_ERR_USAGE, "gb_export_compare_json: no place for the document");
    *out = NULL;
    if (!(alpha > 0 && alpha < 0.5) || !(threshold >= 0 && threshold < 1))
        return gb_error_set(GB_ERR_USAGE, "gb_export_compare_json: alpha %g must lie in (0, 0.5) and "
                            "threshold %g in [0, 1)", alpha, threshold);
    if ((st = gb_export_side_load(base, n_base, &R[0])) != GB_OK ||
        (st = gb_export_side_load(new_, n_new, &R[1])) != GB_OK)
        goto out;
    label[0] = gb_export_label(base, n_base);
    label[1] = gb_export_label(new_, n_new);
    if (!label[0] || !label[1]) {
        st = gb_error_set(GB_ERR_NOMEM, "out of host memory");
        goto out;
    }
    ctx.base_label = label[0];
    ctx.new_label = label[1];
    ctx.base_device = gb_export_device(R[0][0]);
    ctx.new_device = gb_export_device(R[1][0]);
    st = gb_export_compare_write(R, n, &ctx, out);
out:
    gb_export_side_free(R[0], R[0] ? n_base : 0);
    gb_export_side_free(R[1], R[1] ? n_new : 0);
    free(label[0]);
    free(label[1]);
    return st;
}

void gb_export_free(char *doc)
{
    free(doc);
}

const char *gb_export_version(void)
{
    static char v[96];
    if (!v[0])
        snprintf(v, sizeof v, "%s (%s)", GB_VERSION, gb_git_rev);
    return v;
}
