#!/usr/bin/env bash
# Where CampProf's commands stop giving numbers, on the committed runs:
# another GPU's ceilings run is refused as roofline and report refuse it;
# the paper form's times <= 0 at few warps are given as no time, never as
# a negative one, in camp predict and camp validate; and camp fit says
# when a knee lies at the edge of its search (the H100's camped 16-byte
# stores, whose times grow in proportion to the warps from 1 on).
. "$(dirname "$0")/lib.bash"
: "${GB_SRC:?GB_SRC must name the source directory}"
export PATH="$TMP/nognuplot:$PATH"   # the tables, not the charts
mkdir -p "$TMP/nognuplot"
need_python3 || { finish; exit; }
M200="$GB_SRC/data/h200/camping-2026-11-21/campprof-model.json"
M100="$GB_SRC/data/h100/camping-2026-11-23/campprof-model.json"
C100="$GB_SRC/data/h100/ceilings-2026-11-26"
C200="$GB_SRC/data/h200/ceilings-2026-11-26"
POINT="$GB_SRC/data/h200/corpus-2026-11-26/triad:corpus-triad/triad:block_size_x=256,elems_per_thread=4,vector_width=4,n=8388608"

# ---- another GPU's ceilings run: one line, exit 2, nothing written ----
OTHER="was measured on NVIDIA H100 80GB HBM3 and the model .* on NVIDIA H200: the roofs of one kind of GPU do not bound another"
expect 2 "camp predict: --ceilings: .*$OTHER" \
    camp predict --model "$M200" --from-point "$POINT" --warps 64 --ceilings "$C100"
expect 2 "camp predict: --ceilings: .*$OTHER" \
    camp predict --model "$M200" --gld 4:1179648 --warps 64 --at-warps 32 --time-ns 223920 --ceilings "$C100"
expect 2 "camp validate: --ceilings: .*$OTHER" \
    camp validate --model "$M200" "$GB_SRC/data/h200/corpus-2026-11-26/triad" --ceilings "$C100" --out "$TMP/v"
[ ! -e "$TMP/v" ] && ok || bad "a validate refused for another GPU's ceilings wrote its --out"
expect 2 "was measured on NVIDIA H200 and the model .* on NVIDIA H100 80GB HBM3: the roofs of one kind of GPU do not bound another" \
    camp validate --model "$M100" "$GB_SRC/data/h100/corpus-2026-11-26/rowsum" --ceilings "$C200" --out "$TMP/v"
# The same GPU's stays accepted.
expect 0 "" camp predict --model "$M200" --from-point "$POINT" --warps 64 --ceilings "$C200"

# ---- the paper form: no time where its bounds are <= 0 ----
expect 0 "" camp fit "$GB_SRC/data/h200/camping-2026-11-21" --form paper --out "$TMP/paper"
MP="$TMP/paper/campprof-model.json"
EX=(--gld 4:1179648 --gst 4:1179648 --warps 64 --at-warps 32 --time-ns 223920)
expect 0 "" camp predict --model "$MP" "${EX[@]}" --format csv
printf '%s\n' "$OUT" | python3 -c '
import csv, sys
rows = list(csv.DictReader(sys.stdin))
assert len(rows) == 64, len(rows)
times = ("best (µs)", "worst (µs)", "application (µs)")
for r in rows:
    w = int(r["active warps"])
    if w <= 14:   # spread > 0 from 11, camped from 15 warps: no time below
        assert all(r[k] == "" for k in times) and r["degree"] == "", r
        assert r["no time"].startswith("outside the model" + chr(39) + "s range"), r
    else:
        assert all(float(r[k]) > 0 for k in times) and r["no time"] == "", r
' && ok || bad "predict --form paper: a negative time, or rows 1-14 not left without a time"
printf '%s\n' "$ERR" | grep -qx "note: the paper form's bounds are > 0 at 15-64 active warps per SM only; the 14 configurations at 1-14 lie outside its range and get no time" &&
    ok || bad "predict: no one-line note naming the range where the bounds are > 0"
