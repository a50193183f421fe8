#!/usr/bin/env bash
# Hostile inputs (issue 26): one crafted file per class of fault, each with
# the one-line message and exit code it must give; and failed report, camp fit
# and camp validate commands leave their run directories byte-identical.
source "$(dirname "$0")/lib.bash"
cd "$TMP" || exit 1   # a report without --out writes runs/NAME-report here
BW="$GB_SRC/tests/data/runs/bandwidth-fixture"
CAMP="$GB_SRC/tests/data/runs/camping-fixture"
MODEL="$GB_SRC/data/h200/camping-2026-11-21/campprof-model.json"

# A copy of run FIXTURE as $TMP/NAME with sed EXPR applied to FILE.
craft() { # craft NAME FIXTURE FILE SED_EXPR
    rm -rf "$TMP/$1"
    cp -r "$2" "$TMP/$1"
    rm -rf "$TMP/$1/report"
    sed -i -e "$4" "$TMP/$1/$3"
}
# The hash of every file under DIR, names included.
tree_hash() { (cd "$1" && find . -type f -print0 | sort -z | xargs -0 sha256sum | sha256sum); }
# expect_warn PATTERN ARGS...: exit 0 and a "warning:" line matching PATTERN.
expect_warn() {
    local pat=$1
    shift
    run_gb "$@"
    if [ "$RC" != 0 ]; then bad "gpubound $* exited $RC, expected 0 with a warning"; return; fi
    printf '%s\n' "$ERR" | grep -Eq -- "^warning: .*$pat" && ok || bad "gpubound $*: no warning matching '$pat'"
}

# ---- model files: ranges of the device limits and coefficients ----
sed 's/"max_threads_per_sm": 2048/"max_threads_per_sm": 2147483647/' "$MODEL" >"$TMP/m-threads.json"
expect 1 'm-threads.json: \$\.device\.max_threads_per_sm = 2147483647: allowed integers 0 to 8192' \
    camp predict --model "$TMP/m-threads.json" --gld 4:1 --warps 4
# 2^38 + 2048 must not read as 2048.
sed 's/"max_threads_per_block": 1024/"max_threads_per_block": 274877908992/' "$MODEL" >"$TMP/m-wrap.json"
expect 1 'max_threads_per_block = 274877908992: allowed integers 0 to 4096' \
    camp predict --model "$TMP/m-wrap.json" --gld 4:1 --warps 4
sed 's/"warp_size": 32/"warp_size": -32/' "$MODEL" >"$TMP/m-warp.json"
expect 1 'warp_size = -32: allowed integers 0 to 64' camp predict --model "$TMP/m-warp.json" --gld 4:1 --warps 4
sed '0,/"estimate": [0-9.e+-]*/s//"estimate": 1e300/' "$MODEL" >"$TMP/m-coef.json"
expect 1 'terms\[0\]\.estimate = 1(\.0+1)?e\+300: allowed numbers -1000000000 to 1000000000' \
    camp predict --model "$TMP/m-coef.json" --gld 4:1 --warps 4
# Counts too large for a double: an error, not rows of inf.
expect 1 'prediction at 1 warps per SM is not finite' \
    camp predict --model "$MODEL" --gld 4:1e306 --gst 4:1e306 --warps 4

# ---- Nsight Compute exports: every number the band reads held to its range ----
# ncu_field NAME COLUMN VALUE: transpose-raw.csv as $TMP/NAME.csv, COLUMN set to VALUE on every launch.
ncu_field() {
    python3 - "$GB_SRC/tests/data/ncu/transpose-raw.csv" "$TMP/$1.csv" "$2" "$3" <<'PY'
import csv, sys
src, dst, col, val = sys.argv[1:]
rows = list(csv.reader(open(src)))
h = next(i for i, r in enumerate(rows) if "Kernel Name" in r)
g = rows[h].index(col)
for r in rows[h + 2:]:
    if len(r) > g:
        r[g] = val
csv.writer(open(dst, "w"), lineterminator="\n").writerows(rows)
PY
}
ncu_field grid launch__grid_size "1,000,000,000,000,000,000"
expect 1 'grid.csv: launch 0: launch__grid_size = 1,000,000,000,000,000,000: allowed integers 1 to 70368744177664' \
    camp predict --model "$MODEL" --from-ncu "$TMP/grid.csv" --ncu-id 0
