#!/usr/bin/env bash
# find_package(gpubound) from a temporary install prefix: a CMake project
# links the imported targets gpubound::gpubound (shared) and
# gpubound::gpubound_static, and both programs run; a version the install
# does not satisfy is refused.
source "$(dirname "$0")/lib.bash"
BUILD=$(dirname "$GPUBOUND")
PREFIX="$TMP/prefix"
if ! cmake --install "$BUILD" --prefix "$PREFIX" >"$TMP/install.log" 2>&1; then
    OUT=$(tail -5 "$TMP/install.log"); ERR=""; bad "cmake --install failed"; finish; exit
fi
mkdir -p "$TMP/app"
cat >"$TMP/app/occ.c" <<'C'
#include <stdio.h>
#include <gpubound/gpubound.h>
int main(void) {
    struct gb_device_info dev;
    struct gb_occupancy_input in = {.threads_per_block = 128, .regs_per_thread = 32, .carveout_pct = -1,
                                    .max_dyn_smem_bytes = GB_OCC_MAX_DYN_AS_REQUESTED};
    struct gb_occupancy_result r;
    if (gb_device_from_cc(8, 0, &dev) != GB_OK || gb_occupancy_compute(&dev, &in, &r) != GB_OK) return 1;
    printf("%d warps\n", r.active_warps);
    return 0;
}
C
cat >"$TMP/app/CMakeLists.txt" <<'CM'
cmake_minimum_required(VERSION 3.18)
project(app C)
find_package(gpubound ${WANT_VERSION} REQUIRED)
add_executable(occ occ.c)
target_link_libraries(occ PRIVATE gpubound::gpubound)
add_executable(occ_static occ.c)
target_link_libraries(occ_static PRIVATE gpubound::gpubound_static)
CM
configure() { cmake -S "$TMP/app" -B "$TMP/app/build-$1" -DCMAKE_PREFIX_PATH="$PREFIX" -DWANT_VERSION="$1" >"$TMP/cfg.log" 2>&1; }
if configure 0.1 && cmake --build "$TMP/app/build-0.1" >"$TMP/build.log" 2>&1; then ok
else OUT=$(tail -5 "$TMP/cfg.log"); ERR=$(tail -8 "$TMP/build.log" 2>/dev/null); bad "a find_package(gpubound 0.1) project does not build"; finish; exit; fi
# cc 8.0, 128 threads x 32 registers: 16 blocks of 4 warps, the SM's 64 warps.
for p in occ occ_static; do
    OUT=$(env -u LD_LIBRARY_PATH "$TMP/app/build-0.1/$p" 2>&1)
    if [ "$OUT" = "64 warps" ]; then ok; else ERR=""; bad "$p printed '$OUT'"; fi
done
if readelf -d "$TMP/app/build-0.1/occ_static" | grep -q 'NEEDED.*libgpubound'; then
    OUT=""; ERR=""; bad "occ_static needs libgpubound.so"; else ok; fi
if configure 9.0; then OUT=""; ERR=$(tail -3 "$TMP/cfg.log"); bad "find_package(gpubound 9.0) was satisfied by $("$GPUBOUND" --version)"
elif grep -q 'gpubound' "$TMP/cfg.log"; then ok; else OUT=$(tail -5 "$TMP/cfg.log"); ERR=""; bad "the refusal does not name gpubound"; fi
finish
