# Device tier: under a clock that can batch (CUPTI's timestamps), launches
# shorter than 20 us are batched in a CUDA graph, verified, and their
# per-launch kernel times recorded with the batch time kept apart; under the
# default clock (the profiler's gpu__time_duration, one launch a sample) no
# profiler-timed point is batched or carries a batch time, and a copy, which the
# profiler cannot count, is timed by the next clock instead of skipped.
set -u
: "${GPUBOUND:?}"
dir=$(mktemp -d /tmp/gb-graph-XXXXXX)
trap 'rm -rf "$dir"' EXIT
fails=0
run() { # run NAME ARGS...
    local name=$1
    shift
    "$GPUBOUND" run bandwidth/read bandwidth/dtod --set width=16 --set bytes=1M "$@" --out "$dir/$name" \
        --no-report >"$dir/$name.out" 2>&1 || { cat "$dir/$name.out"; echo "FAIL: run $name"; exit 1; }
    tail -n 4 "$dir/$name.out"
}
run cupti --timer cupti
res="$dir/cupti/results.json"
ok=$(grep -c '"status":"ok"' "$res")
batched=$(grep -c '"batch":\([2-9]\|[1-9][0-9]\)' "$res")
with_batch_time=$(grep '"batch":\([2-9]\|[1-9][0-9]\)' "$res" | grep -c '"batch_time_ns":{')
echo "cupti: points ok: $ok, batched in a graph: $batched, with a batch time: $with_batch_time"
[ "$ok" = 3 ] && [ "$batched" = 3 ] && [ "$with_batch_time" = 3 ] || { echo "FAIL: cupti batching"; fails=$((fails + 1)); }
run auto
res="$dir/auto/results.json"
ok=$(grep -c '"status":"ok"' "$res")
batched=$(grep '"time_source":"profiler' "$res" | grep -c '"batch":\([2-9]\|[1-9][0-9]\)\|"batch_time_ns":{')
prof=$(grep -c '"time_source":"profiler' "$res")
copy=$(grep '"bench":"dtod"' "$res" | grep -c '"status":"ok"')
echo "auto: points ok: $ok, profiler-timed with a batch: $batched, profiler-timed: $prof, copy ok: $copy"
[ "$ok" = 3 ] && [ "$batched" = 0 ] && [ "$prof" = 2 ] && [ "$copy" = 1 ] || { echo "FAIL: default clock"; fails=$((fails + 1)); }
[ "$fails" = 0 ] && echo "2 passed, 0 failed"