# A duration that is not a time (not a number, <= 0, more than a day, too
# large for a double) is refused, not read as "no measured time".
DUR='allowed numbers 1 to 86400000000000 \(a launch.s duration in ns'
for v in nan -5 0 1e999 100,000,000,000; do
    ncu_field dur gpu__time_duration.sum "$v"
    expect 1 "dur.csv: launch 0: gpu__time_duration.sum = $v usecond: $DUR" \
        camp predict --model "$MODEL" --from-ncu "$TMP/dur.csv" --ncu-id 0
done
# "n/a" is what ncu writes where a metric does not apply: no measured time.
ncu_field dur gpu__time_duration.sum n/a
expect 0 "" camp predict --model "$MODEL" --from-ncu "$TMP/dur.csv" --ncu-id 0
printf '%s\n' "$OUT" | grep -q "measured:" && bad "an n/a duration gave a measured time" || ok
# Counts: at most 1e15 requests or instructions a launch; thousands grouped
# only as ncu groups them ("1,,2" is not 12).
LD=l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum
for v in 1e300 1,,2 2,0971,52 1,2345 0x10; do
    ncu_field req $LD "$v"
    expect 1 "req.csv: launch 0: $LD = $v request: allowed numbers 0 to 1000000000000000 \(requests or instructions" \
        camp predict --model "$MODEL" --from-ncu "$TMP/req.csv" --ncu-id 0
done
ncu_field req $LD "2,097,152"
expect 0 "" camp predict --model "$MODEL" --from-ncu "$TMP/req.csv" --ncu-id 0
printf '%s\n' "$ERR" | grep -q "loads 2097152 requests" && ok || bad "2,097,152 does not read as 2097152"
# The instruction count stands in for requests that are "n/a", held to the same range.
ncu_field inst smsp__sass_inst_executed_op_global_st.sum -1
sed -i 's/"2,097,152","2,097,152","8,388,608"/"2,097,152","n\/a","8,388,608"/' "$TMP/inst.csv"
expect 1 "inst.csv: launch 0: smsp__sass_inst_executed_op_global_st.sum = -1 inst: allowed numbers 0 to" \
    camp predict --model "$MODEL" --from-ncu "$TMP/inst.csv" --ncu-id 0
ncu_field sect l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum "8,388,608x"
expect 1 "sect.csv: launch 0: l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum = 8,388,608x sector: allowed numbers 0 to 1e\+18 \(a hardware counter" \
    camp predict --model "$MODEL" --from-ncu "$TMP/sect.csv" --ncu-id 0
ncu_field regs launch__registers_per_thread 1.5
expect 1 "regs.csv: launch 0: launch__registers_per_thread = 1.5 register/thread: allowed integers 0 to 1024" \
    camp predict --model "$MODEL" --from-ncu "$TMP/regs.csv" --ncu-id 0

