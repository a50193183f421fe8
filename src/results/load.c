/* load.c - reading a run directory back, including one cut mid-write. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "results/json.h"
#include "results/open.h"

/* Moves `r` (its axes and metrics) into the run; releases it on failure. */
static enum gb_status gb_add_record(struct gb_run *run, size_t *cap, struct gb_record *r)
{
    if (run->n_records == *cap) {
        size_t c = *cap ? *cap * 2 : 64;
        struct gb_record *p = realloc(run->records, c * sizeof *p);
        if (!p) {
            gb_record_release(r);
            return gb_error_set(GB_ERR_NOMEM, "out of host memory loading %s", run->dir);
        }
        run->records = p;
        *cap = c;
    }
    run->records[run->n_records++] = *r;
    return GB_OK;
}

/* One line of `f` into *buf (without its newline). 1: a line, with
 * *newline telling whether it ended in one; 0: the end of the file; -1: a
 * read error (errno); -2: longer than GB_RECORD_LINE_MAX; -3: no memory. */
static int gb_read_line(FILE *f, char **buf, size_t *cap, size_t *len, int *newline)
{
    *len = 0;
    *newline = 0;
    for (;;) {
        if (*cap - *len < 2) {
            size_t c = *cap ? *cap * 2 : 4096;
            char *p = realloc(*buf, c);
            if (!p)
                return -3;
            *buf = p;
            *cap = c;
        }
        int ch = getc(f);
        if (ch == EOF) {
            (*buf)[*len] = '\0';
            if (ferror(f))
                return -1;
            return *len > 0 ? 1 : 0;
        }
        if (ch == '\n') {
            (*buf)[*len] = '\0';
            *newline = 1;
            return 1;
        }
        if (*len >= GB_RECORD_LINE_MAX)
            return -2;
        (*buf)[(*len)++] = (char)ch;
    }
}

/* The state of reading a records file line by line. */
struct gb_lines {
    struct gb_run *run;
    const char *path;
    size_t *cap;
    long lineno;
    long cut_line;               /* a last line that ended the file mid-record */
};

/* One line of records: "[", "]", blank, or a record (with a trailing comma). */
static enum gb_status gb_load_one_line(struct gb_lines *L, char *line, size_t len, int newline)
{
    char why[1024], where[64];
    const char *nul = memchr(line, '\0', len);
    if (nul) /* text ends at a NUL: the rest of the line would go unread */
        return gb_error_set(GB_ERR_FORMAT, "%s:%ld:%ld: a damaged record: a NUL byte (a records file is JSON text)",
                            L->path, L->lineno, (long)(nul - line) + 1);
    while (len > 0 && (line[len - 1] == '\r' || line[len - 1] == ',' || line[len - 1] == ' '))
        line[--len] = '\0';
    char *s = line;
    while (*s == ' ' || *s == ',')
        s++;
    if (!*s || strcmp(s, "[") == 0 || strcmp(s, "]") == 0)
        return GB_OK;
    json_error_t err;
    json_t *o = json_loads(s, JSON_REJECT_DUPLICATES, &err);
    if (!o) {
        /* A cut: the file ends inside this line, which is the start of a
         * record. Anything else is a damaged record. */
        if (!newline && s[0] == '{' &&
            (json_error_code(&err) == json_error_premature_end_of_input ||
             (size_t)err.position >= strlen(s))) {
            L->cut_line = L->lineno;
            return GB_OK;
        }
        return gb_error_set(GB_ERR_FORMAT, "%s:%ld:%d: a damaged record: %s", L->path, L->lineno,
                            err.column, err.text);
    }
    struct gb_record r;
    snprintf(where, sizeof where, "$[%zu]", L->run->n_records);
    int bad = gb_record_from_json(o, &r, L->path, where, why, sizeof why);
    json_decref(o);
    if (bad)
        return gb_error_set(GB_ERR_FORMAT, "%s (line %ld)", why, L->lineno);
    return gb_add_record(L->run, L->cap, &r);
}

/* The fallback for a results.json without its closing bracket: every line
 * holds a whole record; only the last may end the file mid-record (the
 * cut of a run killed while writing). */
static enum gb_status gb_load_lines(struct gb_run *run, FILE *f, const char *path, size_t *cap)
{
    struct gb_lines L = {.run = run, .path = path, .cap = cap};
    char *line = NULL;
    size_t n = 0, len;
    int newline, got;
    enum gb_status st = GB_OK;
    while (st == GB_OK && (got = gb_read_line(f, &line, &n, &len, &newline)) == 1) {
        L.lineno++;
        if (L.cut_line) { /* something after a cut: not a cut, a corruption */
            st = gb_error_set(GB_ERR_FORMAT, "%s:%ld: a damaged record", path, L.cut_line);
            break;
        }
        st = gb_load_one_line(&L, line, len, newline);
    }
    if (st == GB_OK && got == -1)
        st = gb_error_set(GB_ERR_IO, "cannot read %s: %s", path, strerror(errno));
    else if (st == GB_OK && got == -2)
        st = gb_error_set(GB_ERR_FORMAT, "%s:%ld: a line longer than %d bytes is not a record",
                          path, L.lineno + 1, GB_RECORD_LINE_MAX);
    else if (st == GB_OK && got == -3)
        st = gb_error_set(GB_ERR_NOMEM, "out of host memory reading %s", path);
    if (st == GB_OK)
        run->truncated = 1;
    free(line);
    return st;
}

