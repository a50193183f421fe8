/* cmd_camp_predict.c - `gpubound camp predict`: parses the kernel's counts
 * and launch, calls the model for its band (src/models/campprof/campprof_predict.c)
 * and prints it, with its chart (src/report/band.c) on request. */
#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/cmd_camp.h"
#include "gpubound/band.h"
#include "gpubound/camp_run.h"
#include "gpubound/campprof.h"
#include "gpubound/ncu.h"
#include "gpubound/occupancy.h"
#include "gpubound/report_html.h"
#include "util/fs.h"
#include "util/stage.h"

#define CMD "camp"

/* What the command line asks for. */
struct predict_opts {
    const char *model_path, *ncu_path, *chart, *cc, *html, *point, *ceilings;
    long threads, regs, smem, dyn_smem, grid, warps_max, ncu_id, at;
    double time_ns;
    int have_counts, hot;
    double level_bytes[4], warps_active; /* DRAM read, write, L2 read, write; NaN: not known */
    double inflight;             /* --in-flight, or the point's PTX; NaN: not known */
    int own_knee;                /* --knee kernel (the default) */
    enum gb_format fmt;
    struct gb_camp_counts counts;
    char chart_dir[4096], chart_stem[128];
};

/* What the command computes and prints. */
struct predict_state {
    struct gb_camp_model *m;
    struct gb_device_info dev;
    struct gb_ncu_report *ncu;
    struct gb_camp_predict_result r;   /* the configurations, their band and the domain */
    char kernel[160], launch_text[256];
};

/* Parses "W:N[,W:N...]" into counts[class]; -1 on a malformed list. */
static int parse_counts(const char *s, double *counts)
{
    char buf[1024];
    if (strlen(s) >= sizeof buf || !*s)
        return -1;
    snprintf(buf, sizeof buf, "%s", s);
    for (char *tok = buf; tok;) {
        char *next = strchr(tok, ',');
        if (next)
            *next++ = '\0';
        char *colon = strchr(tok, ':'), *end;
        if (!colon)
            return -1;
        *colon = '\0';
        errno = 0;
        long w = strtol(tok, &end, 10);
        int c = (*tok && !*end && !errno) ? gb_camp_width_class((int)w) : -1;
        double n;
        if (c < 0 || camp_cli_parse_double(colon + 1, &n) != 0 || n < 0)
            return -1;
        counts[c] += n;
        tok = next;
    }
    return 0;
}

static void counts_text(const double *v, char *buf, size_t n)
{
    size_t len = 0;
    buf[0] = '\0';
    for (int c = 0; c < GB_CAMP_N_WIDTHS; c++)
        if (v[c] > 0 && len < n) {
            char num[32];
            if (v[c] == floor(v[c]) && v[c] < 1e15)
                snprintf(num, sizeof num, "%.0f", v[c]);
            else
                gb_format_num(num, sizeof num, v[c], 7);
            len += (size_t)snprintf(buf + len, n - len, "%s%d B x %s", len ? ", " : "",
                                    gb_camp_class_width(c), num);
        }
    if (!buf[0])
        snprintf(buf, n, "none");
}

/* "1-16, 18, 20" */
static void warps_text(const int *w, size_t n, char *buf, size_t size)
{
    size_t len = 0;
    buf[0] = '\0';
    for (size_t i = 0; i < n && len < size;) {
        size_t j = i;
        while (j + 1 < n && w[j + 1] == w[j] + 1)
            j++;
        if (j > i + 1)
            len += (size_t)snprintf(buf + len, size - len, "%s%d-%d", i ? ", " : "", w[i], w[j]);
        else
            for (size_t k = i; k <= j && len < size; k++)
                len += (size_t)snprintf(buf + len, size - len, "%s%d", k ? ", " : "", w[k]);
        i = j + 1;
    }
}

/* ---- parsing ---- */

/* A whole-number option: its value, or -1 after printing the usage error. */
static long opt_long(const char *opt, const char *arg, long min, long max)
{
    char what[64];
    snprintf(what, sizeof what, "predict: %s", opt);
    return gb_cli_parse_long(CMD, what, arg, min, max);
}

/* A whole-number option checked against the range table. */
static long opt_range(const char *opt, const char *arg, enum gb_range_id id, long min)
{
    char what[64];
    snprintf(what, sizeof what, "predict: %s", opt);
    return gb_cli_parse_range(CMD, what, arg, id, min);
}

/* --knee and --in-flight into `o`. */
static int predict_knee_option(int c, const char *arg, struct predict_opts *o)
{
    if (c == 'k')
        return (o->own_knee = camp_cli_parse_knee(arg)) < 0
                   ? gb_cli_usage(CMD, "predict: --knee takes suite or kernel, not '%s'", arg)
                   : GB_EXIT_OK;
    if (camp_cli_parse_double(arg, &o->inflight) != 0 || !(o->inflight > 0) || o->inflight > 65536)
        return gb_cli_usage(CMD, "predict: --in-flight needs the bytes of global loads one thread keeps "
                            "in flight, > 0 and at most 65536, not '%s'", arg);
    return GB_EXIT_OK;
}

