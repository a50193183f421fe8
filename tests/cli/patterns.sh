# Suite patterns: bad variants and axes are refused before any GPU work, and
# `gpubound report` of the synthetic fixture run prints and writes the
# speedup table and chart (tests/data/runs/patterns-fixture, made-up numbers).
. "$(dirname "$0")/lib.bash"
: "${GB_SRC:?GB_SRC must name the source directory}"
FIXTURE="$GB_SRC/tests/data/runs/patterns-fixture"

# Bad values: one line, exit 2, no run directory.
expect 2 "axis variant: 'fast' is not one of original,revised" run patterns --set variant=fast --out "$TMP/r1"
[ ! -e "$TMP/r1" ] && ok || bad "a refused run must not create its --out"
expect 2 "axis ways: '3' is not one of 1,2,4,8,16,32" run patterns/bank_conflict --set ways=3 --out "$TMP/r1"
expect 2 "axis ways: '64' is not one of" run patterns --set ways=1,64 --out "$TMP/r1"
expect 2 "axis pad: value 2 is out of range \(0..1\)" run patterns/bank_conflict --set pad=2 --out "$TMP/r1"
expect 2 "axis width: value 16 is out of range \(4..8\)" run patterns/coalescing --set width=16 --out "$TMP/r1"
expect 2 "axis memory: 'mapped' is not one of pageable,pinned" run patterns/scattered_copy --set memory=mapped --out "$TMP/r1"
expect 2 "axis load: 'cs' is not one of ca,cg" run patterns/global_memory --set load=cs --out "$TMP/r1"
expect 2 "suite patterns has no benchmark 'nope' \(it has: bank_conflict, global_memory, replication_copy, coalescing, scattered_copy, register_imbalance, barrier_wait, branch_divergence\)" \
    run patterns/nope --out "$TMP/r1"
expect 2 "--set ways: no selected benchmark has an axis of that name" run patterns/coalescing --set ways=2 --out "$TMP/r1"
[ ! -e "$TMP/r1" ] && ok || bad "a refused run must not create its --out"

# The listing shows every pattern with its variant axis.
expect 0 "patterns/branch_divergence" list patterns
[ "$(printf '%s\n' "$OUT" | grep -c '^      variant  *= original,revised')" = 8 ] && ok \
    || bad "list: not every pattern has the variant axis"

# The report of the fixture, without a GPU.
expect 0 "" report "$FIXTURE" --out "$TMP/rep"
printf '%s\n' "$OUT" | grep -qx 'Speedup of the revised kernel over the original, per pattern' && ok \
    || bad "report: the headline speedup table's title is missing"
hdr=$(printf '%s\n' "$OUT" | grep -A2 -x 'Speedup of the revised kernel over the original, per pattern' | tail -1)
printf '%s\n' "$hdr" | grep -Eq '^bench +point +original \(µs\) +revised \(µs\) +speedup +95% CI low +95% CI high +paper: Fermi GTX 480 +paper: Tesla T10$' \
    && ok || bad "report: speedup table header: $hdr"
# 4560 / 152.5 = 29.90, to the digits its interval 29.79..30.01 warrants; the paper's 2.50 and 18.95 as published.
printf '%s\n' "$OUT" | grep -Eq '^bank_conflict +4560 ± 14 +152\.5 ± 0\.5 +29\.90 +29\.79 +30\.01 +2\.50 +18\.95$' && ok \
    || bad "report: the bank_conflict row of the headline"
printf '%s\n' "$OUT" | grep -Eq '^scattered_copy +memory=pinned +1900 ± 6 +26\.00 ± 0\.08 +73\.08 +72\.81 +73\.34 +17\.48 +63\.09$' && ok \
    || bad "report: the pinned scattered_copy row of the headline"
printf '%s\n' "$OUT" | grep -qx 'Speedup of the revised kernel at every measured point' && ok \
    || bad "report: the table of every pair is missing"
printf '%s\n' "$OUT" | grep -Eq '^bank_conflict +ways=16 pad=1 ' && bad "report: a failed point was paired" || ok
for f in patterns-speedup.svg patterns-speedup.png patterns-speedup.gp patterns-speedup.csv \
         patterns-speedup-all.png patterns-bank-conflict.png report.md; do
    [ -s "$TMP/rep/$f" ] && ok || bad "report: $f not written"
done
grep -qF '](patterns-speedup.png)](patterns-speedup.svg)' "$TMP/rep/report.md" && ok || bad "report.md does not show the chart"
grep -Eq '^\| bank_conflict \|  \| 4560 ± 14 \| 152\.5 ± 0\.5 \| 29\.90 \| 29\.79 \| 30\.01 \| 2\.50 \| 18\.95 \|$' "$TMP/rep/report.md" && ok \
    || bad "report.md lacks the speedup table"
grep -q 'combines the two medians' "$TMP/rep/report.md" && ok || bad "report.md does not say how the interval is made"

# Machine formats keep stdout one table: the summary only.
expect 0 "" report "$FIXTURE" --out "$TMP/rep2" --format csv
printf '%s\n' "$OUT" | grep -q 'Speedup of' && bad "CSV stdout carries the speedup table" || ok
[ "$(printf '%s\n' "$OUT" | wc -l)" = 49 ] && ok || bad "CSV has not one row per record"
finish
