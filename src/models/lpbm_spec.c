/* lpbm_spec.c - the fields of a kernel spec the breakdown model reads, and
 * where a run's spec is (gpubound/lpbm_input.h). */
#include <glob.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <jansson.h>

#include "gpubound/lpbm_input.h"
#include "lpbm_internal.h"

static enum gb_status str_field(json_t *o, const char *key, const char *where, char *buf,
                                size_t n, int required)
{
    json_t *v = json_object_get(o, key);
    buf[0] = '\0';
    if (!v)
        return required ? gb_error_set(GB_ERR_FORMAT, "%s: no \"%s\"", where, key) : GB_OK;
    if (json_is_integer(v) || json_is_real(v)) {
        snprintf(buf, n, "%.17g", json_number_value(v));
        return GB_OK;
    }
    if (!json_is_string(v) || strlen(json_string_value(v)) >= n)
        return gb_error_set(GB_ERR_FORMAT, "%s: \"%s\" is not a string of at most %zu characters",
                            where, key, n - 1);
    snprintf(buf, n, "%s", json_string_value(v));
    return GB_OK;
}

static enum gb_status triple(json_t *b, const char *key, const char *where, char out[3][160])
{
    json_t *v = json_object_get(b, key);
    for (int i = 0; i < 3; i++)
        out[i][0] = '\0';
    if (!v)
        return GB_OK;
    if (!json_is_array(v) || json_array_size(v) < 1 || json_array_size(v) > 3)
        return gb_error_set(GB_ERR_FORMAT, "%s: \"%s\" is not a list of 1 to 3 expressions",
                            where, key);
    for (size_t i = 0; i < json_array_size(v); i++) {
        json_t *e = json_array_get(v, i);
        if (json_is_string(e))
            snprintf(out[i], 160, "%s", json_string_value(e));
        else if (json_is_number(e))
            snprintf(out[i], 160, "%.17g", json_number_value(e));
        else
            return gb_error_set(GB_ERR_FORMAT, "%s: \"%s\"[%zu] is not an expression", where, key, i);
    }
    return GB_OK;
}

static enum gb_status read_names(json_t *b, struct gb_lpbm_sbench *sb, const char *where)
{
    json_t *axes = json_object_get(b, "axes"), *defs = json_object_get(b, "defines");
    json_t *args = json_object_get(b, "args"), *pa = json_object_get(b, "problem_axes"), *v;
    size_t i;
    const char *k;
    if (!json_is_array(axes))
        return gb_error_set(GB_ERR_FORMAT, "%s: no \"axes\" list", where);
    json_array_foreach(axes, i, v) {
        if (sb->n_axes >= GB_LPBM_SPEC_MAX ||
            str_field(v, "name", where, sb->axes[sb->n_axes], 32, 1) != GB_OK)
            return gb_error_set(GB_ERR_FORMAT, "%s: axis %zu has no name", where, i);
        sb->n_axes++;
    }
    json_object_foreach(defs, k, v) {
        if (sb->n_defines >= GB_LPBM_SPEC_MAX || !json_is_string(v) || strlen(k) >= 32)
            return gb_error_set(GB_ERR_FORMAT, "%s: define \"%s\" is not an expression", where, k);
        snprintf(sb->def_names[sb->n_defines], 32, "%s", k);
        snprintf(sb->def_exprs[sb->n_defines++], 160, "%s", json_string_value(v));
    }
    json_array_foreach(args, i, v) {
        char name[32], value[160];
        if (str_field(v, "name", where, name, sizeof name, 1) != GB_OK ||
            str_field(v, "value", where, value, sizeof value, 0) != GB_OK)
            return GB_ERR_FORMAT;
        if (sb->n_all_args < GB_LPBM_SPEC_MAX)
            sb->arg_pos[sb->n_all_args++] = value[0] && sb->n_args < GB_LPBM_SPEC_MAX ? sb->n_args : -1;
        if (value[0] && sb->n_args < GB_LPBM_SPEC_MAX) {
            snprintf(sb->arg_names[sb->n_args], 32, "%s", name);
            snprintf(sb->arg_exprs[sb->n_args++], 160, "%s", value);
        }
    }
    sb->has_problem_axes = json_is_array(pa);
    json_array_foreach(pa, i, v) {
        if (json_is_string(v) && sb->n_problem < GB_LPBM_SPEC_MAX)
            snprintf(sb->problem[sb->n_problem++], 32, "%s", json_string_value(v));
    }
    return GB_OK;
}

