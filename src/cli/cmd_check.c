/* cmd_check.c - `gpubound check SPEC`: a kernel spec checked without a GPU.
 * Every point of every bench is evaluated (grid, block, counts, scalars,
 * bytes, flops, the reference's launch); every distinct module is compiled
 * with NVRTC for the target architecture, ptxas's report read from the log
 * (gpu/nvrtc_info.h); each configuration's occupancy comes from the
 * calculator with the target's limits. */
#include <getopt.h>
#include <limits.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/cmd_check.h"
#include "gpu/nvrtc_info.h"
#include "gpubound/gpu.h"
#include "gpubound/measure.h"
#include "gpubound/occupancy.h"
#include "gpubound/spec.h"
#include "gpubound/table.h"
#include "measure/compile_pool.h"
#include "suites/spec_internal.h"

#define CMD "check"
#define CK_MAX_SETS 64

/* One module to compile: a bench's kernel (with its reference when they
 * share it) or a reference kernel's own. */
struct ck_job {
    char *sig;
    const struct gb_spec_bench *b;
    int ref;
    char label[256];                          /* the first point that needs it */
    struct gb_nvrtc_program prog;
    char exprs[2][GB_KERNEL_NAME_LEN];
    const char *hn[GB_SPEC_MAX_SOURCES], *hs[GB_SPEC_MAX_SOURCES];
    char opts[GB_SPEC_MAX_NAMES][GB_OPT_LEN];
    const char *optp[GB_SPEC_MAX_NAMES];
    int n_opts;
    enum gb_status st;
    char *msg;
    int unknown;                              /* compiles without its name expressions */
    struct gb_nvrtc_info info;
};

/* One row: a configuration of a bench's kernel, or of its reference. */
struct ck_row {
    const struct gb_spec_bench *b;
    char label[256];
    int ref;
    size_t job;
    int expr;
    char kernel[GB_KERNEL_NAME_LEN];
    unsigned grid[3], block[3], smem;
    long max_smem;
    char cannot[160];                         /* why it cannot launch on the target; "" when it can */
};

/* The first refused point of a bench, and how many more there are. */
struct ck_eval {
    const struct gb_spec_bench *b;
    char msg[1024];
    int more;
};

#define CK_MAX_EVALS 64

struct ck {
    struct ck_eval evals[CK_MAX_EVALS];
    int n_evals;
    struct ck_job *jobs;
    size_t n_jobs, cap;
    struct ck_row *rows;
    size_t n_rows;
    size_t next;
    pthread_mutex_t lock;
    char arch[16];
    struct gb_device_info dev;
    int broken, failed;
};

struct ck_args {
    const char *spec, *arch;
    const char *sets[CK_MAX_SETS];
    int n_sets, quick;
    long max_points;
    enum gb_format fmt;
};

/* ---- the modules ---- */

static char *ck_sig(const struct ck_job *j)
{
    size_t n = 64 + 2 * GB_KERNEL_NAME_LEN + (size_t)j->n_opts * (GB_OPT_LEN + 1);
    char *s = malloc(n);
    if (!s)
        return NULL;
    int w = snprintf(s, n, "%p|%d|%s|%s|", (const void *)j->b, j->ref, j->exprs[0], j->exprs[1]);
    for (int i = 0; i < j->n_opts && w > 0 && (size_t)w < n; i++)
        w += snprintf(s + w, n - (size_t)w, "%s\x1f", j->opts[i]);
    return s;
}

/* The job equal to `j` (freeing j's signature), else j itself added. */
static size_t ck_add_job(struct ck *c, struct ck_job *j)
{
    for (size_t i = 0; i < c->n_jobs; i++)
        if (strcmp(c->jobs[i].sig, j->sig) == 0) {
            free(j->sig);
            return i;
        }
    struct ck_job *k = &c->jobs[c->n_jobs];
    *k = *j;
    for (int o = 0; o < k->n_opts; o++)
        k->optp[o] = k->opts[o];
    k->prog.exprs = (const char (*)[GB_KERNEL_NAME_LEN])k->exprs;
    k->prog.header_names = k->ref ? k->hn : k->prog.header_names;
    k->prog.header_sources = k->ref ? k->hs : k->prog.header_sources;
    return c->n_jobs++;
}

