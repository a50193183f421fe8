# The corpus twins (docs/measurement.md, "The corpus"): the committed points
# are what `corpus_twin.py pick` makes of the committed H100 run; the
# generator evaluates the spec's expression syntax; every point plans, and
# gpubound accepts the narrowed specs; a twin compiles with nvcc -arch=sm_90
# (where the toolkit is) and says "no usable GPU" (exit 3) without one; the
# table computes the gap and the 2% verdict; scripts/device/twins.sh refuses
# bad arguments and, with a stand-in gpubound, runs every step and reports a
# twin that could not run.
. "$(dirname "$0")/lib.bash"
: "${GB_SRC:?GB_SRC must name the source directory}"
need_python3 || { finish; exit; }
gen=$GB_SRC/tests/device/twin/corpus_twin.py
pts=$GB_SRC/tests/device/twin/corpus_points.json
OUT="" ERR=""

# The points: the committed run's, two per bench of every corpus spec.
python3 "$gen" pick "$GB_SRC/data/h100/corpus-2026-11-26" "$GB_SRC/corpus" >"$TMP/picked.json" 2>"$TMP/err" &&
    ok || bad "pick failed: $(cat "$TMP/err")"
cmp -s "$TMP/picked.json" "$pts" && ok || bad "corpus_points.json is not what pick makes of data/h100/corpus-2026-11-26"
python3 - "$pts" "$GB_SRC/corpus" <<'PY' >"$TMP/err" 2>&1 && ok || bad "points: $(cat "$TMP/err")"
import json, os, sys
pts = json.load(open(sys.argv[1]))
want = {(k, b["name"]) for k in os.listdir(sys.argv[2]) if os.path.isfile(os.path.join(sys.argv[2], k, "spec.json"))
        for b in json.load(open(os.path.join(sys.argv[2], k, "spec.json")))["benches"]}
got = [(p["kernel"], p["bench"], p["role"]) for p in pts]
assert {(k, b) for k, b, _ in got} == want, "benches without points: %s" % (want - {(k, b) for k, b, _ in got})
assert len(got) == 2 * len(want) == len(set(got)), "not one fast and one slow point a bench"
for p in pts:
    assert p["role"] != "slow" or p["h100_median_ns"] <= 5e6, "a slow point over 5 ms: %s" % p
PY

