/* record_json.c - a record to and from JSON, driven by the record table
 * (GB_RECORD_FIELDS, schema.h): each row is written and read by its kind,
 * the CUSTOM rows by their handlers, below. */
#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "results/json.h"
#include "results/schema.h"

/* A time object (time_ns, batch_time_ns): the statistics under their own names. */
static json_t *gb_time_stats_to_json(const struct gb_time_stats *t)
{
    json_t *o = json_object();
#define GB_TS_SET(f) json_object_set_new(o, #f, gb_json_real(t->f));
    GB_TIME_STATS(GB_TS_SET)
#undef GB_TS_SET
    return o;
}

/* Whether a field holds nothing (written as null or left out, by its opt). */
static int gb_field_empty(const struct gb_record *r, const struct gb_field *f, const void *p)
{
    switch (f->kind) {
    case GB_FK_STR: return ((const char *)p)[0] == '\0';
    case GB_FK_INT:
    case GB_FK_BOOL:
    case GB_FK_ENUM: return *(const int *)p == 0;
    case GB_FK_REAL: return *(const double *)p == 0 || isnan(*(const double *)p);
    case GB_FK_TIMES: return f->opt == GB_FO_BATCHED && r->batch <= 1;
    case GB_FK_CUSTOM: break;
    }
    return 0;
}

/* A row as JSON (a new reference), or NULL when it is left out. */
static json_t *gb_field_to_json(const struct gb_record *r, const struct gb_field *f)
{
    const void *p = (const char *)r + f->off;
    if (f->kind == GB_FK_CUSTOM)
        return f->io->to_json(r);
    if (f->opt != GB_FO_REQUIRED && f->opt != GB_FO_OPTIONAL && gb_field_empty(r, f, p))
        return f->opt == GB_FO_OMIT ? NULL : json_null();
    switch (f->kind) {
    case GB_FK_STR: return json_string(p);
    case GB_FK_INT: return json_integer(*(const int *)p);
    case GB_FK_BOOL: return json_boolean(*(const int *)p);
    case GB_FK_REAL: return gb_json_real(*(const double *)p);
    case GB_FK_ENUM: return json_string(gb_enum_name(f->names, *(const int *)p));
    case GB_FK_TIMES: return gb_time_stats_to_json(p);
    case GB_FK_CUSTOM: break;
    }
    return NULL;
}

json_t *gb_record_to_json(const struct gb_record *r)
{
    json_t *o = json_object();
    for (size_t i = 0; i < gb_record_n_fields; i++) {
        json_t *v = gb_field_to_json(r, &gb_record_fields[i]);
        if (v)
            json_object_set_new(o, gb_record_fields[i].key, v);
    }
    return o;
}

/* Readers. Every number goes through the range table (validate.h): a
 * missing or null number reads as NAN (an int as 0), a wrong type or a
 * value out of range is a violation naming the file and the JSON path. */

int gb_jr_real(const struct gb_jr *j, json_t *o, const char *key, enum gb_range_id id, double *out)
{
    return gb_json_range_real(o, key, id, out, j->file, j->path, j->why, j->n);
}

int gb_jr_int(const struct gb_jr *j, json_t *o, const char *key, enum gb_range_id id, int *out)
{
    long long v;
    if (gb_json_range_int(o, key, id, 0, &v, j->file, j->path, j->why, j->n))
        return -1;
    *out = (int)v; /* every integer range fits an int */
    return 0;
}

int gb_jr_str(const struct gb_jr *j, json_t *o, const char *key, char *buf, size_t n, int required)
{
    json_t *v = json_object_get(o, key);
    buf[0] = '\0';
    if (!v) {
        if (required)
            snprintf(j->why, j->n, "%s: %s%s%s is missing (a string is required)", j->file, j->path,
                     j->path[0] ? "." : "", key);
        return required ? -1 : 0;
    }
    if (!json_is_string(v) || strlen(json_string_value(v)) >= n) {
        snprintf(j->why, j->n, "%s: %s%s%s is %s: a string of at most %zu characters is allowed",
                 j->file, j->path, j->path[0] ? "." : "", key,
                 json_is_string(v) ? "too long" : "not a string", n - 1);
        return -1;
    }
    snprintf(buf, n, "%s", json_string_value(v));
    return 0;
}

/* The time object `key` of `o` into `t`, each statistic in range `id`:
 * absent or null leaves every statistic NAN; anything but an object is refused. */
static int gb_jr_times(const struct gb_jr *j, json_t *o, const char *key, enum gb_range_id id,
                       struct gb_time_stats *t)
{
    json_t *v = json_object_get(o, key);
    char path[128];
    struct gb_jr sub = *j;
    gb_time_stats_clear(t);
    if (!v || json_is_null(v))
        return 0;
    if (!json_is_object(v)) {
        snprintf(j->why, j->n, "%s: %s.%s is not an object or null", j->file, j->path, key);
        return -1;
    }
    snprintf(path, sizeof path, "%s.%s", j->path, key);
    sub.path = path;
#define GB_TS_READ(f) if (gb_jr_real(&sub, v, #f, id, &t->f)) return -1;
    GB_TIME_STATS(GB_TS_READ)
#undef GB_TS_READ
    return 0;
}

