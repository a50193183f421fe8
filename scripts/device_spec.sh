#!/usr/bin/env bash
# device_spec.sh BUILD OUTDIR: everything the kernel spec files need a GPU
# for, on a machine with the built gpubound (BUILD/gpubound) and this tree;
# builds nothing, never stops at the first failure, logs each step's exit
# code into OUTDIR/steps.log and prints a short summary. About 3 to 5
# minutes on an H100 or H200.
#   1. tests/device/spec.sh: every examples/*/spec.json and the test specs in
#      --quick, verified; the template spec's second run compiles nothing;
#      the wrong kernel fails verification with its mismatch (log: spec.log)
#   2. the saxpy example's full sweep (docs/kernel-spec.md's figures), with
#      its report: OUTDIR/saxpy
#   3. every example's quick run kept: OUTDIR/examples-<name>
#   4. the wrong kernel's run kept: OUTDIR/wrong (expected exit 1)
set -u
build=$(cd "$1" && pwd)
outdir=$2
src=$(cd "$(dirname "$0")/.." && pwd)
mkdir -p "$outdir"
outdir=$(cd "$outdir" && pwd)
export GPUBOUND="$build/gpubound" GB_SRC="$src" GB_TESTS="$src/tests"
log="$outdir/steps.log"
: >"$log"
step() { # step NAME EXPECTED_RC CMD...: runs CMD, logs its exit code
    local name=$1 want=$2 t0 rc
    shift 2
    t0=$(date +%s)
    "$@" >"$outdir/$name.log" 2>&1
    rc=$?
    printf '%-22s exit %-3s (want %s) %4ss  %s\n' "$name" "$rc" "$want" "$(($(date +%s) - t0))" \
        "$(tail -n 1 "$outdir/$name.log" | cut -c1-100)" | tee -a "$log"
}
"$GPUBOUND" info >"$outdir/info.log" 2>&1 || { echo "device_spec: no usable GPU: $(tail -n 1 "$outdir/info.log")"; exit 3; }
step spec 0 bash "$src/tests/device/spec.sh"
rm -rf "$outdir/saxpy"
step saxpy-full 0 "$GPUBOUND" run "$src/tests/data/specs/saxpy/spec.json" --max-time 0.3 --out "$outdir/saxpy"
for spec in "$src"/examples/*/spec.json; do
    [ -f "$spec" ] || continue
    name=$(basename "$(dirname "$spec")")
    rm -rf "$outdir/examples-$name"
    step "examples-$name" 0 "$GPUBOUND" run "$spec" --quick --out "$outdir/examples-$name"
done
rm -rf "$outdir/wrong"
step wrong 1 "$GPUBOUND" run "$src/tests/data/specs/wrong/spec.json" --quick --no-report --out "$outdir/wrong"
echo "--- summary"
awk '{ s = ($3 == substr($5, 1, length($5) - 1)) ? "as expected" : "NOT as expected"; print $1 ": " s }' "$log"
grep -h '"reason"' "$outdir/wrong/results.json" 2>/dev/null | grep -o '"reason":"[^"]*"' | head -1
