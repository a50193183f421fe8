#!/usr/bin/env bash
# scripts/bench_tune.sh without a GPU and without Kernel Tuner: the tuning
# benchmark over a small committed sweep (corpus chase on the H100, 16
# configurations at its largest table), two seeds: the table, its counts
# and the goal's lines; bad arguments.
. "$(dirname "$0")/lib.bash"
need_python3 || { finish; exit; }

BUILD=$(dirname "$GPUBOUND")
SCRIPT="$GB_SRC/scripts/bench_tune.sh"
if bash "$SCRIPT" "$BUILD" "$TMP/out" --runs "$GB_SRC/data/h100/corpus-2026-11-26" --seeds 2 chase/chase \
    >"$TMP/log" 2>&1; then ok; else OUT=$(cat "$TMP/log") ERR=""; bad "bench_tune.sh failed"; fi
MD="$TMP/out/bench_tune.md"
if grep -q 'A replay of measured times: every strategy runs `gpubound tune --replay`' "$MD" &&
    grep -q "Kernel Tuner's strategies were not run (no --site given)" "$MD"; then ok; else bad "the method line"; fi
# One row: the space of 16, its best the sweep's fastest chase point, exhaustive's count its place in the sweep.
row=$(grep '^| H100: chase/chase | table=33554432 | 16 | 16 |' "$MD" || true)
best=$(python3 - "$GB_SRC/data/h100/corpus-2026-11-26/chase/results.json" <<'PY'
import json, sys
r = [x for x in json.load(open(sys.argv[1])) if x["axes"]["table"] == "33554432" and x["status"] == "ok"]
ts = [x["time_ns"]["median"] for x in r]
b = min(ts)
print(f"{b / 1e3:.4g} {next(i for i, t in enumerate(ts) if t <= 1.02 * b) + 1}")
PY
)
if [ -n "$row" ] && printf '%s' "$row" | grep -q "| ${best% *} | ${best#* } / ${best#* } ("; then ok
else OUT="$row" ERR="$best"; bad "the chase row"; fi
if python3 - "$TMP/out/bench_tune.json" <<'PY'; then ok; else bad "bench_tune.json"; fi
import json, sys
j = json.load(open(sys.argv[1]))
(s,) = j["spaces"]
assert j["seeds"] == 2 and s["size"] == 16 and set(s["rows"]) == {"exhaustive", "random", "anneal", "model"}
for k, r in s["rows"].items():
    assert r["seeds"] == 2 and 1 <= r["median"] <= 16 and r["worst"] >= r["median"], (k, r)
PY
grep -q '^- every space: `model` within 2% with at most 20% of the space (median over seeds) on [01] of 1 spaces' "$MD" && ok ||
    bad "the goal line"
# A large space of corpus-tune/ (its spec found by the suite its records
# name): a made-up sweep of stencil2d's 290 configurations, searched with
# a budget of 100 (0.3 of it, at least 100), only the strategies named.
python3 - "$GB_SRC" "$TMP/ct/stencil2d" <<'PY'
import copy, itertools, json, math, os, sys
src, out = sys.argv[1:]
tmpl = json.load(open(f"{src}/data/h100/corpus-2026-11-26/stencil2d/results.json"))[0]
run = json.load(open(f"{src}/data/h100/corpus-2026-11-26/stencil2d/run.json"))
recs = []
for bx, by, r, c, s in itertools.product([16, 32, 64, 128, 256], [1, 2, 4, 8, 16], [1, 2, 4, 8], [1, 2], [0, 1]):
    if not 64 <= bx * by <= 1024 or by * r > 64 or (s and (by * r + 2) * (bx * c + 2) * 4 > 49152):
        continue
    x = copy.deepcopy(tmpl)
    x.update(suite="tune-stencil2d", bench="blur", counters={}, metrics={}, samples=3, sample_ns=None)
    x["axes"] = {"block_size_x": str(bx), "block_size_y": str(by), "rows_per_thread": str(r),
                 "cols_per_thread": str(c), "use_shared": str(s), "n": "4096"}
    t = 5e4 * (1 + 0.1 * abs(math.log2(bx) - 6) + 0.05 * abs(math.log2(r) - 1) + 0.1 * s + 0.01 * ((bx * by + r) % 7))
    x["time_ns"] = dict(x["time_ns"], median=t, mean=t, min=t, ci_lo=0.997 * t, ci_hi=1.003 * t)
    x["sample_ns"] = [t] * 3
    recs.append(x)
os.makedirs(out)
json.dump(recs, open(f"{out}/results.json", "w"))
json.dump(dict(run, complete=True), open(f"{out}/run.json", "w"))
PY
if bash "$SCRIPT" "$BUILD" "$TMP/o4" --runs "$TMP/ct" --seeds 2 --strategies random,model --jobs 2 >"$TMP/log" 2>&1 &&
    grep -q '^| H100: stencil2d/blur | n=4096 | 290 | 100 | 5[0-9.]* | [0-9.]* / [0-9]* ([0-9]*%) | [0-9.]* / [0-9]* ([0-9]*%) |$' \
        "$TMP/o4/bench_tune.md"; then ok
else OUT=$(cat "$TMP/log" "$TMP/o4/bench_tune.md" 2>&1) ERR=""; bad "a corpus-tune space"; fi
if ! bash "$SCRIPT" "$BUILD" "$TMP/o5" --runs "$TMP/ct" --strategies model,genetic 2>"$TMP/err" &&
    grep -q 'genetic is not one of exhaustive, random, anneal, model' "$TMP/err"; then ok
else bad "an unknown strategy"; fi
# Bad arguments: no build, a kernel not in the sweeps.
if ! bash "$SCRIPT" "$TMP/nobuild" "$TMP/o2" 2>"$TMP/err" && grep -q 'is not built' "$TMP/err"; then ok
else bad "a missing build"; fi
if ! bash "$SCRIPT" "$BUILD" "$TMP/o3" --runs "$GB_SRC/data/h100/corpus-2026-11-26" nope/nope 2>"$TMP/err" &&
    grep -q 'no space to tune' "$TMP/err"; then ok; else bad "an unknown kernel"; fi
finish
