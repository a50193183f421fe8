#!/usr/bin/env bash
# device_counters.sh BUILD OUTDIR - the counters engineer's GPU checks, in
# one pass of about 4 minutes on an H100/H200 (builds nothing; every step
# runs whatever failed before it, and its exit code is logged):
#   1. gpubound profile of six launches (bandwidth/read, camping camped and
#      spread, transpose naive and diagonal, a kernel spec), with --trace
#      on the first (every CUPTI call and its status);
#   2. ncu --csv --page raw on the same launches for the same metrics
#      (--clock-control none, --cache-control all (NCU_CACHE=none: ncu leaves the caches as
#      gpubound's profiler does), --print-metric-instances
#      values), the second launch of the kernel in a `gpubound run` of the point
#      (the first after verification, as `gpubound profile` profiles it);
#   3. the comparison table (scripts/counters_compare.py): instruction
#      counts equal, sectors within 1 %, per-instance values in order;
#   4. run --counters on camping/read (width 4, 64 warps) and transpose,
#      read back: camp detect (references in the same command and from the
#      run), camp predict --from-point, scripts/camping_ncu.sh's summary;
#   5. Nsight Compute's own rules on the camped and naive launches
#      (MemoryWorkloadAnalysis sections), grepped for slice/partition
#      imbalance, for the "case ncu misses" question.
# OUTDIR receives the logs, the CSVs, comparison.md/.csv, run.json (of the
# run --counters pass) and summary.txt: what data/<gpu>/counters-<date>/
# commits.
set -u
BUILD=${1:?usage: device_counters.sh BUILD OUTDIR}
OUT=${2:?usage: device_counters.sh BUILD OUTDIR}
GB=$BUILD/gpubound
SRC=$(cd "$(dirname "$0")/.." && pwd)
mkdir -p "$OUT"
SUMMARY=$OUT/summary.txt
: >"$SUMMARY"
T0=$(date +%s)

step() {  # step NAME CMD...: runs, logs stdout/stderr to NAME.{out,err}, records the exit code
    local name=$1
    shift
    local t=$(date +%s)
    "$@" >"$OUT/$name.out" 2>"$OUT/$name.err"
    local rc=$?
    printf '%-34s rc=%-3s %4ss\n' "$name" "$rc" "$(( $(date +%s) - t ))" | tee -a "$SUMMARY"
    return $rc
}

