#!/usr/bin/env python3
"""plausible.py RUN_DIR...: checks every recorded number of a gpubound run
against physical bounds taken from the device properties in its run.json.
Prints one line per run (records, checks, violations) and each violation;
exits 1 when any number is implausible, 2 when a run cannot be read.

The bounds (docs/testing.md, "The plausibility layer"):
  times     0 < min <= ci_lo <= median <= ci_hi, min <= mean, stddev >= 0,
            samples >= 1 (the CI is an interval of order statistics).
  derived   bw_gbs = bytes / median and gflops = flops / median (1e-6).
  bytes/s   a point whose data lives in DRAM moves at most the DRAM peak
            (device.mem_peak_gbs: memory clock x bus width x 2). A point is
            L2-resident when its footprint fits in the L2: a `bytes` or
            `footprint` axis at most device.l2_bytes, camping read/write
            with camp_pitch=0 (64 lines, 8 KiB), or bytes moved per launch
            at most device.l2_bytes (the footprint is no larger than the
            bytes moved); these may exceed the DRAM
            peak (patterns coalescing 16M reaches 109 % on an H200) and are
            bounded instead by what the SMs can load: sm_count x 128 B/clk
            (the L1's width) x sm_clock_max.
  issue     per SM and clock at most 4 schedulers x warp_size thread-level
            operations (ops_per_clk_sm), 128 B of shared memory
            (bytes_per_clk_sm: 32 banks of 4 B), sm_mhz at most the maximum
            clock (+0.5 %).
  occupancy active warps, blocks and registers within the device's limits;
            occupancies in [0, 1].
  ceilings  l2_read, l2_write and smem are L2- or SM-resident (the bound
            above); per SM and clock at most 512 flops of f16x2/bf16x2 FMA
            (the guide's 256 results), 4096 flops of fp16/bf16 mma.sync and
            8192 of fp8 (the tensor cores' dense datasheet rates, H100), one
            atomic per lane of each scheduler (4 x warp_size), and a
            guide_rate that is positive; smem at least 1/32 of its roof
            (conflict-free loads).
  counters  camping read/write: the request counters times their bytes
            (32 lanes x width) add up to the bytes the point moved, and the
            sectors cover those bytes (32 B each) without exceeding 32 a
            request.
"""
import gzip
import json
import os
import sys

REL = 1e-6
SCHEDULERS_PER_SM = 4   # every architecture gpubound supports (cc 7.0 and newer)
L1_BYTES_PER_CLK = 128
SMEM_BYTES_PER_CLK = 128


def parse_size(s):
    mult = {"K": 1 << 10, "M": 1 << 20, "G": 1 << 30}
    s = str(s)
    if s and s[-1] in mult:
        return float(s[:-1]) * mult[s[-1]]
    return float(s)


def load_records(run):
    p = os.path.join(run, "results.json")
    if os.path.exists(p + ".gz"):
        with gzip.open(p + ".gz", "rt") as f:
            return json.load(f)
    with open(p) as f:
        return json.load(f)


def l2_resident(r, dev):
    ax = r.get("axes", {})
    for k in ("bytes", "footprint"):
        if k in ax:
            try:
                return parse_size(ax[k]) <= dev["l2_bytes"]
            except ValueError:
                return False
    if r["suite"] == "camping" and r["bench"] in ("read", "write") and ax.get("camp_pitch") == "0":
        return True
    # ceilings: a share of the L2 read or written many times; shared memory.
    if r["suite"] == "ceilings" and r["bench"] in ("l2_read", "l2_write", "smem"):
        return True
    # The counters' replay starts from an empty L2 and reads each byte of the
    # footprint from DRAM once: DRAM bytes within the L2 mean a footprint
    # within it, however often the kernel reuses it (a gather from a table).
    c = r.get("counters") or {}
    # The bytes of the kernel's buffers (spec runs record them): within the L2,
    # a kernel that reads and writes the same lines moves twice as much as it
    # keeps (an in-place update of 32 MiB moves 64).
    buf = (r.get("metrics") or {}).get("buffer_bytes")
    if isinstance(buf, (int, float)) and 0 < buf <= dev["l2_bytes"]:
        return True
    rd, wr = c.get("dram__sectors_read.sum"), c.get("dram__sectors_write.sum")
    if isinstance(rd, (int, float)) and isinstance(wr, (int, float)) and 32 * (rd + wr) <= dev["l2_bytes"]:
        return True
    # A kernel touches no more memory than it moves: bytes moved per launch
    # within the L2 means a footprint within it (transposes at n = 2048).
    b = r.get("bytes")
    return isinstance(b, (int, float)) and 0 < b <= dev["l2_bytes"]


