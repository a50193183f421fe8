# gpubound report on a run that mixes suites whose names collide: transpose's
# axis n and ubench's metric n get a column each in the summary.
. "$(dirname "$0")/lib.bash"
: "${GB_SRC:?GB_SRC must name the source directory}"
mkdir -p "$TMP/mixed"
cp "$GB_SRC/data/h200/transpose-2026-11-21/run.json" "$TMP/mixed/"
{ grep -m 3 '^{' "$GB_SRC/data/h200/transpose-2026-11-21/results.json"
  gzip -dc "$GB_SRC/data/h200/ubench-2026-11-21/results.json.gz" | grep -m 3 '^{'; } >"$TMP/mixed/results.json"
expect 0 "n \(metric\)" report "$TMP/mixed" --out "$TMP/mixed-report"
finish
