/* cmd_camp.c - `gpubound camp fit | predict | validate`: the CampProf band
 * model over a recorded run of the camping suite (no GPU needed). This file
 * holds `camp fit` and what the subcommands share; predict and validate
 * are in cmd_camp_predict.c and cmd_camp_validate.c. */
#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli/cli.h"
#include "cli/cli_roofs.h"
#include "cli/cmd_camp.h"
#include "gpubound/camp_inflight.h"
#include "gpubound/camp_run.h"
#include "gpubound/campprof.h"
#include "gpubound/report.h"
#include "util/fs.h"
#include "util/stage.h"

#define CMD "camp"

int camp_cli_parse_knee(const char *s)
{
    return strcmp(s, "suite") == 0 ? 0 : strcmp(s, "kernel") == 0 ? 1 : -1;
}

void camp_cli_model_inflight(struct gb_camp_model *m, int own)
{
    if (own && gb_camp_model_inflight(m, NULL) != GB_OK)
        fprintf(stderr, "note: the kernel's own knee: the camping suite's loads in flight could not be read (%s): "
                        "every line keeps the suite's knee\n", gb_error_message());
}

int camp_cli_run_of_spec(const struct gb_run *run)
{
    return run->info.spec[0] != '\0';
}

int camp_cli_parse_double(const char *s, double *v)
{
    char *end;
    errno = 0;
    *v = strtod(s, &end);
    return (!*s || *end || errno || !isfinite(*v)) ? -1 : 0;
}

void camp_cli_path_in(char *buf, size_t n, const char *dir, const char *name)
{
    size_t len = strlen(dir);
    while (len > 1 && dir[len - 1] == '/')
        len--;
    snprintf(buf, n, "%.*s/%s", (int)len, dir, name);
}

const char *camp_cli_device_name(const struct gb_camp_model *m)
{
    return m->has_device && m->device.name[0] ? m->device.name : "an unnamed device";
}

int camp_cli_ceilings(const char *what, const char *ceil_dir, const char *model_path,
                      const struct gb_camp_model *m, struct gb_ceilings *c)
{
    struct gb_run *run = NULL;
    char model[GB_PATH_MAX + 16];
    enum gb_status st = gb_cli_load_run(ceil_dir, &run);
    if (st != GB_OK)
        return gb_cli_fail(st, what, "give a run of 'gpubound run ceilings'");
    snprintf(model, sizeof model, "the model %s", model_path);
    if ((st = gb_cli_roofs_same_gpu(ceil_dir, run, model, m->has_device ? m->device.name : NULL, NULL)) ==
        GB_OK && (st = gb_ceilings_from_run(run, c)) != GB_OK) {
        gb_run_free(run);
        return gb_cli_fail(st, what, "give a run of 'gpubound run ceilings'");
    }
    gb_run_free(run);
    return st == GB_OK ? GB_EXIT_OK : gb_cli_fail(st, what, NULL);
}

void camp_cli_report_files(const struct gb_report_result *res)
{
    if (res->n_not_drawn) {
        fprintf(stderr, "not drawn:");
        for (size_t i = 0; i < res->n_not_drawn; i++)
            fprintf(stderr, " %s", res->not_drawn[i]);
        fprintf(stderr, " (gnuplot was not found in PATH; install it with apt-get install "
                        "gnuplot-nox and run the command again)\n");
    }
}

/* ---- fit ---- */

/* The note column's text for a knee the data cannot place. */
#define KNEE_EDGE_NOTE "knee at the search's edge: not placed"

/* Whether any term of `s` is a knee at the search's edge. */
static int any_edge(const struct gb_camp_fitstats *s)
{
    for (size_t i = 0; i < s->n_terms; i++)
        if (s->terms[i].at_edge)
            return 1;
    return 0;
}

/* The rows of `s`'s terms; with `note`, the note column of a knee at the
 * search's edge. */
