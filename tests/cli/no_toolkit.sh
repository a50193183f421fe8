# gpubound without the CUDA toolkit's headers: configured with its include
# directory pointed at an empty one (as on a machine without the toolkit),
# the build uses gpubound's own declarations of the driver and NVRTC, says
# so in one line at configure time, and the program it makes writes a
# report and fits models from committed runs, exactly as the full build
# does; a GPU command still says in one line that there is no GPU.
. "$(dirname "$0")/lib.bash"
: "${GB_SRC:?GB_SRC must name the source directory}"
B="${GB_BUILD_DIR:-$TMP}/no-toolkit-check"
mkdir -p "$TMP/empty-include"
OUT="" ERR=""
if ! cmake -S "$GB_SRC" -B "$B" -DGB_CUDA_INCLUDE="$TMP/empty-include" -DBUILD_TESTING=OFF >"$TMP/cfg" 2>&1; then
    ERR=$(tail -5 "$TMP/cfg"); bad "configuring without the toolkit's headers failed"; finish; exit
fi
grep -q "gpubound: no CUDA toolkit headers .*own driver and NVRTC declarations" "$TMP/cfg" && ok ||
    bad "configure does not say that it builds without the toolkit's headers"
if ! cmake --build "$B" -j 2 --target gpubound >"$TMP/build" 2>&1; then
    ERR=$(grep -m 3 -E 'error|Error' "$TMP/build"); bad "the build without the toolkit's headers failed"; finish; exit
fi
ok
# No toolkit header reached the compiler: every object was built with the own declarations.
! grep -q -- "cuda/include\|$TMP/empty-include" "$B/CMakeFiles/gpubound_obj.dir/flags.make" && ok ||
    bad "the toolkit's include directory is still on the compile line"
grep -q 'GB_OWN_CUDA_DECLS=1' "$B/CMakeFiles/gpubound_obj.dir/flags.make" && ok || bad "GB_OWN_CUDA_DECLS is not defined"
NT="$B/gpubound"
# A report of a committed run with counters, and its roofline: the same report.md as the full build's.
"$NT" report "$GB_SRC/data/h100/corpus-2026-11-26/gemm" --out "$TMP/nt" --chart-format svg >"$TMP/nt.out" 2>"$TMP/nt.err"
RC=$?
"$GPUBOUND" report "$GB_SRC/data/h100/corpus-2026-11-26/gemm" --out "$TMP/full" --chart-format svg >"$TMP/full.out" 2>/dev/null
[ "$RC" = 0 ] && grep -q '^## Roofline' "$TMP/nt/report.md" && ok || { ERR=$(cat "$TMP/nt.err"); bad "report without the toolkit: rc $RC"; }
cmp -s "$TMP/nt/report.md" "$TMP/full/report.md" && cmp -s "$TMP/nt.out" "$TMP/full.out" && ok ||
    bad "report.md or the summary differ between the builds with and without the toolkit"
# Models: the CampProf fit and the roofline of committed runs, equal to the full build's.
mkdir -p "$TMP/fit-nt" "$TMP/fit-full"
(cd "$TMP/fit-nt" && "$NT" camp fit "$GB_SRC/data/h200/camping-2026-11-21" --model m.json >out 2>&1); RC=$?
(cd "$TMP/fit-full" && "$GPUBOUND" camp fit "$GB_SRC/data/h200/camping-2026-11-21" --model m.json >out 2>&1)
[ "$RC" = 0 ] && [ -s "$TMP/fit-nt/m.json" ] && cmp -s "$TMP/fit-nt/out" "$TMP/fit-full/out" && cmp -s "$TMP/fit-nt/m.json" "$TMP/fit-full/m.json" &&
    ok || { OUT=$(diff "$TMP/fit-nt/out" "$TMP/fit-full/out" | head -c 300); bad "camp fit without the toolkit: rc $RC or a different fit"; }
"$NT" roofline "$GB_SRC/data/h100/corpus-2026-11-26/gemm" --ceilings "$GB_SRC/data/h100/ceilings-2026-11-26" --format csv >"$TMP/rl-nt" 2>/dev/null; RC=$?
"$GPUBOUND" roofline "$GB_SRC/data/h100/corpus-2026-11-26/gemm" --ceilings "$GB_SRC/data/h100/ceilings-2026-11-26" --format csv >"$TMP/rl-full" 2>/dev/null
[ "$RC" = 0 ] && [ -s "$TMP/rl-nt" ] && cmp -s "$TMP/rl-nt" "$TMP/rl-full" && ok || bad "roofline without the toolkit: rc $RC or different rows"
"$NT" occupancy --threads 256 --regs 64 --smem 16384 --cc 9.0 >"$TMP/occ-nt" 2>&1; RC=$?
"$GPUBOUND" occupancy --threads 256 --regs 64 --smem 16384 --cc 9.0 >"$TMP/occ-full" 2>&1
[ "$RC" = 0 ] && cmp -s "$TMP/occ-nt" "$TMP/occ-full" && ok || bad "occupancy without the toolkit: rc $RC or a different answer"
# A GPU command still finds no GPU and says so in one line.
if ! has_gpu; then
    run_gb_nt() { "$NT" "$@" >"$TMP/out" 2>"$TMP/err"; RC=$?; OUT=$(cat "$TMP/out"); ERR=$(cat "$TMP/err"); }
    run_gb_nt info
    [ "$RC" = 3 ] && [ "$(printf '%s\n' "$ERR" | grep -c .)" = 1 ] && ok || bad "info without a GPU: rc $RC, expected 3 and one line"
fi
finish
