#!/usr/bin/env bash
# gpubound breakdown on the synthetic fixture runs of tests/data/lpbm (made by
# make_fixture.py from known coefficients; not measurements): the fit, the
# explanation, the model file, machine formats, and every bad input.
set -u
source "$(dirname "$0")/lib.bash"
D="$GB_TESTS/data/lpbm"
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
fails=0
check() { if ! eval "$2"; then echo "FAIL: $1"; fails=$((fails + 1)); fi; }

"$GPUBOUND" breakdown "$D/run-sgemm" --out "$T/a" --no-chart --explain >"$T/out" 2>"$T/err"
rc=$?
# the formula form explains the fixture; its counters form (made from other
# coefficients) does not: exit 4, the honesty rule
check "fit exits 4 (got $rc)" '[ $rc -eq 4 ]'
check "explain lists the tile loop" 'grep -q "for(int m=0;m<width/TILE;m++)" "$T/out"'
check "no parse error in the fixture" '! grep -q "parse error" "$T/out"'
check "coefficients printed" 'grep -q "^G2ST " "$T/out"'
check "explain lists the barriers" 'grep -q "line 14, __syncthreads: (max(0, width/TILE))" "$T/out"'
check "the SYNC term is fitted" 'grep -q "^SYNC " "$T/out" && grep -q "a5\*SYNC" "$T/out"'
check "barriers per thread in the model" 'grep -q "\"barriers_per_thread\": 64" "$T/a/lpbm-model.json"'
check "R^2 of the exact fixture" 'grep -q "^R^2 1.0000" "$T/out"'
check "one dominant line, one verdict" '[ "$(grep -c "dominates:" "$T/out")" -eq 1 ] && [ "$(grep -c "^sgemm/tiled: the model does not explain this kernel" "$T/out")" -eq 1 ]'
check "model written" '[ -s "$T/a/lpbm-model.json" ] && grep -q "gpubound-lpbm/1" "$T/a/lpbm-model.json"'
check "counters form beside the formula form" 'grep -q "counters form" "$T/out"'

"$GPUBOUND" breakdown "$D/run-sgemm" --out "$T/b" --no-chart --form formula >/dev/null 2>&1
"$GPUBOUND" breakdown "$D/run-sgemm" --out "$T/b2" --no-chart --form formula >/dev/null 2>&1
check "a refit writes the same model" 'cmp -s "$T/b/lpbm-model.json" "$T/b2/lpbm-model.json"'
check "one form asked, one model" '[ "$(grep -c "\"form\"" "$T/b/lpbm-model.json")" -eq 1 ]'

"$GPUBOUND" breakdown "$D/run-sgemm" --format csv --no-chart --out "$T/c" --holdout size:n=1024 >"$T/csv" 2>/dev/null
check "csv: a header and 24 rows" '[ "$(wc -l <"$T/csv")" -eq 25 ] && head -1 "$T/csv" | grep -q "^bench,form,config"'

# a smaller model does not replace a recorded larger one
cp "$T/a/lpbm-model.json" "$T/b/lpbm-model.json"
"$GPUBOUND" breakdown "$D/run-sgemm" --out "$T/b" --no-chart --form formula >/dev/null 2>"$T/err"
rc=$?
check "guard refuses (rc $rc)" '[ $rc -eq 1 ] && grep -q "not replaced" "$T/err"'
"$GPUBOUND" breakdown "$D/run-sgemm" --out "$T/b" --no-chart --form formula --force >/dev/null 2>&1
check "--force replaces" '[ $? -eq 0 ]'

