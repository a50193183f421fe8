#!/usr/bin/env bash
# CampProf's domain of validity on committed runs: the small-grid pointer
# chase (tests/data/runs/chase-small-grid-fixture, 8 records of the H100
# corpus run) is latency-bound under the H100's ceilings run, and camp
# validate and camp predict say the band does not apply, with the reason,
# instead of a degree; the row sum of the same corpus run (full grids) stays
# inside the domain and gets its degree.
. "$(dirname "$0")/lib.bash"
: "${GB_SRC:?GB_SRC must name the source directory}"
CHASE="$GB_SRC/tests/data/runs/chase-small-grid-fixture"
ROWSUM="$GB_SRC/data/h100/corpus-2026-11-26/rowsum"
MODEL="$GB_SRC/data/h100/camping-2026-11-23/campprof-model.json"
CEIL="$GB_SRC/data/h100/ceilings-2026-11-26"
export PATH="$TMP/nognuplot:$PATH"   # the table, not the charts
mkdir -p "$TMP/nognuplot"
need_python3 || { finish; exit; }

# validate: every configuration outside the domain, each named with its reason.
expect 0 "" camp validate --model "$MODEL" "$CHASE" --ceilings "$CEIL" --out "$TMP/v" --format json
printf '%s' "$OUT" | python3 -c '
import json, sys
rows = json.load(sys.stdin)
assert len(rows) == 4, rows
for r in rows:
    assert r["outside domain"] == r["configurations"] == 2, r
    assert r["why outside"].startswith("latency-bound: "), r
    assert "the grid leaves SMs without a block" in r["why outside"], r
    for k in ("best bound error (%)", "application line error (%)", "degree (median)", "degree min", "degree max"):
        assert r[k] is None, (k, r)
' && ok || bad "validate of the small-grid run: not every configuration outside the domain, or a degree printed"
[ "$(printf '%s\n' "$ERR" | grep -c 'the band does not apply: latency-bound: ')" = 8 ] && ok ||
    bad "validate: not one note per configuration outside the domain"
printf '%s\n' "$ERR" | grep -q 'at 0.97 warps per SM: .*grid 128 blocks on 132 SMs' && ok ||
    bad "validate: the note lacks the achieved warps and the grid"

# The row sum's full grids: inside the domain, with degrees.
expect 0 "" camp validate --model "$MODEL" "$ROWSUM" --ceilings "$CEIL" --out "$TMP/r" --format json
printf '%s' "$OUT" | python3 -c '
import json, sys
rows = json.load(sys.stdin)
assert rows and all(r["outside domain"] == 0 and r["degree (median)"] is not None for r in rows), rows
' && ok || bad "validate of the row sum: a configuration outside the domain, or no degree"

# predict: the measured point of the small grid is not given a degree.
P="$CHASE:corpus-chase/chase:block_size_x=128,chains_per_thread=1"
expect 0 "" camp predict --model "$MODEL" --from-point "$P" --ceilings "$CEIL"
printf '%s\n' "$OUT" | grep -q 'at 4 active warps per SM, 0.97 achieved: THE BAND DOES NOT APPLY: latency-bound: .*grid 32 blocks on 132 SMs' &&
    ok || bad "predict on the small grid does not say the band does not apply, with the reason"
printf '%s\n' "$OUT" | grep -q 'camping degree -\?[0-9]' && bad "predict printed a camping degree outside the domain" || ok
expect 0 "" camp predict --model "$MODEL" --from-point "$P" --ceilings "$CEIL" --format csv
printf '%s\n' "$OUT" | awk -F, 'NR > 1 && ($4 != "" || $5 != "") { bad = 1 } END { exit bad || NR < 2 }' && ok ||
    bad "predict --format csv gave an application time or degree outside the domain"
printf '%s\n' "$ERR" | grep -q '^note: the band does not apply to the measured time: latency-bound: ' && ok ||
    bad "predict --format csv: no note on stderr"
