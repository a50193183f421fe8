/* load.c - reading a run directory back, including one cut mid-write. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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

/* The fallback for a results.json without its closing bracket: every line
 * that holds a whole record is one; the first line that does not parse must
 * be the last (the cut), else the file is malformed. */
static enum gb_status gb_load_lines(struct gb_run *run, FILE *f, const char *path, size_t *cap)
{
    char *line = NULL;
    size_t n = 0;
    ssize_t len;
    long lineno = 0, bad_line = 0;
    enum gb_status st = GB_OK;
    char why[256];
    while ((len = getline(&line, &n, f)) != -1) {
        lineno++;
        while (len > 0 && (line[len - 1] == '\n' || line[len - 1] == '\r' || line[len - 1] == ','))
            line[--len] = '\0';
        char *s = line;
        while (*s == ' ' || *s == ',')
            s++;
        if (!*s || strcmp(s, "[") == 0 || strcmp(s, "]") == 0)
            continue;
        if (bad_line) { /* something after a broken line: not a cut, a corruption */
            st = gb_error_set(GB_ERR_FORMAT, "%s: line %ld is not a record", path, bad_line);
            goto out;
        }
        json_error_t err;
        json_t *o = json_loads(s, 0, &err);
        struct gb_record r;
        if (!o) {
            bad_line = lineno;
            continue;
        }
        if (gb_record_from_json(o, &r, why, sizeof why)) {
            json_decref(o);
            st = gb_error_set(GB_ERR_FORMAT, "%s: line %ld: %s", path, lineno, why);
            goto out;
        }
        json_decref(o);
        st = gb_add_record(run, cap, &r);
        if (st != GB_OK)
            goto out;
    }
    if (lineno == 0 || (lineno == 1 && run->n_records == 0 && bad_line == 1)) {
        /* An empty file or a lone partial first line: a run killed at once. */
    }
    run->truncated = 1;
out:
    free(line);
    return st;
}

enum gb_status gb_run_load(const char *dir, struct gb_run **out)
{
    enum gb_status st = GB_OK;
    char path[4200], why[256];
    json_error_t err;
    json_t *root = NULL;
    size_t cap = 0;
    FILE *f = NULL;
    struct gb_run *run = calloc(1, sizeof *run);
    *out = NULL;
    if (!run)
        return gb_error_set(GB_ERR_NOMEM, "out of host memory");
    snprintf(run->dir, sizeof run->dir, "%s", dir);

    snprintf(path, sizeof path, "%s/run.json", dir);
    root = json_load_file(path, 0, &err);
    if (!root) {
        FILE *rf = fopen(path, "r");
        if (!rf)
            st = gb_error_set(GB_ERR_IO, "%s is not a gpubound run directory (cannot read run.json: %s)", dir,
                              strerror(errno));
        else {
            fclose(rf);
            st = gb_error_set(GB_ERR_FORMAT, "%s:%d:%d: %s", path, err.line, err.column, err.text);
        }
        goto out;
    }
    if (gb_run_info_from_json(root, &run->info, why, sizeof why)) {
        st = gb_error_set(GB_ERR_FORMAT, "%s: %s", path, why);
        goto out;
    }
    json_decref(root);

    root = NULL;
    st = gb_results_open(dir, path, sizeof path, &f);
    if (st != GB_OK)
        goto out;
    root = json_loadf(f, 0, &err);
    if (root) {
        if (!json_is_array(root)) {
            st = gb_error_set(GB_ERR_FORMAT, "%s: not a JSON array of records", path);
            goto out;
        }
        size_t i;
        json_t *v;
        json_array_foreach(root, i, v) {
            struct gb_record r;
            if (gb_record_from_json(v, &r, why, sizeof why)) {
                st = gb_error_set(GB_ERR_FORMAT, "%s: record %zu: %s", path, i, why);
                goto out;
            }
            st = gb_add_record(run, &cap, &r);
            if (st != GB_OK)
                goto out;
        }
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
out:
    json_decref(root);
    if (f)
        fclose(f);
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
    free(run);
}
