/* kt_formats.c - Kernel Tuner's cache and T4 files written from a run, and
 * its cache read back as records (kt_formats.h). */
#include "results/kt_formats.h"

#include <errno.h>
#include <jansson.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "gpubound/device.h"

enum gb_status gb_kt_bench(const struct gb_run *run, const char *bench, const char **out)
{
    const char *first = NULL;
    for (size_t i = 0; i < run->n_records; i++) {
        const char *b = run->records[i].bench;
        if (bench && strcmp(b, bench) == 0) {
            *out = b;
            return GB_OK;
        }
        if (!bench && first && strcmp(first, b) != 0)
            return gb_error_set(GB_ERR_USAGE, "the run has more than one bench (%s, %s): name one with --bench", first,
                                b);
        if (!first)
            first = b;
    }
    if (bench || !first)
        return gb_error_set(GB_ERR_USAGE, "the run has no record of bench '%s'", bench ? bench : "");
    *out = first;
    return GB_OK;
}

/* A parameter value as Kernel Tuner holds it: a number when the text is
 * one, else the text. */
static json_t *gb_kt_value(const char *v)
{
    char *end;
    errno = 0;
    long long i = strtoll(v, &end, 10);
    if (*v && !*end && errno == 0)
        return json_integer(i);
    double d = strtod(v, &end);
    if (*v && !*end && isfinite(d))
        return json_real(d);
    return json_string(v);
}

/* Kernel Tuner's name for a point that gave no time. */
static const char *gb_kt_failure(const struct gb_record *r)
{
    if (r->status == GB_REC_SKIPPED)
        return "InvalidConfig";
    if (r->compile_log || strstr(r->reason, "compil"))
        return "CompilationFailedConfig";
    return "RuntimeFailedConfig";
}

static int gb_kt_timed(const struct gb_record *r)
{
    return r->status == GB_REC_OK && isfinite(r->time_ns.median);
}

/* The launches' times in ms: the kept samples, else the median alone. */
static json_t *gb_kt_times(const struct gb_record *r)
{
    json_t *a = json_array();
    if (r->n_sample_ns == 0 && a)
        json_array_append_new(a, json_real(r->time_ns.median / 1e6));
    for (int i = 0; a && i < r->n_sample_ns; i++)
        json_array_append_new(a, json_real(r->sample_ns[i] / 1e6));
    return a;
}

/* One cache entry: the parameters, then Kernel Tuner's fields (ms). */
static json_t *gb_kt_entry(const struct gb_record *r, const char *stamp, char *key, size_t key_n)
{
    json_t *e = json_object();
    size_t len = 0;
    key[0] = '\0';
    for (int a = 0; e && a < r->n_axes; a++) {
        json_object_set_new(e, r->axes[a].name, gb_kt_value(r->axes[a].value));
        len += (size_t)snprintf(key + len, len < key_n ? key_n - len : 0, "%s%s", a ? "," : "", r->axes[a].value);
    }
    if (!e)
        return NULL;
    if (gb_kt_timed(r)) {
        json_object_set_new(e, "time", json_real(r->time_ns.median / 1e6));
        json_object_set_new(e, "times", gb_kt_times(r));
    } else {
        json_object_set_new(e, "time", json_string(gb_kt_failure(r)));
    }
    double total = isfinite(r->wall_s) ? r->wall_s : 0, timed = isfinite(r->timed_s) ? r->timed_s : 0;
    json_object_set_new(e, "compile_time", json_real(r->parts.compile_s * 1e3));
    json_object_set_new(e, "verification_time", json_real(r->parts.verify_s * 1e3));
    json_object_set_new(e, "benchmark_time", json_real(timed * 1e3));
    json_object_set_new(e, "strategy_time", json_real(0));
    json_object_set_new(e, "framework_time", json_real(fmax(0, total - timed) * 1e3));
    json_object_set_new(e, "timestamp", json_string(stamp));
    return e;
}

