#!/usr/bin/env bash
# gpubound roofline and info --ceilings on committed runs: the sgemm examples
# recorded with counters on an H200, the transpose counter run (no flops), and
# the synthetic ceilings fixture (tests/data/runs/ceilings-fixture: made-up
# rates, not a measurement). Roofs, the table in every format, the files of
# --out and the chart, a point above a roof flagged, and bad input.
set -u
source "$(dirname "$0")/lib.bash"
SG="$GB_SRC/data/h200/examples-counters-2026-11-23/sgemm"
TR="$GB_SRC/data/h200/counters-2026-11-23/run-transpose"
CF="$GB_TESTS/data/runs/ceilings-fixture"

# info --ceilings: the fixture's roofs, hand-computed in its README.
expect 0 "^  dram +3000 GB/s" info --ceilings "$CF"
expect 0 "^  fp32 +65340 GFLOP/s" info --ceilings "$CF"
expect 0 "^  l2 +9000 GB/s +ceilings/l2_read" info --ceilings "$CF"
expect 0 "a = 2000 ns, b = 2 blocks/ns" info --ceilings "$CF"
expect 1 "measured no roof: record one with 'gpubound run ceilings" info --ceilings "$TR"

# Without --ceilings: guide figures, labelled so, with what to record.
expect 0 "roofs: guide figures, not measured .*gpubound run ceilings" roofline "$SG"
# Point sgemm/tiled block_size_x=2,n=512 by hand: 268435456 flops in 1002392 ns
# = 267.8 G/s; L1 bytes 12929350272 / 33454.08 GB/s (128 B x 132 SMs x 1980 MHz)
# = 386483 ns bound, / 1002392 ns = 0.3856 of the shared-memory roof.
run_gb roofline "$SG" --format csv
line=$(printf '%s\n' "$OUT" | grep '^"\?sgemm/tiled block_size_x=2,n=512"\?,')
if [ "$RC" = 0 ] && printf '%s' "$line" | grep -q ',smem,0.38555' && printf '%s' "$line" | grep -q ',267.79'; then ok
else bad "sgemm block_size_x=2,n=512: expected smem binding at 0.3856 and 267.8 G/s: $line"; fi
run_gb roofline "$SG" --format json
if [ "$RC" = 0 ] && printf '%s' "$OUT" | python3 -c 'import json,sys; d=json.load(sys.stdin); assert len(d) > 50 and all("binding" in r for r in d)'; then ok
else bad "roofline --format json is not a JSON array of rows with a binding roof"; fi

# With the fixture's roofs (shared memory 20000 GB/s), the fastest sgemm points
# move more L1 bytes per ns than that: flagged, never moved below the roof.
run_gb roofline "$SG" --ceilings "$CF" --other-gpu --format csv
n=$(printf '%s\n' "$OUT" | grep -c 'above measured roof')
if [ "$RC" = 0 ] && [ "$n" -gt 0 ] && printf '%s\n' "$ERR" | grep -q "roofs: measured in"; then ok
else bad "no point flagged above the fixture's shared-memory roof ($n)"; fi
# Every flagged row has a fraction above 1, every other row one at most 1.
if printf '%s\n' "$OUT" | python3 -c '
import csv, sys
rows = list(csv.DictReader(sys.stdin))
assert rows
for r in rows:
    f = float(r["fraction"])
    assert (f > 1) == r["flag"].startswith("above measured roof"), r
'; then ok; else bad "the flag does not follow the fraction"; fi

# Roofs of another kind of GPU are refused unless asked for, and then said.
expect 2 "measured on Synthetic GPU .* and .* on NVIDIA H200: the roofs of one kind of GPU do not bound another" \
    roofline "$SG" --ceilings "$CF"
