# Device tier: the profiler clock (run --timer profiler) and the counters'
# two replays (profile --cache-control all|none).
#   1. every point timed by the profiler says so, is one launch a sample (no
#      graph batch), and a cold point names the empty flush;
#   2. profiling a 256 MiB read with user replay (all) counts its DRAM reads
#      within 1% of the bytes it reads (8388608 sectors), and both replays
#      count the same instructions.
. "$(dirname "$0")/lib.bash"
fails=0
"$GPUBOUND" run bandwidth/read --set width=16 --set grid=stride --set bytes=1M,256M --timer profiler --quick \
    --no-report --out "$out/hot" >"$out/hot.log" 2>&1 || { tail -n 5 "$out/hot.log"; echo "FAIL: run --timer profiler"; exit 1; }
"$GPUBOUND" run bandwidth/read --set width=16 --set grid=stride --set bytes=1M --timer profiler --cold --quick \
    --no-report --out "$out/cold" >"$out/cold.log" 2>&1 || { tail -n 5 "$out/cold.log"; echo "FAIL: run --cold --timer profiler"; exit 1; }
python3 - "$out/hot/results.json" "$out/cold/results.json" <<'PY' || fails=$((fails + 1))
import json, sys
bad = []
for path in sys.argv[1:]:
    data = json.load(open(path))
    for r in (data["records"] if isinstance(data, dict) else data):
        if r["status"] != "ok":
            bad.append("%s: a point is %s" % (path, r["status"]))
            continue
        if r["time_source"] != "profiler" or r["batch"] != 1 or not r["time_ns"]["median"] > 0:
            bad.append("%s: time_source %s, batch %s, median %s" % (path, r["time_source"], r["batch"], r["time_ns"]["median"]))
        if r["cache"] == "cold" and r.get("cold_flush") != "empty":
            bad.append("%s: cold flush %s" % (path, r.get("cold_flush")))
print("\n".join(bad) if bad else "profiler clock: every record timed by the profiler, one launch a sample")
sys.exit(1 if bad else 0)
PY
M=smsp__inst_executed.sum,dram__sectors_read.sum
for cc in all none; do
    "$GPUBOUND" profile bandwidth/read --set width=16 --set grid=stride --set bytes=256M --quick --metrics $M \
        --cache-control $cc --format csv >"$out/prof-$cc.csv" 2>"$out/prof-$cc.err" ||
        { tail -n 3 "$out/prof-$cc.err"; echo "FAIL: profile --cache-control $cc"; fails=$((fails + 1)); }
done
python3 - "$out/prof-all.csv" "$out/prof-none.csv" <<'PY' || fails=$((fails + 1))
import csv, sys
v = [{r[1]: float(r[2]) for r in list(csv.reader(open(p)))[1:] if len(r) > 2} for p in sys.argv[1:]]
ok = v[0]["smsp__inst_executed.sum"] == v[1]["smsp__inst_executed.sum"] and \
     abs(v[0]["dram__sectors_read.sum"] / 8388608 - 1) < 0.01
print("instructions %g and %g, DRAM read sectors (user replay) %g of 8388608" % (
    v[0]["smsp__inst_executed.sum"], v[1]["smsp__inst_executed.sum"], v[0]["dram__sectors_read.sum"]))
sys.exit(0 if ok else 1)
PY
[ $fails = 0 ] && echo "1 passed, 0 failed"
exit $((fails > 0))