# ---- runs: ranges and consistency ----
craft neg "$BW" results.json '2s/"samples":40/"samples":-5/'
expect 1 'results.json: \$\[0\]\.samples = -5: allowed integers 0 to 1000000000' report "$TMP/neg" --out "$TMP/o"
craft wrapint "$BW" results.json '2s/"samples":40/"samples":274877908992/'
expect 1 '\$\[0\]\.samples = 274877908992: allowed integers' report "$TMP/wrapint" --out "$TMP/o"
craft ci "$BW" results.json '2s/"ci_lo":99156.0296121516/"ci_lo":99999.0/'
expect 1 'results.json: \$\[0\]\.time_ns\.ci_lo = 99999 > ci_hi = 99635.96.*reversed' report "$TMP/ci" --out "$TMP/o"
craft dup "$BW" results.json '3s/"width":"8"/"width":"4"/'
expect 1 'results.json: \$\[1\] repeats the point of \$\[0\].*recorded twice' report "$TMP/dup" --out "$TMP/o"
craft inf "$BW" results.json '2s/"median":99364.695472644147/"median":0/;2s/"min":98967.236690753576/"min":0/;2s/"ci_lo":99156.0296121516/"ci_lo":0/'
expect 1 'median = 0 with 269516800 bytes: GB/s would be infinite' report "$TMP/inf" --out "$TMP/o"
craft peak "$BW" run.json 's/"mem_peak_gbs": 3352.3200000000002/"mem_peak_gbs": 1e-320/'
expect 1 '% of peak = .* is not finite' report "$TMP/peak" --out "$TMP/o"
craft gbs "$BW" results.json '2s/"bw_gbs":2712.4000000000001/"bw_gbs":9999.0/'
expect_warn 'results.json: \$\[0\]\.bw_gbs = 9999 does not follow from bytes / median = 2712.4' \
    report "$TMP/gbs" --out "$TMP/gbs-report"
grep -q 'bw\\_gbs = 9999 does not follow' "$TMP/gbs-report/report.md" && ok || bad "the warning is not in report.md"
craft count "$BW" results.json '5,8d'
expect_warn 'run.json declares 19 measured and 1 failed points .* holds 15 and 1' report "$TMP/count" --out "$TMP/o"
craft width "$BW" results.json '2s/"width":"4"/"width":"-7"/'
expect_warn '\$\[0\]\.axes\.width = "-7" is outside the suite.s domain \(an integer from 4 to 16\)' \
    report "$TMP/width" --out "$TMP/o"
craft garbage "$BW" results.json '2s/"bytes":"256M"/"bytes":"garbage"/'
expect_warn 'axes\.bytes = "garbage" is outside the suite.s domain' report "$TMP/garbage" --out "$TMP/o"
# Metrics past the 24th are kept.
python3 - "$BW/results.json" "$TMP/m30.json" <<'PY'
import json, sys
recs = json.load(open(sys.argv[1]))
recs[0]["metrics"] = {"m%02d" % i: float(i) for i in range(30)}
open(sys.argv[2], "w").write("[\n" + ",\n".join(json.dumps(r) for r in recs) + "\n]\n")
PY
craft metrics "$BW" run.json ''
cp "$TMP/m30.json" "$TMP/metrics/results.json"
run_gb report "$TMP/metrics" --out "$TMP/o" --format csv
[ "$RC" = 0 ] && head -1 <<<"$OUT" | grep -q 'm29' && ok || bad "metric m29 of 30 is not in the summary"

# ---- runs: files that are not what they say ----
craft isdir "$BW" run.json ''
rm "$TMP/isdir/results.json" && mkdir "$TMP/isdir/results.json"
expect 1 'isdir/results.json: it is a directory' report "$TMP/isdir" --out "$TMP/o"
craft zero "$BW" run.json ''
rm "$TMP/zero/results.json" && ln -s /dev/zero "$TMP/zero/results.json"
expect 1 'zero/results.json: not a regular file' report "$TMP/zero" --out "$TMP/o"
# A damaged last record is corruption; a file that ends mid-record is a cut.
craft damaged "$BW" results.json '$d'
sed -i '$s/.*/{"suite":"bandwidth","bench":"read","axes":{"wid/' "$TMP/damaged/results.json"
expect 1 'damaged/results.json:21:[0-9]+: a damaged record' report "$TMP/damaged" --out "$TMP/o"
craft cut "$BW" results.json '$d'
sed -i '$s/.*/{"suite":"bandwidth","bench":"read","axes":{"wid/' "$TMP/cut/results.json"
truncate -s -1 "$TMP/cut/results.json" # no newline: the file ends mid-record
run_gb report "$TMP/cut" --out "$TMP/cut-report"
[ "$RC" = 0 ] && grep -q "did not end normally" <<<"$ERR" && ok || bad "a cut run is not reported as cut (rc $RC)"

