#!/usr/bin/env python3
"""The tuning benchmark (docs/tuning.md, "Benchmarks"): on the corpus kernels
with the largest spaces, each strategy of `gpubound tune` with N seeds over a
replay of the recorded exhaustive sweeps (`tune --replay`: the times are the
sweep's measured times, looked up, nothing is measured again), and, when a
site-packages directory holding Kernel Tuner is given, Kernel Tuner's
strategies in its simulation mode over a kt-cache exported from the same
sweeps. For each: the evaluations needed to reach within 2% of the
exhaustive best (median and worst over the seeds) and their share of the
space. Writes OUTDIR/bench_tune.md and OUTDIR/bench_tune.json.

usage: bench_tune.py BUILD OUTDIR --runs SWEEPS [--runs SWEEPS ...] [--site SITE]
                     [--seeds N] [--top K] [--within F] [KERNEL/BENCH ...]
"""
import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile

STRATEGIES = ["exhaustive", "random", "anneal", "model"]
SKIPPED = []
KT_STRATEGIES = ["random_sample", "simulated_annealing", "genetic_algorithm", "bayes_opt"]


def load_records(run):
    with open(os.path.join(run, "results.json")) as f:
        return json.load(f)


def spaces_of(src, sweeps):
    """Every (kernel, bench) of a sweep directory, its problem axes fixed at
    their largest values: the records of that space."""
    out = []
    for kernel in sorted(os.listdir(sweeps)):
        run = os.path.join(sweeps, kernel)
        spec = os.path.join(src, "corpus", kernel, "spec.json")
        if not os.path.isfile(os.path.join(run, "results.json")) or not os.path.isfile(spec):
            continue
        with open(os.path.join(run, "run.json")) as f:
            if not json.load(f).get("complete"):
                SKIPPED.append(f"{run}: not a whole sweep (the run is incomplete), not replayable")
                continue
        benches = {b["name"]: b for b in json.load(open(spec))["benches"]}
        recs = load_records(run)
        for bench in sorted({r["bench"] for r in recs}):
            if bench not in benches:
                continue
            prob = benches[bench].get("problem_axes", [])
            mine = [r for r in recs if r["bench"] == bench]

            def num(v):
                try:
                    return float(v)
                except ValueError:
                    return 0.0

            fixed = {a: max({r["axes"][a] for r in mine}, key=num) for a in prob}
            pts = [r for r in mine if all(r["axes"][a] == v for a, v in fixed.items())]
            ok = [r for r in pts if r["status"] == "ok" and r["time_ns"]["median"]]
            if len(ok) < 2:
                continue
            out.append({"kernel": kernel, "bench": bench, "spec": spec, "run": run, "fixed": fixed,
                        "axes": [a for a in pts[0]["axes"]], "records": pts,
                        "best_ns": min(r["time_ns"]["median"] for r in ok)})
    return out


def evals_to_reach(order, best_ns, within):
    """1-based count of the first measured point within `within` of best_ns."""
    for i, t in enumerate(order):
        if t is not None and t <= best_ns * (1 + within):
            return i + 1
    return None


def run_gpubound(gb, sp, strategy, seed, tmp):
    out = os.path.join(tmp, f"{strategy}-{seed}")
    cmd = [gb, "tune", sp["spec"], "--bench", sp["bench"], "--replay", sp["run"], "--budget",
           str(len(sp["records"])), "--strategy", strategy, "--seed", str(seed), "--out", out]
    for a, v in sp["fixed"].items():
        cmd += ["--set", f"{a}={v}"]
    p = subprocess.run(cmd, capture_output=True, text=True)
    if p.returncode != 0:
        raise SystemExit(f"bench_tune: {' '.join(cmd)} failed: {p.stderr.strip()}")
    recs = load_records(out)
    with open(os.path.join(out, "tune.json")) as f:
        surrogate = json.load(f).get("answer", {}).get("surrogate", "")
    subprocess.run(["rm", "-rf", out])
    return [r["time_ns"]["median"] if r["status"] == "ok" else None for r in recs], surrogate


def kt_cache(gb, sp, path):
    """The space exported as a kt-cache by gpubound, its problem axes fixed
    (their entries kept, the problem size the fixed values)."""
    p = subprocess.run([gb, "export", sp["run"], "--format", "kt-cache", "--bench", sp["bench"]],
                       capture_output=True, text=True)
    if p.returncode != 0:
        raise SystemExit(f"bench_tune: export of {sp['run']} failed: {p.stderr.strip()}")
    c = json.loads(p.stdout)
    keys = c["tune_params_keys"]
    for a, v in sp["fixed"].items():
        c["tune_params"][a] = [c["tune_params"][a][[str(x) for x in c["tune_params"][a]].index(v)]]
    want = [(keys.index(a), v) for a, v in sp["fixed"].items()]
    c["cache"] = {k: e for k, e in c["cache"].items() if all(k.split(",")[i] == v for i, v in want)}
    c["problem_size"] = [int(float(v)) for v in sp["fixed"].values()] or [1]
    with open(path, "w") as f:
        json.dump(c, f)
    return c


