# `make run` without a GPU runs scripts/demo.sh: it must show what README.md
# promises: the bandwidth run's findings, a chart (drawn in the terminal, and
# its files written), the block-shape advice, the CampProf fit and its band.
. "$(dirname "$0")/lib.bash"
: "${GB_SRC:?GB_SRC must name the source directory}"
out="$TMP/demo"
OUT=$(bash "$GB_SRC/scripts/demo.sh" "$GPUBOUND" "$out" 2>"$TMP/err")
RC=$?
ERR=$(cat "$TMP/err")
[ "$RC" = 0 ] && ok || bad "demo.sh exited $RC"
has() { printf '%s\n' "$OUT" | grep -Eq -- "$1" && ok || bad "the demo does not show $2"; }
has '^- Highest bandwidth: [0-9]+ GB/s' "the bandwidth run's findings"
# The first finding as report.md has it.
first=$(sed -n '/^## Findings$/,/^## /p' "$out/bandwidth/report.md" | grep -m1 '^- ')
[ -n "$first" ] && printf '%s\n' "$OUT" | grep -qxF -- "$first" && ok || bad "the findings shown are not report.md's"
has 'bandwidth-(flat|stride)\.gp, in the terminal' "a chart"
has '^ +[0-9]+ \+\|' "a chart's axis drawn in the terminal"
[ -s "$out/bandwidth/report.html" ] && [ -s "$out/bandwidth/bandwidth-stride.svg" ] && ok || bad "the report's files"
has '^recommended, within 5% of the best' "the block-shape advice"
has '^CampProf model of ' "the CampProf fit"
has '^CampProf band on ' "the band"
has '^ +64 +[0-9.]+ +[0-9.]+' "the band's rows"
[ -s "$out/band.svg" ] && ok || bad "the band's chart was not written"
finish
