/* run_json.c - run.json to and from JSON, driven by its table
 * (GB_RUN_INFO_FIELDS, schema.h): each row is written into its parent
 * object and read from it by its kind, the CUSTOM rows by their handlers,
 * below. */
#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "results/json.h"
#include "results/schema.h"
#include "util/sha256.h"

/* A HASHES row: an object of digests by file name. */
static json_t *gb_hashes_to_json(const struct gb_file_hashes *l)
{
    json_t *o = json_object();
    for (int i = 0; i < l->n; i++)
        json_object_set_new(o, l->h[i].name, json_string(l->h[i].sha256));
    return o;
}

/* A HASHES row: absent or null (none, as in runs recorded before it), or an
 * object of at most GB_RUN_MAX_HASHES digests (64 lowercase hex digits) by
 * names of at most 127 bytes. */
static int gb_jr_hashes(const struct gb_jr *j, json_t *o, const char *key, struct gb_file_hashes *l)
{
    json_t *v = json_object_get(o, key), *d;
    const char *name;
    if (!v || json_is_null(v))
        return 0;
    if (!json_is_object(v)) {
        snprintf(j->why, j->n, "%s: %s.%s is not an object (of SHA-256 digests by file name)", j->file, j->path, key);
        return -1;
    }
    json_object_foreach(v, name, d) {
        if (!json_is_string(d) || !gb_sha256_is_hex(json_string_value(d)) ||
            gb_file_hashes_set(l, name, json_string_value(d)) != GB_OK) {
            snprintf(j->why, j->n, "%s: %s.%s.%.60s: %s", j->file, j->path, key, name,
                     !json_is_string(d) || !gb_sha256_is_hex(json_string_value(d))
                         ? "not a SHA-256 digest (64 lowercase hex digits)"
                         : gb_error_message());
            return -1;
        }
    }
    return 0;
}

/* Whether a row holds nothing (left out when its opt is OMIT). */
static int gb_run_field_empty(const struct gb_run_field *f, const void *p)
{
    switch (f->kind) {
    case GB_RK_STR: return ((const char *)p)[0] == '\0';
    case GB_RK_INT:
    case GB_RK_BOOL: return *(const int *)p == 0;
    case GB_RK_REAL:
    case GB_RK_PART: return *(const double *)p == 0 || isnan(*(const double *)p);
    case GB_RK_HASHES: return ((const struct gb_file_hashes *)p)->n == 0;
    default: break;
    }
    return 0;
}

/* A row as JSON (a new reference), or NULL when it is left out. */
static json_t *gb_run_field_to_json(const struct gb_run_info *in, const struct gb_run_field *f)
{
    const void *p = (const char *)in + f->off;
    if (f->kind == GB_RK_CUSTOM)
        return f->io->to_json(in);
    if (f->opt == GB_RO_OMIT && gb_run_field_empty(f, p))
        return NULL;
    switch (f->kind) {
    case GB_RK_STR: return json_string(p);
    case GB_RK_INT: return json_integer(*(const int *)p);
    case GB_RK_BOOL: return json_boolean(*(const int *)p);
    case GB_RK_REAL:
    case GB_RK_PART: return gb_json_real(*(const double *)p);
    case GB_RK_HASHES: return gb_hashes_to_json(p);
    case GB_RK_CONST: return json_string(f->text);
    case GB_RK_DERIVED: return gb_json_real(f->derive(in));
    case GB_RK_CUSTOM: break;
    }
    return NULL;
}

json_t *gb_run_info_to_json(const struct gb_run_info *in)
{
    json_t *root = json_object();
    for (size_t i = 0; i < gb_run_n_fields; i++) {
        const struct gb_run_field *f = &gb_run_fields[i];
        json_t *v = gb_run_field_to_json(in, f), *parent = root;
        if (!v)
            continue;
        /* A parent object is made where its first row is written. */
        if (f->parent[0] && !(parent = json_object_get(root, f->parent))) {
            parent = json_object();
            json_object_set_new(root, f->parent, parent);
        }
        json_object_set_new(parent, f->key, v);
    }
    return root;
}

/* The first REQUIRED row of parent `name`, or NULL: a parent with one is required. */
static const struct gb_run_field *gb_run_parent_required(const char *name)
{
    for (size_t i = 0; i < gb_run_n_fields; i++)
        if (gb_run_fields[i].opt == GB_RO_REQUIRED && strcmp(gb_run_fields[i].parent, name) == 0)
            return &gb_run_fields[i];
    return NULL;
}

/* The object a row is read from: the document or its parent. NULL when the
 * parent is absent or not an object: an error (in j->why, *bad set) when
 * the parent is required, else the row reads as absent. */
