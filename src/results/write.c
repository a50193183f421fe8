/* write.c - run directories, written point by point. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <dirent.h>
#include <unistd.h>

#include "results/json.h"
#include "results/schema.h"
#include "util/fs.h"

struct gb_run_writer {
    char dir[4096];
    FILE *json;
    FILE *csv;
    int n_written;
    char **axes;
    int n_axes;
    struct gb_record *recs;      /* kept to rewrite the CSV with metric columns at the end */
    size_t n_recs, cap_recs;
};

enum gb_status gb_run_dir_prepare(const char *dir)
{
    struct stat sb;
    if (stat(dir, &sb) == 0) {
        if (!S_ISDIR(sb.st_mode))
            return gb_error_set(GB_ERR_USAGE, "output %s exists and is not a directory", dir);
        DIR *d = opendir(dir);
        if (!d)
            return gb_error_set(GB_ERR_USAGE, "output %s cannot be read: %s", dir, strerror(errno));
        struct dirent *e;
        int empty = 1;
        while ((e = readdir(d)))
            if (strcmp(e->d_name, ".") && strcmp(e->d_name, ".."))
                empty = 0;
        closedir(d);
        if (!empty)
            return gb_error_set(GB_ERR_USAGE, "output %s exists and is not empty", dir);
    } else {
        enum gb_status st = gb_mkdir_p(dir);
        if (st != GB_OK)
            return gb_error_set(GB_ERR_USAGE, "%s", gb_error_message());
    }
    if (access(dir, W_OK) != 0)
        return gb_error_set(GB_ERR_USAGE, "output %s is not writable: %s", dir, strerror(errno));
    return GB_OK;
}

enum gb_status gb_run_info_write_json(FILE *f, const struct gb_run_info *info)
{
    json_t *o = gb_run_info_to_json(info);
    int r = json_dumpf(o, f, JSON_INDENT(2) | JSON_REAL_PRECISION(17));
    json_decref(o);
    if (r != 0 || fputc('\n', f) == EOF)
        return gb_error_set(GB_ERR_IO, "cannot write run metadata");
    return GB_OK;
}

enum gb_status gb_record_write_json(FILE *f, const struct gb_record *r)
{
    json_t *o = gb_record_to_json(r);
    char *s = json_dumps(o, JSON_COMPACT | JSON_REAL_PRECISION(17));
    json_decref(o);
    if (!s)
        return gb_error_set(GB_ERR_IO, "cannot write record %s/%s", r->suite, r->bench);
    /* The samples close the object: written as compact text (samples.c). */
    size_t len = strlen(s);
    int with_samples = r->n_sample_ns > 0 && r->status == GB_REC_OK;
    int rc = fwrite(s, 1, len - (with_samples ? 1 : 0), f) == len - (with_samples ? 1 : 0) ? 0 : -1;
    free(s);
    if (rc == 0 && with_samples && (fputc(',', f) == EOF || gb_record_samples_write(f, r) != GB_OK ||
                                    fputc('}', f) == EOF))
        rc = -1;
    return rc == 0 ? GB_OK : gb_error_set(GB_ERR_IO, "cannot write record %s/%s", r->suite, r->bench);
}

/* run.json is replaced whole through a temporary file and rename, so a
 * reader sees the old or the new metadata, never half of either; it is
 * synced first, since it is what says whether the run completed. */
static enum gb_status gb_write_run_json(const char *dir, const struct gb_run_info *info)
{
    char path[GB_PATH_MAX + 16];
    struct gb_atomic_file a;
    snprintf(path, sizeof path, "%s/run.json", dir);
    enum gb_status st = gb_atomic_open(&a, path, "w");
    if (st != GB_OK)
        return st;
    st = gb_run_info_write_json(a.f, info);
    if (st == GB_OK && (fflush(a.f) != 0 || fsync(fileno(a.f)) != 0))
        st = gb_error_set(GB_ERR_IO, "cannot write %s: %s", path, strerror(errno));
    if (st != GB_OK) {
        gb_atomic_abort(&a);
        return st;
    }
    return gb_atomic_commit(&a);
}

static void gb_csv_field(FILE *f, const char *s)
{
    if (strpbrk(s, ",\"\n\r")) {
        fputc('"', f);
        for (; *s; s++) {
            if (*s == '"')
                fputc('"', f);
            fputc(*s, f);
        }
        fputc('"', f);
    } else {
        fputs(s, f);
    }
}

