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
    k=$(awk '{ s += $1 } END { print s }' "$log")
    why=$(cut -d' ' -f2- "$log" | sort -u | paste -sd ';' -)
    line="$line; skipped $k CLI checks ($why)"
fi
echo "$line"
