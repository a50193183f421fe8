# gpubound geometry: every mode on the synthetic ubench fixture, the fixture
# against the script that generates it, the ranking against the script's own,
# and every bad input with its one line and exit code.
#
# REGRESSION GOLDENS: the ubench6 lines below (--bench text, the --all CSV
# row, the --shapes 4x64 row) and the docs/models.md example were copied
# from this code's output; they catch a change, not an error the code has
# always made. The independent oracle here is the ranking recomputed by the
# fixture's generator script (python3, below); tests/unit/test_geometry.c
# has the hand-worked cases.
. "$(dirname "$0")/lib.bash"
: "${GB_SRC:?GB_SRC must name the source directory}"
FIXTURE="$GB_SRC/tests/data/runs/ubench-fixture"
BW="$GB_SRC/tests/data/runs/bandwidth-fixture"

# no_stdout: an error prints nothing on stdout.
no_stdout() { [ -z "$OUT" ] && ok || bad "stdout not empty on an error"; }

# --bench, as text: the hand-set ubench6 group (its README gives the answer).
expect 0 "" geometry "$FIXTURE" --bench ubench6
printf '%s\n' "$OUT" | head -1 | grep -qx 'ubench6, size large, cache default: 6 shapes ranked; 2 points not ok, ignored' \
    && ok || bad "--bench: header line"
printf '%s\n' "$OUT" | grep -qx 'best: 8x16 (128 threads), 16x8 (128 threads), tied; 100.0 µs' && ok || bad "--bench: the tie"
printf '%s\n' "$OUT" | grep -Eq '^ +1 +8x16 +128 +100\.0 +1\.000 +best +1\.00 +yes +yes$' && ok || bad "--bench: rank 1"
printf '%s\n' "$OUT" | grep -Eq '^ +1 +16x8 +128 +100\.0 +1\.000 +best ' && ok || bad "--bench: rank 1, tied"
printf '%s\n' "$OUT" | grep -Eq '^ +3 +32x8 +256 +105\.0 +1\.050 +within 5% +1\.00 +yes +no$' && ok || bad "--bench: 5% edge"
! printf '%s\n' "$OUT" | grep -q '16x16  ' && ok || bad "--bench: a shape beyond 5% is listed"
printf '%s\n' "$OUT" | grep -q '^maximize occupancy: 4 of 6 shapes reach it; the fastest of them, 8x16, is 1.000 x the best, the slowest, 4x64, 1.255 x$' \
    && ok || bad "--bench: maximize occupancy"
printf '%s\n' "$OUT" | grep -qx '  necessary: yes, every recommended shape reaches it' && ok || bad "--bench: necessary"
printf '%s\n' "$OUT" | grep -qx '  sufficient: no, 1 of the 4 shapes that reach it is not recommended' && ok || bad "--bench: sufficient"
printf '%s\n' "$OUT" | grep -qx 'square blocks: the fastest nearest-square shape, 8x16 (128 threads), is 1.000 x the best: best, recommended (rank 1)' \
    && ok || bad "--bench: square blocks"
printf '%s\n' "$OUT" | grep -qx 'marks: 2 best, 1 within 5%, 2 within 25%, 1 other' && ok || bad "--bench: marks"

# --bench over every size and cache of the run, then filtered.
expect 0 "" geometry "$FIXTURE" --bench ubench1
[ "$(printf '%s\n' "$OUT" | grep -c '^ubench1, size ')" = 3 ] && ok || bad "--bench ubench1: not 3 groups"
printf '%s\n' "$OUT" | grep -n '^ubench1, size ' | cut -d: -f2 | cut -d: -f1 | tr '\n' '|' \
    | grep -qx 'ubench1, size small, cache default|ubench1, size large, cache default|ubench1, size large, cache max|' \
    && ok || bad "--bench ubench1: groups not in size, cache order"
expect 0 "" geometry "$FIXTURE" --bench ubench1 --size large --cache max
[ "$(printf '%s\n' "$OUT" | grep -c '^ubench1, size ')" = 1 ] && ok || bad "--size --cache: not one group"
expect 0 "maximize occupancy: unknown, the records carry no max_occupancy metric" geometry "$FIXTURE" --bench ubench14

