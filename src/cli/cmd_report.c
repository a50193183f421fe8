/* cmd_report.c - `gpubound report RUN_DIR`: the report of a recorded run. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/cli_roofs.h"
#include "cli/cmd_report.h"
#include "cli/run_charts.h"
#include "gpubound/report.h"

#define GB_MAX_PATTERNS 64

struct gb_report_args {
    const char *dir, *out, *ceilings;
    int other_gpu, no_roofline;
    char default_out[4200];
    enum gb_format fmt;
    struct gb_report_opts opts;
    const char *patterns[GB_MAX_PATTERNS];
    char *pattern_buf;     /* the --charts values, split at commas */
};

/* Adds the comma list `s` of --charts to the patterns. */
static int gb_add_patterns(struct gb_report_args *a, const char *s)
{
    size_t used = 0;
    for (size_t i = 0; i < a->opts.n_patterns; i++)
        used += strlen(a->patterns[i]) + 1;
    char *buf = realloc(a->pattern_buf, used + strlen(s) + 1);
    if (!buf)
        return gb_cli_usage("report", "--charts: out of memory");
    /* The earlier patterns point into the buffer: repoint them. */
    for (size_t i = 0, off = 0; i < a->opts.n_patterns; i++) {
        a->patterns[i] = buf + off;
        off += strlen(buf + off) + 1;
    }
    a->pattern_buf = buf;
    char *p = buf + used;
    memcpy(p, s, strlen(s) + 1);
    for (char *tok = strtok(p, ","); tok; tok = strtok(NULL, ",")) {
        if (a->opts.n_patterns == GB_MAX_PATTERNS)
            return gb_cli_usage("report", "--charts: at most %d patterns", GB_MAX_PATTERNS);
        a->patterns[a->opts.n_patterns++] = tok;
    }
    if (!*s || s[strlen(s) - 1] == ',' || s[0] == ',' || strstr(s, ",,"))
        return gb_cli_usage("report", "--charts: '%s' has an empty pattern", s);
    return GB_EXIT_OK;
}

static int gb_parse_chart_format(struct gb_report_args *a, const char *s)
{
    if (strcmp(s, "png") == 0)
        a->opts.formats = GB_PLOT_PNG;
    else if (strcmp(s, "svg") == 0)
        a->opts.formats = GB_PLOT_SVG;
    else if (strcmp(s, "both") == 0)
        a->opts.formats = 0;
    else
        return gb_cli_usage("report", "--chart-format: '%s' is not png, svg or both", s);
    return GB_EXIT_OK;
}