/* An ENUM field: one of its names ("" or absent is the first when not required). */
static int gb_jr_enum(const struct gb_jr *j, json_t *o, const struct gb_field *f, int *out)
{
    char buf[64], allowed[256];
    size_t len = 0;
    if (gb_jr_str(j, o, f->key, buf, f->names->max < sizeof buf ? f->names->max : sizeof buf,
                  f->opt == GB_FO_REQUIRED))
        return -1;
    for (int k = 0; k < f->names->n; k++)
        if (strcmp(buf, f->names->names[k]) == 0 || (!buf[0] && !k && f->opt != GB_FO_REQUIRED)) {
            *out = k;
            return 0;
        }
    for (int k = 0; k < f->names->n && len < sizeof allowed; k++)
        len += (size_t)snprintf(allowed + len, sizeof allowed - len, "%s%s",
                                k == 0 ? "" : k + 1 < f->names->n ? ", " : " or ", f->names->names[k]);
    snprintf(j->why, j->n, "%s: %s.%s = \"%s\": allowed %s", j->file, j->path, f->key, buf, allowed);
    return -1;
}

/* A row from record object `o`. */
static int gb_field_from_json(const struct gb_jr *j, json_t *o, const struct gb_field *f, struct gb_record *r)
{
    void *p = (char *)r + f->off;
    json_t *v = json_object_get(o, f->key);
    switch (f->kind) {
    case GB_FK_STR:
        if (f->opt == GB_FO_NULLABLE && json_is_null(v))
            return 0;
        return gb_jr_str(j, o, f->key, p, f->size, f->opt == GB_FO_REQUIRED);
    case GB_FK_INT:
    case GB_FK_BOOL: return gb_jr_int(j, o, f->key, f->range, p);
    case GB_FK_REAL:
        if (gb_jr_real(j, o, f->key, f->range, p))
            return -1;
        if (f->opt == GB_FO_OMIT && isnan(*(double *)p)) /* left out: 0 */
            *(double *)p = 0;
        return 0;
    case GB_FK_ENUM: return gb_jr_enum(j, o, f, p);
    case GB_FK_TIMES: return gb_jr_times(j, o, f->key, f->range, p);
    case GB_FK_CUSTOM: return f->io->from_json(j, o, r);
    }
    return 0;
}

/* A record written before time_source and batch_time_ns were was timed by
 * events: around a graph of `batch` launches when batch > 1, and then its
 * times are the batch times. */
static void gb_record_upgrade(json_t *o, struct gb_record *r)
{
    if (json_object_get(o, "time_source") || r->status != GB_REC_OK)
        return;
    snprintf(r->time_source, sizeof r->time_source, "%s", r->batch > 1 ? "events-graph" : "events");
    if (r->batch > 1 && !json_object_get(o, "batch_time_ns"))
        r->batch_time_ns = r->time_ns;
}

int gb_record_from_json(json_t *o, struct gb_record *r, const char *file, const char *path,
                        char *why, size_t n)
{
    const struct gb_jr j = {.file = file, .path = path, .why = why, .n = n};
    memset(r, 0, sizeof *r);
    if (!json_is_object(o)) {
        snprintf(why, n, "%s: %s is not a JSON object (a record)", file, path);
        return -1;
    }
    for (size_t i = 0; i < gb_record_n_fields; i++)
        if (gb_field_from_json(&j, o, &gb_record_fields[i], r)) {
            gb_record_release(r);
            return -1;
        }
    gb_record_upgrade(o, r);
    return 0;
}

/* ---- the CUSTOM rows ---- */

static json_t *gb_axes_to_json(const struct gb_record *r)
{
    json_t *axes = json_object();
    for (int i = 0; i < r->n_axes; i++)
        json_object_set_new(axes, r->axes[i].name, json_string(r->axes[i].value));
    return axes;
}

/* axes: an object of strings (or null), every one kept. */
static int gb_axes_from_json(const struct gb_jr *j, json_t *o, struct gb_record *r)
{
    json_t *axes = json_object_get(o, "axes"), *v;
    const char *key;
    if (axes && !json_is_object(axes) && !json_is_null(axes)) {
        snprintf(j->why, j->n, "%s: %s.axes is not an object", j->file, j->path);
        return -1;
    }
    json_object_foreach(axes, key, v) {
        if (!json_is_string(v) || gb_record_set_axis(r, key, json_string_value(v)) != GB_OK) {
            snprintf(j->why, j->n, "%s: %s.axes.%.40s is %s", j->file, j->path, key,
                     json_is_string(v) ? "too long (names under 32, values under 64 characters)"
                                       : "not a string");
            return -1;
        }
    }
    return 0;
}

const struct gb_field_io gb_field_axes = {gb_axes_to_json, gb_axes_from_json};

