# Fleet runs: `run --fleet` under a 2- and a 4-rank mpirun (each rank
# exits 3 without a GPU, and rank 0 still gathers a run that says so),
# `run --all-devices`, and `gpubound fleet` on a made-up fleet with one
# slow GPU (flagged) among GPUs that differ by noise (not flagged).
. "$(dirname "$0")/lib.bash"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
export OMPI_MCA_rmaps_base_oversubscribe=1

expect 2 "--fleet and --all-devices are two ways" run bandwidth --fleet --all-devices --out "$TMP/u1"
expect 2 "--all-devices runs on every GPU: leave out --device" run bandwidth --all-devices --device 0 --out "$TMP/u1"
[ ! -e "$TMP/u1" ] && ok || bad "a refused fleet run must not create its --out"
expect 2 "fleet: which run\? give RUN" fleet
expect 1 "has no \"fleet\" section: .* is not a fleet run" fleet "$GB_TESTS/data/runs/bandwidth-fixture" --no-chart

# members DIR: "rank:state:exit_code ..." of run.json's fleet section.
members() {
    python3 -c '
import json, sys
d = json.load(open(sys.argv[1] + "/run.json"))
print(" ".join("%d:%s:%d" % (m["rank"], m["state"], m["exit_code"]) for m in d["fleet"]["members"]))' "$1"
}

# check_gathered N DIR RC: an mpirun of N ranks without a GPU.
check_gathered() {
    local n=$1 dir=$2 rc=$3 want="" r
    for ((r = 0; r < n; r++)); do want="$want$r:no-gpu:3 "; done
    [ "$rc" = 3 ] && ok || bad "mpirun -np $n of ranks without a GPU exited $rc, expected 3 (each rank's own)"
    [ -f "$dir/run.json" ] && ok || { bad "rank 0 gathered no run into $dir"; return; }
    [ "$(members "$dir")" = "${want% }" ] && ok || bad "$n-rank members: $(members "$dir"), expected ${want% }"
    [ "$(grep -c '"state": "no-gpu"' "$dir/run.json")" = "$n" ] && ok || bad "run.json does not say why each rank failed"
    grep -q '"reason": "no CUDA driver\|"reason": ".*GPU' "$dir/run.json" && ok || bad "run.json gives no reason"
    run_gb fleet "$dir" --format json --no-chart
    [ "$RC" = 1 ] && ok || bad "gpubound fleet on a run where no rank measured exited $RC, expected 1"
    printf '%s\n' "$OUT" | python3 -c "import json,sys; d=json.load(sys.stdin); assert len(d['members']) == $n, d" \
        && ok || bad "fleet --format json is not JSON with $n members"
}

if ! need_python3; then
    :
elif ! command -v mpirun >/dev/null 2>&1; then
    skip 12 "mpirun is not installed (make deps installs openmpi-bin)"
elif has_gpu; then
    skip 12 "the no-GPU gather checks (this machine has a GPU: scripts/device_fleet.sh runs them there)"
else
    for n in 2 4; do
        timeout 120 mpirun --oversubscribe -np "$n" "$GPUBOUND" run bandwidth --quick --fleet \
            --out "$TMP/fleet$n" >"$TMP/mpi.out" 2>"$TMP/mpi.err"
        rc=$?
        OUT=$(cat "$TMP/mpi.out") ERR=$(cat "$TMP/mpi.err")
        check_gathered "$n" "$TMP/fleet$n" "$rc"
    done
fi

if ! has_gpu; then
    # Without a launcher --fleet is a job of one, without MPI.
    run_gb run bandwidth --quick --fleet --out "$TMP/one"
    [ "$RC" = 3 ] && ok || bad "run --fleet without a GPU exited $RC, expected 3"
    [ "$(members "$TMP/one" 2>/dev/null)" = "0:no-gpu:3" ] && ok || bad "a job of one gathers itself"
    expect 3 "needs an NVIDIA GPU" run bandwidth --quick --all-devices --out "$TMP/all"
    [ ! -e "$TMP/all" ] && ok || bad "--all-devices without a GPU must leave nothing behind"
