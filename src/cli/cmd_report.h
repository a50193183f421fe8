/* cmd_report.h - `gpubound report`: its usage and help, registered in the
 * command table of main.c. */
#ifndef GB_CMD_REPORT_H
#define GB_CMD_REPORT_H

#define GB_REPORT_USAGE "gpubound report RUN_DIR [--out DIR] [--format table|csv|json]"

#define GB_REPORT_HELP                                                                          \
    "  --out DIR        where to write the report (default RUN_DIR/report); created if missing\n" \
    "  --format FMT     summary on stdout as table, csv or json (default table)\n"                \
    "Reads a run directory written by 'gpubound run' (no GPU needed) and writes report.md\n"     \
    "and the charts of every suite in it: <chart>.svg and <chart>.png, drawn by gnuplot,\n"       \
    "and <chart>.gp, the script that draws them; speedup charts also write <chart>.csv,\n"       \
    "their table. The summary table goes to stdout, followed (--format table only) by the\n"     \
    "table of every speedup chart; the files written are listed on stderr. Without gnuplot\n"   \
    "the report is still written and says which charts are missing; install gnuplot-nox\n"      \
    "and run the command again.\n"                                                                \
    "Exit 0 when the report is written, 1 when the run directory is missing or malformed\n"     \
    "or a file cannot be written, 2 on a usage error.\n"                                          \
    "Example: gpubound report runs/20261121T120000Z\n"                                            \
    "Example: gpubound report data/h100/bandwidth --out /tmp/bw-report --format csv\n"

#endif
