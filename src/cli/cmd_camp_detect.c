/* cmd_camp_detect.c - `gpubound camp detect`: profiles points in-process
 * and says whether their traffic camps on L2 slices or DRAM partitions,
 * against the camping suite's spread and camped sets profiled in the same
 * command (or read from a camping run recorded with --counters). The
 * counters, the references and the judgement are the model's
 * (src/models/campprof/camp_detect.c); this file parses, profiles and
 * prints. */
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/cli_spec.h"
#include "cli/cli.h"
#include "cli/cmd_camp.h"
#include "gpubound/camp_detect.h"
#include "gpubound/measure.h"
#include "gpubound/session.h"

#define CMD "camp"

struct detect_args {
    long device;
    const char **sets, *refs, *from_run, *point;
    int n_sets, quick;
    enum gb_format fmt;
};

struct detect_state {
    struct gb_record *recs;      /* every profiled record, the references first */
    size_t n, cap;
    int failed;
};

static int detect_args(int argc, char **argv, struct detect_args *a)
{
    static const struct option longopts[] = {
        {"device", required_argument, NULL, 'd'}, {"set", required_argument, NULL, 's'},
        {"quick", no_argument, NULL, 'q'},        {"refs", required_argument, NULL, 'r'},
        {"format", required_argument, NULL, 'f'}, {"from-run", required_argument, NULL, 'R'},
        {"point", required_argument, NULL, 'P'},  {NULL, 0, NULL, 0}};
    int c;
    memset(a, 0, sizeof *a);
    a->fmt = GB_FORMAT_TABLE;
    if (!(a->sets = calloc((size_t)argc + 1, sizeof *a->sets)))
        return gb_cli_fail(gb_error_set(GB_ERR_NOMEM, "out of host memory"), NULL, NULL);
    if ((c = gb_cli_options_once(CMD, argc, argv, ":", longopts, "--set...")) >= 0)
        return c;
    gb_cli_getopt_reset();
    while ((c = getopt_long(argc, argv, ":", longopts, NULL)) != -1) {
        switch (c) {
        case 'd':
            if ((a->device = gb_cli_parse_range(CMD, "detect: --device", optarg, GB_RANGE_ORDINAL, 0)) < 0)
                return GB_EXIT_USAGE;
            break;
        case 's': a->sets[a->n_sets++] = optarg; break;
        case 'q': a->quick = 1; break;
        case 'r': a->refs = optarg; break;
        case 'R': a->from_run = optarg; break;
        case 'P': a->point = optarg; break;
        case 'f':
            if (gb_format_parse(optarg, &a->fmt) != GB_OK)
                return gb_cli_usage(CMD, "detect: --format: %s", gb_error_message());
            break;
        case ':': return gb_cli_usage(CMD, "detect: %s needs a value", argv[optind - 1]);
        default: return gb_cli_usage(CMD, "detect: unknown option '%s'", argv[optind - 1]);
        }
    }
    if (a->point && !a->from_run)
        return gb_cli_usage(CMD, "detect: --point needs --from-run RUN");
    if (a->from_run && (optind < argc || a->n_sets || a->quick))
        return gb_cli_usage(CMD, "detect: --from-run reads recorded points; it takes no suite/bench, "
                            "--set or --quick (name a point with --point AXIS=V,...)");
    if (!a->from_run && optind >= argc)
        return gb_cli_usage(CMD, "detect: expected a suite/bench or kernel spec to judge");
    return -1;
}

static void detect_keep(void *ctx, const struct gb_record *rec)
{
    struct detect_state *ds = ctx;
    if (rec->status != GB_REC_OK || !gb_record_has_counters(rec)) {
        fprintf(stderr, "gpubound camp detect: %s/%s: %s: %s\n", rec->suite, rec->bench,
                gb_record_status_name(rec->status), rec->reason[0] ? rec->reason : "no counters");
        ds->failed = 1;
        return;
    }
    if (ds->n == ds->cap) {
        size_t cap = ds->cap ? 2 * ds->cap : 16;
        struct gb_record *p = realloc(ds->recs, cap * sizeof *p);
        if (!p) {
            ds->failed = 1;
            return;
        }
        ds->recs = p;
        ds->cap = cap;
    }
    if (gb_record_copy(&ds->recs[ds->n], rec) == GB_OK)
        ds->n++;
    else
        ds->failed = 1;
}

