# gpubound run ubench: block shapes outside the paper's list or larger than
# 1024 threads, and unknown sizes or carveouts, are refused with one line and
# exit 2 before any GPU work; the suite is listed with its axes.
. "$(dirname "$0")/lib.bash"

expect 0 "ubench/ubench0" list
expect 0 "ubench/cannon_shifted" list ubench
expect 0 "rows +=.*1,2,3,4,6,8,12,16,24,32,48,64,96,128,192,256,384,512,768,1024" list ubench
expect 2 "axis rows: 5 is not one of 1,2,3,4,6,8" run ubench --set rows=5 --out "$TMP/u1"
[ ! -e "$TMP/u1" ] && ok || bad "a refused run must not create its --out"
expect 2 "axis cols: 5 is not one of" run ubench/ubench3 --set cols=4,5 --out "$TMP/u1"
expect 2 "rows 64 x cols 32 = 2048 threads exceeds 1024 threads per block" \
    run ubench --set rows=64 --set cols=32 --out "$TMP/u1"
expect 2 "rows 1024 x cols 2 = 2048 threads exceeds 1024" run ubench/ubench1 --set rows=1024 --set cols=2 --out "$TMP/u1"
[ ! -e "$TMP/u1" ] && ok || bad "a refused run must not create its --out"
expect 2 "axis cols: value 2048 is out of range" run ubench --set cols=2048 --out "$TMP/u1"
expect 2 "axis rows: range 5:5 holds none of" run ubench --set rows=5:5 --out "$TMP/u1"
expect 2 "axis size: 'huge' is not one of small,medium,large" run ubench --set size=huge --out "$TMP/u1"
expect 2 "axis cache: '48K' is not one of min,default,max" run ubench --set cache=48K --out "$TMP/u1"
if ! has_gpu; then
    # A valid sweep gets as far as the GPU.
    expect 3 "needs an NVIDIA GPU" run ubench/ubench1 --set rows=1:8 --set cols=32 --quick --out "$TMP/u2"
    [ ! -e "$TMP/u2" ] && ok || bad "a run without a GPU must not leave its --out behind"
else
    skip 2 "the no-GPU checks (exit 3, nothing left behind) need a machine without a GPU"
fi
finish
