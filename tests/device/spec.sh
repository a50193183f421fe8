# Device tier: kernel spec files. Every examples/*/spec.json and the test
# specs (saxpy; reduce, a C++ template through a name expression and a
# header) run in --quick, every point verified against its reference, with
# the spec's copy and path kept in the run and the per-point metrics of the
# compiled kernel recorded; a second run of the template spec compiles
# nothing (the disk cache keeps the lowered names); the report draws the
# spec's charts; and tests/data/specs/wrong (a kernel that skips its last
# element) fails verification with the mismatch reported and exit 1; and
# tests/data/specs/planted: a planted wrong configuration is still caught by
# the reference kept on the GPU, and two problem sizes keep their own.
set -u
: "${GPUBOUND:?}"
src=${GB_SRC:-$(cd "$(dirname "$0")/../.." && pwd)}
out=$(mktemp -d /tmp/gb-spec-XXXXXX)
trap 'rm -rf "$out"' EXIT
fail=0 passed=0
no() { echo "FAIL: $*"; fail=$((fail + 1)); }
yes() { passed=$((passed + 1)); }

# spec_run NAME SPEC ARGS...: a quick run into $out/NAME; every point ok.
spec_run() {
    local name=$1 spec=$2 rc ok bad
    shift 2
    "$GPUBOUND" run "$spec" --quick --no-report --out "$out/$name" "$@" >"$out/$name.out" 2>"$out/$name.err"
    rc=$?
    ok=$(grep -c '"status":"ok"' "$out/$name/results.json" 2>/dev/null)
    bad=$(grep -c '"status":"\(failed\|error\|skipped\)"' "$out/$name/results.json" 2>/dev/null)
    echo "$name ($spec): exit $rc, ${ok:-0} ok, ${bad:-0} not ok"
    grep '"status":"\(failed\|error\|skipped\)"' "$out/$name/results.json" 2>/dev/null | head -3 | cut -c1-400
    if [ "$rc" != 0 ] || [ "${bad:-1}" != 0 ] || [ "${ok:-0}" = 0 ]; then
        tail -n 3 "$out/$name.err"; no "$spec: every quick point must verify"; return 1
    fi
    yes
    grep -q "\"spec\": \"$spec\"" "$out/$name/run.json" && yes || no "$name: run.json does not name the spec"
    [ -f "$out/$name/spec/$(basename "$(dirname "$spec")")/spec.json" ] || ls "$out/$name/spec"/*/spec.json >/dev/null 2>&1 \
        && yes || no "$name: the run keeps no copy of the spec"
    for m in regs smem_static_bytes smem_dynamic_bytes max_dynamic_smem_bytes active_warps_per_sm block_threads grid_blocks; do
        grep -q "\"$m\"" "$out/$name/results.json" || { no "$name: no metric $m in the records"; return 1; }
    done
    yes
    python3 "$src/scripts/plausible.py" "$out/$name" >/dev/null && yes || no "$name: implausible numbers"
}

for spec in "$src"/examples/*/spec.json "$src/tests/data/specs/saxpy/spec.json"; do
    [ -f "$spec" ] || continue
    spec_run "$(basename "$(dirname "$spec")")" "$spec"
done

# The template spec twice with a fresh module cache: the second run loads
# every module (and its lowered names) from disk.
export GPUBOUND_CACHE_DIR="$out/cache"
if spec_run reduce1 "$src/tests/data/specs/reduce/spec.json" && spec_run reduce2 "$src/tests/data/specs/reduce/spec.json"; then
    python3 - "$out/reduce1/run.json" "$out/reduce2/run.json" <<'PY' && yes || no "reduce: the second run compiled again"
import json, sys
a, b = (json.load(open(p))["modules"] for p in sys.argv[1:])
print("reduce modules: first run", a, "second run", b)
sys.exit(0 if a["compiled"] > 0 and b["compiled"] == 0 and b["from_disk_cache"] > 0 else 1)
PY
fi
unset GPUBOUND_CACHE_DIR

# The report draws a spec run from the run directory alone (its charts.json).
if [ -d "$out/saxpy" ]; then
    "$GPUBOUND" report "$out/saxpy" --out "$out/saxpy-report" >"$out/report.out" 2>"$out/report.err" &&
        ls "$out/saxpy-report/" | grep -q 'saxpy-saxpy-time' \
        && yes || { tail -n 3 "$out/report.err"; no "report of the saxpy run drew no saxpy-saxpy-time chart"; }
fi

# The wrong kernel: every point failed, the mismatch in the reason, exit 1.
"$GPUBOUND" run "$src/tests/data/specs/wrong/spec.json" --quick --no-report --out "$out/wrong" >"$out/wrong.out" 2>"$out/wrong.err"
rc=$?
failed=$(grep -c '"status":"failed"' "$out/wrong/results.json" 2>/dev/null)
echo "wrong: exit $rc, ${failed:-0} failed"
grep -o '"reason":"[^"]*"' "$out/wrong/results.json" 2>/dev/null | head -2
[ "$rc" = 1 ] && yes || no "wrong: exit $rc, expected 1"
[ "${failed:-0}" = 2 ] && yes || no "wrong: ${failed:-0} failed points, expected 2"
grep -q 'output y: index 4095: expected 4102, got 4096' "$out/wrong/results.json" && yes \
    || no "wrong: the reason does not report the mismatch at index 4095 (expected 4102, got 4096)"
grep -q 'point(s) failed' "$out/wrong.err" && yes || no "wrong: no line saying points failed"

# A planted bug against a reference made once per problem and kept on the
# GPU (tests/data/specs/planted): two problem sizes, taken in turn (n is the
# fastest axis), every configuration with plant = 1 skips the last element.
# With a reference kernel and with "first", every planted point fails at
# index n - 1 and every other point verifies: the cached reference still
# catches a wrong kernel, and the sizes keep their own inputs and reference
# (out = n * x + y: another size's would differ everywhere).
"$GPUBOUND" run "$src/tests/data/specs/planted/spec.json" --max-time 0.2 --no-report --out "$out/planted" \
    >"$out/planted.out" 2>"$out/planted.err"
rc=$?
echo "planted: exit $rc"
[ "$rc" = 1 ] && yes || { tail -n 3 "$out/planted.err"; no "planted: exit $rc, expected 1 (the planted points fail)"; }
python3 - "$out/planted/results.json" "$out/planted/run.json" <<'PY' && yes || no "planted: a planted point passed, a correct one failed, or the problems were not kept apart"
import json, re, sys
recs = json.load(open(sys.argv[1]))
run = json.load(open(sys.argv[2]))
bad = []
for bench in ("kernel_ref", "first_ref"):
    mine = [r for r in recs if r["bench"] == bench]
    if len(mine) != 8:
        bad.append(f"{bench}: {len(mine)} records, expected 8")
    for r in mine:
        a, n = r["axes"], int(r["axes"]["n"])
        if a["plant"] == "0" and r["status"] != "ok":
            bad.append(f"{bench} {a}: a correct configuration is {r['status']}: {r['reason']}")
        if a["plant"] == "1":
            why = r["reason"]
            # against a kept reference: the mismatch at n - 1; as "first": the poison left there
            if r["status"] != "failed" or not (f"output out: index {n - 1}: expected" in why or
                                               f"output out: index {n - 1} was not written" in why):
                bad.append(f"{bench} {a}: the planted bug is {r['status']}: {why}")
            m = re.search(r"\((\d+) of (\d+) values differ", why)
            if m and (m.group(1) != "1" or int(m.group(2)) != n):
                bad.append(f"{bench} {a}: {m.group(0)}: exactly the last of {n} values differs")
sd = run.get("spec_data", {})
print("planted: spec_data", sd)
if sd.get("budget_bytes", 0) <= 0 or sd.get("problems_made", 0) < 4:
    bad.append(f"run.json spec_data {sd}: a budget and at least 2 problems per bench")
print("\n".join(bad) or "planted: every planted point failed, every other verified")
sys.exit(1 if bad else 0)
PY

echo "$passed passed, $fail failed"
[ "$fail" = 0 ]
