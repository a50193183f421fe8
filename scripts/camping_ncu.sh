#!/usr/bin/env bash
# camping_ncu.sh - where the camping suite's address patterns land, per
# memory partition (FBPA) and per L2 slice, from the in-process profiler:
# each pattern is a `gpubound run camping/read|write --counters` point, so
# the camped and spread sets profiled are the very sets its samples timed
# (the slice probe's set of one process, not another's). Nsight Compute is
# no longer needed (it was, before `run --counters`: the probe under ncu
# could not tell slices apart).
#
# For each pattern (64 active warps per SM, 4-byte accesses) the counters
#   dram__sectors_read, dram__sectors_write        (over the FBPAs)
#   lts__t_sectors_op_read, lts__t_sectors_op_write (over the L2 slices)
# are recorded with their rollups .sum, .avg, .max and .min, and the
# summary prints per counter the number of units (.sum / .avg), the total
# (.sum), max/avg and max/min: 1.00 is a perfectly even spread; a pattern
# camped on one of N units shows about N. Per-instance values are used
# where a record holds them.
#
# Usage: scripts/camping_ncu.sh [GPUBOUND] [OUTDIR]
#   GPUBOUND  the gpubound binary (default build/gpubound)
#   OUTDIR    where the runs and summary.txt go (default ./camping-counters-<date>)
# Needs a GPU whose counters this user may read, and python3.
set -euo pipefail
GB=${1:-build/gpubound}
OUT=${2:-camping-counters-$(date -u +%Y%m%d-%H%M%S)}
command -v python3 >/dev/null || { echo "camping_ncu.sh: python3 not found" >&2; exit 2; }
[ -x "$GB" ] || { echo "camping_ncu.sh: $GB is not an executable gpubound" >&2; exit 2; }
mkdir -p "$OUT"
METRICS=dram__sectors_read.sum,dram__sectors_write.sum,lts__t_sectors_op_read.sum,lts__t_sectors_op_write.sum

# label | bench | --set arguments
CASES=(
    "read-spread|read|pattern=spread"
    "read-camped-slice|read|pattern=camped camp_pitch=0"
    "read-column-4096|read|pattern=camped camp_pitch=4096"
    "read-column-4224|read|pattern=camped camp_pitch=4224"
    "read-column-8448|read|pattern=camped camp_pitch=8448"
    "read-column-65536|read|pattern=camped camp_pitch=65536"
    "read-column-65664|read|pattern=camped camp_pitch=65664"
    "write-spread|write|pattern=spread"
    "write-camped-slice|write|pattern=camped camp_pitch=0"
    "write-column-4096|write|pattern=camped camp_pitch=4096"
)

for c in "${CASES[@]}"; do
    IFS='|' read -r label bench sets <<<"$c"
    args=()
    for s in $sets width=4 warps=64; do args+=(--set "$s"); done
    rm -rf "$OUT/run-$label"
    echo "== $label" >&2
    "$GB" run "camping/$bench" --quick --no-report --max-time 0.1 "${args[@]}" --counters="$METRICS" \
        --out "$OUT/run-$label" >"$OUT/$label.log" 2>&1 || { echo "run failed for $label (see $OUT/$label.log)" >&2; continue; }
done

python3 - "$OUT" "${CASES[@]}" >"$OUT/summary.txt" <<'PY'
import json, sys
out, cases = sys.argv[1], sys.argv[2:]
def ratio(a, b):
    return a / b if b > 0 else float('nan')
print("%-22s %-26s %6s %14s %8s %8s" % ("pattern", "counter", "units", "total", "max/avg", "max/min"))
for c in cases:
    label = c.split('|')[0]
    try:
        lines = open("%s/run-%s/results.json" % (out, label)).read().splitlines()
    except OSError:
        continue
    recs = [json.loads(l.strip().rstrip(',')) for l in lines if l.strip().startswith('{')]
    recs = [r for r in recs if r.get('counters')]
    if not recs:
        print("%-22s no counters (see %s.log)" % (label, label))
        continue
    cnt = recs[-1]['counters']
    for base in ("dram__sectors_read", "dram__sectors_write", "lts__t_sectors_op_read", "lts__t_sectors_op_write"):
        s = cnt.get(base + ".sum")
        if isinstance(s, list):
            total, units, mx, mn = sum(s), len(s), max(s), min(s)
        elif s is not None and (base + ".avg") in cnt:
            total, avg = s, cnt[base + ".avg"]
            units = round(ratio(total, avg)) if avg else float('nan')
            mx, mn = cnt.get(base + ".max", float('nan')), cnt.get(base + ".min", float('nan'))
        else:
            continue
        mean = ratio(total, units)
        print("%-22s %-26s %6s %14.0f %8.3f %8.3f" % (label, base, units, total, ratio(mx, mean), ratio(mx, mn)))
PY
cat "$OUT/summary.txt"
echo "runs and logs: $OUT" >&2
