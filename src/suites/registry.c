/* registry.c - the table of suites. Adding a suite is adding a row. */
#include <string.h>

#include "gpubound/suite.h"
#include "suites/suites.h"

static const struct gb_suite *const gb_suite_table[] = {
    &gb_suite_bandwidth,
    &gb_suite_ubench,
    &gb_suite_throughput,
    &gb_suite_patterns,
    &gb_suite_camping,
    &gb_suite_transpose,
};

/* Tables of bench extras (struct gb_bench_extra), each ending with a zero row. */
static const struct gb_bench_extra *const gb_extra_tables[] = {
    gb_ubench_extras,
};

const struct gb_bench_extra *gb_bench_extra(const struct gb_bench *b)
{
    for (size_t t = 0; t < sizeof gb_extra_tables / sizeof gb_extra_tables[0]; t++)
        for (const struct gb_bench_extra *e = gb_extra_tables[t]; e->bench; e++)
            if (e->bench == b)
                return e;
    return NULL;
}

const struct gb_suite *const *gb_suites(int *n)
{
    *n = (int)(sizeof gb_suite_table / sizeof gb_suite_table[0]);
    return gb_suite_table;
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
