# The plain twin of issue 45 without a GPU (tests/device/twin/, scripts/twin.sh):
# the twin builds with nvcc as scripts/twin.sh builds it, its host checks pass
# (generator, CPU references, parser), bad switches are usage errors (2) and,
# with no GPU, a run exits 3; scripts/twin.sh's table and the device test's
# verdict (tests/device/twin.sh) are right on stand-in binaries: a gap of
# 94.9% fails the device test, equal medians pass it.
. "$(dirname "$0")/lib.bash"
: "${GB_SRC:?GB_SRC must name the source directory}"
OUT="" ERR=""
need_python3 || { finish; exit; }
tw=$GB_SRC/tests/device/twin
export PATH="$PATH:${CUDA_HOME:-/usr/local/cuda}/bin"

# Stand-ins: a gpubound that records 1.38 ms for every point, a twin that
# prints $TWIN_MS (the histogram) or 1.38 ms.
mkdir -p "$TMP/fake"
cat >"$TMP/fake/gpubound" <<'SH'
#!/usr/bin/env bash
[ "$1" = info ] && { echo "name: Stand-in GPU"; exit 0; }
mkdir -p "$4" && echo '{}' >"$4/run.json"
python3 -c 'import json,sys; json.dump([{"axes": {}, "status": "ok", "time_ns": {"median": 1380000.0, "min": 1370000.0}}], open(sys.argv[1], "w"))' "$4/results.json"
SH
cat >"$TMP/fake/twin" <<'SH'
#!/usr/bin/env bash
case "$*" in *--write-data*) exit 0;; esac
m=1.38; [ "$2" = hist ] && m=${TWIN_MS:-1.38}
echo "twin kernel=$2 label=$4 median_ms=$m min_ms=$m mean_ms=$m first_ms=$m samples=20 out=0x1 in=0x2 verified=ok"
SH
chmod +x "$TMP/fake/gpubound" "$TMP/fake/twin"
TWIN_MS=2.69 GB_TWIN_ROWS=base GB_TWIN_BIN="$TMP/fake/twin" bash "$GB_SRC/scripts/twin.sh" "$TMP/fake" "$TMP/o1" \
    >"$TMP/out" 2>"$TMP/err" && ok || bad "scripts/twin.sh on stand-ins failed: $(cat "$TMP/err")"
grep -q $'^hist\ttwin\tplain\t2.690000\t94.928\tok$' "$TMP/o1/twin.tsv" && ok ||
    bad "twin.tsv lacks the histogram's gap of +94.928%: $(cat "$TMP/o1/twin.tsv" 2>/dev/null)"
grep -q '| twin | plain | `` | 2.6900 |' "$TMP/o1/twin.md" && grep -q '+94.9%' "$TMP/o1/twin.md" && ok ||
    bad "twin.md lacks the histogram's row"
TWIN_MS=2.69 GPUBOUND="$TMP/fake/gpubound" GB_TWIN_BIN="$TMP/fake/twin" bash "$GB_SRC/tests/device/twin.sh" \
    >"$TMP/out" 2>&1 && bad "the device test passed a gap of 94.9%" ||
    { grep -q 'FAIL hist: .*+94.9%' "$TMP/out" && ok || bad "the device test's message: $(cat "$TMP/out")"; }
TWIN_MS=1.39 GPUBOUND="$TMP/fake/gpubound" GB_TWIN_BIN="$TMP/fake/twin" bash "$GB_SRC/tests/device/twin.sh" \
    >"$TMP/out" 2>&1 && ok || bad "the device test failed medians 0.7% apart: $(cat "$TMP/out")"

if ! command -v nvcc >/dev/null; then
    skip 5 "nvcc not found: the twin is not built"
    finish
    exit
fi
if nvcc -O3 -arch=sm_90 -Xcompiler -fopenmp -DTWIN_SRC_DIR="\"$tw\"" -o "$TMP/twin" "$tw/twin.cu" -lcuda -lnvrtc -lgomp \
        >"$TMP/build.log" 2>&1; then ok; else bad "the twin does not build: $(tail -n 5 "$TMP/build.log")"; finish; exit; fi
# Without a driver, libcuda.so.1 is the toolkit's stub (every call fails: no GPU).
if ! ldconfig -p | grep -q 'libcuda.so.1 '; then
    for d in "${CUDA_HOME:-/usr/local/cuda}"/lib64/stubs "${CUDA_HOME:-/usr/local/cuda}"/targets/*/lib/stubs; do
        [ -e "$d/libcuda.so" ] && { ln -sf "$d/libcuda.so" "$TMP/libcuda.so.1"; break; }
    done
    export LD_LIBRARY_PATH="$TMP${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
fi
"$TMP/twin" --selftest >"$TMP/out" 2>&1 && grep -q '^0 failed$' "$TMP/out" && ok || bad "twin --selftest: $(cat "$TMP/out")"
"$TMP/twin" --kernel foo >/dev/null 2>"$TMP/err"; [ $? = 2 ] && grep -q 'not a known value' "$TMP/err" && ok ||
    bad "twin --kernel foo: not a usage error: $(cat "$TMP/err")"
"$TMP/twin" --kernel hist --fill file >/dev/null 2>"$TMP/err"; [ $? = 2 ] && grep -q 'needs --data' "$TMP/err" && ok ||
    bad "twin --fill file without --data: not a usage error: $(cat "$TMP/err")"
if has_gpu; then
    skip 1 "a GPU is here: the no-GPU exit is not checked"
else
    "$TMP/twin" --kernel hist >/dev/null 2>"$TMP/err"; [ $? = 3 ] && grep -q 'no usable GPU' "$TMP/err" && ok ||
        bad "twin --kernel hist without a GPU: not exit 3: $(cat "$TMP/err")"
fi
finish
