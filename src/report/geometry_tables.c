/* geometry_tables.c - the geometry advisor's results (gpubound/geometry.h) as
 * tables and text: the table of good shapes, the ranked shapes of a group,
 * the advice for one group, the classes, and two benches compared. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gpubound/geometry.h"
#include "gpubound/geometry_tables.h"
#include "gpubound/table.h"

static void gb_shape_name(char *buf, size_t n, const struct gb_geo_shape *sh)
{
    snprintf(buf, n, "%dx%d", sh->rows, sh->cols);
}

static const char *gb_tri(int v)
{
    return v > 0 ? "yes" : v == 0 ? "no" : "unknown";
}

#define GB_TRY(x)                   \
    do {                            \
        if ((st = (x)) != GB_OK)    \
            goto out;               \
    } while (0)

static enum gb_status gb_cell_shape(struct gb_table *t, const struct gb_geo_result *r, int i)
{
    char buf[32];
    if (i < 0)
        return gb_table_cell_empty(t);
    gb_shape_name(buf, sizeof buf, &r->shapes[i]);
    return gb_table_cell_text(t, buf);
}

static enum gb_status gb_cell_ratio(struct gb_table *t, const struct gb_geo_result *r, int i)
{
    return i < 0 ? gb_table_cell_empty(t) : gb_table_cell_num(t, r->shapes[i].ratio, 4);
}

enum gb_status gb_report_geometry_table(const struct gb_geo_result *res, size_t n,
                                        struct gb_table **out)
{
    enum gb_status st = GB_OK;
    int is_class = n > 0 && res[0].is_class;
    struct gb_table *t = gb_table_new();
    char *list = NULL;
    size_t cap = 0;
    *out = NULL;
    if (!t)
        return gb_error_set(GB_ERR_NOMEM, "out of memory");
    static const char *const cols[][2] = {
        {"size", NULL}, {"cache", NULL}, {"shapes", NULL}, {"not ok", NULL},
        {"best", NULL}, {"best", "µs"}, {"recommended", NULL}, {"within 5%", NULL},
        {"threads", NULL}, {"max-occ shapes", NULL}, {"best max-occ", NULL},
        {"best max-occ", "x best"}, {"worst max-occ", NULL}, {"worst max-occ", "x best"},
        {"max occ necessary", NULL}, {"max occ sufficient", NULL}, {"best square", NULL},
        {"best square", "x best"}, {"square recommended", NULL}};
    GB_TRY(gb_table_column(t, is_class ? "class" : "bench", NULL));
    for (size_t k = 0; k < sizeof cols / sizeof cols[0]; k++)
        GB_TRY(gb_table_column(t, cols[k][0], cols[k][1]));
    for (size_t i = 0; i < n; i++) {
        const struct gb_geo_result *r = &res[i];
        char buf[64];
        GB_TRY(gb_table_row(t));
        GB_TRY(gb_table_cell_text(t, r->name));
        GB_TRY(gb_table_cell_text(t, r->size));
        GB_TRY(gb_table_cell_text(t, r->cache));
        GB_TRY(gb_table_cell_int(t, (long long)r->n_shapes));
        GB_TRY(gb_table_cell_int(t, (long long)r->n_not_ok));
        if (!r->n_shapes)
            continue;
        GB_TRY(gb_cell_shape(t, r, 0));
        GB_TRY(is_class ? gb_table_cell_empty(t) : gb_table_cell_num(t, r->shapes[0].time_ns / 1e3, 4));
        /* the recommended shapes, fastest first */
        size_t need = r->n_good * 12 + 1;
        if (need > cap) {
            char *p = realloc(list, need);
            if (!p) {
                st = gb_error_set(GB_ERR_NOMEM, "out of memory");
                goto out;
            }
            list = p;
            cap = need;
        }
        list[0] = '\0';
        for (size_t k = 0; k < r->n_good; k++) {
            gb_shape_name(buf, sizeof buf, &r->shapes[k]);
            size_t len = strlen(list);
            snprintf(list + len, cap - len, "%s%s", k ? " " : "", buf);
        }
        GB_TRY(gb_table_cell_text(t, list));
        GB_TRY(gb_table_cell_int(t, (long long)r->n_good));
        if (r->good_min_threads == r->good_max_threads)
            snprintf(buf, sizeof buf, "%d", r->good_min_threads);
        else
            snprintf(buf, sizeof buf, "%d-%d", r->good_min_threads, r->good_max_threads);
        GB_TRY(gb_table_cell_text(t, buf));
        if (r->occ_known)
            GB_TRY(gb_table_cell_int(t, (long long)r->n_max_occ));
        else
            GB_TRY(gb_table_cell_empty(t));
        GB_TRY(gb_cell_shape(t, r, r->best_max_occ));
        GB_TRY(gb_cell_ratio(t, r, r->best_max_occ));
        GB_TRY(gb_cell_shape(t, r, r->worst_max_occ));
        GB_TRY(gb_cell_ratio(t, r, r->worst_max_occ));
        GB_TRY(gb_table_cell_text(t, gb_tri(r->max_occ_necessary)));
        GB_TRY(gb_table_cell_text(t, r->occ_known && !r->n_max_occ ? "no shape reaches it"
                                                                   : gb_tri(r->max_occ_sufficient)));
        GB_TRY(gb_cell_shape(t, r, r->best_square));
        GB_TRY(gb_cell_ratio(t, r, r->best_square));
        GB_TRY(r->best_square < 0 ? gb_table_cell_empty(t)
                                  : gb_table_cell_text(t, gb_tri(r->shapes[r->best_square].mark <= GB_GEO_WITHIN_5)));
    }
    *out = t;
    t = NULL;
