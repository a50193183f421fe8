/* speedup.c - speedup charts and their tables: pairs of records that differ
 * in one axis (gb_chart_spec.pair), the ratio of their median times with its
 * interval (models: gb_speedup_ratio), and published speedups beside them. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gpubound/report.h"
#include "gpubound/speedup.h"
#include "report_internal.h"

#define GB_SP_MAX_REFS 8
#define GB_SP_MAX_VALUES 64

struct gb_sp_spec {
    char axis[32], base[48], improved[48];
    int n_refs;
    char ref_label[GB_SP_MAX_REFS][96];
    int n_values[GB_SP_MAX_REFS];
    char ref_bench[GB_SP_MAX_REFS][GB_SP_MAX_VALUES][64];
    double ref_value[GB_SP_MAX_REFS][GB_SP_MAX_VALUES];
    int ref_sig[GB_SP_MAX_REFS][GB_SP_MAX_VALUES];   /* significant digits as written */
};

struct gb_sp_pair {
    const struct gb_record *base, *improved;
    char point[256];         /* the axes that tell this bench's pairs apart */
    struct gb_speedup sp;
    int has_sp;
};

static void gb_trim(const char **s, size_t *n)
{
    while (*n && **s == ' ') {
        (*s)++;
        (*n)--;
    }
    while (*n && (*s)[*n - 1] == ' ')
        (*n)--;
}

/* Reads "axis=base/improved" and the references. */
static enum gb_status gb_sp_parse(const struct gb_chart_spec *c, struct gb_sp_spec *sp)
{
    memset(sp, 0, sizeof *sp);
    if (c->kind != GB_CHART_SPEEDUP)
        return gb_error_set(GB_ERR_USAGE, "chart %s is not a speedup chart", c->name);
    const char *pair = c->pair ? c->pair : "";
    const char *eq = strchr(pair, '='), *slash = eq ? strchr(eq, '/') : NULL;
    if (!eq || !slash || eq == pair || slash == eq + 1 || !slash[1] ||
        (size_t)(eq - pair) >= sizeof sp->axis || (size_t)(slash - eq - 1) >= sizeof sp->base ||
        strlen(slash + 1) >= sizeof sp->improved)
        return gb_error_set(GB_ERR_USAGE, "chart %s: pair '%s' is not axis=base/improved", c->name, pair);
    snprintf(sp->axis, sizeof sp->axis, "%.*s", (int)(eq - pair), pair);
    snprintf(sp->base, sizeof sp->base, "%.*s", (int)(slash - eq - 1), eq + 1);
    snprintf(sp->improved, sizeof sp->improved, "%s", slash + 1);

