/* cmd_camp.h - `gpubound camp`: the CampProf model's usage and help,
 * registered in the command table of main.c, and what its subcommands'
 * files (cmd_camp.c: fit; cmd_camp_predict.c; cmd_camp_validate.c) share. */
#ifndef GB_CMD_CAMP_H
#define GB_CMD_CAMP_H

#include <stddef.h>

#define GB_CAMP_USAGE                                                      \
    "gpubound camp fit RUN_DIR [--out DIR | --model FILE] [--form NAME | --compare] [--p-remove P] [--format FMT] [--force]\n" \
    "       gpubound camp predict --model FILE (--gld W:N --gst W:N | --from-ncu CSV | --from-point RUN:BENCH:AXES)\n" \
    "                             (--threads T --regs R\n" \
    "                             --smem B [--dyn-smem B] [--grid G] | --warps W) [--time-ns T [--at-warps W]] [--chart F.svg]\n" \
    "                             [--html F.html] [--ceilings RUN] [--knee suite|kernel] [--in-flight B]\n" \
    "       gpubound camp validate --model FILE RUN_DIR [RUN_DIR...] [--ceilings RUN] [--out DIR] [--format FMT]\n" \
    "                              [--knee suite|kernel] [--force]\n" \
    "       gpubound camp detect SUITE/BENCH|SPEC [--set AXIS=V ...] [--refs RUN_DIR] [--quick] [--device N]\n" \
    "       gpubound camp detect --from-run RUN [--point AXIS=V,...] [--refs RUN_DIR]"

