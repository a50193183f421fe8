# Device tier: launches shorter than 20 us are batched in a CUDA graph, verified,
# and their per-launch times recorded.
set -u
: "${GPUBOUND:?}"
dir=$(mktemp -d /tmp/gb-graph-XXXXXX)
trap 'rm -rf "$dir"' EXIT
"$GPUBOUND" run bandwidth/read bandwidth/dtod --set width=16 --set bytes=1M --out "$dir/r" --no-report >"$dir/out" 2>&1 ||
    { cat "$dir/out"; echo "FAIL: run"; exit 1; }
cat "$dir/out" | tail -6
ok=$(grep -c '"status":"ok"' "$dir/r/results.json")
batched=$(grep -c '"batch":\([2-9]\|[1-9][0-9]\)' "$dir/r/results.json")
echo "points ok: $ok, batched in a graph: $batched"
[ "$ok" = 3 ] && [ "$batched" = 3 ] && echo "1 passed, 0 failed"
