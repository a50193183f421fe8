/* chart_json.c - chart books: the chart specs of a run's suites, and their
 * JSON form, the charts.json of a run directory (docs/results-format.md). */
#include <errno.h>
#include <jansson.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "gpubound/chart_spec.h"
#include "results/json.h"
#include "results/validate.h"
#include "util/fs.h"

#define GB_CHARTS_FORMAT "gpubound-charts"
#define GB_CHARTS_VERSION 1

/* The string fields of a spec, under their own names. */
#define GB_SPEC_STR_FIELDS(X) \
    X(name) X(title) X(benches) X(where) X(split) X(primary) X(x) X(series) X(series_label) \
    X(y) X(ys) X(relative_to) X(refs) X(x_label) X(y_label) X(row) X(col) X(flag)        \
    X(flag_label) X(pair) X(ref_speedups)

/* The integer (flag) fields, written only when non-zero. */
#define GB_SPEC_INT_FIELDS(X) X(x_categories) X(log_x) X(log_y) X(table)

struct gb_spec_field {
    const char *key;
    size_t off;
};

#define GB_FIELD(f) {#f, offsetof(struct gb_chart_spec, f)},
static const struct gb_spec_field gb_str_fields[] = {GB_SPEC_STR_FIELDS(GB_FIELD)};
static const struct gb_spec_field gb_int_fields[] = {GB_SPEC_INT_FIELDS(GB_FIELD)};
#define GB_N(a) (sizeof a / sizeof a[0])

static const char *const gb_kind_names[] = {"line", "bar", "heat", "speedup"};

/* What a loaded book owns: its sets, specs and strings, freed together. */
struct gb_book_store {
    void **v;
    size_t n, cap;
};

void gb_chart_book_init(struct gb_chart_book *b)
{
    memset(b, 0, sizeof *b);
}

void gb_chart_book_release(struct gb_chart_book *b)
{
    struct gb_book_store *s = b->owned;
    for (size_t i = 0; s && i < s->n; i++)
        free(s->v[i]);
    if (s)
        free(s->v);
    free(s);
    free(b->sets);
    gb_chart_book_init(b);
}

enum gb_status gb_chart_book_add(struct gb_chart_book *b, const struct gb_chart_set *set)
{
    struct gb_chart_set *v = realloc(b->sets, (b->n + 1) * sizeof *v);
    if (!v)
        return gb_error_set(GB_ERR_NOMEM, "out of memory");
    b->sets = v;
    b->sets[b->n++] = *set;
    return GB_OK;
}

const struct gb_chart_set *gb_chart_book_find(const struct gb_chart_book *b, const char *name)
{
    for (size_t i = 0; b && i < b->n; i++)
        if (b->sets[i].name && strcmp(b->sets[i].name, name) == 0)
            return &b->sets[i];
    return NULL;
}

/* ---- writing ---- */

static json_t *gb_spec_to_json(const struct gb_chart_spec *c)
{
    json_t *o = json_object();
    if (!o)
        return NULL;
    for (size_t i = 0; i < GB_N(gb_str_fields); i++) {
        const char *v = *(const char *const *)((const char *)c + gb_str_fields[i].off);
        if (v)
            json_object_set_new(o, gb_str_fields[i].key, json_string(v));
        if (i == 1)   /* the kind after the name and title, for a reader */
            json_object_set_new(o, "kind", json_string((unsigned)c->kind < GB_N(gb_kind_names)
                                                            ? gb_kind_names[c->kind] : "line"));
    }
    for (size_t i = 0; i < GB_N(gb_int_fields); i++) {
        int v = *(const int *)((const char *)c + gb_int_fields[i].off);
        if (v)
            json_object_set_new(o, gb_int_fields[i].key, json_integer(v));
    }
    return o;
}

