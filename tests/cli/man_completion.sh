#!/usr/bin/env bash
# The installed man pages (scripts/man_pages.py: one for gpubound, one per
# command, from `gpubound help --markdown`, the text of docs/cli.md) are
# readable by man, name every command and carry each command's options; the
# installed bash completion offers commands, suites and benches, options
# and axes, asked of the installed gpubound.
source "$(dirname "$0")/lib.bash"
BUILD=$(dirname "$GPUBOUND")
PREFIX="$TMP/prefix"
if ! cmake --install "$BUILD" --prefix "$PREFIX" >"$TMP/install.log" 2>&1; then
    OUT=$(tail -5 "$TMP/install.log"); ERR=""; bad "cmake --install failed"; finish; exit
fi
MAN1="$PREFIX/share/man/man1"
cmds=$("$GPUBOUND" help | awk '/^commands:/ {on = 1; next} on && /^  [a-z]/ {print $1}')
if [ "$(echo "$cmds" | wc -l)" -ge 10 ]; then ok; else OUT="$cmds"; ERR=""; bad "fewer than 10 commands in 'gpubound help'"; fi
for c in $cmds; do
    page="$MAN1/gpubound-$c.1"
    if [ ! -f "$page" ]; then OUT=""; ERR=""; bad "no man page gpubound-$c.1"; continue; fi
    OUT=$(MANWIDTH=200 man -l "$page" 2>"$TMP/err"); ERR=$(cat "$TMP/err")
    # Every long option of the command's help is in its page, as man renders it.
    missing=""
    for o in $("$GPUBOUND" help "$c" | grep -oE -- '^  --[a-z][a-z0-9-]*' | tr -d ' '); do
        printf '%s\n' "$OUT" | grep -qF -- "$o" || missing="$missing $o"
    done
    if [ -z "$ERR" ] && [ -z "$missing" ] && printf '%s\n' "$OUT" | grep -q "^NAME" \
       && printf '%s\n' "$OUT" | grep -qF "gpubound-$c"; then ok
    else bad "man -l gpubound-$c.1: warnings or options missing:$missing"; fi
done
OUT=$(MANPATH="$PREFIX/share/man" MANWIDTH=200 man gpubound-run 2>"$TMP/err"); ERR=$(cat "$TMP/err")
if printf '%s\n' "$OUT" | grep -q -- '--set AXIS=V1,V2'; then ok; else bad "man gpubound-run (MANPATH=prefix) lacks --set"; fi
OUT=$(MANWIDTH=200 man -l "$MAN1/gpubound.1" 2>&1)
for c in $cmds; do printf '%s\n' "$OUT" | grep -qF "gpubound-$c(1)" || { ERR=""; bad "gpubound(1) does not list gpubound-$c(1)"; }; done
ok

# Completion, from the installed file, against the installed program.
comp() {
    PATH="$PREFIX/bin:$PATH" bash -c 'source "$1"; shift; COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1)); _gpubound
        printf "%s\n" "${COMPREPLY[@]}"' _ "$PREFIX/share/bash-completion/completions/gpubound" gpubound "$@"
}
check_comp() { # WANT WORDS...: the completion of WORDS includes WANT (a line)
    local want=$1; shift
    OUT=$(comp "$@" 2>"$TMP/err"); ERR=$(cat "$TMP/err")
    if printf '%s\n' "$OUT" | grep -qxF -- "$want"; then ok; else bad "completing '$*' does not offer '$want'"; fi
}
check_comp run ru
check_comp compare co
check_comp bandwidth/read run bandwidth/r
check_comp ubench run ub
check_comp --threshold compare a b --thr
check_comp --set run bandwidth --s
check_comp width= run bandwidth --set wi
check_comp rows= run ubench/ubench1 --set ro
check_comp "width=4,8,16" run bandwidth --set width=
check_comp json report x --format j
# tune, export and import: strategies, Kernel Tuner's formats, options.
check_comp model tune s.json --strategy m
check_comp anneal tune s.json --strategy ""
check_comp kt-cache export RUN --format k
check_comp t4 export RUN --format t
check_comp --replay tune s.json --rep
check_comp --budget tune s.json --bu
check_comp --out import c.json --o
check_comp export exp
check_comp import imp
OUT=$(comp export RUN --format j); ERR=""
if [ -z "$OUT" ]; then ok; else bad "completing 'export RUN --format j' offered '$OUT'"; fi
# Axes of the suites named only: bandwidth has no rows axis.
OUT=$(comp run bandwidth --set ro); ERR=""
if [ -z "$OUT" ]; then ok; else bad "completing 'run bandwidth --set ro' offered '$OUT'"; fi
finish
