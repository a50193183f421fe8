#!/usr/bin/env bash
# CampProf's application line with the kernel's own knee (the default, and
# --knee kernel) on the committed H200 occupancy sweep of the corpus triad:
# its PTX keeps two loads in flight a thread (8 bytes as floats, 32 as
# float4s), so its knee is the camping suite's product of knee and bytes in
# flight over 8 or 32; the line from starts inside the band then follows
# the measured times across 8 to 62 warps per SM within 10%, where the
# suite's knee (--knee suite) missed the float sweeps by over 10%. A model
# without knees keeps the suite's line, with a note, and so does a kernel
# whose global atomics are a quarter of its loads or more. A bad --knee,
# and --in-flight with --knee suite, are usage errors.
. "$(dirname "$0")/lib.bash"
: "${GB_SRC:?GB_SRC must name the source directory}"
RUN="$GB_SRC/data/h200/corpus-occupancy-2026-11-29/triad"
MODEL="$GB_SRC/data/h200/camping-2026-11-21/campprof-model.json"
CEIL="$GB_SRC/data/h200/ceilings-2026-11-26"
export PATH="$TMP/nognuplot:$PATH"   # the table, not the charts
mkdir -p "$TMP/nognuplot"
need_python3 || { finish; exit; }

expect 0 "" camp validate --model "$MODEL" "$RUN" --ceilings "$CEIL" --out "$TMP/k" --format json --knee kernel
printf '%s' "$OUT" | python3 -c '
import json, sys
rows = json.load(sys.stdin)
assert len(rows) == 4, rows
for r in rows:
    vec = " vector_width=4 " in r["application"] + " "
    assert r["in flight min (bytes)"] == r["in flight max (bytes)"] == (32 if vec else 8), r
    k = r["kernel knee min"]
    assert k == r["kernel knee max"] and 5 < k < 100, r
    assert r["line error, starts inside (%)"] <= 10, r
knees = sorted(r["kernel knee min"] for r in rows)
assert abs(knees[-1] / knees[0] - 4) < 1e-9, knees   # four times the bytes, a quarter of the warps
' && ok || bad "validate --knee kernel: not the triad's bytes in flight, or a line over 10%"
KERNEL_ROWS="$OUT"

expect 0 "" camp validate --model "$MODEL" "$RUN" --ceilings "$CEIL" --out "$TMP/s" --format json --knee suite
printf '%s' "$OUT" | python3 -c '
import json, sys
rows = json.load(sys.stdin)
assert all(r["kernel knee min"] is None for r in rows), rows
assert max(r["line error, starts inside (%)"] for r in rows) > 10, rows
' && ok || bad "validate --knee suite: not the suite's knee"
expect 0 "" camp validate --model "$MODEL" "$RUN" --ceilings "$CEIL" --out "$TMP/d" --format json
[ "$OUT" = "$KERNEL_ROWS" ] && ok || bad "validate without --knee: not the kernel's own knee (the default)"

# A model whose form has no knee (the paper's) cannot give the product: the
# lines keep the suite's shape, and a note says why.
expect 0 "" camp fit "$GB_SRC/data/h200/camping-2026-11-21" --form paper --model "$TMP/paper.json"
expect 0 "" camp validate --model "$TMP/paper.json" "$RUN" --ceilings "$CEIL" --out "$TMP/p" --format json --knee kernel
printf '%s\n' "$ERR" | grep -q "^note: the kernel's own knee: the camping suite's loads in flight could not be read (the model's spread reads have no knee" &&
    ok || bad "validate --knee kernel with a knee-less model: no note"
printf '%s' "$OUT" | python3 -c '
import json, sys
assert all(r["kernel knee min"] is None for r in json.load(sys.stdin))
' && ok || bad "validate --knee kernel with a knee-less model gave a kernel knee"

# A kernel whose global atomics are a quarter or more of its global loads
# keeps the suite's knee, application by application (the median share of
# its configurations): the held-out group-by (an atomic for every two
# loads, by the source analysis) does, with a note naming the share, and so
# does the held-out scatter-add, whose atomics the analysis cannot count
# (the loop's trip count depends on the block); of the corpus dot product
# (an atomic per warp or per block, after its loads) only the application
# whose counters show 0.77 atomics a load keeps it, the others take their
# own knee.
GROUPBY="$GB_SRC/data/h200/corpus-heldout19-2026-11-30/groupby"
expect 0 "" camp validate --model "$MODEL" "$GROUPBY" --ceilings "$CEIL" --out "$TMP/gb" --format json --knee kernel
printf '%s\n' "$ERR" | grep -q "^note: 48 configurations keep the camping suite's knee in the application line: k1024's kernel issues 0.5 global atomic or reduction warp instructions per global load (the source analysis; at 0.25 or more" &&
    ok || bad "validate --knee kernel on the group-by: no note of its atomics"
