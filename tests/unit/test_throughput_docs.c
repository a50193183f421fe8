/* docs/suites.md (section "## throughput") names, for every operation of
 * suite `throughput`, the step, PTX and SASS of the suite's table, and has
 * a slot for its measured rate: the page and the checks share one source. */
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "suites/throughput.h"

static char *section;

static int setup(void **state)
{
    (void)state;
    FILE *f = fopen(GB_SOURCE_DIR "/docs/suites.md", "rb");
    if (!f)
        return -1;
    static char buf[1 << 20];
    size_t n = fread(buf, 1, sizeof buf - 1, f);
    fclose(f);
    buf[n] = '\0';
    section = strstr(buf, "\n## throughput\n");
    if (!section)
        return -1;
    char *next = strstr(section + 1, "\n## ");
    if (next)
        *next = '\0';
    return 0;
}

/* The table row of `name`: the line starting "| `name` |". */
static const char *row(const char *name, char *buf, size_t n)
{
    char key[96];
    snprintf(key, sizeof key, "\n| `%s` |", name);
    const char *p = strstr(section, key);
    if (!p)
        return NULL;
    size_t len = strcspn(p + 1, "\n");
    snprintf(buf, n, "%.*s", (int)len, p + 1);
    return buf;
}

/* Cell k (1-based) of a markdown table row, trimmed; false when absent. */
static bool cell(const char *line, int k, char *out, size_t n)
{
    const char *p = strchr(line, '|');
    for (int i = 1; p && i < k; i++)
        p = strchr(p + 1, '|');
    if (!p)
        return false;
    p++;
    const char *e = strchr(p, '|');
    if (!e)
        return false;
    while (p < e && *p == ' ')
        p++;
    while (e > p && e[-1] == ' ')
        e--;
    snprintf(out, n, "%.*s", (int)(e - p), p);
    return true;
}

/* Every item of a comma list appears in the row as `item`; an item of
 * alternatives "A|B" as `A` and `B`. */
static void has_all(const char *name, const char *line, const char *list)
{
    if (!list)
        return;
    for (const char *p = list; *p;) {
        size_t len = strcspn(p, ",|");
        char item[96];
        snprintf(item, sizeof item, "`%.*s`", (int)len, p);
        if (!strstr(line, item))
            fail_msg("docs row of %s lacks %s", name, item);
        p += len;
        if (*p == ',' || *p == '|')
            p++;
    }
}

static void test_every_op_documented(void **state)
{
    (void)state;
    char buf[2048], slot[128];
    for (int i = 0; i < gb_tp_n_ops; i++) {
        const struct gb_tp_op *op = &gb_tp_ops[i];
        const char *line = row(op->name, buf, sizeof buf);
        if (!line)
            fail_msg("docs/suites.md (throughput) has no row for op %s", op->name);
        has_all(op->name, line, op->ptx);
        has_all(op->name, line, op->ptx_not);
        has_all(op->name, line, op->sass);
        has_all(op->name, line, op->sass_not);
        /* The measured columns (7 and 8) hold the recorded run's numbers. */
        if (strstr(line, "<!--"))
            fail_msg("docs row of %s still has an unfilled slot", op->name);
        char tput[64], lat[64];
        if (!cell(line, 7, tput, sizeof tput) || !tput[0] || !cell(line, 8, lat, sizeof lat) || !lat[0])
            fail_msg("docs row of %s lacks the measured throughput or latency", op->name);
        int doc = gb_tp_doc_rate(op, 9, 0);
        if (doc) {
            snprintf(slot, sizeof slot, "| %d |", doc);
            if (!strstr(line, slot))
                fail_msg("docs row of %s does not show the documented rate %d", op->name, doc);
        }
    }
    for (int i = 0; i < gb_tp_n_mems; i++) {
        const char *line = row(gb_tp_mems[i].bench, buf, sizeof buf);
        if (!line)
            fail_msg("docs/suites.md (throughput) has no row for %s", gb_tp_mems[i].bench);
        has_all(gb_tp_mems[i].bench, line, gb_tp_mems[i].ptx);
        has_all(gb_tp_mems[i].bench, line, gb_tp_mems[i].sass);
    }
}

/* The documented-rate table on the page equals the suite's data. */
static void test_documented_rates(void **state)
{
    (void)state;
    for (int r = 0; r < gb_tp_n_doc_rows; r++) {
        char line[256];
        int len = snprintf(line, sizeof line, "|");
        for (int k = 0; k < GB_TP_N_CC; k++)
            len += snprintf(line + len, sizeof line - (size_t)len, " %d |", gb_tp_doc_rows[r].rate[k]);
        /* The row's title starts like the guide's. */
        char title[40];
        snprintf(title, sizeof title, "| %.30s", gb_tp_doc_rows[r].what);
        const char *p = strstr(section, title);
        if (!p)
            fail_msg("documented-rate table lacks the row '%s'", gb_tp_doc_rows[r].what);
        size_t n = strcspn(p, "\n");
        char found[512];
        snprintf(found, sizeof found, "%.*s", (int)n, p);
        if (!strstr(found, line))
            fail_msg("documented-rate row '%s' differs from the data (%s)", found, line);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_every_op_documented),
        cmocka_unit_test(test_documented_rates),
    };
    return cmocka_run_group_tests(tests, setup, NULL);
}
