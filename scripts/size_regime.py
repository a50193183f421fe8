#!/usr/bin/env python3
"""size_regime.py GPUBOUND: the breakdown's leave-one-problem-size-out checks split by
whether the held-out size crosses a memory level (docs/models.md, "Held out").

For every bench of the committed corpus and held-out runs that scripts/evaluate.py
judges (its RUNS and HELD_RUNS), each problem size is held out in turn (`breakdown
--holdout size:AXIS=V --ceilings`, the resources form). A held-out size *crosses*
when no fitted configuration is in the same regime as any held-out one, the regime
being whether the configuration's data stays in L2 on the hot runs (its DRAM
predictor 0 by the hot-cache rule while its L2 predictor is not) or goes to DRAM.
Prints one line per held-out size, then per regime: the sizes, how many have a
held-out median over 15%, and how many held-out configurations' measured times lie
inside the 95% interval the fit gives them.

    python3 scripts/size_regime.py build/gpubound
"""
import concurrent.futures
import glob
import os
import statistics
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import evaluate as ev  # noqa: E402


def resources(model):
    return next(x for x in model["models"] if x["form"] == "resources")


def hot(point):
    return point["predictors"]["DRAM"] == 0 and point["predictors"]["L2"] > 0


def jobs_for(gb, pool):
    jobs = []
    for runs in (ev.RUNS, ev.HELD_RUNS):
        for gpu, root in runs:
            for run in sorted(glob.glob(os.path.join(root, "*"))):
                if not os.path.isdir(run) or not glob.glob(os.path.join(run, "spec", "*", "spec.json")):
                    continue
                spec, recs = ev.load_run(run)
                for b in spec["benches"]:
                    mine = [r for r in recs if r["bench"] == b["name"]]
                    if not mine:
                        continue
                    full = pool.submit(ev.breakdown, gb, run, gpu, b["name"])
                    held = [(s, pool.submit(ev.breakdown, gb, run, gpu, b["name"], "size:" + s))
                            for s in ev.problem_sizes(b, mine)]
                    jobs.append((gpu, os.path.basename(run) + "/" + b["name"], full, held))
    return jobs


def main(argv):
    if len(argv) != 2:
        print("usage: size_regime.py GPUBOUND", file=sys.stderr)
        return 2
    os.chdir(os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
    per = {True: [], False: []}
    with concurrent.futures.ThreadPoolExecutor(4) as pool:
        for gpu, name, full, held in jobs_for(argv[1], pool):
            model, _ = full.result()
            if not model:
                continue
            pts = resources(model)["points"]
            for size, fut in held:
                hm, _ = fut.result()
                if not hm:
                    continue
                ho = resources(hm)["holdout"]
                word = size.split("=")[0] + "=" + size.split("=")[1]
                inside = [p for p in pts if word in p["problem"].split(" ")]
                fitted = [p for p in pts if word not in p["problem"].split(" ")]
                crosses = not ({hot(p) for p in inside} & {hot(p) for p in fitted})
                per[crosses].append((ho["median_abs_rel_error"], ho.get("inside_interval", 0),
                                     ho.get("n_interval", 0)))
                print("%-4s %-30s %-16s crosses %d  median %5.1f%%  inside %s of %s"
                      % (gpu, name, size, crosses, 100 * ho["median_abs_rel_error"],
                         ho.get("inside_interval"), ho.get("n_interval")))
    for crosses, rows in per.items():
        if not rows:
            continue
        k, n = sum(r[1] for r in rows), sum(r[2] for r in rows)
        print("%s: %d sizes held out, %d over 15%%, median of medians %.1f%%; %d of %d (%.1f%%) "
              "inside the 95%% interval"
              % ("crossing a memory level" if crosses else "same level", len(rows),
                 sum(1 for r in rows if r[0] > 0.15), 100 * statistics.median(r[0] for r in rows),
                 k, n, 100 * k / n if n else 0))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
