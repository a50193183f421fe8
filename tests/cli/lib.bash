# Shared by the CLI golden tests. GPUBOUND is the binary under test.
set -u
: "${GPUBOUND:?GPUBOUND must name the gpubound binary}"
TMP=$(mktemp -d /tmp/gb-cli-XXXXXX)
trap 'rm -rf "$TMP"' EXIT
FAILS=0
PASSES=0
SKIPS=0

has_gpu() { command -v nvidia-smi >/dev/null 2>&1 && nvidia-smi -L >/dev/null 2>&1; }

# run_gb ARGS...: runs gpubound, leaving $OUT, $ERR and $RC.
run_gb() {
    "$GPUBOUND" "$@" >"$TMP/out" 2>"$TMP/err"
    RC=$?
    OUT=$(cat "$TMP/out")
    ERR=$(cat "$TMP/err")
}

# run_gb_beside SPECIAL ARGS...: run_gb with a FIFO or a device planted at
# SPECIAL, where a wrong open would wait forever: after 30 s gpubound is
# killed, SPECIAL opened so that a hung open returns, RC left empty and 1
# returned; else 0, with $OUT, $ERR and $RC.
run_gb_beside() {
    local special=$1
    shift
    "$GPUBOUND" "$@" >"$TMP/out" 2>"$TMP/err" &
    local pid=$! waited=0
    while kill -0 "$pid" 2>/dev/null && [ "$waited" -lt 300 ]; do sleep 0.1; waited=$((waited + 1)); done
    if kill -0 "$pid" 2>/dev/null; then
        kill "$pid"; wait "$pid" 2>/dev/null
        exec 9<>"$special"; exec 9>&-
        RC="" OUT=$(cat "$TMP/out") ERR=$(cat "$TMP/err")
        return 1
    fi
    wait "$pid"; RC=$?
    OUT=$(cat "$TMP/out") ERR=$(cat "$TMP/err")
}

ok() { PASSES=$((PASSES + 1)); }
bad() { echo "FAIL: $*" >&2; echo "  stdout: ${OUT:0:400}" >&2; echo "  stderr: ${ERR:0:400}" >&2; FAILS=$((FAILS + 1)); }

# expect CODE PATTERN ARGS...: exit code CODE, stderr is one line matching PATTERN (grep -E)
# when CODE is not 0.
expect() {
    local code=$1 pat=$2
    shift 2
    run_gb "$@"
    if [ "$RC" != "$code" ]; then bad "gpubound $* exited $RC, expected $code"; return; fi
    if [ "$code" != 0 ]; then
        local lines
        lines=$(printf '%s\n' "$ERR" | grep -c .)
        if [ "$lines" != 1 ]; then bad "gpubound $*: stderr has $lines lines, expected one"; return; fi
    fi
    if [ -n "$pat" ] && ! printf '%s\n%s\n' "$ERR" "$OUT" | grep -Eq -- "$pat"; then
        bad "gpubound $*: output does not match '$pat'"; return
    fi
    ok
}

# need_python3: true when python3 is there; without it a failure, not a
# skipped check (`make deps` installs it).
need_python3() {
    command -v python3 >/dev/null 2>&1 && return 0
    OUT="" ERR=""
    bad "python3 is missing: run 'make deps'"
    return 1
}

# skip N WHY: N checks this machine cannot run (e.g. the no-GPU checks on
# a machine with a GPU), counted in the summary line and, under ctest, in
# $GB_SKIP_LOG, which `make test` sums up at the end.
skip() {
    SKIPS=$((SKIPS + $1))
    echo "skipped $1 check(s): $2"
    if [ -n "${GB_SKIP_LOG:-}" ]; then echo "$1 $(basename "$0" .sh): $2" >>"$GB_SKIP_LOG"; fi
}

finish() {
    local s=""
    [ "$SKIPS" -gt 0 ] && s=", $SKIPS skipped"
    echo "$PASSES passed, $FAILS failed$s"
    [ "$FAILS" = 0 ]
}