/* The bench kernel's module of point p, through the row's own callbacks
 * (what a run compiles). */
static enum gb_status ck_kernel_job(const struct gb_bench *row, const struct gb_point *p, struct ck_job *j)
{
    j->b = row->ctx;
    j->n_opts = row->kernel_opts(p, row->ctx, j->opts, GB_SPEC_MAX_NAMES);
    for (int o = 0; o < j->n_opts; o++)
        j->optp[o] = j->opts[o];
    enum gb_status st = row->kernel_program(row->ctx, j->optp, j->n_opts, &j->prog, j->exprs, 2);
    if (st == GB_OK && !(j->sig = ck_sig(j)))
        st = gb_error_set(GB_ERR_NOMEM, "out of host memory");
    return st;
}

/* The reference kernel's own module (another source, or defines of its own). */
static enum gb_status ck_ref_job(const struct gb_spec_bench *b, const struct gb_spec_values *pv, struct ck_job *j)
{
    const struct gb_spec *spec = b->spec;
    j->b = b;
    j->ref = 1;
    j->n_opts = gb_spec_opts(b, pv, 1, j->opts, GB_SPEC_MAX_NAMES);
    for (int i = 0; i < spec->n_sources; i++)
        if (i != b->ref.source) {
            j->hn[j->prog.n_headers] = spec->sources[i].name;
            j->hs[j->prog.n_headers++] = spec->sources[i].text;
        }
    snprintf(j->exprs[0], sizeof j->exprs[0], "%s", pv->ref_kernel);
    j->prog.name = spec->sources[b->ref.source].name;
    j->prog.source = spec->sources[b->ref.source].text;
    j->prog.header_names = j->hn;
    j->prog.header_sources = j->hs;
    j->prog.n_exprs = 1;
    if (!(j->sig = ck_sig(j)))
        return gb_error_set(GB_ERR_NOMEM, "out of host memory");
    return GB_OK;
}

static void ck_add_row(struct ck *c, const struct gb_spec_bench *b, const char *label, int ref, size_t job,
                       int expr, const struct gb_spec_values *pv)
{
    struct ck_row *r = &c->rows[c->n_rows];
    const unsigned *blk = ref ? pv->ref_block : pv->block, *grid = ref ? pv->ref_grid : pv->grid;
    unsigned smem = ref ? pv->ref_smem : pv->smem;
    /* A reference is listed once per module and launch. */
    for (size_t i = 0; ref && i < c->n_rows; i++)
        if (c->rows[i].ref && c->rows[i].job == job && c->rows[i].expr == expr && c->rows[i].smem == smem &&
            !memcmp(c->rows[i].block, blk, sizeof c->rows[i].block))
            return;
    memset(r, 0, sizeof *r);
    r->b = b;
    r->ref = ref;
    r->job = job;
    r->expr = expr;
    snprintf(r->label, sizeof r->label, "%s", label);
    snprintf(r->kernel, sizeof r->kernel, "%s", ref ? pv->ref_kernel : pv->kernel);
    memcpy(r->block, blk, sizeof r->block);
    memcpy(r->grid, grid, sizeof r->grid);
    r->smem = smem;
    r->max_smem = ref ? pv->ref_max_smem : pv->max_smem;
    c->n_rows++;
}

/* Keeps a refused point's message: the first of its bench, else counted. */
static void ck_refused(struct ck *c, const struct gb_spec_bench *b)
{
    c->broken = 1;
    for (int i = 0; i < c->n_evals; i++)
        if (c->evals[i].b == b) {
            c->evals[i].more++;
            return;
        }
    if (c->n_evals == CK_MAX_EVALS)
        return;
    c->evals[c->n_evals].b = b;
    snprintf(c->evals[c->n_evals++].msg, sizeof c->evals[0].msg, "%s", gb_error_message());
}

static void ck_report_refused(const struct ck *c)
{
    for (int i = 0; i < c->n_evals; i++) {
        fprintf(stderr, "gpubound check: %s", c->evals[i].msg);
        if (c->evals[i].more)
            fprintf(stderr, " (and at %d more point%s)", c->evals[i].more, c->evals[i].more > 1 ? "s" : "");
        fprintf(stderr, "\n");
    }
}

