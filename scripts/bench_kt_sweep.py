#!/usr/bin/env python3
"""bench_kt_sweep.py - the Kernel Tuner side of scripts/bench_kt_sweep.sh.

  bench_kt_sweep.py kt SPEC GB_RUN OUT.json   tunes every bench of kernel spec SPEC with
      Kernel Tuner (CuPy backend, brute force) over exactly the configurations that the
      gpubound run GB_RUN recorded, one tune_kernel call per problem (the spec's
      problem_axes), each configuration verified against the spec's reference kernel
      (answer / atol); writes the per-configuration times (KT's mean of its event-timed
      launches, "time" in ms) and the wall time
  bench_kt_sweep.py table OUT.md NAME GB_RUN GB_WALL KT.json KT_WALL [NAME ...]
      writes the side-by-side table (docs/measurement.md, "Side by side with Kernel Tuner")
  bench_kt_sweep.py selftest OUTDIR   both sides on a made-up run with stand-in kernel_tuner
      and cupy modules: no GPU, no Kernel Tuner (tests/cli/bench_kt_sweep.sh)
"""
import json
import math
import os
import sys
import time


def load_spec(path):
    with open(path) as f:
        spec = json.load(f)
    with open(os.path.join(os.path.dirname(path), spec["source"])) as f:
        source = f.read()
    return spec, source


def gb_points(run_dir):
    """The points of a gpubound run: (bench, axes as ints, status, median ns)."""
    with open(os.path.join(run_dir, "results.json")) as f:
        recs = json.load(f)
    out = []
    for r in recs:
        axes = {k: int(v) for k, v in r["axes"].items()}
        out.append({"bench": r["bench"], "axes": axes, "status": r["status"],
                    "median_ns": (r.get("time_ns") or {}).get("median")})
    return out


def evaluate(expr, env):
    return eval(str(expr), {"__builtins__": {}, "ceil": math.ceil, "floor": math.floor, "min": min,
                            "max": max}, dict(env))


def make_args(bench, env, np, seed):
    """The kernel's arguments as the spec says (outputs zeroed), and the output's atol."""
    rng = np.random.default_rng(seed)
    args, atol = [], None
    types = {"float": np.float32, "double": np.float64, "int": np.int32}
    for a in bench["args"]:
        t = types[a["type"]]
        if "value" in a:
            args.append(t(evaluate(a["value"], env)))
            continue
        n = int(evaluate(a["count"], env))
        lo, hi = (a.get("init") or {}).get("random", [0, 0])
        args.append(rng.uniform(lo, hi, n).astype(t) if "init" in a else np.zeros(n, dtype=t))
        if a.get("output"):
            atol = a.get("atol", 1e-6)
    return args, atol


def reference(bench, source, args, env, cp, np):
    """The spec's reference kernel run once with CuPy: the expected outputs."""
    ref = bench["reference"]
    kernel = cp.RawKernel(source, ref["kernel"])
    dev = [cp.asarray(a) if isinstance(a, np.ndarray) else a for a in args]
    grid = tuple(int(evaluate(g, env)) for g in ref["grid"])
    block = tuple(int(evaluate(b, env)) for b in ref["block"])
    kernel(grid, block, tuple(dev))
    cp.cuda.runtime.deviceSynchronize()
    return [cp.asnumpy(d) if bench["args"][i].get("output") else None for i, d in enumerate(dev)]


def block_names(bench):
    """KT's block_size_names for the spec's block expressions (axis names; '1' a name no parameter has)."""
    exprs = bench.get("block", ["block_size_x", "block_size_y", "block_size_z"])
    return [e if str(e).isidentifier() else "gb_block_one_%d" % i for i, e in enumerate(exprs)]


