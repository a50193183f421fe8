#!/usr/bin/env bash
# scripts/device_compare.sh BUILD OUTDIR - the GPU side of `gpubound compare`
# (issue 25). Builds nothing; about 1 to 2 minutes on an H100 or H200.
#
# Records, under OUTDIR/<gpu>/ (gpu: h100, h200, ... from nvidia-smi):
#   bw-a, bw-b   `gpubound run bandwidth`, twice back to back (19 points of 2 GiB)
#   tr-a, tr-b   `gpubound run transpose/padded transpose/coalesced --set tile=32x8
#                 --set n=4096,8192,16384`, twice back to back (24 points)
# every run with its kept samples (sample_ns), and compares:
#   1. bw-a against bw-b and tr-a against tr-b: no significant change is
#      expected on at least 95% of the points, and --fail-on-regression exits 0;
#   2. tr-a against itself with --pair transpose/padded=transpose/coalesced (the
#      transpose without padding, bank conflicts and all, against the padded one,
#      matched on tile, shape, elem and n): all 6 points slower, the gate exits 1;
#   3. a chart of tr-a against tr-b (OUTDIR/<gpu>/chart/compare.svg).
# Each step's exit code goes to OUTDIR/<gpu>/log.txt; nothing stops at a failure.
# The runs stay in OUTDIR so that the same runs of an H100 and an H200 can be
# compared and committed under data/ (docs/models.md, "Comparing runs"):
#   gpubound compare data/h100/compare-DATE/tr-a data/h200/compare-DATE/tr-a \
#       --anchor-base data/h100/compare-DATE/bw-a --anchor-new data/h200/compare-DATE/bw-a
set -u
if [ $# != 2 ]; then echo "usage: $0 BUILD OUTDIR" >&2; exit 2; fi
G=$(cd "$1" && pwd)/gpubound
gpu=$(nvidia-smi --query-gpu=name --format=csv,noheader 2>/dev/null | head -1 | grep -o 'H[0-9]\{3\}' | tr 'A-Z' 'a-z')
O=$2/${gpu:-gpu}
mkdir -p "$O"
log=$O/log.txt
: >"$log"
fails=0
t0=$(date +%s)

# step NAME WANT CMD...: runs CMD (stdout NAME.out, stderr NAME.err), logs its exit code against WANT.
step() {
    local name=$1 want=$2 rc s
    shift 2
    s=$(date +%s)
    "$@" >"$O/$name.out" 2>"$O/$name.err"
    rc=$?
    echo "$name: exit $rc (want $want), $(($(date +%s) - s)) s: $*" | tee -a "$log"
    [ "$want" = any ] || [ "$rc" = "$want" ] || { fails=$((fails + 1)); tail -n 3 "$O/$name.err"; }
}

# share NAME: the share of points with no change in NAME.out (JSON), >= 0.95 wanted.
share() {
    python3 - "$O/$1.out" <<'PY' | tee -a "$log"
import json, sys
d = json.load(open(sys.argv[1])); s = d["summary"]
share = s["unchanged"] / max(1, s["points"])
print(f"{sys.argv[1]}: {s['unchanged']} of {s['points']} unchanged ({100*share:.1f}%), {s['faster']} faster, "
      f"{s['slower']} slower, geometric-mean ratio {s['geomean_ratio']:.4f} [{s['geomean_lo']:.4f}, {s['geomean_hi']:.4f}]"
      f" -> {'ok' if share >= 0.95 else 'FAIL: under 95%'}")
sys.exit(0 if share >= 0.95 else 1)
PY
    [ "${PIPESTATUS[0]}" = 0 ] || fails=$((fails + 1))
}

TR=(transpose/padded transpose/coalesced --set tile=32x8 --set n=4096,8192,16384 --no-report)
step run-bw-a 0 "$G" run bandwidth --no-report --out "$O/bw-a"
step run-bw-b 0 "$G" run bandwidth --no-report --out "$O/bw-b"
step run-tr-a 0 "$G" run "${TR[@]}" --out "$O/tr-a"
step run-tr-b 0 "$G" run "${TR[@]}" --out "$O/tr-b"
step cmp-bw 0 "$G" compare "$O/bw-a" "$O/bw-b" --format json --fail-on-regression
share cmp-bw
step cmp-tr 0 "$G" compare "$O/tr-a" "$O/tr-b" --format json --fail-on-regression
share cmp-tr
step cmp-tr-table 0 "$G" compare "$O/tr-a" "$O/tr-b"
step gate-slowed 1 "$G" compare "$O/tr-a" "$O/tr-a" --pair transpose/padded=transpose/coalesced --fail-on-regression
step gate-rerun 0 "$G" compare "$O/tr-a" "$O/tr-b" --fail-on-regression
mkdir -p "$O/chart"
step chart 0 "$G" compare "$O/tr-a" "$O/tr-b" --chart "$O/chart"
line=$(grep '^summary:' "$O/gate-slowed.out")
n_slow=$(printf '%s\n' "$line" | sed -n 's/.* \([0-9]*\) slower.*/\1/p')
n_pts=$(printf '%s\n' "$line" | sed -n 's/.* of \([0-9]*\) points.*/\1/p')
echo "gate-slowed: ${n_slow:-?} of ${n_pts:-?} paired points slower (want all 6)" | tee -a "$log"
[ "${n_slow:-x}" = "${n_pts:-y}" ] && [ "${n_pts:-0}" = 6 ] || fails=$((fails + 1))
# Samples kept: every ok record of every run carries sample_ns.
for r in bw-a tr-a; do
    python3 -c 'import json,sys; rs=[r for r in json.load(open(sys.argv[1])) if r["status"]=="ok"]; bad=[r for r in rs if len(r.get("sample_ns",[]))!=r["samples"]]; print(sys.argv[1]+":", len(rs), "ok records,", len(bad), "without their samples"); sys.exit(1 if bad or not rs else 0)' \
        "$O/$r/results.json" | tee -a "$log"
    [ "${PIPESTATUS[0]}" = 0 ] || fails=$((fails + 1))
done
du -b "$O"/*/results.json | tee -a "$log"
echo "device_compare: $fails failed check(s), $(($(date +%s) - t0)) s; runs and log in $O" | tee -a "$log"
[ "$fails" = 0 ]
