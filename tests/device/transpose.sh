# Device tier: the transpose suite in quick mode (every bench, boundary sizes,
# both shapes), then 8- and 16-byte elements; every point must verify, and
# only the tiles that cannot fit may be skipped.
set -u
: "${GPUBOUND:?}"
out=$(mktemp -d /tmp/gb-transpose-XXXXXX)
trap 'rm -rf "$out"' EXIT
fail=0
check() {
    local dir=$1
    local ok bad skipped
    ok=$(grep -c '"status":"ok"' "$dir/results.json")
    bad=$(grep -c '"status":"\(failed\|error\)"' "$dir/results.json")
    skipped=$(grep -c '"status":"skipped"' "$dir/results.json")
    echo "$dir: $ok ok, $bad failed, $skipped skipped"
    grep '"status":"\(failed\|error\)"' "$dir/results.json" | head -5
    [ "$bad" = 0 ] && [ "$ok" -gt 0 ] && grep -q '"complete": true' "$dir/run.json" || fail=1
}
"$GPUBOUND" run transpose --quick --out "$out/q" --no-report >"$out/q.out" 2>"$out/q.err" || {
    tail -n 5 "$out/q.err"; echo "FAIL: gpubound run transpose --quick"; fail=1; }
check "$out/q"
# The quick sweep skips nothing: its tiles all fit.
[ "$(grep -c '"status":"skipped"' "$out/q/results.json")" = 0 ] || { echo "FAIL: quick points were skipped"; fail=1; }
"$GPUBOUND" run transpose --quick --set elem=8,16 --set n=1025 --set shape=tall --out "$out/e" --no-report \
    >"$out/e.out" 2>"$out/e.err" || { tail -n 5 "$out/e.err"; echo "FAIL: gpubound run transpose elem=8,16"; fail=1; }
check "$out/e"
# Every number within its device's physical bounds (scripts/plausible.py).
python3 "${GB_SRC:-$(dirname "$0")/../..}/scripts/plausible.py" "$out/q" "$out/e" || { echo "FAIL: implausible numbers"; fail=1; }
head -n 40 "$out/q.out"
[ $fail = 0 ] && echo "1 passed, 0 failed"
[ $fail = 0 ]
