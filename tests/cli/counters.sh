#!/usr/bin/env bash
# Counters on the CPU side: bad metric names give one line and exit 2
# before any GPU work; without a GPU, profile and camp detect exit 3;
# counters in results.json load back (camp predict --from-point reads them)
# and out-of-range or misnamed counters are refused with one line.
. "$(dirname "$0")/lib.bash"
SRC=${GB_SRC:-$(cd "$(dirname "$0")/../.." && pwd)}
MODEL=$SRC/data/h200/camping-2026-11-21/campprof-model.json

expect 2 "profile: --metrics: bad metric name: 'BAD'" profile camping/read --metrics dram__sectors_read.sum,BAD
expect 2 "not an Nsight Compute metric name" profile camping/read --metrics foo__bar.sum
expect 2 "profile: expected a suite" profile
expect 2 "run: --counters: bad metric name" run bandwidth/read --counters=dram__x..sum --out "$TMP/never"
[ -e "$TMP/never" ] && bad "run --counters with a bad name made $TMP/never" || ok
expect 2 "detect: expected a suite/bench" camp detect
expect 2 "unknown suite|no suite" profile nosuchsuite
if has_gpu; then
    skip 2 "the no-GPU exits (this machine has a GPU)"
else
    expect 3 "profile needs an NVIDIA GPU" profile camping/read --set pattern=camped --set width=4 --set warps=64
    expect 3 "camp detect profiles on an NVIDIA GPU" camp detect transpose/naive --quick
fi

# A camping run whose camped point (width 4, 64 warps) carries counters.
need_python3 || { finish; exit; }
cp -r "$SRC/tests/data/runs/camping-fixture" "$TMP/run"
inject() {  # inject VALUE-OF-SMSP NAME-EXTRA
    python3 - "$TMP/run/results.json" "$1" "$2" <<'PY'
import json, sys
path, v, extra = sys.argv[1], float(sys.argv[2]), sys.argv[3]
lines = open(path).read().split('\n')
for i, l in enumerate(lines):
    s = l.strip()
    if not s.startswith('{'):
        continue
    comma = s.endswith(',')
    r = json.loads(s.rstrip(','))
    a = r['axes']
    if r['bench'] == 'read' and a.get('width') == '4' and a.get('warps') == '64' and a.get('pattern') == 'camped':
        r['counters'] = {"smsp__inst_executed.sum": v,
                         "l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum": 8650752,
                         "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum": 34603008,
                         "l1tex__t_requests_pipe_lsu_mem_global_op_st.sum": 0,
                         "l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum": 0,
                         "lts__t_sectors.sum": [0, 34603008, 0, 0]}
        if extra:
            r['counters'][extra] = 1
        lines[i] = json.dumps(r, separators=(',', ':')) + (',' if comma else '')
open(path, 'w').write('\n'.join(lines))
PY
}
inject 123 ""
POINT="$TMP/run:camping/read:width=4,warps=64,pattern=camped"
expect 0 "global loads: 4 B x 8650752" camp predict --model "$MODEL" --from-point "$POINT" --warps 64
expect 0 "" camp predict --model "$MODEL" --from-point "$POINT" --warps 64 --format csv
expect 2 "names 2 records" camp predict --model "$MODEL" --from-point "$TMP/run:camping/read:width=4,warps=64" --warps 64
expect 1 "has no counters" camp predict --model "$MODEL" --from-point "$TMP/run:camping/read:width=4,warps=64,pattern=spread" --warps 64
expect 2 "one of --gld/--gst, --from-ncu and --from-point" camp predict --model "$MODEL" --from-point "$POINT" --gld 4:1 --warps 64
cp -r "$TMP/run" "$TMP/run-good"
inject -5 ""
expect 1 "counters.smsp__inst_executed.sum = -5: allowed numbers 0 to" camp predict --model "$MODEL" --from-point "$POINT" --warps 64
rm -rf "$TMP/run" && cp -r "$TMP/run-good" "$TMP/run"
inject 1 "Not__ok.sum"
expect 1 "Not__ok.sum" camp predict --model "$MODEL" --from-point "$POINT" --warps 64
finish
