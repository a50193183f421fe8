# Device tier: a run's first point is timed like a later one. A hot 8 MiB
# read (it fits the L2) measured alone, as the first point of its process,
# and measured after a 256 MiB read in one process agree within 3%. Before
# runs opened with the priming session (gb_timer_profiler_prime, timer.h),
# an H100 timed the first 11% slower (3.968 against 3.568 us,
# data/h100/hot-order-2026-11-25).
set -u
: "${GPUBOUND:?}"
dir=$(mktemp -d /tmp/gb-first-XXXXXX)
trap 'rm -rf "$dir"' EXIT
a="bandwidth/read --set width=16 --set grid=stride --hot --no-report"
# shellcheck disable=SC2086
"$GPUBOUND" run $a --set bytes=8M --out "$dir/alone" >/dev/null 2>"$dir/alone.err" ||
    { echo "FAIL: run alone: $(tail -n 1 "$dir/alone.err")"; exit 1; }
# shellcheck disable=SC2086
"$GPUBOUND" run $a --set bytes=256M,8M --out "$dir/after" >/dev/null 2>"$dir/after.err" ||
    { echo "FAIL: run after: $(tail -n 1 "$dir/after.err")"; exit 1; }
python3 - "$dir" <<'PY'
import json, sys
d = sys.argv[1]
def rec(run, size):
    for line in open('%s/%s/results.json' % (d, run)):
        line = line.strip().rstrip(',')
        if line.startswith('{'):
            r = json.loads(line)
            if r['axes']['bytes'] == size:
                return r
    sys.exit('FAIL: no %s record in %s' % (size, run))
alone, after = rec('alone', '8M'), rec('after', '8M')
for r in (alone, after):
    if r['status'] != 'ok' or r['time_source'] != 'profiler':
        sys.exit('FAIL: the 8M point is %s, timed by %s; this test needs the profiler clock' % (r['status'], r['time_source']))
a, b = alone['time_ns']['median'], after['time_ns']['median']
print('8M hot: %.3f us as the first point, %.3f us after a 256M read (%+.1f%%)' % (a / 1e3, b / 1e3, (a / b - 1) * 100))
if abs(a / b - 1) > 0.03:
    sys.exit('FAIL: the first point differs by more than 3%')
print('1 passed, 0 failed')
PY
