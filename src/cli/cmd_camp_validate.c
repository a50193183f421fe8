/* cmd_camp_validate.c - `gpubound camp validate`: reads the validation
 * applications of a run (src/models/campprof/campprof_records.c), validates the
 * model on each (src/models/campprof/campprof_validate.c), and prints the table,
 * writes it as validation.csv and draws each application's band. */
#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/cmd_camp.h"
#include "gpubound/band.h"
#include "gpubound/camp_inflight.h"
#include "gpubound/camp_run.h"
#include "gpubound/campprof.h"
#include "util/fs.h"
#include "util/open_regular.h"
#include "util/replace.h"
#include "util/stage.h"

#define CMD "camp"

/* The most charts one validation draws: a run with hundreds of
 * applications gets the first GB_CAMP_MAX_CHARTS and a line saying how
 * many were left out (validation.csv keeps every row). */
#define GB_CAMP_MAX_CHARTS 32

struct validate_opts {
    const char *model_path, *out, *dir, *ceilings;
    char **dirs;                  /* every RUN_DIR, dirs[0] == dir */
    int n_dirs;
    char default_out[4300];
    enum gb_format fmt;
    int force;
    int own_knee;                 /* --knee kernel (the default) */
};

static int validate_parse(int argc, char **argv, struct validate_opts *o)
{
    static const struct option longopts[] = {
        {"model", required_argument, NULL, 'm'},
        {"out", required_argument, NULL, 'o'},
        {"format", required_argument, NULL, 'f'},
        {"ceilings", required_argument, NULL, 'c'},
        {"force", no_argument, NULL, 'X'},
        {"knee", required_argument, NULL, 'k'},
        {NULL, 0, NULL, 0}};
    int c;
    memset(o, 0, sizeof *o);
    o->fmt = GB_FORMAT_TABLE;
    o->own_knee = 1;
    if ((c = gb_cli_options_once(CMD, argc, argv, ":", longopts, NULL)) >= 0)
        return c;
    gb_cli_getopt_reset();
    while ((c = getopt_long(argc, argv, ":", longopts, NULL)) != -1) {
        switch (c) {
        case 'm': o->model_path = optarg; break;
        case 'o': o->out = optarg; break;
        case 'c': o->ceilings = optarg; break;
        case 'X': o->force = 1; break;
        case 'k':
            if ((o->own_knee = camp_cli_parse_knee(optarg)) < 0)
                return gb_cli_usage(CMD, "validate: --knee takes suite or kernel, not '%s'", optarg);
            break;
        case 'f':
            if (gb_format_parse(optarg, &o->fmt) != GB_OK)
                return gb_cli_usage(CMD, "validate: --format: %s", gb_error_message());
            break;
        case ':': return gb_cli_usage(CMD, "validate: %s needs a value", argv[optind - 1]);
        default: return gb_cli_usage(CMD, "validate: unknown option '%s'", argv[optind - 1]);
        }
    }
    if (!o->model_path)
        return gb_cli_usage(CMD, "validate: --model is required (a model written by 'camp fit')");
    if (argc == optind)
        return gb_cli_usage(CMD, "validate: expected a RUN_DIR");
    o->dir = argv[optind];
    o->dirs = argv + optind;
    o->n_dirs = argc - optind;
    for (int i = 0; i < o->n_dirs; i++)
        if (!o->dirs[i][0])
            return gb_cli_usage(CMD, "validate: an empty directory name");
    if ((o->out && !o->out[0]) || (o->ceilings && !o->ceilings[0]))
        return gb_cli_usage(CMD, "validate: an empty directory name");
    for (int i = 0; o->out && i < o->n_dirs; i++)
        if (gb_cli_path_within(o->out, o->dirs[i]))
            return gb_cli_usage(CMD, "validate: --out %s lies inside the run %s, which camp validate "
                                "only reads; give a directory outside it", o->out, o->dirs[i]);
    int rc = gb_cli_out_outside(CMD, "validate: --out", o->out, o->ceilings);
    if (rc >= 0)
        return rc;
    if (!o->out) {
        gb_cli_default_out(o->default_out, sizeof o->default_out, "campprof-validate");
        o->out = o->default_out;
    }
    return GB_EXIT_OK;
}

