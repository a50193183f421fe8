/* cmd_report.h - `gpubound report`: its usage and help, registered in the
 * command table of main.c. */
#ifndef GB_CMD_REPORT_H
#define GB_CMD_REPORT_H

#define GB_REPORT_USAGE                                                                        \
    "gpubound report RUN_DIR [--out DIR] [--format table|csv|json] [--charts PATTERN ...]\n"   \
    "                [--all-charts] [--chart-format png|svg|both] [--ceilings DIR [--other-gpu]]\n" \
    "                [--no-roofline]"

#define GB_REPORT_HELP                                                                          \
    "  --out DIR        where to write the report, created if missing (default runs/NAME-report\n" \
    "                   in the current directory, NAME the run directory's name: a report never\n" \
    "                   writes into the run it reads, and an --out inside RUN_DIR or the\n"        \
    "                   --ceilings run, links resolved, is a usage error)\n"                     \
    "  --format FMT     summary on stdout as table, csv or json (default table)\n"                \
    "  --charts PAT     draw only the charts whose names match the shell pattern PAT (a chart\n" \
    "                   file stem such as 'shape-ubench1-*', or the name of the declared chart\n" \
    "                   such as 'shape'); repeatable, or a comma list; a pattern that matches\n" \
    "                   no chart of the run is a usage error\n"                                   \
    "  --all-charts     draw every chart, also of a large run\n"                                  \
    "  --chart-format F png, svg or both (default both): the images each chart is drawn as;\n"  \
    "                   the gnuplot script <chart>.gp is written in every case\n"                \
    "  --force          replace a report.md made from more points than the run now holds\n"      \
    "  --ceilings DIR   the roofs of the roofline section: this ceilings run (default: the last\n" \
    "                   ceilings* run of the same GPU in the run's parent directory or the one\n" \
    "                   above, else the guide figures of the run's device, said so)\n"          \
    "  --other-gpu      accept a ceilings run of another kind of GPU (as gpubound roofline)\n"   \
    "  --no-roofline    no roofline section\n"                                                   \
    "Reads a run directory written by 'gpubound run' (no GPU needed) and writes report.md\n"     \
    "and the charts of every suite in it: <chart>.svg and <chart>.png, drawn by gnuplot,\n"       \
    "and <chart>.gp, the script that draws them; speedup charts also write <chart>.csv,\n"       \
    "their table. The charts are those the run's charts.json declares, or, for a run\n"          \
    "recorded without one, those its suites declare in this build. A large run (over 1000\n"    \
    "points, or over 24 charts) draws only the charts a reader looks at first (docs/report.md)\n" \
    "unless --all-charts or --charts is given; its report.md and terminal summary have one\n"    \
    "row per bench, and the table of every point goes to summary.csv in the report directory\n" \
    "(and to stdout with --format csv or json). The summary table goes to stdout, followed\n"    \
    "(--format table only) by the table of every speedup chart; the files written are listed\n" \
    "on stderr. Without gnuplot the report is still written and says which charts are\n"        \
    "missing; install gnuplot-nox and run the command again.\n"                                   \
    "A run recorded with counters (run --counters) also gets a Roofline section: every point\n" \
    "under the machine's roofs as 'gpubound roofline' places it (the hierarchical roofline\n"   \
    "chart roofline.svg/.png and its table), in report.md and report.html.\n"                  \
    "report.html, beside report.md, is the same report as one offline page: sortable tables,\n" \
    "the charts drawn in the browser from the records (hover, legend toggles, wheel zoom), and\n" \
    "the CampProf calculator when the run has a campprof-model*.json. It embeds Chart.js from\n"  \
    "libjs-chart.js (make deps); without it report.html is not written and stderr says so.\n"     \
    "Every file is written aside and moved into place only when the whole report succeeded:\n" \
    "a failing report leaves the directory as it was. The run is checked when loaded: a\n"     \
    "number out of its range or contradicting statistics stop it (one line naming the file,\n" \
    "the field, the value and the allowed range); milder inconsistencies are warnings,\n"      \
    "printed and written into report.md (docs/validation.md).\n"                              \
    "Exit 0 when the report is written, 1 when the run directory or the --ceilings run is\n"    \
    "missing or malformed (a ceilings run that measured no roof among them) or a file cannot\n" \
    "be written, 2 on a usage error.\n"                                                          \
    "Example: gpubound report runs/20261121T120000Z\n"                                            \
    "Example: gpubound report data/h200/bandwidth-2026-11-21-a --out /tmp/bw-report --format csv\n"\
    "Example: gpubound report data/h200/ubench-2026-11-23-d --charts 'shape-ubench1-*' --chart-format svg\n"

#endif
