# Every committed run under data/ (recorded on real GPUs) passes the device
# tier's plausibility layer (scripts/plausible.py): times positive and in CI
# order, bytes/s at most the DRAM peak (or, for L2-resident points, what the
# SMs can load), issue rates at most 4 x warp size per SM and clock, counters
# that add up to the bytes moved. A bad committed number fails `make test`.
# Then the checker itself: copies of a run with one number made implausible
# must each be rejected.
. "$(dirname "$0")/lib.bash"
src=${GB_SRC:-$(cd "$(dirname "$0")/../.." && pwd)}
runs=$(find "$src/data" -name run.json -printf '%h\n' | sort)
n=$(printf '%s\n' "$runs" | grep -c .)
if [ "$n" -lt 10 ]; then
    bad "only $n committed runs under data/ (expected the recorded H200 and H100 runs)"
elif python3 "$src/scripts/plausible.py" $runs >"$TMP/plaus" 2>&1; then
    ok
    echo "$n committed runs: $(awk '{ r += $2; c += $4 } END { print r " records, " c " checks" }' "$TMP/plaus"), all plausible"
else
    OUT=$(grep -v ' 0 implausible' "$TMP/plaus" | head -n 20); ERR=""
    bad "implausible numbers in committed runs"
fi

# plant PYTHON-EXPR: copy a bandwidth run, apply the edit to its first ok
# record r (d: the device), expect plausible.py to reject it.
plant() {
    rm -rf "$TMP/run" && cp -r "$src/data/h200/bandwidth-2026-11-21-a" "$TMP/run"
    python3 - "$TMP/run" "$1" <<'PY'
import json, sys
run, edit = sys.argv[1], sys.argv[2]
recs = json.load(open(run + "/results.json"))
d = json.load(open(run + "/run.json"))["device"]
r = [x for x in recs if x["status"] == "ok" and x["axes"].get("bytes") == "2G"][0]
exec(edit)
json.dump(recs, open(run + "/results.json", "w"))
PY
    OUT="" ERR=""
    if python3 "$src/scripts/plausible.py" "$TMP/run" >"$TMP/p" 2>&1; then
        OUT=$(cat "$TMP/p"); bad "plausible.py accepted a planted bad number: $1"
    else
        ok
    fi
}
plant 'r["bw_gbs"] = d["mem_peak_gbs"] * 1.01; r["time_ns"]["median"] = r["bytes"] / r["bw_gbs"]; r["time_ns"]["ci_lo"] = r["time_ns"]["min"] = r["time_ns"]["median"] * 0.99; r["time_ns"]["ci_hi"] = r["time_ns"]["median"] * 1.01'
plant 'r["time_ns"]["ci_lo"], r["time_ns"]["ci_hi"] = r["time_ns"]["ci_hi"], r["time_ns"]["ci_lo"]'
plant 'r["time_ns"]["min"] = 0'
plant 'r["bw_gbs"] = r["bw_gbs"] * 1.01'

# The counters' DRAM bytes name the footprint: the embedding bags' gathers
# from a 16 MiB table run above the DRAM peak and pass; the same records
# with their DRAM sectors scaled past the L2 (a footprint beyond it) fail.
emb="$src/data/h200/corpus-heldout2-2026-11-29/embbag"
OUT="" ERR=""
python3 "$src/scripts/plausible.py" "$emb" >"$TMP/p" 2>&1 && ok || { OUT=$(cat "$TMP/p"); bad "the 16 MiB table's gathers were judged implausible"; }
rm -rf "$TMP/emb" && cp -r "$emb" "$TMP/emb"
python3 - "$TMP/emb" <<'PY'
import gzip, json, sys
p = sys.argv[1] + "/results.json.gz"
recs = json.load(gzip.open(p, "rt"))
for r in recs:
    c = r.get("counters") or {}
    if "dram__sectors_read.sum" in c:
        c["dram__sectors_read.sum"] *= 4
json.dump(recs, gzip.open(p, "wt"))
PY
if python3 "$src/scripts/plausible.py" "$TMP/emb" >"$TMP/p" 2>&1; then
    OUT=$(cat "$TMP/p"); bad "plausible.py accepted gathers above the DRAM peak from a footprint beyond the L2"
else
    grep -q "above the DRAM peak" "$TMP/p" && ok || { OUT=$(cat "$TMP/p"); bad "not rejected for the DRAM peak"; }
fi
finish