class Checker:
    def __init__(self, dev):
        self.dev, self.n, self.bad = dev, 0, []

    def check(self, ok, what, r):
        self.n += 1
        if not ok:
            axes = ",".join("%s=%s" % kv for kv in r.get("axes", {}).items())
            self.bad.append("%s/%s [%s]: %s" % (r["suite"], r["bench"], axes, what))

    def times(self, r):
        t = r["time_ns"]
        self.check(r["samples"] >= 1, "samples %s < 1" % r["samples"], r)
        self.check(t["min"] > 0, "min time %g ns not positive" % t["min"], r)
        self.check(t["min"] <= t["ci_lo"] * (1 + REL), "min %g above ci_lo %g" % (t["min"], t["ci_lo"]), r)
        self.check(t["ci_lo"] <= t["median"] * (1 + REL) and t["median"] <= t["ci_hi"] * (1 + REL),
                   "median %g outside [ci_lo %g, ci_hi %g]" % (t["median"], t["ci_lo"], t["ci_hi"]), r)
        self.check(t["min"] <= t["mean"] * (1 + REL), "mean %g below min %g" % (t["mean"], t["min"]), r)
        self.check(t["stddev"] >= 0, "stddev %g negative" % t["stddev"], r)

    def rates(self, r):
        dev, med = self.dev, r["time_ns"]["median"]
        if r.get("bw_gbs") is not None:
            want = r["bytes"] / med
            self.check(abs(r["bw_gbs"] - want) <= REL * want, "bw_gbs %g is not bytes/median %g" % (r["bw_gbs"], want), r)
            if l2_resident(r, dev):
                # the clock is reported in whole MHz: the SMs may run up to 0.5 MHz above it
                peak = dev["sm_count"] * L1_BYTES_PER_CLK * (dev["sm_clock_max_mhz"] + 0.5) * 1e-3
                self.check(r["bw_gbs"] <= peak, "L2-resident bw %.1f GB/s above the SMs' %.1f GB/s" % (r["bw_gbs"], peak), r)
            else:
                self.check(r["bw_gbs"] <= dev["mem_peak_gbs"],
                           "bw %.1f GB/s above the DRAM peak %.1f GB/s (footprint beyond the L2)" % (r["bw_gbs"], dev["mem_peak_gbs"]), r)
        if r.get("gflops") is not None:
            want = r["flops"] / med
            self.check(abs(r["gflops"] - want) <= REL * want, "gflops %g is not flops/median %g" % (r["gflops"], want), r)

    def metrics(self, r):
        dev, m = self.dev, r.get("metrics", {})
        if "ops_per_clk_sm" in m:
            lim = SCHEDULERS_PER_SM * dev["warp_size"]
            self.check(0 < m["ops_per_clk_sm"] <= lim, "ops/clk/SM %g outside (0, %d]" % (m["ops_per_clk_sm"], lim), r)
        if "bytes_per_clk_sm" in m:
            self.check(0 < m["bytes_per_clk_sm"] <= SMEM_BYTES_PER_CLK, "shared B/clk/SM %g above %d" % (m["bytes_per_clk_sm"], SMEM_BYTES_PER_CLK), r)
        if "sm_mhz" in m:
            self.check(0 < m["sm_mhz"] <= dev["sm_clock_max_mhz"] * 1.005, "sm_mhz %g above the maximum %d" % (m["sm_mhz"], dev["sm_clock_max_mhz"]), r)
        if "clk_per_op" in m:
            self.check(m["clk_per_op"] > 0, "clk_per_op %g not positive" % m["clk_per_op"], r)
        max_warps = dev["max_threads_per_sm"] / dev["warp_size"]
        for k in ("active_warps", "warps_per_sm"):
            if k in m:
                self.check(0 < m[k] <= max_warps, "%s %g outside (0, %g]" % (k, m[k], max_warps), r)
        for k in ("blocks_per_sm", "blocks_per_sm_driver"):
            if k in m:
                self.check(0 <= m[k] <= dev["max_blocks_per_sm"], "%s %g above %d" % (k, m[k], dev["max_blocks_per_sm"]), r)
        if "regs" in m:
            self.check(0 <= m["regs"] <= dev["max_regs_per_thread"], "regs %g above %d" % (m["regs"], dev["max_regs_per_thread"]), r)
        if "smem_bytes" in m:
            self.check(0 <= m["smem_bytes"] <= dev["smem_per_block_optin"], "smem_bytes %g above %d" % (m["smem_bytes"], dev["smem_per_block_optin"]), r)
        for k in ("occupancy", "occ_achieved", "occ_theoretical", "max_occupancy"):
            if k in m:
                self.check(0 <= m[k] <= 1 + REL, "%s %g outside [0, 1]" % (k, m[k]), r)

    def counters(self, r):
        m = r.get("metrics", {})
        if r["suite"] != "camping" or r["bench"] not in ("read", "write") or "ld_sectors" not in m:
            return
        ld = sum(m["ld_req_%d" % w] * 32 * w for w in (2, 4, 8, 16))
        st = sum(m["st_req_%d" % w] * 32 * w for w in (2, 4, 8, 16))
        self.check(abs(ld + st - r["bytes"]) <= REL * r["bytes"], "requests move %g B, the point %g B" % (ld + st, r["bytes"]), r)
        for kind, b in (("ld", ld), ("st", st)):
            req = sum(m["%s_req_%d" % (kind, w)] for w in (2, 4, 8, 16))
            sec = m["%s_sectors" % kind]
            self.check(sec * 32 >= b * (1 - REL) and sec <= 32 * req,
                       "%s sectors %g do not fit %g B in %g requests" % (kind, sec, b, req), r)


