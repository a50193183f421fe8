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
                     [--seeds N] [--top K] [--within F] [--strategies S,S]
                     [--jobs J] [--budget-share F] [--deadline SECONDS] [KERNEL/BENCH ...]

A sweep directory holds one run per kernel (DIR/KERNEL/results.json); its
spec is the one of corpus/ or corpus-tune/ whose suite the records name.
A space of more than 100 configurations is searched with a budget of
--budget-share of it (default 0.3, at least 100); a smaller one with all of
it. The searches run on --jobs processes; with --deadline, searches not done
that many seconds after the start are left out and said so.
"""
import argparse
import gzip
import json
import math
import multiprocessing
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

STRATEGIES = ["exhaustive", "random", "anneal", "model"]  # every strategy of gpubound tune
SKIPPED = []
KT_STRATEGIES = ["random_sample", "simulated_annealing", "genetic_algorithm", "bayes_opt"]


def records_file(run):
    """A run's records file, plain or gzip-compressed (as gpubound reads
    it: the committed large sweeps are kept compressed); None if neither."""
    for name in ("results.json", "results.json.gz"):
        if os.path.isfile(os.path.join(run, name)):
            return os.path.join(run, name)
    return None


def load_records(run):
    """A run's records, plain or compressed; FileNotFoundError if neither."""
    path = records_file(run)
    if path is None:
        raise FileNotFoundError(f"{run}: no results.json or results.json.gz")
    with (gzip.open(path, "rt") if path.endswith(".gz") else open(path)) as f:
        return json.load(f)


def spec_of_suite(src):
    """Suite name -> spec path, over corpus/ and corpus-tune/."""
    out = {}
    for root in ("corpus", "corpus-tune"):
        d = os.path.join(src, root)
        for k in sorted(os.listdir(d)) if os.path.isdir(d) else []:
            spec = os.path.join(d, k, "spec.json")
            if os.path.isfile(spec):
                with open(spec) as f:
                    out[json.load(f)["suite"]] = spec
    return out


def spaces_of(src, sweeps):
    """Every (kernel, bench) of a sweep directory, its problem axes fixed at
    their largest values: the records of that space."""
    out = []
    specs = spec_of_suite(src)
    for kernel in sorted(os.listdir(sweeps)):
        run = os.path.join(sweeps, kernel)
        if not records_file(run):
            continue
        first = load_records(run)
        spec = specs.get(first[0]["suite"]) if first else None
        if not spec:
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


def budget_of(sp, share):
    n = len(sp["records"])
    return n if n <= 100 else min(n, max(100, math.ceil(share * n)))


def run_gpubound(gb, sp, strategy, seed, tmp, budget):
    out = os.path.join(tmp, f"{sp['kernel']}-{sp['bench']}-{os.path.basename(os.path.dirname(sp['run']))}-"
                       f"{strategy}-{seed}")
    cmd = [gb, "tune", sp["spec"], "--bench", sp["bench"], "--replay", sp["run"], "--budget",
           str(budget), "--strategy", strategy, "--seed", str(seed), "--out", out]
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


def run_kt(sp, cache, path, strategy, seed, budget):
    import numpy as np
    from kernel_tuner import tune_kernel

    np.random.seed(seed)
    import random
    random.seed(seed)
    valid = set(cache["cache"].keys())
    keys = cache["tune_params_keys"]

    def restrict(p):
        return ",".join(str(p[k]) for k in keys) in valid

    opts = {"max_fevals": budget}
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


TASK = {}


def task(key):
    """One search (run in a worker): ('gb' or 'kt', space number, strategy,
    seed) -> (key, evaluations to reach, surrogate note or error)."""
    kind, i, strategy, seed = key
    a, sp, tmp = TASK["a"], TASK["spaces"][i], TASK["tmp"]
    budget = budget_of(sp, a.budget_share)
    try:
        if kind == "gb":
            order, sur = run_gpubound(a.gpubound, sp, strategy, seed, tmp, budget)
        else:  # each search its own copy of the cache: Kernel Tuner opens it for writing
            path = os.path.join(tmp, f"kt-{i}-{strategy}-{seed}.json")
            shutil.copyfile(TASK["paths"][i], path)
            order, sur = run_kt(sp, TASK["caches"][i], path, strategy, seed, budget), ""
            os.remove(path)
    except (Exception, SystemExit) as e:  # a strategy this Kernel Tuner lacks or cannot run; a failed run
        return key, None, "error: " + (str(e).splitlines()[0][:120] if str(e) else type(e).__name__)
    return key, evals_to_reach(order, sp["best_ns"], a.within), sur


