# Device tier: the narrow types (half, bfloat16, fp8_e4m3, fp8_e5m2, int8,
# uint8, int16, uint16), tests/data/specs/narrow: for each, a kernel that
# converts values the GPU's generator made and a reference that computes the
# same in float. Compared in the type's own precision (rtol a quarter of a
# unit in the last place for the floating types, integers exact), the
# correct kernel (plant = 0) must verify and the one a unit in the last place
# off (plant = 1, its storage bits + 1; the integers off by one) must fail,
# with the mismatch named.
set -u
: "${GPUBOUND:?}"
src=${GB_SRC:-$(cd "$(dirname "$0")/../.." && pwd)}
out=$(mktemp -d /tmp/gb-narrow-XXXXXX)
trap 'rm -rf "$out"' EXIT
"$GPUBOUND" run "$src/tests/data/specs/narrow/spec.json" --max-time 0.05 --no-report --out "$out/r" \
    >"$out/stdout" 2>"$out/stderr"
rc=$?
echo "narrow types: exit $rc"
tail -n 2 "$out/stderr"
if [ "$rc" != 1 ]; then
    grep -v '^\[' "$out/stderr" | head -5
    echo "FAIL: exit $rc, expected 1 (the planted points fail, the others verify)"
    exit 1
fi
python3 - "$out/r/results.json" <<'PY'
import json, sys
recs = json.load(open(sys.argv[1]))
types = ["half", "bf16", "e4m3", "e5m2", "int8", "uint8", "int16", "uint16"]
seen, bad = {}, []
for r in recs:
    plant = str(r["axes"].get("plant"))
    seen[(r["bench"], plant)] = r["status"]
    why = r.get("reason", "")
    if plant == "0" and r["status"] != "ok":
        bad.append(f"{r['bench']}: the correct kernel is {r['status']}: {why[:200]}")
    if plant == "1" and (r["status"] != "failed" or "output y" not in why):
        bad.append(f"{r['bench']}: the kernel one unit off is {r['status']}: {why[:200]}")
    if plant == "1" and r["status"] == "failed":
        print(f"{r['bench']}: plant=1 caught: {why[:160]}")
for t in types:
    for p in ("0", "1"):
        if (t, p) not in seen:
            bad.append(f"{t} plant={p}: no record")
print("\n".join("FAIL: " + b for b in bad))
print(f"{len(types) - len({b.split(':')[0] for b in bad})} of {len(types)} types: correct verified, one unit off failed")
sys.exit(1 if bad else 0)
PY
r=$?
if [ "$r" = 0 ]; then echo "1 passed, 0 failed"; else echo "0 passed, 1 failed"; exit 1; fi
