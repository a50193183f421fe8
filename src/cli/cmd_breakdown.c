/* cmd_breakdown.c - `gpubound breakdown RUN`: the Linear Performance-
 * Breakdown Model fitted to a recorded kernel-spec run (no GPU needed).
 * Parses, calls src/models/lpbm/ and src/report/breakdown_chart.c,
 * prints. */
#include <getopt.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/cli.h"
#include "gpubound/bench_inflight.h"
#include "gpubound/breakdown_chart.h"
#include "gpubound/lpbm_run.h"
#include "gpubound/table.h"
#include "util/fs.h"
#include "util/stage.h"

#define CMD "breakdown"
/* A bench whose fit the model does not explain (the honesty rule): the
 * outputs are written, and the exit says so. */
#define BD_EXIT_UNEXPLAINED 4

#define BD_MAX_CEILINGS 4
#define BD_MAX_PREDICT 16

struct bd_opts {
    const char *out, *on;
    const char *ceilings[BD_MAX_CEILINGS];  /* --ceilings, matched to runs by device name */
    int n_ceilings;
    const char *predict[BD_MAX_PREDICT];    /* --predict AXIS=V[,AXIS=V...] */
    int n_predict;
    struct gb_lpbm_fit_opts fit;  /* --spec, --bench, --form, --weight, --intercept, --average, --holdout */
    int explain, force, no_chart;
    enum gb_format fmt;
    enum gb_status print_st;      /* the first model that could not be printed */
};

struct bd_state {
    struct gb_run *run;
    struct gb_lpbm_fit_result fit;  /* the driver's inputs and models */
    char out_dir[GB_PATH_MAX];
    struct gb_stage stage;          /* the model and charts, moved into out_dir together */
    struct gb_report_result res;    /* the charts drawn */
    int out_given, fmt_table;       /* --out given; the table format */
    struct gb_ceilings roofs;       /* the fitted run's roofs (--ceilings of its GPU) */
    struct gb_run *on_run;          /* --on */
    struct gb_ceilings on_roofs;    /* its roofs */
    struct gb_inflight_reader *reader, *on_reader; /* the runs' loads in flight (round trips) */
};

/* The roofs of `run`'s GPU into *c from the --ceilings run measured on it;
 * *found 0 when none was given (the guide's figures stand in). */
static enum gb_status bd_roofs_for(const struct bd_opts *o, const struct gb_run *run,
                                   struct gb_ceilings *c, int *found)
{
    enum gb_status st = GB_OK;
    *found = 0;
    for (int k = 0; k < o->n_ceilings && st == GB_OK && !*found; k++) {
        struct gb_run *cr = NULL;
        if ((st = gb_cli_load_run(o->ceilings[k], &cr)) != GB_OK)
            break;
        if (!run->info.has_device || !cr->info.has_device ||
            strcmp(run->info.device.name, cr->info.device.name) == 0) {
            st = gb_ceilings_from_run(cr, c);
            *found = 1;
        }
        gb_run_free(cr);
    }
    if (st == GB_OK && !*found && o->n_ceilings)
        st = gb_error_set(GB_ERR_USAGE, "no --ceilings run was measured on %s (the GPU of %s): "
                          "the roofs of one GPU do not bound another; record `gpubound run ceilings` "
                          "there", run->info.has_device ? run->info.device.name : "an unnamed device",
                          run->dir);
    return st;
}

