# Device tier: suite camping in quick mode. Every point verifies, every
# point that ran realised the active warps per SM it asked for (the metric
# active_warps equals the warps axis) and records its request counts; the
# discovery records a slowdown for every pattern it tried.
set -u
: "${GPUBOUND:?}"
out=$(mktemp -d /tmp/gb-camping-XXXXXX)
trap 'rm -rf "$out"' EXIT
"$GPUBOUND" run camping --quick --out "$out/run" --no-report >"$out/stdout" 2>"$out/stderr"
rc=$?
cat "$out/stdout"
tail -n 3 "$out/stderr"
if [ $rc != 0 ]; then echo "FAIL: gpubound run camping --quick exited $rc"; exit 1; fi
res="$out/run/results.json"
fails=0
python3 "${GB_SRC:-$(dirname "$0")/../..}/scripts/plausible.py" "$out/run" || { echo "FAIL: implausible numbers"; fails=$((fails + 1)); }
bad=$(grep -c '"status":"\(failed\|error\)"' "$res")
ok=$(grep -c '"status":"ok"' "$res")
[ "$bad" = 0 ] || { echo "FAIL: $bad points failed:"; grep '"status":"\(failed\|error\)"' "$res" | sed 's/.*"bench":"\([^"]*\)".*"reason":"\([^"]*\)".*/  \1: \2/'; fails=$((fails + 1)); }
[ "$ok" -gt 40 ] || { echo "FAIL: only $ok points ok"; fails=$((fails + 1)); }
# active_warps equals the warps axis; the request counts are there.
wrong=$(grep '"status":"ok"' "$res" | grep '"warps":"' | awk '{
    w = $0; sub(/.*"warps":"/, "", w); sub(/".*/, "", w)
    a = $0; if (!sub(/.*"active_warps":/, "", a)) { print "no active_warps"; next }
    sub(/[,}].*/, "", a)
    if (a + 0 != w + 0) print "warps " w " realised " a
    if ($0 !~ /"ld_req_16":/ || $0 !~ /"st_req_2":/ || $0 !~ /"ld_sectors":/ || $0 !~ /"st_sectors":/) print "counts missing"
}' | sort | uniq -c)
[ -z "$wrong" ] || { echo "FAIL: $wrong"; fails=$((fails + 1)); }
nd=$(grep '"bench":"discover"' "$res" | grep '"status":"ok"' | grep -c '"slowdown":')
[ "$nd" -gt 0 ] || { echo "FAIL: no discovery point recorded a slowdown"; fails=$((fails + 1)); }
echo "discovery (footprint, offset, pitch: slowdown):"
grep '"bench":"discover"' "$res" | grep '"status":"ok"' | awk '{
    f = $0; sub(/.*"footprint":"/, "", f); sub(/".*/, "", f)
    o = $0; sub(/.*"offset":"/, "", o); sub(/".*/, "", o)
    p = $0; sub(/.*"pitch":"/, "", p); sub(/".*/, "", p)
    s = $0; sub(/.*"slowdown":/, "", s); sub(/[,}].*/, "", s)
    printf "  %s %s %s: %.3f\n", f, o, p, s }'
echo "slice probe (footprint: pair_ratio same_slice spread_slices probe_slowdown candidates):"
grep '"bench":"discover"' "$res" | grep '"status":"ok"' | grep '"pitch":"0"' | awk '
function m(k,   v) { v = $0; if (v !~ "\"" k "\":") return "-"; sub(".*\"" k "\":", "", v); sub(/[,}].*/, "", v); return v }
{ f = $0; sub(/.*"footprint":"/, "", f); sub(/".*/, "", f)
  print "  " f ": " m("pair_ratio") " " m("same_slice") " " m("spread_slices") " " m("probe_slowdown") " " m("candidates") }'
[ "$fails" = 0 ] && echo "1 passed, 0 failed"
