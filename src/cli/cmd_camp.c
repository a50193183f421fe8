/* cmd_camp.c - `gpubound camp fit | predict | validate`: the CampProf band
 * model over a recorded run of the camping suite (no GPU needed). */
#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cli/cli.h"
#include "cli/cmd_camp.h"
#include "gpubound/campprof.h"
#include "gpubound/ncu.h"
#include "gpubound/regress.h"
#include "gpubound/report.h"
#include "util/fs.h"

#define CMD "camp"

/* The benches of the validation applications, with the paper's names. */
static const struct {
    const char *bench, *label;
} gb_apps[] = {
    {"gem", "GEM (n-body electrostatics)"},
    {"clique", "clique counter (graph)"},
    {"transpose_coalesced", "transpose, coalesced"},
    {"transpose_diagonal", "transpose, diagonal"},
};
#define GB_N_APPS (sizeof gb_apps / sizeof gb_apps[0])

static int parse_double(const char *s, double *v)
{
    char *end;
    errno = 0;
    *v = strtod(s, &end);
    return (!*s || *end || errno || !isfinite(*v)) ? -1 : 0;
}

/* "RUN_DIR/name" without doubled slashes. */
static void path_in(char *buf, size_t n, const char *dir, const char *name)
{
    size_t len = strlen(dir);
    while (len > 1 && dir[len - 1] == '/')
        len--;
    snprintf(buf, n, "%.*s/%s", (int)len, dir, name);
}

static const char *device_name(const struct gb_camp_model *m)
{
    return m->has_device && m->device.name[0] ? m->device.name : "an unnamed device";
}

/* ---- fit ---- */

static enum gb_status add_term_rows(struct gb_table *t, const struct gb_camp_equation *eq,
                                    const char *stage, const struct gb_camp_fitstats *s)
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
            (st = gb_table_cell_int(t, (long long)eq->n_obs)))
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
    if (!t)
        return gb_error_set(GB_ERR_NOMEM, "out of memory for a table");
    for (size_t c = 0; c < sizeof cols / sizeof cols[0] && st == GB_OK; c++)
        st = gb_table_column(t, cols[c][0], cols[c][1]);
    for (int op = 0; op < 2 && st == GB_OK; op++)
        for (int pat = 0; pat < 2 && st == GB_OK; pat++) {
            const struct gb_camp_equation *eq = &m->eq[op][pat];
            if ((st = add_term_rows(t, eq, "full", &eq->full)) == GB_OK)
                st = add_term_rows(t, eq, "final", &eq->fit);
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
    if (!t)
        return gb_error_set(GB_ERR_NOMEM, "out of memory for a table");
    if ((st = gb_table_column(t, "term", NULL)) || (st = gb_table_column(t, "estimate", "ns")) ||
        (st = gb_table_column(t, "std. error", "ns")) || (st = gb_table_column(t, "t", NULL)) ||
        (st = gb_table_column(t, "p", NULL)))
        goto out;
    for (size_t i = 0; i < s->n_terms; i++) {
        const struct gb_camp_term *term = &s->terms[i];
        if ((st = gb_table_row(t)) || (st = gb_table_cell_text(t, term->name)) ||
            (st = gb_table_cell_num(t, term->estimate, 5)) ||
            (st = gb_table_cell_num(t, term->se, 3)) || (st = gb_table_cell_num(t, term->t, 4)) ||
            (st = gb_table_cell_num(t, term->p, 2)))
            goto out;
    }
    st = gb_table_print(t, stdout, GB_FORMAT_TABLE, width);
out:
    gb_table_free(t);
    return st;
}

static void print_stats_line(const char *what, const struct gb_camp_fitstats *s)
{
    char r2[32], adj[32], rmse[32], f[32], fp[32];
    gb_format_num(r2, sizeof r2, s->r2, 4);
    gb_format_num(adj, sizeof adj, s->adj_r2, 4);
    gb_format_num(rmse, sizeof rmse, s->rmse_ns, 4);
    gb_format_num(f, sizeof f, s->f, 4);
    gb_format_num(fp, sizeof fp, s->f_p, 2);
    printf("  %s: R^2 %s, adjusted R^2 %s, RMSE %s ns, F %s (p %s), %g residual df\n", what, r2,
           adj, rmse, f, fp, s->df_resid);
}

