#!/usr/bin/env bash
# scripts/device_breakdown.sh BUILD OUTDIR - the breakdown model's case tests
# on a GPU: records the SGEMM (tiled, tile width 1..32), FFT and reduction
# examples twice each (the second run checks that the coefficients are
# stable), then fits `gpubound breakdown` on every run. Builds nothing;
# never stops at a failing step (each step's exit code is logged); prints a
# summary. Expected wall time: about 4-5 minutes on an H100/H200.
#   BUILD   directory holding the built gpubound
#   OUTDIR  receives the runs (OUTDIR/<example>-a, -b), logs and fits
set -u
BUILD=${1:?usage: device_breakdown.sh BUILD OUTDIR}
OUT=${2:?usage: device_breakdown.sh BUILD OUTDIR}
GB="$BUILD/gpubound"
SRC=$(cd "$(dirname "$0")/.." && pwd)
mkdir -p "$OUT/logs"
SUMMARY="$OUT/summary.txt"
: >"$SUMMARY"
start=$(date +%s)

step() {  # name, limit_s, command...
    local name=$1 limit=$2
    shift 2
    local t0=$(date +%s)
    timeout "$limit" "$@" >"$OUT/logs/$name.out" 2>"$OUT/logs/$name.err"
    local rc=$?
    printf '%-28s rc=%-3d %4ds\n' "$name" "$rc" "$(( $(date +%s) - t0 ))" | tee -a "$SUMMARY"
    return 0
}

COUNTERS=()
if "$GB" help run 2>&1 | grep -q -- '--counters'; then
    COUNTERS=(--counters)
fi
echo "gpubound $("$GB" --version 2>/dev/null | head -1); counters: ${COUNTERS[*]:-not available}" | tee -a "$SUMMARY"
nvidia-smi -L 2>/dev/null | tee -a "$SUMMARY"

# name, spec, extra run options (sizes kept so that two runs of the three
# examples fit the budget: tile 1 of SGEMM is ~1000x slower than tile 32).
EXAMPLES=(
    "sgemm|examples/sgemm/spec.json|--set n=1024"
    "fft|examples/fft/spec.json|"
    "reduction|examples/reduction/spec.json|"
)
for rep in a b; do
    for e in "${EXAMPLES[@]}"; do
        IFS='|' read -r name spec opts <<<"$e"
        if [ ! -f "$SRC/$spec" ]; then
            echo "$name-$rep: $spec not found, skipped" | tee -a "$SUMMARY"
            continue
        fi
        # shellcheck disable=SC2086
        step "run-$name-$rep" 150 "$GB" run "$SRC/$spec" $opts --max-time 1 --no-report \
            "${COUNTERS[@]}" --out "$OUT/$name-$rep"
    done
done

for e in "${EXAMPLES[@]}"; do
    IFS='|' read -r name spec opts <<<"$e"
    for rep in a b; do
        [ -d "$OUT/$name-$rep" ] || continue
        step "breakdown-$name-$rep" 60 "$GB" breakdown "$OUT/$name-$rep" --explain --force
        grep -E "^R\^2|^held out|dominates|^(PUT|G2ST|S2PT) " "$OUT/logs/breakdown-$name-$rep.out" \
            | sed "s/^/  $name-$rep: /" | tee -a "$SUMMARY"
    done
    # a held-out problem size, where the run has more than one
    if [ -d "$OUT/$name-a" ]; then
        step "breakdown-$name-every3" 60 "$GB" breakdown "$OUT/$name-a" --holdout every:3 \
            --out "$OUT/$name-a/every3" --no-chart
        grep -E "^held out" "$OUT/logs/breakdown-$name-every3.out" | sed "s/^/  $name every:3: /" \
            | tee -a "$SUMMARY"
    fi
done
echo "total $(( $(date +%s) - start ))s; fits in $OUT/<example>-<a|b>/lpbm-model.json," \
     "charts breakdown-*.svg beside them; logs in $OUT/logs" | tee -a "$SUMMARY"
exit 0