def run_all(a, spaces, tmp):
    """Every search of every space on a.jobs processes; what is not done by
    the deadline is left out (its row says so)."""
    TASK.update(a=a, spaces=spaces, tmp=tmp, caches={}, paths={})
    keys = []
    for i, sp in enumerate(spaces):
        for s in a.strategies:
            keys += [("gb", i, s, seed) for seed in ([1] if s == "exhaustive" else range(1, a.seeds + 1))]
    # Kernel Tuner's after gpubound's, its slowest strategy (bayes_opt) last,
    # so that a deadline cuts the fewest columns.
    for s in KT_STRATEGIES if a.site else []:
        for i, sp in enumerate(spaces):
            if i not in TASK["paths"]:
                path = os.path.join(tmp, f"{i}-{sp['kernel']}-{sp['bench']}.kt.json")
                TASK["caches"][i], TASK["paths"][i] = kt_cache(a.gpubound, sp, path), path
            keys += [("kt", i, s, seed) for seed in range(1, a.seeds + 1)]
    got = {}
    ctx = multiprocessing.get_context("fork")
    pool = ctx.Pool(a.jobs)
    try:
        it = pool.imap_unordered(task, keys)
        for _ in keys:
            left = None if a.deadline is None else max(0.01, a.t0 + a.deadline - time.time())
            key, count, note = it.next(timeout=left)
            got[key] = (count, note)
    except multiprocessing.TimeoutError:
        pass
    finally:
        pool.terminate()
        pool.join()
    return keys, got


def space_result(a, i, sp, keys, got):
    n = len(sp["records"])
    rows, notes = {}, set()
    cols = [("gb", s) for s in a.strategies] + ([("kt", s) for s in KT_STRATEGIES] if a.site else [])
    for kind, s in cols:
        mine = [k for k in keys if k[:3] == (kind, i, s)]
        name = s if kind == "gb" else "kt:" + s
        errs = [got[k][1] for k in mine if k in got and got[k][1].startswith("error: ")]
        if errs or not all(k in got for k in mine):
            rows[name] = {"error": errs[0][7:] if errs else "not finished within the deadline"}
            continue
        counts = [got[k][0] for k in mine]
        if kind == "gb" and s == "model":
            notes.update(got[k][1] for k in mine if got[k][1])
        rows[name] = summarize(counts * (a.seeds if s == "exhaustive" else 1), n)
    return {"kernel": sp["kernel"], "bench": sp["bench"], "fixed": sp["fixed"], "size": n,
            "budget": budget_of(sp, a.budget_share), "best_us": sp["best_ns"] / 1e3, "run": sp["run"],
            "rows": rows, "surrogates": sorted(notes)}


def cell(r):
    if "error" in r:
        return "n/a"
    if r["median"] is None:
        return f"not reached ({r['reached']}/{r['seeds']})"
    worst = r["worst"] if r["worst"] is not None else f"{r['reached']}/{r['seeds']} reached"
    return f"{r['median']:g} / {worst} ({100 * r['share']:.0f}%)"


def med(x, s):
    """The median evaluations of strategy s on space x; None when not
    reached, not run or not finished."""
    return x["rows"].get(s, {}).get("median")


LARGE = 100  # a space of at least this many configurations: a large tuning space


def total(results, s):
    """Strategy s's median evaluations summed over the spaces, a search that
    did not reach counting the space's budget (a lower bound on its need)."""
    return sum(med(x, s) or x["budget"] for x in results)