# ---- nothing destroyed that the command did not make ----
# A '%' in an axis value reaches gnuplot's tic labels as text.
craft pct "$GB_SRC/tests/data/runs/ubench-fixture" results.json 's/"cols":"2"/"cols":"2%d"/g'
run_gb report "$TMP/pct" --out "$TMP/pct-report" --charts 'shape-ubench1-large-default'
[ "$RC" = 0 ] && grep -q "'2%%d'" "$TMP/pct-report/shape-ubench1-large-default.gp" && ok ||
    bad "a '%' in an axis value broke the report or reached gnuplot as a format (rc $RC)"
# A report that fails on a later chart leaves RUN/report as it was.
craft fail "$BW" run.json ''
"$GPUBOUND" report "$TMP/fail" >/dev/null 2>&1
mkdir -p "$TMP/bin"
cat >"$TMP/bin/gnuplot" <<EOF
#!/bin/sh
case "\$1" in *flat*) echo 'gnuplot: boom' >&2; exit 1 ;; esac
exec "$(command -v gnuplot || echo /bin/false)" "\$@"
EOF
chmod +x "$TMP/bin/gnuplot"
before=$(tree_hash "$TMP/fail")
PATH="$TMP/bin:$PATH" run_gb report "$TMP/fail"
[ "$RC" = 1 ] && [ "$(tree_hash "$TMP/fail")" = "$before" ] && ok ||
    bad "a failed report changed its run directory (rc $RC)"
# A cut run does not replace the recorded report, model or validation.
craft shrink "$CAMP" run.json ''
"$GPUBOUND" camp fit "$TMP/shrink" --form paper --out "$TMP/shrinkfit" >/dev/null 2>&1
"$GPUBOUND" camp validate --model "$TMP/shrinkfit/campprof-model.json" "$TMP/shrink" >/dev/null 2>&1
"$GPUBOUND" report "$TMP/shrink" >/dev/null 2>&1
sed -i '3,10d' "$TMP/shrink/results.json" # eight records fewer
sed -i 's/"complete": true/"complete": false/' "$TMP/shrink/run.json"
before=$(tree_hash "$TMP/shrink")
before_fit=$(tree_hash "$TMP/shrinkfit")
expect 1 'campprof-model.json was fitted on [0-9]+ observations and this fit has [0-9]+; it is not replaced' \
    camp fit "$TMP/shrink" --form paper --out "$TMP/shrinkfit"
[ "$(tree_hash "$TMP/shrinkfit")" = "$before_fit" ] && ok || bad "a refused fit changed its --out directory"
expect 1 'report.md was made from [0-9]+ points and .* now holds [0-9]+; it is not replaced \(--force' \
    report "$TMP/shrink"
[ "$(tree_hash "$TMP/shrink")" = "$before" ] && ok || bad "a refused fit or report changed the run directory"
# camp validate on an application it cannot use: exit 1, nothing rewritten.
craft badapp "$CAMP" run.json ''
"$GPUBOUND" camp validate --model "$MODEL" "$TMP/badapp" >/dev/null 2>&1
# The last application's records count no instruction: the model cannot time them.
sed -i '/"bench":"transpose_diagonal"/{s/"ld_req_4":2097152.0/"ld_req_4":0.0/;s/"st_req_4":2097152.0/"st_req_4":0.0/}' \
    "$TMP/badapp/results.json"
before=$(tree_hash "$TMP/badapp")
run_gb camp validate --model "$MODEL" "$TMP/badapp"
[ "$RC" = 1 ] && [ "$(tree_hash "$TMP/badapp")" = "$before" ] && ok ||
    bad "a failed camp validate exited $RC or changed the run directory"

# ---- charts.json: a switch read as a switch ----
cp -r "$GB_SRC/data/h200/bandwidth-2026-11-23-a" "$TMP/charts"
python3 - "$TMP/charts/charts.json" <<'PY'
import json, sys
j = json.load(open(sys.argv[1]))
j["suites"][0]["charts"][0]["log_y"] = 2**38 + 1   # was read as 1 through an int cast
json.dump(j, open(sys.argv[1], "w"))
PY
before=$(tree_hash "$TMP/charts")
expect 1 'charts.json: chart "[a-z-]+"\.log_y = 274877906945: allowed integers 0 to 1' report "$TMP/charts"
[ "$(tree_hash "$TMP/charts")" = "$before" ] && ok || bad "a refused charts.json changed the run directory"

