/* kt_cache_read.c - a Kernel Tuner cache file read as records
 * (kt_formats.h). */
#include <errno.h>
#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "results/kt_formats.h"
#include "results/schema.h"
#include "results/schema.h"

/* The file's text, closed as Kernel Tuner closes a cache a killed run left
 * open (its entries end in ","; the last two braces are missing). */
static json_t *gb_kt_load(const char *path, json_error_t *err, int *io_errno)
{
    FILE *f = fopen(path, "rb");
    char *buf = NULL;
    size_t n = 0, cap = 0;
    json_t *j = NULL;
    *io_errno = 0;
    if (!f) {
        *io_errno = errno ? errno : EIO;
        return NULL;
    }
    for (;;) {
        if (n + 4096 + 8 > cap) {
            char *more = realloc(buf, cap = 2 * cap + 65536);
            if (!more) {
                *io_errno = ENOMEM;
                break;
            }
            buf = more;
        }
        size_t got = fread(buf + n, 1, 4096, f);
        n += got;
        if (got == 0 || n > (256UL << 20))
            break;
    }
    if (ferror(f))
        *io_errno = EIO;
    fclose(f);
    if (!buf || *io_errno) {
        *io_errno = *io_errno ? *io_errno : ENOMEM;
        free(buf);
        return NULL;
    }
    while (n && (buf[n - 1] == '\n' || buf[n - 1] == ' ' || buf[n - 1] == '\r' || buf[n - 1] == '\t'))
        n--;
    buf[n] = '\0';
    j = json_loads(buf, 0, err);
    if (!j && buf[0] == '{' && n > 0) {
        json_error_t again;
        if (buf[n - 1] == ',')
            n--;
        memcpy(buf + n, "}\n}", 4);
        j = json_loads(buf, 0, &again);
    }
    free(buf);
    return j;
}

static void gb_kt_text(const json_t *v, char *buf, size_t n)
{
    if (json_is_integer(v))
        snprintf(buf, n, "%lld", (long long)json_integer_value(v));
    else if (json_is_real(v))
        snprintf(buf, n, "%.17g", json_real_value(v));
    else if (json_is_string(v))
        snprintf(buf, n, "%s", json_string_value(v));
    else
        buf[0] = '\0';
}

/* The times of an entry (ms) into r: Kernel Tuner's "time" as the median
 * and mean, "times" as the samples. */
static enum gb_status gb_kt_entry_times(const char *path, const char *key, const json_t *e, struct gb_record *r)
{
    const json_t *t = json_object_get(e, "time"), *ts = json_object_get(e, "times");
    gb_time_stats_clear(&r->time_ns);
    if (json_is_string(t)) {
        const char *s = json_string_value(t);
        if (strcmp(s, "InvalidConfig") && strcmp(s, "CompilationFailedConfig") && strcmp(s, "RuntimeFailedConfig") &&
            strcmp(s, "ErrorConfig"))
            return gb_error_set(GB_ERR_FORMAT, "%s: entry \"%s\": time '%s' is neither a number nor a failure name",
                                path, key, s);
        r->status = strcmp(s, "InvalidConfig") == 0 ? GB_REC_SKIPPED : GB_REC_ERROR;
        snprintf(r->reason, sizeof r->reason, "Kernel Tuner: %s", s);
        return GB_OK;
    }
    if (!json_is_number(t) || !(json_number_value(t) > 0) || !isfinite(json_number_value(t)))
        return gb_error_set(GB_ERR_FORMAT, "%s: entry \"%s\": time is not a positive number of ms", path, key);
    double ms = json_number_value(t), mn = ms, s2 = 0;
    size_t n = json_is_array(ts) ? json_array_size(ts) : 0;
    if (n && !(r->sample_ns = calloc(n, sizeof *r->sample_ns)))
        return gb_error_set(GB_ERR_NOMEM, "reading %s", path);
    for (size_t i = 0; i < n; i++) {
        double x = json_number_value(json_array_get(ts, i));
        if (!json_is_number(json_array_get(ts, i)) || !(x > 0))
            return gb_error_set(GB_ERR_FORMAT, "%s: entry \"%s\": times[%zu] is not a positive number", path, key, i);
        r->sample_ns[r->n_sample_ns++] = x * 1e6;
        mn = fmin(mn, x);
        s2 += (x - ms) * (x - ms);
    }
    r->status = GB_REC_OK;
    r->samples = n ? (int)n : 1;
    r->time_ns.median = r->time_ns.mean = ms * 1e6;
    r->time_ns.min = mn * 1e6;
    r->time_ns.stddev = n > 1 ? sqrt(s2 / (double)(n - 1)) * 1e6 : 0;
    /* Kernel Tuner keeps no interval: the mean's normal 95% interval from
     * its times (none wide with one launch). */
    double half = n > 1 ? 1.96 * r->time_ns.stddev / sqrt((double)n) : 0;
    r->time_ns.ci_lo = fmax(r->time_ns.mean - half, r->time_ns.min);
    r->time_ns.ci_hi = r->time_ns.mean + half;
    snprintf(r->time_source, sizeof r->time_source, "%s", GB_KT_TIME_SOURCE);
    /* Every output that shows the time shows the reason: say what it is. */
    snprintf(r->reason, sizeof r->reason, "%s", GB_KT_TIME_NOTE);
    return GB_OK;
}

