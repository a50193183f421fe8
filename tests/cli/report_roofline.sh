# The roofline in a run's report: a run recorded with counters gets a
# "Roofline" section in report.md and report.html (chart and table) under
# the ceilings run found beside it, the one given, or the guide figures,
# said so; a run without counters gets none; the report never writes into
# the run it reads (no --out: a new directory under runs/, said so).
. "$(dirname "$0")/lib.bash"
: "${GB_SRC:?GB_SRC must name the source directory}"
GEMM="$GB_SRC/data/h100/corpus-2026-11-26/gemm"
CEIL="$GB_SRC/data/h100/ceilings-2026-11-26"
FIXTURE="$GB_SRC/tests/data/runs/bandwidth-fixture"
tree_hash() { (cd "$1" && find . -type f -print0 | sort -z | xargs -0 sha256sum | sha256sum); }
before=$(tree_hash "$GEMM")
printf '/* stand-in chart library */ window.Chart = function () {};\n' >"$TMP/chart.js"
export GB_CHARTJS="$TMP/chart.js"

# Found beside the run (data/h100/ceilings-2026-11-26 for data/h100/corpus-2026-11-26/gemm).
expect 0 "" report "$GEMM" --out "$TMP/r1" --chart-format svg
printf '%s\n' "$ERR" | grep -q "report: roofline under .*data/h100/ceilings-2026-11-26" && ok || bad "the ceilings run beside the run was not found"
md="$TMP/r1/report.md"
grep -q '^## Roofline$' "$md" && ok || bad "report.md has no Roofline section"
grep -q 'roofs: measured in .*ceilings-2026-11-26' "$md" && ok || bad "report.md does not say where the roofs come from"
grep -q '!\[Hierarchical roofline\](roofline.svg)' "$md" && [ -s "$TMP/r1/roofline.gp" ] && ok || bad "the roofline chart is not drawn into report.md"
# One table row per measured point, each placed under the measured smem or fp32 roof.
n_ok=$(python3 -c 'import gzip,json,sys; print(sum(1 for r in json.load(gzip.open(sys.argv[1], "rt")) if r.get("status") == "ok"))' "$GEMM/results.json.gz")
n_rows=$(sed -n '/^## Roofline$/,$p' "$md" | grep -c '^| corpus-gemm/')
[ "$n_rows" = "$n_ok" ] && [ "$n_ok" -gt 0 ] && ok || bad "roofline table: $n_rows rows for $n_ok measured points"
# The DRAM roof drawn is the ceilings run's, not the guide's.
dram=$("$GPUBOUND" info --ceilings "$CEIL" | awk '$1 == "dram" {print $2; exit}')
grep -q "DRAM roof ($dram GB/s)" "$TMP/r1/roofline.gp" && ok || bad "the chart's DRAM roof is not the measured $dram GB/s"
python3 - "$TMP/r1/report.html" "$n_ok" <<'PY' && ok || bad "report.html lacks the roofline chart or table"
import json, re, sys
t = open(sys.argv[1]).read()
d = json.loads(re.search(r'<script id="gb-data" type="application/json">(.*?)</script>', t, re.S).group(1).replace('<\\/', '</'))
r = d["roofline"]
assert r["chart"]["name"] == "roofline" and r["chart"]["log_x"] and r["chart"]["log_y"], "chart"
styles = {s["label"]: s["style"] for s in r["chart"]["series"]}
assert styles["DRAM"] == "points" and styles["L2"] == "points", styles
assert any(k.startswith("DRAM roof") and v == "lines" for k, v in styles.items()), styles
assert len(r["table"]["rows"]) == int(sys.argv[2]), len(r["table"]["rows"])
assert any("measured in" in n for n in r["notes"]), r["notes"]
PY
[ "$(tree_hash "$GEMM")" = "$before" ] && ok || bad "the report wrote into the run it read"

# Given explicitly; another GPU's ceilings are refused.
expect 0 "roofline under .*ceilings-2026-11-26" report "$GEMM" --out "$TMP/r2" --ceilings "$CEIL" --chart-format svg
expect 2 "report: .*measured on .* the roofs of one kind of GPU do not bound another" \
    report "$GEMM" --out "$TMP/r3" --ceilings "$GB_SRC/data/h200/ceilings-2026-11-26"
[ ! -e "$TMP/r3" ] && ok || bad "a refused report wrote its directory"
expect 2 "contradict" report "$GEMM" --out "$TMP/r4" --ceilings "$CEIL" --no-roofline

# Nothing beside the run: the guide figures, said so.
cp -r "$GEMM" "$TMP/gemm"
expect 0 "roofline under the guide figures" report "$TMP/gemm" --out "$TMP/r5" --chart-format svg
grep -q 'roofs: guide figures, not measured (no ceilings run given or found beside the run): record one with' \
    "$TMP/r5/report.md" && ok || bad "report.md does not say the roofs are the guide figures"
grep -q 'roofs: guide figures, not measured' "$TMP/r5/roofline.gp" && ok || bad "the chart does not say its roofs are the guide's"

# --no-roofline, and a run without counters: no section.
expect 0 "" report "$TMP/gemm" --out "$TMP/r6" --no-roofline --chart-format svg
! grep -q '^## Roofline' "$TMP/r6/report.md" && [ ! -e "$TMP/r6/roofline.gp" ] && ok || bad "--no-roofline drew a roofline"
expect 0 "" report "$FIXTURE" --out "$TMP/r7" --chart-format svg
! grep -q '^## Roofline' "$TMP/r7/report.md" && ok || bad "a run without counters got a roofline"

# No --out: runs/<name>-report from the current directory, said so; never the run itself.
before=$(tree_hash "$TMP/gemm")
mkdir -p "$TMP/cwd"
(cd "$TMP/cwd" && "$GPUBOUND" report "$TMP/gemm/" --no-roofline --chart-format svg >"$TMP/out" 2>"$TMP/err"); RC=$?
ERR=$(cat "$TMP/err") OUT=""
[ "$RC" = 0 ] && [ -s "$TMP/cwd/runs/gemm-report/report.md" ] && ok || bad "no --out: runs/gemm-report/report.md not written (rc $RC)"
grep -q 'report: writing runs/gemm-report (no --out given; a report never writes into the run it reads)' "$TMP/err" \
    && ok || bad "no --out: the default directory is not said"
[ "$(tree_hash "$TMP/gemm")" = "$before" ] && ok || bad "no --out: the run directory was written to"
expect 2 "--out .*/gemm/ lies inside the run .*/gemm, which this command only reads" report "$TMP/gemm" --out "$TMP/gemm/"
finish