def run_kt(sp, cache, path, strategy, seed):
    import numpy as np
    from kernel_tuner import tune_kernel

    np.random.seed(seed)
    import random
    random.seed(seed)
    valid = set(cache["cache"].keys())
    keys = cache["tune_params_keys"]

    def restrict(p):
        return ",".join(str(p[k]) for k in keys) in valid

    opts = {"max_fevals": len(valid)}
    results, _ = tune_kernel(cache["kernel_name"], "__global__ void %s() {}" % cache["kernel_name"],
                             cache["problem_size"], [], cache["tune_params"], lang="CUDA", cache=path,
                             simulation_mode=True, strategy=strategy, strategy_options=opts,
                             restrictions=restrict, verbose=False, quiet=True)
    order, seen = [], set()
    for r in results:
        k = ",".join(str(r[x]) for x in keys)
        if k in seen:
            continue
        seen.add(k)
        t = r.get("time")
        order.append(t * 1e6 if isinstance(t, (int, float)) else None)
    return order


def summarize(counts, n):
    reached = [c for c in counts if c is not None]
    if not reached:
        return {"median": None, "worst": None, "share": None, "reached": 0, "seeds": len(counts)}
    worst = max(reached) if len(reached) == len(counts) else None
    med = statistics.median([c if c is not None else n + 1 for c in counts])
    if med > n:
        return {"median": None, "worst": None, "share": None, "reached": len(reached), "seeds": len(counts)}
    return {"median": med, "worst": worst, "share": med / n, "reached": len(reached), "seeds": len(counts)}


def bench_space(a, sp, tmp):
    n = len(sp["records"])
    rows = {}
    notes = set()
    for s in STRATEGIES:
        seeds = [1] if s == "exhaustive" else list(range(1, a.seeds + 1))
        counts = []
        for seed in seeds:
            order, sur = run_gpubound(a.gpubound, sp, s, seed, tmp)
            counts.append(evals_to_reach(order, sp["best_ns"], a.within))
            if s == "model" and sur:
                notes.add(sur)
        rows[s] = summarize(counts * (a.seeds if s == "exhaustive" else 1), n)
    if a.site:
        path = os.path.join(tmp, f"{sp['kernel']}-{sp['bench']}.kt.json")
        cache = kt_cache(a.gpubound, sp, path)
        for s in KT_STRATEGIES:
            try:
                counts = [evals_to_reach(run_kt(sp, cache, path, s, seed), sp["best_ns"], a.within)
                          for seed in range(1, a.seeds + 1)]
                rows["kt:" + s] = summarize(counts, n)
            except Exception as e:  # a strategy this Kernel Tuner lacks or cannot run
                rows["kt:" + s] = {"error": str(e).splitlines()[0][:120] if str(e) else type(e).__name__}
    return {"kernel": sp["kernel"], "bench": sp["bench"], "fixed": sp["fixed"], "size": n,
            "best_us": sp["best_ns"] / 1e3, "run": sp["run"], "rows": rows, "surrogates": sorted(notes)}


def cell(r):
    if "error" in r:
        return "n/a"
    if r["median"] is None:
        return f"not reached ({r['reached']}/{r['seeds']})"
    worst = r["worst"] if r["worst"] is not None else f"{r['reached']}/{r['seeds']} reached"
    return f"{r['median']:g} / {worst} ({100 * r['share']:.0f}%)"


def goal(results, kt):
    """Whether `model` reaches within 2% in at most 20% of the space (median)
    on at least 80% of the spaces, and in fewer evaluations than Kernel
    Tuner's best strategy on each space (when it ran)."""
    good = [x for x in results if x["rows"]["model"]["share"] is not None and x["rows"]["model"]["share"] <= 0.2]
    lines = [f"- `model` within 2% with at most 20% of the space (median over seeds): {len(good)} of "
             f"{len(results)} spaces ({100 * len(good) / max(1, len(results)):.0f}%; the goal is 80%): "
             f"{'met' if len(good) >= 0.8 * len(results) else 'not met'}."]
    for s in STRATEGIES[1:3]:
        better = sum(1 for x in results if (x["rows"]["model"]["median"] or 1e9) < (x["rows"][s]["median"] or 1e9))
        lines.append(f"- `model` needs fewer evaluations (median) than `{s}` on {better} of {len(results)} spaces.")
    if kt:
        wins = 0
        for x in results:
            kts = [r["median"] for k, r in x["rows"].items() if k.startswith("kt:") and r.get("median")]
            if kts and (x["rows"]["model"]["median"] or 1e9) < min(kts):
                wins += 1
        lines.append(f"- `model` needs fewer evaluations (median) than Kernel Tuner's best strategy there on "
                     f"{wins} of {len(results)} spaces.")
    return lines


