#!/usr/bin/env bash
# Outputs that cannot destroy (docs/cli.md, Outputs): every command that
# writes files stages them and moves them into place at the end; nothing
# follows a link it did not make; a failed command leaves every directory
# byte-identical and says in one line what it did not write. Each hostile
# case plants links or a failing gnuplot and checks the files behind them.
source "$(dirname "$0")/lib.bash"
BW="$GB_SRC/tests/data/runs/bandwidth-fixture"
CAMP="$GB_SRC/tests/data/runs/camping-fixture"
MODEL="$GB_SRC/data/h200/camping-2026-11-21/campprof-model.json"
LPBM="$GB_TESTS/data/lpbm/run-sgemm"
CMP="$GB_SRC/data/h100/compare-2026-11-23"
PREDICT=(--model "$MODEL" --gld 4:2097152 --gst 4:2097152 --threads 256 --regs 16 --smem 4224 --time-ns 61000)

# The hash of every file under DIR, names, links and their targets included.
tree_hash() {
    (cd "$1" && find . \( -type f -o -type l \) -print0 | sort -z |
        while IFS= read -r -d '' f; do
            if [ -L "$f" ]; then echo "link $f -> $(readlink "$f")"; else echo "file $f $(sha256sum <"$f")"; fi
        done | sha256sum)
}
# A directory of files that a command must never touch.
victim() {
    rm -rf "$1"
    mkdir -p "$1"
    echo precious >"$1/data.csv"
    echo keep >"$1/run.json"
}
host_tag=$(python3 -c 'import socket
h=2166136261
for c in socket.gethostname().encode(): h=((h^c)*16777619)&0xffffffff
print("%06x"%(h&0xffffff))')
dead=$(sh -c 'echo $$')
stage_name=".gb-stage.$dead.${host_tag}AbC123"
have_gnuplot=0
command -v gnuplot >/dev/null 2>&1 && have_gnuplot=1

# ---- a link named like a dead process's stage: the sweep leaves it and what it points to ----
victim "$TMP/v1"
before=$(tree_hash "$TMP/v1")
mkdir -p "$TMP/rep"
ln -s "$TMP/v1" "$TMP/rep/$stage_name"
run_gb report "$BW" --out "$TMP/rep"
[ "$RC" = 0 ] && [ "$(tree_hash "$TMP/v1")" = "$before" ] && [ -L "$TMP/rep/$stage_name" ] && ok ||
    bad "report followed a planted stage link in its output directory (rc $RC)"
# ... in the nearest existing parent of a --out that does not exist yet
mkdir -p "$TMP/par"
ln -s "$TMP/v1" "$TMP/par/$stage_name"
run_gb report "$BW" --out "$TMP/par/new/report"
[ "$RC" = 0 ] && [ "$(tree_hash "$TMP/v1")" = "$before" ] && [ -s "$TMP/par/new/report/report.md" ] && ok ||
    bad "report followed a planted stage link in the parent of --out (rc $RC)"
mkdir -p "$TMP/cv"
ln -s "$TMP/v1" "$TMP/cv/$stage_name"
run_gb camp validate --model "$MODEL" "$CAMP" --out "$TMP/cv"
[ "$RC" = 0 ] && [ "$(tree_hash "$TMP/v1")" = "$before" ] && [ -s "$TMP/cv/validation.csv" ] && ok ||
    bad "camp validate followed a planted stage link in its output directory (rc $RC)"
mkdir -p "$TMP/cvp"
ln -s "$TMP/v1" "$TMP/cvp/$stage_name"
run_gb camp validate --model "$MODEL" "$CAMP" --out "$TMP/cvp/a/b"
[ "$RC" = 0 ] && [ "$(tree_hash "$TMP/v1")" = "$before" ] && ok ||
    bad "camp validate followed a planted stage link in the parent of --out (rc $RC)"
# A real stage directory of a dead process that holds a link: the link goes, its target stays.
mkdir -p "$TMP/rep2/$stage_name"
ln -s "$TMP/v1" "$TMP/rep2/$stage_name/data"
run_gb report "$BW" --out "$TMP/rep2"
[ "$RC" = 0 ] && [ ! -e "$TMP/rep2/$stage_name" ] && [ "$(tree_hash "$TMP/v1")" = "$before" ] && ok ||
    bad "a dead stage holding a link was not removed cleanly (rc $RC)"

# ---- links planted at chart names: replaced, never written through ----
if [ "$have_gnuplot" = 1 ]; then
    victim "$TMP/v2"
    before=$(tree_hash "$TMP/v2")
    # breakdown: its charts and the chart's gnuplot log
    "$GPUBOUND" breakdown "$LPBM" --form formula --out "$TMP/bd0" >/dev/null 2>&1
    chart=$(cd "$TMP/bd0" && ls -- *.svg | head -1)
    mkdir -p "$TMP/bd"
    ln -s "$TMP/v2/data.csv" "$TMP/bd/$chart"
    ln -s "$TMP/v2/run.json" "$TMP/bd/${chart%.svg}.log"
    ln -s "$TMP/v2/data.csv" "$TMP/bd/lpbm-model.json"
    run_gb breakdown "$LPBM" --form formula --out "$TMP/bd"
    [ "$RC" = 0 ] && [ "$(tree_hash "$TMP/v2")" = "$before" ] && [ -f "$TMP/bd/$chart" ] && [ ! -L "$TMP/bd/$chart" ] &&
        [ -L "$TMP/bd/${chart%.svg}.log" ] && ok || bad "breakdown wrote through a link at a chart's name (rc $RC)"
    # camp predict --chart
    mkdir -p "$TMP/pc"
    ln -s "$TMP/v2/data.csv" "$TMP/pc/band.svg"
    ln -s "$TMP/v2/run.json" "$TMP/pc/band.log"
    ln -s "$TMP/v2/data.csv" "$TMP/pc/band.png"
    run_gb camp predict "${PREDICT[@]}" --chart "$TMP/pc/band.svg"
    [ "$RC" = 0 ] && [ "$(tree_hash "$TMP/v2")" = "$before" ] && [ -f "$TMP/pc/band.svg" ] && [ ! -L "$TMP/pc/band.svg" ] &&
        ok || bad "camp predict --chart wrote through a link at the chart's name (rc $RC)"
    # compare --chart
    "$GPUBOUND" compare "$CMP/bw-a" "$CMP/bw-b" --chart "$TMP/cc0" >/dev/null 2>&1
    chart=$(cd "$TMP/cc0" && ls -- *.svg | head -1)
    mkdir -p "$TMP/cc"
    ln -s "$TMP/v2/data.csv" "$TMP/cc/$chart"
    ln -s "$TMP/v2/run.json" "$TMP/cc/${chart%.svg}.log"
    run_gb compare "$CMP/bw-a" "$CMP/bw-b" --chart "$TMP/cc"
    [ "$RC" = 0 ] && [ "$(tree_hash "$TMP/v2")" = "$before" ] && [ -n "$chart" ] && [ ! -L "$TMP/cc/$chart" ] && ok ||
        bad "compare --chart wrote through a link at a chart's name (rc $RC)"
    # fleet: a made-up fleet of three GPUs from the bandwidth fixture
    python3 - "$BW" "$TMP/fl" <<'EOF'
import json, os, sys
src, dst = sys.argv[1], sys.argv[2]
os.makedirs(dst)
info = json.load(open(src + "/run.json"))
recs = json.load(open(src + "/results.json"))[:4]
out, members = [], []
for rank, s in enumerate([1.0, 1.003, 1.2]):
    dev = dict(info["device"], uuid="GPU-%08d-0000-0000-0000-000000000000" % rank)
    members.append({"rank": rank, "local_rank": rank, "host": "node-0", "state": "ok", "exit_code": 0,
                    "reason": "", "run": dict(info, device=dev, points_ok=len(recs), points_failed=0)})
    for r in recs:
        r = json.loads(json.dumps(r))
        for k in ("min", "median", "mean", "ci_lo", "ci_hi"):
            r["time_ns"][k] *= s
        r["bw_gbs"] = r["bytes"] / r["time_ns"]["median"]
        r["fleet"] = {"rank": rank, "host": "node-0", "gpu_uuid": dev["uuid"]}
        out.append(r)
info.update(points_ok=len(out), points_failed=0, complete=False)
info["fleet"] = {"format": "gpubound-fleet/1", "size": len(members), "members": members}
json.dump(info, open(dst + "/run.json", "w"), indent=2)
with open(dst + "/results.json", "w") as f:
    f.write("[\n" + ",\n".join(json.dumps(r) for r in out) + "\n]\n")
EOF
    mkdir -p "$TMP/fc"
    ln -s "$TMP/v2/data.csv" "$TMP/fc/fleet.svg"
    ln -s "$TMP/v2/run.json" "$TMP/fc/fleet.log"
    run_gb fleet "$TMP/fl" --chart-dir "$TMP/fc"
    [ "$RC" = 0 ] && [ "$(tree_hash "$TMP/v2")" = "$before" ] && [ -f "$TMP/fc/fleet.svg" ] && [ ! -L "$TMP/fc/fleet.svg" ] &&
        ok || bad "fleet wrote through a link at the chart's name (rc $RC)"
    # report: a link at report.md and at a chart's name
    mkdir -p "$TMP/rl"
    ln -s "$TMP/v2/data.csv" "$TMP/rl/report.md"
    run_gb report "$BW" --out "$TMP/rl"
    [ "$RC" = 0 ] && [ "$(tree_hash "$TMP/v2")" = "$before" ] && [ ! -L "$TMP/rl/report.md" ] && ok ||
        bad "report wrote through a link at report.md (rc $RC)"
else
    skip 6 "links at chart names (gnuplot is not installed)"
fi

# ---- gnuplot fails: the model, the other charts and the failed chart's old image stay ----
mkdir -p "$TMP/bin"
cat >"$TMP/bin/gnuplot" <<'EOF'
#!/bin/sh
echo "gnuplot: line 1: boom" >&2
exit 1
EOF
chmod +x "$TMP/bin/gnuplot"
# expect_unchanged DIR WHAT ARGS...: exit 1, one line on stderr saying
# nothing was written to DIR, and DIR byte-identical.
expect_unchanged() {
    local dir=$1 what=$2
    shift 2
    local h
    h=$(tree_hash "$dir")
    PATH="$TMP/bin:$PATH" run_gb "$@"
    local lines
    lines=$(printf '%s\n' "$ERR" | grep -c -e '^gpubound' -e '^wrote')
    if [ "$RC" = 1 ] && [ "$lines" = 1 ] && printf '%s\n' "$ERR" | grep -q "nothing was written to $dir" &&
        [ "$(tree_hash "$dir")" = "$h" ]; then ok; else bad "$what: a failed gnuplot changed $dir or said it badly (rc $RC)"; fi
}
if [ "$have_gnuplot" = 1 ]; then
    "$GPUBOUND" breakdown "$LPBM" --form formula --out "$TMP/bdf" >/dev/null 2>&1
    [ -s "$TMP/bdf/lpbm-model.json" ] && ls "$TMP/bdf"/*.svg >/dev/null 2>&1 && ok || bad "breakdown drew no chart to start from"
    expect_unchanged "$TMP/bdf" "breakdown" breakdown "$LPBM" --form formula --out "$TMP/bdf" --force
    "$GPUBOUND" fleet "$TMP/fl" --chart-dir "$TMP/flf" >/dev/null 2>&1
    expect_unchanged "$TMP/flf" "fleet" fleet "$TMP/fl" --chart-dir "$TMP/flf"
    "$GPUBOUND" compare "$CMP/bw-a" "$CMP/bw-b" --chart "$TMP/ccf" >/dev/null 2>&1
    expect_unchanged "$TMP/ccf" "compare --chart" compare "$CMP/bw-a" "$CMP/bw-b" --chart "$TMP/ccf"
    "$GPUBOUND" camp predict "${PREDICT[@]}" --chart "$TMP/pcf/band.svg" >/dev/null 2>&1
    expect_unchanged "$TMP/pcf" "camp predict --chart" camp predict "${PREDICT[@]}" --chart "$TMP/pcf/band.svg"
    "$GPUBOUND" camp validate --model "$MODEL" "$CAMP" --out "$TMP/cvf" >/dev/null 2>&1
    expect_unchanged "$TMP/cvf" "camp validate" camp validate --model "$MODEL" "$CAMP" --out "$TMP/cvf" --force
    "$GPUBOUND" report "$BW" --out "$TMP/rf" >/dev/null 2>&1
    expect_unchanged "$TMP/rf" "report" report "$BW" --out "$TMP/rf"
else
    skip 7 "gnuplot failing after a good drawing (gnuplot is not installed)"
fi
# A failed command leaves no directory it made for --out.
PATH="$TMP/bin:$PATH" run_gb breakdown "$LPBM" --form formula --out "$TMP/made/a/b"
[ "$RC" = 1 ] && [ ! -e "$TMP/made" ] && ok || bad "a failed breakdown left the directories it made (rc $RC)"

# ---- the last rename fails: nothing replaced, and the command says so ----
"$GPUBOUND" report "$BW" --out "$TMP/rr" >/dev/null 2>&1
last=$(cd "$TMP/rr" && ls | sort | tail -1)
rm -f "$TMP/rr/$last"
for f in "$TMP/rr"/*; do echo "an earlier report" >>"$f"; done # a replaced file would show
mkdir "$TMP/rr/$last"
echo keep >"$TMP/rr/$last/keep"
h=$(tree_hash "$TMP/rr")
run_gb report "$BW" --out "$TMP/rr"
[ "$RC" = 1 ] && [ "$(tree_hash "$TMP/rr")" = "$h" ] && [ "$(printf '%s\n' "$ERR" | grep -c .)" = 1 ] &&
    printf '%s\n' "$ERR" | grep -q "cannot write $TMP/rr/$last: .*nothing was written to $TMP/rr; it is as it was" && ok ||
    bad "a report whose last rename failed replaced files or did not say so (rc $RC)"
# camp fit: the model's name is a non-empty directory
mkdir -p "$TMP/cf/campprof-model.json"
echo keep >"$TMP/cf/campprof-model.json/keep"
h=$(tree_hash "$TMP/cf")
run_gb camp fit "$CAMP" --out "$TMP/cf"
[ "$RC" = 1 ] && [ "$(tree_hash "$TMP/cf")" = "$h" ] && printf '%s\n' "$ERR" | grep -q "nothing was written to $TMP/cf" && ok ||
    bad "camp fit over a directory changed $TMP/cf or did not say so (rc $RC)"
finish
