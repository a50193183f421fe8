/* cmd_geometry.c - `gpubound geometry RUN_DIR`: the block shapes to use, from
 * a recorded ubench run, per bench or per class of kernels. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/cmd_geometry.h"
#include "gpubound/geometry.h"
#include "gpubound/geometry_tables.h"
#include "gpubound/table.h"

static const char *const gb_geo_sizes[] = {"small", "medium", "large", NULL};
static const char *const gb_geo_caches[] = {"min", "default", "max", NULL};

static int gb_in_list(const char *const *list, const char *s)
{
    for (size_t i = 0; list[i]; i++)
        if (strcmp(list[i], s) == 0)
            return 1;
    return 0;
}

static void gb_shape_name(char *buf, size_t n, const struct gb_geo_shape *sh)
{
    snprintf(buf, n, "%dx%d", sh->rows, sh->cols);
}

/* "a, b, c" of the set's values (bench, size or cache) into buf. */
static void gb_set_values(const struct gb_geo_set *s, int which, char *buf, size_t n)
{
    size_t k = which == 0 ? gb_geo_set_n_benches(s) : which == 1 ? gb_geo_set_n_sizes(s)
                                                                 : gb_geo_set_n_caches(s);
    buf[0] = '\0';
    for (size_t i = 0; i < k; i++) {
        const char *v = which == 0 ? gb_geo_set_bench(s, i) : which == 1 ? gb_geo_set_size(s, i)
                                                                         : gb_geo_set_cache(s, i);
        size_t len = strlen(buf);
        snprintf(buf + len, n - len, "%s%s", i ? ", " : "", v);
    }
}

/* ---- --classes ---- */

static int gb_geo_print_classes(enum gb_format fmt)
{
    size_t n;
    const struct gb_geo_class *c = gb_geo_classes(&n);
    struct gb_table *t = gb_table_new();
    enum gb_status st = GB_OK;
    int rc = GB_EXIT_OK;
    if (!t) {
        gb_error_set(GB_ERR_NOMEM, "out of memory");
        rc = gb_cli_fail(GB_ERR_NOMEM, "geometry", NULL);
        goto out;
    }
    if ((st = gb_table_column(t, "class", NULL)) != GB_OK || (st = gb_table_column(t, "benches", NULL)) != GB_OK ||
        (st = gb_table_column(t, "paper", NULL)) != GB_OK || (st = gb_table_column(t, "what", NULL)) != GB_OK)
        goto fail;
    for (size_t i = 0; i < n; i++)
        if ((st = gb_table_row(t)) != GB_OK || (st = gb_table_cell_text(t, c[i].name)) != GB_OK ||
            (st = gb_table_cell_text(t, c[i].benches)) != GB_OK ||
            (st = gb_table_cell_text(t, c[i].source)) != GB_OK ||
            (st = gb_table_cell_text(t, c[i].what)) != GB_OK)
            goto fail;
    if ((st = gb_table_print(t, stdout, fmt, fmt == GB_FORMAT_TABLE ? gb_term_width(stdout) : 0)) != GB_OK)
        goto fail;
    goto out;
fail:
    rc = gb_cli_fail(st, "geometry", NULL);
out:
    gb_table_free(t);
    return rc;
}

#define GB_TRY(x)                   \
    do {                            \
        if ((st = (x)) != GB_OK)    \
            goto out;               \
    } while (0)

/* ---- the section of one result, as text ---- */

static enum gb_status gb_geo_print_section(const struct gb_geo_result *r, FILE *f, int width)
{
    enum gb_status st = GB_OK;
    struct gb_table *t = NULL;
    char a[32], b[32];
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
    if (!r->n_shapes) {
        fprintf(f, "no shape to rank\n");
        return ferror(f) ? gb_error_set(GB_ERR_IO, "cannot write to stdout") : GB_OK;
    }
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
    GB_TRY(gb_report_geometry_shapes(r, 1, 0, 0, &t));
    GB_TRY(gb_table_print(t, f, GB_FORMAT_TABLE, width));

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
    fprintf(f, "marks: %zu best, %zu within 5%%, %zu within 25%%, %zu other\n", r->n_best,
            r->n_good - r->n_best, r->n_fair - r->n_good, r->n_shapes - r->n_fair);
    if (ferror(f))
        st = gb_error_set(GB_ERR_IO, "cannot write to stdout");
out:
    gb_table_free(t);
    return st;
}

