# Device tier: a second run compiles nothing (the on-disk module cache).
set -u
: "${GPUBOUND:?}"
dir=$(mktemp -d /tmp/gb-cache-XXXXXX)
trap 'rm -rf "$dir"' EXIT
export GPUBOUND_CACHE_DIR="$dir/cache"
for r in r1 r2; do
    "$GPUBOUND" run bandwidth/read --quick --set width=16 --out "$dir/$r" --no-report >/dev/null 2>&1 || { echo "FAIL: run $r"; exit 1; }
done
grep -A3 '"modules"' "$dir/r1/run.json" "$dir/r2/run.json"
grep -q '"compiled": 0' "$dir/r1/run.json" && { echo "FAIL: the first run should compile"; exit 1; }
grep -q '"compiled": 0' "$dir/r2/run.json" || { echo "FAIL: the second run compiled again"; exit 1; }
echo "1 passed, 0 failed"