static enum gb_status table_columns(struct gb_table *t)
{
    static const char *const cols[][2] = {
        {"application", NULL},         {"configurations", NULL},
        {"best bound error", "%"},     {"worst bound error", "%"},
        {"application line error", "%"}, {"line error, starts inside", "%"},
        {"inside band", "%"}, {"degree (median)", NULL},
        {"degree min", NULL},          {"degree max", NULL},
        {"warps min", NULL},           {"warps max", NULL},
        {"time min", "us"},            {"time max", "us"},
        {"kernel knee min", NULL},     {"kernel knee max", NULL},
        {"in flight min", "bytes"},    {"in flight max", "bytes"},
        {"outside domain", NULL},      {"why outside", NULL},
    };
    enum gb_status st = GB_OK;
    for (size_t c = 0; c < sizeof cols / sizeof cols[0] && st == GB_OK; c++)
        st = gb_table_column(t, cols[c][0], cols[c][1]);
    return st;
}

static enum gb_status table_row(struct gb_table *t, const struct gb_camp_app *g,
                                const struct gb_camp_validation *v)
{
    enum gb_status st;
    if ((st = gb_table_row(t)) || (st = gb_table_cell_text(t, g->label)) ||
        (st = gb_table_cell_int(t, (long long)g->n)) ||
        (st = gb_table_cell_num(t, 100 * v->gm_best, 3)) ||
        (st = gb_table_cell_num(t, 100 * v->gm_worst, 3)) ||
        (st = gb_table_cell_num(t, 100 * v->gm_app, 3)) ||
        (st = gb_table_cell_num(t, 100 * v->gm_app_inside, 3)) ||
        (st = gb_table_cell_num(t, v->n_points ? 100.0 * (double)v->n_inside / (double)v->n_points
                                               : NAN, 3)) ||
        (st = gb_table_cell_num(t, v->degree_median, 3)) ||
        (st = gb_table_cell_num(t, v->degree_min, 3)) ||
        (st = gb_table_cell_num(t, v->degree_max, 3)) ||
        (st = gb_table_cell_num(t, v->warps_min, 3)) ||
        (st = gb_table_cell_num(t, v->warps_max, 3)) ||
        (st = gb_table_cell_num(t, v->time_min_ns / 1e3, 4)) ||
        (st = gb_table_cell_num(t, v->time_max_ns / 1e3, 4)) ||
        (st = gb_table_cell_num(t, v->knee_min, 3)) || (st = gb_table_cell_num(t, v->knee_max, 3)) ||
        (st = gb_table_cell_num(t, v->inflight_min, 3)) || (st = gb_table_cell_num(t, v->inflight_max, 3)) ||
        (st = gb_table_cell_int(t, (long long)v->n_out_domain)) ||
        (st = gb_table_cell_text(t, v->domain_reason)))
        return st;
    return GB_OK;
}

/* The chart of one application: the band with the counts of each
 * configuration, the application line from the middle one inside the
 * domain, and every measurement with its CI, those outside the domain
 * apart. */
static enum gb_status app_chart(const struct gb_camp_model *m, const struct gb_camp_app *g,
                                const struct gb_camp_validation *v, const struct gb_camp_domain *d,
                                const char *out, struct gb_report_result *res)
{
    struct gb_camp_row *rows = malloc(g->n * sizeof *rows);
    double *meas = malloc(g->n * sizeof *meas), degree;
    unsigned char *outside = calloc(g->n, 1);
    size_t s, n_out = 0;
    enum gb_status st;
    if (!rows || !meas || !outside) {
        st = gb_error_set(GB_ERR_NOMEM, "out of memory");
        goto out;
    }
    for (size_t i = 0; i < g->n; i++)
        n_out += outside[i] = !gb_camp_domain_applies(d[i].why);
    if ((st = gb_camp_app_band(m, g->obs, g->n, d, rows, meas, &s, &degree)) != GB_OK)
        goto out;
    char name[176], title[256], sub[256], star[96];
    snprintf(name, sizeof name, "campprof-%s", g->label);
    for (char *p = name; *p; p++)
        if (!strchr("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._-", *p))
            *p = '_';
    /* A camping application's label is its bench and axes; a spec's starts
     * with its suite, so it follows the title whole. */
    size_t nb = strlen(g->bench);
    int own = strncmp(g->label, g->bench, nb) == 0;
    snprintf(title, sizeof title, "CampProf validation: %s%s%s", g->title ? g->title : g->bench,
             own ? "" : ": ", own ? g->label + nb : g->label);
    snprintf(sub, sizeof sub, "line from %.3g warps, degree %.3g; error %.3g%% over all starts%s",
             g->obs[s].warps, degree, 100 * v->gm_app, n_out ? " inside the domain" : "");
    snprintf(star, sizeof star, "start (%.3g warps)", g->obs[s].warps);
    const struct gb_band_chart c = {
        .dir = out, .stem = name, .title = title, .subtitle = sub, .rows = rows, .n = g->n,
        .at_warps = g->obs[s].warps, .time_ns = g->obs[s].time_ns, .star_label = star,
        .measured_ns = meas, .measured_lo_ns = g->ci_lo_ns, .measured_hi_ns = g->ci_hi_ns,
        .level = gb_camp_level_name(m->level), .outside = n_out ? outside : NULL,
    };
    st = gb_band_draw(&c, res);
out:
    free(rows);
    free(meas);
    free(outside);
    return st;
}