run_gb roofline "$SG" --ceilings "$CF" --other-gpu --format csv
printf '%s\n' "$ERR" | grep -q "roofs of another GPU (--other-gpu): Synthetic GPU" && ok || bad "--other-gpu is not said: $ERR"
# The H200's own measured roofs (data/h200/ceilings-2026-11-26): no sgemm point lies above them.
run_gb roofline "$SG" --ceilings "$GB_SRC/data/h200/ceilings-2026-11-26" --format csv
if [ "$RC" = 0 ] && ! printf '%s\n' "$OUT" | grep -q 'above measured roof' && printf '%s\n' "$ERR" | grep -q "measured in"; then ok
else bad "the H200 sgemm run under the H200's measured roofs: rc $RC, $(printf '%s\n' "$OUT" | grep -c 'above measured roof') flagged"; fi

# A hot run whose data fits in the L2 (the H200 corpus triad at n = 2 Mi,
# 24 MiB of 60): no DRAM bytes, the DRAM roof binds nothing, said so; at
# n = 8 Mi (96 MiB) the counted DRAM bytes stand and DRAM binds.
run_gb roofline "$GB_SRC/data/h200/corpus-2026-11-26/triad" --ceilings "$GB_SRC/data/h200/ceilings-2026-11-26" --format csv
if [ "$RC" = 0 ] && printf '%s
' "$OUT" | python3 -c '
import csv, sys
rows = [r for r in csv.DictReader(sys.stdin) if "vector_width=1," in r["point"]]
small = [r for r in rows if r["point"].endswith("n=2097152")]
large = [r for r in rows if r["point"].endswith("n=8388608")]
assert small and large, len(rows)
assert all(float(r["dram bytes"]) == 0 and r["binding"] != "dram" for r in small), small[0]
assert all(float(r["dram bytes"]) > 9e7 and r["binding"] == "dram" for r in large), large[0]
' && printf '%s\n' "$ERR" | grep -q "timed hot (samples back to back) with data that fits in the L2 (60 MiB): their DRAM bytes are 0"
then ok; else bad "roofline: a hot run whose data fits in the L2 kept its counted DRAM bytes, or did not say so"; fi

# A hot run partly served from the L2: the H100 corpus dot product at
# n = 4 Mi (two 16 MiB vectors) counted 45 MB from DRAM starting from an
# empty L2 (more than 75% of its 50 MiB, so the hot-cache rule leaves it to
# DRAM), yet ran faster than those bytes at the DRAM roof. Such points take
# the counted bytes less the L2's capacity, are flagged, and none lies above
# a roof; at 16 Mi (128 MiB, 159 MB counted) such points keep the counted
# bytes less the L2's, over 100 MB.
run_gb roofline "$GB_SRC/data/h100/corpus-2026-11-26/dot_atomic" --ceilings "$GB_SRC/data/h100/ceilings-2026-11-26" --format csv
if [ "$RC" = 0 ] && printf '%s\n' "$OUT" | python3 -c '
import csv, sys
rows = list(csv.DictReader(sys.stdin))
part = [r for r in rows if r["flag"] == "partly in L2"]
assert len(part) > 10, len(part)
assert all(float(r["fraction"]) <= 1 for r in rows), [r for r in rows if float(r["fraction"]) > 1][:1]
small = [r for r in part if r["point"].endswith("n=4194304")]
assert small and all(float(r["dram bytes"]) == 0 for r in small), small[0]
large = [r for r in rows if r["point"].endswith("n=16777216")]
assert large and all(float(r["dram bytes"]) > 1e8 for r in large), large[0]
assert any(r["flag"] == "" for r in large) and any(r["flag"] == "partly in L2" for r in large)
' && printf '%s\n' "$ERR" | grep -q "ran faster than the DRAM bytes the counters' replay (from an empty L2) counted allow at the DRAM roof"
then ok; else bad "roofline: hot points faster than their counted DRAM bytes allow stay above the DRAM roof, or are not said"; fi

