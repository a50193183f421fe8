/* cmd_geometry.c - `gpubound geometry RUN_DIR`: the block shapes to use, from
 * a recorded ubench run, per bench or per class of kernels. Parses, calls
 * the advisor (models/geometry/geometry.c) and prints its tables
 * (report/geometry_tables.c). */
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

struct gb_geo_args {
    struct gb_geo_query q;
    const char *class_name, *compare, *dir;
    char cmp[2][64];
    int shapes, list_classes;
    enum gb_format fmt;
};

static int gb_in_list(const char *const *list, const char *s)
{
    for (size_t i = 0; list[i]; i++)
        if (strcmp(list[i], s) == 0)
            return 1;
    return 0;
}

/* The options, until the first usage error (its exit code), else 0. */
static int gb_geo_options(int argc, char **argv, struct gb_geo_args *a)
{
    static const struct option longopts[] = {
        {"bench", required_argument, NULL, 'b'},   {"class", required_argument, NULL, 'k'},
        {"all", no_argument, NULL, 'a'},           {"size", required_argument, NULL, 's'},
        {"cache", required_argument, NULL, 'c'},   {"shapes", no_argument, NULL, 'S'},
        {"format", required_argument, NULL, 'f'},  {"classes", no_argument, NULL, 'L'},
        {"compare", required_argument, NULL, 'C'}, {NULL, 0, NULL, 0}};
    int c;
    if ((c = gb_cli_options_once("geometry", argc, argv, ":f:", longopts, NULL)) >= 0)
        return c;
    gb_cli_getopt_reset();
    while ((c = getopt_long(argc, argv, ":f:", longopts, NULL)) != -1) {
        switch (c) {
        case 'b': a->q.bench = optarg; break;
        case 'k': a->class_name = optarg; break;
        case 'a': a->q.all = 1; break;
        case 's': a->q.size = optarg; break;
        case 'c': a->q.cache = optarg; break;
        case 'S': a->shapes = 1; break;
        case 'L': a->list_classes = 1; break;
        case 'C': a->compare = optarg; break;
        case 'f':
            if (gb_format_parse(optarg, &a->fmt) != GB_OK)
                return gb_cli_usage("geometry", "--format: %s", gb_error_message());
            break;
        case ':': return gb_cli_usage("geometry", "%s needs a value", argv[optind - 1]);
        default: return gb_cli_usage("geometry", "unknown option '%s'", argv[optind - 1]);
        }
    }
    return GB_EXIT_OK;
}

/* --compare A,B into the query. */
static int gb_geo_split_compare(struct gb_geo_args *a)
{
    const char *s = a->compare, *comma = strchr(s, ',');
    if (!comma || comma == s || !comma[1] || strchr(comma + 1, ',') ||
        (size_t)(comma - s) >= sizeof a->cmp[0] || strlen(comma + 1) >= sizeof a->cmp[1])
        return gb_cli_usage("geometry", "--compare: '%s' is not two benches A,B", s);
    snprintf(a->cmp[0], sizeof a->cmp[0], "%.*s", (int)(comma - s), s);
    snprintf(a->cmp[1], sizeof a->cmp[1], "%s", comma + 1);
    if (a->shapes)
        return gb_cli_usage("geometry", "--shapes does not go with --compare");
    a->q.compare[0] = a->cmp[0];
    a->q.compare[1] = a->cmp[1];
    return GB_EXIT_OK;
}

/* The class of --class, or a usage error listing the classes. */
static int gb_geo_find_class(struct gb_geo_args *a)
{
    char avail[2048] = "";
    size_t n;
    const struct gb_geo_class *all = gb_geo_classes(&n);
    if ((a->q.cls = gb_geo_class_find(a->class_name)))
        return GB_EXIT_OK;
    for (size_t i = 0; i < n; i++) {
        size_t len = strlen(avail);
        snprintf(avail + len, sizeof avail - len, "%s%s", i ? ", " : "", all[i].name);
    }
    return gb_cli_usage("geometry", "unknown class '%s' (the classes: %s)", a->class_name, avail);
}

/* Everything that can be checked without reading the run. */
static int gb_geo_args_check(int argc, char **argv, struct gb_geo_args *a)
{
    int rc;
    if (argc - optind != 1) {
        if (argc == optind)
            return gb_cli_usage("geometry", "expected a RUN_DIR");
        return gb_cli_usage("geometry", "expected one RUN_DIR, not %d arguments", argc - optind);
    }
    a->dir = argv[optind];
    if (!a->dir[0])
        return gb_cli_usage("geometry", "an empty directory name");
    if ((a->q.bench != NULL) + (a->class_name != NULL) + a->q.all + (a->compare != NULL) != 1)
        return gb_cli_usage("geometry", "give exactly one of --bench B, --class C, --all and --compare A,B");
    if (a->compare && (rc = gb_geo_split_compare(a)) != GB_EXIT_OK)
        return rc;
    if (a->q.size && !gb_in_list(gb_geo_sizes, a->q.size))
        return gb_cli_usage("geometry", "--size: '%s' is not small, medium or large", a->q.size);
    if (a->q.cache && !gb_in_list(gb_geo_caches, a->q.cache))
        return gb_cli_usage("geometry", "--cache: '%s' is not min, default or max", a->q.cache);
    return a->class_name ? gb_geo_find_class(a) : GB_EXIT_OK;
}