/* Options and the run directory; the exit code of a usage error, else 0. */
static int gb_report_parse(int argc, char **argv, struct gb_report_args *a)
{
    static const struct option longopts[] = {
        {"out", required_argument, NULL, 'o'},
        {"format", required_argument, NULL, 'f'},
        {"charts", required_argument, NULL, 'c'},
        {"all-charts", no_argument, NULL, 'A'},
        {"chart-format", required_argument, NULL, 'F'},
        {"force", no_argument, NULL, 'X'},
        {"ceilings", required_argument, NULL, 'C'},
        {"other-gpu", no_argument, NULL, 'g'},
        {"no-roofline", no_argument, NULL, 'R'},
        {NULL, 0, NULL, 0}};
    int c, rc = GB_EXIT_OK;
    if ((c = gb_cli_options_once("report", argc, argv, ":o:f:", longopts, "--charts...")) >= 0)
        return c;
    gb_cli_getopt_reset();
    while (rc == GB_EXIT_OK && (c = getopt_long(argc, argv, ":o:f:", longopts, NULL)) != -1) {
        switch (c) {
        case 'o': a->out = optarg; break;
        case 'f':
            if (gb_format_parse(optarg, &a->fmt) != GB_OK)
                rc = gb_cli_usage("report", "--format: %s", gb_error_message());
            break;
        case 'c': rc = gb_add_patterns(a, optarg); break;
        case 'A': a->opts.all_charts = 1; break;
        case 'X': a->opts.force = 1; break;
        case 'C': a->ceilings = optarg; break;
        case 'g': a->other_gpu = 1; break;
        case 'R': a->no_roofline = 1; break;
        case 'F': rc = gb_parse_chart_format(a, optarg); break;
        case ':': return gb_cli_usage("report", "%s needs a value", argv[optind - 1]);
        default: return gb_cli_usage("report", "unknown option '%s'", argv[optind - 1]);
        }
    }
    if (rc != GB_EXIT_OK)
        return rc;
    if (argc - optind != 1) {
        if (argc == optind)
            return gb_cli_usage("report", "expected a RUN_DIR");
        return gb_cli_usage("report", "expected one RUN_DIR, not %d arguments", argc - optind);
    }
    a->dir = argv[optind];
    if (!a->dir[0] || (a->out && !a->out[0]))
        return gb_cli_usage("report", "an empty directory name");
    if (a->ceilings && a->no_roofline)
        return gb_cli_usage("report", "--ceilings and --no-roofline contradict each other");
    if ((rc = gb_cli_out_outside("report", "--out", a->out, a->dir)) >= 0 ||
        (rc = gb_cli_out_outside("report", "--out", a->out, a->ceilings)) >= 0)
        return rc;
    if (!a->out) {
        /* Never into the run read: runs/<run's name>-report. */
        size_t len = strlen(a->dir);
        while (len > 1 && a->dir[len - 1] == '/')
            len--;
        size_t start = len;
        while (start > 0 && a->dir[start - 1] != '/')
            start--;
        snprintf(a->default_out, sizeof a->default_out, "runs/%.*s-report", (int)(len - start), a->dir + start);
        a->out = a->default_out;
    }
    a->opts.patterns = a->patterns;
    return GB_EXIT_OK;
}

/* What was written and what was not, on stderr. */
static void gb_report_print_result(const struct gb_report_result *res)
{
    for (size_t i = 0; i < res->n_files; i++)
        fprintf(stderr, "wrote %s\n", res->files[i]);
    for (size_t i = 0; i < res->n_no_data; i++)
        fprintf(stderr, "chart %s: no measured point in this run\n", res->no_data[i]);
    if (res->n_not_drawn) {
        fprintf(stderr, "not drawn:");
        for (size_t i = 0; i < res->n_not_drawn; i++)
            fprintf(stderr, " %s", res->not_drawn[i]);
        fprintf(stderr, " (%s)\n", res->note);
    }
    if (res->n_left_out)
        fprintf(stderr, "note: %zu chart%s not drawn (--all-charts draws every one, --charts PATTERN "
                        "those named)\n", res->n_left_out, res->n_left_out == 1 ? "" : "s");
}

/* The summary on stdout: every point, or one row per bench for a large run
 * on a terminal-format stdout; then the speedup tables (table format only). */
static int gb_report_print_summary(const struct gb_run *run, const struct gb_chart_book *book,
                                   const struct gb_report_args *a)
{
    struct gb_table *t = NULL;
    int width = a->fmt == GB_FORMAT_TABLE ? gb_term_width(stdout) : 0;
    int by_bench = a->fmt == GB_FORMAT_TABLE && gb_report_is_large(run, book);
    enum gb_status st = by_bench ? gb_report_bench_table(run, NULL, &t)
                                 : gb_report_summary_table(run, NULL, &t);
    if (st == GB_OK)
        st = gb_table_print(t, stdout, a->fmt, width);
    gb_table_free(t);
    if (st != GB_OK)
        return gb_cli_fail(st, "report: summary", NULL);
    if (by_bench)
        fprintf(stderr, "note: %zu points, one row per bench above; the table of every point is "
                        "%s/summary.csv (or use --format csv)\n", run->n_records, a->out);
    if (a->fmt == GB_FORMAT_TABLE &&
        (st = gb_report_print_speedups_book(run, book, stdout, a->fmt, width)) != GB_OK)
        return gb_cli_fail(st, "report: speedup table", NULL);
    return GB_EXIT_OK;
}

