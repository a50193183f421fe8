#!/usr/bin/env bash
# Input that is not what it claims to be: records that are not JSON, runs
# that import would write but nothing could read, formats of another
# version, control characters in values, repeated options, configurations
# that cannot launch. Each gets one line and its documented exit code (1
# damaged or malformed input, 2 usage), and leaves nothing behind.
source "$(dirname "$0")/lib.bash"
cd "$TMP" || exit 1   # a report without --out writes runs/NAME-report here
BW="$GB_SRC/tests/data/runs/bandwidth-fixture"
CEIL="$GB_SRC/tests/data/runs/ceilings-fixture"
SAXPY="$GB_SRC/tests/data/specs/saxpy/spec.json"

# A copy of run FIXTURE as $TMP/NAME without its report.
copy_run() { # copy_run NAME FIXTURE
    rm -rf "${TMP:?}/$1"
    cp -r "$2" "$TMP/$1"
    rm -rf "$TMP/$1/report"
}
# expect_after_warnings CODE PATTERN ARGS...: as expect, with "warning:"
# lines allowed before the one error line.
expect_after_warnings() {
    local code=$1 pat=$2
    shift 2
    run_gb "$@"
    local errs
    errs=$(printf '%s\n' "$ERR" | grep -v '^warning: ' | grep -c .)
    if [ "$RC" != "$code" ]; then bad "gpubound $* exited $RC, expected $code"
    elif [ "$errs" != 1 ]; then bad "gpubound $*: $errs error lines, expected one"
    elif ! printf '%s\n' "$ERR" | grep -v '^warning: ' | grep -Eq -- "$pat"; then bad "gpubound $*: no '$pat'"
    else ok; fi
}
# expect_none PATH...: none of the paths exists.
expect_none() {
    for p in "$@"; do
        if [ -e "$p" ]; then bad "$p was written"; return; fi
    done
    ok
}

# ---- records that are not JSON: damaged, exit 1, the file named ----
copy_run nul "$BW"
rm -f "$TMP/nul/results.json" "$TMP/nul/results.json.gz" "$TMP/nul/results.csv"
head -c 100 /dev/zero >"$TMP/nul/results.json"
expect 1 'nul/results.json:1:1: a damaged record: a NUL byte' report "$TMP/nul" --out "$TMP/nul-report"
expect 1 'nul/results.json:1:1: a damaged record' roofline "$TMP/nul"
expect 1 'nul/results.json:1:1: a damaged record' export "$TMP/nul" --format t4
copy_run nulgz "$BW"
rm -f "$TMP/nulgz/results.json" "$TMP/nulgz/results.json.gz" "$TMP/nulgz/results.csv"
head -c 100 /dev/zero | gzip >"$TMP/nulgz/results.json.gz"
expect 1 'nulgz/results.json.gz:1:1: a damaged record: a NUL byte' report "$TMP/nulgz" --out "$TMP/nulgz-report"
expect 1 'nulgz/results.json.gz:1:1: a damaged record' roofline "$TMP/nulgz"
# A whole record followed by NULs on its line is damaged too.
copy_run nultail "$BW"
python3 - "$TMP/nultail/results.json" <<'PY'
import sys
p = sys.argv[1]
lines = open(p, "rb").read().split(b"\n")
open(p, "wb").write(lines[0] + b"\n" + lines[1].rstrip(b",") + b"\0\0\0")
PY
expect 1 'nultail/results.json:2:[0-9]+: a damaged record: a NUL byte' report "$TMP/nultail" --out "$TMP/nultail-report"
expect_none "$TMP/nul-report" "$TMP/nulgz-report" "$TMP/nultail-report"

# ---- run.json and charts.json of another format version ----
copy_run fmt5 "$BW"
sed -i 's/"format": "gpubound-run\/1"/"format": 5/' "$TMP/fmt5/run.json"
expect 1 'fmt5/run.json: \$\.format = 5: this build reads "gpubound-run/1" only' report "$TMP/fmt5" --out "$TMP/fmt5-report"
copy_run fmt2 "$BW"
sed -i 's/"format": "gpubound-run\/1"/"format": "gpubound-run\/2"/' "$TMP/fmt2/run.json"
expect 1 'fmt2/run.json: \$\.format = "gpubound-run/2": this build reads "gpubound-run/1" only' roofline "$TMP/fmt2"
copy_run nofmt "$BW"
sed -i '/"format": "gpubound-run\/1",/d' "$TMP/nofmt/run.json"
run_gb report "$TMP/nofmt" --out "$TMP/nofmt-report"
if [ "$RC" = 0 ] && printf '%s\n' "$ERR" | grep -q '^warning: .*nofmt/run.json: no \$\.format: read as "gpubound-run/1"' &&
    grep -q 'no \$\.format' "$TMP/nofmt-report/report.md"; then ok