static int bd_parse(int argc, char **argv, struct bd_opts *o, const char **dir)
{
    static const struct option longopts[] = {
        {"bench", required_argument, NULL, 'b'},   {"holdout", required_argument, NULL, 'H'},
        {"explain", no_argument, NULL, 'e'},       {"form", required_argument, NULL, 'F'},
        {"out", required_argument, NULL, 'o'},     {"format", required_argument, NULL, 'f'},
        {"spec", required_argument, NULL, 's'},    {"weight", required_argument, NULL, 'w'},
        {"force", no_argument, NULL, 'X'},         {"no-chart", no_argument, NULL, 'n'},
        {"intercept", no_argument, NULL, 'I'},     {"ceilings", required_argument, NULL, 'C'},
        {"on", required_argument, NULL, 'O'},      {"predict", required_argument, NULL, 'P'},
        {"average", no_argument, NULL, 'A'},       {NULL, 0, NULL, 0}};
    int c;
    memset(o, 0, sizeof *o);
    o->fit.form = -1;
    if ((c = gb_cli_options_once(CMD, argc, argv, ":", longopts, "--predict... --ceilings...")) >= 0)
        return c;
    gb_cli_getopt_reset();
    while ((c = getopt_long(argc, argv, ":", longopts, NULL)) != -1) {
        switch (c) {
        case 'b': o->fit.bench = optarg; break;
        case 'o': o->out = optarg; break;
        case 's': o->fit.spec = optarg; break;
        case 'e': o->explain = 1; break;
        case 'X': o->force = 1; break;
        case 'n': o->no_chart = 1; break;
        case 'I': o->fit.intercept = 1; break;
        case 'A': o->fit.average = 1; break;
        case 'O': o->on = optarg; break;
        case 'P':
            if (o->n_predict == BD_MAX_PREDICT)
                return gb_cli_usage(CMD, "--predict is given at most %d times", BD_MAX_PREDICT);
            if (gb_lpbm_predict_syntax(optarg) != GB_OK)
                return gb_cli_usage(CMD, "%s", gb_error_message());
            o->predict[o->n_predict++] = optarg;
            break;
        case 'C':
            if (o->n_ceilings == BD_MAX_CEILINGS)
                return gb_cli_usage(CMD, "--ceilings is given at most %d times", BD_MAX_CEILINGS);
            o->ceilings[o->n_ceilings++] = optarg;
            break;
        case 'H':
            if (gb_lpbm_holdout_parse(optarg, &o->fit.holdout) != GB_OK)
                return gb_cli_usage(CMD, "%s", gb_error_message());
            break;
        case 'F':
            if (strcmp(optarg, "formula") && strcmp(optarg, "counters") && strcmp(optarg, "resources"))
                return gb_cli_usage(CMD, "--form takes formula, counters or resources, not '%s'",
                                    optarg);
            o->fit.form = !strcmp(optarg, "formula")    ? GB_LPBM_FORMULA
                          : !strcmp(optarg, "counters") ? GB_LPBM_COUNTERS
                                                        : GB_LPBM_RESOURCES;
            break;
        case 'w':
            if (strcmp(optarg, "relative") && strcmp(optarg, "none"))
                return gb_cli_usage(CMD, "--weight takes relative or none, not '%s'", optarg);
            o->fit.weight = strcmp(optarg, "none") ? GB_LPBM_RELATIVE : GB_LPBM_PLAIN;
            break;
        case 'f':
            if (gb_format_parse(optarg, &o->fmt) != GB_OK)
                return gb_cli_usage(CMD, "--format: %s", gb_error_message());
            break;
        case ':': return gb_cli_usage(CMD, "%s needs a value", argv[optind - 1]);
        default: return gb_cli_usage(CMD, "unknown option '%s'", argv[optind - 1]);
        }
    }
    if (argc - optind != 1)
        return gb_cli_usage(CMD, argc == optind ? "expected a RUN directory"
                                                : "expected one RUN directory");
    *dir = argv[optind];
    return -1;
}

/* ---- --explain ---- */

/* The defines the source's directives read, from the first parse's key
 * ("a=1;b=2;"), and how many variants were parsed apart. */
static void bd_explain_variants(const struct gb_lpbm_input *in)
{
    char names[512] = "";
    size_t len = 0;
    for (const char *k = in->variant_key0; *k && len < sizeof names;) {
        size_t n = strcspn(k, "=");
        len += (size_t)snprintf(names + len, sizeof names - len, "%s%.*s", len ? ", " : "", (int)n, k);
        k += strcspn(k, ";");
        k += *k == ';';
    }
    printf("  its #if directives read %s: each configuration's counts below are those of its own "
           "preprocessed source (%d variant%s besides the one listed %s parsed)%s\n", names,
           in->n_variants, in->n_variants == 1 ? "" : "s", in->n_variants == 1 ? "was" : "were",
           in->variants_capped ? "; configurations past the last variant kept take the listed "
                                 "variant's counts" : "");
}

/* Where an atomic is counted: per thread, or per block times blockDim
 * over the dimensions its branches do not hold at 0 (zero_dims). */
static const char *atomic_scope(unsigned zero_dims)
{
    static const char *const scope[8] = {
        "thread", "block x blockDim.y x blockDim.z", "block x blockDim.x x blockDim.z",
        "block x blockDim.z", "block x blockDim.x x blockDim.y", "block x blockDim.y",
        "block x blockDim.x", "block"};
    return scope[zero_dims & 7];
}

