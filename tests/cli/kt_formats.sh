#!/usr/bin/env bash
# Kernel Tuner's files without a GPU: a recorded run exported as its cache
# and T4 files, the cache imported as a run and exported again (the same
# configurations and times), a cache a killed Kernel Tuner left open, and
# malformed caches (one line, exit 2, no run left behind).
. "$(dirname "$0")/lib.bash"
need_python3 || { finish; exit; }

RUN="$GB_SRC/data/h100/corpus-2026-11-26/gemm"

expect 2 'more than one bench \(tiled, regblock\): name one with --bench' export "$RUN" --format kt-cache
expect 2 "no record of bench 'nope'" export "$RUN" --format kt-cache --bench nope
expect 2 "--format 'csv': the formats are t4 and kt-cache" export "$RUN" --format csv --bench tiled
expect 2 'give --format t4 or --format kt-cache' export "$RUN" --bench tiled
expect 0 '' export "$RUN" --format kt-cache --bench regblock --out "$TMP/cache.json"
expect 0 '' export "$RUN" --format t4 --bench regblock --out "$TMP/t4.json"

# The cache: Kernel Tuner's head, an entry per configuration keyed by its values, times in ms.
if python3 - "$TMP/cache.json" "$RUN/results.json.gz" <<'PY'; then ok; else bad "kt-cache's content"; fi
import gzip, json, sys
c = json.load(open(sys.argv[1]))
recs = [r for r in json.load(gzip.open(sys.argv[2], "rt")) if r["bench"] == "regblock"]
assert c["kernel_name"] == "regblock" and c["device_name"].startswith("NVIDIA H100"), c["device_name"]
assert c["tune_params_keys"] == ["block_m", "block_n", "block_k", "thread_m", "thread_n", "n"]
assert c["tune_params"]["n"] == [1024, 2048] and c["objective"] == "time"
assert len(c["cache"]) == len(recs) == 60
for r in recs:
    key = ",".join(r["axes"][k] for k in c["tune_params_keys"])
    e = c["cache"][key]
    assert e["block_m"] == int(r["axes"]["block_m"])
    assert abs(e["time"] - r["time_ns"]["median"] / 1e6) < 1e-12 * e["time"]
    assert len(e["times"]) == len(r["sample_ns"]) and "compile_time" in e and "verification_time" in e
PY
# T4: schema_version and a result per configuration, its time a measurement in ms.
if python3 - "$TMP/t4.json" <<'PY'; then ok; else bad "t4's content"; fi
import json, sys
t = json.load(open(sys.argv[1]))
assert t["schema_version"] == "1.0.0" and len(t["results"]) == 60
r = t["results"][0]
assert set(r) == {"timestamp", "configuration", "times", "invalidity", "correctness", "measurements", "objectives"}
assert r["invalidity"] == "correct" and r["objectives"] == ["time"]
assert r["measurements"][0]["name"] == "time" and r["measurements"][0]["unit"] == "ms"
assert set(r["times"]) == {"compilation", "benchmark", "framework", "search_algorithm", "validation"}
PY

# Round trip: import the cache, export it again: the same configurations and times.
run_gb import "$TMP/cache.json" --out "$TMP/imp"
if [ "$RC" = 0 ] && printf '%s' "$OUT" | grep -q "60 configurations of regblock on NVIDIA H100.*Kernel Tuner's summaries"; then ok
else bad "import ($RC)"; fi
if grep -q "Kernel Tuner's summaries, the mean of its event-timed launches" "$TMP/imp/run.json" &&
    [ "$(grep -c '"time_source":"kernel-tuner-mean"' "$TMP/imp/results.json")" = 60 ] &&
    grep -q '"kernel_name": "regblock"' "$TMP/imp/kt-import.json"; then ok; else bad "the import says what its times are"; fi
expect 0 "time: Kernel Tuner's mean of its launches" report "$TMP/imp" --out "$TMP/rep"
expect 0 '' export "$TMP/imp" --format kt-cache --out "$TMP/again.json"
if python3 - "$TMP/cache.json" "$TMP/again.json" <<'PY'; then ok; else bad "round trip"; fi
import json, sys
a, b = (json.load(open(p)) for p in sys.argv[1:])
assert a["tune_params_keys"] == b["tune_params_keys"] and a["tune_params"] == b["tune_params"]
assert a["cache"].keys() == b["cache"].keys()
for k, e in a["cache"].items():
    f = b["cache"][k]
    assert abs(e["time"] - f["time"]) <= 1e-12 * e["time"] and e["times"] == f["times"], k
