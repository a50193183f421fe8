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
"$GPUBOUND" camp fit "$out/run" >"$out/fit" 2>"$out/stderr" || fail "camp fit exited $?"
cat "$out/fit"
[ -s "$out/run/campprof-model.json" ] || fail "camp fit wrote no model"
"$GPUBOUND" camp predict --model "$out/run/campprof-model.json" --gld 4:1048576 --gst 4:1048576 \
    --threads 256 --regs 32 --smem 0 --format csv >"$out/predict" 2>"$out/stderr" || fail "camp predict exited $?"
[ "$(wc -l <"$out/predict")" -gt 2 ] || fail "camp predict printed no configuration"
if grep -q '"bench":"\(gem\|clique\|transpose_coalesced\|transpose_diagonal\)"' "$out/run/results.json"; then
    "$GPUBOUND" camp validate --model "$out/run/campprof-model.json" "$out/run" >"$out/validate" 2>"$out/stderr" ||
        fail "camp validate exited $?"
    cat "$out/validate"
fi
echo "camp model: ok"
