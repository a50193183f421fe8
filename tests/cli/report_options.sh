# gpubound report: which charts it draws (--charts, --all-charts, the default of
# a large run), in which formats (--chart-format), and a run whose suite this
# build does not know, charted from its own charts.json.
. "$(dirname "$0")/lib.bash"
: "${GB_SRC:?GB_SRC must name the source directory}"
FIXTURE="$GB_SRC/tests/data/runs/ubench-fixture"

n_files() { # n_files DIR EXT: how many DIR/*.EXT there are
    find "$1" -maxdepth 1 -name "*.$2" | wc -l
}

# A subset by pattern: only the charts named, by file stem or comma list.
expect 0 "" report "$FIXTURE" --out "$TMP/sub" --charts 'shape-ubench1-*'
[ "$(n_files "$TMP/sub" gp)" = 3 ] && ok || bad "--charts 'shape-ubench1-*' drew $(n_files "$TMP/sub" gp) charts, not 3"
[ -e "$TMP/sub/shape-ubench1-large-max.svg" ] && [ ! -e "$TMP/sub/shape-ubench2-large-default.gp" ] && ok \
    || bad "--charts drew the wrong charts"
grep -q '5 more charts of this suite' "$TMP/sub/report.md" && ok || bad "report.md does not say charts were left out"
printf '%s\n' "$ERR" | grep -q '^note: 7 charts not drawn' && ok || bad "stderr does not say 7 charts were left out"
expect 0 "" report "$FIXTURE" --out "$TMP/sub2" --charts shape-ubench2-large-default,shape-ubench5-large-default \
    --charts 'shape-ubench6-*'
[ "$(n_files "$TMP/sub2" gp)" = 3 ] && ok || bad "a comma list and a second --charts drew $(n_files "$TMP/sub2" gp), not 3"
# The declared chart's name selects every chart it draws.
expect 0 "" report "$FIXTURE" --out "$TMP/all8" --charts shape
[ "$(n_files "$TMP/all8" gp)" = 8 ] && ok || bad "--charts shape did not draw the 8 charts of the spec"

# PNG only leaves no SVG, SVG only no PNG; the script stays in both cases.
expect 0 "" report "$FIXTURE" --out "$TMP/png" --chart-format png
[ "$(n_files "$TMP/png" svg)" = 0 ] && [ "$(n_files "$TMP/png" png)" = 8 ] && [ "$(n_files "$TMP/png" gp)" = 8 ] && ok \
    || bad "--chart-format png: $(n_files "$TMP/png" svg) svg, $(n_files "$TMP/png" png) png"
grep -qF '![Time by block shape (ubench1, size=large, cache=default)](shape-ubench1-large-default.png)' \
    "$TMP/png/report.md" && ! grep -q '\.svg)' "$TMP/png/report.md" && ok || bad "report.md of PNG only links an SVG"
grep -q "set terminal svg" "$TMP/png/shape-ubench1-large-default.gp" && bad "the PNG-only script draws an SVG" || ok
expect 0 "" report "$FIXTURE" --out "$TMP/svg" --chart-format svg
[ "$(n_files "$TMP/svg" png)" = 0 ] && [ "$(n_files "$TMP/svg" svg)" = 8 ] && ok || bad "--chart-format svg wrote a PNG"

# Bad choices: one line, exit 2, nothing written.
expect 2 "--charts 'nope\*' matches none of the 10 charts of this run" report "$FIXTURE" --out "$TMP/bad" \
    --charts 'nope*'
[ ! -e "$TMP/bad" ] && ok || bad "a pattern matching nothing still wrote $TMP/bad"
expect 2 "--chart-format: 'gif' is not png, svg or both" report "$FIXTURE" --out "$TMP/bad" --chart-format gif
expect 2 "--charts: '' has an empty pattern" report "$FIXTURE" --out "$TMP/bad" --charts ''

# A run of a suite this build does not know, with its own charts.json: one heat
# grid per bench, size, cache and row count, so many that the run is large.
RUN="$TMP/userrun"
mkdir -p "$RUN"
cp "$FIXTURE/run.json" "$RUN/"
# The fixture's ubench records as suite "userkernel" (its one bandwidth record
# left out: the run is of the one suite); ALL is how many charts the spec below
# draws from them (a group whose one record was skipped has nothing to draw).
ALL=$(python3 - "$FIXTURE/results.json" "$RUN/results.json" <<'PY'
import json, sys
recs = [r for r in json.load(open(sys.argv[1])) if r["suite"] == "ubench"]
for r in recs:
    r["suite"] = "userkernel"
with open(sys.argv[2], "w") as f:
    f.write("[\n" + ",\n".join(json.dumps(r) for r in recs) + "\n]\n")
# run.json counts the records kept (the load-time check warns otherwise).
info_path = sys.argv[2].replace("results.json", "run.json")
info = json.load(open(info_path))
info["points_ok"] = sum(r["status"] == "ok" for r in recs)
info["points_failed"] = sum(r["status"] not in ("ok", "skipped") for r in recs)
json.dump(info, open(info_path, "w"), indent=2)
print(len({(r["bench"], r["axes"]["size"], r["axes"]["cache"], r["axes"]["rows"]) for r in recs
          if r["status"] != "skipped"}))
PY
)
cat >"$RUN/charts.json" <<'JSON'
{"format": "gpubound-charts", "version": 1,
 "suites": [{"name": "userkernel", "help": "A kernel of the user's, from a spec file.",
   "charts": [{"name": "grid", "title": "Time by block shape", "kind": "heat",
     "split": "bench,size,cache,rows", "primary": "rows=1", "y": "median_ns",
     "row": "rows", "col": "cols", "x_label": "columns", "y_label": "rows"}]}]}
JSON
[ "$ALL" -gt 24 ] && ok || bad "the test run has $ALL charts, not a large run"
expect 0 "" report "$RUN" --out "$TMP/large"
[ "$(n_files "$TMP/large" gp)" = 8 ] && ok || bad "a large run drew $(n_files "$TMP/large" gp) charts by default, not its 8 primary ones"
grep -q "A kernel of the user's" "$TMP/large/report.md" && ok || bad "report.md lacks the suite's help from charts.json"
grep -q 'does not know this suite' "$TMP/large/report.md" && bad "the unknown suite was left without charts" || ok
grep -q "more charts of this suite are not drawn" "$TMP/large/report.md" && ok || bad "report.md does not say charts were left out"
[ -s "$TMP/large/summary.csv" ] && ok || bad "a large run has no summary.csv"
[ "$(wc -l <"$TMP/large/summary.csv")" = 505 ] && ok || bad "summary.csv does not hold every point"
printf '%s\n' "$OUT" | head -1 | grep -q '^suite  *bench  *points  *measured  *failed  *skipped' && ok \
    || bad "the terminal summary of a large run is not one row per bench"
expect 0 "" report "$RUN" --out "$TMP/large-all" --all-charts
[ "$(n_files "$TMP/large-all" gp)" = "$ALL" ] && ok || bad "--all-charts drew $(n_files "$TMP/large-all" gp) of $ALL charts"
expect 0 "" report "$RUN" --out "$TMP/large-csv" --format csv
[ "$(printf '%s\n' "$OUT" | wc -l)" = 505 ] && ok || bad "--format csv of a large run is not the table of every point"

# A malformed charts.json is one line, exit 1.
echo '{"format": "gpubound-charts", "suites": [{"name": "x", "charts": [{"title": "no name"}]}]}' >"$RUN/charts.json"
expect 1 "charts.json: a chart has no name" report "$RUN" --out "$TMP/broken"
finish
