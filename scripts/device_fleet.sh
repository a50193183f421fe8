#!/usr/bin/env bash
# device_fleet.sh BUILD OUTDIR BUNDLE: the fleet runs on a lent GPU machine
# that has no MPI of its own. BUNDLE is made here by scripts/mpi_bundle.sh
# and carried along; BUILD holds the built gpubound. Builds nothing, never
# stops at a failed step (each step's exit code is logged), about 2 to 3
# minutes on an H100 or H200. Records into OUTDIR:
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
