#!/usr/bin/env python3
"""doc_figures.py [--list] [--gpubound BIN] [SRC]: the figures README.md and
docs/ quote from the recorded runs under data/, recomputed from those records.

Each entry of FIGURES is (doc file, quoted text, where the figure comes from,
function). The function reads the records and returns the values that fill
the quoted text's {} fields; the filled text must appear in the doc file
(blank space and line breaks do not count). A doc edited away from its record,
or a record replaced without the doc, fails the check. With --list, prints the
table (doc, the text as the records fill it, source) instead.

A few figures are what the tool prints today on a committed run where no
record holds them (the paper's form validated on the camping run: its committed
record was written before configurations outside the form's range were left
out); those come from running gpubound BIN on the run (no GPU), and without
--gpubound they are counted as failures that name the option.

Exit 0 when every quoted figure matches, 1 otherwise (each mismatch named).
No GPU: only the records, the standard library and, with --gpubound, the tool.
"""
import csv
import gzip
import json
import math
import os
import re
import shutil
import subprocess
import sys
import tempfile
from collections import defaultdict

SRC = "."
GPUBOUND = None
_cache = {}


def run(name):
    """(run.json, records) of data/h200/NAME, read once."""
    if name not in _cache:
        d = os.path.join(SRC, "data", "h200", name)
        info = json.load(open(os.path.join(d, "run.json")))
        p = os.path.join(d, "results.json")
        recs = json.load(gzip.open(p + ".gz") if not os.path.exists(p) else open(p))
        _cache[name] = (info, [r for r in recs if r.get("status") == "ok"])
    return _cache[name]


def pick(name, bench, **axes):
    """The one ok record of BENCH whose axes include AXES."""
    hits = [r for r in run(name)[1] if r["bench"] == bench and
            all(r["axes"].get(k) == v for k, v in axes.items())]
    if len(hits) != 1:
        raise LookupError("%s: %d records of %s %s" % (name, len(hits), bench, axes))
    return hits[0]


def med(r):
    return r["time_ns"]["median"]


def f(x, digits):
    return "%.*f" % (digits, x)


def up(x, digits):
    """x rounded up at DIGITS decimals: for 'within X%' bounds."""
    s = 10 ** digits
    return f(math.ceil(x * s - 1e-9) / s, digits)


def points_wall(name):
    info, recs = run(name)
    return [str(len(recs)), f(info["wall_s"], 1)]


# ---- bandwidth ----
BW = "bandwidth-2026-11-21-a"


def bw_peak():
    return [f(run(BW)[0]["device"]["mem_peak_gbs"], 0)]


def bw_row(bench, grid, ratio_digits=None):
    r = pick(BW, bench, width="16", grid=grid) if grid else pick(BW, bench)
    peak = run(BW)[0]["device"]["mem_peak_gbs"]
    out = [f(r["bw_gbs"], 0), f(100 * r["bw_gbs"] / peak, 1)]
    if ratio_digits is not None:
        out.append(f(r["bw_gbs"] / pick(BW, "dtod")["bw_gbs"], ratio_digits))
    return out


def bw_repeat():
    a = {(r["bench"], tuple(sorted(r["axes"].items()))): r["bw_gbs"] for r in run(BW)[1]}
    b = {(r["bench"], tuple(sorted(r["axes"].items()))): r["bw_gbs"]
         for r in run("bandwidth-2026-11-21-b")[1]}
    worst = max(abs(b[k] - v) / min(v, b[k]) for k, v in a.items())
    return [str(len(a)), up(100 * worst, 2)]


def bw_wall():
    info, recs = run(BW)
    return [str(len(recs)), f(info["wall_s"], 1), f(100 * info["timed_s"] / info["wall_s"], 0)]


# ---- patterns ----
PT = "patterns-2026-11-21"


def speedup(bench, **axes):
    return med(pick(PT, bench, variant="original", **axes)) / med(pick(PT, bench, variant="revised", **axes))


def patterns_headline():
    coal = [speedup("coalescing", width="4", bytes=b) for b in ("16M", "512M")]
    return points_wall(PT) + [
        f(speedup("bank_conflict", ways="32", pad="0"), 1),
        f(speedup("scattered_copy", memory="pageable"), 1),
        f(speedup("scattered_copy", memory="pinned"), 0),
        f(speedup("branch_divergence"), 2), f(speedup("barrier_wait"), 2),
        f(min(coal), 2), f(max(coal), 2),
        f(speedup("global_memory", load="ca"), 2), f(speedup("register_imbalance"), 2)]