static void bd_explain(const struct gb_lpbm_input *in)
{
    const struct gb_kernel_analysis *a = &in->analysis;
    printf("\nKernel %s in %s (parsed with %s)\n", in->kernel, in->source, in->defines);
    if (in->n_variants > 0)
        bd_explain_variants(in);
    if (!in->analysed) {
        printf("  the source was not analysed: %s\n", in->analysis_why);
    } else {
        printf("  loops:\n");
        for (size_t i = 0; i < a->n_loops; i++)
            printf("    line %d, depth %d: %s%s\n      trips: %s\n", a->loops[i].at.line,
                   a->loops[i].depth, a->loops[i].header,
                   a->loops[i].unrolled ? " (unrolled)" : "",
                   a->loops[i].trips[0] ? a->loops[i].trips : a->loops[i].why);
        printf("  memory accesses (per thread: count x loads+stores):\n");
        for (size_t i = 0; i < a->n_acc; i++) {
            const struct gb_kaccess *x = &a->acc[i];
            printf("    line %d, %s %s %s (%d B, %s): %s\n", x->at.line,
                   x->space == GB_KSPACE_GLOBAL ? "global" : "shared",
                   x->loads && x->stores ? "load+store" : x->stores ? "store" : "load", x->text,
                   x->elem_bytes, x->array, x->at.decided ? x->at.count : "undecided");
            if (x->vector[0])
                printf("      one access takes %s elements (a vector access)\n", x->vector);
        }
        printf("  floating-point operations (per thread):\n");
        for (size_t i = 0; i < a->n_ops; i++)
            printf("    line %d, %s x%d: %s\n", a->ops[i].at.line, a->ops[i].text, a->ops[i].n,
                   a->ops[i].at.decided ? a->ops[i].at.count : "undecided");
        printf("  atomic operations (per thread, or per block under branches that hold thread indices at 0):\n");
        for (size_t i = 0; i < a->n_atomics; i++)
            printf("    line %d, %s, per %s: %s\n", a->atomics[i].at.line, a->atomics[i].text,
                   atomic_scope(a->atomics[i].zero_dims),
                   a->atomics[i].at.decided ? a->atomics[i].at.count : "undecided");
        printf("  barriers (per thread):\n");
        for (size_t i = 0; i < a->n_barriers; i++)
            printf("    line %d, %s: %s\n", a->barriers[i].at.line, a->barriers[i].text,
                   a->barriers[i].at.decided ? a->barriers[i].at.count : "undecided");
        for (size_t i = 0; i < a->n_notes; i++)
            printf("  note: %s\n", a->notes[i]);
        if (in->analysis_why[0])
            printf("  undecided: %s\n", in->analysis_why);
    }
    printf("  counts used: %s\n", in->sources);
    printf("  per configuration (per thread: the thread with the most work; CL = warps in the "
           "launch / warps resident):\n");
    for (size_t i = 0; i < in->n; i++) {
        struct gb_lpbm_point q = in->pts[i];
        const struct gb_lpbm_point *p = &q;
        if (gb_lpbm_predictors(&q, GB_LPBM_FORMULA) != GB_OK)
            gb_error_clear();
        printf("    %s%s%s: ops %g, global bytes %g, shared accesses %g, barriers %g, %g x %g "
               "threads, %g warps/SM resident, CL %.4g, atomics in the launch %g\n", p->config,
               p->problem[0] ? ", " : "", p->problem, p->ops, p->global_bytes, p->shared_accesses,
               p->barriers, p->grid_blocks, p->block_threads, p->active_warps_per_sm, p->cl,
               p->atomics);
    }
}

/* ---- printing a model ---- */

/* Whether term j was left out of fit f as implausible with its floor from
 * the fitted points still under every prediction (not at its roof): the
 * launch line's. */
static int bd_floor_kept(const struct gb_lpbm_fit *f, int j)
{
    return (f->dropped >> j & 1) && !(f->at_roof >> j & 1) && f->floor[j] > 0;
}

/* Why term j has no fitted coefficient, and what predictions take for it. */
static const char *bd_absent(const struct gb_lpbm_fit *f, int j)
{
    int roof = f->at_roof >> j & 1, dropped = f->dropped >> j & 1;
    return roof && dropped          ? "left out (implausible): a floor at its roof"
           : roof                   ? "no work fitted: a floor at its roof"
           : bd_floor_kept(f, j)    ? "left out (implausible): its floor kept"
           : dropped                ? "left out (implausible)"
                                    : "absent";
}

/* The unit of term j's coefficient in the resources form: a multiple of
 * the time its work takes at the roof (or on the launch line), else ns per
 * unit of its count ("round trips": "ns per round trip"; a roof term whose
 * roof the fit had not: "ns per byte"). */
static void bd_coef_unit(const struct gb_lpbm_bench_model *m, int j, char *buf, size_t n)
{
    const char *u = gb_lpbm_term_info((enum gb_lpbm_term)j)->unit;
    const char *bare = m->fit.n ? gb_lpbm_term_bare_unit(&m->pts[0], (enum gb_lpbm_term)j) : NULL;
    size_t len = strlen(u);
    if (j == GB_LPBM_LAUNCH)
        snprintf(buf, n, "x the launch line");
    else if (bare)
        snprintf(buf, n, "ns per %s (no roof)", bare);
    else if (strstr(u, "ns at the roof"))
        snprintf(buf, n, "x its time at the roof");
    else
        snprintf(buf, n, "ns per %.*s", (int)(len && u[len - 1] == 's' ? len - 1 : len), u);
}

/* Whether a fitted roof term of `m` had no roof (its count stood for itself). */
static int bd_any_bare(const struct gb_lpbm_bench_model *m)
{
    for (int j = 0; m->fit.n && j < GB_LPBM_TERMS; j++)
        if (gb_lpbm_model_has(m, (enum gb_lpbm_term)j) && m->fit.present[j] &&
            gb_lpbm_term_bare_unit(&m->pts[0], (enum gb_lpbm_term)j))
            return 1;
    return 0;
}