# --class: geometric mean over the class's benches; shapes missing in one dropped.
expect 0 "" geometry "$FIXTURE" --class coalesced-write --size large
printf '%s\n' "$OUT" | head -1 | grep -q '^class coalesced-write (ubench1,ubench2), size large, cache default: 65 shapes ranked (measured ok in every bench); 1 point not ok, ignored; 34 shapes left out, not ok in some bench$' \
    && ok || bad "--class: header"
printf '%s\n' "$OUT" | grep -q 'mean vs own best' && ok || bad "--class: columns"
printf '%s\n' "$OUT" | grep -q '^not in this group (no ok record): ubench1$' && bad "--class: wrong missing list" || ok
expect 0 "" geometry "$FIXTURE" --class read-none
printf '%s\n' "$OUT" | grep -q '^not in this group (no ok record): ubench3,ubench4,ubench7$' && ok \
    || bad "--class read-none: the benches without records are not named"
expect 0 "" geometry "$FIXTURE" --class non-coalesced -f csv
[ "$(printf '%s\n' "$OUT" | wc -l)" = 2 ] && ok || bad "--class csv: not one row"
printf '%s\n' "$OUT" | head -1 | grep -q '^class,size,cache,shapes,not ok,best,best (µs),recommended,' && ok || bad "--class csv: header"

# --all: the table of good shapes, one row per bench, size and cache.
expect 0 "" geometry "$FIXTURE" --all --format csv
[ "$(printf '%s\n' "$OUT" | wc -l)" = 9 ] && ok || bad "--all csv: not 8 rows and a header"
printf '%s\n' "$OUT" | grep -qx 'ubench6,large,default,6,2,8x16,100,8x16 16x8 32x8,3,128-256,4,8x16,1,4x64,1.255,yes,no,8x16,1,yes' \
    && ok || bad "--all csv: the ubench6 row"
# The ranking agrees with the one the fixture's script computes on its own.
if need_python3; then
    printf '%s\n' "$OUT" | tail -n +2 | cut -d, -f1,2,3,6,8 | sort >"$TMP/ours"
    python3 "$FIXTURE/make_fixture.py" --expect | sort >"$TMP/theirs"
    diff "$TMP/ours" "$TMP/theirs" >/dev/null && ok || bad "--all: best and recommended shapes differ from make_fixture.py --expect"
    # The committed fixture is what the script writes.
    python3 "$FIXTURE/make_fixture.py" "$TMP/fx" && for f in run.json results.json results.csv; do
        cmp -s "$TMP/fx/$f" "$FIXTURE/$f" && ok || bad "$f differs from what make_fixture.py writes"
    done
fi
expect 0 "" geometry "$FIXTURE" --all
printf '%s\n' "$OUT" | head -1 | grep -q '^bench  *size  *cache  *shapes  *not ok  *best  *best (µs)  *recommended' && ok || bad "--all table header"
expect 0 "" geometry "$FIXTURE" --all --size small -f json
printf '%s\n' "$OUT" | head -1 | grep -qx '\[' && printf '%s\n' "$OUT" | tail -1 | grep -qx '\]' && ok || bad "--all json: array"
[ "$(printf '%s\n' "$OUT" | grep -c '"bench": ')" = 1 ] && ok || bad "--all --size small: not one row"

# --shapes: every shape of a group, with its mark.
expect 0 "" geometry "$FIXTURE" --bench ubench6 --shapes --format csv
[ "$(printf '%s\n' "$OUT" | wc -l)" = 7 ] && ok || bad "--shapes: not 6 rows and a header"
printf '%s\n' "$OUT" | grep -qx 'ubench6,large,default,6,4x64,4,64,256,125.5,1.255,other,1,yes,no' && ok \
    || bad "--shapes: the 4x64 row"
printf '%s\n' "$OUT" | grep -qx 'ubench6,large,default,4,16x16,16,16,256,105.5,1.055,within 25%,0.75,no,yes' && ok \
    || bad "--shapes: the 16x16 row"

# --classes lists the class table; help lists the classes.
expect 0 "" geometry --classes --format csv
printf '%s\n' "$OUT" | grep -qx 'coalesced-write,"ubench1,ubench2",section 5.2,"one coalesced write of a constant per thread (patterns I, II), low load"' \
    && ok || bad "--classes: coalesced-write row"
expect 0 "Classes: scheduling coalesced-write" geometry --help

