#!/usr/bin/env python3
"""camp_little_line.py RUN_ROOT...: the Little's-law application line, a candidate
for CampProf's line across occupancy that was tried and left out of the tool
(docs/models.md, "Across occupancy the line does not hold on Hopper").

For each application of each kernel under RUN_ROOT (an occupancy sweep recorded
with counters, one run directory per kernel), the line from every start
predicts every other configuration as t(w) = T * S(w r): T the bytes over the
H200's measured DRAM roof (data/h200/ceilings-2026-11-26), S(x) = h(x) / x with
the camping model's h (smax4, h(x) = (1 + x^4)^(1/4)), and r solved from the
start's time. (A knee k in S(w r / k) would cancel: r absorbs it.) Prints each
kernel's median |error| over starts and targets, and how many kernels reach
10%. Every configuration counts: the domain of validity is not applied.

    python3 scripts/camp_little_line.py data/h200/corpus-occupancy-2026-11-29 \\
        data/h200/heldout-occupancy-2026-11-29
"""
import glob
import gzip
import json
import math
import os
import statistics
import sys

DRAM_GBS = 4500.7  # the DRAM roof of data/h200/ceilings-2026-11-26


def slow(u):
    """S(u): how many times the roof's time a kernel takes at u (in units of its knee)."""
    return (1 + u ** 4) ** 0.25 / u


def solve_u(ratio):
    """The u at which slow(u) == ratio (slow falls from infinity to 1); None at or below 1."""
    if ratio <= 1.0000001:
        return None
    lo, hi = 1e-6, 1e6
    for _ in range(200):
        mid = math.sqrt(lo * hi)
        if slow(mid) > ratio:
            lo = mid
        else:
            hi = mid
    return math.sqrt(lo * hi)


def applications(run):
    """{axes other than block_size_* and occupancy_*: [(achieved warps, time ns, bytes)]}."""
    recs = [r for r in json.load(gzip.open(os.path.join(run, "results.json.gz"), "rt")) if r["status"] == "ok"]
    groups = {}
    for r in recs:
        key = tuple((k, v) for k, v in sorted(r["axes"].items())
                    if not k.startswith(("occupancy", "block_size")))
        w = r["counters"].get("sm__warps_active.avg.per_cycle_active") or r["metrics"]["active_warps_per_sm"]
        groups.setdefault(key, []).append((w, r["time_ns"]["median"], r["bytes"]))
    return groups


def line_median(pts):
    """Median |error| of the line from every start to every other configuration."""
    troof = pts[0][2] / DRAM_GBS
    errs = []
    for i, (w0, t0, _) in enumerate(pts):
        u0 = solve_u(t0 / troof)
        for j, (w, t, _) in enumerate(pts):
            if i != j:
                p = troof if u0 is None else troof * slow(u0 * w / w0)
                errs.append(abs(p - t) / t)
    return statistics.median(errs)


def main(roots):
    for root in roots:
        meds = []
        for run in sorted(glob.glob(os.path.join(root, "*", "run.json"))):
            run = os.path.dirname(run)
            per_app = [line_median(pts) for pts in applications(run).values()]
            meds.append(statistics.median(per_app))
            print("%-10s line median %.1f%% (per application: %s)" % (
                os.path.basename(run), 100 * meds[-1], ", ".join("%.1f" % (100 * x) for x in per_app)))
        print(root, "kernels with median <= 10%%: %d of %d" % (sum(1 for x in meds if x <= 0.10), len(meds)))


if __name__ == "__main__":
    main(sys.argv[1:])
