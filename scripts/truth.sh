#!/usr/bin/env bash
# truth.sh GPUBOUND OUT_DIR: gpubound's kernel times against Nsight Compute's.
# For every point of the table below, hot and cold: gpubound measures it
# (`gpubound run`, its record under OUT_DIR/points/), then Nsight Compute
# times the same kernel launched by the same command (`ncu --metrics
# gpu__time_duration.sum --clock-control none`, with --cache-control none
# for hot and all for cold; its CSV under OUT_DIR/ncu/). The comparison,
# gpubound's median against ncu's median, goes to OUT_DIR/truth.csv and
# OUT_DIR/truth.md; a point passes within 1% or 0.1 us, whichever is larger.
# Needs a GPU, ncu (or $NCU) and python3. Exits 1 when a point fails.
# GB_TRUTH_MODES ("hot cold"), GB_TRUTH_ARGS (more gpubound options),
# GB_TRUTH_NCU_DIR (reuse another comparison's ncu results) and
# GB_TRUTH_POINTS (a file of points in the table's format, instead of it) vary it.
set -uo pipefail
gb=$(realpath "$1")
out=$2
ncu=${NCU:-ncu}
ncu_dir=${GB_TRUTH_NCU_DIR:-$out/ncu}   # ncu's results, reused when already there
modes=${GB_TRUTH_MODES:-hot cold}
extra=${GB_TRUTH_ARGS:-}                # more gpubound options (--timer events, --flush write)
mkdir -p "$out/points" "$ncu_dir"
command -v "$ncu" >/dev/null || { echo "truth: ncu not found (set NCU)" >&2; exit 3; }

# tag | gpubound bench and axes | kernel name (ncu's -k)
POINTS='
bw-read-1M      | bandwidth/read --set width=16 --set grid=stride --set bytes=1M        | bw_read
bw-read-8M      | bandwidth/read --set width=16 --set grid=stride --set bytes=8M        | bw_read
bw-read-256M    | bandwidth/read --set width=16 --set grid=stride --set bytes=256M      | bw_read
bw-read-2G      | bandwidth/read --set width=16 --set grid=stride --set bytes=2G        | bw_read
bw-copy-4G      | bandwidth/copy --set width=16 --set grid=stride --set bytes=4G        | bw_copy
tr-padded-4096  | transpose/padded --set tile=32x8 --set shape=square --set n=4096      | tr_padded
tr-padded-16384 | transpose/padded --set tile=32x8 --set shape=square --set n=16384     | tr_padded
tr-naive-16384  | transpose/naive --set tile=32x8 --set shape=square --set n=16384      | tr_naive
ub1-small-32x32 | ubench/ubench1 --set size=small --set cache=default --set rows=32 --set cols=32 | ubench1
ub8-large-4x64  | ubench/ubench8 --set size=large --set cache=default --set rows=4 --set cols=64  | ubench8
bank-32-orig    | patterns/bank_conflict --set ways=32 --set pad=0 --set variant=original --set codewords=1M | bank_every_thread
'
[ -n "${GB_TRUTH_POINTS:-}" ] && POINTS=$(cat "$GB_TRUTH_POINTS")
echo "tag,mode,bench,kernel,gpubound_ns,gpubound_ci_lo_ns,gpubound_ci_hi_ns,time_source,cold_flush,batch,batch_median_ns,ncu_median_ns,ncu_launches,diff_pct,pass" >"$out/truth.csv"
fails=0
while IFS='|' read -r tag args kernel; do
    tag=$(echo $tag) kernel=$(echo $kernel)
    [ -n "$tag" ] || continue
    for mode in $modes; do
        cc=none; [ $mode = cold ] && cc=all
        dir="$out/points/$tag-$mode"
        # shellcheck disable=SC2086
        "$gb" run $args $extra --$mode --no-report --out "$dir" >/dev/null 2>"$dir.log" ||
            { echo "$tag $mode: gpubound run failed: $(tail -n 1 "$dir.log")"; fails=$((fails + 1)); continue; }
        ncsv="$ncu_dir/$tag-$mode.csv"
        if [ ! -s "$ncsv" ]; then
            # shellcheck disable=SC2086
            "$ncu" --csv --page raw --print-units base --metrics gpu__time_duration.sum \
                --clock-control none --cache-control $cc -k "regex:^$kernel\$" --launch-count 40 \
                --log-file "$ncsv" \
                "$gb" run $args --$mode --no-report --max-time 0.2 --out "$ncu_dir/run-$tag-$mode" \
                >/dev/null 2>"$ncu_dir/$tag-$mode.log" ||
                { echo "$tag $mode: ncu failed: $(tail -n 2 "$ncu_dir/$tag-$mode.log" | tr '\n' ' ')"; rm -f "$ncsv"; fails=$((fails + 1)); continue; }
            rm -rf "$ncu_dir/run-$tag-$mode"
        fi
        python3 "$(dirname "$0")/truth_compare.py" "$dir" "$ncsv" "$tag" "$mode" "$kernel" >>"$out/truth.csv" ||
            fails=$((fails + 1))
    done
done <<<"$POINTS"
python3 - "$out/truth.csv" >"$out/truth.md" <<'PY'
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1])))
print('| point | mode | gpubound (us) | time source | flush | ncu median (us) | launches | difference | within 1% or 0.1 us |')
print('| --- | --- | ---: | --- | --- | ---: | ---: | ---: | --- |')
for r in rows:
    print('| %s | %s | %.3f | %s | %s | %.3f | %s | %+.2f%% | %s |' % (r['tag'], r['mode'], float(r['gpubound_ns']) / 1e3,
          r['time_source'], r['cold_flush'], float(r['ncu_median_ns']) / 1e3, r['ncu_launches'], float(r['diff_pct']), r['pass']))
PY
cat "$out/truth.md"
echo "truth: $(grep -c ',yes$' "$out/truth.csv") of $(($(wc -l <"$out/truth.csv") - 1)) comparisons within the goal, $fails failed"
[ "$fails" = 0 ]
