/* cmd_fleet.c - `gpubound fleet RUN`: which GPU of a fleet run is not like
 * the others (the statistics: src/models/fleet/fleet.c). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/cmd_fleet.h"
#include "gpubound/fleet.h"
#include "gpubound/fleet_tables.h"
#include "util/fs.h"
#include "util/stage.h"

/* The table format: the points side by side, then the suites, then the
 * GPUs. */
static enum gb_status gb_fleet_print_tables(const struct gb_fleet_report *r)
{
    struct gb_table *wide = NULL, *sum = NULL, *suites = NULL;
    int width = isatty(STDOUT_FILENO) ? gb_term_width(stdout) : 0;
    enum gb_status st = gb_fleet_wide_table(r, &wide);
    if (st == GB_OK)
        st = gb_fleet_suite_table(r, &suites);
    if (st == GB_OK)
        st = gb_fleet_summary_table(r, &sum);
    if (st == GB_OK) {
        printf("Per point: each rank's median (µs) and its ratio to the fleet median (* outlier)\n\n");
        st = gb_table_print(wide, stdout, GB_FORMAT_TABLE, 0);
    }
    if (st == GB_OK) {
        printf("\nPer suite: max/min of the GPUs' medians; beyond the intervals: points where one GPU's "
               "95%% interval lies wholly above another's\n\n");
        st = gb_table_print(suites, stdout, GB_FORMAT_TABLE, width);
    }
    if (st == GB_OK) {
        printf("\nPer GPU\n\n");
        st = gb_table_print(sum, stdout, GB_FORMAT_TABLE, width);
    }
    gb_table_free(wide);
    gb_table_free(suites);
    gb_table_free(sum);
    return st;
}

/* CSV: one row per point and member, streamed; JSON: those rows and the summary. */
static enum gb_status gb_fleet_print_data(const struct gb_fleet_report *r, enum gb_format fmt)
{
    struct gb_table *rows = NULL, *sum = NULL, *suites = NULL;
    if (fmt == GB_FORMAT_CSV)
        return gb_fleet_long_csv(r, stdout);
    enum gb_status st = gb_fleet_long_table(r, &rows);
    if (st == GB_OK && fmt == GB_FORMAT_JSON)
        st = gb_fleet_summary_table(r, &sum);
    if (st == GB_OK && fmt == GB_FORMAT_JSON)
        st = gb_fleet_suite_table(r, &suites);
    if (st == GB_OK && fmt == GB_FORMAT_JSON) {
        fputs("{\"points\":\n", stdout);
        st = gb_table_print(rows, stdout, fmt, 0);
        fputs(",\"suites\":\n", stdout);
        if (st == GB_OK)
            st = gb_table_print(suites, stdout, fmt, 0);
        fputs(",\"members\":\n", stdout);
        if (st == GB_OK)
            st = gb_table_print(sum, stdout, fmt, 0);
        fputs("}\n", stdout);
    }
    gb_table_free(rows);
    gb_table_free(suites);
    gb_table_free(sum);
    return st;
}

static int gb_fleet_draw(const struct gb_fleet_report *r, const char *chart_dir)
{
    struct gb_report_result res;
    struct gb_stage stage;
    char final[GB_PATH_MAX + 320];
    gb_report_result_init(&res);
    /* Every chart drawn in a stage, moved into chart_dir only when all are. */
    enum gb_status st = gb_stage_open(&stage, chart_dir);
    if (st == GB_OK && (st = gb_fleet_chart(r, stage.tmp, "fleet", 0, &res)) == GB_OK)
        st = gb_stage_commit(&stage);
    if (st != GB_OK)
        st = gb_stage_fail(&stage, st);
    if (st == GB_OK && res.n_not_drawn)
        fprintf(stderr, "gpubound: the fleet chart was not drawn: %s\n", res.note);
    else if (st == GB_OK)
        for (size_t i = 0; i < res.n_files; i++)
            if (strstr(res.files[i], ".svg"))
                fprintf(stderr, "chart: %s\n", gb_stage_final(&stage, res.files[i], final, sizeof final));
    gb_report_result_release(&res);
    return st == GB_OK ? GB_EXIT_OK : gb_cli_fail(st, "fleet chart", NULL);
}

