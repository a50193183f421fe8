/* run_options.h - the options of `gpubound run`, one row each. The table
 * drives getopt_long's options, the parsing and range check of each value
 * (one usage line, exit 2), `gpubound help run` (and so docs/cli.md, which
 * tests/cli/help.sh compares) and the key each option is recorded under.
 *
 *   X(name, val, sh, arg, label, parse, member, check, record, help)
 *
 * name    the long option, without "--"
 * val     getopt_long's value for it; sh: 1 when "-<val>" is taken too
 * arg     no_argument, required_argument or optional_argument
 * label   the option as --help shows it ("--device N"); help: its text,
 *         lines after the first joined by \n (NULL: not shown, another row
 *         describes it)
 * parse   the function that takes the value (run_options.c), into member
 *         (of struct gb_run_args); check: its range (GB_OPT_* below)
 * record  where the value is recorded: a record key of GB_RECORD_FIELDS or
 *         a run.json key ("" when it is not recorded)
 *
 * A new option is one row here and its use (what reads the member). */
#ifndef GB_CLI_RUN_OPTIONS_H
#define GB_CLI_RUN_OPTIONS_H

#include <getopt.h>
#include <stddef.h>

#include "gpubound/measure.h"
#include "gpubound/session.h"
#include "gpubound/table.h"
#include "util/fs.h"

/* The command's options as given. */
struct gb_run_args {
    long device;
    const char *out;
    const char **sets;
    int n_sets, quick, report;
    int device_set, fleet, all_devices; /* --device given; --fleet; --all-devices */
    long max_points;
    int compiler;                /* --compiler: enum gb_compiler, also set as process state */
    enum gb_format fmt;
    struct gb_measure_opts mo;
    char **counters;             /* --counters: metric names (gb_counter_names_parse) */
    size_t n_counters;
    char **spec_owned;           /* selectors made for spec paths */
    char spec_paths[1024];       /* the spec files given, for run.json */
    int resuming;                /* this process goes on with a run after a fault (run_resume.h) */
    struct gb_session_resume resume;
    char resume_dir[GB_PATH_MAX];
};

/* A value's range: none; a number above 0 and below (or up to, `incl`)
 * `max`, in `what`, stored divided by `dv` (GB_OPT_CHOSEN: and `flag` set
 * to 1, the user chose it); an integer from lo to hi; a whole number of
 * range id (at least 0). */
#define GB_OPT_NONE .max = 0
#define GB_OPT_POSITIVE(mx, incl, dv, what_) .max = mx, .inclusive = incl, .div = dv, .what = what_
#define GB_OPT_CHOSEN(mx, incl, dv, what_, flag) \
    GB_OPT_POSITIVE(mx, incl, dv, what_), .flag_off = offsetof(struct gb_run_args, flag)
#define GB_OPT_LONG(lo_, hi_) .lo = lo_, .max = hi_
#define GB_OPT_RANGE(id) .range = id

