#!/usr/bin/env bash
# breakdown's resources form, --ceilings, --predict and --on on committed
# corpus runs (data/h100 and data/h200 corpus-2026-11-26, recorded with
# counters), and the honesty rule on the committed all-absent case.
set -u
source "$(dirname "$0")/lib.bash"
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
fails=0
check() { if ! eval "$2"; then echo "FAIL: $1"; fails=$((fails + 1)); fi; }
R1="$GB_SRC/data/h100/corpus-2026-11-26/triad"
R2="$GB_SRC/data/h200/corpus-2026-11-26/triad"
C1="$GB_SRC/data/h100/ceilings-2026-11-26"
C2="$GB_SRC/data/h200/ceilings-2026-11-26"
AX=block_size_x=256,elems_per_thread=2,vector_width=1,n=8388608
NEW=block_size_x=384,elems_per_thread=3,vector_width=1,n=8388608

# the resources form by default (every record has its counters), measured roofs
"$GPUBOUND" breakdown "$R1" --out "$T/a" --no-chart --ceilings "$C1" --predict "$AX" \
    --predict "$NEW" >"$T/out" 2>"$T/err"
rc=$?
check "resources fit: exit 0 (got $rc: $(cat "$T/err"))" '[ $rc -eq 0 ]'
check "the resources form by default" 'grep -q "^corpus-triad/triad, resources form: t = ((a1\*ATOM)^p + (a2\*SYNC)^p + (a3\*DRAM)^p" "$T/out"'
check "the roofs named" 'grep -q "^roofs: measured by .*ceilings-2026-11-26" "$T/out"'
check "the model file keeps the roofs" 'grep -q "\"dram_bytes_per_ns\"" "$T/a/lpbm-model.json"'
r2=$(sed -n 's/^R^2 \([0-9.]*\),.*/\1/p' "$T/out")
check "triad is explained (R^2 $r2 >= 0.95)" 'awk -v r="$r2" "BEGIN{exit !(r >= 0.95)}"'
# --predict at a measured configuration: the measured time inside the interval
line=$(grep "^triad  *block_size_x=256 elems_per_thread=2 vector_width=1  *n=8388608 " "$T/out")
check "--predict at a measured configuration says so" 'printf "%s" "$line" | grep -q "measured: 38.26 us"'
read -r pred lo hi <<<"$(printf '%s' "$line" | awk '{print $6, $7, $8}')"
check "its interval holds the prediction and the measured 38.26 us ($lo $pred $hi)" \
    'awk -v p="$pred" -v l="$lo" -v h="$hi" "BEGIN{exit !(l <= p && p <= h && l <= 38.26 && 38.26 <= h)}"'
check "--predict at an unmeasured configuration: less certain" \
    'grep "block_size_x=384 elems_per_thread=3" "$T/out" | grep -q "not measured; counters modelled (spread [0-9]*%): less certain"'
check "the terms named" 'grep "block_size_x=384 elems_per_thread=3" "$T/out" | grep -q "DRAM [0-9]*%, L2 [0-9]*%"'
# the guide's roofs without --ceilings, said so
"$GPUBOUND" breakdown "$R1" --out "$T/g" --no-chart >"$T/out" 2>&1
check "no --ceilings: the guide's figures, said so" 'grep -q "^roofs: the guide.s theoretical figures for NVIDIA H100" "$T/out"'
# --predict at a problem size no configuration was measured at: the interval is
# widened by the fit's own error across its two sizes, each predicted from the other
MID=block_size_x=256,elems_per_thread=2,vector_width=1,n=4194304
"$GPUBOUND" breakdown "$R1" --out "$T/mid" --no-chart --ceilings "$C1" --predict "$MID" >"$T/out" 2>"$T/err"
line=$(grep "^triad  *block_size_x=256 elems_per_thread=2 vector_width=1  *n=4194304 " "$T/out")
check "--predict at an unmeasured size: the interval widened across sizes" \
    'printf "%s" "$line" | grep -q "a problem size not fitted: interval widened by the fit.s own error across its sizes (x/[0-9.]*)"'
read -r pred lo hi <<<"$(printf '%s' "$line" | awk '{print $6, $7, $8}')"
x=$(printf '%s' "$line" | sed -n 's/.*(x\/\([0-9.]*\)).*/\1/p')
check "its interval spans at least the widening ($lo $pred $hi, x/$x)" \
    'awk -v p="$pred" -v l="$lo" -v h="$hi" -v x="$x" "BEGIN{exit !(x > 1 && l <= p / x * 1.001 && h >= p * x * 0.999)}"'
