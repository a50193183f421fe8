/* record.c - accessors of struct gb_record and run metadata defaults. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "gpubound/cuda_decls.h" /* CUDA_VERSION: the toolkit headers the tool was built with */

#include "gpubound/results.h"
#include "util/sha256.h"
#include "util/git_rev.h"

const char *gb_record_axis(const struct gb_record *r, const char *name)
{
    for (int i = 0; i < r->n_axes; i++)
        if (strcmp(r->axes[i].name, name) == 0)
            return r->axes[i].value;
    return NULL;
}

double gb_record_axis_num(const struct gb_record *r, const char *name, double fallback)
{
    const char *v = gb_record_axis(r, name);
    char *end;
    if (!v || !*v)
        return fallback;
    double d = strtod(v, &end);
    return *end ? fallback : d;
}

/* Makes room for one more entry in an array of `size`-byte entries. */
static enum gb_status gb_grow(void **arr, int *cap, int n, size_t size, const char *what)
{
    if (n < *cap)
        return GB_OK;
    int c = *cap ? 2 * *cap : 8;
    void *p = realloc(*arr, (size_t)c * size);
    if (!p)
        return gb_error_set(GB_ERR_NOMEM, "out of host memory for a record's %s", what);
    *arr = p;
    *cap = c;
    return GB_OK;
}

enum gb_status gb_record_set_axis(struct gb_record *r, const char *name, const char *value)
{
    if (strlen(name) >= sizeof r->axes[0].name || strlen(value) >= sizeof r->axes[0].value)
        return gb_error_set(GB_ERR_USAGE, "axis %s=%s is too long", name, value);
    for (int i = 0; i < r->n_axes; i++)
        if (strcmp(r->axes[i].name, name) == 0) {
            snprintf(r->axes[i].value, sizeof r->axes[i].value, "%s", value);
            return GB_OK;
        }
    void *arr = r->axes;
    enum gb_status st = gb_grow(&arr, &r->cap_axes, r->n_axes, sizeof r->axes[0], "axes");
    r->axes = arr;
    if (st != GB_OK)
        return st;
    snprintf(r->axes[r->n_axes].name, sizeof r->axes[0].name, "%s", name);
    snprintf(r->axes[r->n_axes].value, sizeof r->axes[0].value, "%s", value);
    r->n_axes++;
    return GB_OK;
}

enum gb_status gb_record_set_metric(struct gb_record *r, const char *name, double value)
{
    for (int i = 0; i < r->n_metrics; i++)
        if (strcmp(r->metrics[i].name, name) == 0) {
            r->metrics[i].value = value;
            return GB_OK;
        }
    if (strlen(name) >= sizeof r->metrics[0].name)
        return gb_error_set(GB_ERR_USAGE, "metric name %s is too long (at most %zu characters)",
                            name, sizeof r->metrics[0].name - 1);
    void *arr = r->metrics;
    enum gb_status st = gb_grow(&arr, &r->cap_metrics, r->n_metrics, sizeof r->metrics[0], "metrics");
    r->metrics = arr;
    if (st != GB_OK)
        return st;
    snprintf(r->metrics[r->n_metrics].name, sizeof r->metrics[0].name, "%s", name);
    r->metrics[r->n_metrics].value = value;
    r->n_metrics++;
    return GB_OK;
}

void gb_record_release(struct gb_record *r)
{
    if (!r)
        return;
    free(r->axes);
    free(r->metrics);
    free(r->sample_ns);
    free(r->compile_log);
    gb_counters_release(&r->counters);
    memset(r, 0, sizeof *r);
}

enum gb_status gb_record_set_compile_log(struct gb_record *r, const char *log)
{
    static const char cut[] = "\n[log cut]\n";
    char *copy = NULL;
    if (log) {
        size_t n = strlen(log);
        size_t keep = n < GB_COMPILE_LOG_MAX ? n : GB_COMPILE_LOG_MAX - sizeof cut;
        if (!(copy = malloc(keep + sizeof cut)))
            return gb_error_set(GB_ERR_NOMEM, "out of host memory keeping a compile log");
        memcpy(copy, log, keep);
        strcpy(copy + keep, keep < n ? cut : "");
    }
    free(r->compile_log);
    r->compile_log = copy;
    return GB_OK;
}

