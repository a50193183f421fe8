/* cmd_report.c - `gpubound report RUN_DIR`: the report of a recorded run. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/cmd_report.h"
#include "gpubound/report.h"

int gb_cmd_report(int argc, char **argv)
{
    static const struct option longopts[] = {
        {"out", required_argument, NULL, 'o'},
        {"format", required_argument, NULL, 'f'},
        {NULL, 0, NULL, 0}};
    const char *out = NULL, *dir;
    char default_out[4200];
    enum gb_format fmt = GB_FORMAT_TABLE;
    struct gb_run *run = NULL;
    struct gb_table *t = NULL;
    struct gb_report_result res;
    enum gb_status st;
    int c, rc = GB_EXIT_OK;

    gb_report_result_init(&res);
    gb_cli_getopt_reset();
    while ((c = getopt_long(argc, argv, ":o:f:", longopts, NULL)) != -1) {
        switch (c) {
        case 'o': out = optarg; break;
        case 'f':
            if (gb_format_parse(optarg, &fmt) != GB_OK) {
                rc = gb_cli_usage("report", "--format: %s", gb_error_message());
                goto out;
            }
            break;
        case ':': rc = gb_cli_usage("report", "%s needs a value", argv[optind - 1]); goto out;
        default: rc = gb_cli_usage("report", "unknown option '%s'", argv[optind - 1]); goto out;
        }
    }
    if (argc - optind != 1) {
        if (argc == optind)
            rc = gb_cli_usage("report", "expected a RUN_DIR");
        else
            rc = gb_cli_usage("report", "expected one RUN_DIR, not %d arguments", argc - optind);
        goto out;
    }
    dir = argv[optind];
    if (!dir[0] || (out && !out[0])) {
        rc = gb_cli_usage("report", "an empty directory name");
        goto out;
    }
    if (!out) {
        size_t len = strlen(dir);
        while (len > 1 && dir[len - 1] == '/')
            len--;
        snprintf(default_out, sizeof default_out, "%.*s/report", (int)len, dir);
        out = default_out;
    }

    if ((st = gb_run_load(dir, &run)) != GB_OK) {
        rc = gb_cli_fail(st, "report", "give the directory of a run recorded by 'gpubound run'");
        goto out;
    }
    st = gb_report_write(run, out, &res);
    for (size_t i = 0; i < res.n_files; i++)
        fprintf(stderr, "wrote %s\n", res.files[i]);
    for (size_t i = 0; i < res.n_no_data; i++)
        fprintf(stderr, "chart %s: no measured point in this run\n", res.no_data[i]);
    if (res.n_not_drawn) {
        fprintf(stderr, "not drawn:");
        for (size_t i = 0; i < res.n_not_drawn; i++)
            fprintf(stderr, " %s", res.not_drawn[i]);
        fprintf(stderr, " (%s)\n", res.note);
    }
    if (st != GB_OK) {
        rc = gb_cli_fail(st, "report", NULL);
        goto out;
    }
    if (!run->info.complete || run->truncated)
        fprintf(stderr, "note: %s did not end normally; the report shows the points it recorded\n",
                dir);

    if ((st = gb_report_summary_table(run, NULL, &t)) != GB_OK ||
        (st = gb_table_print(t, stdout, fmt, fmt == GB_FORMAT_TABLE ? gb_term_width(stdout) : 0))
            != GB_OK) {
        rc = gb_cli_fail(st, "report: summary", NULL);
        goto out;
    }
    /* Speedup tables follow the summary on a terminal-format stdout only. */
    if (fmt == GB_FORMAT_TABLE &&
        (st = gb_report_print_speedups(run, stdout, fmt, gb_term_width(stdout))) != GB_OK) {
        rc = gb_cli_fail(st, "report: speedup table", NULL);
        goto out;
    }
out:
    gb_table_free(t);
    gb_run_free(run);
    gb_report_result_release(&res);
    return rc;
}
