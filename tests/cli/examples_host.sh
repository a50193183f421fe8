# The example kernels (examples/*/*.cu) run on the host through a small CUDA
# emulation (tests/examples/cuda_host.h: real threads per block, barriers,
# warp shuffles, atomics), one configuration at a time, against their
# reference kernels and the plain formulas, with the spec's tolerances: the
# index arithmetic, the bounds and the reduction's last-block hand-off are
# checked without a GPU. Needs g++ (skipped, logged, without it).
set -u
. "$(dirname "$0")/lib.bash"
src=${GB_SRC:-$(cd "$(dirname "$0")/../.." && pwd)}
cxx=${CXX_HOST:-g++}
if ! command -v "$cxx" >/dev/null; then
    skip 13 "no $cxx to build the host emulation"
    exit 0
fi
work=$TMP

# example | axes (-DAX_name=value) : sizes not multiples of the tile, odd
# block sizes, one-thread blocks, the largest blocks.
CASES='
SGEMM_TILED     | block_size_x=1 n=32
SGEMM_TILED     | block_size_x=7 n=64
SGEMM_TILED     | block_size_x=32 n=96
SGEMM_REGBLOCK  | block_size_x=16 block_size_y=4 work_per_thread=8 n=80
SGEMM_REGBLOCK  | block_size_x=64 block_size_y=16 work_per_thread=1 n=64
REDUCTION       | block_size_x=32 elems_per_thread=1 n=777
REDUCTION       | block_size_x=1024 elems_per_thread=16 n=40000
REDUCTION       | block_size_x=64 elems_per_thread=3 n=10000
FFT             | block_size_x=1 n=64 batch=2
FFT             | block_size_x=96 n=256 batch=3
FFT             | block_size_x=512 n=1024 batch=1
STENCIL         | block_size_x=8 block_size_y=32 n=50
STENCIL         | block_size_x=256 block_size_y=1 n=300
'
while IFS='|' read -r ex axes; do
    ex=$(echo $ex)
    [ -n "$ex" ] || continue
    defs="-DEX_$ex"
    for a in $axes; do defs="$defs -DAX_$a"; done
    name="$ex $(echo $axes)"
    # shellcheck disable=SC2086
    if ! "$cxx" -std=c++17 -O1 -pthread -Wall -Wextra -Werror -Wno-unknown-pragmas $defs \
        "$src/tests/examples/host_check.cpp" -o "$work/check" 2>"$work/build.log"; then
        OUT="" ERR=$(head -n 5 "$work/build.log"); bad "$name: does not build on the host"
        continue
    fi
    if out=$("$work/check" 2>&1); then
        ok
    else
        OUT=$out ERR=""; bad "$name: the kernel disagrees"
    fi
done <<<"$CASES"
finish
