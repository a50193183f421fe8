/* cmd_roofline.h - `gpubound roofline` and the roofs `gpubound info
 * --ceilings` shows (src/cli/cmd_roofline.c). */
#ifndef GB_CLI_CMD_ROOFLINE_H
#define GB_CLI_CMD_ROOFLINE_H

#define GB_ROOFLINE_USAGE "gpubound roofline RUN [--ceilings CEILRUN [--other-gpu]] [--format table|csv|json] [--out DIR [--force]]"
#define GB_ROOFLINE_HELP                                                                              \
    "  --ceilings DIR  the roofs: the largest rate of each roof bench in this ceilings run\n"          \
    "                  (default: the guide figures of RUN's device, labelled 'guide figures, not\n"   \
    "                  measured'; record one with 'gpubound run ceilings bandwidth/read\n"             \
    "                  throughput/arith --set op=ffma,dfma,imul,__sinf --set mode=tput --out DIR')\n" \
    "  --format FMT    the table on stdout as table, csv or json (default table)\n"                   \
    "  --out DIR       also write DIR/roofline.csv, DIR/report.md and the chart roofline.svg/.png\n"  \
    "                  (never inside RUN or CEILRUN, links resolved: refused, exit 2)\n"             \
    "  --force         with --out, replace a report.md that another command (report) wrote in DIR\n" \
    "                  (without it that is refused, exit 1: --out writes elsewhere)\n"              \
    "  --pipe NAME     the pipe of every point's operations: fp32, fp64, fp16, bf16, tc_fp16,\n"      \
    "                  tc_bf16, tc_fp8, int or mufu (default: FP64 when the counters show more\n"     \
    "                  FP64-pipe than FMA-pipe instructions, else FP32)\n"                             \
    "  --no-chart      with --out, no chart\n"                                                         \
    "  --other-gpu     accept a ceilings run of another kind of GPU than RUN's (said on stderr);\n"   \
    "                  without it such roofs are refused: they do not bound this GPU\n"             \
    "Each point's arithmetic intensity at DRAM, L2 and L1/shared (from its counters, run\n"           \
    "--counters), the roof that binds (its time cannot be below bytes / bandwidth at each\n"         \
    "level nor below operations / the pipe's rate), and the attained fraction of it; a point\n"      \
    "faster than a roof allows is flagged 'above measured roof' ('another pipe? --pipe' when\n"      \
    "that roof is its pipe's). A hot point (samples back to back) whose data fits in 75% of the\n"   \
    "L2 has no DRAM bytes; one faster than its counted DRAM bytes allow at the DRAM roof takes\n"  \
    "them less the L2's capacity, the least a launch can move (flag 'partly in L2'). Without\n"    \
    "counters: the spec's bytes and flops with the DRAM roof only. No GPU needed.\n"                \
    "Exit 0 on success; 1 when RUN or the --ceilings run cannot be read (missing, damaged) or\n"     \
    "the ceilings run measured no roof; 2 on a usage error.\n"                                       \
    "Example: gpubound roofline data/h200/examples-counters-2026-11-23/sgemm --ceilings \\\n"       \
    "         data/h200/ceilings-2026-11-26 --out /tmp/rl\n"

int gb_cmd_roofline(int argc, char **argv);

/* Prints the roofs of ceilings run `dir` on stdout: each roof's measured
 * value, the record that set it, and its guide figure. Returns the exit
 * code (1 with one line on stderr when the run measured no roof). */
int gb_cli_ceilings_print(const char *dir);

#endif
