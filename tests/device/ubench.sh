# Device tier: suite ubench in --quick mode (7 block shapes per bench, every
# size, the default carveout): every point verified, the metrics the
# geometry advisor reads recorded, and the diagrams drawn when gnuplot is here.
set -u
: "${GPUBOUND:?}"
dir=$(mktemp -d /tmp/gb-ubench-XXXXXX)
trap 'rm -rf "$dir"' EXIT
start=$(date +%s)
"$GPUBOUND" run ubench --quick --out "$dir/r" --no-report >"$dir/out" 2>"$dir/err"
rc=$?
end=$(date +%s)
tail -n 3 "$dir/err"
if [ $rc != 0 ]; then grep -v '^\[' "$dir/err" | head; grep -E ': (failed|error)' "$dir/err" | head; echo "FAIL: gpubound run ubench --quick exited $rc"; exit 1; fi
res="$dir/r/results.json"
# Every number within its device's physical bounds (scripts/plausible.py).
python3 "${GB_SRC:-$(dirname "$0")/../..}/scripts/plausible.py" "$dir/r" || { echo "FAIL: implausible numbers"; exit 1; }
ok=$(grep -c '"status":"ok"' "$res")
bad=$(grep -c '"status":"\(failed\|error\|skipped\)"' "$res")
echo "ubench --quick: $ok verified, $bad not, $((end - start)) s wall"
fails=0
# 15 kernels x 7 shapes x 3 sizes + Cannon 2 x 7 x 2 sizes.
[ "$ok" = 343 ] || { echo "FAIL: expected 343 verified points, got $ok"; fails=$((fails + 1)); }
[ "$bad" = 0 ] || { echo "FAIL: $bad points not verified"; fails=$((fails + 1)); }
for m in occupancy regs max_occupancy threads; do
    n=$(grep -c "\"$m\":" "$res")
    [ "$n" = "$ok" ] || { echo "FAIL: metric $m in $n of $ok records"; fails=$((fails + 1)); }
done
# Some shape reaches the kernel's maximum occupancy, and 1 x 1 blocks do not.
grep -q '"max_occupancy":1' "$res" || { echo "FAIL: no shape at maximum occupancy"; fails=$((fails + 1)); }
if grep '"rows":"1","cols":"1"' "$res" | grep -q '"max_occupancy":1'; then
    echo "FAIL: 1 x 1 blocks reported at maximum occupancy"; fails=$((fails + 1))
fi
# The default clock times every point, one launch a sample: a batch time
# is never recorded as a kernel duration (tests/device/graph.sh checks
# batching under a clock that batches).
prof=$(grep -c '"time_source":"profiler' "$res")
[ "$prof" = "$ok" ] || { echo "FAIL: $prof of $ok points timed by the profiler"; fails=$((fails + 1)); }
if grep '"time_source":"profiler' "$res" | grep -q '"batch":\([2-9]\|[1-9][0-9]\)\|"batch_time_ns":{'; then
    echo "FAIL: a profiler-timed point carries a batch"; fails=$((fails + 1))
fi
# The diagrams, when gnuplot is on this machine.
if command -v gnuplot >/dev/null 2>&1; then
    "$GPUBOUND" report "$dir/r" --out "$dir/rep" >/dev/null 2>&1 || { echo "FAIL: report"; fails=$((fails + 1)); }
    [ -s "$dir/rep/shape-ubench1-large-default.svg" ] || { echo "FAIL: no diagram for ubench1"; fails=$((fails + 1)); }
    [ -s "$dir/rep/shape-cannon_shifted-medium-default.svg" ] || { echo "FAIL: no diagram for Cannon"; fails=$((fails + 1)); }
fi
[ "$fails" = 0 ] && echo "1 passed, 0 failed"