static json_t *gb_book_to_json(const struct gb_chart_book *b)
{
    json_t *root = json_object(), *suites = json_array();
    if (!root || !suites) {
        json_decref(root);
        json_decref(suites);
        return NULL;
    }
    json_object_set_new(root, "format", json_string(GB_CHARTS_FORMAT));
    json_object_set_new(root, "version", json_integer(GB_CHARTS_VERSION));
    for (size_t i = 0; i < b->n; i++) {
        const struct gb_chart_set *set = &b->sets[i];
        json_t *s = json_object(), *charts = json_array();
        json_object_set_new(s, "name", json_string(set->name ? set->name : ""));
        if (set->help)
            json_object_set_new(s, "help", json_string(set->help));
        for (int c = 0; c < set->n_charts; c++)
            json_array_append_new(charts, gb_spec_to_json(&set->charts[c]));
        json_object_set_new(s, "charts", charts);
        json_array_append_new(suites, s);
    }
    json_object_set_new(root, "suites", suites);
    return root;
}

enum gb_status gb_chart_book_write(const struct gb_chart_book *b, const char *run_dir)
{
    char path[GB_PATH_MAX];
    json_t *root = gb_book_to_json(b);
    if (!root)
        return gb_error_set(GB_ERR_NOMEM, "out of memory");
    snprintf(path, sizeof path, "%s/%s", run_dir, GB_CHARTS_FILE);
    enum gb_status st = gb_json_write_file(root, path, JSON_INDENT(2) | JSON_PRESERVE_ORDER);
    json_decref(root);
    return st;
}

/* ---- reading ---- */

/* Keeps `p` (or frees it and fails) in the book's store. */
static void *gb_store(struct gb_book_store *s, void *p)
{
    if (!p)
        return NULL;
    if (s->n == s->cap) {
        size_t cap = s->cap ? 2 * s->cap : 64;
        void **v = realloc(s->v, cap * sizeof *v);
        if (!v) {
            free(p);
            return NULL;
        }
        s->v = v;
        s->cap = cap;
    }
    s->v[s->n++] = p;
    return p;
}

static enum gb_status gb_bad(const char *path, const char *what, const char *field)
{
    return gb_error_set(GB_ERR_FORMAT, "%s: %s%s%s", path, what, field ? " " : "", field ? field : "");
}

static enum gb_status gb_spec_from_json(json_t *o, struct gb_chart_spec *c, struct gb_book_store *s,
                                        const char *path)
{
    const char *kind;
    if (!json_is_object(o))
        return gb_bad(path, "a chart is not an object", NULL);
    for (size_t i = 0; i < GB_N(gb_str_fields); i++) {
        json_t *v = json_object_get(o, gb_str_fields[i].key);
        const char **dst = (const char **)((char *)c + gb_str_fields[i].off);
        if (!v || json_is_null(v))
            continue;
        if (!json_is_string(v))
            return gb_bad(path, "not a string: chart field", gb_str_fields[i].key);
        if (!(*dst = gb_store(s, strdup(json_string_value(v)))))
            return gb_error_set(GB_ERR_NOMEM, "out of memory");
    }
    for (size_t i = 0; i < GB_N(gb_int_fields); i++) {
        json_t *v = json_object_get(o, gb_int_fields[i].key);
        long long flag = 0;
        char field[160], why[512];
        /* Every integer of a chart is a switch: 0 or 1, never a number cast down to one. */
        snprintf(field, sizeof field, "chart \"%s\".%s", c->name ? c->name : "?", gb_int_fields[i].key);
        if (v && !json_is_null(v) && gb_json_value_int(v, GB_RANGE_FLAG, &flag, path, field, why, sizeof why) != 0)
            return gb_error_set(GB_ERR_FORMAT, "%s", why);
        *(int *)((char *)c + gb_int_fields[i].off) = (int)flag;
    }
    if (!c->name || !c->name[0])
        return gb_bad(path, "a chart has no", "name");
    kind = json_string_value(json_object_get(o, "kind"));
    for (size_t k = 0; kind && k < GB_N(gb_kind_names); k++)
        if (strcmp(kind, gb_kind_names[k]) == 0) {
            c->kind = (enum gb_chart_kind)k;
            return GB_OK;
        }
    return gb_bad(path, "unknown or missing kind of chart", c->name);
}

