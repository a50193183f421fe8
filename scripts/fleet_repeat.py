#!/usr/bin/env python3
"""fleet_repeat.py GPUBOUND RUN_A RUN_B...: whether the differences between
the GPUs of a fleet repeat from run to run (docs/fleet.md).

For every point that two members measured in every run, the log of member
1's median over member 0's; per suite: the points compared, the share whose
sign is the same in every run, the correlation of run A's log ratios with
each other run's, and, of the points where the two GPUs were apart beyond
their intervals in run A ("beyond the intervals" in `gpubound fleet`), how
many kept the sign in every other run. Differences that repeat belong to
the GPUs; differences that do not are run-to-run noise the per-run interval
does not cover. Two-member fleets only (rank 0 against rank 1).
"""
import csv
import io
import math
import statistics
import subprocess
import sys


def load(gb, run):
    out = subprocess.run([gb, "fleet", run, "--format", "csv", "--no-chart"], check=True,
                         capture_output=True, text=True).stdout
    pts = {}
    for row in csv.DictReader(io.StringIO(out)):
        if row["status"] != "ok":
            continue
        pts.setdefault(row["point"], {})[int(row["rank"])] = (
            float(row["median (ns)"]), float(row["ci_lo (ns)"]), float(row["ci_hi (ns)"]))
    return {p: v for p, v in pts.items() if 0 in v and 1 in v}


def main():
    if len(sys.argv) < 4:
        sys.exit("usage: fleet_repeat.py GPUBOUND RUN_A RUN_B [RUN_C...]")
    gb, runs = sys.argv[1], [load(sys.argv[1], r) for r in sys.argv[2:]]
    common = [p for p in runs[0] if all(p in r for r in runs[1:])]
    print("suite       points  same sign in every run  correlation with run A  apart in A  of those, same sign")
    for suite in sorted({p.split("/")[0] for p in common}):
        pts = [p for p in common if p.split("/")[0] == suite]
        lr = [[math.log(r[p][1][0] / r[p][0][0]) for p in pts] for r in runs]
        same = sum(1 for i in range(len(pts)) if len({x[i] > 0 for x in lr}) == 1)
        corr = ", ".join("%.3f" % statistics.correlation(lr[0], x) if len(pts) > 1 else "-" for x in lr[1:])
        apart = [i for i, p in enumerate(pts)
                 if max(runs[0][p][0][1], runs[0][p][1][1]) > min(runs[0][p][0][2], runs[0][p][1][2])]
        kept = sum(1 for i in apart if len({x[i] > 0 for x in lr}) == 1)
        print("%-10s  %6d  %22s  %22s  %10d  %18s" % (suite, len(pts), "%d (%.0f%%)" % (same, 100.0 * same / len(pts)),
                                                     corr, len(apart), "%d" % kept))


if __name__ == "__main__":
    main()
