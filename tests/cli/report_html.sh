# report.html without a browser: written beside report.md when the chart
# library is installed, self-contained (the library and the data inline,
# nothing loaded from elsewhere); without the library, report.md still
# completes and one line says how to get report.html. camp predict --html
# likewise. The page in a browser: tests/html/.
. "$(dirname "$0")/lib.bash"
: "${GB_SRC:?GB_SRC must name the source directory}"
FIXTURE="$GB_SRC/tests/data/runs/bandwidth-fixture"
CAMP="$GB_SRC/data/h200/camping-2026-11-21"

# Without the library (GB_CHARTJS names a file that is not there).
GB_CHARTJS="$TMP/none.js" run_gb report "$FIXTURE" --out "$TMP/nolib"
if [ "$RC" != 0 ] || [ ! -s "$TMP/nolib/report.md" ] || [ -e "$TMP/nolib/report.html" ]; then
    bad "report without the chart library: rc $RC, report.md or report.html wrong"
elif [ "$(printf '%s\n' "$ERR" | grep -c 'report.html needs the chart library .*libjs-chart.js')" != 1 ]; then
    bad "report without the chart library: no single line saying how to get it"
else ok; fi
GB_CHARTJS="$TMP/none.js" run_gb camp predict --model "$CAMP/campprof-model.json" --gld 4:1000 --warps 8 --html "$TMP/c0.html"
if [ "$RC" != 0 ] || [ -e "$TMP/c0.html" ] || ! printf '%s' "$ERR" | grep -q 'libjs-chart.js'; then
    bad "camp predict --html without the library: rc $RC"
else ok; fi

# With a stand-in library: the page holds it, the data and the page script, once each.
printf '/* stand-in chart library </script> */ window.Chart = function () {};\n' >"$TMP/chart.js"
GB_CHARTJS="$TMP/chart.js" run_gb report "$FIXTURE" --out "$TMP/lib"
html="$TMP/lib/report.html"
if [ "$RC" != 0 ] || [ ! -s "$html" ]; then bad "report with the library wrote no report.html (rc $RC)"
elif ! grep -q 'stand-in chart library <\\/script>' "$html"; then bad "the library is not inlined, or '</script>' in it is not escaped"
elif [ "$(grep -c '<script id="gb-data" type="application/json">' "$html")" != 1 ]; then bad "report.html lacks its data block"
elif grep -Eq '<(script|link|img)[^>]* (src|href)=' "$html"; then bad "report.html loads something from elsewhere"
elif ! grep -q "Content-Security-Policy\" content=\"default-src 'none'" "$html"; then bad "report.html has no policy against fetching"
elif ! printf '%s\n' "$ERR" | grep -q "wrote $TMP/lib/report.html"; then bad "report.html is not listed among the files written"
else ok; fi
# The data block is JSON and holds every record and each chart of report.md.
python3 - "$html" "$TMP/lib/report.md" <<'PY' || bad "report.html's data does not match the run"
import json, re, sys
t = open(sys.argv[1]).read()
d = json.loads(re.search(r'<script id="gb-data" type="application/json">(.*?)</script>', t, re.S).group(1).replace('<\\/', '</'))
md = open(sys.argv[2]).read()
charts = [c["name"] for s in d["suites"] for c in s["charts"]]
assert d["n_records"] == len(d["records"]["rows"]) > 0, "records"
for name in re.findall(r"!\[[^\]]*\]\(([^)]+)\.png\)", md):
    assert name in charts, name
PY
[ "$FAILS" = 0 ] && ok
# report.html opens with report.md's findings, and its tables show report.md's cell texts
# (one formatting: a median with its interval "481.9 ± 1.3", never a raw double).
for run in "$FIXTURE" "$GB_SRC/data/h200/patterns-2026-11-21" "$GB_SRC/data/h200/bandwidth-2026-11-21-a"; do
    f="$TMP/f-$(basename "$run")"
    GB_CHARTJS="$TMP/chart.js" run_gb report "$run" --out "$f" --chart-format svg
    [ "$RC" = 0 ] || bad "report $run: rc $RC"
    python3 "$GB_SRC/tests/cli/report_html_check.py" "$f/report.html" "$f/report.md" \
        || bad "report.html of $run differs from its report.md (findings or table texts)"
done
[ "$FAILS" = 0 ] && ok

GB_CHARTJS="$TMP/chart.js" run_gb camp predict --model "$CAMP/campprof-model.json" --gld 4:1000 --warps 8 --time-ns 5000 --html "$TMP/c1.html"
if [ "$RC" != 0 ] || ! grep -q '"camp_inputs"' "$TMP/c1.html" || ! grep -q 'campprof-model.json' "$TMP/c1.html"; then
    bad "camp predict --html: rc $RC or the page lacks the model and inputs"
else ok; fi
finish
