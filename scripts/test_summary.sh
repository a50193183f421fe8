#!/usr/bin/env bash
# test_summary.sh BUILD_DIR: the last line of `make test`: how many tests and
# checks it did not run, and why. Device tests (ctest label device) need a
# GPU and run with `make gpu-test` or scripts/device_tier.sh; CLI checks a
# machine cannot run (e.g. the no-GPU checks on a GPU machine) are those the
# CLI tests logged to BUILD_DIR/skipped-checks.log through skip().
set -u
build=$1
n=$(cd "$build" && ctest -N -L device 2>/dev/null | sed -n 's/^Total Tests: *//p')
names=$(cd "$build" && ctest -N -L device 2>/dev/null | sed -n 's/^ *Test *#[0-9]*: device\///p' | tr '\n' ' ')
line="make test: did not run ${n:-0} device tests (${names% }): they need a GPU; run them with 'make gpu-test' or 'bash scripts/device_tier.sh $build LOGDIR' on a GPU machine"
log="$build/skipped-checks.log"
if [ -s "$log" ]; then
    # Lines "N TEST: WHY", grouped by WHY.
    why=$(awk '{ n = $1; t = $2; sub(/:$/, "", t); $1 = ""; $2 = ""; r = substr($0, 3)
                 c[r] += n; s += n; ts[r] = ts[r] (ts[r] == "" ? "" : ", ") t }
               END { for (r in c) out = out (out == "" ? "" : "; ") c[r] " in " ts[r] ": " r; print s " CLI checks (" out ")" }' "$log")
    line="$line; skipped $why"
fi
echo "$line"
