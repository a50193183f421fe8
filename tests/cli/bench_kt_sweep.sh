# scripts/bench_kt_sweep.sh without a GPU: --dry runs its Kernel Tuner side
# (scripts/bench_kt_sweep.py) on a made-up gpubound run with stand-in
# kernel_tuner and cupy modules, so the side that only runs on the GPU
# machine is parsed and exercised here; and the script refuses bad usage.
. "$(dirname "$0")/lib.bash"
: "${GB_SRC:?GB_SRC must name the source directory}"
S="$GB_SRC/scripts/bench_kt_sweep.sh"
if ! need_python3 || ! python3 -c 'import numpy' 2>/dev/null; then
    skip 4 "numpy is not installed (the Kernel Tuner side of bench_kt_sweep.sh needs it)"; finish; exit
fi
OUT="" ERR=""
bash "$S" --dry "$TMP/dry" >"$TMP/out" 2>"$TMP/err"; RC=$?
[ "$RC" = 0 ] && grep -q 'selftest: 6 configurations of 2 problems' "$TMP/out" && ok ||
    { ERR=$(cat "$TMP/err"); bad "bench_kt_sweep.sh --dry exited $RC"; }
md="$TMP/dry/kt_sweep.md"
grep -q '^| stencil | gpubound | 1.5 | 6 | 6 |$' "$md" && grep -q '^| stencil | kernel_tuner stand-in | 3 | 6 | 6 |$' "$md" && ok ||
    bad "kt_sweep.md lacks the wall times, points and verified counts of both tools"
[ "$(grep -c '^| stencil | stencil | block_size_x=' "$md")" = 6 ] && grep -q '| block_size_x=256 block_size_y=4 n=32 | 64.03 | 128 | 2 |' "$md" &&
    ok || bad "kt_sweep.md lacks a configuration's two times and their ratio"
bash "$S" /nonexistent "$TMP" "$TMP/o" >/dev/null 2>"$TMP/err"; RC=$?
[ "$RC" = 2 ] && grep -q 'not a gpubound binary' "$TMP/err" && ok || bad "a missing build: exit $RC, expected 2"
finish