/* run.json into run->info. */
static enum gb_status gb_load_info(struct gb_run *run, const char *dir)
{
    char path[4200], why[1024];
    json_error_t err;
    struct stat sb;
    snprintf(path, sizeof path, "%s/run.json", dir);
    if (stat(path, &sb) != 0)
        return gb_error_set(GB_ERR_IO, "%s is not a gpubound run directory (cannot read run.json: %s)",
                            dir, strerror(errno));
    if (!S_ISREG(sb.st_mode))
        return gb_error_set(GB_ERR_IO, "cannot read %s: not a regular file", path);
    if (sb.st_size > (off_t)GB_RUN_JSON_MAX)
        return gb_error_set(GB_ERR_FORMAT, "%s: %lld bytes: a run.json has at most %ld",
                            path, (long long)sb.st_size, GB_RUN_JSON_MAX);
    json_t *root = json_load_file(path, JSON_REJECT_DUPLICATES, &err);
    if (!root) {
        FILE *rf = fopen(path, "r");
        if (!rf)
            return gb_error_set(GB_ERR_IO, "cannot read %s: %s", path, strerror(errno));
        fclose(rf);
        return gb_error_set(GB_ERR_FORMAT, "%s:%d:%d: %s", path, err.line, err.column, err.text);
    }
    int bad = gb_run_info_from_json(root, &run->info, path, why, sizeof why);
    const char *assumed = bad ? NULL : gb_run_info_format_absent(root);
    json_decref(root);
    if (bad)
        return gb_error_set(GB_ERR_FORMAT, "%s", why);
    /* Every run.json gpubound has written names its format: one without it
     * was made by hand or by another tool. Its fields are checked as ever. */
    return assumed ? gb_run_warn(run, "%s: no $.format: read as \"%s\", the format this build writes", path,
                                 assumed)
                   : GB_OK;
}

/* A whole JSON array of records. */
static enum gb_status gb_load_array(struct gb_run *run, json_t *root, const char *path, size_t *cap)
{
    char why[1024], where[64];
    size_t i;
    json_t *v;
    enum gb_status st = GB_OK;
    if (!json_is_array(root))
        return gb_error_set(GB_ERR_FORMAT, "%s: $ is not a JSON array of records", path);
    json_array_foreach(root, i, v) {
        struct gb_record r;
        snprintf(where, sizeof where, "$[%zu]", i);
        if (gb_record_from_json(v, &r, path, where, why, sizeof why))
            return gb_error_set(GB_ERR_FORMAT, "%s", why);
        if ((st = gb_add_record(run, cap, &r)) != GB_OK)
            return st;
    }
    return GB_OK;
}

/* The records: the whole array, else line by line (a run cut mid-write). */
static enum gb_status gb_load_records(struct gb_run *run, const char *dir)
{
    char path[4200];
    json_error_t err;
    size_t cap = 0;
    FILE *f = NULL;
    enum gb_status st = gb_results_open(dir, path, sizeof path, &f);
    if (st != GB_OK)
        return st;
    snprintf(run->records_file, sizeof run->records_file, "%s", path);
    json_t *root = json_loadf(f, JSON_REJECT_DUPLICATES, &err);
    if (root) {
        st = gb_load_array(run, root, path, &cap);
        json_decref(root);
    } else if (ferror(f)) {
        st = gb_error_set(GB_ERR_IO, "cannot read %s: %s", path, strerror(errno));
    } else if (fseek(f, 0, SEEK_SET) != 0) {
        /* A compressed stream cannot seek back: read it again. */
        fclose(f);
        f = NULL;
        st = gb_results_open(dir, path, sizeof path, &f);
        if (st == GB_OK)
            st = gb_load_lines(run, f, path, &cap);
    } else {
        st = gb_load_lines(run, f, path, &cap);
    }
    if (f)
        fclose(f);
    return st;
}

enum gb_status gb_run_load(const char *dir, struct gb_run **out)
{
    enum gb_status st;
    struct gb_run *run = calloc(1, sizeof *run);
    *out = NULL;
    if (!run)
        return gb_error_set(GB_ERR_NOMEM, "out of host memory");
    snprintf(run->dir, sizeof run->dir, "%s", dir);
    if ((st = gb_load_info(run, dir)) == GB_OK && (st = gb_load_records(run, dir)) == GB_OK)
        st = gb_run_check(run, run->records_file);
    if (st != GB_OK)
        gb_run_free(run);
    else
        *out = run;
    return st;
}

void gb_run_free(struct gb_run *run)
{
    if (!run)
        return;
    for (size_t i = 0; i < run->n_records; i++)
        gb_record_release(&run->records[i]);
    free(run->records);
    for (size_t i = 0; i < run->n_warnings; i++)
        free(run->warnings[i]);
    free(run->warnings);
    free(run);
}
