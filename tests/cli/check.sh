#!/usr/bin/env bash
# gpubound check: a kernel spec checked without a GPU (NVRTC compiles every
# configuration; every point is evaluated). Needs NVRTC, which the CPU tier
# has (the nvrtc tests compile with it too).
. "$(dirname "$0")/lib.bash"
SPECS="$GB_TESTS/data/specs"
run_gb check "$SPECS/saxpy/spec.json" --quick
if [ "$RC" != 0 ] && printf '%s\n' "$ERR" | grep -q 'NVRTC'; then
    skip 23 "NVRTC is not installed: $ERR"
    finish
    exit
fi

# A good spec: one row per configuration and per reference launch, with
# ptxas's figures and the occupancy; the summary line on stderr.
run_gb check "$SPECS/saxpy/spec.json" --quick --arch sm_90 --format csv
if [ "$RC" != 0 ]; then bad "check saxpy --quick exited $RC"; else
    head=$(printf '%s\n' "$OUT" | head -1)
    [ "$head" = "bench,config,kernel,role,threads,dyn_smem,regs,spill_stores,spill_loads,stack,static_smem,active_warps,occupancy,limited_by,status" ] \
        && ok || bad "check: csv header is '$head'"
    # quick: block_size_x 128, 512 x elems_per_thread 1, 4: four kernels, four references (one per module).
    n=$(printf '%s\n' "$OUT" | grep -c '^saxpy/saxpy,.*,saxpy,kernel,')
    [ "$n" = 4 ] && ok || bad "check: $n kernel rows, expected 4"
    n=$(printf '%s\n' "$OUT" | grep -c ',saxpy_naive,reference,256,')
    [ "$n" = 4 ] && ok || bad "check: $n reference rows, expected 4"
    # Every kernel row has registers (a positive number), no spills, and 64 warps (2048 threads) on sm_90.
    bad_rows=$(printf '%s\n' "$OUT" | tail -n +2 | awk -F, '!($7 > 0 && $8 == 0 && $9 == 0 && $12 == 64 && $15 == "ok")' | wc -l)
    [ "$bad_rows" = 0 ] && ok || bad "check: $bad_rows rows without registers, spills 0, 64 warps and ok"
    printf '%s\n' "$ERR" | grep -Eq '^gpubound check: 8 configurations of .*saxpy/spec.json, 4 modules compiled with NVRTC [0-9.]+ for sm_90$' \
        && ok || bad "check: summary line"
fi

# The target's limits: sm_75 has 1024 threads (32 warps) per SM.
run_gb check "$SPECS/saxpy/spec.json" --quick --arch sm_75 --set block_size_x=512 --set elems_per_thread=1 --format json
if [ "$RC" = 0 ] && printf '%s\n' "$OUT" | grep -q '"kernel": "saxpy", "role": "kernel", "threads": 512.*"active_warps": 32,'; then
    ok; else bad "check --arch sm_75: exit $RC, no 32-warp saxpy row"; fi

# Broken specs (named check.json, so that nvrtc/test_specs, which compiles
# every spec.json there, leaves them alone): one line each, exit 2; `list` takes them (it does not evaluate or compile).
expect 2 'benches\[0\]\.grid\[0\]: "n / block_size_x" = 7\.8125 at block_size_x=128 n=1000 is not a non-negative integer \(and at 1 more point\)$' \
    check "$SPECS/broken-grid/check.json"
expect 2 'broken_restriction/copy: no point to measure: restriction "block_size_x > 1024" is false' \
    check "$SPECS/broken-restriction/check.json"
expect 2 'benches\[0\]\.kernel: "load" names no kernel of copy\.cu at block_size_x=128 n=1000 \(and 1 more configuration\).*non-__global__ function.*give the name of a __global__ function$' \
    check "$SPECS/broken-kernel/check.json"
for d in grid restriction kernel syntax; do
    expect 0 '' list "$SPECS/broken-$d/check.json"
done

# A C++ syntax error: exit 1, one line naming the first error, then NVRTC's log indented.
run_gb check "$SPECS/broken-syntax/check.json" --format csv
first=$(printf '%s\n' "$ERR" | head -1)
if [ "$RC" = 1 ] && [[ "$first" == 'gpubound check: broken_syntax/copy at block_size_x=128 n=1000 (and 1 more configuration): copy.cu failed to compile for sm_90: copy.cu(7): error: expected a ";"' ]] \
    && printf '%s\n' "$ERR" | grep -q '^    1 error detected in the compilation of "copy.cu"\.$'; then ok
else bad "check broken-syntax: exit $RC, first line '$first'"; fi
n=$(printf '%s\n' "$OUT" | grep -c ',compile error$')
[ "$n" = 2 ] && ok || bad "check broken-syntax: $n 'compile error' rows, expected 2"

# The narrow types (docs/kernel-spec.md, "Arguments"): half, bfloat16, the
# two fp8 formats and the 8- and 16-bit integers as inputs (random,
# constant, iota, a file), outputs and scalars compile against the
# toolkit's cuda_fp16.h, cuda_bf16.h and cuda_fp8.h, and every point
# evaluates; a value a type cannot hold is one line and exit 2.
run_gb check "$SPECS/types/spec.json" --arch sm_90 --format csv
n=$(printf '%s\n' "$OUT" | grep -c '^types/.*,ok$')
[ "$RC" = 0 ] && [ "$n" = 6 ] && ok || bad "check types: exit $RC, $n ok rows, expected 6"
mkdir -p "$TMP/types"
cp "$SPECS/types/types.cu" "$SPECS/types/h256.bin" "$TMP/types/"
sed 's|"constant": 57344|"constant": 65536|' "$SPECS/types/spec.json" >"$TMP/types/check.json"
expect 2 'benches\[1\]\.args\[12\]\.init\.constant: 65536 is not a finite fp8_e5m2 \(at most 57344 in magnitude\)$' \
    check "$TMP/types/check.json"
sed 's|"value": "-3"|"value": "-129"|' "$SPECS/types/spec.json" >"$TMP/types/check.json"
expect 2 'benches\[1\]\.args\[19\]\.value: "-129" = -129 at block_size_x=64 n=256 is not an int8 \(-128 to 127\) \(and at 1 more point\)$' \
    check "$TMP/types/check.json"
tr '\n' ' ' <"$SPECS/types/spec.json" | sed 's|"iota": \[ *0, *256 *\]|"iota": [0, 300]|' >"$TMP/types/check.json"
expect 2 'benches\[1\]\.args\[16\]\.init\.iota: element 255 = 76500 at block_size_x=64 n=256 is not a uint16 \(0 to 65535\)' \
    check "$TMP/types/check.json"
cp "$SPECS/types/spec.json" "$TMP/types/check.json"
head -c 300 "$SPECS/types/h256.bin" >"$TMP/types/h256.bin"
expect 2 'benches\[1\]\.args\[9\]\.init\.file: .*h256\.bin holds 300 bytes; h needs 512 \(256 half values\)' \
    check "$TMP/types/check.json"

# Usage errors.
expect 2 "--arch needs an architecture such as sm_90" check "$SPECS/saxpy/spec.json" --arch 90
expect 2 "give exactly one spec file" check
expect 2 "is not a spec file" check saxpy
finish