/* One option's value into `o`; GB_EXIT_OK or the usage error's code. */
static int predict_option(int c, const char *arg, struct predict_opts *o)
{
    switch (c) {
    case 'm': o->model_path = arg; return GB_EXIT_OK;
    case 'n': o->ncu_path = arg; return GB_EXIT_OK;
    case 'P': o->point = arg; return GB_EXIT_OK;
    case 'C': o->cc = arg; return GB_EXIT_OK;
    case 'c': o->chart = arg; return GB_EXIT_OK;
    case 'H': o->html = arg; return GB_EXIT_OK;
    case 'E': o->ceilings = arg; return GB_EXIT_OK;
    case 'l':
    case 's':
        if (parse_counts(arg, c == 'l' ? o->counts.ld : o->counts.st) != 0)
            return gb_cli_usage(CMD, "predict: %s needs WIDTH:COUNT pairs such as 4:123456 "
                                "(width 1, 2, 4, 8 or 16 bytes per thread, count >= 0), not '%s'",
                                c == 'l' ? "--gld" : "--gst", arg);
        o->have_counts = 1;
        return GB_EXIT_OK;
    case 'i': return (o->ncu_id = opt_range("--ncu-id", arg, GB_RANGE_LAUNCH_ID, 0)) < 0 ? GB_EXIT_USAGE : 0;
    case 't': return (o->threads = opt_range("--threads", arg, GB_RANGE_NCU_BLOCK, 1)) < 0 ? GB_EXIT_USAGE : 0;
    case 'r': return (o->regs = opt_long("--regs", arg, 0, 255)) < 0 ? GB_EXIT_USAGE : 0; /* the ISA's limit, below the table's */
    case 'S': return (o->smem = opt_range("--smem", arg, GB_RANGE_SMEM, 0)) < 0 ? GB_EXIT_USAGE : 0;
    case 'D': return (o->dyn_smem = opt_range("--dyn-smem", arg, GB_RANGE_SMEM, 0)) < 0 ? GB_EXIT_USAGE : 0;
    case 'g': return (o->grid = opt_range("--grid", arg, GB_RANGE_NCU_GRID, 1)) < 0 ? GB_EXIT_USAGE : 0;
    case 'w': return (o->warps_max = opt_long("--warps", arg, 1, 4096)) < 0 ? GB_EXIT_USAGE : 0;
    case 'a': return (o->at = opt_long("--at-warps", arg, 1, 4096)) < 0 ? GB_EXIT_USAGE : 0;
    case 'k':
    case 'B':
        return predict_knee_option(c, arg, o);
    case 'T':
        if (camp_cli_parse_double(arg, &o->time_ns) != 0 || !(o->time_ns > 0) || !gb_range_ok(GB_RANGE_TIME_NS, o->time_ns))
            return gb_cli_usage(CMD, "predict: --time-ns needs a time in ns > 0, not '%s' (at most 8.64e13, a day)", arg);
        return GB_EXIT_OK;
    case 'f':
        if (gb_format_parse(arg, &o->fmt) != GB_OK)
            return gb_cli_usage(CMD, "predict: --format: %s", gb_error_message());
        return GB_EXIT_OK;
    }
    return GB_EXIT_USAGE;
}

/* The options' combinations that make no sense. */
static int predict_check(int argc, char **argv, struct predict_opts *o)
{
    if (optind < argc)
        return gb_cli_usage(CMD, "predict: unexpected argument '%s'", argv[optind]);
    if (!o->model_path)
        return gb_cli_usage(CMD, "predict: --model is required (a model written by 'camp fit')");
    if (o->ncu_path && o->have_counts)
        return gb_cli_usage(CMD, "predict: give the counts either with --gld/--gst or with "
                            "--from-ncu, not both");
    if (o->point && (o->ncu_path || o->have_counts))
        return gb_cli_usage(CMD, "predict: give the counts with one of --gld/--gst, --from-ncu "
                            "and --from-point");
    if (!o->ncu_path && !o->have_counts && !o->point)
        return gb_cli_usage(CMD, "predict: give the kernel's global load and store counts with "
                            "--gld/--gst, --from-ncu or --from-point");
    if (o->ncu_id >= 0 && !o->ncu_path)
        return gb_cli_usage(CMD, "predict: --ncu-id needs --from-ncu");
    if (!isnan(o->inflight) && !o->own_knee)
        return gb_cli_usage(CMD, "predict: --in-flight is the kernel's own knee's input, not used with --knee suite");
    if (o->warps_max > 0 &&
        (o->threads > 0 || o->regs >= 0 || o->smem >= 0 || o->dyn_smem >= 0 || o->grid > 0))
        return gb_cli_usage(CMD, "predict: --warps replaces the launch; give either --warps or "
                            "--threads/--regs/--smem/--dyn-smem/--grid");
    if (o->chart && gb_band_path(o->chart, o->chart_dir, sizeof o->chart_dir, o->chart_stem,
                                 sizeof o->chart_stem) != GB_OK)
        return gb_cli_usage(CMD, "predict: --chart needs a file name ending in .svg, not '%s'",
                            o->chart);
    return GB_EXIT_OK;
}