bad() {  # expected rc, what, args...
    local want=$1 what=$2
    shift 2
    "$GPUBOUND" breakdown "$@" --out "$T/bad" >"$T/o" 2>"$T/e"
    local rc=$?
    check "$what: exit $want (got $rc)" '[ $rc -eq $want ]'
    check "$what: one line" '[ "$(wc -l <"$T/e")" -eq 1 ]'
    check "$what: nothing written" '[ ! -e "$T/bad" ]'
}
bad 2 "no size axis" "$D/run-nosweep"
bad 2 "too few configurations" "$D/run-few"
bad 2 "unknown bench" "$D/run-sgemm" --bench nope
bad 2 "bad holdout" "$D/run-sgemm" --holdout half
bad 2 "holdout of a size not measured" "$D/run-sgemm" --holdout size:n=4096
bad 2 "no run" 
bad 1 "missing run" "$T/none"
bad 1 "missing spec" "$D/run-sgemm" --spec "$T/none.json"
# the spec is read by the spec parser: a malformed "lpbm" object is refused
mkdir -p "$T/badlpbm"
cp "$D/run-sgemm/"* "$T/badlpbm/"
sed -i 's/"flops": "2 \* n \* n \* n"/"flops": "2 * n * n * n", "lpbm": {"ops": [1]}/' "$T/badlpbm/spec.json"
bad 1 "malformed lpbm object" "$T/badlpbm"
check "malformed lpbm: the field named" 'grep -q "benches\[0\].lpbm.ops" "$T/e"'
# No bench is left out silently: 40 benches with records are all fitted
# (there was a cap of 32), and a bench without records is named.
mkdir -p "$T/many"
python3 - "$D/run-sgemm" "$T/many" <<'EOF'
import json, shutil, sys
src, dst = sys.argv[1], sys.argv[2]
shutil.copy(src + "/sgemm.cu", dst)
spec = json.load(open(src + "/spec.json"))
bench = spec["benches"][0]
spec["benches"] = [dict(bench, name="tiled%02d" % k) for k in range(41)]
json.dump(spec, open(dst + "/spec.json", "w"), indent=1)
run = json.load(open(src + "/run.json"))
recs = json.load(open(src + "/results.json"))
out = []
for k in range(40):  # tiled40 has no record
    for r in recs:
        out.append(dict(r, bench="tiled%02d" % k))
run.update(points_ok=len(out))
# the run "measured" this spec: run.json keeps its digest
import hashlib
run["sha256"]["spec"]["sgemm/spec.json"] = hashlib.sha256(open(dst + "/spec.json", "rb").read()).hexdigest()
json.dump(run, open(dst + "/run.json", "w"), indent=1)
open(dst + "/results.json", "w").write("[\n" + ",\n".join(json.dumps(r) for r in out) + "\n]\n")
EOF
"$GPUBOUND" breakdown "$T/many" --out "$T/many-out" --no-chart --form formula >"$T/out" 2>"$T/err"
rc=$?
check "40 benches: exit 0 (got $rc)" '[ $rc -eq 0 ]'
check "40 benches: 40 models printed" '[ "$(grep -c "^sgemm/tiled[0-9]*, formula form" "$T/out")" -eq 40 ]'
check "40 benches: 40 models written" '[ "$(grep -c "\"bench\": \"tiled" "$T/many-out/lpbm-model.json")" -eq 40 ]'
check "the bench without records is named" 'grep -q "^note: 1 of the spec.s 41 benches has no record in the run and is not fitted: tiled40$" "$T/err"'

# Identical times: R^2 is undefined, and no term is named.
cp -r "$D/run-sgemm" "$T/same"
python3 - "$T/same/results.json" <<'EOF'
import json, sys
recs = json.load(open(sys.argv[1]))
for r in recs:
    r["time_ns"] = {"min": 1000.0, "median": 1000.0, "mean": 1000.0, "stddev": 0.0, "ci_lo": 990.0, "ci_hi": 1010.0}
    r["bw_gbs"], r["gflops"] = r["bytes"] / 1000.0, r["flops"] / 1000.0
open(sys.argv[1], "w").write("[\n" + ",\n".join(json.dumps(r) for r in recs) + "\n]\n")
EOF
"$GPUBOUND" breakdown "$T/same" --out "$T/same-out" --no-chart --form formula >"$T/out" 2>"$T/err"
rc=$?
check "identical times: exit 0 (got $rc)" '[ $rc -eq 0 ]'
check "identical times: R^2 undefined" 'grep -q "^R^2 undefined (every configuration took the same time)" "$T/out"'
check "identical times: no verdict" 'grep -q "no term is named: every configuration took the same time" "$T/out" && ! grep -q "dominates:" "$T/out"'
check "identical times: r2 null in the model" 'grep -q "\"r2\": null" "$T/same-out/lpbm-model.json"'

# The honesty rule: times made of noise (unrelated to any predictor) are not
# explained: no term named, no advice, the misses and a reason, exit 4, and
# the model still written.
cp -r "$D/run-sgemm" "$T/noise"
python3 - "$T/noise/results.json" <<'EOF'
import json, random, sys
random.seed(40)
recs = json.load(open(sys.argv[1]))
for r in recs:
    t = random.uniform(1000.0, 2000.0)
    r["time_ns"] = {"min": t, "median": t, "mean": t, "stddev": 1.0, "ci_lo": t - 1, "ci_hi": t + 1}
    r["bw_gbs"], r["gflops"] = r["bytes"] / t, r["flops"] / t