/* Validates and tabulates every application, before anything is drawn or
 * written; `v` receives one validation per application. Values in the run
 * that the model cannot use are bad data (exit 1), not usage. */
/* One line on stderr per configuration outside the domain of validity
 * (those outside the model's range in one line for the application), and
 * where the achieved warps differ from the occupancy limit, both. */
static void domain_notes(const struct gb_camp_app *g, const struct gb_camp_domain *d)
{
    size_t n_range = 0;
    double lo = INFINITY, hi = 0;
    for (size_t i = 0; i < g->n; i++) {
        const struct gb_camp_obs *o = &g->obs[i];
        if (d[i].why == GB_CAMP_DOMAIN_RANGE) {
            n_range++;
            lo = fmin(lo, o->warps);
            hi = fmax(hi, o->warps);
        } else if (!gb_camp_domain_applies(d[i].why))
            fprintf(stderr, "note: %s at %.3g warps per SM: the band does not apply: %s\n",
                    g->label, o->warps, d[i].reason);
        if (o->limit_warps > 0 && o->measured_warps > 0 &&
            fabs(o->measured_warps - o->achieved_warps) > 0.05 * o->achieved_warps)
            fprintf(stderr, "note: %s: measured %.3g achieved warps per SM, %.3g from the grid "
                            "(occupancy limit %.3g); the band uses the measured\n",
                    g->label, o->measured_warps, o->achieved_warps, o->limit_warps);
    }
    if (n_range)
        fprintf(stderr, "note: %s: %zu of %zu configurations (%.3g to %.3g achieved warps per SM) lie "
                        "outside the model's range, its bounds <= 0 there: the band does not apply, "
                        "they are left out\n", g->label, n_range, g->n, lo, hi);
}

/* The notes and the table row of every validated application. */
static int validate_rows(const struct gb_camp_validate_result *r, struct gb_table *t)
{
    enum gb_status st;
    for (size_t a = 0; a < r->n_apps; a++) {
        const struct gb_camp_app *g = &r->apps[a];
        domain_notes(g, r->domain[a]);
        double vary = gb_camp_counts_vary(g->obs, g->n);
        if (vary > 0.01)
            fprintf(stderr, "note: %s: the instruction counts differ by up to %.1f%% between "
                            "configurations; each configuration's band uses its own counts\n",
                    g->label, 100 * vary);
        if (gb_camp_same_warps(&r->v[a]))
            fprintf(stderr, "note: %s: every configuration runs at %.3g to %.3g achieved warps per SM, "
                            "where the band is one band, but the times span %.4g to %.4g us: the "
                            "application line cannot follow what separates them (not occupancy; "
                            "camping only where camp detect finds it)\n",
                    g->label, r->v[a].warps_min, r->v[a].warps_max, r->v[a].time_min_ns / 1e3,
                    r->v[a].time_max_ns / 1e3);
        if ((st = table_row(t, g, &r->v[a])) != GB_OK)
            return gb_cli_fail(st, "camp validate", NULL);
    }
    return GB_EXIT_OK;
}

/* The charts of every application, into the staging directory. */
static enum gb_status validate_charts(const struct gb_camp_model *m,
                                      const struct gb_camp_validate_result *r, const char *dir,
                                      struct gb_report_result *res)
{
    enum gb_status st = GB_OK;
    size_t drawn = 0, left = 0;
    for (size_t a = 0; a < r->n_apps && st == GB_OK; a++) {
        if (r->v[a].n_points == 0)
            continue; /* no configuration inside the domain: no band to draw */
        if (drawn == GB_CAMP_MAX_CHARTS) {
            left++;
            continue;
        }
        st = app_chart(m, &r->apps[a], &r->v[a], r->domain[a], dir, res);
        drawn++;
    }
    if (left)
        fprintf(stderr, "note: drew the charts of the first %d applications; %zu more are in "
                        "validation.csv without a chart\n", GB_CAMP_MAX_CHARTS, left);
    if (st == GB_ERR_USAGE)
        st = GB_ERR_FORMAT;
    return st;
}

