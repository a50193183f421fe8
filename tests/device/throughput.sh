# Device tier: suite `throughput` in quick mode; every point verifies, the
# throughput rows carry measured and documented rates, and the latency,
# shared- and constant-memory rows their metrics.
. "$(dirname "$0")/lib.bash"
quick_run throughput throughput
res="$out/run/results.json"
count_records 'failed\|error\|skipped'
fails=0
check() { if ! grep "$1" "$res" | grep -q "$2"; then echo "FAIL: $3"; fails=$((fails + 1)); fi; }
check '"op":"ffma","mode":"tput"' '"doc_ops_per_clk_sm"' "ffma tput has no documented rate"
check '"op":"ffma","mode":"tput"' '"ratio"' "ffma tput has no ratio"
check '"op":"ffma","mode":"lat"' '"clk_per_op"' "ffma lat has no cycles per op"
check '"bench":"smem"' '"bytes_per_clk_sm"' "smem has no bandwidth"
check '"bench":"smem_broadcast"' '"ops_per_clk_sm"' "smem_broadcast has no rate"
check '"pattern":"divergent"' '"ops_per_clk_sm"' "const divergent has no rate"
# The summary printed by the run shows the three columns.
for col in ops_per_clk_sm doc_ops_per_clk_sm ratio; do
    grep -q "$col" "$out/stdout" || { echo "FAIL: the summary lacks $col"; fails=$((fails + 1)); }
done
[ -s "$out/run/report/throughput-arith.svg" ] || [ -s "$out/run/report/throughput-arith.gp" ] ||
    { echo "FAIL: no arith chart"; fails=$((fails + 1)); }
echo "$ok passed, $bad failed, $fails missing metrics"
[ "$bad" = 0 ] && [ "$ok" -gt 0 ] && [ "$fails" = 0 ] && run_complete
