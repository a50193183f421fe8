"""Writes the synthetic ceilings run directory of tests/data/runs/ceilings-fixture:
run.json and results.json in the format of docs/results-format.md, with made-up
rates. NO GPU ran anything: these are not measurements, and the rates are
chosen for the tests (round numbers, and a shared-memory roof low enough that
points of data/h200/examples-counters-2026-11-23/sgemm lie above it).

Usage: python3 make_fixture.py DIR   (standard library only; the same output on every run)
"""
import json
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))


def record(suite, bench, axes, median_ns, bytes_=0.0, flops=0.0, metrics=None):
    return {"suite": suite, "bench": bench, "axes": axes, "status": "ok", "reason": "", "cache": "hot",
            "samples": 10, "converged": True, "batch": 1, "time_source": "cupti",
            "time_ns": {"min": median_ns, "median": median_ns, "mean": median_ns, "stddev": 0.0,
                        "ci_lo": median_ns, "ci_hi": median_ns},
            "batch_time_ns": None, "bytes": bytes_, "flops": flops,
            "bw_gbs": bytes_ / median_ns if bytes_ else 0.0, "gflops": flops / median_ns if flops else None,
            "sm_mhz_before": 1980.0, "sm_mhz_after": 1980.0, "throttled": False, "wall_s": 0.1,
            "timed_s": 0.01, "metrics": metrics or {}}


def records():
    ms = 1e6
    return [
        record("bandwidth", "read", {"width": "16", "grid": "stride", "bytes": "2147483648"}, ms, 3.0e9),
        record("throughput", "arith", {"op": "ffma", "mode": "tput"}, ms, 0, 1e6,
               {"ops_per_clk_sm": 125.0, "sm_mhz": 1980.0}),
        record("ceilings", "l2_read", {"width": "16", "share": "50"}, ms, 9.0e9),
        record("ceilings", "l2_write", {"width": "16", "share": "50"}, ms, 8.0e9),
        record("ceilings", "smem", {"width": "16"}, ms, 2.0e10),
        record("ceilings", "smem", {"width": "4"}, ms, 1.0e10),
        record("ceilings", "hfma2", {"type": "f16x2"}, ms, 0, 1.2e11),
        record("ceilings", "mma", {"type": "bf16"}, ms, 0, 8.0e11),
        record("ceilings", "atomic_global", {"addrs": "one"}, ms, 0, 2.0e6),
        record("ceilings", "atomic_global", {"addrs": "distinct"}, ms, 0, 4.0e8),
        record("ceilings", "latency", {"level": "l2"}, 4.0e5, 0, 0, {"loads": 2000.0}),   # 200 ns a load
        record("ceilings", "latency", {"level": "dram"}, 1.0e6, 0, 0, {"loads": 2000.0}), # 500 ns a load
        record("ceilings", "launch", {"blocks": "1"}, 2000.5, 4.0),
        record("ceilings", "launch", {"blocks": "1024"}, 2512.0, 4096.0),
        record("ceilings", "launch", {"blocks": "65536"}, 34768.0, 262144.0),
    ]


def main(out):
    os.makedirs(out, exist_ok=True)
    with open(os.path.join(HERE, "..", "ubench-fixture", "run.json")) as f:
        run = json.load(f)
    recs = records()
    run["command_line"] = "SYNTHETIC TEST FIXTURE, not a measurement: tests/data/runs/ceilings-fixture/make_fixture.py"
    run["host"] = "synthetic-test-fixture"
    run["mode"] = "quick"
    run["points_ok"] = len(recs)
    run["points_failed"] = 0
    with open(os.path.join(out, "run.json"), "w") as f:
        json.dump(run, f, indent=2)
        f.write("\n")
    with open(os.path.join(out, "results.json"), "w") as f:
        f.write("[\n" + ",\n".join(json.dumps(r, separators=(",", ":")) for r in recs) + "\n]\n")


if __name__ == "__main__":
    main(sys.argv[1])