expect 0 "" camp predict --model "$MP" "${EX[@]}" --format json
printf '%s' "$OUT" | python3 -c '
import json, sys
rows = json.load(sys.stdin)
assert rows[0]["best (µs)"] is None and rows[0]["application (µs)"] is None and rows[0]["no time"], rows[0]
assert all(v is None or not isinstance(v, float) or v > 0 for r in rows for k, v in r.items() if "µs" in k)
' && ok || bad "predict --format json: no null and reason where the form has no time"
expect 0 "" camp predict --model "$MP" "${EX[@]}"
printf '%s\n' "$OUT" | grep -q '^  range: the paper form.s bounds are > 0 at 15-64 active warps per SM only;$' && ok ||
    bad "predict: the header does not say where the form times"
printf '%s\n' "$OUT" | grep -Eq -- '(^| )-[0-9]' && bad "predict printed a negative number" || ok
# Measured where the form has no time: no degree, no band claimed.
expect 0 "" camp predict --model "$MP" --gld 4:1179648 --gst 4:1179648 --warps 64 --at-warps 8 --time-ns 223920
printf '%s\n' "$OUT" | grep -q 'at 8 active warps per SM, 8 achieved: THE BAND DOES NOT APPLY: outside the model.s range: its paper form.s bounds are <= 0 at 8 achieved warps per SM' &&
    ok || bad "predict at 8 warps: not said to lie outside the model's range"
printf '%s\n' "$OUT" | grep -Eq 'camping degree -?[0-9]|inside the band|OUTSIDE THE BAND' && bad "predict at 8 warps claimed a degree or a band" || ok
# validate: the configurations out of range are left out, with one note each application.
expect 0 "" camp validate --model "$MP" "$GB_SRC/data/h200/camping-2026-11-21" --out "$TMP/pv" --format json
printf '%s' "$OUT" | python3 -c '
import json, sys
rows = json.load(sys.stdin)
assert len(rows) == 4, rows
for r in rows:
    assert r["outside domain"] == 14 and r["why outside"].startswith("outside the model" + chr(39) + "s range"), r
    assert r["warps min"] == 15, r
' && ok || bad "validate --form paper: the 14 configurations out of range are not left out"
[ "$(printf '%s\n' "$ERR" | grep -c '^note: .*: 14 of 40 configurations (1 to 14 achieved warps per SM) lie outside the model.s range')" = 4 ] &&
    ok || bad "validate: not one note per application for the configurations out of range"

# ---- knees at the edge of the search ----
expect 0 "" camp fit "$GB_SRC/data/h100/camping-2026-11-23" --model "$TMP/h100.json"
printf '%s\n' "$OUT" | grep -q '^knee:b16 .* knee at the search.s edge: not placed$' && ok ||
    bad "fit: the camped 16-byte stores' knee is not marked in the table"
printf '%s\n' "$OUT" | grep -q '^  note: knee:b16 lies at the low edge of the knee search (0.05 warps per SM, below the fewest measured, 1):$' &&
    ok || bad "fit: no note on the knee at the low edge"
python3 - "$TMP/h100.json" <<'PY' && ok || bad "the model marks a knee at the edge other than the camped 16-byte stores'"
import json, sys
m = json.load(open(sys.argv[1]))
edge = [(e["op"], e["pattern"], t["term"]) for e in m["equations"] for t in e["terms"] if t.get("knee_at_edge")]
assert edge == [("write", "camped", "knee:b16")], edge
PY
expect 0 "" camp fit "$GB_SRC/data/h100/camping-2026-11-23" --model "$TMP/h100b.json" --format csv
[ "$(printf '%s\n' "$OUT" | grep -c "^write,camped,[a-z]*,knee:b16,.*,knee at the search's edge: not placed$")" = 2 ] && ok ||
    bad "fit --format csv: the knee at the edge is not in the note column"
# The H200's knees all lie inside the search: no note, no field.
expect 0 "" camp fit "$GB_SRC/data/h200/camping-2026-11-21" --model "$TMP/h200.json"
printf '%s\n' "$OUT" | grep -q 'edge' && bad "fit of the H200: a knee said to lie at the edge" || ok
grep -q knee_at_edge "$TMP/h200.json" && bad "the H200's model marks a knee at the edge" || ok
finish