def tune_problem(kt, cp, np, bench, source, problem, configs, seed):
    """One tune_kernel call over one problem: the tunable axes take the values gpubound measured
    (`configs`, dicts of the tunable axes), under the spec's restrictions, which KT reads as Python
    expressions; a configuration only one tool ran shows in the table with one time."""
    tunable = sorted({k for c in configs for k in c})
    tune_params = {k: sorted({c[k] for c in configs}) for k in tunable}
    args, atol = make_args(bench, problem, np, seed)
    answer = reference(bench, source, args, problem, cp, np)

    def grid(p):
        return tuple(int(evaluate(g, dict(problem, **p))) for g in bench["grid"])

    results, env = kt.tune_kernel(bench["kernel"], source, grid, args, tune_params,
                                  grid_div_x=[], grid_div_y=[], grid_div_z=[],
                                  restrictions=list(bench.get("restrictions", [])) or None,
                                  answer=answer, atol=atol, lang="cupy", block_size_names=block_names(bench),
                                  strategy="brute_force", verbose=False, quiet=True, iterations=7)
    out = []
    for r in results:
        t = r.get("time")
        ok = isinstance(t, (int, float)) and not isinstance(t, bool) and math.isfinite(t)
        out.append({"axes": dict(problem, **{k: int(r[k]) for k in tunable}), "time_ms": t if ok else None,
                    "times_ms": r.get("times"), "verified": ok})
    return out


def kt_side(spec_path, gb_run, out_path, kt=None, cp=None, np=None):
    if kt is None:
        import cupy as cp  # noqa: F811
        import kernel_tuner as kt  # noqa: F811
        import numpy as np  # noqa: F811
    t0 = time.perf_counter()
    spec, source = load_spec(spec_path)
    points = gb_points(gb_run)
    entries = []
    for bench in spec["benches"]:
        mine = [p for p in points if p["bench"] == bench["name"] and p["status"] == "ok"]
        paxes = bench.get("problem_axes", [])
        problems = []
        for p in mine:
            key = {k: p["axes"][k] for k in paxes}
            if key not in problems:
                problems.append(key)
        for i, problem in enumerate(problems):
            configs = [{k: v for k, v in p["axes"].items() if k not in paxes} for p in mine
                       if all(p["axes"][k] == problem[k] for k in paxes)]
            for e in tune_problem(kt, cp, np, bench, source, problem, configs, seed=1 + i):
                e["bench"] = bench["name"]
                entries.append(e)
    doc = {"tool": "kernel_tuner " + getattr(kt, "__version__", "?"), "wall_s": time.perf_counter() - t0,
           "entries": entries}
    with open(out_path, "w") as f:
        json.dump(doc, f, indent=1)
    return doc


def fmt(v, digits=4):
    return "" if v is None else "%.*g" % (digits, v)


def table(out_md, groups):
    """groups: (name, gb_run, gb_wall_s, kt_json, kt_wall_s)."""
    lines = ["# gpubound and Kernel Tuner side by side", "",
             "Each example swept by both tools back to back on one GPU over the same configurations: "
             "gpubound's median kernel time against Kernel Tuner's mean of its event-timed launches "
             "(CuPy backend, 7 iterations), each configuration verified by both (docs/measurement.md).", "",
             "| example | tool | wall (s) | points | verified |", "| --- | --- | ---: | ---: | ---: |"]
    rows = []
    for name, gb_run, gb_wall, kt_json, kt_wall in groups:
        pts = gb_points(gb_run)
        with open(kt_json) as f:
            kt = json.load(f)
        lines.append("| %s | gpubound | %s | %d | %d |" % (name, fmt(gb_wall), len(pts),
                                                          sum(p["status"] == "ok" for p in pts)))
        lines.append("| %s | %s | %s | %d | %d |" % (name, kt["tool"], fmt(kt_wall), len(kt["entries"]),
                                                     sum(bool(e["verified"]) for e in kt["entries"])))
        ktime = {(e["bench"], tuple(sorted(e["axes"].items()))): e["time_ms"] for e in kt["entries"]}
        for p in pts:
            k = ktime.get((p["bench"], tuple(sorted(p["axes"].items()))))
            g = p["median_ns"] / 1e3 if p["median_ns"] else None
            rows.append("| %s | %s | %s | %s | %s | %s |" % (
                name, p["bench"], " ".join("%s=%d" % kv for kv in sorted(p["axes"].items())), fmt(g),
                fmt(k * 1e3 if k is not None else None),
                fmt(k * 1e3 / g if k is not None and g else None, 3)))
    lines += ["", "## Per configuration", "",
              "| example | bench | configuration | gpubound median (µs) | Kernel Tuner mean (µs) | KT / gpubound |",
              "| --- | --- | --- | ---: | ---: | ---: |"] + rows
    with open(out_md, "w") as f:
        f.write("\n".join(lines) + "\n")


