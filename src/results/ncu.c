/* ncu.c - the CSV exports of Nsight Compute, read into launches and metrics
 * (the layouts are described in include/gpubound/ncu.h). */
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <limits.h>
#include <string.h>
#include <sys/stat.h>

#include "gpubound/ncu.h"
#include "results/validate.h"

#define GB_NCU_LINE_MAX (1 << 20)

/* One CSV line split into fields, RFC 4180 quoting; the fields point into
 * `buf`, which the split rewrites. */
struct gb_fields {
    char **v;
    size_t n, cap;
};

static void gb_fields_release(struct gb_fields *f)
{
    free(f->v);
    memset(f, 0, sizeof *f);
}

/* Returns 0, or -1 on an unterminated quote (or out of memory, with errno). */
static int gb_csv_split(char *buf, struct gb_fields *f)
{
    char *r = buf, *w = buf;
    f->n = 0;
    for (;;) {
        if (f->n == f->cap) {
            size_t cap = f->cap ? 2 * f->cap : 32;
            char **nv = realloc(f->v, cap * sizeof *nv);
            if (!nv)
                return -1;
            f->v = nv;
            f->cap = cap;
        }
        f->v[f->n++] = w;
        if (*r == '"') {
            r++;
            for (;;) {
                if (*r == '\0')
                    return -1;
                if (*r == '"') {
                    if (r[1] == '"') {
                        *w++ = '"';
                        r += 2;
                        continue;
                    }
                    r++;
                    break;
                }
                *w++ = *r++;
            }
            /* Anything between the closing quote and the separator is kept. */
            while (*r && *r != ',')
                *w++ = *r++;
        } else {
            while (*r && *r != ',')
                *w++ = *r++;
        }
        if (*r == ',') {
            *w++ = '\0';
            r++;
            continue;
        }
        *w = '\0';
        return 0;
    }
}

static int gb_field_index(const struct gb_fields *f, const char *name)
{
    for (size_t i = 0; i < f->n; i++)
        if (strcmp(f->v[i], name) == 0)
            return (int)i;
    return -1;
}

/* The factor from a printed unit to gpubound's base unit (ns, bytes, plain
 * counts). A per-something unit ("Kbyte/block") scales by its numerator's
 * prefix; a rate over time, a percentage and unknown units are taken as
 * printed (factor 1). */
static double gb_unit_factor(const char *u)
{
    static const struct {
        const char *unit;
        double factor;
    } times[] = {
        {"nsecond", 1}, {"ns", 1}, {"usecond", 1e3}, {"us", 1e3}, {"msecond", 1e6},
        {"ms", 1e6}, {"second", 1e9}, {"s", 1e9},
    };
    static const struct {
        const char *prefix;
        double factor;
    } pre[] = {
        {"Ki", 1024.0}, {"Mi", 1048576.0}, {"Gi", 1073741824.0}, {"Ti", 1099511627776.0},
        {"K", 1e3}, {"M", 1e6}, {"G", 1e9}, {"T", 1e12},
    };
    const char *slash = strchr(u, '/');
    double per = 1; /* a rate per time unit becomes a rate per second */
    if (strchr(u, '%'))
        return 1;
    for (size_t i = 0; i < sizeof times / sizeof times[0]; i++) {
        if (!slash && strcmp(u, times[i].unit) == 0)
            return times[i].factor;
        if (slash && strcmp(slash + 1, times[i].unit) == 0)
            per = 1e9 / times[i].factor;
    }
    for (size_t i = 0; i < sizeof pre / sizeof pre[0]; i++) {
        size_t len = strlen(pre[i].prefix);
        if (strncmp(u, pre[i].prefix, len) == 0 && islower((unsigned char)u[len]))
            return pre[i].factor * per;
    }
    return per;
}

/* The integer part at the start of `s` as ncu prints it, digits or 1 to 3
 * digits followed by groups of ",ddd", copied without its commas to `buf`
 * at *n; its length in `s` (0 when there is none). */