static enum gb_status read_bench(json_t *b, size_t idx, struct gb_lpbm_sbench *sb)
{
    char where[128];
    json_t *l;
    enum gb_status st;
    snprintf(where, sizeof where, "benches[%zu]", idx);
    if ((st = str_field(b, "name", where, sb->name, sizeof sb->name, 1)) ||
        (st = str_field(b, "kernel", where, sb->kernel, sizeof sb->kernel, 1)) ||
        (st = str_field(b, "dynamic_smem", where, sb->dyn_smem, sizeof sb->dyn_smem, 0)) ||
        (st = str_field(b, "flops", where, sb->flops, sizeof sb->flops, 0)) ||
        (st = str_field(b, "bytes", where, sb->bytes, sizeof sb->bytes, 0)) ||
        (st = str_field(b, "source", where, sb->source, sizeof sb->source, 0)) ||
        (st = triple(b, "block", where, sb->block)) || (st = triple(b, "grid", where, sb->grid)) ||
        (st = read_names(b, sb, where)))
        return st;
    if ((l = json_object_get(b, "lpbm")) != NULL) {
        snprintf(where, sizeof where, "benches[%zu].lpbm", idx);
        if (!json_is_object(l))
            return gb_error_set(GB_ERR_FORMAT, "%s is not an object", where);
        if ((st = str_field(l, "ops", where, sb->l_ops, sizeof sb->l_ops, 0)) ||
            (st = str_field(l, "global_bytes", where, sb->l_global, sizeof sb->l_global, 0)) ||
            (st = str_field(l, "shared_accesses", where, sb->l_shared, sizeof sb->l_shared, 0)) ||
            (st = str_field(l, "note", where, sb->l_note, sizeof sb->l_note, 0)))
            return st;
    }
    return GB_OK;
}

static enum gb_status read_source(json_t *root, struct gb_lpbm_spec *s)
{
    json_t *src = json_object_get(root, "source");
    const char *first = json_is_string(src) ? json_string_value(src)
                        : (json_is_array(src) && json_is_string(json_array_get(src, 0)))
                            ? json_string_value(json_array_get(src, 0))
                            : NULL;
    if (!first)
        return gb_error_set(GB_ERR_FORMAT, "%s: no \"source\"", s->path);
    snprintf(s->source, sizeof s->source, "%s", first);
    return GB_OK;
}

enum gb_status gb_lpbm_spec_load(const char *path, struct gb_lpbm_spec **out)
{
    json_error_t err;
    enum gb_status st = GB_OK;
    struct gb_lpbm_spec *s = calloc(1, sizeof *s);
    json_t *root = NULL, *benches;
    *out = NULL;
    if (!s)
        return gb_error_set(GB_ERR_NOMEM, "out of memory");
    snprintf(s->path, sizeof s->path, "%s", path);
    const char *slash = strrchr(path, '/');
    snprintf(s->dir, sizeof s->dir, "%.*s", slash ? (int)(slash - path) : 1, slash ? path : ".");
    if (!(root = json_load_file(path, 0, &err))) {
        st = gb_error_set(access(path, R_OK) ? GB_ERR_IO : GB_ERR_FORMAT, "%s: %s", path, err.text);
        goto out;
    }
    if ((st = str_field(root, "suite", path, s->suite, sizeof s->suite, 1)) ||
        (st = read_source(root, s)))
        goto out;
    benches = json_object_get(root, "benches");
    if (!json_is_array(benches) || !json_array_size(benches)) {
        st = gb_error_set(GB_ERR_FORMAT, "%s: no \"benches\" list", path);
        goto out;
    }
    s->n = json_array_size(benches);
    if (!(s->b = calloc(s->n, sizeof *s->b))) {
        st = gb_error_set(GB_ERR_NOMEM, "out of memory");
        goto out;
    }
    for (size_t i = 0; i < s->n && st == GB_OK; i++)
        if ((st = read_bench(json_array_get(benches, i), i, &s->b[i])) != GB_OK)
            gb_error_set(st, "%s: %s", path, gb_error_message());
out:
    json_decref(root);
    if (st != GB_OK)
        gb_lpbm_spec_free(s);
    else
        *out = s;
    return st;
}

