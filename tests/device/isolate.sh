# Device tier: --isolate leaves the GPU idle before each sample, and says
# so. A hot 256 MiB read back to back and with --isolate 2: the isolated
# record carries isolate_s = 0.002, its sampling lasted at least 2 ms a
# sample, and its median is not longer than the back-to-back one by more
# than 0.5% (on an H100 it is 0.7% shorter; on both GPUs closer to Nsight
# Compute's, data/h100/truth-2026-11-26 and its isolate-1/).
. "$(dirname "$0")/lib.bash"
dir=$out
a="bandwidth/read --set width=16 --set grid=stride --set bytes=256M --hot --no-report"
# shellcheck disable=SC2086
"$GPUBOUND" run $a --out "$dir/loop" >/dev/null 2>"$dir/loop.err" ||
    { echo "FAIL: back to back: $(tail -n 1 "$dir/loop.err")"; exit 1; }
# shellcheck disable=SC2086
"$GPUBOUND" run $a --isolate 2 --out "$dir/alone" >/dev/null 2>"$dir/alone.err" ||
    { echo "FAIL: --isolate 2: $(tail -n 1 "$dir/alone.err")"; exit 1; }
plausible "$dir/loop"
plausible "$dir/alone"
python3 - "$dir" <<'PY'
import json, sys
d = sys.argv[1]
def rec(run):
    for line in open('%s/%s/results.json' % (d, run)):
        line = line.strip().rstrip(',')
        if line.startswith('{'):
            return json.loads(line)
    sys.exit('FAIL: no record in %s' % run)
loop, alone = rec('loop'), rec('alone')
fails = 0
for name, r in (('back to back', loop), ('--isolate 2', alone)):
    if r['status'] != 'ok':
        sys.exit('FAIL: %s: the point is %s: %s' % (name, r['status'], r['reason']))
if 'isolate_s' in loop:
    print('FAIL: the back-to-back record says isolate_s = %s' % loop['isolate_s']); fails += 1
if abs(alone.get('isolate_s', 0) - 0.002) > 1e-9:
    print('FAIL: the isolated record says isolate_s = %s, not 0.002' % alone.get('isolate_s')); fails += 1
run = json.load(open('%s/alone/run.json' % d))
sampling = run['wall_parts']['sampling_s']
if sampling < alone['samples'] * 0.002:
    print('FAIL: %d isolated samples in %.4f s of sampling: the GPU did not idle 2 ms each' % (alone['samples'], sampling)); fails += 1
a, b = alone['time_ns']['median'], loop['time_ns']['median']
print('256M hot: %.3f us back to back, %.3f us with --isolate 2 (%+.2f%%)' % (b / 1e3, a / 1e3, (a / b - 1) * 100))
if a > b * 1.005:
    print('FAIL: isolated samples are more than 0.5% longer than back-to-back ones'); fails += 1
print('%d passed, %d failed' % (4 - fails, fails))
sys.exit(1 if fails else 0)
PY