# ---- throughput ----
TP = "throughput-2026-11-21"


def tput(op):
    return pick(TP, "arith", op=op, mode="tput")["metrics"]


def throughput_headline():
    fp32, fp64, iadd = tput("fadd"), tput("dfma"), tput("iadd")
    mufu = [tput(o)["ops_per_clk_sm"] for o in ("rsqrtf", "__sinf", "__expf", "__fdividef")]
    smem = [abs(r["metrics"]["ratio"] - 1) for r in run(TP)[1] if r["bench"] == "smem"]
    const = pick(TP, "const", pattern="uniform")["metrics"]["ops_per_clk_sm"] / \
        pick(TP, "const", pattern="divergent")["metrics"]["ops_per_clk_sm"]
    return points_wall(TP) + [
        f(fp32["ops_per_clk_sm"], 1), f(fp32["ratio"], 2), f(fp64["ops_per_clk_sm"], 1),
        f(fp64["ratio"], 2), f(min(mufu), 1), f(max(mufu), 1), f(iadd["ops_per_clk_sm"], 1),
        f(iadd["ratio"], 2), f(pick(TP, "arith", op="fadd", mode="lat")["metrics"]["clk_per_op"], 1),
        up(100 * max(smem), 1), f(const, 1)]


# ---- camping ----
CP = "camping-2026-11-21"


def validation(paper):
    d = os.path.join(SRC, "data", "h200", CP,
                     "campprof-validate-paper" if paper else "campprof-validate")
    return {row["application"]: row for row in csv.DictReader(open(os.path.join(d, "validation.csv")))}


def paper_today():
    """camp validate's table as the tool gives it today, {application: row},
    for the paper's form fitted on the camping run now (`camp fit RUN --form
    paper`, then `camp validate` with that model on RUN)."""
    if "paper-today" not in _cache:
        if not GPUBOUND:
            raise LookupError("needs --gpubound BIN: the paper form's validation as the tool gives it today")
        run_dir, tmp = os.path.join(SRC, "data", "h200", CP), tempfile.mkdtemp(prefix="doc-figures-")
        try:
            model = os.path.join(tmp, "paper.json")
            subprocess.run([GPUBOUND, "camp", "fit", run_dir, "--form", "paper", "--model", model],
                           check=True, capture_output=True)
            subprocess.run([GPUBOUND, "camp", "validate", "--model", model, run_dir, "--out",
                            os.path.join(tmp, "v")], check=True, capture_output=True)
            rows = csv.DictReader(open(os.path.join(tmp, "v", "validation.csv")))
            _cache["paper-today"] = {row["application"]: row for row in rows}
        finally:
            shutil.rmtree(tmp)
    return _cache["paper-today"]


def line_range(rows):
    errs = [float(r["application line error (%)"]) for r in rows.values()]
    return [f(min(errs), 1), f(max(errs), 1)]


def app_line_range(paper):
    return line_range(validation(paper))


def the_one(rows, column):
    """The value COLUMN has in every row (a LookupError when they differ)."""
    values = {r[column] for r in rows.values()}
    if len(values) != 1:
        raise LookupError("%s differs between applications: %s" % (column, sorted(values)))
    return values.pop()


def paper_left_out():
    """How many configurations of each application the paper's form leaves
    out today, and the fewest warps of those it keeps."""
    rows = paper_today()
    return [the_one(rows, "outside domain"), f(float(the_one(rows, "warps min")), 0)]


def paper_record():
    """The committed record of the paper's form: configurations, line error range."""
    return [the_one(validation(True), "configurations")] + app_line_range(True)


def camped_over_spread():
    t = {(r["bench"], r["axes"]["width"], r["axes"]["pattern"]): med(r) for r in run(CP)[1]
         if r["bench"] in ("read", "write") and r["axes"].get("warps") == "64"
         and r["axes"].get("camp_pitch") == "0"}
    ratios = [t[(b, w, "camped")] / t[(b, w, "spread")] for (b, w, p) in t if p == "camped"]
    return [f(min(ratios), 0), f(max(ratios), 0)]


def camping_headline():
    return [str(len(run(CP)[1])), f(run(CP)[0]["wall_s"], 0)] + camped_over_spread() + \
        app_line_range(False) + line_range(paper_today()) + paper_left_out() + paper_record()


