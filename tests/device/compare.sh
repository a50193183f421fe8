# Device tier: gpubound compare on real runs. Two back-to-back quick runs of
# the bandwidth suite: no significant change on at least 95% of the points
# and the gate passes; the transpose without padding against the padded one
# (--pair, matched on the axes): flagged slower, the gate exits 1.
. "$(dirname "$0")/lib.bash"
fail=0
for r in a b; do
    "$GPUBOUND" run bandwidth --quick --no-report --out "$out/bw-$r" >/dev/null 2>"$out/bw-$r.err" ||
        { tail -n 3 "$out/bw-$r.err"; echo "FAIL: gpubound run bandwidth --quick"; fail=1; }
done
"$GPUBOUND" compare "$out/bw-a" "$out/bw-b" --format json --fail-on-regression >"$out/cmp.json" ||
    { echo "FAIL: the rerun is flagged as a regression"; fail=1; }
python3 -c 'import json,sys; s=json.load(open(sys.argv[1]))["summary"]; print(s); sys.exit(0 if s["unchanged"] >= 0.95*s["points"] > 0 else 1)' \
    "$out/cmp.json" || { echo "FAIL: under 95% of the points unchanged between back-to-back runs"; fail=1; }
"$GPUBOUND" run transpose/padded transpose/coalesced --set tile=32x8 --set n=4096 --quick --no-report \
    --out "$out/tr" >/dev/null 2>"$out/tr.err" || { tail -n 3 "$out/tr.err"; echo "FAIL: gpubound run transpose"; fail=1; }
"$GPUBOUND" compare "$out/tr" "$out/tr" --pair transpose/padded=transpose/coalesced --fail-on-regression >"$out/gate.out" 2>&1
rc=$?
cat "$out/gate.out"
[ $rc = 1 ] || { echo "FAIL: the unpadded transpose is not flagged (exit $rc, want 1)"; fail=1; }
[ $fail = 0 ] && echo "1 passed, 0 failed"
[ $fail = 0 ]
