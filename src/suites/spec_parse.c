/* spec_parse.c - reading a kernel spec file and checking every field.
 *
 * The first problem found stops the load with one line: the file, the
 * field's path ("benches[0].grid[1]") and why. Unknown fields are refused
 * (a misspelt field would otherwise be silently ignored); fields whose name
 * starts with '_' are comments and are skipped.
 */
#include <ctype.h>
#include <errno.h>
#include <jansson.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "suites/spec_internal.h"
#include "util/text.h"

#define GB_SPEC_MAX_FILE (16L << 20)   /* a spec or source file */
#define GB_AXIS_LIMIT (1L << 52)       /* axis values are exact as doubles */

/* The most expression parts (gb_expr_size) one spec may hold: each costs
 * about 12 KiB and some microseconds to make, and a spec of many long
 * expressions is refused at once instead of taking seconds and gigabytes. */
#define GB_SPEC_MAX_PARTS 8192

/* Where in the spec the parser is: the file and the field's path; and the
 * expression parts made so far (shared by every context of one load). */
struct gb_sp {
    const char *file;
    char at[256];
    long *parts;
};

static enum gb_status gb_sp_fail(const struct gb_sp *c, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static enum gb_status gb_sp_fail(const struct gb_sp *c, const char *fmt, ...)
{
    /* Formatted whole: gb_error_set shortens a long message in its middle,
     * keeping the reason at its end. */
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(NULL, 0, fmt, ap);
    va_end(ap);
    char *msg = n >= 0 ? malloc((size_t)n + 1) : NULL;
    if (msg) {
        va_start(ap, fmt);
        vsnprintf(msg, (size_t)n + 1, fmt, ap);
        va_end(ap);
    }
    enum gb_status st = gb_error_set(GB_ERR_USAGE, "%s: %s%s%s", c->file, c->at, c->at[0] ? ": " : "",
                                     msg ? msg : "out of host memory describing the error");
    free(msg);
    return st;
}

/* A child context: the path of field `key` (or of element `idx` when key is NULL). */
static struct gb_sp gb_sp_sub(const struct gb_sp *c, const char *key, int idx)
{
    struct gb_sp s = *c;
    char tmp[320];
    if (key)
        snprintf(tmp, sizeof tmp, "%.200s%s%.60s", c->at, c->at[0] ? "." : "", key);
    else
        snprintf(tmp, sizeof tmp, "%.200s[%d]", c->at, idx);
    snprintf(s.at, sizeof s.at, "%.255s", tmp);
    return s;
}

static const char *gb_json_kind(const json_t *v)
{
    switch (json_typeof(v)) {
    case JSON_OBJECT: return "an object";
    case JSON_ARRAY: return "an array";
    case JSON_STRING: return "a string";
    case JSON_INTEGER:
    case JSON_REAL: return "a number";
    case JSON_TRUE:
    case JSON_FALSE: return "a boolean";
    case JSON_NULL: return "null";
    }
    return "?";
}

/* Refuses fields of `o` not in `known` (NULL-terminated). */
static enum gb_status gb_sp_known(const struct gb_sp *c, json_t *o, const char *const *known)
{
    const char *k;
    json_t *v;
    json_object_foreach(o, k, v) {
        int ok = k[0] == '_';
        for (int i = 0; known[i] && !ok; i++)
            ok = strcmp(k, known[i]) == 0;
        if (!ok) {
            char list[256] = "";
            for (int i = 0; known[i]; i++)
                snprintf(list + strlen(list), sizeof list - strlen(list), "%s%s", i ? ", " : "", known[i]);
            return gb_sp_fail(c, "unknown field \"%s\" (known: %s)", k, list);
        }
    }
    return GB_OK;
}

/* A required (or optional: *out NULL when absent) string field. */
static enum gb_status gb_sp_string(const struct gb_sp *c, json_t *o, const char *key, int required, const char **out)
{
    json_t *v = json_object_get(o, key);
    struct gb_sp s = gb_sp_sub(c, key, 0);
    *out = NULL;
    if (!v)
        return required ? gb_sp_fail(c, "the field \"%s\" is missing", key) : GB_OK;
    if (!json_is_string(v))
        return gb_sp_fail(&s, "must be a string, not %s", gb_json_kind(v));
    *out = json_string_value(v);
    return GB_OK;
}

static int gb_is_ident(const char *s)
{
    if (!s[0] || !(isalpha((unsigned char)s[0]) || s[0] == '_'))
        return 0;
    for (const char *p = s; *p; p++)
        if (!isalnum((unsigned char)*p) && *p != '_')
            return 0;
    return 1;
}

/* A name of the expression language: an identifier, not reserved, short. */
static enum gb_status gb_sp_name(const struct gb_sp *c, const char *name)
{
    if (!gb_is_ident(name))
        return gb_sp_fail(c, "\"%s\" is not a name (letters, digits and '_', not starting with a digit)", name);
    if (strlen(name) > 31)
        return gb_sp_fail(c, "\"%s\" is longer than 31 characters", name);
    if (gb_expr_reserved(name))
        return gb_sp_fail(c, "\"%s\" is a function or constant of the expressions; choose another name", name);
    return GB_OK;
}

/* `text` for a message: at most 60 characters (then "..."), so that the
 * reason after it is never cut; control characters are kept for the error
 * layer to escape (gb_error_set writes a newline as \n), so the message
 * stays one line and shows what the value holds. */
static const char *gb_sp_quote(const char *text, char *buf, size_t n)
{
    size_t k = 0, len = strlen(text), show = len > 60 ? 57 : len;
    for (; k < show && k + 4 < n; k++)
        buf[k] = text[k];
    if (show < len && k + 4 <= n)
        memcpy(buf + k, "...", 3), k += 3;
    buf[k] = '\0';
    return buf;
}

/* An expression field: a string or a number; *out NULL when absent and optional. */
static enum gb_status gb_sp_expr_v(const struct gb_sp *c, json_t *v, const char *const *names, int n_names,
                                   struct gb_expr **out)
{
    char num[64];
    const char *text;
    *out = NULL;
    if (json_is_integer(v)) {
        snprintf(num, sizeof num, "%lld", (long long)json_integer_value(v));
        text = num;
    } else if (json_is_real(v)) {
        snprintf(num, sizeof num, "%.17g", json_real_value(v));
        text = num;
    } else if (json_is_string(v)) {
        text = json_string_value(v);
    } else {
        return gb_sp_fail(c, "must be an expression (a string or a number), not %s", gb_json_kind(v));
    }
    if (gb_expr_parse(text, names, n_names, out) != GB_OK) {
        if (*out == NULL && strstr(gb_error_message(), "out of host memory"))
            return GB_ERR_NOMEM;
        char why[512], q[64];
        snprintf(why, sizeof why, "%s", gb_error_message());
        return gb_sp_fail(c, "\"%s\": %s", gb_sp_quote(text, q, sizeof q), why);
    }
    if (c->parts && (*c->parts += gb_expr_size(*out)) > GB_SPEC_MAX_PARTS)
        return gb_sp_fail(c, "the spec's expressions make more than %d parts (comparisons, calls and the "
                          "arithmetic between them); split the spec", GB_SPEC_MAX_PARTS);
    return GB_OK;
}

static enum gb_status gb_sp_expr(const struct gb_sp *c, json_t *o, const char *key, int required,
                                 const char *const *names, int n_names, struct gb_expr **out)
{
    json_t *v = json_object_get(o, key);
    struct gb_sp s = gb_sp_sub(c, key, 0);
    *out = NULL;
    if (!v)
        return required ? gb_sp_fail(c, "the field \"%s\" is missing", key) : GB_OK;
    return gb_sp_expr_v(&s, v, names, n_names, out);
}

/* A number field within [lo, hi]; `def` when absent. */
static enum gb_status gb_sp_number(const struct gb_sp *c, json_t *o, const char *key, double lo, double hi,
                                   double def, double *out)
{
    json_t *v = json_object_get(o, key);
    struct gb_sp s = gb_sp_sub(c, key, 0);
    *out = def;
    if (!v)
        return GB_OK;
    if (!json_is_number(v))
        return gb_sp_fail(&s, "must be a number, not %s", gb_json_kind(v));
    double x = json_number_value(v);
    if (!(x >= lo && x <= hi))
        return gb_sp_fail(&s, "%g is out of range (%g to %g)", x, lo, hi);
    *out = x;
    return GB_OK;
}

/* ---- files ---- */

static char *gb_path_join(const char *dir, const char *name)
{
    size_t n = strlen(dir) + strlen(name) + 2;
    char *p = malloc(n);
    if (p)
        snprintf(p, n, "%s%s%s", name[0] == '/' ? "" : dir, name[0] == '/' || !dir[0] ? "" : "/", name);
    return p;
}

/* Reads a whole text file (at most GB_SPEC_MAX_FILE bytes, no NUL bytes). */
static enum gb_status gb_sp_read(const struct gb_sp *c, const char *path, const char *shown, char **out)
{
    struct stat sb;
    FILE *f = NULL;
    char *buf = NULL;
    enum gb_status st = GB_OK;
    *out = NULL;
    errno = 0;
    if (stat(path, &sb) != 0 || !S_ISREG(sb.st_mode) || !(f = fopen(path, "rb")))
        return gb_sp_fail(c, "cannot read \"%s\": %s", shown, errno ? strerror(errno) : "not a regular file");
    if (sb.st_size > GB_SPEC_MAX_FILE) {
        st = gb_sp_fail(c, "\"%s\" is larger than %ld MiB", shown, GB_SPEC_MAX_FILE >> 20);
        goto out;
    }
    if (!(buf = malloc((size_t)sb.st_size + 1))) {
        st = gb_error_set(GB_ERR_NOMEM, "out of host memory");
        goto out;
    }
    size_t n = fread(buf, 1, (size_t)sb.st_size, f);
    buf[n] = '\0';
    if (ferror(f) || strlen(buf) != n) {
        st = gb_sp_fail(c, "cannot read \"%s\" as text", shown);
        goto out;
    }
    *out = buf;
    buf = NULL;
out:
    free(buf);
    fclose(f);
    return st;
}

/* Whether `name` is a relative path without a ".." component. */
static int gb_sp_relative(const char *name)
{
    size_t nl = strlen(name);
    return name[0] && name[0] != '/' && strcmp(name, "..") && strncmp(name, "../", 3) && !strstr(name, "/../") &&
           !(nl >= 3 && !strcmp(name + nl - 3, "/.."));
}

/* The rule of every file a spec names (sources, init and reference files):
 * a relative path without "..", which resolves (symbolic links followed) to
 * a regular file inside the spec's directory. Nothing is opened: a FIFO or
 * a device is refused by its type. *path: the name joined to the spec's
 * directory; *real (when not NULL): the resolved path; *size: its size. */
static enum gb_status gb_sp_inside(const struct gb_sp *c, const struct gb_spec *spec, const char *name, char **path,
                                   char **real, long long *size)
{
    struct stat sb;
    enum gb_status st = GB_OK;
    char *rd = NULL, *rf = NULL;
    if (!gb_sp_relative(name))
        return gb_sp_fail(c, "\"%s\" is not a file inside the spec's directory (a relative path without \"..\")",
                          name);
    if (!(*path = gb_path_join(spec->dir, name)))
        return gb_error_set(GB_ERR_NOMEM, "out of host memory");
    errno = 0;
    if (!(rd = realpath(spec->dir, NULL)) || !(rf = realpath(*path, NULL)) || stat(rf, &sb) != 0) {
        st = gb_sp_fail(c, "cannot read \"%s\": %s", name, strerror(errno ? errno : ENOENT));
        goto out;
    }
    size_t dl = strlen(rd);
    if (strcmp(rf, rd) == 0) { /* ".", "./": no link, the directory itself */
        st = gb_sp_fail(c, "\"%s\" is the spec's directory itself, not a file: name a file inside it", name);
        goto out;
    }
    if (strncmp(rf, rd, dl) != 0 || (rf[dl] != '/' && strcmp(rd, "/") != 0)) {
        st = gb_sp_fail(c, "\"%s\" leads outside the spec's directory (to %s through a symbolic link); copy the "
                        "file into it", name, rf);
        goto out;
    }
    if (!S_ISREG(sb.st_mode)) {
        st = gb_sp_fail(c, "cannot read \"%s\": %s", name, S_ISDIR(sb.st_mode) ? "it is a directory"
                        : "not a regular file (a FIFO, device or socket is not read)");
        goto out;
    }
    *size = (long long)sb.st_size;
    if (real) {
        *real = rf;
        rf = NULL;
    }
out:
    free(rd);
    free(rf);
    return st;
}

/* The index of source `name` in the spec, reading it when new. */
static enum gb_status gb_sp_source(const struct gb_sp *c, struct gb_spec *spec, const char *name, int *idx)
{
    for (int i = 0; i < spec->n_sources; i++)
        if (strcmp(spec->sources[i].name, name) == 0) {
            *idx = i;
            return GB_OK;
        }
    if (spec->n_sources == GB_SPEC_MAX_SOURCES)
        return gb_sp_fail(c, "more than %d source files", GB_SPEC_MAX_SOURCES);
    struct gb_spec_source *s = &spec->sources[spec->n_sources];
    long long size;
    enum gb_status st;
    if (!(s->name = strdup(name)))
        return gb_error_set(GB_ERR_NOMEM, "out of host memory");
    spec->n_sources++;
    *idx = spec->n_sources - 1;
    if ((st = gb_sp_inside(c, spec, name, &s->path, NULL, &size)) != GB_OK)
        return st;
    return gb_sp_read(c, s->path, name, &s->text);
}

static enum gb_status gb_sp_sources(const struct gb_sp *c, json_t *root, struct gb_spec *spec)
{
    json_t *v = json_object_get(root, "source");
    struct gb_sp s = gb_sp_sub(c, "source", 0);
    enum gb_status st = GB_OK;
    int idx;
    if (!v)
        return gb_sp_fail(c, "the field \"source\" is missing (the kernel's .cu file)");
    if (json_is_string(v))
        return gb_sp_source(&s, spec, json_string_value(v), &idx);
    if (!json_is_array(v) || json_array_size(v) == 0)
        return gb_sp_fail(&s, "must be a file name or a non-empty list of them, not %s", gb_json_kind(v));
    for (size_t i = 0; i < json_array_size(v) && st == GB_OK; i++) {
        struct gb_sp e = gb_sp_sub(&s, NULL, (int)i);
        json_t *f = json_array_get(v, i);
        if (!json_is_string(f))
            return gb_sp_fail(&e, "must be a file name, not %s", gb_json_kind(f));
        st = gb_sp_source(&e, spec, json_string_value(f), &idx);
        if (st == GB_OK && idx != (int)i)
            st = gb_sp_fail(&e, "\"%s\" is listed twice", json_string_value(f));
    }
    return st;
}

/* A data file (init, reference) by the rule of gb_sp_inside; *out its
 * resolved path, *size its size (each point's needs are checked against it
 * before the run, spec_point.c); read when it is used. */
static enum gb_status gb_sp_data_file(const struct gb_sp *c, const struct gb_spec *spec, const char *name, char **out,
                                      long long *size)
{
    char *joined = NULL;
    enum gb_status st = gb_sp_inside(c, spec, name, &joined, out, size);
    free(joined);
    return st;
}

/* ---- the spec ---- */

static enum gb_status gb_sp_suite_name(const struct gb_sp *c, json_t *root, struct gb_spec *spec)
{
    const char *name, *help;
    enum gb_status st;
    struct gb_sp s = gb_sp_sub(c, "suite", 0);
    if ((st = gb_sp_string(c, root, "suite", 1, &name)) != GB_OK ||
        (st = gb_sp_string(c, root, "help", 0, &help)) != GB_OK)
        return st;
    size_t n = strlen(name);
    if (n == 0 || n > 31 || strspn(name, "abcdefghijklmnopqrstuvwxyz0123456789_-") != n)
        return gb_sp_fail(&s, "\"%s\" is not a suite name (1 to 31 of a-z, 0-9, '_', '-')", name);
    if (!(spec->suite = strdup(name)))
        return gb_error_set(GB_ERR_NOMEM, "out of host memory");
    if (help)
        spec->help = strdup(help);
    else if ((spec->help = malloc(strlen(spec->file) + 32)))
        sprintf(spec->help, "kernel spec %s", spec->file);
    return spec->help ? GB_OK : gb_error_set(GB_ERR_NOMEM, "out of host memory");
}

static enum gb_status gb_spec_bench_parse(const struct gb_sp *c, json_t *o, struct gb_spec *spec,
                                          struct gb_spec_bench *b);

static enum gb_status gb_sp_benches(const struct gb_sp *c, json_t *root, struct gb_spec *spec)
{
    json_t *v = json_object_get(root, "benches");
    struct gb_sp s = gb_sp_sub(c, "benches", 0);
    enum gb_status st = GB_OK;
    if (!v)
        return gb_sp_fail(c, "the field \"benches\" is missing");
    if (!json_is_array(v) || json_array_size(v) == 0 || json_array_size(v) > 64)
        return gb_sp_fail(&s, "must be a list of 1 to 64 benches, not %s", gb_json_kind(v));
    if (!(spec->benches = calloc(json_array_size(v), sizeof *spec->benches)))
        return gb_error_set(GB_ERR_NOMEM, "out of host memory");
    for (size_t i = 0; i < json_array_size(v) && st == GB_OK; i++) {
        struct gb_sp e = gb_sp_sub(&s, NULL, (int)i);
        json_t *bo = json_array_get(v, i);
        spec->n_benches++;
        spec->benches[i].spec = spec;
        spec->benches[i].index = (int)i;
        if (!json_is_object(bo))
            return gb_sp_fail(&e, "must be an object, not %s", gb_json_kind(bo));
        st = gb_spec_bench_parse(&e, bo, spec, &spec->benches[i]);
        for (size_t k = 0; k < i && st == GB_OK; k++)
            if (strcmp(spec->benches[k].name, spec->benches[i].name) == 0)
                st = gb_sp_fail(&e, "a second bench named \"%s\"", spec->benches[i].name);
    }
    return st;
}

static char *gb_dir_of(const char *path)
{
    const char *slash = strrchr(path, '/');
    if (!slash)
        return strdup(".");
    if (slash == path)
        return strdup("/");
    return strndup(path, (size_t)(slash - path));
}

enum gb_status gb_spec_load(const char *path, struct gb_spec **out)
{
    static const char *const known[] = {"suite", "help", "source", "benches", NULL};
    long parts = 0;
    struct gb_sp c = {.file = path, .at = "", .parts = &parts};
    enum gb_status st;
    json_t *root = NULL;
    char *text = NULL;
    json_error_t jerr;
    struct gb_spec *spec = calloc(1, sizeof *spec);
    *out = NULL;
    if (!spec || !(spec->file = strdup(path)) || !(spec->dir = gb_dir_of(path))) {
        st = gb_error_set(GB_ERR_NOMEM, "out of host memory");
        goto out;
    }
    if ((st = gb_sp_read(&c, path, path, &text)) != GB_OK) {
        /* "x.json: cannot read "x.json"" says the file twice. */
        st = gb_error_set(GB_ERR_USAGE, "%s: cannot read the spec file: %s", path,
                          errno ? strerror(errno) : "not a regular text file");
        goto out;
    }
    if (!(root = json_loads(text, JSON_REJECT_DUPLICATES, &jerr))) {
        st = gb_error_set(GB_ERR_USAGE, "%s: line %d, column %d: not JSON: %s", path, jerr.line, jerr.column,
                          jerr.text);
        goto out;
    }
    if (!json_is_object(root)) {
        st = gb_sp_fail(&c, "the spec must be a JSON object, not %s", gb_json_kind(root));
        goto out;
    }
    if ((st = gb_sp_known(&c, root, known)) != GB_OK || (st = gb_sp_suite_name(&c, root, spec)) != GB_OK ||
        (st = gb_sp_sources(&c, root, spec)) != GB_OK || (st = gb_sp_benches(&c, root, spec)) != GB_OK)
        goto out;
    spec->text = text;
    text = NULL;
    *out = spec;
    spec = NULL;
out:
    json_decref(root);
    free(text);
    gb_spec_free(spec);
    return st;
}

const char *gb_spec_name(const struct gb_spec *s)
{
    return s->suite;
}

const char *gb_spec_file(const struct gb_spec *s)
{
    return s->file;
}

/* ---- the benches as text ---- */

int gb_spec_n_benches(const struct gb_spec *s)
{
    return s->n_benches;
}

static const char *gb_text_of(const struct gb_expr *e)
{
    return e ? gb_expr_text(e) : "";
}

void gb_spec_bench_text(const struct gb_spec *s, int i, struct gb_spec_bench_text *out)
{
    const struct gb_spec_bench *b = &s->benches[i];
    memset(out, 0, sizeof *out);
    out->name = b->name;
    out->kernel = b->launch.kernel.text;
    out->source = s->sources[b->launch.source].path;
    out->n_axes = b->n_axes;
    for (int a = 0; a < b->n_axes; a++)
        out->axes[a] = b->axes[a].name;
    out->problem_mask = b->problem_mask;
    out->n_defines = b->n_defines;
    for (int k = 0; k < b->n_defines; k++) {
        out->define_names[k] = b->defines[k].name;
        out->define_exprs[k] = gb_text_of(b->defines[k].expr);
    }
    out->n_args = b->n_args;
    for (int k = 0; k < b->n_args; k++) {
        out->arg_names[k] = b->args[k].name;
        out->arg_values[k] = b->args[k].scalar ? gb_text_of(b->args[k].value) : NULL;
        out->arg_counts[k] = b->args[k].scalar ? NULL : gb_text_of(b->args[k].count);
        out->arg_elem_bytes[k] = b->args[k].scalar ? 0 : (int)gb_spec_type_size(b->args[k].type);
    }
    for (int d = 0; d < 3; d++) {
        out->block[d] = gb_text_of(b->launch.block[d]);
        out->grid[d] = gb_text_of(b->launch.grid[d]);
    }
    out->bytes = gb_text_of(b->bytes);
    out->flops = gb_text_of(b->flops);
    for (int k = 0; k < GB_SPEC_LPBM_FIELDS; k++)
        out->lpbm[k] = b->lpbm[k] ? b->lpbm[k] : "";
}

/* ---- kernel names ---- */

void gb_spec_name_release(struct gb_spec_name *nm)
{
    for (int i = 0; i <= nm->n_parts && nm->lit; i++)
        free(nm->lit[i]);
    for (int i = 0; i < nm->n_parts && nm->part; i++)
        gb_expr_free(nm->part[i]);
    free(nm->lit);
    free(nm->part);
    free(nm->text);
    memset(nm, 0, sizeof *nm);
}

enum gb_status gb_spec_name_parse(const char *text, const char *const *names, int n_names, struct gb_spec_name *out)
{
    int n = 0;
    enum gb_status st = GB_OK;
    memset(out, 0, sizeof *out);
    for (const char *p = text; *p; p++)
        n += *p == '{';
    if (!text[0] || strlen(text) >= GB_KERNEL_NAME_LEN)
        return gb_error_set(GB_ERR_USAGE, "a kernel name needs 1 to %d characters", GB_KERNEL_NAME_LEN - 1);
    if (!(out->text = strdup(text)) || !(out->lit = calloc((size_t)n + 1, sizeof *out->lit)) ||
        !(out->part = calloc((size_t)n + 1, sizeof *out->part)))
        return gb_error_set(GB_ERR_NOMEM, "out of host memory");
    const char *p = text;
    for (int k = 0; k <= n && st == GB_OK; k++) {
        const char *open = k < n ? strchr(p, '{') : p + strlen(p);
        const char *close = k < n ? strchr(open, '}') : NULL;
        if (k < n && (!close || memchr(open + 1, '{', (size_t)(close - open - 1))))
            return gb_error_set(GB_ERR_USAGE, "a '{' without its '}'");
        if (memchr(p, '}', (size_t)(open - p)))
            return gb_error_set(GB_ERR_USAGE, "a '}' without its '{'");
        if (!(out->lit[k] = strndup(p, (size_t)(open - p))))
            return gb_error_set(GB_ERR_NOMEM, "out of host memory");
        if (k == n)
            break;
        char *inner = strndup(open + 1, (size_t)(close - open - 1));
        if (!inner)
            return gb_error_set(GB_ERR_NOMEM, "out of host memory");
        st = gb_expr_parse(inner, names, n_names, &out->part[k]);
        out->n_parts = k + (st == GB_OK);
        free(inner);
        p = close + 1;
    }
    return st;
}

/* ---- freeing ---- */

static void gb_launch_release(struct gb_spec_launch *l)
{
    gb_spec_name_release(&l->kernel);
    for (int i = 0; i < 3; i++) {
        gb_expr_free(l->grid[i]);
        gb_expr_free(l->block[i]);
    }
    gb_expr_free(l->smem);
    gb_expr_free(l->max_smem);
    for (int i = 0; i < l->n_defines; i++) {
        free(l->defines[i].name);
        gb_expr_free(l->defines[i].expr);
    }
}

static void gb_bench_release(struct gb_spec_bench *b)
{
    free(b->name);
    free(b->help);
    for (int a = 0; a < b->n_axes; a++) {
        free((char *)b->axes[a].name);
        free((char *)b->axes[a].values);
        free((char *)b->axes[a].quick);
        free((char *)b->axes[a].help);
    }
    for (int i = 0; i < b->n_defines; i++) {
        free(b->defines[i].name);
        gb_expr_free(b->defines[i].expr);
    }
    gb_launch_release(&b->launch);
    gb_launch_release(&b->ref);
    for (int i = 0; i < b->n_restrict; i++)
        gb_expr_free(b->restrict_[i]);
    for (int i = 0; i < b->n_args; i++) {
        struct gb_spec_arg *a = &b->args[i];
        free(a->name);
        gb_expr_free(a->count);
        gb_expr_free(a->value);
        free(a->file);
        free(a->ref_file);
    }
    gb_expr_free(b->bytes);
    gb_expr_free(b->flops);
    for (int k = 0; k < GB_SPEC_LPBM_FIELDS; k++)
        free(b->lpbm[k]);
}

void gb_spec_free(struct gb_spec *s)
{
    if (!s)
        return;
    for (int i = 0; i < s->n_benches; i++)
        gb_bench_release(&s->benches[i]);
    free(s->benches);
    for (int i = 0; i < s->n_sources; i++) {
        free(s->sources[i].name);
        free(s->sources[i].path);
        free(s->sources[i].text);
    }
    free(s->file);
    free(s->text);
    free(s->dir);
    free(s->suite);
    free(s->help);
    free(s);
}

/* ---- a bench ---- */

/* An axis's values: a list of integers, or a string in gpubound's range
 * syntax ("512:2048:*2"), into a comma list checked by gb_axis_expand. */
static enum gb_status gb_sp_axis_values(const struct gb_sp *c, json_t *v, struct gb_axis_def *def, char **out)
{
    char **vals = NULL;
    int n = 0;
    *out = NULL;
    if (json_is_string(v)) {
        if (!(*out = strdup(json_string_value(v))))
            return gb_error_set(GB_ERR_NOMEM, "out of host memory");
    } else if (json_is_array(v) && json_array_size(v) > 0 && json_array_size(v) <= 4096) {
        size_t cap = json_array_size(v) * 24 + 1, len = 0;
        if (!(*out = malloc(cap)))
            return gb_error_set(GB_ERR_NOMEM, "out of host memory");
        (*out)[0] = '\0';
        for (size_t i = 0; i < json_array_size(v); i++) {
            json_t *x = json_array_get(v, i);
            struct gb_sp e = gb_sp_sub(c, NULL, (int)i);
            if (!json_is_integer(x))
                return gb_sp_fail(&e, "must be an integer, not %s", gb_json_kind(x));
            len += (size_t)snprintf(*out + len, cap - len, "%s%lld", i ? "," : "", (long long)json_integer_value(x));
        }
    } else {
        return gb_sp_fail(c, "must be a list of integers or a range such as \"512:4096:*2\", not %s",
                          json_is_array(v) ? "an empty or too long list" : gb_json_kind(v));
    }
    if (gb_axis_expand(def, *out, &vals, &n) != GB_OK) {
        char why[512];
        snprintf(why, sizeof why, "%s", gb_error_message());
        return gb_sp_fail(c, "%s", why);
    }
    for (int i = 0; i < n; i++)
        free(vals[i]);
    free(vals);
    return GB_OK;
}

static enum gb_status gb_sp_axis(const struct gb_sp *c, json_t *o, struct gb_spec_bench *b)
{
    static const char *const known[] = {"name", "values", "quick", "help", NULL};
    struct gb_axis_def *def = &b->axes[b->n_axes];
    const char *name, *help;
    enum gb_status st;
    char *s = NULL;
    if (!json_is_object(o))
        return gb_sp_fail(c, "must be an object {\"name\": ..., \"values\": ...}, not %s", gb_json_kind(o));
    if ((st = gb_sp_known(c, o, known)) != GB_OK || (st = gb_sp_string(c, o, "name", 1, &name)) != GB_OK ||
        (st = gb_sp_string(c, o, "help", 0, &help)) != GB_OK)
        return st;
    struct gb_sp sn = gb_sp_sub(c, "name", 0), sv = gb_sp_sub(c, "values", 0), sq = gb_sp_sub(c, "quick", 0);
    if ((st = gb_sp_name(&sn, name)) != GB_OK)
        return st;
    for (int a = 0; a < b->n_axes; a++)
        if (strcmp(b->axes[a].name, name) == 0)
            return gb_sp_fail(&sn, "a second axis named \"%s\"", name);
    def->kind = GB_AXIS_INT;
    def->min = -GB_AXIS_LIMIT;
    def->max = GB_AXIS_LIMIT;
    char dflt[64];
    snprintf(dflt, sizeof dflt, "-D%s", name);
    if (!(def->name = strdup(name)) || !(def->help = strdup(help ? help : dflt)))
        return gb_error_set(GB_ERR_NOMEM, "out of host memory");
    b->names[b->n_names++] = def->name;
    b->n_axes++;
    if (!json_object_get(o, "values"))
        return gb_sp_fail(c, "the field \"values\" is missing");
    if ((st = gb_sp_axis_values(&sv, json_object_get(o, "values"), def, &s)) != GB_OK) {
        free(s);
        return st;
    }
    def->values = s;
    if (json_object_get(o, "quick")) {
        if ((st = gb_sp_axis_values(&sq, json_object_get(o, "quick"), def, &s)) != GB_OK) {
            free(s);
            return st;
        }
        def->quick = s;
    }
    return GB_OK;
}

static enum gb_status gb_sp_axes(const struct gb_sp *c, json_t *o, struct gb_spec_bench *b)
{
    json_t *v = json_object_get(o, "axes");
    struct gb_sp s = gb_sp_sub(c, "axes", 0);
    enum gb_status st = GB_OK;
    if (!v)
        return gb_sp_fail(c, "the field \"axes\" is missing");
    if (!json_is_array(v) || json_array_size(v) == 0 || json_array_size(v) > GB_MAX_AXES)
        return gb_sp_fail(&s, "must be a list of 1 to %d axes, not %s", GB_MAX_AXES,
                          json_is_array(v) ? "an empty or too long list" : gb_json_kind(v));
    for (size_t i = 0; i < json_array_size(v) && st == GB_OK; i++) {
        struct gb_sp e = gb_sp_sub(&s, NULL, (int)i);
        st = gb_sp_axis(&e, json_array_get(v, i), b);
    }
    return st;
}

/* "defines": {"NAME": expression, ...}, each over the names before it. */
static enum gb_status gb_sp_defines(const struct gb_sp *c, json_t *o, const char **names, int *n_names,
                                    struct gb_spec_define *defs, int *n_defs)
{
    json_t *v = json_object_get(o, "defines"), *x;
    struct gb_sp s = gb_sp_sub(c, "defines", 0);
    const char *k;
    enum gb_status st;
    if (!v)
        return GB_OK;
    if (!json_is_object(v) || json_object_size(v) > GB_SPEC_MAX_DEFINES)
        return gb_sp_fail(&s, "must be an object of at most %d \"NAME\": expression pairs, not %s",
                          GB_SPEC_MAX_DEFINES, json_is_object(v) ? "a larger one" : gb_json_kind(v));
    json_object_foreach(v, k, x) {
        struct gb_sp e = gb_sp_sub(&s, k, 0);
        if ((st = gb_sp_name(&e, k)) != GB_OK)
            return st;
        for (int i = 0; i < *n_names; i++)
            if (strcmp(names[i], k) == 0)
                return gb_sp_fail(&e, "\"%s\" is an axis or define already", k);
        struct gb_spec_define *d = &defs[*n_defs];
        if ((st = gb_sp_expr_v(&e, x, names, *n_names, &d->expr)) != GB_OK)
            return st;
        if (!(d->name = strdup(k)))
            return gb_error_set(GB_ERR_NOMEM, "out of host memory");
        (*n_defs)++;
        names[(*n_names)++] = d->name;
    }
    return GB_OK;
}

/* "grid" / "block": 1 to 3 expressions (missing dimensions are 1). */
static enum gb_status gb_sp_dims(const struct gb_sp *c, json_t *o, const char *key, const char *const *names,
                                 int n_names, struct gb_expr *dims[3], int *given)
{
    json_t *v = json_object_get(o, key);
    struct gb_sp s = gb_sp_sub(c, key, 0);
    enum gb_status st = GB_OK;
    *given = v != NULL;
    if (!v)
        return GB_OK;
    if (!json_is_array(v) || json_array_size(v) < 1 || json_array_size(v) > 3)
        return gb_sp_fail(&s, "must be a list of 1 to 3 expressions (x, y, z), not %s",
                          json_is_array(v) ? "a list of another length" : gb_json_kind(v));
    for (size_t i = 0; i < json_array_size(v) && st == GB_OK; i++) {
        struct gb_sp e = gb_sp_sub(&s, NULL, (int)i);
        st = gb_sp_expr_v(&e, json_array_get(v, i), names, n_names, &dims[i]);
    }
    for (int i = (int)json_array_size(v); i < 3 && st == GB_OK; i++)
        st = gb_expr_parse("1", names, n_names, &dims[i]);
    return st;
}

/* The default block: the axes block_size_x/y/z where present, else 1. */
static enum gb_status gb_sp_default_block(const struct gb_spec_bench *b, struct gb_expr *dims[3])
{
    static const char *const axis[3] = {"block_size_x", "block_size_y", "block_size_z"};
    enum gb_status st = GB_OK;
    for (int d = 0; d < 3 && st == GB_OK; d++) {
        const char *text = "1";
        for (int a = 0; a < b->n_axes; a++)
            if (strcmp(b->axes[a].name, axis[d]) == 0)
                text = axis[d];
        st = gb_expr_parse(text, b->names, b->n_names, &dims[d]);
    }
    return st;
}

/* A kernel name and a check that the source defines something of its name. */
static enum gb_status gb_sp_kernel(const struct gb_sp *c, json_t *o, const struct gb_spec *spec, int source,
                                   const char *const *names, int n_names, struct gb_spec_name *out)
{
    const char *text;
    enum gb_status st;
    struct gb_sp s = gb_sp_sub(c, "kernel", 0);
    if ((st = gb_sp_string(c, o, "kernel", 1, &text)) != GB_OK)
        return st;
    if (gb_spec_name_parse(text, names, n_names, out) != GB_OK) {
        char why[512], q[64];
        snprintf(why, sizeof why, "%s", gb_error_message());
        return gb_sp_fail(&s, "\"%s\": %s", gb_sp_quote(text, q, sizeof q), why);
    }
    /* The identifier: before any template arguments, after any namespace. */
    size_t end = strcspn(text, "<({ ");
    const char *base = text;
    for (const char *p = text; p + 1 < text + end; p++)
        if (p[0] == ':' && p[1] == ':')
            base = p + 2;
    char word[GB_KERNEL_NAME_LEN];
    snprintf(word, sizeof word, "%.*s", (int)(text + end - base), base);
    if (!gb_is_ident(word))
        return gb_sp_fail(&s, "\"%s\" does not name a kernel (an identifier, optionally ns:: and <template "
                          "arguments>)", text);
    if (!gb_text_has_word(spec->sources[source].text, word))
        return gb_sp_fail(&s, "\"%s\": no kernel named %s in %s", text, word, spec->sources[source].name);
    return GB_OK;
}

static enum gb_status gb_sp_type(const struct gb_sp *c, json_t *o, enum gb_spec_type *out)
{
    const char *t;
    char names[512];
    enum gb_status st = gb_sp_string(c, o, "type", 1, &t);
    struct gb_sp s = gb_sp_sub(c, "type", 0);
    if (st != GB_OK)
        return st;
    int k = gb_spec_type_parse(t);
    if (k >= 0) {
        *out = (enum gb_spec_type)k;
        return GB_OK;
    }
    gb_spec_type_names(names, sizeof names);
    return gb_sp_fail(&s, "\"%s\" is not a type (%s)", t, names);
}

/* "init": {"random": [lo, hi]} | {"constant": v} | {"iota": [start, step]} | {"file": "in.bin"}. */
static enum gb_status gb_sp_init(const struct gb_sp *c, json_t *o, const struct gb_spec *spec, struct gb_spec_arg *a)
{
    static const char *const kinds[] = {"random", "constant", "iota", "file"};
    json_t *v = json_object_get(o, "init"), *x;
    struct gb_sp s = gb_sp_sub(c, "init", 0);
    if (!v)
        return GB_OK;
    if (!json_is_object(v) || json_object_size(v) != 1)
        return gb_sp_fail(&s, "must be one of {\"random\": [lo, hi]}, {\"constant\": v}, {\"iota\": [start, "
                          "step]}, {\"file\": \"name.bin\"}");
    const char *k = json_object_iter_key(json_object_iter(v));
    x = json_object_get(v, k);
    struct gb_sp e = gb_sp_sub(&s, k, 0);
    int kind = -1;
    for (int i = 0; i < 4; i++)
        if (strcmp(k, kinds[i]) == 0)
            kind = i;
    if (kind < 0)
        return gb_sp_fail(&s, "unknown init \"%s\" (random, constant, iota or file)", k);
    a->init = (enum gb_spec_init)(kind + 1);
    if (a->init == GB_SI_FILE)
        return json_is_string(x) ? gb_sp_data_file(&e, spec, json_string_value(x), &a->file, &a->file_size)
                                 : gb_sp_fail(&e, "must be a file name, not %s", gb_json_kind(x));
    const char *range;
    if (a->init == GB_SI_CONSTANT) {
        if (!json_is_number(x))
            return gb_sp_fail(&e, "must be a number, not %s", gb_json_kind(x));
        a->a = json_number_value(x);
        if (!gb_spec_type_holds(a->type, gb_spec_type_float(a->type) ? a->a : trunc(a->a), &range))
            return gb_sp_fail(&e, "%.10g is not %s", a->a, range);
        return GB_OK;
    }
    if (!json_is_array(x) || json_array_size(x) != 2 || !json_is_number(json_array_get(x, 0)) ||
        !json_is_number(json_array_get(x, 1)))
        return gb_sp_fail(&e, "must be a list of two numbers, [%s]", a->init == GB_SI_RANDOM ? "lo, hi" : "start, step");
    a->a = json_number_value(json_array_get(x, 0));
    a->b = json_number_value(json_array_get(x, 1));
    /* Random bounds and the iota's start are values of the buffer's type
     * (the iota's last element is checked per point, spec_point.c). */
    int fl = gb_spec_type_float(a->type);
    if (a->init == GB_SI_RANDOM && !gb_spec_type_holds(a->type, fl ? a->b : floor(a->b), &range))
        return gb_sp_fail(&e, "hi %.10g is not %s", a->b, range);
    if (!gb_spec_type_holds(a->type, fl ? a->a : a->init == GB_SI_RANDOM ? ceil(a->a) : trunc(a->a), &range))
        return gb_sp_fail(&e, "%s %.10g is not %s", a->init == GB_SI_RANDOM ? "lo" : "start", a->a, range);
    if (a->init == GB_SI_RANDOM && !(a->a <= a->b))
        return gb_sp_fail(&e, "lo (%g) must not be above hi (%g)", a->a, a->b);
    if (a->init == GB_SI_RANDOM && !gb_spec_type_float(a->type) && floor(a->a) == 0 && floor(a->b) == 0 &&
        ceil(a->a) == 0 && ceil(a->b) == 0)
        return gb_sp_fail(&e, "[0, 0] leaves no non-zero integer to draw");
    return GB_OK;
}

/* Fields a scalar argument must not have. */
static enum gb_status gb_sp_scalar_only(const struct gb_sp *c, json_t *o)
{
    static const char *const not_scalar[] = {"count", "output", "init", "rtol", "atol"};
    for (size_t i = 0; i < sizeof not_scalar / sizeof not_scalar[0]; i++)
        if (json_object_get(o, not_scalar[i]))
            return gb_sp_fail(c, "a scalar (\"value\") takes no \"%s\"; buffers have a \"count\"", not_scalar[i]);
    return GB_OK;
}

static enum gb_status gb_sp_buffer(const struct gb_sp *c, json_t *o, const struct gb_spec *spec,
                                   const struct gb_spec_bench *b, struct gb_spec_arg *a)
{
    enum gb_status st;
    json_t *out = json_object_get(o, "output");
    int fl = gb_spec_type_float(a->type);
    double rtol0, atol0;
    gb_spec_type_tolerance(a->type, &rtol0, &atol0);
    if (out && !json_is_boolean(out)) {
        struct gb_sp s = gb_sp_sub(c, "output", 0);
        return gb_sp_fail(&s, "must be true or false, not %s", gb_json_kind(out));
    }
    a->output = out && json_is_true(out);
    if ((st = gb_sp_expr(c, o, "count", 1, b->names, b->n_names, &a->count)) != GB_OK ||
        (st = gb_sp_init(c, o, spec, a)) != GB_OK ||
        (st = gb_sp_number(c, o, "rtol", 0, 1e300, rtol0, &a->rtol)) != GB_OK ||
        (st = gb_sp_number(c, o, "atol", 0, 1e300, atol0, &a->atol)) != GB_OK)
        return st;
    if (!a->output && (json_object_get(o, "rtol") || json_object_get(o, "atol")))
        return gb_sp_fail(c, "rtol and atol belong to outputs (\"output\": true)");
    if (!a->output && a->init == GB_SI_NONE) {
        /* Inputs get fresh non-zero values by default. */
        a->init = GB_SI_RANDOM;
        a->a = fl ? -1 : 1;
        a->b = fl ? 1 : 100;
    }
    return GB_OK;
}

static enum gb_status gb_sp_arg(const struct gb_sp *c, json_t *o, const struct gb_spec *spec, struct gb_spec_bench *b)
{
    static const char *const known[] = {"name", "type", "count", "value", "output", "rtol", "atol", "init", NULL};
    struct gb_spec_arg *a = &b->args[b->n_args];
    const char *name;
    enum gb_status st;
    if (!json_is_object(o))
        return gb_sp_fail(c, "must be an object {\"name\", \"type\", \"count\" or \"value\", ...}, not %s",
                          gb_json_kind(o));
    if ((st = gb_sp_known(c, o, known)) != GB_OK || (st = gb_sp_string(c, o, "name", 1, &name)) != GB_OK)
        return st;
    struct gb_sp sn = gb_sp_sub(c, "name", 0);
    if (!gb_is_ident(name) || strlen(name) > 31)
        return gb_sp_fail(&sn, "\"%s\" is not a name (an identifier of at most 31 characters)", name);
    for (int i = 0; i < b->n_args; i++)
        if (strcmp(b->args[i].name, name) == 0)
            return gb_sp_fail(&sn, "a second argument named \"%s\"", name);
    if (!(a->name = strdup(name)))
        return gb_error_set(GB_ERR_NOMEM, "out of host memory");
    b->n_args++;
    if ((st = gb_sp_type(c, o, &a->type)) != GB_OK)
        return st;
    int has_count = json_object_get(o, "count") != NULL, has_value = json_object_get(o, "value") != NULL;
    if (has_count == has_value)
        return gb_sp_fail(c, "give \"count\" (a buffer of that many elements) or \"value\" (a scalar), not %s",
                          has_count ? "both" : "neither");
    if (has_value) {
        a->scalar = 1;
        if ((st = gb_sp_scalar_only(c, o)) != GB_OK)
            return st;
        return gb_sp_expr(c, o, "value", 1, b->names, b->n_names, &a->value);
    }
    return gb_sp_buffer(c, o, spec, b, a);
}

static enum gb_status gb_sp_args(const struct gb_sp *c, json_t *o, const struct gb_spec *spec, struct gb_spec_bench *b)
{
    json_t *v = json_object_get(o, "args");
    struct gb_sp s = gb_sp_sub(c, "args", 0);
    enum gb_status st = GB_OK;
    int outputs = 0;
    if (!v)
        return gb_sp_fail(c, "the field \"args\" is missing (the kernel's arguments, in order)");
    if (!json_is_array(v) || json_array_size(v) == 0 || json_array_size(v) > GB_SPEC_MAX_ARGS)
        return gb_sp_fail(&s, "must be a list of 1 to %d arguments, not %s", GB_SPEC_MAX_ARGS,
                          json_is_array(v) ? "an empty or too long list" : gb_json_kind(v));
    for (size_t i = 0; i < json_array_size(v) && st == GB_OK; i++) {
        struct gb_sp e = gb_sp_sub(&s, NULL, (int)i);
        st = gb_sp_arg(&e, json_array_get(v, i), spec, b);
    }
    for (int i = 0; i < b->n_args; i++)
        outputs += b->args[i].output;
    if (st == GB_OK && outputs == 0)
        st = gb_sp_fail(&s, "no argument is an output (\"output\": true): there is nothing to verify");
    return st;
}

/* "restrictions": a list of conditions. */
static enum gb_status gb_sp_restrictions(const struct gb_sp *c, json_t *o, struct gb_spec_bench *b)
{
    json_t *v = json_object_get(o, "restrictions");
    struct gb_sp s = gb_sp_sub(c, "restrictions", 0);
    enum gb_status st = GB_OK;
    if (!v)
        return GB_OK;
    if (!json_is_array(v) || json_array_size(v) > GB_SPEC_MAX_RESTRICT)
        return gb_sp_fail(&s, "must be a list of at most %d conditions, not %s", GB_SPEC_MAX_RESTRICT,
                          json_is_array(v) ? "a longer one" : gb_json_kind(v));
    for (size_t i = 0; i < json_array_size(v) && st == GB_OK; i++) {
        struct gb_sp e = gb_sp_sub(&s, NULL, (int)i);
        json_t *x = json_array_get(v, i);
        if (!json_is_string(x))
            return gb_sp_fail(&e, "must be a condition such as \"block_size_x * block_size_y <= 1024\", not %s",
                              gb_json_kind(x));
        st = gb_sp_expr_v(&e, x, b->names, b->n_names, &b->restrict_[b->n_restrict]);
        b->n_restrict += st == GB_OK;
    }
    return st;
}

/* "problem_axes": axis names; default every axis not named block_size_*. */
static enum gb_status gb_sp_problem(const struct gb_sp *c, json_t *o, struct gb_spec_bench *b)
{
    json_t *v = json_object_get(o, "problem_axes");
    struct gb_sp s = gb_sp_sub(c, "problem_axes", 0);
    b->problem_mask = 0;
    if (!v) {
        for (int a = 0; a < b->n_axes; a++)
            if (strncmp(b->axes[a].name, "block_size_", 11) != 0)
                b->problem_mask |= 1u << a;
        return GB_OK;
    }
    if (!json_is_array(v))
        return gb_sp_fail(&s, "must be a list of axis names, not %s", gb_json_kind(v));
    for (size_t i = 0; i < json_array_size(v); i++) {
        struct gb_sp e = gb_sp_sub(&s, NULL, (int)i);
        json_t *x = json_array_get(v, i);
        int found = -1;
        for (int a = 0; a < b->n_axes && json_is_string(x); a++)
            if (strcmp(b->axes[a].name, json_string_value(x)) == 0)
                found = a;
        if (found < 0)
            return json_is_string(x) ? gb_sp_fail(&e, "\"%s\" is not an axis of the bench", json_string_value(x))
                                     : gb_sp_fail(&e, "must be an axis name, not %s", gb_json_kind(x));
        b->problem_mask |= 1u << found;
    }
    return GB_OK;
}

/* The launch fields shared by a bench and its reference kernel. */
static enum gb_status gb_sp_launch(const struct gb_sp *c, json_t *o, const struct gb_spec *spec,
                                   const char *const *names, int n_names, struct gb_spec_launch *l, int *grid_given,
                                   int *block_given)
{
    enum gb_status st;
    if ((st = gb_sp_kernel(c, o, spec, l->source, names, n_names, &l->kernel)) != GB_OK ||
        (st = gb_sp_dims(c, o, "grid", names, n_names, l->grid, grid_given)) != GB_OK ||
        (st = gb_sp_dims(c, o, "block", names, n_names, l->block, block_given)) != GB_OK ||
        (st = gb_sp_expr(c, o, "dynamic_smem", 0, names, n_names, &l->smem)) != GB_OK)
        return st;
    return gb_sp_expr(c, o, "max_dynamic_smem", 0, names, n_names, &l->max_smem);
}

/* The reference kernel's launch: its own fields, else the bench's. */
static enum gb_status gb_sp_ref_kernel(const struct gb_sp *c, json_t *r, struct gb_spec *spec, struct gb_spec_bench *b)
{
    static const char *const known[] = {"kernel", "block", "grid", "dynamic_smem", "max_dynamic_smem", "source",
                                        "defines", NULL};
    const char *src;
    int gg, bg;
    enum gb_status st;
    struct gb_spec_launch *l = &b->ref;
    struct gb_sp ss = gb_sp_sub(c, "source", 0);
    if ((st = gb_sp_known(c, r, known)) != GB_OK || (st = gb_sp_string(c, r, "source", 0, &src)) != GB_OK)
        return st;
    if (src && (st = gb_sp_source(&ss, spec, src, &l->source)) != GB_OK)
        return st;
    for (int i = 0; i < b->n_names; i++)
        b->ref_names[b->n_ref_names++] = b->names[i];
    if ((st = gb_sp_defines(c, r, b->ref_names, &b->n_ref_names, l->defines, &l->n_defines)) != GB_OK ||
        (st = gb_sp_launch(c, r, spec, b->ref_names, b->n_ref_names, l, &gg, &bg)) != GB_OK)
        return st;
    /* What the reference leaves out is the bench's own (same text, the reference's scope). */
    for (int d = 0; d < 3 && st == GB_OK; d++) {
        if (!gg)
            st = gb_expr_parse(gb_expr_text(b->launch.grid[d]), b->ref_names, b->n_ref_names, &l->grid[d]);
        if (!bg && st == GB_OK)
            st = gb_expr_parse(gb_expr_text(b->launch.block[d]), b->ref_names, b->n_ref_names, &l->block[d]);
    }
    if (st == GB_OK && !l->smem && b->launch.smem)
        st = gb_expr_parse(gb_expr_text(b->launch.smem), b->ref_names, b->n_ref_names, &l->smem);
    return st;
}

/* "reference": "first" | {"kernel": ...} | {"files": {"OUT": "file.bin"}}. */
static enum gb_status gb_sp_reference(const struct gb_sp *c, json_t *o, struct gb_spec *spec, struct gb_spec_bench *b)
{
    json_t *r = json_object_get(o, "reference"), *files, *x;
    struct gb_sp s = gb_sp_sub(c, "reference", 0);
    const char *k;
    enum gb_status st;
    b->ref_kind = GB_SR_FIRST;
    if (!r || (json_is_string(r) && strcmp(json_string_value(r), "first") == 0))
        return GB_OK;
    if (!json_is_object(r) || (!json_object_get(r, "kernel") == !json_object_get(r, "files")))
        return gb_sp_fail(&s, "must be \"first\", {\"kernel\": ...} or {\"files\": {\"OUTPUT\": \"file.bin\"}}");
    if (json_object_get(r, "kernel")) {
        b->ref_kind = GB_SR_KERNEL;
        return gb_sp_ref_kernel(&s, r, spec, b);
    }
    static const char *const known[] = {"files", NULL};
    struct gb_sp sf = gb_sp_sub(&s, "files", 0);
    b->ref_kind = GB_SR_FILES;
    files = json_object_get(r, "files");
    if ((st = gb_sp_known(&s, r, known)) != GB_OK)
        return st;
    if (!json_is_object(files) || json_object_size(files) == 0)
        return gb_sp_fail(&sf, "must be an object {\"OUTPUT\": \"file.bin\", ...}");
    json_object_foreach(files, k, x) {
        struct gb_sp e = gb_sp_sub(&sf, k, 0);
        struct gb_spec_arg *a = NULL;
        for (int i = 0; i < b->n_args; i++)
            if (strcmp(b->args[i].name, k) == 0)
                a = &b->args[i];
        if (!a || !a->output)
            return gb_sp_fail(&e, "\"%s\" is not an output of the bench", k);
        if (!json_is_string(x))
            return gb_sp_fail(&e, "must be a file name, not %s", gb_json_kind(x));
        if ((st = gb_sp_data_file(&e, spec, json_string_value(x), &a->ref_file, &a->ref_size)) != GB_OK)
            return st;
    }
    for (int i = 0; i < b->n_args; i++)
        if (b->args[i].output && !b->args[i].ref_file)
            return gb_sp_fail(&sf, "the output \"%s\" has no reference file", b->args[i].name);
    return GB_OK;
}

/* "lpbm": counts for gpubound breakdown where its source analysis cannot
 * decide them (docs/models.md): expressions ops, global_bytes and
 * shared_accesses, a note and a comment, kept as written (run does not
 * use them; the breakdown evaluates them). */
static enum gb_status gb_sp_lpbm(const struct gb_sp *c, json_t *o, struct gb_spec_bench *b)
{
    static const char *const known[] = {"ops", "global_bytes", "shared_accesses", "note", "comment", NULL};
    json_t *v = json_object_get(o, "lpbm");
    struct gb_sp s = gb_sp_sub(c, "lpbm", 0);
    enum gb_status st;
    char num[64];
    if (!v)
        return GB_OK;
    if (!json_is_object(v))
        return gb_sp_fail(&s, "must be an object, not %s", gb_json_kind(v));
    if ((st = gb_sp_known(&s, v, known)) != GB_OK)
        return st;
    for (int k = 0; k < GB_SPEC_LPBM_FIELDS; k++) {
        json_t *x = json_object_get(v, known[k]);
        struct gb_sp e = gb_sp_sub(&s, known[k], 0);
        const char *text = json_is_string(x) ? json_string_value(x) : num;
        if (!x)
            continue;
        if (json_is_integer(x) && k != GB_SPEC_LPBM_NOTE)
            snprintf(num, sizeof num, "%lld", (long long)json_integer_value(x));
        else if (json_is_real(x) && k != GB_SPEC_LPBM_NOTE)
            snprintf(num, sizeof num, "%.17g", json_real_value(x));
        else if (!json_is_string(x))
            return gb_sp_fail(&e, "must be %s, not %s", k == GB_SPEC_LPBM_NOTE ? "a string"
                              : "an expression (a string or a number)", gb_json_kind(x));
        if (!(b->lpbm[k] = strdup(text)))
            return gb_error_set(GB_ERR_NOMEM, "out of host memory");
    }
    return GB_OK;
}

/* name, help, cache, timeout_s. */
static enum gb_status gb_sp_bench_head(const struct gb_sp *c, json_t *o, struct gb_spec_bench *b)
{
    const char *name, *help, *cache;
    enum gb_status st;
    struct gb_sp sn = gb_sp_sub(c, "name", 0), sc = gb_sp_sub(c, "cache", 0);
    if ((st = gb_sp_string(c, o, "name", 1, &name)) != GB_OK || (st = gb_sp_string(c, o, "help", 0, &help)) != GB_OK ||
        (st = gb_sp_string(c, o, "cache", 0, &cache)) != GB_OK ||
        (st = gb_sp_number(c, o, "timeout_s", 0.001, 3600, 0, &b->timeout_s)) != GB_OK)
        return st;
    size_t n = strlen(name);
    if (n == 0 || n > 63 || strspn(name, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-") != n)
        return gb_sp_fail(&sn, "\"%s\" is not a bench name (1 to 63 of letters, digits, '_', '-')", name);
    if (cache && strcmp(cache, "hot") && strcmp(cache, "cold"))
        return gb_sp_fail(&sc, "\"%s\" is not hot or cold", cache);
    b->cache = cache && !strcmp(cache, "cold") ? GB_CACHE_COLD : GB_CACHE_HOT;
    if (!(b->name = strdup(name)) || !(b->help = strdup(help ? help : name)))
        return gb_error_set(GB_ERR_NOMEM, "out of host memory");
    return GB_OK;
}

static enum gb_status gb_spec_bench_parse(const struct gb_sp *c, json_t *o, struct gb_spec *spec,
                                          struct gb_spec_bench *b)
{
    static const char *const known[] = {"name", "help", "kernel", "axes", "defines", "block", "grid",
                                        "dynamic_smem", "max_dynamic_smem", "restrictions", "args", "reference",
                                        "problem_axes", "bytes", "flops", "cache", "timeout_s", "lpbm", NULL};
    enum gb_status st;
    int grid_given, block_given;
    if ((st = gb_sp_known(c, o, known)) != GB_OK || (st = gb_sp_bench_head(c, o, b)) != GB_OK ||
        (st = gb_sp_axes(c, o, b)) != GB_OK ||
        (st = gb_sp_defines(c, o, b->names, &b->n_names, b->defines, &b->n_defines)) != GB_OK ||
        (st = gb_sp_launch(c, o, spec, b->names, b->n_names, &b->launch, &grid_given, &block_given)) != GB_OK)
        return st;
    if (!grid_given)
        return gb_sp_fail(c, "the field \"grid\" is missing (blocks per dimension, e.g. [\"ceil(n / "
                          "block_size_x)\"])");
    if (!block_given && (st = gb_sp_default_block(b, b->launch.block)) != GB_OK)
        return st;
    if ((st = gb_sp_restrictions(c, o, b)) != GB_OK || (st = gb_sp_args(c, o, spec, b)) != GB_OK ||
        (st = gb_sp_reference(c, o, spec, b)) != GB_OK || (st = gb_sp_problem(c, o, b)) != GB_OK ||
        (st = gb_sp_expr(c, o, "bytes", 0, b->names, b->n_names, &b->bytes)) != GB_OK ||
        (st = gb_sp_expr(c, o, "flops", 0, b->names, b->n_names, &b->flops)) != GB_OK ||
        (st = gb_sp_lpbm(c, o, b)) != GB_OK)
        return st;
    /* The harness hands a kernel at most 16 options. */
    if (b->n_axes + b->n_defines + b->ref.n_defines > 16)
        return gb_sp_fail(c, "%d axes and %d defines (and %d of the reference) make more than the 16 -D options a "
                          "kernel can be given", b->n_axes, b->n_defines, b->ref.n_defines);
    return GB_OK;
}
