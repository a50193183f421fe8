# Device tier: records unedited Nsight Compute exports (`ncu --csv --page
# raw`) with the CampProf metrics of two gpubound points, writes the command
# that made each beside it, and checks that `gpubound camp predict
# --from-ncu` reads them and that ncu's request counts equal the ones the
# camping suite records for the same launch.
#   camping-read-column-4224.csv  camping/read, camped in DRAM column order (pitch 4224), 4 B, 64 warps
#   transpose-coalesced.csv       camping/transpose_coalesced (the SDK's transposeCoalesced), 32 warps
# GB_NCU_EXPORT_DIR: where the exports go (default: a temporary directory,
# removed at exit). To commit them: GB_NCU_EXPORT_DIR=tests/data/ncu/recorded
# bash tests/device/ncu_export.sh, then git add that directory.
# Needs ncu (Nsight Compute) on PATH with access to the GPU's counters.
. "$(dirname "$0")/lib.bash"
src=${GB_SRC:-$(cd "$(dirname "$0")/../.." && pwd)}
dir=${GB_NCU_EXPORT_DIR:-$out/ncu}
mkdir -p "$dir"
command -v ncu >/dev/null || { echo "FAIL: ncu not found on PATH (Nsight Compute is needed)"; exit 1; }
METRICS=l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum,l1tex__t_requests_pipe_lsu_mem_global_op_st.sum
METRICS+=,l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum,l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum
METRICS+=,smsp__sass_inst_executed_op_global_ld.sum,smsp__sass_inst_executed_op_global_st.sum
METRICS+=,launch__block_size,launch__grid_size,launch__registers_per_thread
METRICS+=,launch__shared_mem_per_block_dynamic,launch__shared_mem_per_block_static,gpu__time_duration.sum
MODEL="$src/data/h200/camping-2026-11-21/campprof-model.json"
fail=0 n=0

# record NAME KERNEL BENCH SETS...: profiles the first launch of KERNEL in a
# quick run of BENCH; the export is ncu's own output file, untouched.
record() {
    local name=$1 kernel=$2 bench=$3
    shift 3
    local args=(ncu --csv --page raw --metrics "$METRICS" -k "regex:^$kernel\$" -c 1 --clock-control none
                --log-file "$dir/$name.csv"
                "$GPUBOUND" run "$bench" --quick --no-report --max-time 0.1 "$@" --out "$out/run-$name")
    n=$((n + 1))
    rm -rf "$out/run-$name"
    {
        echo "# Recorded by tests/device/ncu_export.sh on $(date -u +%Y-%m-%dT%H:%M:%SZ); the export beside this file is ncu's unedited output."
        echo "# gpubound $("$GPUBOUND" --version 2>&1 | head -n 1); $(ncu --version 2>&1 | tail -n 1)"
        echo "# GPU: $(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader 2>/dev/null | head -n 1)"
        printf '%q ' "${args[@]}" | sed "s|$GPUBOUND|gpubound|; s|$out/run-$name|RUN_DIR|"
        echo
    } >"$dir/$name.command"
    if ! "${args[@]}" >"$out/$name.stdout" 2>"$out/$name.stderr"; then
        echo "FAIL: ncu failed for $name: $(tail -n 2 "$out/$name.stderr" | tr '\n' ' ')"; fail=$((fail + 1)); return 1
    fi
    # camp predict reads it: one launch, its loads (and stores) named.
    if "$GPUBOUND" camp predict --model "$MODEL" --from-ncu "$dir/$name.csv" >"$out/$name.predict" 2>"$out/$name.err" &&
        grep -q "loads [1-9][0-9]* requests" "$out/$name.err"; then
        echo "ok: $name read by camp predict --from-ncu: $(grep -m1 'loads' "$out/$name.err")"
    else
        echo "FAIL: camp predict --from-ncu $dir/$name.csv: $(tail -n 1 "$out/$name.err")"; fail=$((fail + 1)); return 1
    fi
}

# The recorded counts of the camping point equal ncu's for the same launch.
same_counts() {
    python3 - "$dir/$1.csv" "$out/run-$1/results.json" <<'PY' || { echo "FAIL: $1: ncu's counts differ from the run's"; fail=$((fail + 1)); }
import csv, json, sys
rows = [r for r in csv.reader(open(sys.argv[1])) if r and r[0] not in ("", "ID") and not r[0].startswith("==")]
hdr = next(r for r in csv.reader(open(sys.argv[1])) if r and r[0] == "ID")
ncu = dict(zip(hdr, rows[0]))
num = lambda k: float(ncu[k].replace(",", ""))
rec = [r for r in json.load(open(sys.argv[2])) if r["status"] == "ok"][0]["metrics"]
pairs = [("l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum", sum(rec["ld_req_%d" % w] for w in (2, 4, 8, 16))),
         ("l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum", rec["ld_sectors"])]
for k, want in pairs:
    print("  %s: ncu %g, run %g" % (k, num(k), want))
    if num(k) != want:
        sys.exit(1)
PY
}

record camping-read-column-4224 camp_read camping/read --set pattern=camped --set camp_pitch=4224 \
    --set width=4 --set warps=64 && same_counts camping-read-column-4224
record transpose-coalesced camp_transpose_coalesced camping/transpose_coalesced --set warps=32
echo "exports in $dir"
echo "$((n - fail)) passed, $fail failed"
exit $((fail > 0))