open(sys.argv[1], "w").write("[\n" + ",\n".join(json.dumps(r) for r in recs) + "\n]\n")
EOF
"$GPUBOUND" breakdown "$T/noise" --out "$T/noise-out" --no-chart --form formula >"$T/out" 2>"$T/err"
rc=$?
check "noise: exit 4 (got $rc)" '[ $rc -eq 4 ]'
check "noise: the model says it does not explain" 'grep -q "^sgemm/tiled: the model does not explain this kernel (" "$T/out"'
check "noise: no dominating term, no advice" '! grep -q "dominates:" "$T/out" && ! grep -q "is what helps" "$T/out"'
check "noise: the misses named, with a reason" 'grep -q "Missed most: block_size_x=[0-9]*, n=[0-9]* ([-+][0-9]*%)" "$T/out" && grep -q "Most likely reason: " "$T/out"'
check "noise: the model is written" '[ -s "$T/noise-out/lpbm-model.json" ] && grep -q "does not explain" "$T/noise-out/lpbm-model.json"'
# Its chart names no term either: titled so, one bar per configuration (the
# prediction whole), no term's legend. The script is written with or without gnuplot.
"$GPUBOUND" breakdown "$T/noise" --out "$T/noise-chart" --form formula >/dev/null 2>&1
gp=$(ls "$T"/noise-chart/breakdown-*.gp 2>/dev/null | head -n 1)
check "noise: the chart says the model does not explain" '[ -n "$gp" ] && grep -q "^set title .The model does not explain this kernel" "$gp"'
check "noise: the chart has no term series" '[ -n "$gp" ] && grep -q "predicted by a fit that does not hold" "$gp" && ! grep -q "PUT: processing units\|G2ST: global to shared" "$gp"'

# Nothing is written into the run read: --out at the run or inside it is
# refused before anything is fitted, and the default is a new directory
# under runs/, named on stdout.
cp -r "$D/run-sgemm" "$T/ro"
before=$(cd "$T/ro" && find . -type f -exec sha256sum {} + | sort)
for o in "$T/ro" "$T/ro/" "$T/ro/sub/out" "$T/ro/../ro"; do
    "$GPUBOUND" breakdown "$T/ro" --out "$o" --no-chart >"$T/o" 2>"$T/e"
    rc=$?
    check "--out $o in the run: exit 2 (got $rc)" '[ $rc -eq 2 ]'
    check "--out $o in the run: one line naming why" '[ "$(wc -l <"$T/e")" -eq 1 ] && grep -q "never writes into the run it reads" "$T/e"'
done
ln -s "$T/ro" "$T/ro-link"
"$GPUBOUND" breakdown "$T/ro-link" --out "$T/ro/x" --no-chart >/dev/null 2>&1
check "a link to the run is the run: exit 2" '[ $? -eq 2 ]'
mkdir -p "$T/cwd"
(cd "$T/cwd" && "$GPUBOUND" breakdown "$T/ro" --no-chart --form formula) >"$T/o" 2>"$T/e"
rc=$?
check "default --out: exit 0 (got $rc)" '[ $rc -eq 0 ]'
dflt=$(sed -n 's/^output: \(runs\/breakdown-[0-9TZ-]*\) (a new directory; name one with --out)$/\1/p' "$T/o")
check "default --out: named on stdout" '[ -n "$dflt" ]'
check "default --out: the model is there" '[ -s "$T/cwd/$dflt/lpbm-model.json" ]'
after=$(cd "$T/ro" && find . -type f -exec sha256sum {} + | sort)
check "the run read is left as it was" '[ "$before" = "$after" ]'
(cd "$T/cwd" && "$GPUBOUND" breakdown "$T/ro" --no-chart --form formula) >"$T/o2" 2>/dev/null
check "a second default run gets its own directory" '! cmp -s "$T/o" "$T/o2" || [ "$(ls "$T/cwd/runs" | wc -l)" -eq 2 ]'
check "two default directories" '[ "$(ls "$T/cwd/runs" | wc -l)" -eq 2 ]'
# A source whose #if reads a tuning axis is analysed per preprocessed variant:
# the committed H100 dot product (corpus/dot_atomic/dot.cu, #if per_warp)
# has one atomicAdd per block at per_warp=0 and one per warp's lane 0 at 1.
"$GPUBOUND" breakdown "$GB_SRC/data/h100/corpus-2026-11-26/dot_atomic" --out "$T/dot" --no-chart \
    --explain >"$T/dot.out" 2>"$T/dot.err"
rc=$?
check "explain on the dot product: exit 0 or 4 (got $rc: $(head -c 300 "$T/dot.err"))" '[ $rc -eq 0 ] || [ $rc -eq 4 ]'
check "explain names the directive's axis and the variant parsed" \
    'grep -q "its #if directives read per_warp: .*(1 variant besides the one listed was parsed)" "$T/dot.out"'
check "per_warp=0: one atomic per block (132)" \
    'grep -q "block_size_x=128 grid_blocks=132 per_warp=0, n=4194304: .*atomics in the launch 132$" "$T/dot.out"'
