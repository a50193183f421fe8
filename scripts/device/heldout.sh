#!/usr/bin/env bash
# heldout.sh GPUBOUND OUTDIR [SET]: records the held-out kernels of SET,
# corpus-heldout/ (the default: five kernels, corpus-heldout/README.md),
# corpus-heldout2/ (three, corpus-heldout2/README.md), corpus-heldout3/
# (three, corpus-heldout3/README.md), corpus-heldout4/ (three,
# corpus-heldout4/README.md), corpus-heldout5/ (three,
# corpus-heldout5/README.md), corpus-heldout6/ (three,
# corpus-heldout6/README.md), corpus-heldout7/ (three,
# corpus-heldout7/README.md), corpus-heldout8/ (three,
# corpus-heldout8/README.md), corpus-heldout9/ (three,
# corpus-heldout9/README.md), corpus-heldout10/ (three,
# corpus-heldout10/README.md), corpus-heldout11/ (three,
# corpus-heldout11/README.md), corpus-heldout12/ (three,
# corpus-heldout12/README.md), corpus-heldout13/ (three,
# corpus-heldout13/README.md), corpus-heldout14/ (three,
# corpus-heldout14/README.md), corpus-heldout15/ (three,
# corpus-heldout15/README.md), corpus-heldout16/ (three,
# corpus-heldout16/README.md), corpus-heldout17/ (three,
# corpus-heldout17/README.md), corpus-heldout18/ (three,
# corpus-heldout18/README.md), corpus-heldout19/ (three,
# corpus-heldout19/README.md), corpus-heldout20/ (three,
# corpus-heldout20/README.md), corpus-heldout21/ (three,
# corpus-heldout21/README.md), corpus-heldout22/ (three,
# corpus-heldout22/README.md), corpus-heldout23/ (three,
# corpus-heldout23/README.md), corpus-heldout24/ (three,
# corpus-heldout24/README.md), corpus-heldout25/ (three,
# corpus-heldout25/README.md), corpus-heldout26/ (three,
# corpus-heldout26/README.md), corpus-heldout27/ (three,
# corpus-heldout27/README.md) or corpus-heldout28/ (three,
# corpus-heldout28/README.md), on this machine's GPU, every point verified
# and with hardware counters, by scripts/record_corpus.sh:
#   OUTDIR/SET-<UTC date>/<kernel>/   gpubound run ... --counters
#   OUTDIR/SET-<UTC date>/<kernel>.log, steps.log, info.log
#   OUTDIR/SET-<UTC date>/summary.md  points, failures, times
# At most 200 s in all: `gpubound info` 8 s, then each kernel 34 s (SETs 2
# to 28: 58 s; SIGINT, which keeps the points it finished; SIGKILL 2 s
# later: 180 s for five, 180 for three), with a guard 4 s longer around the
# recording that only a stuck script reaches, and 5 s for the summary. 170
# (SET 2: 120, SETs 3 to 28: 144) points at about 0.7 s each with counters
# (--max-time 0.5), plus a start of about 6 s per kernel, fit in about
# 150 s. GB_HELDOUT_ARGS adds `gpubound run` options (e.g.
# --counters=default,smsp__inst_executed_op_global_red.sum to count the
# global reductions too); GB_HELDOUT_LIMIT replaces the per-kernel limit in
# seconds (a set whose verification of its large problems takes longer).
# Each step reports its exit code; none stops the others. Exits 0
# when every kernel recorded every point, 1 otherwise, 2 on a usage error.
set -u
src=$(cd "$(dirname "$0")/../.." && pwd)
# the held-out sets: the repository's corpus-heldout*/ directories, in order
sets=$(cd "$src" && ls -d corpus-heldout*/ | tr -d / | sort -V)
if [ $# -lt 2 ] || [ $# -gt 3 ]; then
    echo "usage: heldout.sh GPUBOUND OUTDIR [$(echo $sets | tr ' ' '|')]" >&2
    exit 2
fi
gb=$1
outroot=$2
set_name=${3:-corpus-heldout}
case " $(echo $sets) " in
*" $set_name "*) ;;
*) echo "heldout: unknown set '$set_name': give $(echo $sets | sed 's/ /, /g; s/\(.*\), /\1 or /')" >&2; exit 2 ;;
esac
case $set_name in
corpus-heldout) limit=34 ;;
*) limit=58 ;;
esac
case ${GB_HELDOUT_LIMIT:-} in
'') ;;
*[!0-9]* | 0) echo "heldout: GB_HELDOUT_LIMIT '$GB_HELDOUT_LIMIT' is not a whole number of seconds above 0" >&2; exit 2 ;;
*) limit=$GB_HELDOUT_LIMIT ;;
esac
if [ ! -x "$gb" ] || [ -d "$gb" ]; then
    echo "heldout: $gb is not an executable gpubound: build it (make build) and name build/gpubound" >&2
    exit 2
