#!/usr/bin/env python3
"""Writes the synthetic camping-fixture run directory (run.json, results.json,
results.csv) beside this script. Nothing here was measured: the times come
from chosen CampProf coefficients plus seeded noise (README.md says which).
Run it from anywhere; it is deterministic (Python's Mersenne Twister with a
fixed seed, Box-Muller written out here)."""
import json
import math
import os
import random

HERE = os.path.dirname(os.path.abspath(__file__))
SMS = 132            # the synthetic device's SM count
ITERS = 1024         # memory instructions per warp per launch in the micro-benchmarks
WIDTHS = [2, 4, 8, 16]
WARPS = [1, 2, 4, 8, 16, 24, 32, 48, 64]
APP_WARPS = [8, 16, 24, 32, 40, 48, 56, 64]
NOISE_NS = 300.0     # standard deviation of the micro-benchmark noise

# The chosen coefficients, ns: intercept, per active warp, and the width
# dummies b2, b4, b8 (reference level 16 bytes).
TRUE = {
    ("read", "spread"): dict(b=20000.0, w=1500.0, b2=-9000.0, b4=-7000.0, b8=-4000.0),
    ("read", "camped"): dict(b=30000.0, w=4500.0, b2=-12000.0, b4=-9000.0, b8=-5000.0),
    ("write", "spread"): dict(b=18000.0, w=1300.0, b2=-8000.0, b4=-6000.0, b8=0.0),
    ("write", "camped"): dict(b=26000.0, w=3900.0, b2=-10000.0, b4=-8000.0, b8=-4000.0),
}

# Validation applications: per-launch warp-level load and store
# instructions by width, and the camping degree their times are given.
APPS = {
    "gem": dict(ld={4: 4194304}, st={4: 65536}, degree=0.05),
    "clique": dict(ld={4: 6291456, 8: 1048576}, st={4: 131072}, degree=0.5),
    "transpose_coalesced": dict(ld={4: 2097152}, st={4: 2097152}, degree=0.6),
    "transpose_diagonal": dict(ld={4: 2097152}, st={4: 2097152}, degree=0.1),
}
APP_NOISE = 0.02     # relative

rng = random.Random(20110503)


def normal():
    u1 = max(rng.random(), 1e-300)
    u2 = rng.random()
    return math.sqrt(-2.0 * math.log(u1)) * math.cos(2.0 * math.pi * u2)


def model_time(op, pattern, w, width):
    c = TRUE[(op, pattern)]
    t = c["b"] + c["w"] * w
    if width != 16:
        t += c["b%d" % width]
    return t


def per_instr(op, pattern, w, width):
    return model_time(op, pattern, w, width) / (SMS * ITERS * w)


def band(app, w):
    best = worst = 0.0
    for op, counts in (("read", app["ld"]), ("write", app["st"])):
        for width, n in counts.items():
            best += n * per_instr(op, "spread", w, width)
            worst += n * per_instr(op, "camped", w, width)
    return best, worst


def record(bench, axes, median, nbytes, metrics, samples=40):
    sd = 0.004 * median
    return {
        "suite": "camping", "bench": bench, "axes": axes, "status": "ok", "reason": "",
        "cache": "hot", "samples": samples, "converged": True, "batch": 1,
        "time_ns": {"min": median * 0.995, "median": median, "mean": median * 1.001,
                    "stddev": sd, "ci_lo": median * 0.998, "ci_hi": median * 1.003},
        "bytes": float(nbytes), "flops": 0.0, "bw_gbs": nbytes / median, "gflops": 0.0,
        "sm_mhz_before": 1980.0, "sm_mhz_after": 1980.0, "throttled": False,
        "wall_s": 0.25, "timed_s": median * samples * 1e-9, "metrics": metrics,
    }


def counts_metrics(w, ld, st):
    m = {"active_warps": float(w)}
    for width in WIDTHS:
        m["ld_req_%d" % width] = float(ld.get(width, 0))
    for width in WIDTHS:
        m["st_req_%d" % width] = float(st.get(width, 0))
    m["ld_sectors"] = float(sum(n * width for width, n in ld.items()))
    m["st_sectors"] = float(sum(n * width for width, n in st.items()))
    return m


records = []
for op in ("read", "write"):
    for pattern in ("spread", "camped"):
        for width in WIDTHS:
            for w in WARPS:
                t = model_time(op, pattern, w, width) + NOISE_NS * normal()
                n = SMS * ITERS * w
                ld = {width: n} if op == "read" else {}
                st = {width: n} if op == "write" else {}
                axes = {"width": str(width), "warps": str(w), "pattern": pattern}
                records.append(record(op, axes, t, n * 32 * width, counts_metrics(w, ld, st)))

