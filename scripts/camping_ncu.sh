#!/usr/bin/env bash
# camping_ncu.sh - where the camping suite's address patterns land, per
# memory partition (FBPA) and per L2 slice, from Nsight Compute's
# counter rollups over those units.
#
# For each pattern, profiles the first (verification) launch of camp_read or
# camp_write in a `gpubound run camping/read|write` point at 64 active warps
# per SM and 4-byte accesses, collecting the rollups .sum, .avg, .max and
# .min of
#   dram__sectors_read, dram__sectors_write        (over the FBPAs)
#   lts__t_sectors_op_read, lts__t_sectors_op_write (over the L2 slices)
# and prints, per counter, the number of units (.sum / .avg), the total
# (.sum) and max/avg (.max / .avg): 1.00 is a perfectly even spread; a
# pattern camped on one of N units shows about N. Where Nsight Compute also
# prints the per-unit values of a rollup (some versions do with
# --print-metric-instances values), max/avg and the unit count come from
# those values instead, and both are shown.
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
METRICS=
for base in dram__sectors_read dram__sectors_write lts__t_sectors_op_read lts__t_sectors_op_write; do
    for r in sum avg max min; do METRICS+="${METRICS:+,}$base.$r"; done
done

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
    """The numbers of a cell: one (the rollup) or, with per-instance
    printing, possibly the rollup followed by the instances."""
    parts = [p for p in re.split(r'[;\s]+', cell.strip().strip('()[]')) if p]
    vals = []
    for p in parts:
        m = num.fullmatch(p.replace(',', ''))
        if m:
            vals.append(float(m.group(0)))
    return vals
def instances(vals):
    """Per-unit values when the cell lists them (more than one number; a
    leading aggregate equal to their sum is dropped), else None."""
    if len(vals) > 2 and abs(vals[0] - sum(vals[1:])) <= 1e-6 * max(1.0, vals[0]):
        vals = vals[1:]
    return vals if len(vals) > 1 else None
def ratio(a, b):
    return a / b if b > 0 else float('nan')
print("%-22s %-26s %6s %14s %8s %10s" % ("pattern", "counter", "units", "total", "max/avg", "inst max/avg"))
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
    roll = {}   # base -> {rollup: value}
    inst = {}   # base -> per-unit values, where printed
    for i, name in enumerate(head):
        m = re.fullmatch(r'((?:dram__sectors|lts__t_sectors)\w*)\.(sum|avg|max|min)', name)
        if not m or i >= len(data):
            continue
        v = values(data[i])
        if not v:
            continue
        roll.setdefault(m.group(1), {})[m.group(2)] = v[0]
        iv = instances(v)
        if iv and m.group(1) not in inst:
            inst[m.group(1)] = iv
    for base in sorted(roll):
        r = roll[base]
        total = r.get('sum', float('nan'))
        units = ratio(r['sum'], r['avg']) if 'sum' in r and 'avg' in r else float('nan')
        ma = ratio(r['max'], r['avg']) if 'max' in r and 'avg' in r else float('nan')
        iv = inst.get(base)
        ima = ratio(max(iv), sum(iv) / len(iv)) if iv else float('nan')
        if iv:
            units = len(iv)
        print("%-22s %-26s %6.0f %14.0f %8.3f %10.3f" % (label, base, units, total, ma, ima))
PY
cat "$OUT/summary.txt"
echo "raw exports and logs: $OUT" >&2