    const char *refs = c->ref_speedups;
    while (refs && *refs) {
        size_t len = strcspn(refs, ";");
        const char *item = refs, *ieq = memchr(item, '=', len);
        refs += len;
        if (*refs == ';')
            refs++;
        if (!len)
            continue;
        if (!ieq || ieq == item)
            return gb_error_set(GB_ERR_USAGE, "chart %s: reference '%.*s' is not label=BENCH:value,...",
                                c->name, (int)len, item);
        if (sp->n_refs == GB_SP_MAX_REFS)
            return gb_error_set(GB_ERR_USAGE, "chart %s: more than %d references", c->name, GB_SP_MAX_REFS);
        int k = sp->n_refs++;
        snprintf(sp->ref_label[k], sizeof sp->ref_label[k], "%.*s", (int)(ieq - item), item);
        const char *v = ieq + 1, *end = item + len;
        while (v < end) {
            size_t vl = strcspn(v, ",");
            if (v + vl > end)
                vl = (size_t)(end - v);
            const char *ent = v;
            size_t en = vl;
            v += vl + 1;
            gb_trim(&ent, &en);
            if (!en)
                continue;
            const char *colon = memchr(ent, ':', en);
            char num[64], *stop;
            if (!colon || colon == ent || (size_t)(colon - ent) >= sizeof sp->ref_bench[0][0] ||
                en - (size_t)(colon - ent) - 1 >= sizeof num)
                return gb_error_set(GB_ERR_USAGE, "chart %s: reference value '%.*s' is not BENCH:value",
                                    c->name, (int)en, ent);
            snprintf(num, sizeof num, "%.*s", (int)(en - (size_t)(colon - ent) - 1), colon + 1);
            double x = strtod(num, &stop);
            if (!num[0] || *stop || !(x > 0) || !isfinite(x))
                return gb_error_set(GB_ERR_USAGE, "chart %s: reference value '%.*s' is not a positive number",
                                    c->name, (int)en, ent);
            if (sp->n_values[k] == GB_SP_MAX_VALUES)
                return gb_error_set(GB_ERR_USAGE, "chart %s: more than %d values in a reference", c->name,
                                    GB_SP_MAX_VALUES);
            int j = sp->n_values[k]++;
            snprintf(sp->ref_bench[k][j], sizeof sp->ref_bench[k][j], "%.*s", (int)(colon - ent), ent);
            sp->ref_value[k][j] = x;
            /* Shown with the digits it was published with: "2.50" stays "2.50". */
            int sig = 0, lead = 1;
            for (const char *d = num; *d && *d != 'e' && *d != 'E'; d++) {
                if (*d < '0' || *d > '9')
                    continue;
                if (*d != '0')
                    lead = 0;
                if (!lead)
                    sig++;
            }
            sp->ref_sig[k][j] = sig > 0 ? sig : 1;
        }
    }
    return GB_OK;
}

static double gb_sp_ref(const struct gb_sp_spec *sp, int k, const char *bench, int *sig)
{
    for (int j = 0; j < sp->n_values[k]; j++)
        if (strcmp(sp->ref_bench[k][j], bench) == 0) {
            if (sig)
                *sig = sp->ref_sig[k][j];
            return sp->ref_value[k][j];
        }
    return NAN;
}

/* Whether a and b are the same point but for `axis`. */
static int gb_sp_partners(const struct gb_record *a, const struct gb_record *b, const char *axis)
{
    if (strcmp(a->suite, b->suite) || strcmp(a->bench, b->bench) || a->n_axes != b->n_axes)
        return 0;
    for (int i = 0; i < a->n_axes; i++) {
        if (strcmp(a->axes[i].name, axis) == 0)
            continue;
        const char *v = gb_record_axis(b, a->axes[i].name);
        if (!v || strcmp(v, a->axes[i].value) != 0)
            return 0;
    }
    return 1;
}

static int gb_sp_usable(const struct gb_chart_set *s, const struct gb_chart_spec *c, const struct gb_record *r,
                        const char *axis, const char *value)
{
    const char *v = gb_record_axis(r, axis);
    return r->status == GB_REC_OK && r->time_ns.median > 0 && v && strcmp(v, value) == 0 &&
           gb_chart_selects(s, c, r);
}