/* Evaluates one point and adds its modules and rows. */
static enum gb_status ck_point(struct ck *c, const struct gb_plan_item *it, int quick)
{
    const struct gb_spec_bench *b = it->bench->ctx;
    struct gb_point p;
    struct gb_spec_values pv;
    struct ck_job j;
    char label[256];
    enum gb_status st;
    gb_plan_point(it, quick, &p);
    p.gpu = NULL;
    gb_spec_point_label(b, &p, label, sizeof label);
    if ((st = gb_spec_point_values(b, &p, &pv)) != GB_OK) {
        ck_refused(c, b);
        gb_point_release(&p);
        return GB_OK;
    }
    memset(&j, 0, sizeof j);
    snprintf(j.label, sizeof j.label, "%s", label);
    if ((st = ck_kernel_job(it->bench, &p, &j)) == GB_OK) {
        size_t k = ck_add_job(c, &j);
        ck_add_row(c, b, label, 0, k, 0, &pv);
        if (b->ref_kind == GB_SR_KERNEL && gb_spec_ref_shared(b))
            ck_add_row(c, b, label, 1, k, 1, &pv);
    }
    if (st == GB_OK && b->ref_kind == GB_SR_KERNEL && !gb_spec_ref_shared(b)) {
        memset(&j, 0, sizeof j);
        snprintf(j.label, sizeof j.label, "%s", label);
        if ((st = ck_ref_job(b, &pv, &j)) == GB_OK)
            ck_add_row(c, b, label, 1, ck_add_job(c, &j), 0, &pv);
    }
    gb_point_release(&p);
    return st;
}

/* ---- compiling, on the compile pool's number of threads ---- */

static void ck_compile(struct ck *c, struct ck_job *j)
{
    j->st = gb_nvrtc_info(&j->prog, c->arch, j->optp, j->n_opts, &j->info);
    if (j->st != GB_OK)
        j->msg = strdup(gb_error_message());
    if (j->st == GB_ERR_COMPILE) {
        /* Compiles without the name expressions: the kernel's name is wrong. */
        struct gb_nvrtc_program bare = j->prog;
        struct gb_nvrtc_info info;
        bare.n_exprs = 0;
        j->unknown = gb_nvrtc_info(&bare, c->arch, j->optp, j->n_opts, &info) == GB_OK;
        gb_nvrtc_info_free(&info);
    }
}

static void *ck_worker(void *arg)
{
    struct ck *c = arg;
    for (;;) {
        pthread_mutex_lock(&c->lock);
        size_t i = c->next++;
        pthread_mutex_unlock(&c->lock);
        if (i >= c->n_jobs)
            return NULL;
        ck_compile(c, &c->jobs[i]);
    }
}

static void ck_compile_all(struct ck *c)
{
    pthread_t tids[64];
    int n = gb_compile_pool_threads(), started = 0;
    n = n < 1 ? 1 : n > 64 ? 64 : n;
    pthread_mutex_init(&c->lock, NULL);
    for (int i = 0; i < n && (size_t)i < c->n_jobs; i++)
        if (pthread_create(&tids[i], NULL, ck_worker, c) == 0)
            started++;
    ck_worker(c);
    for (int i = 0; i < started; i++)
        pthread_join(tids[i], NULL);
    pthread_mutex_destroy(&c->lock);
}

/* How many failed modules after job i are of the same kind (bench, role,
 * unknown name or not), marking them told. */
static int ck_same_failures(struct ck *c, size_t i, char *told)
{
    int more = 0;
    const struct ck_job *j = &c->jobs[i];
    for (size_t k = i + 1; k < c->n_jobs; k++) {
        const struct ck_job *o = &c->jobs[k];
        if (!told[k] && o->st != GB_OK && o->b == j->b && o->ref == j->ref && o->unknown == j->unknown) {
            told[k] = 1;
            more++;
        }
    }
    return more;
}

static void ck_print_log(const char *log)
{
    for (const char *s = log; s && *s;) {
        size_t len = strcspn(s, "\n");
        fprintf(stderr, "    %.*s\n", (int)len, s);
        s = s[len] ? s + len + 1 : NULL;
    }
}

/* One line per bench whose modules fail (the first failure, and how many
 * more), with NVRTC's log of a compile error, indented, under it. */
