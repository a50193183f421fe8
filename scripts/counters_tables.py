#!/usr/bin/env python3
"""Tables of docs/counters.md from the committed counter runs.

Usage: counters_tables.py SRC

Reads the newest data/<gpu>/counters-*/comparison.csv of each GPU (gpubound profile against
Nsight Compute, written by scripts/counters_compare.py) and the camp detect
outputs (detect.out, detect-transpose.out, detect-bandwidth.out) beside it,
and prints the markdown that docs/counters.md holds between its
"counters tables" markers (tests/cli/docs_counters.sh diffs the two).
"""
import csv
import glob
import os
import re
import sys

# Metric classes, in the order the doc lists them: (label, test on the name).
CLASSES = [
    ("instructions (`smsp__inst_executed*`)", lambda m: m.startswith("smsp__inst_executed")),
    ("global requests (`l1tex__t_requests_*`)", lambda m: m.startswith("l1tex__t_requests")),
    ("L1 global sectors (`l1tex__t_sectors_*`)", lambda m: m.startswith("l1tex__t_sectors")),
    ("shared wavefronts and bank conflicts (`l1tex__data_*`)", lambda m: m.startswith("l1tex__data")),
    ("L2 sectors (`lts__t_sectors*`)", lambda m: m.startswith("lts__")),
    ("DRAM sectors (`dram__sectors_*`)", lambda m: m.startswith("dram__")),
]
DETECT_FILES = ["detect.out", "detect-transpose.out", "detect-bandwidth.out"]


def gpu_runs(src):
    """The newest comparison of each GPU (the runs sort by date, then -b, -c...)."""
    latest = {}
    for d in sorted(glob.glob(os.path.join(src, "data", "*", "counters-*"))):
        if os.path.isfile(os.path.join(d, "comparison.csv")):
            latest[os.path.basename(os.path.dirname(d))] = d
    return [latest[g] for g in sorted(latest)]


def rel_path(src, path):
    return os.path.relpath(path, src)


def fmt_pct(x):
    return "%+.2f %%" % (100.0 * x)


def comparison_rows(src, run):
    with open(os.path.join(run, "comparison.csv"), newline="") as f:
        rows = list(csv.DictReader(f))
    out = []
    for label, test in CLASSES:
        sel = [r for r in rows if test(r["metric"])]
        ok = sum(1 for r in sel if r["verdict"] == "ok")
        finite = [float(r["rel_diff"]) for r in sel if r["rel_diff"] not in ("inf", "-inf", "nan")]
        worst = max(finite, key=abs) if finite else 0.0
        inf = sum(1 for r in sel if r["rel_diff"] in ("inf", "-inf"))
        rule = sel[0]["rule"] if sel else ""
        out.append("| %s | %s | %d | %d | %s%s |" % (
            label, rule, len(sel), ok, fmt_pct(worst),
            "; %d with ncu 0" % inf if inf else ""))
    return out


def differing_rows(run):
    """Rows of the exact-count classes that differ (instructions, requests)."""
    with open(os.path.join(run, "comparison.csv"), newline="") as f:
        rows = list(csv.DictReader(f))
    return [r for r in rows if r["rule"] == "equal" and r["verdict"] != "ok"]


def detect_rows(run):
    out = []
    for name in DETECT_FILES:
        path = os.path.join(run, name)
        if not os.path.isfile(path):
            continue
        with open(path) as f:
            lines = f.read().splitlines()
        if len(lines) < 3:
            continue
        for line in lines[2:]:
            if not line.strip():
                continue
            # point, units, sectors, instances, max/mean, max/min, x spread, verdict
            f = re.split(r"\s{2,}", line.strip(), maxsplit=7)
            out.append("| %s |" % " | ".join([f[0], f[1], f[2], f[3], f[4], f[6], f[7]]))
    return out


def gpu_name(run):
    return os.path.basename(os.path.dirname(run)).upper()


def main():
    if len(sys.argv) != 2:
        sys.stderr.write("usage: counters_tables.py SRC\n")
        return 2
    src = sys.argv[1]
    runs = gpu_runs(src)
    if not runs:
        sys.stderr.write("counters_tables.py: no data/<gpu>/counters-*/comparison.csv under %s\n" % src)
        return 1
    print("gpubound profile against `ncu --csv --page raw --cache-control all`, per metric class "
          "(every value of every launch; worst = the largest relative difference, gpubound against ncu):")
    for run in runs:
        print()
        print("%s (`%s`):" % (gpu_name(run), rel_path(src, os.path.join(run, "comparison.csv"))))
        print()
        print("| metrics | rule | values | within the rule | worst |")
        print("|---|---|---:|---:|---:|")
        for line in comparison_rows(src, run):
            print(line)
        diff = differing_rows(run)
        if diff:
            print()
            print("Exact counts that differ: " + "; ".join(
                "%s %s %s against ncu's %s" % (r["launch"], r["metric"], r["gpubound"], r["ncu"]) for r in diff) + ".")
    for run in runs:
        print()
        print("`camp detect` on the %s (`%s/detect*.out`):" % (gpu_name(run), rel_path(src, run)))
        print()
        print("| point | units | sectors | instances | max/mean | x spread | verdict |")
        print("|---|---|---:|---:|---:|---:|---|")
        for line in detect_rows(run):
            print(line)
    return 0


if __name__ == "__main__":
    sys.exit(main())