else
    skip 5 "the no-GPU checks of --fleet and --all-devices (this machine has a GPU)"
fi

# A made-up fleet of six GPUs from the bandwidth fixture: medians scaled
# by noise under 1%, rank 4 slowed by 15%, rank 5 without a GPU.
if need_python3; then
    python3 - "$GB_TESTS/data/runs/bandwidth-fixture" "$TMP/made" <<'EOF'
import json, os, sys
src, dst = sys.argv[1], sys.argv[2]
os.makedirs(dst)
info = json.load(open(src + "/run.json"))
recs = json.load(open(src + "/results.json"))[:6]
scale = [1.0, 1.004, 0.997, 1.002, 1.15]
out, members = [], []
for rank, s in enumerate(scale + [None]):
    dev = dict(info["device"], uuid="GPU-%08d-0000-0000-0000-000000000000" % rank,
               pci_bus_id="00000000:%02X:00.0" % (0x18 + rank))
    run = dict(info, device=dev, points_ok=0 if s is None else len(recs), points_failed=0)
    if s is None:
        del run["device"]
    members.append({"rank": rank, "local_rank": rank, "host": "node-%d" % (rank // 4),
                    "state": "no-gpu" if s is None else "ok", "exit_code": 3 if s is None else 0,
                    "reason": "no CUDA driver" if s is None else "", "run": run})
    if s is None:
        continue
    for r in recs:
        r = json.loads(json.dumps(r))
        for k in ("min", "median", "mean", "ci_lo", "ci_hi"):
            r["time_ns"][k] *= s
        r["bw_gbs"] = r["bytes"] / r["time_ns"]["median"]
        r["fleet"] = {"rank": rank, "host": "node-%d" % (rank // 4), "gpu_uuid": dev["uuid"]}
        out.append(r)
info.update(points_ok=len(out), points_failed=0, complete=False)
info["fleet"] = {"format": "gpubound-fleet/1", "size": len(members), "members": members}
json.dump(info, open(dst + "/run.json", "w"), indent=2)
with open(dst + "/results.json", "w") as f:
    f.write("[\n" + ",\n".join(json.dumps(r) for r in out) + "\n]\n")
# The same fleet with 60 points (each record thrice, told apart by an axis).
many = dst + "-many"
os.makedirs(many)
json.dump(info, open(many + "/run.json", "w"), indent=2)
rows = []
for r in out:
    for k in range(10):
        r2 = json.loads(json.dumps(r))
        r2["axes"]["copy"] = str(k)
        rows.append(r2)
with open(many + "/results.json", "w") as f:
    f.write("[\n" + ",\n".join(json.dumps(r) for r in rows) + "\n]\n")
EOF
    run_gb fleet "$TMP/made" --no-chart
    [ "$RC" = 0 ] && ok || bad "gpubound fleet on the made-up fleet exited $RC"
    printf '%s\n' "$OUT" | grep -E "^ +4 +node-1 .*OUTLIER: slow at 6 of 6 points" >/dev/null && ok \
        || bad "rank 4 (15% slow) is not flagged slow at every point"
    [ "$(printf '%s\n' "$OUT" | grep -c "like the fleet")" = 4 ] && ok || bad "the four noisy GPUs must read 'like the fleet'"
    printf '%s\n' "$OUT" | grep -q "no-gpu: no CUDA driver" && ok || bad "rank 5's reason is not shown"
    printf '%s\n' "$OUT" | grep -E "^bandwidth +6 +1\.15[0-9]* +1\.15[0-9]* .* 6 of 6 +6$" >/dev/null && ok \
        || bad "the per-suite row must say 6 points, all beyond the intervals and flagged (rank 4)"
    # A run whose member count, ranks, GPU UUIDs or hosts contradict each other is refused when loaded.
    contradict() { # NAME PYTHON: a copy of the made-up fleet changed by PYTHON (run: run.json, recs: records)
        mkdir -p "$TMP/$1"
        python3 - "$TMP/made" "$TMP/$1" "$2" <<'EOF2'
import json, sys
src, dst, code = sys.argv[1:4]
run = json.load(open(src + "/run.json"))
recs = json.load(open(src + "/results.json"))
exec(code)
json.dump(run, open(dst + "/run.json", "w"), indent=2)
open(dst + "/results.json", "w").write("[\n" + ",\n".join(json.dumps(r) for r in recs) + "\n]\n")
EOF2
    }
    contradict size 'run["fleet"]["size"] = 8'
    expect 1 'fleet.size = 8 but \$.fleet.members lists 6 members: the run contradicts itself' fleet "$TMP/size" --no-chart
    contradict rank 'recs[7]["fleet"]["rank"] = 9'
    expect 1 '\$\[7\].fleet.rank = 9 is not a member of run.json.s fleet section \(6 members\)' fleet "$TMP/rank" --no-chart
    contradict uuid 'recs[13]["fleet"]["gpu_uuid"] = recs[0]["fleet"]["gpu_uuid"]'
    expect 1 '\$\[13\].fleet.gpu_uuid = "GPU-00000000-.*" but rank 2.s GPU in run.json is "GPU-00000002-' fleet "$TMP/uuid" --no-chart
    contradict nogpu 'recs[0]["fleet"]["rank"] = 5'
    expect 1 '\$\[0\].fleet.gpu_uuid = "GPU-00000000-.*" but rank 5.s GPU in run.json is ""' fleet "$TMP/nogpu" --no-chart
    contradict host 'recs[2]["fleet"]["host"] = "node-7"'
    expect 1 '\$\[2\].fleet.host = "node-7" but rank 0.s host in run.json is "node-0"' fleet "$TMP/host" --no-chart
    run_gb fleet "$TMP/made" --format csv --no-chart
    [ "$(printf '%s\n' "$OUT" | grep -c ',slow$')" = 6 ] && ok || bad "csv: expected 6 slow rows"
    [ "$(printf '%s\n' "$OUT" | grep -c ',fast$')" = 0 ] && ok || bad "csv: no GPU is fast"
    [ "$(printf '%s\n' "$OUT" | wc -l)" = 37 ] && ok || bad "csv: a header and 6 points x 6 ranks"
    if command -v gnuplot >/dev/null 2>&1; then
        run_gb fleet "$TMP/made" --chart-dir "$TMP/chart"
        [ -s "$TMP/chart/fleet.svg" ] && ok || bad "the fleet chart was not drawn"
        run_gb fleet "$TMP/made-many" --chart-dir "$TMP/chart-many"
        [ -s "$TMP/chart-many/fleet-bandwidth.svg" ] && [ ! -e "$TMP/chart-many/fleet.svg" ] && ok \
            || bad "60 points: one chart per suite (fleet-bandwidth.svg) instead of bars, not drawn ($ERR)"
    else
        skip 2 "gnuplot is not installed: the fleet charts"
    fi
    # Never into the run read: --chart-dir inside it is refused, the default is a new runs/fleet-*.
    before=$(cd "$TMP/made" && find . | sort)
    expect 2 "lies inside the run .*which fleet only reads" fleet "$TMP/made" --chart-dir "$TMP/made/report"
    (cd "$TMP" && "$GPUBOUND" fleet "$TMP/made" >"$TMP/fl.out" 2>"$TMP/fl.err")
    d=$(sed -n 's/^charts: //p' "$TMP/fl.out")
    case "$d" in runs/fleet-*) [ -d "$TMP/$d" ] && ok || bad "the default chart directory $d was not made";;
                 *) bad "fleet did not name a runs/fleet-* chart directory: $(head -n 2 "$TMP/fl.out")";; esac
    [ "$(cd "$TMP/made" && find . | sort)" = "$before" ] && ok || bad "fleet wrote into the run it reads"
fi
finish