PY
# The exhaustive best of the import is the recorded run's.
run_gb tune "$GB_SRC/corpus/gemm/spec.json" --bench regblock --set n=1024 --replay "$RUN" --budget 30 \
    --strategy exhaustive --out "$TMP/best"
best_rec=$(printf '%s\n' "$OUT" | sed -n 's/^best: *\(.*n=1024\) .*/\1/p')
best_kt=$(python3 -c "
import json,sys
c=json.load(open('$TMP/again.json'))['cache']
k=min((e['time'],k) for k,e in c.items() if k.endswith(',1024'))[1].split(',')
print(' '.join(f'{n}={v}' for n,v in zip(['block_m','block_n','block_k','thread_m','thread_n','n'],k)))")
if [ -n "$best_rec" ] && [ "$best_rec" = "$best_kt" ]; then ok; else bad "best '$best_rec' vs '$best_kt'"; fi

# A cache a killed Kernel Tuner left open (no closing braces, a trailing comma) reads as far as it is whole.
python3 - "$TMP/cache.json" "$TMP/open.json" <<'PY'
import json, sys
c = json.load(open(sys.argv[1]))
body = json.dumps(c, indent="")
open(sys.argv[2], "w").write(body[:-3] + ",")
PY
expect 0 '60 configurations' import "$TMP/open.json" --out "$TMP/imp-open"
# Failures keep Kernel Tuner's names.
python3 - "$TMP/cache.json" "$TMP/fail.json" <<'PY'
import json, sys
c = json.load(open(sys.argv[1]))
k = next(iter(c["cache"]))
c["cache"][k]["time"] = "CompilationFailedConfig"
json.dump(c, open(sys.argv[2], "w"))
PY
expect 0 '' import "$TMP/fail.json" --out "$TMP/imp-fail"
if grep -q '"status":"error","reason":"Kernel Tuner: CompilationFailedConfig"' "$TMP/imp-fail/results.json"; then ok
else bad "a failed configuration"; fi

# A cache as Kernel Tuner writes it (its timestamps, a failed configuration).
expect 0 'import: .*: 3 configurations of vector_add on NVIDIA H100' import "$GB_SRC/tests/data/kt/cache.json" --out "$TMP/vadd"
if grep -q '"block_size_x":"128"},"status":"ok".*"median":28800' "$TMP/vadd/results.json" &&
    grep -q '"status":"error","reason":"Kernel Tuner: RuntimeFailedConfig"' "$TMP/vadd/results.json" &&
    grep -q '"problem_size": \[' "$TMP/vadd/kt-import.json"; then ok; else bad "the vector_add cache"; fi

# Malformed caches: one line, exit 1 (bad data), nothing made.
printf '{"device_name": "x", ' >"$TMP/m1.json"
printf '[1, 2]\n' >"$TMP/m2.json"
printf '{"device_name": "x", "kernel_name": "k", "tune_params_keys": ["a"], "cache": {"1": {"b": 1, "time": 1}}}\n' >"$TMP/m3.json"
printf '{"device_name": "x", "kernel_name": "k", "tune_params_keys": ["a"], "cache": {"2": {"a": 1, "time": 1}}}\n' >"$TMP/m4.json"
printf '{"device_name": "x", "kernel_name": "k", "tune_params_keys": ["a"], "cache": {"1": {"a": 1, "time": "slow"}}}\n' >"$TMP/m5.json"
printf '{"kernel_name": "k", "tune_params_keys": ["a"], "cache": {}}\n' >"$TMP/m6.json"
expect 1 'm1.json: not a Kernel Tuner cache' import "$TMP/m1.json" --out "$TMP/x1"
expect 1 'm2.json: not a Kernel Tuner cache: not a JSON object' import "$TMP/m2.json" --out "$TMP/x2"
expect 1 "m3.json: entry \"1\" has no value of parameter 'a'" import "$TMP/m3.json" --out "$TMP/x3"
expect 1 'm4.json: entry "2": its parameter values read "1"' import "$TMP/m4.json" --out "$TMP/x4"
expect 1 "m5.json: entry \"1\": time 'slow' is neither a number nor a failure name" import "$TMP/m5.json" --out "$TMP/x5"
expect 1 'm6.json: not a Kernel Tuner cache: no device_name' import "$TMP/m6.json" --out "$TMP/x6"
expect 1 'cannot read .*nothere.json' import "$TMP/nothere.json" --out "$TMP/x7"
expect 2 'give --out RUN' import "$TMP/cache.json"
expect 2 'refused' import "$TMP/cache.json" --out "$TMP/imp"
if [ ! -e "$TMP/x1" ] && [ ! -e "$TMP/x4" ] && [ ! -e "$TMP/x7" ]; then ok; else bad "a refused import left a directory"; fi
finish