static enum gb_status gb_set_from_json(json_t *o, struct gb_chart_set *set, struct gb_book_store *s,
                                       const char *path)
{
    json_t *charts = json_object_get(o, "charts");
    const char *name = json_string_value(json_object_get(o, "name"));
    const char *help = json_string_value(json_object_get(o, "help"));
    struct gb_chart_spec *specs;
    enum gb_status st;
    if (!name || !json_is_array(charts))
        return gb_bad(path, "a suite needs a name and an array of", "charts");
    specs = gb_store(s, calloc(json_array_size(charts) + 1, sizeof *specs));
    if (!specs || !(set->name = gb_store(s, strdup(name))) ||
        (help && !(set->help = gb_store(s, strdup(help)))))
        return gb_error_set(GB_ERR_NOMEM, "out of memory");
    for (size_t i = 0; i < json_array_size(charts); i++)
        if ((st = gb_spec_from_json(json_array_get(charts, i), &specs[i], s, path)) != GB_OK)
            return st;
    set->charts = specs;
    set->n_charts = (int)json_array_size(charts);
    return GB_OK;
}

static enum gb_status gb_book_from_json(json_t *root, struct gb_chart_book *b, const char *path)
{
    json_t *suites = json_object_get(root, "suites");
    const char *format = json_string_value(json_object_get(root, "format"));
    struct gb_book_store *s = calloc(1, sizeof *s);
    enum gb_status st = GB_OK;
    if (!s)
        return gb_error_set(GB_ERR_NOMEM, "out of memory");
    b->owned = s;
    json_t *version = json_object_get(root, "version");
    if (!format || strcmp(format, GB_CHARTS_FORMAT) != 0 || !json_is_array(suites))
        return gb_bad(path, "not a chart file (format \"" GB_CHARTS_FORMAT "\" and an array of",
                      "suites)");
    if (version && !(json_is_integer(version) && json_integer_value(version) == GB_CHARTS_VERSION)) {
        char *v = json_dumps(version, JSON_COMPACT | JSON_ENCODE_ANY);
        gb_error_set(GB_ERR_FORMAT, "%s: $.version = %.40s: this build reads version %d only; draw the run "
                     "with the gpubound that wrote it", path, v ? v : "?", GB_CHARTS_VERSION);
        free(v);
        return GB_ERR_FORMAT;
    }
    for (size_t i = 0; i < json_array_size(suites) && st == GB_OK; i++) {
        struct gb_chart_set set = {0};
        if ((st = gb_set_from_json(json_array_get(suites, i), &set, s, path)) == GB_OK)
            st = gb_chart_book_add(b, &set);
    }
    return st;
}

enum gb_status gb_chart_book_load(const char *run_dir, struct gb_chart_book *b, int *found)
{
    char path[GB_PATH_MAX];
    json_error_t err;
    json_t *root;
    enum gb_status st;

    gb_chart_book_init(b);
    *found = 0;
    snprintf(path, sizeof path, "%s/%s", run_dir, GB_CHARTS_FILE);
    if (access(path, F_OK) != 0)
        return errno == ENOENT ? GB_OK : gb_error_set(GB_ERR_IO, "cannot read %s: %s", path, strerror(errno));
    *found = 1;
    if (!(root = json_load_file(path, 0, &err)))
        return gb_error_set(GB_ERR_FORMAT, "%s:%d: %s", path, err.line, err.text);
    st = gb_book_from_json(root, b, path);
    json_decref(root);
    if (st != GB_OK)
        gb_chart_book_release(b);
    return st;
}
