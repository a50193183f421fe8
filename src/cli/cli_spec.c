/* cli_spec.c - kernel spec files on the command line. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/cli_spec.h"
#include "gpubound/spec.h"

int gb_cli_spec_args(int n, char **args, char ***owned, char *paths, size_t paths_n)
{
    int k = 0;
    paths[0] = '\0';
    if (!(*owned = calloc((size_t)n + 1, sizeof **owned)))
        return gb_cli_fail(gb_error_set(GB_ERR_NOMEM, "out of host memory"), NULL, NULL);
    for (int i = 0; i < n; i++) {
        char *sel = NULL;
        if (!gb_spec_is_path(args[i]))
            continue;
        enum gb_status st = gb_spec_register_path(args[i], &sel);
        if (st != GB_OK)
            return gb_cli_fail(st, NULL, NULL);
        size_t len = strlen(paths);
        snprintf(paths + len, paths_n - len, "%s%s", len ? ", " : "", args[i]);
        (*owned)[k++] = sel;
        args[i] = sel;
    }
    return -1;
}

void gb_cli_spec_free(char **owned)
{
    for (int i = 0; owned && owned[i]; i++)
        free(owned[i]);
    free(owned);
}

int gb_cli_spec_check(const struct gb_plan *plan)
{
    for (size_t i = 0; i < plan->n; i++) {
        struct gb_point p;
        if (!gb_spec_of_suite(plan->items[i].suite))
            continue;
        gb_plan_point(&plan->items[i], 0, &p);
        enum gb_status st = gb_spec_check_point(&p);
        gb_point_release(&p);
        if (st != GB_OK)
            return gb_cli_fail(st, NULL, NULL);
    }
    return -1;
}

enum gb_status gb_cli_spec_save(const char *out, const struct gb_plan *plan)
{
    const struct gb_suite *done = NULL;
    for (size_t i = 0; i < plan->n; i++) {
        const struct gb_spec *s = gb_spec_of_suite(plan->items[i].suite);
        if (!s || plan->items[i].suite == done)
            continue;
        enum gb_status st = gb_spec_save_copy(s, out);
        if (st != GB_OK)
            return st;
        done = plan->items[i].suite;
    }
    return GB_OK;
}
