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
# The gate fails what it should (docs/cli.md, compare: "The gate fails").
# Points measured in BASE and failed, skipped or missing in NEW: counted in
# the summary, listed with why, and a regression for the gate.
expect 0 '1 unchanged of 1 points; 5 measured in base and not in new \(3 failed, 1 skipped, 1 missing\)' \
    compare "$R/base" "$R/lost"
expect 1 '5 points measured in base and not in new \(3 failed, 1 skipped, 1 missing\): regression' \
    compare "$R/base" "$R/lost" --fail-on-regression
run_gb compare "$R/base" "$R/lost"
if printf '%s\n' "$OUT" | grep -q 'synth/k n=3 (hot): skipped' && printf '%s\n' "$OUT" | grep -q 'synth/k n=5 (hot): missing'
then ok; else bad "the base-only points say why NEW has none"; fi
run_gb compare "$R/base" "$R/lost" --format json
if printf '%s\n' "$OUT" | python3 -c 'import json,sys; d=json.load(sys.stdin); s=d["summary"]; assert (s["base_only"], s["base_only_failed"], s["base_only_skipped"], s["base_only_missing"]) == (5, 3, 1, 1) and d["only_base_in_new"][0] == "failed"' 2>/dev/null
then ok; else bad "JSON counts of the points lost in NEW"; fi
# One slower point is enough to fail the gate.
expect 1 '^gpubound compare: 1 point significantly slower beyond 2%: regression$' compare "$R/base" "$R/oneslow" --fail-on-regression
# The other way round a point only NEW measured is no regression.
expect 0 '' compare "$R/lost" "$R/base" --fail-on-regression
# Slower and lost together: both counted in the one line.
expect 1 '1 point significantly slower beyond 2% and 5 points measured in base' compare "$R/fast" "$R/lost" --fail-on-regression
# One run given twice on a side (the same directory, or a copy of it) is refused: its samples would pool with themselves.
expect 2 "BASE '.*' gives one run twice .*: the same directory" compare "$R/base,$R/base" "$R/rerun"
expect 2 "gives one run twice" compare "$R/base,$R/../r/base" "$R/rerun"
cp -r "$R/rerun" "$TMP/rerun-copy"
expect 2 "NEW '.*' gives one run twice .*: the same run.json identity" compare "$R/base" "$R/rerun,$TMP/rerun-copy"
# Intervals reaching 0 and samples of 0 are refused when the run is loaded (exit 1, file and field named).
cp -r "$R/nosamples" "$TMP/zero-ci"
python3 - "$TMP/zero-ci/results.json" <<'EOF2'
import json, sys
recs = json.load(open(sys.argv[1]))
for r in recs:
    for k in ("min", "median", "mean", "ci_hi"):
        r["time_ns"][k] *= 11
    r["time_ns"]["ci_lo"] = 0
open(sys.argv[1], "w").write("[\n" + ",\n".join(json.dumps(r) for r in recs) + "\n]\n")
EOF2
expect 1 'zero-ci/results.json: \$\[0\]\.time_ns\.ci_lo = 0' compare "$R/base" "$TMP/zero-ci" --fail-on-regression
cp -r "$R/rerun" "$TMP/zero-sample"
python3 - "$TMP/zero-sample/results.json" <<'EOF2'
import json, sys
recs = json.load(open(sys.argv[1]))
recs[0]["sample_ns"][0] = 0
open(sys.argv[1], "w").write("[\n" + ",\n".join(json.dumps(r) for r in recs) + "\n]\n")
EOF2
expect 1 'zero-sample/results.json: \$\[0\]\.sample_ns\[0\] = 0' compare "$R/base" "$TMP/zero-sample"
# A fleet run: compared GPU by GPU with a fleet run (a GPU 30% slower fails the gate), refused against one GPU's run.
make_fleet() { # SRC DST SLOW_RANK: four ranks of SRC's records, SLOW_RANK's times x 1.3
    python3 - "$@" <<'EOF2'
import json, os, sys
src, dst, slow = sys.argv[1], sys.argv[2], int(sys.argv[3])
os.makedirs(dst)
info = json.load(open(src + "/run.json"))
recs = json.load(open(src + "/results.json"))
out, members = [], []
for rank in range(4):
    dev = dict(info["device"], uuid="GPU-%08d-0000-0000-0000-000000000000" % rank)
    members.append({"rank": rank, "local_rank": rank, "host": "node", "state": "ok", "exit_code": 0,
                    "reason": "", "run": dict(info, device=dev)})
    for r in recs:
        r = json.loads(json.dumps(r))
        f = 1.3 if rank == slow else 1.0
        for k in ("min", "median", "mean", "stddev", "ci_lo", "ci_hi"):
            r["time_ns"][k] *= f
        r["sample_ns"] = [v * f for v in r["sample_ns"]]
        r["fleet"] = {"rank": rank, "host": "node", "gpu_uuid": dev["uuid"]}
        out.append(r)
info.update(points_ok=len(out))
info["fleet"] = {"format": "gpubound-fleet/1", "size": 4, "members": members}
json.dump(info, open(dst + "/run.json", "w"), indent=2)
open(dst + "/results.json", "w").write("[\n" + ",\n".join(json.dumps(r) for r in out) + "\n]\n")
EOF2
}
make_fleet "$R/base" "$TMP/fleet-base" -1
make_fleet "$R/rerun" "$TMP/fleet-new" 2
expect 1 '6 points significantly slower beyond 2%: regression' compare "$TMP/fleet-base" "$TMP/fleet-new" --fail-on-regression
run_gb compare "$TMP/fleet-base" "$TMP/fleet-new"
if [ "$(printf '%s\n' "$OUT" | grep -c 'rank=2 (hot) .* slower')" = 6 ] && ! printf '%s\n' "$OUT" | grep 'rank=[013] ' | grep -q slower
then ok; else bad "fleet runs: rank 2's points slower, the other ranks' not"; fi
expect 2 "NEW '.*fleet-new' holds a fleet run \(4 GPUs\) and BASE is not one" compare "$R/base" "$TMP/fleet-new" --fail-on-regression
expect 2 "BASE '.*' holds a fleet run .* and another of its runs is not one" compare "$TMP/fleet-base,$R/rerun" "$R/base"

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

# Recorded runs: the summary writes the geometric mean and its interval to
# one decimal place (1.0002, not %.4g's 1), and in every row ratio, lo and
# hi end at one place too (0.99996 in 0.9984..1.0011 is 1.0000, not 1.000).
CMP=$GB_SRC/data/h100/compare-2026-11-23
expect 0 'geometric-mean ratio 1\.0002 \[0\.9986, 1\.0018\] \(99% CI\)$' compare "$CMP/bw-a" "$CMP/bw-b"
run_gb compare "$CMP/tr-a" "$CMP/tr-b"
if printf '%s\n' "$OUT" | grep -q 'n=16384 (hot) .* 1\.0000   0\.9984   1\.0011 ' &&
    printf '%s\n' "$OUT" | awk '/ \(hot\) / { for (i = 1; i <= NF; i++) if ($i == "(hot)") break;
        d = length($(i + 3)) - index($(i + 3), ".");
        if (length($(i + 4)) - index($(i + 4), ".") != d || length($(i + 5)) - index($(i + 5), ".") != d) exit 1 }'
then ok; else bad "ratio, lo and hi of each row end at one decimal place"; fi

echo "compare: $PASSES passed, $FAILS failed"
[ "$FAILS" = 0 ]