static enum gb_status add_term_rows(struct gb_table *t, const struct gb_camp_equation *eq,
                                    const char *stage, const struct gb_camp_fitstats *s, int note)
{
    enum gb_status st = GB_OK;
    for (size_t i = 0; i < s->n_terms && st == GB_OK; i++) {
        const struct gb_camp_term *term = &s->terms[i];
        if ((st = gb_table_row(t)) || (st = gb_table_cell_text(t, gb_camp_op_name(eq->op))) ||
            (st = gb_table_cell_text(t, gb_camp_pattern_name(eq->pattern))) ||
            (st = gb_table_cell_text(t, stage)) || (st = gb_table_cell_text(t, term->name)) ||
            (st = gb_table_cell_num(t, term->estimate, 6)) ||
            (st = gb_table_cell_num(t, term->se, 4)) || (st = gb_table_cell_num(t, term->t, 4)) ||
            (st = gb_table_cell_num(t, term->p, 3)) || (st = gb_table_cell_num(t, s->r2, 5)) ||
            (st = gb_table_cell_num(t, s->adj_r2, 5)) ||
            (st = gb_table_cell_num(t, s->rmse_ns, 4)) ||
            (st = gb_table_cell_int(t, (long long)eq->n_obs)) ||
            (note && (st = gb_table_cell_text(t, term->at_edge ? KNEE_EDGE_NOTE : NULL))))
            break;
    }
    return st;
}

static enum gb_status print_fit_machine(const struct gb_camp_model *m, enum gb_format fmt)
{
    enum gb_status st = GB_OK;
    struct gb_table *t = gb_table_new();
    static const char *const cols[][2] = {
        {"op", NULL},           {"pattern", NULL}, {"fit", NULL}, {"term", NULL},
        {"estimate", "ns"},     {"std_error", "ns"}, {"t", NULL},  {"p", NULL},
        {"r2", NULL},           {"adj_r2", NULL},  {"rmse", "ns"}, {"n_obs", NULL},
    };
    int edge = 0;
    if (!t)
        return gb_error_set(GB_ERR_NOMEM, "out of memory for a table");
    for (int op = 0; op < 2; op++)
        for (int pat = 0; pat < 2; pat++)
            edge |= any_edge(&m->eq[op][pat].full) || any_edge(&m->eq[op][pat].fit);
    for (size_t c = 0; c < sizeof cols / sizeof cols[0] && st == GB_OK; c++)
        st = gb_table_column(t, cols[c][0], cols[c][1]);
    if (st == GB_OK && edge)
        st = gb_table_column(t, "note", NULL);
    for (int op = 0; op < 2 && st == GB_OK; op++)
        for (int pat = 0; pat < 2 && st == GB_OK; pat++) {
            const struct gb_camp_equation *eq = &m->eq[op][pat];
            if ((st = add_term_rows(t, eq, "full", &eq->full, edge)) == GB_OK)
                st = add_term_rows(t, eq, "final", &eq->fit, edge);
        }
    if (st == GB_OK)
        st = gb_table_print(t, stdout, fmt, 0);
    gb_table_free(t);
    return st;
}

static enum gb_status print_terms(const struct gb_camp_fitstats *s, int width)
{
    enum gb_status st = GB_OK;
    struct gb_table *t = gb_table_new();
    const int edge = any_edge(s);
    if (!t)
        return gb_error_set(GB_ERR_NOMEM, "out of memory for a table");
    if ((st = gb_table_column(t, "term", NULL)) || (st = gb_table_column(t, "estimate", "ns")) ||
        (st = gb_table_column(t, "std. error", "ns")) || (st = gb_table_column(t, "t", NULL)) ||
        (st = gb_table_column(t, "p", NULL)) || (edge && (st = gb_table_column(t, "note", NULL))))
        goto out;
    for (size_t i = 0; i < s->n_terms; i++) {
        const struct gb_camp_term *term = &s->terms[i];
        if ((st = gb_table_row(t)) || (st = gb_table_cell_text(t, term->name)) ||
            (st = gb_table_cell_num(t, term->estimate, 5)) ||
            (st = gb_table_cell_num(t, term->se, 3)) || (st = gb_table_cell_num(t, term->t, 4)) ||
            (st = gb_table_cell_num(t, term->p, 2)) ||
            (edge && (st = gb_table_cell_text(t, term->at_edge ? KNEE_EDGE_NOTE : NULL))))
            goto out;
    }
    st = gb_table_print(t, stdout, GB_FORMAT_TABLE, width);
out:
    gb_table_free(t);
    return st;
}

