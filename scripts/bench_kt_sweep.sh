#!/usr/bin/env bash
# bench_kt_sweep.sh BUILD SITE OUTDIR [EXAMPLE ...]
# bench_kt_sweep.sh --dry OUTDIR
#
# gpubound and Kernel Tuner side by side on one GPU (issue 37, deliverable 6):
# for each example (default: stencil sgemm, the kernel specs of examples/),
# `BUILD/gpubound run examples/NAME/spec.json` sweeps the spec, then, right
# after it, Kernel Tuner 1.5 (CuPy backend, brute force) sweeps the same
# configurations of the same kernels (scripts/bench_kt_sweep.py kt), each
# configuration verified by its answer/atol against the spec's reference
# kernel. SITE is a directory where Kernel Tuner and the dependencies the
# machine lacks were installed from wheels (pip install --target SITE
# .whl/*.whl; docs/measurement.md says which); the machine's python3 brings
# numpy, scipy, pandas and CuPy. Writes OUTDIR/kt_sweep.md: each tool's
# wall time, points and verified points per example, and per configuration
# gpubound's median beside Kernel Tuner's mean of its event-timed launches,
# with their ratio; OUTDIR/gb-NAME (the gpubound runs), OUTDIR/kt-NAME.json.
# --dry runs both sides on a made-up run with stand-in kernel_tuner and cupy
# modules (no GPU, no Kernel Tuner): the check tests/cli/bench_kt_sweep.sh runs.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
src=$(cd "$here/.." && pwd)
if [ "${1:-}" = "--dry" ]; then
    [ $# = 2 ] || { echo "usage: bench_kt_sweep.sh --dry OUTDIR" >&2; exit 2; }
    exec python3 "$here/bench_kt_sweep.py" selftest "$2"
fi
if [ $# -lt 3 ]; then
    echo "usage: bench_kt_sweep.sh BUILD SITE OUTDIR [EXAMPLE ...] (or --dry OUTDIR)" >&2
    exit 2
fi
build=$1 site=$2 out=$3
shift 3
examples=("$@")
[ ${#examples[@]} -gt 0 ] || examples=(stencil sgemm)
gb="$build/gpubound"
[ -x "$gb" ] || { echo "bench_kt_sweep.sh: $gb is not a gpubound binary; build it first (make build)" >&2; exit 2; }
[ -d "$site" ] || { echo "bench_kt_sweep.sh: $site is not a directory of installed wheels" >&2; exit 2; }
export PYTHONPATH="$site${PYTHONPATH:+:$PYTHONPATH}"
python3 -c 'import kernel_tuner, cupy' || { echo "bench_kt_sweep.sh: kernel_tuner or cupy cannot be imported from $site" >&2; exit 1; }
mkdir -p "$out"
now() { date +%s.%N; }
table_args=()
for ex in "${examples[@]}"; do
    spec="$src/examples/$ex/spec.json"
    [ -f "$spec" ] || { echo "bench_kt_sweep.sh: no $spec" >&2; exit 2; }
    t0=$(now)
    "$gb" run "$spec" --no-report --out "$out/gb-$ex" >"$out/gb-$ex.log" 2>&1
    rc=$?
    t1=$(now)
    [ "$rc" = 0 ] || { echo "bench_kt_sweep.sh: gpubound run of $ex exited $rc (see $out/gb-$ex.log)" >&2; exit 1; }
    python3 "$here/bench_kt_sweep.py" kt "$spec" "$out/gb-$ex" "$out/kt-$ex.json" >"$out/kt-$ex.log" 2>&1
    rc=$?
    t2=$(now)
    [ "$rc" = 0 ] || { echo "bench_kt_sweep.sh: Kernel Tuner on $ex exited $rc (see $out/kt-$ex.log)" >&2; exit 1; }
    gb_wall=$(awk "BEGIN { printf \"%.2f\", $t1 - $t0 }") kt_wall=$(awk "BEGIN { printf \"%.2f\", $t2 - $t1 }")
    echo "$ex: gpubound $gb_wall s, Kernel Tuner $kt_wall s"
    table_args+=("$ex" "$out/gb-$ex" "$gb_wall" "$out/kt-$ex.json" "$kt_wall")
done
python3 "$here/bench_kt_sweep.py" table "$out/kt_sweep.md" "${table_args[@]}" && echo "wrote $out/kt_sweep.md"
