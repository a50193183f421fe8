#!/usr/bin/env bash
# run.sh BUILD SECONDS [TARGET...]: runs each fuzz target of BUILD (made by
# `make fuzz`, or cmake -DGB_FUZZ=ON with CC=clang) for SECONDS on the seed
# corpus (seeds.sh), keeping what it finds new in BUILD/fuzz-corpus/TARGET,
# and prints the inputs each ran. Exit 1 when a target crashes, leaks, trips
# a sanitizer or times out (the reproducer is left as BUILD/crash-*).
set -u
BUILD=$(cd "$1" && pwd)
SECONDS_EACH=$2
shift 2
SRC=$(cd "$(dirname "$0")/../.." && pwd)
TARGETS=("$@")
[ ${#TARGETS[@]} -gt 0 ] || TARGETS=(fuzz_results fuzz_results_gz fuzz_run_json fuzz_model fuzz_ncu fuzz_charts fuzz_spec
    fuzz_compare fuzz_fleet fuzz_lpbm fuzz_expr)
SEEDS="$BUILD/fuzz-seeds"
rm -rf "$SEEDS"
bash "$SRC/tests/fuzz/seeds.sh" "$SRC" "$SEEDS" >/dev/null
fails=0
for t in "${TARGETS[@]}"; do
    bin="$BUILD/tests/fuzz/$t"
    [ -x "$bin" ] || { echo "$t: not built ($bin)"; fails=$((fails + 1)); continue; }
    mkdir -p "$BUILD/fuzz-corpus/$t"
    log="$BUILD/fuzz-$t.log"
    ( cd "$BUILD" && ASAN_OPTIONS=detect_leaks=1 LSAN_OPTIONS=suppressions="$SRC/tests/fuzz/lsan.supp" UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
        "$bin" -max_total_time="$SECONDS_EACH" -max_len=131072 -timeout=10 -rss_limit_mb=2048 \
        -print_final_stats=1 "fuzz-corpus/$t" "fuzz-seeds/$t" ) >"$log" 2>&1
    rc=$?
    execs=$(grep -o 'stat::number_of_executed_units: *[0-9]*' "$log" | grep -o '[0-9]*$' | tail -1)
    if [ $rc = 0 ]; then
        echo "$t: ${execs:-?} inputs in ${SECONDS_EACH}s, nothing found"
    else
        echo "$t: FAILED (exit $rc) after ${execs:-?} inputs; see $log"
        grep -m3 -E 'ERROR|runtime error|SUMMARY' "$log"
        fails=$((fails + 1))
    fi
done
[ $fails = 0 ]