# Per SM and clock, the most each ceilings bench can do (docs/suites.md, ceilings).
CEILINGS_PER_CLK = {"hfma2": 512, "mma:fp16": 4096, "mma:bf16": 4096, "mma:fp8": 8192}


def check_ceilings(c, r):
    if r["suite"] != "ceilings":
        return
    dev, m = c.dev, r.get("metrics", {})
    clk = dev["sm_count"] * dev["sm_clock_max_mhz"] * 1e-3 * 1.005
    key = r["bench"] + (":" + r["axes"].get("type", "") if r["bench"] == "mma" else "")
    if key in CEILINGS_PER_CLK:
        c.check(0 < (r.get("gflops") or 0) <= CEILINGS_PER_CLK[key] * clk,
                "%.1f GFLOP/s outside (0, %d flops/clk/SM]" % (r.get("gflops") or 0, CEILINGS_PER_CLK[key]), r)
    if r["bench"].startswith("atomic_"):
        lim = SCHEDULERS_PER_SM * dev["warp_size"] * clk
        c.check(0 < (r.get("gflops") or 0) <= lim, "%.3g atomics/ns outside (0, %g]" % (r.get("gflops") or 0, lim), r)
    if "guide_rate" in m:
        c.check(m["guide_rate"] > 0, "guide_rate %g not positive" % m["guide_rate"], r)
    if r["bench"] == "smem":
        c.check(r["bw_gbs"] >= SMEM_BYTES_PER_CLK / 32.0 * clk / 1.005,
                "conflict-free shared loads at %.1f GB/s, below 1/32 of 128 B/clk/SM" % r["bw_gbs"], r)


def check_run(run):
    with open(os.path.join(run, "run.json")) as f:
        dev = json.load(f)["device"]
    c = Checker(dev)
    recs = load_records(run)
    ok = [r for r in recs if r.get("status") == "ok"]
    for r in ok:
        c.times(r)
        c.rates(r)
        c.metrics(r)
        c.counters(r)
        check_ceilings(c, r)
    return len(ok), c


def main(argv):
    if len(argv) < 2:
        print(__doc__.strip().splitlines()[0], file=sys.stderr)
        return 2
    bad = 0
    for run in argv[1:]:
        try:
            n, c = check_run(run)
        except (OSError, ValueError, KeyError) as e:
            print("%s: cannot read: %s" % (run, e))
            return 2
        print("%s: %d records, %d checks, %d implausible" % (run, n, c.n, len(c.bad)))
        for b in c.bad:
            print("  " + b)
        bad += len(c.bad)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