static int predict_parse(int argc, char **argv, struct predict_opts *o)
{
    static const struct option longopts[] = {
        {"model", required_argument, NULL, 'm'},    {"gld", required_argument, NULL, 'l'},
        {"gst", required_argument, NULL, 's'},      {"from-ncu", required_argument, NULL, 'n'},
        {"ncu-id", required_argument, NULL, 'i'},   {"threads", required_argument, NULL, 't'},
        {"regs", required_argument, NULL, 'r'},     {"smem", required_argument, NULL, 'S'},
        {"dyn-smem", required_argument, NULL, 'D'},
        {"grid", required_argument, NULL, 'g'},     {"warps", required_argument, NULL, 'w'},
        {"time-ns", required_argument, NULL, 'T'},  {"at-warps", required_argument, NULL, 'a'},
        {"cc", required_argument, NULL, 'C'},       {"chart", required_argument, NULL, 'c'},
        {"format", required_argument, NULL, 'f'},   {"html", required_argument, NULL, 'H'},
        {"from-point", required_argument, NULL, 'P'},
        {"ceilings", required_argument, NULL, 'E'}, {"in-flight", required_argument, NULL, 'B'},
        {"knee", required_argument, NULL, 'k'},
        {NULL, 0, NULL, 0}};
    int c, rc;
    memset(o, 0, sizeof *o);
    o->threads = o->regs = o->smem = o->dyn_smem = o->grid = o->warps_max = o->ncu_id = o->at = -1;
    o->time_ns = o->warps_active = o->inflight = NAN;
    o->own_knee = 1;
    for (int k = 0; k < 4; k++)
        o->level_bytes[k] = NAN;
    o->fmt = GB_FORMAT_TABLE;
    if ((c = gb_cli_options_once(CMD, argc, argv, ":", longopts, "--gld... --gst...")) >= 0)
        return c;
    gb_cli_getopt_reset();
    while ((c = getopt_long(argc, argv, ":", longopts, NULL)) != -1) {
        if (c == ':')
            return gb_cli_usage(CMD, "predict: %s needs a value", argv[optind - 1]);
        if (c == '?')
            return gb_cli_usage(CMD, "predict: unknown option '%s'", argv[optind - 1]);
        if ((rc = predict_option(c, optarg, o)) != GB_EXIT_OK)
            return rc;
    }
    return predict_check(argc, argv, o);
}

/* ---- calling ---- */

/* The device whose limits the occupancy calculator uses. */
static int predict_device(const struct gb_camp_model *m, const char *cc, struct gb_device_info *dev)
{
    if (cc) {
        int major, minor;
        if (gb_cli_parse_cc(cc, &major, &minor) != 0)
            return gb_cli_usage(CMD, "predict: --cc needs a compute capability X.Y such as 9.0, "
                                "not '%s'", cc);
        if (gb_device_from_cc(major, minor, dev) != GB_OK)
            return gb_cli_usage(CMD, "predict: --cc %s: %s", cc, gb_error_message());
        return GB_EXIT_OK;
    }
    if (!m->has_device || m->device.max_threads_per_sm <= 0 || m->device.warp_size <= 0)
        return gb_cli_usage(CMD, "predict: the model does not record its device's limits; give "
                            "--cc X.Y");
    *dev = m->device;
    return GB_EXIT_OK;
}

/* The launch of the export to use: --ncu-id's, or its only one. */
static int pick_launch(const struct predict_opts *o, const struct gb_ncu_report *ncu,
                       const struct gb_ncu_launch **l)
{
    if (o->ncu_id >= 0) {
        *l = gb_ncu_launch_by_id(ncu, o->ncu_id);
        return *l ? GB_EXIT_OK
                  : gb_cli_usage(CMD, "predict: %s has no launch with ID %ld", o->ncu_path,
                                 o->ncu_id);
    }
    if ((*l = ncu->n_launches == 1 ? &ncu->launches[0] : NULL))
        return GB_EXIT_OK;
    char ids[256] = "";
    size_t len = 0;
    for (size_t i = 0; i < ncu->n_launches && len < sizeof ids - 8; i++)
        len += (size_t)snprintf(ids + len, sizeof ids - len, "%s%ld", i ? ", " : "",
                                ncu->launches[i].id);
    return gb_cli_usage(CMD, "predict: %s holds %zu launches (IDs %s); pick one with --ncu-id",
                        o->ncu_path, ncu->n_launches, ids);
}

/* The counts, launch and time of an Nsight Compute export; the options
 * given explicitly win over the export's values. */
