#!/usr/bin/env bash
# scripts/device/tune.sh GPUBOUND OUTDIR
#
# The tuning benchmark on one GPU (docs/tuning.md, "Benchmarks"), at most
# 645 s of step limits (15 + 10 installing Kernel Tuner, 80 + 35 + 50 + 40
# + 35 + 30 sweeping, 140 replaying, 60 + 45 live on each of two spaces;
# about 330 s on an H200), every step under `timeout` and reporting its
# exit code:
#  a) exhaustive sweeps (no counters) of the corpus-tune/ specs, the large
#     tuning spaces (sgemm, stencil2d, conv2d, reduce, transpose,
#     histogram), into OUTDIR/corpus-tune/KERNEL; with TUNE_SWEEPS=DIR set,
#     nothing is swept: DIR's sweeps (DIR/corpus-tune/KERNEL, or DIR/KERNEL,
#     as an earlier run of this script or its sweeps.tgz left them) are
#     copied into OUTDIR/corpus-tune instead;
#  b) the replay benchmark (scripts/bench_tune.py, 20 seeds, every gpubound
#     strategy and Kernel Tuner's four in its simulation mode) over those
#     sweeps and the committed corpus sweeps of this GPU
#     (data/GPU/corpus-2026-11-26, GPU h100 or h200 from nvidia-smi), into
#     OUTDIR/bench_tune.md and .json;
#  c) live, side by side on corpus-tune/stencil2d (budget 30) and conv2d
#     (45): `gpubound tune --strategy model --compiler nvrtc` and Kernel
#     Tuner's best strategy of (b) on that space (CuPy backend, the same
#     source and budget, verified by its answer), into OUTDIR/live/
#     (KERNEL.md: both wall times and best times).
# Kernel Tuner comes from the wheels in .whl/ (pip install --no-index
# --no-deps --target OUTDIR/.site, removed at the end). Writes
# OUTDIR/summary.md and prints it.
set -u
if [ $# -ne 2 ]; then
    echo "usage: scripts/device/tune.sh GPUBOUND OUTDIR" >&2
    exit 2
fi
gb=$1 out=$2
sweeps=${TUNE_SWEEPS:-}
src=$(cd "$(dirname "$0")/../.." && pwd)
if [ ! -x "$gb" ]; then
    echo "tune.sh: $gb is not an executable gpubound; build it first (make build)" >&2
    exit 2
fi
if [ -n "$sweeps" ]; then
    [ -d "$sweeps/corpus-tune" ] && sweeps="$sweeps/corpus-tune"
    if ! ls "$sweeps"/*/results.json* >/dev/null 2>&1; then
        echo "tune.sh: TUNE_SWEEPS=$TUNE_SWEEPS holds no sweep (DIR/corpus-tune/KERNEL/results.json or DIR/KERNEL/results.json)" >&2
        exit 2
    fi
fi
mkdir -p "$out/corpus-tune" "$out/live" || { echo "tune.sh: cannot create $out" >&2; exit 2; }
t_start=$(date +%s)
summary="$out/summary.md"
steps=()
now() { date +%s.%N; }
elapsed() { echo $(($(date +%s) - t_start)); }
# step NAME LIMIT_S CMD...: runs CMD under timeout, its output in OUTDIR/NAME.log
step() {
    local name=$1 limit=$2 t0 t1 rc
    shift 2
    t0=$(now)
    # SIGINT first, so that an interrupted run keeps the points it finished.
    timeout -s INT -k 5 "$limit" "$@" >"$out/$name.log" 2>&1
    rc=$?
    t1=$(now)
    steps+=("| $name | $rc$([ "$rc" = 124 ] && echo ' (timed out)') | $(awk "BEGIN { printf \"%.1f\", $t1 - $t0 }") | $limit |")
    echo "tune.sh: $name exited $rc after $(awk "BEGIN { printf \"%.1f\", $t1 - $t0 }") s (limit $limit s; $(elapsed) s in all)"
    return "$rc"
}

name=$(nvidia-smi --query-gpu=name --format=csv,noheader 2>/dev/null | head -1)
case "$name" in
*H100*) gpu=h100 ;;
*H200*) gpu=h200 ;;
*) gpu=h100; echo "tune.sh: GPU '$name' is neither an H100 nor an H200: comparing with the H100's corpus" ;;
esac
corpus="$src/data/$gpu/corpus-2026-11-26"
echo "tune.sh: GPU $name ($gpu), corpus sweeps $corpus"

# Kernel Tuner from the carried wheels (.whl/, else .carry/.whl/).
site="$out/.site"
kt_ok=0
whl="$src/.whl"
[ -d "$whl" ] || whl="$src/.carry/.whl"
if ls "$whl"/*.whl >/dev/null 2>&1 &&
    step pip-install 15 python3 -m pip install --no-index --no-deps --target "$site" "$whl"/*.whl &&
    PYTHONPATH="$site" timeout 10 python3 -c 'import kernel_tuner, cupy' >>"$out/pip-install.log" 2>&1; then
    kt_ok=1
else
    echo "tune.sh: Kernel Tuner cannot be installed or imported (no .whl/ or see $out/pip-install.log): its columns are left out"
fi

# (a) the large spaces, exhaustively, no counters, or the sweeps of
# TUNE_SWEEPS.
# --max-time 0.5 as the corpus sweeps were recorded (scripts/record_corpus.sh);
# --compiler nvrtc as they were compiled, which also keeps 746 compiles inside
# the step's limit (the strategies are compared over one recorded sweep).
kernels="sgemm stencil2d conv2d reduce transpose histogram"
if [ -n "$sweeps" ]; then
    for k in $kernels; do
        [ -d "$sweeps/$k" ] && cp -r "$sweeps/$k" "$out/corpus-tune/$k"
    done
    echo "tune.sh: nothing swept; the sweeps of $sweeps copied into $out/corpus-tune: $(ls "$out/corpus-tune" | tr '\n' ' ')"
else
    # sweep KERNEL LIMIT_S: corpus-tune/KERNEL swept into OUTDIR/corpus-tune/KERNEL
    sweep() {
        step "sweep-$1" "$2" "$gb" run "$src/corpus-tune/$1/spec.json" --no-report --max-time 0.5 \
            --compiler nvrtc --out "$out/corpus-tune/$1"
    }
    sweep sgemm 80
    sweep stencil2d 35
    sweep conv2d 50
    sweep reduce 40
    sweep transpose 35
    sweep histogram 30
fi

# (b) the replay benchmark; its searches stop at the deadline, so the
# tables are written whatever happens.
site_arg=()
[ "$kt_ok" = 1 ] && site_arg=(--site "$site")
# One BLAS thread per process: the searches run on every core already.
step replay 140 env OMP_NUM_THREADS=1 OPENBLAS_NUM_THREADS=1 MKL_NUM_THREADS=1 \
    python3 "$src/scripts/bench_tune.py" "$(dirname "$gb")" "$out" --runs "$out/corpus-tune" --runs "$corpus" \
    --seeds 20 --deadline 128 "${site_arg[@]}"

# (c) live, side by side, the same budget: on stencil2d (the space the
# strategy was designed on) and conv2d (one written after it); gpubound
# compiles with NVRTC as the sweeps did, so that the sweep's clock and its
# own agree. live KERNEL BENCH BUDGET writes OUTDIR/live/KERNEL.md.
live() {
    local k=$1 bench=$2 budget=$3 strategy t0 wall
    strategy=$(python3 "$src/scripts/bench_tune_live.py" pick "$out/bench_tune.json" "$out/corpus-tune/$k" "$bench")
    kt_strategies="$kt_strategies $k:$strategy"
    lived="$lived $k"
    t0=$(now)
    step "live-gpubound-$k" 60 "$gb" tune "$src/corpus-tune/$k/spec.json" --strategy model --budget "$budget" \
        --compiler nvrtc --out "$out/live/gb-$k"
    wall=$(awk "BEGIN { printf \"%.2f\", $(now) - $t0 }")
    if [ "$kt_ok" = 1 ]; then
        step "live-kernel-tuner-$k" 45 env PYTHONPATH="$site" python3 "$src/scripts/bench_tune_live.py" kt \
            "$src/corpus-tune/$k/spec.json" "$bench" "$strategy" "$budget" "$out/live/kt-$k.json"
    fi
    python3 "$src/scripts/bench_tune_live.py" table "$out/live/$k.md" "$out/live/gb-$k" "$wall" \
        "$out/live/kt-$k.json" "$out/corpus-tune/$k" "$budget" >/dev/null 2>"$out/live/table-$k.log"
}
kt_strategies="" lived=""
live stencil2d blur 30
live conv2d filter7 45
rm -rf "$site"

{
    echo "# scripts/device/tune.sh on $name"
    echo
    echo "| step | exit | seconds | limit |"
    echo "|---|---|---|---|"
    printf '%s\n' "${steps[@]}"
    echo
    [ -n "$sweeps" ] && echo "Nothing swept: the corpus-tune sweeps are those of $sweeps." && echo
    echo "$(elapsed) s in all. Kernel Tuner: $([ "$kt_ok" = 1 ] && echo "installed; live strategies$kt_strategies" || echo "not installed")."
    for k in $kernels; do
        r="$out/corpus-tune/$k/run.json"
        [ -f "$r" ] && echo "- corpus-tune/$k: $(python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); print("complete" if d.get("complete") else "INCOMPLETE")' "$r" 2>&1), $(python3 -c 'import sys; sys.path.insert(0, sys.argv[2]); from bench_tune import load_records; r = load_records(sys.argv[1]); print(len(r), "points,", sum(x["status"] == "ok" for x in r), "ok")' "${r%/run.json}" "$src/scripts" 2>&1)"
    done
    echo
    [ -f "$out/bench_tune.md" ] && sed -n '/^| GPU/,/^$/p; /^## The goal/,$p' "$out/bench_tune.md"
    echo
    for k in $lived; do
        [ -f "$out/live/$k.md" ] && echo "### Live: corpus-tune/$k" && sed 1,2d "$out/live/$k.md" && echo
    done
} >"$summary"
cat "$summary"
exit 0
