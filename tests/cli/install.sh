#!/usr/bin/env bash
# make install's tree: the binary, libgpubound (static and shared), the public
# headers with the umbrella gpubound.h, gpubound.pc, the CMake package, the man
# pages and bash completion. Staged under a DESTDIR, every file is there; then
# installed to a temporary prefix outside the loader's search path, a
# ten-line C program that uses the occupancy calculator and a spec
# expression (libmatheval) is built through pkg-config, shared and static,
# and both RUN without LD_LIBRARY_PATH.
source "$(dirname "$0")/lib.bash"
BUILD=$(dirname "$GPUBOUND")
DEST="$TMP/stage"
if ! DESTDIR="$DEST" cmake --install "$BUILD" --prefix /opt/gb >"$TMP/install.log" 2>&1; then
    OUT=$(tail -5 "$TMP/install.log"); ERR=""; bad "cmake --install failed"; finish; exit
fi
for f in bin/gpubound lib/libgpubound.a lib/libgpubound.so include/gpubound/occupancy.h \
         include/gpubound/gpubound.h include/gpubound/export.h lib/pkgconfig/gpubound.pc \
         lib/cmake/gpubound/gpubound-config.cmake lib/cmake/gpubound/gpubound-config-version.cmake \
         share/man/man1/gpubound.1 share/man/man1/gpubound-run.1 share/man/man1/gpubound-compare.1 \
         share/bash-completion/completions/gpubound; do
    if [ -e "$DEST/opt/gb/$f" ]; then ok; else OUT=""; ERR=""; bad "not installed: $f"; fi
done
# The umbrella header includes every public header.
for h in "$DEST"/opt/gb/include/gpubound/*.h; do
    h=$(basename "$h")
    [ "$h" = gpubound.h ] && continue
    grep -q "#include \"gpubound/$h\"" "$DEST/opt/gb/include/gpubound/gpubound.h" || { OUT=""; ERR=""; bad "gpubound.h does not include $h"; }
done
ok
PC="$DEST/opt/gb/lib/pkgconfig/gpubound.pc"
# Static links need libmatheval; nothing names the toolkit's directory but the configured one.
if grep -q '^Libs.private:.*-lmatheval' "$PC" && grep -q '^Requires.private:.*gsl' "$PC"; then ok
else OUT=$(cat "$PC"); ERR=""; bad "gpubound.pc: Libs.private lacks -lmatheval or Requires.private gsl"; fi

# A real install to a prefix no loader searches.
PREFIX="$TMP/prefix"
if ! cmake --install "$BUILD" --prefix "$PREFIX" >"$TMP/install2.log" 2>&1; then
    OUT=$(tail -5 "$TMP/install2.log"); ERR=""; bad "cmake --install --prefix $PREFIX failed"; finish; exit
fi
cat >"$TMP/prog.c" <<'C'
#include <stdio.h>
#include <gpubound/gpubound.h>
int main(void) {
    struct gb_device_info dev; struct gb_expr *e; const char *names[] = {"n"}; double n = 3, v;
    struct gb_occupancy_input in = {.threads_per_block = 256, .regs_per_thread = 64}; struct gb_occupancy_result r;
    if (gb_device_from_cc(9, 0, &dev) != GB_OK || gb_occupancy_compute(&dev, &in, &r) != GB_OK) return 1;
    if (gb_expr_parse("2*n*n + 1", names, 1, &e) != GB_OK || gb_expr_eval(e, &n, &v) != GB_OK) return 1;
    gb_expr_free(e);
    printf("%d blocks, occupancy %.2f, 2*n*n + 1 = %g\n", r.active_blocks, r.occupancy, v);
    return 0;
}
C
# 256 threads x 64 registers on compute capability 9.0: 4 blocks, occupancy 0.50.
WANT="4 blocks, occupancy 0.50, 2*n*n + 1 = 19"
export PKG_CONFIG_PATH="$PREFIX/lib/pkgconfig"
unset LD_LIBRARY_PATH
flags=$(pkg-config --cflags --libs gpubound 2>"$TMP/err")
ERR=$(cat "$TMP/err"); OUT="$flags"
if [ -z "$flags" ]; then bad "pkg-config --cflags --libs gpubound gave nothing"; finish; exit; fi
# shellcheck disable=SC2086
if cc -std=c11 -o "$TMP/prog" "$TMP/prog.c" $flags 2>"$TMP/err"; then ok; else ERR=$(cat "$TMP/err"); bad "cc with pkg-config's flags"; fi
OUT=$("$TMP/prog" 2>&1)
if [ "$OUT" = "$WANT" ]; then ok; else ERR=""; bad "the shared program printed '$OUT' (it must start without LD_LIBRARY_PATH)"; fi
if readelf -d "$TMP/prog" | grep -q 'NEEDED.*libgpubound\.so\.0' && readelf -d "$TMP/prog" | grep -q "PATH.*$PREFIX/lib"; then ok
else OUT=$(readelf -d "$TMP/prog" | grep -E 'NEEDED|PATH'); ERR=""; bad "the shared program does not need libgpubound.so.0 through an rpath to $PREFIX/lib"; fi

# Static: libgpubound.a and every library pkg-config --static names.
libdir=$(pkg-config --variable=libdir gpubound)
# shellcheck disable=SC2046
if cc -std=c11 -o "$TMP/prog_static" "$TMP/prog.c" $(pkg-config --cflags gpubound) "$libdir/libgpubound.a" \
      $(pkg-config --static --libs gpubound | sed 's/-lgpubound\b//') 2>"$TMP/err"; then ok
else ERR=$(cat "$TMP/err"); OUT=""; bad "static link of libgpubound.a through pkg-config --static"; fi
OUT=$("$TMP/prog_static" 2>&1)
if [ "$OUT" = "$WANT" ]; then ok; else ERR=""; bad "the static program printed '$OUT'"; fi
if ! readelf -d "$TMP/prog_static" | grep -q 'NEEDED.*libgpubound'; then ok
else OUT=$(readelf -d "$TMP/prog_static" | grep NEEDED); ERR=""; bad "the static program still needs libgpubound.so"; fi
finish