static size_t gb_ncu_integer_part(const char *s, char *buf, size_t *n)
{
    size_t len = 0;
    while (isdigit((unsigned char)s[len]))
        len++;
    if (len >= 1 && len <= 3)
        while (s[len] == ',' && isdigit((unsigned char)s[len + 1]) &&
               isdigit((unsigned char)s[len + 2]) && isdigit((unsigned char)s[len + 3]) &&
               !isdigit((unsigned char)s[len + 4]))
            len += 4;
    for (size_t i = 0; i < len; i++)
        if (s[i] != ',')
            buf[(*n)++] = s[i];
    return len;
}

/* A number as ncu prints it in an English locale: a sign, an integer part
 * whose commas group thousands ("1,234,567") or none, a fraction and an
 * exponent, blanks around it. NaN for anything else ("1,,2", "1,2345",
 * "nan", "0x10"), for a number a double cannot hold ("1e999") and for a
 * field of 100 characters or more. */
static double gb_ncu_number(const char *s)
{
    char buf[128], *end;
    size_t n = 0, digits;
    while (isspace((unsigned char)*s))
        s++;
    if (strlen(s) >= 100)
        return NAN;
    if (*s == '+' || *s == '-')
        buf[n++] = *s++;
    digits = gb_ncu_integer_part(s, buf, &n);
    s += digits;
    if (*s == '.')
        for (buf[n++] = *s++; isdigit((unsigned char)*s); digits++)
            buf[n++] = *s++;
    if (digits && (*s == 'e' || *s == 'E')) {
        buf[n++] = *s++;
        if (*s == '+' || *s == '-')
            buf[n++] = *s++;
        while (isdigit((unsigned char)*s))
            buf[n++] = *s++;
    }
    while (isspace((unsigned char)*s))
        s++;
    buf[n] = '\0';
    if (!digits || *s)
        return NAN;
    errno = 0;
    double v = strtod(buf, &end);
    return *end || errno || !isfinite(v) ? NAN : v;
}

/* Labels of the details page stored under the metric they show. */
static const char *gb_ncu_alias(const char *label)
{
    static const char *const map[][2] = {
        {"Duration", "gpu__time_duration.sum"},
        {"Block Size", "launch__block_size"},
        {"Grid Size", "launch__grid_size"},
        {"Registers Per Thread", "launch__registers_per_thread"},
        {"Static Shared Memory Per Block", "launch__shared_mem_per_block_static"},
        {"Dynamic Shared Memory Per Block", "launch__shared_mem_per_block_dynamic"},
    };
    for (size_t i = 0; i < sizeof map / sizeof map[0]; i++)
        if (strcmp(label, map[i][0]) == 0)
            return map[i][1];
    return label;
}

static enum gb_status gb_oom(void)
{
    return gb_error_set(GB_ERR_NOMEM, "out of host memory reading an Nsight Compute export");
}

/* Whether n is 0 or a power of two: the metrics array grows by doubling,
 * its capacity being the next power of two of its count. */
static int gb_pow2_or_0(size_t n)
{
    return (n & (n - 1)) == 0;
}

static enum gb_status gb_launch_add_metric(struct gb_ncu_launch *l, const char *name,
                                           const char *unit, const char *text, int check_dup)
{
    /* The first value of a metric stands (a details page may repeat one).
     * A raw page adds without looking: gb_ncu_find returns the first of
     * repeated names anyway, and looking would make a wide row quadratic. */
    if (check_dup && gb_ncu_find(l, name))
        return GB_OK;
    struct gb_ncu_metric *nm = l->metrics;
    if (gb_pow2_or_0(l->n_metrics)) {
        nm = realloc(l->metrics, (l->n_metrics ? 2 * l->n_metrics : 1) * sizeof *nm);
        if (!nm)
            return gb_oom();
    }
    l->metrics = nm;
    struct gb_ncu_metric *m = &nm[l->n_metrics];
    m->name = strdup(name);
    m->unit = strdup(unit ? unit : "");
    m->text = strdup(text);
    if (!m->name || !m->unit || !m->text) {
        free(m->name);
        free(m->unit);
        free(m->text);
        return gb_oom();
    }
    double v = gb_ncu_number(text);
    m->value = isfinite(v) ? v * gb_unit_factor(m->unit) : NAN;
    l->n_metrics++;
    return GB_OK;
}

