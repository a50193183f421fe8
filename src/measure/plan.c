/* plan.c - from selectors and overrides to the list of points to measure. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gpubound/measure.h"

struct gb_sel {
    const struct gb_suite *suite;
    const struct gb_bench *bench;  /* NULL: every bench of the suite */
};

static enum gb_status gb_plan_push(struct gb_plan *plan, size_t *cap, const struct gb_plan_item *it)
{
    if (plan->n == *cap) {
        size_t c = *cap ? *cap * 2 : 64;
        struct gb_plan_item *p = realloc(plan->items, c * sizeof *p);
        if (!p)
            return gb_error_set(GB_ERR_NOMEM, "out of host memory");
        plan->items = p;
        *cap = c;
    }
    plan->items[plan->n++] = *it;
    return GB_OK;
}

static const char *gb_override(const char *const *sets, int n_sets, const char *axis)
{
    size_t len = strlen(axis);
    const char *v = NULL;
    for (int i = 0; i < n_sets; i++) /* the last one given wins */
        if (strncmp(sets[i], axis, len) == 0 && sets[i][len] == '=')
            v = sets[i] + len + 1;
    return v;
}

/* The points of bench `b` (the product of its axes' value counts) after the
 * `planned` ones, checked against the cap before any point is made. */
static enum gb_status gb_plan_check_size(const struct gb_suite *s, const struct gb_bench *b, const int *nv,
                                         size_t planned, size_t max_points)
{
    size_t prod = 1;
    for (int a = 0; a < b->n_axes; a++) {
        if (nv[a] > 0 && prod > SIZE_MAX / (size_t)nv[a]) {
            prod = SIZE_MAX;
            break;
        }
        prod *= (size_t)nv[a];
    }
    if (prod > max_points || planned > max_points - prod)
        return gb_error_set(GB_ERR_USAGE, "%s/%s: the run would plan %s%zu points (the product of "
                            "the axes' values), more than --max-points %zu; narrow the --set "
                            "ranges%s", s->name, b->name,
                            prod == SIZE_MAX ? "over " : "", prod == SIZE_MAX ? SIZE_MAX : planned + prod,
                            max_points, max_points < GB_PLAN_MAX_POINTS_CAP ? " or raise --max-points (run and check take it)" : "");
    return GB_OK;
}

static enum gb_status gb_plan_bench(struct gb_plan *plan, size_t *cap, const struct gb_suite *s,
                                    const struct gb_bench *b, const char *const *sets, int n_sets,
                                    int quick, size_t max_points, size_t *count)
{
    enum gb_status st = GB_OK;
    char **vals[GB_MAX_AXES] = {0};
    int nv[GB_MAX_AXES] = {0}, idx[GB_MAX_AXES] = {0};
    size_t kept = 0;
    char why[256] = "";
    for (int a = 0; a < b->n_axes; a++) {
        const struct gb_axis_def *ad = &b->axes[a];
        const char *list = gb_override(sets, n_sets, ad->name);
        if (!list)
            list = quick && ad->quick ? ad->quick : ad->values;
        if ((st = gb_axis_expand(ad, list, &vals[a], &nv[a])) != GB_OK)
            goto out;
        int seen = 0;
        for (int k = 0; k < plan->n_axes; k++)
            seen |= strcmp(plan->axes[k], ad->name) == 0;
        if (!seen && plan->n_axes < (int)(sizeof plan->axes / sizeof plan->axes[0]))
            plan->axes[plan->n_axes++] = ad->name;
    }
    if ((st = gb_plan_check_size(s, b, nv, count ? *count : plan->n, max_points)) != GB_OK)
        goto out;
    if (count) { /* counting only: the product, no point made */
        size_t prod = 1;
        for (int a = 0; a < b->n_axes; a++)
            prod *= (size_t)nv[a];
        *count += prod;
        goto out;
    }
    for (;;) {
        struct gb_plan_item it;
        memset(&it, 0, sizeof it);
        it.suite = s;
        it.bench = b;
        it.n_axes = b->n_axes;
        for (int a = 0; a < b->n_axes; a++) {
            it.axis_name[a] = b->axes[a].name;
            if (!(it.axis_value[a] = strdup(vals[a][idx[a]]))) {
                for (int k = 0; k < a; k++)
                    free(it.axis_value[k]);
                st = gb_error_set(GB_ERR_NOMEM, "out of host memory");
                goto out;
            }
        }
        int keep = 1;
        if (b->admit) {
            struct gb_point p;
            char w[256] = "";
            gb_plan_point(&it, quick, &p);
            keep = b->admit(&p, b->ctx, w, sizeof w);
            gb_point_release(&p);
            if (!keep && !why[0])
                snprintf(why, sizeof why, "%s", w[0] ? w : "combination not allowed");
        }
        if (!keep) {
            for (int a = 0; a < b->n_axes; a++)
                free(it.axis_value[a]);
        } else if ((st = gb_plan_push(plan, cap, &it)) != GB_OK) {
            for (int a = 0; a < b->n_axes; a++)
                free(it.axis_value[a]);
            goto out;
        } else {
            kept++;
        }
        /* Odometer over the axes, the last axis fastest. */
        int a = b->n_axes - 1;
        while (a >= 0 && ++idx[a] == nv[a])
            idx[a--] = 0;
        if (a < 0)
            break;
    }
    if (kept == 0)
        st = gb_error_set(GB_ERR_USAGE, "%s/%s: no point to measure: %s", s->name, b->name, why);
out:
    for (int a = 0; a < b->n_axes; a++) {
        for (int k = 0; k < nv[a]; k++)
            free(vals[a][k]);
        free(vals[a]);
    }
    return st;
}

