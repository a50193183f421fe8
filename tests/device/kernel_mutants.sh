# Device tier: verification catches a wrong kernel. Each mutant below is a
# planted bug behind a -D name in the kernel source (GPUBOUND_KERNEL_DEFINES
# prepends "#define NAME 1" to every kernel gpubound compiles); the point
# that runs the mutated kernel must fail verification (status failed, exit 1),
# and the same point without the mutant must pass. A mutant that passes
# means the suite's verification cannot see that kind of kernel bug.
#   GB_MUTANT_RS_WALK       kernels/rs_walk.h: the bank-conflict table walk wraps a column early
#   GB_MUTANT_CAMP_COLUMNS  kernels/camp_walk.h: the column walk skips a chunk per step
#   GB_MUTANT_CLIQUE        kernels/camping.cu: the clique kernel's binary search overshoots
. "$(dirname "$0")/lib.bash"
export GPUBOUND_CACHE_DIR="$out/cache"
fail=0 n=0
# mutant NAME BENCH ARGS...: the point(s) of BENCH must verify without NAME
# and fail with it.
mutant() {
    local name=$1 bench=$2 rc
    shift 2
    n=$((n + 1))
    rm -rf "$out/clean" "$out/mut"
    GPUBOUND_KERNEL_DEFINES="" "$GPUBOUND" run "$bench" "$@" --quick --no-report --out "$out/clean" >/dev/null 2>"$out/err"
    rc=$?
    if [ $rc != 0 ] || ! grep -q '"status":"ok"' "$out/clean/results.json"; then
        echo "FAIL: $bench without $name: exit $rc, $(tail -n 1 "$out/err")"; fail=$((fail + 1)); return
    fi
    GPUBOUND_KERNEL_DEFINES="$name" "$GPUBOUND" run "$bench" "$@" --quick --no-report --out "$out/mut" >/dev/null 2>"$out/err"
    rc=$?
    local failed
    failed=$(grep -c '"status":"failed"' "$out/mut/results.json" 2>/dev/null)
    if [ $rc = 1 ] && [ "${failed:-0}" -gt 0 ]; then
        echo "ok: $name caught ($failed point(s) of $bench failed verification)"
    else
        echo "FAIL: $name not caught by $bench's verification (exit $rc, ${failed:-0} failed points)"
        fail=$((fail + 1))
    fi
}
mutant GB_MUTANT_RS_WALK patterns/bank_conflict --set ways=4 --set pad=0
mutant GB_MUTANT_CAMP_COLUMNS camping/read --set pattern=camped --set camp_pitch=4224 --set width=4 --set warps=8
mutant GB_MUTANT_CLIQUE camping/clique --set warps=4
echo "$((n - fail)) passed, $fail failed"
exit $((fail > 0))