/* The table beside the charts, so that a recorded validation keeps its
 * figures: written aside and renamed, never half-written. */
static enum gb_status write_csv(const char *dir, struct gb_table *t)
{
    char csv[4400];
    struct gb_atomic_file a;
    camp_cli_path_in(csv, sizeof csv, dir, "validation.csv");
    enum gb_status st = gb_atomic_open(&a, csv, "w");
    if (st != GB_OK)
        return st;
    if (gb_table_print(t, a.f, GB_FORMAT_CSV, 0) != GB_OK) {
        gb_atomic_abort(&a);
        return gb_error_set(GB_ERR_IO, "cannot write %s: %s", csv, strerror(errno ? errno : EIO));
    }
    return gb_atomic_commit(&a);
}

/* The configurations a recorded validation.csv was made from (the sum of
 * its second column), or 0 when there is none. */
static size_t recorded_configurations(const char *out)
{
    char csv[4400], line[1024];
    size_t total = 0;
    camp_cli_path_in(csv, sizeof csv, out, "validation.csv");
    FILE *f = gb_fopen_regular(csv);
    if (!f)
        return 0;
    for (int row = 0; fgets(line, sizeof line, f); row++) {
        const char *c = strchr(line, ',');
        if (row > 0 && c)
            total += strtoul(c + 1, NULL, 10);
    }
    fclose(f);
    return total;
}

/* Charts and validation.csv, staged and moved into o->out together. */
static int validate_write(const struct validate_opts *o, const struct gb_camp_model *m,
                          const struct gb_camp_validate_result *r, struct gb_table *t,
                          struct gb_report_result *res)
{
    struct gb_stage stage;
    size_t configs = 0, before = recorded_configurations(o->out);
    for (size_t a = 0; a < r->n_apps; a++)
        configs += r->apps[a].n;
    static const struct gb_replace_words words = {"was made from", "configurations", "this run holds",
                                                  GB_REPLACE_OUT_ELSEWHERE};
    char file[GB_PATH_MAX + 32];
    snprintf(file, sizeof file, "%s/validation.csv", o->out);
    enum gb_status st = gb_replace_check(file, before, configs, o->force, &words);
    if (st != GB_OK)
        return gb_cli_fail(st, "camp validate", NULL);
    st = gb_stage_open(&stage, o->out);
    if (st == GB_OK && (st = validate_charts(m, r, stage.tmp, res)) == GB_OK &&
        (st = write_csv(stage.tmp, t)) == GB_OK)
        st = gb_stage_commit(&stage);
    if (st != GB_OK)
        return gb_cli_fail(gb_stage_fail(&stage, st), "camp validate", NULL);
    gb_cli_print_written(&stage, res);
    fprintf(stderr, "wrote %s/validation.csv\n", o->out);
    if (res->n_not_drawn)
        fprintf(stderr, "not drawn: gnuplot was not found in PATH; install it with apt-get "
                        "install gnuplot-nox and run the command again\n");
    return GB_EXIT_OK;
}

/* The roofs the domain of validity is judged under: --ceilings RUN, else
 * the guide figures of the model's device (no launch line: the too-small
 * rule is then not applied), else none (nothing judged). */
static int validate_ceilings(const struct validate_opts *o, const struct gb_camp_model *m,
                             struct gb_ceilings *c)
{
    memset(c, 0, sizeof *c);
    for (int r = 0; r < GB_N_ROOFS; r++)
        c->value[r] = NAN;
    c->launch_a_ns = NAN;
    if (!o->ceilings) {
        if (m->has_device)
            gb_ceilings_guide(&m->device, c);
        return GB_EXIT_OK;
    }
    return camp_cli_ceilings("camp validate: --ceilings", o->ceilings, o->model_path, m, c);
}

/* Loads the model and every run. */
static int validate_load(const struct validate_opts *o, struct gb_camp_model *m, struct gb_run **runs)
{
    enum gb_status st;
    if ((st = gb_camp_model_load(o->model_path, m)) != GB_OK)
        return gb_cli_fail(st, "camp validate", "give a model written by 'gpubound camp fit'");
    int specs = 0;   /* runs of a kernel spec: the only points with a knee of their own */
    for (int i = 0; i < o->n_dirs; i++) {
        if ((st = gb_cli_load_run(o->dirs[i], &runs[i])) != GB_OK)
            return gb_cli_fail(st, "camp validate", "give the directory of a run recorded by "
                               "'gpubound run camping' or of a kernel spec");
        specs += camp_cli_run_of_spec(runs[i]);
    }
    camp_cli_model_inflight(m, o->own_knee && specs);
    return GB_EXIT_OK;
}