static int predict_from_ncu(struct predict_opts *o, struct predict_state *ps)
{
    struct gb_camp_ncu_input in;
    const struct gb_ncu_launch *l;
    enum gb_status st;
    int rc;
    if (o->point && (rc = camp_cli_point_report(o->point, &ps->ncu, &o->hot,
                                                o->own_knee && isnan(o->inflight) ? &o->inflight : NULL)) !=
                         GB_EXIT_OK)
        return rc;
    if (!o->point && (st = gb_ncu_load(o->ncu_path, &ps->ncu)) != GB_OK)
        return gb_cli_fail(st, "camp predict --from-ncu",
                           "export it with 'ncu --csv --page raw' (see docs/models.md)");
    if ((rc = pick_launch(o, ps->ncu, &l)) != GB_EXIT_OK)
        return rc;
    if ((st = gb_camp_from_ncu(ps->m, l, &in)) != GB_OK) {
        char msg[1024];
        snprintf(msg, sizeof msg, "%s", gb_error_message());
        gb_error_set(st, "%s: %s", o->point ? o->point : o->ncu_path, msg);
        return gb_cli_fail(st, "camp predict --from-ncu",
                           in.lacks ? "profile with ncu --csv --page raw --metrics " GB_NCU_METRICS_ARG
                           : o->point ? "the run's record is damaged: record the point again"
                                      : "the export is damaged or edited: export it again with "
                                        "'ncu --csv --page raw'");
    }
    o->counts = in.counts;
    snprintf(ps->kernel, sizeof ps->kernel, "%s", l->kernel);
    if (o->warps_max < 0) {
        o->threads = o->threads < 0 && in.threads > 0 ? in.threads : o->threads;
        o->regs = o->regs < 0 && in.regs >= 0 ? in.regs : o->regs;
        o->smem = o->smem < 0 && in.smem >= 0 ? in.smem : o->smem;
        o->grid = o->grid < 0 && in.grid > 0 ? in.grid : o->grid;
    }
    if (isnan(o->time_ns) && in.time_ns > 0)
        o->time_ns = in.time_ns;
    const double level[4] = {in.dram_read_bytes, in.dram_write_bytes, in.l2_read_bytes, in.l2_write_bytes};
    memcpy(o->level_bytes, level, sizeof level);
    o->warps_active = in.warps_active;
    fprintf(stderr, "from %s, launch %ld (%s): loads %.0f requests / %.0f sectors (%s), stores "
                    "%.0f requests / %.0f sectors (%s)\n",
            o->point ? o->point : o->ncu_path, l->id, l->kernel, in.ld_requests, in.ld_sectors, in.ld_requests_metric,
            in.st_requests, in.st_sectors, in.st_requests_metric);
    return GB_EXIT_OK;
}

/* The launch's limits against the device, before the configurations. */
static int launch_check(const struct predict_opts *o, const struct gb_device_info *dev)
{
    if (o->warps_max > 0) {
        if (o->warps_max > gb_camp_max_warps(dev))
            return gb_cli_usage(CMD, "predict: --warps %ld is more than the %d warps an SM of "
                                "compute capability %d.%d holds", o->warps_max,
                                gb_camp_max_warps(dev), dev->cc_major, dev->cc_minor);
        return GB_EXIT_OK;
    }
    if (o->threads < 0 || o->regs < 0)
        return gb_cli_usage(CMD, "predict: give the launch (--threads and --regs, with --smem "
                            "and --grid when they apply) or --warps W");
    if (o->threads > dev->max_threads_per_block)
        return gb_cli_usage(CMD, "predict: --threads %ld is more than the %d threads a block "
                            "can have", o->threads, dev->max_threads_per_block);
    if (o->smem < 0)   /* required, as in 'gpubound occupancy' */
        return gb_cli_usage(CMD, "predict: give --smem BYTES, the kernel's static shared memory "
                            "per block (0 when it has none), as in 'gpubound occupancy'");
    return GB_EXIT_OK;
}

/* The line saying what the configurations are. */
static void predict_launch_text(const struct predict_opts *o, struct predict_state *ps)
{
    const struct gb_device_info *dev = &ps->dev;
    const long smem = (o->smem < 0 ? 0 : o->smem) + (o->dyn_smem < 0 ? 0 : o->dyn_smem);
    if (o->warps_max > 0) {
        snprintf(ps->launch_text, sizeof ps->launch_text, "up to %ld active warps per SM (given)",
                 o->warps_max);
        return;
    }
    char grid_text[64] = "";
    if (o->grid > 0)
        snprintf(grid_text, sizeof grid_text, ", %ld blocks", o->grid);
    snprintf(ps->launch_text, sizeof ps->launch_text,
             "%ld threads per block, %ld registers per thread, %ld bytes of shared memory per "
             "block%s: %d active warps per SM",
             o->threads, o->regs, smem, grid_text, ps->r.config_warps);
    if (o->grid > 0 && dev->sm_count <= 0)
        fprintf(stderr, "note: the device's SM count is unknown (--cc); the grid does not "
                        "limit the configurations\n");
}

/* ---- printing ---- */

/* Why row `r` has no time where one is asked for: outside the model's
 * range (its bounds are NaN), or its application line fell to <= 0; NULL
 * when it has every time. */
static const char *row_no_time(const struct predict_state *ps, const struct gb_camp_row *r)
{
    if (isnan(r->best_ns))
        return "outside the model's range: bounds <= 0";
    if (isfinite(ps->r.degree) && isnan(r->app_ns))
        return "application line <= 0";
    return NULL;
}

