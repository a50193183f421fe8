#!/usr/bin/env bash
# The breakdown of every committed run reproduces its committed model: for
# each data/<gpu>/<run>/lpbm-model.json, `gpubound breakdown` on that run
# writes the same file. With no committed model it skips (and says how many
# it checked) only while no kernel-spec example run is recorded; once one
# is (a run.json whose command line names examples/), a missing model fails.
set -u
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
fails=0 checked=0
shopt -s nullglob
# From the source tree: a recorded run names its spec (examples/...) relative
# to it. The committed models were fitted on that spec as it is now, with the
# "lpbm" hints added after the runs, which the copy each run kept lacks (and
# which the breakdown reads before the command line's path): it is named.
cd "$GB_SRC" || exit 1
for model in "$GB_SRC"/data/*/*/lpbm-model.json "$GB_SRC"/data/*/*/*/lpbm-model.json; do
    run=$(dirname "$model")
    checked=$((checked + 1))
    out="$T/$checked"
    spec=$(sed -n 's/.*"command_line": *"[^"]* \(examples\/[a-z]*\/spec\.json\).*/\1/p' "$run/run.json")
    # exit 4: a bench the model does not explain (the honesty rule), model written
    "$GPUBOUND" breakdown "$run" --out "$out" --no-chart ${spec:+--spec "$spec"} >/dev/null 2>"$T/err"
    rc=$?
    if [ $rc -ne 0 ] && [ $rc -ne 4 ]; then
        echo "FAIL: breakdown $run: $(cat "$T/err")"
        fails=$((fails + 1))
    elif ! cmp -s "$model" "$out/lpbm-model.json"; then
        echo "FAIL: $run: the refit differs from the committed lpbm-model.json:"
        diff "$model" "$out/lpbm-model.json" | head -20
        fails=$((fails + 1))
    fi
done
examples=0
for rj in "$GB_SRC"/data/*/*/run.json "$GB_SRC"/data/*/*/*/run.json; do
    # A --quick run measures too few configurations for the fit.
    if grep -q '"command_line": *"[^"]*examples/\(sgemm\|fft\|reduction\)/' "$rj" &&
        ! grep -q '"command_line": *"[^"]*--quick' "$rj"; then
        examples=$((examples + 1))
        [ -e "$(dirname "$rj")/lpbm-model.json" ] || {
            echo "FAIL: $(dirname "$rj") is a recorded example run without its lpbm-model.json" \
                 "(run: gpubound breakdown $(dirname "$rj"))"
            fails=$((fails + 1))
        }
    fi
done
if [ $checked -eq 0 ] && [ $examples -eq 0 ]; then
    echo "SKIP: no recorded example run and no committed lpbm-model.json yet (checked 0)"
    [ -n "${GB_SKIP_LOG:-}" ] && echo "breakdown_recorded: no recorded example run" >>"$GB_SKIP_LOG"
    exit 0
fi
[ $fails -eq 0 ] && echo "breakdown_recorded: $checked committed models reproduced"
exit $((fails > 0))