def models_row(app, inside_line):
    """docs/models.md's validation row of APP: best bound, line, (line from
    starts inside), inside share (chosen form), line (paper's form, today)."""
    c, p = validation(False)[app], paper_today()[app]
    row = [f(float(c["best bound error (%)"]), 1), f(float(c["application line error (%)"]), 1)]
    if inside_line:
        row.append(f(float(c["line error, starts inside (%)"]), 1))
    return row + [f(float(c["inside band (%)"]), 0), f(float(p["application line error (%)"]), 1)]


# ---- transpose ----
TR = "transpose-2026-11-21"


def transpose_headline():
    def gbs(bench, **axes):
        return pick(TR, bench, shape="square", elem="4", n="16384", **axes)["bw_gbs"]
    fast, dtod = gbs("fast", design="smem-sq"), gbs("dtod")
    return points_wall(TR) + [f(gbs(b, tile="32x8"), 0) for b in ("naive", "coalesced", "padded", "diagonal")] + \
        [f(fast, 0), f(fast / dtod, 3), f(dtod, 0)]


# ---- ubench ----
UB = "ubench-2026-11-23-d"


def ubench_best():
    """Best median per (bench, size, cache) and every point's (threads, median)."""
    if "ub_best" not in _cache:
        best, pts = defaultdict(lambda: math.inf), defaultdict(list)
        for r in run(UB)[1]:
            a = r["axes"]
            k = (r["bench"], a["size"], a["cache"])
            best[k] = min(best[k], med(r))
            pts[k].append((int(a["rows"]) * int(a["cols"]), med(r)))
        _cache["ub_best"] = (best, pts)
    return _cache["ub_best"]


def carveout_spread(size):
    best, _ = ubench_best()
    benches = {b for (b, s, c) in best if s == size}
    return max(max(best[(b, size, c)] for c in ("min", "default", "max")) /
               min(best[(b, size, c)] for c in ("min", "default", "max")) - 1 for b in benches)


def good(bench, size, cache):
    best, pts = ubench_best()
    k = (bench, size, cache)
    return [p for p in pts[k] if p[1] <= 1.05 * best[k]]


def ubench_headline():
    best, _ = ubench_best()
    sizes = {p[0] for b in ("ubench0", "ubench6") for c in ("min", "default", "max")
             for p in good(b, "large", c)}
    cannon = [best[("cannon_shifted", s, c)] / best[("cannon_direct", s, c)] - 1
              for s in ("small", "medium", "large") for c in ("min", "default", "max")
              if ("cannon_direct", s, c) in best]
    return points_wall(UB) + [" and ".join(str(s) for s in sorted(sizes))] + \
        [up(100 * carveout_spread(s), 1) for s in ("large", "medium", "small")] + \
        [f(100 * min(cannon), 0), f(100 * max(cannon), 0)]


def ubench0_small():
    counts = [len(good("ubench0", "small", c)) for c in ("min", "default", "max")]
    threads = sorted({p[0] for c in ("min", "default", "max") for p in good("ubench0", "small", c)})
    return [str(n) for n in counts] + [str(threads[0]), str(threads[-1])]



def wall(name):
    """(wall s, timed %, and the wall parts) of data/h200/NAME's run.json."""
    info = run(name)[0]
    return info["wall_s"], 100.0 * info["timed_s"] / info["wall_s"], info.get("wall_parts") or {}


def bw_wall_parts():
    w, share, p = wall("bandwidth-2026-11-23-h")
    w0, share0, _ = wall("bandwidth-2026-11-23-b")
    return (f(w, 2), f(share, 1), f(w0, 2), f(share0, 1), f(p["start_s"], 2), f(p["verify_s"], 2),
            f(p["setup_s"], 2), f(p["warmup_s"], 2), f(p["teardown_s"], 2), f(p["sampling_s"] - p["timed_s"], 2),
            f(100 * p["timed_s"] / (w - p["start_s"]), 1))


def ub_wall_parts():
    w, share, p = wall("ubench-2026-11-23-d")
    w0, share0, _ = wall("ubench-2026-11-21")
    return (f(w, 0), f(share, 1), f(w0, 0), f(share0, 0), f(p["verify_s"], 0), f(p["warmup_s"], 0),
            f(p["sampling_s"] - p["timed_s"], 0), f(p["setup_s"], 0))