/* Whether any member measured a point. */
static int gb_fleet_any(const struct gb_fleet_report *r)
{
    for (size_t m = 0; m < r->n_members; m++)
        if (r->summary[m].measured)
            return 1;
    return 0;
}

int gb_fleet_print(const char *dir, enum gb_format fmt, const char *chart_dir)
{
    struct gb_run *run = NULL;
    struct gb_fleet_member *members = NULL;
    struct gb_fleet_report rep;
    size_t n = 0;
    int rc = GB_EXIT_OK;
    memset(&rep, 0, sizeof rep);
    enum gb_status st = gb_cli_load_run(dir, &run);
    if (st != GB_OK)
        return gb_cli_fail(st, "fleet", NULL);
    if ((st = gb_fleet_members_load(dir, &members, &n)) != GB_OK ||
        (st = gb_fleet_members_check(run, members, n)) != GB_OK ||
        (st = gb_fleet_analyze(run, members, n, &rep)) != GB_OK) {
        if (!rep.members)
            free(members);
        rc = gb_cli_fail(st, "fleet", NULL);
        goto out;
    }
    st = fmt == GB_FORMAT_TABLE ? gb_fleet_print_tables(&rep) : gb_fleet_print_data(&rep, fmt);
    if (st != GB_OK) {
        rc = gb_cli_fail(st, "fleet", NULL);
        goto out;
    }
    if (!gb_fleet_any(&rep)) {
        fprintf(stderr, "gpubound fleet: no rank of %s measured a point (the reasons are in the verdict "
                        "column and run.json's fleet section)\n", dir);
        rc = GB_EXIT_FAIL;
    } else if (chart_dir) {
        rc = gb_fleet_draw(&rep, chart_dir);
    }
out:
    gb_fleet_report_release(&rep);
    gb_run_free(run);
    return rc;
}

int gb_cmd_fleet(int argc, char **argv)
{
    static const struct option longopts[] = {{"format", required_argument, NULL, 'f'},
                                             {"chart-dir", required_argument, NULL, 'c'},
                                             {"no-chart", no_argument, NULL, 'N'},
                                             {NULL, 0, NULL, 0}};
    enum gb_format fmt = GB_FORMAT_TABLE;
    const char *chart_dir = NULL;
    char def[4200];
    int c, no_chart = 0;
    if ((c = gb_cli_options_once("fleet", argc, argv, ":f:", longopts, NULL)) >= 0)
        return c;
    gb_cli_getopt_reset();
    while ((c = getopt_long(argc, argv, ":f:", longopts, NULL)) != -1) {
        switch (c) {
        case 'f':
            if (gb_format_parse(optarg, &fmt) != GB_OK)
                return gb_cli_usage("fleet", "--format: %s", gb_error_message());
            break;
        case 'c': chart_dir = optarg; break;
        case 'N': no_chart = 1; break;
        case ':': return gb_cli_usage("fleet", "%s needs a value", argv[optind - 1]);
        default: return gb_cli_usage("fleet", "unknown option '%s'", argv[optind - 1]);
        }
    }
    if (argc - optind != 1)
        return gb_cli_usage("fleet", argc - optind ? "give one run directory" : "which run? give RUN");
    if (chart_dir && !chart_dir[0])
        return gb_cli_usage("fleet", "--chart-dir: an empty directory name");
    if (chart_dir && gb_cli_path_within(chart_dir, argv[optind]))
        return gb_cli_usage("fleet", "--chart-dir %s lies inside the run %s, which fleet only reads; give a "
                            "directory outside it", chart_dir, argv[optind]);
    if (!chart_dir && !no_chart) {
        /* Never into the run read: a new runs/fleet-<UTC time>. */
        gb_cli_default_out(def, sizeof def, "fleet");
        chart_dir = def;
    }
    int rc = gb_fleet_print(argv[optind], fmt, no_chart ? NULL : chart_dir);
    /* Named once made: a run that cannot be read makes none. */
    if (rc == GB_EXIT_OK && chart_dir == def && fmt == GB_FORMAT_TABLE && access(def, F_OK) == 0)
        printf("charts: %s\n", def);
    return rc;
}
