# Checked provenance (docs/results-format.md, "sha256"): run.json keeps the
# SHA-256 of the spec file and of every source a run compiled, and the
# breakdown refuses a spec that is not the one measured. The digests here
# are sha256sum's, not gpubound's. A run kept as `run` keeps it
# (DIR/spec/<suite>/, the spec under its own name) is made from the
# synthetic fixture of tests/data/lpbm: unchanged, it is fitted; its spec
# copy or kernel source edited after the run, it is refused (exit 1, one
# line naming the file and both digests' first 12 hex digits); without
# digests (a run recorded before they were kept) it is fitted with one
# warning. The copy the run kept is read before the command line's path,
# which names a broken spec relative to the directory the breakdown runs in.
. "$(dirname "$0")/lib.bash"
: "${GB_TESTS:?GB_TESTS must name the tests directory}"
D="$GB_TESTS/data/lpbm"
need_python3 || finish

# kept DIR: the fixture as `run` keeps its spec, with sha256sum's digests.
kept() {
    mkdir -p "$1/spec/sgemm"
    cp "$D/run-sgemm/results.json" "$1/"
    cp "$D/sgemm.json" "$1/spec/sgemm/sgemm.json"
    cp "$D/sgemm.cu" "$1/spec/sgemm/sgemm.cu"
    python3 - "$D/run-sgemm/run.json" "$1/run.json" \
        "$(sha256sum <"$D/sgemm.json" | cut -c1-64)" "$(sha256sum <"$D/sgemm.cu" | cut -c1-64)" <<'PY'
import json, sys
src, dst, spec, cu = sys.argv[1:5]
run = json.load(open(src))
run["spec"] = "tests/data/lpbm/sgemm.json"
run["sha256"] = {"spec": {"sgemm/sgemm.json": spec, "sgemm/sgemm.cu": cu},
                 "kernels": {"util.cu": "0" * 64}}
json.dump(run, open(dst, "w"), indent=2)
PY
}

# The command line's spec, relative to where the breakdown runs, is broken:
# read before the kept copy, it would stop the fit.
mkdir -p "$TMP/cwd/tests/data/lpbm"
echo '{' >"$TMP/cwd/tests/data/lpbm/sgemm.json"
cd "$TMP/cwd" || exit 1

kept "$TMP/same"
run_gb breakdown "$TMP/same" --form formula --out "$TMP/o-same" --no-chart
[ "$RC" = 0 ] && ok || bad "an unchanged run was not fitted (rc $RC)"
grep -q "warning\|not the file" "$TMP/err" && bad "an unchanged run was warned of or refused" || ok
grep -q "spec/sgemm/sgemm.json" "$TMP/o-same/lpbm-model.json" 2>/dev/null || [ -s "$TMP/o-same/lpbm-model.json" ] && ok ||
    bad "no model written for the unchanged run"

# The spec copy edited after the run: refused, naming both digests.
kept "$TMP/spec-edited"
sed -i 's/"bytes": "3 \* n \* n \* 4"/"bytes": "4 * n * n * 4"/' "$TMP/spec-edited/spec/sgemm/sgemm.json"
cmp -s "$D/sgemm.json" "$TMP/spec-edited/spec/sgemm/sgemm.json" && bad "the fixture's edit did not change the spec" || ok
now=$(sha256sum <"$TMP/spec-edited/spec/sgemm/sgemm.json" | cut -c1-12)
was=$(sha256sum <"$D/sgemm.json" | cut -c1-12)
expect 1 "spec-edited/spec/sgemm/sgemm.json is not the file the run measured \(SHA-256 $now, .*records $was for sgemm/sgemm.json\); restore it, or run the changed spec again" \
    breakdown "$TMP/spec-edited" --form formula --out "$TMP/o-edited" --no-chart
[ ! -e "$TMP/o-edited" ] && ok || bad "a refused breakdown wrote $TMP/o-edited"

# The kernel source edited after the run: refused, naming the source.
kept "$TMP/cu-edited"
echo "// edited after the run" >>"$TMP/cu-edited/spec/sgemm/sgemm.cu"
now=$(sha256sum <"$TMP/cu-edited/spec/sgemm/sgemm.cu" | cut -c1-12)
was=$(sha256sum <"$D/sgemm.cu" | cut -c1-12)
expect 1 "cu-edited/spec/sgemm/sgemm.cu is not the file the run measured \(SHA-256 $now, .*records $was for sgemm/sgemm.cu\)" \
    breakdown "$TMP/cu-edited" --form formula --out "$TMP/o-cu" --no-chart

# --spec naming another spec is checked too: the spec read is what counts.
mkdir -p "$TMP/other"
cp "$TMP/spec-edited/spec/sgemm/sgemm.json" "$D/sgemm.cu" "$TMP/other/"
expect 1 "other/sgemm.json is not the file the run measured" \
    breakdown "$TMP/same" --form formula --spec "$TMP/other/sgemm.json" --out "$TMP/o-other" --no-chart
# ... and the original, as --spec, is the one measured.
expect 0 "" breakdown "$TMP/same" --form formula --spec "$D/sgemm.json" --out "$TMP/o-orig" --no-chart

# A run that kept digests of a spec of another name does not vouch for this one.
kept "$TMP/renamed"
mv "$TMP/renamed/spec/sgemm/sgemm.json" "$TMP/renamed/spec/sgemm/spec.json"
sed -i 's/"spec": "tests\/data\/lpbm\/sgemm.json"/"spec": "x\/spec.json"/' "$TMP/renamed/run.json"
expect 1 "renamed/spec/sgemm/spec.json \(SHA-256 [0-9a-f]{12}\) is not a file of a spec the run measured \(.*records no sgemm/spec.json\)" \
    breakdown "$TMP/renamed" --form formula --out "$TMP/o-renamed" --no-chart

# A run recorded before runs kept digests: fitted, with one warning line.
kept "$TMP/old"
python3 - "$TMP/old/run.json" <<'PY'
import json, sys
run = json.load(open(sys.argv[1]))
del run["sha256"]
json.dump(run, open(sys.argv[1], "w"), indent=2)
PY
run_gb breakdown "$TMP/old" --form formula --out "$TMP/o-old" --no-chart
[ "$RC" = 0 ] && ok || bad "an old run was not fitted (rc $RC)"
[ "$(grep -c '^warning: .*old/run.json keeps no SHA-256 of its spec (recorded before runs kept them): .*old/spec/sgemm/sgemm.json is not checked' "$TMP/err")" = 1 ] &&
    ok || bad "an old run was not warned of exactly once"
# Its edited copy cannot be told from the one measured: fitted, warned.
sed -i 's/"bytes": "3 \* n \* n \* 4"/"bytes": "4 * n * n * 4"/' "$TMP/old/spec/sgemm/sgemm.json"
cmp -s "$D/sgemm.json" "$TMP/old/spec/sgemm/sgemm.json" && bad "the old run's edit did not change the spec" || ok
run_gb breakdown "$TMP/old" --form formula --out "$TMP/o-old2" --no-chart
[ "$RC" = 0 ] && grep -q "^warning: .*keeps no SHA-256" "$TMP/err" && ok || bad "an old run's edited copy: rc $RC, no warning"

# The help says so.
run_gb help breakdown
grep -q "SHA-256" "$TMP/out" && ok || bad "breakdown's help does not mention the check"
finish
