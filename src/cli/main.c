/* main.c - the command table and the entry point. The help text of every
 * command lives here and in each command's header, and nowhere else:
 * `gpubound help --markdown` prints docs/cli.md, which a test compares. */
#include <stdio.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/cmd_geometry.h"
#include "cli/cmd_breakdown.h"
#include "cli/cmd_check.h"
#include "cli/cmd_camp.h"
#include "cli/cmd_compare.h"
#include "cli/cmd_occupancy.h"
#include "cli/cmd_report.h"
#include "cli/cmd_roofline.h"
#include "cli/cmd_fleet.h"
#include "cli/cmd_tune.h"
#include "cli/cmd_kt.h"
#include "cli/run_options.h"
#include "util/git_rev.h"

const struct gb_cmd gb_commands[] = {
    {"info", gb_cmd_info, "show the GPU: identity, clocks, memory, and every occupancy limit",
     "gpubound info [--device N] [--ceilings RUN]",
     "  --device N    only device N (default: every device)\n"
     "  --ceilings RUN  the roofs a ceilings run measured, against their guide figures (no GPU needed)\n"
     "Exit 3 when there is no usable GPU or driver; with --ceilings, 1 when RUN cannot be read\n"
     "(missing, damaged) or measured no roof.\n"
     "Example: gpubound info\n", NULL},
    {"list", gb_cmd_list, "list the suites, their benchmarks and axes", "gpubound list [SUITE | SPEC.json]",
     "Each benchmark is shown as SUITE/BENCH with the cache mode it measures by default\n"
     "and its axes with their default (and --quick) values. A kernel spec file (a path\n"
     "ending in .json, docs/kernel-spec.md) is checked and listed as its suite.\n"
     "Example: gpubound list bandwidth\n"
     "Example: gpubound list tests/data/specs/saxpy/spec.json\n", NULL},
    {"check", gb_cmd_check, "a kernel spec checked without a GPU: every point evaluated, every configuration compiled",
     "gpubound check SPEC.json [--arch sm_XX] [--quick] [--set AXIS=V ...] [--max-points N] [--format FMT]",
     "  --arch sm_XX        the architecture to compile for and whose limits the occupancy uses\n"
     "                      (default: GPU 0's when there is one, else sm_90)\n"
     "  --quick             the spec's quick axis values\n"
     "  --set AXIS=V1,V2    the points, as for run (repeatable)\n"
     "  --max-points N      refuse a plan of more than N points, as run does (default 100000,\n"
     "                      at most 1000000)\n"
     "  --format FMT        table, csv or json on stdout (default table)\n"
     "Every point of every bench is evaluated (defines, grid, block, shared memory, counts,\n"
     "scalars, bytes, flops and the reference's launch); every distinct module is compiled with\n"
     "NVRTC and ptxas's report (-Xptxas=-v) gives each kernel's registers, spill stores and\n"
     "loads, stack frame and static shared memory; active warps per SM and occupancy come from\n"
     "the occupancy calculator with the target's limits. One row per configuration (and one per\n"
     "reference launch); a module that fails prints its first error line and NVRTC's log. A\n"
     "configuration the target cannot launch (an empty block or grid, a dimension or a block's\n"
     "threads over its limits, no block that fits an SM) has the status 'cannot launch' and one\n"
     "line per bench on stderr (the first such configuration, how many more, and why).\n"
     "Exit 0 when every point evaluates and every configuration compiles and can launch; 2 when\n"
     "the spec is broken (an expression refused, a restriction that leaves no point, a kernel\n"
     "name that names no __global__ function), one line each; 1 when a configuration fails to\n"
     "compile or cannot launch on the target.\n"
     "Example: gpubound check tests/data/specs/saxpy/spec.json --quick\n"
     "Example: gpubound check examples/sgemm/spec.json --arch sm_80 --format csv\n", NULL},
    {"run", gb_cmd_run, "measure suites and record them in a run directory",
     "gpubound run [SUITE[/BENCH] | SPEC.json[/BENCH] ...] [options]",
     NULL, gb_run_help},
    {"profile", gb_cmd_profile, "hardware counters of one launch of each point, in-process (CUPTI)",
     "gpubound profile SUITE[/BENCH] ... [--set AXIS=V ...] [--metrics LIST] [options]",
     "  --metrics LIST      Nsight Compute metric names, comma separated, or 'default' (the set\n"
     "                      'run --counters' records: docs/counters.md); the instanced ones given\n"
     "                      as .sum (dram__, fbpa__, lts__, ltc__) get their .avg, .max and .min too\n"
     "  --launch N          profile the Nth launch after the outputs are poisoned (default 0: the\n"
     "                      first, whose outputs are then verified)\n"
     "  --set AXIS=V1,V2    the points, as for run (repeatable)\n"
     "  --quick             run's quick sweeps and problem sizes\n"
     "  --device N          GPU to use (default 0)\n"
     "  --format FMT        table, csv or json on stdout (default table)\n"
     "  --trace             print the status of every CUPTI call made (last 64) on stderr\n"
     "  --cache-control C   all (default): the launch runs once per pass (one pass per group of\n"
     "                      counters), each after an L2 clean that leaves no line of it and none\n"
     "                      dirty, as Nsight Compute's --cache-control all; none: CUPTI replays\n"
     "                      the kernel with the memory it writes restored, caches as left\n"
     "Each point is set up and verified as in run, then one launch is profiled through CUPTI's\n"
     "range profiler; nothing is timed or written.\n"
     "Exit 0, 1 when a point failed or counters cannot be had (one line says why), 2 on a usage\n"
     "error or a metric the GPU does not have, 3 when there is no usable GPU.\n"
     "Example: gpubound profile camping/read --set pattern=camped --set width=4 --set warps=64\n"
     "Example: gpubound profile bandwidth/read --quick --metrics dram__sectors_read.sum\n", NULL},
    {"fleet", gb_cmd_fleet, "compare the GPUs of a fleet run and flag the outliers (no GPU needed)",
     GB_FLEET_USAGE, GB_FLEET_HELP, NULL},
    {"report", gb_cmd_report, "write charts and report.md for a recorded run (no GPU needed)",
     GB_REPORT_USAGE, GB_REPORT_HELP, NULL},
    {"occupancy", gb_cmd_occupancy, "occupancy calculator: active warps per SM and the limiting factor",
     GB_OCCUPANCY_USAGE, GB_OCCUPANCY_HELP, NULL},
    {"geometry", gb_cmd_geometry, "block shapes to use, from a recorded ubench run (no GPU needed)",
     GB_GEOMETRY_USAGE, GB_GEOMETRY_HELP, NULL},
    {"camp", gb_cmd_camp, "CampProf: fit, predict and validate the partition-camping band model; detect camping from counters",
     GB_CAMP_USAGE, GB_CAMP_HELP, NULL},
    {"compare", gb_cmd_compare, "compare runs point by point: faster, slower or no significant change (no GPU needed)",
     GB_COMPARE_USAGE, GB_COMPARE_HELP, NULL},
    {"breakdown", gb_cmd_breakdown, "LPBM: where a kernel's time goes at each launch configuration (no GPU needed)",
     GB_BREAKDOWN_USAGE, GB_BREAKDOWN_HELP, NULL},
    {"roofline", gb_cmd_roofline, "each point's intensity and binding roof under the measured roofs (no GPU needed)",
     GB_ROOFLINE_USAGE, GB_ROOFLINE_HELP, NULL},
    {"tune", gb_cmd_tune, "search a spec's configurations for the fastest in a budget of measurements",
     GB_TUNE_USAGE, GB_TUNE_HELP, NULL},
    {"export", gb_cmd_export, "a run as Kernel Tuner's cache file or T4 results file (no GPU needed)",
     GB_EXPORT_USAGE, GB_EXPORT_HELP, NULL},
    {"import", gb_cmd_import, "a Kernel Tuner cache file as a run, its times Kernel Tuner's summaries (no GPU needed)",
     GB_IMPORT_USAGE, GB_IMPORT_HELP, NULL},
    {"help", gb_cmd_help, "show the commands, or one command's options", "gpubound help [COMMAND | --markdown]",
     "  --markdown    print the reference of every command as markdown (docs/cli.md)\n", NULL},
    {NULL, NULL, NULL, NULL, NULL, NULL},
};