# Expressions: libmatheval's ^ groups left to right; gpubound's additions.
for case in "2^3^2=64" "ceil(7 / 2)=4" "floor(7 / 2)=3" "min(3, 1, 2) + max(1, 5)=6" "-2^2=-4" \
    "1 < 2 && 2 > 3 || 4 == 4=1" "(n > 4) * 2=2" "n - floor(n / 3) * 3=1" "ceil(n / (block_size_x * 4))=1" "1e3 / 8=125"; do
    e=${case%=*} want=${case##*=}
    got=$(python3 "$gen" eval "$e" n=10 block_size_x=256 2>&1)
    [ "$got" = "$want" ] && ok || bad "eval '$e' gave '$got', expected $want"
done
python3 "$gen" eval "1 +" >/dev/null 2>"$TMP/err"
[ $? = 1 ] && grep -q 'ends where a value was expected' "$TMP/err" && ok || bad "eval '1 +': $(cat "$TMP/err")"
python3 "$gen" emit "$GB_SRC/corpus/histogram/spec.json" spread block_size_x=32 grid_blocks=132 replicas=4 n=4194304 \
    >/dev/null 2>"$TMP/err"
[ $? = 1 ] && grep -q 'restriction "replicas <= block_size_x / 32" is false' "$TMP/err" && ok ||
    bad "a point its restriction leaves out was not refused: $(cat "$TMP/err")"

# One twin: the launch and the defines gpubound's -D options spell.
python3 "$gen" emit "$GB_SRC/corpus/triad/spec.json" triad block_size_x=128 elems_per_thread=2 vector_width=4 n=8388608 \
    >"$TMP/triad.cu" 2>"$TMP/err" && ok || bad "emit failed: $(cat "$TMP/err")"
grep -q '^#define n 8388608$' "$TMP/triad.cu" && ok || bad "the twin does not define n as gpubound's -Dn=8388608"
grep -q 'triad<<<dim3(8192, 1, 1), dim3(128, 1, 1), 0>>>(twin_ptr{twin_d\[0\]}, twin_ptr{twin_d\[1\]}, twin_ptr{twin_d\[2\]}, (float)(3), (int)(8388608));' \
    "$TMP/triad.cu" && ok || bad "the triad's launch is not ceil(n / (128 * 2 * 4)) blocks of 128 with s = 3: $(grep '<<<' "$TMP/triad.cu")"

# Every point plans; gpubound reads each narrowed spec, whose plan is the points.
python3 "$gen" plan "$pts" "$GB_SRC" "$TMP/gen" 2>"$TMP/err" && ok || bad "plan failed: $(cat "$TMP/err")"
[ "$(find "$TMP/gen/twins" -name '*.cu' | wc -l)" = "$(grep -c '"role"' "$pts")" ] && ok ||
    bad "plan wrote $(find "$TMP/gen/twins" -name '*.cu' | wc -l) twins"
for spec in "$TMP"/gen/gb/*/spec.json; do
    expect 0 "" list "$spec"
done
expect 0 "" check "$TMP/gen/gb/triad/spec.json" --arch sm_90 --format csv
n=$(printf '%s\n' "$OUT" | grep -c ',kernel,[0-9]')
[ "$n" = 2 ] && ok || bad "the narrowed triad spec plans $n configurations, not its 2 points"

# A twin compiles with nvcc (no GPU needed) and, without a GPU, says so.
nvcc=$(command -v nvcc || echo "${CUDA_HOME:-/usr/local/cuda}/bin/nvcc")
if [ -x "$nvcc" ]; then
    "$nvcc" -O3 -Xcompiler -fopenmp -I "$GB_SRC" -c "$GB_SRC/tests/device/twin/corpus_data.c" -o "$TMP/cd.o" \
        >"$TMP/build.log" 2>&1 &&
        "$nvcc" -O3 -arch=sm_90 -I "$GB_SRC" -o "$TMP/twin" "$TMP/triad.cu" "$TMP/cd.o" -lgomp >>"$TMP/build.log" 2>&1 &&
        ok || bad "the triad twin does not build: $(tail -n 5 "$TMP/build.log")"
    if ! has_gpu && [ -x "$TMP/twin" ]; then
        "$TMP/twin" >"$TMP/out" 2>"$TMP/err"
        [ $? = 3 ] && grep -q 'no usable GPU' "$TMP/err" && ok || bad "the twin without a GPU: $(cat "$TMP/err")"
    fi
else
    skip 2 "no nvcc: the twin's build is not checked"
fi

# The table: the twin's kernel time (Nsight Compute's CSV) against
# gpubound's median with each compiler, within 2% or not.
mkdir -p "$TMP/raw/gb-triad" "$TMP/raw/gbnvrtc-triad"
python3 - "$pts" "$TMP/raw" <<'PY'
import json, sys
pts = [p for p in json.load(open(sys.argv[1])) if p["kernel"] == "triad"]
json.dump(pts, open(sys.argv[2] + "/points.json", "w"))
def recs(ms):
    return [{"bench": p["bench"], "axes": {k: str(v) for k, v in p["axes"].items()}, "status": "ok",
             "time_ns": {"median": m * 1e6}} for p, m in zip(pts, ms)]
json.dump(recs((1.0, 1.0)), open(sys.argv[2] + "/gb-triad/results.json", "w"))
json.dump({"cuda": {"compiler": "nvcc 13.0.88"}}, open(sys.argv[2] + "/gb-triad/run.json", "w"))
json.dump(recs((1.01, 1.03)), open(sys.argv[2] + "/gbnvrtc-triad/results.json", "w"))
for p, ms, ncu in zip(pts, ("1.015", "1.03"), ((1.014, 1.015, 1.016), (1.029, 1.03, 1.1, 1.031))):
    open(f"{sys.argv[2]}/twin-triad-triad-{p['role']}.txt", "w").write(
        f"twin label=x batch_ms={ms} batch_min_ms={ms} each_ms=1.04 verified=ok\n")
    with open(f"{sys.argv[2]}/ncu-triad-triad-{p['role']}.csv", "w") as f:
        f.write('==PROF== Connected to process\n"ID","Kernel Name","gpu__time_duration.sum"\n"","","usecond"\n')
        f.writelines(f'"{i}","triad","{v * 1e3:.1f}"\n' for i, v in enumerate(ncu))
PY
python3 "$gen" table "$TMP/raw/points.json" "$TMP/raw" "$TMP" >"$TMP/count" 2>"$TMP/err" && ok ||
    bad "table failed: $(cat "$TMP/err")"
grep -q "^1 of 2 compared points within 2% with gpubound's default, 2 of 2 with --compiler nvrtc" "$TMP/count" &&
    grep -q "with gpubound's default (nvcc 13.0.88)" "$TMP/corpus-twins.md" && ok ||
    bad "table's count: $(cat "$TMP/count")"
grep -q '| 1.0000 | 1.0100 | 1.0150 | +1.50% | +0.50% | yes, yes | 1.0150, +1.50% | ok |' "$TMP/corpus-twins.md" && ok ||
    bad "a 1.5% gap: $(grep fast "$TMP/corpus-twins.md")"
grep -q '| 1.0000 | 1.0300 | 1.0305 | +3.05% | +0.05% | \*\*no\*\*, yes |' "$TMP/corpus-twins.md" && ok ||
    bad "a 3% gap, the median of an even count: $(grep slow "$TMP/corpus-twins.md")"

# The device script: arguments, then a whole run with a stand-in gpubound.
dev=$GB_SRC/scripts/device/twins.sh
bash "$dev" >/dev/null 2>"$TMP/err"
[ $? = 2 ] && grep -q '^usage: ' "$TMP/err" && ok || bad "twins.sh without arguments: $(cat "$TMP/err")"
bash "$dev" "$TMP/nope" "$TMP/o" >/dev/null 2>"$TMP/err"
[ $? = 2 ] && grep -q 'not an executable gpubound' "$TMP/err" && ok || bad "twins.sh with no gpubound: $(cat "$TMP/err")"
if [ -x "$nvcc" ]; then
    mkdir -p "$TMP/fake"
    cat >"$TMP/fake/gpubound" <<'FAKE'
#!/usr/bin/env bash
[ "$1" = info ] && { echo "name: stand-in GPU"; exit 0; }
out=""
while [ $# -gt 0 ]; do [ "$1" = --out ] && out=$2; shift; done
mkdir -p "$out" && echo '{}' >"$out/run.json" && cp "$FAKE_RESULTS" "$out/results.json"
FAKE
    chmod +x "$TMP/fake/gpubound"
    FAKE_RESULTS=$TMP/raw/gb-triad/results.json GB_TWINS_KERNELS=triad GB_TWINS_JOBS=2 \
        bash "$dev" "$TMP/fake/gpubound" "$TMP/dev" >"$TMP/dev.out" 2>"$TMP/dev.err"
    rc=$?
    has_gpu && want=0 || want=1
    [ $rc = $want ] && ok || bad "twins.sh with a stand-in gpubound exited $rc, expected $want: $(tail -n 5 "$TMP/dev.out")"
    for f in corpus-twins.md corpus-twins.tsv summary.md steps.tsv raw/gb-triad/results.json raw/build-triad-triad-fast.log \
        raw/twin-triad-triad-slow.txt; do
        [ -e "$TMP/dev/$f" ] && ok || bad "twins.sh wrote no $f"
    done
    [ "$(grep -c '^twin triad-triad' "$TMP/dev/steps.tsv")" = 2 ] && ok || bad "twins.sh ran $(grep -c '^twin ' "$TMP/dev/steps.tsv") twins: $(cat "$TMP/dev/steps.tsv")"
    if ! has_gpu; then
        grep -q 'twin: exit 3: twin triad-triad-fast: no usable GPU' "$TMP/dev/corpus-twins.md" && ok ||
            bad "the table does not say why the twin did not run: $(grep fast "$TMP/dev/corpus-twins.md")"
    fi
fi
finish