enum gb_status gb_record_copy(struct gb_record *dst, const struct gb_record *src)
{
    *dst = *src;
    dst->axes = NULL;
    dst->metrics = NULL;
    dst->compile_log = NULL;
    dst->cap_axes = dst->cap_metrics = 0;
    dst->sample_ns = NULL;
    if (src->n_sample_ns > 0) {
        if (!(dst->sample_ns = malloc((size_t)src->n_sample_ns * sizeof *dst->sample_ns)))
            goto oom;
        memcpy(dst->sample_ns, src->sample_ns, (size_t)src->n_sample_ns * sizeof *dst->sample_ns);
    }
    if (src->compile_log && !(dst->compile_log = strdup(src->compile_log)))
        goto oom;
    memset(&dst->counters, 0, sizeof dst->counters);
    if (src->n_axes > 0) {
        if (!(dst->axes = malloc((size_t)src->n_axes * sizeof *dst->axes)))
            goto oom;
        memcpy(dst->axes, src->axes, (size_t)src->n_axes * sizeof *dst->axes);
        dst->cap_axes = src->n_axes;
    }
    if (src->n_metrics > 0) {
        if (!(dst->metrics = malloc((size_t)src->n_metrics * sizeof *dst->metrics)))
            goto oom;
        memcpy(dst->metrics, src->metrics, (size_t)src->n_metrics * sizeof *dst->metrics);
        dst->cap_metrics = src->n_metrics;
    }
    if (gb_counters_copy(&dst->counters, &src->counters) != GB_OK)
        goto oom;
    return GB_OK;
oom:
    gb_record_release(dst);
    return gb_error_set(GB_ERR_NOMEM, "out of host memory copying a record");
}

double gb_record_metric(const struct gb_record *r, const char *name, double fallback)
{
    for (int i = 0; i < r->n_metrics; i++)
        if (strcmp(r->metrics[i].name, name) == 0)
            return r->metrics[i].value;
    return fallback;
}

void gb_time_stats_clear(struct gb_time_stats *t)
{
#define GB_TS_NAN(f) t->f = NAN;
    GB_TIME_STATS(GB_TS_NAN)
#undef GB_TS_NAN
}

const char *gb_record_status_name(enum gb_record_status st)
{
    switch (st) {
    case GB_REC_OK: return "ok";
    case GB_REC_FAILED: return "failed";
    case GB_REC_SKIPPED: return "skipped";
    case GB_REC_ERROR: return "error";
    }
    return "unknown";
}

const char *gb_cache_mode_name(enum gb_cache_mode m)
{
    return m == GB_CACHE_COLD ? "cold" : "hot";
}

void gb_utc_now(char *buf, size_t n)
{
    time_t t = time(NULL);
    struct tm tm;
    gmtime_r(&t, &tm);
    strftime(buf, n, "%Y-%m-%dT%H:%M:%SZ", &tm);
}

void gb_run_info_init(struct gb_run_info *info, const char *command_line,
                      const char *nvrtc_version)
{
    memset(info, 0, sizeof *info);
    snprintf(info->tool_version, sizeof info->tool_version, "%s", GB_VERSION);
    snprintf(info->git_revision, sizeof info->git_revision, "%s", gb_git_rev);
    snprintf(info->command_line, sizeof info->command_line, "%s", command_line ? command_line : "");
    gb_utc_now(info->started_utc, sizeof info->started_utc);
    if (gethostname(info->host, sizeof info->host) != 0)
        snprintf(info->host, sizeof info->host, "unknown");
    info->host[sizeof info->host - 1] = '\0';
#ifdef CUDA_VERSION
    snprintf(info->cuda_toolkit, sizeof info->cuda_toolkit, "%d.%d", CUDA_VERSION / 1000,
             (CUDA_VERSION % 1000) / 10);
#else /* built without the toolkit's headers (gpubound/cuda_decls.h) */
    snprintf(info->cuda_toolkit, sizeof info->cuda_toolkit, "none");
#endif
    snprintf(info->nvrtc, sizeof info->nvrtc, "%s", nvrtc_version ? nvrtc_version : "");
    snprintf(info->mode, sizeof info->mode, "full");
}

