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
    "  --fail-on-regression   exit 1 when a point is significantly slower beyond the threshold\n" \
    "  --pair A=B             compare base bench A with new bench B (SUITE/BENCH each) on equal\n" \
    "                         axes, e.g. --pair transpose/padded=transpose/coalesced; repeatable;\n" \
    "                         with --pair only the paired benches are compared\n"               \
    "  --anchor-base RUN      a bandwidth run on the base GPU: its best bandwidth/copy GB/s is\n"  \
    "  --anchor-new RUN       the GPU's anchor (default: peak memory bandwidth from run.json)\n"  \
    "  --chart DIR            draw compare.svg/.png (and its gnuplot script) into DIR\n"        \
    "  --chart-points N       at most N points on the chart, largest effects first (default 60)\n" \
    "Matches points by suite, bench, cache mode and axes, and lists points found on one side\n" \
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
    "Exit 0, or 1 with --fail-on-regression when a point is slower; 1 when a run cannot be\n"   \
    "read or no point matches; 2 on a usage error.\n"                                           \
    "Example: gpubound compare runs/before runs/after\n"                                        \
    "Example: gpubound compare runs/main runs/pr --fail-on-regression --threshold 3\n"          \
    "Example: gpubound compare data/h100/bw data/h200/bw --chart cmp --format csv\n"

#endif
