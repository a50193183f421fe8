# A regression golden, not an oracle: the CPU-side commands (report,
# geometry, camp fit / predict / validate, occupancy) on every committed run
# give the output they gave when tests/data/behaviour.manifest was made
# (scripts/behaviour_manifest.sh hashes every file and stdout they write).
# A change of output on purpose regenerates the manifest in the same commit:
#   bash scripts/behaviour_manifest.sh build/gpubound . "$(mktemp -d)" > tests/data/behaviour.manifest
. "$(dirname "$0")/lib.bash"
: "${GB_SRC:?GB_SRC must name the source directory}"
OUT="" ERR=""
bash "$GB_SRC/scripts/behaviour_manifest.sh" "$GPUBOUND" "$GB_SRC" "$TMP/out" >"$TMP/manifest" 2>"$TMP/err"
[ -s "$TMP/manifest" ] && ok || bad "the manifest could not be made: $(head -c 400 "$TMP/err")"
diff "$GB_SRC/tests/data/behaviour.manifest" "$TMP/manifest" >"$TMP/diff" && ok ||
    bad "outputs changed on the committed runs: $(grep -c '^[<>]' "$TMP/diff") manifest lines differ, e.g. $(grep -m 3 '^[<>]' "$TMP/diff" | tr '\n' ' ')"
finish
