# Shared by the device tests (sourced; not a test itself: the glob takes *.sh).
# GPUBOUND is the binary under test; $out is a fresh directory, removed at exit.
set -u
: "${GPUBOUND:?}"
out=$(mktemp -d /tmp/gb-device-XXXXXX)
trap 'rm -rf "$out"' EXIT

# quick_run WHAT ARGS...: `gpubound run ARGS --quick --out $out/run`, its
# stdout shown whole and the end of its stderr; exits the test with 1 when
# the run fails. WHAT names the run in the message.
quick_run() {
    local what=$1 rc
    shift
    "$GPUBOUND" run "$@" --quick --out "$out/run" >"$out/stdout" 2>"$out/stderr"
    rc=$?
    cat "$out/stdout"
    tail -n 5 "$out/stderr"
    if [ $rc != 0 ]; then echo "FAIL: gpubound run ${what:+$what }--quick exited $rc"; exit 1; fi
    plausible "$out/run"
}

# plausible RUN_DIR: every recorded number of the run within the physical
# bounds of its device (scripts/plausible.py: times, CI order, bytes/s
# against the DRAM or the SMs' peak, issue rates, occupancy, counters);
# exits the test with 1 when one is not.
plausible() {
    local src=${GB_SRC:-$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)}
    python3 "$src/scripts/plausible.py" "$1" || { echo "FAIL: implausible numbers in $1"; exit 1; }
}

# count_records BAD: sets $ok to the records of results.json with status ok
# and $bad to those whose status matches BAD (a grep alternation, e.g.
# 'failed\|error').
count_records() {
    bad=$(grep -c "\"status\":\"\\($1\\)\"" "$out/run/results.json")
    ok=$(grep -c '"status":"ok"' "$out/run/results.json")
}

# run_complete: whether run.json says the run completed.
run_complete() { grep -q '"complete": true' "$out/run/run.json"; }