/* One entry as a record: its parameters as axes, in the keys' order. */
static enum gb_status gb_kt_entry_read(const char *path, const struct gb_kt_cache *c, const char *key,
                                       const json_t *e, struct gb_record *r)
{
    char v[256], joined[2048];
    size_t len = 0;
    enum gb_status st = GB_OK;
    memset(r, 0, sizeof *r);
    if (!json_is_object(e))
        return gb_error_set(GB_ERR_FORMAT, "%s: entry \"%s\" is not an object", path, key);
    snprintf(r->suite, sizeof r->suite, "%s", GB_KT_SUITE);
    snprintf(r->bench, sizeof r->bench, "%s", c->kernel_name);
    r->batch = 1;
    r->bytes = r->flops = r->bw_gbs = r->gflops = NAN;
    r->wall_s = r->timed_s = NAN;
    gb_time_stats_clear(&r->batch_time_ns);
    joined[0] = '\0';
    for (int k = 0; st == GB_OK && k < c->n_keys; k++) {
        const json_t *x = json_object_get(e, c->keys[k]);
        if (!json_is_number(x) && !json_is_string(x))
            return gb_error_set(GB_ERR_FORMAT, "%s: entry \"%s\" has no value of parameter '%s'", path, key,
                                c->keys[k]);
        gb_kt_text(x, v, sizeof v);
        len += (size_t)snprintf(joined + len, len < sizeof joined ? sizeof joined - len : 0, "%s%s", k ? "," : "", v);
        st = gb_record_set_axis(r, c->keys[k], v);
    }
    if (st == GB_OK && strcmp(joined, key) != 0)
        return gb_error_set(GB_ERR_FORMAT, "%s: entry \"%s\": its parameter values read \"%s\"", path, key, joined);
    if (st == GB_OK)
        st = gb_kt_entry_times(path, key, e, r);
    /* What the loader would refuse is refused here, before a run is written. */
    snprintf(joined, sizeof joined, "entry \"%.60s\" (times in ns)", key);
    return st == GB_OK ? gb_record_validate(r, path, joined) : st;
}

