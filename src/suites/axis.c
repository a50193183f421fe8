/* axis.c - axis value lists and the point accessors suites use. */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gpubound/suite.h"

/* The multiplier of a size suffix: K, M, G or KiB, MiB, GiB (any case), all
 * binary (powers of 1024); 1 for none, 0 for anything else. */
static long gb_suffix_mult(const char *end)
{
    static const char units[] = "KMG";
    const char *u = *end ? strchr(units, end[0] & ~0x20) : NULL;
    if (!*end)
        return 1;
    if (!u || !(end[1] == '\0' || ((end[1] == 'i' || end[1] == 'I') && (end[2] == 'B' || end[2] == 'b') &&
                                   end[3] == '\0')))
        return 0;
    return 1L << (10 * (u - units + 1));
}

enum gb_status gb_axis_parse_int(const char *s, long *out)
{
    char *end;
    errno = 0;
    long v = strtol(s, &end, 10);
    if (end == s || errno)
        return gb_error_set(GB_ERR_USAGE, "'%s' is not an integer", s);
    long mult = gb_suffix_mult(end);
    if (mult == 0)
        return gb_error_set(GB_ERR_USAGE, "'%s' is not an integer (a binary K, M or G suffix, "
                            "or KiB, MiB, GiB, is allowed: 1K = 1024)", s);
    if (v > LONG_MAX / mult || v < LONG_MIN / mult)
        return gb_error_set(GB_ERR_USAGE, "'%s' is too large", s);
    *out = v * mult;
    return GB_OK;
}

static enum gb_status gb_push(char ***out, int *n, int *cap, const char *s)
{
    if (*n == *cap) {
        int c = *cap ? *cap * 2 : 8;
        char **p = realloc(*out, (size_t)c * sizeof *p);
        if (!p)
            return gb_error_set(GB_ERR_NOMEM, "out of host memory");
        *out = p;
        *cap = c;
    }
    if (!((*out)[*n] = strdup(s)))
        return gb_error_set(GB_ERR_NOMEM, "out of host memory");
    (*n)++;
    return GB_OK;
}

static int gb_in_choices(const char *choices, const char *v)
{
    size_t len = strlen(v);
    for (const char *c = choices; c && *c;) {
        const char *e = strchr(c, ',');
        size_t l = e ? (size_t)(e - c) : strlen(c);
        if (l == len && strncmp(c, v, l) == 0)
            return 1;
        c = e ? e + 1 : NULL;
    }
    return 0;
}

/* Whether integer `v` is one of an integer axis's choices (all allowed when it has none). */
static int gb_int_choice(const struct gb_axis_def *a, long v)
{
    if (!a->choices)
        return 1;
    for (const char *c = a->choices; *c;) {
        char item[32];
        size_t l = strcspn(c, ",");
        long x;
        snprintf(item, sizeof item, "%.*s", (int)(l < sizeof item ? l : sizeof item - 1), c);
        if (gb_axis_parse_int(item, &x) == GB_OK && x == v)
            return 1;
        c += l;
        if (*c == ',')
            c++;
    }
    return 0;
}

static enum gb_status gb_check_int(const struct gb_axis_def *a, const char *tok, long v)
{
    if (v < a->min || v > a->max)
        return gb_error_set(GB_ERR_USAGE, "axis %s: value %s is out of range (%ld..%ld)", a->name, tok,
                            a->min, a->max);
    return GB_OK;
}

/* A value of an axis and where it was given, for finding repeats. */
struct gb_axis_seen {
    long v;
    const char *s;
    int at;
};

static int gb_cmp_seen_int(const void *x, const void *y)
{
    const struct gb_axis_seen *a = x, *b = y;
    return a->v != b->v ? (a->v > b->v) - (a->v < b->v) : a->at - b->at;
}

static int gb_cmp_seen_str(const void *x, const void *y)
{
    const struct gb_axis_seen *a = x, *b = y;
    int c = strcmp(a->s, b->s);
    return c ? c : a->at - b->at;
}

/* A value given twice ("64,64", "1:8,4", "1K,1024") would be measured twice,
 * and the run could not be read back (a point recorded twice is refused):
 * refused, naming the first value repeated. Sorted, so a list of many
 * values costs n log n. */