/* The launch with `id`, appended when new. */
static enum gb_status gb_report_launch(struct gb_ncu_report *r, long id, const char *kernel,
                                       const char *block, const char *grid,
                                       struct gb_ncu_launch **out)
{
    for (size_t i = 0; i < r->n_launches; i++)
        if (r->launches[i].id == id) {
            *out = &r->launches[i];
            return GB_OK;
        }
    struct gb_ncu_launch *nl = realloc(r->launches, (r->n_launches + 1) * sizeof *nl);
    if (!nl)
        return gb_oom();
    r->launches = nl;
    struct gb_ncu_launch *l = &nl[r->n_launches];
    memset(l, 0, sizeof *l);
    l->id = id;
    l->kernel = strdup(kernel ? kernel : "");
    l->block = strdup(block ? block : "");
    l->grid = strdup(grid ? grid : "");
    if (!l->kernel || !l->block || !l->grid) {
        free(l->kernel);
        free(l->block);
        free(l->grid);
        return gb_oom();
    }
    r->n_launches++;
    *out = l;
    return GB_OK;
}

static int gb_parse_id(const char *s, long *id)
{
    char *end;
    errno = 0;
    long v = strtol(s, &end, 10);
    if (!*s || *end || errno || v < 0 || v > 1000000000000000L)
        return -1;
    *id = v;
    return 0;
}

/* The state of reading one export. */
struct ncu_reader {
    const char *path;
    struct gb_ncu_report *r;
    struct gb_fields head, row;
    char *hbuf;                  /* the header line, which head's fields point into */
    char **unit_v;               /* the raw page's units, one per column */
    size_t n_units;
    long lineno, units_line;
    int c_id, c_kernel, c_block, c_grid, c_name, c_unit, c_value, have_units;
};

static void ncu_reader_release(struct ncu_reader *rd)
{
    free(rd->hbuf);
    for (size_t i = 0; i < rd->n_units; i++)
        free(rd->unit_v[i]);
    free(rd->unit_v);
    gb_fields_release(&rd->head);
    gb_fields_release(&rd->row);
}

/* A line before the header: the header when it names "ID" and "Kernel
 * Name" (program output may come first), else skipped. */
static enum gb_status ncu_header(struct ncu_reader *rd, const char *line)
{
    if (!strstr(line, "Kernel Name"))
        return GB_OK;
    if (!(rd->hbuf = strdup(line)))
        return gb_oom();
    if (gb_csv_split(rd->hbuf, &rd->head) != 0 || (rd->c_id = gb_field_index(&rd->head, "ID")) < 0 ||
        (rd->c_kernel = gb_field_index(&rd->head, "Kernel Name")) < 0) {
        free(rd->hbuf);
        rd->hbuf = NULL;
        return GB_OK;
    }
    rd->c_block = gb_field_index(&rd->head, "Block Size");
    rd->c_grid = gb_field_index(&rd->head, "Grid Size");
    rd->c_name = gb_field_index(&rd->head, "Metric Name");
    rd->c_unit = gb_field_index(&rd->head, "Metric Unit");
    rd->c_value = gb_field_index(&rd->head, "Metric Value");
    rd->r->details = rd->c_name >= 0 && rd->c_value >= 0;
    return GB_OK;
}

/* Keeps the raw page's row of units (its fields point into the line,
 * which the next read reuses). */
static enum gb_status ncu_keep_units(struct ncu_reader *rd)
{
    if (!(rd->unit_v = calloc(rd->row.n, sizeof *rd->unit_v)))
        return gb_oom();
    rd->n_units = rd->row.n;
    for (size_t i = 0; i < rd->row.n; i++)
        if (!(rd->unit_v[i] = strdup(rd->row.v[i])))
            return gb_oom();
    rd->have_units = 1;
    rd->units_line = rd->lineno;
    return GB_OK;
}