printf '%s' "$OUT" | python3 -c '
import json, sys
rows = json.load(sys.stdin)
assert rows and all(r["kernel knee min"] is None for r in rows), rows
' && ok || bad "validate --knee kernel on the group-by gave a kernel knee"
SCATTER="$GB_SRC/data/h200/corpus-heldout-2026-11-26/scatter_add"
expect 0 "" camp validate --model "$MODEL" "$SCATTER" --ceilings "$CEIL" --out "$TMP/sa" --format json --knee kernel
printf '%s\n' "$ERR" | grep -q "^note: 32 configurations keep the camping suite's knee in the application line: buckets4m's kernel has global atomics or reductions (5 in its PTX) that could not be counted" &&
    ok || bad "validate --knee kernel on the scatter-add: no note of its uncounted atomics"
DOT="$GB_SRC/data/h200/corpus-2026-11-26/dot_atomic"
expect 0 "" camp validate --model "$MODEL" "$DOT" --ceilings "$CEIL" --out "$TMP/dot" --format json --knee kernel
printf '%s\n' "$ERR" | grep -q "^note: 4 configurations keep the camping suite's knee in the application line: dot's kernel issues 0.773 global atomic or reduction warp instructions per global load (its counters" &&
    ok || bad "validate --knee kernel on the dot product: not one application's 4 configurations kept"
printf '%s' "$OUT" | python3 -c '
import json, sys
rows = json.load(sys.stdin)
kept = [r["application"] for r in rows if r["kernel knee min"] is None]
assert kept == ["corpus-dot-atomic/dot grid_blocks=4224 per_warp=1 n=4194304"], kept
assert len(rows) == 20, len(rows)
' && ok || bad "validate --knee kernel on the dot product: the wrong applications kept the suite's knee"

expect 2 "--knee takes suite or kernel, not 'own'" camp validate --model "$MODEL" "$RUN" --knee own
expect 2 "--in-flight .*--knee suite" camp predict --model "$MODEL" --gld 4:1000 --threads 256 --smem 0 --in-flight 8 --knee suite

# The model without knees, on runs of the camping suite alone (no point with
# a knee of its own) and with counts that carry no loads in flight: no note.
expect 0 "" camp validate --model "$TMP/paper.json" "$GB_SRC/data/h200/camping-2026-11-21" --out "$TMP/pc" --format json
printf '%s\n' "$ERR" | grep -q "knee" && bad "validate of the camping suite with a knee-less model: a note about knees: $ERR" || ok
expect 0 "" camp predict --model "$TMP/paper.json" --gld 4:1000 --warps 48
printf '%s\n' "$ERR" | grep -q "knee" && bad "predict without loads in flight, knee-less model: a note about knees: $ERR" || ok

# A point of the camping suite itself takes the suite's shape, with no note.
CP="$GB_SRC/data/h200/counters-2026-11-23-e/run-camping:camping/read:pattern=camped,width=4,warps=64"
expect 0 "" camp predict --model "$MODEL" --from-point "$CP" --warps 64
printf '%s\n' "$ERR" | grep -q "loads in flight\|knee" && bad "predict --from-point on the camping suite: a note about knees: $ERR" || ok

P="$RUN:corpus-triad/occupancy:elems_per_thread=1,vector_width=4,occupancy_pad=0"
for knee in "" "--knee kernel"; do
    # shellcheck disable=SC2086 # the option's two words
    expect 0 "line: the kernel's own knee at [0-9.]+ warps per SM \(32 bytes in flight a thread" \
        camp predict --model "$MODEL" --ceilings "$CEIL" --from-point "$P" $knee
done
expect 0 "line: the kernel's own knee at [0-9.]+ warps per SM \(8 bytes in flight a thread" \
    camp predict --model "$MODEL" --ceilings "$CEIL" --from-point "$P" --in-flight 8
expect 0 "" camp predict --model "$MODEL" --ceilings "$CEIL" --from-point "$P" --knee suite
printf '%s\n' "$OUT" | grep -q "kernel's own knee" && bad "predict --knee suite used the kernel's knee" || ok
finish
