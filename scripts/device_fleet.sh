#!/usr/bin/env bash
# device_fleet.sh BUILD OUTDIR BUNDLE: the fleet runs on a lent GPU machine
# that has no MPI of its own. BUNDLE is made here by scripts/mpi_bundle.sh
# and carried along; BUILD holds the built gpubound. Builds nothing, never
# stops at a failed step (each step's exit code is logged).
#
# On a machine with N >= 2 GPUs (about 70 s on two H200s), one rank per GPU:
#   fleet/        mpirun -np N gpubound run bandwidth throughput transpose --fleet
#   all/          gpubound run bandwidth throughput transpose --all-devices
#   fleet-b/      the mpirun run again (do the GPUs' differences repeat?)
#   <run>.txt     gpubound fleet <run>; topo.txt, clocks-before/after.txt
# Then, on a machine with gnuplot: gpubound fleet OUTDIR/fleet draws the
# charts, and scripts/fleet_repeat.py compares the three runs.
#
# On one GPU (about 10 s on an H100 or H200), ranks share it:
#   fleet2/       mpirun -np 2 gpubound run bandwidth --fleet (the two ranks
#                 share the one GPU, so each sees the other's traffic)
#   fleet2.txt    gpubound fleet fleet2 (the points side by side, per GPU)
#   fleet2.csv    the same, one row per point and rank
#   fleet4/       mpirun -np 4 ... --quick --fleet (four ranks, one GPU)
#   all/          gpubound run bandwidth --all-devices (every local GPU)
#   all.txt       gpubound fleet all
#   steps.log     every step and its exit code; summary.txt at the end
set -u
BUILD=${1:?usage: device_fleet.sh BUILD OUTDIR BUNDLE}
OUT=${2:?usage: device_fleet.sh BUILD OUTDIR BUNDLE}
BUNDLE=${3:?usage: device_fleet.sh BUILD OUTDIR BUNDLE}
GB="$BUILD/gpubound"
mkdir -p "$OUT"
OUT=$(cd "$OUT" && pwd)
LOG="$OUT/steps.log"
: >"$LOG"
T0=$(date +%s)

# step NAME LIMIT CMD...: runs CMD (stdout and stderr to OUTDIR/NAME.log)
# under a time limit and logs its exit code and duration.
step() {
    local name=$1 limit=$2 t rc
    shift 2
    t=$(date +%s)
    timeout "$limit" "$@" >"$OUT/$name.log" 2>&1
    rc=$?
    echo "$name rc=$rc $(($(date +%s) - t))s: $*" >>"$LOG"
    echo "== $name: rc=$rc ($(($(date +%s) - t)) s)"
    return 0
}

nvidia-smi -L >"$OUT/gpus.txt" 2>&1
echo "libc: $(ldd --version 2>&1 | head -1)" >>"$LOG"
echo "gpus: $(grep -c '^GPU' "$OUT/gpus.txt")" >>"$LOG"
if [ -f "$BUNDLE/env.sh" ]; then
    # shellcheck disable=SC1091
    . "$BUNDLE/env.sh"
else
    echo "no MPI bundle at $BUNDLE (make one with scripts/mpi_bundle.sh)" >>"$LOG"
fi
step mpirun_version 20 mpirun --version
step mpirun_hostname 30 mpirun -np 2 hostname
N=$(grep -c '^GPU' "$OUT/gpus.txt")

if [ "$N" -ge 2 ]; then
    SUITES="bandwidth throughput transpose"
    nvidia-smi topo -m >"$OUT/topo.txt" 2>&1
    nvidia-smi -q -d CLOCK,POWER,PERFORMANCE >"$OUT/clocks-before.txt" 2>&1
    rm -rf "$OUT/fleet" "$OUT/all" "$OUT/fleet-b"
    # shellcheck disable=SC2086
    step fleet 240 mpirun -np "$N" "$GB" run $SUITES --fleet --no-report --out "$OUT/fleet"
    # shellcheck disable=SC2086
    step all 240 "$GB" run $SUITES --all-devices --no-report --out "$OUT/all"
    # shellcheck disable=SC2086
    step fleet_b 240 mpirun -np "$N" "$GB" run $SUITES --fleet --no-report --out "$OUT/fleet-b"
    nvidia-smi -q -d CLOCK,POWER,PERFORMANCE >"$OUT/clocks-after.txt" 2>&1
    for r in fleet all fleet-b; do
        "$GB" fleet "$OUT/$r" --no-chart >"$OUT/$r.txt" 2>>"$LOG"
        echo "${r}_report rc=$?" >>"$LOG"
    done
    { echo "device_fleet: $(($(date +%s) - T0)) s"; cat "$LOG"; sed -n '/^Per suite/,$p' "$OUT/fleet.txt"; } |
        tee "$OUT/summary.txt"
    exit 0
fi

rm -rf "$OUT/fleet2" "$OUT/fleet4" "$OUT/all"
step fleet2 150 mpirun -np 2 "$GB" run bandwidth --fleet --no-report --out "$OUT/fleet2"
step fleet2_report 30 "$GB" fleet "$OUT/fleet2" --chart-dir "$OUT/fleet2-chart"
cp "$OUT/fleet2_report.log" "$OUT/fleet2.txt"
"$GB" fleet "$OUT/fleet2" --format csv --no-chart >"$OUT/fleet2.csv" 2>>"$LOG"
echo "fleet2_csv rc=$?" >>"$LOG"
step fleet4 90 mpirun -np 4 "$GB" run bandwidth --quick --fleet --no-report --out "$OUT/fleet4"
step fleet4_report 30 "$GB" fleet "$OUT/fleet4" --no-chart
step all 90 "$GB" run bandwidth --all-devices --no-report --out "$OUT/all"
step all_report 30 "$GB" fleet "$OUT/all" --chart-dir "$OUT/all-chart"
cp "$OUT/all_report.log" "$OUT/all.txt"

# What the runs hold, without python (the machine may lack it).
count_records() { grep -o '"gpu_uuid":' "$1/results.json" 2>/dev/null | wc -l; }
{
    echo "device_fleet: $(($(date +%s) - T0)) s"
    cat "$LOG"
    for r in fleet2 fleet4 all; do
        echo "$r: $(count_records "$OUT/$r") records; members: $(grep -o '"state": "[a-z-]*"' "$OUT/$r/run.json" 2>/dev/null | cut -d'"' -f4 | tr '\n' ' ')"
        grep -o '"uuid": "GPU-[0-9a-f-]*"' "$OUT/$r/run.json" 2>/dev/null | sort | uniq -c | sed "s/^/  $r /"
    done
    echo "--- gpubound fleet fleet2 (per GPU)"
    sed -n '/^Per GPU/,$p' "$OUT/fleet2.txt"
    echo "--- gpubound fleet all (per GPU)"
    sed -n '/^Per GPU/,$p' "$OUT/all.txt"
} | tee "$OUT/summary.txt"
