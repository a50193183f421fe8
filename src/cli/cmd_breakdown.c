/* cmd_breakdown.c - `gpubound breakdown RUN`: the Linear Performance-
 * Breakdown Model fitted to a recorded kernel-spec run (no GPU needed).
 * Parses, calls src/models/lpbm*.c and src/report/breakdown_chart.c,
 * prints. */
#include <getopt.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/cli.h"
#include "gpubound/breakdown_chart.h"
#include "gpubound/lpbm_input.h"
#include "gpubound/table.h"
#include "util/fs.h"
#include "util/stage.h"

#define CMD "breakdown"

struct bd_opts {
    const char *bench, *out, *spec;
    struct gb_lpbm_holdout holdout;
    int explain, force, no_chart, intercept;
    int form;                    /* -1 auto, else enum gb_lpbm_form */
    enum gb_lpbm_weight weight;
    enum gb_format fmt;
};

struct bd_state {
    struct gb_run *run;
    struct gb_lpbm_spec *spec;
    struct gb_lpbm_input *in;            /* one per bench fitted: no bench is left out */
    struct gb_lpbm_bench_model *models;  /* one per bench and form */
    size_t n_in, n_models, cap_in, cap_models;
    char out_dir[GB_PATH_MAX];
    struct gb_stage stage;          /* the model and charts, moved into out_dir together */
    struct gb_report_result res;    /* the charts drawn */
};