const struct gb_cmd *gb_cmd_find(const char *name)
{
    for (const struct gb_cmd *c = gb_commands; c->name; c++)
        if (strcmp(c->name, name) == 0)
            return c;
    return NULL;
}

const char *gb_cmd_help_text(const struct gb_cmd *c)
{
    return c->help ? c->help : c->help_fn();
}

static void gb_help_overview(FILE *f)
{
    fprintf(f, "gpubound %s - measure, model and explain the performance of GPU kernels\n\n", GB_VERSION);
    fprintf(f, "usage: gpubound COMMAND [options]\n\ncommands:\n");
    for (const struct gb_cmd *c = gb_commands; c->name; c++)
        fprintf(f, "  %-10s %s\n", c->name, c->summary);
    fprintf(f, "\nexit codes: 0 ok, 1 a benchmark or command failed or an input file is damaged or\n"
               "malformed, 2 usage error (an option given twice among them, unless its help says\n"
               "repeatable), 3 no usable GPU, 4 the model does not explain the data (breakdown)\n");
    fprintf(f, "'gpubound help COMMAND' shows a command's options.\n");
}

static void gb_help_markdown(FILE *f)
{
    fprintf(f, "# gpubound command reference\n\n");
    fprintf(f, "Generated by `gpubound help --markdown`; a test checks that this file matches it.\n\n");
    fprintf(f, "Exit codes: 0 ok, 1 a benchmark or command failed or an input file (a run, a model, a\n"
               "cache) is damaged or malformed, 2 usage error, 3 no usable GPU, 4 (breakdown) the model\n"
               "does not explain a bench's data (the honesty rule).\n");
    fprintf(f, "Errors are one line on stderr: what failed, why, and what to do; a control character in\n"
               "a value is shown escaped (\\n). An option given twice is a usage error unless its help\n"
               "says it is repeatable; options shown as alternatives (A | B) are given one at a time.\n");
    fprintf(f, "\n## Outputs\n\n"
               "Every command that writes files (report, camp fit, camp validate, camp predict\n"
               "--chart/--html, breakdown, fleet, compare --chart, roofline --out, export --out,\n"
               "run --report) draws and writes them into a private stage directory that it\n"
               "creates itself (`.gb-stage.PID.HOST*`, mode 0700, inside the output directory or\n"
               "its nearest existing parent) and moves them into place only at the end, as a\n"
               "unit: every file is replaced, or none is.\n"
               "gnuplot runs in the stage, so its images and a chart's `.log` never reach a name in\n"
               "the output directory before the command succeeds.\n\n"
               "- A failed command (exit 1) leaves every directory byte-identical, removes the\n"
               "  directories it made for `--out`, and its one error line says \"nothing was written\n"
               "  to DIR\". When a rename at the end fails, the files already moved are put back.\n"
               "- Nothing follows a symbolic link it did not make: a link at an output's name is\n"
               "  replaced by the new file, never written through. The guards that keep an output\n"
               "  made from more points (report.md, validation.csv, campprof-model.json,\n"
               "  lpbm-model.json; `--force` replaces) read only a regular file at that name: a\n"
               "  link there is not followed, and is replaced; a FIFO is not waited on.\n"
               "- An output never takes the place of a special file: a FIFO, a device or a socket\n"
               "  at an output's name is refused (one line; exit 1, or 2 for export --out) and left\n"
               "  as it was.\n"
               "- A command never writes into a run it reads: an --out (compare's --chart) inside a\n"
               "  run read, its --ceilings run or tune's --replay run, links resolved, is a usage\n"
               "  error (exit 2).\n"
               "- Ctrl-C or SIGTERM while a command stages its outputs removes the stage, says in\n"
               "  one line that nothing was written, and ends the command by that signal (130,\n"
               "  143); only a second signal meanwhile, or kill -9, leaves a stage behind.\n"
               "- The stages of killed commands are removed by the next command writing there only\n"
               "  when they are real directories of this user, named for this host and a process\n"
               "  that is gone; a link of such a name is left alone, and nothing behind a link is\n"
               "  removed.\n"
               "- `run` writes its run directory as it measures (so that a stopped run can be\n"
               "  resumed); it takes only a new or empty directory, and a run that fails before\n"
               "  measuring removes the directories it made; so does `tune` (with the files it\n"
               "  wrote), its --replay run read before anything is made.\n");
    for (const struct gb_cmd *c = gb_commands; c->name; c++)
        fprintf(f, "\n## %s\n\n%s.\n\n```\n%s\n%s```\n", c->name, c->summary, c->usage, gb_cmd_help_text(c));
}

