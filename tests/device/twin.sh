# twin.sh (device): gpubound's median of a point against the same kernel's
# in a plain CUDA program (tests/device/twin/twin.cu: cudaMalloc, inputs made
# on the host and copied, <<<>>>, events around each launch, the median), on
# the histogram of issue 45, a triad, an atomic reduction and a tiled SGEMM
# (scripts/twin.sh with GB_TWIN_ROWS=base). Fails when a kernel's two
# medians differ by more than 2%, or when either side did not measure it.
# Needs nvcc (the CUDA toolkit) to build the twin.
. "$(dirname "$0")/lib.bash"
src=${GB_SRC:-$(cd "$(dirname "$0")/../.." && pwd)}
export PATH="$PATH:${CUDA_HOME:-/usr/local/cuda}/bin"
command -v nvcc >/dev/null || { echo "FAIL: nvcc not found: the plain twin is built with the CUDA toolkit's nvcc"; exit 1; }
GB_TWIN_ROWS=base bash "$src/scripts/twin.sh" "$(dirname "$GPUBOUND")" "$out/twin" ||
    { echo "FAIL: scripts/twin.sh failed"; tail -n 3 "$out"/twin/raw/*.err 2>/dev/null; exit 1; }
python3 - "$out/twin/twin.tsv" <<'PY'
import sys
rows = [l.rstrip("\n").split("\t") for l in open(sys.argv[1])][1:]
med = {(r[0], r[2]): float(r[3]) for r in rows if r[3]}
bad = 0
for k in ("hist", "triad", "reduce", "gemm"):
    g, t = med.get((k, "default")), med.get((k, "plain"))
    if g is None or t is None:
        print(f"FAIL: {k}: no median from {'gpubound' if g is None else 'the plain twin'}")
        bad += 1
        continue
    gap = (t - g) / g * 100
    ok = abs(gap) <= 2.0
    bad += not ok
    print(f"{'ok  ' if ok else 'FAIL'} {k}: gpubound {g:.4f} ms, plain program {t:.4f} ms ({gap:+.1f}%, limit 2%)")
print(f"{4 - bad} of 4 kernels within 2% of the plain program")
sys.exit(1 if bad else 0)
PY