static void gb_csv_num(FILE *f, double v)
{
    if (isfinite(v))
        fprintf(f, ",%.17g", v);
    else
        fputc(',', f);
}

/* The CSV columns of the record table (schema.h) are its rows with a csv
 * place, in the order of their places. A TIMES row is six columns. */
#define GB_CSV_MAX_COLS 64

static size_t gb_csv_columns(const struct gb_field **cols)
{
    size_t n = 0;
    for (size_t i = 0; i < gb_record_n_fields && n < GB_CSV_MAX_COLS; i++) {
        const struct gb_field *f = &gb_record_fields[i];
        size_t k = n++;
        if (!f->csv) {
            n--;
            continue;
        }
        for (; k > 0 && cols[k - 1]->csv > f->csv; k--)
            cols[k] = cols[k - 1];
        cols[k] = f;
    }
    return n;
}

/* The name of column `stat` of a TIMES row ("batch_time_ns": "batch_min_ns"). */
static void gb_csv_times_name(char *buf, size_t n, const struct gb_field *f, const char *stat)
{
    size_t stem = strlen(f->key) - strlen("time_ns");
    snprintf(buf, n, "%.*s%s_ns", (int)stem, f->key, stat);
}

static int gb_csv_is_column(const char *name)
{
    const struct gb_field *cols[GB_CSV_MAX_COLS];
    size_t n = gb_csv_columns(cols);
    char buf[64];
    int clash = strcmp(name, "metrics") == 0;
    for (size_t i = 0; i < n; i++) {
        clash |= strcmp(name, cols[i]->key) == 0 && cols[i]->kind != GB_FK_TIMES;
#define GB_TS_CLASH(x) gb_csv_times_name(buf, sizeof buf, cols[i], #x), clash |= cols[i]->kind == GB_FK_TIMES && !strcmp(name, buf);
        GB_TIME_STATS(GB_TS_CLASH)
#undef GB_TS_CLASH
    }
    return clash;
}

/* The header names of the columns with places in [lo, hi), each after a comma
 * but the file's first. */
static void gb_csv_names(FILE *f, size_t lo, size_t hi)
{
    const struct gb_field *cols[GB_CSV_MAX_COLS];
    size_t n = gb_csv_columns(cols);
    char buf[64];
    for (size_t i = 0; i < n; i++) {
        const struct gb_field *c = cols[i];
        if ((size_t)c->csv < lo || (size_t)c->csv >= hi)
            continue;
        if (c->kind != GB_FK_TIMES) {
            fprintf(f, "%s%s", c->csv == cols[0]->csv ? "" : ",", c->key);
            continue;
        }
#define GB_TS_NAME(x) gb_csv_times_name(buf, sizeof buf, c, #x), fprintf(f, ",%s", buf);
        GB_TIME_STATS(GB_TS_NAME)
#undef GB_TS_NAME
    }
}

/* metrics: NULL = one "metrics" column of name=value pairs. */
static void gb_csv_header(FILE *f, const char *const *axes, int n_axes, char **metrics, int n_metrics,
                          int metrics_column)
{
    gb_csv_names(f, 0, GB_CSV_AXES);
    for (int i = 0; i < n_axes; i++) {
        /* An axis named like a fixed column ("bytes") is written "axis_bytes",
         * so that every header of the file is distinct. */
        fputs(gb_csv_is_column(axes[i]) ? ",axis_" : ",", f);
        gb_csv_field(f, axes[i]);
    }
    gb_csv_names(f, GB_CSV_AXES, GB_CSV_METRICS);
    for (int i = 0; i < n_metrics; i++) {
        fputc(',', f);
        gb_csv_field(f, metrics[i]);
    }
    if (metrics_column)
        fputs(",metrics", f);
    gb_csv_names(f, GB_CSV_METRICS, (size_t)-1);
    fputc('\n', f);
}

/* The value of column `c` of `r`, after a comma unless `first`. */
static void gb_csv_value(FILE *f, const struct gb_record *r, const struct gb_field *c, int first)
{
    const void *p = (const char *)r + c->off;
    const struct gb_time_stats *t = p;
    const int present = c->opt != GB_FO_BATCHED || r->batch > 1;
    if (!first && c->kind != GB_FK_REAL && c->kind != GB_FK_TIMES)
        fputc(',', f);
    switch (c->kind) {
    case GB_FK_STR: gb_csv_field(f, p); break;
    case GB_FK_INT:
    case GB_FK_BOOL: fprintf(f, "%d", *(const int *)p); break;
    case GB_FK_ENUM: gb_csv_field(f, gb_enum_name(c->names, *(const int *)p)); break;
    case GB_FK_REAL: gb_csv_num(f, *(const double *)p); break;
    case GB_FK_TIMES:
#define GB_TS_CSV(x) gb_csv_num(f, present ? t->x : NAN);
        GB_TIME_STATS(GB_TS_CSV)
#undef GB_TS_CSV
        break;
    case GB_FK_CUSTOM: break;
    }
}

