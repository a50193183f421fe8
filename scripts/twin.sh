#!/usr/bin/env bash
# twin.sh BUILD OUTDIR: gpubound's time of a point against the same kernel in
# a plain CUDA program (issue 45; docs/measurement.md, "The time in the
# user's own program").
#
# Builds the plain twin (tests/device/twin/twin.cu) with nvcc -O3 -arch=sm_90
# and the axis values of the specs beside it, runs `BUILD/gpubound run` on
# each spec (the histogram, a triad, an atomic reduction, a tiled SGEMM),
# then the twin on the same kernels: once as a plain program does it, and
# once per factor in which gpubound differs (allocator, base offset,
# allocation order, input fill, launch path, stream, context, limits, what
# ran before, the timing method), one factor at a time; then the histogram's
# bins moved over 2 MiB pages and 1 KiB steps, in the twin and (through the
# pad spec) in gpubound. Writes OUTDIR/twin.md (the tables: medians in ms and
# the gap against gpubound's median, one row per factor), OUTDIR/twin.tsv
# (the same, for tests) and OUTDIR/raw/ (every output, gpubound's run
# directories' run.json and results.json).
#
# GB_TWIN_ROWS=base: only gpubound's default and the plain twin per kernel
# (tests/device/twin.sh). GB_TWIN_BUDGET_S (default 380): rows not started
# by then are listed as skipped. GB_TWIN_BIN: a twin already built (nothing
# is compiled). Exit 0 when it ran (gaps are findings, not
# failures), 1 when the twin did not build or gpubound failed, 3 without a GPU.
set -uo pipefail
export PATH="$PATH:${CUDA_HOME:-/usr/local/cuda}/bin"
shown=""
[ $# -eq 2 ] || { echo "usage: twin.sh BUILD OUTDIR" >&2; exit 2; }
build=$(cd "$1" && pwd) || exit 2
out=$2
src=$(cd "$(dirname "$0")/.." && pwd)
tw=$src/tests/device/twin
gb=$build/gpubound
rows=${GB_TWIN_ROWS:-all}
budget=${GB_TWIN_BUDGET_S:-380}
t0=$(date +%s)
mkdir -p "$out/raw" || exit 1
tmp=$(mktemp -d /tmp/gb-twin-XXXXXX)
trap 'rm -rf "$tmp"' EXIT
export GPUBOUND_CACHE_DIR="$tmp/cache"
raw=$out/raw
: >"$raw/twin.txt"
: >"$raw/rows.tsv"

"$gb" info >"$raw/info.txt" 2>&1; rc=$?
[ $rc = 3 ] && { echo "twin.sh: no usable GPU: $(tail -n 1 "$raw/info.txt")" >&2; exit 3; }
nvidia-smi >"$raw/nvidia-smi.txt" 2>&1

# The specs' axis values, as -D options (each axis has one value).
defs=$(python3 - "$tw" <<'EOF'
import json, sys
for s in ("hist", "triad", "reduce", "gemm"):
    for a in json.load(open(f"{sys.argv[1]}/{s}.json"))["benches"][0]["axes"]:
        print(f"-D{a['name']}={a['values'][0]}")
EOF
) || exit 1
if [ -n "${GB_TWIN_BIN:-}" ]; then
    cp "$GB_TWIN_BIN" "$tmp/twin" || exit 1
# shellcheck disable=SC2086
elif ! nvcc -O3 -arch=sm_90 -Xptxas -v -Xcompiler -fopenmp -DTWIN_SRC_DIR="\"$tw\"" $defs \
        -o "$tmp/twin" "$tw/twin.cu" -lcuda -lnvrtc -lgomp >"$raw/build.log" 2>&1; then
    echo "twin.sh: the twin did not build (nvcc; $raw/build.log):" >&2
    tail -n 5 "$raw/build.log" >&2
    exit 1
fi
export OMP_NUM_THREADS=${OMP_NUM_THREADS:-$(nproc)}

late() { [ $(($(date +%s) - t0)) -ge "$budget" ]; }

# gbrun KERNEL ROW SPEC [ARGS]: gpubound on a spec; its run directory's
# records into raw/gb-KERNEL-ROW/.
gbrun() {
    local k=$1 row=$2 spec=$3 d="$raw/gb-$1-$2"
    shift 3
    if late; then printf '%s\tgpubound\t%s\tskipped\n' "$k" "$row" >>"$raw/rows.tsv"; return; fi
    "$gb" run "$spec" --out "$tmp/run-$k-$row" --no-report "$@" >"$d.out" 2>"$d.err"
    local rc=$?
    mkdir -p "$d"
    cp "$tmp/run-$k-$row/run.json" "$tmp/run-$k-$row/results.json" "$d/" 2>/dev/null
    printf '%s\tgpubound\t%s\t%s\t%s\n' "$k" "$row" "$([ $rc = 0 ] && echo ok || echo "failed $rc")" "$*" \
        >>"$raw/rows.tsv"
}

# twin KERNEL ROW [ARGS]: the plain twin, one process.
twin() {
    local k=$1 row=$2
    shift 2
    if late; then printf '%s\ttwin\t%s\tskipped\n' "$k" "$row" >>"$raw/rows.tsv"; return; fi
    "$tmp/twin" --kernel "$k" --label "$row" "$@" >>"$raw/twin.txt" 2>"$raw/twin-$k-$row.err"
    local rc=$?
    printf '%s\ttwin\t%s\t%s\t%s\n' "$k" "$row" "$([ $rc = 0 ] && echo ok || echo "failed $rc")" \
        "${shown:-$*}" >>"$raw/rows.tsv"
}

kernels="hist triad reduce gemm"
# The comparison itself first: gpubound's default and the plain program.
for k in $kernels; do
    gbrun "$k" default "$tw/$k.json"
    twin "$k" plain
done

# One factor at a time: (row name, twin switches).
factors=(
    "alloc-async|--alloc async" "alloc-managed|--alloc managed" "alloc-driver|--alloc driver"
    "alloc-vmm|--alloc vmm" "alloc-vmm-512M|--alloc vmm --vmm-gran 536870912"
    "offset-256|--offset 256" "offset-64K|--offset 65536" "order-gpubound|--order gpubound"
    "fill-memset|--fill memset" "fill-device|--fill device" "fill-file|--fill file --data FILE"
    "launch-driver|--launch driver" "launch-nvrtc|--launch nvrtc" "launch-graph|--launch graph"
    "stream-nonblocking|--stream nonblocking" "stream-high|--stream high"
    "ctx-create|--ctx create" "sched-spin|--sched spin" "sched-yield|--sched yield" "sched-blocking|--sched blocking"
    "persist-l2|--persist" "carveout-100|--carveout 100" "cache-shared|--cache-config shared"
    "before-reference|--before reference" "before-prime|--before prime" "before-persist-cycle|--before persist-cycle"
    "flush-read|--flush read" "flush-write|--flush write" "timing-batch|--timing batch"
    "warmup-short|--warmup 1 --warmup-ms 0"
    "gpubound-like|--alloc driver --order gpubound --fill device --launch nvrtc --stream nonblocking --before prime"
)
factor_rows() {
    local k=$1 f row args
    "$tmp/twin" --kernel "$k" --write-data "$tmp/$k.bin" 2>"$raw/twin-$k-write.err"
    for f in "${factors[@]}"; do
        row=${f%%|*}
        args=${f#*|}
        shown=$args
        # shellcheck disable=SC2086
        twin "$k" "$row" ${args//FILE/$tmp/$k.bin}
        shown=""
    done
}

if [ "$rows" != base ]; then
    # gpubound's own variants of the histogram: its clocks, and the twin's bytes from a file.
    gbrun hist timer-events "$tw/hist.json" --timer events
    gbrun hist timer-cupti "$tw/hist.json" --timer cupti
    factor_rows hist
    mkdir -p "$tmp/hist-file"
    cp "$tw/hist.cu" "$tmp/hist-file/"
    cp "$tmp/hist.bin" "$tmp/hist-file/data.bin" 2>/dev/null &&
        python3 - "$tw/hist.json" "$tmp/hist-file/spec.json" <<'EOF'
import json, sys
s = json.load(open(sys.argv[1]))
s["suite"] = "twin-hist-file"
s["benches"][0]["args"][1]["init"] = {"file": "data.bin"}
json.dump(s, open(sys.argv[2], "w"), indent=1)
EOF
    gbrun hist init-file "$tmp/hist-file/spec.json"
    # Where the bins are: the twin's over pages and 1 KiB steps, gpubound's behind pads.
    twin hist scan-pages --scan pages --scan-n 32
    twin hist scan-granules --scan granules --scan-n 32
    gbrun hist pad-scan "$tw/hist_pad.json" --max-time 0.5
    for k in triad reduce gemm; do
        gbrun "$k" timer-events "$tw/$k.json" --timer events
        factor_rows "$k"
    done
    twin hist plain-again
    gbrun hist default-again "$tw/hist.json"
fi

python3 - "$out" <<'EOF'
import json, os, re, sys
out = sys.argv[1]; raw = os.path.join(out, "raw")
twin = {}
scans = {}
for line in open(os.path.join(raw, "twin.txt")):
    kv = dict(re.findall(r"(\w+)=(\S+)", line))
    if "scan" in kv:
        scans.setdefault(kv["label"], []).append((int(kv["k"]), float(kv["median_ms"]), kv["out"]))
    else:
        twin[(kv["kernel"], kv["label"])] = kv
def gb_records(k, row):
    p = os.path.join(raw, f"gb-{k}-{row}", "results.json")
    try:
        return [r for r in json.load(open(p)) if r.get("status") == "ok"]
    except (OSError, ValueError):
        return []
def gb_median(k, row):
    recs = gb_records(k, row)
    return recs[0]["time_ns"]["median"] / 1e6 if len(recs) == 1 else None
rows = [l.rstrip("\n").split("\t") for l in open(os.path.join(raw, "rows.tsv"))]
gpu = open(os.path.join(raw, "info.txt")).read().strip().splitlines()
md, tsv = [], ["kernel\tside\trow\tmedian_ms\tgap_pct\tstatus"]
md.append("# gpubound against the plain twin\n")
md.append("GPU: " + (next((l for l in gpu if "name" in l.lower()), gpu[0] if gpu else "?")).strip() + "\n")
md.append("Gap: (twin - gpubound) / gpubound, against gpubound's default median of the same kernel.\n")
for k in ("hist", "triad", "reduce", "gemm"):
    ref = gb_median(k, "default")
    md.append(f"\n## {k}\n")
    md.append(f"gpubound default: {ref:.4f} ms\n" if ref else "gpubound default: no median\n")
    md.append("| side | row | switches | median (ms) | min (ms) | first launch (ms) | gap | status |")
    md.append("| --- | --- | --- | ---: | ---: | ---: | ---: | --- |")
    for r in rows:
        if r[0] != k:
            continue
        side, row, status = r[1], r[2], r[3]
        args = r[4] if len(r) > 4 else ""
        med = mn = first = None
        if side == "twin" and (k, row) in twin:
            t = twin[(k, row)]
            med, mn, first = float(t["median_ms"]), float(t["min_ms"]), float(t["first_ms"])
        elif side == "gpubound" and status == "ok":
            recs = gb_records(k, row)
            if len(recs) == 1:
                med, mn = recs[0]["time_ns"]["median"] / 1e6, recs[0]["time_ns"]["min"] / 1e6
            elif recs:
                status = f"ok, {len(recs)} points (below)"
        gap = (med - ref) / ref * 100 if med is not None and ref else None
        f = lambda x, d=4: f"{x:.{d}f}" if x is not None else ""
        md.append(f"| {side} | {row} | `{args}` | {f(med)} | {f(mn)} | {f(first)} | "
                  f"{'' if gap is None else f'{gap:+.1f}%'} | {status} |")
        tsv.append(f"{k}\t{side}\t{row}\t{f(med, 6)}\t{'' if gap is None else f'{gap:.3f}'}\t{status}")
md.append("\n## Where the histogram's bins are\n")
for label, pts in sorted(scans.items()):
    v = [m for _, m, _ in pts]
    md.append(f"twin, {label}: {len(v)} places, median {min(v):.4f} to {max(v):.4f} ms\n")
    md.append("| k | bins at | median (ms) |\n| ---: | --- | ---: |")
    md += [f"| {i} | {o} | {m:.4f} |" for i, m, o in pts]
    md.append("")
pad = gb_records("hist", "pad-scan")
if pad:
    v = [r["time_ns"]["median"] / 1e6 for r in pad]
    md.append(f"gpubound, bins behind a pad: {len(v)} points, median {min(v):.4f} to {max(v):.4f} ms\n")
    md.append("| pad_words | median (ms) |\n| ---: | ---: |")
    md += [f"| {r['axes']['pad_words']} | {r['time_ns']['median'] / 1e6:.4f} |" for r in pad]
open(os.path.join(out, "twin.md"), "w").write("\n".join(md) + "\n")
open(os.path.join(out, "twin.tsv"), "w").write("\n".join(tsv) + "\n")
EOF
echo "twin.sh: $out/twin.md ($(($(date +%s) - t0)) s)"
if [ "$(grep -c $'\tgpubound\tdefault\tok' "$raw/rows.tsv")" != 4 ]; then
    echo "twin.sh: gpubound did not measure every spec (see $raw/rows.tsv and raw/gb-*-default.err)" >&2
    exit 1
fi
exit 0
