#!/usr/bin/env python3
"""bench_tune_live.py - the Kernel Tuner side of the live side by side of
scripts/device/tune.sh (docs/tuning.md, "Live, side by side").

  bench_tune_live.py kt SPEC BENCH STRATEGY BUDGET OUT.json
      tunes BENCH of kernel spec SPEC with Kernel Tuner (CuPy backend) and
      STRATEGY, at most BUDGET configurations, over the spec's whole space at
      its one problem (the spec's restrictions, `&&` and `||` read as `and`
      and `or`), each configuration verified by Kernel Tuner against the
      spec's reference kernel (answer / atol); writes each configuration it
      measured (its mean time, ms), the best, and the wall time of the call
  bench_tune_live.py pick BENCH_TUNE.json SWEEP BENCH
      prints Kernel Tuner's strategy with the fewest median evaluations on
      the space of the replay benchmark replayed from run SWEEP
      (random_sample when none reached)
  bench_tune_live.py selftest OUTDIR
      the Kernel Tuner side with stand-in kernel_tuner and cupy modules
      (no GPU, no Kernel Tuner; tests/cli/device_tune.sh)
  bench_tune_live.py table OUT.md GB_RUN GB_WALL KT.json SWEEP BUDGET
      writes the side-by-side table: each tool's wall time, configurations,
      its best configuration and own time, and that configuration's time in
      the exhaustive sweep SWEEP (one clock for both)
"""
import json
import math
import os
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from bench_kt_sweep import block_names, evaluate, load_spec, make_args, reference  # noqa: E402
from bench_tune import load_records  # noqa: E402


def pyexpr(e):
    return str(e).replace("&&", " and ").replace("||", " or ")


def kt_live(spec_path, bench_name, strategy, budget, out_path, kt=None, cp=None, np=None):
    if kt is None:
        import cupy as cp  # noqa: F811
        import kernel_tuner as kt  # noqa: F811
        import numpy as np  # noqa: F811
    spec, source = load_spec(spec_path)
    bench = next(b for b in spec["benches"] if b["name"] == bench_name)
    paxes = bench.get("problem_axes", [])
    problem = {a["name"]: a["values"][-1] for a in bench["axes"] if a["name"] in paxes}
    tune_params = {a["name"]: list(a["values"]) for a in bench["axes"] if a["name"] not in paxes}
    rules = [pyexpr(r) for r in bench.get("restrictions", [])]

    def restrict(p):
        env = dict(problem, **p)
        return all(bool(evaluate(r, env)) for r in rules)

    def grid(p):
        return tuple(int(evaluate(g, dict(problem, **p))) for g in bench["grid"])

    np.random.seed(1)
    args, atol = make_args(bench, problem, np, 1)
    answer = reference(bench, source, args, problem, cp, np)
    t0 = time.perf_counter()
    results, _ = kt.tune_kernel(bench["kernel"], source, grid, args, tune_params, grid_div_x=[], grid_div_y=[],
                                grid_div_z=[], restrictions=restrict, answer=answer, atol=atol, lang="cupy",
                                block_size_names=block_names(bench), strategy=strategy,
                                strategy_options={"max_fevals": budget}, verbose=False, quiet=True)
    wall = time.perf_counter() - t0
    seen, entries = set(), []
    for r in results:
        key = tuple(r[k] for k in tune_params)
        if key in seen:
            continue
        seen.add(key)
        t = r.get("time")
        ok = isinstance(t, (int, float)) and not isinstance(t, bool) and math.isfinite(t)
        entries.append({"axes": dict(problem, **{k: r[k] for k in tune_params}), "time_ms": t if ok else None})
    good = [e for e in entries if e["time_ms"] is not None]
    doc = {"tool": "kernel_tuner " + getattr(kt, "__version__", "?"), "strategy": strategy, "budget": budget,
           "wall_s": wall, "configurations": len(entries), "verified": len(good),
           "best": min(good, key=lambda e: e["time_ms"]) if good else None, "entries": entries}
    with open(out_path, "w") as f:
        json.dump(doc, f, indent=1)
    return doc


def pick(path, run, bench):
    try:
        with open(path) as f:
            doc = json.load(f)
    except (OSError, ValueError):
        return "random_sample"
    best = None
    for x in doc.get("spaces", []):
        if os.path.realpath(x["run"]) != os.path.realpath(run) or x["bench"] != bench:
            continue
        for k, r in x["rows"].items():
            if k.startswith("kt:") and r.get("median") and (best is None or r["median"] < best[0]):
                best = (r["median"], k[3:])
    return best[1] if best else "random_sample"


def key_of(axes):
    return tuple(sorted((k, str(v)) for k, v in axes.items()))


def sweep_times(sweep):
    """A sweep's medians by configuration, from its results.json or the
    compressed results.json.gz of a committed sweep."""
    try:
        recs = load_records(sweep)
    except (OSError, ValueError):
        return {}
    return {key_of(r["axes"]): r["time_ns"]["median"] for r in recs if r["status"] == "ok"}


