#!/usr/bin/env bash
# twins.sh GPUBOUND OUTDIR: every corpus kernel's gpubound median against its
# plain-program twin (issue 45; docs/measurement.md, "The time in the user's
# own program", "The corpus").
#
# The points are tests/device/twin/corpus_points.json: per corpus bench, one
# problem size and its fastest and a slow configuration in the committed H100
# run (corpus_twin.py pick). tests/device/twin/corpus_twin.py writes one
# twin a point (the corpus kernel's own source, the configuration's defines,
# host-made inputs, cudaMalloc, <<<>>>, hot launches timed by events) and the
# corpus specs narrowed to those points by one restriction; nvcc builds the
# twins in parallel; then per corpus kernel gpubound runs its narrowed spec
# (its default: profiler clock, hot, the compiler its run.json names), once
# more with --compiler nvrtc, and the twins of its points run, one after the other,
# each once more under Nsight Compute ($NCU, default ncu) for its kernel's
# own gpu__time_duration. Writes
#   OUTDIR/corpus-twins.md   per bench and configuration: both medians, the gap, within 2% or not
#   OUTDIR/corpus-twins.tsv  the same for scripts
#   OUTDIR/summary.md        the steps, their exit codes and seconds, the count within 2%
#   OUTDIR/raw/              gpubound's run directories (gb-KERNEL/), every log, the twins' lines
# and a one-screen summary on stdout. Every step runs under `timeout` and the
# whole stays within GB_TWINS_BUDGET_S seconds (default 480); points left
# when the budget is spent are reported as not run. GB_TWINS_KERNELS: only
# these corpus kernels (directory names). GB_TWINS_JOBS: parallel builds
# (default: the cores). Exit 0 when every step
# ran (gaps are findings, not failures), 1 when a step failed, 2 on usage.
set -u
if [ $# -ne 2 ]; then
    echo "usage: scripts/device/twins.sh GPUBOUND OUTDIR" >&2
    exit 2
fi
gb=$1
out=$2
if [ ! -x "$gb" ] || [ -d "$gb" ]; then
    echo "twins.sh: $gb is not an executable gpubound; build it (make build) and name build/gpubound" >&2
    exit 2
fi
gb=$(cd "$(dirname "$gb")" && pwd)/$(basename "$gb")
src=$(cd "$(dirname "$0")/../.." && pwd)
gen=$src/tests/device/twin/corpus_twin.py
points=$src/tests/device/twin/corpus_points.json
budget=${GB_TWINS_BUDGET_S:-480}
ncu=${NCU:-ncu}
jobs=${GB_TWINS_JOBS:-$(nproc 2>/dev/null || echo 4)}
export PATH="$PATH:${CUDA_HOME:-/usr/local/cuda}/bin"
mkdir -p "$out/raw" || { echo "twins.sh: cannot create $out/raw" >&2; exit 1; }
out=$(cd "$out" && pwd)
raw=$out/raw
tmp=$(mktemp -d /tmp/gb-twins-XXXXXX) || exit 1
trap 'rm -rf "$tmp"' EXIT
export GPUBOUND_CACHE_DIR=$tmp/cache
t0=$(date +%s)
: >"$out/steps.tsv"
failed=0

elapsed() { echo $(($(date +%s) - t0)); }
left() { echo $((budget - $(elapsed))); }
# note NAME RC SECONDS: one step's line in steps.tsv (and on stdout, but
# for a twin that ran: the table says how it went).
note() {
    printf '%s\t%s\t%s\n' "$1" "$2" "$3" >>"$out/steps.tsv"
    case $1:$2 in "twin "*:0) ;; *) printf '  %-34s rc=%-4s %4ss\n' "$1" "$2" "$3" ;; esac
    case $2 in 0 | skipped) ;; *) failed=1 ;; esac
}
# timed NAME LIMIT LOG CMD...: runs CMD under timeout LIMIT (seconds), its
# stdout and stderr into LOG, and notes it.
timed() {
    local name=$1 limit=$2 log=$3 s rc
    shift 3
    s=$(date +%s)
    timeout -k 5 "$limit" "$@" >"$log" 2>&1
    rc=$?
    note "$name" "$rc" $(($(date +%s) - s))
    return $rc
}

echo "twins.sh: $(basename "$gb") against the plain twins of tests/device/twin/corpus_points.json (budget ${budget} s)"
timed info 20 "$raw/info.txt" "$gb" info
gpu=$?
nvidia-smi >"$raw/nvidia-smi.txt" 2>&1
# shellcheck disable=SC2086  # GB_TWINS_KERNELS: corpus kernel names, words
timed plan 30 "$raw/plan.log" python3 "$gen" plan "$points" "$src" "$tmp/gen" ${GB_TWINS_KERNELS:-}
cp "$tmp/gen/points.tsv" "$tmp/gen/points.json" "$raw/" 2>/dev/null

