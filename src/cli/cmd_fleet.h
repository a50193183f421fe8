/* cmd_fleet.h - `gpubound fleet` and the fleet modes of `gpubound run`
 * (--fleet under mpirun or srun, --all-devices). */
#ifndef GB_CLI_CMD_FLEET_H
#define GB_CLI_CMD_FLEET_H

#include "cli/cli.h"
#include "gpubound/measure.h"
#include "gpubound/table.h"

#define GB_FLEET_USAGE "gpubound fleet RUN [options]"
#define GB_FLEET_HELP                                                                                  \
    "  --format FMT      table (default): the points side by side, a line per suite (max/min of\n"  \
    "                    the GPUs' medians, points apart beyond their intervals) and per GPU;\n"  \
    "                    csv or json: one row per point and GPU (json adds suites and GPUs);\n"     \
    "                    csv is streamed, one point's rows at a time, in bounded memory\n"          \
    "  --chart-dir DIR   where the charts go (default a new runs/fleet-<UTC time>, named on\n"    \
    "                    stdout; never inside RUN): fleet.svg/.png with a bar per\n"              \
    "                    point and GPU, or, over 40 points, fleet-SUITE.svg/.png per suite with\n"  \
    "                    each GPU's ratios sorted\n"                                                 \
    "  --no-chart        do not draw the chart\n"                                                     \
    "RUN is a fleet run ('gpubound run --fleet' under mpirun or srun, or 'run --all-devices').\n"   \
    "Per point: each GPU's median time, its ratio to the fleet median with its interval, and\n"    \
    "an outlier mark where the difference exceeds both the GPU's own 95% interval and 3.5\n"       \
    "robust standard deviations of the fleet (1.4826 x the median absolute deviation); at\n"       \
    "least 3 GPUs must have measured the point. docs/fleet.md explains the rule.\n"                \
    "Exit 0 with the report, 1 when RUN is not a fleet run or no GPU measured anything.\n"         \
    "Example: gpubound fleet runs/fleet\n"                                                         \
    "Example: gpubound fleet runs/fleet --format csv > fleet.csv\n"

/* The fleet options of `gpubound run` as cmd_run.c parsed them. */
struct gb_fleet_run_args {
    int all_devices;             /* --all-devices; else --fleet */
    int device;                  /* --device, or -1 */
    const char *out;             /* --out, or NULL */
    int quick, report;
    enum gb_format fmt;
    struct gb_measure_opts mo;
};

/* Runs `plan` as a fleet and writes the gathered run; returns the exit code. */
int gb_cmd_run_fleet(const struct gb_plan *plan, const struct gb_fleet_run_args *a);

/* Prints the fleet report of the run in `dir` (and draws its chart into
 * `chart_dir` unless NULL); returns the exit code. */
int gb_fleet_print(const char *dir, enum gb_format fmt, const char *chart_dir);

int gb_cmd_fleet(int argc, char **argv);

#endif