out:
    free(list);
    gb_table_free(t);
    return st;
}

enum gb_status gb_report_geometry_shapes(const struct gb_geo_result *res, size_t n, int all,
                                         int group, struct gb_table **out)
{
    enum gb_status st = GB_OK;
    int is_class = n > 0 && res[0].is_class;
    struct gb_table *t = gb_table_new();
    *out = NULL;
    if (!t)
        return gb_error_set(GB_ERR_NOMEM, "out of memory");
    if (group) {
        GB_TRY(gb_table_column(t, is_class ? "class" : "bench", NULL));
        GB_TRY(gb_table_column(t, "size", NULL));
        GB_TRY(gb_table_column(t, "cache", NULL));
    }
    GB_TRY(gb_table_column(t, "rank", NULL));
    GB_TRY(gb_table_column(t, "shape", NULL));
    if (group) {
        GB_TRY(gb_table_column(t, "rows", NULL));
        GB_TRY(gb_table_column(t, "cols", NULL));
    }
    GB_TRY(gb_table_column(t, "threads", NULL));
    if (is_class) {
        GB_TRY(gb_table_column(t, "mean vs own best", NULL));
        GB_TRY(gb_table_column(t, "vs best", NULL));
        GB_TRY(gb_table_column(t, "worst bench vs its best", NULL));
    } else {
        GB_TRY(gb_table_column(t, "time", "µs"));
        GB_TRY(gb_table_column(t, "vs best", NULL));
    }
    GB_TRY(gb_table_column(t, "mark", NULL));
    GB_TRY(gb_table_column(t, "occupancy", NULL));
    GB_TRY(gb_table_column(t, "max occupancy", NULL));
    GB_TRY(gb_table_column(t, "square", NULL));
    for (size_t i = 0; i < n; i++) {
        const struct gb_geo_result *r = &res[i];
        size_t k_end = all ? r->n_shapes : r->n_good;
        for (size_t k = 0; k < k_end; k++) {
            const struct gb_geo_shape *sh = &r->shapes[k];
            char buf[32];
            GB_TRY(gb_table_row(t));
            if (group) {
                GB_TRY(gb_table_cell_text(t, r->name));
                GB_TRY(gb_table_cell_text(t, r->size));
                GB_TRY(gb_table_cell_text(t, r->cache));
            }
            GB_TRY(gb_table_cell_int(t, sh->rank));
            gb_shape_name(buf, sizeof buf, sh);
            GB_TRY(gb_table_cell_text(t, buf));
            if (group) {
                GB_TRY(gb_table_cell_int(t, sh->rows));
                GB_TRY(gb_table_cell_int(t, sh->cols));
            }
            GB_TRY(gb_table_cell_int(t, sh->threads));
            if (is_class)
                GB_TRY(gb_table_cell_num(t, sh->score, 4));
            else
                GB_TRY(gb_table_cell_num(t, sh->time_ns / 1e3, 4));
            GB_TRY(gb_table_cell_num(t, sh->ratio, 4));
            if (is_class)
                GB_TRY(gb_table_cell_num(t, sh->worst_ratio, 4));
            GB_TRY(gb_table_cell_text(t, gb_geo_mark_name(sh->mark)));
            GB_TRY(gb_table_cell_num(t, sh->occupancy, 3));
            GB_TRY(gb_table_cell_text(t, gb_tri(sh->max_occupancy)));
            GB_TRY(gb_table_cell_text(t, sh->square ? "yes" : "no"));
        }
    }
    *out = t;
    t = NULL;
out:
    gb_table_free(t);
    return st;
}