expect 0 "usage: gpubound geometry RUN_DIR" help geometry

# The examples of the README and docs/models.md run as shown.
line=$(grep -m1 '^gpubound geometry ' "$GB_SRC/README.md" | sed 's/ *#.*//')
[ -n "$line" ] && ok || bad "README has no geometry example"
read -r -a words <<<"${line#gpubound }"
for i in "${!words[@]}"; do [ "${words[$i]}" = runs/ub ] && words[$i]=$FIXTURE; done
expect 0 "" "${words[@]}"
printf '%s\n' "$OUT" | head -1 | grep -q "^class coalesced-write (ubench1,ubench2), size large" && ok || bad "the README example's header"
printf '%s\n' "$OUT" | grep -q '^best: ' && ok || bad "the README example names no best shape"
sed -n '/^\$ gpubound geometry tests\/data\/runs\/ubench-fixture --bench ubench6$/,/^```$/p' "$GB_SRC/docs/models.md" \
    | sed '1d;$d' >"$TMP/doc-example"
(cd "$GB_SRC" && "$GPUBOUND" geometry tests/data/runs/ubench-fixture --bench ubench6) >"$TMP/now" 2>&1
[ -s "$TMP/doc-example" ] && diff "$TMP/doc-example" "$TMP/now" >/dev/null && ok \
    || bad "the example output in docs/models.md is not what the command prints"

# The recorded H200 run's table of docs/models.md, as the command prints it:
# every recommended shape listed (a fixed cell buffer once cut the list at
# 127 characters, mid-shape), as many as its "within 5%" column counts.
sed -n '/^\$ gpubound geometry data\/h200\/ubench-2026-11-23-d --all --size large --cache default$/,/^```$/p' \
    "$GB_SRC/docs/models.md" | sed '1d;$d' >"$TMP/doc-h200"
(cd "$GB_SRC" && "$GPUBOUND" geometry data/h200/ubench-2026-11-23-d --all --size large --cache default) >"$TMP/now" 2>&1
[ -s "$TMP/doc-h200" ] && diff "$TMP/doc-h200" "$TMP/now" >/dev/null && ok \
    || bad "the recorded H200 table in docs/models.md is not what the command prints"
(cd "$GB_SRC" && "$GPUBOUND" geometry data/h200/ubench-2026-11-23-d --all --size large --cache default --format csv) \
    | python3 -c 'import csv, sys
rows = list(csv.DictReader(sys.stdin))
assert len(rows) == 17 and all(len(r["recommended"].split()) == int(r["within 5%"]) for r in rows)' 2>/dev/null \
    && ok || bad "the CSV lists as many recommended shapes as it counts"
awk 'NR > 2 { n = 0; for (i = 8; i <= NF && $i ~ /^[0-9]+x[0-9]+$/; i++) n++; if (n != $i) exit 1 }' "$TMP/now" \
    && ok || bad "a table row lists fewer recommended shapes than its within-5% count"

# Usage errors: exit 2, one line, nothing on stdout.
expect 2 "geometry: expected a RUN_DIR; see 'gpubound help geometry'" geometry --all; no_stdout
expect 2 "geometry: expected one RUN_DIR, not 2 arguments" geometry "$FIXTURE" "$FIXTURE" --all; no_stdout
expect 2 "geometry: an empty directory name" geometry "" --all; no_stdout
expect 2 "geometry: unknown option '--bogus'" geometry "$FIXTURE" --all --bogus; no_stdout
expect 2 "geometry: --bench needs a value" geometry "$FIXTURE" --bench; no_stdout
expect 2 "geometry: --format: unknown format 'xml'" geometry "$FIXTURE" --all --format xml; no_stdout
expect 2 "geometry: give exactly one of --bench B, --class C, --all and --compare A,B" geometry "$FIXTURE"; no_stdout
expect 2 "geometry: give exactly one of --bench B, --class C, --all and --compare A,B" geometry "$FIXTURE" --all --bench ubench1; no_stdout
expect 2 "geometry: --size: 'huge' is not small, medium or large" geometry "$FIXTURE" --all --size huge; no_stdout
expect 2 "geometry: --cache: 'L1' is not min, default or max" geometry "$FIXTURE" --all --cache L1; no_stdout
expect 2 "geometry: unknown class 'fast' \(the classes: scheduling, coalesced-write, .*, ubench\)" \
    geometry "$FIXTURE" --class fast; no_stdout
