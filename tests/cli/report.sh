# gpubound report: the report of the synthetic fixture run, every bad input
# with its one line and exit code, and a report without gnuplot.
. "$(dirname "$0")/lib.bash"
: "${GB_SRC:?GB_SRC must name the source directory}"
FIXTURE="$GB_SRC/tests/data/runs/bandwidth-fixture"

# every_chart_drawn DIR: each script has its SVG and PNG, and report.md
# shows each PNG and links each SVG.
every_chart_drawn() {
    local dir=$1 n=0 gp name
    for gp in "$dir"/*.gp; do
        [ -e "$gp" ] || break
        name=$(basename "$gp" .gp)
        n=$((n + 1))
        [ -s "$dir/$name.svg" ] || { bad "$name.svg missing in $dir"; return; }
        [ -s "$dir/$name.png" ] || { bad "$name.png missing in $dir"; return; }
        head -c 8 "$dir/$name.png" | od -An -c | grep -q 'P   N   G' || { bad "$name.png is not a PNG"; return; }
        grep -q '</svg>' "$dir/$name.svg" || { bad "$name.svg is not a whole SVG"; return; }
        grep -qF "]($name.png)]($name.svg)" "$dir/report.md" || { bad "report.md does not show $name"; return; }
    done
    [ "$n" -gt 0 ] || { bad "no chart in $dir"; return; }
    ok
}

# The report, into --out: files listed on stderr, the summary on stdout.
expect 0 "" report "$FIXTURE" --out "$TMP/r1"
[ -s "$TMP/r1/report.md" ] && ok || bad "report.md not written"
printf '%s\n' "$ERR" | grep -qx "wrote $TMP/r1/report.md" && ok || bad "stderr does not list report.md"
printf '%s\n' "$OUT" | head -1 | grep -q '^suite  *bench  *width  *grid  *bytes  *status  *median (µs)' && ok \
    || bad "stdout does not start with the summary header"
printf '%s\n' "$OUT" | grep -Eq '^bandwidth +read +4 +stride +256M +ok +99\.36 ± 0\.27 +40 +2712 +80\.9$' && ok \
    || bad "summary row of read/4/stride is not as stored"
printf '%s\n' "$OUT" | grep -Eq '^bandwidth +write +8 +flat +1G +failed +12 of 268435456' && ok \
    || bad "the failed point is not in the summary"
every_chart_drawn "$TMP/r1"
grep -q 'Synthetic GPU (test fixture, not a measurement)' "$TMP/r1/report.md" && ok || bad "report.md lacks the device"
grep -q '1 point failed' "$TMP/r1/report.md" && ok || bad "report.md does not say a point failed"
[ ! -e "$FIXTURE/report" ] && ok || bad "--out given, yet the run directory was written to"

# The default output is runs/<run's name>-report, never inside the run read;
# a second report replaces the first.
cp -r "$FIXTURE" "$TMP/run"
mkdir -p "$TMP/cwd"
cd "$TMP/cwd" || exit 1
expect 0 "" report "$TMP/run/"
every_chart_drawn "$TMP/cwd/runs/run-report"
expect 0 "" report "$TMP/run"
every_chart_drawn "$TMP/cwd/runs/run-report"
[ ! -e "$TMP/run/report" ] && ok || bad "the default output is inside the run read"

# Machine formats on stdout.
expect 0 "" report "$FIXTURE" --out "$TMP/r2" --format csv
printf '%s\n' "$OUT" | head -1 | grep -q '^suite,bench,width,grid,bytes,status,median (µs),median ± (µs),samples,GB/s,% peak,note$' \
    && ok || bad "CSV header"
[ "$(printf '%s\n' "$OUT" | wc -l)" = 21 ] && ok || bad "CSV has not one row per record"
expect 0 "" report "$FIXTURE" --out "$TMP/r3" -f json
printf '%s\n' "$OUT" | head -1 | grep -qx '\[' && printf '%s\n' "$OUT" | tail -1 | grep -qx '\]' && ok || bad "JSON array"
printf '%s\n' "$OUT" | grep -q '"bench": "dtod"' && ok || bad "JSON rows"

# Without gnuplot the report is still written and says what to do.
mkdir -p "$TMP/empty"
PATH="$TMP/empty" "$GPUBOUND" report "$FIXTURE" --out "$TMP/r4" >"$TMP/out" 2>"$TMP/err"
RC=$?; OUT=$(cat "$TMP/out"); ERR=$(cat "$TMP/err")
[ "$RC" = 0 ] && ok || bad "without gnuplot: exit $RC, expected 0"
grep -q 'not drawn: .*apt-get install gnuplot-nox.*gpubound report' "$TMP/err" && ok || bad "without gnuplot: no advice"
[ -s "$TMP/r4/report.md" ] && grep -q 'Not drawn: gnuplot was not found' "$TMP/r4/report.md" && ok \
    || bad "without gnuplot: report.md missing or silent"
ls "$TMP/r4"/*.gp >/dev/null 2>&1 && ! ls "$TMP/r4"/*.svg >/dev/null 2>&1 && ok || bad "without gnuplot: scripts only"

# A run cut mid-write is reported, with a note.
cp -r "$FIXTURE" "$TMP/cut"
head -c -300 "$FIXTURE/results.json" >"$TMP/cut/results.json"
expect 0 "" report "$TMP/cut"
printf '%s\n' "$ERR" | grep -q 'did not end normally' && ok || bad "a cut run is not noted on stderr"
grep -q 'Incomplete run' "$TMP/cwd/runs/cut-report/report.md" && ok || bad "a cut run is not noted in report.md"

# Missing or malformed run directories: one line, exit 1, nothing written.
expect 1 "report: .*nope is not a gpubound run directory.*; give the directory of a run recorded by 'gpubound run'" \
    report "$TMP/nope"
[ ! -e "$TMP/nope" ] && ok || bad "a missing run directory was created"
cp -r "$FIXTURE" "$TMP/bad"
{ head -3 "$FIXTURE/results.json"; echo '{"suite": "bandwidth", "bench": '; tail -n +4 "$FIXTURE/results.json"; } \
    >"$TMP/bad/results.json"
expect 1 "report: .*results.json:4:[0-9]+: a damaged record" report "$TMP/bad"
[ ! -e "$TMP/cwd/runs/bad-report" ] && ok || bad "a malformed run left a report behind"
cp -r "$FIXTURE" "$TMP/badrun"
echo '{"format": "gpubound-run/1",' >"$TMP/badrun/run.json"
expect 1 "report: .*run.json" report "$TMP/badrun"

# Usage errors: exit 2.
expect 2 "report: expected a RUN_DIR; see 'gpubound help report'" report
expect 2 "report: expected one RUN_DIR, not 2 arguments" report "$FIXTURE" "$FIXTURE"
expect 2 "report: unknown option '--bogus'" report --bogus "$FIXTURE"
expect 2 "report: --format: unknown format 'xml'" report "$FIXTURE" --format xml
expect 2 "report: --out needs a value" report "$FIXTURE" --out
expect 0 "usage: gpubound report RUN_DIR" report --help

# A failed point's whole reason in the terminal table, report.md and
# report.html (a fixed cell buffer once cut it at 127 characters, mid-word).
FAULT="$GB_SRC/data/h200/failures-2026-11-23/runs/fault"
why='cuStreamSynchronize failed at /work/main/src/gpu/gpu.c:584: an illegal memory access was encountered (CUDA_ERROR_ILLEGAL_ADDRESS)'
run_gb report "$FAULT" --out "$TMP/fault" --chart-format svg
[ "$RC" = 0 ] && printf '%s\n' "$OUT" | grep -qF "$why" && ok || bad "report: the terminal table cuts the failure reason"
grep -qF "$why |" "$TMP/fault/report.md" 2>/dev/null && ok || bad "report: report.md cuts the failure reason"
if [ -s "$TMP/fault/report.html" ]; then
    grep -qF "$why" "$TMP/fault/report.html" && ok || bad "report: report.html cuts the failure reason"
fi
finish
