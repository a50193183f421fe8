# Device tier: every suite in quick mode on a real GPU; every point must verify.
. "$(dirname "$0")/lib.bash"
quick_run "" --no-report
# Every record must be ok (verified and timed).
count_records 'failed\|error'
echo "$ok passed, $bad failed"
[ "$bad" = 0 ] && [ "$ok" -gt 0 ] && run_complete
