#!/usr/bin/env bash
# The guards that keep an output made from more points (report.md,
# validation.csv, campprof-model.json, lpbm-model.json; --force replaces)
# read the earlier output before replacing it. A symbolic link planted at
# that name is not followed (a "bigger" file behind it does not stop the
# command, and stays as it was) and is replaced like any stale file; a FIFO
# there is not waited on, and is refused (exit 1, one line): an output never
# takes the place of a special file.
source "$(dirname "$0")/lib.bash"
CAMP="$GB_SRC/tests/data/runs/camping-fixture"
MODEL="$GB_SRC/data/h200/camping-2026-11-21/campprof-model.json"
LPBM="$GB_TESTS/data/lpbm/run-sgemm"

# Files behind the links: each would make its guard refuse if it were read.
mkdir -p "$TMP/far"
printf '# Report\n\n| Points | 999999 measured, 0 failed, 0 skipped |\n' >"$TMP/far/report.md"
printf 'application,configurations\nfar,999999\n' >"$TMP/far/validation.csv"
printf '{"models": [{"n_points": 999999}]}\n' >"$TMP/far/lpbm-model.json"
python3 - "$MODEL" "$TMP/far/campprof-model.json" <<'PY'
import json, sys
m = json.load(open(sys.argv[1]))
def bump(x):
    if isinstance(x, dict):
        for k, v in x.items():
            if k == "n_obs" and isinstance(v, int):
                x[k] = v + 999999
            else:
                bump(v)
    elif isinstance(x, list):
        for v in x:
            bump(v)
bump(m)
json.dump(m, open(sys.argv[2], "w"))
PY
far_hash=$(cd "$TMP/far" && sha256sum -- * | sha256sum)

# guarded NAME DIR ARGS...: runs ARGS with a link, then a FIFO, at DIR/NAME.
guarded() {
    local name=$1 dir=$2
    shift 2
    # The link: followed, it would read the far file and refuse (exit 1).
    rm -rf "$dir" && mkdir -p "$dir"
    ln -s "$TMP/far/$name" "$dir/$name"
    run_gb "$@"
    [ "$RC" = 0 ] && [ -f "$dir/$name" ] && [ ! -L "$dir/$name" ] &&
        [ "$(cd "$TMP/far" && sha256sum -- * | sha256sum)" = "$far_hash" ] && ok ||
        bad "$1: a link at $name was followed by its guard (rc $RC)"
    # The FIFO: opened for reading, the guard would wait for a writer forever.
    rm -rf "$dir" && mkdir -p "$dir"
    mkfifo "$dir/$name"
    if ! run_gb_beside "$dir/$name" "$@"; then
        bad "$1: waited on a FIFO at $name"
        return
    fi
    [ "$RC" = 1 ] && [ -p "$dir/$name" ] && [ "$(printf '%s\n' "$ERR" | grep -c '^gpubound')" = 1 ] &&
        printf '%s\n' "$ERR" | grep -q "cannot write $dir/$name: it is a FIFO.*nothing was written to $dir" && ok ||
        bad "$1: a FIFO at $name was replaced, or its refusal said badly (rc $RC)"
}

guarded report.md "$TMP/rep" report "$CAMP" --out "$TMP/rep"
guarded validation.csv "$TMP/val" camp validate --model "$MODEL" "$CAMP" --out "$TMP/val"
guarded campprof-model.json "$TMP/fit" camp fit "$CAMP" --form paper --out "$TMP/fit"
guarded lpbm-model.json "$TMP/bd" breakdown "$LPBM" --form formula --out "$TMP/bd" --no-chart

# The guards still hold on a regular file of more points (the link test
# above would pass if a guard never read anything).
for f in report.md validation.csv campprof-model.json lpbm-model.json; do
    mkdir -p "$TMP/reg-${f%%.*}" && cp "$TMP/far/$f" "$TMP/reg-${f%%.*}/$f"
done
expect 1 'report.md was made from 999999 points .* it is not replaced' report "$CAMP" --out "$TMP/reg-report"
expect 1 'validation.csv was made from 999999 configurations .* it is not replaced' \
    camp validate --model "$MODEL" "$CAMP" --out "$TMP/reg-validation"
expect 1 'campprof-model.json was fitted on [0-9]+ observations .* it is not replaced' \
    camp fit "$CAMP" --form paper --out "$TMP/reg-campprof-model"
expect 1 'lpbm-model.json was fitted on 999999 configurations .* it is not replaced' \
    breakdown "$LPBM" --form formula --out "$TMP/reg-lpbm-model" --no-chart
finish
