/* registry.c - the suites gpubound knows, registered at run time.
 *
 * The built-in suites are added by the first call; a suite made at run time
 * (a kernel spec file) is added with gb_suite_register and owned by the
 * registry from then on. Adding a built-in suite is adding a row to
 * gb_builtin_suites.
 */
#include <stdlib.h>
#include <string.h>

#include "gpubound/suite.h"
#include "suites/suites.h"

static const struct gb_suite *const gb_builtin_suites[] = {
    &gb_suite_bandwidth,
    &gb_suite_ubench,
    &gb_suite_throughput,
    &gb_suite_patterns,
    &gb_suite_camping,
    &gb_suite_transpose,
    &gb_suite_ceilings,
};

struct gb_registry_entry {
    const struct gb_suite *suite;
    struct gb_suite *owned;      /* the same suite when the registry owns it */
    void (*release)(struct gb_suite *s);
};

static struct {
    struct gb_registry_entry *v;
    const struct gb_suite **list;  /* what gb_suites hands out, parallel to v */
    int n, cap;
    int builtin;                   /* 1 once the built-in suites are in */
} gb_reg;

static enum gb_status gb_registry_push(const struct gb_suite *s, struct gb_suite *owned,
                                       void (*release)(struct gb_suite *s))
{
    if (!s || !s->name || !s->name[0])
        return gb_error_set(GB_ERR_USAGE, "a suite needs a name to be registered");
    for (int i = 0; i < gb_reg.n; i++)
        if (strcmp(gb_reg.v[i].suite->name, s->name) == 0)
            return gb_error_set(GB_ERR_USAGE, "suite %s is registered already", s->name);
    if (gb_reg.n == gb_reg.cap) {
        int cap = gb_reg.cap ? 2 * gb_reg.cap : 16;
        struct gb_registry_entry *v = realloc(gb_reg.v, (size_t)cap * sizeof *v);
        if (!v)
            return gb_error_set(GB_ERR_NOMEM, "out of host memory");
        gb_reg.v = v;
        const struct gb_suite **list = realloc(gb_reg.list, (size_t)cap * sizeof *list);
        if (!list)
            return gb_error_set(GB_ERR_NOMEM, "out of host memory");
        gb_reg.list = list;
        gb_reg.cap = cap;
    }
    gb_reg.v[gb_reg.n].suite = s;
    gb_reg.v[gb_reg.n].owned = owned;
    gb_reg.v[gb_reg.n].release = release;
    gb_reg.list[gb_reg.n] = s;
    gb_reg.n++;
    return GB_OK;
}

/* Registers the built-in suites before anything else is looked up. */
static void gb_registry_ready(void)
{
    if (!gb_reg.builtin)
        (void)gb_suites_builtin_register();
}

enum gb_status gb_suite_add(const struct gb_suite *s)
{
    gb_registry_ready();
    return gb_registry_push(s, NULL, NULL);
}

enum gb_status gb_suite_register(struct gb_suite *s, void (*release)(struct gb_suite *s))
{
    gb_registry_ready();
    return gb_registry_push(s, s, release);
}

enum gb_status gb_suites_builtin_register(void)
{
    enum gb_status st = GB_OK;
    if (gb_reg.builtin)
        return GB_OK;
    /* Built-in suites come first, before any suite added at run time. */
    for (size_t i = 0; i < sizeof gb_builtin_suites / sizeof gb_builtin_suites[0]; i++)
        if ((st = gb_registry_push(gb_builtin_suites[i], NULL, NULL)) != GB_OK)
            goto out;
    gb_reg.builtin = 1;
out:
    if (st != GB_OK) /* out of memory: leave the registry empty, to try again later */
        gb_suites_release();
    return st;
}

void gb_suites_release(void)
{
    for (int i = gb_reg.n - 1; i >= 0; i--)
        if (gb_reg.v[i].owned && gb_reg.v[i].release)
            gb_reg.v[i].release(gb_reg.v[i].owned);
    free(gb_reg.v);
    free(gb_reg.list);
    memset(&gb_reg, 0, sizeof gb_reg);
}

const struct gb_suite *const *gb_suites(int *n)
{
    gb_registry_ready();
    *n = gb_reg.n;
    return gb_reg.list;
}

const struct gb_suite *gb_suite_find(const char *name)
{
    int n;
    const struct gb_suite *const *s = gb_suites(&n);
    for (int i = 0; i < n; i++)
        if (strcmp(s[i]->name, name) == 0)
            return s[i];
    return NULL;
}

const struct gb_bench *gb_bench_find(const struct gb_suite *s, const char *name)
{
    for (int i = 0; i < s->n_benches; i++)
        if (strcmp(s->benches[i].name, name) == 0)
            return &s->benches[i];
    return NULL;
}
