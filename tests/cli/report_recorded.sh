# Every run recorded on a real GPU and committed under data/<gpu>/<run>/ must
# still make its report on a machine without a GPU: report.md and every
# chart of every suite in it. Fails when no recorded run is committed.
. "$(dirname "$0")/lib.bash"
: "${GB_SRC:?GB_SRC must name the source directory}"

mapfile -t RUNS < <(find "$GB_SRC/data" -mindepth 3 -maxdepth 3 -name run.json 2>/dev/null | sort)
if [ "${#RUNS[@]}" = 0 ]; then
    echo "FAIL: no recorded run under $GB_SRC/data/<gpu>/<run>/run.json; record one on a GPU ('make run') and commit it" >&2
    exit 1
fi

i=0
for runjson in "${RUNS[@]}"; do
    run=$(dirname "$runjson")
    i=$((i + 1))
    out="$TMP/report-$i"
    expect 0 "" report "$run" --out "$out"
    [ "$RC" = 0 ] || continue
    [ -s "$out/report.md" ] && ok || { bad "$run: report.md not written"; continue; }
    # Each suite section shows at least one chart, and every chart it shows exists.
    suites=$(grep -c '^## ' "$out/report.md")
    [ "$suites" -gt 1 ] && ok || bad "$run: report.md has no suite section"
    awk '/^## Findings/{ s=""; next } /^## /{ if (s && !img) { print s; } s=$0; img=0 } /\]\(.*\.png\)\]\(.*\.svg\)/{ img=1 }
         END { if (s && !img) print s }' "$out/report.md" >"$TMP/nochart"
    [ ! -s "$TMP/nochart" ] && ok || bad "$run: suite without a chart: $(cat "$TMP/nochart")"
    grep -q '_Not drawn' "$out/report.md" && bad "$run: a chart was not drawn" || ok
    # A chart of a bench the run did not measure says so; that is a failure
    # unless the run chose its benches (SUITE/BENCH on its command line, as
    # the ceilings runs take throughput/arith alone).
    if grep -q '_No measured point' "$out/report.md" &&
        ! grep -Eq '"command_line": "[^"]* [a-z_0-9]+/[a-z_0-9]+' "$runjson"; then
        bad "$run: a chart has no measured point"
    else ok; fi
    for img in $(grep -o '](\([^)]*\)\.\(png\|svg\))' "$out/report.md" | sed 's/^](//; s/)$//'); do
        [ -s "$out/$img" ] && ok || bad "$run: $img is shown in report.md but missing"
    done
done
finish