/* The configurations' warps split into those the model times (bounds > 0)
 * and those it does not, as "1-14" lists; how many it does not. */
static size_t timed_lists(const struct predict_state *ps, char *timed, char *untimed, size_t size)
{
    int *yes = calloc(ps->r.n + 1, sizeof *yes), *no = calloc(ps->r.n + 1, sizeof *no);
    size_t n_yes = 0, n_no = 0;
    timed[0] = untimed[0] = '\0';
    if (!yes || !no) {
        free(yes);
        free(no);
        return 0;
    }
    for (size_t i = 0; i < ps->r.n; i++) {
        if (isnan(ps->r.rows[i].best_ns))
            no[n_no++] = ps->r.rows[i].warps;
        else
            yes[n_yes++] = ps->r.rows[i].warps;
    }
    warps_text(yes, n_yes, timed, size);
    warps_text(no, n_no, untimed, size);
    free(yes);
    free(no);
    return n_no;
}

/* The sentence saying where the form's bounds are > 0 and which
 * configurations lie outside its range, into buf; how many do (0: "").
 * `sep` goes between its two halves (a line break in the header). */
static size_t range_text(const struct predict_state *ps, const char *sep, char *buf, size_t size)
{
    char timed[512], untimed[512];
    size_t n = timed_lists(ps, timed, untimed, sizeof timed);
    const char *form = gb_camp_form_name(ps->m->form);
    buf[0] = '\0';
    if (n == ps->r.n)
        snprintf(buf, size, "the %s form's bounds are <= 0 at every configuration (%s active warps "
                 "per SM):%soutside its range, no time", form, untimed, sep);
    else if (n)
        snprintf(buf, size, "the %s form's bounds are > 0 at %s active warps per SM only;%sthe %zu "
                 "configurations at %s lie outside its range and get no time", form, timed, sep, n, untimed);
    return n;
}

static enum gb_status band_table(const struct predict_opts *o, const struct predict_state *ps,
                                 struct gb_table *t)
{
    enum gb_status st;
    int any_why = 0;
    for (size_t i = 0; i < ps->r.n && !any_why; i++)
        any_why = row_no_time(ps, &ps->r.rows[i]) != NULL;
    if ((st = gb_table_column(t, "active warps", NULL)) ||
        (st = gb_table_column(t, "best", "µs")) || (st = gb_table_column(t, "worst", "µs")) ||
        (st = gb_table_column(t, "application", "µs")) ||
        (st = gb_table_column(t, "degree", NULL)) || (st = gb_table_column(t, "measured", NULL)) ||
        (st = gb_table_column(t, "achieved warps", NULL)) ||
        (any_why && (st = gb_table_column(t, "no time", NULL))))
        return st;
    for (size_t i = 0; i < ps->r.n; i++) {
        const struct gb_camp_row *r = &ps->r.rows[i];
        const char *why = row_no_time(ps, r);
        int here = isfinite(o->time_ns) && r->warps == (int)ps->r.at_warps;
        double degree = isnan(r->best_ns) ? NAN : ps->r.degree;
        if ((st = gb_table_row(t)) || (st = gb_table_cell_int(t, r->warps)) ||
            (st = gb_table_cell_num(t, r->best_ns / 1e3, 5)) ||
            (st = gb_table_cell_num(t, r->worst_ns / 1e3, 5)) ||
            (st = gb_table_cell_num(t, r->app_ns / 1e3, 5)) ||
            (st = gb_table_cell_num(t, degree, 3)) ||
            (st = gb_table_cell_text(t, here ? "*" : NULL)) ||
            (st = gb_table_cell_num(t, ps->r.achieved[i], 4)) ||
            (any_why && (st = gb_table_cell_text(t, why))))
            return st;
    }
    return GB_OK;
}

/* Which latency shape the application line takes across warps. */
static void line_shape_text(const struct predict_opts *o, const struct predict_state *ps)
{
    if (!(ps->r.roof.best_ns > 0) || !o->own_knee)
        return;
    if (o->inflight > 0 && ps->m->inflight_product > 0)
        printf("  line: the kernel's own knee at %.3g warps per SM (%.3g bytes in flight a thread, against "
               "the camping suite's %.4g warps x bytes)\n", ps->m->inflight_product / o->inflight, o->inflight,
               ps->m->inflight_product);
    else
        printf("  line: the camping suite's latency shape across warps (%s)\n",
               o->inflight > 0 ? "the suite's loads in flight could not be read"
                               : "the kernel's loads in flight are not known: give --in-flight");
}

/* Where the measured start lies against the band at its configuration:
 * a line saying how far outside it is, when it is. */