int gb_cmd_help(int argc, char **argv)
{
    if (argc < 2) {
        gb_help_overview(stdout);
        return GB_EXIT_OK;
    }
    if (argc > 2)
        return gb_cli_usage("help", "at most one command name");
    if (strcmp(argv[1], "--markdown") == 0) {
        gb_help_markdown(stdout);
        return GB_EXIT_OK;
    }
    const struct gb_cmd *c = gb_cmd_find(argv[1]);
    if (!c)
        return gb_cli_usage("help", "unknown command '%s'", argv[1]);
    printf("usage: %s\n\n%s.\n\n%s", c->usage, c->summary, gb_cmd_help_text(c));
    return GB_EXIT_OK;
}

int main(int argc, char **argv)
{
    gb_cli_set_command_line(argc, argv);
    if (argc < 2) {
        gb_help_overview(stderr);
        return GB_EXIT_USAGE;
    }
    if (strcmp(argv[1], "--version") == 0 || strcmp(argv[1], "version") == 0) {
        printf("gpubound %s (%s)\n", GB_VERSION, gb_git_rev);
        return GB_EXIT_OK;
    }
    if (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0)
        return gb_cmd_help(argc - 1, argv + 1);
    const struct gb_cmd *c = gb_cmd_find(argv[1]);
    if (!c) {
        fprintf(stderr, "gpubound: unknown command '%s'; see 'gpubound help'\n", argv[1]);
        return GB_EXIT_USAGE;
    }
    /* `gpubound CMD --help` is `gpubound help CMD`. */
    for (int i = 2; i < argc; i++)
        if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0) {
            char *hargv[] = {"help", argv[1], NULL};
            return gb_cmd_help(2, hargv);
        }
    gb_cli_catch_interrupts(c->name);
    return c->fn(argc - 1, argv + 1);
}
