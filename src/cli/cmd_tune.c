/* cmd_tune.c - `gpubound tune`: search a spec's space for its fastest
 * configuration through a strategy (gpubound/tune.h), measuring through
 * the run loop (cmd_tune_loop.c) or replaying a recorded sweep. */
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/cli_spec.h"
#include "cli/cmd_tune.h"
#include "cli/cmd_tune_loop.h"
#include "gpubound/tune.h"
#include "util/fs.h"

static int gb_tune_opt(int c, struct gb_tune_args *a)
{
    switch (c) {
    case 'b': return (a->budget = gb_cli_parse_long("tune", "--budget", optarg, 0, 100000000)) < 0 ? 2 : -1;
    case 'S': a->strategy = optarg; return -1;
    case 'e': return (a->seed = gb_cli_parse_long("tune", "--seed", optarg, 0, 4294967295L)) < 0 ? 2 : -1;
    case 'k': return (a->batch = gb_cli_parse_long("tune", "--batch", optarg, 1, 1024)) < 0 ? 2 : -1;
    case 'B': a->bench = optarg; return -1;
    case 'o': a->out = optarg; return -1;
    case 'r': a->resume = 1; return -1;
    case 'p': a->replay = optarg; return -1;
    case 'd': return (a->device = gb_cli_parse_long("tune", "--device", optarg, 0, 1024)) < 0 ? 2 : -1;
    case 'q': a->quick = 1; return -1;
    case 's': a->sets[a->n_sets++] = optarg; return -1;
    case 'm': a->max_time_s = strtod(optarg, NULL);
        return a->max_time_s > 0 && a->max_time_s <= 3600 ? -1
               : gb_cli_usage("tune", "--max-time '%s': a number of seconds above 0, at most 3600", optarg);
    case 'Y': return gb_cli_compiler("tune", optarg, NULL);
    case 'c': a->ci_pct = strtod(optarg, NULL);
        return a->ci_pct > 0 && a->ci_pct < 100 ? -1 : gb_cli_usage("tune", "--ci '%s': a percentage above 0, below 100", optarg);
    default: return gb_cli_usage("tune", "unknown option (see gpubound help tune)");
    }
}

/* -1 when the options are whole, else the exit code. */
static int gb_tune_parse(int argc, char **argv, struct gb_tune_args *a)
{
    static const struct option opts[] = {
        {"budget", required_argument, 0, 'b'}, {"strategy", required_argument, 0, 'S'},
        {"seed", required_argument, 0, 'e'},   {"batch", required_argument, 0, 'k'},
        {"bench", required_argument, 0, 'B'},  {"out", required_argument, 0, 'o'},
        {"resume", no_argument, 0, 'r'},       {"replay", required_argument, 0, 'p'},
        {"device", required_argument, 0, 'd'}, {"quick", no_argument, 0, 'q'},
        {"set", required_argument, 0, 's'},    {"max-time", required_argument, 0, 'm'},
        {"ci", required_argument, 0, 'c'},     {"compiler", required_argument, 0, 'Y'},
        {0, 0, 0, 0}};
    int c, rc;
    memset(a, 0, sizeof *a);
    a->strategy = "model";
    a->seed = 1;
    a->budget = -1;
    if (!(a->sets = calloc((size_t)argc + 1, sizeof *a->sets)))
        return gb_cli_fail(GB_ERR_NOMEM, "parsing the options", NULL);
    if ((c = gb_cli_options_once("tune", argc, argv, "", opts, "--set...")) >= 0)
        return c;
    gb_cli_getopt_reset();
    while ((c = getopt_long(argc, argv, "", opts, NULL)) != -1)
        if ((rc = gb_tune_opt(c, a)) >= 0)
            return rc;
    if (optind >= argc)
        return gb_cli_usage("tune", "name the kernel spec to tune (gpubound tune SPEC.json --budget N)");
    if (a->budget < 0)
        return gb_cli_usage("tune", "give --budget N: how many configurations to measure at most");
    if (!gb_tune_strategy_find(a->strategy)) {
        char names[128];
        gb_tune_strategy_names(names, sizeof names);
        return gb_cli_usage("tune", "unknown strategy '%s': the strategies are %s", a->strategy, names);
    }
    if (a->resume && !a->out)
        return gb_cli_usage("tune", "--resume goes on with the run in --out DIR: give --out");
    if (!a->batch)
        a->batch = strcmp(a->strategy, "anneal") == 0 ? 1 : 4;
    return -1;
}

