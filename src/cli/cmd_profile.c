/* cmd_profile.c - `gpubound profile`: hardware counters of one launch of
 * each point (Nsight Compute's metric names), profiled in-process through
 * CUPTI's range profiler; nothing is timed or written. */
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/cli.h"
#include "cli/cli_spec.h"
#include "gpu/cupti_profiler.h"
#include "gpubound/counters.h"
#include "gpubound/measure.h"
#include "gpubound/session.h"

#define CMD "profile"

struct profile_args {
    long device, launch;
    const char **sets;
    int n_sets, quick, trace, keep_cache;
    const char *metrics;
    enum gb_format fmt;
};

struct profile_out {
    struct gb_table *t;
    int failed, unknown_metric;
    enum gb_status st;
};

static int profile_option(int c, char **argv, struct profile_args *a)
{
    switch (c) {
    case 'd': return (a->device = gb_cli_parse_range(CMD, "--device", optarg, GB_RANGE_ORDINAL, 0)) < 0 ? GB_EXIT_USAGE : -1;
    case 'l': return (a->launch = gb_cli_parse_long(CMD, "--launch", optarg, 0, 1000)) < 0 ? GB_EXIT_USAGE : -1;
    case 's': a->sets[a->n_sets++] = optarg; return -1;
    case 'q': a->quick = 1; return -1;
    case 'M': a->metrics = optarg; return -1;
    case 'T': a->trace = 1; return -1;
    case 'C':
        if (strcmp(optarg, "all") && strcmp(optarg, "none"))
            return gb_cli_usage(CMD, "--cache-control takes all or none, not '%s'", optarg);
        a->keep_cache = strcmp(optarg, "none") == 0;
        return -1;
    case 'f': return gb_format_parse(optarg, &a->fmt) != GB_OK ? gb_cli_usage(CMD, "%s", gb_error_message()) : -1;
    case ':': return gb_cli_usage(CMD, "%s needs a value", argv[optind - 1]);
    default: return gb_cli_usage(CMD, "unknown option '%s'", argv[optind - 1]);
    }
}

static int profile_args(int argc, char **argv, struct profile_args *a)
{
    static const struct option longopts[] = {
        {"device", required_argument, NULL, 'd'}, {"launch", required_argument, NULL, 'l'},
        {"set", required_argument, NULL, 's'},    {"quick", no_argument, NULL, 'q'},
        {"metrics", required_argument, NULL, 'M'}, {"trace", no_argument, NULL, 'T'},
        {"format", required_argument, NULL, 'f'}, {"cache-control", required_argument, NULL, 'C'},
        {NULL, 0, NULL, 0}};
    int c, rc;
    memset(a, 0, sizeof *a);
    a->metrics = "default";
    a->fmt = GB_FORMAT_TABLE;
    if (!(a->sets = calloc((size_t)argc + 1, sizeof *a->sets)))
        return gb_cli_fail(gb_error_set(GB_ERR_NOMEM, "out of host memory"), NULL, NULL);
    if ((c = gb_cli_options_once(CMD, argc, argv, ":d:l:s:qM:Tf:C:", longopts, "--set...")) >= 0)
        return c;
    gb_cli_getopt_reset();
    while ((c = getopt_long(argc, argv, ":d:l:s:qM:Tf:C:", longopts, NULL)) != -1)
        if ((rc = profile_option(c, argv, a)) >= 0)
            return rc;
    if (optind >= argc)
        return gb_cli_usage(CMD, "expected a suite, suite/bench or kernel spec to profile");
    return -1;
}

static void profile_label(const struct gb_record *r, char *buf, size_t n)
{
    int len = snprintf(buf, n, "%s/%s", r->suite, r->bench);
    for (int a = 0; a < r->n_axes && len > 0 && (size_t)len < n; a++)
        len += snprintf(buf + len, n - (size_t)len, " %s=%s", r->axes[a].name, r->axes[a].value);
}

