/* spec_hash.c - the SHA-256 of what a kernel spec compiles and reads
 * (gb_spec_hashes, spec.h): what run.json keeps, and what a model that
 * reads the spec again compares with it. */
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "suites/spec_internal.h"
#include "util/sha256.h"

/* Adds the digest of `text` under "<suite>/<name>". */
static enum gb_status gb_spec_hash_text(const struct gb_spec *s, const char *name, const char *text,
                                        struct gb_file_hashes *out)
{
    char key[256], hex[GB_SHA256_HEX];
    enum gb_status st;
    snprintf(key, sizeof key, "%s/%s", s->suite, name);
    if ((st = gb_sha256_hex(text, strlen(text), hex)) != GB_OK)
        return st;
    return gb_file_hashes_set(out, key, hex);
}

/* Adds the digest of data file `path` (resolved, inside the spec's real
 * directory `real_dir`) under "<suite>/<its path inside the directory>". */
static enum gb_status gb_spec_hash_data(const struct gb_spec *s, const char *real_dir, const char *path,
                                        struct gb_file_hashes *out)
{
    char key[256], hex[GB_SHA256_HEX];
    size_t dl = strlen(real_dir);
    const char *rel = strncmp(path, real_dir, dl) == 0 && path[dl] == '/' ? path + dl + 1 : path;
    enum gb_status st;
    snprintf(key, sizeof key, "%s/%s", s->suite, rel);
    if (gb_file_hashes_get(out, key))
        return GB_OK;
    if ((st = gb_sha256_file(path, hex)) != GB_OK)
        return st;
    return gb_file_hashes_set(out, key, hex);
}

/* Every init and reference file of the spec's benches. */
static enum gb_status gb_spec_hash_files(const struct gb_spec *s, struct gb_file_hashes *out)
{
    enum gb_status st = GB_OK;
    char *real_dir = realpath(s->dir, NULL);
    if (!real_dir)
        return gb_error_set(GB_ERR_IO, "cannot resolve the directory of %s", s->file);
    for (int b = 0; b < s->n_benches && st == GB_OK; b++)
        for (int a = 0; a < s->benches[b].n_args && st == GB_OK; a++) {
            const struct gb_spec_arg *arg = &s->benches[b].args[a];
            if (arg->file)
                st = gb_spec_hash_data(s, real_dir, arg->file, out);
            if (st == GB_OK && arg->ref_file)
                st = gb_spec_hash_data(s, real_dir, arg->ref_file, out);
        }
    free(real_dir);
    return st;
}

/* Takes out of `v`, at every depth, the members whose name starts with
 * '_' (comments, which the parser skips). */
static void gb_spec_strip_comments(json_t *v)
{
    const char *key;
    json_t *m;
    void *tmp;
    size_t i;
    if (json_is_array(v))
        json_array_foreach(v, i, m) gb_spec_strip_comments(m);
    json_object_foreach_safe(v, tmp, key, m) {
        if (key[0] == '_')
            json_object_del(v, key);
        else
            gb_spec_strip_comments(m);
    }
}

enum gb_status gb_spec_measured_hash(const struct gb_spec *s, struct gb_file_hashes *out)
{
    char key[256], hex[GB_SHA256_HEX];
    const char *base = strrchr(s->file, '/');
    json_t *root = json_loads(s->text, 0, NULL), *b;
    char *text = NULL;
    size_t i;
    enum gb_status st = GB_OK;
    if (!root) /* the parser read it: only memory can fail here */
        return gb_error_set(GB_ERR_NOMEM, "out of host memory");
    gb_spec_strip_comments(root);
    json_array_foreach(json_object_get(root, "benches"), i, b) json_object_del(b, "lpbm");
    if (!(text = json_dumps(root, JSON_COMPACT | JSON_SORT_KEYS | JSON_REAL_PRECISION(17))))
        st = gb_error_set(GB_ERR_NOMEM, "out of host memory");
    snprintf(key, sizeof key, "%s/%s", s->suite, base ? base + 1 : s->file);
    if (st == GB_OK && (st = gb_sha256_hex(text, strlen(text), hex)) == GB_OK)
        st = gb_file_hashes_set(out, key, hex);
    free(text);
    json_decref(root);
    return st;
}

enum gb_status gb_spec_hashes(const struct gb_spec *s, int with_data, struct gb_file_hashes *out)
{
    const char *base = strrchr(s->file, '/');
    enum gb_status st = gb_spec_hash_text(s, base ? base + 1 : s->file, s->text, out);
    for (int i = 0; i < s->n_sources && st == GB_OK; i++)
        st = gb_spec_hash_text(s, s->sources[i].name, s->sources[i].text, out);
    return st == GB_OK && with_data ? gb_spec_hash_files(s, out) : st;
}