/* The run under the machine's roofs, for the report's roofline section:
 * the ceilings run given, else one found beside the run, else the guide
 * figures. Only a run with a record that carries counters gets one; any
 * other is left without (opts untouched). The exit code. */
static int gb_report_roofs(const struct gb_run *run, struct gb_report_args *a, struct gb_ceilings **roofs,
                           struct gb_roofline *rl)
{
    char found[4200];
    const char *ceil = a->ceilings;
    struct gb_roofline_opts ro = {.pipe = -1};
    enum gb_status st;
    int counters = 0;
    for (size_t i = 0; i < run->n_records && !counters; i++)
        counters = gb_record_has_counters(&run->records[i]);
    if (a->no_roofline || (!counters && !a->ceilings))
        return GB_EXIT_OK;
    if (!ceil && gb_cli_find_ceilings(run, found, sizeof found))
        ceil = found;
    if (!(*roofs = calloc(1, sizeof **roofs)))
        return gb_cli_fail(gb_error_set(GB_ERR_NOMEM, "out of memory"), "report", NULL);
    if (!ceil && !run->info.has_device)
        return GB_EXIT_OK;   /* no roofs to stand on: no roofline */
    if ((st = gb_cli_roofs(ceil, a->other_gpu, run, *roofs)) != GB_OK)
        return gb_cli_fail(st, "report", "give a ceilings run of the run's GPU with --ceilings DIR");
    if ((st = gb_roofline_fit_run(run, *roofs, &ro, rl)) != GB_OK)
        return gb_cli_fail(st, "report: roofline", NULL);
    if (rl->from_counters > 0) {
        a->opts.roofs = *roofs;
        a->opts.roofline = rl;
        fprintf(stderr, "report: roofline under %s\n", (*roofs)->measured ? (*roofs)->run_dir
                                                                       : "the guide figures (no ceilings run)");
    } else if (a->ceilings)
        fprintf(stderr, "report: no roofline: no record of %s carries counters (record with --counters)\n",
                run->dir);
    return GB_EXIT_OK;
}

int gb_cmd_report(int argc, char **argv)
{
    struct gb_report_args a = {.fmt = GB_FORMAT_TABLE};
    struct gb_run *run = NULL;
    struct gb_chart_book book;
    struct gb_report_result res;
    struct gb_ceilings *roofs = NULL;
    struct gb_roofline rl = {0};
    enum gb_status st;
    int rc;

    gb_report_result_init(&res);
    gb_chart_book_init(&book);
    if ((rc = gb_report_parse(argc, argv, &a)) != GB_EXIT_OK)
        goto out;
    if ((st = gb_cli_load_run(a.dir, &run)) != GB_OK) {
        rc = gb_cli_fail(st, "report", "give the directory of a run recorded by 'gpubound run'");
        goto out;
    }
    if ((rc = gb_report_roofs(run, &a, &roofs, &rl)) != GB_EXIT_OK)
        goto out;
    if ((st = gb_cli_run_charts(run, &book)) != GB_OK) {
        rc = gb_cli_fail(st, "report", NULL);
        goto out;
    }
    if (gb_report_check_patterns(run, &book, &a.opts) != GB_OK) {
        rc = gb_cli_usage("report", "%s", gb_error_message());
        goto out;
    }
    st = gb_report_write_book(run, &book, &a.opts, a.out, &res);
    if (st == GB_OK && a.out == a.default_out)
        fprintf(stderr, "report: writing %s (no --out given; a report never writes into the run it reads)\n",
                a.out);
    if (st == GB_OK)
        gb_report_print_result(&res);
    else {
        rc = gb_cli_fail(st, "report", NULL);
        goto out;
    }
    if (!run->info.complete || run->truncated)
        fprintf(stderr, "note: %s did not end normally; the report shows the points it recorded\n",
                a.dir);
    rc = gb_report_print_summary(run, &book, &a);
out:
    free(roofs);
    gb_roofline_release(&rl);
    free(a.pattern_buf);
    gb_chart_book_release(&book);
    gb_run_free(run);
    gb_report_result_release(&res);
    return rc;
}
