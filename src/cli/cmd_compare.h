/* cmd_compare.h - `gpubound compare`: its usage and help, registered in the
 * command table of main.c. */
#ifndef GB_CMD_COMPARE_H
#define GB_CMD_COMPARE_H

#define GB_COMPARE_USAGE "gpubound compare BASE NEW [options]"

#define GB_COMPARE_HELP                                                                          \
    "  BASE, NEW              a run directory each, or several joined by commas (run1,run2):\n"   \
    "                         the runs of a side pool their samples point by point\n"             \
    "  --alpha A              test size and 1 - confidence level of the intervals (default 0.01)\n" \
    "  --threshold PCT        smallest change that counts, in percent (default 2)\n"             \
    "  --format FMT           table (default), csv or json\n"                                    \
    "  --fail-on-regression   exit 1 when a point is significantly slower beyond the threshold,\n" \
    "                         or measured in BASE and failed, skipped or missing in NEW\n"        \
    "  --pair A=B             compare base bench A with new bench B (SUITE/BENCH each) on equal\n" \
    "                         axes, e.g. --pair transpose/padded=transpose/coalesced; repeatable;\n" \
    "                         with --pair only the paired benches are compared\n"               \
    "  --anchor-base RUN      a bandwidth run on the base GPU: its best bandwidth/copy GB/s is\n"  \
    "  --anchor-new RUN       the GPU's anchor (default: peak memory bandwidth from run.json)\n"  \
    "  --chart DIR            draw compare.svg/.png (and its gnuplot script) into DIR, never\n"  \
    "                         inside a run compared (links resolved: refused, exit 2)\n"         \
    "  --chart-points N       at most N points on the chart, largest effects first (default 60)\n" \
    "Matches points by suite, bench, cache mode and axes, and lists points measured on one side\n" \
    "only. Each matched point gets the time ratio new / base with its 1 - alpha interval: from\n" \
    "the kept samples the Hodges-Lehmann shift of log times with its rank-sum (Mann-Whitney)\n"  \
    "interval and p-value; for runs recorded without samples, from the medians and their stored\n" \
    "95% intervals only (method 'summary', said in the output). A point is slower (or faster)\n" \
    "when its interval excludes 1 and the ratio exceeds 1 + threshold (or is below 1 -\n"      \
    "threshold); otherwise 'no change'. Rows are sorted by effect, largest first. Notes flag a\n" \
    "side that throttled, SM clocks that differ by more than 3%, or a stopping rule that held on\n" \
    "one side only. When the sides ran on different GPUs the 'anchored' columns give the ratio\n" \
    "times anchor(new) / anchor(base): below 1, the kernel uses the new GPU better than its\n" \
    "bandwidth alone explains. docs/models.md ('Comparing runs') explains the method.\n"        \
    "A fleet run is compared GPU by GPU with another fleet run (rank with rank, 'rank=N' in the\n" \
    "point's name), never pooled; with a run that is not a fleet run it is refused.\n"        \
    "The gate (--fail-on-regression) fails, exit 1 with one line counting each cause, when:\n" \
    "  - a matched point is slower: its interval excludes 1 and its ratio is beyond 1 + threshold;\n" \
    "  - a point measured in BASE failed verification, was skipped, stopped on an error or is\n" \
    "    missing in NEW (the summary line counts them; 'only in base' says which and why).\n" \
    "compare refuses, before comparing (one line): a run that cannot be read, among them a\n"  \
    "measured record whose median or interval reaches 0 or that keeps a sample of 0 (exit 1,\n" \
    "file and field named); a side that gives one run twice, by the same directory or a copy\n" \
    "of it (the same host, start, finish, command line and GPU in run.json), or a fleet run\n" \
    "against a run that is not one (exit 2); a run that holds no record, and runs without a\n" \
    "matched point (exit 1).\n"                                                               \
    "A point without enough samples for an interval at alpha is 'no change' (its note says so).\n" \
    "Exit 0, or 1 with --fail-on-regression as above; 1 when a run cannot be read or no point\n" \
    "matches; 2 on a usage error.\n"                                                          \
    "Example: gpubound compare runs/before runs/after\n"                                        \
    "Example: gpubound compare runs/main runs/pr --fail-on-regression --threshold 3\n"          \
    "Example: gpubound compare data/h100/bw data/h200/bw --chart cmp --format csv\n"

#endif