# A row-sum point inside the domain keeps its degree.
expect 0 "" camp predict --model "$MODEL" --ceilings "$CEIL" \
    --from-point "$ROWSUM:corpus-rowsum/tree:block_size_x=256,vector_width=4,rows=4096,cols=4096"
printf '%s\n' "$OUT" | grep -q 'camping degree -\?[0-9]' && ok || bad "predict inside the domain lost its degree"
# --from-point takes the best bound from the measured roofs, as validate does:
# the point's L2 bytes (lts__t_sectors) over the ceilings run's L2 roof, the
# same at every configuration; and the measured configuration's achieved warps.
printf '%s\n' "$OUT" | grep -q "best: the measured roofs (the launch's L2 bytes over the L2 roof, 6.7522 µs" && ok ||
    bad "predict --from-point does not take its best bound from the roofs"
printf '%s\n' "$OUT" | grep -q 'measured: 23.844 µs at 64 active warps per SM (62.1 achieved): camping degree 0.162 ' && ok ||
    bad "predict --from-point: the degree is not the one at the achieved warps under the roof bound"
expect 0 "" camp predict --model "$MODEL" --ceilings "$CEIL" --format csv \
    --from-point "$ROWSUM:corpus-rowsum/tree:block_size_x=256,vector_width=4,rows=4096,cols=4096"
printf '%s\n' "$OUT" | awk -F, 'NR > 1 { n++; if (sprintf("%.4f", $2) != "6.7522") bad = 1 } END { exit bad || n < 2 }' && ok ||
    bad "predict --from-point: the roof best bound is not the same at every configuration"

# The issue's column sum launch: 16 blocks of 256 threads on 132 SMs, one
# thread a column of 4096 rows (hand counts: 128 warps x 4096 4-byte loads,
# one store each). Every configuration keeps 16 x 8 / 132 = 0.97 warps per
# SM or about as few, whatever its occupancy limit: the band is evaluated
# there, so the rows at 1, 2, 4 and 8 active warps (all 0.9697 achieved)
# carry one band.
COLSUM="--gld 4:524288 --gst 4:128 --threads 256 --regs 32 --smem 0 --grid 16"
expect 0 "" camp predict --model "$MODEL" --ceilings "$CEIL" $COLSUM --format csv
printf '%s\n' "$OUT" | awk -F, '$1 == 1 || $1 == 2 || $1 == 4 || $1 == 8 { if (sprintf("%.4f", $7) != "0.9697") bad = 1; b[$2 "," $3]++; n++ }
    END { exit bad || n != 4 || length(b) != 1 }' && ok ||
    bad "predict: the column sum's configurations are not all evaluated at their achieved 0.97 warps per SM"
# The domain rule at its threshold (hand times): the counts' 67125248 bytes
# take 21.74 us at the H100's DRAM roof (3087.09 GB/s); at 90 us they reach
# 24.2% of it, under a quarter, with SMs idle: latency-bound; at 80 us,
# 27.2%: the band applies.
expect 0 "" camp predict --model "$MODEL" --ceilings "$CEIL" $COLSUM --time-ns 90000
printf '%s\n' "$OUT" | grep -q 'measured: 90.000 µs at 8 active warps per SM, 0.97 achieved: THE BAND DOES NOT APPLY: latency-bound: 0.97 achieved warps per SM (grid 16 blocks on 132 SMs) reach 24.2% of the DRAM roof; the grid leaves SMs without a block' &&
    ok || bad "predict on the small-grid column sum does not say the band does not apply, with the reason"
expect 0 "" camp predict --model "$MODEL" --ceilings "$CEIL" $COLSUM --time-ns 80000
printf '%s\n' "$OUT" | grep -q 'measured: 80.000 µs at 8 active warps per SM (0.97 achieved): camping degree ' && ok ||
    bad "predict: the column sum at 27% of the DRAM roof lost its degree"

