#!/usr/bin/env bash
# device_failures.sh BUILD OUTDIR: on a GPU machine, failures inside their
# point and the cost of compiling a sweep. Builds nothing; never stops at
# the first failure (each step's exit code is logged); about 3 to 5 minutes
# on an H100 or H200.
#
#   1. tests/device/failures.sh: a fault, a compile error, refused launches
#      and a hang, each at one axis value of a small spec (tests/data/specs/),
#      recorded with its reason while the rest of the sweep runs (the hang
#      stops its run cleanly). Log: OUTDIR/failures.log, runs kept under
#      OUTDIR/failures/.
#   2. The 200-configuration sweep (tests/data/specs/sweep200.json: 10 block
#      sizes x 20 unroll depths, each a distinct module) three times:
#        cold-serial  a fresh compile cache, no compile pool (every module
#                     compiled by the GPU thread when its point comes);
#        cold-pool    a fresh compile cache, the pool compiling ahead;
#        warm         the pool's cache again (every module from disk).
#      OUTDIR/compile_cost.tsv: wall, compile CPU seconds, the GPU thread's
#      wait for compiles, modules compiled / from the disk cache, threads.
set -uo pipefail
build=$(cd "$1" && pwd)
out=$2
src=$(cd "$(dirname "$0")/.." && pwd)
mkdir -p "$out"
out=$(cd "$out" && pwd)
gb="$build/gpubound"
unset GPUBOUND_CACHE_DIR GPUBOUND_COMPILE_THREADS
[ -d "$build/lib" ] && export LD_LIBRARY_PATH="$build/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
summary=()
step() { summary+=("$(printf '%-22s exit %-3s %6.1f s  %s' "$1" "$2" "$3" "$4")"); }
now() { date +%s.%N; }
since() { awk -v a="$1" -v b="$(now)" 'BEGIN { printf "%.1f", b - a }'; }

nvidia-smi -L 2>/dev/null | tee "$out/gpu.txt"
"$gb" info >"$out/info.txt" 2>&1
echo "cpus: $(nproc)" | tee -a "$out/gpu.txt"

# 1. the failure classes
t=$(now)
mkdir -p "$out/failures"
GPUBOUND="$gb" GB_SRC="$src" GB_TESTS="$src/tests" GB_KEEP="$out/failures" \
    bash "$src/tests/device/failures.sh" >"$out/failures.log" 2>&1
rc=$?
cat "$out/failures.log"
step failures.sh "$rc" "$(since "$t")" "$(tail -n 1 "$out/failures.log")"

# 2. the compile cost of a 200-configuration sweep
printf 'mode\texit\twall_s\tpoints_ok\tcompile_cpu_s\tgpu_wait_s\tcompile_part_s\tcompiled\tfrom_cache\tthreads\n' \
    >"$out/compile_cost.tsv"
sweep() {
    local mode=$1 cache=$2 threads=$3 t rc
    t=$(now)
    rm -rf "$out/sweep-$mode"
    env XDG_CACHE_HOME="$cache" ${threads:+GPUBOUND_COMPILE_THREADS=$threads} \
        "$gb" run "$src/tests/data/specs/sweep200.json" --max-time 0.05 --no-report --out "$out/sweep-$mode" \
        >"$out/sweep-$mode.stdout" 2>"$out/sweep-$mode.stderr"
    rc=$?
    local secs
    secs=$(since "$t")
    python3 - "$out/sweep-$mode/run.json" "$mode" "$rc" "$secs" >>"$out/compile_cost.tsv" <<'EOF'
import json, sys
path, mode, rc, secs = sys.argv[1:5]
try:
    i = json.load(open(path))
except Exception as e:
    print(f"{mode}\t{rc}\t{secs}\t-\t-\t-\t-\t-\t-\t-")
    sys.exit(0)
m = i.get("modules", {})
def f(v):
    return "-" if v is None else f"{v:.2f}" if isinstance(v, float) else str(v)
print("\t".join([mode, rc, f(i.get("wall_s")), f(i.get("points_ok")), f(m.get("compile_cpu_s")),
                 f(m.get("gpu_wait_s")), f(i.get("wall_parts", {}).get("compile_s")), f(m.get("compiled")),
                 f(m.get("from_disk_cache")), f(m.get("compile_threads"))]))
EOF
    step "sweep200 $mode" "$rc" "$secs" "$(tail -n 1 "$out/sweep-$mode.stderr")"
}
sweep cold-serial "$out/cache-serial" 0
sweep cold-pool "$out/cache-pool" ""
sweep warm "$out/cache-pool" ""
column -t -s $'\t' "$out/compile_cost.tsv" 2>/dev/null || cat "$out/compile_cost.tsv"

echo
echo "== device_failures summary =="
printf '%s\n' "${summary[@]}" | tee "$out/summary.txt"
