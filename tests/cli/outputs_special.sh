#!/usr/bin/env bash
# An output never takes the place of a special file (docs/validation.md): a
# FIFO or a character device (mknod, when this user may make one) at an
# output's name is refused with one line, the documented exit code, and is
# left as it was, whether the command names the file (export --out, camp fit
# --model) or writes a set of files into a directory (report, roofline,
# compare --chart, camp validate). Nothing waits on the FIFO. A symbolic link
# at such a name stays what it was before: replaced, never followed.
source "$(dirname "$0")/lib.bash"
D="$GB_SRC/data/h200"
BW="$GB_SRC/tests/data/runs/bandwidth-fixture"
CAMP="$GB_SRC/tests/data/runs/camping-fixture"
CMP="$GB_SRC/data/h100/compare-2026-11-23"
EX="$D/kt-sweep-2026-11-26/gb-stencil"
SG="$D/examples-counters-2026-11-23/sgemm"
MODEL="$D/camping-2026-11-21/campprof-model.json"
have_gnuplot=0
command -v gnuplot >/dev/null 2>&1 && have_gnuplot=1

# plant KIND PATH: a FIFO or a character device (/dev/null's numbers) at PATH.
plant() {
    rm -rf "$2"
    if [ "$1" = fifo ]; then mkfifo "$2"; else mknod "$2" c 1 3 2>/dev/null; fi
}
kinds=(fifo)
if mknod "$TMP/probe" c 1 3 2>/dev/null; then kinds+=(chardev); rm -f "$TMP/probe"
else skip 6 "character devices (this user cannot mknod)"; fi
# same_kind KIND PATH: PATH is still that special file.
same_kind() { if [ "$1" = fifo ]; then [ -p "$2" ]; else [ -c "$2" ]; fi; }

# refused KIND CODE NAME PATH ARGS...: with a KIND planted at PATH, gpubound
# ARGS exits CODE within 30 s (a FIFO is not waited on), says in one line
# that NAME is never replaced, and PATH is still the special file.
refused() {
    local kind=$1 code=$2 name=$3 path=$4
    shift 4
    plant "$kind" "$path"
    if ! run_gb_beside "$path" "$@"; then
        bad "$name: waited on the $kind at $path"
        return
    fi
    [ "$RC" = "$code" ] && same_kind "$kind" "$path" && [ "$(printf '%s\n' "$ERR" | grep -c '^gpubound')" = 1 ] &&
        printf '%s\n' "$ERR" | grep -q "cannot write $path: it is a .*not a regular file, and is never replaced" && ok ||
        bad "$name: the $kind at $path was replaced or its refusal said badly (rc $RC)"
}

for kind in "${kinds[@]}"; do
    refused "$kind" 2 "export --out" "$TMP/x.json" export "$EX" --format t4 --out "$TMP/x.json"
    refused "$kind" 1 "camp fit --model" "$TMP/m.json" camp fit "$CAMP" --form paper --model "$TMP/m.json"
    mkdir -p "$TMP/rep"
    refused "$kind" 1 "report" "$TMP/rep/report.md" report "$BW" --out "$TMP/rep"
    mkdir -p "$TMP/rl"
    refused "$kind" 1 "roofline --out" "$TMP/rl/roofline.csv" roofline "$SG" --out "$TMP/rl" --no-chart
    mkdir -p "$TMP/cv"
    refused "$kind" 1 "camp validate" "$TMP/cv/validation.csv" camp validate --model "$MODEL" "$CAMP" --out "$TMP/cv"
    if [ "$have_gnuplot" = 1 ]; then
        mkdir -p "$TMP/cc"
        refused "$kind" 1 "compare --chart" "$TMP/cc/compare.gp" compare "$CMP/bw-a" "$CMP/bw-b" --chart "$TMP/cc"
    else
        skip 1 "compare --chart over a $kind (gnuplot is not installed)"
    fi
done
# Nothing was left beside them: no stage, no temporary.
left=$(find "$TMP" -name '.gb-stage.*' -o -name '.*.tmp' | head -3)
[ -z "$left" ] && ok || bad "a refused command left $left"

# A link at the name is replaced by the new file, as before; what it points at is untouched.
echo keep >"$TMP/victim"
ln -s "$TMP/victim" "$TMP/l.json"
expect 0 "" export "$EX" --format t4 --out "$TMP/l.json"
[ -f "$TMP/l.json" ] && [ ! -L "$TMP/l.json" ] && [ "$(cat "$TMP/victim")" = keep ] && ok ||
    bad "export --out over a link wrote through it or kept it"
finish