/* Validates every application of the runs (gb_camp_validate_run). */
static int validate_all(const struct validate_opts *o, const struct gb_camp_model *m,
                        const struct gb_ceilings *c, struct gb_run *const *runs,
                        struct gb_camp_validate_result *r)
{
    enum gb_status st = gb_camp_validate_run(m, c, (const struct gb_run *const *)runs, (size_t)o->n_dirs,
                                             gb_camp_apps_inflight, r);
    if (st == GB_ERR_FORMAT && r->n_apps == 0)
        return gb_cli_fail(st, "camp validate", "record them with 'gpubound run camping'");
    if (st != GB_OK)
        return gb_cli_fail(st, "camp validate", NULL);
    if (r->inflight_missing)
        fprintf(stderr, "note: %zu configurations keep the camping suite's knee in the application line: %s\n",
                r->inflight_missing, r->inflight_why);
    for (size_t a = 0; a < r->n_apps; a++)
        if (r->apps[a].from_bytes)
            fprintf(stderr, "note: %s: %zu of %zu points carry no profiler counters; their counts "
                            "are the bytes they move as 4-byte loads\n", r->apps[a].label,
                    r->apps[a].from_bytes, r->apps[a].n);
    return GB_EXIT_OK;
}

static int validate_run(const struct validate_opts *o, struct gb_camp_model *m, struct gb_run **runs,
                        struct gb_camp_validate_result *r, struct gb_report_result *res)
{
    enum gb_status st;
    struct gb_table *t = NULL;
    struct gb_ceilings *c = calloc(1, sizeof *c);
    int rc;
    if (!c)
        return gb_cli_fail(gb_error_set(GB_ERR_NOMEM, "out of memory"), "camp validate", NULL);
    if ((rc = validate_load(o, m, runs)) != GB_EXIT_OK || (rc = validate_ceilings(o, m, c)) != GB_EXIT_OK ||
        (rc = validate_all(o, m, c, runs, r)) != GB_EXIT_OK)
        goto out;
    if (!(t = gb_table_new())) {
        rc = gb_cli_fail(gb_error_set(GB_ERR_NOMEM, "out of memory"), "camp validate", NULL);
        goto out;
    }
    if ((st = table_columns(t)) != GB_OK) {
        rc = gb_cli_fail(st, "camp validate", NULL);
        goto out;
    }
    if ((rc = validate_rows(r, t)) != GB_EXIT_OK ||
        (rc = validate_write(o, m, r, t, res)) != GB_EXIT_OK)
        goto out;
    if ((st = gb_table_print(t, stdout, o->fmt, o->fmt == GB_FORMAT_TABLE ? gb_term_width(stdout) : 0))) {
        rc = gb_cli_fail(st, "camp validate", NULL);
        goto out;
    }
    if (o->fmt == GB_FORMAT_TABLE)
        printf("\nErrors are geometric means of |predicted - measured| / measured over every "
               "starting\nconfiguration (the application line leaves out the start itself). The "
               "paper's, on a\nGTX 280: best bound 11.7%% (GEM), application line 9.3%% "
               "(clique counter).\n");
    if (o->out == o->default_out)
        fprintf(o->fmt == GB_FORMAT_TABLE ? stdout : stderr, "Charts and validation.csv: %s\n", o->out);
out:
    free(c);
    gb_table_free(t);
    return rc;
}

int camp_cli_validate(int argc, char **argv)
{
    struct validate_opts o;
    struct gb_camp_model *m = NULL;
    struct gb_run **runs = NULL;
    struct gb_camp_validate_result r;
    struct gb_report_result res;
    int rc = validate_parse(argc, argv, &o);
    if (rc != GB_EXIT_OK)
        return rc;
    memset(&r, 0, sizeof r);
    gb_report_result_init(&res);
    if (!(m = calloc(1, sizeof *m)) || !(runs = calloc((size_t)o.n_dirs, sizeof *runs)))
        rc = gb_cli_fail(gb_error_set(GB_ERR_NOMEM, "out of host memory"), "camp validate", NULL);
    else
        rc = validate_run(&o, m, runs, &r, &res);
    gb_camp_validate_result_release(&r);
    for (int i = 0; runs && i < o.n_dirs; i++)
        gb_run_free(runs[i]);
    free(runs);
    free(m);
    gb_report_result_release(&res);
    return rc;
}