static enum gb_status bd_coef_table(const struct gb_lpbm_bench_model *m)
{
    const int left_out = gb_lpbm_left_out(&m->fit);
    enum gb_status st;
    struct gb_table *t = gb_table_new();
    if (!t)
        return gb_error_set(GB_ERR_NOMEM, "out of memory");
    const int res = m->form == GB_LPBM_RESOURCES;
    if ((st = gb_table_column(t, "term", NULL)) || (st = gb_table_column(t, "coefficient", res ? NULL : "ns")) ||
        (st = gb_table_column(t, "95% CI low", res ? NULL : "ns")) ||
        (st = gb_table_column(t, "95% CI high", res ? NULL : "ns")) ||
        (res && (st = gb_table_column(t, "unit", NULL))) || (res && (st = gb_table_column(t, "floor", NULL))))
        goto out;
    for (int j = 0; j < GB_LPBM_TERMS; j++) {
        if (!gb_lpbm_model_has(m, (enum gb_lpbm_term)j))
            continue;
        if ((st = gb_table_row(t)) ||
            (st = gb_table_cell_text(t, gb_lpbm_term_name((enum gb_lpbm_term)j))))
            goto out;
        if (!m->fit.present[j] || j == left_out) {
            if ((st = gb_table_cell_text(t, j == left_out ? "left out of this fit (others averaged have it)"
                                                          : bd_absent(&m->fit, j))) ||
                (st = gb_table_cell_empty(t)) || (st = gb_table_cell_empty(t)))
                goto out;
        } else if ((st = gb_table_cell_num(t, m->fit.coef[j], 4)) ||
                   (st = gb_table_cell_num(t, m->fit.ci_lo[j], 3)) ||
                   (st = gb_table_cell_num(t, m->fit.ci_hi[j], 3))) {
            goto out;
        }
        char unit[64];
        bd_coef_unit(m, j, unit, sizeof unit);
        if (res && ((st = gb_table_cell_text(t, unit)) != GB_OK ||
                    (st = (m->fit.floor[j] > 0 && m->fit.present[j]) || bd_floor_kept(&m->fit, j)
                              ? gb_table_cell_num(t, m->fit.floor[j], 3)
                              : gb_table_cell_empty(t)) != GB_OK))
            goto out;
    }
    st = gb_table_print(t, stdout, GB_FORMAT_TABLE, gb_term_width(stdout));
out:
    gb_table_free(t);
    return st;
}

static enum gb_status bd_row(struct gb_table *t, const struct gb_lpbm_bench_model *m, size_t i,
                             int machine, const int *cols)
{
    const struct gb_lpbm_point *p = &m->pts[i];
    double terms[GB_LPBM_TERMS];
    double pred = gb_lpbm_predict(&m->fit, p, terms);
    enum gb_status st;
    if ((st = gb_table_row(t)))
        return st;
    if (machine && ((st = gb_table_cell_text(t, m->bench)) ||
                    (st = gb_table_cell_text(t, gb_lpbm_form_name(m->form)))))
        return st;
    if ((st = gb_table_cell_text(t, p->config)) || (st = gb_table_cell_text(t, p->problem)) ||
        (st = gb_table_cell_num(t, p->time_ns / 1e3, 4)) ||
        (st = gb_table_cell_num(t, p->ci_lo_ns / 1e3, 4)) ||
        (st = gb_table_cell_num(t, p->ci_hi_ns / 1e3, 4)) ||
        (st = gb_table_cell_num(t, pred / 1e3, 4)))
        return st;
    for (int j = 0; j < GB_LPBM_TERMS; j++)
        if (cols[j] && (st = gb_table_cell_num(t, pred > 0 && gb_lpbm_model_has(m, (enum gb_lpbm_term)j)
                                                      ? 100 * terms[j] / pred : NAN, 3)))
            return st;
    double rel = m->held.rel ? m->held.rel[i] : NAN;
    if (!isfinite(rel))
        return (st = gb_table_cell_empty(t)) != GB_OK ? st : gb_table_cell_empty(t);
    if ((st = gb_table_cell_num(t, gb_lpbm_heldout_ns(m, i) / 1e3, 4)) != GB_OK)
        return st;
    return gb_table_cell_num(t, 100 * rel, 3);
}

