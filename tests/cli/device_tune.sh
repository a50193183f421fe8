#!/usr/bin/env bash
# scripts/device/tune.sh and scripts/bench_tune_live.py without a GPU: the
# device script's usage and its refusal of a missing binary (exit 2,
# nothing run); the live side by side's table from a made-up gpubound run,
# Kernel Tuner result and sweep (each tool's best configuration, its own
# time and its time in the sweep); the pick of Kernel Tuner's best strategy
# from a replay benchmark's json, and random_sample when there is none;
# the Kernel Tuner side with stand-in modules.
. "$(dirname "$0")/lib.bash"
need_python3 || { finish; exit; }

DEV="$GB_SRC/scripts/device/tune.sh"
LIVE="$GB_SRC/scripts/bench_tune_live.py"
OUT=""
bash "$DEV" only-one 2>"$TMP/err"
if [ $? = 2 ] && grep -q 'usage: scripts/device/tune.sh GPUBOUND OUTDIR' "$TMP/err"; then ok
else ERR=$(cat "$TMP/err") bad "the usage"; fi
bash "$DEV" "$TMP/none/gpubound" "$TMP/o" 2>"$TMP/err"
if [ $? = 2 ] && grep -q 'is not an executable gpubound' "$TMP/err" && [ ! -e "$TMP/o" ]; then ok
else ERR=$(cat "$TMP/err") bad "a missing gpubound"; fi

# TUNE_SWEEPS naming a directory without sweeps: refused before anything
# is made (exit 2).
printf '#!/bin/sh\nexit 0\n' >"$TMP/fake-gb" && chmod +x "$TMP/fake-gb" && mkdir -p "$TMP/nosweeps/corpus-tune/sgemm"
TUNE_SWEEPS="$TMP/nosweeps" bash "$DEV" "$TMP/fake-gb" "$TMP/o" 2>"$TMP/err"
if [ $? = 2 ] && grep -q 'holds no sweep' "$TMP/err" && [ ! -e "$TMP/o" ]; then ok
else ERR=$(cat "$TMP/err") bad "TUNE_SWEEPS without sweeps"; fi

python3 - "$TMP" <<'PY'
import json, os, sys
t = sys.argv[1]
def rec(ax, us, status="ok"):
    return {"suite": "tune-stencil2d", "bench": "blur", "axes": ax, "status": status,
            "time_ns": {"median": us * 1e3}}
a = {"block_size_x": "32", "use_shared": "0", "n": "4096"}
b = {"block_size_x": "64", "use_shared": "1", "n": "4096"}
c = {"block_size_x": "128", "use_shared": "1", "n": "4096"}
for d, recs in (("gb", [rec(a, 50.0), rec(b, 48.0)]), ("sweep", [rec(a, 51.0), rec(b, 47.0), rec(c, 46.0)])):
    os.makedirs(f"{t}/{d}")
    json.dump(recs, open(f"{t}/{d}/results.json", "w"))
json.dump({"tool": "kernel_tuner 1.5.0", "strategy": "simulated_annealing", "wall_s": 12.5, "configurations": 30,
           "verified": 29, "best": {"axes": {"block_size_x": 128, "use_shared": 1, "n": 4096}, "time_ms": 0.0465}},
          open(f"{t}/kt.json", "w"))
json.dump({"spaces": [{"kernel": "stencil2d", "bench": "blur", "run": f"{t}/sweep",
                       "rows": {"model": {"median": 9}, "kt:random_sample": {"median": 12},
                                "kt:bayes_opt": {"median": 7}, "kt:genetic_algorithm": {"error": "x"}}},
                      {"kernel": "stencil2d", "bench": "blur", "run": f"{t}/other",
                       "rows": {"kt:genetic_algorithm": {"median": 2}}}]}, open(f"{t}/bt.json", "w"))
PY
python3 "$LIVE" table "$TMP/live.md" "$TMP/gb" 3.25 "$TMP/kt.json" "$TMP/sweep" 30 >"$TMP/out" 2>&1
if grep -q '^| gpubound tune --strategy model | 3.25 | 2 | 2 | block_size_x=64 use_shared=1 n=4096 | 48 | .* | 47 | 1.022 |$' "$TMP/live.md" &&
    grep -q '^| Kernel Tuner 1.5.0 simulated_annealing | 12.50 | 30 | 29 | block_size_x=128 use_shared=1 n=4096 | 46.5 | .* | 46 | 1.000 |$' "$TMP/live.md" &&
    grep -q "the sweep's best is 46 us" "$TMP/live.md"; then ok
else OUT=$(cat "$TMP/live.md") ERR=$(cat "$TMP/out") bad "the live table"; fi
[ "$(python3 "$LIVE" pick "$TMP/bt.json" "$TMP/sweep" blur)" = bayes_opt ] && ok || bad "the pick"
[ "$(python3 "$LIVE" pick "$TMP/missing.json" "$TMP/sweep" blur)" = random_sample ] && ok || bad "the pick without a json"
python3 "$LIVE" nope >/dev/null 2>&1 && bad "an unknown subcommand" || ok
# The Kernel Tuner side with stand-in modules: corpus-tune/stencil2d's 290
# configurations under its restrictions, 30 of them tuned.
# It needs numpy: the build's virtual environment has it (make deps).
py=python3
venv_py=$(dirname "${GB_SKIP_LOG:-.}")/venv/bin/python
[ -x "$venv_py" ] && py=$venv_py
if "$py" "$LIVE" selftest "$TMP" >"$TMP/out" 2>&1 && grep -q '^selftest: 290 valid configurations, 30 tuned' "$TMP/out"
then ok; else OUT=$(cat "$TMP/out") bad "the Kernel Tuner side"; fi
# The corpus-tune specs load and their quick configurations compile
# (`gpubound check` of every configuration takes minutes: run by hand).
run_gb check "$GB_SRC/corpus-tune/sgemm/spec.json" --quick --arch sm_90
if [ "$RC" != 0 ] && printf '%s\n' "$ERR" | grep -q 'NVRTC'; then
    skip 6 "NVRTC is not installed: $ERR"
else
    for k in sgemm stencil2d conv2d reduce transpose histogram; do
        expect 0 "configurations of .*corpus-tune/$k/spec.json, [0-9]+ modules compiled" \
            check "$GB_SRC/corpus-tune/$k/spec.json" --quick --arch sm_90
    done
fi
finish