# label | gpubound selector | --set values | ncu kernel regex
SPEC=$SRC/tests/data/specs/counters_copy/spec.json
for s in "$SRC"/examples/*/spec.json; do [ -f "$s" ] && { SPEC=$s; break; }; done
# The kernel ncu must pick: the bench's own, not its reference (launched first to verify);
# one point (block_size_x=64, in the --quick sweep of examples/fft), so both profile the same launch.
SPEC_KERNEL=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["benches"][0]["kernel"].split("<")[0])' "$SPEC")
CASES=(
    "bandwidth-read|bandwidth/read|width=16 grid=stride bytes=256M|^bw_read\$"
    "camping-camped|camping/read|pattern=camped width=4 warps=64|^camp_read\$"
    "camping-spread|camping/read|pattern=spread width=4 warps=64|^camp_read\$"
    "transpose-naive|transpose/naive|n=4096 shape=square|^tr_naive\$"
    "transpose-diagonal|transpose/diagonal|n=4096 shape=square tile=32x8|^tr_diagonal\$"
    "spec|$SPEC|block_size_x=64|^$SPEC_KERNEL\$"
)

sets_of() { local a=(); for s in $1; do a+=(--set "$s"); done; [ ${#a[@]} = 0 ] || printf '%s\n' "${a[@]}"; }

step info "$GB" info
first=1
for c in "${CASES[@]}"; do
    IFS='|' read -r label sel sets kre <<<"$c"
    mapfile -t SETS < <(sets_of "$sets")
    trace=()
    [ $first = 1 ] && trace=(--trace) && first=0
    step "gb-$label" "$GB" profile "$sel" --quick "${SETS[@]}" --metrics default --cache-control "${NCU_CACHE:-all}" \
        --format csv "${trace[@]}"
    cp "$OUT/gb-$label.out" "$OUT/gb-$label.csv"
    # The metric list ncu collects: the names gpubound profiled (rollups included).
    METRICS=$(python3 -c 'import csv,sys; r=list(csv.reader(open(sys.argv[1]))); print(",".join(dict.fromkeys(x[1] for x in r[1:] if len(x) > 2)))' "$OUT/gb-$label.csv" 2>/dev/null)
    [ -n "$METRICS" ] || METRICS=$(python3 -c 'print("smsp__inst_executed.sum,lts__t_sectors.sum,lts__t_sectors.avg,lts__t_sectors.max,lts__t_sectors.min,dram__sectors_read.sum,dram__sectors_read.avg,dram__sectors_read.max,dram__sectors_read.min")')
    if command -v ncu >/dev/null; then
        step "ncu-$label" ncu --clock-control none --cache-control "${NCU_CACHE:-all}" --csv --page raw --print-units base \
            --print-metric-instances values -k "regex:$kre" --launch-skip 1 --launch-count 1 --metrics "$METRICS" \
            "$GB" run "$sel" --quick "${SETS[@]}" --no-report --timer events --max-time 0.05 --out "$OUT/ncu-run-$label"
        cp "$OUT/ncu-$label.out" "$OUT/ncu-$label.csv"
    else
        echo "ncu-$label                          skipped: ncu not on PATH" | tee -a "$SUMMARY"
    fi
done

step compare python3 "$SRC/scripts/counters_compare.py" "$OUT" bandwidth-read camping-camped camping-spread \
    transpose-naive transpose-diagonal spec
cp "$OUT/compare.out" "$OUT/comparison.md" 2>/dev/null

# run --counters, then everything that reads counters back from the run.
step run-camping "$GB" run camping/read --quick --set width=4 --set warps=64 --set pattern=spread,camped \
    --counters --no-report --max-time 0.2 --out "$OUT/run-camping"
cp "$OUT/run-camping/run.json" "$OUT/run.json" 2>/dev/null
step run-transpose "$GB" run transpose/naive transpose/diagonal transpose/copy --quick --set n=4096 \
    --set shape=square --set kind=tile --set tile=32x8 --counters --no-report --max-time 0.2 --out "$OUT/run-transpose"
step detect "$GB" camp detect camping/read --quick --set width=4 --set warps=64 --set pattern=spread,camped
step detect-transpose "$GB" camp detect transpose/naive transpose/diagonal transpose/copy --quick --set n=4096 \
    --set shape=square --set kind=tile --set tile=32x8 --refs "$OUT/run-camping"
step detect-bandwidth "$GB" camp detect bandwidth/copy bandwidth/read --quick --set width=16 --set grid=stride \
    --refs "$OUT/run-camping"
step detect-spec "$GB" camp detect "$SPEC" --quick --refs "$OUT/run-camping"
MODEL=$SRC/data/h200/camping-2026-11-21/campprof-model.json
step predict-from-point "$GB" camp predict --model "$MODEL" \
    --from-point "$OUT/run-camping:camping/read:pattern=camped,width=4,warps=64" --warps 64
step camping-summary bash "$SRC/scripts/camping_ncu.sh" "$GB" "$OUT/camping-summary"

# Nsight Compute's own rules on the camped launch and the naive transpose.
if command -v ncu >/dev/null; then
    for c in "${CASES[@]:1:3}"; do
        IFS='|' read -r label sel sets kre <<<"$c"
        mapfile -t SETS < <(sets_of "$sets")
        step "ncu-rules-$label" ncu --clock-control none --section MemoryWorkloadAnalysis \
            --section MemoryWorkloadAnalysis_Tables --print-details all -k "regex:$kre" --launch-count 1 \
            "$GB" run "$sel" --quick "${SETS[@]}" --no-report --timer events --max-time 0.05 --out "$OUT/rules-run-$label"
        grep -iE 'slice|imbalanc|partition|camp' "$OUT/ncu-rules-$label.out" >"$OUT/ncu-rules-$label.hits" || true
        echo "  ncu rule lines on slices/imbalance for $label: $(grep -c . "$OUT/ncu-rules-$label.hits")" | tee -a "$SUMMARY"
    done
fi

{
    echo
    echo "== comparison (instructions equal, sectors within 1 %)"
    tail -n 4 "$OUT/comparison.md" 2>/dev/null
    echo "== camp detect (references profiled in the same command)"
    cat "$OUT/detect.out" 2>/dev/null
    echo "== camp detect (transposes, references from run-camping)"
    cat "$OUT/detect-transpose.out" 2>/dev/null
    echo "== camp detect (copies)"
    cat "$OUT/detect-bandwidth.out" 2>/dev/null
    echo "== notes on stderr (counters unavailable, metrics left out)"
    grep -h 'counters\|profile:' "$OUT"/*.err 2>/dev/null | sort | uniq | head -20
    echo "total $(( $(date +%s) - T0 )) s"
} | tee -a "$SUMMARY"