expect 2 "geometry: unknown bench 'ubench99'; the benches of .*ubench-fixture: ubench1, ubench2, ubench5, ubench6, ubench13, ubench14;" \
    geometry "$FIXTURE" --bench ubench99; no_stdout
expect 2 "geometry: .*ubench-fixture has no record of bench ubench9; its benches: ubench1," geometry "$FIXTURE" --bench ubench9; no_stdout
expect 2 "geometry: .*ubench-fixture has no record at size medium; its sizes: small, large;" \
    geometry "$FIXTURE" --all --size medium; no_stdout
expect 2 "geometry: .*ubench-fixture has no record at cache min; its caches: default, max;" \
    geometry "$FIXTURE" --bench ubench1 --cache min; no_stdout
expect 2 "geometry: .*ubench-fixture has no record of ubench2 at size small and cache default;" \
    geometry "$FIXTURE" --bench ubench2 --size small --cache default; no_stdout
expect 2 "geometry: .*ubench-fixture has no bench of class cannon \(cannon_direct,cannon_shifted\); it has ubench1," \
    geometry "$FIXTURE" --class cannon; no_stdout
expect 2 "geometry: .*ubench-fixture has no bench of class scheduling \(ubench0\)" geometry "$FIXTURE" --class scheduling; no_stdout
expect 2 "geometry: .*ubench-fixture has no record of coalesced-write at size small and cache max;" \
    geometry "$FIXTURE" --class coalesced-write --size small --cache max; no_stdout
expect 2 "geometry: .*bandwidth-fixture has no record of the ubench suite \(20 records of other suites\); record one with 'gpubound run ubench'" \
    geometry "$BW" --all; no_stdout
expect 2 "geometry: --classes takes no run directory" geometry --classes "$FIXTURE"; no_stdout

# Missing or malformed run directories: exit 1.
expect 1 "geometry: .*nope is not a gpubound run directory.*; give the directory of a run recorded by 'gpubound run ubench'" \
    geometry "$TMP/nope" --all; no_stdout
cp -r "$FIXTURE" "$TMP/bad"
{ head -3 "$FIXTURE/results.json"; echo '{"suite": "ubench", "bench": '; tail -n +4 "$FIXTURE/results.json"; } \
    >"$TMP/bad/results.json"
expect 1 "geometry: .*results.json:4:[0-9]+: a damaged record" geometry "$TMP/bad" --all; no_stdout

# A run cut mid-write still answers, with a note.
cp -r "$FIXTURE" "$TMP/cut"
head -c -300 "$FIXTURE/results.json" >"$TMP/cut/results.json"
expect 0 "" geometry "$TMP/cut" --bench ubench2
printf '%s\n' "$ERR" | grep -q 'did not end normally' && ok || bad "a cut run is not noted on stderr"
# --compare: one bench's best shape against another's, per size and cache.
expect 0 "reduction" geometry "$FIXTURE" --compare ubench1,ubench2
run_gb geometry "$FIXTURE" --compare ubench1,ubench2 --format csv
cmp_line=$(printf '%s\n' "$OUT" | grep '^large,default,')
run_gb geometry "$FIXTURE" --bench ubench1 --size large --cache default --format csv
one=$(printf '%s\n' "$OUT" | sed -n 2p | cut -d, -f6,7)
[ "$(printf '%s' "$cmp_line" | cut -d, -f3,4)" = "$one" ] && ok || bad "--compare: ubench1's best at large/default ($cmp_line) is not --bench's ($one)"
red=$(printf '%s' "$cmp_line" | awk -F, '{ printf "%.6f", 100 * (1 - $6 / $4) }')
[ "$(printf '%s' "$cmp_line" | awk -F, '{ printf "%.6f", $7 }')" = "$red" ] && ok || bad "--compare: reduction is not 1 - B/A"
expect 2 "is not two benches A,B" geometry "$FIXTURE" --compare ubench1
expect 2 "is not two benches A,B" geometry "$FIXTURE" --compare ubench1,ubench2,ubench5
expect 2 "no record of bench nosuch" geometry "$FIXTURE" --compare ubench1,nosuch
expect 2 "exactly one of" geometry "$FIXTURE" --bench ubench1 --compare ubench1,ubench2

finish