def kt_version():
    try:
        from importlib.metadata import version
        return version("kernel_tuner")
    except Exception:  # no metadata beside the package
        return "(version unknown)"


def write_md(a, results, path):
    cols = STRATEGIES + (["kt:" + s for s in KT_STRATEGIES] if a.site else [])
    with open(path, "w") as f:
        f.write("# Tuning benchmark: evaluations to reach within "
                f"{100 * a.within:g}% of the exhaustive best\n\n")
        f.write("A replay of measured times: every strategy runs `gpubound tune --replay` over the recorded "
                "exhaustive sweep(s) " + ", ".join(f"`{r}`" for r in a.runs) + " (each configuration's time "
                "is the sweep's median, looked up; nothing was measured again)")
        f.write(f", and Kernel Tuner {kt_version()}'s strategies run in its simulation mode over a kt-cache "
                "exported from the same sweeps (`gpubound export --format kt-cache`, its `time` being the "
                "sweep's median)" if a.site else "; Kernel Tuner's strategies were not run (no --site given)")
        f.write(f". {a.seeds} seeds per strategy (exhaustive: one order). A cell is the median / worst "
                "number of evaluations over the seeds, with the median's share of the space; "
                "'not reached (k/N)' when fewer than half the seeds got there within the space.\n\n")
        f.write("| GPU: kernel/bench | fixed | space | best (us) | " + " | ".join(cols) + " |\n")
        f.write("|" + "---|" * (4 + len(cols)) + "\n")
        for x in results:
            fixed = " ".join(f"{k}={v}" for k, v in x["fixed"].items())
            gpu = os.path.basename(os.path.dirname(os.path.dirname(os.path.abspath(x["run"]))))
            f.write(f"| {gpu}: {x['kernel']}/{x['bench']} | {fixed} | {x['size']} | {x['best_us']:.4g} | " +
                    " | ".join(cell(x["rows"][c]) for c in cols) + " |\n")
        f.write("\n## The goal (issue 42)\n\n" + "\n".join(goal(results, a.site)) + "\n")
        surs = sorted({s for x in results for s in x["surrogates"]})
        if surs:
            f.write(f"\nThe model strategy's surrogate at the end of its searches: {', '.join(surs)}.\n")
        for line in SKIPPED:
            f.write(f"\nLeft out: {line}.\n")
        errs = {c: x["rows"][c]["error"] for x in results for c in cols if "error" in x["rows"].get(c, {})}
        for c, e in sorted(errs.items()):
            f.write(f"\n{c}: not run ({e}).\n")


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("build")
    p.add_argument("outdir")
    p.add_argument("kernels", nargs="*", help="KERNEL/BENCH (default: the --top largest spaces)")
    p.add_argument("--runs", action="append", required=True, help="a directory of recorded corpus sweeps")
    p.add_argument("--site", help="a site-packages directory holding Kernel Tuner")
    p.add_argument("--seeds", type=int, default=20)
    p.add_argument("--top", type=int, default=8)
    p.add_argument("--within", type=float, default=0.02)
    a = p.parse_intermixed_args()
    a.gpubound = os.path.join(a.build, "gpubound")
    src = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    if a.site:
        sys.path.insert(0, a.site)
        try:
            import kernel_tuner  # noqa: F401
        except ImportError as e:
            raise SystemExit(f"bench_tune: --site {a.site}: cannot import kernel_tuner ({e})")
    spaces = [sp for runs in a.runs for sp in spaces_of(src, runs)]
    if a.kernels:
        spaces = [sp for sp in spaces if f"{sp['kernel']}/{sp['bench']}" in a.kernels]
    else:
        spaces = sorted(spaces, key=lambda sp: (-len(sp["records"]), sp["kernel"], sp["bench"]))[:a.top]
    if not spaces:
        raise SystemExit("bench_tune: no space to tune: name KERNEL/BENCH of the sweeps in --runs")
    os.makedirs(a.outdir, exist_ok=True)
    results = []
    with tempfile.TemporaryDirectory() as tmp:
        for sp in spaces:
            results.append(bench_space(a, sp, tmp))
            print(f"bench_tune: {sp['kernel']}/{sp['bench']} ({len(sp['records'])}): " +
                  ", ".join(f"{k} {cell(r)}" for k, r in results[-1]["rows"].items()), file=sys.stderr)
    with open(os.path.join(a.outdir, "bench_tune.json"), "w") as f:
        json.dump({"runs": a.runs, "seeds": a.seeds, "within": a.within, "kernel_tuner": bool(a.site),
                   "spaces": results}, f, indent=1)
    write_md(a, results, os.path.join(a.outdir, "bench_tune.md"))
    print(f"wrote {os.path.join(a.outdir, 'bench_tune.md')}", file=sys.stderr)


if __name__ == "__main__":
    main()
