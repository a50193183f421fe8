#!/usr/bin/env bash
# seeds.sh SRC OUT: the seed corpus of every fuzz target, made from the runs,
# models and exports committed under data/ and tests/data/ (and the crafted
# files of tests/fuzz/regress/), one directory per target under OUT. Large
# files are cut to their first lines: a seed is a shape, not a volume.
set -eu
SRC=$1
OUT=$2
mkdir -p "$OUT"/{fuzz_results,fuzz_results_gz,fuzz_run_json,fuzz_model,fuzz_ncu,fuzz_charts,fuzz_spec}
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
# The crafted inputs of the regression tests (tests/fuzz/regress/TARGET/*).
for d in "$SRC"/tests/fuzz/regress/*/; do
    t=$(basename "$d")
    [ -d "$OUT/$t" ] || continue
    for f in "$d"*; do [ -f "$f" ] && seed "$t" "$f" <"$f"; done
done
for d in "$OUT"/*/; do echo "$(basename "$d"): $(ls "$d" | wc -l) seeds"; done