def table(out_md, gb_run, gb_wall, kt_json, sweep, budget):
    sw = sweep_times(sweep)
    best_sweep = min(sw.values()) if sw else None
    lines = ["# Live, side by side: `gpubound tune --strategy model` and Kernel Tuner", ""]
    rows = []
    try:
        recs = load_records(gb_run)
        ok = [r for r in recs if r["status"] == "ok"]
        b = min(ok, key=lambda r: r["time_ns"]["median"]) if ok else None
        rows.append(("gpubound tune --strategy model", gb_wall, len(recs), len(ok),
                     b and " ".join(f"{k}={v}" for k, v in b["axes"].items()),
                     b and b["time_ns"]["median"] / 1e3, "median (profiler clock)", b and sw.get(key_of(b["axes"]))))
    except (OSError, ValueError) as e:
        lines.append(f"gpubound: no run ({e})")
    try:
        with open(kt_json) as f:
            k = json.load(f)
        b = k["best"]
        rows.append((f"Kernel Tuner {k['tool'].split()[-1]} {k['strategy']}", f"{k['wall_s']:.2f}",
                     k["configurations"], k["verified"], b and " ".join(f"{a}={v}" for a, v in b["axes"].items()),
                     b and b["time_ms"] * 1e3, "mean of its event-timed launches", b and sw.get(key_of(b["axes"]))))
    except (OSError, ValueError, KeyError) as e:
        lines.append(f"Kernel Tuner: no result ({e})")
    lines += [f"Budget: {budget} configurations each, the same kernel source and space. 'sweep' is the "
              f"configuration's median in the exhaustive sweep `{sweep}` (one clock for both; the sweep's best "
              f"is {best_sweep / 1e3:.4g} us)." if best_sweep else f"Budget: {budget} configurations each; no sweep.",
              "", "| tool | wall (s) | configurations | verified | best configuration | its time (us) | clock | "
              "sweep (us) | sweep / sweep's best |", "|---|---|---|---|---|---|---|---|---|"]
    for r in rows:
        t = f"{r[5]:.4g}" if r[5] else "-"
        s = f"{r[7] / 1e3:.4g}" if r[7] else "-"
        q = f"{r[7] / best_sweep:.3f}" if r[7] and best_sweep else "-"
        lines.append(f"| {r[0]} | {r[1]} | {r[2]} | {r[3]} | {r[4] or '-'} | {t} | {r[6]} | {s} | {q} |")
    with open(out_md, "w") as f:
        f.write("\n".join(lines) + "\n")
    print("\n".join(lines))


def selftest(outdir):
    """The Kernel Tuner side on corpus-tune/stencil2d with stand-in
    kernel_tuner and cupy modules (no GPU, no Kernel Tuner): the space, the
    restrictions as a function, the grid, the strategy and its budget."""
    import types
    import numpy as np
    src = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "corpus-tune", "stencil2d",
                       "spec.json")
    cp = types.SimpleNamespace(RawKernel=lambda source, name: (lambda grid, block, args: None),
                               asarray=lambda a: a.copy(), asnumpy=lambda a: a,
                               cuda=types.SimpleNamespace(runtime=types.SimpleNamespace(deviceSynchronize=lambda: None)))
    seen = {}

    def tune_kernel(name, source, problem_size, args, tune_params, restrictions=None, answer=None, atol=None,
                    block_size_names=None, strategy=None, strategy_options=None, **kw):
        assert name == "blur_tuned" and callable(problem_size) and callable(restrictions)
        assert set(tune_params) == {"block_size_x", "block_size_y", "rows_per_thread", "cols_per_thread",
                                    "use_shared"} and kw["lang"] == "cupy" and answer[0] is not None
        import itertools
        keys = list(tune_params)
        valid = [dict(zip(keys, v)) for v in itertools.product(*tune_params.values())
                 if restrictions(dict(zip(keys, v)))]
        seen["valid"], seen["strategy"] = len(valid), strategy
        out = []
        for p in valid[:strategy_options["max_fevals"]]:
            assert problem_size(p)[0] == -(-4096 // (p["block_size_x"] * p["cols_per_thread"]))
            out.append(dict(p, time=0.05 + 0.001 * p["block_size_y"]))
        return out, {}

    kt = types.SimpleNamespace(tune_kernel=tune_kernel, __version__="stand-in")
    doc = kt_live(src, "blur", "simulated_annealing", 30, os.path.join(outdir, "kt.json"), kt=kt, cp=cp, np=np)
    assert seen == {"valid": 290, "strategy": "simulated_annealing"}, seen
    assert doc["configurations"] == 30 and doc["verified"] == 30 and doc["best"]["axes"]["n"] == 4096, doc
    print(f"selftest: {seen['valid']} valid configurations, {doc['configurations']} tuned, best "
          f"{doc['best']['time_ms']} ms")


def main(argv):
    if len(argv) == 6 and argv[0] == "kt":
        kt_live(argv[1], argv[2], argv[3], int(argv[4]), argv[5])
    elif len(argv) == 4 and argv[0] == "pick":
        print(pick(argv[1], argv[2], argv[3]))
    elif len(argv) == 7 and argv[0] == "table":
        table(*argv[1:])
    elif len(argv) == 2 and argv[0] == "selftest":
        selftest(argv[1])
    else:
        sys.exit(__doc__)


if __name__ == "__main__":
    main(sys.argv[1:])