/* The metrics of the current row into launch `l`. */
static enum gb_status ncu_row_metrics(struct ncu_reader *rd, struct gb_ncu_launch *l)
{
    enum gb_status st = GB_OK;
    const struct gb_fields *row = &rd->row;
    if (rd->r->details) {
        const char *name = row->v[rd->c_name];
        if (!name[0])
            return GB_OK;
        return gb_launch_add_metric(l, gb_ncu_alias(name), rd->c_unit >= 0 ? row->v[rd->c_unit] : "",
                                    row->v[rd->c_value], 1);
    }
    /* Metric columns are the ones whose names look like metrics: the fixed
     * columns have blanks or capitals in their names. */
    for (size_t i = 0; i < rd->head.n && st == GB_OK; i++) {
        const char *name = rd->head.v[i];
        if ((int)i == rd->c_id || (int)i == rd->c_kernel || !name[0] || strchr(name, ' ') ||
            !strstr(name, "__"))
            continue;
        st = gb_launch_add_metric(l, name, rd->have_units ? rd->unit_v[i] : "", row->v[i], 0);
    }
    return st;
}

/* A line after the header: a launch's row (or the raw page's units). */
static enum gb_status ncu_row(struct ncu_reader *rd, char *line)
{
    enum gb_status st;
    struct gb_fields *row = &rd->row;
    struct gb_ncu_launch *l = NULL;
    long id;
    if (gb_csv_split(line, row) != 0)
        return gb_error_set(GB_ERR_FORMAT, "%s:%ld: a quoted field is not closed", rd->path,
                            rd->lineno);
    if (row->n != rd->head.n)
        return gb_error_set(GB_ERR_FORMAT, "%s:%ld: %zu fields where the header (line with "
                            "\"Kernel Name\") has %zu", rd->path, rd->lineno, row->n, rd->head.n);
    if (gb_parse_id(row->v[rd->c_id], &id) != 0) {
        /* The raw page's second row carries the units, its ID empty. */
        if (!rd->r->details && !rd->have_units && rd->r->n_launches == 0 &&
            row->v[rd->c_id][0] == '\0')
            return ncu_keep_units(rd);
        return gb_error_set(GB_ERR_FORMAT, "%s:%ld: the ID field is '%s', not a launch number",
                            rd->path, rd->lineno, row->v[rd->c_id]);
    }
    if ((st = gb_report_launch(rd->r, id, row->v[rd->c_kernel],
                               rd->c_block >= 0 ? row->v[rd->c_block] : "",
                               rd->c_grid >= 0 ? row->v[rd->c_grid] : "", &l)) != GB_OK)
        return st;
    return ncu_row_metrics(rd, l);
}

/* What the whole file must have had. */
static enum gb_status ncu_finish(const struct ncu_reader *rd, FILE *f)
{
    if (ferror(f))
        return gb_error_set(GB_ERR_IO, "cannot read %s: %s", rd->path, strerror(errno));
    if (!rd->hbuf)
        return gb_error_set(GB_ERR_FORMAT, "%s is not an Nsight Compute CSV export: no header "
                            "row with \"ID\" and \"Kernel Name\"", rd->path);
    if (rd->r->n_launches == 0)
        return gb_error_set(GB_ERR_FORMAT, "%s holds no kernel launch (only its header%s)",
                            rd->path, rd->units_line ? " and units" : "");
    return GB_OK;
}

enum gb_status gb_ncu_load(const char *path, struct gb_ncu_report **out)
{
    enum gb_status st = GB_OK;
    struct ncu_reader rd = {.path = path, .c_id = -1, .c_kernel = -1, .c_block = -1,
                            .c_grid = -1, .c_name = -1, .c_unit = -1, .c_value = -1};
    char *line = NULL;
    size_t cap = 0;
    ssize_t len;

    *out = NULL;
    struct stat sb;
    if (stat(path, &sb) != 0)
        return gb_error_set(GB_ERR_IO, "cannot read %s: %s", path, strerror(errno));
    if (!S_ISREG(sb.st_mode))
        return gb_error_set(GB_ERR_IO, "cannot read %s: %s", path,
                            S_ISDIR(sb.st_mode) ? "it is a directory" : "not a regular file");
    FILE *f = fopen(path, "r");
    if (!f)
        return gb_error_set(GB_ERR_IO, "cannot read %s: %s", path, strerror(errno));
    if (!(rd.r = calloc(1, sizeof *rd.r))) {
        st = gb_oom();
        goto out;
    }
    while (st == GB_OK && (len = getline(&line, &cap, f)) != -1) {
        rd.lineno++;
        if (len > GB_NCU_LINE_MAX) {
            st = gb_error_set(GB_ERR_FORMAT, "%s:%ld: a line of %zd bytes: at most %d are allowed",
                              path, rd.lineno, len, GB_NCU_LINE_MAX);
            break;
        }
        while (len > 0 && (line[len - 1] == '\n' || line[len - 1] == '\r'))
            line[--len] = '\0';
        if (len == 0 || strncmp(line, "==", 2) == 0)
            continue;
        st = rd.hbuf ? ncu_row(&rd, line) : ncu_header(&rd, line);
    }
    if (st == GB_OK)
        st = ncu_finish(&rd, f);
out:
    fclose(f);
    free(line);
    ncu_reader_release(&rd);
    if (st != GB_OK)
        gb_ncu_free(rd.r);
    else
        *out = rd.r;
    return st;
}

