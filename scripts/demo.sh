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
# chart GP_FILE: the chart drawn by gpubound's gnuplot script, in the
# terminal (gnuplot's text terminal; the SVG and PNG are beside the script).
chart() {
    local gp=$1 dir
    dir=$(dirname "$gp")
    command -v gnuplot >/dev/null || { echo "(gnuplot is not installed: make deps installs it)"; return 0; }
    printf '\n%s, in the terminal (%s.svg and .png beside it):\n' "$(rel "$gp")" "$(basename "$gp" .gp)"
    (cd "$dir" && {
        echo "set terminal dumb size 100,30"
        sed '/^set terminal/,$d' "$(basename "$gp")"
        echo "set output"
        sed -n '/^set output .*\.svg.$/,/^set terminal/p' "$(basename "$gp")" | sed '1d;$d'
    } | gnuplot)
}
[ -n "$bw" ] && [ -n "$ub" ] && [ -n "$camp" ] ||
    { echo "demo: no recorded run under $src/data; nothing to show" >&2; exit 1; }
echo "Showing what gpubound does on runs recorded on an $(grep -A3 '"device"' "$bw/run.json" | sed -n 's/.*"name": *"\([^"]*\)".*/\1/p' | head -1) under $(rel "$(dirname "$bw")")/ instead:"
show "$gb" report "$bw" --out "$out/bandwidth"
printf '\nWhat it found (report.md and report.html open with this):\n'
sed -n '/^## Findings$/,/^## /{/^## /d;p}' "$out/bandwidth/report.md" | sed 's/\\\(.\)/\1/g'
gp=$(ls "$out"/bandwidth/*.gp 2>/dev/null | head -1)
[ -n "$gp" ] && chart "$gp"
show "$gb" geometry "$ub" --bench ubench1 --size large --cache default
show "$gb" camp fit "$camp" --out "$out"
# The band (best and worst time at every number of active warps per SM) of a kernel
# with the coalesced transpose's counts (README.md, "Without a GPU").
show "$gb" camp predict --model "$out/campprof-model.json" --gld 4:1179648 --gst 4:1179648 \
    --warps 64 --chart "$out/band.svg"
echo
echo "Charts, report.md and report.html of the bandwidth run: $out/bandwidth/; the CampProf band: $out/band.svg and .png."
echo "More to try without a GPU: README.md, section \"Usage by example\", on the runs under data/."