/* A line for each knee of `eq` that lies at an edge of the search: which
 * edge, what the times do there, and what is then determined. */
static void print_edge_knees(const struct gb_camp_equation *eq)
{
    const struct gb_camp_fitstats *s = &eq->fit;
    for (size_t i = 0; i < s->n_terms; i++) {
        const struct gb_camp_term *k = &s->terms[i];
        if (!k->at_edge)
            continue;
        const char *wn = k->name + 5;   /* "b16" of "knee:b16" */
        char L_name[24];
        snprintf(L_name, sizeof L_name, "L:%s", wn);
        double L = NAN;
        for (size_t j = 0; j < s->n_terms; j++)
            if (strcmp(s->terms[j].name, L_name) == 0)
                L = s->terms[j].estimate;
        if (k->estimate < eq->warps_min)
            printf("  note: %s lies at the low edge of the knee search (%.3g warps per SM, below the fewest "
                   "measured, %g):\n  the times grow in proportion to the warps from there on, so the data "
                   "cannot place the knee;\n  only %s / %s is determined (%.6g ns per warp), and %s's t and p "
                   "hold at this knee only\n", k->name, k->estimate, eq->warps_min, L_name, k->name,
                   L / k->estimate, L_name);
        else
            printf("  note: %s lies at the high edge of the knee search (%.4g warps per SM, above the most "
                   "measured, %g):\n  the times do not grow with the warps measured, so the data cannot "
                   "place the knee;\n  only %s, the flat time, is determined\n", k->name, k->estimate,
                   eq->warps_max, L_name);
    }
}

static void print_stats_line(const char *what, const struct gb_camp_fitstats *s)
{
    char r2[32], adj[32], rmse[32], f[32], fp[32];
    gb_format_num(r2, sizeof r2, s->r2, 4);
    gb_format_num(adj, sizeof adj, s->adj_r2, 4);
    gb_format_num(rmse, sizeof rmse, s->rmse_ns, 4);
    gb_format_num(f, sizeof f, s->f, 4);
    gb_format_num(fp, sizeof fp, s->f_p, 2);
    /* The latency-throughput forms are not linear in their knees: no F test. */
    if (isfinite(s->f))
        printf("  %s: R^2 %s, adjusted R^2 %s, RMSE %s ns, F %s (p %s), %g residual df\n", what, r2,
               adj, rmse, f, fp, s->df_resid);
    else
        printf("  %s: R^2 %s, adjusted R^2 %s, RMSE %s ns, %g residual df\n", what, r2, adj, rmse, s->df_resid);
}