enum gb_status gb_report_good_shapes(const struct gb_run *run, struct gb_table **out)
{
    enum gb_status st = GB_OK;
    struct gb_geo_set *set = NULL;
    struct gb_geo_result *res = NULL;
    size_t n = 0;
    *out = NULL;
    if ((st = gb_geo_set_new(run->records, run->n_records, &set)) != GB_OK)
        return st;
    size_t nb = gb_geo_set_n_benches(set), nz = gb_geo_set_n_sizes(set), nc = gb_geo_set_n_caches(set);
    if (!nb) {
        st = gb_error_set(GB_ERR_USAGE, "the run has no record of the ubench suite");
        goto out;
    }
    if (!(res = calloc(nb * nz * nc, sizeof *res))) {
        st = gb_error_set(GB_ERR_NOMEM, "out of memory");
        goto out;
    }
    for (size_t b = 0; b < nb; b++)
        for (size_t z = 0; z < nz; z++)
            for (size_t c = 0; c < nc; c++) {
                const char *bench = gb_geo_set_bench(set, b), *size = gb_geo_set_size(set, z),
                           *cache = gb_geo_set_cache(set, c);
                if (!gb_geo_set_n_records(set, bench, size, cache))
                    continue;
                if ((st = gb_geo_analyze_bench(set, bench, size, cache, &res[n])) != GB_OK)
                    goto out;
                n++;
            }
    st = gb_report_geometry_table(res, n, out);
out:
    for (size_t i = 0; i < n; i++)
        gb_geo_result_release(&res[i]);
    free(res);
    gb_geo_set_free(set);
    return st;
}

/* ---- the advice for one result, as text ---- */

/* What the result is about and what was ranked. */
static void gb_geo_text_head(const struct gb_geo_result *r, FILE *f)
{
    if (r->is_class)
        fprintf(f, "class %s (%s), size %s, cache %s:", r->name, r->n_benches ? r->benches : "no bench measured",
                r->size, r->cache);
    else
        fprintf(f, "%s, size %s, cache %s:", r->name, r->size, r->cache);
    fprintf(f, " %zu shapes ranked", r->n_shapes);
    if (r->is_class && r->n_benches > 1)
        fprintf(f, " (measured ok in every bench)");
    if (r->n_not_ok)
        fprintf(f, "; %zu point%s not ok, ignored", r->n_not_ok, r->n_not_ok == 1 ? "" : "s");
    if (r->n_dropped)
        fprintf(f, "; %zu shape%s left out, not ok in some bench", r->n_dropped, r->n_dropped == 1 ? "" : "s");
    fputc('\n', f);
    if (r->is_class && r->missing[0])
        fprintf(f, "not in this group (no ok record): %s\n", r->missing);
}

/* The best shapes and the recommended range. */
static void gb_geo_text_best(const struct gb_geo_result *r, FILE *f)
{
    char a[32];
    const struct gb_geo_shape *best = &r->shapes[0];
    fprintf(f, "best: ");
    for (size_t k = 0; k < r->n_best; k++) {
        gb_shape_name(a, sizeof a, &r->shapes[k]);
        fprintf(f, "%s%s (%d threads)", k ? ", " : "", a, r->shapes[k].threads);
    }
    if (r->n_best > 1)
        fprintf(f, ", tied");
    if (r->is_class)
        fprintf(f, "; %.3f x each bench's own best (geometric mean), %.3f x at worst\n", best->score,
                best->worst_ratio);
    else
    {
        gb_format_num(a, sizeof a, best->time_ns / 1e3, 4);
        fprintf(f, "; %s µs\n", a);
    }
    fprintf(f, "recommended, within 5%% of the best: %zu shape%s, ", r->n_good, r->n_good == 1 ? "" : "s");
    if (r->good_min_threads == r->good_max_threads)
        fprintf(f, "%d threads, ", r->good_min_threads);
    else
        fprintf(f, "%d to %d threads, ", r->good_min_threads, r->good_max_threads);
    if (r->good_min_cols == r->good_max_cols)
        fprintf(f, "%d columns\n", r->good_min_cols);
    else
        fprintf(f, "%d to %d columns\n", r->good_min_cols, r->good_max_cols);
}

