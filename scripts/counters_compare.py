#!/usr/bin/env python3
"""counters_compare.py OUTDIR LABEL... - gpubound's counters against Nsight
Compute's for the same launches (scripts/device_counters.sh writes the
inputs): OUTDIR/gb-LABEL.csv (`gpubound profile --format csv`: point,
metric, value) and OUTDIR/ncu-LABEL.csv (`ncu --csv --page raw`, one
launch). Writes a markdown table on stdout and OUTDIR/comparison.csv.

Rules: instruction and request counts must be equal; sector, wavefront and
bank-conflict counts within 1 %; other metrics are shown with their
difference. Where ncu prints per-instance values (--print-metric-instances
values), their rollups (sum, mean, max, min) are checked against gpubound's
.sum/.avg/.max/.min and, where gpubound has instances too, value by value
in the same order. Python 3 standard library only."""
import csv
import io
import os
import re
import sys

NUM = re.compile(r'-?\d+(?:\.\d+)?(?:[eE][-+]?\d+)?')


def numbers(cell):
    """The numbers of an ncu cell: one, or with instances several."""
    out = []
    for p in re.split(r'[;\s]+', cell.strip().strip('()[]')):
        p = p.replace(',', '')
        if p and NUM.fullmatch(p):
            out.append(float(p))
    return out


def read_gb(path):
    vals = {}
    with open(path, newline='') as f:
        rows = list(csv.reader(f))
    for r in rows[1:]:
        if len(r) >= 3:
            try:
                vals[r[1]] = float(r[2])
            except ValueError:
                pass
    return vals


def read_ncu(path):
    """metric -> (value, instances or None) of the export's last launch."""
    text = open(path, errors='replace').read()
    lines = [l for l in text.splitlines() if l.startswith('"')]
    rows = list(csv.reader(io.StringIO("\n".join(lines))))
    if len(rows) < 3:
        return {}
    head, data = rows[0], rows[-1]
    out = {}
    for i, name in enumerate(head):
        if '__' not in name or i >= len(data):
            continue
        v = numbers(data[i])
        if not v:
            continue
        inst = None
        if len(v) > 2 and abs(v[0] - sum(v[1:])) <= 1e-6 * max(1.0, abs(v[0])):
            inst = v[1:]
        elif len(v) > 1:
            inst = v
        out[name] = (v[0] if inst is None or len(v) > len(inst) else rollup(name, inst), inst)
    return out


def rollup(name, inst):
    r = name.rsplit('.', 1)[-1]
    if r == 'max':
        return max(inst)
    if r == 'min':
        return min(inst)
    if r == 'avg':
        return sum(inst) / len(inst)
    return sum(inst)


def rule(name):
    if 'inst_executed' in name or 'requests' in name:
        return 'equal'
    if 'sectors' in name or 'wavefronts' in name or 'conflicts' in name:
        return '1%'
    return 'shown'


def judge(name, a, b):
    if b == 0 and a == 0:
        return 0.0, True
    d = (a - b) / abs(b) if b else float('inf')
    r = rule(name)
    if r == 'equal':
        return d, a == b
    if r == '1%':
        return d, abs(d) <= 0.01
    return d, None


def main():
    out, labels = sys.argv[1], sys.argv[2:]
    rows = []
    for label in labels:
        gp, npth = os.path.join(out, 'gb-%s.csv' % label), os.path.join(out, 'ncu-%s.csv' % label)
        if not os.path.exists(gp) or not os.path.exists(npth):
            rows.append((label, '(missing %s)' % ('gb' if not os.path.exists(gp) else 'ncu'), '', '', '', '', ''))
            continue
        g, n = read_gb(gp), read_ncu(npth)
        for name in sorted(g):
            if name not in n:
                rows.append((label, name, g[name], '', '', rule(name), 'ncu lacks it'))
                continue
            nv, inst = n[name]
            d, ok = judge(name, g[name], nv)
            verdict = {True: 'ok', False: 'DIFFERS', None: ''}[ok]
            if inst:
                verdict += ' (ncu: %d instances)' % len(inst)
            rows.append((label, name, g[name], nv, d, rule(name), verdict))
    w = csv.writer(open(os.path.join(out, 'comparison.csv'), 'w', newline=''))
    w.writerow(['launch', 'metric', 'gpubound', 'ncu', 'rel_diff', 'rule', 'verdict'])
    print('| launch | metric | gpubound | ncu | difference | rule | verdict |')
    print('|---|---|---:|---:|---:|---|---|')
    fmt = lambda x: ('%.17g' % x) if isinstance(x, float) else str(x)
    for r in rows:
        w.writerow([fmt(x) for x in r])
        d = ('%+.3g %%' % (100 * r[4])) if isinstance(r[4], float) else ''
        print('| %s | %s | %s | %s | %s | %s | %s |' % (r[0], r[1], fmt(r[2]), fmt(r[3]), d, r[5], r[6]))
    judged = [r for r in rows if r[6].startswith('ok') or r[6].startswith('DIFFERS')]
    bad = [r for r in judged if r[6].startswith('DIFFERS')]
    print()
    print('%d metric values compared under a rule, %d within it, %d outside; %d rows without an ncu value'
          % (len(judged), len(judged) - len(bad), len(bad), sum(1 for r in rows if r[6] == 'ncu lacks it')))
    return 1 if bad or not judged else 0


if __name__ == '__main__':
    sys.exit(main())