static enum gb_status print_fit_table(const struct gb_camp_model *m, const char *run_dir)
{
    enum gb_status st = GB_OK;
    const int width = gb_term_width(stdout);
    printf("CampProf model of %s from %s (recorded %s)\n", camp_cli_device_name(m), run_dir,
           m->run_started_utc[0] ? m->run_started_utc : "at an unknown time");
    printf("form %s; the camped benchmarks camp on one %s\n", gb_camp_form_name(m->form),
           gb_camp_level_name(m->level));
    if (gb_camp_form_lt(m->form))
        printf("t = L_W * h(w / knee_W) per equation and width W; w: active warps per SM; L_W: the "
               "latency term (ns),\nknee_W: the warps where the throughput term reaches it; "
               "h(x) = %s.\n", m->form == GB_CAMP_FORM_SUM ? "1 + x" : m->form == GB_CAMP_FORM_SMAX2
               ? "(1 + x^2)^(1/2)" : m->form == GB_CAMP_FORM_SMAX4 ? "(1 + x^4)^(1/4)" : "max(1, x)");
    else
        printf("t = a1*w + a2*b2 + ... + b%s per equation; w: active warps per SM; b<W>: 1 when "
               "the width is W\nbytes per thread%s; backward elimination drops terms with p > %g.\n",
               m->interactions ? " + c2*w*b2 + ..." : "",
               m->interactions ? ", w:b<W> its own slope (--form interactions)" : "", m->p_remove);
    for (int op = 0; op < 2; op++)
        for (int pat = 0; pat < 2; pat++) {
            const struct gb_camp_equation *eq = &m->eq[op][pat];
            char widths[64] = "";
            size_t len = 0;
            for (int i = 0; i < eq->n_widths; i++)
                len += (size_t)snprintf(widths + len, sizeof widths - len, "%s%d",
                                        i ? ", " : "", eq->widths[i]);
            printf("\n%s, %s: %zu points, widths %s bytes per thread (reference %d), %g to %g "
                   "warps per SM\n",
                   op == GB_CAMP_READ ? "reads" : "writes",
                   pat == GB_CAMP_SPREAD ? "spread over every partition" : "camped on one",
                   eq->n_obs, widths, eq->ref_width, eq->warps_min, eq->warps_max);
            if ((st = print_terms(&eq->full, width)) != GB_OK)
                return st;
            print_stats_line(gb_camp_form_lt(m->form) ? "fit" : "full fit", &eq->full);
            print_edge_knees(eq);
            if (isfinite(eq->cv_gm))
                printf("  held out (each of %zu warps values left out in turn): geometric mean "
                       "error %.2f%%, RMS %.2f%%\n", eq->cv_folds, 100 * eq->cv_gm, 100 * eq->cv_rms);
            if (gb_camp_form_lt(m->form)) {
            } else if (eq->n_dropped == 0) {
                printf("  backward elimination: every term kept\n");
            } else {
                printf("  backward elimination dropped");
                for (size_t i = 0; i < eq->n_dropped; i++) {
                    char p[32];
                    gb_format_num(p, sizeof p, eq->dropped_p[i], 2);
                    printf("%s %s (p %s)", i ? "," : "", eq->dropped[i], p);
                }
                printf("; the model keeps:\n");
                if ((st = print_terms(&eq->fit, width)) != GB_OK)
                    return st;
                print_stats_line("final fit", &eq->fit);
            }
            printf("  normalisation: warp-level instructions per launch per active warp:");
            for (int c = 0; c < GB_CAMP_N_WIDTHS; c++)
                if (eq->instr_per_warp[c] > 0) {
                    char k[32];
                    gb_format_num(k, sizeof k, eq->instr_per_warp[c], 6);
                    printf(" %d B %s", gb_camp_class_width(c), k);
                }
            printf("\n  sectors per instruction:");
            for (int c = 0; c < GB_CAMP_N_WIDTHS; c++)
                if (eq->instr_per_warp[c] > 0) {
                    char k[32];
                    gb_format_num(k, sizeof k, eq->sectors_per_instr[c], 4);
                    printf(" %d B %s", gb_camp_class_width(c), isnan(eq->sectors_per_instr[c]) ? "-" : k);
                }
            printf("\n");
        }
    return st;
}

/* What the fit's normalisation says about its records, on stderr. */
static void print_fit_notes(const struct gb_camp_model *m)
{
    for (int op = 0; op < 2; op++)
        for (int pat = 0; pat < 2; pat++)
            for (int k = 0; k < GB_CAMP_N_WIDTHS; k++)
                if (m->eq[op][pat].instr_dev[k] > 0.01)
                    fprintf(stderr, "note: %s/%s at %d B: instructions per active warp vary by "
                                    "up to %.1f%% across the points; the model uses their mean\n",
                            gb_camp_op_name((enum gb_camp_op)op),
                            gb_camp_pattern_name((enum gb_camp_pattern)pat),
                            gb_camp_class_width(k), 100 * m->eq[op][pat].instr_dev[k]);
    for (int op = 0; op < 2; op++)
        for (int pat = 0; pat < 2; pat++)
            for (int k = 0; k < GB_CAMP_N_WIDTHS; k++) {
                double spi = m->eq[op][pat].sectors_per_instr[k], want = gb_camp_class_width(k);
                if (m->eq[op][pat].instr_per_warp[k] > 0 && isfinite(spi) &&
                    fabs(spi - want) > 0.05 * want)
                    fprintf(stderr, "note: %s/%s at %d B moves %.3g sectors per instruction, "
                                    "not %g: --from-ncu's reading of widths from sectors does "
                                    "not hold for it\n",
                            gb_camp_op_name((enum gb_camp_op)op),
                            gb_camp_pattern_name((enum gb_camp_pattern)pat), (int)want, spi, want);
            }
}