static int gb_geo_print_table(struct gb_table *t, enum gb_format fmt, enum gb_status st)
{
    if (st == GB_OK)
        st = gb_table_print(t, stdout, fmt, fmt == GB_FORMAT_TABLE ? gb_term_width(stdout) : 0);
    gb_table_free(t);
    return st == GB_OK ? GB_EXIT_OK : gb_cli_fail(st, "geometry", NULL);
}

/* The results: as text per result, or as one table. */
static int gb_geo_print_results(const struct gb_geo_args *a, const struct gb_geo_result *v, size_t n)
{
    struct gb_table *t = NULL;
    enum gb_status st;
    int width = a->fmt == GB_FORMAT_TABLE ? gb_term_width(stdout) : 0;
    if (a->fmt == GB_FORMAT_TABLE && !a->q.all && !a->shapes) {
        for (size_t i = 0; i < n; i++) {
            if (i)
                fputc('\n', stdout);
            if ((st = gb_report_geometry_text(&v[i], stdout, width)) != GB_OK)
                return gb_cli_fail(st, "geometry", NULL);
        }
        return GB_EXIT_OK;
    }
    st = a->shapes ? gb_report_geometry_shapes(v, n, 1, 1, &t) : gb_report_geometry_table(v, n, &t);
    return gb_geo_print_table(t, a->fmt, st);
}

/* Reads the run, asks the advisor and prints its answer. */
static int gb_geo_answer(const struct gb_geo_args *a)
{
    struct gb_run *run = NULL;
    struct gb_geo_set *set = NULL;
    struct gb_geo_result *v = NULL;
    struct gb_table *t = NULL;
    struct gb_geo_counts counts;
    size_t n = 0;
    enum gb_status st;
    int rc = GB_EXIT_OK;

    if ((st = gb_cli_load_run(a->dir, &run)) != GB_OK) {
        rc = gb_cli_fail(st, "geometry", "give the directory of a run recorded by 'gpubound run ubench'");
        goto out;
    }
    if ((st = gb_geo_set_new(run->records, run->n_records, &set)) != GB_OK) {
        rc = gb_cli_fail(st, "geometry", NULL);
        goto out;
    }
    if (gb_geo_query_check(set, &a->q, a->dir) != GB_OK) {
        rc = gb_cli_usage("geometry", "%s", gb_error_message());
        goto out;
    }
    if (a->compare) {
        st = gb_report_geometry_compare(set, a->cmp[0], a->cmp[1], a->q.size, a->q.cache, &t);
        rc = gb_geo_print_table(t, a->fmt, st);
        goto out;
    }
    if ((st = gb_geo_query_run(set, &a->q, &v, &n)) != GB_OK) {
        rc = gb_cli_fail(st, "geometry", NULL);
        goto out;
    }
    if (!n) {
        gb_geo_query_none(&a->q, a->dir);
        rc = gb_cli_usage("geometry", "%s", gb_error_message());
        goto out;
    }
    if ((rc = gb_geo_print_results(a, v, n)) != GB_EXIT_OK)
        goto out;
    gb_geo_set_counts(set, &counts);
    if (counts.malformed || counts.duplicates)
        fprintf(stderr, "note: %zu ubench records without a valid shape or time were ignored; "
                        "%zu records measured again replaced by the later one\n",
                counts.malformed, counts.duplicates);
    if (!run->info.complete || run->truncated)
        fprintf(stderr, "note: %s did not end normally; the advice covers the points it recorded\n", a->dir);
out:
    for (size_t i = 0; i < n; i++)
        gb_geo_result_release(&v[i]);
    free(v);
    gb_geo_set_free(set);
    gb_run_free(run);
    return rc;
}

int gb_cmd_geometry(int argc, char **argv)
{
    struct gb_geo_args a = {.fmt = GB_FORMAT_TABLE};
    struct gb_table *t = NULL;
    int rc = gb_geo_options(argc, argv, &a);
    if (rc != GB_EXIT_OK)
        return rc;
    if (a.list_classes) {
        if (argc != optind || a.q.bench || a.class_name || a.q.all || a.q.size || a.q.cache || a.shapes ||
            a.compare)
            return gb_cli_usage("geometry", "--classes takes no run directory and no other option but --format");
        enum gb_status st = gb_report_geometry_classes(&t);
        return gb_geo_print_table(t, a.fmt, st);
    }
    if ((rc = gb_geo_args_check(argc, argv, &a)) != GB_EXIT_OK)
        return rc;
    return gb_geo_answer(&a);
}