#define GB_RUN_OPTIONS(X)                                                                          \
    X("device", 'd', 1, required_argument, "--device N", gb_opt_device, device,                    \
      GB_OPT_RANGE(GB_RANGE_ORDINAL), "device", "GPU to use (default 0)")                          \
    X("out", 'o', 1, required_argument, "--out DIR", gb_opt_string, out, GB_OPT_NONE, "",           \
      "run directory to create (default runs/<UTC time>); must not exist or be empty")             \
    X("quick", 'q', 1, no_argument, "--quick", gb_opt_true, quick, GB_OPT_NONE, "mode",             \
      "smaller sweeps and problem sizes, shorter time caps")                                       \
    X("set", 's', 1, required_argument, "--set AXIS=V1,V2", gb_opt_set, sets, GB_OPT_NONE, "axes",  \
      "sweep AXIS over these values (repeatable); integer axes take binary\n"                      \
      "K/M/G or KiB/MiB/GiB suffixes (1K = 1024) and ranges lo:hi,\n"                              \
      "lo:hi:step or lo:hi:*factor")                                                               \
    X("cold", 'C', 1, no_argument, "--cold | --hot", gb_opt_cache, mo.cache, GB_OPT_NONE, "cache",  \
      "flush the L2 before every sample, or not, for every benchmark\n"                            \
      "(default: each benchmark's own mode, see 'gpubound list')")                                 \
    X("hot", 'H', 1, no_argument, "--hot", gb_opt_cache, mo.cache, GB_OPT_NONE, "cache", NULL)      \
    X("flush", 'F', 1, required_argument, "--flush METHOD", gb_opt_flush, mo.flush, GB_OPT_NONE,    \
      "cold_flush",                                                                                \
      "how a cold sample empties the L2, with a buffer twice its size:\n"                          \
      "empty (default: read it marked evict-last, discard its lines from\n"                        \
      "the L2, then run other code through every SM's instruction\n"                               \
      "caches), read-last (the reads only), read, write, or write-read")                           \
    X("timer", 'T', 1, required_argument, "--timer CLOCK", gb_opt_timer, mo.timer, GB_OPT_NONE,     \
      "time_source",                                                                               \
      "auto (default): gpu__time_duration, the counter Nsight Compute\n"                           \
      "reports (CUPTI's range profiler, one launch a sample), else the\n"                          \
      "GPU's kernel timestamps (CUPTI activity), else CUDA events, where\n"                        \
      "one cannot be had (a launch without a kernel, a copy: CUPTI);\n"                            \
      "profiler, cupti or events: that clock only")                                                \
    X("compiler", 'Y', 0, required_argument, "--compiler NAME", gb_opt_compiler, compiler,          \
      GB_OPT_NONE, "compiler",                                                                     \
      "what builds a kernel spec's kernels: auto (default: nvcc where the\n"                       \
      "toolkit has it, else NVRTC), nvcc (-cubin -O3: the machine code a\n"                        \
      "program built with nvcc -O3 runs) or nvrtc; the two can differ by\n"                        \
      "10% and more (docs/measurement.md, \"The compiler\"); run.json records\n"                   \
      "which; gpubound's own suites are always built by NVRTC")                                    \
    X("isolate", 'I', 0, required_argument, "--isolate MS", gb_opt_positive, mo.isolate_s,         \
      GB_OPT_POSITIVE(1000, 1, 1000.0, "milliseconds"), "isolate_s",                   \
      "leave the GPU idle MS milliseconds (up to 1000) right before each\n"                        \
      "sample's launch (after a cold sample's flush), as Nsight Compute's\n"                       \
      "launches run (default: none; docs/measurement.md, \"Back to back\")")                       \
    X("ci", 'c', 1, required_argument, "--ci PCT", gb_opt_positive, mo.rel_ci,                      \
      GB_OPT_CHOSEN(100, 0, 100.0, "a percentage", mo.user_rel_ci), "",                           \
      "stopping rule: 95% CI half-width of the median under PCT % (default 0.5)")                  \
    X("max-time", 'm', 1, required_argument, "--max-time S", gb_opt_positive, mo.max_time_s,        \
      GB_OPT_CHOSEN(3600, 1, 0, "seconds", mo.user_max_time), "",                                \
      "time cap for sampling one point, seconds (default 2, quick 0.5)")                           \
    X("format", 'f', 1, required_argument, "--format FMT", gb_opt_format, fmt, GB_OPT_NONE, "",     \
      "summary on stdout as table, csv or json (default table)")                                   \
    X("no-report", 'R', 1, no_argument, "--no-report", gb_opt_false, report, GB_OPT_NONE, "",       \
      "do not write the report (charts, report.md) at the end")                                    \
    X("max-points", 'P', 0, required_argument, "--max-points N", gb_opt_long, max_points,           \
      GB_OPT_LONG(1, GB_PLAN_MAX_POINTS_CAP), "",                                                  \
      "refuse a plan of more than N points (default 100000, at most 1000000),\n"                   \
      "checked before any point is made; over 10000 points the GPU is\n"                           \
      "looked for first")                                                                          \
    X("counters", 'K', 0, optional_argument, "--counters[=LIST]", gb_opt_counters, counters,        \
      GB_OPT_NONE, "counters",                                                                     \
      "after each point's samples, profile one launch for hardware counters\n"                     \
      "(Nsight Compute metric names; default: the default set, see\n"                              \
      "docs/counters.md) into the record's \"counters\"; where profiling is\n"                     \
      "not permitted the run goes on without them and says why")                                   \
    X("fleet", 'M', 0, no_argument, "--fleet", gb_opt_true, fleet, GB_OPT_NONE, "fleet",            \
      "one rank per GPU under mpirun or srun (Open MPI, opened at run time):\n"                    \
      "each rank takes the GPU of its local rank (or --device), rank 0\n"                          \
      "gathers every record into DIR (docs/fleet.md)")                                             \
    X("all-devices", 'A', 0, no_argument, "--all-devices", gb_opt_true, all_devices, GB_OPT_NONE,   \
      "fleet", "every GPU of this host at once, one process each, gathered into DIR")

/* One row as data. */
struct gb_run_opt {
    const char *name;
    int val, is_short, has_arg;
    const char *label;
    int (*parse)(const struct gb_run_opt *o, const char *arg, struct gb_run_args *a);
    size_t off;                  /* the member in struct gb_run_args */
    double lo, max, div;         /* div: 0 stores the value as given */
    int inclusive;
    const char *what;
    size_t flag_off;             /* GB_OPT_POSITIVE: the member set to 1 (0: none) */
    int range;                   /* GB_OPT_RANGE: an enum gb_range_id */
    const char *record;
    const char *help;
};

extern const struct gb_run_opt gb_run_opts[];
extern const size_t gb_run_n_opts;

/* Sets `a` to the defaults and parses argv (getopt_long, from the table).
 * Returns -1 when the options are whole, else the exit code (the usage
 * line printed). a->sets is allocated (freed by the caller, also on error). */
int gb_run_args_parse(int argc, char **argv, struct gb_run_args *a);

/* The text of `gpubound help run` after its summary: the options from the
 * table, then what follows them. */
const char *gb_run_help(void);

#endif
