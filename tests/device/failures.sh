# Device tier: failures stay inside their point. Four small kernel specs
# (tests/data/specs/), each wrong at one value of its axis and right at the
# others:
#   fault.json          an illegal address at block_size_x=96: the point is
#                       recorded (error, the driver's words), the process
#                       starts itself anew (a sticky error) and the points
#                       after it verify and time; run.json complete with
#                       restarts_after_fault 1 and a wall time over both
#                       processes; progress goes on at [4/5]; exit 1;
#   compile_error.json  an #error at block_size_x=64: recorded with NVRTC's
#                       log in compile_log, the reason naming the kernel and
#                       the first error; the others run;
#   refused.json        128 registers a thread: 1024 threads are refused
#                       (registers), 2048 too (threads); 64, 128, 256 run;
#   hang.json           spins for ever at block_size_x=64 with timeout_s 2:
#                       the run stops within seconds, exit 1, the point
#                       before it kept, the hung one recorded, run.json
#                       incomplete with the reason, one line on stderr
#                       naming the point; the GPU is usable afterwards.
# The records are checked by the python below; each check prints one line.
. "$(dirname "$0")/lib.bash"
specs=${GB_TESTS:-$(cd "$(dirname "$0")/.." && pwd)}/data/specs
export GPUBOUND_CACHE_DIR="$out/cache"
fail=0

# spec_run SPEC [NAME]: runs tests/data/specs/SPEC.json into $out/NAME
# (default SPEC); $rc and $secs (also exported as GB_SECS) set.
spec_run() {
    local spec=$1 name=${2:-$1} t0
    t0=$(date +%s.%N)
    timeout 120 "$GPUBOUND" run "$specs/$spec.json" --max-time 0.1 --no-report --out "$out/$name" \
        >"$out/$name.stdout" 2>"$out/$name.stderr"
    rc=$?
    secs=$(awk -v a="$t0" -v b="$(date +%s.%N)" 'BEGIN { printf "%.1f", b - a }')
    export GB_SECS=$secs
    if [ ! -f "$out/$name/run.json" ]; then
        echo "FAIL: $name: no run written (exit $rc): $(tail -n 1 "$out/$name.stderr")"
        fail=$((fail + 1))
        return 1
    fi
}

# check NAME PYTHON: runs the python check over $out/NAME's records (recs: a
# list of dicts, info: run.json), which prints its lines and exits 1 on failure.
check() {
    local name=$1
    python3 - "$out/$name" "$rc" "$out/$name.stderr" "$2" <<'EOF' || fail=$((fail + 1))
import json, sys
d, rc, err_file, body = sys.argv[1], int(sys.argv[2]), sys.argv[3], sys.argv[4]
info = json.load(open(d + "/run.json"))
recs = [json.loads(l.rstrip().rstrip(",")) for l in open(d + "/results.json")
        if l.strip().startswith("{")]
err = open(err_file).read()
by = {int(r["axes"]["block_size_x"]): r for r in recs}
bad = []
def want(cond, what):
    if not cond:
        bad.append(what)
exec(body)
name = d.rsplit("/", 1)[1]
for b in sorted(by):
    r = by[b]
    print(f"  {name} block_size_x={b}: {r['status']}" + (f" ({r['reason'][:150]})" if r["reason"] else
          f" {r['time_ns']['median'] / 1e3:.2f} us"))
if bad:
    print(f"FAIL: {name}: " + "; ".join(bad))
    sys.exit(1)
print(f"ok: {name}")
EOF
}

