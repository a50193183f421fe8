#!/usr/bin/env python3
"""Writes the synthetic run directories the breakdown tests read
(tests/data/lpbm/run-*): NOT measurements. Times are made from known LPBM
coefficients applied to hand-derived predictors of the fixture SGEMM
(sgemm.cu) with 1% deterministic noise, so that tests can check that the
fit recovers them. Run from this directory: python3 make_fixture.py"""
import hashlib, json, math, os, random, shutil

SM, WARP = 132, 32
COEF = {"PUT": 2.0, "G2ST": 0.004, "S2PT": 0.5}   # ns per predictor unit

def sgemm_point(t, n):
    threads = t * t
    wf_wg = math.ceil(threads / WARP)
    blocks = (n // t) ** 2
    resident_blocks = min(32, 64 // wf_wg if wf_wg <= 64 else 0)
    aw = resident_blocks * wf_wg
    wf_ndr, wf_max = blocks * wf_wg, aw * SM
    waves = max(wf_ndr / wf_max, 1.0)
    ops = 2 * n                          # acc += As * Bs: 2 per k, n/t * t times
    gbytes = 4 * (2 * (n // t) + 1)      # A and B per tile, C once
    shared = 2 * (n // t) + 2 * n        # tile stores, then 2 loads per k
    x = {"PUT": ops * waves, "G2ST": gbytes * wf_ndr, "S2PT": shared * waves}
    return threads, blocks, aw, x

def record(t, n, rng, counters):
    threads, blocks, aw, x = sgemm_point(t, n)
    time = sum(COEF[k] * x[k] for k in COEF) * (1 + rng.uniform(-0.01, 0.01))
    by, fl = 3 * n * n * 4, 2 * n ** 3
    r = {"suite": "sgemm", "bench": "tiled", "axes": {"block_size_x": str(t), "n": str(n)},
         "status": "ok", "reason": "", "cache": "hot", "samples": 20, "converged": True,
         "batch": 1, "time_source": "events",
         "time_ns": {"min": time * 0.995, "median": time, "mean": time, "stddev": time * 0.004,
                     "ci_lo": time * 0.997, "ci_hi": time * 1.003},
         "bytes": float(by), "flops": float(fl), "bw_gbs": by / time, "gflops": fl / time,
         "sm_mhz_before": 1980.0, "sm_mhz_after": 1980.0, "throttled": False,
         "wall_s": 0.5, "timed_s": time * 20e-9,
         "metrics": {"regs": 32, "smem_static_bytes": 2 * t * t * 4, "smem_dynamic_bytes": 0,
                     "block_threads": threads, "grid_blocks": blocks,
                     "active_warps_per_sm": aw}}
    if counters:
        r["counters"] = {"smsp__inst_executed.sum": 10.0 * blocks * math.ceil(threads / 32) * n,
                         "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum": 2.0 * n ** 3 / t / 8,
                         "l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum": n * n / 8.0,
                         "l1tex__data_pipe_lsu_wavefronts_mem_shared.sum": 2.0 * n ** 3 / 32}
    return r

def sha256_of(path):
    with open(path, "rb") as f:
        return hashlib.sha256(f.read()).hexdigest()

def write_run(name, points, counters=False):
    d = os.path.join(os.path.dirname(os.path.abspath(__file__)), name)
    os.makedirs(d, exist_ok=True)
    rng = random.Random(15)
    recs = [record(t, n, rng, counters) for t, n in points]
    with open(os.path.join("../runs/bandwidth-fixture/run.json")) as f:
        info = json.load(f)
    info["command_line"] = "gpubound run tests/data/lpbm/sgemm.json --out tests/data/lpbm/" + name
    info["points_ok"], info["points_failed"] = len(recs), 0
    info["timed_s"] = sum(r["timed_s"] for r in recs)
    info["timed_share"] = info["timed_s"] / info["wall_s"]
    # What a run keeps of the spec it measured (docs/results-format.md,
    # "sha256"), named as the copy below is.
    info["sha256"] = {"spec": {"sgemm/spec.json": sha256_of("sgemm.json"), "sgemm/sgemm.cu": sha256_of("sgemm.cu")}}
    with open(os.path.join(d, "run.json"), "w") as f:
        json.dump(info, f, indent=2)
        f.write("\n")
    with open(os.path.join(d, "results.json"), "w") as f:
        f.write("[\n" + ",\n".join(json.dumps(r) for r in recs) + "\n]\n")
    shutil.copy("sgemm.json", os.path.join(d, "spec.json"))
    shutil.copy("sgemm.cu", os.path.join(d, "sgemm.cu"))

if __name__ == "__main__":
    tiles = [1, 2, 4, 8, 16, 32]
    write_run("run-sgemm", [(t, n) for n in (512, 1024) for t in tiles], counters=True)
    write_run("run-nosweep", [(16, n) for n in (256, 512, 1024, 2048)])
    write_run("run-few", [(t, 512) for t in (4, 8, 16)])
