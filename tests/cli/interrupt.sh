#!/usr/bin/env bash
# Ctrl-C (SIGINT) or SIGTERM while a command stages its outputs: the stage
# is removed, one line says nothing was written, and the command ends by
# that signal (130, 143); the output directory is as it was. (Only a second
# signal while the first is handled, or kill -9, leaves a stage behind, for
# the next command's sweep: docs/validation.md.) The report of a large run
# (the H200 ubench run, 28152 points, some seconds of charts) is stopped once
# its stage exists.
source "$(dirname "$0")/lib.bash"
BIG="$GB_SRC/data/h200/ubench-2026-11-21"
cp -r "$BIG" "$TMP/big"
if ! env --default-signal=INT true 2>/dev/null; then
    skip 6 "env --default-signal is missing (coreutils 8.31 or later)"
    finish
    exit
fi

# The names and contents under DIR.
tree_hash() { (cd "$1" && find . -mindepth 1 -print0 | sort -z | xargs -0 -r sha256sum 2>&1 | sha256sum); }

# stopped SIG CODE OUT WORD: report of the big run into OUT, sent SIG once
# its stage exists; exit CODE, one line (WORD: interrupted, terminated), no
# stage anywhere, OUT as before.
stopped() {
    local sig=$1 code=$2 out=$3 before="" waited=0 pid
    [ -d "$out" ] && before=$(tree_hash "$out")
    # A background job of a script starts with SIGINT ignored; the command gets it as from a terminal.
    env --default-signal=INT "$GPUBOUND" report "$TMP/big" --out "$out" >"$TMP/out" 2>"$TMP/err" &
    pid=$!
    while [ -z "$(find "$TMP" -maxdepth 3 -name '.gb-stage.*' 2>/dev/null)" ] && kill -0 "$pid" 2>/dev/null &&
        [ "$waited" -lt 600 ]; do sleep 0.05; waited=$((waited + 1)); done
    kill -s "$sig" "$pid" 2>/dev/null
    wait "$pid"
    RC=$?
    OUT=$(cat "$TMP/out") ERR=$(cat "$TMP/err")
    local stages after=""
    stages=$(find "$TMP" -name '.gb-stage.*' 2>/dev/null)
    [ -d "$out" ] && after=$(tree_hash "$out")
    if [ "$RC" = "$code" ] && [ -z "$stages" ] && [ "$before" = "$after" ] &&
        [ "$(printf '%s\n' "$ERR" | grep -c .)" = 1 ] &&
        printf '%s\n' "$ERR" | grep -q "^gpubound report: $4: nothing was written to $out (its staged files are removed)"
    then ok; else bad "report stopped by SIG$sig: rc $RC (expected $code), stages left: '$stages'"; fi
}
stopped INT 130 "$TMP/new/report" interrupted
[ ! -e "$TMP/new" ] && ok || bad "an interrupted report left the directories it would have made"
stopped TERM 143 "$TMP/new/report" terminated
# Into a directory holding an earlier report: the earlier files stay as they were.
mkdir -p "$TMP/old"
echo "an earlier report" >"$TMP/old/report.md"
stopped INT 130 "$TMP/old" interrupted
[ "$(cat "$TMP/old/report.md")" = "an earlier report" ] && ok || bad "an interrupted report replaced report.md"
finish