# bad --predict: a missing axis, an unknown one, not a number
for bad in block_size_x=256 "$AX,foo=2" "${AX/n=8388608/n=big}"; do
    "$GPUBOUND" breakdown "$R1" --out "$T/b" --no-chart --predict "$bad" >/dev/null 2>"$T/err"
    rc=$?
    check "--predict $bad: exit 2 (got $rc)" '[ $rc -eq 2 ] && [ "$(wc -l <"$T/err")" -eq 1 ]'
done
# one that is not AXIS=number is refused before anything is fitted or printed
"$GPUBOUND" breakdown "$R1" --out "$T/b2" --no-chart --predict "${AX/n=8388608/n=big}" >"$T/out" 2>"$T/err"
rc=$?
check "--predict n=big: refused before the fit (exit $rc, $(wc -c <"$T/out") bytes out)" \
    '[ $rc -eq 2 ] && [ ! -s "$T/out" ] && [ ! -e "$T/b2" ]'
# a launch the kernel cannot run (a negative block; a block of 2048 threads)
for bad in "${AX/block_size_x=256/block_size_x=-5}" "${AX/block_size_x=256/block_size_x=2048}"; do
    "$GPUBOUND" breakdown "$R1" --out "$T/b3" --no-chart --predict "$bad" >/dev/null 2>"$T/err"
    rc=$?
    check "--predict $bad: exit 2 (got $rc), the launch refused" \
        '[ $rc -eq 2 ] && [ "$(wc -l <"$T/err")" -eq 1 ] && grep -q "give axis values the kernel can run at" "$T/err"'
done
# a run of one problem size: its records at n=2097152 only (in L2, hot), so that
# DRAM has no work at any point: a floor at its roof; and --predict at another
# n is refused, nothing saying how the counters change with n
mkdir -p "$T/one" && cp -r "$R1/spec" "$R1/run.json" "$T/one/"
python3 - "$R1" "$T/one/results.json" <<'PY'
import gzip, json, os, sys
p = os.path.join(sys.argv[1], "results.json")
recs = json.load(gzip.open(p + ".gz", "rt") if os.path.exists(p + ".gz") else open(p))
json.dump([r for r in recs if str(r["axes"].get("n")) == "2097152"], open(sys.argv[2], "w"))
PY
"$GPUBOUND" breakdown "$T/one" --out "$T/o" --no-chart --ceilings "$C1" >"$T/out" 2>"$T/err"
rc=$?
check "one size: exit 0 (got $rc: $(cat "$T/err"))" '[ $rc -eq 0 ]'
check "one size in L2: DRAM is a floor at its roof" 'grep -q "^DRAM  *no work fitted: a floor at its roof" "$T/out"'
check "the model file says so" 'python3 -c "import json,sys; c=[c for c in json.load(open(sys.argv[1]))[\"models\"][0][\"coefficients\"] if c[\"term\"]==\"DRAM\"][0]; sys.exit(not (c[\"floor_at_roof\"] and c[\"estimate\"]==1 and not c[\"present\"]))" "$T/o/lpbm-model.json"'
"$GPUBOUND" breakdown "$T/one" --out "$T/o2" --no-chart --ceilings "$C1" --predict "$AX" >/dev/null 2>"$T/err"
rc=$?
# (the copy's run.json counts every record of the run, which a warning says)
check "--predict at an n never measured: exit 2 (got $rc), one error line" \
    '[ $rc -eq 2 ] && [ "$(grep -c "^gpubound: " "$T/err")" -eq 1 ]'
check "--predict at an n never measured: says why" 'grep -q "every measured configuration of triad has n=2097152, so nothing says how its counters change with n" "$T/err"'

# ceilings of another GPU only: refused
"$GPUBOUND" breakdown "$R1" --out "$T/c" --no-chart --ceilings "$C2" >/dev/null 2>"$T/err"
rc=$?
check "--ceilings of another GPU: exit 2 (got $rc)" '[ $rc -eq 2 ] && grep -q "no --ceilings run was measured on NVIDIA H100" "$T/err"'

# fitted on the H200, predicting the H100 from its roofs
"$GPUBOUND" breakdown "$R2" --out "$T/on" --no-chart --ceilings "$C2" --ceilings "$C1" --on "$R1" \
    >"$T/out" 2>"$T/err"
rc=$?
check "--on: exit 0 (got $rc: $(cat "$T/err"))" '[ $rc -eq 0 ]'
check "--on: the comparison printed" 'grep -q "predicting .*corpus-2026-11-26/triad (NVIDIA H100 80GB HBM3, roofs measured) with these coefficients: 64 configurations, median |error| [0-9.]*%" "$T/out"'
med=$(python3 -c "import json,sys; print(json.load(open(sys.argv[1]))['models'][0]['on']['median_abs_rel_error'])" "$T/on/lpbm-model.json")
check "--on: the model file's median ($med) under 20%" 'awk -v m="$med" "BEGIN{exit !(m < 0.20)}"'