static enum gb_status bd_breakdown_table(const struct gb_lpbm_bench_model *m, size_t n_models,
                                         enum gb_format fmt)
{
    enum gb_status st = GB_OK;
    int machine = fmt != GB_FORMAT_TABLE;
    struct gb_table *t = gb_table_new();
    static const char *const cols[][2] = {
        {"config", NULL},        {"problem", NULL}, {"measured", "us"}, {"CI low", "us"},
        {"CI high", "us"},       {"predicted", "us"}};
    int has[GB_LPBM_TERMS] = {0};
    if (!t)
        return gb_error_set(GB_ERR_NOMEM, "out of memory");
    /* a column for each term any of the models has */
    for (size_t k = 0; k < n_models; k++)
        for (int j = 0; j < GB_LPBM_TERMS; j++)
            has[j] |= gb_lpbm_model_has(&m[k], (enum gb_lpbm_term)j);
    if (machine && ((st = gb_table_column(t, "bench", NULL)) || (st = gb_table_column(t, "form", NULL))))
        goto out;
    for (size_t c = 0; c < sizeof cols / sizeof cols[0] && st == GB_OK; c++)
        st = gb_table_column(t, cols[c][0], cols[c][1]);
    for (int j = 0; j < GB_LPBM_TERMS && st == GB_OK; j++)
        if (has[j])
            st = gb_table_column(t, gb_lpbm_term_name((enum gb_lpbm_term)j), "%");
    if (st == GB_OK && (st = gb_table_column(t, "held-out prediction", "us")) == GB_OK)
        st = gb_table_column(t, "held-out error", "%");
    for (size_t k = 0; k < n_models && st == GB_OK; k++)
        for (size_t i = 0; i < m[k].fit.n && st == GB_OK; i++)
            st = bd_row(t, &m[k], i, machine, has);
    if (st == GB_OK)
        st = gb_table_print(t, stdout, fmt, gb_term_width(stdout));
out:
    gb_table_free(t);
    return st;
}

static void bd_split_name(const struct gb_lpbm_holdout *h, char *buf, size_t n)
{
    if (h->kind == GB_LPBM_LOO)
        snprintf(buf, n, "leave-one-out");
    else if (h->kind == GB_LPBM_EVERY)
        snprintf(buf, n, "every %d-th configuration held out", h->every);
    else
        snprintf(buf, n, "%s=%s held out", h->axis, h->value);
}

/* The fits a prediction averages: how many, and the heaviest three. */
static void bd_print_average(const struct gb_lpbm_fit *f)
{
    int order[GB_LPBM_ALTS];
    int n = gb_lpbm_average_order(f, order);
    if (n < 2)
        return;
    printf("predictions (the breakdown's times and shares, held out, --predict, --on) average the %d fits "
           "the points cannot tell apart, each overlap p with every term or with one fitted term left "
           "out, weighted exp(-BIC/2) (docs/models.md, 'Averaging the fits'); the heaviest:", n);
    for (int k = 0; k < n && k < 3; k++) {
        const struct gb_lpbm_alt *a = &f->alt[order[k]];
        printf("%s p = %g%s%s (%.0f%%)", k ? "," : "", a->overlap, a->left_out < 0 ? "" : " without ",
               a->left_out < 0 ? "" : gb_lpbm_term_name((enum gb_lpbm_term)a->left_out), 100 * a->weight);
    }
    printf("; the coefficients below are the heaviest's\n");
}

static enum gb_status bd_print_model(const struct gb_lpbm_bench_model *m)
{
    char split[128];
    enum gb_status st;
    bd_split_name(&m->holdout, split, sizeof split);
    char eq[512];
    size_t el = 0;
    int ov = m->fit.overlap > 1;
    for (int j = 0, a = 1; j < GB_LPBM_TERMS && el < sizeof eq; j++)
        if (gb_lpbm_model_has(m, (enum gb_lpbm_term)j))
            el += (size_t)snprintf(eq + el, sizeof eq - el, ov ? "%s(a%d*%s)^p" : "%sa%d*%s",
                                   a > 1 ? " + " : ov ? "(" : "", a,
                                   gb_lpbm_term_name((enum gb_lpbm_term)j)), a++;
    if (ov && el < sizeof eq)
        snprintf(eq + el, sizeof eq - el, ")^(1/p)");
    printf("\n%s/%s, %s form: t = %s, non-negative least squares on %zu configurations (%s weights)\n",
           m->suite, m->bench, gb_lpbm_form_name(m->form), eq, m->fit.n,
           m->weight == GB_LPBM_RELATIVE ? "1/t^2, relative" : "equal");
    if (m->form == GB_LPBM_RESOURCES)
        printf("overlap p = %g (of 1, 1.5, 2, 3, 4, 6, %s; 1 adds the terms, a "
               "larger p lets the largest set the time); each term but LAT, DLAT, SLAT, ILAT and SYNC "
               "is a time at the machine's roof (a coefficient of 1: the roof reached; 2: half of "
               "it); LAT's coefficient is ns per load round trip, DLAT's the ns a miss in L2 adds to "
               "one, SLAT's per sector a warp touches, ILAT's per dependent instruction, SYNC's per "
               "barrier stage; the floor of a roof term (and of the launch line) is the fastest any fitted "
               "configuration ran it (x its time at the roof, at most 1): no prediction puts that "
               "term's work under it%s\n",
               m->fit.overlap, m->fit.n_alt > 1 ? "the heaviest fit's, below" : "the one that fits best",
               bd_any_bare(m) ? "; a term with no roof (the unit column says 'no roof': give "
               "--ceilings RUN, a ceilings run of this GPU) is ns per unit of its count" : "");
    bd_print_average(&m->fit);
    printf("coefficients with 95%% residual-bootstrap intervals (%d replicates):\n", m->fit.boot);
    if ((st = bd_coef_table(m)) != GB_OK)
        return st;
    if (isnan(m->fit.r2))
        printf("R^2 undefined (every configuration took the same time), RMSE %.4g us, in-sample median "
               "|error| %.2f%%\n", m->fit.rmse_ns / 1e3, 100 * m->fit.median_abs_rel);
    else
        printf("R^2 %.4f, RMSE %.4g us, in-sample median |error| %.2f%%\n", m->fit.r2, m->fit.rmse_ns / 1e3,
               100 * m->fit.median_abs_rel);
    printf("held out (%s): %zu predicted from %zu, median |error| %.2f%%, worst %.2f%% (%s%s%s)\n",
           split, m->held.n_test, m->held.n_train, 100 * m->held.median_abs_rel,
           100 * m->held.max_abs_rel, m->pts[m->held.worst].config,
           m->pts[m->held.worst].problem[0] ? ", " : "", m->pts[m->held.worst].problem);
    if (m->held.n_interval)
        printf("held out: %zu of %zu measured times inside the 95%% interval the fitted "
               "configurations give them%s\n", m->held.n_inside, m->held.n_interval,
               m->held.n_no_across ? " (the fitted configurations hold one problem size: the interval "
               "is the fit's own spread and has no error across sizes in it, which one size cannot "
               "measure, and may be narrower than the error at another size)" : "");
    printf("predicted: by the fit on all %zu configurations; held-out prediction and error: by the "
           "fit without the configuration (%s)\n", m->fit.n, split);
    if ((st = bd_breakdown_table(m, 1, GB_FORMAT_TABLE)) != GB_OK)
        return st;
    printf("%s/%s: %s\n", m->suite, m->bench, m->dominant);
    if (m->note[0])
        printf("%s/%s: note from the spec: %s\n", m->suite, m->bench, m->note);
    return GB_OK;
}