static void detect_label(const struct gb_record *r, char *buf, size_t n)
{
    int len = snprintf(buf, n, "%s/%s", r->suite, r->bench);
    for (int a = 0; a < r->n_axes && len > 0 && (size_t)len < n; a++)
        len += snprintf(buf + len, n - (size_t)len, " %s=%s", r->axes[a].name, r->axes[a].value);
}

static enum gb_status detect_rows(struct gb_table *t, const char *label, const struct gb_camp_detect *d)
{
    enum gb_status st = GB_OK;
    char verdict[256];
    for (int i = 0; i < GB_CAMP_DETECT_UNITS && st == GB_OK; i++) {
        const struct gb_camp_detect_unit *u = &d->u[i];
        if (!u->have)
            continue;
        gb_camp_detect_verdict(u, verdict, sizeof verdict);
        const char *v = strchr(verdict, ':');
        if ((st = gb_table_row(t)) || (st = gb_table_cell_text(t, label)) ||
            (st = gb_table_cell_text(t, u->what)) || (st = gb_table_cell_num(t, u->point.sum, 6)) ||
            (st = gb_table_cell_num(t, u->point.units, 4)) || (st = gb_table_cell_num(t, u->point.max_mean, 4)) ||
            (st = gb_table_cell_num(t, u->point.max_min, 4)) || (st = gb_table_cell_num(t, u->x_spread, 4)) ||
            (st = gb_table_cell_text(t, v ? v + 2 : verdict)))
            break;
    }
    return st;
}

static int detect_print(const struct detect_args *a, const struct gb_record *pts, size_t n_pts,
                        const struct gb_record *spread, const struct gb_record *camped)
{
    struct gb_table *t = gb_table_new();
    enum gb_status st = t ? GB_OK : gb_error_set(GB_ERR_NOMEM, "out of host memory");
    static const char *const cols[] = {"point", "units", "sectors", "instances", "max/mean", "max/min",
                                       "x spread", "verdict"};
    for (size_t i = 0; i < sizeof cols / sizeof cols[0] && st == GB_OK; i++)
        st = gb_table_column(t, cols[i], NULL);
    for (size_t i = 0; i < n_pts && st == GB_OK; i++) {
        struct gb_camp_detect d;
        char label[256];
        detect_label(&pts[i], label, sizeof label);
        gb_camp_detect(&pts[i].counters, spread ? &spread->counters : NULL, camped ? &camped->counters : NULL, &d);
        st = detect_rows(t, label, &d);
    }
    if (st == GB_OK)
        st = gb_table_print(t, stdout, a->fmt, a->fmt == GB_FORMAT_TABLE && isatty(STDOUT_FILENO) ? gb_term_width(stdout) : 0);
    gb_table_free(t);
    if (st != GB_OK)
        return gb_cli_fail(st, "camp detect", NULL);
    fprintf(stderr, "camp detect: camped = max/mean at least %.0f times the spread reference's; instances "
                    "from sum/avg (CUPTI gives rollups, not per-instance values)\n", GB_CAMP_DETECT_FACTOR);
    return GB_EXIT_OK;
}

/* Profiles the references (unless --refs) and the points. */
static int detect_profile(const struct detect_args *a, int argc, char **argv, struct detect_state *ds)
{
    struct gb_plan plan, refs;
    const struct gb_plan *plans[2];
    size_t np = 0;
    struct gb_session_opts so = {.device = (int)a->device, .command_line = gb_cli_command_line(), .quick = a->quick};
    const char *ref_sel[] = {GB_CAMP_DETECT_REF_BENCH};
    int rc = GB_EXIT_OK;
    memset(&plan, 0, sizeof plan);
    memset(&refs, 0, sizeof refs);
    if (gb_plan_build((const char *const *)argv + optind, argc - optind, a->sets, a->n_sets, a->quick, &plan) != GB_OK)
        return gb_cli_usage(CMD, "detect: %s", gb_error_message());
    if (!a->refs && gb_plan_build(ref_sel, 1, gb_camp_detect_ref_sets, GB_CAMP_DETECT_N_REF_SETS, 0, &refs) != GB_OK) {
        rc = gb_cli_fail(GB_ERR_USAGE, "camp detect: the camping references", NULL);
        goto out;
    }
    if (!a->refs)
        plans[np++] = &refs;
    plans[np++] = &plan;
    gb_measure_opts_default(&so.measure);
    so.measure.counters = (char *const *)gb_camp_detect_metrics;
    so.measure.n_counters = GB_CAMP_DETECT_N_METRICS;
    enum gb_status st = gb_session_profile(plans, np, &so, detect_keep, ds);
    if (st != GB_OK)
        rc = gb_cli_fail(st, "camp detect", st == GB_ERR_NO_GPU ? "camp detect profiles on an NVIDIA GPU" : NULL);
out:
    gb_plan_release(&plan);
    gb_plan_release(&refs);
    return rc;
}

