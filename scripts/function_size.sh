#!/usr/bin/env bash
# function_size.sh [SRC_DIR]: lists every function under SRC_DIR/src longer
# than 120 lines or with a cyclomatic complexity over 40 (traditional
# McCabe: one plus each if, loop, case, && , || and ?:), as measured by
# pmccabe (Debian package pmccabe, installed by `make deps`). Exits 1 when
# there is one, 0 when there is none, 2 when pmccabe is missing.
#
# Why: a function that does one thing fits on a screen or two. Past these
# limits a function always turned out to hold several steps that each
# deserved a name and a test (the harness's point loop, the camp CLI's
# predictor); the limits are loose enough that no well-factored function
# has come near them.
set -uo pipefail
src=${1:-$(dirname "$0")/..}
MAX_LINES=${GB_MAX_FUNC_LINES:-120}
MAX_CCN=${GB_MAX_FUNC_CCN:-40}
command -v pmccabe >/dev/null || { echo "function_size: pmccabe is not installed; run 'make deps'" >&2; exit 2; }
mapfile -t files < <(find "$src/src" -name '*.c' | sort)
[ "${#files[@]}" -gt 0 ] || { echo "function_size: no C file under $src/src" >&2; exit 2; }
# pmccabe columns: modified CCN, traditional CCN, statements, first line, lines, file(line): name
over=$(pmccabe "${files[@]}" 2>/dev/null | awk -v L="$MAX_LINES" -v C="$MAX_CCN" -F'\t' \
    '$2 > C || $5 > L { sub(".*/src/", "src/", $6); printf "  %s: %d lines, complexity %d\n", $6, $5, $2 }')
n=$(pmccabe "${files[@]}" 2>/dev/null | wc -l)
if [ -n "$over" ]; then
    echo "function_size: functions over $MAX_LINES lines or complexity $MAX_CCN (split each into steps that do one thing):"
    echo "$over"
    exit 1
fi
echo "function_size: $n functions in ${#files[@]} files, none over $MAX_LINES lines or complexity $MAX_CCN"