static void band_outside(const struct predict_opts *o, const struct predict_state *ps)
{
    for (size_t i = 0; i < ps->r.n; i++) {
        const struct gb_camp_row *r = &ps->r.rows[i];
        if (r->warps != (int)ps->r.at_warps)
            continue;
        if (o->time_ns < r->best_ns)
            printf("  OUTSIDE THE BAND: %.5g µs below the best bound (%.5g µs), %.3g%% faster "
                   "than the model allows\n", (r->best_ns - o->time_ns) / 1e3, r->best_ns / 1e3,
                   100 * (r->best_ns - o->time_ns) / r->best_ns);
        else if (o->time_ns > r->worst_ns)
            printf("  OUTSIDE THE BAND: %.5g µs above the worst bound (%.5g µs), %.3g%% slower "
                   "than the model allows\n", (o->time_ns - r->worst_ns) / 1e3, r->worst_ns / 1e3,
                   100 * (o->time_ns - r->worst_ns) / r->worst_ns);
        else
            printf("  inside the band (best %.5g µs, worst %.5g µs)\n", r->best_ns / 1e3,
                   r->worst_ns / 1e3);
        return;
    }
}

static void band_header(const struct predict_opts *o, const struct predict_state *ps)
{
    char ld[256], stt[256], list[512];
    counts_text(o->counts.ld, ld, sizeof ld);
    counts_text(o->counts.st, stt, sizeof stt);
    warps_text(ps->r.warps, ps->r.n, list, sizeof list);
    printf("CampProf band on %s (model %s)\n", camp_cli_device_name(ps->m), o->model_path);
    if (ps->kernel[0])
        printf("  kernel: %s\n", ps->kernel);
    printf("  global loads: %s\n  global stores: %s\n", ld, stt);
    printf("  launch: %s\n  configurations: %s active warps per SM\n", ps->launch_text, list);
    size_t n_differ = 0;
    for (size_t i = 0; i < ps->r.n; i++)
        n_differ += fabs(ps->r.achieved[i] - ps->r.warps[i]) > 0.005 * ps->r.warps[i];
    if (n_differ)
        printf("  achieved warps: the grid leaves %zu of %zu configurations below their occupancy\n"
               "  limit (active warps, the first column); the band is evaluated at each one's\n"
               "  achieved warps per SM (the last column)\n", n_differ, ps->r.n);
    char range[1200];
    size_t n_untimed = range_text(ps, "\n  ", range, sizeof range);
    if (n_untimed)
        printf("  range: %s (\"no time\" below)\n", range);
    if (ps->r.roof.best_ns > 0)
        printf("  form: %s; best: the measured roofs (the launch's %s bytes over the %s roof, %.5g µs\n"
               "  at every configuration%s); worst: every access camped on one %s\n",
               gb_camp_form_name(ps->m->form), ps->r.roof.level, ps->r.roof.level,
               ps->r.roof.best_ns / 1e3, n_untimed ? " in its range" : "", gb_camp_level_name(ps->m->level));
    else
        printf("  form: %s; best: no camping; worst: every access camped on one %s\n",
               gb_camp_form_name(ps->m->form), gb_camp_level_name(ps->m->level));
    if (isfinite(o->time_ns) && !gb_camp_domain_applies(ps->r.domain.why)) {
        char tv[32];
        gb_format_num(tv, sizeof tv, o->time_ns / 1e3, 5);
        printf("  measured: %s µs at %g active warps per SM, %.3g achieved: THE BAND DOES NOT APPLY: %s\n"
               "  (no camping degree or application line; the bounds below are those of a\n"
               "  memory-bound kernel with these counts)\n\n", tv, ps->r.at_warps, ps->r.achieved_warps,
               ps->r.domain.reason);
    } else if (isfinite(o->time_ns)) {
        char tv[32], dv[32];
        gb_format_num(tv, sizeof tv, o->time_ns / 1e3, 5);
        gb_format_num(dv, sizeof dv, ps->r.degree, 3);
        char ach[48] = "";
        if (fabs(ps->r.achieved_warps - ps->r.at_warps) > 0.005 * ps->r.at_warps)
            snprintf(ach, sizeof ach, " (%.3g achieved)", ps->r.achieved_warps);
        printf("  measured: %s µs at %g active warps per SM%s: camping degree %s (0 = best, "
               "1 = worst)\n", tv, ps->r.at_warps, ach, dv);
        line_shape_text(o, ps);
        band_outside(o, ps);
        printf("\n");
    } else {
        printf("  no measured time: give --time-ns for the application line\n\n");
    }
}

/* The configurations whose application line fell to <= 0 (a degree
 * below 0 extrapolated), as a "1-4, 9" list; how many. */
static size_t line_below_zero(const struct predict_state *ps, char *buf, size_t size)
{
    int *w = calloc(ps->r.n + 1, sizeof *w);
    size_t n = 0;
    buf[0] = '\0';
    for (size_t i = 0; w && i < ps->r.n; i++)
        if (!isnan(ps->r.rows[i].best_ns) && isfinite(ps->r.degree) && isnan(ps->r.rows[i].app_ns))
            w[n++] = ps->r.rows[i].warps;
    warps_text(w, n, buf, size);
    free(w);
    return n;
}

/* The launch's own configuration's warps, as the band uses them. */
static double launch_row_warps(const struct predict_state *ps)
{
    for (size_t i = 0; i < ps->r.n; i++)
        if (ps->r.warps[i] == ps->r.config_warps)
            return ps->r.achieved[i];
    return NAN;
}