# An Nsight Compute export with the achieved warps and the level sectors
# (hand values added to the transpose fixture's first launch): the launch's
# own row is evaluated at the measured 40.5 warps per SM, a note names both
# figures (its grid gives 63 of a limit of 64), and the best bound is its
# DRAM bytes, 2 x 2097152 sectors of 32 bytes, over the H200's guide DRAM
# roof (no --ceilings).
M200="$GB_SRC/data/h200/camping-2026-11-21/campprof-model.json"
python3 - "$GB_SRC/tests/data/ncu/transpose-raw.csv" "$TMP/warps.csv" <<'PY'
import sys
src = open(sys.argv[1]).read().splitlines()
add = (("sm__warps_active.avg.per_cycle_active", "warp", "40.5"), ("dram__sectors_read.sum", "sector", "2,097,152"),
       ("dram__sectors_write.sum", "sector", "2,097,152"), ("lts__t_sectors_op_read.sum", "sector", "2,097,152"),
       ("lts__t_sectors_op_write.sum", "sector", "2,097,152"))
rows = [src[2], src[3], src[4]]
out = [r + "".join(',"%s"' % a[k] for a in add) for k, r in enumerate(rows)]
open(sys.argv[2], "w").write("\n".join(out) + "\n")
PY
expect 0 "" camp predict --model "$M200" --from-ncu "$TMP/warps.csv"
printf '%s\n' "$ERR" | grep -q "^note: the launch's measured achieved warps per SM (sm__warps_active.avg.per_cycle_active) are 40.5, its grid gives 63 (occupancy limit 64); the band uses the measured$" &&
    ok || bad "predict: no note when the measured achieved warps differ from the grid's"
printf '%s\n' "$OUT" | grep -q "best: the measured roofs (the launch's DRAM bytes over the DRAM roof, 27.879 µs" && ok ||
    bad "predict --from-ncu: the best bound is not the export's DRAM bytes over the roof"
printf '%s\n' "$OUT" | grep -q 'measured: 61.470 µs at 64 active warps per SM (40.5 achieved): camping degree ' && ok ||
    bad "predict --from-ncu: the measured configuration is not at the measured warps"
expect 0 "" camp predict --model "$M200" --from-ncu "$TMP/warps.csv" --format csv
printf '%s\n' "$OUT" | awk -F, '$1 == 64 { n++; if ($7 != 40.5 || $4 != 61.47 || $6 != "*") bad = 1 } END { exit bad || n != 1 }' &&
    ok || bad "predict --from-ncu: the launch's row is not at the measured warps, or the line misses its start"

# A ceilings run that is not one.
expect 1 "camp predict: --ceilings: .*; give a run of 'gpubound run ceilings'" \
    camp predict --model "$MODEL" --gld 4:100000 --warps 64 --at-warps 32 --time-ns 100000 --ceilings "$TMP/none"
expect 1 "camp validate: --ceilings: .*; give a run of 'gpubound run ceilings'" \
    camp validate --model "$MODEL" "$CHASE" --ceilings "$TMP/none" --out "$TMP/v2"
[ ! -e "$TMP/v2" ] && ok || bad "a refused validate wrote its --out"
# The charts are capped at 32: three runs of 38 applications draw 32 and count 6.
T100="$GB_SRC/data/h100/corpus-2026-11-26/triad"
T200="$GB_SRC/data/h200/corpus-2026-11-26/triad"
expect 0 "" camp validate --model "$MODEL" "$T100" "$T200" "$ROWSUM" --out "$TMP/cap" --format csv
[ "$(printf '%s\n' "$OUT" | tail -n +2 | grep -c .)" = 38 ] && ok || bad "validate of 38 applications: not 38 rows"
printf '%s\n' "$ERR" | grep -q '^note: drew the charts of the first 32 applications; 6 more are in validation.csv without a chart$' &&
    ok || bad "validate did not say how many charts it left out"

