/* cmd_list.c - `gpubound list`: suites, their benchmarks and axes. */
#include <stdio.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/cli_spec.h"
#include "gpubound/spec.h"
#include "gpubound/suite.h"

int gb_cmd_list(int argc, char **argv)
{
    int n;
    const struct gb_suite *const *s = gb_suites(&n);
    gb_cli_getopt_reset();
    if (argc > 2)
        return gb_cli_usage("list", "at most one suite name");
    const char *only = argc == 2 ? argv[1] : NULL;
    char **owned = NULL, paths[1024];
    if (only && only[0] == '-')
        return gb_cli_usage("list", "unknown option '%s'", only);
    /* A spec file is listed as its suite (a "/BENCH" after it is ignored). */
    if (only && gb_spec_is_path(only)) {
        int rc = gb_cli_spec_args(1, &argv[1], &owned, paths, sizeof paths);
        if (rc >= 0) {
            gb_cli_spec_free(owned);
            return rc;
        }
        argv[1][strcspn(argv[1], "/")] = '\0';
        only = argv[1];
        s = gb_suites(&n);
    }
    if (only && !gb_suite_find(only))
        return gb_cli_usage("list", "unknown suite '%s'", only);
    for (int i = 0; i < n; i++) {
        if (only && strcmp(only, s[i]->name) != 0)
            continue;
        printf("%s: %s\n", s[i]->name, s[i]->help);
        for (int j = 0; j < s[i]->n_benches; j++) {
            const struct gb_bench *b = &s[i]->benches[j];
            printf("  %s/%s  (%s) %s\n", s[i]->name, b->name, gb_cache_mode_name(b->cache), b->help);
            for (int a = 0; a < b->n_axes; a++) {
                const struct gb_axis_def *ad = &b->axes[a];
                printf("      %-14s = %s", ad->name, ad->values);
                if (ad->quick)
                    printf("  (quick: %s)", ad->quick);
                printf("  %s\n", ad->help);
            }
        }
    }
    gb_cli_spec_free(owned);
    return GB_EXIT_OK;
}