static void band_notes(const struct predict_state *ps)
{
    struct gb_camp_band_check chk;
    char range[1200], untimed[512];
    gb_camp_band_check(ps->r.rows, ps->r.n, &chk);
    size_t n_bad = range_text(ps, " ", range, sizeof range);
    if (n_bad)
        fprintf(stderr, "note: %s\n", range);
    if ((n_bad = line_below_zero(ps, untimed, sizeof untimed)))
        fprintf(stderr, "note: the application line falls to <= 0 at %zu configurations (%s active "
                        "warps per SM): no time there\n", n_bad, untimed);
    if (chk.n_inverted)
        fprintf(stderr, "note: at %zu of %zu configurations the camped equations predict a "
                        "shorter time than the spread ones: the band is inverted there (the "
                        "camped pattern did not slow the benchmarks down)\n", chk.n_inverted, ps->r.n);
    if (ps->r.grid_warps > 0 && fabs(ps->r.grid_warps - launch_row_warps(ps)) > 0.05 * ps->r.grid_warps)
        fprintf(stderr, "note: the launch's measured achieved warps per SM (%s) are %.3g, its grid "
                        "gives %.3g (occupancy limit %d); the band uses the measured\n",
                GB_CAMP_WARPS_ACTIVE, launch_row_warps(ps), ps->r.grid_warps, ps->r.config_warps);
    if (isfinite(ps->r.degree) && (ps->r.degree < 0 || ps->r.degree > 1))
        fprintf(stderr, "note: the measured time lies outside the predicted band (degree %.3g, not "
                        "clamped to [0, 1]): the application line is extrapolated outside it\n",
                ps->r.degree);
}

static int band_print(const struct predict_opts *o, const struct predict_state *ps)
{
    enum gb_status st = GB_OK;
    struct gb_table *t = gb_table_new();
    if (!t)
        return gb_cli_fail(gb_error_set(GB_ERR_NOMEM, "out of memory"), "camp predict", NULL);
    if ((st = band_table(o, ps, t)) == GB_OK) {
        if (o->fmt == GB_FORMAT_TABLE)
            band_header(o, ps);
        st = gb_table_print(t, stdout, o->fmt, o->fmt == GB_FORMAT_TABLE ? gb_term_width(stdout) : 0);
    }
    gb_table_free(t);
    if (st != GB_OK)
        return gb_cli_fail(st, "camp predict", NULL);
    band_notes(ps);
    return GB_EXIT_OK;
}

/* The band chart, drawn into `dir` (the chart's stage). */
static enum gb_status band_chart(const struct predict_opts *o, const struct predict_state *ps,
                                 const char *dir, struct gb_report_result *res)
{
    char title[256], star[128];
    snprintf(title, sizeof title, "CampProf: %s", ps->kernel[0] ? ps->kernel : "kernel");
    snprintf(star, sizeof star, "measured (%g warps)", ps->r.at_warps);
    const struct gb_band_chart c = {
        .dir = dir, .stem = o->chart_stem, .title = title,
        .subtitle = camp_cli_device_name(ps->m),
        .rows = ps->r.rows, .n = ps->r.n, .at_warps = ps->r.at_warps, .time_ns = o->time_ns,
        .star_label = star, .level = gb_camp_level_name(ps->m->level),
    };
    return gb_band_draw(&c, res);
}

/* The calculator page of --html, filled with this prediction's inputs,
 * written at `path` (in its stage); *written is 0 when the page could not
 * be made (`note` says why). */
static enum gb_status band_html(const struct predict_opts *o, const struct predict_state *ps,
                                const char *path, int *written, char *note, size_t n)
{
    struct gb_html_camp_inputs in;
    char title[256];
    memcpy(in.ld, o->counts.ld, sizeof in.ld);
    memcpy(in.st, o->counts.st, sizeof in.st);
    in.threads = o->threads;
    in.regs = o->regs;
    in.smem = o->smem;
    in.grid = o->grid;
    in.warps_max = o->warps_max;
    in.at_warps = o->at;
    in.time_ns = o->time_ns;
    snprintf(title, sizeof title, "CampProf calculator: %s", ps->kernel[0] ? ps->kernel : "kernel");
    in.title = title;
    return gb_html_camp_page(o->model_path, &in, path, written, note, n);
}

/* --chart and --html: each made in its stage, and moved into place only
 * when both are made. */
