# Every report.md starts with a "Findings" section under 60 lines, made from
# the records (gb_report_findings): one line per bench with its best and
# worst configuration, on every run committed under data/ and the fixtures.
. "$(dirname "$0")/lib.bash"
: "${GB_SRC:?GB_SRC must name the source directory}"
i=0
for run in "$GB_SRC"/data/*/*/ "$GB_SRC"/tests/data/runs/*/; do
    [ -f "$run/run.json" ] || continue
    i=$((i + 1))
    out="$TMP/r$i"
    "$GPUBOUND" report "$run" --out "$out" --chart-format svg >/dev/null 2>"$TMP/err" || true
    OUT="" ERR=$(head -c 300 "$TMP/err")
    [ -s "$out/report.md" ] || { bad "$run: no report.md"; continue; }
    first=$(grep -m1 '^## ' "$out/report.md")
    [ "$first" = "## Findings" ] && ok || bad "$run: report.md's first section is '$first', not Findings"
    n=$(sed -n '/^## Findings/,/^## /p' "$out/report.md" | sed '$d' | wc -l)
    [ "$n" -lt 60 ] && ok || bad "$run: the findings section has $n lines (at most 59)"
    if grep -q '"status": *"ok"' "$run/results.json" 2>/dev/null || [ -f "$run/results.json.gz" ]; then
        sed -n '/^## Findings/,/^## /p' "$out/report.md" | grep -Eq '^- .*: (best|.* from|.*\(its only)' && ok ||
            bad "$run: the findings name no bench's best configuration"
    fi
done
# The bandwidth run's findings: its figures are the records' (4585 GB/s, 95.2% of 4814).
bw="$TMP/bwf"
"$GPUBOUND" report "$GB_SRC/data/h200/bandwidth-2026-11-21-a" --out "$bw" --chart-format svg >/dev/null 2>&1
grep -q '^- Highest bandwidth: 4585 GB/s (read), 95.2% of the device.s theoretical 4814 GB/s' "$bw/report.md" && ok ||
    bad "bandwidth findings: the highest bandwidth line is not the record's"
grep -q '^- read: best 4585 GB/s (width=16 grid=stride), worst 860.0 GB/s (width=4 grid=flat)' "$bw/report.md" && ok ||
    bad "bandwidth findings: read's best and worst are not the records'"
# A kernel spec's GEMM (nested under a directory of runs, so not in the loop
# above): ranked by GFLOP/s within each n, not by GB/s across the sizes.
sg="$TMP/sgf"
"$GPUBOUND" report "$GB_SRC/data/h200/examples-counters-2026-11-23/sgemm" --out "$sg" --chart-format svg >/dev/null 2>&1
grep -q '^- tiled at n=512: best 8285 GFLOP/s (block\\_size\\_x=32), worst 37.68 GFLOP/s (block\\_size\\_x=1)' "$sg/report.md" &&
    grep -q '^- tiled at n=1024: best 9041 GFLOP/s (block\\_size\\_x=32), ' "$sg/report.md" &&
    ! grep -q 'GB/s' <(sed -n '/^## Findings/,/^## /p' "$sg/report.md") && ok ||
    bad "sgemm findings: not ranked by GFLOP/s within each problem size"
# A run with its own charts.json: the suite's findings rule comes from its
# row in the suite table (charts.json carries charts only).
ub="$TMP/ubf"
"$GPUBOUND" report "$GB_SRC/data/h100/ubench-2026-11-25" --out "$ub" --chart-format svg >/dev/null 2>&1
grep -q '^- Compared at size=large, cache=default' "$ub/report.md" && grep -q '^- Source: Torres' "$ub/report.md" && ok ||
    bad "ubench findings of a run with charts.json: not the suite's rule"
finish
