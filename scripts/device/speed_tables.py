#!/usr/bin/env python3
"""speed_tables.py OUTDIR REF_RUN CAP: the tables of scripts/device/speed.sh.

The uBench sweep of OUTDIR/ubench (wall, timed share, parts) and its medians
against REF_RUN's (the committed sweep of the same GPU model; "" for none);
then each spec swept by OUTDIR/old/NAME and OUTDIR/new/NAME: points, wall
and timed share before and after. Markdown on stdout."""
import gzip
import json
import os
import sys


def load_run(d):
    try:
        with open(os.path.join(d, "run.json")) as f:
            return json.load(f)
    except (OSError, ValueError):
        return None


def load_records(d):
    for name, op in (("results.json.gz", gzip.open), ("results.json", open)):
        p = os.path.join(d, name)
        if os.path.exists(p):
            try:
                with op(p, "rt") as f:
                    return json.load(f)
            except (OSError, ValueError):
                return None
    return None


def pct(x):
    return "-" if x is None else f"{100 * x:.1f}%"


def key(r):
    return (r["bench"], tuple(sorted(r["axes"].items())))


def ubench_section(outdir, ref):
    out = ["## The full uBench sweep (new build)", ""]
    run = load_run(os.path.join(outdir, "ubench"))
    if not run:
        return out + ["No run.json: the sweep did not finish (logs/ubench.err).", ""]
    parts = run.get("wall_parts", {})
    out.append(f"wall {run.get('wall_s', 0):.1f} s, timed {run.get('timed_s', 0):.1f} s, "
               f"timed share {pct(run.get('timed_share'))} (goal 85%), complete {run.get('complete')}, "
               f"{run.get('points_ok')} points ok, {run.get('points_failed')} failed")
    out.append("")
    out.append("| part | s | share |")
    out.append("| --- | ---: | ---: |")
    wall = run.get("wall_s") or 1
    for k, v in parts.items():
        out.append(f"| {k} | {v:.2f} | {pct(v / wall)} |")
    out.append("")
    if ref:
        rr = load_run(ref)
        if rr:
            out.append(f"Before: `{os.path.relpath(ref, os.path.dirname(os.path.dirname(os.path.dirname(ref))))}`: wall "
                       f"{rr.get('wall_s', 0):.1f} s, timed share {pct(rr.get('timed_share'))}.")
            out.append("")
        new = load_records(os.path.join(outdir, "ubench"))
        old = load_records(ref)
        if new and old:
            om = {key(r): r for r in old if r.get("status") == "ok"}
            n = inside = overlap = 0
            ratios = []
            for r in new:
                o = om.get(key(r))
                if r.get("status") != "ok" or not o:
                    continue
                t, u = r["time_ns"], o["time_ns"]
                n += 1
                inside += u["ci_lo"] <= t["median"] <= u["ci_hi"]
                overlap += t["ci_lo"] <= u["ci_hi"] and u["ci_lo"] <= t["ci_hi"]
                ratios.append(t["median"] / u["median"])
            ratios.sort()
            if n:
                q = lambda f: ratios[min(n - 1, int(f * n))]
                out.append(f"Medians against it ({n} points in both): {inside} ({pct(inside / n)}) within its "
                           f"interval, intervals overlap at {overlap} ({pct(overlap / n)}); new/old median ratio "
                           f"5th, 50th, 95th percentile {q(0.05):.3f}, {q(0.5):.3f}, {q(0.95):.3f}.")
                out.append("")
    return out


def pairs_section(outdir, cap):
    out = ["## Before (4c147c5) and after, same GPU", "",
           f"Examples capped at --max-points {cap} for both builds (the old build's full sweeps do not fit "
           "the time); the test specs whole. Each build with an empty compile cache of its own.", "",
           "| spec | points before | wall before (s) | timed before | points after | wall after (s) | "
           "timed after | wall ratio |",
           "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |"]
    names = set()
    for side in ("old", "new"):
        d = os.path.join(outdir, side)
        if os.path.isdir(d):
            names.update(os.listdir(d))
    for name in sorted(names):
        o = load_run(os.path.join(outdir, "old", name))
        n = load_run(os.path.join(outdir, "new", name))

        def cols(r):
            if not r:
                return ["-", "-", "-"]
            pts = (r.get("points_ok") or 0) + (r.get("points_failed") or 0)
            return [str(pts), f"{r.get('wall_s', 0):.2f}", pct(r.get("timed_share"))]
        ratio = "-"
        if o and n and n.get("wall_s"):
            ratio = f"{o['wall_s'] / n['wall_s']:.1f}x"
        out.append("| " + " | ".join([name] + cols(o) + cols(n) + [ratio]) + " |")
    out.append("")
    return out


def main():
    if len(sys.argv) != 4:
        print("usage: speed_tables.py OUTDIR REF_RUN CAP", file=sys.stderr)
        return 2
    outdir, ref, cap = sys.argv[1:]
    lines = ubench_section(outdir, ref) + pairs_section(outdir, cap)
    print("\n".join(lines))
    return 0


if __name__ == "__main__":
    sys.exit(main())