static int bd_parse(int argc, char **argv, struct bd_opts *o, const char **dir)
{
    static const struct option longopts[] = {
        {"bench", required_argument, NULL, 'b'},   {"holdout", required_argument, NULL, 'H'},
        {"explain", no_argument, NULL, 'e'},       {"form", required_argument, NULL, 'F'},
        {"out", required_argument, NULL, 'o'},     {"format", required_argument, NULL, 'f'},
        {"spec", required_argument, NULL, 's'},    {"weight", required_argument, NULL, 'w'},
        {"force", no_argument, NULL, 'X'},         {"no-chart", no_argument, NULL, 'n'},
        {"intercept", no_argument, NULL, 'I'},     {NULL, 0, NULL, 0}};
    int c;
    memset(o, 0, sizeof *o);
    o->form = -1;
    gb_cli_getopt_reset();
    while ((c = getopt_long(argc, argv, ":", longopts, NULL)) != -1) {
        switch (c) {
        case 'b': o->bench = optarg; break;
        case 'o': o->out = optarg; break;
        case 's': o->spec = optarg; break;
        case 'e': o->explain = 1; break;
        case 'X': o->force = 1; break;
        case 'n': o->no_chart = 1; break;
        case 'I': o->intercept = 1; break;
        case 'H':
            if (gb_lpbm_holdout_parse(optarg, &o->holdout) != GB_OK)
                return gb_cli_usage(CMD, "%s", gb_error_message());
            break;
        case 'F':
            if (strcmp(optarg, "formula") && strcmp(optarg, "counters"))
                return gb_cli_usage(CMD, "--form takes formula or counters, not '%s'", optarg);
            o->form = strcmp(optarg, "formula") ? GB_LPBM_COUNTERS : GB_LPBM_FORMULA;
            break;
        case 'w':
            if (strcmp(optarg, "relative") && strcmp(optarg, "none"))
                return gb_cli_usage(CMD, "--weight takes relative or none, not '%s'", optarg);
            o->weight = strcmp(optarg, "none") ? GB_LPBM_RELATIVE : GB_LPBM_PLAIN;
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

static void bd_explain(const struct gb_lpbm_input *in)
{
    const struct gb_kernel_analysis *a = &in->analysis;
    printf("\nKernel %s in %s (parsed with %s)\n", in->kernel, in->source, in->defines);
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
        printf("  atomic operations (per thread, or per block under a one-thread branch):\n");
        for (size_t i = 0; i < a->n_atomics; i++)
            printf("    line %d, %s, per %s: %s\n", a->atomics[i].at.line, a->atomics[i].text,
                   a->atomics[i].per_block ? "block" : "thread",
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

static enum gb_status bd_coef_table(const struct gb_lpbm_bench_model *m)
{
    enum gb_status st;
    struct gb_table *t = gb_table_new();
    if (!t)
        return gb_error_set(GB_ERR_NOMEM, "out of memory");
    if ((st = gb_table_column(t, "term", NULL)) || (st = gb_table_column(t, "coefficient", "ns")) ||
        (st = gb_table_column(t, "95% CI low", "ns")) || (st = gb_table_column(t, "95% CI high", "ns")))
        goto out;
    for (int j = 0; j < GB_LPBM_TERMS; j++) {
        if ((st = gb_table_row(t)) ||
            (st = gb_table_cell_text(t, gb_lpbm_term_name((enum gb_lpbm_term)j))))
            goto out;
        if (!m->fit.present[j]) {
            if ((st = gb_table_cell_text(t, "absent")) || (st = gb_table_cell_empty(t)) ||
                (st = gb_table_cell_empty(t)))
                goto out;
        } else if ((st = gb_table_cell_num(t, m->fit.coef[j], 4)) ||
                   (st = gb_table_cell_num(t, m->fit.ci_lo[j], 3)) ||
                   (st = gb_table_cell_num(t, m->fit.ci_hi[j], 3))) {
            goto out;
        }
    }
    st = gb_table_print(t, stdout, GB_FORMAT_TABLE, gb_term_width(stdout));
out:
    gb_table_free(t);
    return st;
}

static enum gb_status bd_row(struct gb_table *t, const struct gb_lpbm_bench_model *m, size_t i,
                             int machine)
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
        if ((st = gb_table_cell_num(t, pred > 0 ? 100 * terms[j] / pred : NAN, 3)))
            return st;
    double rel = m->held.rel ? m->held.rel[i] : NAN;
    return isfinite(rel) ? gb_table_cell_num(t, 100 * rel, 3) : gb_table_cell_empty(t);
}

static enum gb_status bd_breakdown_table(const struct gb_lpbm_bench_model *m, size_t n_models,
                                         enum gb_format fmt)
{
    enum gb_status st = GB_OK;
    int machine = fmt != GB_FORMAT_TABLE;
    struct gb_table *t = gb_table_new();
    static const char *const cols[][2] = {
        {"config", NULL},        {"problem", NULL}, {"measured", "us"}, {"CI low", "us"},
        {"CI high", "us"},       {"predicted", "us"}, {"PUT", "%"},     {"G2ST", "%"},
        {"S2PT", "%"},           {"ATOM", "%"},       {"SYNC", "%"},
        {"FIX", "%"},
        {"held-out error", "%"}};
    if (!t)
        return gb_error_set(GB_ERR_NOMEM, "out of memory");
    if (machine && ((st = gb_table_column(t, "bench", NULL)) || (st = gb_table_column(t, "form", NULL))))
        goto out;
    for (size_t c = 0; c < sizeof cols / sizeof cols[0] && st == GB_OK; c++)
        st = gb_table_column(t, cols[c][0], cols[c][1]);
    for (size_t k = 0; k < n_models && st == GB_OK; k++)
        for (size_t i = 0; i < m[k].fit.n && st == GB_OK; i++)
            st = bd_row(t, &m[k], i, machine);
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

static enum gb_status bd_print_model(const struct gb_lpbm_bench_model *m)
{
    char split[128];
    enum gb_status st;
    bd_split_name(&m->holdout, split, sizeof split);
    printf("\n%s/%s, %s form: t = a1*PUT + a2*G2ST + a3*S2PT + a4*ATOM + a5*SYNC%s, non-negative "
           "least squares on %zu configurations (%s weights)\n", m->suite, m->bench,
           gb_lpbm_form_name(m->form), m->intercept ? " + a6*FIX" : "", m->fit.n,
           m->weight == GB_LPBM_RELATIVE ? "1/t^2, relative" : "equal");
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
    if ((st = bd_breakdown_table(m, 1, GB_FORMAT_TABLE)) != GB_OK)
        return st;
    printf("%s/%s: %s\n", m->suite, m->bench, m->dominant);
    if (m->note[0])
        printf("%s/%s: note from the spec: %s\n", m->suite, m->bench, m->note);
    return GB_OK;
}

/* ---- fitting ---- */

/* The best configuration: the fastest of the largest problem measured (the
 * problem of the slowest point). */
static size_t bd_best(const struct gb_lpbm_point *pts, size_t n)
{
    size_t slow = 0, best = SIZE_MAX;
    for (size_t i = 1; i < n; i++)
        if (pts[i].time_ns > pts[slow].time_ns)
            slow = i;
    for (size_t i = 0; i < n; i++)
        if (strcmp(pts[i].problem, pts[slow].problem) == 0 &&
            (best == SIZE_MAX || pts[i].time_ns < pts[best].time_ns))
            best = i;
    return best == SIZE_MAX ? 0 : best;
}

static enum gb_status bd_fit(const struct bd_opts *o, const struct gb_lpbm_input *in,
                             enum gb_lpbm_form form, struct gb_lpbm_bench_model *m)
{
    enum gb_status st;
    memset(m, 0, sizeof *m);
    /* same sizes: the input's names are NUL-terminated within them */
    memcpy(m->suite, in->suite, sizeof m->suite);
    memcpy(m->bench, in->bench, sizeof m->bench);
    snprintf(m->sources, sizeof m->sources, "%s",
             form == GB_LPBM_COUNTERS ? "measured counters" : in->sources);
    memcpy(m->note, in->note, sizeof m->note);
    m->form = form;
    m->weight = o->weight;
    m->intercept = o->intercept;
    m->holdout = o->holdout;
    if (!(m->pts = malloc(in->n * sizeof *m->pts)))
        return gb_error_set(GB_ERR_NOMEM, "out of memory");
    memcpy(m->pts, in->pts, in->n * sizeof *m->pts);
    for (size_t i = 0; i < in->n; i++) {
        m->pts[i].intercept = o->intercept;
        if ((st = gb_lpbm_predictors(&m->pts[i], form)) != GB_OK)
            return st;
    }
    if ((st = gb_lpbm_fit(m->pts, in->n, o->weight, GB_LPBM_BOOT, GB_LPBM_SEED, &m->fit)) ||
        (st = gb_lpbm_holdout_run(m->pts, in->n, o->weight, &o->holdout, &m->held)))
        return gb_error_set(st, "%s/%s: %s", in->suite, in->bench, gb_error_message());
    gb_lpbm_dominant(&m->fit, &m->pts[bd_best(m->pts, in->n)], m->dominant, sizeof m->dominant);
    return GB_OK;
}

static void bd_model_release(struct gb_lpbm_bench_model *m)
{
    free(m->pts);
    free(m->held.rel);
    memset(m, 0, sizeof *m);
}

/* ---- the command ---- */

/* Room for one more element of *v (n used of *cap, each `size` bytes, zeroed). */
static enum gb_status bd_grow(void **v, size_t n, size_t *cap, size_t size)
{
    if (n < *cap)
        return GB_OK;
    size_t c = *cap ? 2 * *cap : 8;
    char *p = realloc(*v, c * size);
    if (!p)
        return gb_error_set(GB_ERR_NOMEM, "out of memory");
    memset(p + *cap * size, 0, (c - *cap) * size);
    *v = p;
    *cap = c;
    return GB_OK;
}

static enum gb_status bd_bench(const struct bd_opts *o, struct bd_state *s, const char *bench)
{
    enum gb_status st = bd_grow((void **)&s->in, s->n_in, &s->cap_in, sizeof *s->in);
    if (st != GB_OK)
        return st;
    struct gb_lpbm_input *in = &s->in[s->n_in];
    st = gb_lpbm_input_build(s->run, s->spec, bench, gb_lpbm_counters_get, NULL, in);
    if (st != GB_OK)
        return st;
    s->n_in++;
    if (o->explain && o->fmt == GB_FORMAT_TABLE)
        bd_explain(in);
    int forms[2], nf = 0;
    if (o->form != GB_LPBM_COUNTERS)
        forms[nf++] = GB_LPBM_FORMULA;
    if (o->form == GB_LPBM_COUNTERS || (o->form < 0 && in->n_counters == (int)in->n))
        forms[nf++] = GB_LPBM_COUNTERS;
    for (int k = 0; k < nf; k++) {
        if ((st = bd_grow((void **)&s->models, s->n_models, &s->cap_models, sizeof *s->models)) != GB_OK)
            return st;
        struct gb_lpbm_bench_model *m = &s->models[s->n_models++];
        if ((st = bd_fit(o, in, (enum gb_lpbm_form)forms[k], m)) != GB_OK)
            return st;
        if (o->fmt == GB_FORMAT_TABLE && (st = bd_print_model(m)) != GB_OK)
            return st;
    }
    return GB_OK;
}

static enum gb_status bd_charts(const struct bd_opts *o, struct bd_state *s)
{
    enum gb_status st = GB_OK;
    char stem[160], sub[512];
    for (size_t k = 0; k < s->n_models && st == GB_OK; k++) {
        const struct gb_lpbm_bench_model *m = &s->models[k];
        snprintf(stem, sizeof stem, "breakdown-%s-%s%s", m->suite, m->bench,
                 m->form == GB_LPBM_COUNTERS ? "-counters" : "");
        char r2[32] = "undefined";
        if (!isnan(m->fit.r2))
            snprintf(r2, sizeof r2, "%.3f", m->fit.r2);
        snprintf(sub, sizeof sub, "%s; R^2 %s, held-out median |error| %.1f%%",
                 s->run->info.has_device ? s->run->info.device.name : "unnamed device", r2,
                 100 * m->held.median_abs_rel);
        st = gb_breakdown_chart_draw(m, s->stage.tmp, stem, sub, 0, &s->res);
    }
    (void)o;
    return st;
}

/* What the committed stage put in place, and the charts left undrawn. */
static void bd_written(const struct bd_state *s)
{
    fprintf(stderr, "wrote %s/%s\n", s->out_dir, GB_LPBM_MODEL_FILE);
    gb_cli_print_written(&s->stage, &s->res);
    if (s->res.n_not_drawn)
        fprintf(stderr, "not drawn: %zu charts (gnuplot was not found in PATH; install it with "
                        "apt-get install gnuplot-nox)\n", s->res.n_not_drawn);
}

static enum gb_status bd_write_model(const struct bd_opts *o, struct bd_state *s)
{
    char path[GB_PATH_MAX + 64], staged[GB_PATH_MAX + 128];
    size_t old = 0, now = 0;
    const char *slash = strrchr(s->run->dir, '/');
    snprintf(path, sizeof path, "%s/%s", s->out_dir, GB_LPBM_MODEL_FILE);
    for (size_t k = 0; k < s->n_models; k++)
        now += s->models[k].fit.n;
    if (!o->force && gb_lpbm_model_points(path, &old) == GB_OK &&
        old > now)
        return gb_error_set(GB_ERR_UNSUPPORTED, "%s was fitted on %zu configurations and this fit "
                            "has %zu; it is not replaced (--force replaces it, --out writes "
                            "elsewhere)", path, old, now);
    gb_error_clear();
    enum gb_status st = gb_stage_path(&s->stage, GB_LPBM_MODEL_FILE, staged, sizeof staged);
    return st != GB_OK ? st : gb_lpbm_model_write(staged, slash && slash[1] ? slash + 1 : s->run->dir,
                                                  s->models, s->n_models);
}

/* Names the spec's benches the run has no record of (not fitted), on stderr. */
static void bd_note_unmeasured(const struct bd_opts *o, const struct bd_state *s, const char *list, size_t n)
{
    if (n && !o->bench)
        fprintf(stderr, "note: %zu of the spec's %zu benches %s no record in the run and %s not fitted: %s\n", n,
                gb_lpbm_spec_n_benches(s->spec), n > 1 ? "have" : "has", n > 1 ? "are" : "is", list);
}

static enum gb_status bd_all(const struct bd_opts *o, struct bd_state *s)
{
    enum gb_status st = GB_OK;
    size_t n = gb_lpbm_spec_n_benches(s->spec), n_none = 0, len = 0;
    char none[1024] = "";
    for (size_t i = 0; i < n && st == GB_OK; i++) {
        const char *b = gb_lpbm_spec_bench(s->spec, i);
        if (o->bench && strcmp(o->bench, b) != 0)
            continue;
        size_t have = 0;
        for (size_t r = 0; r < s->run->n_records; r++)
            have += !strcmp(s->run->records[r].bench, b) &&
                    !strcmp(s->run->records[r].suite, gb_lpbm_spec_suite(s->spec));
        if (have || o->bench)
            st = bd_bench(o, s, b);
        else if (n_none++, len < sizeof none)
            len += (size_t)snprintf(none + len, sizeof none - len, "%s%s", len ? ", " : "", b);
    }
    if (st == GB_OK && s->n_in > 0)
        bd_note_unmeasured(o, s, none, n_none);
    if (st == GB_OK && s->n_in == 0)
        st = gb_error_set(GB_ERR_USAGE, o->bench ? "the spec of suite %s has no bench '%s'"
                                                 : "the run has no record of suite %s",
                          gb_lpbm_spec_suite(s->spec), o->bench);
    if (st == GB_OK && o->fmt != GB_FORMAT_TABLE)
        st = bd_breakdown_table(s->models, s->n_models, o->fmt);
    return st;
}

static int bd_run(const struct bd_opts *o, struct bd_state *s, const char *dir)
{
    enum gb_status st;
    char spec_path[GB_PATH_MAX];
    if ((st = gb_cli_load_run(dir, &s->run)) != GB_OK)
        return gb_cli_fail(st, CMD, "give the directory of a recorded run");
    if ((st = gb_lpbm_spec_locate(s->run, o->spec, spec_path, sizeof spec_path)) != GB_OK ||
        (st = gb_lpbm_spec_load(spec_path, &s->spec)) != GB_OK)
        return gb_cli_fail(st, CMD, "name the run's kernel spec with --spec PATH");
    if ((st = bd_all(o, s)) != GB_OK)
        return gb_cli_fail(st, CMD, NULL);
    snprintf(s->out_dir, sizeof s->out_dir, "%s", o->out ? o->out : dir);
    if ((st = gb_stage_open(&s->stage, s->out_dir)) != GB_OK || (st = bd_write_model(o, s)) != GB_OK ||
        (!o->no_chart && (st = bd_charts(o, s)) != GB_OK) || (st = gb_stage_commit(&s->stage)) != GB_OK)
        return gb_cli_fail(gb_stage_fail(&s->stage, st), CMD, NULL);
    bd_written(s);
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
    for (size_t k = 0; k < s->n_models; k++)
        bd_model_release(&s->models[k]);
    for (size_t i = 0; i < s->n_in; i++)
        gb_lpbm_input_release(&s->in[i]);
    free(s->models);
    free(s->in);
    gb_lpbm_spec_free(s->spec);
    gb_run_free(s->run);
    free(s);
    return rc;
}
