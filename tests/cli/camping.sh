# Suite camping: its benchmarks are listed, and every bad axis value gets one
# line and exit 2 before any GPU work, leaving no run directory behind.
. "$(dirname "$0")/lib.bash"

expect 0 "camping/read" list camping
expect 0 "camping/discover" list camping
expect 0 "camping/transpose_diagonal" list camping
expect 0 "warps += 1:16,18:64:2" list camping

expect 2 "axis warps: value 65 is out of range \(1\.\.64\)" run camping/read --set warps=65 --out "$TMP/c1"
[ ! -e "$TMP/c1" ] && ok || bad "a refused run must not create its --out"
expect 2 "axis warps: value 0 is out of range" run camping/gem --set warps=0 --out "$TMP/c2"
expect 2 "axis warps: value 65 is out of range" run camping/clique --set warps=60:65 --out "$TMP/c2"
expect 2 "axis width: '3' is not one of 2,4,8,16" run camping/read --set width=3 --out "$TMP/c2"
expect 2 "axis width: '1' is not one of 2,4,8,16" run camping/write --set width=4,1 --out "$TMP/c2"
expect 2 "axis pattern: 'diagonal' is not one of spread,camped" run camping/write --set pattern=diagonal --out "$TMP/c2"
expect 2 "axis camp_pitch: value -128 is out of range" run camping/read --set camp_pitch=-128 --out "$TMP/c2"
expect 2 "axis pitch: 'x' is not an integer" run camping/discover --set pitch=4K,x --out "$TMP/c2"
expect 2 "axis footprint: value 1K is out of range" run camping/discover --set footprint=1K --out "$TMP/c2"
expect 2 "--set pattern: no selected benchmark has an axis of that name" run camping/gem --set pattern=spread --out "$TMP/c2"
expect 2 "suite camping has no benchmark 'transpose' \(it has: read, write, discover, gem, clique, transpose_coalesced, transpose_diagonal\)" \
    run camping/transpose --out "$TMP/c2"
[ ! -e "$TMP/c2" ] && ok || bad "a refused run must not create its --out"

if ! has_gpu; then
    expect 3 "needs an NVIDIA GPU" run camping --quick --out "$TMP/nogpu"
    [ ! -e "$TMP/nogpu" ] && ok || bad "a run without a GPU must not leave its --out behind"
else
    skip 2 "the no-GPU checks (exit 3, nothing left behind) need a machine without a GPU"
fi
finish