static void ck_report_failures(struct ck *c)
{
    char *told = calloc(c->n_jobs + 1, 1), more[64] = "";
    for (size_t i = 0; told && i < c->n_jobs; i++) {
        struct ck_job *j = &c->jobs[i];
        const struct gb_spec_launch *l = j->ref ? &j->b->ref : &j->b->launch;
        if (j->st == GB_OK || told[i])
            continue;
        int n = ck_same_failures(c, i, told);
        more[0] = '\0';
        if (n)
            snprintf(more, sizeof more, " (and %d more configuration%s)", n, n > 1 ? "s" : "");
        if (j->unknown) {
            fprintf(stderr, "gpubound check: %s: benches[%d].%skernel: \"%s\" names no kernel of %s at %s%s (%s); "
                            "give the name of a __global__ function\n",
                    j->b->spec->file, j->b->index, j->ref ? "reference." : "", l->kernel.text, j->prog.name,
                    j->label, more, j->msg ? j->msg : "");
            c->broken = 1;
            continue;
        }
        fprintf(stderr, "gpubound check: %s/%s at %s%s%s: %s\n", j->b->spec->suite, j->b->name, j->label,
                j->ref ? " (reference)" : "", more, j->msg ? j->msg : "failed");
        if (j->st != GB_ERR_COMPILE)
            c->broken = 1;
        else
            c->failed = 1;
        ck_print_log(j->info.log);
    }
    free(told);
}

/* ---- the table ---- */

/* The figures of row r's kernel, or NULL with *why saying what is wrong. */
static const struct gb_kernel_res *ck_res(struct ck *c, const struct ck_row *r, const char **why)
{
    const struct ck_job *j = &c->jobs[r->job];
    *why = j->unknown ? "unknown kernel" : j->st == GB_ERR_COMPILE ? "compile error" : "error";
    if (j->st != GB_OK)
        return NULL;
    const struct gb_kernel_res *res =
        r->expr < j->info.n_lowered ? gb_nvrtc_info_find(&j->info, j->info.lowered[r->expr]) : NULL;
    *why = "not a kernel";
    return res;
}

/* Row r's occupancy on the target; *threads its block's threads. */
static enum gb_status ck_occupancy(const struct ck *c, const struct ck_row *r, const struct gb_kernel_res *res,
                                   long long *threads, struct gb_occupancy_result *o)
{
    *threads = (long long)r->block[0] * r->block[1] * r->block[2];
    struct gb_occupancy_input in = {
        .threads_per_block = *threads > INT_MAX ? INT_MAX : (int)*threads,
        .regs_per_thread = res->regs,
        .static_smem_bytes = (int)res->smem,
        .dyn_smem_bytes = (int)r->smem,
        .max_dyn_smem_bytes = r->max_smem < 0 ? GB_OCC_MAX_DYN_UNSET : (int)r->max_smem,
        .carveout_pct = -1,
    };
    if (*threads < 1)
        return gb_error_set(GB_ERR_USAGE, "an empty block");
    return gb_occupancy_compute(&c->dev, &in, o);
}

/* Dimension i of `what` (block or grid), `v`, against the target's `max`:
 * 1 with the reason in `why` when the driver would refuse it. */
static int ck_dim_refused(char *why, size_t n, const char *what, int i, unsigned v, int max, const char *arch)
{
    if (v < 1)
        snprintf(why, n, "an empty %s (%s[%d] = 0)", what, what, i);
    else if (v > (unsigned)max)
        snprintf(why, n, "%s[%d] = %u, over the %d that %s allows", what, i, v, max, arch);
    else
        return 0;
    return 1;
}

/* Why row r cannot launch on the target (the driver would refuse it), into
 * r->cannot; "" when it can: an empty block or grid, a dimension or a
 * block's threads over the target's limits, no block that fits an SM. */
