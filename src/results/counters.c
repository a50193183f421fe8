/* counters.c - counter sets (include/gpubound/counters.h), a record's
 * counters, and their JSON form in results.json: an object keyed by
 * metric name whose values are numbers, or arrays of the per-instance
 * values where those are known (the metric's value is then their rollup:
 * the sum for .sum, the mean for .avg, and so on). */
#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gpubound/counters.h"
#include "gpubound/results.h"
#include "results/json.h"
#include "results/validate.h"

static struct gb_counter *gb_counters_slot(struct gb_counters *c, const char *name, enum gb_status *st)
{
    *st = GB_OK;
    for (int i = 0; i < c->n; i++)
        if (strcmp(c->v[i].name, name) == 0)
            return &c->v[i];
    size_t len = strlen(name);
    if (len == 0 || len > GB_COUNTER_NAME_MAX) {
        *st = gb_error_set(GB_ERR_USAGE, "metric name '%.40s' is %s (1 to %d characters)", name,
                           len ? "too long" : "empty", GB_COUNTER_NAME_MAX);
        return NULL;
    }
    if (c->n == c->cap) {
        int cap = c->cap ? 2 * c->cap : 16;
        struct gb_counter *p = realloc(c->v, (size_t)cap * sizeof *p);
        if (!p) {
            *st = gb_error_set(GB_ERR_NOMEM, "out of host memory keeping counters");
            return NULL;
        }
        c->v = p;
        c->cap = cap;
    }
    struct gb_counter *k = &c->v[c->n++];
    memset(k, 0, sizeof *k);
    memcpy(k->name, name, len + 1);
    k->value = NAN;
    return k;
}

enum gb_status gb_counters_set(struct gb_counters *c, const char *name, double value)
{
    enum gb_status st;
    struct gb_counter *k = gb_counters_slot(c, name, &st);
    if (k)
        k->value = value;
    return st;
}

enum gb_status gb_counters_set_instances(struct gb_counters *c, const char *name, const double *v, int n)
{
    enum gb_status st;
    double *copy = n > 0 ? malloc((size_t)n * sizeof *copy) : NULL;
    if (n > 0 && !copy)
        return gb_error_set(GB_ERR_NOMEM, "out of host memory keeping counters");
    struct gb_counter *k = gb_counters_slot(c, name, &st);
    if (!k) {
        free(copy);
        return st;
    }
    if (n > 0)
        memcpy(copy, v, (size_t)n * sizeof *copy);
    free(k->inst);
    k->inst = copy;
    k->n_inst = n > 0 ? n : 0;
    return GB_OK;
}

const struct gb_counter *gb_counters_find(const struct gb_counters *c, const char *name)
{
    for (int i = 0; c && i < c->n; i++)
        if (strcmp(c->v[i].name, name) == 0)
            return &c->v[i];
    return NULL;
}

void gb_counters_release(struct gb_counters *c)
{
    if (!c)
        return;
    for (int i = 0; i < c->n; i++)
        free(c->v[i].inst);
    free(c->v);
    memset(c, 0, sizeof *c);
}

enum gb_status gb_counters_copy(struct gb_counters *dst, const struct gb_counters *src)
{
    memset(dst, 0, sizeof *dst);
    for (int i = 0; i < src->n; i++) {
        const struct gb_counter *k = &src->v[i];
        if (gb_counters_set(dst, k->name, k->value) != GB_OK ||
            (k->n_inst > 0 && gb_counters_set_instances(dst, k->name, k->inst, k->n_inst) != GB_OK)) {
            gb_counters_release(dst);
            return gb_error_set(GB_ERR_NOMEM, "out of host memory copying counters");
        }
    }
    return GB_OK;
}

/* ---- a record's counters ---- */

int gb_record_has_counters(const struct gb_record *r)
{
    return r && r->counters.n > 0;
}

double gb_record_counter(const struct gb_record *r, const char *name, double fallback)
{
    const struct gb_counter *k = r ? gb_counters_find(&r->counters, name) : NULL;
    return k && isfinite(k->value) ? k->value : fallback;
}