# ---- command-line values through the same range table ----
expect 2 'predict: --smem needs an integer from 0 to 16777216 \(bytes of shared memory\), not .274877908992.' \
    camp predict --model "$MODEL" --gld 4:100 --gst 4:100 --threads 256 --regs 16 --smem 274877908992
expect 2 'predict: --grid needs an integer from 1 to 70368744177664 \(blocks per grid, at most 2\^46\)' \
    camp predict --model "$MODEL" --gld 4:100 --gst 4:100 --threads 256 --regs 16 --smem 0 --grid 1e18
expect 2 '--device needs an integer from 0 to 1023 \(a device ordinal\), not .4294967296.' info --device 4294967296

# ---- leftovers of a killed command ----
# A command killed mid-write leaves its stage (.gb-stage.PID.HOST*); the next
# command writing there removes those of dead processes of this host, and
# leaves a live writer's alone (tests/cli/outputs.sh plants links there).
host_tag=$(python3 -c 'import socket
h=2166136261
for c in socket.gethostname().encode(): h=((h^c)*16777619)&0xffffffff
print("%06x"%(h&0xffffff))')
dead=$(sh -c 'echo $$')
mkdir -p "$TMP/killed"
mkdir "$TMP/killed/.gb-stage.$dead.${host_tag}AbC123" "$TMP/killed/.gb-stage.$$.${host_tag}LiVe12"
echo half >"$TMP/killed/.gb-stage.$dead.${host_tag}AbC123/report.md"
echo half >"$TMP/killed/.gb-stage.$$.${host_tag}LiVe12/report.md"
run_gb report "$CAMP" --out "$TMP/killed/report-again"
[ "$RC" = 0 ] && [ ! -e "$TMP/killed/.gb-stage.$dead.${host_tag}AbC123" ] && ok ||
    bad "a dead command's stage was left behind (exit $RC)"
[ -f "$TMP/killed/.gb-stage.$$.${host_tag}LiVe12/report.md" ] && ok || bad "a live command's stage was removed"
mkdir -p "$TMP/tmpfile/.gb-stage.$dead.${host_tag}dEaD12" "$TMP/tmpfile/.gb-stage.$$.${host_tag}LiVe12"
run_gb camp fit "$CAMP" --model "$TMP/tmpfile/model.json"
[ "$RC" = 0 ] && [ ! -e "$TMP/tmpfile/.gb-stage.$dead.${host_tag}dEaD12" ] &&
    [ -d "$TMP/tmpfile/.gb-stage.$$.${host_tag}LiVe12" ] && ok ||
    bad "stale stages beside --model FILE: exit $RC; the dead writer's must go and the live one's stay"

# ---- kernel specs: inputs inside their spec, values in range ----
S="$TMP/spec"
mkdir -p "$S/sub"
printf 'extern "C" __global__ void k(float *y, const float *x, long s) { }\n' >"$S/k.cu"
printf abc >"$S/three.bin"
head -c 4096 /dev/zero >"$S/four.bin"
ln -s /etc/passwd "$S/out.bin"
ln -s /etc "$S/sub/etc"
mkfifo "$S/fifo.bin"
# mkspec NAME [X_INIT_JSON] [S_TYPE S_VALUE] [REFERENCE_JSON] [VALUES] [GRID] [RESTRICTION]: a spec in $S
# (GRID and RESTRICTION as "py:EXPR" are made by Python).
printf '#!/bin/sh\nexec timeout 20 "%s" "$@"\n' "$GPUBOUND" >"$TMP/gb-timeout"
chmod +x "$TMP/gb-timeout"
mkspec() {
    python3 - "$S/$1.json" "${2:-}" "${3:-long}" "${4:-1}" "${5:-}" "${6:-[1024]}" "${7:-ceil(n / 256)}" "${8:-}" <<'PY'
import json, sys
path, init, st, sv, ref, values, grid, restr = sys.argv[1:9]
# "py:EXPR": a text too long for a command line, made here.
grid, restr = [eval(t[3:]) if t.startswith("py:") else t for t in (grid, restr)]
x = {"name": "x", "type": "float", "count": "n"}
if init:
    x["init"] = json.loads(init)
b = {"name": "b", "kernel": "k", "axes": [{"name": "n", "values": json.loads(values)}], "grid": [grid],
     "block": [256], "args": [{"name": "y", "type": "float", "count": "n", "output": True}, x,
                              {"name": "s", "type": st, "value": sv}]}
if ref:
    b["reference"] = json.loads(ref)
if restr:
    b["restrictions"] = [restr]
json.dump({"suite": "hostile", "source": "k.cu", "benches": [b]}, open(path, "w"))
PY
}
if need_python3; then
    mkspec shadow '{"file": "/etc/shadow"}'
    expect 2 'shadow.json: benches\[0\]\.args\[1\]\.init\.file: "/etc/shadow" is not a file inside the spec.s directory' \
        run "$S/shadow.json" --out "$TMP/o"
    mkspec up '{"file": "../../../etc/passwd"}'
    expect 2 'init\.file: "\.\./\.\./\.\./etc/passwd" is not a file inside' run "$S/up.json" --out "$TMP/o"
    mkspec link '{"file": "out.bin"}'
    expect 2 'init\.file: "out\.bin" leads outside the spec.s directory \(to /etc/passwd' run "$S/link.json" --out "$TMP/o"
    mkspec linkdir '' long 1 '{"files": {"y": "sub/etc/passwd"}}'
    expect 2 'reference\.files\.y: "sub/etc/passwd" leads outside the spec.s directory' list "$S/linkdir.json"
    # A FIFO is refused by its type, never opened (opening it would hang).
    mkspec fifo '{"file": "fifo.bin"}'
    GPUBOUND="$TMP/gb-timeout" expect 2 'init\.file: cannot read "fifo\.bin": not a regular file' \
        run "$S/fifo.json" --out "$TMP/o"
    mkspec fiforef '' long 1 '{"files": {"y": "fifo.bin"}}'
    GPUBOUND="$TMP/gb-timeout" expect 2 'reference\.files\.y: cannot read "fifo\.bin": not a regular file' \
        list "$S/fiforef.json"
    # Sizes are checked before any GPU work.
    mkspec three '{"file": "three.bin"}'
    expect 2 'init\.file: .*three\.bin holds 3 bytes; x needs 4096 \(1024 float values\) at n=1024' \
        run "$S/three.json" --out "$TMP/o"
    mkspec refsize '' long 1 '{"files": {"y": "four.bin"}}' '[1024, 2048]'
    expect 2 'reference\.files\.y: .*four\.bin holds 4096 bytes; y needs 8192 \(2048 float values\) at n=2048' \
        run "$S/refsize.json" --out "$TMP/o"
    # Scalars and init values in the range of their type.
    mkspec long '' long '2^63'
    expect 2 'args\[2\]\.value: "2\^63" = 9\.223372037e\+18 at n=1024 is not a long \(-2\^63 to 2\^63-1\)' \
        run "$S/long.json" --out "$TMP/o"
    mkspec float '' float 1e300
    expect 2 'args\[2\]\.value: "1e300" = 1e\+300 at n=1024 is not a finite float' run "$S/float.json" --out "$TMP/o"
    mkspec ulong '' ulong -1
    expect 2 'is not a ulong \(0 to 2\^64-1\)' run "$S/ulong.json" --out "$TMP/o"
    mkspec const '{"constant": 1e300}'
    expect 2 'init\.constant: 1e\+300 is not a finite float' list "$S/const.json"
    # A value given twice would be measured twice and the run not read back.
    mkspec twice '' long 1 '' '[64, 128, 64]'
    expect 2 'values: axis n: the value 64 is given twice' list "$S/twice.json"
    mkspec once ''
    expect 2 'axis n: the value 1024 is given twice \(as 1024 and 1024\)' run "$S/once.json" --set n=1024,1024 --out "$TMP/o"
    expect 2 'axis bytes: the value 1024K is given twice \(as 1M and 1024K\)' run bandwidth --set bytes=1M,1024K
    # Expressions: bounded in length and nesting, refused in one line at once.
    mkspec plus '' long 1 '' '[1024]' 'py:"+".join(["n"] * 200000)'
    expect 2 'grid\[0\]: "n\+n\+n.*\.\.\.": longer than 4096 characters \(399999\); split it into defines' \
        list "$S/plus.json"
    mkspec ceil '' long 1 '' '[1024]' 'py:"ceil(" * 20000 + "n" + ")" * 20000'
    expect 2 'grid\[0\]: .*longer than 4096 characters' run "$S/ceil.json" --out "$TMP/o"
    mkspec deep '' long 1 '' '[1024]' 'py:"(" * 65 + "n" + ")" * 65'
    expect 2 'grid\[0\]: .*parentheses nested 65 deep, more than 64' run "$S/deep.json" --out "$TMP/o"
    mkspec chain '' long 1 '' '[1024]' 'ceil(n / 256)' 'py:" && ".join(["n > 1"] * 40000)'
    expect 2 'restrictions\[0\]: .*longer than 4096 characters' list "$S/chain.json"
    expect 2 'restrictions\[0\]: .*longer than 4096 characters' run "$S/chain.json" --out "$TMP/o"
    # A 600 KB spec of expressions each within the bounds: refused in well under a second.
    python3 - "$S/wide.json" <<'PY'
import json, sys
r = " && ".join(["n + 1 > %d" % i for i in range(250)])
b = lambda i: {"name": "b%d" % i, "kernel": "k", "axes": [{"name": "n", "values": [1024]}], "grid": [1],
               "restrictions": [r] * 3, "args": [{"name": "y", "type": "float", "count": "n", "output": True}]}
json.dump({"suite": "wide", "source": "k.cu", "benches": [b(i) for i in range(64)]}, open(sys.argv[1], "w"))
PY
    t0=$(date +%s%N)
    expect 2 'the spec.s expressions make more than 8192 parts' run "$S/wide.json" --out "$TMP/o"
    ms=$((($(date +%s%N) - t0) / 1000000))
    [ "$(stat -c %s "$S/wide.json")" -gt 600000 ] && [ "$ms" -lt 2000 ] && ok ||
        bad "a $(stat -c %s "$S/wide.json")-byte spec took $ms ms to refuse"
fi

# ---- bounds on work ----
expect 2 'bandwidth/read: the run would plan 540000 points .* more than --max-points 100000' \
    run bandwidth --set bytes=1M:90000M:1M
expect 2 'run: --max-points needs an integer from 1 to 1000000, not .100000000.' \
    run bandwidth --max-points 100000000
expect 2 'the run would plan 1080000 points .* more than --max-points 1000000; narrow the --set ranges;' \
    run bandwidth --set bytes=1M:90000M:1M --max-points 1000000
if ! has_gpu; then
    # A large plan: the GPU is looked for before it is built.
    t0=$(date +%s%N)
    expect 3 'no CUDA driver|no GPU|no usable GPU' run bandwidth/read --set bytes=1M:100000M:1M --max-points 1000000 \
        --out "$TMP/big"
    ms=$((($(date +%s%N) - t0) / 1000000))
    [ "$ms" -lt 3000 ] && [ ! -e "$TMP/big" ] && ok || bad "a 600000-point run without a GPU took $ms ms or left $TMP/big"
fi
if ! has_gpu; then
    mkdir -p "$TMP/empty"
    expect 3 '' run bandwidth --quick --out "$TMP/empty"
    [ -d "$TMP/empty" ] && ok || bad "run --out EXISTING_EMPTY_DIR removed the directory"
    expect 3 '' run bandwidth --quick --out "$TMP/made/a/b"
    [ ! -e "$TMP/made" ] && ok || bad "run left the parents it made for --out"
fi
finish
