# Device tier: suite patterns in quick mode on a real GPU. Every point must
# verify (each variant against the host reference and against the other
# variant), and the speedup tables must be printed with a row per pattern.
. "$(dirname "$0")/lib.bash"
quick_run patterns patterns
count_records 'failed\|error\|skipped'
echo "$ok passed, $bad not ok"
fail=0
[ "$bad" = 0 ] && [ "$ok" -gt 0 ] || fail=1
run_complete || { echo "FAIL: run.json not complete"; fail=1; }
# Every pattern has a row in the headline table.
for b in bank_conflict global_memory replication_copy coalescing scattered_copy register_imbalance \
         barrier_wait branch_divergence; do
    awk '/^Speedup of the revised kernel over the original, per pattern$/{on=1} /^Speedup of the revised kernel at every/{on=0} on' \
        "$out/stdout" | grep -q "^$b " || { echo "FAIL: no headline row for $b"; fail=1; }
done
# The register imbalance records say what the occupancy calculator chose.
grep '"bench":"register_imbalance"' "$out/run/results.json" | grep -q '"occ_achieved"' \
    || { echo "FAIL: register_imbalance lacks its occupancy metrics"; fail=1; }
# The chart needs gnuplot; without it the report says so and the table is still there.
if command -v gnuplot >/dev/null 2>&1; then
    [ -s "$out/run/report/patterns-speedup.png" ] || { echo "FAIL: the speedup chart was not drawn"; fail=1; }
fi
exit $fail