# Tensor-core work placed on the default FP32 pipe runs above that roof: the
# flag says the operations' pipe may be another; with --pipe tc_fp16 none is.
run_gb roofline "$GB_SRC/data/h200/corpus-2026-11-26/gemm_tc" --ceilings "$GB_SRC/data/h200/ceilings-2026-11-26" --format csv
printf '%s\n' "$OUT" | grep -q 'above measured roof (another pipe? --pipe)' && ok || bad "gemm_tc on the FP32 pipe is not flagged as another pipe's work"
run_gb roofline "$GB_SRC/data/h200/corpus-2026-11-26/gemm_tc" --ceilings "$GB_SRC/data/h200/ceilings-2026-11-26" --pipe tc_fp16 --format csv
if [ "$RC" = 0 ] && ! printf '%s\n' "$OUT" | grep -q 'above measured roof'; then ok
else bad "gemm_tc on the tensor pipe's roof: rc $RC, still flagged above a roof"; fi

# No counters, no flops: the DRAM roof only, said so; no chart to draw.
expect 0 "points have no counters: placed from the spec's bytes and flops, with the DRAM roof only" \
    roofline "$GB_TESTS/data/runs/bandwidth-fixture"

# --out: table, report and chart; the run read is left alone.
before=$(ls "$SG" | sort | tr '\n' ' ')
run_gb roofline "$SG" --ceilings "$CF" --other-gpu --out "$TMP/rl"
if [ "$RC" = 0 ] && [ -s "$TMP/rl/roofline.csv" ] && grep -q "roofline.svg" "$TMP/rl/report.md" &&
    grep -q "roofs: measured in" "$TMP/rl/report.md" && [ -s "$TMP/rl/roofline.gp" ]; then ok
else bad "roofline --out did not write roofline.csv, report.md and the chart"; fi
if grep -q "above a measured roof" "$TMP/rl/roofline.gp" && grep -q "L1/shared roof (20000 GB/s)" "$TMP/rl/roofline.gp" &&
    grep -q "logscale x" "$TMP/rl/roofline.gp" && grep -q "logscale y" "$TMP/rl/roofline.gp"; then ok
else bad "the chart lacks the flagged points, the measured roofs or its log axes"; fi
[ "$before" = "$(ls "$SG" | sort | tr '\n' ' ')" ] && ok || bad "roofline wrote into the run it read"
run_gb roofline "$TR" --out "$TMP/tr"
if [ "$RC" = 0 ] && [ -s "$TMP/tr/report.md" ] && [ ! -e "$TMP/tr/roofline.gp" ] && printf '%s' "$ERR" | grep -q "no chart"; then ok
else bad "a run without flops: table and report, no chart, and a line saying why"; fi

# Bad input: one line, exit 2 or 1.
expect 2 "give the run directory" roofline
expect 2 "--pipe takes fp32" roofline "$SG" --pipe quantum
expect 2 "--format takes table, csv or json" roofline "$SG" --format xml
expect 2 "--out .* lies inside the run .*, which this command only reads" roofline "$SG" --out "$SG"
expect 1 "" roofline "$TMP/nowhere"
expect 1 "measured no roof" roofline "$SG" --ceilings "$TR"
# --out is staged: links planted at the output names are replaced, never
# written through, and the files they point to keep their bytes.
mkdir -p "$TMP/rl-links"
printf 'keep\n' >"$TMP/victim"
for f in roofline.csv roofline.svg roofline.gp report.md; do ln -s "$TMP/victim" "$TMP/rl-links/$f"; done
run_gb roofline "$SG" --ceilings "$GB_SRC/data/h200/ceilings-2026-11-26" --out "$TMP/rl-links"
if [ "$RC" = 0 ] && [ "$(cat "$TMP/victim")" = keep ] && [ ! -L "$TMP/rl-links/roofline.csv" ] &&
    [ ! -L "$TMP/rl-links/report.md" ] && [ -s "$TMP/rl-links/roofline.csv" ]; then ok
else bad "roofline --out wrote through a planted link or left it (rc $RC, victim '$(cat "$TMP/victim")')"; fi

finish
