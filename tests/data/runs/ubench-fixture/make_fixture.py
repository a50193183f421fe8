#!/usr/bin/env python3
"""Writes the synthetic ubench run directory of tests/data/runs/ubench-fixture:
run.json, results.json and results.csv, in the format of docs/results-format.md
(results.json and results.csv as the run writer formats them), from a made-up
model of block-shape effects. NO GPU ran anything: these are not measurements.

Usage:
    python3 make_fixture.py DIR          write the run directory DIR (created)
    python3 make_fixture.py --expect     print, per bench, size and cache, the
                                         best shape and the shapes within 5% of
                                         it, ranked here independently of
                                         src/models/geometry.c (tests/cli/geometry.sh
                                         compares the two)

Standard library only; the output is the same on every run and platform.
"""
import json
import math
import os
import sys
import zlib

SIDES_FULL = [1, 2, 3, 4, 8, 16, 24, 32, 64, 128, 256, 512, 1024]
SIDES_POW2 = [1, 2, 4, 8, 16, 32, 64, 128, 256, 512, 1024]


def shapes(sides):
    return [(r, c) for r in sides for c in sides if r * c <= 1024]


def jitter(*key):
    """A deterministic factor in [0.985, 1.015) from the point's name."""
    h = zlib.crc32("/".join(str(k) for k in key).encode())
    return 0.985 + 0.03 * (h % 10007) / 10007.0