#define GB_CAMP_HELP                                                                              \
    "camp fit: the model's four equations (reads and writes, spread and camped), fitted to\n"    \
    "the camping suite's records in RUN_DIR; prints each equation's coefficients, standard\n"   \
    "errors and p-values, R^2, RMSE and held-out error, and writes the model as JSON.\n"        \
    "  --form NAME       smax4 (default): t = L_W * (1 + (w/knee_W)^4)^(1/4) per width W, a\n"   \
    "                    latency term and a throughput term (docs/models.md); smax2, sum\n"     \
    "                    (L_W + L_W*w/knee_W), max (max(L_W, L_W*w/knee_W)); paper:\n"         \
    "                    t = a1*w + a2*b2 + a3*b4 + a4*b8 + b with backward elimination;\n"     \
    "                    interactions: paper plus a slope per width (w:b2, w:b4, w:b8)\n"      \
    "  --compare         fit every form and print their fit and held-out statistics (each\n"  \
    "                    warps value left out in turn); writes nothing\n"                      \
    "  --out DIR         the directory the model is written to, as campprof-model.json\n"         \
    "                    (default runs/campprof-fit-<UTC time>, named on stdout; made when\n"    \
    "                    missing; never inside RUN_DIR: that is a usage error)\n"               \
    "  --model FILE      the model file itself, instead (the file --model reads in predict;\n"   \
    "                    never inside RUN_DIR)\n"                                                \
    "  --p-remove P      paper, interactions: drop terms whose p-value exceeds P (default 0.10)\n" \
    "  --interactions    the same as --form interactions\n"                                     \
    "  --format FMT      table, csv or json on stdout (default table)\n"                           \
    "  --force           replace a model fitted on more observations (a cut run does not\n"      \
    "                    replace a recorded model without it)\n"                                 \
    "camp predict: a kernel's best (no camping) and worst (all camped) time at every active\n"    \
    "warps per SM it can run at, and, from one measured time, its application line and\n"         \
    "camping degree (0 at best, 1 at worst). The first column is each configuration's\n"        \
    "occupancy limit (active warps per SM); the band is evaluated at its achieved warps per\n"  \
    "SM, the last column (the grid and the tail of its last wave; the launch's measured\n"      \
    "sm__warps_active where the export or point has it, with a note giving both where they\n"  \
    "differ by over 5%).\n"                                                                      \
    "  --model FILE      a model written by 'camp fit' (required)\n"                              \
    "  --gld W:N[,W:N]   N warp-level global load instructions per launch of W bytes per\n"      \
    "                    thread (W = 1, 2, 4, 8 or 16); repeatable, counts of a width add up\n"    \
    "  --gst W:N[,W:N]   the same for global stores\n"                                            \
    "  --from-ncu CSV    counts, launch and duration from an Nsight Compute CSV export\n"         \
    "                    (ncu --csv --page raw or --page details); see docs/models.md\n"           \
    "  --from-point RUN:BENCH:AXES  counts from a point recorded with 'run --counters':\n"      \
    "                    RUN a run directory, BENCH suite/bench, AXES axis=value pairs joined\n"  \
    "                    by ',' naming one record (e.g. runs/t:transpose/naive:n=4096); with\n"  \
    "                    its DRAM and L2 sectors (or an export's), the best bound is the\n"    \
    "                    measured roofs' (bytes over each level's roof, --ceilings), as in\n"  \
    "                    camp validate\n"                                                        \
    "  --ncu-id ID       the launch (ID column) to use when the export holds several\n"           \
    "  --threads T       threads per block            --regs R    registers per thread\n"         \
    "  --smem B          static shared memory per block, bytes, as in 'gpubound occupancy'\n"     \
    "                    (required with --threads; from the export with --from-ncu)\n"         \
    "  --dyn-smem B      dynamic shared memory per block at launch, bytes (default 0)\n"        \
    "  --grid G          blocks in the grid (default: enough to fill every SM)\n"                 \
    "                    (each configuration's achieved warps per SM, from the grid and the\n" \
    "                    tail of its last wave, are the table's last column: the band's warps)\n" \
    "  --warps W         the configurations 1..W active warps per SM, instead of the launch\n"   \
    "  --time-ns T       the kernel's measured time per launch, ns\n"                             \
    "  --at-warps W      the active warps per SM it was measured at (default: the launch's,\n"   \
    "                    or W of --warps)\n"                                                       \
    "  --cc X.Y          the limits of compute capability X.Y instead of the model's device\n"    \
    "  --ceilings RUN    the roofs of the best bound (with level counters) and of the domain\n"  \
    "                    of validity (default: the device's guide figures): a kernel too\n"     \
    "                    small to load the memory system or latency-bound (its achieved\n"     \
    "                    warps per SM from --grid; docs/models.md) gets no degree and no\n"    \
    "                    application line: the header says THE BAND DOES NOT APPLY and why\n" \
    "                    (stdout, and a note on stderr), exit 0; with a roof best bound the\n"  \
    "                    line takes a latency shape across warps (--knee)\n"                  \
    "  --knee K          kernel (default): the kernel's own shape, whose knee is the suite's\n" \
    "                    knee x bytes in flight over the kernel's bytes in flight (from\n"   \
    "                    --in-flight, or with --from-point read from its kernel's PTX;\n"    \
    "                    docs/models.md, 'The kernel's own knee'); without them, or for a\n" \
    "                    kernel with global atomics at a quarter of its global loads or\n"   \
    "                    more, or atomics that cannot be counted, the suite's (a note says\n" \
    "                    why); suite: the camping suite's shape always\n"                    \
    "  --in-flight B     the bytes of global loads one thread keeps in flight (instead of\n" \
    "                    the point's PTX; not with --knee suite)\n"                           \
    "  --chart F.svg     draw the band into F.svg and F.png (and its script F.gp)\n"               \
    "  --html F.html     write the CampProf calculator, filled with these inputs, as one offline\n" \
    "                    page (needs libjs-chart.js; see docs/report.md); it takes the counts and\n" \
    "                    the launch only: no roof best bound, no measured warps\n"                \
    "  --format FMT      table, csv or json on stdout (default table)\n"                           \
    "camp validate: for each validation application in the RUN_DIRs (camping/gem, clique,\n"     \
    "transpose_coalesced, transpose_diagonal, and kernel-spec points that record\n"            \
    "active_warps_per_sm, grouped by their axes other than block_size_* and occupancy_*),\n"   \
    "predicts from every\n"                                                                      \
    "measured configuration in\n"                                                              \
    "turn and prints the geometric-mean error of the best and worst bounds and of the\n"         \
    "application line against the measured times (and from the starts inside the band only),\n" \
    "the share of points inside their band, and draws one chart per application (at most 32;\n" \
    "the rest are counted). A kernel-spec point's configuration is its achieved warps per SM\n" \
    "(sm__warps_active where recorded, else from its grid, block size and occupancy limit).\n" \
    "A point too small to load the memory system or latency-bound (docs/models.md, 'Domain of\n" \
    "validity') is left out of the errors: a note names it and the reason, the table\n"     \
    "counts it under 'outside domain', and the chart draws it as a series of its own, the\n" \
    "line starting from the middle configuration inside. Inside the band means within the\n" \
    "band widened by the model's held-out error. The table gives the achieved warps and the\n" \
    "times each application spans; where every configuration runs within 10% of one warp\n"  \
    "count but the times differ by more than 25%, a note says the line (a function of the\n" \
    "warps) cannot follow what separates them.\n"                                           \
    "  --model FILE      a model written by 'camp fit' (required)\n"                              \
    "  --ceilings RUN    the roofs the domain is judged under: a run of 'gpubound run ceilings'\n" \
    "                    on the same GPU (default: the guide figures of the model's device);\n"  \
    "                    with points' level counters, the best bound is the roofs', flat in\n" \
    "                    the warps, and the line takes a latency shape across warps,\n"      \
    "                    --knee's (docs/models.md, 'Band, degree and application line')\n"  \
    "  --knee K          kernel (default): each kernel-spec point's own shape, its knee\n"  \
    "                    from the bytes of global loads its PTX keeps in flight a\n"          \
    "                    thread (NVRTC compiles the run's spec; docs/models.md, 'The kernel's\n" \
    "                    own knee'); the table gives each application's knee and bytes;\n"   \
    "                    an application whose configurations' global atomics are, at the\n"   \
    "                    median, a quarter of their global loads or more (its counters, else\n" \
    "                    the source analysis), or cannot be counted, keeps the suite's (a\n"   \
    "                    note says how many and why); the camping suite's own applications\n" \
    "                    take its shape; suite: the camping suite's shape for every point\n" \
    "  --out DIR         where to write the charts and validation.csv, the table (default\n"   \
    "                    runs/campprof-validate-<UTC time>, named on stdout; never inside a\n" \
    "                    RUN_DIR or the --ceilings run: that is a usage error)\n"               \
    "  --format FMT      table, csv or json on stdout (default table)\n"                           \
    "  --force           replace a validation.csv made from more configurations\n"              \
    "Validation computes every application before it writes: its charts and validation.csv\n"  \
    "are moved into DIR together, only when all succeeded. With more than 1024\n"              \
    "configurations in one application the application line starts from 1024 of them,\n"     \
    "evenly spaced.\n"                                                                          \
    "camp detect: profiles the points in-process (CUPTI) and prints, per L2 slice and per\n"  \
    "DRAM partition, the traffic's max/mean and max/min over the instances and a verdict\n"  \
    "against the camping suite's spread and camped sets (camping/read, width 4, 64 warps),\n"   \
    "profiled in the same command: camped when max/mean is at least 2 times the spread\n"      \
    "reference's (\"camped on N of M slices, X times the spread reference\").\n"                \
    "  --refs RUN_DIR    read the references from a camping run recorded with --counters\n"    \
    "  --from-run RUN    no GPU: judge the points recorded in RUN with counters instead; per\n" \
    "                    point, the share of the L2 sectors on the busiest slice (max/sum of\n" \
    "                    lts__t_sectors), an even share (1/slices), and with --refs the spread\n" \
    "                    and camped references' shares and the verdict; without --refs the\n" \
    "                    shares are printed and stderr names the run that would give them\n"  \
    "  --point AXES      with --from-run: only the points with these axis=value pairs\n"      \
    "  --set, --quick, --device   the points, as for run\n"                                     \
    "Camp commands other than detect (without --from-run) need no GPU. Exit 0 on success; 1 when a run, model or export is\n"         \
    "missing or malformed, a run has no camping records, a fit fails or a file cannot be\n"       \
    "written; 2 on a usage error (a malformed count, and a launch whose block cannot run, among them);\n"  \
    "detect: 3 without a GPU.\n"                               \
    "Example: gpubound camp detect transpose/naive --set n=4096\n"                             \
    "Example: gpubound camp detect --from-run runs/corpus/rowsum --point rows=512,cols=65536 \\\n" \
    "           --refs runs/camping-counters\n"                                                 \
    "Example: gpubound camp fit runs/camping --out runs/camp\n"                                                   \
    "Example: gpubound camp predict --model runs/camp/campprof-model.json --gld 4:1179648 \\\n" \
    "           --gst 4:1179648 --warps 64 --at-warps 32 --time-ns 223920 --chart transpose.svg\n" \
    "Example: gpubound camp predict --model M.json --from-ncu transpose.csv --chart t.svg\n"      \
    "Example: gpubound camp validate --model runs/camp/campprof-model.json runs/camping\n" \
    "           --ceilings runs/ceilings --out runs/camping-validation\n"

