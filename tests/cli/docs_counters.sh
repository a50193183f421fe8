# The counter tables of docs/counters.md are the committed counter runs'
# (scripts/counters_tables.py makes them from data/<gpu>/counters-*/): a
# figure in the doc cannot drift from its record. Fails when no run is committed.
. "$(dirname "$0")/lib.bash"
: "${GB_SRC:?GB_SRC must name the source directory}"
OUT="" ERR=""
ls -d "$GB_SRC"/data/*/counters-*/comparison.csv >/dev/null 2>&1 && ok || bad "no counters run under data/<gpu>/counters-*/"
python3 "$GB_SRC/scripts/counters_tables.py" "$GB_SRC" >"$TMP/made" 2>"$TMP/err" && ok || bad "counters_tables.py failed: $(cat "$TMP/err")"
sed -n '/^<!-- counters tables:/,/^<!-- end of counters tables -->/p' "$GB_SRC/docs/counters.md" | sed '1d;$d' >"$TMP/doc"
diff -u "$TMP/made" "$TMP/doc" >"$TMP/diff" && ok || bad "docs/counters.md's tables differ from the recorded runs (run scripts/counters_tables.py): $(head -c 600 "$TMP/diff")"
grep -q '^| instructions .* | equal | \([0-9][0-9]*\) | \1 |' "$TMP/doc" && ok || bad "docs/counters.md lacks the instruction-count row of a recorded comparison"
grep -q 'camped on 2 of 94 slices' "$TMP/doc" && ok || bad "docs/counters.md lacks the H200's camped verdict"
finish