def ub_moved():
    old = {(r["bench"], tuple(sorted(r["axes"].items()))): r for r in run("ubench-2026-11-21")[1]}
    new = {(r["bench"], tuple(sorted(r["axes"].items()))): r for r in run("ubench-2026-11-23-d")[1]}
    keys = [k for k in old if k in new]
    ratio = sorted(med(new[k]) / med(old[k]) for k in keys)
    single = sorted(med(new[k]) / med(old[k]) for k in keys if old[k]["batch"] == 1)
    n = len(ratio)
    mid = lambda xs: (xs[len(xs) // 2] + xs[(len(xs) - 1) // 2]) / 2
    overlap = sum(1 for k in keys if new[k]["time_ns"]["ci_lo"] <= old[k]["time_ns"]["ci_hi"] and
                  old[k]["time_ns"]["ci_lo"] <= new[k]["time_ns"]["ci_hi"])
    return (f(100 * (1 - mid(ratio)), 1), f(ratio[int(0.05 * n)], 3), f(ratio[int(0.95 * n)], 3),
            f(100 * (1 - mid(single)), 1), f(100.0 * overlap / n, 1))


FIGURES = [
    ("docs/measurement.md", "took {} s, {}% of it in timed kernels (the same run before: {} s, {}%): the start of the GPU and the profiler {} s, verification {} s, set-up {} s, warm-up {} s, teardown {} s, sampling around the timed kernels {} s", "data/h200/bandwidth-2026-11-23-{h,b}/run.json wall_parts", lambda: bw_wall_parts()[:10]),
    ("docs/measurement.md", "without the GPU's start the timed share is {}%", "data/h200/bandwidth-2026-11-23-h/run.json wall_parts", lambda: bw_wall_parts()[10:]),
    ("docs/measurement.md", "took {} s, {}% of it in timed kernels, against {} s and {}% for the sweep timed by events", "data/h200/ubench-2026-11-2{3-d,1}/run.json", lambda: ub_wall_parts()[:4]),
    ("docs/measurement.md", "verification {} s, warm-up {} s, between the timed kernels {} s, set-up {} s", "data/h200/ubench-2026-11-23-d/run.json wall_parts", lambda: ub_wall_parts()[4:]),
    ("docs/measurement.md", "the median point is {}% faster than in the events sweep (5th to 95th percentile of the ratio: {} to {}), single launches by {}% (the event pair's overhead gone), and only {}% of the points' intervals overlap", "data/h200/ubench-2026-11-2{1,3-d} matched points", ub_moved),
    ("README.md", "The theoretical peak the driver's attributes give is {} GB/s", "data/h200/%s/run.json" % BW, bw_peak),
    ("README.md", "| read | stride | {} | {} | |", "data/h200/%s read width=16 grid=stride" % BW, lambda: bw_row("read", "stride")),
    ("README.md", "| write | stride | {} | {} | |", "data/h200/%s write width=16 grid=stride" % BW, lambda: bw_row("write", "stride")),
    ("README.md", "| copy (read + write counted) | stride | {} | {} | {} |", "data/h200/%s copy width=16 grid=stride, over dtod" % BW, lambda: bw_row("copy", "stride", 2)),
    ("README.md", "| copy (read + write counted) | flat | {} | {} | {} |", "data/h200/%s copy width=16 grid=flat, over dtod" % BW, lambda: bw_row("copy", "flat", 3)),
    ("README.md", "| driver copy (`cuMemcpyDtoDAsync`) | | {} | {} | 1 |", "data/h200/%s dtod" % BW, lambda: bw_row("dtod", None)),
    ("README.md", "repeats every one of the {} figures within {}%", "data/h200/bandwidth-2026-11-21-{a,b}: largest GB/s difference", bw_repeat),
    ("docs/suites.md", "repeated by `-b` within {}% for every figure", "data/h200/bandwidth-2026-11-21-{a,b}: largest GB/s difference", lambda: bw_repeat()[1:]),
    ("README.md", "The whole suite, {} points, took {} s of wall time, {}% of it inside timed kernel work", "data/h200/%s/run.json" % BW, bw_wall),
    ("README.md", "| {}, {} s | speedup of the revised kernel: bank conflicts {}, scattered host copy {} (pageable) and {} (pinned), branch diverging {}, wait at barrier {}, coalescing {} to {}; excessive global memory usage {} and register imbalance {} (gone) |",
     "data/h200/%s: original over revised median" % PT, patterns_headline),
    ("README.md", "| {}, {} s | ops/clock/SM: fp32 {} ({} of the guide), fp64 {} ({}), `MUFU` {} to {}, integer add {} ({} x the guide's 64: two pipes); {} cycles per dependent fp32 step; shared memory 32 / n under an n-way conflict within {}%; divergent constant reads {} x slower |",
     "data/h200/%s metrics" % TP, throughput_headline),
    ("README.md", "| {}, {} s | DRAM no longer camps (column pitches 2^k and 2^k+128: per-partition read sectors max/avg 1.02); 64 lines found in one L2 slice by timing run {} to {} x slower than 64 lines in 64 slices at 64 warps per SM; CampProf validation (`camp validate`, `campprof-validate.txt`): with the chosen form (`smax4`) application-line error {} to {}% (the paper: 9.3%), with the paper's form {} to {}% (`camp fit data/h200/camping-2026-11-21 --form paper`, then `camp validate` with that model on the run; it leaves out the {} configurations below {} warps per SM, where the form's bounds are ≤ 0; `campprof-validate-paper.txt`, recorded before that rule over all {}, gives {} to {}%); docs/models.md compares the forms |",
     "data/h200/%s: records, campprof-validate*/validation.csv, camp validate of the paper's form today" % CP, camping_headline),
    ("README.md", "| {}, {} s | 16384²: naive {} GB/s, coalesced {}, padded {}, diagonal {}, our `fast` (`smem-sq`) {} = {} of the driver's copy ({}); no drop at power-of-two sizes |",
     "data/h200/%s n=16384 square" % TR, transpose_headline),
    ("README.md", "| {}, {} s | good block sizes of `ubench0`/`ubench6` at the large size: {} threads only; the carveout changes a bench's best time by at most {}% at the large size, {}% at the medium and {}% at the small; Cannon's shifted start {} to {}% slower (the paper: 18 to 23% faster) |",
     "data/h200/%s/results.json.gz: best medians per bench, size, carveout" % UB, ubench_headline),
    ("docs/suites.md", "small (fewer threads than the GPU holds), {} shapes at `min`, {} at `default` and {} at `max`, of {} to {} threads",
     "data/h200/%s ubench0 size=small: shapes within 5%% of the best" % UB, ubench0_small),
    ("docs/models.md", "The committed `campprof-validate-paper.txt`, recorded before that rule, averaged over all {} with negative bounds among them: {}% to {}%.",
     "data/h200/%s/campprof-validate-paper/validation.csv" % CP, paper_record),
    ("docs/models.md", "| GEM (no camping) | best 11.7% | {}% | {}% | (no start inside) | {}% | {}% | no |",
     "data/h200/%s/campprof-validate/validation.csv, camp validate of the paper's form today" % CP, lambda: models_row("gem", False)),
    ("docs/models.md", "| clique counter | line 9.3% | {}% | {}% | {}% | {}% | {}% | no |",
     "data/h200/%s/campprof-validate/validation.csv, camp validate of the paper's form today" % CP, lambda: models_row("clique", True)),
    ("docs/models.md", "| transpose, coalesced | (not given) | {}% | {}% | {}% | {}% | {}% | no (line); yes (inside) |",
     "data/h200/%s/campprof-validate/validation.csv, camp validate of the paper's form today" % CP, lambda: models_row("transpose_coalesced", True)),
    ("docs/models.md", "| transpose, diagonal | (not given) | {}% | {}% | {}% | {}% | {}% | no (line); yes (inside) |",
     "data/h200/%s/campprof-validate/validation.csv, camp validate of the paper's form today" % CP, lambda: models_row("transpose_diagonal", True)),
]


def squash(s):
    return re.sub(r"\s+", " ", s).strip()


def main(argv):
    global SRC, GPUBOUND
    args = [a for a in argv if a != "--list"]
    if "--gpubound" in args:
        i = args.index("--gpubound")
        GPUBOUND = os.path.abspath(args[i + 1])
        del args[i:i + 2]
    SRC = args[0] if args else os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
    bad = 0
    for doc, text, source, fn in FIGURES:
        try:
            filled = text.format(*fn())
        except (LookupError, OSError, ValueError, subprocess.CalledProcessError) as e:
            print("FAIL %s: cannot compute from %s: %s" % (doc, source, e))
            bad += 1
            continue
        if "--list" in argv:
            print("%s\t%s\t%s" % (doc, filled, source))
            continue
        body = squash(open(os.path.join(SRC, doc), encoding="utf-8").read())
        if squash(filled) not in body:
            print("FAIL %s does not say what %s gives:\n  %s" % (doc, source, filled))
            bad += 1
    if "--list" not in argv:
        print("%d of %d quoted figures match their records" % (len(FIGURES) - bad, len(FIGURES)))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