spec_run fault && check fault '
want(rc == 1, f"exit {rc}, expected 1 (a point failed)")
want(sorted(by) == [32, 64, 96, 128, 256], f"points {sorted(by)}")
want(by.get(96, {}).get("status") == "error", "block 96 not recorded as error")
want("illegal" in by.get(96, {}).get("reason", "").lower(), "block 96 reason does not name the illegal address")
want(all(by[b]["status"] == "ok" for b in (32, 64, 128, 256) if b in by), "a point other than 96 did not verify")
want(info["complete"] is True, "run.json not complete")
restarts, ok_n, failed_n, wall = info.get("restarts_after_fault"), info["points_ok"], info["points_failed"], info["wall_s"]
want(restarts == 1, f"restarts_after_fault {restarts}, expected 1")
want(ok_n == 4 and failed_n == 1, f"run.json counts {ok_n} ok, {failed_n} failed")
want("goes on from point 4 of 5 in a new process" in err, "stderr does not say the run goes on in a new process")
want("going on from point 4 of 5" in err and "[4/5]" in err and "[5/5]" in err, "the new process did not go on at [4/5]")
secs = float(__import__("os").environ["GB_SECS"])
want(0.5 * secs <= wall <= secs + 1, f"wall_s {wall:.2f} does not cover the run ({secs} s from outside)")
print(f"  fault: wall_s {wall:.2f} s over two processes, {secs} s from outside")
'

spec_run compile_error && check compile_error '
r = by.get(64, {})
want(rc == 1, f"exit {rc}, expected 1")
want(r.get("status") == "error", "block 64 not recorded as error")
want("failed to compile" in r.get("reason", "") and "compile_error.cu" in r.get("reason", ""),
     "the reason does not name the kernel and the compile failure")
want("#error" in r.get("reason", "") or "not supported by this kernel" in r.get("reason", ""),
     "the reason does not carry the first error")
want("not supported by this kernel" in (r.get("compile_log") or ""), "compile_log missing or without the error")
want(all(by[b]["status"] == "ok" and "compile_log" not in by[b] for b in (32, 128) if b in by),
     "32 or 128 did not run clean")
want(len(by) == 3, f"{len(by)} points, expected 3")
'

spec_run refused && check refused '
want(rc == 1, f"exit {rc}, expected 1")
want(by.get(2048, {}).get("status") == "error", "2048 threads not refused")
want(by.get(1024, {}).get("status") == "error", "1024 threads of 128 registers not refused")
want(all(by[b]["status"] == "ok" for b in (64, 128, 256) if b in by), "64, 128 or 256 did not verify")
want(len(by) == 5, f"{len(by)} points, expected 5 (the sweep went on after the refusals)")
'

spec_run hang && check hang '
want(rc == 1, f"exit {rc}, expected 1")
want(by.get(32, {}).get("status") == "ok", "the point before the hang was not kept")
want(by.get(64, {}).get("status") == "error" and "hung" in by.get(64, {}).get("reason", ""), "the hung point not recorded")
want(128 not in by, "a point after the hang was measured")
want(info["complete"] is False, "run.json says complete")
want("block_size_x=64" in info.get("incomplete_reason", ""), "run.json does not say which point hung")
last = [l for l in err.splitlines() if l.strip()][-1] if err.strip() else ""
want("hung" in last and "block_size_x=64" in last, "the last stderr line does not name the hung point")
'
echo "  hang: stopped after ${secs} s (limit 2 s)"
awk -v s="$secs" 'BEGIN { exit !(s < 60) }' || { echo "FAIL: the hung run took ${secs} s"; fail=$((fail + 1)); }

# The GPU is usable after the hung process ended.
spec_run fault after_hang && check after_hang 'want(by.get(128, {}).get("status") == "ok", "after the hang: block 128 did not verify")'

# Keep the runs where the caller asks (scripts/device_failures.sh).
if [ -n "${GB_KEEP:-}" ]; then
    mkdir -p "$GB_KEEP" && cp -r "$out"/fault* "$out"/compile_error* "$out"/refused* "$out"/hang* "$out"/after_hang* "$GB_KEEP"/
fi

echo "$([ $fail = 0 ] && echo ok || echo FAIL): failures: $fail check(s) failed"
exit $((fail > 0))
