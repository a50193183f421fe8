#!/usr/bin/env bash
# A command never writes into a run it reads (docs/validation.md): every
# --out (and compare's --chart) that lands inside a run read, however it is
# spelled (a trailing '/', '/.', '..', a link to the run, a directory below
# it) or inside the --ceilings or --replay run, is a usage error (exit 2, one
# line) and leaves every run byte-identical. And roofline --out does not
# replace a report.md that report wrote there unless --force.
source "$(dirname "$0")/lib.bash"
D="$GB_SRC/data/h200"
CMP="$GB_SRC/data/h100/compare-2026-11-23"
SPEC="$GB_SRC/corpus/gemm/spec.json"

# The hash of every entry under DIR (names, types, links, contents).
tree_hash() {
    (cd "$1" && find . -print0 | sort -z |
        while IFS= read -r -d '' f; do
            if [ -L "$f" ]; then echo "link $f $(readlink "$f")"
            elif [ -f "$f" ]; then echo "file $f $(sha256sum <"$f")"
            else echo "other $f"; fi
        done | sha256sum)
}
cp -r "$D/kt-sweep-2026-11-26/gb-stencil" "$TMP/ex"
cp -r "$D/examples-counters-2026-11-23/sgemm" "$TMP/R"
cp -r "$D/ceilings-2026-11-26" "$TMP/C"
cp -r "$CMP/bw-a" "$TMP/A"
cp -r "$CMP/bw-b" "$TMP/B"
cp -r "$GB_SRC/tests/data/runs/camping-fixture" "$TMP/camp"
MODEL="$D/camping-2026-11-21/campprof-model.json"
ln -s "$TMP/R" "$TMP/RL"
ln -s "$TMP/ex" "$TMP/exl"
hashes() { for r in ex R C A B camp; do tree_hash "$TMP/$r"; done; }
before=$(hashes)

# inside WHAT ARGS...: exit 2, one line saying the path lies inside a run read.
inside() {
    local what=$1
    shift
    expect 2 "lies inside the run .*, which this command only reads" "$@"
    [ ! -e "$TMP/made" ] || bad "$what: made $TMP/made"
}
cd "$TMP" || exit 1
for o in ex/results.json ex/run.json ex/new.json ex/sub/x.json ./ex/../ex/t4.json exl/t4.json "$TMP/ex/t4.json"; do
    inside "export --out $o" export ex --format t4 --out "$o"
done
for o in R R/ R/. ../"$(basename "$TMP")"/R RL R/sub R/sub/deeper C/x; do
    inside "roofline --out $o" roofline R --ceilings C --out "$o"
done
for o in R/x RL/x R/ C/x; do
    inside "report --out $o" report R --ceilings C --out "$o"
done
for o in B/c B A/ "$TMP/B/c/d"; do
    inside "compare --chart $o" compare A B --chart "$o"
done
inside "compare --chart into an anchor" compare A B --anchor-new B --chart B/x
inside "camp validate --out into --ceilings" camp validate --model "$MODEL" camp --ceilings C --out C/v
for o in R/sub RL/sub R; do
    inside "tune --out $o" tune "$SPEC" --bench tiled --set n=1024 --replay R --budget 4 --out "$o"
done
[ "$(hashes)" = "$before" ] && ok || bad "a refused command changed a run it reads"

# Outside the run every one of them writes (the guard is not a blanket refusal).
expect 0 "" export ex --format t4 --out "$TMP/t4.json"
expect 0 "" roofline R --ceilings C --out "$TMP/rl" --no-chart
[ -s "$TMP/rl/report.md" ] && ok || bad "roofline --out outside the run wrote no report.md"

# roofline --out over report's report.md: refused (exit 1), unchanged; --force replaces it.
expect 0 "" report R --ceilings C --out "$TMP/rep"
h=$(tree_hash "$TMP/rep")
expect 1 "rep/report.md is another command's report, not a roofline's; it is not replaced \(--force" \
    roofline R --ceilings C --out "$TMP/rep" --no-chart
[ "$(tree_hash "$TMP/rep")" = "$h" ] && ok || bad "a refused roofline changed the report's directory"
expect 0 "" roofline R --ceilings C --out "$TMP/rep" --no-chart --force
head -1 "$TMP/rep/report.md" | grep -q '^# Roofline of' && ok || bad "roofline --force did not replace report.md"
# ... and its own report.md it replaces without --force.
expect 0 "" roofline R --ceilings C --out "$TMP/rep" --no-chart
finish