def goal_lines(results, a, label):
    """The goal's lines over one set of spaces: `model` within 2% in at most
    20% of the space (median) on at least 80% of them, and in fewer
    evaluations than Kernel Tuner's strategies, both per space (the best of
    its four there, picked after the fact) and as one strategy (the one
    needing the fewest evaluations over the set)."""
    n = len(results)
    good = [x for x in results if (x["rows"]["model"].get("share") or 9) <= 0.2]
    lines = [f"- {label}: `model` within 2% with at most 20% of the space (median over seeds) on {len(good)} of "
             f"{n} spaces ({100 * len(good) / max(1, n):.0f}%; the goal is 80%): "
             f"{'met' if len(good) >= 0.8 * n else 'not met'}."]
    for s in [s for s in ("random", "anneal") if s in a.strategies]:
        better = sum(1 for x in results if (med(x, "model") or 1e9) < (med(x, s) or 1e9))
        lines.append(f"  - fewer evaluations (median) than `{s}` on {better} of {n}.")
    if not a.site:
        return lines
    wins = 0
    for x in results:
        kts = [r["median"] for k, r in x["rows"].items() if k.startswith("kt:") and r.get("median")]
        wins += (med(x, "model") or 1e9) < min(kts or [1e9])
    lines.append(f"  - fewer evaluations (median) than Kernel Tuner's best strategy on each space, picked after "
                 f"the fact, on {wins} of {n} (a space where none of them reached counts as a win when `model` did).")
    best = min(("kt:" + s for s in KT_STRATEGIES), key=lambda s: total(results, s))
    one = sum(1 for x in results if (med(x, "model") or 1e9) < (med(x, best) or 1e9))
    lines.append(f"  - Kernel Tuner's best strategy over these spaces, as one strategy: {best[3:]} "
                 f"({total(results, best):g} evaluations in all, a search not reaching counting its budget, "
                 f"against `model`'s {total(results, 'model'):g}); `model` needs fewer than it on {one} of {n}.")
    return lines


def goal(results, a):
    """The goal over every space, and over the large ones alone."""
    if "model" not in a.strategies:
        return ["- `model` was not run."]
    lines = goal_lines(results, a, "every space")
    large = [x for x in results if x["size"] >= LARGE]
    if large and len(large) < len(results):
        lines += goal_lines(large, a, f"the {len(large)} spaces of at least {LARGE} configurations")
    return lines


def kt_best(x):
    """Kernel Tuner's strategy with the fewest median evaluations on x."""
    kts = [(r["median"], k[3:]) for k, r in x["rows"].items() if k.startswith("kt:") and r.get("median")]
    return min(kts)[1] if kts else None


def kt_version():
    try:
        from importlib.metadata import version
        return version("kernel_tuner")
    except Exception:  # no metadata beside the package
        return "(version unknown)"


def shown(path):
    """A path as the table names it: relative to here when under it."""
    rel = os.path.relpath(path)
    return path if rel.startswith("..") else rel


def gpu_of(run):
    """The GPU a sweep was recorded on (run.json), shortened: H100, H200."""
    try:
        with open(os.path.join(run, "run.json")) as f:
            name = json.load(f).get("device", {}).get("name", "")
    except (OSError, ValueError, AttributeError):
        name = ""
    for short in ("H100", "H200", "A100", "B200"):
        if short in name:
            return short
    return name or os.path.basename(os.path.dirname(os.path.dirname(os.path.abspath(run))))


def write_md(a, results, path):
    cols = a.strategies + (["kt:" + s for s in KT_STRATEGIES] if a.site else [])
    with open(path, "w") as f:
        f.write("# Tuning benchmark: evaluations to reach within "
                f"{100 * a.within:g}% of the exhaustive best\n\n")
        f.write("A replay of measured times: every strategy runs `gpubound tune --replay` over the recorded "
                "exhaustive sweep(s) " + ", ".join(f"`{shown(r)}`" for r in a.runs) + " (each configuration's time "
                "is the sweep's median, looked up; nothing was measured again)")
        f.write(f", and Kernel Tuner {kt_version()}'s strategies run in its simulation mode over a kt-cache "
                "exported from the same sweeps (`gpubound export --format kt-cache`, its `time` being the "
                "sweep's median)" if a.site else "; Kernel Tuner's strategies were not run (no --site given)")
        f.write(f". {a.seeds} seeds per strategy (exhaustive: one order). A cell is the median / worst "
                "number of evaluations over the seeds, with the median's share of the space; "
                "'not reached (k/N)' when fewer than half the seeds got there within the budget (the whole space "
                "up to 100 configurations; a larger one: " f"{a.budget_share:g} of it, at least 100).\n\n")
        f.write("| GPU: kernel/bench | fixed | space | budget | best (us) | " + " | ".join(cols) + " |\n")
        f.write("|" + "---|" * (5 + len(cols)) + "\n")
        for x in results:
            fixed = " ".join(f"{k}={v}" for k, v in x["fixed"].items())
            gpu = gpu_of(x["run"])
            f.write(f"| {gpu}: {x['kernel']}/{x['bench']} | {fixed} | {x['size']} | {x['budget']} | {x['best_us']:.4g} | " +
                    " | ".join(cell(x["rows"][c]) for c in cols) + " |\n")
        f.write("\n## The goal (issue 42)\n\n" + "\n".join(goal(results, a)) + "\n")
        surs = sorted({s for x in results for s in x["surrogates"]})
        if surs:
            f.write(f"\nThe model strategy's surrogate at the end of its searches: {', '.join(surs)}.\n")
        for line in SKIPPED:
            f.write(f"\nLeft out: {line}.\n")
        errs = {c: x["rows"][c]["error"] for x in results for c in cols if "error" in x["rows"].get(c, {})}
        for c, e in sorted(errs.items()):
            f.write(f"\n{c}: not run ({e}).\n")


