# The repository travels to the GPU machine whole, and that copy is capped:
# the tracked files must add up to at most 48 MiB, and no one tracked file
# may be over 4 MiB. Recorded runs keep their records and fits; charts and
# CSV tables are redrawn by `gpubound report` (docs/results-format.md).
. "$(dirname "$0")/lib.bash"
: "${GB_SRC:?GB_SRC must name the source directory}"
OUT="" ERR=""
TOTAL_MAX=$((48 * 1024 * 1024))
FILE_MAX=$((4 * 1024 * 1024))

if git -C "$GB_SRC" rev-parse --is-inside-work-tree >/dev/null 2>&1; then
    git -C "$GB_SRC" ls-files -z | (cd "$GB_SRC" && xargs -0 -r stat -c '%s %n' 2>/dev/null) >"$TMP/sizes"
else # an exported tree without git: every file but build outputs
    (cd "$GB_SRC" && find . -path ./build -prune -o -path ./.git -prune -o -type f -printf '%s %P\n') >"$TMP/sizes"
fi
[ -s "$TMP/sizes" ] && ok || bad "no file of $GB_SRC could be listed"

total=$(awk '{ s += $1 } END { print s + 0 }' "$TMP/sizes")
largest=$(sort -rn "$TMP/sizes" | head -5 | awk '{ printf "%s%s (%.1f MiB)", (NR > 1 ? ", " : ""), $2, $1 / 1048576 }')
[ "$total" -le "$TOTAL_MAX" ] && ok ||
    bad "tracked files add up to $((total / 1048576)) MiB, over the 48 MiB budget; largest: $largest"
over=$(awk -v m="$FILE_MAX" '$1 > m { printf "%s%s (%.1f MiB)", (n++ ? ", " : ""), $2, $1 / 1048576 }' "$TMP/sizes")
[ -z "$over" ] && ok || bad "tracked files over 4 MiB: $over; compress records (gzip -9 results.json) or leave redrawable output out"

# A recorded run keeps no bulk chart set: its report/ holds report.md and at
# most the few charts report.md embeds.
for rep in $(cd "$GB_SRC" && ls -d data/*/*/report 2>/dev/null); do
    n=$(awk '$2 ~ "^'"$rep"'/" && $2 ~ /\.(png|svg|gp)$/' "$TMP/sizes" | wc -l)
    [ "$n" -le 60 ] && ok || bad "$rep commits $n chart files; commit report.md and the charts it embeds, not every chart"
done
echo "tracked: $((total / 1024)) KiB in $(wc -l <"$TMP/sizes") files"
finish