/* The pairs of the chart, in the order their base records were recorded. */
static enum gb_status gb_sp_pairs(const struct gb_run *run, const struct gb_chart_set *s,
                                  const struct gb_chart_spec *c, const struct gb_sp_spec *sp,
                                  struct gb_sp_pair **out, size_t *n_out)
{
    struct gb_sp_pair *pairs = calloc(run->n_records ? run->n_records : 1, sizeof *pairs);
    size_t n = 0;
    *out = NULL;
    *n_out = 0;
    if (!pairs)
        return gb_error_set(GB_ERR_NOMEM, "out of memory");
    for (size_t i = 0; i < run->n_records; i++) {
        const struct gb_record *b = &run->records[i];
        if (!gb_sp_usable(s, c, b, sp->axis, sp->base))
            continue;
        for (size_t j = 0; j < run->n_records; j++) {
            const struct gb_record *r = &run->records[j];
            if (gb_sp_usable(s, c, r, sp->axis, sp->improved) && gb_sp_partners(b, r, sp->axis)) {
                struct gb_sp_pair *p = &pairs[n++];
                p->base = b;
                p->improved = r;
                /* A record without an interval counts as exact. */
                int bci = b->time_ns.ci_lo > 0 && b->time_ns.ci_lo <= b->time_ns.median && b->time_ns.ci_hi >= b->time_ns.median;
                int ici = r->time_ns.ci_lo > 0 && r->time_ns.ci_lo <= r->time_ns.median && r->time_ns.ci_hi >= r->time_ns.median;
                p->has_sp = gb_speedup_ratio(b->time_ns.median, bci ? b->time_ns.ci_lo : b->time_ns.median,
                                             bci ? b->time_ns.ci_hi : b->time_ns.median, r->time_ns.median,
                                             ici ? r->time_ns.ci_lo : r->time_ns.median, ici ? r->time_ns.ci_hi : r->time_ns.median,
                                             &p->sp) == GB_OK;
                break;
            }
        }
    }
    /* The point of a pair: the axes whose values differ among its bench's pairs. */
    for (size_t i = 0; i < n; i++) {
        const struct gb_record *b = pairs[i].base;
        size_t len = 0;
        for (int a = 0; a < b->n_axes; a++) {
            if (strcmp(b->axes[a].name, sp->axis) == 0)
                continue;
            int varies = 0;
            for (size_t j = 0; j < n && !varies; j++) {
                const struct gb_record *o = pairs[j].base;
                const char *v = gb_record_axis(o, b->axes[a].name);
                varies = strcmp(o->bench, b->bench) == 0 && (!v || strcmp(v, b->axes[a].value) != 0);
            }
            if (varies && len < sizeof pairs[i].point)
                len += (size_t)snprintf(pairs[i].point + len, sizeof pairs[i].point - len, "%s%s=%s",
                                        len ? " " : "", b->axes[a].name, b->axes[a].value);
        }
    }
    *out = pairs;
    *n_out = n;
    return GB_OK;
}