static void ck_launch_check(const struct ck *c, struct ck_row *r, const struct gb_kernel_res *res)
{
    const struct gb_device_info *d = &c->dev;
    struct gb_occupancy_result o;
    long long threads;
    enum gb_status st = ck_occupancy(c, r, res, &threads, &o);
    size_t n = sizeof r->cannot;
    r->cannot[0] = '\0';
    for (int i = 0; i < 3; i++)
        if (ck_dim_refused(r->cannot, n, "block", i, r->block[i], d->max_block_dim[i], c->arch) ||
            ck_dim_refused(r->cannot, n, "grid", i, r->grid[i], d->max_grid_dim[i], c->arch))
            return;
    if (threads > d->max_threads_per_block)
        snprintf(r->cannot, n, "%lld threads per block, over the %d that %s allows", threads,
                 d->max_threads_per_block, c->arch);
    else if (st != GB_OK)
        snprintf(r->cannot, n, "%s", gb_error_message());
    else if (!o.active_blocks)
        snprintf(r->cannot, n, "no block fits an SM of %s (the %s limit)", c->arch, gb_occupancy_limit_name(o.limit));
}

/* Every row's launch checked; one line per bench and role whose rows
 * cannot launch: the first such configuration, and how many more. */
static void ck_report_unlaunchable(struct ck *c)
{
    char *told = calloc(c->n_rows + 1, 1), more[64];
    const char *why;
    for (size_t i = 0; i < c->n_rows; i++) {
        const struct gb_kernel_res *res = ck_res(c, &c->rows[i], &why);
        if (res)
            ck_launch_check(c, &c->rows[i], res);
    }
    for (size_t i = 0; told && i < c->n_rows; i++) {
        const struct ck_row *r = &c->rows[i];
        int n = 0;
        if (!r->cannot[0] || told[i])
            continue;
        for (size_t k = i + 1; k < c->n_rows; k++)
            if (!told[k] && c->rows[k].cannot[0] && c->rows[k].b == r->b && c->rows[k].ref == r->ref)
                told[k] = 1, n++;
        more[0] = '\0';
        if (n)
            snprintf(more, sizeof more, " (and %d more configuration%s)", n, n > 1 ? "s" : "");
        fprintf(stderr, "gpubound check: %s/%s at %s%s%s: cannot launch on %s: %s; change the spec's launch or "
                        "leave such values out (--set, the axes' values or restrictions)\n",
                r->b->spec->suite, r->b->name, r->label, r->ref ? " (reference)" : "", more, c->arch, r->cannot);
        c->failed = 1;
    }
    free(told);
}

static enum gb_status ck_occupancy_cells(struct gb_table *t, const struct ck *c, const struct ck_row *r,
                                         const struct gb_kernel_res *res)
{
    struct gb_occupancy_result o;
    long long threads;
    enum gb_status st;
    if (ck_occupancy(c, r, res, &threads, &o) != GB_OK) {
        if ((st = gb_table_cell_empty(t)) || (st = gb_table_cell_empty(t)))
            return st;
        return gb_table_cell_text(t, threads < 1 ? "empty block" : gb_error_message());
    }
    if ((st = gb_table_cell_int(t, o.active_warps)) || (st = gb_table_cell_num(t, o.occupancy, 3)))
        return st;
    return gb_table_cell_text(t, o.active_blocks ? gb_occupancy_limit_name(o.limit)
                                                 : "cannot run");
}

static enum gb_status ck_row_cells(struct gb_table *t, struct ck *c, const struct ck_row *r)
{
    enum gb_status st;
    const char *why;
    char bench[256];
    snprintf(bench, sizeof bench, "%s/%s", r->b->spec->suite, r->b->name);
    const struct gb_kernel_res *res = ck_res(c, r, &why);
    if ((st = gb_table_row(t)) || (st = gb_table_cell_text(t, bench)) || (st = gb_table_cell_text(t, r->label)) ||
        (st = gb_table_cell_text(t, r->kernel)) || (st = gb_table_cell_text(t, r->ref ? "reference" : "kernel")) ||
        (st = gb_table_cell_int(t, (long long)r->block[0] * r->block[1] * r->block[2])) ||
        (st = gb_table_cell_int(t, r->smem)))
        return st;
    if (!res) {
        for (int i = 0; i < 8; i++)
            if ((st = gb_table_cell_empty(t)) != GB_OK)
                return st;
        return gb_table_cell_text(t, why);
    }
    if ((st = gb_table_cell_int(t, res->regs)) || (st = gb_table_cell_int(t, res->spill_stores)) ||
        (st = gb_table_cell_int(t, res->spill_loads)) || (st = gb_table_cell_int(t, res->stack_frame)) ||
        (st = gb_table_cell_int(t, res->smem)) || (st = ck_occupancy_cells(t, c, r, res)))
        return st;
    return gb_table_cell_text(t, r->cannot[0] ? "cannot launch" : "ok");
}

