# Device tier: every suite in quick mode on a real GPU; every point must verify.
set -u
: "${GPUBOUND:?}"
out=$(mktemp -d /tmp/gb-device-XXXXXX)
trap 'rm -rf "$out"' EXIT
"$GPUBOUND" run --quick --out "$out/run" --no-report >"$out/stdout" 2>"$out/stderr"
rc=$?
cat "$out/stdout"
tail -n 5 "$out/stderr"
if [ $rc != 0 ]; then echo "FAIL: gpubound run --quick exited $rc"; exit 1; fi
# Every record must be ok (verified and timed).
bad=$(grep -c '"status":"\(failed\|error\)"' "$out/run/results.json")
ok=$(grep -c '"status":"ok"' "$out/run/results.json")
echo "$ok passed, $bad failed"
[ "$bad" = 0 ] && [ "$ok" -gt 0 ] && grep -q '"complete": true' "$out/run/run.json"
