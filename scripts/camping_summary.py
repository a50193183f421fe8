#!/usr/bin/env python3
"""camping_summary.py RUN_DIR - the numbers docs/suites.md's camping section
asks for, read from a recorded run of the camping suite (results.json):
the discovery's patterns ranked by slowdown (the worst first), the slice
probe's findings, and the camped/spread time ratios of read and write at the
largest active warps per SM measured, per width. Needs no GPU."""
import json
import sys


def load(run_dir):
    recs = []
    with open(run_dir + "/results.json") as f:
        for line in f:
            line = line.strip().rstrip(",")
            if line.startswith("{"):
                recs.append(json.loads(line))
    return [r for r in recs if r.get("suite") == "camping"]


def main():
    if len(sys.argv) != 2:
        print("usage: camping_summary.py RUN_DIR", file=sys.stderr)
        return 2
    try:
        recs = load(sys.argv[1])
    except (OSError, ValueError) as e:
        print("camping_summary.py: cannot read %s/results.json: %s" % (sys.argv[1], e), file=sys.stderr)
        return 1
    ok = [r for r in recs if r["status"] == "ok"]
    bad = [r for r in recs if r["status"] != "ok"]
    print("points: %d ok, %d not ok" % (len(ok), len(bad)))
    for r in bad:
        print("  %s %s: %s: %s" % (r["bench"], r["axes"], r["status"], r["reason"]))

    disc = [r for r in ok if r["bench"] == "discover" and "slowdown" in r["metrics"]]
    disc.sort(key=lambda r: -r["metrics"]["slowdown"])
    print("\ndiscovery, worst first (footprint offset pitch: slowdown, time, reference):")
    for r in disc:
        a, m = r["axes"], r["metrics"]
        extra = ""
        if a.get("pitch") == "0":
            extra = ("  [slice probe: pair_ratio %.3f, same_slice %d/%d, %d candidates; spread set %d lines "
                     "in distinct slices; probe kernel camped/spread %.3f]") % (
                m.get("pair_ratio", float("nan")), m.get("same_slice", -1), m.get("set_lines", 0) - 1,
                m.get("candidates", 0), m.get("spread_slices", -1), m.get("probe_slowdown", float("nan")))
        print("  %5s %5s %7s: %7.3f  %10.1f us  %10.1f us%s" % (
            a.get("footprint"), a.get("offset"), a.get("pitch"), m["slowdown"], r["time_ns"]["median"] / 1e3,
            m.get("ref_ns", float("nan")) / 1e3, extra))
    dram = [r for r in disc if r["axes"].get("pitch") != "0"]
    if dram:
        w = dram[0]
        print("worst column pattern: pitch %s, footprint %s, offset %s, slowdown %.3f" % (
            w["axes"]["pitch"], w["axes"]["footprint"], w["axes"]["offset"], w["metrics"]["slowdown"]))

    for bench in ("read", "write"):
        mb = [r for r in ok if r["bench"] == bench]
        if not mb:
            continue
        top = max(int(r["axes"]["warps"]) for r in mb)
        print("\n%s at %d warps per SM, camped / spread time:" % (bench, top))
        for width in ("2", "4", "8", "16"):
            t = {}
            for r in mb:
                a = r["axes"]
                if int(a["warps"]) == top and a["width"] == width:
                    t[(a["pattern"], a.get("camp_pitch", "0"))] = r["time_ns"]["median"]
            for cp in sorted({k[1] for k in t}):
                if ("spread", cp) in t and ("camped", cp) in t:
                    print("  %2s B (camp_pitch %s): %.3f" % (width, cp, t[("camped", cp)] / t[("spread", cp)]))
    return 0


if __name__ == "__main__":
    sys.exit(main())