fi
gb=$(cd "$(dirname "$gb")" && pwd)/$(basename "$gb")
mkdir -p "$outroot" || { echo "heldout: cannot create $outroot" >&2; exit 2; }
out=$(cd "$outroot" && pwd)/$set_name-$(date -u +%Y-%m-%d)
mkdir -p "$out"
t0=$(date +%s)

# record_corpus.sh takes a build directory holding `gpubound`: a directory
# with a link to the binary serves whatever the binary is called.
bindir=$(mktemp -d)
trap 'rm -rf "$bindir"' EXIT
ln -s "$gb" "$bindir/gpubound"

echo "== heldout: $(nvidia-smi -L 2>/dev/null | head -n 1)"
timeout -k 1 8 "$gb" info >"$out/info.log" 2>&1
rc_info=$?
echo "step info: rc=$rc_info"

n_kernels=$(find "$src/$set_name" -mindepth 2 -maxdepth 2 -name spec.json | wc -l)
GB_CORPUS_LIMIT=$limit GB_CORPUS_KILL=2 GB_CORPUS_ARGS="--max-time 0.5 ${GB_HELDOUT_ARGS:-}" \
    timeout -k 2 $((n_kernels * (limit + 2) + 4)) bash "$src/scripts/record_corpus.sh" "$bindir" "$out" "$set_name" \
    >"$out/record.log" 2>&1
rc_record=$?
echo "step record: rc=$rc_record ($(($(date +%s) - t0)) s so far)"
cat "$out/record.log"

# summary.md: per kernel, points ok and failed, time per launch (median of
# the points' medians, and the range), and the first failure reasons.
timeout -k 1 4 python3 - "$out" "$rc_info" "$rc_record" "$set_name" >"$out/summary.md" 2>"$out/summary.err" <<'PY'
import json, os, sys
out, rc_info, rc_record, set_name = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4]
print(f"# {set_name}, recorded with counters\n")
try:
    info = open(os.path.join(out, "info.log")).read().splitlines()
    gpu = next((l.strip() for l in info if l.startswith("device ")), info[0] if info else "?")
except OSError:
    gpu = "?"