void gb_lpbm_spec_free(struct gb_lpbm_spec *s)
{
    if (s)
        free(s->b);
    free(s);
}

const char *gb_lpbm_spec_suite(const struct gb_lpbm_spec *s)
{
    return s->suite;
}

size_t gb_lpbm_spec_n_benches(const struct gb_lpbm_spec *s)
{
    return s->n;
}

const char *gb_lpbm_spec_bench(const struct gb_lpbm_spec *s, size_t i)
{
    return i < s->n ? s->b[i].name : NULL;
}

/* ---- where the spec is ---- */

static int readable(const char *p)
{
    return access(p, R_OK) == 0;
}

static int from_glob(const char *pattern, char *path, size_t n)
{
    glob_t g;
    int found = 0;
    if (glob(pattern, 0, NULL, &g) == 0 && g.gl_pathc > 0) {
        snprintf(path, n, "%s", g.gl_pathv[0]);
        found = 1;
    }
    globfree(&g);
    return found;
}

/* The first argument of the command line that ends in ".json". */
static int from_command_line(const struct gb_run *run, char *path, size_t n)
{
    char cl[1024], cand[2 * GB_LPBM_PATH + 64];
    snprintf(cl, sizeof cl, "%s", run->info.command_line);
    for (char *save = NULL, *t = strtok_r(cl, " ", &save); t; t = strtok_r(NULL, " ", &save)) {
        size_t len = strlen(t);
        if (len < 6 || strcmp(t + len - 5, ".json") != 0)
            continue;
        if (readable(t)) {
            snprintf(path, n, "%s", t);
            return 1;
        }
        static const char *const ups[] = {"/..", "/../..", "/../../.."};
        for (size_t i = 0; i < 3; i++) {
            snprintf(cand, sizeof cand, "%s%s/%s", run->dir, ups[i], t);
            if (readable(cand)) {
                snprintf(path, n, "%s", cand);
                return 1;
            }
        }
    }
    return 0;
}

enum gb_status gb_lpbm_spec_locate(const struct gb_run *run, const char *override, char *path,
                                   size_t n)
{
    char cand[2 * GB_LPBM_PATH + 64];
    if (override) {
        snprintf(path, n, "%s", override);
        return readable(path) ? GB_OK
                              : gb_error_set(GB_ERR_IO, "cannot read the spec %s", override);
    }
    static const char *const inside[] = {"spec.json", "spec/spec.json"};
    for (size_t i = 0; i < 2; i++) {
        snprintf(cand, sizeof cand, "%s/%s", run->dir, inside[i]);
        if (readable(cand)) {
            snprintf(path, n, "%s", cand);
            return GB_OK;
        }
    }
    snprintf(cand, sizeof cand, "%s/spec/*.json", run->dir);
    if (from_glob(cand, path, n) || from_command_line(run, path, n))
        return GB_OK;
    /* The copy run keeps (spec/<suite>/spec.json): what the run measured,
     * used when the source tree's spec is not where the command line said. */
    snprintf(cand, sizeof cand, "%s/spec/*/spec.json", run->dir);
    if (from_glob(cand, path, n))
        return GB_OK;
    return gb_error_set(GB_ERR_FORMAT, "%s holds no kernel spec (looked for spec.json, spec/*.json, "
                        "a .json on its command line '%s' and spec/*/spec.json)", run->dir,
                        run->info.command_line);
}