enum gb_status gb_plan_build(const char *const *selectors, int n_sel, const char *const *sets, int n_sets,
                             int quick, struct gb_plan *plan)
{
    return gb_plan_build_max(selectors, n_sel, sets, n_sets, quick, GB_PLAN_MAX_POINTS, plan);
}

static enum gb_status gb_plan_make(const char *const *selectors, int n_sel, const char *const *sets, int n_sets,
                                   int quick, size_t max_points, struct gb_plan *plan, size_t *count);

enum gb_status gb_plan_build_max(const char *const *selectors, int n_sel, const char *const *sets,
                                 int n_sets, int quick, size_t max_points, struct gb_plan *plan)
{
    return gb_plan_make(selectors, n_sel, sets, n_sets, quick, max_points, plan, NULL);
}

enum gb_status gb_plan_count(const char *const *selectors, int n_sel, const char *const *sets, int n_sets,
                             int quick, size_t max_points, size_t *count)
{
    struct gb_plan plan;
    *count = 0;
    enum gb_status st = gb_plan_make(selectors, n_sel, sets, n_sets, quick, max_points, &plan, count);
    gb_plan_release(&plan);
    return st;
}

/* Builds the plan, or (count not NULL) only adds up its size. */
static enum gb_status gb_plan_make(const char *const *selectors, int n_sel, const char *const *sets, int n_sets,
                                   int quick, size_t max_points, struct gb_plan *plan, size_t *count)
{
    enum gb_status st = GB_OK;
    size_t cap = 0;
    int n_all;
    const struct gb_suite *const *all = gb_suites(&n_all);
    struct gb_sel *sel = calloc((size_t)(n_sel ? n_sel : n_all), sizeof *sel);
    int ns = 0;
    memset(plan, 0, sizeof *plan);
    if (!sel)
        return gb_error_set(GB_ERR_NOMEM, "out of host memory");
    if (n_sel == 0)
        for (int i = 0; i < n_all; i++)
            sel[ns++].suite = all[i];
    for (int i = 0; i < n_sel; i++) {
        char name[128];
        snprintf(name, sizeof name, "%s", selectors[i]);
        char *slash = strchr(name, '/');
        if (slash)
            *slash = '\0';
        const struct gb_suite *s = gb_suite_find(name);
        if (!s) {
            char known[512] = "";
            for (int k = 0; k < n_all; k++) {
                strncat(known, k ? ", " : "", sizeof known - strlen(known) - 1);
                strncat(known, all[k]->name, sizeof known - strlen(known) - 1);
            }
            st = gb_error_set(GB_ERR_USAGE, "unknown suite '%s' (suites: %s)", name, known);
            goto out;
        }
        sel[ns].suite = s;
        if (slash && slash[1]) {
            if (!(sel[ns].bench = gb_bench_find(s, slash + 1))) {
                char known[512] = "";
                for (int k = 0; k < s->n_benches; k++) {
                    strncat(known, k ? ", " : "", sizeof known - strlen(known) - 1);
                    strncat(known, s->benches[k].name, sizeof known - strlen(known) - 1);
                }
                st = gb_error_set(GB_ERR_USAGE, "suite %s has no benchmark '%s' (it has: %s)", s->name,
                                  slash + 1, known);
                goto out;
            }
        }
        ns++;
    }
    /* Every override must name an axis of some selected bench. */
    for (int i = 0; i < n_sets; i++) {
        const char *eq = strchr(sets[i], '=');
        if (!eq || eq == sets[i] || !eq[1]) {
            st = gb_error_set(GB_ERR_USAGE, "--set '%s' is not AXIS=V1,V2,...", sets[i]);
            goto out;
        }
        int found = 0;
        for (int k = 0; k < ns && !found; k++)
            for (int j = 0; j < sel[k].suite->n_benches && !found; j++) {
                const struct gb_bench *b = &sel[k].suite->benches[j];
                if (sel[k].bench && sel[k].bench != b)
                    continue;
                for (int a = 0; a < b->n_axes; a++)
                    found |= strlen(b->axes[a].name) == (size_t)(eq - sets[i]) &&
                             strncmp(b->axes[a].name, sets[i], (size_t)(eq - sets[i])) == 0;
            }
        if (!found) {
            st = gb_error_set(GB_ERR_USAGE, "--set %.*s: no selected benchmark has an axis of that name (see 'gpubound list')",
                              (int)(eq - sets[i]), sets[i]);
            goto out;
        }
    }
    for (int k = 0; k < ns; k++)
        for (int j = 0; j < sel[k].suite->n_benches; j++) {
            const struct gb_bench *b = &sel[k].suite->benches[j];
            if (sel[k].bench && sel[k].bench != b)
                continue;
            if ((st = gb_plan_bench(plan, &cap, sel[k].suite, b, sets, n_sets, quick, max_points, count)) != GB_OK)
                goto out;
        }
out:
    free(sel);
    if (st != GB_OK)
        gb_plan_release(plan);
    return st;
}

void gb_plan_release(struct gb_plan *plan)
{
    for (size_t i = 0; i < plan->n; i++)
        for (int a = 0; a < plan->items[i].n_axes; a++)
            free(plan->items[i].axis_value[a]);
    free(plan->items);
    memset(plan, 0, sizeof *plan);
}

void gb_plan_point(const struct gb_plan_item *it, int quick, struct gb_point *p)
{
    memset(p, 0, sizeof *p);
    p->bench = it->bench;
    p->quick = quick;
    p->n_axes = it->n_axes;
    for (int a = 0; a < it->n_axes; a++) {
        p->axis_name[a] = it->axis_name[a];
        p->axis_str[a] = it->axis_value[a];
        long v = 0;
        if (it->bench->axes[a].kind == GB_AXIS_INT && gb_axis_parse_int(it->axis_value[a], &v) == GB_OK)
            p->axis_int[a] = v;
    }
}