static int band_outputs(const struct predict_opts *o, const struct predict_state *ps)
{
    struct gb_stage cs = {.open = 0}, hs = {.open = 0}, *at = &cs;
    struct gb_report_result res;
    char html[GB_PATH_MAX + 64], note[512] = "";
    int written = 0;
    enum gb_status st = GB_OK;
    gb_report_result_init(&res);
    if (o->chart && ((st = gb_stage_open(&cs, o->chart_dir)) != GB_OK ||
                     (st = band_chart(o, ps, cs.tmp, &res)) != GB_OK))
        goto out;
    at = &hs;
    if (o->html && ((st = gb_stage_open_file(&hs, o->html, html, sizeof html)) != GB_OK ||
                    (st = band_html(o, ps, html, &written, note, sizeof note)) != GB_OK))
        goto out;
    at = &cs;
    if (o->chart && (st = gb_stage_commit(&cs)) != GB_OK)
        goto out;
    if (o->chart) {
        gb_cli_print_written(&cs, &res);
        camp_cli_report_files(&res);
    }
    at = &hs;
    if (o->html && written && (st = gb_stage_commit(&hs)) != GB_OK)
        goto out;
    if (o->html && written)
        fprintf(stderr, "wrote %s\n", o->html);
    else if (o->html)
        fprintf(stderr, "not written: %s (%s)\n", o->html, note);
out:
    if (st != GB_OK && (gb_stage_fail(at, st), at == &hs && cs.open))
        gb_error_set(st, "%s; nor the chart %s", gb_error_message(), o->chart);
    gb_stage_abort(&cs);
    gb_stage_abort(&hs);
    gb_report_result_release(&res);
    return st == GB_OK ? GB_EXIT_OK
                       : gb_cli_fail(st, at == &cs ? "camp predict --chart" : "camp predict --html", NULL);
}

/* The roofs the measured configuration is judged under: --ceilings RUN
 * (of the model's GPU), else the guide figures of the device (no launch
 * line). */
static int predict_ceilings(const struct predict_opts *o, const struct predict_state *ps,
                            struct gb_ceilings *c)
{
    if (o->ceilings)
        return camp_cli_ceilings("camp predict: --ceilings", o->ceilings, o->model_path, ps->m, c);
    gb_ceilings_guide(&ps->dev, c);
    c->launch_a_ns = NAN;
    return GB_EXIT_OK;
}

/* Loads the model, reads the counts and launch, and predicts the band
 * (gb_camp_predict_run), judged under the ceilings when a time is given. */
static int predict_band(struct predict_opts *o, struct predict_state *ps)
{
    struct gb_ceilings *c = NULL;
    enum gb_status st;
    int rc;
    if (!(ps->m = calloc(1, sizeof *ps->m)))
        return gb_cli_fail(gb_error_set(GB_ERR_NOMEM, "out of host memory"), "camp predict", NULL);
    if ((st = gb_camp_model_load(o->model_path, ps->m)) != GB_OK)
        return gb_cli_fail(st, "camp predict", "give a model written by 'gpubound camp fit'");
    if ((rc = predict_device(ps->m, o->cc, &ps->dev)) != GB_EXIT_OK)
        return rc;
    if (!(c = calloc(1, sizeof *c)))
        return gb_cli_fail(gb_error_set(GB_ERR_NOMEM, "out of host memory"), "camp predict", NULL);
    if ((rc = predict_ceilings(o, ps, c)) != GB_EXIT_OK ||
        ((o->ncu_path || o->point) && (rc = predict_from_ncu(o, ps)) != GB_EXIT_OK))
        goto out;
    camp_cli_model_inflight(ps->m, o->own_knee && o->inflight > 0);   /* only where the kernel's are known */
    if (o->at > 0 && isnan(o->time_ns)) {
        rc = gb_cli_usage(CMD, "predict: --at-warps needs --time-ns (the time measured there)");
        goto out;
    }
    if ((rc = launch_check(o, &ps->dev)) != GB_EXIT_OK)
        goto out;
    const struct gb_camp_predict_in in = {
        .counts = o->counts, .threads = o->threads, .regs = o->regs, .smem = o->smem,
        .dyn_smem = o->dyn_smem, .grid = o->grid, .warps_max = o->warps_max, .at = o->at,
        .time_ns = o->time_ns, .dram_read_bytes = o->level_bytes[0], .dram_write_bytes = o->level_bytes[1],
        .l2_read_bytes = o->level_bytes[2], .l2_write_bytes = o->level_bytes[3], .hot = o->hot,
        .measured_warps = o->warps_active, .inflight_bytes = o->inflight,
    };
    if ((st = gb_camp_predict_run(ps->m, &ps->dev, &in, c, &ps->r)) != GB_OK) {
        rc = st == GB_ERR_USAGE ? gb_cli_usage(CMD, "predict: %s", gb_error_message())
                                : gb_cli_fail(st, "camp predict", NULL);
        goto out;
    }
    predict_launch_text(o, ps);
    if (isfinite(o->time_ns) && !gb_camp_domain_applies(ps->r.domain.why))
        fprintf(stderr, "note: the band does not apply to the measured time: %s\n", ps->r.domain.reason);
out:
    free(c);
    return rc;
}

int camp_cli_predict(int argc, char **argv)
{
    struct predict_opts o;
    struct predict_state ps;
    int rc = predict_parse(argc, argv, &o);
    if (rc != GB_EXIT_OK)
        return rc;
    memset(&ps, 0, sizeof ps);
    if ((rc = predict_band(&o, &ps)) == GB_EXIT_OK && (rc = band_print(&o, &ps)) == GB_EXIT_OK &&
        (o.chart || o.html))
        rc = band_outputs(&o, &ps);
    gb_camp_predict_result_release(&ps.r);
    gb_ncu_free(ps.ncu);
    free(ps.m);
    return rc;
}
