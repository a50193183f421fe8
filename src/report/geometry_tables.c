/* geometry_tables.c - the geometry advisor's results (gpubound/geometry.h) as
 * tables: the table of good shapes, and the ranked shapes of a group. */
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