/* Where camp fit writes its model: --model FILE, else campprof-model.json in
 * --out DIR (made at the end when missing), else in a new directory
 * runs/campprof-fit-<UTC time> (`*out` is set to it). Never inside the run
 * it reads: an --out or --model there is a usage error. --out is a
 * directory, as in every other command: a file name there (the old
 * meaning) is refused with the option that now names the file. Returns -1
 * when the path is set, else the exit code of the usage error. */
static int camp_fit_model_path(const char *dir, const char **out, const char *model, char *def,
                               size_t n_def, char *buf, size_t n)
{
    struct stat sb;
    size_t len = *out ? strlen(*out) : 0;
    if (!dir[0] || (*out && !(*out)[0]) || (model && !model[0]))
        return gb_cli_usage(CMD, "fit: an empty file name");
    if (*out && ((len > 5 && strcmp(*out + len - 5, ".json") == 0) ||
                 (stat(*out, &sb) == 0 && !S_ISDIR(sb.st_mode))))
        return gb_cli_usage(CMD, "fit: --out names a directory (the model goes to "
                                 "DIR/campprof-model.json), not the file '%s'; name the model "
                                 "file with --model FILE", *out);
    if (model && gb_cli_path_within(model, dir))
        return gb_cli_usage(CMD, "fit: --model %s lies inside the run %s, which camp fit only "
                            "reads; give a file outside it", model, dir);
    if (*out && gb_cli_path_within(*out, dir))
        return gb_cli_usage(CMD, "fit: --out %s lies inside the run %s, which camp fit only "
                            "reads; give a directory outside it", *out, dir);
    if (model) {
        snprintf(buf, n, "%s", model);
        return -1;
    }
    if (!*out) {
        gb_cli_default_out(def, n_def, "campprof-fit");
        *out = def;
    }
    camp_cli_path_in(buf, n, *out, "campprof-model.json");
    return -1;
}

/* One row per form and equation: the fit and held-out statistics. */
static enum gb_status compare_rows(struct gb_table *t, const struct gb_camp_model *m)
{
    enum gb_status st = GB_OK;
    for (int op = 0; op < 2 && st == GB_OK; op++)
        for (int pat = 0; pat < 2 && st == GB_OK; pat++) {
            const struct gb_camp_equation *eq = &m->eq[op][pat];
            if ((st = gb_table_row(t)) || (st = gb_table_cell_text(t, gb_camp_form_name(m->form))) ||
                (st = gb_table_cell_text(t, gb_camp_op_name(eq->op))) ||
                (st = gb_table_cell_text(t, gb_camp_pattern_name(eq->pattern))) ||
                (st = gb_table_cell_int(t, (long long)eq->fit.n_terms)) ||
                (st = gb_table_cell_num(t, eq->fit.r2, 4)) ||
                (st = gb_table_cell_num(t, eq->fit.rmse_ns, 4)) ||
                (st = gb_table_cell_num(t, 100 * eq->cv_gm, 3)) ||
                (st = gb_table_cell_num(t, 100 * eq->cv_rms, 3)))
                break;
        }
    return st;
}

/* --compare: every form fitted to the run, their fit and held-out
 * statistics side by side; nothing is written. */
