# scripts/mpi_bundle.sh: the bundle is under 40 MiB, and its mpirun runs a
# 2-rank fleet run with the system's Open MPI hidden (bind mounts in a
# private mount namespace: its libraries, plugins, help files and
# launcher replaced by empty ones), as on a machine without MPI.
. "$(dirname "$0")/lib.bash"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1

if ! command -v ompi_info >/dev/null 2>&1 || ! command -v mpirun >/dev/null 2>&1; then
    skip 5 "Open MPI is not installed (make deps installs openmpi-bin)"
    finish
    exit
fi
if ! bash "$GB_SRC/scripts/mpi_bundle.sh" "$TMP/bundle" >"$TMP/bundle.log" 2>&1; then
    OUT=$(cat "$TMP/bundle.log") ERR=""
    bad "mpi_bundle.sh failed"
    finish
    exit
fi
ok
size=$(du -sb "$TMP/bundle" | cut -f1)
[ "$size" -lt $((40 * 1024 * 1024)) ] && ok || bad "the bundle is $size bytes, over 40 MiB"

if ! unshare -m true 2>/dev/null; then
    skip 3 "no private mount namespace here (unshare -m needs root): the bundle was not run with MPI hidden"
    finish
    exit
fi
cat >"$TMP/hidden.sh" <<'EOS'
set -u
B=$1; shift
empty=$(mktemp -d) efile=$(mktemp)
for d in /usr/lib/x86_64-linux-gnu/openmpi /usr/lib/x86_64-linux-gnu/pmix2 /usr/share/openmpi /etc/openmpi; do
    [ -d "$d" ] && mount --bind "$empty" "$d"
done
for f in /usr/bin/orterun /usr/bin/orted /usr/bin/ompi_info \
    /usr/lib/x86_64-linux-gnu/lib{mpi,open-rte,open-pal,pmix,hwloc,event_core-2.1,event_pthreads-2.1,munge}.so.*; do
    [ -e "$f" ] && mount --bind "$efile" "$(readlink -f "$f")"
done
ldd /usr/lib/x86_64-linux-gnu/openmpi/lib/openmpi3/mca_btl_vader.so >/dev/null 2>&1 && { echo "not hidden"; exit 99; }
. "$B/env.sh"
"$@"
EOS
unshare -m bash "$TMP/hidden.sh" "$TMP/bundle" bash -c 'command -v mpirun' >"$TMP/which" 2>&1
[ "$(cat "$TMP/which")" = "$TMP/bundle/bin/mpirun" ] && ok || { OUT=$(cat "$TMP/which"); bad "mpirun is not the bundle's"; }
unshare -m bash "$TMP/hidden.sh" "$TMP/bundle" timeout 120 mpirun -np 2 "$GPUBOUND" run bandwidth --quick \
    --fleet --no-report --out "$TMP/fleet2" >"$TMP/out" 2>"$TMP/err"
RC=$? OUT=$(cat "$TMP/out") ERR=$(cat "$TMP/err")
if has_gpu; then
    [ "$RC" = 0 ] && ok || bad "a 2-rank fleet run through the bundle exited $RC"
else
    [ "$RC" = 3 ] && ok || bad "a 2-rank fleet run through the bundle without a GPU exited $RC, expected 3"
fi
[ "$(grep -c '"rank": [01],' "$TMP/fleet2/run.json" 2>/dev/null)" = 2 ] && ! grep -q "help file\|Sorry" "$TMP/err" \
    && ok || bad "the bundle's 2-rank run did not gather both ranks cleanly"
finish