/* ---- the command ---- */

static void bd_on_input(void *ctx, const struct gb_lpbm_input *in)
{
    const struct bd_opts *o = ctx;
    if (o->explain && o->fmt == GB_FORMAT_TABLE)
        bd_explain(in);
}

/* A model as it is fitted, in the terminal's format. */
static void bd_on_model(void *ctx, const struct gb_lpbm_bench_model *m)
{
    struct bd_opts *o = ctx;
    if (o->fmt == GB_FORMAT_TABLE && o->print_st == GB_OK)
        o->print_st = bd_print_model(m);
}

static enum gb_status bd_charts(struct bd_state *s)
{
    enum gb_status st = GB_OK;
    char stem[160], sub[512];
    for (size_t k = 0; k < s->fit.n_models && st == GB_OK; k++) {
        const struct gb_lpbm_bench_model *m = &s->fit.models[k];
        snprintf(stem, sizeof stem, "breakdown-%s-%s%s", m->suite, m->bench,
                 m->form == GB_LPBM_COUNTERS ? "-counters" : "");
        /* the resources form is fitted alone: its charts keep the plain name */
        char r2[32] = "undefined";
        if (!isnan(m->fit.r2))
            snprintf(r2, sizeof r2, "%.3f", m->fit.r2);
        snprintf(sub, sizeof sub, "%s; R^2 %s, held-out median |error| %.1f%%",
                 s->run->info.has_device ? s->run->info.device.name : "unnamed device", r2,
                 100 * m->held.median_abs_rel);
        st = gb_breakdown_chart_draw(m, s->stage.tmp, stem, sub, 0, &s->res);
    }
    return st;
}

/* What the committed stage put in place, and the charts left undrawn. */
static void bd_written(const struct bd_state *s)
{
    fprintf(stderr, "wrote %s/%s\n", s->out_dir, GB_LPBM_MODEL_FILE);
    /* the directory made for them is said with the results (the machine
     * formats keep stdout to their table) */
    if (!s->out_given)
        fprintf(s->fmt_table ? stdout : stderr, "output: %s (a new directory; name one with --out)\n",
                s->out_dir);
    gb_cli_print_written(&s->stage, &s->res);
    if (s->res.n_not_drawn)
        fprintf(stderr, "not drawn: %zu charts (gnuplot was not found in PATH; install it with "
                        "apt-get install gnuplot-nox)\n", s->res.n_not_drawn);
}

/* How a prediction's counts and interval were had, in words. */
static void bd_predict_how(const struct gb_lpbm_prediction *p, char *how, size_t n)
{
    size_t len;
    if (p->measured) {
        snprintf(how, n, "measured: %.4g us", p->measured_ns / 1e3);
        return;
    }
    if (p->counts_modelled)
        len = (size_t)snprintf(how, n, "not measured; counters modelled (spread %.0f%%): less certain",
                               100 * (exp(p->count_spread) - 1));
    else
        len = (size_t)snprintf(how, n, "not measured; counts from the analysis");
    if (!p->new_problem || len >= n)
        return;
    if (isfinite(p->across))
        snprintf(how + len, n - len, "; a problem size not fitted: interval widened by the fit's own "
                 "error across its sizes (x/%.3g)", exp(p->across));
    else
        snprintf(how + len, n - len, "; a problem size not fitted, and one fitted: no error across "
                 "sizes to widen the interval by");
}