# The build: the host helper once, then every twin, $jobs at a time.
# shellcheck disable=SC2317  # called through xargs
build_one() {
    nvcc -O3 -arch=sm_90 -I "$1" -o "$2/bin/$3" "$2/twins/$3.cu" "$2/corpus_data.o" -lgomp >"$4/build-$3.log" 2>&1
}
export -f build_one
mkdir -p "$tmp/gen/bin"
timed build-helper 60 "$raw/build-helper.log" nvcc -O3 -Xcompiler -fopenmp -I "$src" \
    -c "$src/tests/device/twin/corpus_data.c" -o "$tmp/gen/corpus_data.o"
cut -f1 "$tmp/gen/points.tsv" >"$tmp/ids.txt" 2>/dev/null
timed build-twins 120 "$raw/build.log" xargs -a "$tmp/ids.txt" -P "$jobs" -I{} bash -c 'build_one "$@"' _ "$src" "$tmp/gen" {} "$raw"
echo "  twins built: $(find "$tmp/gen/bin" -type f | wc -l) of $(grep -c . "$tmp/ids.txt")"

# Per corpus kernel: gpubound on its narrowed spec, then the twins of its points.
if [ "$gpu" = 3 ]; then
    echo "twins.sh: no usable GPU ($(tail -n 1 "$raw/info.txt")): nothing is measured" >&2
    note measure 3 0
else
    for k in $(cut -f2 "$tmp/gen/points.tsv" 2>/dev/null | uniq); do
        if [ "$(left)" -lt 8 ]; then
            note "gpubound $k" skipped 0
            continue
        fi
        lim=$(($(left) - 5))
        [ "$lim" -gt 60 ] && lim=60
        timed "gpubound $k" "$lim" "$raw/gb-$k.log" "$gb" run "$tmp/gen/gb/$k/spec.json" --out "$raw/gb-$k" \
            --no-report
        lim=$(($(left) - 5))
        [ "$lim" -gt 60 ] && lim=60
        [ "$lim" -gt 8 ] && timed "gpubound-nvrtc $k" "$lim" "$raw/gbnvrtc-$k.log" "$gb" run \
            "$tmp/gen/gb/$k/spec.json" --compiler nvrtc --out "$raw/gbnvrtc-$k" --no-report
        # shellcheck disable=SC2013  # ids are single words
        for id in $(awk -F'\t' -v k="$k" '$2 == k { print $1 }' "$tmp/gen/points.tsv"); do
            if [ ! -x "$tmp/gen/bin/$id" ] || [ "$(left)" -lt 3 ]; then
                note "twin $id" skipped 0
                continue
            fi
            lim=$(($(left) - 1))
            [ "$lim" -gt 20 ] && lim=20
            timed "twin $id" "$lim" "$raw/twin-$id.txt" "$tmp/gen/bin/$id"
            echo $? >"$raw/twin-$id.rc"
            # The twin's own kernel time, the clock gpubound reports: Nsight
            # Compute's gpu__time_duration of 15 launches after the first 11.
            kn=$(awk -F'\t' -v id="$id" '$1 == id { print $6 }' "$tmp/gen/points.tsv")
            lim=$(($(left) - 1))
            [ "$lim" -gt 30 ] && lim=30
            if [ -n "$kn" ] && [ "$lim" -gt 3 ] && command -v "$ncu" >/dev/null; then
                timed "ncu $id" "$lim" "$raw/ncu-$id.log" "$ncu" --csv --page raw --print-units base \
                    --metrics gpu__time_duration.sum --cache-control none --clock-control none \
                    -k "regex:^$kn\$" --launch-skip 11 --launch-count 15 --log-file "$raw/ncu-$id.csv" \
                    "$tmp/gen/bin/$id"
            else
                note "ncu $id" skipped 0
            fi
        done
    done
fi

timed table 30 "$raw/table.txt" python3 "$gen" table "$raw/points.json" "$raw" "$out"
{
    echo "# Corpus twins: summary"
    echo
    echo "$(basename "$gb") at $(cd "$src" && git rev-parse --short HEAD 2>/dev/null || echo '?'), $(date -u +%Y-%m-%dT%H:%M:%SZ), $(elapsed) s"
    echo
    echo "GPU: $(nvidia-smi -L 2>/dev/null | head -n 1)"
    echo
    echo "Result: $(cat "$raw/table.txt" 2>/dev/null) (corpus-twins.md)"
    echo
    echo "| step | exit | seconds |"
    echo "| --- | --- | ---: |"
    awk -F'\t' '{ printf "| %s | %s | %s |\n", $1, $2, $3 }' "$out/steps.tsv"
} >"$out/summary.md"

echo
echo "twins.sh: $(cat "$raw/table.txt" 2>/dev/null) in $(elapsed) s; $out/corpus-twins.md"
if [ -f "$out/corpus-twins.tsv" ]; then
    awk -F'\t' 'NR > 1 && ($7 != "1" || $8 != "1") { printf "  %-28s gpubound %-9s nvrtc %-9s twin ncu %-9s gaps %-8s %-8s %s\n", $1, $2, $3, $4, $5, $6, $11 }' \
        "$out/corpus-twins.tsv" | head -n 24
fi
exit $failed
