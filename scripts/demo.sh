#!/usr/bin/env bash
# demo.sh GPUBOUND [OUT_DIR]: what gpubound does, shown on runs recorded on
# real GPUs under data/, for a machine without a GPU (`make run` calls it
# when `gpubound info` finds none). Every command works without a GPU.
set -uo pipefail
gb=$1
out=${2:-runs/demo}
src=$(cd "$(dirname "$0")/.." && pwd)
bw=$(ls -d "$src"/data/*/bandwidth-* 2>/dev/null | head -1)
ub=$(ls -d "$src"/data/*/ubench-* 2>/dev/null | head -1)
camp=$(ls -d "$src"/data/*/camping-2* 2>/dev/null | head -1)
rel() { echo "${1#"$src"/}"; }
show() { # show COMMAND...: prints the command as a user would type it, then runs it
    local shown=("$@")
    shown[0]=gpubound
    printf '\n$ %s\n' "${shown[*]//"$src"\//}"
    "$@" || { echo "demo: '${shown[*]}' failed" >&2; exit 1; }
}
[ -n "$bw" ] && [ -n "$ub" ] && [ -n "$camp" ] ||
    { echo "demo: no recorded run under $src/data; nothing to show" >&2; exit 1; }
echo "Showing what gpubound does on runs recorded on an $(grep -A3 '"device"' "$bw/run.json" | sed -n 's/.*"name": *"\([^"]*\)".*/\1/p' | head -1) under $(rel "$(dirname "$bw")")/ instead:"
show "$gb" report "$bw" --out "$out/bandwidth"
show "$gb" geometry "$ub" --bench ubench1 --size large --cache default
show "$gb" camp fit "$camp" --out "$out"
echo
echo "Charts and report.md of the bandwidth run: $out/bandwidth/ (report.md, *.svg, *.png)."
echo "More to try without a GPU: README.md, section \"Usage by example\", on the runs under data/."