/* ---- --from-run: recorded points ---- */

/* 1 when every "axis=value" of the ','-joined `axes` is one of r's axes. */
static int point_matches(const struct gb_record *r, const char *axes)
{
    char buf[1024], *save = NULL;
    snprintf(buf, sizeof buf, "%s", axes);
    for (char *tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
        char *eq = strchr(tok, '=');
        int found = 0;
        if (!eq)
            return 0;
        *eq = '\0';
        for (int k = 0; k < r->n_axes && !found; k++)
            found = strcmp(r->axes[k].name, tok) == 0 && strcmp(r->axes[k].value, eq + 1) == 0;
        if (!found)
            return 0;
    }
    return 1;
}

static enum gb_status share_row(struct gb_table *t, const struct gb_record *r, const struct gb_camp_detect_unit *u)
{
    char label[256], verdict[256];
    enum gb_status st;
    detect_label(r, label, sizeof label);
    gb_camp_detect_verdict(u, verdict, sizeof verdict);
    const char *v = strchr(verdict, ':');
    if ((st = gb_table_row(t)) || (st = gb_table_cell_text(t, label)) ||
        (st = gb_table_cell_num(t, u->point.sum, 6)) || (st = gb_table_cell_int(t, llround(u->point.units))) ||
        (st = gb_table_cell_num(t, 100 * u->share, 4)) || (st = gb_table_cell_num(t, 100 / u->point.units, 4)) ||
        (st = gb_table_cell_num(t, 100 * u->share_spread, 4)) ||
        (st = gb_table_cell_num(t, 100 * u->share_camped, 4)) ||
        (st = gb_table_cell_text(t, v ? v + 2 : verdict)))
        return st;
    return GB_OK;
}

/* The share of the L2 sectors on the busiest slice of every recorded
 * point of `run` (or those --point names) with the per-slice counters,
 * against the references' shares when there are references. */
static int detect_shares(const struct detect_args *a, const struct gb_run *run, const struct gb_record *spread,
                         const struct gb_record *camped)
{
    static const char *const cols[][2] = {
        {"point", NULL}, {"L2 sectors", NULL}, {"slices", NULL}, {"busiest slice", "%"},
        {"even share", "%"}, {"spread ref", "%"}, {"camped ref", "%"}, {"verdict", NULL},
    };
    struct gb_table *t = gb_table_new();
    enum gb_status st = t ? GB_OK : gb_error_set(GB_ERR_NOMEM, "out of host memory");
    size_t shown = 0, matched = 0;
    for (size_t c = 0; c < sizeof cols / sizeof cols[0] && st == GB_OK; c++)
        st = gb_table_column(t, cols[c][0], cols[c][1]);
    for (size_t i = 0; i < run->n_records && st == GB_OK; i++) {
        const struct gb_record *r = &run->records[i];
        struct gb_camp_detect d;
        if (r->status != GB_REC_OK || (a->point && !point_matches(r, a->point)))
            continue;
        matched++;
        gb_camp_detect(&r->counters, spread ? &spread->counters : NULL, camped ? &camped->counters : NULL, &d);
        if (d.u[0].have && isfinite(d.u[0].share) && (st = share_row(t, r, &d.u[0])) == GB_OK)
            shown++;
    }
    if (st == GB_OK && shown)
        st = gb_table_print(t, stdout, a->fmt, a->fmt == GB_FORMAT_TABLE && isatty(STDOUT_FILENO) ? gb_term_width(stdout) : 0);
    gb_table_free(t);
    if (st != GB_OK)
        return gb_cli_fail(st, "camp detect", NULL);
    if (a->point && !matched)
        return gb_cli_usage(CMD, "detect: no measured point of %s has the axes %s", a->from_run, a->point);
    if (!shown) {
        gb_error_set(GB_ERR_FORMAT, "%s has no %s point with the per-slice L2 counters (lts__t_sectors)",
                     a->from_run, a->point ? "such" : "measured");
        return gb_cli_fail(GB_ERR_FORMAT, "camp detect --from-run", "record it with 'run --counters'");
    }
    return GB_EXIT_OK;
}

