# The corpus (corpus/README.md): every kernel directory's spec lists with its
# benches, the README names every kernel directory, and
# scripts/record_corpus.sh records each kernel into a directory of its own,
# goes on past a kernel that fails and says which (with a stand-in gpubound,
# so no GPU is needed).
. "$(dirname "$0")/lib.bash"
: "${GB_SRC:?GB_SRC must name the source directory}"

n=0
for spec in "$GB_SRC"/corpus/*/spec.json; do
    name=$(basename "$(dirname "$spec")")
    n=$((n + 1))
    expect 0 "corpus-" list "$spec"
    grep -q "^| $name |" "$GB_SRC/corpus/README.md" && ok || bad "corpus/README.md has no row for $name"
    [ -n "$(find "$GB_SRC/corpus/$name" -name '*.cu')" ] && ok || bad "corpus/$name has no .cu source"
done
[ "$n" -ge 16 ] && ok || bad "corpus/ holds $n kernel specs, fewer than 16"

# A stand-in gpubound: `info` succeeds; `run SPEC ... --out DIR` writes a
# run.json, and fails (exit 1, one point failed) for the scan kernel.
fake=$TMP/fakebuild
mkdir -p "$fake"
cat >"$fake/gpubound" <<'FAKE'
#!/usr/bin/env bash
[ "$1" = info ] && { echo "fake GPU"; exit 0; }
out=""; counters=0; spec=$2
while [ $# -gt 0 ]; do
    case $1 in --out) out=$2; shift ;; --counters) counters=$((counters + 1)) ;; --counters=*) counters="$counters+list" ;; esac
    shift
done
mkdir -p "$out"
echo "$spec counters=$counters" >"$out/args"
case $spec in
*/scan/spec.json) printf '{"points_ok": 37, "points_failed": 1, "wall_s": 2.0}\n' >"$out/run.json"
                  echo "scan: a point failed verification" >&2; exit 1 ;;
*) printf '{"points_ok": 12, "points_failed": 0, "wall_s": 1.0}\n' >"$out/run.json" ;;
esac
FAKE
chmod +x "$fake/gpubound"
rec=$TMP/rec
GB_CORPUS="triad scan chase" bash "$GB_SRC/scripts/record_corpus.sh" "$fake" "$rec" >"$TMP/out" 2>"$TMP/err"
RC=$? OUT=$(cat "$TMP/out") ERR=$(cat "$TMP/err")
[ "$RC" = 1 ] && ok || bad "record_corpus.sh with a failing kernel exited $RC, expected 1"
for k in triad scan chase; do
    grep -q "corpus/$k/spec.json counters=1" "$rec/$k/args" 2>/dev/null && ok || bad "$k was not run with --counters into $rec/$k"
done
grep -Eq '^chase +0 ' "$TMP/out" && ok || bad "the kernel after the failing one was not run or not reported"
grep -Eq '^scan +1 .* 37 +1$' "$TMP/out" && ok || bad "the failing kernel's line does not show rc 1, 37 ok, 1 failed"
grep -q 'scan: a point failed verification' "$TMP/out" && ok || bad "the failing kernel's last log line is not shown"
grep -q '^scan rc=1 ' "$rec/steps.log" && ok || bad "steps.log does not record the failing kernel"
grep -q '^triad rc=0 took=[0-9]*s ok=12 failed=0$' "$rec/steps.log" && ok || bad "steps.log does not record triad"

# --counters=LIST in GB_CORPUS_ARGS takes the place of --counters: given
# twice, gpubound refuses the run.
GB_CORPUS="triad" GB_CORPUS_ARGS="--max-time 0.5 --counters=default,smsp__inst_executed_op_global_red.sum" \
    bash "$GB_SRC/scripts/record_corpus.sh" "$fake" "$TMP/recl" >"$TMP/out" 2>"$TMP/err"
grep -q "corpus/triad/spec.json counters=0+list$" "$TMP/recl/triad/args" 2>/dev/null && ok ||
    bad "GB_CORPUS_ARGS with --counters=LIST: not that list alone ($(cat "$TMP/recl/triad/args" 2>/dev/null))"

# Usage and an unknown kernel.
bash "$GB_SRC/scripts/record_corpus.sh" >"$TMP/out" 2>"$TMP/err"
RC=$? OUT=$(cat "$TMP/out") ERR=$(cat "$TMP/err")
[ "$RC" = 2 ] && grep -q '^usage: record_corpus.sh BUILD OUTDIR \[CORPUS\]$' "$TMP/err" && ok || bad "no arguments: exit $RC, expected 2 with the usage line"
GB_CORPUS="nosuch triad" bash "$GB_SRC/scripts/record_corpus.sh" "$fake" "$TMP/rec2" >"$TMP/out" 2>"$TMP/err"
RC=$? OUT=$(cat "$TMP/out") ERR=$(cat "$TMP/err")
[ "$RC" = 1 ] && grep -q '^nosuch rc=missing' "$TMP/rec2/steps.log" && [ -f "$TMP/rec2/triad/run.json" ] && ok ||
    bad "an unknown kernel: exit $RC, expected 1, reported missing, the next kernel still run"

