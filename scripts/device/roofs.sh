#!/usr/bin/env bash
# roofs.sh GPUBOUND OUTDIR - records the ceilings run (the command of the
# committed runs, data/<gpu>/ceilings-2026-11-26/run.json) into
# OUTDIR/ceilings-<date> and prints the L2 and tensor-core roofs against
# the goals of docs/suites.md (L2 at least 10 TB/s on the H200; dense bf16
# tensor cores at least 0.8 of the 989 TFLOP/s datasheet). At most 150 s;
# every step runs under `timeout` and reports its exit code; the script
# goes on after a failed step. Writes OUTDIR/summary.md.
set -u

if [ "$#" -ne 2 ]; then
    echo "usage: $0 GPUBOUND OUTDIR (the gpubound binary; a directory for the run and summary.md)" >&2
    exit 2
fi
GB=$1
OUT=$2
if [ ! -x "$GB" ]; then
    echo "roofs.sh: $GB is not an executable gpubound; build it first (make build)" >&2
    exit 2
fi
mkdir -p "$OUT" || { echo "roofs.sh: cannot create $OUT" >&2; exit 2; }

RUN="$OUT/ceilings-$(date -u +%Y-%m-%d)"
LOG="$OUT/steps.log"
: >"$LOG"

step() { # step NAME SECONDS CMD...: runs CMD under timeout, logs its exit code
    local name=$1 secs=$2
    shift 2
    local t0 rc
    t0=$(date +%s)
    timeout -k 5 "$secs" "$@"
    rc=$?
    echo "step $name: exit $rc after $(($(date +%s) - t0)) s" | tee -a "$LOG"
    return 0
}

step gpu 10 nvidia-smi --query-gpu=name,clocks.max.sm,driver_version --format=csv,noheader >"$OUT/gpu.txt" 2>&1
cat "$OUT/gpu.txt"
step run 115 "$GB" run ceilings bandwidth/read throughput/arith --set op=ffma,dfma,imul,__sinf --set mode=tput \
    --no-report --out "$RUN" 2>"$OUT/run.stderr"
tail -n 5 "$OUT/run.stderr"
step info 10 "$GB" info --ceilings "$RUN" >"$OUT/ceilings.txt" 2>&1
step summary 10 python3 - "$RUN" "$OUT/summary.md" <<'PY'
import json, sys
run, md = sys.argv[1], sys.argv[2]
try:
    recs = json.load(open(run + "/results.json"))
    dev = json.load(open(run + "/run.json")).get("device", {}).get("name", "?")
except (OSError, ValueError) as e:
    print("no run to summarize: %s" % e)
    sys.exit(1)
def ax(r):
    return ",".join("%s=%s" % kv for kv in sorted(r["axes"].items()))
lines = ["# ceilings on %s (%s)" % (dev, run.rsplit("/", 1)[-1]), ""]
ok = [r for r in recs if r["status"] == "ok"]
bad = sorted((r for r in recs if r["status"] != "ok"), key=lambda r: r["bench"] not in ("wgmma", "l2_read"))
l2 = sorted((r for r in ok if r["bench"] == "l2_read"), key=lambda r: -(r["bw_gbs"] or 0))
if l2:
    b = l2[0]
    lines.append("L2 read best: %.0f GB/s (%s); goal 10000 GB/s on the H200: %s"
                 % (b["bw_gbs"], ax(b), "met" if b["bw_gbs"] >= 10000 else "missed"))
    lines.append("L2 read top 5: " + "; ".join("%.0f (%s)" % (r["bw_gbs"], ax(r)) for r in l2[:5]))
    for share in sorted({r["axes"]["share"] for r in l2}, key=int):
        best = max((r for r in l2 if r["axes"]["share"] == share), key=lambda r: r["bw_gbs"])
        lines.append("  share %s%%: %.0f GB/s (%s)" % (share, best["bw_gbs"], ax(best)))
else:
    lines.append("L2 read: no ok point")
for bench in ("mma", "wgmma"):
    for t in ("bf16", "fp16"):
        pts = sorted((r for r in ok if r["bench"] == bench and r["axes"].get("type") == t),
                     key=lambda r: -(r["gflops"] or 0))
        if pts:
            g = pts[0]["gflops"]
            lines.append("%s %s best: %.0f GFLOP/s = %.3f of 989 TFLOP/s (%s)%s"
                         % (bench, t, g, g / 989e3, ax(pts[0]),
                            "; goal 0.8: " + ("met" if g >= 0.8 * 989e3 else "missed") if t == "bf16" else ""))
            if bench == "wgmma":
                lines.append("  " + "; ".join("%.0f (%s)" % (r["gflops"], ax(r)) for r in pts))
        elif bench == "wgmma":
            lines.append("wgmma %s: no ok point" % t)
lines.append("points ok %d, not ok %d" % (len(ok), len(bad)))
for r in bad[:12]:
    lines.append("  %s %s/%s %s: %s" % (r["status"], r["suite"], r["bench"], ax(r), r["reason"][:200]))
text = "\n".join(lines) + "\n"
open(md, "w").write(text)
print(text, end="")
PY
{
    echo
    echo "## gpubound info --ceilings"
    echo
    echo '```'
    cat "$OUT/ceilings.txt"
    echo '```'
    echo
    echo "## steps"
    echo
    cat "$LOG"
} >>"$OUT/summary.md"
grep -E "^  (l2|tc_bf16|tc_fp16|dram|smem) " "$OUT/ceilings.txt"
cat "$LOG"
exit 0
