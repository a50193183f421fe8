/* cmd_breakdown.h - `gpubound breakdown`: its usage and help, registered in
 * the command table of main.c. */
#ifndef GB_CMD_BREAKDOWN_H
#define GB_CMD_BREAKDOWN_H

#define GB_BREAKDOWN_USAGE                                                                     \
    "gpubound breakdown RUN_DIR [--bench B] [--holdout loo|every:K|size:AXIS=V] [--explain]\n" \
    "                   [--form formula|counters|resources] [--weight relative|none]\n"        \
    "                   [--intercept] [--average] [--ceilings RUN]... [--spec PATH]\n"          \
    "                   [--predict AXIS=V[,AXIS=V...]]... [--on RUN]\n"                        \
    "                   [--out DIR] [--force] [--no-chart] [--format table|csv|json]"

#define GB_BREAKDOWN_HELP                                                                       \
    "  --bench B        one bench of the run's kernel spec (default: every bench it recorded)\n" \
    "  --holdout H      the held-out check: loo (default: each configuration predicted from a\n" \
    "                   fit on the others), every:K (every K-th configuration held out), or\n"   \
    "                   size:AXIS=V (the problem size AXIS=V held out, the others fitted);\n"    \
    "                   every:K and size also give each held-out configuration the 95%\n"       \
    "                   interval of --predict from the fitted ones (at a size they lack,\n"    \
    "                   widened as --predict widens it), and count the measured times\n"      \
    "                   inside it\n"                                                          \
    "  --explain        print what the source analysis found: loops and their trip counts,\n"   \
    "                   global and shared accesses, operations, atomics, barriers, per-thread\n" \
    "                   counts as expressions, and each configuration's counts\n"              \
    "  --form F         resources (each measured count over the machine's roof, with the\n"    \
    "                   grid's fill, waves and load round trips), formula (the thesis's\n"     \
    "                   predictors from the kernel's source) or counters (its predictors\n"    \
    "                   from the counters); default: resources when every record has the\n"   \
    "                   counters it needs, else formula, and counters where they allow\n"     \
    "  --ceilings RUN   a ceilings run (gpubound run ceilings ...) on the run's GPU: the\n"     \
    "                   resources form's measured roofs (default: the guide's theoretical\n"  \
    "                   figures, said so in the output); give it again for --on's GPU\n"      \
    "  --predict AXES   the modelled time, its 95% bootstrap interval and its terms at\n"      \
    "                   AXIS=V[,AXIS=V...] (every axis of the bench), measured or not; an\n"  \
    "                   unmeasured one takes its counters from a power law in the axes\n"     \
    "                   fitted to the measured ones (less certain, said so, the interval\n"   \
    "                   widened); at a problem size not measured, widened again by the\n"     \
    "                   fit's own error across its sizes (each predicted from the others;\n" \
    "                   said so); repeatable\n"                                               \
    "  --on RUN         predict RUN (the same spec recorded on another GPU, or again) with\n" \
    "                   the coefficients fitted here, its counters and the --ceilings of\n"   \
    "                   its GPU, and compare with its measured times (the model file's\n"     \
    "                   \"on\")\n"                                                              \
    "  --weight W       relative (default: weights 1/t^2, the fit minimizes relative error)\n" \
    "                   or none (the thesis's plain least squares)\n"                          \
    "  --intercept      fit a fixed time per launch too (the FIX term: a latency floor the\n"   \
    "                   thesis's model leaves out; the model file says so)\n"                  \
    "  --average        resources form: predictions averaged over the fits the points cannot\n" \
    "                   tell apart, every p with every term or one fitted term left out,\n"   \
    "                   weighted exp(-BIC/2) (docs/models.md, 'Averaging the fits'; the\n"    \
    "                   coefficients printed are the heaviest's); default: the one fit\n"     \
    "                   that fits best\n"                                                      \
    "  --spec PATH      the kernel spec the run was recorded from (default: the copy the run\n" \
    "                   directory keeps, else the .json on its command line)\n"                 \
    "  --out DIR        where lpbm-model.json and the charts go (default: a new directory\n"  \
    "                   runs/breakdown-<UTC time>, named on stdout); never RUN_DIR or a\n"    \
    "                   directory inside it (refused, exit 2)\n"                               \
    "  --force          replace a recorded lpbm-model.json fitted on more configurations\n"    \
    "  --no-chart       no breakdown chart\n"                                                   \
    "  --format FMT     table (default), or csv or json: the breakdown table only\n"           \
    "Fits the resources model t = ((a1*DRAM)^p + (a2*L2)^p + (a3*SHM)^p + (a4*INST)^p +\n"    \
    "(a5*PIPE)^p + (a6*LAT)^p + (a7*DLAT)^p + (a8*SLAT)^p + (a9*ILAT)^p + (a10*SYNC)^p +\n" \
    "(a11*ATOM)^p + (a12*LAUNCH)^p)^(1/p),\n"                                               \
    "p from 1 to 6 as fits best (docs/models.md, 'The resources form'); a roof term the\n"   \
    "points cannot place (no work at any of them, or under 1/64 of its roof at all) is a\n"   \
    "floor at its roof: a prediction is at least that work at the roof (--average: over\n" \
    "the fits the points cannot tell apart).\n"                                              \
    "Or the Linear Performance-Breakdown\n"                                                   \
    "Model t = a1*PUT + a2*G2ST + a3*S2PT + a4*ATOM + a5*SYNC (a_j >= 0; ATOM, the launch's atomic\n"  \
    "operations, and SYNC, the barriers on a thread's path, are present when the kernel has\n"   \
    "any) to a recorded kernel-spec run whose bench sweeps a block size (no GPU needed):\n"      \
    "prints the coefficients with 95% residual-bootstrap intervals, R^2, RMSE, the held-out\n"  \
    "error, each configuration's breakdown beside its measured time, and which term dominates\n" \
    "at the best configuration; writes lpbm-model.json and\n"                                  \
    "breakdown-<suite>-<bench>[-<problem>].svg.\n"                                              \
    "docs/models.md ('LPBM') explains the predictors and how to read the chart.\n"              \
    "The spec read must be the one measured: its file and sources are checked against the\n"  \
    "SHA-256 the run's run.json keeps, and one that differs is refused (exit 1, naming the\n"  \
    "file and both digests); its \"lpbm\" hints may change. A run recorded before runs kept\n" \
    "digests is fitted with one warning that its spec is not checked.\n"                     \
    "A fit that does not explain its data (every term absent or zero, R^2 below 0.90, the\n"  \
    "held-out median error above 20%, or every coefficient's interval reaching zero) names\n"  \
    "no term and gives no advice: it says so, names the configurations it misses most and\n"  \
    "the most likely reason (no term for the resource, a regime change, noise, L2 traffic\n"  \
    "camped on a few slices: the busiest slice at 1.5 times the mean or more), and exits 4.\n" \
    "Exit 0 on success, 1 when the run or its spec is missing or malformed, or not the spec\n" \
    "measured, 2 on a usage error\n"                                                           \
    "(a bench that sweeps neither its block size nor its grid at a problem size, fewer than 4\n" \
    "configurations), 4 when the model does\n"                                                 \
    "not explain a bench (its outputs are still written).\n"

#endif
