#!/usr/bin/env bash
# make install's tree: the binary, libgpubound (static and shared), the public
# headers and gpubound.pc, staged under a DESTDIR. pkg-config then compiles and
# links a ten-line C program that calls the library, and it runs.
source "$(dirname "$0")/lib.bash"
BUILD=$(dirname "$GPUBOUND")
DEST="$TMP/stage"
if ! DESTDIR="$DEST" cmake --install "$BUILD" --prefix /opt/gb >"$TMP/install.log" 2>&1; then
    OUT=$(tail -5 "$TMP/install.log"); ERR=""; bad "cmake --install failed"; finish; exit
fi
for f in bin/gpubound lib/libgpubound.a lib/libgpubound.so include/gpubound/occupancy.h \
         lib/pkgconfig/gpubound.pc; do
    if [ -e "$DEST/opt/gb/$f" ]; then ok; else OUT=""; ERR=""; bad "not installed: $f"; fi
done
cat >"$TMP/occ.c" <<'C'
#include <stdio.h>
#include <gpubound/occupancy.h>
int main(void) {
    struct gb_device_info dev;
    struct gb_occupancy_input in = {.threads_per_block = 256, .regs_per_thread = 64};
    struct gb_occupancy_result r;
    if (gb_device_from_cc(9, 0, &dev) != GB_OK || gb_occupancy_compute(&dev, &in, &r) != GB_OK) return 1;
    printf("%d blocks, occupancy %.2f\n", r.active_blocks, r.occupancy);
    return 0;
}
C
export PKG_CONFIG_PATH="$DEST/opt/gb/lib/pkgconfig"
flags=$(pkg-config --cflags --libs gpubound 2>"$TMP/err")
ERR=$(cat "$TMP/err"); OUT="$flags"
if [ -z "$flags" ]; then bad "pkg-config --cflags --libs gpubound gave nothing"; finish; exit; fi
# shellcheck disable=SC2086
if cc -o "$TMP/occ" "$TMP/occ.c" $flags 2>"$TMP/err"; then ok; else ERR=$(cat "$TMP/err"); bad "cc with pkg-config's flags"; fi
OUT=$(LD_LIBRARY_PATH="$DEST/opt/gb/lib" "$TMP/occ" 2>&1)
# 256 threads x 64 registers on compute capability 9.0: 4 blocks, occupancy 0.50.
if [ "$OUT" = "4 blocks, occupancy 0.50" ]; then ok; else bad "the program printed '$OUT'"; fi
# The static library alone, through pkg-config --static.
# shellcheck disable=SC2046
if cc -o "$TMP/occ_static" "$TMP/occ.c" -I"$DEST/opt/gb/include" $(pkg-config --cflags gpubound) \
      "$DEST/opt/gb/lib/libgpubound.a" $(pkg-config --static --libs-only-l gpubound | sed 's/-lgpubound//') \
      2>"$TMP/err" && [ "$("$TMP/occ_static")" = "4 blocks, occupancy 0.50" ]; then ok
else ERR=$(cat "$TMP/err"); bad "static link of libgpubound.a"; fi
finish