def selftest(outdir):
    """Both sides on a made-up gpubound run with stand-ins for kernel_tuner and cupy."""
    import types
    import numpy as np
    os.makedirs(outdir, exist_ok=True)
    src = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "examples", "stencil", "spec.json")
    spec, _ = load_spec(src)
    bench = spec["benches"][0]
    run = os.path.join(outdir, "gb-run")
    os.makedirs(run, exist_ok=True)
    recs = []
    for bx, by in ((8, 1), (32, 4), (256, 4)):
        for n in (16, 32):
            recs.append({"suite": "stencil", "bench": bench["name"], "status": "ok",
                         "axes": {"block_size_x": str(bx), "block_size_y": str(by), "n": str(n)},
                         "time_ns": {"median": 1000.0 * bx / by + n}})
    with open(os.path.join(run, "results.json"), "w") as f:
        json.dump(recs, f)
    calls = []

    class Kernel:
        def __init__(self, source, name):
            assert name == bench["reference"]["kernel"] and "stencil_reference" in source

        def __call__(self, grid, block, args):
            assert len(grid) == 3 and len(block) == 3 and len(args) == len(bench["args"])

    cp = types.SimpleNamespace(RawKernel=Kernel, asarray=lambda a: a.copy(), asnumpy=lambda a: a,
                               cuda=types.SimpleNamespace(runtime=types.SimpleNamespace(deviceSynchronize=lambda: None)))

    def tune_kernel(name, source, problem_size, args, tune_params, restrictions=None, answer=None, atol=None,
                    block_size_names=None, **kw):
        assert restrictions == ["block_size_x * block_size_y <= 1024"], restrictions
        assert name == bench["kernel"] and callable(problem_size) and kw["lang"] == "cupy"
        assert answer[0] is not None and answer[1] is None and atol == 1e-6
        out = []
        for bx in tune_params["block_size_x"]:
            for by in tune_params["block_size_y"]:
                p = {"block_size_x": bx, "block_size_y": by}
                if (bx, by) in ((8, 1), (32, 4), (256, 4)):
                    assert problem_size(p)[0] >= 1
                    out.append(dict(p, time=0.002 * bx / by, times=[0.002 * bx / by] * 7))
        calls.append((len(args[0]), len(out)))
        return out, {}

    kt = types.SimpleNamespace(tune_kernel=tune_kernel, __version__="stand-in")
    doc = kt_side(src, run, os.path.join(outdir, "kt.json"), kt=kt, cp=cp, np=np)
    assert calls == [(16 * 16, 3), (32 * 32, 3)], calls
    assert len(doc["entries"]) == 6 and all(e["verified"] for e in doc["entries"])
    table(os.path.join(outdir, "kt_sweep.md"), [("stencil", run, 1.5, os.path.join(outdir, "kt.json"), 3.0)])
    print("selftest: %d configurations of %d problems through the Kernel Tuner side; %s written"
          % (len(doc["entries"]), len(calls), os.path.join(outdir, "kt_sweep.md")))


def main(argv):
    if len(argv) == 5 and argv[1] == "kt":
        doc = kt_side(argv[2], argv[3], argv[4])
        print("kernel tuner: %d configurations in %.1f s" % (len(doc["entries"]), doc["wall_s"]))
    elif len(argv) >= 8 and argv[1] == "table" and (len(argv) - 3) % 5 == 0:
        g = argv[3:]
        table(argv[2], [(g[i], g[i + 1], float(g[i + 2]), g[i + 3], float(g[i + 4])) for i in range(0, len(g), 5)])
    elif len(argv) == 3 and argv[1] == "selftest":
        selftest(argv[2])
    else:
        sys.stderr.write(__doc__)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