static enum gb_status ck_print(struct ck *c, enum gb_format fmt)
{
    static const char *const cols[] = {"bench", "config", "kernel", "role", "threads", "dyn_smem",
                                       "regs", "spill_stores", "spill_loads", "stack", "static_smem",
                                       "active_warps", "occupancy", "limited_by", "status"};
    enum gb_status st = GB_OK;
    struct gb_table *t = gb_table_new();
    if (!t)
        return gb_error_set(GB_ERR_NOMEM, "out of memory for a table");
    for (size_t i = 0; i < sizeof cols / sizeof cols[0] && st == GB_OK; i++)
        st = gb_table_column(t, cols[i], NULL);
    for (size_t i = 0; i < c->n_rows && st == GB_OK; i++) {
        const char *why;
        if (!ck_res(c, &c->rows[i], &why) && c->jobs[c->rows[i].job].st == GB_OK) {
            fprintf(stderr, "gpubound check: %s: benches[%d].%skernel: \"%s\" is not an entry point "
                            "(__global__) of the compiled module at %s\n",
                    c->rows[i].b->spec->file, c->rows[i].b->index, c->rows[i].ref ? "reference." : "",
                    c->rows[i].kernel, c->rows[i].label);
            c->broken = 1;
        }
        st = ck_row_cells(t, c, &c->rows[i]);
    }
    if (st == GB_OK && c->n_rows)
        st = gb_table_print(t, stdout, fmt, 0);
    gb_table_free(t);
    return st;
}

/* ---- the command ---- */

/* "sm_90", "sm_100a": its compute capability; -1 when it is not one. */
static int ck_parse_arch(const char *s, int *major, int *minor)
{
    char *end;
    if (strncmp(s, "sm_", 3) != 0 || s[3] < '1' || s[3] > '9')
        return -1;
    long v = strtol(s + 3, &end, 10);
    if (v < 10 || v > 199 || (*end && (strcmp(end, "a") != 0 && strcmp(end, "f") != 0)))
        return -1;
    *major = (int)(v / 10);
    *minor = (int)(v % 10);
    return 0;
}

static int ck_parse(int argc, char **argv, struct ck_args *a)
{
    static const struct option lo[] = {{"arch", required_argument, NULL, 'a'}, {"quick", no_argument, NULL, 'q'},
                                       {"set", required_argument, NULL, 's'}, {"format", required_argument, NULL, 'f'},
                                       {"max-points", required_argument, NULL, 'P'}, {NULL, 0, NULL, 0}};
    int o;
    memset(a, 0, sizeof *a);
    a->max_points = GB_PLAN_MAX_POINTS;
    if ((o = gb_cli_options_once(CMD, argc, argv, "", lo, "--set...")) >= 0)
        return o;
    gb_cli_getopt_reset();
    while ((o = getopt_long(argc, argv, "", lo, NULL)) != -1) {
        if (o == 'P' && (a->max_points = gb_cli_parse_long(CMD, "--max-points", optarg, 1, GB_PLAN_MAX_POINTS_CAP)) < 0)
            return GB_EXIT_USAGE;
        else if (o == 'a')
            a->arch = optarg;
        else if (o == 'q')
            a->quick = 1;
        else if (o == 's' && a->n_sets < CK_MAX_SETS)
            a->sets[a->n_sets++] = optarg;
        else if (o == 's')
            return gb_cli_usage(CMD, "at most %d --set options", CK_MAX_SETS);
        else if (o == 'f' && gb_format_parse(optarg, &a->fmt) != GB_OK)
            return gb_cli_usage(CMD, "--format takes table, csv or json, not '%s'", optarg);
        else if (o != 'f' && o != 'P')
            return gb_cli_usage(CMD, "unknown option '%s'", argv[optind - 1]);
    }
    if (optind != argc - 1)
        return gb_cli_usage(CMD, "give exactly one spec file");
    a->spec = argv[optind];
    if (!gb_spec_is_path(a->spec))
        return gb_cli_usage(CMD, "'%s' is not a spec file (a path ending in .json)", a->spec);
    return -1;
}