for name, app in APPS.items():
    for w in APP_WARPS:
        best, worst = band(app, w)
        t = (best + app["degree"] * (worst - best)) * (1.0 + APP_NOISE * normal())
        nbytes = 32 * sum(n * width for counts in (app["ld"], app["st"]) for width, n in counts.items())
        records.append(record(name, {"warps": str(w)}, t, nbytes,
                              counts_metrics(w, app["ld"], app["st"])))

# One point that failed verification: the model must leave it out.
failed = record("read", {"width": "4", "warps": "12", "pattern": "spread"}, 1.0, 0, {}, samples=0)
failed.update(status="failed", reason="12 of 4096 outputs differ from the host reference",
              time_ns={k: None for k in ("min", "median", "mean", "stddev", "ci_lo", "ci_hi")},
              bw_gbs=None, timed_s=0.0)
records.insert(10, failed)

run = {
    "format": "gpubound-run/1",
    "tool": {"name": "gpubound", "version": "0.1.0", "git_revision": "fixture"},
    "command_line": "gpubound run camping --out tests/data/runs/camping-fixture",
    "started_utc": "2026-01-02T00:00:00Z",
    "finished_utc": "2026-01-02T00:01:10Z",
    "host": "synthetic-fixture",
    "cuda": {"driver_api": "13.0", "driver_release": "", "toolkit": "13.0", "nvrtc": "13.0"},
    "mode": "full",
    "complete": True,
    "points_ok": len(records) - 1,
    "points_failed": 1,
    "wall_s": 70.0,
    "timed_s": sum(r["timed_s"] for r in records),
    "timed_share": sum(r["timed_s"] for r in records) / 70.0,
    "modules": {"compiled": 0, "from_disk_cache": 0},
    "device": {
        "ordinal": 0, "name": "Synthetic GPU (test fixture, not a measurement)",
        "uuid": "GPU-00000000-0000-0000-0000-000000000000", "pci_bus_id": "00000000:00:00.0",
        "compute_capability": "9.0", "sm_count": SMS, "warp_size": 32,
        "max_threads_per_block": 1024, "max_threads_per_sm": 2048, "max_blocks_per_sm": 32,
        "regs_per_sm": 65536, "regs_per_block": 65536, "max_regs_per_thread": 255,
        "reg_alloc_unit": 256, "smem_per_sm": 233472, "smem_per_block": 49152,
        "smem_per_block_optin": 232448, "smem_reserved_per_block": 1024, "smem_alloc_unit": 128,
        "sm_clock_max_mhz": 1980, "mem_clock_max_mhz": 2619, "mem_bus_width_bits": 5120,
        "ecc_enabled": 1, "driver_version": 13000, "max_block_dim": [1024, 1024, 64],
        "max_grid_dim": [2147483647, 65535, 65535], "mem_peak_gbs": 3352.32,
        "l2_bytes": 52428800, "total_mem_bytes": 85045231616,
    },
}

with open(os.path.join(HERE, "run.json"), "w") as f:
    json.dump(run, f, indent=2)
    f.write("\n")
with open(os.path.join(HERE, "results.json"), "w") as f:
    f.write("[\n")
    for i, r in enumerate(records):
        f.write(json.dumps(r, separators=(",", ":")) + (",\n" if i + 1 < len(records) else "\n"))
    f.write("]\n")

metric_names = ["active_warps"] + ["ld_req_%d" % w for w in WIDTHS] + \
    ["st_req_%d" % w for w in WIDTHS] + ["ld_sectors", "st_sectors"]
fixed = ["status", "reason", "cache", "samples", "converged", "batch", "min_ns", "median_ns",
         "mean_ns", "stddev_ns", "ci_lo_ns", "ci_hi_ns", "bytes", "flops", "bw_gbs", "gflops",
         "sm_mhz_before", "sm_mhz_after", "throttled", "wall_s", "timed_s"]


def cell(v):
    if v is None:
        return ""
    if isinstance(v, bool):
        return "1" if v else "0"
    if isinstance(v, float):
        return repr(v) if v != int(v) or abs(v) >= 1e16 else str(int(v))
    s = str(v)
    return '"' + s.replace('"', '""') + '"' if any(c in s for c in ',"\n') else s


with open(os.path.join(HERE, "results.csv"), "w") as f:
    f.write(",".join(["suite", "bench", "width", "warps", "pattern"] + fixed + metric_names) + "\n")
    for r in records:
        t = r["time_ns"]
        row = [r["suite"], r["bench"]] + [r["axes"].get(a) for a in ("width", "warps", "pattern")]
        row += [r["status"], r["reason"], r["cache"], r["samples"], r["converged"], r["batch"],
                t["min"], t["median"], t["mean"], t["stddev"], t["ci_lo"], t["ci_hi"],
                r["bytes"], r["flops"], r["bw_gbs"], r["gflops"], r["sm_mhz_before"],
                r["sm_mhz_after"], r["throttled"], r["wall_s"], r["timed_s"]]
        row += [r["metrics"].get(m) for m in metric_names]
        f.write(",".join(cell(v) for v in row) + "\n")