enum gb_status gb_report_speedup_table(const struct gb_run *run, const struct gb_chart_set *suite,
                                       const struct gb_chart_spec *spec, struct gb_table **out)
{
    enum gb_status st;
    struct gb_sp_spec *sp = malloc(sizeof *sp);
    struct gb_sp_pair *pairs = NULL;
    struct gb_table *t = NULL;
    size_t n = 0;
    *out = NULL;
    if (!sp)
        return gb_error_set(GB_ERR_NOMEM, "out of memory");
    if ((st = gb_sp_parse(spec, sp)) != GB_OK || (st = gb_sp_pairs(run, suite, spec, sp, &pairs, &n)) != GB_OK)
        goto out;
    int any_point = 0;
    double longest = 0;
    for (size_t i = 0; i < n; i++) {
        any_point |= pairs[i].point[0] != 0;
        longest = fmax(longest, fmax(pairs[i].base->time_ns.median, pairs[i].improved->time_ns.median));
    }
    int in_ms = longest >= 10e6;
    double unit = in_ms ? 1e6 : 1e3;
    const char *uname = in_ms ? "ms" : "\xc2\xb5s";
    if (!(t = gb_table_new())) {
        st = gb_error_set(GB_ERR_NOMEM, "out of memory");
        goto out;
    }
    if ((st = gb_table_column(t, "bench", NULL)) != GB_OK ||
        (any_point && (st = gb_table_column(t, "point", NULL)) != GB_OK) ||
        (st = gb_table_column(t, sp->base, uname)) != GB_OK ||
        (st = gb_table_column(t, sp->improved, uname)) != GB_OK ||
        (st = gb_table_column(t, "speedup", NULL)) != GB_OK ||
        (st = gb_table_column(t, "95% CI low", NULL)) != GB_OK ||
        (st = gb_table_column(t, "95% CI high", NULL)) != GB_OK)
        goto out;
    for (int k = 0; k < sp->n_refs; k++)
        if ((st = gb_table_column(t, sp->ref_label[k], NULL)) != GB_OK)
            goto out;
    for (size_t i = 0; i < n; i++) {
        const struct gb_record *rec[2] = {pairs[i].base, pairs[i].improved};
        if ((st = gb_table_row(t)) != GB_OK || (st = gb_table_cell_text(t, rec[0]->bench)) != GB_OK ||
            (any_point && (st = gb_table_cell_text(t, pairs[i].point[0] ? pairs[i].point : NULL)) != GB_OK))
            goto out;
        for (int k = 0; k < 2; k++) {
            const struct gb_record *r = rec[k];
            /* The CI of a median is not symmetric; show its larger side, as the summary does. */
            double half = NAN;
            if (r->time_ns.ci_hi > r->time_ns.ci_lo && r->time_ns.ci_lo > 0)
                half = fmax(r->time_ns.median - r->time_ns.ci_lo, r->time_ns.ci_hi - r->time_ns.median);
            if ((st = gb_table_cell_ci(t, r->time_ns.median / unit, half / unit)) != GB_OK)
                goto out;
        }
        int ok = pairs[i].has_sp;
        /* The speedup and its ends to the decimal place its interval warrants,
         * and deep enough to tell an end from 1 (no speedup). */
        double x[3] = {pairs[i].sp.ratio, pairs[i].sp.lo, pairs[i].sp.hi};
        int place, at = gb_format_ratio_place(x[0], x[1], x[2], &place);
        for (int k = 0; k < 3 && st == GB_OK; k++)
            st = at ? gb_table_cell_place(t, ok ? x[k] : NAN, place) : gb_table_cell_num(t, ok ? x[k] : NAN, 3);
        if (st != GB_OK)
            goto out;
        for (int k = 0; k < sp->n_refs; k++) {
            int sig = 4;
            double v = gb_sp_ref(sp, k, rec[0]->bench, &sig);
            if ((st = gb_table_cell_num(t, v, sig)) != GB_OK)
                goto out;
        }
    }
    *out = t;
    t = NULL;
out:
    gb_table_free(t);
    free(pairs);
    free(sp);
    return st;
}

/* Writes the table as <out_dir>/<name>.csv, atomically. */
static enum gb_status gb_sp_write_csv(const struct gb_table *t, const char *out_dir, const char *name,
                                      struct gb_report_result *res)
{
    char path[GB_PATH_MAX], file[256];
    struct gb_atomic_file a;
    enum gb_status st;
    snprintf(file, sizeof file, "%s.csv", name);
    snprintf(path, sizeof path, "%s/%s", out_dir, file);
    if ((st = gb_atomic_open(&a, path, "w")) != GB_OK)
        return st;
    if ((st = gb_table_print(t, a.f, GB_FORMAT_CSV, 0)) != GB_OK) {
        gb_atomic_abort(&a);
        return st;
    }
    if ((st = gb_atomic_commit(&a)) != GB_OK)
        return st;
    return gb_result_add_file(res, out_dir, file);
}