static json_t *gb_kt_t4_result(const struct gb_record *r, const char *stamp)
{
    char key[1024];
    json_t *e = gb_kt_entry(r, stamp, key, sizeof key), *cfg = json_object(), *m = json_array();
    json_t *out = json_object();
    if (!e || !cfg || !m || !out)
        goto fail;
    for (int a = 0; a < r->n_axes; a++)
        json_object_set(cfg, r->axes[a].name, json_object_get(e, r->axes[a].name));
    json_object_set_new(out, "timestamp", json_string(stamp));
    json_object_set_new(out, "configuration", cfg);
    json_object_set_new(out, "times",
                        json_pack("{s:O, s:O, s:O, s:O, s:O}", "compilation", json_object_get(e, "compile_time"),
                                  "benchmark", json_object_get(e, "benchmark_time"), "framework",
                                  json_object_get(e, "framework_time"), "search_algorithm",
                                  json_object_get(e, "strategy_time"), "validation",
                                  json_object_get(e, "verification_time")));
    int ok = gb_kt_timed(r);
    json_object_set_new(out, "invalidity", json_string(ok ? "correct"
                                                       : r->status == GB_REC_SKIPPED ? "constraints"
                                                       : strcmp(gb_kt_failure(r), "CompilationFailedConfig") == 0
                                                           ? "compile"
                                                           : "runtime"));
    json_object_set_new(out, "correctness", json_integer(r->status == GB_REC_FAILED ? 0 : 1));
    if (ok)
        json_array_append_new(m, json_pack("{s:s, s:f, s:s}", "name", "time", "value", r->time_ns.median / 1e6,
                                           "unit", "ms"));
    json_object_set_new(out, "measurements", m);
    json_object_set_new(out, "objectives", json_pack("[s]", "time"));
    json_decref(e);
    return out;
fail:
    json_decref(e);
    json_decref(cfg);
    json_decref(m);
    json_decref(out);
    return NULL;
}

/* The cache's head: names, the parameters and their values. */
static json_t *gb_kt_cache_head(const struct gb_run *run, const char *bench, const struct gb_record *first)
{
    json_t *keys = json_array(), *params = json_object();
    for (int a = 0; keys && params && a < first->n_axes; a++) {
        json_t *vals = json_array();
        json_array_append_new(keys, json_string(first->axes[a].name));
        for (size_t i = 0; vals && i < run->n_records; i++) {
            const struct gb_record *r = &run->records[i];
            const char *v = strcmp(r->bench, bench) == 0 ? gb_record_axis(r, first->axes[a].name) : NULL;
            json_t *x = v ? gb_kt_value(v) : NULL;
            size_t j;
            json_t *y;
            json_array_foreach(vals, j, y) if (x && json_equal(x, y)) break;
            if (x && j == json_array_size(vals))
                json_array_append(vals, x);
            json_decref(x);
        }
        json_object_set_new(params, first->axes[a].name, vals);
    }
    const char *dev = run->info.has_device ? run->info.device.name : "unknown";
    return json_pack("{s:s, s:s, s:s, s:[], s:o, s:o, s:s, s:{}}", "schema_version", "1.0.0", "device_name", dev,
                     "kernel_name", bench, "problem_size", "tune_params_keys", keys, "tune_params", params,
                     "objective", "time", "cache");
}

enum gb_status gb_kt_write(FILE *f, const struct gb_run *run, const char *bench, enum gb_kt_format fmt)
{
    const struct gb_record *first = NULL;
    const char *stamp = run->info.started_utc[0] ? run->info.started_utc : "1970-01-01T00:00:00Z";
    for (size_t i = 0; i < run->n_records && !first; i++)
        if (strcmp(run->records[i].bench, bench) == 0)
            first = &run->records[i];
    if (!first)
        return gb_error_set(GB_ERR_USAGE, "the run has no record of bench '%s'", bench);
    json_t *doc = fmt == GB_KT_CACHE ? gb_kt_cache_head(run, bench, first)
                                     : json_pack("{s:s, s:[]}", "schema_version", "1.0.0", "results");
    json_t *list = doc ? json_object_get(doc, fmt == GB_KT_CACHE ? "cache" : "results") : NULL;
    enum gb_status st = list ? GB_OK : gb_error_set(GB_ERR_NOMEM, "building the Kernel Tuner file");
    for (size_t i = 0; st == GB_OK && i < run->n_records; i++) {
        const struct gb_record *r = &run->records[i];
        char key[1024];
        if (strcmp(r->bench, bench) != 0)
            continue;
        json_t *e = fmt == GB_KT_CACHE ? gb_kt_entry(r, stamp, key, sizeof key) : gb_kt_t4_result(r, stamp);
        if (!e || (fmt == GB_KT_CACHE ? json_object_set_new(list, key, e) : json_array_append_new(list, e)) != 0)
            st = gb_error_set(GB_ERR_NOMEM, "building the Kernel Tuner file");
    }
    if (st == GB_OK && (json_dumpf(doc, f, JSON_INDENT(1) | JSON_REAL_PRECISION(17)) != 0 || fputc('\n', f) == EOF))
        st = gb_error_set(GB_ERR_IO, "cannot write the Kernel Tuner file: %s", strerror(errno));
    json_decref(doc);
    return st;
}
