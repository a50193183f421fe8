#!/usr/bin/env bash
# record_corpus.sh BUILD OUTDIR [CORPUS]: records every kernel of CORPUS (a
# directory of <name>/spec.json; default corpus/ of the source tree; a
# relative path is taken from the source tree, e.g. corpus-heldout) on a GPU,
# with hardware counters, one run directory per kernel:
#   OUTDIR/<name>/        gpubound run CORPUS/<name>/spec.json --counters
#   OUTDIR/<name>.log     its stdout and stderr
#   OUTDIR/steps.log      per kernel: exit code, seconds, points ok and failed
# Builds nothing; a kernel that fails (a point that does not verify, a crash,
# its time limit) is reported and the next one runs. Prints per-kernel wall
# time and a summary; exits 1 if any kernel did not record cleanly.
# GB_CORPUS (default: every CORPUS/*/spec.json, in name order) picks kernels
# by directory name; GB_CORPUS_ARGS adds `gpubound run` options (e.g.
# --quick, or --counters=LIST); GB_CORPUS_LIMIT is the time limit per kernel
# in seconds (default 900), after which the run gets SIGINT (it keeps the
# points it finished) and, GB_CORPUS_KILL seconds later (default 30), SIGKILL.
set -uo pipefail
if [ $# -lt 2 ] || [ $# -gt 3 ]; then
    echo "usage: record_corpus.sh BUILD OUTDIR [CORPUS]" >&2
    exit 2
fi
build=$(cd "$1" && pwd)
out=$2
src=$(cd "$(dirname "$0")/.." && pwd)
corpus=${3:-corpus}
case $corpus in
/*) ;;
*) corpus=$src/$corpus ;;
esac
if [ ! -d "$corpus" ]; then
    echo "record_corpus: no corpus directory $corpus: name a directory of <kernel>/spec.json" >&2
    exit 2
fi
kill_after=${GB_CORPUS_KILL:-30}
gb=$build/gpubound
limit=${GB_CORPUS_LIMIT:-900}
extra=${GB_CORPUS_ARGS:-}
if [ ! -x "$gb" ]; then
    echo "record_corpus: no gpubound in $build: build it first (make build)" >&2
    exit 2
fi
if [ -n "${GB_CORPUS:-}" ]; then
    names=$GB_CORPUS
else
    names=$(for s in "$corpus"/*/spec.json; do basename "$(dirname "$s")"; done)
fi
mkdir -p "$out"
out=$(cd "$out" && pwd)
steps=$out/steps.log
: >"$steps"
"$gb" info >"$out/info.log" 2>&1 || {
    echo "record_corpus: no usable GPU: $(tail -n 1 "$out/info.log")" >&2
    exit 3
}
nvidia-smi -L 2>/dev/null | head -n 1

# field RUN NAME: a number field of RUN/run.json, or "?".
field() {
    local v
    v=$(grep -o "\"$2\": *[0-9.]*" "$1/run.json" 2>/dev/null | head -n 1 | sed 's/.*: *//')
    echo "${v:-?}"
}

# --counters=LIST in GB_CORPUS_ARGS takes the place of the default set
case " $extra " in
*" --counters="*) counters="" ;;
*) counters="--counters" ;;
esac
t0=$(date +%s)
bad=0
printf '%-12s %5s %7s %6s %7s\n' kernel rc wall_s ok failed
for name in $names; do
    spec=$corpus/$name/spec.json
    if [ ! -f "$spec" ]; then
        echo "$name rc=missing took=0s ok=? failed=?" >>"$steps"
        printf '%-12s %5s %7s %6s %7s\n' "$name" missing 0 - -
        bad=1
        continue
    fi
    rm -rf "${out:?}/$name"
    s=$(date +%s)
    # SIGINT first, so an interrupted run keeps the points it finished.
    # shellcheck disable=SC2086
    timeout -s INT -k "$kill_after" "$limit" "$gb" run "$spec" $counters --no-report --out "$out/$name" $extra \
        >"$out/$name.log" 2>&1
    rc=$?
    took=$(($(date +%s) - s))
    ok=$(field "$out/$name" points_ok)
    failed=$(field "$out/$name" points_failed)
    echo "$name rc=$rc took=${took}s ok=$ok failed=$failed" >>"$steps"
    printf '%-12s %5s %7s %6s %7s\n' "$name" "$rc" "$took" "$ok" "$failed"
    if [ "$rc" -ne 0 ]; then
        bad=1
        echo "  $name: $(grep -v '^ *$' "$out/$name.log" | tail -n 1 | cut -c1-160)"
    fi
done
echo "== record_corpus: $(($(date +%s) - t0)) s in all; OUTDIR $out"
if [ "$bad" -ne 0 ]; then
    echo "not clean:"
    grep -v ' rc=0 ' "$steps" | sed 's/^/  /'
fi
exit "$bad"
