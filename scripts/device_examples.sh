#!/usr/bin/env bash
# device_examples.sh BUILD OUTDIR: records the four examples of examples/ on
# a GPU and the occupancy truth table with the max-dynamic-shared-memory
# attribute. Builds nothing; never stops at a failing step (each step's exit
# code goes to OUTDIR/steps.log); prints a summary. About 4-5 minutes on an
# H100 or H200 (each full sweep is sized for under a minute).
#   OUTDIR/<example>/          the run (gpubound run examples/<example>/spec.json)
#   OUTDIR/<example>.log       its stdout and stderr; <example>.report.log the report's
#   OUTDIR/stencil.geometry.txt  gpubound geometry OUTDIR/stencil --bench stencil
#   OUTDIR/occupancy-truth.csv   gpubound occupancy --record-truth (and .run.json),
#                                checked by the occupancy unit test (occupancy-check.log)
# GB_EXAMPLES (default "sgemm reduction fft stencil") and GB_EXAMPLES_ARGS
# (more `gpubound run` options, e.g. --quick) vary it.
set -uo pipefail
build=$(cd "$1" && pwd)
out=$2
src=$(cd "$(dirname "$0")/.." && pwd)
gb=$build/gpubound
examples=${GB_EXAMPLES:-sgemm reduction fft stencil}
extra=${GB_EXAMPLES_ARGS:-}
mkdir -p "$out"
steps=$out/steps.log
: >"$steps"
t0=$(date +%s)

# step NAME LIMIT_S COMMAND...: runs it under a time limit (SIGINT first, so a
# run keeps its finished points), logs the exit code and the seconds taken.
step() {
    local name=$1 limit=$2 s rc
    shift 2
    s=$(date +%s)
    timeout -s INT -k 15 "$limit" "$@"
    rc=$?
    echo "$name rc=$rc ${limit}s-limit took=$(($(date +%s) - s))s" >>"$steps"
    return $rc
}

# points_of RUN: "ok failed wall_s" from its run.json (no python needed).
points_of() {
    local j=$1/run.json f v line=""
    for f in points_ok points_failed wall_s; do
        v=$(grep -o "\"$f\": *[0-9.]*" "$j" | head -n 1 | sed 's/.*: *//')
        line="$line ${v:-?}"
    done
    echo $line
}

nvidia-smi -L 2>/dev/null | head -n 1
for x in $examples; do
    rm -rf "${out:?}/$x"
    # shellcheck disable=SC2086
    step "run-$x" 100 "$gb" run "$src/examples/$x/spec.json" --out "$out/$x" --no-report $extra >"$out/$x.log" 2>&1
    step "report-$x" 60 "$gb" report "$out/$x" >"$out/$x.report.log" 2>&1
done
if [ -d "$out/stencil" ]; then
    step geometry-stencil 30 "$gb" geometry "$out/stencil" --bench stencil >"$out/stencil.geometry.txt" 2>&1
fi
rm -f "$out/occupancy-truth.csv" "$out/occupancy-truth.csv.run.json"
step occupancy-truth 90 "$gb" occupancy --record-truth "$out/occupancy-truth.csv" >"$out/occupancy-truth.log" 2>&1
unit=$build/tests/test_occupancy
[ -x "$unit" ] || unit=$build/test_occupancy
if [ -s "$out/occupancy-truth.csv" ] && [ -x "$unit" ]; then
    GB_OCCUPANCY_TRUTH="$out/occupancy-truth.csv" step occupancy-check 60 "$unit" >"$out/occupancy-check.log" 2>&1
fi

echo "== device_examples: $(($(date +%s) - t0)) s in all; OUTDIR $out"
printf '%-10s %6s %7s %8s\n' example ok failed wall_s
for x in $examples; do
    if [ -f "$out/$x/run.json" ]; then
        read -r ok failed wall <<<"$(points_of "$out/$x")"
    else
        ok=- failed=- wall=-
    fi
    printf '%-10s %6s %7s %8s\n' "$x" "$ok" "$failed" "$wall"
done
if [ -f "$out/occupancy-truth.csv" ]; then
    rows=$(grep -vc '^#' "$out/occupancy-truth.csv")
    over=$(grep -v '^#' "$out/occupancy-truth.csv" | awk -F, 'NR > 1 && $6 > $7 { n++ } END { print n + 0 }')
    echo "occupancy truth: $((rows - 1)) rows, $over above the kernel's attribute; check: $(tail -n 1 "$out/occupancy-check.log" 2>/dev/null)"
fi
echo "steps (exit codes):"
sed 's/^/  /' "$steps"
! grep -qv ' rc=0 ' "$steps"