/* ---- two benches' best shapes against each other (--compare A,B) ---- */

/* For every size and cache where both benches were measured: the best shape
 * and time of each, and the reduction 1 - best(B) / best(A). */
static enum gb_status gb_geo_compare(const struct gb_geo_set *set, const char *a, const char *b,
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

/* ---- the command ---- */

struct gb_geo_results {
    struct gb_geo_result *v;
    size_t n, cap;
};

static enum gb_status gb_geo_results_push(struct gb_geo_results *rs, struct gb_geo_result **slot)
{
    if (rs->n == rs->cap) {
        size_t cap = rs->cap ? rs->cap * 2 : 16;
        struct gb_geo_result *v = realloc(rs->v, cap * sizeof *v);
        if (!v)
            return gb_error_set(GB_ERR_NOMEM, "out of memory");
        rs->v = v;
        rs->cap = cap;
    }
    *slot = &rs->v[rs->n];
    memset(*slot, 0, sizeof **slot);
    return GB_OK;
}

int gb_cmd_geometry(int argc, char **argv)
{
    static const struct option longopts[] = {
        {"bench", required_argument, NULL, 'b'},
        {"class", required_argument, NULL, 'k'},
        {"all", no_argument, NULL, 'a'},
        {"size", required_argument, NULL, 's'},
        {"cache", required_argument, NULL, 'c'},
        {"shapes", no_argument, NULL, 'S'},
        {"format", required_argument, NULL, 'f'},
        {"classes", no_argument, NULL, 'L'},
        {"compare", required_argument, NULL, 'C'},
        {NULL, 0, NULL, 0}};
    const char *bench = NULL, *class_name = NULL, *size = NULL, *cache = NULL, *dir, *compare = NULL;
    char cmp_a[64] = "", cmp_b[64] = "";
    int all = 0, shapes = 0, list_classes = 0, c, rc = GB_EXIT_OK;
    enum gb_format fmt = GB_FORMAT_TABLE;
    const struct gb_geo_class *cls = NULL;
    struct gb_run *run = NULL;
    struct gb_geo_set *set = NULL;
    struct gb_geo_results rs = {0};
    struct gb_table *t = NULL;
    enum gb_status st;
    char avail[2048];

    gb_cli_getopt_reset();
    while ((c = getopt_long(argc, argv, ":f:", longopts, NULL)) != -1) {
        switch (c) {
        case 'b': bench = optarg; break;
        case 'k': class_name = optarg; break;
        case 'a': all = 1; break;
        case 's': size = optarg; break;
        case 'c': cache = optarg; break;
        case 'S': shapes = 1; break;
        case 'L': list_classes = 1; break;
        case 'C': compare = optarg; break;
        case 'f':
            if (gb_format_parse(optarg, &fmt) != GB_OK) {
                rc = gb_cli_usage("geometry", "--format: %s", gb_error_message());
                goto out;
            }
            break;
        case ':': rc = gb_cli_usage("geometry", "%s needs a value", argv[optind - 1]); goto out;
        default: rc = gb_cli_usage("geometry", "unknown option '%s'", argv[optind - 1]); goto out;
        }
    }
    if (list_classes) {
        if (argc != optind || bench || class_name || all || size || cache || shapes || compare) {
            rc = gb_cli_usage("geometry", "--classes takes no run directory and no other option but --format");
            goto out;
        }
        rc = gb_geo_print_classes(fmt);
        goto out;
    }
    if (argc - optind != 1) {
        if (argc == optind)
            rc = gb_cli_usage("geometry", "expected a RUN_DIR");
        else
            rc = gb_cli_usage("geometry", "expected one RUN_DIR, not %d arguments", argc - optind);
        goto out;
    }
    dir = argv[optind];
    if (!dir[0]) {
        rc = gb_cli_usage("geometry", "an empty directory name");
        goto out;
    }
    if ((bench != NULL) + (class_name != NULL) + all + (compare != NULL) != 1) {
        rc = gb_cli_usage("geometry", "give exactly one of --bench B, --class C, --all and --compare A,B");
        goto out;
    }
    if (compare) {
        const char *comma = strchr(compare, ',');
        if (!comma || comma == compare || !comma[1] || strchr(comma + 1, ',') ||
            (size_t)(comma - compare) >= sizeof cmp_a || strlen(comma + 1) >= sizeof cmp_b) {
            rc = gb_cli_usage("geometry", "--compare: '%s' is not two benches A,B", compare);
            goto out;
        }
        snprintf(cmp_a, sizeof cmp_a, "%.*s", (int)(comma - compare), compare);
        snprintf(cmp_b, sizeof cmp_b, "%s", comma + 1);
        if (shapes) {
            rc = gb_cli_usage("geometry", "--shapes does not go with --compare");
            goto out;
        }
    }
    if (size && !gb_in_list(gb_geo_sizes, size)) {
        rc = gb_cli_usage("geometry", "--size: '%s' is not small, medium or large", size);
        goto out;
    }
    if (cache && !gb_in_list(gb_geo_caches, cache)) {
        rc = gb_cli_usage("geometry", "--cache: '%s' is not min, default or max", cache);
        goto out;
    }
    if (class_name && !(cls = gb_geo_class_find(class_name))) {
        size_t n;
        const struct gb_geo_class *all_c = gb_geo_classes(&n);
        avail[0] = '\0';
        for (size_t i = 0; i < n; i++) {
            size_t len = strlen(avail);
            snprintf(avail + len, sizeof avail - len, "%s%s", i ? ", " : "", all_c[i].name);
        }
        rc = gb_cli_usage("geometry", "unknown class '%s' (the classes: %s)", class_name, avail);
        goto out;
    }

    if ((st = gb_run_load(dir, &run)) != GB_OK) {
        rc = gb_cli_fail(st, "geometry", "give the directory of a run recorded by 'gpubound run ubench'");
        goto out;
    }
    if ((st = gb_geo_set_new(run->records, run->n_records, &set)) != GB_OK) {
        rc = gb_cli_fail(st, "geometry", NULL);
        goto out;
    }
    struct gb_geo_counts counts;
    gb_geo_set_counts(set, &counts);
    if (!counts.records) {
        rc = gb_cli_usage("geometry", "%s has no record of the ubench suite (%zu records of other suites); "
                          "record one with 'gpubound run ubench'", dir, counts.other_suites);
        goto out;
    }
    if (bench && !gb_geo_set_n_records(set, bench, NULL, NULL)) {
        gb_set_values(set, 0, avail, sizeof avail);
        if (gb_geo_known_bench(bench))
            rc = gb_cli_usage("geometry", "%s has no record of bench %s; its benches: %s", dir, bench, avail);
        else
            rc = gb_cli_usage("geometry", "unknown bench '%s'; the benches of %s: %s", bench, dir, avail);
        goto out;
    }
    if (size && !gb_geo_set_n_records(set, NULL, size, NULL)) {
        gb_set_values(set, 1, avail, sizeof avail);
        rc = gb_cli_usage("geometry", "%s has no record at size %s; its sizes: %s", dir, size, avail);
        goto out;
    }
    if (cache && !gb_geo_set_n_records(set, NULL, NULL, cache)) {
        gb_set_values(set, 2, avail, sizeof avail);
        rc = gb_cli_usage("geometry", "%s has no record at cache %s; its caches: %s", dir, cache, avail);
        goto out;
    }
    for (int i = 0; compare && i < 2; i++) {
        const char *b = i ? cmp_b : cmp_a;
        if (!gb_geo_set_n_records(set, b, NULL, NULL)) {
            gb_set_values(set, 0, avail, sizeof avail);
            rc = gb_cli_usage("geometry", "%s has no record of bench %s; its benches: %s", dir, b, avail);
            goto out;
        }
    }
    if (compare) {
        if ((st = gb_geo_compare(set, cmp_a, cmp_b, size, cache, &t)) != GB_OK ||
            (st = gb_table_print(t, stdout, fmt, fmt == GB_FORMAT_TABLE ? gb_term_width(stdout) : 0)) != GB_OK)
            rc = gb_cli_fail(st, "geometry", NULL);
        goto out;
    }
    if (cls) {
        int any = 0;
        for (size_t i = 0; i < gb_geo_set_n_benches(set); i++)
            any |= gb_geo_class_has(cls, gb_geo_set_bench(set, i));
        if (!any) {
            gb_set_values(set, 0, avail, sizeof avail);
            rc = gb_cli_usage("geometry", "%s has no bench of class %s (%s); it has %s", dir, cls->name,
                              cls->benches, avail);
            goto out;
        }
    }

    /* Every result first: nothing is printed unless all of it can be. */
    for (size_t bi = 0; bi < (all ? gb_geo_set_n_benches(set) : 1); bi++) {
        const char *b = all ? gb_geo_set_bench(set, bi) : bench;
        for (size_t zi = 0; zi < gb_geo_set_n_sizes(set); zi++) {
            const char *z = gb_geo_set_size(set, zi);
            if (size && strcmp(size, z) != 0)
                continue;
            for (size_t ci = 0; ci < gb_geo_set_n_caches(set); ci++) {
                const char *k = gb_geo_set_cache(set, ci);
                struct gb_geo_result *r = NULL;
                if (cache && strcmp(cache, k) != 0)
                    continue;
                if (cls) {
                    size_t n_rec = 0;
                    for (size_t i = 0; i < gb_geo_set_n_benches(set); i++)
                        if (gb_geo_class_has(cls, gb_geo_set_bench(set, i)))
                            n_rec += gb_geo_set_n_records(set, gb_geo_set_bench(set, i), z, k);
                    if (!n_rec)
                        continue;
                } else if (!gb_geo_set_n_records(set, b, z, k)) {
                    continue;
                }
                if ((st = gb_geo_results_push(&rs, &r)) != GB_OK ||
                    (st = cls ? gb_geo_analyze_class(set, cls, z, k, r)
                              : gb_geo_analyze_bench(set, b, z, k, r)) != GB_OK) {
                    rc = gb_cli_fail(st, "geometry", NULL);
                    goto out;
                }
                rs.n++;
            }
        }
    }
    if (!rs.n) {
        rc = gb_cli_usage("geometry", "%s has no record of %s%s%s%s%s", dir, cls ? cls->name : bench ? bench : "ubench",
                          size ? " at size " : "", size ? size : "", cache ? " and cache " : "", cache ? cache : "");
        goto out;
    }

    int width = fmt == GB_FORMAT_TABLE ? gb_term_width(stdout) : 0;
    if (fmt == GB_FORMAT_TABLE && !all && !shapes) {
        for (size_t i = 0; i < rs.n; i++) {
            if (i)
                fputc('\n', stdout);
            if ((st = gb_geo_print_section(&rs.v[i], stdout, width)) != GB_OK) {
                rc = gb_cli_fail(st, "geometry", NULL);
                goto out;
            }
        }
    } else {
        st = shapes ? gb_report_geometry_shapes(rs.v, rs.n, 1, 1, &t)
                    : gb_report_geometry_table(rs.v, rs.n, &t);
        if (st != GB_OK || (st = gb_table_print(t, stdout, fmt, width)) != GB_OK) {
            rc = gb_cli_fail(st, "geometry", NULL);
            goto out;
        }
    }
    if (counts.malformed || counts.duplicates)
        fprintf(stderr, "note: %zu ubench records without a valid shape or time were ignored; "
                        "%zu records measured again replaced by the later one\n",
                counts.malformed, counts.duplicates);
    if (!run->info.complete || run->truncated)
        fprintf(stderr, "note: %s did not end normally; the advice covers the points it recorded\n", dir);
out:
    for (size_t i = 0; i < rs.n; i++)
        gb_geo_result_release(&rs.v[i]);
    free(rs.v);
    gb_table_free(t);
    gb_geo_set_free(set);
    gb_run_free(run);
    return rc;
}