/* The plan of the spec's bench: every configuration it allows. */
static int gb_tune_plan(int argc, char **argv, struct gb_tune_args *a, struct gb_plan *plan)
{
    int rc = gb_cli_spec_args(argc - optind, argv + optind, &a->spec_owned, a->spec_paths, sizeof a->spec_paths);
    if (rc >= 0)
        return rc;
    enum gb_status st = gb_plan_build_max((const char *const *)argv + optind, argc - optind,
                                          (const char *const *)a->sets, a->n_sets, a->quick, GB_PLAN_MAX_POINTS,
                                          plan);
    if (st != GB_OK)
        return gb_cli_usage("tune", "%s", gb_error_message());
    /* Keep the items of one bench. */
    const char *bench = a->bench ? a->bench : plan->n ? plan->items[0].bench->name : "";
    size_t k = 0;
    for (size_t i = 0; i < plan->n; i++) {
        if (strcmp(plan->items[i].bench->name, bench) == 0) {
            plan->items[k++] = plan->items[i];
            continue;
        }
        if (!a->bench)
            return gb_cli_usage("tune", "the spec has more than one bench (%s, %s): name one with --bench", bench,
                                plan->items[i].bench->name);
        for (int x = 0; x < plan->items[i].n_axes; x++)
            free(plan->items[i].axis_value[x]);
    }
    plan->n = k;
    if (k == 0)
        return gb_cli_usage("tune", "the spec has no bench '%s' or it allows no configuration", bench);
    return gb_cli_spec_check(plan);
}

/* The space of the plan's configurations. */
static int gb_tune_space_of(const struct gb_plan *plan, struct gb_tune_space *s)
{
    const char *const **rows = calloc(plan->n, sizeof *rows);
    if (!rows)
        return gb_cli_fail(GB_ERR_NOMEM, "building the tuning space", NULL);
    for (size_t i = 0; i < plan->n; i++)
        rows[i] = (const char *const *)plan->items[i].axis_value;
    enum gb_status st = gb_tune_space_init(s, plan->items[0].axis_name, plan->items[0].n_axes, rows, plan->n);
    free(rows);
    return st == GB_OK ? -1 : gb_cli_usage("tune", "%s", gb_error_message());
}

static void gb_tune_label(const struct gb_plan *plan, size_t i, char *buf, size_t n)
{
    const struct gb_plan_item *it = &plan->items[i];
    int len = 0;
    buf[0] = '\0';
    for (int a = 0; a < it->n_axes && len >= 0 && (size_t)len < n; a++)
        len += snprintf(buf + len, n - (size_t)len, "%s%s=%s", a ? " " : "", it->axis_name[a], it->axis_value[a]);
}

/* The answer on stdout. */
static void gb_tune_print(const struct gb_plan *plan, const struct gb_tune_answer *r, const char *source)
{
    char l[512];
    gb_tune_label(plan, r->best, l, sizeof l);
    printf("best:      %s  %.4g us [%.4g, %.4g] (95%% interval of the median%s)\n", l, r->best_ns / 1e3,
           r->best_lo / 1e3, r->best_hi / 1e3, source);
    if (r->have_runner) {
        gb_tune_label(plan, r->runner, l, sizeof l);
        printf("runner-up: %s  %.4g us [%.4g, %.4g]\n", l, r->runner_ns / 1e3, r->runner_lo / 1e3, r->runner_hi / 1e3);
        printf("runner-up / best: %.4f [%.4f, %.4f] (99%% interval, %s): %s\n", r->ratio, r->ratio_lo, r->ratio_hi,
               r->by_samples ? "ranks of the samples" : "summaries",
               r->differ ? "they differ significantly (beyond 2%)" : "no significant difference beyond 2%");
    }
    if (r->have_pred) {
        gb_tune_label(plan, r->pred, l, sizeof l);
        printf("predicted best unmeasured: %s  %.4g us [%.4g, %.4g] (95%%, %s)\n", l, r->pred_ns / 1e3,
               r->pred_lo / 1e3, r->pred_hi / 1e3, r->surrogate);
    } else if (r->surrogate[0] || r->note[0]) {
        printf("predicted best unmeasured: none%s%s\n", r->note[0] ? " (" : "", r->note);
    }
    if (r->note[0] && r->have_pred)
        printf("surrogate: %s used because %s\n", r->surrogate, r->note);
}

int gb_cmd_tune(int argc, char **argv)
{
    struct gb_tune_args a;
    struct gb_plan plan;
    struct gb_tune_space space;
    struct gb_tune_answer ans;
    int rc;
    memset(&plan, 0, sizeof plan);
    memset(&space, 0, sizeof space);
    if ((rc = gb_tune_parse(argc, argv, &a)) >= 0 || (rc = gb_tune_plan(argc, argv, &a, &plan)) >= 0 ||
        (rc = gb_tune_space_of(&plan, &space)) >= 0)
        goto out;
    if (a.budget == 0 || (size_t)a.budget > space.n) {
        rc = gb_cli_usage("tune", "--budget %ld: it must be 1 to the space's %zu configurations", a.budget, space.n);
        goto out;
    }
    rc = gb_tune_search(&a, &plan, &space, &ans);
    if (rc == GB_EXIT_OK) {
        gb_tune_print(&plan, &ans, a.replay ? ", replayed from the recorded run" : "");
        fprintf(stderr, "tune: %s (%s, %ld of %zu configurations at most, seed %ld)\n", a.out, a.strategy, a.budget,
                space.n, a.seed);
    }
out:
    gb_tune_space_release(&space);
    gb_plan_release(&plan);
    gb_cli_spec_free(a.spec_owned);
    free(a.sets);
    return rc;
}