# camp detect --from-run: the share of L2 sectors on the busiest slice of
# recorded corpus points (no GPU), against the camping references recorded
# with counters on the same H100 (data/h100/counters-2026-11-23-d/run-camping):
# spread 69673 of 2385847 sectors (2.920%), camped 1180122 of 2506213 (47.09%).
RS100="$GB_SRC/data/h100/corpus-2026-11-26/rowsum"
REFS100="$GB_SRC/data/h100/counters-2026-11-23-d/run-camping"
expect 0 "" camp detect --from-run "$RS100" --point block_size_x=32,vector_width=1,rows=512,cols=65536 \
    --refs "$REFS100" --format csv
[ "$(printf '%s\n' "$OUT" | tail -n +2 | grep -c .)" = 1 ] && ok || bad "detect --point: not one row"
# 80035 of 6338152 sectors on the busiest of 80 slices: 1.263%, not camped.
printf '%s\n' "$OUT" | grep -Eq '^corpus-rowsum/tree block_size_x=32 vector_width=1 rows=512 cols=65536,6338152,80,1\.2627[0-9]*,1\.25,2\.9202[0-9]*,47\.087[0-9]*,"not camped: ' &&
    ok || bad "detect --from-run: the rowsum point's share or the references' are not as recorded"
printf '%s\n' "$ERR" | grep -q "references from $REFS100" && ok || bad "detect does not name its references"
# The camped reference judged against itself: camped on 2 of 80 slices.
expect 0 "" camp detect --from-run "$REFS100" --point pattern=camped --refs "$REFS100" --format csv
printf '%s\n' "$OUT" | grep -q '^camping/read pattern=camped .*,47\.087[0-9]*,1\.25,2\.92[0-9]*,47\.087[0-9]*,"camped on 2 of 80 slices' &&
    ok || bad "detect --from-run: the camped reference is not camped"
# Without references: the shares, and stderr names the run that would give them.
expect 0 "" camp detect --from-run "$RS100"
[ "$(printf '%s\n' "$OUT" | grep -c '^corpus-rowsum/tree ')" -ge 30 ] && ok || bad "detect --from-run: not every rowsum point"
printf '%s\n' "$ERR" | grep -q "no references (no --refs): the shares are not judged; record them on the same GPU with 'gpubound run camping/read --set pattern=spread,camped --set width=4 --set warps=64 --counters'" &&
    ok || bad "detect without --refs does not say which run gives the references"
expect 2 "detect: no measured point of .* has the axes rows=3" camp detect --from-run "$RS100" --point rows=3
expect 2 "detect: --point needs --from-run RUN" camp detect corpus/rowsum --point rows=512
expect 2 "detect: --from-run reads recorded points; it takes no suite/bench" camp detect --from-run "$RS100" transpose/naive
expect 1 "camp detect --from-run: .*camping-fixture has no measured point with the per-slice L2 counters" \
    camp detect --from-run "$GB_SRC/tests/data/runs/camping-fixture"
# Issue 41's column sum, recorded on an H200 (16 blocks of 256 threads on
# 132 SMs): the band does not apply, and the line says why.
H200_MODEL=$GB_SRC/data/h200/camping-2026-11-21/campprof-model.json
expect 0 "the band does not apply to the measured time: latency-bound: 0.97 achieved warps per SM \\(grid 16 blocks on 132 SMs\\)" \
    camp predict --model "$H200_MODEL" --ceilings "$GB_SRC/data/h200/ceilings-2026-11-26" \
    --from-point "$GB_SRC/data/h200/colsum-2026-11-28:colsum/colsum:block_size_x=256,rows=16384,cols=4096"
# The latency rule's warps (hand values): with a full grid, the same
# 64 MiB in 100 us reach 21.7% of the H100's DRAM roof; under the H100
# model's knee of its 4-byte spread reads (27.7 warps per SM) the point is
# latency-bound, above it the band applies.
FULL="--gld 4:524288 --threads 256 --regs 32 --smem 0 --grid 100000 --time-ns 100000"
expect 0 "" camp predict --model "$MODEL" --ceilings "$CEIL" $FULL --at-warps 24
printf '%s\n' "$OUT" | grep -q "THE BAND DOES NOT APPLY: latency-bound: 24 achieved warps per SM (grid 100000 blocks on 132 SMs) reach 21.7% of the DRAM roof; fewer warps than the 27.7 at which the camping suite's spread accesses reach their throughput" &&
    ok || bad "predict: a full grid under the spread reads' knee is not latency-bound"