print(f"GPU: {gpu}; info rc {rc_info}; record_corpus rc {rc_record}\n")
print("| kernel | ok | failed | unrecorded | median us (min to max over points) | wall s |")
print("| --- | --- | --- | --- | --- | --- |")
reasons = []
# the points each kernel's sweep plans (gpubound check SPEC counts them)
PLANNED = {"corpus-heldout": {"bitonic": 34, "conv1d": 36, "layernorm": 36, "resize": 32, "scatter_add": 32},
           "corpus-heldout2": {"bgemm": 36, "embbag": 36, "gemv": 48},
           "corpus-heldout3": {"aos2soa": 48, "argmax": 48, "horner": 48},
           "corpus-heldout4": {"pack3": 48, "rowscale_int8": 48, "segsumsq": 48},
           "corpus-heldout5": {"cfir": 48, "colmean": 48, "dia5": 48},
           "corpus-heldout6": {"compact": 48, "fft1024": 48, "rotate": 48},
           "corpus-heldout7": {"gemv_dp4a": 48, "kmeans": 48, "maxpool": 48},
           "corpus-heldout8": {"adam": 48, "stencil27": 48, "xent": 48},
           "corpus-heldout9": {"gelu": 48, "rowscan": 48, "solve4": 48},
           "corpus-heldout10": {"bscholes": 48, "hamming": 48, "lut": 48},
           "corpus-heldout11": {"down2": 48, "ellspmv": 48, "quant8": 48},
           "corpus-heldout12": {"thomas": 48, "tpose_ip": 48, "winmax": 48},
           "corpus-heldout13": {"im2col": 48, "median3": 48, "rope": 48},
           "corpus-heldout14": {"ger": 48, "rmsnorm": 48, "sgdm": 48},
           "corpus-heldout15": {"bitpack": 48, "cmul": 48, "vfilt": 48},
           "corpus-heldout16": {"axpby_f64": 48, "csrrow": 48, "tile_reduce2d": 48},
           "corpus-heldout17": {"midsum": 48, "sround": 48, "t8x8": 48},
           "corpus-heldout18": {"colgather": 48, "crc32": 48, "dwconv3": 48},
           "corpus-heldout19": {"atoi16": 48, "groupby": 48, "xform4": 48},
           "corpus-heldout20": {"d2q9": 48, "editdist": 48, "rsenc": 48},
           "corpus-heldout21": {"coospmv": 48, "gsum": 48, "hist4k": 48},
           "corpus-heldout22": {"indegree": 48, "radixcnt": 48, "upsample2x": 48},
           "corpus-heldout23": {"lrelubwd": 48, "resample": 48, "wingather": 48},
           "corpus-heldout24": {"boris": 48, "forest": 48, "rowdot": 48},
           "corpus-heldout25": {"chunkdot": 48, "hblur": 48, "rmsprop": 48},
           "corpus-heldout26": {"dq4": 48, "glu": 48, "nv12": 48},
           "corpus-heldout27": {"geodist": 48, "polar": 48, "segmax": 48},
           "corpus-heldout28": {"boxblur": 48, "fir": 48, "lumahist": 48}}[set_name]
for name in sorted(PLANNED):
    d = os.path.join(out, name)
    try:
        recs = json.load(open(os.path.join(d, "results.json")))
    except (OSError, ValueError):
        recs = []
    try:
        run = json.load(open(os.path.join(d, "run.json")))
    except (OSError, ValueError):
        run = {}
    ok = [r for r in recs if r.get("status") == "ok"]
    bad = [r for r in recs if r.get("status") != "ok"]
    meds = sorted(r["time_ns"]["median"] / 1e3 for r in ok if r.get("time_ns"))
    span = f"{meds[len(meds) // 2]:.1f} ({meds[0]:.1f} to {meds[-1]:.1f})" if meds else "-"
    planned = PLANNED[name]
    wall = run.get("wall_s")
    print(f"| {name} | {len(ok)} | {len(bad)} | {planned - len(recs)} | {span} | "
          f"{wall:.0f} |" if isinstance(wall, (int, float)) else
          f"| {name} | {len(ok)} | {len(bad)} | {planned - len(recs)} | {span} | - |")
    for r in bad[:3]:
        reasons.append(f"- {name} {r.get('axes')}: {r.get('status')}: {r.get('reason', '')[:200]}")
if reasons:
    print("\nFailed points (first three per kernel):\n")
    print("\n".join(reasons))
PY
rc_summary=$?
echo "step summary: rc=$rc_summary"
cat "$out/summary.md"
if [ -s "$out/summary.err" ]; then
    sed 's/^/summary: /' "$out/summary.err"
else
    rm -f "$out/summary.err"
fi
echo "== heldout: $(($(date +%s) - t0)) s in all; OUTDIR $out"
[ "$rc_record" -eq 0 ] && [ "$rc_info" -eq 0 ] && exit 0
exit 1
