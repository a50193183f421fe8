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
row=$(grep '^| h100: chase/chase | table=33554432 | 16 |' "$MD" || true)
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
grep -q '^- `model` within 2% with at most 20% of the space (median over seeds): [01] of 1 spaces' "$MD" && ok ||
    bad "the goal line"
# Bad arguments: no build, a kernel not in the sweeps.
if ! bash "$SCRIPT" "$TMP/nobuild" "$TMP/o2" 2>"$TMP/err" && grep -q 'is not built' "$TMP/err"; then ok
else bad "a missing build"; fi
if ! bash "$SCRIPT" "$BUILD" "$TMP/o3" --runs "$GB_SRC/data/h100/corpus-2026-11-26" nope/nope 2>"$TMP/err" &&
    grep -q 'no space to tune' "$TMP/err"; then ok; else bad "an unknown kernel"; fi
finish
