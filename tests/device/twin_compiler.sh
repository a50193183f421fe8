# twin_compiler.sh (device): the corpus kernels whose time depends on the
# compiler (the tiled and register-blocked SGEMMs, the look-back scan:
# docs/measurement.md, "The compiler") against their plain twins built by
# nvcc (scripts/device/twins.sh): gpubound's default median against the
# twin's own kernel time (Nsight Compute's gpu__time_duration). Fails when
# a point differs by more than 2%, when either side did not measure it, or
# when the default did not build the kernels with nvcc. Needs nvcc and ncu.
. "$(dirname "$0")/lib.bash"
src=${GB_SRC:-$(cd "$(dirname "$0")/../.." && pwd)}
export PATH="$PATH:${CUDA_HOME:-/usr/local/cuda}/bin"
command -v nvcc >/dev/null || { echo "FAIL: nvcc not found: the twins are built with the CUDA toolkit's nvcc"; exit 1; }
command -v "${NCU:-ncu}" >/dev/null || { echo "FAIL: ncu not found (set NCU): it times the twins' kernels"; exit 1; }
GB_TWINS_KERNELS="gemm scan" GB_TWINS_BUDGET_S=150 bash "$src/scripts/device/twins.sh" "$GPUBOUND" "$out/tw" >"$out/log" 2>&1 ||
    { echo "FAIL: scripts/device/twins.sh failed"; tail -n 5 "$out/log"; exit 1; }
python3 - "$out/tw/corpus-twins.tsv" "$out/tw/raw" <<'PY'
import json, sys
rows = [l.rstrip("\n").split("\t") for l in open(sys.argv[1])]
head, rows = rows[0], rows[1:]
col = {n: i for i, n in enumerate(head)}
bad = n_ok = 0
for k in ("gemm", "scan"):
    compiler = json.load(open(f"{sys.argv[2]}/gb-{k}/run.json")).get("cuda", {}).get("compiler", "")
    if not compiler.startswith("nvcc "):
        print(f"FAIL: {k}: gpubound's default built the kernels with '{compiler}', not nvcc")
        bad += 1
for r in rows:
    g, t, gap = r[col["gpubound_ms"]], r[col["twin_ncu_ms"]], r[col["gap_pct"]]
    if not g or not t or not gap:
        print(f"FAIL: {r[0]}: no median from {'gpubound' if not g else 'the twin'} ({r[col['status']]})")
        bad += 1
        continue
    ok = abs(float(gap)) <= 2.0
    bad += not ok
    n_ok += ok
    print(f"{'ok  ' if ok else 'FAIL'} {r[0]}: gpubound {g} ms, plain program {t} ms ({float(gap):+.2f}%, limit 2%)")
print(f"{n_ok} of {len(rows)} points within 2% of the plain program")
sys.exit(1 if bad or not rows else 0)
PY
