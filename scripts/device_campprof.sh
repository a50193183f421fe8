#!/usr/bin/env bash
# device_campprof.sh BUILD OUTDIR - CampProf on the lent GPU: records the
# camping run (micro-benchmarks and the four validation applications), fits
# every model form and the chosen one, validates it on the applications and
# on the kernel-spec examples (examples/{stencil,sgemm,reduction,fft}/spec.json,
# when present) swept over block sizes, i.e. over active warps per SM, with
# the in-process profiler's counters when `run --counters` exists, and draws
# the README's band. Builds nothing; never stops at a failed step; prints a
# summary of every step's exit code and time. Budget: the committed H200
# camping run took 75 s of wall time (its run.json: wall_s 74.99), so the
# full sweep is kept; each step has its own time limit so that the whole
# stays under 6 minutes.
set -u
BUILD=${1:?usage: device_campprof.sh BUILD OUTDIR}
OUT=${2:?usage: device_campprof.sh BUILD OUTDIR}
GB="$BUILD/gpubound"
mkdir -p "$OUT"
LOG="$OUT/steps.log"
: > "$LOG"
T0=$(date +%s)

step() {   # step NAME LIMIT_S CMD... : runs, logs stdout/stderr, records rc and seconds
    local name=$1 limit=$2
    shift 2
    local s=$(date +%s)
    timeout "$limit" "$@" > "$OUT/$name.txt" 2> "$OUT/$name.err"
    local rc=$?
    echo "$name rc=$rc ${limit}s-limit $(( $(date +%s) - s ))s" | tee -a "$LOG"
}

C="$OUT/camping"
step run-camping 200 "$GB" run camping --no-report --out "$C"
step fit-compare 30 "$GB" camp fit "$C" --compare
step fit 20 "$GB" camp fit "$C" --out "$OUT"
step fit-paper 20 "$GB" camp fit "$C" --form paper --model "$OUT/campprof-model-paper.json"

COUNTERS=()
"$GB" help run 2>&1 | grep -q -- '--counters' && COUNTERS=(--counters)
SPECS=()
for ex in stencil sgemm reduction fft; do
    spec="examples/$ex/spec.json"
    [ -f "$spec" ] || { echo "spec-$ex: $spec not found, skipped" | tee -a "$LOG"; continue; }
    step "run-spec-$ex" 35 "$GB" run "$spec" --quick --no-report "${COUNTERS[@]}" --out "$OUT/spec-$ex"
    [ -s "$OUT/spec-$ex/results.json" ] && SPECS+=("$OUT/spec-$ex")
done

step validate 30 "$GB" camp validate --model "$OUT/campprof-model.json" "$C" "${SPECS[@]}"
step validate-paper 30 "$GB" camp validate --model "$OUT/campprof-model-paper.json" "$C" \
    --out "$OUT/validate-paper"
# The README's example: the coalesced transpose as measured at 32 warps.
TC=$(awk -F, 'NR==1{for(i=1;i<=NF;i++)h[$i]=i} $2=="transpose_coalesced" && $(h["warps"])==32 {print $(h["median_ns"])}' \
    "$C/results.csv" 2>/dev/null | head -1)
step predict 20 "$GB" camp predict --model "$OUT/campprof-model.json" --gld 4:1179648 --gst 4:1179648 \
    --warps 64 --at-warps 32 --time-ns "${TC:-223920}" --chart "$OUT/predict/transpose_coalesced.svg"

echo
echo "== device_campprof summary ($(( $(date +%s) - T0 )) s) =="
cat "$LOG"
echo "-- forms (held-out error per equation) --"
sed -n '1,30p' "$OUT/fit-compare.txt" 2>/dev/null
echo "-- validation, chosen form --"
sed -n '1,20p' "$OUT/validate.txt" 2>/dev/null
echo "-- validation, paper's form --"
sed -n '1,8p' "$OUT/validate-paper.txt" 2>/dev/null
echo "-- README example --"
sed -n '1,9p' "$OUT/predict.txt" 2>/dev/null