check "per_warp=1: the lane-0 branch counted for every thread (16896 = 132 x 128)" \
    'grep -q "block_size_x=128 grid_blocks=132 per_warp=1, n=4194304: .*atomics in the launch 16896$" "$T/dot.out"'
# The resources form keeps the one fit that fits best; --average averages
# the fits the points cannot tell apart, says how many, and lists them in
# lpbm-model.json ("averaged"). The H200 FFT's committed counters run.
fft="$GB_SRC/data/h200/examples-counters-2026-11-23/fft"
"$GPUBOUND" breakdown "$fft" --out "$T/one" --no-chart >"$T/one.out" 2>&1
rc1=$?
"$GPUBOUND" breakdown "$fft" --average --out "$T/avg" --no-chart >"$T/avg.out" 2>&1
rc2=$?
check "one fit and --average: exit 0 or 4 (got $rc1 and $rc2)" \
    '{ [ $rc1 -eq 0 ] || [ $rc1 -eq 4 ]; } && { [ $rc2 -eq 0 ] || [ $rc2 -eq 4 ]; }'
check "one fit: nothing averaged, the p that fits best" \
    '! grep -q "average the" "$T/one.out" && ! grep -q "\"averaged\"" "$T/one/lpbm-model.json" &&
     grep -q "the one that fits best" "$T/one.out"'
check "--average: the fits averaged, named and listed" \
    'grep -q "average the [0-9]* fits" "$T/avg.out" && grep -q "\"averaged\"" "$T/avg/lpbm-model.json"'
# Kernels whose atomics camp on a few L2 slices (the held-out group-by, its
# busiest slice at 3.4 times the mean; the 4096-bin histogram, 7.8): the L2
# term is the busiest slice's time, and where it dominates the evidence
# names the measured ratio. Without the per-slice counts (the same run's
# results with lts__t_sectors.max removed) the histogram is not explained.
"$GPUBOUND" breakdown "$GB_SRC/data/h200/corpus-heldout19-2026-11-30/groupby" \
    --ceilings "$GB_SRC/data/h200/ceilings-2026-11-26" --out "$T/gb" --no-chart >"$T/gb.out" 2>&1
rc=$?
check "camped group-by: exit 0 (got $rc)" '[ $rc -eq 0 ]'
check "camped group-by: L2 dominates, on the busiest slice's measured ratio" \
    'grep -q "L2 (.*dominates: .*the busiest L2 slice carries [0-9.]* times the mean slice.s sectors here" "$T/gb.out"'
"$GPUBOUND" breakdown "$GB_SRC/data/h200/corpus-heldout21-2026-11-30/hist4k" \
    --ceilings "$GB_SRC/data/h200/ceilings-2026-11-26" --out "$T/h4" --no-chart >"$T/h4.out" 2>&1
rc=$?
check "camped histogram: explained (exit $rc), R^2 at least 0.95" \
    '[ $rc -eq 0 ] && awk "/^R\\^2 /{exit !(\$2 >= 0.95)}" "$T/h4.out"'
cp -r "$GB_SRC/data/h200/corpus-heldout21-2026-11-30/hist4k" "$T/h4even"
chmod -R u+w "$T/h4even"
gzip -dc "$T/h4even/results.json.gz" | sed 's/"lts__t_sectors.max"/"lts__t_sectors.max_dropped"/g' |
    gzip > "$T/h4even/r.gz" && mv "$T/h4even/r.gz" "$T/h4even/results.json.gz"
"$GPUBOUND" breakdown "$T/h4even" --ceilings "$GB_SRC/data/h200/ceilings-2026-11-26" \
    --out "$T/h4e" --no-chart >"$T/h4e.out" 2>&1
rc=$?
check "histogram without its slices' counts: not explained (exit $rc)" '[ $rc -eq 4 ]'
# A launch sweep of the grid at one block size (the held-out leaky-ReLU
# backward pass: 1 to 8 blocks of 256 threads per SM, grid-stride loops)
# is a sweep of launch configurations: fitted, not refused (exit 0, or 4
# where the model does not explain it).
"$GPUBOUND" breakdown "$GB_SRC/data/h200/corpus-heldout23-2026-11-30/lrelubwd" \
    --ceilings "$GB_SRC/data/h200/ceilings-2026-11-26" --out "$T/lr" --no-chart >"$T/lr.out" 2>&1
rc=$?
check "a grid sweep at one block size is fitted (exit $rc)" \
    '{ [ $rc -eq 0 ] || [ $rc -eq 4 ]; } && [ -s "$T/lr/lpbm-model.json" ]'
[ $fails -eq 0 ] && echo "breakdown: all checks passed"
exit $((fails > 0))