enum gb_status gb_file_hashes_set(struct gb_file_hashes *l, const char *name, const char *sha256)
{
    int i = 0;
    while (i < l->n && strcmp(l->h[i].name, name) != 0)
        i++;
    if (strlen(name) >= sizeof l->h[0].name)
        return gb_error_set(GB_ERR_USAGE, "%.60s...: a file name of more than %zu bytes cannot be kept in run.json's "
                            "sha256", name, sizeof l->h[0].name - 1);
    if (!gb_sha256_is_hex(sha256))
        return gb_error_set(GB_ERR_USAGE, "%s: \"%.70s\" is not a SHA-256 digest", name, sha256);
    if (i == GB_RUN_MAX_HASHES)
        return gb_error_set(GB_ERR_USAGE, "%s: run.json keeps the SHA-256 of at most %d files of a kind",
                            name, GB_RUN_MAX_HASHES);
    snprintf(l->h[i].name, sizeof l->h[i].name, "%s", name);
    snprintf(l->h[i].sha256, sizeof l->h[i].sha256, "%s", sha256);
    l->n = i == l->n ? l->n + 1 : l->n;
    return GB_OK;
}

const char *gb_file_hashes_get(const struct gb_file_hashes *l, const char *name)
{
    for (int i = 0; i < l->n; i++)
        if (strcmp(l->h[i].name, name) == 0)
            return l->h[i].sha256;
    return NULL;
}

double gb_run_info_timed_share(const struct gb_run_info *in)
{
    return in->wall_s > 0 ? in->timed_s / in->wall_s : NAN;
}

double gb_run_info_timed_s(const struct gb_run_info *in)
{
    return in->timed_s;
}

double gb_run_info_other_s(const struct gb_run_info *in)
{
    const struct gb_wall_parts *w = &in->parts;
    return in->wall_s - (w->start_s + w->compile_s + w->setup_s + w->verify_s + w->warmup_s + w->sampling_s +
                         w->teardown_s + in->write_s);
}

void gb_wall_parts_add(struct gb_wall_parts *a, const struct gb_wall_parts *b)
{
    a->start_s += b->start_s;
    a->compile_s += b->compile_s;
    a->setup_s += b->setup_s;
    a->verify_s += b->verify_s;
    a->warmup_s += b->warmup_s;
    a->sampling_s += b->sampling_s;
    a->flush_s += b->flush_s;
    a->teardown_s += b->teardown_s;
}

void gb_run_count_status(const struct gb_run *run, size_t *ok, size_t *failed, size_t *skipped)
{
    *ok = *failed = *skipped = 0;
    for (size_t i = 0; i < run->n_records; i++) {
        if (run->records[i].status == GB_REC_OK)
            ++*ok;
        else if (run->records[i].status == GB_REC_SKIPPED)
            ++*skipped;
        else
            ++*failed;
    }
}

char *gb_record_point_key(const struct gb_record *r, const char *bench_as)
{
    size_t n = strlen(r->suite) + strlen(r->bench) + (bench_as ? strlen(bench_as) : 0) + 48;
    int na = r->n_axes > 0 ? r->n_axes : 0, *order = malloc(((size_t)na + 1) * sizeof *order);
    for (int a = 0; a < na; a++)
        n += strlen(r->axes[a].name) + strlen(r->axes[a].value) + 2;
    char *k = malloc(n), *p = k;
    if (!k || !order) {
        free(k);
        free(order);
        return NULL;
    }
    for (int a = 0; a < na; a++)
        order[a] = a;
    for (int a = 1; a < na; a++) /* insertion sort: a record has a handful of axes */
        for (int b = a; b > 0 && strcmp(r->axes[order[b - 1]].name, r->axes[order[b]].name) > 0; b--) {
            int t = order[b];
            order[b] = order[b - 1];
            order[b - 1] = t;
        }
    if (bench_as)
        p += sprintf(p, "%s\x01%d", bench_as, (int)r->cache);
    else
        p += sprintf(p, "%s\x01%s\x01%d", r->suite, r->bench, (int)r->cache);
    for (int a = 0; a < na; a++)
        p += sprintf(p, "\x01%s\x02%s", r->axes[order[a]].name, r->axes[order[a]].value);
    free(order);
    return k;
}