/* One prediction's row. */
static enum gb_status bd_predict_row(struct gb_table *t, const struct gb_lpbm_bench_model *m,
                                     const struct gb_lpbm_prediction *p)
{
    char terms[512], how[256];
    size_t len = 0;
    terms[0] = '\0';
    for (int j = 0; j < GB_LPBM_TERMS && len < sizeof terms; j++)
        if (gb_lpbm_model_has(m, (enum gb_lpbm_term)j) && p->terms[j] > 0)
            len += (size_t)snprintf(terms + len, sizeof terms - len, "%s%s %.0f%%", len ? ", " : "",
                                    gb_lpbm_term_name((enum gb_lpbm_term)j),
                                    p->time_ns > 0 ? 100 * p->terms[j] / p->time_ns : 0);
    bd_predict_how(p, how, sizeof how);
    enum gb_status st;
    if ((st = gb_table_row(t)) || (st = gb_table_cell_text(t, m->bench)) ||
        (st = gb_table_cell_text(t, p->config)) || (st = gb_table_cell_text(t, p->problem)) ||
        (st = gb_table_cell_num(t, p->time_ns / 1e3, 4)) || (st = gb_table_cell_num(t, p->lo_ns / 1e3, 4)) ||
        (st = gb_table_cell_num(t, p->hi_ns / 1e3, 4)) || (st = gb_table_cell_text(t, how)))
        return st;
    return gb_table_cell_text(t, terms);
}

/* --predict: each configuration asked for, by every model whose bench has
 * its axes; one no model takes is a usage error. */
static enum gb_status bd_predict(const struct bd_opts *o, struct bd_state *s)
{
    enum gb_status st = GB_OK;
    struct gb_table *t = gb_table_new();
    struct gb_lpbm_prediction *p = malloc(sizeof *p);
    static const char *const cols[][2] = {{"bench", NULL}, {"config", NULL}, {"problem", NULL},
                                          {"predicted", "us"}, {"95% low", "us"}, {"95% high", "us"},
                                          {"counts", NULL}, {"terms", NULL}};
    if (!t || !p) {
        st = gb_error_set(GB_ERR_NOMEM, "out of memory");
        goto out;
    }
    for (size_t c = 0; c < sizeof cols / sizeof cols[0] && st == GB_OK; c++)
        st = gb_table_column(t, cols[c][0], cols[c][1]);
    for (int q = 0; q < o->n_predict && st == GB_OK; q++) {
        int taken = 0;
        for (size_t k = 0; k < s->fit.n_models && st == GB_OK; k++) {
            if (gb_lpbm_predict_at(&s->fit, k, o->predict[q], p) != GB_OK)
                continue;
            taken = 1;
            st = bd_predict_row(t, &s->fit.models[k], p);
        }
        if (!taken && st == GB_OK) {
            char why[512];
            gb_lpbm_predict_at(&s->fit, 0, o->predict[q], p);
            snprintf(why, sizeof why, "%s", gb_error_message());
            st = gb_error_set(GB_ERR_USAGE, "%s", why);
        } else if (st == GB_OK) {
            gb_error_clear();
        }
    }
    if (st == GB_OK) {
        if (o->fmt == GB_FORMAT_TABLE)
            printf("\npredicted (95%% residual-bootstrap intervals):\n");
        st = gb_table_print(t, stdout, o->fmt, gb_term_width(stdout));
    }
out:
    gb_table_free(t);
    free(p);
    return st;
}

/* --on RUN: the fitted models predicting another run of the same spec. */
static enum gb_status bd_on(const struct bd_opts *o, struct bd_state *s)
{
    int found = 0;
    enum gb_status st;
    if ((st = gb_cli_load_run(o->on, &s->on_run)) != GB_OK ||
        (st = bd_roofs_for(o, s->on_run, &s->on_roofs, &found)) != GB_OK ||
        (st = gb_lpbm_predict_on(&s->fit, s->on_run, found ? &s->on_roofs : NULL, gb_inflight_counter,
                                 s->on_reader = gb_inflight_reader_new(s->on_run, o->fit.spec))) != GB_OK)
        return st;
    for (size_t k = 0; k < s->fit.n_models; k++) {
        const struct gb_lpbm_bench_model *m = &s->fit.models[k];
        fprintf(o->fmt == GB_FORMAT_TABLE ? stdout : stderr,
                "%s/%s, %s form, predicting %s (%s, roofs %s) with these coefficients: %zu "
                "configurations, median |error| %.2f%%, worst %.2f%% (%s)\n", m->suite, m->bench,
                gb_lpbm_form_name(m->form), m->on.run, m->on.device,
                found ? "measured" : "the guide's", m->on.n, 100 * m->on.median_abs_rel,
                100 * m->on.max_abs_rel, m->on.worst_config);
    }
    return GB_OK;
}

