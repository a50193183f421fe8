#!/usr/bin/env bash
# device_tier.sh BUILD_DIR [LOG_DIR]: runs every device test (tests/device/*.sh)
# against the gpubound built in BUILD_DIR (its tests/ beside it), the way
# `make gpu-test` does through ctest, for a machine that has the built
# binaries but not the build tree (a GPU machine the build was copied to).
# Prints one line per test and "N passed, N failed"; exits 1 when any failed,
# 3 (one line) when the machine has no usable GPU.
set -uo pipefail
build=$(cd "$1" && pwd)
logs=${2:-$(mktemp -d /tmp/gb-device-logs-XXXXXX)}
src=$(cd "$(dirname "$0")/.." && pwd)
mkdir -p "$logs"
export GPUBOUND="$build/gpubound" GB_SRC="$src" GB_TESTS="$src/tests"
export GB_TEST_OCCUPANCY="$build/tests/test_occupancy"
# Shared libraries the test binaries need, copied beside them (lib/) when
# the machine does not have them installed.
[ -d "$build/lib" ] && export LD_LIBRARY_PATH="$build/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
# Without a usable GPU: one line, and exit 3 (gpubound's "no usable GPU").
"$GPUBOUND" info >/dev/null 2>"$logs/info.err"; rc=$?
if [ "$rc" = 3 ]; then
    echo "device tier: no usable GPU on this machine: $(head -n 1 "$logs/info.err")" >&2
    exit 3
fi
pass=0 fail=0
for t in ${GB_DEVICE_TESTS:-"$src"/tests/device/*.sh}; do
    name=$(basename "$t" .sh)
    [ "$name" = lib ] && continue
    start=$(date +%s.%N)
    if bash "$t" >"$logs/$name.log" 2>&1; then pass=$((pass + 1)); r=ok; else fail=$((fail + 1)); r=FAIL; fi
    printf '%-18s %-4s %6.1f s  %s\n' "$name" "$r" "$(awk -v a="$start" -v b="$(date +%s.%N)" 'BEGIN { print b - a }')" "$(tail -n 1 "$logs/$name.log")"
done
echo "$pass passed, $fail failed"
[ "$fail" = 0 ]