expect 0 "" camp predict --model "$MODEL" --ceilings "$CEIL" $FULL --at-warps 32
printf '%s\n' "$OUT" | grep -q "measured: 100.00 µs at 32 active warps per SM: camping degree " &&
    ok || bad "predict: a full grid above the spread reads' knee lost its degree"
# An occupancy sweep (corpus/triad/occupancy.json on the H200): its
# occupancy_pad axis, like block_size_*, is a configuration of one
# application, so that each application spans 8 to 62 achieved warps, of
# which those under the knee of the H200's 4-byte spread reads (25.1) and a
# quarter of the DRAM roof are latency-bound; and where one band covers
# every configuration (the corpus triad's block sizes, all at 62 warps), a
# note says the line cannot follow them.
OCC="$GB_SRC/data/h200/corpus-occupancy-2026-11-29/triad"
M200="$GB_SRC/data/h200/camping-2026-11-21/campprof-model.json"
C200="$GB_SRC/data/h200/ceilings-2026-11-26"
expect 0 "" camp validate --model "$M200" "$OCC" --ceilings "$C200" --out "$TMP/o" --format json
printf '%s' "$OUT" | python3 -c '
import json, sys
rows = json.load(sys.stdin)
assert len(rows) == 4, [r["application"] for r in rows]
for r in rows:
    assert "occupancy_pad" not in r["application"] and r["configurations"] == 6, r
    assert r["warps min"] > 7 and r["warps max"] > 60, r
    assert r["time max (us)"] > 1.5 * r["time min (us)"], r
    assert r["outside domain"] == 0 or "the camping suite\x27s spread accesses" in r["why outside"], r
assert sum(r["outside domain"] for r in rows) == 3, [r["outside domain"] for r in rows]
' && ok || bad "validate of the occupancy sweep: occupancy_pad not grouped as a configuration, or its latency-bound warps not judged"
printf '%s\n' "$ERR" | grep -q "at 7.98 warps per SM: the band does not apply: latency-bound: 7.98 achieved warps per SM" &&
    ok || bad "validate of the occupancy sweep: no note on the 8-warp configuration"
# Its chart draws those configurations apart, and the line starts inside the domain.
gp=$(ls "$TMP"/o/campprof-corpus-triad_occupancy_elems_per_thread_1_vector_width_1_*.gp 2>/dev/null | head -n 1)
[ -n "$gp" ] && grep -q "measured, outside the domain: the band does not apply" "$gp" &&
    grep -q "over all starts inside the" "$gp" && ! grep -q "start (7.98 warps)" "$gp" &&
    ok || bad "validate of the occupancy sweep: its chart does not set the configurations outside the domain apart"
printf '%s\n' "$ERR" | grep -q "where the band is one band" && bad "the occupancy sweep noted as one band" || ok
expect 0 "" camp validate --model "$M200" "$GB_SRC/data/h200/corpus-2026-11-26/triad" --ceilings "$C200" --out "$TMP/t" --format json
printf '%s\n' "$ERR" | grep -q "corpus-triad/triad elems_per_thread=1 vector_width=1 n=2097152: every configuration runs at 62.1 to 62.1 achieved warps per SM, where the band is one band" &&
    ok || bad "validate of the corpus triad: no note that one band covers its block sizes"

# Counts and --warps alone give no grid: the latency reason names none (no "grid nan")
expect 0 "" camp predict --model "$M200" --gld 4:100000 --warps 8 --at-warps 4 --time-ns 1000000 --ceilings "$C200"
printf '%s\n' "$OUT$ERR" | grep -q "latency-bound: 4 achieved warps per SM reach 0.3% of the DRAM roof" &&
    ! printf '%s\n' "$OUT$ERR" | grep -q "grid nan" && ok || bad "camp predict --warps: the latency reason names a grid it does not have"

finish