static int bd_run(struct bd_opts *o, struct bd_state *s, const char *dir)
{
    enum gb_status st;
    const struct gb_lpbm_fit_result *f = &s->fit;
    if (o->out && gb_cli_path_within(o->out, dir))
        return gb_cli_usage(CMD, "--out %s is the run directory %s or inside it: breakdown never "
                            "writes into the run it reads; name another directory", o->out, dir);
    if ((st = gb_cli_load_run(dir, &s->run)) != GB_OK)
        return gb_cli_fail(st, CMD, "give the directory of a recorded run");
    int found = 0;
    if ((st = bd_roofs_for(o, s->run, &s->roofs, &found)) != GB_OK)
        return gb_cli_fail(st, CMD, "give --ceilings RUN of a ceilings run on the same GPU");
    o->fit.ceilings = found ? &s->roofs : NULL;
    o->fit.on_input = bd_on_input;
    o->fit.on_model = bd_on_model;
    o->fit.ctx = o;
    s->reader = gb_inflight_reader_new(s->run, o->fit.spec);
    o->fit.counters = s->reader ? gb_inflight_counter : NULL;
    o->fit.counters_ctx = s->reader;
    if ((st = gb_lpbm_fit_run(s->run, &o->fit, &s->fit)) != GB_OK || (st = o->print_st) != GB_OK)
        return gb_cli_fail(st, CMD, f->spec ? NULL : "name the run's kernel spec with --spec PATH");
    if (o->on && (st = bd_on(o, s)) != GB_OK)
        return gb_cli_fail(st, CMD, "give --on a run of the same spec, and --ceilings of its GPU");
    if (o->n_predict && (st = bd_predict(o, s)) != GB_OK)
        return gb_cli_fail(st, CMD, NULL);   /* each --predict error says what to do */
    if (f->spec_unchecked)
        fprintf(stderr, "warning: %s/run.json keeps no SHA-256 of its spec (recorded before runs kept them): %s "
                "is not checked against the spec measured\n", s->run->dir, f->spec_path);
    for (size_t k = 0; k < f->n_models; k++)
        if (f->models[k].form == GB_LPBM_RESOURCES) {
            if (f->roofs.measured)
                fprintf(o->fmt == GB_FORMAT_TABLE ? stdout : stderr, "roofs: measured by %s\n",
                        f->roofs.run_dir);
            else
                fprintf(o->fmt == GB_FORMAT_TABLE ? stdout : stderr, "roofs: the guide's theoretical "
                        "figures for %s (no --ceilings run: the coefficients are against those; record the "
                        "GPU's roofs with 'gpubound run ceilings' and give it with --ceilings)\n",
                        f->roofs.device.name[0] ? f->roofs.device.name : "the run's device");
            break;
        }
    if (f->n_unmeasured && !o->fit.bench)
        fprintf(stderr, "note: %zu of the spec's %zu benches %s no record in the run and %s not fitted: %s\n",
                f->n_unmeasured, f->n_benches, f->n_unmeasured > 1 ? "have" : "has",
                f->n_unmeasured > 1 ? "are" : "is", f->unmeasured);
    if (o->fmt != GB_FORMAT_TABLE && (st = bd_breakdown_table(f->models, f->n_models, o->fmt)) != GB_OK)
        return gb_cli_fail(st, CMD, NULL);
    if (o->out)
        snprintf(s->out_dir, sizeof s->out_dir, "%s", o->out);
    else
        gb_cli_default_out(s->out_dir, sizeof s->out_dir, "breakdown");
    if ((st = gb_stage_open(&s->stage, s->out_dir)) != GB_OK ||
        (st = gb_lpbm_fit_write(f, s->run, &s->stage, o->force)) != GB_OK ||
        (!o->no_chart && (st = bd_charts(s)) != GB_OK) || (st = gb_stage_commit(&s->stage)) != GB_OK)
        return gb_cli_fail(gb_stage_fail(&s->stage, st), CMD, NULL);
    s->out_given = o->out != NULL;
    s->fmt_table = o->fmt == GB_FORMAT_TABLE;
    bd_written(s);
    for (size_t k = 0; k < f->n_models; k++)
        if (!f->models[k].verdict.explains)
            return BD_EXIT_UNEXPLAINED;
    return GB_EXIT_OK;
}

int gb_cmd_breakdown(int argc, char **argv)
{
    struct bd_opts o;
    const char *dir = NULL;
    int rc = bd_parse(argc, argv, &o, &dir);
    if (rc >= 0)
        return rc;
    struct bd_state *s = calloc(1, sizeof *s);
    if (!s)
        return gb_cli_fail(gb_error_set(GB_ERR_NOMEM, "out of memory"), CMD, NULL);
    gb_report_result_init(&s->res);
    rc = bd_run(&o, s, dir);
    gb_stage_abort(&s->stage);
    gb_report_result_release(&s->res);
    gb_lpbm_fit_result_release(&s->fit);
    gb_run_free(s->run);
    gb_run_free(s->on_run);
    gb_inflight_reader_free(s->reader);
    gb_inflight_reader_free(s->on_reader);
    free(s);
    return rc;
}
