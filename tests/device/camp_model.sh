# Device tier: the camping suite in quick mode, then the CampProf model on what
# it recorded: the fit must succeed and write a model, predict must give a band
# for the recorded device, and validate must run when the quick run holds the
# validation applications.
set -u
: "${GPUBOUND:?}"
out=$(mktemp -d /tmp/gb-device-XXXXXX)
trap 'rm -rf "$out"' EXIT
fail() { echo "FAIL: $*"; cat "$out/stderr" 2>/dev/null | tail -n 5; exit 1; }

"$GPUBOUND" run camping --quick --out "$out/run" --no-report >"$out/stdout" 2>"$out/stderr" ||
    fail "gpubound run camping --quick exited $?"
"$GPUBOUND" camp fit "$out/run" --out "$out/model" >"$out/fit" 2>"$out/stderr" || fail "camp fit exited $?"
cat "$out/fit"
[ -s "$out/model/campprof-model.json" ] || fail "camp fit wrote no model"
python3 "${GB_SRC:-$(dirname "$0")/../..}/scripts/plausible.py" "$out/run" || fail "implausible numbers in the camping run"
# Values of the fit (the default form, smax4: t = L_W * (1 + (w / knee_W)^4)^(1/4)):
# every equation's R^2 in [0, 1]; every latency term L and knee positive,
# since more warps per SM move more bytes and cannot take less time.
awk '/^  fit: R\^2/ { r = $3; sub(/,$/, "", r); n++; if (r < 0 || r > 1) { print "R^2 " r " outside [0, 1]"; bad++ } }
     /^(L|knee):b[0-9]+ / { nt++; if ($2 + 0 <= 0) { print $1 " " $2 " not positive"; bad++ } }
     END { if (n < 2) { print "fewer than two equations fitted"; bad++ }
           if (nt < 4) { print "fewer than four terms printed"; bad++ } exit bad > 0 }' "$out/fit" ||
    fail "camp fit's values are implausible"
"$GPUBOUND" camp predict --model "$out/model/campprof-model.json" --gld 4:1048576 --gst 4:1048576 \
    --threads 256 --regs 32 --smem 0 --format csv >"$out/predict" 2>"$out/stderr" || fail "camp predict exited $?"
[ "$(wc -l <"$out/predict")" -gt 2 ] || fail "camp predict printed no configuration"
# At 32 or more active warps per SM (where the benchmarks ran full) the
# band is a positive time and the camped bound is not below the spread one.
awk -F, 'NR > 1 && $1 >= 32 { n++; if (!($2 > 0) || $3 < $2) { print "warps " $1 ": best " $2 " worst " $3; bad++ } }
         END { if (!n) { print "no configuration at 32 or more warps"; bad++ } exit bad > 0 }' "$out/predict" ||
    fail "camp predict's band is implausible"
if grep -q '"bench":"\(gem\|clique\|transpose_coalesced\|transpose_diagonal\)"' "$out/run/results.json"; then
    "$GPUBOUND" camp validate --model "$out/model/campprof-model.json" "$out/run" >"$out/validate" 2>"$out/stderr" ||
        fail "camp validate exited $?"
    cat "$out/validate"
fi
echo "camp model: ok"
