/* cmd_tune.h - `gpubound tune`: its usage and help, registered in the
 * command table of main.c. */
#ifndef GB_CMD_TUNE_H
#define GB_CMD_TUNE_H

#define GB_TUNE_USAGE "gpubound tune SPEC.json --budget N [options]"

#define GB_TUNE_HELP                                                                               \
    "  --budget N             measure at most N configurations (1 to the space's size)\n"         \
    "  --strategy S           exhaustive, random, anneal or model (default model)\n"             \
    "  --seed S               the seed every random choice derives from (default 1)\n"           \
    "  --batch K              configurations asked of the strategy at a time (default 4; anneal 1)\n" \
    "  --bench NAME           the spec's bench to tune (default: its only one)\n"                \
    "  --out DIR              the tuning run's directory, new or empty (default\n"               \
    "                         runs/tune-<UTC time>); never inside the --replay run\n"          \
    "  --resume               go on with the cut-short tuning run in --out DIR: its recorded\n"   \
    "                         points and tune.json re-derive the search, nothing is measured again\n" \
    "  --replay RUN           measure nothing: take each configuration's record from the\n"     \
    "                         recorded run RUN (an exhaustive sweep), for benchmarks of the\n"   \
    "                         strategies (no GPU needed)\n"                                      \
    "  --device N, --quick, --set AXIS=V1,V2, --max-time S, --ci PCT, --compiler NAME\n"         \
    "                         as for run (--set narrows the space: fix the problem size)\n"     \
    "The space is every configuration the spec allows (its restrictions applied); the tuning\n" \
    "run is an ordinary run directory (each point recorded as it completes, verified as by\n"   \
    "run), with tune.json holding the search's options and its answer. Prints the best\n"      \
    "configuration with its 95% interval, the runner-up and whether they differ significantly\n" \
    "(compare's method: runner-up / best with its 99% interval beyond 2%), and for the model\n"  \
    "strategy the best unmeasured configuration's predicted time with its 95% interval and\n" \
    "which surrogate made it (the breakdown, or the Gaussian process when the breakdown cannot\n" \
    "be fitted or does not explain the measured times). The model strategy records each point's\n" \
    "default counters (as run --counters) for the breakdown's resources form.\n" \
    "docs/tuning.md explains the strategies.\n" \
    "Exit 2 for an unknown strategy, a budget of 0 or above the space, a resume that does\n" \
    "not match the run, or a --replay run that cannot be read or lacks a configuration asked\n" \
    "for; 3 without a GPU (unless --replay). A new tuning run that fails before it measured\n" \
    "(a replay, or no GPU) leaves nothing behind: the files it wrote and the directories it\n" \
    "made go again.\n"
#endif
