#!/usr/bin/env bash
# scripts/bench_tune.sh BUILD OUTDIR [--runs SWEEPS ...] [--site SITE] [--seeds N] [--top K] [KERNEL/BENCH ...]
#
# The tuning benchmark (docs/tuning.md, "Benchmarks"): every strategy of
# `gpubound tune` with 20 seeds (--seeds) over a replay of the recorded
# exhaustive corpus sweeps (`tune --replay`: measured times looked up, no
# GPU), on the corpus kernels with the largest spaces (--top, default 8;
# or the KERNEL/BENCH named), each bench's problem axes fixed at their
# largest values; with --site (a site-packages directory holding Kernel
# Tuner), Kernel Tuner's random_sample, simulated_annealing,
# genetic_algorithm and bayes_opt in its simulation mode over a kt-cache
# exported from the same sweeps. Reports the evaluations needed to reach
# within 2% of the exhaustive best (median and worst over the seeds) and
# their share of the space in OUTDIR/bench_tune.md (and .json).
# --runs defaults to both GPUs' committed sweeps (data/h100 and data/h200,
# corpus-2026-11-26).
set -euo pipefail
if [ $# -lt 2 ]; then
    sed -n 2,3p "$0" | sed 's/^# //' >&2
    exit 2
fi
BUILD=$1 OUTDIR=$2
shift 2
SRC=$(cd "$(dirname "$0")/.." && pwd)
[ -x "$BUILD/gpubound" ] || { echo "bench_tune: $BUILD/gpubound is not built; run 'make build'" >&2; exit 2; }
RUNS=()
case " $* " in
*" --runs "*) ;;
*) RUNS=(--runs "$SRC/data/h100/corpus-2026-11-26" --runs "$SRC/data/h200/corpus-2026-11-26") ;;
esac
exec python3 "$SRC/scripts/bench_tune.py" "$BUILD" "$OUTDIR" "${RUNS[@]}" "$@"