else bad "a run.json without a format: read with a warning"; fi
copy_run charts99 "$BW"
printf '{"format": "gpubound-charts", "version": 99, "suites": []}\n' >"$TMP/charts99/charts.json"
expect 1 'charts99/charts.json: \$\.version = 99: this build reads version 1 only' report "$TMP/charts99" --out "$TMP/charts99-report"
expect_none "$TMP/fmt5-report" "$TMP/charts99-report"

# ---- a control character in a value: escaped, one line ----
copy_run nl "$BW"
sed -i '2s/"width":"4"/"width":"a\\nb"/' "$TMP/nl/results.json"
run_gb report "$TMP/nl" --out "$TMP/nl-report"
if [ "$RC" = 0 ] && [ "$(printf '%s\n' "$ERR" | grep -c '^warning:')" = 1 ] &&
    printf '%s\n' "$ERR" | grep -q '^warning: .*axes\.width = "a\\nb" is outside'; then ok
else bad "a newline in an axis value: one escaped warning line"; fi
expect 2 'unknown option .--x\\ny.' report "$TMP/nl" "--x
y"

# ---- damaged or wrong input is exit 1 in every command ----
PAT="$GB_SRC/tests/data/runs/patterns-fixture"
expect 1 'patterns-fixture measured no roof' roofline "$BW" --ceilings "$PAT"
expect 1 'patterns-fixture measured no roof' report "$BW" --ceilings "$PAT" --out "$TMP/noroof-report"
copy_run emptyceil "$CEIL"
: >"$TMP/emptyceil/results.json"
expect_after_warnings 1 'emptyceil measured no roof' roofline "$BW" --ceilings "$TMP/emptyceil"
expect 1 'nul/results.json:1:1: a damaged record' roofline "$BW" --ceilings "$TMP/nul"
expect 1 'nul/results.json:1:1: a damaged record' report "$BW" --ceilings "$TMP/nul" --out "$TMP/nulceil-report"
expect_none "$TMP/noroof-report" "$TMP/nulceil-report"
FLEET="$GB_SRC/data/h200/fleet-2026-11-23/fleet2"
copy_run emptyfleet "$FLEET"
: >"$TMP/emptyfleet/results.json"
expect_after_warnings 1 'NEW run .*emptyfleet holds no record .*: nothing to compare' compare "$FLEET" "$TMP/emptyfleet"
expect_after_warnings 1 'BASE run .*emptyfleet holds no record' compare "$TMP/emptyfleet" "$FLEET"

# ---- check: a configuration the target cannot launch fails the check ----
run_gb check "$SAXPY" --quick --arch sm_90
if [ "$RC" != 0 ] && printf '%s\n' "$ERR" | grep -q 'NVRTC'; then
    skip 6 "NVRTC is not installed: $ERR"
else
    expect 1 '^gpubound check: saxpy/saxpy at block_size_x=2048 elems_per_thread=1 n=1000000: cannot launch on sm_90: block\[0\] = 2048, over the 1024 that sm_90 allows' \
        check "$SAXPY" --quick --arch sm_90 --set block_size_x=2048
    if printf '%s\n' "$OUT" | grep -q '^saxpy/saxpy .*block_size_x=2048 .* saxpy  *kernel .*cannot launch$'; then ok
    else bad "check: the row of a block of 2048 threads says cannot launch"; fi
    rm -rf "$TMP/sp0" && cp -r "$(dirname "$SAXPY")" "$TMP/sp0"
    python3 - "$TMP/sp0/spec.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
d["benches"][0]["block"] = ["0"]
json.dump(d, open(sys.argv[1], "w"))
PY
    expect 1 'saxpy/saxpy at block_size_x=128 .*\(and 3 more configurations\): cannot launch on sm_90: an empty block \(block\[0\] = 0\)' \
        check "$TMP/sp0/spec.json" --quick --arch sm_90
    # The cap on the plan: check takes --max-points, as its message says.
    expect 2 'the run would plan 4 points .*more than --max-points 2; narrow the --set ranges or raise --max-points' \
        check "$SAXPY" --quick --arch sm_90 --max-points 2
    expect 0 '' check "$SAXPY" --quick --arch sm_90 --max-points 8
    expect 2 '--max-points needs an integer from 1 to 1000000' check "$SAXPY" --quick --max-points 0
fi

# ---- messages that say what happened ----
run_gb fleet /nonexistent
if [ "$RC" = 1 ] && [ -z "$OUT" ] && [ ! -e runs ] && printf '%s\n' "$ERR" | grep -q '/nonexistent is not a gpubound run directory'; then ok
else bad "fleet of a missing run names no chart directory on stdout and makes none"; fi
specwith() { # specwith DIR PYTHON-STATEMENT (on d, the saxpy spec)
    rm -rf "$1" && cp -r "$(dirname "$SAXPY")" "$1"
    python3 - "$1/spec.json" "$2" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
exec(sys.argv[2])
json.dump(d, open(sys.argv[1], "w"))
PY
}
specwith "$TMP/spdot" 'd["source"] = "."'
expect 2 'source: "\." is the spec.s directory itself, not a file: name a file inside it' list "$TMP/spdot/spec.json"
specwith "$TMP/spinit" 'd["benches"][0]["args"][1]["init"] = {"file": "."}'
expect 2 'init\.file: "\." is the spec.s directory itself' list "$TMP/spinit/spec.json"
MODEL="$GB_SRC/data/h200/camping-2026-11-21/campprof-model.json"
expect 2 "predict: --time-ns needs a time in ns > 0, not '1e300' \(at most 8\.64e13, a day\)" \
    camp predict --model "$MODEL" --gld 4:1000000 --warps 64 --time-ns 1e300