/* 'maximize occupancy' beside the recommendation. */
static void gb_geo_text_occupancy(const struct gb_geo_result *r, FILE *f)
{
    char a[32], b[32];
    if (!r->occ_known) {
        fprintf(f, "maximize occupancy: unknown, the records carry no max_occupancy metric\n");
    } else if (!r->n_max_occ) {
        fprintf(f, "maximize occupancy: no ranked shape reaches it; necessary: no\n");
    } else {
        gb_shape_name(a, sizeof a, &r->shapes[r->best_max_occ]);
        gb_shape_name(b, sizeof b, &r->shapes[r->worst_max_occ]);
        fprintf(f, "maximize occupancy: %zu of %zu shapes reach it; the fastest of them, %s, is %.3f x the best, "
                   "the slowest, %s, %.3f x\n",
                r->n_max_occ, r->n_shapes, a, r->shapes[r->best_max_occ].ratio, b,
                r->shapes[r->worst_max_occ].ratio);
        if (r->max_occ_necessary)
            fprintf(f, "  necessary: yes, every recommended shape reaches it\n");
        else
            fprintf(f, "  necessary: no, %zu of %zu recommended shapes %s not reach it\n",
                    r->n_good - r->n_good_max_occ, r->n_good,
                    r->n_good - r->n_good_max_occ == 1 ? "does" : "do");
        if (r->max_occ_sufficient)
            fprintf(f, "  sufficient: yes, every shape that reaches it is recommended\n");
        else
            fprintf(f, "  sufficient: no, %zu of the %zu shapes that reach it %s not recommended\n",
                    r->n_max_occ - r->n_good_max_occ, r->n_max_occ,
                    r->n_max_occ - r->n_good_max_occ == 1 ? "is" : "are");
    }
}

/* 'square blocks' beside the recommendation. */
static void gb_geo_text_square(const struct gb_geo_result *r, FILE *f)
{
    char a[32];
    if (r->best_square < 0) {
        fprintf(f, "square blocks: no nearest-square shape was ranked\n");
    } else {
        const struct gb_geo_shape *sq = &r->shapes[r->best_square];
        gb_shape_name(a, sizeof a, sq);
        fprintf(f, "square blocks: the fastest nearest-square shape, %s (%d threads), is %.3f x the best: %s",
                a, sq->threads, sq->ratio, gb_geo_mark_name(sq->mark));
        if (sq->mark <= GB_GEO_WITHIN_5)
            fprintf(f, ", recommended (rank %d)\n", sq->rank);
        else
            fprintf(f, ", not recommended\n");
    }
}

enum gb_status gb_report_geometry_text(const struct gb_geo_result *r, FILE *f, int width)
{
    enum gb_status st = GB_OK;
    struct gb_table *t = NULL;
    gb_geo_text_head(r, f);
    if (!r->n_shapes) {
        fprintf(f, "no shape to rank\n");
        return ferror(f) ? gb_error_set(GB_ERR_IO, "cannot write to stdout") : GB_OK;
    }
    gb_geo_text_best(r, f);
    GB_TRY(gb_report_geometry_shapes(r, 1, 0, 0, &t));
    GB_TRY(gb_table_print(t, f, GB_FORMAT_TABLE, width));

    gb_geo_text_occupancy(r, f);
    gb_geo_text_square(r, f);
    fprintf(f, "marks: %zu best, %zu within 5%%, %zu within 25%%, %zu other\n", r->n_best,
            r->n_good - r->n_best, r->n_fair - r->n_good, r->n_shapes - r->n_fair);
    if (ferror(f))
        st = gb_error_set(GB_ERR_IO, "cannot write to stdout");
out:
    gb_table_free(t);
    return st;
}