# the honesty rule on an all-absent case: the committed transpose run with
# the tiled kernel's call of transpose_tile (all its work) taken out of the
# run's copy of the source, so that the formula form has no term the
# source analysis can count
cp -r "$GB_SRC/data/h100/corpus-2026-11-26/transpose" "$T/tr"
src="$T/tr/spec/corpus-transpose/transpose.cu"
sed -i 's/transpose_tile<0>(t, out, in, size);//' "$src"
# the copy's run.json records the edited source's hash (else it is refused)
old=$(sha256sum "$GB_SRC/data/h100/corpus-2026-11-26/transpose/spec/corpus-transpose/transpose.cu" | cut -d' ' -f1)
sed -i "s/$old/$(sha256sum "$src" | cut -d' ' -f1)/" "$T/tr/run.json"
"$GPUBOUND" breakdown "$T/tr" --bench tiled --form formula \
    --out "$T/t" --no-chart >"$T/out" 2>"$T/err"
rc=$?
check "all absent: exit 4 (got $rc)" '[ $rc -eq 4 ]'
check "all absent: said so" 'grep -q "^corpus-transpose/tiled: the model does not explain this kernel (every term is absent or fitted at zero)" "$T/out"'
check "all absent: no term named, no advice" '! grep -q "dominates:" "$T/out" && ! grep -q "is what helps" "$T/out"'
# the hot-cache rule weighs the buffers' bytes: the Adam step's 2 Mi parameters are four
# float buffers (32 MiB, inside 75% of the H200's L2) though the counter pass saw it move
# more than that from DRAM (each line read and written back): no DRAM time on them
AD="$GB_SRC/data/h200/corpus-heldout8-2026-11-29/adam"
"$GPUBOUND" breakdown "$AD" --out "$T/ad" --no-chart --format json --ceilings "$C2" >/dev/null 2>"$T/err"
rc=$?
check "adam: written (got $rc: $(cat "$T/err"))" '[ $rc -eq 0 ] || [ $rc -eq 4 ]'
check "adam: the small size's footprint is its four buffers, and no DRAM term" 'python3 - "$T/ad/lpbm-model.json" <<'"'"'PY'"'"'
import json, sys
m = [x for x in json.load(open(sys.argv[1]))["models"] if x["form"] == "resources"][0]
small = [p for p in m["points"] if p["problem"] == "nparam=2097152"]
big = [p for p in m["points"] if p["problem"] == "nparam=16777216"]
assert len(small) == 24 and len(big) == 24
assert all(p["footprint_bytes"] == 4 * 2097152 * 4 for p in small), small[0]["footprint_bytes"]
assert all(p["predictors"]["DRAM"] == 0 for p in small)
assert all(p["predictors"]["DRAM"] > 0 for p in big)
PY'
# at a configuration not measured, the counts modelled along axes with 0 (a flag: the
# histogram's skew and method) tell 0 from 1, and the interval widened by their spread
# stays above 0: the 4096-bin histogram (a camped bench) at 2 keys a thread
H4="$GB_SRC/data/h200/corpus-heldout21-2026-11-30/hist4k"
"$GPUBOUND" breakdown "$H4" --ceilings "$C2" --out "$T/h4" --no-chart --format csv \
    --predict block_size_x=256,ept=2,method=0,skew=1,nelem=7864320 \
    --predict block_size_x=256,ept=2,method=0,skew=0,nelem=7864320 >"$T/h4.csv" 2>"$T/err"
rc=$?
check "histogram --predict: written (got $rc: $(cat "$T/err"))" '[ $rc -eq 0 ]'
check "histogram --predict: skewed keys slower than spread ones, every bound above 0" 'python3 - "$T/h4.csv" <<'"'"'PY'"'"'
import csv, sys
rows = [r for r in csv.DictReader(open(sys.argv[1])) if (r.get("counts") or "").startswith("not measured")]
assert len(rows) == 2, rows
t = {("skew=1" in r["problem"]): float(r["predicted (us)"]) for r in rows}
assert t[True] > 2 * t[False], t
assert all(0 < float(r["95% low (us)"]) < float(r["predicted (us)"]) < float(r["95% high (us)"]) for r in rows), rows
PY'
[ $fails -eq 0 ] && echo "breakdown_predict: all checks passed"
exit $((fails > 0))
