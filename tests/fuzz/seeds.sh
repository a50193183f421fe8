#!/usr/bin/env bash
# seeds.sh SRC OUT: the seed corpus of every fuzz target, made from the runs,
# models and exports committed under data/ and tests/data/ (and the crafted
# files of tests/fuzz/regress/), one directory per target under OUT. Large
# files are cut to their first lines: a seed is a shape, not a volume.
set -eu
SRC=$1
OUT=$2
mkdir -p "$OUT"/{fuzz_results,fuzz_results_gz,fuzz_run_json,fuzz_model,fuzz_ncu,fuzz_charts,fuzz_spec}
mkdir -p "$OUT"/{fuzz_compare,fuzz_fleet,fuzz_lpbm,fuzz_expr}
seed() { # seed TARGET FILE (stdin: the content), named after the file's path
    local name=${2#"$SRC"/}
    head -c 131072 >"$OUT/$1/$(printf '%s' "$name" | tr -c 'A-Za-z0-9._-' _)"
}
while IFS= read -r f; do
    head -n 40 "$f" | seed fuzz_results "$f"
    head -n 40 "$f" | gzip -9 -n | seed fuzz_results_gz "$f"
done < <(find "$SRC/data" "$SRC/tests/data" -name results.json | sort | awk 'NR % 4 == 1')
while IFS= read -r f; do
    zcat "$f" | head -n 40 | seed fuzz_results "$f"
    # The first lines recompressed, and the stream cut short (a cut .gz).
    zcat "$f" | head -n 40 | gzip -9 -n | seed fuzz_results_gz "$f"
    head -c 4096 "$f" | seed fuzz_results_gz "$f.cut"
done < <(find "$SRC/data" "$SRC/tests/data" -name results.json.gz | sort)
find "$SRC/data" "$SRC/tests/data" -name run.json | sort | awk 'NR % 3 == 1' |
    while IFS= read -r f; do seed fuzz_run_json "$f" <"$f"; done
find "$SRC/data" "$SRC/tests/data" -name 'campprof-model*.json' | sort |
    while IFS= read -r f; do seed fuzz_model "$f" <"$f"; done
find "$SRC/data" "$SRC/tests/data" -name charts.json | sort | awk 'NR % 4 == 1' |
    while IFS= read -r f; do seed fuzz_charts "$f" <"$f"; done
find "$SRC/data" "$SRC/tests/data" -name '*.csv' -path '*ncu*' | sort |
    while IFS= read -r f; do head -n 60 "$f" | seed fuzz_ncu "$f"; done
find "$SRC/data" -name '*.csv.gz' -path '*ncu*' | sort | awk 'NR % 4 == 1' |
    while IFS= read -r f; do zcat "$f" | head -n 60 | seed fuzz_ncu "$f"; done
# Kernel specs: the examples' and the test specs.
find "$SRC/examples" "$SRC/tests/data/specs" -name 'spec.json' 2>/dev/null | sort |
    while IFS= read -r f; do seed fuzz_spec "$f" <"$f"; done
# compare: two runs' records (BASE, a line "@@", NEW), the committed pairs.
for pair in h100/compare-2026-11-23/bw-a:h100/compare-2026-11-23/bw-b \
    h100/compare-2026-11-23/tr-a:h100/compare-2026-11-23/tr-b; do
    a="$SRC/data/${pair%%:*}" b="$SRC/data/${pair#*:}"
    [ -f "$a/results.json" ] && [ -f "$b/results.json" ] || continue
    { head -n 40 "$a/results.json"; echo @@; head -n 40 "$b/results.json"; } | seed fuzz_compare "$a.pair"
    { head -n 40 "$a/results.json"; echo @@; head -n 40 "$a/results.json"; } | seed fuzz_compare "$a.same"
done
# fleet: a fleet run's run.json (its members), a line "@@", its first records.
find "$SRC/data" "$SRC/tests/data" -name run.json | sort | while IFS= read -r f; do
    grep -q '"gpubound-fleet/1"' "$f" || continue
    d=$(dirname "$f")
    { cat "$f"; echo @@; if [ -f "$d/results.json" ]; then head -n 40 "$d/results.json"; else zcat "$d/results.json.gz" | head -n 40; fi; } |
        seed fuzz_fleet "$f"
done
# breakdown: the committed models and the specs the breakdown reads.
find "$SRC/data" "$SRC/tests/data" -name 'lpbm-model.json' | sort | awk 'NR % 2 == 1' |
    while IFS= read -r f; do seed fuzz_lpbm "$f" <"$f"; done
find "$SRC/examples" "$SRC/tests/data/lpbm" -name '*.json' | sort |
    while IFS= read -r f; do seed fuzz_lpbm "$f" <"$f"; done
# expressions: every string of the committed specs that reads as one.
find "$SRC/examples" "$SRC/tests/data/specs" "$SRC/tests/data/lpbm" -name '*.json' | sort |
    python3 -c '
import json, os, re, sys
out = sys.argv[1]
seen = set()
def walk(x):
    if isinstance(x, dict):
        for v in x.values(): walk(v)
    elif isinstance(x, list):
        for v in x: walk(v)
    elif isinstance(x, str) and re.search(r"[-+*/<>=()]", x) and not re.search(r"\.(cu|cuh|json|bin)$", x) and len(x) < 4096:
        seen.add(x)
for f in sys.stdin.read().split():
    try: walk(json.load(open(f)))
    except ValueError: pass
for i, e in enumerate(sorted(seen)):
    open(os.path.join(out, "expr_%03d" % i), "w").write(e)
' "$OUT/fuzz_expr"
# The crafted inputs of the regression tests (tests/fuzz/regress/TARGET/*).
for d in "$SRC"/tests/fuzz/regress/*/; do
    t=$(basename "$d")
    [ -d "$OUT/$t" ] || continue
    for f in "$d"*; do [ -f "$f" ] && seed "$t" "$f" <"$f"; done
done
for d in "$OUT"/*/; do echo "$(basename "$d"): $(ls "$d" | wc -l) seeds"; done