static enum gb_status gb_axis_repeats(const struct gb_axis_def *a, char *const *vals, int n)
{
    enum gb_status st = GB_OK;
    struct gb_axis_seen *seen = malloc((size_t)n * sizeof *seen);
    if (!seen)
        return gb_error_set(GB_ERR_NOMEM, "out of host memory");
    for (int i = 0; i < n; i++) {
        seen[i].s = vals[i];
        seen[i].at = i;
        seen[i].v = 0;
        if (a->kind == GB_AXIS_INT)
            gb_axis_parse_int(vals[i], &seen[i].v);
    }
    qsort(seen, (size_t)n, sizeof *seen, a->kind == GB_AXIS_INT ? gb_cmp_seen_int : gb_cmp_seen_str);
    for (int i = 1; i < n && st == GB_OK; i++)
        if (a->kind == GB_AXIS_INT ? seen[i].v == seen[i - 1].v : strcmp(seen[i].s, seen[i - 1].s) == 0)
            st = gb_error_set(GB_ERR_USAGE, "axis %s: the value %s is given twice (as %s and %s); each point is "
                              "measured once", a->name, seen[i].s, seen[i - 1].s, seen[i].s);
    free(seen);
    return st;
}

enum gb_status gb_axis_expand(const struct gb_axis_def *a, const char *list, char ***out, int *n)
{
    enum gb_status st = GB_OK;
    char *copy = strdup(list), *save = NULL;
    int cap = 0;
    *out = NULL;
    *n = 0;
    if (!copy)
        return gb_error_set(GB_ERR_NOMEM, "out of host memory");
    for (char *tok = strtok_r(copy, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
        if (a->kind == GB_AXIS_STR) {
            if (a->choices && !gb_in_choices(a->choices, tok)) {
                st = gb_error_set(GB_ERR_USAGE, "axis %s: '%s' is not one of %s", a->name, tok, a->choices);
                goto out;
            }
            if ((st = gb_push(out, n, &cap, tok)) != GB_OK)
                goto out;
            continue;
        }
        char *c1 = strchr(tok, ':');
        if (!c1) {
            long v;
            if ((st = gb_axis_parse_int(tok, &v)) != GB_OK) {
                st = gb_error_set(GB_ERR_USAGE, "axis %s: %s", a->name, gb_error_message());
                goto out;
            }
            if ((st = gb_check_int(a, tok, v)) != GB_OK)
                goto out;
            if (!gb_int_choice(a, v)) {
                st = gb_error_set(GB_ERR_USAGE, "axis %s: %s is not one of %s", a->name, tok, a->choices);
                goto out;
            }
            if ((st = gb_push(out, n, &cap, tok)) != GB_OK)
                goto out;
            continue;
        }
        /* A range lo:hi (step 1) or lo:hi:*f (geometric). */
        *c1 = '\0';
        char *hi_s = c1 + 1, *c2 = strchr(hi_s, ':');
        long lo, hi, step = 1, factor = 0;
        if (c2) {
            *c2 = '\0';
            const char *f = c2 + 1;
            if (*f == '*') {
                if (gb_axis_parse_int(f + 1, &factor) != GB_OK || factor < 2) {
                    st = gb_error_set(GB_ERR_USAGE, "axis %s: bad range factor '%s' (use lo:hi:*2)", a->name, f);
                    goto out;
                }
            } else if (gb_axis_parse_int(f, &step) != GB_OK || step < 1) {
                st = gb_error_set(GB_ERR_USAGE, "axis %s: bad range step '%s'", a->name, f);
                goto out;
            }
        }
        if (gb_axis_parse_int(tok, &lo) != GB_OK || gb_axis_parse_int(hi_s, &hi) != GB_OK || lo > hi) {
            st = gb_error_set(GB_ERR_USAGE, "axis %s: bad range '%s:%s' (use lo:hi, lo:hi:step or lo:hi:*factor)",
                              a->name, tok, hi_s);
            goto out;
        }
        if ((st = gb_check_int(a, tok, lo)) != GB_OK || (st = gb_check_int(a, hi_s, hi)) != GB_OK)
            goto out;
        if (factor && lo < 1) {
            st = gb_error_set(GB_ERR_USAGE, "axis %s: a geometric range must start at 1 or more", a->name);
            goto out;
        }
        int before = *n;
        for (long v = lo, more = 1; more && v <= hi;) {
            char buf[32];
            long cur = v;
            /* The next value, or the end where it would pass LONG_MAX. */
            more = factor ? v <= LONG_MAX / factor : v <= LONG_MAX - step;
            if (more)
                v = factor ? v * factor : v + step;
            /* On an axis with a list of allowed values, a range keeps those in it. */
            if (!gb_int_choice(a, cur))
                continue;
            snprintf(buf, sizeof buf, "%ld", cur);
            if ((st = gb_push(out, n, &cap, buf)) != GB_OK)
                goto out;
            if (*n > 100000) {
                st = gb_error_set(GB_ERR_USAGE, "axis %s: range has too many values", a->name);
                goto out;
            }
        }
        if (*n == before) {
            st = gb_error_set(GB_ERR_USAGE, "axis %s: range %s:%s holds none of %s", a->name, tok, hi_s,
                              a->choices);
            goto out;
        }
    }
    if (*n == 0)
        st = gb_error_set(GB_ERR_USAGE, "axis %s: no values given", a->name);
    else
        st = gb_axis_repeats(a, *out, *n);
out:
    free(copy);
    if (st != GB_OK) {
        for (int i = 0; i < *n; i++)
            free((*out)[i]);
        free(*out);
        *out = NULL;
        *n = 0;
    }
    return st;
}

enum gb_status gb_axis_check_value(const struct gb_axis_def *a, const char *value)
{
    long v;
    if (a->kind == GB_AXIS_STR) {
        if (a->choices && !gb_in_choices(a->choices, value))
            return gb_error_set(GB_ERR_USAGE, "one of %s", a->choices);
        return GB_OK;
    }
    if (gb_axis_parse_int(value, &v) != GB_OK || v < a->min || v > a->max)
        return gb_error_set(GB_ERR_USAGE, "an integer from %ld to %ld", a->min, a->max);
    if (!gb_int_choice(a, v))
        return gb_error_set(GB_ERR_USAGE, "one of %s", a->choices);
    return GB_OK;
}

long gb_point_int(const struct gb_point *p, const char *axis)
{
    for (int i = 0; i < p->n_axes; i++)
        if (strcmp(p->axis_name[i], axis) == 0)
            return p->axis_int[i];
    return 0;
}

const char *gb_point_str(const struct gb_point *p, const char *axis)
{
    for (int i = 0; i < p->n_axes; i++)
        if (strcmp(p->axis_name[i], axis) == 0)
            return p->axis_str[i];
    return "";
}

enum gb_status gb_point_metric(struct gb_point *p, const char *name, double value)
{
    if (!name || !name[0])
        return gb_error_set(GB_ERR_USAGE, "%s: a metric needs a name", p->bench ? p->bench->name : "point");
    for (int i = 0; i < p->n_metrics; i++)
        if (strcmp(p->metrics[i].name, name) == 0) {
            p->metrics[i].value = value;
            return GB_OK;
        }
    if (p->n_metrics == p->cap_metrics) {
        int cap = p->cap_metrics ? 2 * p->cap_metrics : 16;
        struct gb_point_value *m = realloc(p->metrics, (size_t)cap * sizeof *m);
        if (!m)
            return gb_error_set(GB_ERR_NOMEM, "out of host memory recording metric %s", name);
        p->metrics = m;
        p->cap_metrics = cap;
    }
    char *copy = strdup(name);
    if (!copy)
        return gb_error_set(GB_ERR_NOMEM, "out of host memory recording metric %s", name);
    p->metrics[p->n_metrics].name = copy;
    p->metrics[p->n_metrics].value = value;
    p->n_metrics++;
    return GB_OK;
}

void gb_point_release(struct gb_point *p)
{
    for (int i = 0; i < p->n_metrics; i++)
        free(p->metrics[i].name);
    free(p->metrics);
    p->metrics = NULL;
    p->n_metrics = p->cap_metrics = 0;
}
