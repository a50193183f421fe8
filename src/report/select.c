/* select.c - which charts a report draws: name patterns, and the primary
 * charts of a large run (struct gb_report_opts, gb_chart_spec.primary). */
#include <fnmatch.h>
#include <stdlib.h>
#include <string.h>

#include "gpubound/report.h"
#include "report_internal.h"

/* Whether the comma list `list` holds the item of `len` characters at `item`. */
static int gb_list_has(const char *list, const char *item, size_t len)
{
    while (list && *list) {
        size_t n = strcspn(list, ",");
        if (n == len && strncmp(list, item, len) == 0)
            return 1;
        list += n;
        if (*list == ',')
            list++;
    }
    return 0;
}

/* Whether instance `in` has every "axis=value" of the primary list (an item
 * "bench=NAME" is the instance's bench). */
static int gb_primary_matches(const char *primary, const struct gb_chart_inst *in)
{
    while (*primary) {
        size_t n = strcspn(primary, ",");
        if (n > 6 && strncmp(primary, "bench=", 6) == 0) {
            if (strlen(in->bench) != n - 6 || strncmp(in->bench, primary + 6, n - 6) != 0)
                return 0;
        } else if (n && !gb_list_has(in->where, primary, n)) {
            return 0;
        }
        primary += n;
        if (*primary == ',')
            primary++;
    }
    return 1;
}

static int gb_set_has_primary(const struct gb_chart_set *set)
{
    for (int i = 0; i < set->n_charts; i++)
        if (set->charts[i].primary)
            return 1;
    return 0;
}

/* The default of a large run: the spec's primary instances, or the first
 * chart of each spec of a set that marks none primary. */
static int gb_chart_primary(const struct gb_chart_set *set, const struct gb_chart_spec *c,
                            const struct gb_chart_inst *in, size_t k)
{
    if (!c->primary)
        return !gb_set_has_primary(set) && k == 0;
    if (strcmp(c->primary, "*") == 0)
        return 1;
    return in && c->split ? gb_primary_matches(c->primary, in) : 0;
}

static int gb_pattern_hits(const struct gb_report_opts *opts, const struct gb_chart_spec *c,
                           const struct gb_chart_inst *in)
{
    for (size_t i = 0; i < opts->n_patterns; i++)
        if (fnmatch(opts->patterns[i], c->name, 0) == 0 ||
            (in && fnmatch(opts->patterns[i], in->spec.name, 0) == 0))
            return 1;
    return 0;
}

int gb_chart_wanted(const struct gb_report_opts *opts, int large, const struct gb_chart_set *set,
                    const struct gb_chart_spec *c, const struct gb_chart_inst *in, size_t k)
{
    if (opts && opts->n_patterns)
        return gb_pattern_hits(opts, c, in);
    if (!large || (opts && opts->all_charts))
        return 1;
    return gb_chart_primary(set, c, in, k);
}

/* Calls fn(ctx, set, spec, instance) for every chart instance `book` draws
 * from `run` (a spec with no instance is passed once with NULL); stops at
 * the first non-zero return of fn, which it returns (-1: out of memory). */
typedef int (*gb_inst_fn)(void *ctx, const struct gb_chart_set *set, const struct gb_chart_spec *c,
                          const struct gb_chart_inst *in);

static int gb_each_chart(const struct gb_run *run, const struct gb_chart_book *book, gb_inst_fn fn,
                         void *ctx)
{
    int r = 0;
    for (size_t s = 0; s < book->n && !r; s++) {
        const struct gb_chart_set *set = &book->sets[s];
        for (int i = 0; i < set->n_charts && !r; i++) {
            struct gb_chart_inst *inst = NULL;
            size_t n = 0;
            if (gb_chart_instances(run, set, &set->charts[i], &inst, &n) != GB_OK)
                return -1;
            if (n == 0)
                r = fn(ctx, set, &set->charts[i], NULL);
            for (size_t k = 0; k < n && !r; k++)
                r = fn(ctx, set, &set->charts[i], &inst[k]);
            free(inst);
        }
    }
    return r;
}

struct gb_count_ctx {
    const struct gb_run *run;
    size_t n;
};

static int gb_count_one(void *ctx, const struct gb_chart_set *set, const struct gb_chart_spec *c,
                        const struct gb_chart_inst *in)
{
    struct gb_count_ctx *cc = ctx;
    (void)c;
    (void)in;
    /* Only the charts of suites the run holds. */
    for (size_t i = 0; i < cc->run->n_records; i++)
        if (strcmp(cc->run->records[i].suite, set->name) == 0) {
            cc->n++;
            break;
        }
    return 0;
}

int gb_report_is_large(const struct gb_run *run, const struct gb_chart_book *book)
{
    struct gb_count_ctx cc = {run, 0};
    if (run->n_records > GB_REPORT_LARGE_RECORDS)
        return 1;
    if (!book || gb_each_chart(run, book, gb_count_one, &cc) != 0)
        return 0;
    return cc.n > GB_REPORT_LARGE_CHARTS;
}

struct gb_match_ctx {
    const char *pattern;
    size_t n;
    char first[3][256];
};

static int gb_match_one(void *ctx, const struct gb_chart_set *set, const struct gb_chart_spec *c,
                        const struct gb_chart_inst *in)
{
    struct gb_match_ctx *m = ctx;
    const char *name = in ? in->spec.name : c->name;
    (void)set;
    if (fnmatch(m->pattern, c->name, 0) == 0 || fnmatch(m->pattern, name, 0) == 0)
        return 1;
    if (m->n < 3)
        snprintf(m->first[m->n], sizeof m->first[m->n], "%s", name);
    m->n++;
    return 0;
}

enum gb_status gb_report_check_patterns(const struct gb_run *run, const struct gb_chart_book *book,
                                       const struct gb_report_opts *opts)
{
    for (size_t i = 0; opts && i < opts->n_patterns; i++) {
        struct gb_match_ctx m = {opts->patterns[i], 0, {"", "", ""}};
        int r = gb_each_chart(run, book, gb_match_one, &m);
        if (r < 0)
            return gb_error_set(GB_ERR_NOMEM, "out of memory");
        if (r > 0)
            continue;
        if (m.n == 0)
            return gb_error_set(GB_ERR_USAGE, "--charts '%s' matches no chart: this run has no "
                                "chart to draw", opts->patterns[i]);
        return gb_error_set(GB_ERR_USAGE, "--charts '%s' matches none of the %zu charts of this "
                            "run (%s%s%s%s%s%s)", opts->patterns[i], m.n, m.first[0],
                            m.n > 1 ? ", " : "", m.n > 1 ? m.first[1] : "", m.n > 2 ? ", " : "",
                            m.n > 2 ? m.first[2] : "", m.n > 3 ? ", ..." : "");
    }
    return GB_OK;
}