# ---- a single-valued option given twice is a usage error; repeatable ones repeat ----
expect 2 "occupancy: --threads is given twice \('128', then '256'\): it takes one value" occupancy --threads 128 --threads 256 --regs 32 --cc 9.0
expect 2 "geometry: --bench is given twice \('a', then 'b'\)" geometry "$GB_SRC/tests/data/runs/ubench-fixture" --bench a --bench b
expect 2 "report: --out is given twice \('$TMP/o1', then '$TMP/o2'\)" report "$BW" --out "$TMP/o1" --out "$TMP/o2"
expect 2 "report: --out is given twice" report "$BW" -o "$TMP/o1" --out="$TMP/o2"
expect 2 "report: --force is given twice: give it once" report "$BW" --force --force --out "$TMP/o1"
expect 2 "roofline: --pipe is given twice \('fp32', then 'fp64'\)" roofline "$BW" --pipe fp32 --pipe fp64
expect 2 "camp: --out and --model are alternatives: give one of them" camp fit "$GB_SRC/tests/data/runs/camping-fixture" --out "$TMP/o1" --model "$TMP/o2.json"
expect 2 "export: --format is given twice" export "$BW" --format t4 --format kt-cache
expect 2 "run: --out is given twice" run bandwidth --out "$TMP/o1" --out "$TMP/o2"
expect_none "$TMP/o1" "$TMP/o2" "$TMP/o2.json"
# An option's missing value is still said as before (argv is read as given).
expect 2 "report: --out needs a value" report "$BW" --out
# Documented as repeatable: taken more than once.
expect 0 '' report "$BW" --charts 'bandwidth-stride' --charts 'bandwidth-flat' --out "$TMP/rep2"
expect 2 "camp: expected a subcommand: fit, predict, validate or detect" camp
expect 2 "camp: unknown subcommand 'bogus' \(fit, predict, validate or detect\)" camp bogus

# ---- import: what it writes is what a run may hold ----
KT="$GB_SRC/tests/data/kt/cache.json"
ktcache() { # ktcache OUT PYTHON-STATEMENT (on c, the cache)
    python3 - "$KT" "$1" "$2" <<'PY'
import json, sys
c = json.load(open(sys.argv[1]))
exec(sys.argv[3])
json.dump(c, open(sys.argv[2], "w"))
PY
}
ktcache "$TMP/kt-huge.json" 'c["cache"]["64"]["time"] = 1e308'
expect 1 'kt-huge.json: entry "64".*: time_ns.median = inf: allowed numbers 0 to' import "$TMP/kt-huge.json" --out "$TMP/kt1"
ktcache "$TMP/kt-times.json" 'c["cache"]["64"]["times"] = [0.03, 1e300]'
expect 1 'kt-times.json: entry "64".*: [a-z_.]+(\[1\])? = (inf|1e\+306): allowed' import "$TMP/kt-times.json" --out "$TMP/kt2"
ktcache "$TMP/kt-nl.json" 'c["kernel_name"] = "../../x\n\"y"'
expect 1 'kt-nl.json: kernel_name .*holds a control character \(byte 0x0a\)' import "$TMP/kt-nl.json" --out "$TMP/kt3"
ktcache "$TMP/kt-slash.json" 'c["kernel_name"] = "../../x"'
expect 1 "kt-slash.json: kernel_name .*holds a path separator '/'" import "$TMP/kt-slash.json" --out "$TMP/kt4"
ktcache "$TMP/kt-key.json" '
c["tune_params_keys"] = ["block/x"]
c["tune_params"] = {"block/x": c["tune_params"].pop("block_size_x")}
for e in c["cache"].values(): e["block/x"] = e.pop("block_size_x")'
expect 1 "kt-key.json: entry \"64\".*axis name \"block/x\" holds a path separator" import "$TMP/kt-key.json" --out "$TMP/kt5"
expect 1 'is a directory: give a Kernel Tuner cache file' import "$TMP" --out "$TMP/kt6"
expect_none "$TMP/kt1" "$TMP/kt2" "$TMP/kt3" "$TMP/kt4" "$TMP/kt5" "$TMP/kt6"
# What import writes, report reads.
expect 0 '3 configurations' import "$KT" --out "$TMP/kt-ok"
expect 0 '' report "$TMP/kt-ok" --out "$TMP/kt-ok-report"

finish