/* The values of the columns with places in [lo, hi). */
static void gb_csv_values(FILE *f, const struct gb_record *r, size_t lo, size_t hi)
{
    const struct gb_field *cols[GB_CSV_MAX_COLS];
    size_t n = gb_csv_columns(cols);
    for (size_t i = 0; i < n; i++)
        if ((size_t)cols[i]->csv >= lo && (size_t)cols[i]->csv < hi)
            gb_csv_value(f, r, cols[i], i == 0);
}

/* The one "metrics" column of name=value pairs, however many there are. */
static void gb_csv_metrics_field(FILE *f, const struct gb_record *r)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *m = open_memstream(&buf, &len);
    if (m) {
        for (int i = 0; i < r->n_metrics; i++)
            fprintf(m, "%s%s=%.17g", i ? ";" : "", r->metrics[i].name, r->metrics[i].value);
        if (fclose(m) != 0) {
            free(buf);
            buf = NULL;
        }
    }
    fputc(',', f);
    if (buf) /* NULL only when out of memory: the field stays empty (the final CSV rewrites it) */
        gb_csv_field(f, buf);
    free(buf);
}

static void gb_csv_row(FILE *f, const struct gb_record *r, const char *const *axes, int n_axes,
                       char **metrics, int n_metrics, int metrics_column)
{
    gb_csv_values(f, r, 0, GB_CSV_AXES);
    for (int i = 0; i < n_axes; i++) {
        const char *v = gb_record_axis(r, axes[i]);
        fputc(',', f);
        gb_csv_field(f, v ? v : "");
    }
    gb_csv_values(f, r, GB_CSV_AXES, GB_CSV_METRICS);
    for (int i = 0; i < n_metrics; i++)
        gb_csv_num(f, gb_record_metric(r, metrics[i], NAN));
    if (metrics_column)
        gb_csv_metrics_field(f, r);
    gb_csv_values(f, r, GB_CSV_METRICS, (size_t)-1);
    fputc('\n', f);
}

/* The distinct metric names of `recs`, in order of first appearance. The
 * names point into the records; *names is malloc'ed. */
static enum gb_status gb_metric_names(const struct gb_record *recs, size_t n, char ***names,
                                      int *count)
{
    char **v = NULL;
    int nv = 0, cap = 0;
    for (size_t i = 0; i < n; i++)
        for (int k = 0; k < recs[i].n_metrics; k++) {
            int found = 0;
            for (int j = 0; j < nv && !found; j++)
                found = strcmp(v[j], recs[i].metrics[k].name) == 0;
            if (found)
                continue;
            if (nv == cap) {
                cap = cap ? 2 * cap : 32;
                char **p = realloc(v, (size_t)cap * sizeof *p);
                if (!p) {
                    free(v);
                    return gb_error_set(GB_ERR_NOMEM, "out of host memory for CSV columns");
                }
                v = p;
            }
            v[nv++] = (char *)recs[i].metrics[k].name;
        }
    *names = v;
    *count = nv;
    return GB_OK;
}

enum gb_status gb_records_write_csv(FILE *f, const struct gb_record *recs, size_t n,
                                    const char *const *axes, int n_axes)
{
    char **metrics = NULL;
    int n_metrics = 0;
    enum gb_status st = gb_metric_names(recs, n, &metrics, &n_metrics);
    if (st != GB_OK)
        return st;
    gb_csv_header(f, axes, n_axes, metrics, n_metrics, 0);
    for (size_t i = 0; i < n; i++)
        gb_csv_row(f, &recs[i], axes, n_axes, metrics, n_metrics, 0);
    free(metrics);
    return ferror(f) ? gb_error_set(GB_ERR_IO, "cannot write CSV") : GB_OK;
}