def occupancy(threads, regs):
    """Active warps / 64 on a compute capability 9.0 SM, from the warp,
    block and register limits only (a simplification)."""
    warps = -(-threads // 32)
    by_warps = 64 // warps
    regs_per_warp = -(-regs * 32 // 256) * 256
    by_regs = (65536 // regs_per_warp) // warps
    blocks = min(32, by_warps, by_regs)
    return blocks * warps / 64.0


# bench: (registers per thread, model of the time in ns)
def model(bench, size, cache, r, c):
    t = r * c
    warps = -(-t // 32)
    lanes = t / (32.0 * warps)            # share of the lanes of its warps a block uses
    occ = occupancy(t, REGS[bench])
    base = 2.0e6 if size == "large" else 8.0e3
    sched = 1 + 0.08 * abs(math.log2(t / 192.0))
    occ_pen = 1 + 0.6 * (1 - occ) if size == "large" else 1.0
    if bench == "ubench1":
        coal = (32.0 / min(c, 32)) ** 0.85
        if cache == "max":
            base *= 0.97
    elif bench == "ubench2":
        coal = 1.0
    elif bench == "ubench5":
        coal = 1.0
        sched = 1 + 0.05 * abs(math.log2(t / 64.0))
    elif bench == "ubench13":
        coal = (32.0 / min(c, 32)) ** 0.5
    elif bench == "ubench14":
        coal = (32.0 / min(c, 32)) ** 0.5
        sched = 1 + 0.08 * abs(math.log2(t / 384.0))
    else:
        raise ValueError(bench)
    return base / lanes * coal * sched * occ_pen * jitter(bench, size, cache, r, c), occ


REGS = {"ubench1": 16, "ubench2": 16, "ubench5": 48, "ubench13": 24, "ubench14": 24}

# (bench, size, cache, shape list, with occupancy metrics)
GROUPS = [
    ("ubench1", "large", "default", shapes(SIDES_FULL), True),
    ("ubench1", "large", "max", shapes(SIDES_POW2), True),
    ("ubench1", "small", "default", shapes(SIDES_POW2), True),
    ("ubench2", "large", "default", shapes(SIDES_POW2), True),
    ("ubench5", "large", "default", shapes(SIDES_POW2), True),
    ("ubench13", "large", "default", shapes(SIDES_POW2), True),
    ("ubench14", "large", "default", shapes(SIDES_POW2), False),
]

# ubench6 at large/default: chosen by hand at the edges of the marks.
# (rows, cols, time ns, occupancy, max_occupancy)
UBENCH6 = [
    (8, 16, 100000.0, 1.0, 1),     # best
    (16, 8, 100000.0, 1.0, 1),     # best, tied
    (32, 8, 105000.0, 1.0, 1),     # exactly 5% slower: within 5%
    (16, 16, 105500.0, 0.75, 0),   # within 25%
    (32, 32, 125000.0, 0.5, 0),    # exactly 25% slower: within 25%
    (4, 64, 125500.0, 1.0, 1),     # other
]
# Points that did not produce a time: ignored by the advisor, counted.
NOT_OK = [
    ("ubench1", "large", "default", 2, 16, "failed", "3 of 37748736 elements differ from the reference (first at 0)"),
    ("ubench6", "large", "default", 1, 1, "failed", "1 of 37748736 elements differ from the reference (first at 0)"),
    ("ubench6", "large", "default", 2, 2, "skipped", "not run in this fixture"),
]


def jreal(v):
    """A double as jansson writes it with JSON_REAL_PRECISION(17)."""
    if v is None or not math.isfinite(v):
        return "null"
    s = "%.17g" % v
    if "." not in s and "e" not in s:
        s += ".0"
    return s


def record(bench, size, cache, r, c, status, reason, median, occ, max_occ, regs):
    ok = status == "ok"
    if ok:
        ci_lo, ci_hi = median * 0.998, median * 1.003
        t = {"min": median * 0.996, "median": median, "mean": median * 1.001,
             "stddev": median * 0.004, "ci_lo": ci_lo, "ci_hi": ci_hi}
        samples, batch = 30, (1 if median >= 20000 else 8)
    else:
        t = dict.fromkeys(["min", "median", "mean", "stddev", "ci_lo", "ci_hi"])
        samples, batch = 0, 0
    metrics = {}
    if occ is not None:
        metrics = {"occupancy": occ, "regs": float(regs), "max_occupancy": float(max_occ),
                   "threads": float(r * c)}
    rec = {
        "suite": "ubench", "bench": bench,
        "axes": {"rows": str(r), "cols": str(c), "size": size, "cache": cache},
        "status": status, "reason": reason, "cache": "hot", "samples": samples,
        "converged": ok, "batch": batch, "time_ns": t, "bytes": 0.0, "flops": 0.0,
        "bw_gbs": 0.0 if ok else None, "gflops": 0.0 if ok else None,
        "sm_mhz_before": 1980.0 if ok else None, "sm_mhz_after": 1980.0 if ok else None,
        "throttled": False, "wall_s": 0.05,
        "timed_s": samples * batch * median * 1e-9 if ok else 0.0, "metrics": metrics,
    }
    return rec


def build():
    recs = []
    for bench, size, cache, shp, with_occ in GROUPS:
        occs = {s: occupancy(s[0] * s[1], REGS[bench]) for s in shp}
        top = max(occs.values())
        for r, c in shp:
            if any(n[:5] == (bench, size, cache, r, c) for n in NOT_OK):
                continue
            t, occ = model(bench, size, cache, r, c)
            recs.append(record(bench, size, cache, r, c, "ok", "", t,
                               occ if with_occ else None, 1 if occ == top else 0, REGS[bench]))
    for r, c, t, occ, mo in UBENCH6:
        recs.append(record("ubench6", "large", "default", r, c, "ok", "", t, occ, mo, 12))
    for bench, size, cache, r, c, status, reason in NOT_OK:
        recs.append(record(bench, size, cache, r, c, status, reason, None, None, 0, 0))
    # A record of another suite: the advisor leaves it alone.
    other = record("ubench1", "large", "default", 4, 32, "ok", "", 123456.0, None, 0, 0)
    other["suite"], other["bench"], other["axes"] = "bandwidth", "read", {"width": "16", "grid": "stride", "bytes": "256M"}
    recs.append(other)
    return recs


def dump_record(rec):
    def val(v):
        if isinstance(v, bool):
            return "true" if v else "false"
        if isinstance(v, int):
            return str(v)
        if v is None or isinstance(v, float):
            return jreal(v)
        if isinstance(v, str):
            return json.dumps(v, ensure_ascii=False)
        return "{" + ",".join(json.dumps(k) + ":" + val(x) for k, x in v.items()) + "}"
    return val(rec)


def csv_field(s):
    if any(ch in s for ch in ',"\n\r'):
        return '"' + s.replace('"', '""') + '"'
    return s


def csv_num(v):
    return "" if v is None or not math.isfinite(v) else "%.17g" % v


def write_csv(path, recs):
    axes = ["rows", "cols", "size", "cache"]
    fixed = ["status", "reason", "cache", "samples", "converged", "batch", "min_ns", "median_ns",
             "mean_ns", "stddev_ns", "ci_lo_ns", "ci_hi_ns", "bytes", "flops", "bw_gbs", "gflops",
             "sm_mhz_before", "sm_mhz_after", "throttled", "wall_s", "timed_s"]
    metrics = []
    for rec in recs:
        for m in rec["metrics"]:
            if m not in metrics:
                metrics.append(m)
    head = ["suite", "bench"] + [("axis_" + a if a in fixed else a) for a in axes] + fixed + metrics
    lines = [",".join(head)]
    for rec in recs:
        t = rec["time_ns"]
        row = [csv_field(rec["suite"]), csv_field(rec["bench"])]
        row += [csv_field(rec["axes"].get(a, "")) for a in axes]
        row += [rec["status"], csv_field(rec["reason"]), rec["cache"], str(rec["samples"]),
                str(int(rec["converged"])), str(rec["batch"])]
        row += [csv_num(t[k]) for k in ["min", "median", "mean", "stddev", "ci_lo", "ci_hi"]]
        row += [csv_num(rec[k]) for k in ["bytes", "flops", "bw_gbs", "gflops", "sm_mhz_before",
                                          "sm_mhz_after"]]
        row += [str(int(rec["throttled"])), csv_num(rec["wall_s"]), csv_num(rec["timed_s"])]
        row += [csv_num(rec["metrics"].get(m)) for m in metrics]
        lines.append(",".join(row))
    with open(path, "w", encoding="utf-8") as f:
        f.write("\n".join(lines) + "\n")


def run_info(recs):
    n_ok = sum(1 for r in recs if r["status"] == "ok")
    timed = sum(r["timed_s"] for r in recs)
    wall = 60.0
    return {
        "format": "gpubound-run/1",
        "tool": {"name": "gpubound", "version": "0.1.0", "git_revision": "fixture"},
        "command_line": "tests/data/runs/ubench-fixture/make_fixture.py (synthetic, not a measurement)",
        "started_utc": "2026-01-01T00:00:00Z",
        "finished_utc": "2026-01-01T00:01:00Z",
        "host": "synthetic-fixture",
        "cuda": {"driver_api": "13.0", "driver_release": "", "toolkit": "13.0", "nvrtc": "13.0"},
        "mode": "full",
        "complete": True,
        "points_ok": n_ok,
        "points_failed": len(recs) - n_ok,
        "wall_s": wall,
        "timed_s": timed,
        "timed_share": timed / wall,
        "modules": {"compiled": 0, "from_disk_cache": 0},
        "device": {
            "ordinal": 0, "name": "Synthetic GPU (test fixture, not a measurement)",
            "uuid": "GPU-00000000-0000-0000-0000-000000000000", "pci_bus_id": "00000000:00:00.0",
            "compute_capability": "9.0", "sm_count": 132, "warp_size": 32,
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


def write_run(d):
    recs = build()
    os.makedirs(d, exist_ok=True)
    with open(os.path.join(d, "results.json"), "w", encoding="utf-8") as f:
        f.write("[\n" + ",\n".join(dump_record(r) for r in recs) + "\n]\n")
    write_csv(os.path.join(d, "results.csv"), recs)
    with open(os.path.join(d, "run.json"), "w", encoding="utf-8") as f:
        json.dump(run_info(recs), f, indent=2)
        f.write("\n")


def expect():
    """Best shapes and shapes within 5%, ranked by time, then threads, then rows."""
    groups = {}
    for rec in build():
        if rec["suite"] != "ubench" or rec["status"] != "ok":
            continue
        a = rec["axes"]
        groups.setdefault((rec["bench"], a["size"], a["cache"]), []).append(
            (rec["time_ns"]["median"], int(a["rows"]) * int(a["cols"]), int(a["rows"]), a["rows"] + "x" + a["cols"]))
    for (bench, size, cache), pts in groups.items():
        pts.sort()
        best = pts[0][0]
        good = [p[3] for p in pts if p[0] / best <= 1.05 + 1e-9]
        print(",".join([bench, size, cache, pts[0][3], " ".join(good)]))


if __name__ == "__main__":
    if len(sys.argv) == 2 and sys.argv[1] == "--expect":
        expect()
    elif len(sys.argv) == 2 and not sys.argv[1].startswith("-"):
        write_run(sys.argv[1])
    else:
        sys.exit(__doc__)
