# The truth tables of docs/measurement.md are the committed truth runs'
# (scripts/truth_tables.py makes them from data/<gpu>/truth-*/): a figure in
# the doc cannot drift from its record. Fails when no truth run is committed.
. "$(dirname "$0")/lib.bash"
: "${GB_SRC:?GB_SRC must name the source directory}"
OUT="" ERR=""
ls -d "$GB_SRC"/data/*/truth-*/truth.csv >/dev/null 2>&1 && ok || bad "no truth run under data/<gpu>/truth-*/"
python3 "$GB_SRC/scripts/truth_tables.py" "$GB_SRC" >"$TMP/made" 2>"$TMP/err" && ok || bad "truth_tables.py failed: $(cat "$TMP/err")"
sed -n '/^<!-- truth tables:/,/^<!-- end of truth tables -->/p' "$GB_SRC/docs/measurement.md" | sed '1d;$d' >"$TMP/doc"
diff -u "$TMP/made" "$TMP/doc" >"$TMP/diff" && ok || bad "docs/measurement.md's tables differ from the recorded runs (run scripts/truth_tables.py): $(head -c 600 "$TMP/diff")"
grep -c '^| ' "$TMP/doc" | { read -r n; [ "$n" -ge 40 ]; } && ok || bad "docs/measurement.md holds fewer table rows than two GPUs' comparisons"
finish
