# gpubound run: every bad input gets one line and its exit code, before any
# GPU work and without leaving anything half-written.
. "$(dirname "$0")/lib.bash"

expect 2 "run: unknown suite 'nosuch' \(suites: .*bandwidth" run nosuch --out "$TMP/r1"
[ ! -e "$TMP/r1" ] && ok || bad "a refused run must not create its --out"
expect 2 "suite bandwidth has no benchmark 'nope' \(it has: read, write, copy, dtod\)" run bandwidth/nope --out "$TMP/r2"
expect 2 "axis width: value 3 is out of range" run bandwidth --set width=3 --out "$TMP/r3"
expect 2 "axis width: 'x' is not an integer" run bandwidth --set width=4,x --out "$TMP/r3"
expect 2 "--set zzz: no selected benchmark has an axis of that name" run bandwidth --set zzz=1 --out "$TMP/r3"
expect 2 "--cold and --hot ask different questions" run bandwidth --cold --hot --out "$TMP/r3"
[ ! -e "$TMP/r3" ] && ok || bad "--cold --hot left $TMP/r3 behind"
expect 2 "--cold and --hot ask different questions" run bandwidth --hot --cold --out "$TMP/r3"
[ "$(wc -l <"$TMP/err")" = 1 ] && ok || bad "--hot --cold: more than one line on stderr"
expect 2 "--timer takes auto, cupti, events or profiler" run bandwidth --timer gpu --out "$TMP/r3"
expect 2 "--flush takes empty, read-last, read, write or write-read" run bandwidth --cold --flush none --out "$TMP/r3"
expect 2 "--set 'width' is not AXIS=V1,V2" run bandwidth --set width --out "$TMP/r3"
expect 2 "--device needs an integer" run bandwidth --device abc
expect 2 "--ci needs a percentage" run bandwidth --ci -1
expect 2 "--max-time needs seconds" run bandwidth --max-time 0
expect 2 "--isolate needs milliseconds between 0 and 1000, not '0'" run bandwidth --isolate 0
expect 2 "--isolate needs milliseconds between 0 and 1000, not '1500'" run bandwidth --isolate 1500
expect 2 "--isolate needs milliseconds between 0 and 1000, not '2ms'" run bandwidth --isolate 2ms
expect 2 "--format: unknown format 'xml'|'xml'" run bandwidth --format xml
expect 2 "run: unknown option '--bogus'" run --bogus
expect 2 "run: --out needs a value|--out needs a value" run bandwidth --out

# A non-empty or non-directory --out is refused before any GPU work.
mkdir -p "$TMP/full" && echo x >"$TMP/full/keep"
expect 2 "--out refused: output .*full exists and is not empty" run bandwidth --out "$TMP/full"
[ "$(cat "$TMP/full/keep")" = x ] && ok || bad "a refused --out must be left as it was"
echo x >"$TMP/afile"
expect 2 "--out refused: .*is not a directory" run bandwidth --out "$TMP/afile"

# The resume marker (a run going on after a kernel fault) is checked before
# any GPU work: a malformed one, one for another --out, one naming a
# directory that is not there, and one for a fleet are refused; the
# non-empty directory it names is not accepted for another run either.
GPUBOUND_RESUME="x y" expect 2 "GPUBOUND_RESUME='x y' is not a resume marker" run bandwidth --out "$TMP/full"
GPUBOUND_RESUME="4 1 10.5 2026-11-21T12:00:00Z $TMP/other" \
    expect 2 "names the run directory .*other, not this run's --out .*full" run bandwidth --out "$TMP/full"
GPUBOUND_RESUME="4 17 10.5 2026-11-21T12:00:00Z $TMP/full" expect 2 "is not a resume marker" run bandwidth --out "$TMP/full"
GPUBOUND_RESUME="4 1 10.5 2026-11-21T12:00:00Z $TMP/gone" expect 2 "names .*gone, which is not a directory" run bandwidth
GPUBOUND_RESUME="4 1 10.5 2026-11-21T12:00:00Z $TMP/full" \
    expect 2 "is for a run on one GPU" run bandwidth --fleet --out "$TMP/full"
[ "$(cat "$TMP/full/keep")" = x ] && [ ! -e "$TMP/gone" ] && ok || bad "a refused marker must leave the directories as they were"

if ! has_gpu; then
    # No GPU: one line, exit 3, and no run directory left behind.
    expect 3 "(no CUDA driver|no usable GPU|no GPU).*needs an NVIDIA GPU" run bandwidth --quick --out "$TMP/nogpu"
    [ ! -e "$TMP/nogpu" ] && ok || bad "a run without a GPU must not leave its --out behind"
    # Nor, without --out, the runs/ directory it would have written into.
    mkdir -p "$TMP/cwd" && (cd "$TMP/cwd" && "$GPUBOUND" run bandwidth --quick >/dev/null 2>&1)
    [ $? = 3 ] && [ -z "$(ls -A "$TMP/cwd")" ] && ok || bad "a run without a GPU left $(ls -A "$TMP/cwd") behind"
    expect 3 "needs an NVIDIA GPU" info
else
    skip 3 "the no-GPU checks (exit 3, nothing left behind) need a machine without a GPU"
fi
finish