enum gb_status gb_report_geometry_classes(struct gb_table **out)
{
    size_t n;
    const struct gb_geo_class *c = gb_geo_classes(&n);
    struct gb_table *t = gb_table_new();
    enum gb_status st;
    *out = NULL;
    if (!t)
        return gb_error_set(GB_ERR_NOMEM, "out of memory");
    GB_TRY(gb_table_column(t, "class", NULL));
    GB_TRY(gb_table_column(t, "benches", NULL));
    GB_TRY(gb_table_column(t, "paper", NULL));
    GB_TRY(gb_table_column(t, "what", NULL));
    for (size_t i = 0; i < n; i++) {
        GB_TRY(gb_table_row(t));
        GB_TRY(gb_table_cell_text(t, c[i].name));
        GB_TRY(gb_table_cell_text(t, c[i].benches));
        GB_TRY(gb_table_cell_text(t, c[i].source));
        GB_TRY(gb_table_cell_text(t, c[i].what));
    }
    *out = t;
    t = NULL;
out:
    gb_table_free(t);
    return st;
}

/* ---- two benches' best shapes against each other ---- */

/* For every size and cache where both benches were measured: the best shape
 * and time of each, and the reduction 1 - best(B) / best(A). */
enum gb_status gb_report_geometry_compare(const struct gb_geo_set *set, const char *a, const char *b,
                                          const char *size, const char *cache, struct gb_table **out)
{
    enum gb_status st = GB_OK;
    struct gb_table *t = gb_table_new();
    struct gb_geo_result ra = {0}, rb = {0};
    char name[32], col[96];
    size_t rows = 0;
    if (!t)
        return gb_error_set(GB_ERR_NOMEM, "out of memory");
    GB_TRY(gb_table_column(t, "size", NULL));
    GB_TRY(gb_table_column(t, "cache", NULL));
    snprintf(col, sizeof col, "best %s", a);
    GB_TRY(gb_table_column(t, col, NULL));
    GB_TRY(gb_table_column(t, a, "µs"));
    snprintf(col, sizeof col, "best %s", b);
    GB_TRY(gb_table_column(t, col, NULL));
    GB_TRY(gb_table_column(t, b, "µs"));
    GB_TRY(gb_table_column(t, "reduction", "%"));
    for (size_t zi = 0; zi < gb_geo_set_n_sizes(set); zi++) {
        const char *z = gb_geo_set_size(set, zi);
        if (size && strcmp(size, z) != 0)
            continue;
        for (size_t ci = 0; ci < gb_geo_set_n_caches(set); ci++) {
            const char *k = gb_geo_set_cache(set, ci);
            if ((cache && strcmp(cache, k) != 0) || !gb_geo_set_n_records(set, a, z, k) ||
                !gb_geo_set_n_records(set, b, z, k))
                continue;
            GB_TRY(gb_geo_analyze_bench(set, a, z, k, &ra));
            GB_TRY(gb_geo_analyze_bench(set, b, z, k, &rb));
            if (ra.n_shapes && rb.n_shapes) {
                GB_TRY(gb_table_row(t));
                GB_TRY(gb_table_cell_text(t, z));
                GB_TRY(gb_table_cell_text(t, k));
                gb_shape_name(name, sizeof name, &ra.shapes[0]);
                GB_TRY(gb_table_cell_text(t, name));
                GB_TRY(gb_table_cell_num(t, ra.shapes[0].time_ns / 1e3, 4));
                gb_shape_name(name, sizeof name, &rb.shapes[0]);
                GB_TRY(gb_table_cell_text(t, name));
                GB_TRY(gb_table_cell_num(t, rb.shapes[0].time_ns / 1e3, 4));
                GB_TRY(gb_table_cell_num(t, 100.0 * (1.0 - rb.shapes[0].time_ns / ra.shapes[0].time_ns), 3));
                rows++;
            }
            gb_geo_result_release(&ra);
            gb_geo_result_release(&rb);
        }
    }
    if (!rows)
        st = gb_error_set(GB_ERR_USAGE, "no size and cache with ok records of both %s and %s", a, b);
out:
    gb_geo_result_release(&ra);
    gb_geo_result_release(&rb);
    if (st != GB_OK) {
        gb_table_free(t);
        t = NULL;
    }
    *out = t;
    return st;
}