/* The target: --arch, else the GPU's, else sm_90; its limits into c->dev. */
static int ck_target(const struct ck_args *a, struct ck *c)
{
    int major = 9, minor = 0;
    if (a->arch && ck_parse_arch(a->arch, &major, &minor) != 0)
        return gb_cli_usage(CMD, "--arch needs an architecture such as sm_90 or sm_120, not '%s'", a->arch);
    if (!a->arch && gb_device_query(0, &c->dev) == GB_OK) {
        major = c->dev.cc_major;
        minor = c->dev.cc_minor;
    }
    snprintf(c->arch, sizeof c->arch, "%s", a->arch ? a->arch : "");
    if (!a->arch)
        snprintf(c->arch, sizeof c->arch, "sm_%d%d", major, minor);
    if (gb_device_from_cc(major, minor, &c->dev) != GB_OK)
        return gb_cli_usage(CMD, "--arch %s: %s", c->arch, gb_error_message());
    return -1;
}

/* Evaluates every point and lists the modules; -1, or the exit code. */
static int ck_plan(struct ck *c, const struct ck_args *a, const char *sel, struct gb_plan *plan)
{
    enum gb_status st = gb_plan_build_max(&sel, 1, a->sets, a->n_sets, a->quick, (size_t)a->max_points, plan);
    if (st != GB_OK)
        return gb_cli_fail(st, CMD, NULL);
    c->cap = 2 * plan->n + 1;
    c->jobs = calloc(c->cap, sizeof *c->jobs);
    c->rows = calloc(c->cap, sizeof *c->rows);
    if (!c->jobs || !c->rows)
        return gb_cli_fail(gb_error_set(GB_ERR_NOMEM, "out of host memory"), CMD, NULL);
    for (size_t i = 0; i < plan->n; i++) {
        if (!gb_spec_bench_is(plan->items[i].bench))
            continue;
        if ((st = ck_point(c, &plan->items[i], a->quick)) != GB_OK)
            return gb_cli_fail(st, CMD, NULL);
    }
    return -1;
}

int gb_cmd_check(int argc, char **argv)
{
    struct ck_args a;
    struct ck c;
    struct gb_plan plan;
    char *sel = NULL, ver[32];
    int rc = ck_parse(argc, argv, &a);
    memset(&c, 0, sizeof c);
    memset(&plan, 0, sizeof plan);
    if (rc >= 0)
        return rc;
    if ((rc = ck_target(&a, &c)) >= 0)
        return rc;
    enum gb_status st = gb_spec_register_path(a.spec, &sel);
    if (st != GB_OK)
        return gb_cli_fail(st, NULL, NULL);
    if (gb_nvrtc_version(ver, sizeof ver) != GB_OK) {
        rc = gb_cli_fail(GB_ERR_NVRTC, CMD, NULL);
        goto out;
    }
    if ((rc = ck_plan(&c, &a, sel, &plan)) >= 0)
        goto out;
    ck_report_refused(&c);
    ck_compile_all(&c);
    ck_report_failures(&c);
    ck_report_unlaunchable(&c);
    if ((st = ck_print(&c, a.fmt)) != GB_OK) {
        rc = gb_cli_fail(st, CMD, NULL);
        goto out;
    }
    rc = c.broken ? GB_EXIT_USAGE : c.failed ? GB_EXIT_FAIL : GB_EXIT_OK;
    if (rc == GB_EXIT_OK)
        fprintf(stderr, "gpubound check: %zu configuration%s of %s, %zu module%s compiled with NVRTC %s for %s\n",
                c.n_rows, c.n_rows == 1 ? "" : "s", a.spec, c.n_jobs, c.n_jobs == 1 ? "" : "s", ver, c.arch);
out:
    for (size_t i = 0; i < c.n_jobs; i++) {
        free(c.jobs[i].sig);
        free(c.jobs[i].msg);
        gb_nvrtc_info_free(&c.jobs[i].info);
    }
    free(c.jobs);
    free(c.rows);
    gb_plan_release(&plan);
    free(sel);
    return rc;
}
