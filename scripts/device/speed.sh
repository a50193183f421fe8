#!/usr/bin/env bash
# speed.sh GPUBOUND OUTDIR: sweep speed before and after, on one GPU.
#  1. The full uBench sweep with GPUBOUND (the new build): its wall time,
#     timed share and parts (run.json), and its medians against the
#     committed sweep of the same GPU model (data/h200/ubench-2026-11-23-d
#     or data/h100/ubench-2026-11-25): how many points' intervals overlap.
#  2. Every examples/ sweep and the tests/data/specs sweeps with the OLD
#     build (.carry/old/gpubound, a build of 4c147c5, or $GB_OLD) and then
#     the new one, each with an empty compile cache of its own: points, wall
#     and timed share before and after. The examples are capped at
#     --max-points $GB_SPEED_CAP (6) for both builds, so that the old
#     build's sweeps fit the time; the test specs run whole.
# Writes OUTDIR/speed.md (the tables), OUTDIR/summary.md, each run under
# OUTDIR/{ubench,old,new}/ (results.json gzip-compressed) and the logs;
# prints the tables. At most GB_SPEED_BUDGET (330) seconds in all: each step
# runs under `timeout`, and the pairs stop when the budget is spent. Never
# fails early: each step's exit code is reported.
set -u
if [ $# -ne 2 ]; then
    echo "usage: speed.sh GPUBOUND OUTDIR (the old build: .carry/old/gpubound or \$GB_OLD)" >&2
    exit 2
fi
new=$1 outdir=$2
src=$(cd "$(dirname "$0")/../.." && pwd)
old=${GB_OLD:-$src/.carry/old/gpubound}
cap=${GB_SPEED_CAP:-6}
budget=${GB_SPEED_BUDGET:-330}
ub_limit=${GB_SPEED_UBENCH_S:-210}
if [ ! -x "$new" ]; then echo "speed.sh: $new is not an executable gpubound build" >&2; exit 2; fi
mkdir -p "$outdir" || { echo "speed.sh: cannot make $outdir" >&2; exit 2; }
outdir=$(cd "$outdir" && pwd)
logs=$outdir/logs
mkdir -p "$logs"
SECONDS=0
md=$outdir/speed.md
: >"$md"

# step NAME LIMIT CMD...: runs CMD under timeout LIMIT, logs its output,
# prints and records its exit code and wall time.
step() {
    local name=$1 limit=$2 t0 rc
    shift 2
    t0=$(date +%s.%N)
    timeout -k 5 "$limit" "$@" >"$logs/$name.out" 2>"$logs/$name.err"
    rc=$?
    printf '%s\t%s\t%.2f\n' "$name" "$rc" "$(awk -v a="$t0" -v b="$(date +%s.%N)" 'BEGIN { print b - a }')" \
        >>"$logs/steps.tsv"
    echo "step $name: exit $rc"
    return 0
}

# tidy DIR: results.json gzip-compressed, the CSV left out (redrawn by report).
tidy() {
    rm -f "$1/results.csv"
    [ -f "$1/results.json" ] && gzip -f "$1/results.json"
    return 0
}

gpu=$( { "$new" info 2>/dev/null; nvidia-smi --query-gpu=name --format=csv,noheader 2>/dev/null; } | grep -m1 -o "H200\|H100" || true)
case "$gpu" in
    H200) ref=$src/data/h200/ubench-2026-11-23-d ;;
    H100) ref=$src/data/h100/ubench-2026-11-25 ;;
    *) ref="" ;;
esac
echo "speed.sh: GPU ${gpu:-unknown}, new $new, old $old, budget $budget s"

# 1. The full uBench sweep with the new build.
export GPUBOUND_CACHE_DIR=$outdir/cache-new
step ubench "$ub_limit" "$new" run ubench --no-report --out "$outdir/ubench"
tidy "$outdir/ubench"

# 2. Before and after: the examples (capped) and the test specs (whole).
specs=()
for s in "$src"/examples/*/spec.json; do specs+=("cap:$s"); done
for s in saxpy reduce types planted narrow; do
    for f in "$src/tests/data/specs/$s/spec.json" "$src/tests/data/specs/$s.json"; do
        [ -f "$f" ] && specs+=("all:$f")
    done
done
[ -f "$src/tests/data/specs/sweep200.json" ] && specs+=("all:$src/tests/data/specs/sweep200.json")
for item in "${specs[@]}"; do
    mode=${item%%:*} spec=${item#*:}
    name=$(basename "$(dirname "$spec")")
    [ "$name" = specs ] && name=$(basename "$spec" .json)
    args=(--no-report)
    [ "$mode" = cap ] && args+=(--max-points "$cap")
    for side in old new; do
        left=$((budget - 10 - SECONDS))
        if [ "$left" -lt 8 ]; then echo "step $side-$name: skipped (budget spent)"; continue; fi
        lim=$((left < 30 ? left : 30))
        bin=$new
        [ "$side" = old ] && bin=$old
        if [ ! -x "$bin" ]; then echo "step $side-$name: skipped ($bin missing)"; continue; fi
        export GPUBOUND_CACHE_DIR=$outdir/cache-$side
        step "$side-$name" "$lim" "$bin" run "$spec" "${args[@]}" --out "$outdir/$side/$name"
        tidy "$outdir/$side/$name"
    done
done
rm -rf "$outdir/cache-old" "$outdir/cache-new"

python3 "$src/scripts/device/speed_tables.py" "$outdir" "$ref" "$cap" >"$md" 2>"$logs/tables.err"
echo "tables: exit $?"
{
    echo "# speed.sh on ${gpu:-an unknown GPU}: $SECONDS s"
    echo
    echo "Steps (name, exit code, wall s):"
    echo
    sed 's/^/    /' "$logs/steps.tsv"
    echo
    cat "$md"
} >"$outdir/summary.md"
cat "$md"
echo "speed.sh: $SECONDS s in all; $outdir/speed.md"
exit 0