static void profile_each(void *ctx, const struct gb_record *rec)
{
    struct profile_out *po = ctx;
    char label[256];
    profile_label(rec, label, sizeof label);
    if (rec->status != GB_REC_OK || !gb_record_has_counters(rec)) {
        fprintf(stderr, "gpubound profile: %s: %s: %s\n", label, gb_record_status_name(rec->status),
                rec->reason[0] ? rec->reason : "no counters");
        po->failed = 1;
        po->unknown_metric |= strstr(rec->reason, "is not known on this GPU") != NULL;
        return;
    }
    for (int i = 0; i < rec->counters.n && po->st == GB_OK; i++) {
        const struct gb_counter *k = &rec->counters.v[i];
        if ((po->st = gb_table_row(po->t)) || (po->st = gb_table_cell_text(po->t, label)) ||
            (po->st = gb_table_cell_text(po->t, k->name)) || (po->st = gb_table_cell_num(po->t, k->value, 12)))
            break;
    }
}

static int profile_points(const struct profile_args *a, const struct gb_plan *plan, char **names, size_t n)
{
    struct profile_out po = {.t = gb_table_new()};
    struct gb_session_opts so = {.device = (int)a->device, .command_line = gb_cli_command_line(), .quick = a->quick};
    const struct gb_plan *plans[1] = {plan};
    char note[512];
    int rc = GB_EXIT_OK;
    gb_measure_opts_default(&so.measure);
    so.measure.counters = names;
    so.measure.n_counters = n;
    so.measure.counters_strict = strcmp(a->metrics, "default") != 0;
    so.measure.counter_launch = (int)a->launch;
    so.measure.counters_keep_cache = a->keep_cache;
    if (!po.t || gb_table_column(po.t, "point", NULL) || gb_table_column(po.t, "metric", NULL) ||
        gb_table_column(po.t, "value", NULL))
        return gb_cli_fail(gb_error_set(GB_ERR_NOMEM, "out of host memory"), CMD, NULL);
    enum gb_status st = gb_session_profile(plans, 1, &so, profile_each, &po);
    if (st != GB_OK)
        rc = gb_cli_fail(st, CMD, st == GB_ERR_NO_GPU ? "gpubound profile needs an NVIDIA GPU and its driver" : NULL);
    else if (po.st != GB_OK)
        rc = gb_cli_fail(po.st, CMD, NULL);
    else if (gb_table_n_rows(po.t))
        gb_table_print(po.t, stdout, a->fmt, a->fmt == GB_FORMAT_TABLE && isatty(STDOUT_FILENO) ? gb_term_width(stdout) : 0);
    gb_counters_note_take(note, sizeof note);
    if (note[0])
        fprintf(stderr, "gpubound profile: %s\n", note);
    if (rc == GB_EXIT_OK && po.failed)
        rc = po.unknown_metric ? GB_EXIT_USAGE : GB_EXIT_FAIL;
    gb_table_free(po.t);
    return rc;
}

int gb_cmd_profile(int argc, char **argv)
{
    struct profile_args a;
    struct gb_plan plan;
    char **names = NULL, **spec_owned = NULL, spec_paths[1024];
    size_t n = 0;
    int rc;
    memset(&plan, 0, sizeof plan);
    if ((rc = profile_args(argc, argv, &a)) >= 0)
        goto out;
    /* A kernel spec file goes wherever a suite does, as in run. */
    if ((rc = gb_cli_spec_args(argc - optind, argv + optind, &spec_owned, spec_paths, sizeof spec_paths)) >= 0)
        goto out;
    if (gb_counter_names_parse(a.metrics, &names, &n) != GB_OK) {
        rc = gb_cli_usage(CMD, "--metrics: %s", gb_error_message());
        goto out;
    }
    if (gb_plan_build((const char *const *)argv + optind, argc - optind, a.sets, a.n_sets, a.quick, &plan) != GB_OK) {
        rc = gb_cli_usage(CMD, "%s", gb_error_message());
        goto out;
    }
    rc = profile_points(&a, &plan, names, n);
    if (a.trace || rc == GB_EXIT_FAIL) {
        static char trace[64 * 170];
        gb_profiler_trace(trace, sizeof trace);
        if (trace[0])
            fprintf(stderr, "CUPTI calls (last 64):\n%s", trace);
    }
out:
    gb_plan_release(&plan);
    gb_counter_names_free(names, n);
    gb_cli_spec_free(spec_owned);
    free(a.sets);
    return rc;
}