/* The head: names and the parameters' keys. */
static enum gb_status gb_kt_head(const char *path, const json_t *j, struct gb_kt_cache *c)
{
    const json_t *dev = json_object_get(j, "device_name"), *ker = json_object_get(j, "kernel_name");
    const json_t *keys = json_object_get(j, "tune_params_keys"), *cache = json_object_get(j, "cache");
    const char *miss = !json_is_string(dev)      ? "device_name (a string)"
                       : !json_is_string(ker)    ? "kernel_name (a string)"
                       : !json_is_array(keys)    ? "tune_params_keys (a list)"
                       : !json_is_object(cache)  ? "cache (an object)"
                       : json_array_size(keys) == 0 ? "tune_params_keys (at least one name)"
                                                 : NULL;
    if (miss)
        return gb_error_set(GB_ERR_FORMAT, "%s: not a Kernel Tuner cache: no %s", path, miss);
    if (strlen(json_string_value(ker)) >= sizeof c->kernel_name)
        return gb_error_set(GB_ERR_FORMAT, "%s: kernel_name is longer than %zu bytes", path, sizeof c->kernel_name - 1);
    if (gb_record_text_check(path, NULL, "kernel_name (the bench's name)", json_string_value(ker), 1) != GB_OK)
        return GB_ERR_FORMAT;
    if (gb_record_text_check(path, NULL, "kernel_name (the bench's name)", json_string_value(ker), 1) != GB_OK)
        return GB_ERR_FORMAT;
    snprintf(c->device_name, sizeof c->device_name, "%s", json_string_value(dev));
    snprintf(c->kernel_name, sizeof c->kernel_name, "%s", json_string_value(ker));
    char *ps = json_dumps(json_object_get(j, "problem_size"), JSON_COMPACT | JSON_ENCODE_ANY);
    snprintf(c->problem_size, sizeof c->problem_size, "%s", ps ? ps : "null");
    free(ps);
    if (!(c->keys = calloc(json_array_size(keys), sizeof *c->keys)))
        return gb_error_set(GB_ERR_NOMEM, "reading %s", path);
    for (size_t k = 0; k < json_array_size(keys); k++) {
        const json_t *x = json_array_get(keys, k);
        if (!json_is_string(x) || !(c->keys[c->n_keys++] = strdup(json_string_value(x))))
            return gb_error_set(GB_ERR_FORMAT, "%s: tune_params_keys[%zu] is not a name", path, k);
    }
    return GB_OK;
}

enum gb_status gb_kt_cache_read(const char *path, struct gb_kt_cache *out)
{
    json_error_t err;
    enum gb_status st;
    struct stat sb;
    memset(out, 0, sizeof *out);
    if (stat(path, &sb) == 0 && S_ISDIR(sb.st_mode))
        return gb_error_set(GB_ERR_IO, "%s is a directory: give a Kernel Tuner cache file (the JSON file "
                            "tune_kernel's cache= option writes)", path);
    int io = 0;
    json_t *j = gb_kt_load(path, &err, &io);
    if (!j)
        return io ? gb_error_set(GB_ERR_IO, "cannot read %s: %s", path, strerror(io))
                     : gb_error_set(GB_ERR_FORMAT, "%s: not a Kernel Tuner cache: line %d: %s", path, err.line,
                                    err.text);
    if (!json_is_object(j)) {
        json_decref(j);
        return gb_error_set(GB_ERR_FORMAT, "%s: not a Kernel Tuner cache: not a JSON object", path);
    }
    st = gb_kt_head(path, j, out);
    const json_t *cache = json_object_get(j, "cache");
    size_t n = json_object_size(cache);
    if (st == GB_OK && n && !(out->recs = calloc(n, sizeof *out->recs)))
        st = gb_error_set(GB_ERR_NOMEM, "reading %s", path);
    const char *key;
    json_t *e;
    json_object_foreach((json_t *)cache, key, e) {
        if (st != GB_OK)
            break;
        st = gb_kt_entry_read(path, out, key, e, &out->recs[out->n]);
        out->n++;
    }
    json_decref(j);
    if (st != GB_OK)
        gb_kt_cache_release(out);
    return st;
}

void gb_kt_cache_release(struct gb_kt_cache *c)
{
    for (size_t i = 0; c->recs && i < c->n; i++)
        gb_record_release(&c->recs[i]);
    for (int k = 0; c->keys && k < c->n_keys; k++)
        free(c->keys[k]);
    free(c->recs);
    free(c->keys);
    memset(c, 0, sizeof *c);
}