def goal_of(path):
    """The goal's lines from a recorded bench_tune.json (`--goal FILE`)."""
    with open(path) as f:
        d = json.load(f)
    a = argparse.Namespace(strategies=d["strategies"], site=d["kernel_tuner"])
    return goal(d["spaces"], a)


def main():
    if len(sys.argv) == 3 and sys.argv[1] == "--goal":
        print("\n".join(goal_of(sys.argv[2])))
        return
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("build")
    p.add_argument("outdir")
    p.add_argument("kernels", nargs="*", help="KERNEL/BENCH (default: the --top largest spaces)")
    p.add_argument("--runs", action="append", required=True, help="a directory of recorded corpus sweeps")
    p.add_argument("--site", help="a site-packages directory holding Kernel Tuner")
    p.add_argument("--seeds", type=int, default=20)
    p.add_argument("--top", type=int, default=8)
    p.add_argument("--within", type=float, default=0.02)
    p.add_argument("--strategies", default=",".join(STRATEGIES), help="gpubound's strategies to run, comma-separated")
    p.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    p.add_argument("--budget-share", type=float, default=0.3)
    p.add_argument("--deadline", type=float, help="seconds: searches not done by then are left out")
    a = p.parse_intermixed_args()
    a.t0 = time.time()
    a.strategies = [s for s in a.strategies.split(",") if s]
    bad = [s for s in a.strategies if s not in STRATEGIES]
    if bad:
        raise SystemExit(f"bench_tune: --strategies: {', '.join(bad)} is not one of {', '.join(STRATEGIES)}")
    a.gpubound = os.path.join(a.build, "gpubound")
    src = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    if a.site:
        sys.path.insert(0, a.site)
        try:
            import kernel_tuner  # noqa: F401
        except ImportError as e:
            raise SystemExit(f"bench_tune: --site {a.site}: cannot import kernel_tuner ({e})")
    spaces = []
    for runs in a.runs:  # the --top largest of each sweep directory
        mine = spaces_of(src, runs)
        if a.kernels:
            spaces += [sp for sp in mine if f"{sp['kernel']}/{sp['bench']}" in a.kernels]
        else:
            spaces += sorted(mine, key=lambda sp: (-len(sp["records"]), sp["kernel"], sp["bench"]))[:a.top]
    if not spaces:
        raise SystemExit("bench_tune: no space to tune: name KERNEL/BENCH of the sweeps in --runs")
    os.makedirs(a.outdir, exist_ok=True)
    with tempfile.TemporaryDirectory() as tmp:
        keys, got = run_all(a, spaces, tmp)
    results = [space_result(a, i, sp, keys, got) for i, sp in enumerate(spaces)]
    for x in results:
        print(f"bench_tune: {x['kernel']}/{x['bench']} ({x['size']}): " +
              ", ".join(f"{k} {cell(r)}" for k, r in x["rows"].items()), file=sys.stderr)
    with open(os.path.join(a.outdir, "bench_tune.json"), "w") as f:
        json.dump({"runs": a.runs, "seeds": a.seeds, "within": a.within, "kernel_tuner": bool(a.site),
                   "strategies": a.strategies, "budget_share": a.budget_share, "spaces": results}, f, indent=1)
    write_md(a, results, os.path.join(a.outdir, "bench_tune.md"))
    print(f"wrote {os.path.join(a.outdir, 'bench_tune.md')}", file=sys.stderr)


if __name__ == "__main__":
    main()