static json_t *gb_run_parent(const struct gb_jr *j, json_t *root, const struct gb_run_field *f, int *bad)
{
    json_t *o = f->parent[0] ? json_object_get(root, f->parent) : root;
    const struct gb_run_field *req;
    *bad = 0;
    if (json_is_object(o))
        return o;
    if ((req = gb_run_parent_required(f->parent)) != NULL) {
        snprintf(j->why, j->n, "%s: $.%s is missing (an object with the %s is required)", j->file, f->parent,
                 req->key);
        *bad = 1;
    }
    return NULL;
}

/* A CONST row (the format, the tool's name): absent (an old or hand-made
 * file; gb_run_info_unversioned tells), or the text this build writes.
 * Another value is a file this build cannot read, refused by name. */
static int gb_run_const_from_json(const struct gb_jr *j, json_t *o, const struct gb_run_field *f)
{
    json_t *v = json_object_get(o, f->key);
    char text[64];
    if (!v || (json_is_string(v) && strcmp(json_string_value(v), f->text) == 0))
        return 0;
    if (json_is_string(v)) {
        snprintf(text, sizeof text, "\"%.40s\"", json_string_value(v));
    } else {
        char *d = json_dumps(v, JSON_COMPACT | JSON_ENCODE_ANY);
        snprintf(text, sizeof text, "%.40s", d ? d : "?");
        free(d);
    }
    snprintf(j->why, j->n, "%s: %s.%s = %s: this build reads \"%s\" only; read it with the gpubound that "
             "wrote it", j->file, j->path, f->key, text, f->text);
    return -1;
}

/* A row from run.json's document `root`. */
static int gb_run_field_from_json(const struct gb_jr *root_j, json_t *root, const struct gb_run_field *f,
                                  struct gb_run_info *in)
{
    void *p = (char *)in + f->off;
    char path[64];
    int bad;
    if (f->kind == GB_RK_DERIVED) /* written, not read */
        return 0;
    json_t *o = gb_run_parent(root_j, root, f, &bad);
    if (!o)
        return bad ? -1 : 0;
    snprintf(path, sizeof path, "$%s%s", f->parent[0] ? "." : "", f->parent);
    const struct gb_jr j = {.file = root_j->file, .path = path, .why = root_j->why, .n = root_j->n};
    switch (f->kind) {
    case GB_RK_CONST: return gb_run_const_from_json(&j, o, f);
    case GB_RK_STR: return gb_jr_str(&j, o, f->key, p, f->size, f->opt == GB_RO_REQUIRED);
    case GB_RK_INT:
    case GB_RK_BOOL: return gb_jr_int(&j, o, f->key, f->range, p);
    case GB_RK_REAL:
    case GB_RK_PART:
        if (f->opt == GB_RO_ADDED && !json_object_get(o, f->key)) /* a run recorded before it */
            return 0;
        return gb_jr_real(&j, o, f->key, f->range, p);
    case GB_RK_HASHES: return gb_jr_hashes(&j, o, f->key, p);
    case GB_RK_CUSTOM: return f->io->from_json(&j, o, f->key, in);
    default: break;
    }
    return 0;
}

int gb_run_info_from_json(json_t *o, struct gb_run_info *in, const char *file, char *why, size_t n)
{
    const struct gb_jr j = {.file = file, .path = "$", .why = why, .n = n};
    memset(in, 0, sizeof *in);
    if (!json_is_object(o)) {
        snprintf(why, n, "%s: $ is not a JSON object", file);
        return -1;
    }
    for (size_t i = 0; i < gb_run_n_fields; i++)
        if (gb_run_field_from_json(&j, o, &gb_run_fields[i], in))
            return -1;
    return 0;
}

const char *gb_run_info_format_absent(json_t *o)
{
    for (size_t i = 0; i < gb_run_n_fields; i++)
        if (gb_run_fields[i].kind == GB_RK_CONST && !gb_run_fields[i].parent[0] &&
            strcmp(gb_run_fields[i].key, "format") == 0)
            return json_object_get(o, "format") ? NULL : gb_run_fields[i].text;
    return NULL;
}

/* ---- the CUSTOM rows ---- */

static json_t *gb_run_device_to_json(const struct gb_run_info *in)
{
    return in->has_device ? gb_device_to_json(&in->device) : NULL;
}

/* device: absent or null (none), or the device section. */
static int gb_run_device_from_json(const struct gb_jr *j, json_t *parent, const char *key, struct gb_run_info *in)
{
    json_t *dev = json_object_get(parent, key);
    char path[64];
    if (!dev || json_is_null(dev))
        return 0;
    snprintf(path, sizeof path, "%s.%s", j->path, key);
    if (gb_device_from_json(dev, &in->device, j->file, path, j->why, j->n))
        return -1;
    in->has_device = 1;
    return 0;
}

const struct gb_run_field_io gb_run_field_device = {gb_run_device_to_json, gb_run_device_from_json};
