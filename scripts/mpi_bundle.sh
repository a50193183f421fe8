#!/usr/bin/env bash
# mpi_bundle.sh DIR: copies what a one-host `mpirun` needs from this
# machine's Open MPI (Debian's openmpi-bin and libopenmpi3, with its PMIx)
# into DIR, so that gpubound's fleet runs work on a machine that has no MPI
# installed (the lent GPU machines have only the CUDA driver and toolkit):
#
#   DIR/bin         mpirun (orterun) and orted
#   DIR/lib         libmpi.so.40 and every library it, the launcher and the
#                   plugins need, except the C library itself
#   DIR/<pkglib>    Open MPI's component plugins (those whose libraries are
#                   all here; fabric plugins (UCX, OFI, PSM, verbs) are left
#                   out: one host needs shared memory only)
#   DIR/share       Open MPI's and PMIx's help texts
#   DIR/pmix        PMIx's own plugins
#   DIR/env.sh      `. DIR/env.sh` sets OPAL_PREFIX, PMIX_PREFIX, PATH,
#                   LD_LIBRARY_PATH and the MCA defaults for one host
#
# Open MPI relocates itself through OPAL_PREFIX: every install directory
# under the build's prefix (/usr) is looked up under OPAL_PREFIX instead,
# so the plugins keep their path relative to the prefix. The bundle must
# stay under 40 MiB; the script says its size. docs/fleet.md: how to use it.
set -euo pipefail
DIR=${1:?usage: mpi_bundle.sh DIR}
command -v ompi_info >/dev/null || { echo "mpi_bundle: ompi_info not found (install openmpi-bin)" >&2; exit 1; }

# The awk programs below read their input to the end (no early exit): under
# pipefail, a writer cut off by a closed pipe (SIGPIPE) would fail the
# assignment, and set -e would end the script without a word.
path_of() { ompi_info --path all 2>/dev/null | awk -F': ' -v k="$1" '$1 ~ "^ *"k"$" && !n++ {print $2}'; }
PREFIX=$(path_of Prefix)
PKGLIB=$(path_of Pkglibdir)
PKGDATA=$(path_of Pkgdatadir)
ORTERUN=$(command -v orterun || readlink -f "$(command -v mpirun)")
ORTED=$(command -v orted)
LIBMPI=$(ldconfig -p | awk '$1 == "libmpi.so.40" && !n++ {print $NF}')
[ -n "$PREFIX" ] && [ -d "$PKGLIB" ] && [ -n "$LIBMPI" ] || { echo "mpi_bundle: Open MPI 4 (libmpi.so.40) not found" >&2; exit 1; }
PMIX_LIB=$(readlink -f "$(ldconfig -p | awk '$1 == "libpmix.so.2" && !n++ {print $NF}')" 2>/dev/null || true)
PMIX_ROOT=${PMIX_LIB:+$(dirname "$(dirname "$PMIX_LIB")")}

rm -rf "$DIR"
mkdir -p "$DIR/bin" "$DIR/lib" "$DIR/${PKGLIB#"$PREFIX"/}" "$DIR/share"
DIR=$(cd "$DIR" && pwd)
PLUGDIR="$DIR/${PKGLIB#"$PREFIX"/}"

# The C library and the loader stay the system's; fabric stacks are left out.
SYSTEM='^(libc|libm|libdl|libpthread|librt|libresolv|libutil|ld-linux-x86-64)\.so'
FABRIC='^(libuc[pstm]|libfabric|libpsm|libinfinipath|libibverbs|librdmacm|libefa|libnl-|liboshmem|libcuda)'

deps() { ldd "$1" 2>/dev/null | awk '/=>/ {print $1, $3}'; }
# ok_plugin FILE: every library it needs resolves and is not a fabric's.
ok_plugin() {
    ! ldd "$1" 2>/dev/null | grep -q "not found" && ! deps "$1" | awk '{print $1}' | grep -Eq "$FABRIC"
}

