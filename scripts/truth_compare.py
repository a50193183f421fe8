#!/usr/bin/env python3
"""truth_compare.py POINT_DIR NCU_CSV TAG MODE KERNEL: one row of truth.csv.

gpubound's median time of the point recorded in POINT_DIR against the median
gpu__time_duration.sum of KERNEL's launches in Nsight Compute's CSV (raw page,
base units). Exits 1 when they differ by more than 1% or 0.1 us."""
import csv
import gzip
import json
import os
import statistics
import sys


def ncu_durations(path, kernel):
    """KERNEL's gpu__time_duration values (ns) in an export at PATH (or PATH.gz)."""
    if not os.path.exists(path) and os.path.exists(path + '.gz'):
        with gzip.open(path + '.gz', 'rt') as f:
            lines = f.readlines()
    else:
        with open(path) as f:
            lines = f.readlines()
    rows = [r for r in csv.reader(l for l in lines if not l.startswith('==')) if r]
    head = next(i for i, r in enumerate(rows) if 'Kernel Name' in r and 'ID' in r)
    names = rows[head]
    ti, ki = names.index('gpu__time_duration.sum'), names.index('Kernel Name')
    unit = rows[head + 1][ti]
    scale = {'nsecond': 1.0, 'ns': 1.0, 'usecond': 1e3, 'us': 1e3, 'msecond': 1e6, 'ms': 1e6, 'second': 1e9, 's': 1e9}[unit]
    return [float(r[ti].replace(',', '')) * scale for r in rows[head + 2:]
            if len(r) == len(names) and r[ki].startswith(kernel)]


def main():
    d, ncsv, tag, mode, kernel = sys.argv[1:]
    recs = [json.loads(l.strip().rstrip(',')) for l in open(d + '/results.json') if l.strip().startswith('{')]
    r = recs[0]
    vals = ncu_durations(ncsv, kernel)
    if not vals:
        sys.exit('%s %s: ncu timed no launch of %s' % (tag, mode, kernel))
    n = statistics.median(vals)
    g = r['time_ns']['median']
    ok = abs(g - n) <= max(0.01 * n, 100.0)
    b = r.get('batch_time_ns') or {}
    print(','.join(str(x) for x in [
        tag, mode, r['suite'] + '/' + r['bench'], kernel, '%.1f' % g, '%.1f' % r['time_ns']['ci_lo'],
        '%.1f' % r['time_ns']['ci_hi'], r.get('time_source') or '', r.get('cold_flush') or '', r.get('batch', 1),
        '%.1f' % b['median'] if b.get('median') else '', '%.1f' % n, len(vals), '%.2f' % ((g - n) / n * 100),
        'yes' if ok else 'no']))
    return 0 if ok else 1


if __name__ == '__main__':
    sys.exit(main())
