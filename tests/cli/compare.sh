#!/usr/bin/env bash
# gpubound compare on synthetic runs written by the results writer
# (tests/unit/test_compare.c --write): verdicts, the gate's exit codes, runs
# without samples, one-sided points, formats, usage errors and the chart.
. "$(dirname "$0")/lib.bash"

WRITER="$(dirname "$GPUBOUND")/tests/test_compare"
if [ ! -x "$WRITER" ]; then
    echo "FAIL: $WRITER (the synthetic run writer) is not built" >&2
    exit 1
fi
"$WRITER" --write "$TMP/r" || { echo "FAIL: writing the synthetic runs" >&2; exit 1; }
R=$TMP/r

# A rerun: no change anywhere; the gate passes.
expect 0 'summary: 0 faster, 0 slower, 6 unchanged of 6 points' compare "$R/base" "$R/rerun" --fail-on-regression
# 3% slower with 20 samples and 0.5% noise: every point slower; the gate fails (exit 1, one line on stderr).
expect 1 'significantly slower beyond 2%: regression' compare "$R/base" "$R/slow" --fail-on-regression
run_gb compare "$R/base" "$R/slow"
if [ "$RC" = 0 ] && [ "$(printf '%s\n' "$OUT" | grep -c ' slower ')" = 6 ]; then ok; else bad "without the gate: exit 0 and 6 slower rows"; fi
# Faster is not a regression.
expect 0 '6 faster, 0 slower' compare "$R/base" "$R/fast" --fail-on-regression
# A threshold above the shift: no verdict counts.
expect 0 '0 slower, 6 unchanged' compare "$R/base" "$R/slow" --threshold 5 --fail-on-regression
# Runs without samples: the summary method, said in the output.
expect 0 'compared on summary statistics only' compare "$R/nosamples" "$R/rerun"
run_gb compare "$R/nosamples" "$R/rerun"
if printf '%s\n' "$OUT" | grep -q ' summary '; then ok; else bad "rows of the summary method say so"; fi
# Points on one side only, and several runs on a side.
expect 0 'only in new: 1 point' compare "$R/base,$R/rerun" "$R/extra"
expect 0 '2 runs, samples pooled' compare "$R/base,$R/rerun" "$R/extra"
# CSV and JSON.
run_gb compare "$R/base" "$R/slow" --format csv
if [ "$RC" = 0 ] && [ "$(printf '%s\n' "$OUT" | head -1)" = 'point,base (ns),new (ns),ratio,lo,hi,p,verdict,method,notes' ] &&
    [ "$(printf '%s\n' "$OUT" | grep -c ',slower,')" = 6 ]; then ok; else bad "CSV header and rows"; fi
run_gb compare "$R/base" "$R/slow" --format json
if [ "$RC" = 0 ] && printf '%s\n' "$OUT" | python3 -c 'import json,sys; d=json.load(sys.stdin); assert d["summary"]["slower"]==6 and len(d["points"])==6 and d["points"][0]["lo"]>1' 2>/dev/null; then ok; else bad "JSON document"; fi
# --pair: bench k of the base against bench k of the new side (the same name here: all matched).
expect 0 '6 unchanged of 6' compare "$R/base" "$R/rerun" --pair synth/k=synth/k
expect 1 'no measured point' compare "$R/base" "$R/rerun" --pair synth/k=synth/other
# Usage errors.
expect 2 'expected BASE and NEW' compare "$R/base"
expect 2 '--alpha needs a number' compare "$R/base" "$R/rerun" --alpha 2
expect 2 '--threshold needs a percentage' compare "$R/base" "$R/rerun" --threshold x
expect 2 '--pair' compare "$R/base" "$R/rerun" --pair nobench
expect 2 'give both --anchor-base and --anchor-new' compare "$R/base" "$R/rerun" --anchor-base "$R/base"
expect 1 'not a gpubound run directory' compare "$R/base" "$R/none"
# The chart (gnuplot script always; images when gnuplot is installed).
mkdir -p "$TMP/chart"
run_gb compare "$R/base" "$R/slow" --chart "$TMP/chart"
if [ "$RC" = 0 ] && [ -s "$TMP/chart/compare.gp" ] && grep -q 'slower' "$TMP/chart/compare.gp"; then ok; else bad "chart script"; fi
if command -v gnuplot >/dev/null && [ ! -s "$TMP/chart/compare.svg" ]; then bad "chart image"; else ok; fi
# Different GPUs: anchored columns from each GPU's peak.
sed -e 's/"Synthetic GPU"/"Other GPU"/' -e 's/"mem_peak_gbs": 3000/"mem_peak_gbs": 4500/' "$R/slow/run.json" > "$TMP/run.json"
cp "$TMP/run.json" "$R/slow/run.json"
expect 0 'anchor: peak memory bandwidth' compare "$R/base" "$R/slow"
run_gb compare "$R/base" "$R/slow" --format json
if printf '%s\n' "$OUT" | python3 -c 'import json,sys; p=json.load(sys.stdin)["points"][0]; assert abs(p["anchored"]-p["ratio"]*1.5)<1e-6' 2>/dev/null; then ok; else bad "anchored = ratio x 4500/3000"; fi

echo "compare: $PASSES passed, $FAILS failed"
[ "$FAILS" = 0 ]