cp -L "$ORTERUN" "$DIR/bin/orterun"
ln -sf orterun "$DIR/bin/mpirun"
ln -sf orterun "$DIR/bin/mpiexec"
cp -L "$ORTED" "$DIR/bin/orted"
kept=0 left=0
for so in "$PKGLIB"/*.so; do
    if ok_plugin "$so"; then cp -L "$so" "$PLUGDIR/"; kept=$((kept + 1)); else left=$((left + 1)); fi
done
for f in "$PKGLIB"/*.la "$PKGLIB"/*.ini; do [ -e "$f" ] && cp -L "$f" "$PLUGDIR/"; done
cp -rL "$PKGDATA" "$DIR/share/openmpi"
rm -f "$DIR/share/openmpi/"*wrapper-data.txt
if [ -n "$PMIX_ROOT" ] && [ -d "$PMIX_ROOT/lib/pmix" ]; then
    mkdir -p "$DIR/pmix/lib/pmix" "$DIR/pmix/share"
    for so in "$PMIX_ROOT"/lib/pmix/*.so; do ok_plugin "$so" && cp -L "$so" "$DIR/pmix/lib/pmix/"; done
    [ -d "$PMIX_ROOT/share/pmix" ] && cp -rL "$PMIX_ROOT/share/pmix" "$DIR/pmix/share/pmix"
fi

# Every library the binaries, libmpi and the kept plugins need.
for f in "$DIR"/bin/orterun "$DIR"/bin/orted "$LIBMPI" "$PLUGDIR"/*.so "$DIR"/pmix/lib/pmix/*.so; do
    if [ -e "$f" ]; then deps "$f"; fi
done | sort -u | while read -r name path; do
    [[ $name =~ $SYSTEM ]] && continue
    [ -e "$DIR/lib/$name" ] || cp -L "$path" "$DIR/lib/$name"
done
cp -L "$LIBMPI" "$DIR/lib/libmpi.so.40"

cat >"$DIR/env.sh" <<'EOF'
# . env.sh: Open MPI from this bundle (scripts/mpi_bundle.sh, docs/fleet.md).
GB_MPI_BUNDLE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
export OPAL_PREFIX=$GB_MPI_BUNDLE
export PMIX_PREFIX=$GB_MPI_BUNDLE/pmix
export PMIX_PKGLIBDIR=$GB_MPI_BUNDLE/pmix/lib/pmix PMIX_PKGDATADIR=$GB_MPI_BUNDLE/pmix/share/pmix
export PATH=$GB_MPI_BUNDLE/bin:$PATH
export LD_LIBRARY_PATH=$GB_MPI_BUNDLE/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
# One host: shared memory between the ranks, no network fabric; the
# launcher may run more ranks than cores, and as root in a container.
export OMPI_MCA_btl=self,vader
export OMPI_MCA_pml=ob1
export OMPI_MCA_osc=^ucx,pt2pt
export OMPI_MCA_rmaps_base_oversubscribe=1
# Containers often have a small /dev/shm: the shared-memory segments go to /tmp.
export OMPI_MCA_btl_vader_backing_directory=/tmp
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
EOF
size=$(du -sb "$DIR" | cut -f1)
echo "mpi_bundle: $DIR: $((size / 1024)) KiB ($kept plugins kept, $left needing a fabric or a missing library left out)"
# The C library stays the target's: it must be at least this version.
if command -v objdump >/dev/null; then
    glibc=$(find "$DIR" -type f \( -name '*.so*' -o -path '*/bin/*' \) -exec objdump -T {} + 2>/dev/null |
        grep -o 'GLIBC_[0-9][0-9.]*' | sort -uV | tail -1)
    echo "mpi_bundle: needs ${glibc:-an unknown} or newer on the target (ldd --version says which it has)"
fi
if [ "$size" -ge $((40 * 1024 * 1024)) ]; then
    echo "mpi_bundle: over the 40 MiB budget" >&2
    exit 1
fi