/* camp detect --from-run RUN [--point AXES] [--refs RUN_DIR]. */
static int detect_from_run(const struct detect_args *a)
{
    struct gb_run *run = NULL, *refs = NULL;
    const struct gb_record *spread = NULL, *camped = NULL;
    int rc;
    if (gb_cli_load_run(a->from_run, &run) != GB_OK) {
        rc = gb_cli_fail(GB_ERR_FORMAT, "camp detect --from-run", "give a run recorded with 'run --counters'");
        goto out;
    }
    if (a->refs && gb_cli_load_run(a->refs, &refs) != GB_OK) {
        rc = gb_cli_fail(GB_ERR_FORMAT, "camp detect --refs", "give a camping run recorded with 'run --counters'");
        goto out;
    }
    if (refs) {
        spread = gb_camp_detect_ref(refs->records, refs->n_records, "spread");
        camped = gb_camp_detect_ref(refs->records, refs->n_records, "camped");
        if (run->info.has_device && refs->info.has_device &&
            strcmp(run->info.device.name, refs->info.device.name) != 0)
            fprintf(stderr, "note: the references were recorded on %s, the points on %s\n",
                    refs->info.device.name, run->info.device.name);
    }
    if ((rc = detect_shares(a, run, spread, camped)) != GB_EXIT_OK)
        goto out;
    if (!spread)
        fprintf(stderr, "camp detect: no references%s: the shares are not judged; record them on the "
                        "same GPU with 'gpubound run %s --set pattern=spread,camped --set width=4 "
                        "--set warps=64 --counters' and give that run as --refs\n",
                a->refs ? " with counters in --refs" : " (no --refs)", GB_CAMP_DETECT_REF_BENCH);
    else
        fprintf(stderr, "camp detect: references from %s (%s, width 4, 64 warps); camped = max/mean at "
                        "least %.0f times the spread reference's\n", a->refs, GB_CAMP_DETECT_REF_BENCH,
                GB_CAMP_DETECT_FACTOR);
out:
    gb_run_free(run);
    gb_run_free(refs);
    return rc;
}

int camp_cli_detect(int argc, char **argv)
{
    struct detect_args a;
    struct detect_state ds = {0};
    struct gb_run *run = NULL;
    const struct gb_record *refs = NULL;
    size_t n_refs = 0, first = 0;
    char **spec_owned = NULL, spec_paths[1024];
    int rc;
    if ((rc = detect_args(argc, argv, &a)) >= 0)
        goto out;
    if (a.from_run) {
        rc = detect_from_run(&a);
        goto out;
    }
    /* A kernel spec file goes wherever a suite does, as in run. */
    if ((rc = gb_cli_spec_args(argc - optind, argv + optind, &spec_owned, spec_paths, sizeof spec_paths)) >= 0)
        goto out;
    if (a.refs && gb_cli_load_run(a.refs, &run) != GB_OK) {
        rc = gb_cli_fail(GB_ERR_FORMAT, "camp detect --refs", "give a camping run recorded with 'run --counters'");
        goto out;
    }
    if ((rc = detect_profile(&a, argc, argv, &ds)) != GB_EXIT_OK)
        goto out;
    if (run) {
        refs = run->records;
        n_refs = run->n_records;
    } else {
        refs = ds.recs;
        first = n_refs = gb_camp_detect_n_refs(ds.recs, ds.n);
    }
    const struct gb_record *spread = gb_camp_detect_ref(refs, n_refs, "spread"),
                           *camped = gb_camp_detect_ref(refs, n_refs, "camped");
    if (!spread)
        fprintf(stderr, "gpubound camp detect: no spread reference with counters%s; imbalance is shown "
                        "but not judged\n", a.refs ? " in --refs (record camping/read with --counters)" : "");
    rc = detect_print(&a, ds.recs + first, ds.n - first, spread, camped);
    if (rc == GB_EXIT_OK && ds.failed)
        rc = GB_EXIT_FAIL;
out:
    for (size_t i = 0; i < ds.n; i++)
        gb_record_release(&ds.recs[i]);
    free(ds.recs);
    gb_run_free(run);
    gb_cli_spec_free(spec_owned);
    free(a.sets);
    return rc;
}
