# gpubound run transpose: bad axis values are refused with one line and exit 2
# before any GPU work; the suite and its benches are listed.
. "$(dirname "$0")/lib.bash"

expect 0 "transpose/fast" list transpose
expect 0 "design +=.*reg,reg-sq,smem,smem-sq,smem-sq-cs" list transpose
expect 0 "tile +=.*16x16,32x8,48x16" list transpose
expect 2 "suite transpose has no benchmark 'slow' \(it has: copy, dtod, naive, coalesced, padded, diagonal, fast\)" \
    run transpose/slow --out "$TMP/r"
expect 2 "axis tile: '33x8' is not one of 8x8,16x4" run transpose --set tile=33x8 --out "$TMP/r"
expect 2 "axis tile: '32' is not one of" run transpose/padded --set tile=32 --out "$TMP/r"
expect 2 "axis elem: '5' is not one of 4,8,16" run transpose --set elem=5 --out "$TMP/r"
expect 2 "axis shape: 'round' is not one of square,wide,tall" run transpose --set shape=round --out "$TMP/r"
expect 2 "axis design: 'magic' is not one of reg,reg-sq" run transpose/fast --set design=magic --out "$TMP/r"
expect 2 "axis kind: 'dma' is not one of tile,smem,vec,flat" run transpose/copy --set kind=dma --out "$TMP/r"
expect 2 "axis n: value 0 is out of range \(1\.\.65536\)" run transpose --set n=0 --out "$TMP/r"
expect 2 "axis n: value 99999 is out of range" run transpose --set n=4096,99999 --out "$TMP/r"
expect 2 "axis n: 'big' is not an integer" run transpose --set n=big --out "$TMP/r"
expect 2 "--set design: no selected benchmark has an axis of that name" run transpose/padded --set design=reg --out "$TMP/r"
[ ! -e "$TMP/r" ] && ok || bad "a refused run must not create its --out"
finish
