# Device tier: the geometry advisor on a real ubench run (quick mode). The
# records the suite writes must be the ones the advisor reads: axes rows,
# cols, size and cache with the documented values, and the occupancy metrics.
. "$(dirname "$0")/../cli/lib.bash"

expect 0 "" run ubench --quick --out "$TMP/ub" --no-report
[ "$RC" = 0 ] || { echo "gpubound run ubench --quick failed: ${ERR:0:2000}"; finish; exit 1; }

expect 0 "" geometry "$TMP/ub" --all --format csv
rows=$(printf '%s\n' "$OUT" | tail -n +2)
[ -n "$rows" ] && ok || bad "--all: no row"
printf '%s\n' "$rows" | head -20
# bench,size,cache,shapes,not ok,best,best (µs),recommended,within 5%,threads,max-occ shapes,...,max occ necessary (16)
printf '%s\n' "$rows" | awk -F, '$2 !~ /^(small|medium|large)$/ || $3 !~ /^(min|default|max)$/ {exit 1}' && ok \
    || bad "a size or cache value outside small|medium|large and min|default|max"
printf '%s\n' "$rows" | awk -F, '$4 < 1 || $6 == "" || $8 == "" {exit 1}' && ok \
    || bad "a group without a ranked shape or a recommendation"
printf '%s\n' "$rows" | awk -F, '$11 == "" || $16 == "unknown" {exit 1}' && ok \
    || bad "records without the max_occupancy metric"
printf '%s\n' "$rows" | cut -d, -f1 | grep -qx 'ubench1' && ok || bad "no ubench1 row"

# Every class with a bench in the run answers; the text output has its parts.
expect 0 "" geometry "$TMP/ub" --class ubench
printf '%s\n' "$OUT" | grep -q '^maximize occupancy: ' && printf '%s\n' "$OUT" | grep -q '^square blocks: ' && ok \
    || bad "--class ubench: the comparisons are missing"
for c in $("$GPUBOUND" geometry --classes --format csv | tail -n +2 | cut -d, -f1); do
    run_gb geometry "$TMP/ub" --class "$c"
    if [ "$RC" = 0 ]; then ok
    elif [ "$RC" = 2 ] && printf '%s\n' "$ERR" | grep -q 'has no bench of class'; then ok
    else bad "--class $c exited $RC"; fi
done
finish
