# README.md's "Without a GPU" section: each of its commands runs as written
# (build/gpubound standing for the binary under test) from a directory that
# sees the source's data/, without a GPU, and writes what the text says.
# Also: the figures README.md and docs/ quote from the recorded runs match
# their records (scripts/doc_figures.py), and failed commands leave no
# directory they made behind.
. "$(dirname "$0")/lib.bash"
: "${GB_SRC:?GB_SRC must name the source directory}"
OUT="" ERR=""
work="$TMP/work"
mkdir -p "$work" && ln -s "$GB_SRC/data" "$work/data"
sed -n '/^## Without a GPU/,/^## /p' "$GB_SRC/README.md" |
    sed -n '/^```sh/,/^```/p' | grep '^build/gpubound ' >"$TMP/cmds"
n=$(wc -l <"$TMP/cmds")
[ "$n" = 5 ] && ok || bad "README's 'Without a GPU' section has $n commands, expected five"
for sub in report geometry "camp fit" "camp predict" occupancy; do
    grep -q "^build/gpubound $sub " "$TMP/cmds" && ok || bad "the walkthrough has no '$sub' command"
done
while read -r line; do
    # shellcheck disable=SC2086
    set -- ${line#build/gpubound }
    (cd "$work" && "$GPUBOUND" "$@") >"$TMP/out" 2>"$TMP/err"
    RC=$?
    OUT=$(head -c 400 "$TMP/out") ERR=$(head -c 400 "$TMP/err")
    [ "$RC" = 0 ] && ok || bad "README walkthrough: '$line' exited $RC"
done <"$TMP/cmds"
for f in runs/bw-report/report.md runs/camp/campprof-model.json runs/camp/band.svg; do
    [ -s "$work/$f" ] && ok || bad "the walkthrough did not write $f"
done

# The quoted figures, recomputed from data/ (and, where no record holds
# them, from what the binary under test prints today on a committed run).
if command -v python3 >/dev/null 2>&1; then
    python3 "$GB_SRC/scripts/doc_figures.py" --gpubound "$GPUBOUND" "$GB_SRC" >"$TMP/fig" 2>&1 && ok ||
        { OUT=$(cat "$TMP/fig"); bad "a figure in README.md or docs/ differs from its record (scripts/doc_figures.py)"; }
fi

# README says where the binary is and how to install it.
grep -q 'build/gpubound' "$GB_SRC/README.md" && grep -q '^make install' "$GB_SRC/README.md" && ok ||
    bad "README does not say where the binary is (build/gpubound) or how to install it"

# No command leaves a directory it made behind when it fails.
cd "$TMP" || exit 1
expect_gone() { [ ! -e "$TMP/$1" ] && ok || bad "a failed '$2' left $1 behind"; }
"$GPUBOUND" report "$TMP/no-run" --out gone1/a >/dev/null 2>&1; expect_gone gone1 report
"$GPUBOUND" report "$GB_SRC/data/h200/bandwidth-2026-11-21-a" --charts nomatch --out gone2/a >/dev/null 2>&1
expect_gone gone2 "report --charts"
"$GPUBOUND" camp fit "$GB_SRC/data/h200/bandwidth-2026-11-21-a" --out gone3/a >/dev/null 2>&1; expect_gone gone3 "camp fit"
"$GPUBOUND" camp validate --model "$TMP/none.json" "$GB_SRC/data/h200/camping-2026-11-21" --out gone4/a >/dev/null 2>&1
expect_gone gone4 "camp validate"
"$GPUBOUND" camp validate --model "$GB_SRC/data/h200/camping-2026-11-21/campprof-model.json" \
    "$GB_SRC/data/h200/bandwidth-2026-11-21-a" --out gone5/a >/dev/null 2>&1; expect_gone gone5 "camp validate"
if ! has_gpu; then
    "$GPUBOUND" run bandwidth --out gone6/a >/dev/null 2>&1; expect_gone gone6 run
    mkdir -p "$TMP/kept"
    "$GPUBOUND" run bandwidth --out kept >/dev/null 2>&1
    [ -d "$TMP/kept" ] && ok || bad "a failed run removed an empty --out directory it did not make"
    # The device tier says "no usable GPU" in one line and exits 3.
    bash "$GB_SRC/scripts/device_tier.sh" "$(dirname "$GPUBOUND")" "$TMP/dlogs" >"$TMP/out" 2>"$TMP/err"
    RC=$? OUT=$(cat "$TMP/out") ERR=$(cat "$TMP/err")
    [ "$RC" = 3 ] && [ -z "$OUT" ] && [ "$(grep -c . "$TMP/err")" = 1 ] && grep -q "no usable GPU" "$TMP/err" && ok ||
        bad "device_tier.sh without a GPU: exit $RC, expected 3 and one line"
fi
finish