# The held-out kernels (corpus-heldout/README.md, corpus-heldout2/README.md,
# corpus-heldout3/README.md, corpus-heldout4/README.md,
# corpus-heldout5/README.md, corpus-heldout6/README.md, corpus-heldout7/README.md, corpus-heldout8/README.md,
# corpus-heldout9/README.md, corpus-heldout10/README.md, corpus-heldout11/README.md,
# corpus-heldout12/README.md, corpus-heldout13/README.md, corpus-heldout14/README.md,
# corpus-heldout15/README.md, corpus-heldout16/README.md, corpus-heldout17/README.md,
# corpus-heldout18/README.md, corpus-heldout19/README.md, corpus-heldout20/README.md,
# corpus-heldout21/README.md, corpus-heldout22/README.md, corpus-heldout23/README.md,
# corpus-heldout24/README.md, corpus-heldout25/README.md, corpus-heldout26/README.md,
# corpus-heldout27/README.md and corpus-heldout28/README.md):
# each spec lists, has a README row and a source; record_corpus.sh takes the
# directory as CORPUS and runs its specs, and refuses a directory that does not
# exist.
for set in corpus-heldout:heldout-:5 corpus-heldout2:heldout2-:3 corpus-heldout3:heldout3-:3 corpus-heldout4:heldout4-:3 corpus-heldout5:heldout5-:3 corpus-heldout6:heldout6-:3 corpus-heldout7:heldout7-:3 corpus-heldout8:heldout8-:3 corpus-heldout9:heldout9-:3 corpus-heldout10:heldout10-:3 corpus-heldout11:heldout11-:3 corpus-heldout12:heldout12-:3 corpus-heldout13:heldout13-:3 corpus-heldout14:heldout14-:3 corpus-heldout15:heldout15-:3 corpus-heldout16:heldout16-:3 corpus-heldout17:heldout17-:3 corpus-heldout18:heldout18-:3 corpus-heldout19:heldout19-:3 corpus-heldout20:heldout20-:3 corpus-heldout21:heldout21-:3 corpus-heldout22:heldout22-:3 corpus-heldout23:heldout23-:3 corpus-heldout24:heldout24-:3 corpus-heldout25:heldout25-:3 corpus-heldout26:heldout26-:3 corpus-heldout27:heldout27-:3 corpus-heldout28:heldout28-:3; do
    dir=${set%%:*} want=${set##*:} prefix=${set#*:}
    prefix=${prefix%%:*}
    nh=0
    for spec in "$GB_SRC/$dir"/*/spec.json; do
        name=$(basename "$(dirname "$spec")")
        nh=$((nh + 1))
        expect 0 "$prefix" list "$spec"
        grep -q "^| $name |" "$GB_SRC/$dir/README.md" && ok || bad "$dir/README.md has no row for $name"
        [ -n "$(find "$GB_SRC/$dir/$name" -name '*.cu')" ] && ok || bad "$dir/$name has no .cu source"
    done
    [ "$nh" -eq "$want" ] && ok || bad "$dir/ holds $nh kernel specs, expected $want"
done
bash "$GB_SRC/scripts/device/heldout.sh" "$fake/gpubound" "$TMP/ho" corpus-nosuch >"$TMP/out" 2>"$TMP/err"
RC=$?
[ "$RC" = 2 ] && grep -q "unknown set 'corpus-nosuch': give corpus-heldout, corpus-heldout2, corpus-heldout3, corpus-heldout4, corpus-heldout5, corpus-heldout6, corpus-heldout7, corpus-heldout8, corpus-heldout9, corpus-heldout10, corpus-heldout11, corpus-heldout12, corpus-heldout13, corpus-heldout14, corpus-heldout15, corpus-heldout16, corpus-heldout17, corpus-heldout18, corpus-heldout19, corpus-heldout20, corpus-heldout21, corpus-heldout22, corpus-heldout23, corpus-heldout24, corpus-heldout25, corpus-heldout26, corpus-heldout27 or corpus-heldout28" "$TMP/err" && [ ! -e "$TMP/ho" ] &&
    ok || bad "heldout.sh with an unknown set: exit $RC, expected 2 with one line and nothing made"
GB_CORPUS="bitonic nosuch" bash "$GB_SRC/scripts/record_corpus.sh" "$fake" "$TMP/rec3" corpus-heldout >"$TMP/out" 2>"$TMP/err"
RC=$?
[ "$RC" = 1 ] && grep -q "corpus-heldout/bitonic/spec.json counters=1" "$TMP/rec3/bitonic/args" 2>/dev/null &&
    grep -q '^nosuch rc=missing' "$TMP/rec3/steps.log" && ok ||
    bad "record_corpus.sh with CORPUS corpus-heldout: exit $RC, expected 1 (nosuch missing) with bitonic run from corpus-heldout"
bash "$GB_SRC/scripts/record_corpus.sh" "$fake" "$TMP/rec4" "$GB_SRC/corpus-heldout" >"$TMP/out" 2>"$TMP/err"
RC=$?
[ "$RC" = 0 ] && [ "$(find "$TMP/rec4" -name args | wc -l)" = 5 ] && ok ||
    bad "record_corpus.sh with an absolute CORPUS: exit $RC, expected 0 and 5 kernels run"
bash "$GB_SRC/scripts/record_corpus.sh" "$fake" "$TMP/rec5" nosuchdir >"$TMP/out" 2>"$TMP/err"
RC=$?
[ "$RC" = 2 ] && grep -q '^record_corpus: no corpus directory .*nosuchdir' "$TMP/err" && [ ! -e "$TMP/rec5" ] && ok ||
    bad "record_corpus.sh with a missing CORPUS: exit $RC, expected 2 with one line and no OUTDIR"
finish