int gb_record_counter_instances(const struct gb_record *r, const char *name, const double **values)
{
    const struct gb_counter *k = r ? gb_counters_find(&r->counters, name) : NULL;
    *values = k && k->n_inst > 0 ? k->inst : NULL;
    return k ? k->n_inst : 0;
}

/* ---- JSON ---- */

/* The rollup a metric name asks for applied to its instances. */
static double gb_rollup_of(const char *name, const double *v, int n)
{
    const char *dot = strrchr(name, '.');
    double sum = 0, mx = -INFINITY, mn = INFINITY;
    for (int i = 0; i < n; i++) {
        sum += v[i];
        mx = fmax(mx, v[i]);
        mn = fmin(mn, v[i]);
    }
    if (dot && strcmp(dot, ".max") == 0)
        return mx;
    if (dot && strcmp(dot, ".min") == 0)
        return mn;
    if (dot && strcmp(dot, ".avg") == 0)
        return n ? sum / n : NAN;
    return sum;
}

json_t *gb_counters_to_json(const struct gb_counters *c)
{
    json_t *o = json_object();
    for (int i = 0; i < c->n; i++) {
        const struct gb_counter *k = &c->v[i];
        if (k->n_inst > 0) {
            json_t *a = json_array();
            for (int j = 0; j < k->n_inst; j++)
                json_array_append_new(a, gb_json_real(k->inst[j]));
            json_object_set_new(o, k->name, a);
        } else {
            json_object_set_new(o, k->name, gb_json_real(k->value));
        }
    }
    return o;
}

/* One counter's JSON value into `c`; 0 or -1 with the violation in `why`. */
static int gb_counter_from_json(json_t *v, const char *key, struct gb_counters *c, const char *file,
                                const char *path, char *why, size_t n)
{
    char field[256];
    size_t len = json_is_array(v) ? json_array_size(v) : 0;
    double *inst = NULL;
    int rc = -1;
    snprintf(field, sizeof field, "%s.counters.%.96s", path, key);
    if (!json_is_number(v) && !(json_is_array(v) && len > 0 && len <= 4096)) {
        snprintf(why, n, "%s: %s is not a number or an array of 1 to 4096 numbers (per-instance values)",
                 file, field);
        return -1;
    }
    if (len && !(inst = malloc(len * sizeof *inst))) {
        snprintf(why, n, "%s: %s: out of host memory", file, field);
        return -1;
    }
    for (size_t i = 0; i < (len ? len : 1); i++) {
        json_t *e = len ? json_array_get(v, i) : v;
        double x = json_is_number(e) ? json_number_value(e) : NAN;
        char text[64], at[300];
        snprintf(at, sizeof at, len ? "%s[%zu]" : "%s", field, i);
        snprintf(text, sizeof text, "%.17g", x);
        if (!json_is_number(e) || !gb_range_ok(GB_RANGE_COUNTER, x)) {
            gb_range_why(why, n, file, at, json_is_number(e) ? text : "(not a number)", GB_RANGE_COUNTER);
            goto out;
        }
        if (len)
            inst[i] = x;
        else if (gb_counters_set(c, key, x) != GB_OK)
            goto name;
    }
    if (len && (gb_counters_set_instances(c, key, inst, (int)len) != GB_OK ||
                gb_counters_set(c, key, gb_rollup_of(key, inst, (int)len)) != GB_OK))
        goto name;
    rc = 0;
    goto out;
name:
    snprintf(why, n, "%s: %s: %s", file, field, gb_error_message());
out:
    free(inst);
    return rc;
}

int gb_counters_from_json(json_t *o, struct gb_counters *c, const char *file, const char *path,
                          char *why, size_t n)
{
    const char *key;
    json_t *v;
    char bad[256];
    if (!o || json_is_null(o))
        return 0;
    if (!json_is_object(o)) {
        snprintf(why, n, "%s: %s.counters is not an object (metric name: value)", file, path);
        return -1;
    }
    json_object_foreach(o, key, v) {
        if (gb_counter_name_check(key, bad, sizeof bad) != 0) {
            snprintf(why, n, "%s: %s.counters: %s", file, path, bad);
            return -1;
        }
        if (gb_counter_from_json(v, key, c, file, path, why, n) != 0)
            return -1;
    }
    return 0;
}