static void gb_writer_free(struct gb_run_writer *w)
{
    if (!w)
        return;
    if (w->json)
        fclose(w->json);
    if (w->csv)
        fclose(w->csv);
    for (int i = 0; i < w->n_axes; i++)
        free(w->axes[i]);
    free(w->axes);
    for (size_t i = 0; i < w->n_recs; i++)
        gb_record_release(&w->recs[i]);
    free(w->recs);
    free(w);
}

enum gb_status gb_run_writer_open(const char *dir, const struct gb_run_info *info,
                                  const char *const *axes, int n_axes, struct gb_run_writer **out)
{
    enum gb_status st = GB_OK;
    char path[4200];
    struct gb_run_writer *w = calloc(1, sizeof *w);
    *out = NULL;
    if (!w)
        return gb_error_set(GB_ERR_NOMEM, "out of host memory");
    snprintf(w->dir, sizeof w->dir, "%s", dir);
    w->axes = calloc((size_t)n_axes + 1, sizeof *w->axes);
    if (!w->axes) {
        st = gb_error_set(GB_ERR_NOMEM, "out of host memory");
        goto out;
    }
    for (int i = 0; i < n_axes; i++)
        if (!(w->axes[w->n_axes++] = strdup(axes[i]))) {
            st = gb_error_set(GB_ERR_NOMEM, "out of host memory");
            goto out;
        }
    st = gb_write_run_json(dir, info);
    if (st != GB_OK)
        goto out;
    snprintf(path, sizeof path, "%s/results.json", dir);
    if (!(w->json = gb_fopen_nofollow(path))) {
        st = gb_error_set(GB_ERR_IO, "cannot write %s: %s", path, strerror(errno));
        goto out;
    }
    fputs("[\n", w->json);
    fflush(w->json);
    snprintf(path, sizeof path, "%s/results.csv", dir);
    if (!(w->csv = gb_fopen_nofollow(path))) {
        st = gb_error_set(GB_ERR_IO, "cannot write %s: %s", path, strerror(errno));
        goto out;
    }
    gb_csv_header(w->csv, (const char *const *)w->axes, w->n_axes, NULL, 0, 1);
    fflush(w->csv);
out:
    if (st != GB_OK)
        gb_writer_free(w);
    else
        *out = w;
    return st;
}

enum gb_status gb_run_writer_add(struct gb_run_writer *w, const struct gb_record *r)
{
    /* One record per line, the separator first, so that every complete line
     * of a file cut at any byte is a whole record (the loader relies on it). */
    if (w->n_written > 0)
        fputs(",\n", w->json);
    enum gb_status st = gb_record_write_json(w->json, r);
    if (st != GB_OK)
        return st;
    w->n_written++;
    gb_csv_row(w->csv, r, (const char *const *)w->axes, w->n_axes, NULL, 0, 1);
    if (fflush(w->json) != 0 || fflush(w->csv) != 0)
        return gb_error_set(GB_ERR_IO, "cannot write results in %s: %s", w->dir, strerror(errno));
    if (w->n_recs == w->cap_recs) {
        size_t cap = w->cap_recs ? w->cap_recs * 2 : 64;
        struct gb_record *p = realloc(w->recs, cap * sizeof *p);
        if (!p)
            return gb_error_set(GB_ERR_NOMEM, "out of host memory");
        w->recs = p;
        w->cap_recs = cap;
    }
    if ((st = gb_record_copy(&w->recs[w->n_recs], r)) != GB_OK)
        return st;
    w->n_recs++;
    return GB_OK;
}

enum gb_status gb_run_writer_close(struct gb_run_writer *w, const struct gb_run_info *info)
{
    enum gb_status st = GB_OK;
    char path[GB_PATH_MAX + 16];
    struct gb_atomic_file a;
    if (!w)
        return GB_OK;
    fputs("\n]\n", w->json);
    if (fclose(w->json) != 0)
        st = gb_error_set(GB_ERR_IO, "cannot finish %s/results.json: %s", w->dir, strerror(errno));
    w->json = NULL;
    fclose(w->csv);
    w->csv = NULL;
    /* The final CSV gives each metric a column of its own. */
    snprintf(path, sizeof path, "%s/results.csv", w->dir);
    if (gb_atomic_open(&a, path, "w") == GB_OK) {
        if (gb_records_write_csv(a.f, w->recs, w->n_recs, (const char *const *)w->axes, w->n_axes) == GB_OK)
            (void)gb_atomic_commit(&a);
        else
            gb_atomic_abort(&a);
    }
    if (st == GB_OK)
        st = gb_write_run_json(w->dir, info);
    gb_writer_free(w);
    return st;
}