static enum gb_status print_fit_table(const struct gb_camp_model *m, const char *run_dir)
{
    enum gb_status st = GB_OK;
    const int width = gb_term_width(stdout);
    printf("CampProf model of %s from %s (recorded %s)\n", device_name(m), run_dir,
           m->run_started_utc[0] ? m->run_started_utc : "at an unknown time");
    printf("t = a1*w + a2*b2 + ... + b%s per equation; w: active warps per SM; b<W>: 1 when "
           "the width is W\nbytes per thread%s; backward elimination drops terms with p > %g.\n",
           m->interactions ? " + c2*w*b2 + ..." : "",
           m->interactions ? ", w:b<W> its own slope (--interactions)" : "", m->p_remove);
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
            print_stats_line("full fit", &eq->full);
            if (eq->n_dropped == 0) {
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

static int camp_fit(int argc, char **argv)
{
    static const struct option longopts[] = {
        {"out", required_argument, NULL, 'o'},
        {"p-remove", required_argument, NULL, 'p'},
        {"format", required_argument, NULL, 'f'},
        {"interactions", no_argument, NULL, 'i'},
        {NULL, 0, NULL, 0}};
    const char *out = NULL, *dir;
    char default_out[4300];
    double p_remove = GB_CAMP_P_REMOVE;
    int interactions = 0;
    enum gb_format fmt = GB_FORMAT_TABLE;
    struct gb_run *run = NULL;
    struct gb_camp_model *m = NULL;
    enum gb_status st;
    int c, rc = GB_EXIT_OK;

    gb_cli_getopt_reset();
    while ((c = getopt_long(argc, argv, ":", longopts, NULL)) != -1) {
        switch (c) {
        case 'o': out = optarg; break;
        case 'i': interactions = 1; break;
        case 'p':
            if (parse_double(optarg, &p_remove) != 0 || !(p_remove > 0 && p_remove < 1))
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
    if (!dir[0] || (out && !out[0]))
        return gb_cli_usage(CMD, "fit: an empty file name");
    if (!out) {
        path_in(default_out, sizeof default_out, dir, "campprof-model.json");
        out = default_out;
    }
    if (!(m = calloc(1, sizeof *m))) {
        rc = gb_cli_fail(gb_error_set(GB_ERR_NOMEM, "out of host memory"), "camp fit", NULL);
        goto done;
    }
    if ((st = gb_run_load(dir, &run)) != GB_OK) {
        rc = gb_cli_fail(st, "camp fit", "give the directory of a run recorded by 'gpubound run camping'");
        goto done;
    }
    if ((st = gb_camp_fit_ext(run, p_remove, interactions, m)) != GB_OK) {
        rc = gb_cli_fail(st, "camp fit",
                         st == GB_ERR_FORMAT ? "record the camping suite with 'gpubound run camping'"
                                             : NULL);
        goto done;
    }
    if ((st = gb_camp_model_write(m, out)) != GB_OK) {
        rc = gb_cli_fail(st, "camp fit", NULL);
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
    if (!run->info.complete || run->truncated)
        fprintf(stderr, "note: %s did not end normally; the model uses the points it recorded\n",
                dir);
    fprintf(stderr, "wrote %s\n", out);
done:
    gb_run_free(run);
    free(m);
    return rc;
}

/* ---- predict ---- */

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
        if (c < 0 || parse_double(colon + 1, &n) != 0 || n < 0)
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

/* Splits "dir/stem.svg" into a directory and a stem gb_plot accepts. */
static int chart_path(const char *path, char *dir, size_t dn, char *stem, size_t sn)
{
    size_t len = strlen(path);
    if (len < 5 || strcmp(path + len - 4, ".svg") != 0)
        return -1;
    const char *slash = strrchr(path, '/');
    const char *base = slash ? slash + 1 : path;
    if (slash)
        snprintf(dir, dn, "%.*s", (int)(slash == path ? 1 : slash - path), path);
    else
        snprintf(dir, dn, ".");
    snprintf(stem, sn, "%.*s", (int)(strlen(base) - 4), base);
    return stem[0] ? 0 : -1;
}

static enum gb_status draw_band(const char *dir, const char *stem, const char *title,
                                const char *subtitle, const struct gb_camp_row *rows, size_t n,
                                double at_warps, double time_ns, const double *measured,
                                const double *mlo, const double *mhi, const char *star_label,
                                struct gb_report_result *res)
{
    enum gb_status st = GB_OK;
    struct gb_plot *p = gb_plot_new(GB_CHART_LINE, stem, title);
    int s_worst, s_app = -1, s_best, s_meas = -1;
    if (!p)
        return gb_error_set(GB_ERR_USAGE, "cannot make a chart named '%s' (use letters, digits, "
                            "'-', '_' and '.')", stem);
    if ((st = gb_plot_subtitle(p, subtitle)) ||
        (st = gb_plot_labels(p, "active warps per SM", "time per launch (µs)")))
        goto out;
    if ((st = gb_plot_series(p, "worst: every access camped", &s_worst)))
        goto out;
    if (isfinite(time_ns) && (st = gb_plot_series(p, "application: extrapolated in the band", &s_app)))
        goto out;
    if ((st = gb_plot_series(p, "best: no camping", &s_best)))
        goto out;
    if (measured && (st = gb_plot_series(p, "measured", &s_meas)))
        goto out;
    for (size_t i = 0; i < n; i++) {
        double x = rows[i].warps;
        if ((st = gb_plot_point(p, s_worst, x, rows[i].worst_ns / 1e3, NAN, NAN)) ||
            (st = gb_plot_point(p, s_best, x, rows[i].best_ns / 1e3, NAN, NAN)))
            goto out;
        if (s_app >= 0 && (st = gb_plot_point(p, s_app, x, rows[i].app_ns / 1e3, NAN, NAN)))
            goto out;
        if (s_meas >= 0 &&
            (st = gb_plot_point(p, s_meas, x, measured[i] / 1e3, mlo ? mlo[i] / 1e3 : NAN,
                                mhi ? mhi[i] / 1e3 : NAN)))
            goto out;
    }
    if (isfinite(time_ns) && (st = gb_plot_star(p, star_label, at_warps, time_ns / 1e3)))
        goto out;
    st = gb_plot_draw(p, dir, res);
out:
    gb_plot_free(p);
    return st;
}

static void report_files(const struct gb_report_result *res)
{
    for (size_t i = 0; i < res->n_files; i++)
        fprintf(stderr, "wrote %s\n", res->files[i]);
    if (res->n_not_drawn) {
        fprintf(stderr, "not drawn:");
        for (size_t i = 0; i < res->n_not_drawn; i++)
            fprintf(stderr, " %s", res->not_drawn[i]);
        fprintf(stderr, " (gnuplot was not found in PATH; install it with apt-get install "
                        "gnuplot-nox and run the command again)\n");
    }
}

/* The device whose limits the occupancy calculator uses. */
static int predict_device(const struct gb_camp_model *m, const char *cc, struct gb_device_info *dev)
{
    if (cc) {
        int major, minor, used = 0;
        if (sscanf(cc, "%d.%d%n", &major, &minor, &used) != 2 || cc[used])
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

static int camp_predict(int argc, char **argv)
{
    static const struct option longopts[] = {
        {"model", required_argument, NULL, 'm'},    {"gld", required_argument, NULL, 'l'},
        {"gst", required_argument, NULL, 's'},      {"from-ncu", required_argument, NULL, 'n'},
        {"ncu-id", required_argument, NULL, 'i'},   {"threads", required_argument, NULL, 't'},
        {"regs", required_argument, NULL, 'r'},     {"smem", required_argument, NULL, 'S'},
        {"grid", required_argument, NULL, 'g'},     {"warps", required_argument, NULL, 'w'},
        {"time-ns", required_argument, NULL, 'T'},  {"at-warps", required_argument, NULL, 'a'},
        {"cc", required_argument, NULL, 'C'},       {"chart", required_argument, NULL, 'c'},
        {"format", required_argument, NULL, 'f'},   {NULL, 0, NULL, 0}};
    const char *model_path = NULL, *ncu_path = NULL, *chart = NULL, *cc = NULL;
    long threads = -1, regs = -1, smem = -1, grid = -1, warps_max = -1, ncu_id = -1, at = -1;
    double time_ns = NAN;
    int have_counts = 0, c, rc = GB_EXIT_OK;
    enum gb_format fmt = GB_FORMAT_TABLE;
    struct gb_camp_counts counts;
    struct gb_camp_model *m = NULL;
    struct gb_ncu_report *ncu = NULL;
    struct gb_device_info dev;
    struct gb_camp_row *rows = NULL;
    struct gb_table *t = NULL;
    struct gb_report_result res;
    enum gb_status st;
    char kernel[160] = "";
    char chart_dir[4096], chart_stem[128];

    memset(&counts, 0, sizeof counts);
    gb_report_result_init(&res);
    gb_cli_getopt_reset();
    while ((c = getopt_long(argc, argv, ":", longopts, NULL)) != -1) {
        switch (c) {
        case 'm': model_path = optarg; break;
        case 'l':
        case 's':
            if (parse_counts(optarg, c == 'l' ? counts.ld : counts.st) != 0)
                return gb_cli_usage(CMD, "predict: %s needs WIDTH:COUNT pairs such as 4:123456 "
                                    "(width 1, 2, 4, 8 or 16 bytes per thread, count >= 0), not '%s'",
                                    c == 'l' ? "--gld" : "--gst", optarg);
            have_counts = 1;
            break;
        case 'n': ncu_path = optarg; break;
        case 'i':
            if ((ncu_id = gb_cli_parse_long(CMD, "predict: --ncu-id", optarg, 0, 1L << 40)) < 0)
                return GB_EXIT_USAGE;
            break;
        case 't':
            if ((threads = gb_cli_parse_long(CMD, "predict: --threads", optarg, 1, 1 << 20)) < 0)
                return GB_EXIT_USAGE;
            break;
        case 'r':
            if ((regs = gb_cli_parse_long(CMD, "predict: --regs", optarg, 0, 255)) < 0)
                return GB_EXIT_USAGE;
            break;
        case 'S':
            if ((smem = gb_cli_parse_long(CMD, "predict: --smem", optarg, 0, 1 << 30)) < 0)
                return GB_EXIT_USAGE;
            break;
        case 'g':
            if ((grid = gb_cli_parse_long(CMD, "predict: --grid", optarg, 1, 1L << 46)) < 0)
                return GB_EXIT_USAGE;
            break;
        case 'w':
            if ((warps_max = gb_cli_parse_long(CMD, "predict: --warps", optarg, 1, 4096)) < 0)
                return GB_EXIT_USAGE;
            break;
        case 'a':
            if ((at = gb_cli_parse_long(CMD, "predict: --at-warps", optarg, 1, 4096)) < 0)
                return GB_EXIT_USAGE;
            break;
        case 'T':
            if (parse_double(optarg, &time_ns) != 0 || !(time_ns > 0))
                return gb_cli_usage(CMD, "predict: --time-ns needs a time in ns > 0, not '%s'",
                                    optarg);
            break;
        case 'C': cc = optarg; break;
        case 'c': chart = optarg; break;
        case 'f':
            if (gb_format_parse(optarg, &fmt) != GB_OK)
                return gb_cli_usage(CMD, "predict: --format: %s", gb_error_message());
            break;
        case ':': return gb_cli_usage(CMD, "predict: %s needs a value", argv[optind - 1]);
        default: return gb_cli_usage(CMD, "predict: unknown option '%s'", argv[optind - 1]);
        }
    }
    if (optind < argc)
        return gb_cli_usage(CMD, "predict: unexpected argument '%s'", argv[optind]);
    if (!model_path)
        return gb_cli_usage(CMD, "predict: --model is required (a model written by 'camp fit')");
    if (ncu_path && have_counts)
        return gb_cli_usage(CMD, "predict: give the counts either with --gld/--gst or with "
                            "--from-ncu, not both");
    if (!ncu_path && !have_counts)
        return gb_cli_usage(CMD, "predict: give the kernel's global load and store counts with "
                            "--gld/--gst or --from-ncu");
    if (ncu_id >= 0 && !ncu_path)
        return gb_cli_usage(CMD, "predict: --ncu-id needs --from-ncu");
    if (warps_max > 0 && (threads > 0 || regs >= 0 || smem >= 0 || grid > 0))
        return gb_cli_usage(CMD, "predict: --warps replaces the launch; give either --warps or "
                            "--threads/--regs/--smem/--grid");
    if (chart && chart_path(chart, chart_dir, sizeof chart_dir, chart_stem, sizeof chart_stem) != 0)
        return gb_cli_usage(CMD, "predict: --chart needs a file name ending in .svg, not '%s'",
                            chart);

    if (!(m = calloc(1, sizeof *m))) {
        rc = gb_cli_fail(gb_error_set(GB_ERR_NOMEM, "out of host memory"), "camp predict", NULL);
        goto done;
    }
    if ((st = gb_camp_model_load(model_path, m)) != GB_OK) {
        rc = gb_cli_fail(st, "camp predict", "give a model written by 'gpubound camp fit'");
        goto done;
    }
    if ((rc = predict_device(m, cc, &dev)) != GB_EXIT_OK)
        goto done;
    if (chart && gb_mkdir_p(chart_dir) != GB_OK) {
        rc = gb_cli_fail(gb_error_set(GB_ERR_IO, "cannot create %s: %s", chart_dir, strerror(errno)),
                         "camp predict --chart", NULL);
        goto done;
    }

    if (ncu_path) {
        struct gb_camp_ncu_input in;
        const struct gb_ncu_launch *l = NULL;
        if ((st = gb_ncu_load(ncu_path, &ncu)) != GB_OK) {
            rc = gb_cli_fail(st, "camp predict --from-ncu",
                             "export it with 'ncu --csv --page raw' (see docs/models.md)");
            goto done;
        }
        if (ncu_id >= 0) {
            for (size_t i = 0; i < ncu->n_launches; i++)
                if (ncu->launches[i].id == ncu_id)
                    l = &ncu->launches[i];
            if (!l) {
                rc = gb_cli_usage(CMD, "predict: %s has no launch with ID %ld", ncu_path, ncu_id);
                goto done;
            }
        } else if (ncu->n_launches == 1) {
            l = &ncu->launches[0];
        } else {
            char ids[256] = "";
            size_t len = 0;
            for (size_t i = 0; i < ncu->n_launches && len < sizeof ids - 8; i++)
                len += (size_t)snprintf(ids + len, sizeof ids - len, "%s%ld", i ? ", " : "",
                                        ncu->launches[i].id);
            rc = gb_cli_usage(CMD, "predict: %s holds %zu launches (IDs %s); pick one with "
                              "--ncu-id", ncu_path, ncu->n_launches, ids);
            goto done;
        }
        if ((st = gb_camp_from_ncu(m, l, &in)) != GB_OK) {
            char todo[1024];
            snprintf(todo, sizeof todo, "profile with ncu --csv --page raw --metrics %s",
                     GB_NCU_METRICS_ARG);
            rc = gb_cli_fail(st, "camp predict --from-ncu", todo);
            goto done;
        }
        counts = in.counts;
        snprintf(kernel, sizeof kernel, "%s", l->kernel);
        /* The options given explicitly win over the export's values. */
        if (warps_max < 0) {
            if (threads < 0 && in.threads > 0)
                threads = in.threads;
            if (regs < 0 && in.regs >= 0)
                regs = in.regs;
            if (smem < 0 && in.smem >= 0)
                smem = in.smem;
            if (grid < 0 && in.grid > 0)
                grid = in.grid;
        }
        if (isnan(time_ns) && in.time_ns > 0)
            time_ns = in.time_ns;
        fprintf(stderr, "from %s, launch %ld (%s): loads %.0f requests / %.0f sectors (%s), stores "
                        "%.0f requests / %.0f sectors (%s)\n",
                ncu_path, l->id, l->kernel, in.ld_requests, in.ld_sectors, in.ld_requests_metric,
                in.st_requests, in.st_sectors, in.st_requests_metric);
    }
    if (at > 0 && isnan(time_ns)) {
        rc = gb_cli_usage(CMD, "predict: --at-warps needs --time-ns (the time measured there)");
        goto done;
    }

    /* The configurations. */
    const int max_warps = dev.max_threads_per_sm / dev.warp_size;
    int *warps = calloc((size_t)max_warps + 1, sizeof *warps);
    size_t n = 0;
    int config_warps = 0;
    char launch_text[256] = "";
    if (!warps) {
        rc = gb_cli_fail(gb_error_set(GB_ERR_NOMEM, "out of host memory"), "camp predict", NULL);
        goto done;
    }
    if (warps_max > 0) {
        if (warps_max > max_warps) {
            free(warps);
            rc = gb_cli_usage(CMD, "predict: --warps %ld is more than the %d warps an SM of "
                              "compute capability %d.%d holds", warps_max, max_warps,
                              dev.cc_major, dev.cc_minor);
            goto done;
        }
        for (int w = 1; w <= warps_max; w++)
            warps[n++] = w;
        config_warps = (int)warps_max;
        snprintf(launch_text, sizeof launch_text, "up to %ld active warps per SM (given)",
                 warps_max);
    } else {
        if (threads < 0 || regs < 0) {
            free(warps);
            rc = gb_cli_usage(CMD, "predict: give the launch (--threads and --regs, with --smem "
                              "and --grid when they apply) or --warps W");
            goto done;
        }
        if (threads > dev.max_threads_per_block) {
            free(warps);
            rc = gb_cli_usage(CMD, "predict: --threads %ld is more than the %d threads a block "
                              "can have", threads, dev.max_threads_per_block);
            goto done;
        }
        struct gb_camp_config cfg = {(int)threads, (int)regs, smem < 0 ? 0 : (int)smem,
                                     grid < 0 ? 0 : grid};
        if ((st = gb_camp_allowed_warps(&dev, &cfg, warps, &n, &config_warps)) != GB_OK) {
            free(warps);
            rc = gb_cli_fail(st, "camp predict", NULL);
            goto done;
        }
        char grid_text[64] = "";
        if (grid > 0)
            snprintf(grid_text, sizeof grid_text, ", %ld blocks", grid);
        snprintf(launch_text, sizeof launch_text,
                 "%ld threads per block, %ld registers per thread, %d bytes of shared memory per "
                 "block%s: %d active warps per SM",
                 threads, regs, cfg.smem, grid_text, config_warps);
        if (grid > 0 && dev.sm_count <= 0)
            fprintf(stderr, "note: the device's SM count is unknown (--cc); the grid does not "
                            "limit the configurations\n");
    }
    double at_warps = at > 0 ? (double)at : (double)config_warps;
    if (isfinite(time_ns)) {
        int found = 0;
        for (size_t i = 0; i < n; i++)
            found |= warps[i] == (int)at_warps;
        if (!found) {
            char list[512];
            warps_text(warps, n, list, sizeof list);
            free(warps);
            if (at_warps <= 0)
                rc = gb_cli_usage(CMD, "predict: the launch as given cannot run on this device, "
                                  "so the measured time has no configuration; give --at-warps");
            else
                rc = gb_cli_usage(CMD, "predict: %g active warps per SM is not among the "
                                  "configurations the occupancy calculator allows (%s)",
                                  at_warps, list);
            goto done;
        }
    }
    if (!(rows = calloc(n, sizeof *rows))) {
        free(warps);
        rc = gb_cli_fail(gb_error_set(GB_ERR_NOMEM, "out of host memory"), "camp predict", NULL);
        goto done;
    }
    double degree = NAN;
    st = gb_camp_predict(m, &counts, warps, n, at_warps, time_ns, rows, &degree);
    char list[512];
    warps_text(warps, n, list, sizeof list);
    free(warps);
    if (st != GB_OK) {
        rc = gb_cli_fail(st, "camp predict", NULL);
        goto done;
    }

    /* The table. */
    if (!(t = gb_table_new())) {
        rc = gb_cli_fail(gb_error_set(GB_ERR_NOMEM, "out of memory"), "camp predict", NULL);
        goto done;
    }
    if ((st = gb_table_column(t, "active warps", NULL)) ||
        (st = gb_table_column(t, "best", "µs")) || (st = gb_table_column(t, "worst", "µs")) ||
        (st = gb_table_column(t, "application", "µs")) ||
        (st = gb_table_column(t, "degree", NULL)) || (st = gb_table_column(t, "measured", NULL)))
        goto table_fail;
    for (size_t i = 0; i < n; i++) {
        int here = isfinite(time_ns) && rows[i].warps == (int)at_warps;
        if ((st = gb_table_row(t)) || (st = gb_table_cell_int(t, rows[i].warps)) ||
            (st = gb_table_cell_num(t, rows[i].best_ns / 1e3, 5)) ||
            (st = gb_table_cell_num(t, rows[i].worst_ns / 1e3, 5)) ||
            (st = gb_table_cell_num(t, rows[i].app_ns / 1e3, 5)) ||
            (st = gb_table_cell_num(t, degree, 3)) ||
            (st = gb_table_cell_text(t, here ? "*" : NULL)))
            goto table_fail;
    }
    if (fmt == GB_FORMAT_TABLE) {
        char ld[256], stt[256];
        counts_text(counts.ld, ld, sizeof ld);
        counts_text(counts.st, stt, sizeof stt);
        printf("CampProf band on %s (model %s)\n", device_name(m), model_path);
        if (kernel[0])
            printf("  kernel: %s\n", kernel);
        printf("  global loads: %s\n  global stores: %s\n", ld, stt);
        printf("  launch: %s\n  configurations: %s active warps per SM\n", launch_text, list);
        if (isfinite(time_ns)) {
            char tv[32], dv[32];
            gb_format_num(tv, sizeof tv, time_ns / 1e3, 5);
            gb_format_num(dv, sizeof dv, degree, 3);
            printf("  measured: %s µs at %g active warps per SM: camping degree %s (0 = best, "
                   "1 = worst)%s\n\n", tv, at_warps, dv,
                   degree < 0 || degree > 1 ? "; outside the band" : "");
        } else {
            printf("  no measured time: give --time-ns for the application line\n\n");
        }
    }
    if ((st = gb_table_print(t, stdout, fmt, fmt == GB_FORMAT_TABLE ? gb_term_width(stdout) : 0)))
        goto table_fail;
    for (size_t i = 0; i < n; i++)
        if (!(rows[i].best_ns > 0) || !(rows[i].worst_ns > 0)) {
            fprintf(stderr, "note: the model predicts a time <= 0 at %d warps per SM: that "
                            "configuration is outside what the benchmarks support\n", rows[i].warps);
            break;
        }
    {
        size_t inverted = 0;
        for (size_t i = 0; i < n; i++)
            inverted += rows[i].worst_ns < rows[i].best_ns;
        if (inverted)
            fprintf(stderr, "note: at %zu of %zu configurations the camped equations predict a "
                            "shorter time than the spread ones: the band is inverted there (the "
                            "camped pattern did not slow the benchmarks down)\n", inverted, n);
    }
    if (isfinite(degree) && (degree < 0 || degree > 1))
        fprintf(stderr, "note: the measured time lies outside the predicted band (degree %.3g)\n",
                degree);

    if (chart) {
        char title[256], sub[256], star[128];
        snprintf(title, sizeof title, "CampProf: %s", kernel[0] ? kernel : "kernel");
        snprintf(sub, sizeof sub, "%s", device_name(m));
        snprintf(star, sizeof star, "measured (%g warps)", at_warps);
        st = draw_band(chart_dir, chart_stem, title, sub, rows, n, at_warps, time_ns, NULL, NULL,
                       NULL, star, &res);
        report_files(&res);
        if (st != GB_OK) {
            rc = gb_cli_fail(st, "camp predict --chart", NULL);
            goto done;
        }
    }
    goto done;
table_fail:
    rc = gb_cli_fail(st, "camp predict", NULL);
done:
    gb_table_free(t);
    free(rows);
    gb_ncu_free(ncu);
    free(m);
    gb_report_result_release(&res);
    return rc;
}

/* ---- validate ---- */

struct app_group {
    char bench[64];
    char label[160];       /* bench and any other axes */
    struct gb_camp_obs *obs;
    double *lo, *hi;       /* CI of each time */
    size_t n, cap;
};

static int cmp_obs(const void *a, const void *b)
{
    double x = ((const struct gb_camp_obs *)a)->warps, y = ((const struct gb_camp_obs *)b)->warps;
    return (x > y) - (x < y);
}

static enum gb_status collect_apps(const struct gb_run *run, struct app_group **out, size_t *n_out)
{
    struct app_group *g = NULL;
    size_t ng = 0;
    for (size_t i = 0; i < run->n_records; i++) {
        const struct gb_record *r = &run->records[i];
        size_t a;
        if (strcmp(r->suite, GB_CAMP_SUITE) != 0 || r->status != GB_REC_OK)
            continue;
        for (a = 0; a < GB_N_APPS; a++)
            if (strcmp(r->bench, gb_apps[a].bench) == 0)
                break;
        if (a == GB_N_APPS)
            continue;
        char label[160];
        size_t len = (size_t)snprintf(label, sizeof label, "%s", r->bench);
        for (int k = 0; k < r->n_axes && len < sizeof label; k++)
            if (strcmp(r->axes[k].name, "warps") != 0)
                len += (size_t)snprintf(label + len, sizeof label - len, " %s=%s",
                                        r->axes[k].name, r->axes[k].value);
        size_t gi;
        for (gi = 0; gi < ng; gi++)
            if (strcmp(g[gi].label, label) == 0)
                break;
        if (gi == ng) {
            struct app_group *ngp = realloc(g, (ng + 1) * sizeof *ngp);
            if (!ngp)
                goto oom;
            g = ngp;
            memset(&g[ng], 0, sizeof g[ng]);
            snprintf(g[ng].bench, sizeof g[ng].bench, "%s", r->bench);
            snprintf(g[ng].label, sizeof g[ng].label, "%s", label);
            ng++;
        }
        struct app_group *grp = &g[gi];
        if (grp->n == grp->cap) {
            size_t cap = grp->cap ? 2 * grp->cap : 16;
            struct gb_camp_obs *no = realloc(grp->obs, cap * sizeof *no);
            if (!no)
                goto oom;
            grp->obs = no;
            double *nl = realloc(grp->lo, cap * sizeof *nl);
            if (!nl)
                goto oom;
            grp->lo = nl;
            double *nh = realloc(grp->hi, cap * sizeof *nh);
            if (!nh)
                goto oom;
            grp->hi = nh;
            grp->cap = cap;
        }
        struct gb_camp_obs *o = &grp->obs[grp->n];
        memset(o, 0, sizeof *o);
        o->warps = gb_record_metric(r, "active_warps", NAN);
        if (!(o->warps > 0))
            o->warps = gb_record_axis_num(r, "warps", NAN);
        o->time_ns = r->median_ns;
        int any = 0;
        for (int c = 0; c < GB_CAMP_N_WIDTHS; c++) {
            char name[32];
            snprintf(name, sizeof name, "ld_req_%d", gb_camp_class_width(c));
            double v = gb_record_metric(r, name, NAN);
            any |= !isnan(v);
            o->counts.ld[c] = isfinite(v) ? v : 0;
            snprintf(name, sizeof name, "st_req_%d", gb_camp_class_width(c));
            v = gb_record_metric(r, name, NAN);
            any |= !isnan(v);
            o->counts.st[c] = isfinite(v) ? v : 0;
        }
        if (!any || !(o->warps > 0) || !(o->time_ns > 0)) {
            for (size_t k = 0; k < ng; k++) {
                free(g[k].obs);
                free(g[k].lo);
                free(g[k].hi);
            }
            free(g);
            return gb_error_set(GB_ERR_FORMAT, "%s: the %s/%s record lacks %s", run->dir,
                                GB_CAMP_SUITE, r->bench,
                                !any ? "the ld_req_<width> and st_req_<width> metrics"
                                     : "its active warps or its time");
        }
        grp->lo[grp->n] = r->ci_lo_ns;
        grp->hi[grp->n] = r->ci_hi_ns;
        grp->n++;
    }
    /* Sort each group by warps, keeping the CIs beside their points. */
    for (size_t gi = 0; gi < ng; gi++) {
        struct app_group *grp = &g[gi];
        for (size_t i = 1; i < grp->n; i++)
            for (size_t j = i; j > 0 && cmp_obs(&grp->obs[j - 1], &grp->obs[j]) > 0; j--) {
                struct gb_camp_obs to = grp->obs[j];
                grp->obs[j] = grp->obs[j - 1];
                grp->obs[j - 1] = to;
                double tl = grp->lo[j], th = grp->hi[j];
                grp->lo[j] = grp->lo[j - 1];
                grp->hi[j] = grp->hi[j - 1];
                grp->lo[j - 1] = tl;
                grp->hi[j - 1] = th;
            }
    }
    *out = g;
    *n_out = ng;
    return GB_OK;
oom:
    for (size_t k = 0; k < ng; k++) {
        free(g[k].obs);
        free(g[k].lo);
        free(g[k].hi);
    }
    free(g);
    return gb_error_set(GB_ERR_NOMEM, "out of host memory");
}

static int camp_validate(int argc, char **argv)
{
    static const struct option longopts[] = {
        {"model", required_argument, NULL, 'm'},
        {"out", required_argument, NULL, 'o'},
        {"format", required_argument, NULL, 'f'},
        {NULL, 0, NULL, 0}};
    const char *model_path = NULL, *out = NULL, *dir;
    char default_out[4300];
    enum gb_format fmt = GB_FORMAT_TABLE;
    struct gb_camp_model *m = NULL;
    struct gb_run *run = NULL;
    struct app_group *apps = NULL;
    size_t n_apps = 0;
    struct gb_table *t = NULL;
    struct gb_report_result res;
    enum gb_status st = GB_OK;
    int c, rc = GB_EXIT_OK;

    gb_report_result_init(&res);
    gb_cli_getopt_reset();
    while ((c = getopt_long(argc, argv, ":", longopts, NULL)) != -1) {
        switch (c) {
        case 'm': model_path = optarg; break;
        case 'o': out = optarg; break;
        case 'f':
            if (gb_format_parse(optarg, &fmt) != GB_OK)
                return gb_cli_usage(CMD, "validate: --format: %s", gb_error_message());
            break;
        case ':': return gb_cli_usage(CMD, "validate: %s needs a value", argv[optind - 1]);
        default: return gb_cli_usage(CMD, "validate: unknown option '%s'", argv[optind - 1]);
        }
    }
    if (!model_path)
        return gb_cli_usage(CMD, "validate: --model is required (a model written by 'camp fit')");
    if (argc - optind != 1)
        return argc == optind ? gb_cli_usage(CMD, "validate: expected a RUN_DIR")
                              : gb_cli_usage(CMD, "validate: expected one RUN_DIR, not %d "
                                             "arguments", argc - optind);
    dir = argv[optind];
    if (!dir[0] || (out && !out[0]))
        return gb_cli_usage(CMD, "validate: an empty directory name");
    if (!out) {
        path_in(default_out, sizeof default_out, dir, "campprof-validate");
        out = default_out;
    }
    if (!(m = calloc(1, sizeof *m))) {
        rc = gb_cli_fail(gb_error_set(GB_ERR_NOMEM, "out of host memory"), "camp validate", NULL);
        goto done;
    }
    if ((st = gb_camp_model_load(model_path, m)) != GB_OK) {
        rc = gb_cli_fail(st, "camp validate", "give a model written by 'gpubound camp fit'");
        goto done;
    }
    if ((st = gb_run_load(dir, &run)) != GB_OK) {
        rc = gb_cli_fail(st, "camp validate",
                         "give the directory of a run recorded by 'gpubound run camping'");
        goto done;
    }
    if ((st = collect_apps(run, &apps, &n_apps)) != GB_OK) {
        rc = gb_cli_fail(st, "camp validate", NULL);
        goto done;
    }
    if (n_apps == 0) {
        gb_error_set(GB_ERR_FORMAT, "%s has no measured validation records (%s/gem, clique, "
                     "transpose_coalesced, transpose_diagonal)", dir, GB_CAMP_SUITE);
        rc = gb_cli_fail(GB_ERR_FORMAT, "camp validate",
                         "record them with 'gpubound run camping'");
        goto done;
    }
    if (!(t = gb_table_new())) {
        rc = gb_cli_fail(gb_error_set(GB_ERR_NOMEM, "out of memory"), "camp validate", NULL);
        goto done;
    }
    if ((st = gb_table_column(t, "application", NULL)) ||
        (st = gb_table_column(t, "configurations", NULL)) ||
        (st = gb_table_column(t, "best bound error", "%")) ||
        (st = gb_table_column(t, "worst bound error", "%")) ||
        (st = gb_table_column(t, "application line error", "%")) ||
        (st = gb_table_column(t, "degree (median)", NULL)) ||
        (st = gb_table_column(t, "degree min", NULL)) ||
        (st = gb_table_column(t, "degree max", NULL)))
        goto table_fail;
    if (gb_mkdir_p(out) != GB_OK) {
        st = gb_error_set(GB_ERR_IO, "cannot create %s: %s", out, strerror(errno));
        rc = gb_cli_fail(st, "camp validate", NULL);
        goto done;
    }
    for (size_t a = 0; a < n_apps; a++) {
        struct app_group *g = &apps[a];
        struct gb_camp_validation v;
        if ((st = gb_camp_validate(m, g->obs, g->n, &v)) != GB_OK) {
            char what[200];
            snprintf(what, sizeof what, "camp validate: %s", g->label);
            rc = gb_cli_fail(st, what, NULL);
            goto done;
        }
        double vary = 0;
        for (size_t i = 1; i < g->n; i++)
            for (int k = 0; k < GB_CAMP_N_WIDTHS; k++) {
                double c0[2] = {g->obs[0].counts.ld[k], g->obs[0].counts.st[k]};
                double ci[2] = {g->obs[i].counts.ld[k], g->obs[i].counts.st[k]};
                for (int q = 0; q < 2; q++)
                    if (c0[q] > 0 || ci[q] > 0)
                        vary = fmax(vary, fabs(c0[q] - ci[q]) / fmax(c0[q], ci[q]));
            }
        if (vary > 0.01)
            fprintf(stderr, "note: %s: the instruction counts differ by up to %.1f%% between "
                            "configurations; each configuration's band uses its own counts\n",
                    g->label, 100 * vary);
        if ((st = gb_table_row(t)) || (st = gb_table_cell_text(t, g->label)) ||
            (st = gb_table_cell_int(t, (long long)g->n)) ||
            (st = gb_table_cell_num(t, 100 * v.gm_best, 3)) ||
            (st = gb_table_cell_num(t, 100 * v.gm_worst, 3)) ||
            (st = gb_table_cell_num(t, 100 * v.gm_app, 3)) ||
            (st = gb_table_cell_num(t, v.degree_median, 3)) ||
            (st = gb_table_cell_num(t, v.degree_min, 3)) ||
            (st = gb_table_cell_num(t, v.degree_max, 3)))
            goto table_fail;

        /* The chart: the band with the counts of the middle configuration,
         * the application line extrapolated from it, and every measurement. */
        size_t s = g->n / 2;
        int *w = malloc(g->n * sizeof *w);
        double *meas = malloc(g->n * sizeof *meas);
        struct gb_camp_row *rows = malloc(g->n * sizeof *rows);
        double degree;
        if (!w || !meas || !rows) {
            free(w);
            free(meas);
            free(rows);
            rc = gb_cli_fail(gb_error_set(GB_ERR_NOMEM, "out of memory"), "camp validate", NULL);
            goto done;
        }
        for (size_t i = 0; i < g->n; i++) {
            w[i] = (int)lround(g->obs[i].warps);
            meas[i] = g->obs[i].time_ns;
        }
        /* As gb_camp_validate does: each point's band from its own counts,
         * the line at the start's degree. */
        double b0, w0;
        st = gb_camp_bounds(m, &g->obs[s].counts, g->obs[s].warps, &b0, &w0);
        degree = gb_camp_degree(b0, w0, g->obs[s].time_ns);
        for (size_t i = 0; i < g->n && st == GB_OK; i++) {
            rows[i].warps = w[i];
            st = gb_camp_bounds(m, &g->obs[i].counts, g->obs[i].warps, &rows[i].best_ns,
                                &rows[i].worst_ns);
            rows[i].app_ns = gb_camp_extrapolate(rows[i].best_ns, rows[i].worst_ns, degree);
        }
        if (st == GB_OK) {
            char name[128], title[256], sub[256], star[96];
            const char *pretty = g->bench;
            for (size_t k = 0; k < GB_N_APPS; k++)
                if (strcmp(g->bench, gb_apps[k].bench) == 0)
                    pretty = gb_apps[k].label;
            snprintf(name, sizeof name, "campprof-%s", g->label);
            for (char *p = name; *p; p++)
                if (!strchr("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._-", *p))
                    *p = '_';
            snprintf(title, sizeof title, "CampProf validation: %s%s", pretty,
                     strcmp(g->label, g->bench) ? g->label + strlen(g->bench) : "");
            snprintf(sub, sizeof sub, "line from %g warps, degree %.3g; error %.3g%% over all "
                     "starts", g->obs[s].warps, degree, 100 * v.gm_app);
            snprintf(star, sizeof star, "start (%g warps)", g->obs[s].warps);
            st = draw_band(out, name, title, sub, rows, g->n, g->obs[s].warps,
                           g->obs[s].time_ns, meas, g->lo, g->hi, star, &res);
        }
        free(w);
        free(meas);
        free(rows);
        if (st != GB_OK) {
            report_files(&res);
            rc = gb_cli_fail(st, "camp validate: chart", NULL);
            goto done;
        }
    }
    {
        /* The table beside the charts, so that a recorded validation keeps
         * its figures: written aside and renamed, never half-written. */
        char csv[4400], tmp[4500];
        path_in(csv, sizeof csv, out, "validation.csv");
        snprintf(tmp, sizeof tmp, "%s.tmp", csv);
        FILE *f = fopen(tmp, "w");
        int bad = !f || gb_table_print(t, f, GB_FORMAT_CSV, 0) != GB_OK;
        if (f && fclose(f) != 0)
            bad = 1;
        if (bad || rename(tmp, csv) != 0) {
            st = gb_error_set(GB_ERR_IO, "cannot write %s: %s", csv, strerror(errno));
            remove(tmp);
            report_files(&res);
            rc = gb_cli_fail(st, "camp validate", NULL);
            goto done;
        }
        fprintf(stderr, "wrote %s\n", csv);
    }
    if ((st = gb_table_print(t, stdout, fmt, fmt == GB_FORMAT_TABLE ? gb_term_width(stdout) : 0)))
        goto table_fail;
    if (fmt == GB_FORMAT_TABLE)
        printf("\nErrors are geometric means of |predicted - measured| / measured over every "
               "starting\nconfiguration (the application line leaves out the start itself). The "
               "paper's, on a\nGTX 280: best bound 11.7%% (GEM), application line 9.3%% "
               "(clique counter).\n");
    report_files(&res);
    goto done;
table_fail:
    rc = gb_cli_fail(st, "camp validate", NULL);
done:
    for (size_t a = 0; a < n_apps; a++) {
        free(apps[a].obs);
        free(apps[a].lo);
        free(apps[a].hi);
    }
    free(apps);
    gb_table_free(t);
    gb_run_free(run);
    free(m);
    gb_report_result_release(&res);
    return rc;
}

int gb_cmd_camp(int argc, char **argv)
{
    if (argc < 2)
        return gb_cli_usage(CMD, "expected a subcommand: fit, predict or validate");
    if (strcmp(argv[1], "fit") == 0)
        return camp_fit(argc - 1, argv + 1);
    if (strcmp(argv[1], "predict") == 0)
        return camp_predict(argc - 1, argv + 1);
    if (strcmp(argv[1], "validate") == 0)
        return camp_validate(argc - 1, argv + 1);
    return gb_cli_usage(CMD, "unknown subcommand '%s' (fit, predict or validate)", argv[1]);
}