static json_t *gb_metrics_to_json(const struct gb_record *r)
{
    json_t *m = json_object();
    for (int i = 0; i < r->n_metrics; i++)
        json_object_set_new(m, r->metrics[i].name, gb_json_real(r->metrics[i].value));
    return m;
}

/* metrics: an object of finite numbers or nulls (or null), every one kept. */
static int gb_metrics_from_json(const struct gb_jr *j, json_t *o, struct gb_record *r)
{
    json_t *m = json_object_get(o, "metrics"), *v;
    const char *key;
    char path[128];
    struct gb_jr sub = *j;
    sub.path = path;
    if (m && !json_is_object(m) && !json_is_null(m)) {
        snprintf(j->why, j->n, "%s: %s.metrics is not an object", j->file, j->path);
        return -1;
    }
    snprintf(path, sizeof path, "%s.metrics", j->path);
    json_object_foreach(m, key, v) {
        double x = NAN;
        if (gb_jr_real(&sub, m, key, GB_RANGE_METRIC, &x))
            return -1;
        if (gb_record_set_metric(r, key, x) != GB_OK) {
            snprintf(j->why, j->n, "%s: %s.%.40s: %s", j->file, path, key, gb_error_message());
            return -1;
        }
    }
    return 0;
}

const struct gb_field_io gb_field_metrics = {gb_metrics_to_json, gb_metrics_from_json};

static json_t *gb_compile_log_to_json(const struct gb_record *r)
{
    return r->compile_log ? json_string(r->compile_log) : NULL;
}

/* compile_log: absent or null (none), or a string of at most GB_COMPILE_LOG_MAX bytes. */
static int gb_compile_log_from_json(const struct gb_jr *j, json_t *o, struct gb_record *r)
{
    json_t *v = json_object_get(o, "compile_log");
    if (!v || json_is_null(v))
        return 0;
    if (!json_is_string(v) || json_string_length(v) >= GB_COMPILE_LOG_MAX) {
        snprintf(j->why, j->n, "%s: %s.compile_log is %s: a string of at most %d characters is allowed",
                 j->file, j->path, json_is_string(v) ? "too long" : "not a string", GB_COMPILE_LOG_MAX - 1);
        return -1;
    }
    if (gb_record_set_compile_log(r, json_string_value(v)) != GB_OK) {
        snprintf(j->why, j->n, "%s: %s.compile_log: %s", j->file, j->path, gb_error_message());
        return -1;
    }
    return 0;
}

const struct gb_field_io gb_field_compile_log = {gb_compile_log_to_json, gb_compile_log_from_json};

static json_t *gb_counters_field_to_json(const struct gb_record *r)
{
    return r->counters.n > 0 ? gb_counters_to_json(&r->counters) : NULL;
}

static int gb_counters_field_from_json(const struct gb_jr *j, json_t *o, struct gb_record *r)
{
    return gb_counters_from_json(json_object_get(o, "counters"), &r->counters, j->file, j->path, j->why, j->n);
}

const struct gb_field_io gb_field_counters = {gb_counters_field_to_json, gb_counters_field_from_json};

static json_t *gb_fleet_to_json(const struct gb_record *r)
{
    return r->fleet ? json_pack("{s:i, s:s, s:s}", "rank", r->fleet_rank, "host", r->fleet_host, "gpu_uuid",
                                r->gpu_uuid)
                    : NULL;
}

/* The fleet section of a record (rank, host, GPU), when there is one. */
static int gb_fleet_from_json(const struct gb_jr *j, json_t *o, struct gb_record *r)
{
    json_t *f = json_object_get(o, "fleet");
    char path[128];
    struct gb_jr sub = *j;
    if (!f || json_is_null(f))
        return 0;
    snprintf(path, sizeof path, "%s.fleet", j->path);
    sub.path = path;
    if (!json_is_object(f)) {
        snprintf(j->why, j->n, "%s: %s is not an object", j->file, path);
        return -1;
    }
    r->fleet = 1;
    return gb_jr_int(&sub, f, "rank", GB_RANGE_POINTS, &r->fleet_rank) ||
           gb_jr_str(&sub, f, "host", r->fleet_host, sizeof r->fleet_host, 1) ||
           gb_jr_str(&sub, f, "gpu_uuid", r->gpu_uuid, sizeof r->gpu_uuid, 0);
}

const struct gb_field_io gb_field_fleet = {gb_fleet_to_json, gb_fleet_from_json};

/* sample_ns is written as compact text after the object (gb_record_write_json,
 * samples.c), not through jansson. */
static json_t *gb_samples_to_json(const struct gb_record *r)
{
    (void)r;
    return NULL;
}

static int gb_samples_from_json(const struct gb_jr *j, json_t *o, struct gb_record *r)
{
    return gb_record_samples_from_json(o, r, j->file, j->path, j->why, j->n);
}

const struct gb_field_io gb_field_samples = {gb_samples_to_json, gb_samples_from_json};
