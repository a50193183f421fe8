# gpubound run throughput: bad axis values get one line and exit 2 before any
# GPU work, and nothing is left behind; the suite lists its benchmarks.
. "$(dirname "$0")/lib.bash"

expect 2 "axis op: 'nope' is not one of fadd,.*isetp" run throughput/arith --set op=nope --out "$TMP/t1"
[ ! -e "$TMP/t1" ] && ok || bad "a refused run must not create its --out"
expect 2 "axis op: 'FFMA' is not one of" run throughput --set op=ffma,FFMA --out "$TMP/t1"
expect 2 "axis mode: 'both' is not one of tput,lat" run throughput/arith --set mode=both --out "$TMP/t1"
expect 2 "axis ways: value 0 is out of range \(1\.\.32\)" run throughput/smem --set ways=0 --out "$TMP/t1"
expect 2 "axis ways: value 33 is out of range \(1\.\.32\)" run throughput/smem --set ways=1:33 --out "$TMP/t1"
expect 2 "axis ways: 'two' is not an integer" run throughput/smem --set ways=two --out "$TMP/t1"
expect 2 "axis pattern: 'random' is not one of uniform,divergent" run throughput/const --set pattern=random --out "$TMP/t1"
expect 2 "--set ways: no selected benchmark has an axis of that name" run throughput/arith --set ways=2 --out "$TMP/t1"
expect 2 "suite throughput has no benchmark 'fma' \(it has: arith, smem, smem_broadcast, const\)" run throughput/fma --out "$TMP/t1"
[ ! -e "$TMP/t1" ] && ok || bad "a refused run must not create its --out"

expect 0 "throughput/smem_broadcast" list throughput
expect 0 "op += fadd,fmul,ffma" list throughput
finish