const struct gb_ncu_launch *gb_ncu_launch_by_id(const struct gb_ncu_report *r, long id)
{
    const struct gb_ncu_launch *l = NULL;
    for (size_t i = 0; i < r->n_launches; i++)
        if (r->launches[i].id == id)
            l = &r->launches[i];
    return l;
}

void gb_ncu_free(struct gb_ncu_report *r)
{
    if (!r)
        return;
    for (size_t i = 0; i < r->n_launches; i++) {
        struct gb_ncu_launch *l = &r->launches[i];
        for (size_t k = 0; k < l->n_metrics; k++) {
            free(l->metrics[k].name);
            free(l->metrics[k].unit);
            free(l->metrics[k].text);
        }
        free(l->metrics);
        free(l->kernel);
        free(l->block);
        free(l->grid);
    }
    free(r->launches);
    free(r);
}

const struct gb_ncu_metric *gb_ncu_find(const struct gb_ncu_launch *l, const char *name)
{
    for (size_t i = 0; i < l->n_metrics; i++)
        if (strcmp(l->metrics[i].name, name) == 0)
            return &l->metrics[i];
    return NULL;
}

double gb_ncu_value(const struct gb_ncu_launch *l, const char *name, double fallback)
{
    const struct gb_ncu_metric *m = gb_ncu_find(l, name);
    return m && isfinite(m->value) ? m->value : fallback;
}

/* Whether a field holds no value: empty, or "n/a" as ncu writes where a
 * metric does not apply. */
static int gb_ncu_blank(const char *text)
{
    size_t n;
    while (isspace((unsigned char)*text))
        text++;
    for (n = strlen(text); n > 0 && isspace((unsigned char)text[n - 1]); n--)
        ;
    return n == 0 || (n == 3 && strncmp(text, "n/a", 3) == 0);
}

enum gb_status gb_ncu_range(const struct gb_ncu_launch *l, const char *name, enum gb_range_id id,
                            double *out)
{
    const struct gb_ncu_metric *m = gb_ncu_find(l, name);
    char who[64], value[160];
    *out = NAN;
    if (!m || (m->text && gb_ncu_blank(m->text)) || (!m->text && isnan(m->value)))
        return GB_OK;
    if (gb_range_ok(id, m->value)) {
        *out = m->value;
        return GB_OK;
    }
    snprintf(who, sizeof who, "launch %ld", l->id);
    if (m->text)
        snprintf(value, sizeof value, "%.60s%s%.40s", m->text, m->unit[0] ? " " : "", m->unit);
    else
        snprintf(value, sizeof value, "%.17g", m->value);
    return gb_range_error(who, name, value, id);
}

long gb_ncu_dim_product(const char *s)
{
    long p = 1; /* each factor <= 2^31 - 1, the product checked against LONG_MAX */
    int n = 0;
    while (isspace((unsigned char)*s))
        s++;
    if (*s != '(')
        return -1;
    s++;
    for (;;) {
        char *end;
        errno = 0;
        long v = strtol(s, &end, 10);
        if (end == s || errno || v < 0 || v > 2147483647L || (v > 0 && p > LONG_MAX / v))
            return -1;
        p *= v;
        n++;
        s = end;
        while (isspace((unsigned char)*s))
            s++;
        if (*s == ',') {
            s++;
            continue;
        }
        if (*s == ')')
            break;
        return -1;
    }
    return n ? p : -1;
}