enum gb_status gb_chart_speedup(const struct gb_run *run, const struct gb_chart_set *s,
                                const struct gb_chart_spec *c, const char *out_dir, int formats,
                                struct gb_report_result *res)
{
    enum gb_status st;
    struct gb_sp_spec *sp = malloc(sizeof *sp);
    struct gb_sp_pair *pairs = NULL;
    struct gb_plot *p = NULL;
    struct gb_table *t = NULL;
    size_t n = 0;
    int drawn = 0;
    char label[512];
    if (!sp)
        return gb_error_set(GB_ERR_NOMEM, "out of memory");
    if ((st = gb_sp_parse(c, sp)) != GB_OK || (st = gb_sp_pairs(run, s, c, sp, &pairs, &n)) != GB_OK)
        goto out;
    if ((st = gb_chart_plot_new(run, c, GB_CHART_BAR, &p)) != GB_OK)
        goto out;
    gb_plot_log(p, 0, c->log_y);
    gb_plot_bar_base(p, 1.0);   /* a speedup: bars from 1, up for faster, down for slower */
    gb_plot_formats(p, formats);
    int ours, refs[GB_SP_MAX_REFS];
    /* The device is named under the title; the legend stays short. */
    if ((st = gb_plot_series(p, "measured (95% CI)", &ours)) != GB_OK)
        goto out;
    for (int k = 0; k < sp->n_refs; k++)
        if ((st = gb_plot_series(p, sp->ref_label[k], &refs[k])) != GB_OK)
            goto out;
    for (size_t i = 0; i < n; i++) {
        if (!pairs[i].has_sp)
            continue;
        if (pairs[i].point[0])
            snprintf(label, sizeof label, "%s %s", pairs[i].base->bench, pairs[i].point);
        else
            snprintf(label, sizeof label, "%s", pairs[i].base->bench);
        if ((st = gb_plot_bar(p, ours, label, pairs[i].sp.ratio, pairs[i].sp.lo, pairs[i].sp.hi)) != GB_OK)
            goto out;
        for (int k = 0; k < sp->n_refs; k++) {
            double v = gb_sp_ref(sp, k, pairs[i].base->bench, NULL);
            if (isfinite(v) && (st = gb_plot_bar(p, refs[k], label, v, NAN, NAN)) != GB_OK)
                goto out;
        }
        drawn++;
    }
    if (!drawn) {
        st = gb_result_add(&res->no_data, &res->n_no_data, c->name);
        goto out;
    }
    if ((st = gb_plot_ref(p, "no speedup", 1.0, NULL)) != GB_OK)
        goto out;
    /* The table beside the chart, at full precision, for spreadsheets. */
    if ((st = gb_report_speedup_table(run, s, c, &t)) != GB_OK ||
        (st = gb_sp_write_csv(t, out_dir, c->name, res)) != GB_OK)
        goto out;
    st = gb_plot_draw(p, out_dir, res);
out:
    gb_table_free(t);
    gb_plot_free(p);
    free(pairs);
    free(sp);
    return st;
}

enum gb_status gb_report_print_speedups_book(const struct gb_run *run,
                                             const struct gb_chart_book *book, FILE *f,
                                             enum gb_format fmt, int width)
{
    enum gb_status st = GB_OK;
    const char **seen = calloc(run->n_records ? run->n_records : 1, sizeof *seen);
    size_t n_seen = 0;
    if (!seen)
        return gb_error_set(GB_ERR_NOMEM, "out of memory");
    for (size_t i = 0; i < run->n_records && st == GB_OK; i++) {
        const char *name = run->records[i].suite;
        size_t k;
        for (k = 0; k < n_seen; k++)
            if (strcmp(seen[k], name) == 0)
                break;
        if (k < n_seen)
            continue;
        seen[n_seen++] = name;
        const struct gb_chart_set *s = gb_chart_book_find(book, name);
        for (int c = 0; s && c < s->n_charts && st == GB_OK; c++) {
            struct gb_table *t = NULL;
            if (s->charts[c].kind != GB_CHART_SPEEDUP)
                continue;
            st = gb_report_speedup_table(run, s, &s->charts[c], &t);
            if (st == GB_OK && gb_table_n_rows(t) > 0) {
                fprintf(f, "\n%s\n\n", s->charts[c].title ? s->charts[c].title : s->charts[c].name);
                st = gb_table_print(t, f, fmt, width);
            }
            gb_table_free(t);
        }
    }
    free(seen);
    return st;
}

enum gb_status gb_report_print_speedups(const struct gb_run *run, FILE *f, enum gb_format fmt, int width)
{
    struct gb_chart_book book;
    int found;
    enum gb_status st = gb_chart_book_load(run->dir, &book, &found);
    if (st == GB_OK)
        st = gb_report_print_speedups_book(run, &book, f, fmt, width);
    gb_chart_book_release(&book);
    return st;
}