struct gb_camp_model;
struct gb_report_result;

/* `camp predict` and `camp validate`, argv[0] being the subcommand. */
int camp_cli_predict(int argc, char **argv);
int camp_cli_validate(int argc, char **argv);
int camp_cli_detect(int argc, char **argv);

struct gb_ncu_report;
/* `camp predict --from-point RUN:SUITE/BENCH[:AXIS=V,...]`: the one record
 * it names, with counters, as a report of one launch whose metrics are the
 * record's counters (and its shape's metrics) in *out (gb_ncu_free), and
 * *hot 1 when the record was timed hot (back to back). The exit code; the
 * error line is printed. */
int camp_cli_point_report(const char *spec, struct gb_ncu_report **out, int *hot, double *inflight);

/* A finite number; 0, or -1 on bad input. */
int camp_cli_parse_double(const char *s, double *v);
/* --knee: "suite" 0, "kernel" 1 (the default: the application line's latency
 * shape from the kernel's own loads in flight, gb_camp_model_inflight); -1
 * otherwise. */
int camp_cli_parse_knee(const char *s);
/* With the kernel's own knee (own != 0): the model's product of knee and bytes in
 * flight (gb_camp_model_inflight), or a note on stderr that every line
 * keeps the camping suite's knee, and why. */
void camp_cli_model_inflight(struct gb_camp_model *m, int own);
struct gb_run;
/* Whether `run` was recorded from a kernel spec: its points have loads in
 * flight of their own; the camping suite's points take the suite's knee. */
int camp_cli_run_of_spec(const struct gb_run *run);

/* "dir/name" without doubled slashes. */
void camp_cli_path_in(char *buf, size_t n, const char *dir, const char *name);

/* The model's device name, or "an unnamed device". */
const char *camp_cli_device_name(const struct gb_camp_model *m);

struct gb_ceilings;
/* The roofs of ceilings run `ceil_dir` into *c for model `m` (read from
 * `model_path`): a run of another kind of GPU than the model's is refused,
 * as roofline and report refuse it (gb_cli_roofs_same_gpu). The exit
 * code; the one error line, prefixed by `what`, is printed. */
int camp_cli_ceilings(const char *what, const char *ceil_dir, const char *model_path,
                      const struct gb_camp_model *m, struct gb_ceilings *c);

/* Lists on stderr the charts gnuplot could not draw. */
void camp_cli_report_files(const struct gb_report_result *res);

#endif
