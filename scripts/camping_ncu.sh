#!/usr/bin/env bash
# camping_ncu.sh - where the camping suite's address patterns land, per
# memory partition (FBPA) and per L2 slice, from Nsight Compute's
# per-instance counter values.
#
# For each pattern, profiles the first (verification) launch of camp_read or
# camp_write in a `gpubound run camping/read|write` point at 64 active warps
# per SM and 4-byte accesses, collecting per-instance values of
#   dram__sectors_read.sum, dram__sectors_write.sum    (one instance per FBPA)
#   lts__t_sectors_op_read.sum, lts__t_sectors_op_write.sum (one per L2 slice)
# and prints, per metric, the number of instances, the total, and max/avg:
# 1.00 is a perfectly even spread; a pattern camped on one of N instances
# shows about N.
#
# Usage: scripts/camping_ncu.sh [GPUBOUND] [OUTDIR]
#   GPUBOUND  the gpubound binary (default build/gpubound)
#   OUTDIR    where the raw CSV exports and summary.txt go (default
#             ./camping-ncu-<date>)
# Needs ncu (Nsight Compute) on PATH with access to the GPU's counters, and
# python3. Clocks are left alone (--clock-control none).
set -euo pipefail
GB=${1:-build/gpubound}
OUT=${2:-camping-ncu-$(date -u +%Y%m%d-%H%M%S)}
command -v ncu >/dev/null || { echo "camping_ncu.sh: ncu not found on PATH; install Nsight Compute" >&2; exit 2; }
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
    ncu --clock-control none -k "regex:^camp_${bench}\$" -c 1 --metrics "$METRICS" \
        --print-metric-instances values --print-units base --csv --page raw \
        "$GB" run "camping/$bench" --quick --no-report --max-time 0.1 "${args[@]}" --out "$OUT/run-$label" \
        >"$OUT/$label.csv" 2>"$OUT/$label.log" || { echo "ncu failed for $label (see $OUT/$label.log)" >&2; continue; }
done

python3 - "$OUT" "${CASES[@]}" >"$OUT/summary.txt" <<'PY'
import csv, io, re, sys
out, cases = sys.argv[1], sys.argv[2:]
num = re.compile(r'-?\d+(?:\.\d+)?(?:[eE][-+]?\d+)?')
def values(cell):
    parts = [p for p in re.split(r'[;\s]+', cell.strip().strip('()[]')) if p]
    vals = []
    for p in parts:
        m = num.fullmatch(p.replace(',', ''))
        if m:
            vals.append(float(m.group(0)))
    # A leading aggregate equal to the sum of the instances is not an instance.
    if len(vals) > 2 and abs(vals[0] - sum(vals[1:])) <= 1e-6 * max(1.0, vals[0]):
        vals = vals[1:]
    return vals
print("%-22s %-28s %5s %14s %8s" % ("pattern", "metric", "inst", "total", "max/avg"))
for c in cases:
    label = c.split('|')[0]
    try:
        text = open("%s/%s.csv" % (out, label)).read()
    except OSError:
        continue
    lines = [l for l in text.splitlines() if l.startswith('"')]
    rows = list(csv.reader(io.StringIO("\n".join(lines))))
    if len(rows) < 3:
        print("%-22s no profiled launch (see %s.log)" % (label, label))
        continue
    head, data = rows[0], rows[-1]
    for i, name in enumerate(head):
        if not (name.startswith("dram__sectors") or name.startswith("lts__t_sectors")):
            continue
        v = values(data[i]) if i < len(data) else []
        if not v:
            continue
        avg = sum(v) / len(v)
        print("%-22s %-28s %5d %14.0f %8.3f" % (label, name, len(v), sum(v), max(v) / avg if avg > 0 else float('nan')))
PY
cat "$OUT/summary.txt"
echo "raw exports and logs: $OUT" >&2