static int camp_fit_compare(const char *dir, double p_remove, enum gb_format fmt)
{
    static const char *const cols[][2] = {
        {"form", NULL}, {"op", NULL}, {"pattern", NULL}, {"terms", NULL}, {"r2", NULL},
        {"rmse", "ns"}, {"heldout_gm_error", "%"}, {"heldout_rms_error", "%"},
    };
    struct gb_run *run = NULL;
    struct gb_camp_model *m = calloc(1, sizeof *m);
    struct gb_table *t = gb_table_new();
    enum gb_status st = !m || !t ? gb_error_set(GB_ERR_NOMEM, "out of host memory") : GB_OK;
    for (size_t c = 0; c < sizeof cols / sizeof cols[0] && st == GB_OK; c++)
        st = gb_table_column(t, cols[c][0], cols[c][1]);
    if (st == GB_OK)
        st = gb_cli_load_run(dir, &run);
    for (int f = 0; f < GB_CAMP_N_FORMS && st == GB_OK; f++)
        if ((st = gb_camp_fit_form(run, p_remove, (enum gb_camp_form)f, GB_CAMP_LEVEL_UNKNOWN, m)) ==
            GB_OK)
            st = compare_rows(t, m);
    if (st == GB_OK)
        st = gb_table_print(t, stdout, fmt, fmt == GB_FORMAT_TABLE ? gb_term_width(stdout) : 0);
    if (st == GB_OK && fmt == GB_FORMAT_TABLE)
        printf("\nHeld out: each warps value left out in turn, the equation refitted on the "
               "rest and the\nleft-out points predicted; errors are |predicted - measured| / "
               "measured. The default\nform is %s.\n", gb_camp_form_name(GB_CAMP_FORM_DEFAULT));
    gb_run_free(run);
    gb_table_free(t);
    free(m);
    return st == GB_OK ? GB_EXIT_OK : gb_cli_fail(st, "camp fit --compare", NULL);
}

static int camp_fit(int argc, char **argv)
{
    static const struct option longopts[] = {
        {"out", required_argument, NULL, 'o'},
        {"model", required_argument, NULL, 'm'},
        {"p-remove", required_argument, NULL, 'p'},
        {"format", required_argument, NULL, 'f'},
        {"interactions", no_argument, NULL, 'i'},
        {"form", required_argument, NULL, 'F'},
        {"compare", no_argument, NULL, 'K'},
        {"force", no_argument, NULL, 'X'},
        {NULL, 0, NULL, 0}};
    const char *out = NULL, *model = NULL, *dir;
    int force = 0;
    char path[4300], default_out[4300];
    double p_remove = GB_CAMP_P_REMOVE;
    int interactions = 0, form = -1, compare = 0;
    enum gb_format fmt = GB_FORMAT_TABLE;
    struct gb_run *run = NULL;
    struct gb_camp_model *m = NULL;
    enum gb_status st;
    int c, rc = GB_EXIT_OK;

    if ((c = gb_cli_options_once(CMD, argc, argv, ":", longopts, "--out|--model --form|--compare")) >= 0)
        return c;
    gb_cli_getopt_reset();
    while ((c = getopt_long(argc, argv, ":", longopts, NULL)) != -1) {
        switch (c) {
        case 'o': out = optarg; break;
        case 'm': model = optarg; break;
        case 'i': interactions = 1; break;
        case 'K': compare = 1; break;
        case 'F':
            if ((form = gb_camp_form_parse(optarg)) < 0)
                return gb_cli_usage(CMD, "fit: --form needs one of paper, interactions, sum, "
                                    "smax2, smax4, max, not '%s'", optarg);
            break;
        case 'X': force = 1; break;
        case 'p':
            if (camp_cli_parse_double(optarg, &p_remove) != 0 || !(p_remove > 0 && p_remove < 1))
                return gb_cli_usage(CMD, "fit: --p-remove needs a p-value between 0 and 1, not '%s'",
                                    optarg);
            break;
        case 'f':
            if (gb_format_parse(optarg, &fmt) != GB_OK)
                return gb_cli_usage(CMD, "fit: --format: %s", gb_error_message());
            break;
        case ':': return gb_cli_usage(CMD, "fit: %s needs a value", argv[optind - 1]);
        default: return gb_cli_usage(CMD, "fit: unknown option '%s'", argv[optind - 1]);
        }
    }
    if (argc - optind != 1)
        return argc == optind ? gb_cli_usage(CMD, "fit: expected a RUN_DIR")
                              : gb_cli_usage(CMD, "fit: expected one RUN_DIR, not %d arguments",
                                             argc - optind);
    dir = argv[optind];
    if (interactions && form >= 0 && form != GB_CAMP_FORM_INTERACTIONS)
        return gb_cli_usage(CMD, "fit: --interactions is --form interactions; it does not go "
                            "with --form %s", gb_camp_form_name((enum gb_camp_form)form));
    if (interactions)
        form = GB_CAMP_FORM_INTERACTIONS;
    if (form < 0)
        form = GB_CAMP_FORM_DEFAULT;
    if (compare)
        return camp_fit_compare(dir, p_remove, fmt);
    if ((rc = camp_fit_model_path(dir, &out, model, default_out, sizeof default_out, path,
                                  sizeof path)) >= 0)
        return rc;
    rc = GB_EXIT_OK;
    if (!(m = calloc(1, sizeof *m))) {
        rc = gb_cli_fail(gb_error_set(GB_ERR_NOMEM, "out of host memory"), "camp fit", NULL);
        goto done;
    }
    if ((st = gb_cli_load_run(dir, &run)) != GB_OK) {
        rc = gb_cli_fail(st, "camp fit", "give the directory of a run recorded by 'gpubound run camping'");
        goto done;
    }
    const struct gb_camp_fit_opts fo = {p_remove, (enum gb_camp_form)form, model ? NULL : out, model,
                                        force};
    if ((st = gb_camp_fit_run(run, &fo, m, NULL, 0)) != GB_OK) {
        rc = gb_cli_fail(st, "camp fit",
                         st == GB_ERR_FORMAT ? "record the camping suite with 'gpubound run camping'"
                                             : NULL);
        goto done;
    }
    if (fmt == GB_FORMAT_TABLE)
        st = print_fit_table(m, dir);
    else
        st = print_fit_machine(m, fmt);
    if (st != GB_OK) {
        rc = gb_cli_fail(st, "camp fit", NULL);
        goto done;
    }
    print_fit_notes(m);
    if (!run->info.complete || run->truncated)
        fprintf(stderr, "note: %s did not end normally; the model uses the points it recorded\n",
                dir);
    fprintf(stderr, "wrote %s\n", path);
    if (out == default_out)
        fprintf(fmt == GB_FORMAT_TABLE ? stdout : stderr, "Model: %s\n", path);
done:
    gb_run_free(run);
    free(m);
    return rc;
}

/* The subcommands, one row each: the usage errors list them from here. */
static const struct {
    const char *name;
    int (*fn)(int argc, char **argv);
} camp_subcommands[] = {
    {"fit", camp_fit}, {"predict", camp_cli_predict}, {"validate", camp_cli_validate}, {"detect", camp_cli_detect},
};
#define CAMP_N_SUB (sizeof camp_subcommands / sizeof camp_subcommands[0])

int gb_cmd_camp(int argc, char **argv)
{
    char names[128];
    size_t len = 0;
    for (size_t i = 0; i < CAMP_N_SUB && argc >= 2; i++)
        if (strcmp(argv[1], camp_subcommands[i].name) == 0)
            return camp_subcommands[i].fn(argc - 1, argv + 1);
    for (size_t i = 0; i < CAMP_N_SUB; i++)
        len += (size_t)snprintf(names + len, sizeof names - len, "%s%s", i == 0 ? "" : i + 1 < CAMP_N_SUB ? ", " : " or ",
                                camp_subcommands[i].name);
    if (argc < 2)
        return gb_cli_usage(CMD, "expected a subcommand: %s", names);
    return gb_cli_usage(CMD, "unknown subcommand '%s' (%s)", argv[1], names);
}
